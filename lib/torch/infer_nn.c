/*
 * infer_nn.c - inference for contractions (mm, bmm, matmul of any ranks,
 * linear), convolution and pooling output sizes, normalizations and
 * attention.
 */
#include "infer.h"

static Type *
dtype0(Op *op)
{
	return tt_dtype(TY(op, 0));
}

static Type *
promote2(Ctx *c, Op *op, int a, int b)
{
	Promo p = {0};

	promo_add(c, &p, OPND(op, a));
	promo_add(c, &p, OPND(op, b));
	return promo_result(c, &p);
}

static int64_t
dim_of(const Type *t, int i)
{
	return t->dims[i < 0 ? t->rank + i : i];
}

/* ---- contractions ---- */

/* mm, bmm, addmm (arg 1: operands 1, 2), baddbmm (arg 1), mv. */
static int
mm(Ctx *c, Op *op, Type **out, int arg)
{
	Type *a = TY(op, arg), *b = TY(op, arg + 1);
	int ra = tt_rank(a), rb = tt_rank(b), i;
	int64_t d[3];
	Type *dt = promote2(c, op, arg, arg + 1);

	if (ra < 0 || rb < 0)
		return out_set(c, op, out, 0, -1, NULL, dt);
	if (ra < 1 || rb < 1)
		return 0;
	for (i = 0; i < ra - 1; i++)
		d[i] = a->dims[i];
	if (rb >= 2)
		d[i++] = dim_of(b, -1);
	return out_set(c, op, out, 0, i, d, dt);
}

/* matmul: 1-D operands gain and lose a dim, batch dims broadcast. */
static int
matmul(Ctx *c, Op *op, Type **out, int arg)
{
	Type *a = TY(op, 0), *b = TY(op, 1);
	int ra = tt_rank(a), rb = tt_rank(b), n = 0, i, nb;
	int64_t d[TORCH_MAXRANK], ba[TORCH_MAXRANK], bb[TORCH_MAXRANK];
	Type *dt = promote2(c, op, 0, 1);

	if (ra < 1 || rb < 1)
		return out_set(c, op, out, 0, -1, NULL, dt);
	Type ta = {.kind = TY_TORCH_VTENSOR, .ranked = 1, .rank = ra > 2 ? ra - 2 : 0, .dims = ba};
	Type tb = {.kind = TY_TORCH_VTENSOR, .ranked = 1, .rank = rb > 2 ? rb - 2 : 0, .dims = bb};
	for (i = 0; i < ta.rank; i++)
		ba[i] = a->dims[i];
	for (i = 0; i < tb.rank; i++)
		bb[i] = b->dims[i];
	if ((nb = tt_broadcast(&ta, &tb, d)) < 0)
		return 0;
	n = nb;
	if (ra >= 2)
		d[n++] = dim_of(a, -2);
	if (rb >= 2)
		d[n++] = dim_of(b, -1);
	return out_set(c, op, out, 0, n, d, dt);
}

static int
linear(Ctx *c, Op *op, Type **out, int arg)
{
	Type *x = TY(op, 0), *w = TY(op, 1);
	int r = tt_rank(x), i;
	int64_t d[TORCH_MAXRANK];

	if (r < 1 || tt_rank(w) < 1)
		return out_set(c, op, out, 0, -1, NULL, dtype0(op));
	for (i = 0; i < r - 1; i++)
		d[i] = x->dims[i];
	if (w->rank == 2)
		d[i++] = w->dims[0];
	return out_set(c, op, out, 0, i, d, promote2(c, op, 0, 1));
}

/* ---- convolution and pooling ---- */

/* The k-th entry of a per-spatial-dim list (a single entry repeats);
 * dflt when the list is empty; DYN when unknown. */
static int64_t
spatial(Value *list, int k, int64_t dflt)
{
	int64_t v[TORCH_MAXRANK];
	int n = list ? tv_ints(list, v, TORCH_MAXRANK) : 0;

	if (n < 0)
		return DYN;
	if (n == 0)
		return dflt;
	return v[n == 1 ? 0 : k];
}

/* a * b + c, with *ovf set when it overflows int64 (the sizes, strides
 * and paddings are the model's constants) */
