/*
 * decompose_nn.c - normalizations, softmax and attention in elementwise
 * ops and reductions:
 *   batch norm (inference)  (x - mean) * (weight / sqrt(var + eps)) + bias,
 *                           f16 and bf16 in f32 (rounded once, as eager);
 *                           the per-channel factors viewed as [1, C, 1, 1]
 *                           so that literal weights fold to literals;
 *   layer norm              (x - mean) * rsqrt(var + eps) * weight + bias
 *                           over the trailing dims, keepdim;
 *   group norm              the same over [N, G, C/G * HxW];
 *   softmax                 exp(x - amax) / sum, log_softmax alike;
 *   attention               softmax(q @ k^T * scale + mask) @ v.
 */
#include <math.h>

#include "decompose.h"

static Value *
add_scalar(B *b, Value *x, double s)
{
	return b_op3(b, "aten.add.Scalar", x, b_float(b, s), b_int(b, 1));
}

/* ---- batch norm ---- */

/* (x, w, b, mean, var, eps at ei) in inference mode. */
static int
batch_norm_at(B *b, Op *op, int ei)
{
	Value *x = OPND(op, 0), *w = OPND(op, 1), *bias = OPND(op, 2);
	Value *mean = OPND(op, 3), *var = OPND(op, 4), *y, *scale;
	int r = tt_rank(x->type);
	double eps;

	if (r < 2 || tv_none(mean) || tv_none(var) || !tv_float(OPND(op, ei), &eps)
	    || !d_unused_from(op, 1))
		return 0;
	/* f16 and bf16 compute in f32 and round once, as eager does */
	Type *dt = tt_dtype(x->type), *om = dt ? dt_opmath(b->c, dt) : NULL;
	if (om && om != dt) {
		x = d_to(b, x, om), mean = d_to(b, mean, om), var = d_to(b, var, om);
		w = tv_none(w) ? w : d_to(b, w, om);
		bias = tv_none(bias) ? bias : d_to(b, bias, om);
	}
	scale = b_op1(b, "aten.sqrt", add_scalar(b, var, eps));
	scale = tv_none(w) ? b_op1(b, "aten.reciprocal", scale) : d_div(b, w, scale);
	y = d_mul(b, d_sub(b, x, d_channel(b, mean, r)), d_channel(b, scale, r));
	if (!tv_none(bias))
		y = d_add(b, y, d_channel(b, bias, r));
	d_done(b, op, om && om != dt ? d_to(b, y, dt) : y);
	return 1;
}

static int
training(Op *op, int i)
{
	int t = 1;

	return !tv_bool(OPND(op, i), &t) || t;
}

static int
native_batch_norm(B *b, Op *op)
{
	if (training(op, 5) || !d_unused_from(op, 1))
		return d_batch_norm_train(b, op);   /* decompose_nnx.c */
	return batch_norm_at(b, op, 7);
}

static int
legit_no_training(B *b, Op *op)
{
	return batch_norm_at(b, op, 6);
}

static int
batch_norm(B *b, Op *op)
{
	return !training(op, 5) && batch_norm_at(b, op, 7);
}

/* ---- layer and group norm ---- */

/* (x - mean) * rsqrt(var + eps) over the dims in list `dims`; mean and
 * rstd out when asked. */
static Value *
normalize(B *b, Value *x, Value *dims, double eps, Value **mean, Value **rstd)
{
	Value *m, *v[4], *r;

	v[0] = x, v[1] = dims, v[2] = b_bool(b, 1), v[3] = b_none(b);
	m = b_op(b, "aten.mean.dim", 4, v);
	v[0] = x, v[1] = dims, v[2] = b_int(b, 0), v[3] = b_bool(b, 1);
	r = b_op1(b, "aten.rsqrt", add_scalar(b, b_op(b, "aten.var.correction", 4, v), eps));
	if (mean)
		*mean = m;
	if (rstd)
		*rstd = r;
	return d_mul(b, d_sub(b, x, m), r);
}

