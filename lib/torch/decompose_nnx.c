/*
 * decompose_nnx.c - losses, training-mode normalization, convolution
 * variants and scans in the backend contract's ops:
 *   nll_loss_forward     -x[i, t_i] * w[t_i] by gather, 0 where t_i is
 *                        ignore_index (the target read as 0 there, so an
 *                        out-of-range ignore_index reads nothing); none,
 *                        sum or mean over the summed weights;
 *   nll_loss_backward    a one-hot of the target times -w * grad;
 *   mse_loss             (x - y)^2, none/mean/sum;
 *   _convolution         convolution (the backend flags change nothing);
 *   convolution_backward grad_input a transposed convolution of grad_output,
 *                        grad_weight a convolution of the input (batch as
 *                        channels) with grad_output, grad_bias a sum;
 *   conv_tbc             conv1d on [B, C, T] views;
 *   _trilinear           unsqueeze, multiply, sum over sumdim;
 *   native_batch_norm    training mode: batch mean, biased variance;
 *   var_mean.correction  var.correction and mean.dim (std_mean: std.correction);
 *   cumprod, logcumsumexp  an [.., n, n, ..] masked prod / logsumexp
 *                        (O(n^2) per row: for the short rows of models;
 *                        codegen's CPU loops run the prod as a scan);
 *   renorm, _weight_norm_interface (norm.Scalar: decompose_cplx.c)
 *                        linalg_vector_norm;
 *   fake_quantize_per_tensor_affine_cachemask  round, clamp, rescale.
 *   fake_quantize_per_channel_affine_cachemask, its mask unused: the op
 *                        without the mask (left to the contract check).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "decompose.h"

/* ---- helpers ---- */

static Value *
sum_dims(B *b, Value *x, int n, const int64_t *dims, int keep)
{
	Value *v[4] = {x, b_ints(b, n, dims), b_bool(b, keep), b_none(b)};

	return b_op(b, "aten.sum.dim_IntList", 4, v);
}

static Value *
sum_all(B *b, Value *x)
{
	Value *v[2] = {x, b_none(b)};

	return b_op(b, "aten.sum", 2, v);
}

static Value *
arange(B *b, int64_t n)
{
	Value *v[7] = {b_int(b, 0), b_int(b, n), b_int(b, 1),
		b_int(b, dt_code(dt_i64(b->c))), b_none(b), b_none(b), b_none(b)};

	return b_op(b, "aten.arange.start_step", 7, v);
}

/* arange(n) viewed with its n at dim `at` of rank r, 1 elsewhere */
static Value *
arange_at(B *b, int64_t n, int r, int at)
{
	int64_t d[TORCH_MAXRANK + 1];
	int i;

	for (i = 0; i < r; i++)
		d[i] = i == at ? n : 1;
	return b_op2(b, "aten.view", arange(b, n), b_ints(b, r, d));
}

static Value *
permute(B *b, Value *x, int n, const int64_t *p)
{
	return b_op2(b, "aten.permute", x, b_ints(b, n, p));
}

static Value *
mul_s(B *b, Value *x, double s)
{
	return b_op2(b, "aten.mul.Scalar", x, b_float(b, s));
}

static int
is_float_t(Value *x)
{
	Type *dt = tt_is(x->type) ? tt_dtype(x->type) : NULL;

	return dt && dt_isfloat(dt);
}

/* a 0-d tensor holding v */
static Value *
full0(B *b, double v, Type *dt)
{
	Value *a[6] = {b_ints(b, 0, NULL), b_float(b, v), b_int(b, dt_code(dt)), b_none(b),
		b_none(b), b_none(b)};

	return b_op(b, "aten.full", 6, a);
}

/* ---- nll_loss ---- */

/* The common part of nll_loss_forward(x, t, w, reduction, ii) and
 * nll_loss_backward(g, x, t, w, reduction, ii, tw): x viewed [N, C], the
 * target [N] with ignored entries read as 0, valid [N] and the weight of
 * each row (0 where ignored) in x's dtype. */
typedef struct Nll {
	Value *x, *t, *valid, *w;
	int64_t n, c;
	int one;          /* x was [C], t [] */
} Nll;

static int
nll_setup(B *b, Value *x, Value *t, Value *weight, Value *ii, Nll *s)
{
	Type *xt = x->type, *tt = t->type, *dt = tt_dtype(xt);
	int r = tt_rank(xt);
	int64_t ign, d[2];
	Value *wv;

	if (!is_float_t(x) || (r != 1 && r != 2) || !tv_int(ii, &ign) || !ty_static(xt)
	    || !ty_static(tt) || !tt_dtype(tt) || dt_isfloat(tt_dtype(tt)) || dt_isbool(tt_dtype(tt)))
		return 0;
	s->one = r == 1;
	s->c = xt->dims[r - 1];
	s->n = s->one ? 1 : xt->dims[0];
	if (s->c < 1)
		return 0;
	/* eager takes a [C] input with a [C] target too, and reads its first
	 * element */
	if (r == 1 && tt_rank(tt) == 1 && tt->dims[0] == s->c) {
		Value *sv[5] = {t, b_int(b, 0), b_int(b, 0), b_int(b, 1), b_int(b, 1)};
		t = b_op(b, "aten.slice.Tensor", 5, sv);
	} else if (tt_rank(tt) != r - 1 || (r == 2 && tt->dims[0] != s->n))
		return 0;
	if (!tv_none(weight) && (tt_rank(weight->type) != 1 || weight->type->dims[0] != s->c
	    || tt_dtype(weight->type) != dt))
		return 0;
	d[0] = s->n, d[1] = s->c;
	s->x = d_view(b, x, 2, d);
	t = d_view(b, t, 1, d);
	s->valid = b_op2(b, "aten.ne.Scalar", t, b_int(b, ign));
	s->t = b_op3(b, "aten.where.ScalarOther", s->valid, t, b_int(b, 0));
	if (tv_none(weight))
		wv = d_to(b, s->valid, dt);
	else
		wv = b_op3(b, "aten.where.ScalarOther", s->valid,
		    b_op3(b, "aten.index_select", weight, b_int(b, 0), s->t), b_float(b, 0));
	s->w = wv;
	return 1;
}