static int64_t
mad(int64_t a, int64_t b, int64_t c, int *ovf)
{
	int64_t r;

	if (__builtin_mul_overflow(a, b, &r) || __builtin_add_overflow(r, c, &r)) {
		*ovf = 1;
		return 0;
	}
	return r;
}

static int64_t
conv_size(int64_t in, int64_t k, int64_t s, int64_t p, int64_t dl, int64_t op_,
	int transposed)
{
	int64_t dk, o;
	int ovf = 0;

	if (in == DYN || k == DYN || s == DYN || p == DYN || dl == DYN || op_ == DYN
	    || s <= 0 || dl <= 0)
		return DYN;
	dk = mad(dl, k - 1, 1, &ovf);
	if (transposed)   /* (in - 1) * s - 2 * p + dl * (k - 1) + op_ + 1 */
		o = mad(1, op_, mad(-2, p, mad(in - 1, s, dk, &ovf), &ovf), &ovf);
	else              /* (in + 2 * p - dl * (k - 1) - 1) / s + 1 */
		o = mad(-1, dk, mad(2, p, in, &ovf), &ovf) / s + 1;
	return ovf ? DYN : o;
}

/* convolution / _convolution (arg 0), conv1d/conv2d (arg 1). */
static int
conv(Ctx *c, Op *op, Type **out, int arg)
{
	Type *x = TY(op, 0), *w = TY(op, 1);
	int r = tt_rank(x), k, tr = 0;
	int64_t d[TORCH_MAXRANK], g = 1;

	if (r < 0)
		return out_set(c, op, out, 0, -1, NULL, dtype0(op));
	if (r < 3 || tt_rank(w) != r)
		return 0;
	if (!arg && !tv_bool(OPND(op, 6), &tr))
		return 0;
	if (!tv_int(OPND(op, arg ? 6 : 8), &g))
		g = DYN;
	d[0] = x->dims[0];
	d[1] = w->dims[0];
	if (tr) {   /* weight [C, F / groups, K..] */
		int ovf = w->dims[1] == DYN || g == DYN;
		d[1] = mad(w->dims[1], g, 0, &ovf);
		if (ovf || d[1] < 0)
			d[1] = DYN;
	}
	for (k = 0; k < r - 2; k++)
		d[k + 2] = conv_size(x->dims[k + 2], w->dims[k + 2], spatial(OPND(op, 3), k, 1),
		    spatial(OPND(op, 4), k, 0), spatial(OPND(op, 5), k, 1),
		    arg ? 0 : spatial(OPND(op, 7), k, 0), tr);
	return out_set(c, op, out, 0, r, d, dtype0(op));
}

/* PyTorch's pooling_output_shape. */
static int64_t
pool_size(int64_t in, int64_t k, int64_t s, int64_t p, int64_t dl, int ceil)
{
	int64_t num, o;
	int ovf = 0;

	if (in == DYN || k == DYN || s == DYN || p == DYN || dl == DYN || s <= 0 || dl <= 0)
		return DYN;
	/* in + 2 * p - dl * (k - 1) - 1 + (ceil ? s - 1 : 0), checked */
	num = mad(-dl, k - 1, mad(2, p, in, &ovf), &ovf);
	num = mad(1, num, ceil ? s - 2 : -1, &ovf);
	if (ovf || num < -INT64_MAX + s)
		return DYN;
	o = (num >= 0 ? num / s : -((-num + s - 1) / s)) + 1;
	if (ceil && mad(o - 1, s, 0, &ovf) >= mad(1, in, p, &ovf))
		o--;
	return ovf ? DYN : o;
}

/* max_pool2d(self, k, s, p, dilation, ceil) arg 0; avg_pool2d(self, k, s,
 * p, ceil, ...) arg 1. */
static int
pool(Ctx *c, Op *op, Type **out, int arg)
{
	Type *x = TY(op, 0);
	int r = tt_rank(x), k, ceil = 0, i;
	int64_t d[TORCH_MAXRANK];

	if (r < 3)
		return r < 0 && out_set(c, op, out, 0, -1, NULL, dtype0(op));
	if (!tv_bool(OPND(op, arg ? 4 : 5), &ceil))
		return 0;
	for (i = 0; i < r; i++)
		d[i] = x->dims[i];
	for (k = 0; k < 2; k++) {
		int64_t ks = spatial(OPND(op, 1), k, DYN);
		d[r - 2 + k] = pool_size(x->dims[r - 2 + k], ks, spatial(OPND(op, 2), k, ks),
		    spatial(OPND(op, 3), k, 0), arg ? 1 : spatial(OPND(op, 4), k, 1), ceil);
	}
	out_set(c, op, out, 0, r, d, dtype0(op));
	return out_set(c, op, out, 1, r, d, dt_i64(c));
}