/* native_layer_norm(x, shape, w, b, eps) and layer_norm(... cudnn). */
static int
layer_norm(B *b, Op *op)
{
	Value *x = OPND(op, 0), *vals[3];
	int64_t ns[TORCH_MAXRANK], d[TORCH_MAXRANK];
	int r = tt_rank(x->type), k, i;
	double eps;

	if (r < 0 || (k = tv_ints(OPND(op, 1), ns, TORCH_MAXRANK)) < 1 || k > r
	    || !tv_float(OPND(op, 4), &eps))
		return 0;
	for (i = 0; i < k; i++)
		d[i] = i - k;
	vals[0] = normalize(b, x, b_ints(b, k, d), eps, &vals[1], &vals[2]);
	if (!tv_none(OPND(op, 2)))
		vals[0] = d_mul(b, vals[0], OPND(op, 2));
	if (!tv_none(OPND(op, 3)))
		vals[0] = d_add(b, vals[0], OPND(op, 3));
	torch_replace(b->c, op, vals);
	return 1;
}

/* group_norm(x, G, w, b, eps, cudnn) and native_group_norm(x, w, b, N,
 * C, HxW, G, eps), whose mean and rstd are [N, G]. */
static int
group_norm(B *b, Op *op)
{
	int nat = torch_is(op, "aten.native_group_norm");
	Value *x = OPND(op, 0), *w = OPND(op, nat ? 1 : 2), *bias = OPND(op, nat ? 2 : 3);
	Value *vals[3], **mr = nat ? vals + 1 : NULL;
	Type *t = x->type;
	int r = tt_rank(t), i;
	int64_t g, d[3], two = 2, n, hw;
	double eps;

	if (r < 2 || !ty_static(t) || !tv_int(OPND(op, nat ? 6 : 1), &g) || g <= 0
	    || t->dims[1] % g || !tv_float(OPND(op, nat ? 7 : 4), &eps))
		return 0;
	for (i = 2, hw = 1; i < r; i++)
		hw *= t->dims[i];
	d[0] = t->dims[0], d[1] = g, d[2] = t->dims[1] / g * hw;
	/* native_group_norm's N, C and HxW must describe x */
	if (nat && (!tv_int(OPND(op, 3), &n) || n != t->dims[0] || !tv_int(OPND(op, 4), &n)
	    || n != t->dims[1] || !tv_int(OPND(op, 5), &n) || n != hw))
		return 0;
	vals[0] = normalize(b, d_view(b, x, 3, d), b_ints(b, 1, &two), eps,
	    mr ? &vals[1] : NULL, mr ? &vals[2] : NULL);
	vals[0] = d_view(b, vals[0], r, t->dims);
	if (!tv_none(w))
		vals[0] = d_mul(b, vals[0], d_channel(b, w, r));
	if (!tv_none(bias))
		vals[0] = d_add(b, vals[0], d_channel(b, bias, r));
	if (!nat) {
		d_done(b, op, vals[0]);
		return 1;
	}
	vals[1] = d_view(b, vals[1], 2, d);
	vals[2] = d_view(b, vals[2], 2, d);
	torch_replace(b->c, op, vals);
	return 1;
}

/* instance_norm(x, w, b, running_mean, running_var, use_input_stats,
 * momentum, eps, cudnn) with the input's stats: group_norm with one group
 * per channel, the same mean and biased variance over each (n, c) plane.
 * The running stats' update is no value (f32 and f64 only: group_norm
 * computes in the input's dtype, where PyTorch's f16 would not). */
static int
instance_norm(B *b, Op *op)
{
	Value *x = OPND(op, 0), *v[6];
	Type *t = x->type, *dt = tt_dtype(t);
	int use = 0;
	double eps;

	if (tt_rank(t) < 3 || !ty_static(t) || !dt || (dt != dt_f32(b->c) && dt != dt_f64(b->c))
	    || !tv_bool(OPND(op, 5), &use) || !use || !tv_float(OPND(op, 7), &eps))
		return 0;
	v[0] = x, v[1] = b_int(b, t->dims[1]), v[2] = OPND(op, 1), v[3] = OPND(op, 2);
	v[4] = OPND(op, 7), v[5] = OPND(op, 8);
	d_done(b, op, b_op(b, "aten.group_norm", 6, v));
	return 1;
}

/* ---- softmax ---- */