static int
nll_loss_forward(B *b, Op *op)
{
	Value *x = OPND(op, 0), *vals[2], *g[4], *loss, *tw;
	Type *dt = tt_dtype(x->type);
	int64_t red;
	Nll s;

	if (!tv_int(OPND(op, 3), &red) || red < 0 || red > 2
	    || !nll_setup(b, x, OPND(op, 1), OPND(op, 2), OPND(op, 4), &s))
		return 0;
	g[0] = s.x, g[1] = b_int(b, 1), g[2] = b_op2(b, "aten.unsqueeze", s.t, b_int(b, 1));
	g[3] = b_bool(b, 0);
	loss = b_op(b, "aten.gather", 4, g);
	loss = d_view(b, loss, 1, &s.n);
	loss = b_op1(b, "aten.neg", d_mul(b, loss, s.w));
	loss = b_op3(b, "aten.where.ScalarOther", s.valid, loss, b_float(b, 0));
	if (red == 0 && !s.one) {
		vals[0] = loss;
		vals[1] = full0(b, 0, dt);
	} else {
		tw = sum_all(b, s.w);
		vals[0] = sum_all(b, loss);
		if (red == 1)
			vals[0] = d_div(b, vals[0], tw);
		vals[1] = tw;
	}
	torch_replace(b->c, op, vals);
	return 1;
}

/* (grad, x, t, w, reduction, ii, total_weight) */
static int
nll_loss_backward(B *b, Op *op)
{
	Value *gr = OPND(op, 0), *x = OPND(op, 1), *tw = OPND(op, 6), *coef, *hot, *gi;
	Type *dt = tt_dtype(x->type);
	int64_t red, d[2];
	Nll s;

	if (!tv_int(OPND(op, 4), &red) || red < 0 || red > 2 || !is_float_t(gr)
	    || tt_dtype(gr->type) != dt || !tt_is(tw->type) || tt_rank(tw->type) != 0
	    || tt_dtype(tw->type) != dt
	    || !nll_setup(b, x, OPND(op, 2), OPND(op, 3), OPND(op, 5), &s))
		return 0;
	if (red == 0 && !s.one) {
		if (tt_rank(gr->type) != 1 || gr->type->dims[0] != s.n)
			return 0;
	} else {   /* eager takes any one-element grad of rank 0 or 1 */
		if (!ty_static(gr->type) || tt_rank(gr->type) > 1
		    || (tt_rank(gr->type) == 1 && gr->type->dims[0] != 1))
			return 0;
		gr = d_view(b, gr, 0, NULL);
	}
	/* eager: -(mean ? g / tw : g) * w[t] */
	coef = red == 1 ? d_div(b, gr, tw) : gr;
	coef = d_mul(b, b_op1(b, "aten.neg", coef), s.w);            /* [N] */
	coef = b_op3(b, "aten.where.ScalarOther", s.valid, coef, b_float(b, 0));
	d[0] = s.n, d[1] = 1;
	hot = b_op2(b, "aten.eq.Tensor", d_view(b, s.t, 2, d), arange_at(b, s.c, 2, 1));
	gi = b_op3(b, "aten.where.ScalarOther", hot, d_view(b, coef, 2, d), b_float(b, 0));
	gi = d_view(b, gi, tt_rank(x->type), x->type->dims);
	d_done(b, op, gi);
	return 1;
}

/* ---- mse_loss(x, y, reduction) ---- */

static int
mse_loss(B *b, Op *op)
{
	Value *x = OPND(op, 0), *y = OPND(op, 1), *d;
	int64_t red;

	if (!tv_int(OPND(op, 2), &red) || red < 0 || red > 2 || !is_float_t(x) || !is_float_t(y))
		return 0;
	d = d_sub(b, x, y);
	d = d_mul(b, d, d);
	if (red == 1) {
		Value *v[2] = {d, b_none(b)};
		d = b_op(b, "aten.mean", 2, v);
	} else if (red == 2)
		d = sum_all(b, d);
	d_done(b, op, d);
	return 1;
}

/* ---- convolution ---- */

/* _convolution(x, w, b, stride, padding, dilation, transposed,
 * output_padding, groups, benchmark, deterministic, cudnn[, tf32]) */
static int
convolution_(B *b, Op *op)
{
	Value *v[9];
	int i;

	for (i = 0; i < 9; i++)
		v[i] = OPND(op, i);
	d_done(b, op, b_op(b, "aten.convolution", 9, v));
	return 1;
}

static Value *
conv(B *b, Value *x, Value *w, Value *bias, int ns, const int64_t *s, const int64_t *p,
	const int64_t *d, int tr, const int64_t *op_, int64_t g)
{
	Value *v[9] = {x, w, bias, b_ints(b, ns, s), b_ints(b, ns, p), b_ints(b, ns, d),
		b_bool(b, tr), b_ints(b, ns, op_), b_int(b, g)};

	return b_op(b, "aten.convolution", 9, v);
}

/* convolution_backward(go, x, w, bias_sizes, stride, padding, dilation,
 * transposed, output_padding, groups, output_mask) */