static int
adaptive_pool(Ctx *c, Op *op, Type **out, int arg)
{
	Type *x = TY(op, 0);
	int r = tt_rank(x), i, n;
	int64_t d[TORCH_MAXRANK], o[TORCH_MAXRANK];

	if (r < arg + 1 || (n = tv_ints(OPND(op, 1), o, TORCH_MAXRANK)) != arg)
		return r < 0 && out_set(c, op, out, 0, -1, NULL, dtype0(op));
	for (i = 0; i < r; i++)
		d[i] = i < r - arg ? x->dims[i] : o[i - (r - arg)];
	out_set(c, op, out, 0, r, d, dtype0(op));
	return out_set(c, op, out, 1, r, d, dt_i64(c));
}

/* ---- normalizations ---- */

/* The dtype of a normalization's saved statistics (mean, inverse
 * deviation).  An f16 or bf16 input with an f32 weight, bias or running
 * statistic (operands first..last) is PyTorch's "mixed type": its CPU
 * kernels (1.13 and 2) keep the statistics in f32, but PyTorch 2's meta
 * functions, from which torch.export writes the graph's types, say the
 * input's dtype.  There a result that states its dtype keeps it (NULL:
 * no word on the dtype), one that does not is f32; otherwise the
 * statistics are of the input's dtype. */
static Type *
stats_dtype(Ctx *c, Op *op, int first, int last)
{
	Type *x = dtype0(op), *p;
	int i;

	if (!x || (x->kind != TY_F16 && x->kind != TY_BF16))
		return x;
	for (i = first; i <= last; i++)
		if (tt_is(TY(op, i)) && (p = tt_dtype(TY(op, i))) && p->kind == TY_F32)
			return op->nres > 1 && tt_is(RES(op, 1)->type) && tt_dtype(RES(op, 1)->type)
				? NULL : ty_float(c, TY_F32);
	return x;
}

/* results 1 and 2, the saved statistics, of shape rank/dims */
static int
stats_out(Ctx *c, Op *op, Type **out, int rank, const int64_t *dims, int first, int last)
{
	Type *st = stats_dtype(c, op, first, last);

	out_set(c, op, out, 1, rank, dims, st);
	return out_set(c, op, out, 2, rank, dims, st);
}

/* native_batch_norm (arg 5: training at 5), _native_batch_norm_legit_
 * no_training (arg 0: never training), batch_norm. */
static int
batch_norm(Ctx *c, Op *op, Type **out, int arg)
{
	Type *x = TY(op, 0);
	int training = 0;
	int64_t n = 0;

	out_like(c, op, out, 0, x, dtype0(op));
	if (op->nres < 3)
		return 1;
	if (arg && !tv_bool(OPND(op, arg), &training))
		return 0;
	if (training)
		n = tt_rank(x) >= 2 ? x->dims[1] : DYN;
	return stats_out(c, op, out, 1, &n, 1, 4);
}

static int
layer_norm(Ctx *c, Op *op, Type **out, int arg)
{
	Type *x = TY(op, 0);
	int r = tt_rank(x), k, i;
	int64_t d[TORCH_MAXRANK], ns[TORCH_MAXRANK];

	out_like(c, op, out, 0, x, dtype0(op));
	if (op->nres < 3)
		return 1;
	if (r < 0 || (k = tv_ints(OPND(op, 1), ns, TORCH_MAXRANK)) < 0 || k > r)
		return 0;
	for (i = 0; i < r; i++)
		d[i] = i < r - k ? x->dims[i] : 1;
	return stats_out(c, op, out, r, d, 2, 3);
}