static Value *
to_dtype(B *b, Value *x, Type *dt)
{
	Value *v[5] = { x, b_int(b, dt_code(dt)), b_bool(b, 0), b_bool(b, 0), b_none(b) };

	return b_op(b, "aten.to.dtype", 5, v);
}

/* x in the dtype asked for by softmax.int's dtype operand. */
static Value *
in_dtype(B *b, Op *op, Value *x)
{
	Type *dt = tt_dtype(RES(op, 0)->type);

	if (!dt || tt_dtype(x->type) == dt)
		return x;
	return to_dtype(b, x, dt);
}

static int
softmax_like(B *b, Op *op, int logv)
{
	Value *x = in_dtype(b, op, OPND(op, 0)), *dims, *v[4], *e, *s, *sh, *y;
	Type *dt = tt_dtype(x->type);
	int64_t dim;
	int narrow = dt && (dt->kind == TY_F16 || dt->kind == TY_BF16);

	if (!tv_int(OPND(op, 1), &dim) || tt_rank(x->type) < 0)
		return 0;
	/* f16 and bf16 compute in f32 and round once, as eager does: a
	 * logsumexp rounded to bf16 before the subtraction is off by 8 ulps */
	if (narrow)
		x = to_dtype(b, x, ty_float(b->c, TY_F32));
	dims = b_ints(b, 1, &dim);
	v[0] = x, v[1] = dims, v[2] = b_bool(b, 1);
	sh = d_sub(b, x, b_op(b, "aten.amax", 3, v));
	e = b_op1(b, "aten.exp", sh);
	v[0] = e, v[1] = dims, v[2] = b_bool(b, 1), v[3] = b_none(b);
	s = b_op(b, "aten.sum.dim_IntList", 4, v);
	y = logv ? d_sub(b, sh, b_op1(b, "aten.log", s)) : d_div(b, e, s);
	d_done(b, op, narrow ? to_dtype(b, y, dt) : y);
	return 1;
}

static int softmax(B *b, Op *op) { return softmax_like(b, op, 0); }
static int log_softmax(B *b, Op *op) { return softmax_like(b, op, 1); }

/* ---- attention ---- */

/* (q, k, v, mask, dropout_p, [need_weights,] is_causal[, scale]) */
static int
sdpa(B *b, Op *op)
{
	Value *q = OPND(op, 0), *k = OPND(op, 1), *v = OPND(op, 2), *mask = OPND(op, 3);
	int old = torch_is(op, "aten._scaled_dot_product_attention");
	int r = tt_rank(q->type), causal = 0;
	double p = 1, scale;
	Value *s, *a[4], *w;

	if (r < 2 || tt_rank(k->type) != r || q->type->dims[r - 1] == DYN
	    || !tv_float(OPND(op, 4), &p) || p != 0
	    || !tv_bool(OPND(op, old ? 6 : 5), &causal) || causal || (old && !d_unused_from(op, 1)))
		return 0;
	scale = 1 / sqrt((double)q->type->dims[r - 1]);
	if (!old && op->nopnds > 6 && !tv_none(OPND(op, 6)) && !tv_float(OPND(op, 6), &scale))
		return 0;
	k = d_transpose(b, k, -2, -1);
	a[0] = b_op2(b, "aten.matmul", q, k);
	s = b_op2(b, "aten.mul.Scalar", a[0], b_float(b, scale));
	if (!tv_none(mask)) {
		if (dt_isbool(tt_dtype(mask->type)))
			s = b_op3(b, "aten.masked_fill.Scalar", s,
			    b_op1(b, "aten.logical_not", mask), b_float(b, -INFINITY));
		else
			s = d_add(b, s, mask);
	}
	a[0] = s, a[1] = b_int(b, -1), a[2] = b_none(b);
	w = b_op(b, "aten.softmax.int", 3, a);
	d_done(b, op, b_op2(b, "aten.matmul", w, v));
	return 1;
}

/* ---- pooling, variance ---- */

static int
max_pool_indices(B *b, Op *op)
{
	Value *v[6];
	int i;

	if (!d_unused_from(op, 1))
		return 0;
	for (i = 0; i < 6; i++)
		v[i] = OPND(op, i);
	d_done(b, op, b_op(b, "aten.max_pool2d", 6, v));
	return 1;
}