static int
convolution_backward(B *b, Op *op)
{
	Value *go = OPND(op, 0), *x = OPND(op, 1), *w = OPND(op, 2), *vals[3];
	Type *gt = go->type, *xt = x->type, *wt = w->type;
	int64_t s[3], p[3], dl[3], g, zeros[3] = {0, 0, 0};
	int64_t n, cin, cout, cg, kg, dims[8], perm[8], red[8];
	int r = tt_rank(xt), ns = r - 2, tr, mask[3], i, k;
	Value **m;

	if (r < 3 || r > 5 || tt_rank(gt) != r || tt_rank(wt) != r || !ty_static(xt)
	    || !ty_static(gt) || !ty_static(wt) || !is_float_t(x)
	    || tt_dtype(gt) != tt_dtype(xt) || tt_dtype(wt) != tt_dtype(xt)
	    || tv_ints(OPND(op, 4), s, 3) != ns || tv_ints(OPND(op, 5), p, 3) != ns
	    || tv_ints(OPND(op, 6), dl, 3) != ns || !tv_bool(OPND(op, 7), &tr) || tr
	    || !tv_int(OPND(op, 9), &g) || g < 1
	    || (k = tv_list(OPND(op, 10), &m)) < 0)
		return 0;
	for (i = 0; i < k && i < 3; i++)
		if (!tv_bool(m[i], &mask[i]))
			k = -1;
	free(m);   /* tv_list's copy */
	if (k != 3)
		return 0;
	n = xt->dims[0], cin = xt->dims[1], cout = wt->dims[0];
	if (cin % g || cout % g || wt->dims[1] != cin / g || gt->dims[0] != n
	    || gt->dims[1] != cout || n < 1)
		return 0;
	for (i = 0; i < ns; i++) {
		int64_t k_ = wt->dims[2 + i], o = gt->dims[2 + i], in = xt->dims[2 + i];
		if (s[i] < 1 || dl[i] < 1 || p[i] < 0
		    || o != (in + 2 * p[i] - dl[i] * (k_ - 1) - 1) / s[i] + 1 || o < 1)
			return 0;
	}
	{
		int64_t op2[3];
		/* the transposed convolution of go gives (o-1)s - 2p + d(k-1) + 1 */
		for (i = 0; i < ns; i++) {
			op2[i] = xt->dims[2 + i] - ((gt->dims[2 + i] - 1) * s[i] - 2 * p[i]
			    + dl[i] * (wt->dims[2 + i] - 1) + 1);
			if (op2[i] < 0 || (op2[i] >= s[i] && op2[i] >= dl[i]))
				return 0;
		}
		vals[0] = conv(b, go, w, b_none(b), ns, s, p, dl, 1, op2, g);
	}
	/* grad_weight: x as [Cg, G*N, ..] with go as a [G*Kg, N, ..] weight,
	 * stride and dilation swapped, groups G; out [Cg, G*Kg, K'..] */
	cg = cin / g, kg = cout / g;
	dims[0] = n, dims[1] = g, dims[2] = cg;
	for (i = 0; i < ns; i++)
		dims[3 + i] = xt->dims[2 + i];
	Value *xv = d_view(b, x, r + 1, dims);
	perm[0] = 2, perm[1] = 1, perm[2] = 0;
	for (i = 0; i < ns; i++)
		perm[3 + i] = 3 + i;
	xv = permute(b, xv, r + 1, perm);
	dims[0] = cg, dims[1] = g * n;
	for (i = 0; i < ns; i++)
		dims[2 + i] = xt->dims[2 + i];
	xv = d_view(b, xv, r, dims);
	dims[0] = n, dims[1] = g, dims[2] = kg;
	for (i = 0; i < ns; i++)
		dims[3 + i] = gt->dims[2 + i];
	Value *gv = d_view(b, go, r + 1, dims);
	perm[0] = 1, perm[1] = 2, perm[2] = 0;
	gv = permute(b, gv, r + 1, perm);
	dims[0] = g * kg, dims[1] = n;
	for (i = 0; i < ns; i++)
		dims[2 + i] = gt->dims[2 + i];
	gv = d_view(b, gv, r, dims);
	Value *gw = conv(b, xv, gv, b_none(b), ns, dl, p, s, 0, zeros, g);
	/* crop K'.. to the kernel */
	for (i = 0; i < ns; i++) {
		Value *sv[5];
		if (gw->type->dims[2 + i] == wt->dims[2 + i])
			continue;
		if (gw->type->dims[2 + i] < wt->dims[2 + i])
			return 0;
		sv[0] = gw, sv[1] = b_int(b, 2 + i), sv[2] = b_int(b, 0);
		sv[3] = b_int(b, wt->dims[2 + i]), sv[4] = b_int(b, 1);
		gw = b_op(b, "aten.slice.Tensor", 5, sv);
	}
	dims[0] = cg, dims[1] = g, dims[2] = kg;
	for (i = 0; i < ns; i++)
		dims[3 + i] = wt->dims[2 + i];
	gw = d_view(b, gw, r + 1, dims);
	perm[0] = 1, perm[1] = 2, perm[2] = 0;
	gw = permute(b, gw, r + 1, perm);
	vals[1] = d_view(b, gw, r, wt->dims);
	/* grad_bias */
	red[0] = 0;
	for (k = 1, i = 2; i < r; i++)
		red[k++] = i;
	vals[2] = sum_dims(b, go, k, red, 0);
	torch_replace(b->c, op, vals);
	return 1;
}

/* conv_tbc(x [T, B, Cin], w [K, Cin, Cout], bias [Cout], pad) */
static int
conv_tbc(B *b, Op *op)
{
	Value *x = OPND(op, 0), *w = OPND(op, 1), *bias = OPND(op, 2), *y;
	int64_t pad, one = 1, zero = 0, px[3] = {1, 2, 0}, pw[3] = {2, 1, 0}, py[3] = {2, 0, 1};

	if (tt_rank(x->type) != 3 || tt_rank(w->type) != 3 || tt_rank(bias->type) != 1
	    || !tv_int(OPND(op, 3), &pad) || pad < 0 || !is_float_t(x))
		return 0;
	y = conv(b, permute(b, x, 3, px), permute(b, w, 3, pw), bias, 1, &one, &pad, &one, 0,
	    &zero, 1);
	d_done(b, op, permute(b, y, 3, py));
	return 1;
}

/* ---- _trilinear(i1, i2, i3, expand1, expand2, expand3, sumdim, unroll) ---- */