static int
group_norm(Ctx *c, Op *op, Type **out, int arg)
{
	int64_t d[2];

	out_like(c, op, out, 0, TY(op, 0), dtype0(op));
	if (op->nres < 3)
		return 1;
	if (!tv_int(OPND(op, 3), &d[0]))
		d[0] = DYN;
	if (!tv_int(OPND(op, 6), &d[1]))
		d[1] = DYN;
	return stats_out(c, op, out, 2, d, 1, 2);
}

/* attention: q [..., L, E], k [..., S, E], v [..., S, Ev] -> [..., L, Ev]
 * (and the weights [..., L, S] for the 1.13 form). */
static int
sdpa(Ctx *c, Op *op, Type **out, int arg)
{
	Type *q = TY(op, 0), *k = TY(op, 1), *v = TY(op, 2);
	int r = tt_rank(q), i;
	int64_t d[TORCH_MAXRANK];

	if (r < 2 || tt_rank(k) != r || tt_rank(v) != r)
		return r < 0 && out_set(c, op, out, 0, -1, NULL, dtype0(op));
	for (i = 0; i < r; i++)
		d[i] = q->dims[i];
	d[r - 1] = v->dims[r - 1];
	out_set(c, op, out, 0, r, d, dtype0(op));
	d[r - 1] = k->dims[r - 2];
	return out_set(c, op, out, 1, r, d, dtype0(op));
}

int infer_upsample(Ctx *c, Op *op, Type **out, int arg);   /* decompose_resize.c */

const InferRule infer_nn[] = {
	{"aten.mm", mm, 0}, {"aten.bmm", mm, 0}, {"aten.mv", mm, 0},
	{"aten.addmm", mm, 1}, {"aten.baddbmm", mm, 1},
	{"aten.matmul", matmul, 0}, {"aten.linear", linear, 0},
	{"aten.convolution", conv, 0}, {"aten._convolution", conv, 0},
	{"aten.conv1d", conv, 1}, {"aten.conv2d", conv, 1}, {"aten.conv3d", conv, 1},
	{"aten.max_pool2d", pool, 0}, {"aten.max_pool2d_with_indices", pool, 0},
	{"aten.avg_pool2d", pool, 1},
	{"aten.adaptive_avg_pool2d", adaptive_pool, 2},
	{"aten.adaptive_max_pool2d", adaptive_pool, 2},
	{"aten.adaptive_avg_pool1d", adaptive_pool, 1},
	{"aten._adaptive_avg_pool2d", adaptive_pool, 2}, {"aten.adaptive_max_pool1d", adaptive_pool, 1},
	{"aten.adaptive_avg_pool3d", adaptive_pool, 3}, {"aten._adaptive_avg_pool3d", adaptive_pool, 3},
	{"aten.adaptive_max_pool3d", adaptive_pool, 3},
	{"aten.upsample_nearest1d", infer_upsample, 0}, {"aten.upsample_nearest1d.vec", infer_upsample, 0},
	{"aten.upsample_nearest2d", infer_upsample, 0}, {"aten.upsample_nearest2d.vec", infer_upsample, 0},
	{"aten.upsample_nearest3d", infer_upsample, 0}, {"aten.upsample_nearest3d.vec", infer_upsample, 0},
	{"aten.upsample_linear1d", infer_upsample, 0}, {"aten.upsample_linear1d.vec", infer_upsample, 0},
	{"aten.upsample_bilinear2d", infer_upsample, 0}, {"aten.upsample_bilinear2d.vec", infer_upsample, 0},
	{"aten.upsample_trilinear3d", infer_upsample, 0},
	{"aten.upsample_trilinear3d.vec", infer_upsample, 0},
	{"aten.native_batch_norm", batch_norm, 5}, {"aten.batch_norm", batch_norm, 0},
	{"aten._native_batch_norm_legit_no_training", batch_norm, 0},
	{"aten.instance_norm", batch_norm, 0},
	{"aten.native_layer_norm", layer_norm, 0}, {"aten.layer_norm", layer_norm, 0},
	{"aten.group_norm", group_norm, 0}, {"aten.native_group_norm", group_norm, 0},
	{"aten._scaled_dot_product_attention", sdpa, 0},
	{"aten.scaled_dot_product_attention", sdpa, 0},
	{NULL, NULL, 0},
};

const OpTable infer_nn_optables[] = {
	OPTABLE("inference rule", infer_nn, "torch."),
	{NULL},
};