/* adaptive_avg_pool2d with output sizes dividing the input: avg_pool2d. */
static int
adaptive_avg_pool(B *b, Op *op)
{
	Type *t = OPND(op, 0)->type;
	int64_t o[2], k[2], z[2] = {0, 0};
	int r = tt_rank(t), i;
	Value *v[7];

	if (r < 3 || tv_ints(OPND(op, 1), o, 2) != 2)
		return 0;
	for (i = 0; i < 2; i++) {
		int64_t in = t->dims[r - 2 + i];
		if (in == DYN || o[i] <= 0 || in % o[i])
			return 0;
		k[i] = in / o[i];
	}
	v[0] = OPND(op, 0), v[1] = b_ints(b, 2, k), v[2] = b_ints(b, 2, k);
	v[3] = b_ints(b, 2, z), v[4] = b_bool(b, 0), v[5] = b_bool(b, 1), v[6] = b_none(b);
	d_done(b, op, b_op(b, "aten.avg_pool2d", 7, v));
	return 1;
}

/* var.dim/std.dim(x, dim, unbiased, keepdim), var/std(x, unbiased). */
static int
var_like(B *b, Op *op)
{
	int std = torch_opname(op)[5] == 's', unbiased, keep = 0, full = op->nopnds == 2;
	Value *v[4];

	if (!tv_bool(OPND(op, full ? 1 : 2), &unbiased)
	    || (!full && !tv_bool(OPND(op, 3), &keep)))
		return 0;
	v[0] = OPND(op, 0), v[1] = full ? b_none(b) : OPND(op, 1);
	v[2] = b_int(b, unbiased), v[3] = b_bool(b, keep);
	d_done(b, op, b_op(b, std ? "aten.std.correction" : "aten.var.correction", 4, v));
	return 1;
}

const Decomp decomp_nn[] = {
	{"aten.native_batch_norm", native_batch_norm}, {"aten.batch_norm", batch_norm},
	{"aten._native_batch_norm_legit_no_training", legit_no_training},
	{"aten.native_layer_norm", layer_norm}, {"aten.layer_norm", layer_norm},
	{"aten.group_norm", group_norm}, {"aten.native_group_norm", group_norm},
	{"aten.instance_norm", instance_norm},
	{"aten.upsample_nearest1d", d_upsample}, {"aten.upsample_nearest1d.vec", d_upsample},
	{"aten.upsample_nearest2d", d_upsample}, {"aten.upsample_nearest2d.vec", d_upsample},
	{"aten.upsample_nearest3d", d_upsample}, {"aten.upsample_nearest3d.vec", d_upsample},
	{"aten.upsample_linear1d", d_upsample}, {"aten.upsample_linear1d.vec", d_upsample},
	{"aten.upsample_bilinear2d", d_upsample}, {"aten.upsample_bilinear2d.vec", d_upsample},
	{"aten.upsample_trilinear3d", d_upsample}, {"aten.upsample_trilinear3d.vec", d_upsample},
	{"aten._adaptive_avg_pool2d", d_adaptive_avg_alias},
	{"aten.adaptive_avg_pool1d", d_adaptive_pool1d}, {"aten.adaptive_max_pool1d", d_adaptive_pool1d},
	{"aten.adaptive_avg_pool3d", d_adaptive_pool3d}, {"aten._adaptive_avg_pool3d", d_adaptive_pool3d},
	{"aten.adaptive_max_pool3d", d_adaptive_pool3d},
	{"aten.softmax.int", softmax}, {"aten._softmax", softmax},
	{"aten.log_softmax.int", log_softmax}, {"aten._log_softmax", log_softmax},
	{"aten._scaled_dot_product_attention", sdpa},
	{"aten.scaled_dot_product_attention", sdpa},
	{"aten.max_pool2d_with_indices", max_pool_indices},
	{"aten.adaptive_avg_pool2d", adaptive_avg_pool},
	{"aten.var.dim", var_like}, {"aten.std.dim", var_like},
	{"aten.var", var_like}, {"aten.std", var_like},
	{NULL, NULL},
};

const OpTable decomp_nn_optables[] = {
	OPTABLE("decomposition", decomp_nn, "torch."),
	{NULL},
};