static int
trilinear(B *b, Op *op)
{
	Value *in[3], *y;
	int64_t ex[TORCH_MAXRANK], sd[TORCH_MAXRANK], unroll;
	int n[3], total = -1, i, j, k, ns;
	unsigned char exp_[3][TORCH_MAXRANK] = {{0}}, sum[TORCH_MAXRANK] = {0};

	if (!tv_int(OPND(op, 7), &unroll))
		return 0;
	for (i = 0; i < 3; i++) {
		int r = tt_rank(OPND(op, i)->type), t;
		if (r < 0 || (n[i] = tv_ints(OPND(op, 3 + i), ex, TORCH_MAXRANK)) < 0)
			return 0;
		t = r + n[i];
		if (t > TORCH_MAXRANK || (total >= 0 && t != total))
			return 0;
		total = t;
		for (j = 0; j < n[i]; j++) {
			int64_t e = tt_dim(ex[j], t);
			if (e < 0 || exp_[i][e])
				return 0;
			exp_[i][e] = 1;
		}
	}
	if ((ns = tv_ints(OPND(op, 6), sd, TORCH_MAXRANK)) < 0)
		return 0;
	for (j = 0; j < ns; j++) {
		int64_t e = tt_dim(sd[j], total);
		if (e < 0 || sum[e])
			return 0;
		sum[e] = 1;
	}
	/* each dim: the inputs that have it agree on its size; one that no
	 * input has is empty in eager's result (its size is left 0), and
	 * eager's sum over one is no sum of the product: refused */
	for (k = 0; k < total; k++) {
		int64_t sz = -1, at[3] = {0, 0, 0};
		for (i = 0; i < 3; i++) {
			Type *t = OPND(op, i)->type;
			int64_t e;
			if (exp_[i][k])
				continue;
			for (j = 0; j < k; j++)
				at[i] += !exp_[i][j];
			e = t->dims[at[i]];
			if (e == DYN || (sz >= 0 && e != sz))
				return 0;
			sz = e;
		}
		if (sz < 0 && sum[k])
			return 0;
	}
	for (i = 0; i < 3; i++) {
		in[i] = OPND(op, i);
		for (k = 0; k < total; k++)
			if (exp_[i][k])
				in[i] = b_op2(b, "aten.unsqueeze", in[i], b_int(b, k));
	}
	y = d_mul(b, d_mul(b, in[0], in[1]), in[2]);
	for (k = 0; k < total; k++)
		if (exp_[0][k] && exp_[1][k] && exp_[2][k]) {
			Value *sv[5] = {y, b_int(b, k), b_int(b, 0), b_int(b, 0), b_int(b, 1)};
			y = b_op(b, "aten.slice.Tensor", 5, sv);
		}
	if (ns) {
		for (j = 0, k = 0; k < total; k++)
			if (sum[k])
				sd[j++] = k;
		y = sum_dims(b, y, ns, sd, 0);
	}
	d_done(b, op, y);
	return 1;
}

/* ---- native_batch_norm in training mode ---- */

/* Inference mode with its other results used: eager's CPU kernel gives
 * them as empty [0] tensors.  The same formula as decompose_nn.c's. */
/* weight, bias and the statistics in x's dtype: eager's mixed forms
 * (bf16 input, f32 weights) give f32 statistics, refused here */
static int
same_dtypes(Op *op, int n)
{
	Type *dt = tt_dtype(OPND(op, 0)->type);
	int i;

	for (i = 1; i < n; i++)
		if (!tv_none(OPND(op, i)) && (!tt_is(OPND(op, i)->type) || tt_dtype(OPND(op, i)->type) != dt
		    || tt_rank(OPND(op, i)->type) != 1))
			return 0;
	for (i = 0; i < op->nres; i++)
		if (!tt_is(RES(op, i)->type) || tt_dtype(RES(op, i)->type) != dt)
			return 0;
	return 1;
}

static int
batch_norm_eval(B *b, Op *op)
{
	Value *x = OPND(op, 0), *w = OPND(op, 1), *bias = OPND(op, 2), *vals[3];
	Value *mean = OPND(op, 3), *var = OPND(op, 4), *y, *sc, *a[6];
	Type *dt = tt_is(x->type) ? tt_dtype(x->type) : NULL;
	int r = tt_rank(x->type), i;
	int64_t zero = 0;
	double eps;

	if (r < 2 || !is_float_t(x) || tv_none(mean) || tv_none(var) || !tv_float(OPND(op, 7), &eps)
	    || !same_dtypes(op, 5))
		return 0;
	for (i = 1; i < 3; i++) {
		Type *t = RES(op, i)->type;
		if (!tt_is(t) || tt_rank(t) != 1 || t->dims[0] != 0 || tt_dtype(t) != dt)
			return 0;
	}
	sc = b_op1(b, "aten.sqrt", b_op3(b, "aten.add.Scalar", var, b_float(b, eps), b_int(b, 1)));
	sc = tv_none(w) ? b_op1(b, "aten.reciprocal", sc) : d_div(b, w, sc);
	y = d_mul(b, d_sub(b, x, d_channel(b, mean, r)), d_channel(b, sc, r));
	if (!tv_none(bias))
		y = d_add(b, y, d_channel(b, bias, r));
	a[0] = b_ints(b, 1, &zero), a[1] = b_float(b, 0), a[2] = b_int(b, dt_code(dt));
	a[3] = b_none(b), a[4] = b_none(b), a[5] = b_none(b);
	vals[0] = y;
	vals[1] = b_op(b, "aten.full", 6, a);
	vals[2] = b_op(b, "aten.full", 6, a);
	torch_replace(b->c, op, vals);
	return 1;
}

/* native_batch_norm in training mode, or in inference mode with its
 * saved statistics used (decompose_nn.c does the rest). */
int
d_batch_norm_train(B *b, Op *op)
{
	Value *x = OPND(op, 0), *w = OPND(op, 1), *bias = OPND(op, 2), *vals[3], *v[4];
	Value *mean, *var, *invstd, *y, *dl;
	int r = tt_rank(x->type), i;
	int64_t dims[TORCH_MAXRANK];
	double eps;

	int train = 0;

	if (!tv_bool(OPND(op, 5), &train))
		return 0;
	if (!train)
		return batch_norm_eval(b, op);
	/* running stats would be updated in place: not a value we give */
	if (r < 2 || !is_float_t(x) || !tv_none(OPND(op, 3)) || !tv_none(OPND(op, 4))
	    || !same_dtypes(op, 3)
	    || !tv_float(OPND(op, 7), &eps))
		return 0;
	dims[0] = 0;
	for (i = 2; i < r; i++)
		dims[i - 1] = i;
	dl = b_ints(b, r - 1, dims);
	v[0] = x, v[1] = dl, v[2] = b_bool(b, 0), v[3] = b_none(b);
	mean = b_op(b, "aten.mean.dim", 4, v);
	v[0] = x, v[1] = dl, v[2] = b_int(b, 0), v[3] = b_bool(b, 0);
	var = b_op(b, "aten.var.correction", 4, v);
	invstd = b_op1(b, "aten.rsqrt", b_op3(b, "aten.add.Scalar", var, b_float(b, eps),
	    b_int(b, 1)));
	y = d_mul(b, d_sub(b, x, d_channel(b, mean, r)), d_channel(b, invstd, r));
	if (!tv_none(w))
		y = d_mul(b, y, d_channel(b, w, r));
	if (!tv_none(bias))
		y = d_add(b, y, d_channel(b, bias, r));
	vals[0] = y, vals[1] = mean, vals[2] = invstd;
	torch_replace(b->c, op, vals);
	return 1;
}

/* native_group_norm_backward(dy, x, mean, rstd, weight, N, C, HxW, G,
 * mask), with the given mean and rstd ([N, G]) as eager's kernel takes
 * them: over [N, G, D, HxW] views, ds = sum dy * x and db = sum dy per
 * channel, then per group with gamma (1 without weight)
 *   c2 = (sum db gamma * mean - sum ds gamma) * rstd^3 / (D HxW)
 *   c3 = -c2 * mean - sum db gamma * rstd / (D HxW)
 *   dx = rstd * gamma * dy + c2 * x + c3,
 * dgamma = sum_n (ds - db * mean) * rstd, dbeta = sum_n db. */
static int
group_norm_backward(B *b, Op *op)
{
	Value *dy = OPND(op, 0), *x = OPND(op, 1), *mean = OPND(op, 2), *rstd = OPND(op, 3);
	Value *w = OPND(op, 4), *vals[3], *ds, *db, *dsv, *dbv, *c2, *c3, *t;
	Type *xt = x->type, *dt = tt_is(xt) ? tt_dtype(xt) : NULL;
	int64_t n, c, hw, g, d4[4], d2[2], m4[4], three = 3, two = 2, zero = 0;
	int r = tt_rank(xt), i;
	double inv;

	if (!is_float_t(x) || r < 2 || !ty_static(xt) || !tv_int(OPND(op, 5), &n)
	    || !tv_int(OPND(op, 6), &c) || !tv_int(OPND(op, 7), &hw) || !tv_int(OPND(op, 8), &g)
	    || g < 1 || n != xt->dims[0] || c != xt->dims[1] || c % g || hw < 1)
		return 0;
	for (i = 2, d4[0] = 1; i < r; i++)
		d4[0] *= xt->dims[i];
	if (d4[0] != hw || tt_rank(dy->type) != r || !ty_static(dy->type)
	    || !dims_eq(dy->type->dims, xt->dims, r) || tt_dtype(dy->type) != dt
	    || tt_rank(mean->type) != 2 || tt_rank(rstd->type) != 2 || !ty_static(mean->type)
	    || !ty_static(rstd->type) || mean->type->dims[0] != n || mean->type->dims[1] != g
	    || rstd->type->dims[0] != n || rstd->type->dims[1] != g
	    || tt_dtype(mean->type) != dt || tt_dtype(rstd->type) != dt
	    || (!tv_none(w) && (tt_rank(w->type) != 1 || w->type->dims[0] != c
	    || tt_dtype(w->type) != dt)))
		return 0;
	for (i = 0; i < op->nres; i++)
		if (!tt_is(RES(op, i)->type) || tt_dtype(RES(op, i)->type) != dt)
			return 0;
	d4[0] = n, d4[1] = g, d4[2] = c / g, d4[3] = hw;
	m4[0] = n, m4[1] = g, m4[2] = 1, m4[3] = 1;
	x = d_view(b, x, 4, d4);
	dy = d_view(b, dy, 4, d4);
	mean = d_view(b, mean, 4, m4);
	rstd = d_view(b, rstd, 4, m4);
	ds = sum_dims(b, d_mul(b, dy, x), 1, &three, 1);            /* [N, G, D, 1] */
	db = sum_dims(b, dy, 1, &three, 1);
	if (!tv_none(w)) {
		int64_t wd[4] = {1, g, c / g, 1};
		w = d_view(b, w, 4, wd);
		dsv = sum_dims(b, d_mul(b, ds, w), 1, &two, 1);           /* [N, G, 1, 1] */
		dbv = sum_dims(b, d_mul(b, db, w), 1, &two, 1);
	} else {
		dsv = sum_dims(b, ds, 1, &two, 1);
		dbv = sum_dims(b, db, 1, &two, 1);
	}
	inv = 1.0 / (double)(c / g * hw);
	t = d_mul(b, d_mul(b, rstd, rstd), rstd);
	c2 = mul_s(b, d_mul(b, d_sub(b, d_mul(b, dbv, mean), dsv), t), inv);
	c3 = d_sub(b, b_op1(b, "aten.neg", d_mul(b, c2, mean)), mul_s(b, d_mul(b, dbv, rstd), inv));
	t = tv_none(w) ? rstd : d_mul(b, rstd, w);
	vals[0] = d_add(b, d_add(b, d_mul(b, t, dy), d_mul(b, c2, x)), c3);
	vals[0] = d_view(b, vals[0], r, xt->dims);
	d2[0] = c;
	vals[1] = d_view(b, sum_dims(b, d_mul(b, d_sub(b, ds, d_mul(b, db, mean)), rstd), 1, &zero, 0),
	    1, d2);
	vals[2] = d_view(b, sum_dims(b, db, 1, &zero, 0), 1, d2);
	torch_replace(b->c, op, vals);
	return 1;
}

/* ---- var_mean.correction, std_mean.correction(x, dim, correction, keepdim) ---- */

/* Eager's var_mean runs Welford's update, mean += (x - mean) / n: an
 * infinite (or NaN) element before the last one (in row-major order over
 * the reduced dims) makes the mean NaN, where the plain mean would be
 * infinite.  The term that does the same: the sum, over the reduced dims,
 * of x * 0 (NaN exactly where x is not finite) where some reduced index
 * is before its dim's last, else 0.  NULL where a reduced dim is dynamic. */
static Value *
welford_nan(B *b, Value *x, Value *dims, int keep)
{
	int r = tt_rank(x->type), n, i;
	int64_t d[TORCH_MAXRANK];
	Value *mask = NULL;

	if (r < 1 || r > TORCH_MAXRANK)
		return NULL;
	if ((n = tv_none(dims) ? 0 : tv_ints(dims, d, TORCH_MAXRANK)) < 0)
		return NULL;
	if (n == 0)   /* none, or no dims: mean.dim is over all of them */
		for (n = 0; n < r; n++)
			d[n] = n;
	for (i = 0; i < n; i++) {
		int64_t k = tt_dim(d[i], r), e;
		if (k < 0 || (e = x->type->dims[k]) == DYN)
			return NULL;
		d[i] = k;
		Value *before = b_op2(b, "aten.lt.Scalar", arange_at(b, e, r, (int)k),
		    b_int(b, e - 1));
		mask = mask ? b_op2(b, "aten.logical_or", mask, before) : before;
	}
	Value *z = b_op3(b, "aten.where.ScalarOther", mask, mul_s(b, x, 0.0), b_float(b, 0));
	return sum_dims(b, z, n, d, keep);
}

static int
var_mean(B *b, Op *op)
{
	Value *x = OPND(op, 0), *vals[2], *v[4], *nan;
	int keep;

	if (!is_float_t(x) || tt_rank(x->type) < 0 || !tv_bool(OPND(op, 3), &keep))
		return 0;
	v[0] = x, v[1] = OPND(op, 1), v[2] = OPND(op, 2), v[3] = OPND(op, 3);
	vals[0] = b_op(b, torch_is(op, "aten.std_mean.correction") ? "aten.std.correction"
	    : "aten.var.correction", 4, v);
	v[0] = x, v[1] = OPND(op, 1), v[2] = OPND(op, 3), v[3] = b_none(b);
	vals[1] = b_op(b, "aten.mean.dim", 4, v);
	if ((nan = welford_nan(b, x, OPND(op, 1), keep)))
		vals[1] = d_add(b, vals[1], nan);
	torch_replace(b->c, op, vals);
	return 1;
}

/* ---- scans: cumprod(x, dim, dtype), logcumsumexp(x, dim) ---- */

static int
scan(B *b, Op *op, int lse)
{
	Value *x = OPND(op, 0), *xj, *mask, *vals, *v[4];
	Type *rt = RES(op, 0)->type, *dt = tt_is(rt) ? tt_dtype(rt) : NULL;
	int r = tt_rank(x->type);
	int64_t dim, n;

	if (!dt || dt_code(dt) < 0 || r < 0 || r >= TORCH_MAXRANK || !tv_int(OPND(op, 1), &dim))
		return 0;
	if (r == 0) {   /* a 0-d tensor is its own scan */
		d_done(b, op, d_to(b, x, dt));
		return 1;
	}
	if ((dim = tt_dim(dim, r)) < 0 || (n = x->type->dims[dim]) == DYN)
		return 0;
	if (lse && !dt_isfloat(dt))
		return 0;
	if (dt_isbool(dt))
		return 0;
	x = d_to(b, x, dt);
	if (n == 0) {
		d_done(b, op, x);
		return 1;
	}
	/* i at dim, j at dim + 1: out[i] reduces x[j] for j <= i */
	xj = b_op2(b, "aten.unsqueeze", x, b_int(b, dim));
	mask = b_op2(b, "aten.le.Tensor", arange_at(b, n, r + 1, dim + 1), arange_at(b, n, r + 1, dim));
	if (lse) {
		vals = b_op3(b, "aten.where.ScalarOther", mask, xj, b_float(b, -INFINITY));
		v[0] = vals, v[1] = b_ints(b, 1, (int64_t[]){dim + 1}), v[2] = b_bool(b, 0);
		d_done(b, op, b_op(b, "aten.logsumexp", 3, v));
	} else {
		/* eager's CPU scan runs in the accumulation type, double for
		 * f32: a running product past f32's range comes back into it */
		if (dt->kind == TY_F32)
			xj = d_to(b, xj, ty_float(b->c, TY_F64));
		vals = b_op3(b, "aten.where.ScalarOther", mask, xj,
		    dt_isfloat(dt) ? b_float(b, 1) : b_int(b, 1));
		v[0] = vals, v[1] = b_int(b, dim + 1), v[2] = b_bool(b, 0), v[3] = b_none(b);
		d_done(b, op, d_to(b, b_op(b, "aten.prod.dim_int", 4, v), dt));
	}
	return 1;
}

static int
cumprod(B *b, Op *op)
{
	return scan(b, op, 0);
}

static int
logcumsumexp(B *b, Op *op)
{
	return scan(b, op, 1);
}

/* ---- norms ---- */

static Value *
vnorm(B *b, Value *x, Value *p, Value *dims, int keep, Value *dtype)
{
	Value *v[5] = {x, p, dims, b_bool(b, keep), dtype};

	return b_op(b, "aten.linalg_vector_norm", 5, v);
}

/* renorm(x, p, dim, maxnorm): slices along dim whose p-norm (over the
 * other dims, in the accumulation type, rounded to x's) passes maxnorm are
 * scaled by maxnorm / (norm + 1e-7). */
static int
renorm(B *b, Op *op)
{
	Value *x = OPND(op, 0), *nrm, *f;
	Type *dt = tt_is(x->type) ? tt_dtype(x->type) : NULL, *acc;
	int r = tt_rank(x->type), i, k;
	int64_t dim, dims[TORCH_MAXRANK];
	double p, maxnorm;

	if (!is_float_t(x) || r < 1 || !tv_float(OPND(op, 1), &p) || p <= 0
	    || !tv_int(OPND(op, 2), &dim) || (dim = tt_dim(dim, r)) < 0
	    || !tv_float(OPND(op, 3), &maxnorm) || maxnorm < 0)
		return 0;
	if (r < 2)
		return 0;   /* a [n] tensor's slices are single elements */
	acc = dt->kind == TY_F16 || dt->kind == TY_BF16 ? ty_float(b->c, TY_F32) : dt;
	for (i = 0, k = 0; i < r; i++)
		if (i != dim)
			dims[k++] = i;
	nrm = vnorm(b, x, b_float(b, p), b_ints(b, k, dims), 1, b_int(b, dt_code(acc)));
	nrm = d_to(b, d_to(b, nrm, dt), acc);
	f = d_div(b, full0(b, maxnorm, acc), b_op3(b, "aten.add.Scalar", nrm, b_float(b, 1e-7),
	    b_int(b, 1)));
	f = b_op3(b, "aten.where.ScalarOther", b_op2(b, "aten.gt.Scalar", nrm, b_float(b, maxnorm)),
	    f, b_float(b, 1));
	d_done(b, op, d_mul(b, x, d_to(b, f, dt)));
	return 1;
}

/* _weight_norm_interface(v, g, dim): v * g / ||v|| over the dims but dim
 * (all dims for dim -1), and that norm, keepdim. */
static int
weight_norm(B *b, Op *op)
{
	Value *v = OPND(op, 0), *g = OPND(op, 1), *vals[2], *dl;
	int r = tt_rank(v->type), i, k;
	int64_t dim, dims[TORCH_MAXRANK];

	if (!is_float_t(v) || !is_float_t(g) || r < 1 || !tv_int(OPND(op, 2), &dim)
	    || tt_dtype(g->type) != tt_dtype(v->type) || dim < 0 || dim >= r
	    || tt_dtype(v->type)->kind == TY_F16 || tt_dtype(v->type)->kind == TY_BF16)
		return 0;
	for (i = 0, k = 0; i < r; i++)
		if (i != dim)
			dims[k++] = i;
	if (k == 0)
		return 0;
	dl = b_ints(b, k, dims);
	vals[1] = vnorm(b, v, b_float(b, 2), dl, 1, b_none(b));
	vals[0] = d_mul(b, v, d_div(b, g, vals[1]));
	torch_replace(b->c, op, vals);
	return 1;
}

/* ---- fake_quantize_per_tensor_affine_cachemask(x, scale, zp, qmin, qmax) ---- */

static int
fake_quant(B *b, Op *op)
{
	Value *x = OPND(op, 0), *q, *vals[2];
	double scale;
	int64_t zp, lo, hi;
	float inv, sc;

	if (!is_float_t(x) || tt_dtype(x->type)->kind != TY_F32 || !tv_float(OPND(op, 1), &scale)
	    || !tv_int(OPND(op, 2), &zp) || !tv_int(OPND(op, 3), &lo) || !tv_int(OPND(op, 4), &hi)
	    || lo > hi || !(scale > 0))
		return 0;
	/* eager: inv_scale = 1.0f / scale in float, nearbyint(x * inv_scale) + zp */
	sc = (float)scale;
	inv = 1.0f / sc;
	q = b_op1(b, "aten.round", mul_s(b, x, (double)inv));
	q = b_op3(b, "aten.add.Scalar", q, b_float(b, (double)zp), b_int(b, 1));
	vals[1] = b_op2(b, "aten.logical_and", b_op2(b, "aten.ge.Scalar", q, b_float(b, (double)lo)),
	    b_op2(b, "aten.le.Scalar", q, b_float(b, (double)hi)));
	q = b_op3(b, "aten.clamp", q, b_float(b, (double)lo), b_float(b, (double)hi));
	q = b_op3(b, "aten.sub.Scalar", q, b_float(b, (double)zp), b_int(b, 1));
	vals[0] = mul_s(b, q, (double)sc);
	torch_replace(b->c, op, vals);
	return 1;
}

/* ---- quantized_decomposed: the quantize / dequantize ops of PT2E ----
 *
 * PyTorch's own definitions (torch/ao/quantization/fx/_decomposed.py)
 * op for op, so the integers come out as eager's:
 *   quantize_per_tensor    clamp(round(x * (1.0 / scale)) + zp, lo, hi).to(dtype)
 *   quantize_per_channel   the same with scales and zps along axis, 1 / s in f32
 *   dequantize_per_tensor  (x.to(out) - zp) * scale
 *   dequantize_per_channel ((x - zps) * scales).to(out), zps and scales along axis
 * 1.0 / scale is a double there, rounded to f32 by the multiply; round is
 * half to even; x - zps is an integer tensor (int64) before the multiply. */

/* the quantized dtype (operand i, a code, an integer type of at most 32
 * bits) and the bounds (operands i - 2, i - 1) within its range, as
 * PyTorch checks them: 1 if they are */
static int
qparams(B *b, Op *op, int i, Type **dt, int64_t *lo, int64_t *hi)
{
	int64_t code, min, max;

	if (!tv_int(OPND(op, i - 2), lo) || !tv_int(OPND(op, i - 1), hi) || *lo > *hi
	    || !tv_int(OPND(op, i), &code) || !(*dt = dt_from_code(b->c, code))
	    || (*dt)->kind != TY_INT || (*dt)->width < 2 || (*dt)->width > 32)
		return 0;
	min = (*dt)->sign == UNSIGNED ? 0 : -((int64_t)1 << ((*dt)->width - 1));
	max = (*dt)->sign == UNSIGNED ? ((int64_t)1 << (*dt)->width) - 1 : -min - 1;
	return *lo >= min && *hi <= max;
}

/* the dequantized dtype: out_dtype (operand i), f32 when None */
static Type *
out_dtype(B *b, Op *op, int i)
{
	int64_t code;

	if (op->nopnds <= i || OPND(op, i)->type->kind == TY_TORCH_NONE)
		return dt_f32(b->c);
	return tv_int(OPND(op, i), &code) ? dt_from_code(b->c, code) : NULL;
}

/* the axis of a per-channel op (operand i) within x's rank, or -1 */
static int
qaxis(Op *op, int i, Value *x)
{
	int64_t a;
	int r = tt_rank(x->type);

	if (r < 1 || !tv_int(OPND(op, i), &a) || a < -r || a >= r)
		return -1;
	return (int)(a < 0 ? a + r : a);
}

static Value *
qround(B *b, Value *scaled, Value *zp, int64_t lo, int64_t hi, Type *dt)
{
	Value *q = b_op1(b, "aten.round", scaled);

	q = zp->type->kind == TY_TORCH_INT ? b_op3(b, "aten.add.Scalar", q, zp, b_int(b, 1))
	    : d_add(b, q, zp);
	return d_to(b, b_op3(b, "aten.clamp", q, b_int(b, lo), b_int(b, hi)), dt);
}

static Value *
f32_input(B *b, Value *x)
{
	Type *d = tt_dtype(x->type);

	return d && (d->kind == TY_F16 || d->kind == TY_BF16) ? d_to(b, x, dt_f32(b->c)) : x;
}

static int
quantize_per_tensor(B *b, Op *op)
{
	Value *x = f32_input(b, OPND(op, 0));
	double scale;
	int64_t zp, lo, hi;
	Type *dt;

	if (!is_float_t(x) || tt_dtype(x->type)->kind != TY_F32 || !tv_float(OPND(op, 1), &scale)
	    || !tv_int(OPND(op, 2), &zp) || !qparams(b, op, 5, &dt, &lo, &hi))
		return 0;
	d_done(b, op, qround(b, mul_s(b, x, 1.0 / scale), b_int(b, zp), lo, hi, dt));
	return 1;
}

static int
quantize_per_channel(B *b, Op *op)
{
	Value *x = f32_input(b, OPND(op, 0)), *s, *z;
	int64_t lo, hi;
	int axis = qaxis(op, 3, x);
	Type *dt;

	if (!is_float_t(x) || tt_dtype(x->type)->kind != TY_F32 || axis < 0
	    || !qparams(b, op, 6, &dt, &lo, &hi)
	    || !(s = d_along(b, OPND(op, 1), axis, tt_rank(x->type)))
	    || !(z = d_along(b, OPND(op, 2), axis, tt_rank(x->type))))
		return 0;
	s = b_op1(b, "aten.reciprocal", s);
	d_done(b, op, qround(b, d_mul(b, x, s), z, lo, hi, dt));
	return 1;
}

static int
dequantize_per_tensor(B *b, Op *op)
{
	Value *x = OPND(op, 0);
	double scale;
	int64_t zp;
	Type *out = out_dtype(b, op, 6);

	if (!out || !dt_isfloat(out) || !tt_dtype(x->type) || !tv_float(OPND(op, 1), &scale)
	    || !tv_int(OPND(op, 2), &zp))
		return 0;
	x = b_op3(b, "aten.sub.Scalar", d_to(b, x, out), b_int(b, zp), b_int(b, 1));
	d_done(b, op, mul_s(b, x, scale));
	return 1;
}

static int
dequantize_per_channel(B *b, Op *op)
{
	Value *x = OPND(op, 0), *s, *z = OPND(op, 2);
	int axis = qaxis(op, 3, x), r = tt_rank(x->type);
	Type *out = out_dtype(b, op, 7);

	if (!out || !dt_isfloat(out) || axis < 0 || !(s = d_along(b, OPND(op, 1), axis, r)))
		return 0;
	if (z->type->kind != TY_TORCH_NONE) {
		if (!(z = d_along(b, z, axis, r)))
			return 0;
		x = d_sub(b, x, z);
	}
	d_done(b, op, d_to(b, d_mul(b, x, s), out));
	return 1;
}

/* fake_quantize_per_channel_affine_cachemask whose mask is unused: the
 * same output without the mask. */
static int
fake_quant_channel(B *b, Op *op)
{
	Value *v[6];
	Type *t = RES(op, 0)->type;
	Op *nop;
	int i;

	if (!d_unused_from(op, 1))
		return 0;
	for (i = 0; i < 6; i++)
		v[i] = OPND(op, i);
	/* the output's type is the cachemask op's (no inference rule here) */
	nop = op_new(b->c, "torch.aten.fake_quantize_per_channel_affine", 6, v, 1, &t, 0, b->loc);
	op_insert_before(b->at, nop);
	d_done(b, op, RES(nop, 0));
	return 1;
}

const Decomp decomp_nnx[] = {
	{"aten.fake_quantize_per_channel_affine_cachemask", fake_quant_channel},
	{"aten.nll_loss_forward", nll_loss_forward},
	{"aten.nll_loss_backward", nll_loss_backward},
	{"aten.mse_loss", mse_loss},
	{"aten._convolution", convolution_}, {"aten._convolution.deprecated", convolution_},
	{"aten.convolution_backward", convolution_backward},
	{"aten.conv_tbc", conv_tbc},
	{"aten._trilinear", trilinear},
	{"aten.var_mean.correction", var_mean}, {"aten.std_mean.correction", var_mean},
	{"aten.native_group_norm_backward", group_norm_backward},
	{"aten.cumprod", cumprod}, {"aten.logcumsumexp", logcumsumexp},
	{"aten.renorm", renorm},
	{"aten._weight_norm_interface", weight_norm},
	{"aten.fake_quantize_per_tensor_affine_cachemask", fake_quant},
	{"quantized_decomposed.quantize_per_tensor", quantize_per_tensor},
	{"quantized_decomposed.quantize_per_channel", quantize_per_channel},
	{"quantized_decomposed.dequantize_per_tensor", dequantize_per_tensor},
	{"quantized_decomposed.dequantize_per_channel", dequantize_per_channel},
	{NULL, NULL},
};

const OpTable decomp_nnx_optables[] = {
	OPTABLE("decomposition", decomp_nnx, "torch."),
	{NULL},
};
