/*
 * decompose_pool.c - pooling of every rank, and its relatives, in the 2-d
 * pools the backend contract lowers, gathers, scatters and elementwise ops:
 *   max_pool{1,3}d[_with_indices], avg_pool{1,3}d
 *                        1-d: the 2-d pool of [.., 1, L]; 3-d: the windows
 *                        are boxes, so the 2-d pool over (H, W) of
 *                        [L * D, H, W], then over (D, 1) of [L, D, oH * oW].
 *                        Max: the second pool picks the first d holding the
 *                        maximum (the last holding a NaN), the first its
 *                        first (h, w): PyTorch's (d, h, w) order.  The flat
 *                        index d * H * W + h * W + w is gathered from both.
 *                        Average: both pools sum (divisor 1) in opmath, then
 *                        one division by PyTorch's divisor per window;
 *   adaptive_max_pool3d  with indices, the same way (decompose_resize.c
 *                        hands it here);
 *   reflection_pad3d, replication_pad{1,3}d
 *                        the 2-d pads over (H, W), then over (D, 1);
 *   unfold, im2col       index_select with constant tables, views;
 *   max_unpool{2,3}d, max_pool{2,3}d_with_indices_backward
 *                        scatter / scatter_add over each flattened plane
 *                        (torch-lower's scatter visits every pair of target
 *                        and update: the product of the two sizes);
 *   upsample_nearest{1,2,3}d_backward
 *                        per dim, the sum of the gradient's positions that
 *                        read each input (gathers of a constant table, in
 *                        PyTorch's order);
 *   grid_sampler_2d      bilinear and nearest, zeros and border padding:
 *                        four (one) gathers with PyTorch's coordinates.
 * Shapes must be static: the tables are computed here.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "decompose.h"

/* ---- helpers ---- */

/* A list of 1 or k ints (one is every dim's); an empty list is dflt's
 * (when dflt). */
static int
spatial_ints(Value *list, int k, int64_t *out, const int64_t *dflt)
{
	int64_t v[3];
	int n = tv_ints(list, v, 3), i;

	if (n < 0)
		return 0;
	if (n == 0 && dflt) {
		memcpy(out, dflt, sizeof *out * k);
		return 1;
	}
	if (n != 1 && n != k)
		return 0;
	for (i = 0; i < k; i++)
		out[i] = v[n == 1 ? 0 : i];
	return 1;
}

/* PyTorch's pooling_output_shape and pool_shape_check (for one dim): 0
 * when it would refuse the window. */
static int
pool_out(int64_t in, int64_t k, int64_t s, int64_t p, int64_t d, int ceil, int64_t *o)
{
	int64_t span, n;

	if (in <= 0 || k <= 0 || s <= 0 || d <= 0 || p < 0 || p > k / 2 || k > (1 << 20)
	    || d > (1 << 20) || s > ((int64_t)1 << 40) || in > ((int64_t)1 << 40))
		return 0;
	span = in + 2 * p - d * (k - 1) - 1 + (ceil ? s - 1 : 0);
	n = (span >= 0 ? span / s : -((-span + s - 1) / s)) + 1;
	if (ceil && (n - 1) * s >= in + p)
		n--;
	if (n < 1)
		return 0;
	*o = n;
	return 1;
}

/* result i is static of rank r, with the dims d */
static int
result_is(Op *op, int i, int r, const int64_t *d)
{
	Type *t = i < op->nres ? RES(op, i)->type : NULL;

	return t && tt_rank(t) == r && ty_static(t) && !memcmp(t->dims, d, sizeof *d * r);
}

static int64_t
prod(const int64_t *d, int n)
{
	int64_t p = 1;

	while (n-- > 0)
		p *= d[n];
	return p;
}

static Value *
to_dtype(B *b, Value *x, Type *dt)
{
	Value *v[5] = {x, b_int(b, dt_code(dt)), b_bool(b, 0), b_bool(b, 0), b_none(b)};

	if (tt_dtype(x->type) == dt)
		return x;
	return b_op(b, "aten.to.dtype", 5, v);
}

static Value *
zeros(B *b, int r, const int64_t *d, Type *dt)
{
	Value *v[6] = {b_ints(b, r, d), dt_isfloat(dt) ? b_float(b, 0) : b_int(b, 0),
		b_int(b, dt_code(dt)), b_none(b), b_none(b), b_none(b)};

	return b_op(b, "aten.full", 6, v);
}

static Value *
index_lit(B *b, const double *idx, int64_t n)
{
	return lit_make(b, tt_vt(b->c, 1, &n, dt_i64(b->c)), idx, n, NULL);
}

static double *
table(int64_t n)
{
	return xmalloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
}

/* Results of an op whose results are all empty: zeros of their types. */
static int
empty_results(B *b, Op *op)
{
	Value *v[4];
	int i;

	for (i = 0; i < op->nres && i < 4; i++) {
		Type *t = RES(op, i)->type;
		if (!tt_dtype(t) || dt_code(tt_dtype(t)) < 0)
			return 0;
		v[i] = zeros(b, t->rank, t->dims, tt_dtype(t));
	}
	torch_replace(b->c, op, v);
	return 1;
}

static int
empty_result_types(Op *op)
{
	int i;

	for (i = 0; i < op->nres; i++)
		if (ty_numel(RES(op, i)->type) != 0)
			return 0;
	return op->nres > 0;
}

/* ---- max and average pools ---- */

typedef struct Pool {
	int k, r, ceil;             /* spatial dims, rank */
	int64_t K[3], S[3], P[3], Dl[3], O[3];
} Pool;

/* (self, kernel, stride, padding, [dilation,] ceil ...): 0 when they are
 * not constant, not PyTorch's, or the results disagree. */
static int
pool_params(Op *op, int k, int dil, Pool *p)
{
	Type *t = OPND(op, 0)->type;
	int64_t one[3] = {1, 1, 1}, d[TORCH_MAXRANK];
	int i;

	p->k = k, p->r = tt_rank(t);
	if ((p->r != k + 1 && p->r != k + 2) || !ty_static(t) || !tt_dtype(t)
	    || !spatial_ints(OPND(op, 1), k, p->K, NULL) || !spatial_ints(OPND(op, 2), k, p->S, p->K)
	    || !spatial_ints(OPND(op, 3), k, p->P, NULL)
	    || (dil && !spatial_ints(OPND(op, 4), k, p->Dl, NULL))
	    || !tv_bool(OPND(op, dil ? 5 : 4), &p->ceil))
		return 0;
	if (!dil)
		memcpy(p->Dl, one, sizeof one);
	for (i = 0; i < k; i++)
		if (!pool_out(t->dims[p->r - k + i], p->K[i], p->S[i], p->P[i], p->Dl[i], p->ceil,
		    &p->O[i]))
			return 0;
	memcpy(d, t->dims, sizeof *d * p->r);
	memcpy(d + p->r - k, p->O, sizeof *d * k);
	for (i = 0; i < op->nres; i++)
		if (!result_is(op, i, p->r, d))
			return 0;
	return 1;
}

static Op *
max2(B *b, Value *x, const int64_t *k, const int64_t *s, const int64_t *p, const int64_t *d,
	int ceil)
{
	Value *v[6] = {x, b_ints(b, 2, k), b_ints(b, 2, s), b_ints(b, 2, p), b_ints(b, 2, d),
		b_bool(b, ceil)};

	return b_opn(b, "aten.max_pool2d_with_indices", 6, v);
}

static Value *
avg2(B *b, Value *x, const int64_t *k, const int64_t *s, const int64_t *p, int ceil)
{
	Value *v[7] = {x, b_ints(b, 2, k), b_ints(b, 2, s), b_ints(b, 2, p), b_bool(b, ceil),
		b_bool(b, 1), b_int(b, 1)};

	return b_op(b, "aten.avg_pool2d", 7, v);
}

/* max_pool1d[_with_indices], avg_pool1d of x [.., L]: the 2-d pools of
 * [.., 1, L] with windows (1, k); max's flat indices h * L + w are w */
static int
pool1d(B *b, Op *op)
{
	int mx = strstr(torch_opname(op), "max") != NULL, cip = 0, i;
	int64_t k[2], s[2], p[2], d[2] = {1, 1};
	Value *x, *v[2], *a[7];
	Pool q;

	if (!pool_params(op, 1, mx, &q) || (!mx && !tv_bool(OPND(op, 5), &cip)))
		return 0;
	k[0] = s[0] = 1, p[0] = 0;
	k[1] = q.K[0], s[1] = q.S[0], p[1] = q.P[0], d[1] = q.Dl[0];
	x = b_op2(b, "aten.unsqueeze", OPND(op, 0), b_int(b, -2));
	if (mx) {
		Op *m = max2(b, x, k, s, p, d, q.ceil);
		for (i = 0; i < 2; i++)
			v[i] = b_op2(b, "aten.squeeze.dim", RES(m, i), b_int(b, -2));
		torch_replace(b->c, op, v);
		return 1;
	}
	a[0] = x, a[1] = b_ints(b, 2, k), a[2] = b_ints(b, 2, s), a[3] = b_ints(b, 2, p);
	a[4] = b_bool(b, q.ceil), a[5] = b_bool(b, cip), a[6] = b_none(b);
	d_done(b, op, b_op2(b, "aten.squeeze.dim", b_op(b, "aten.avg_pool2d", 7, a),
	    b_int(b, -2)));
	return 1;
}

/* The flat 3-d indices from the two stages: i1 [L * D, oH, oW] (h * W + w
 * of the pool over (H, W)), i2 [L, oD, oH * oW] (d * oH * oW + j of the
 * pool over (D, 1) of its values): d * H * W + i1 at (d, j). */
static Value *
index3(B *b, Value *i1, Value *i2, int64_t L, int64_t D, int64_t HW, int64_t oD,
	int64_t ohw)
{
	int64_t a[2] = {L, D * ohw}, c[2] = {L, oD * ohw};
	Value *f1 = d_view(b, i1, 2, a), *f2 = d_view(b, i2, 2, c);
	Value *g[4] = {f1, b_int(b, 1), f2, b_bool(b, 0)};
	Value *hw = b_op(b, "aten.gather", 4, g);
	Value *dv[3] = {f2, b_int(b, ohw), b_str(b, "trunc")};
	Value *dd = b_op(b, "aten.div.Scalar_mode", 3, dv);

	return d_add(b, b_op2(b, "aten.mul.Scalar", dd, b_int(b, HW)), hw);
}

/* the [.., oD, oH, oW] view of [L, oD, oH * oW] */
static Value *
unflat3(B *b, Value *v, Type *in, int r, const int64_t *o)
{
	int64_t d[TORCH_MAXRANK];
	int i;

	for (i = 0; i < r; i++)
		d[i] = i < r - 3 ? in->dims[i] : o[i - (r - 3)];
	return d_view(b, v, r, d);
}

/* max_pool3d[_with_indices] (self, kernel, stride, padding, dilation, ceil) */
static int
max_pool3d(B *b, Op *op)
{
	Value *x = OPND(op, 0), *v[2];
	Type *t = x->type;
	int64_t d3[3], L, D, H, W, k[2], s[2], p[2], dl[2];
	Op *m1, *m2;
	Pool q;

	if (!pool_params(op, 3, 1, &q))
		return 0;
	if (empty_result_types(op))
		return empty_results(b, op);
	D = t->dims[q.r - 3], H = t->dims[q.r - 2], W = t->dims[q.r - 1];
	L = ty_numel(t) / (D * H * W);
	d3[0] = L * D, d3[1] = H, d3[2] = W;
	m1 = max2(b, d_view(b, x, 3, d3), q.K + 1, q.S + 1, q.P + 1, q.Dl + 1, q.ceil);
	d3[0] = L, d3[1] = D, d3[2] = q.O[1] * q.O[2];
	k[0] = q.K[0], s[0] = q.S[0], p[0] = q.P[0], dl[0] = q.Dl[0];
	k[1] = s[1] = dl[1] = 1, p[1] = 0;
	m2 = max2(b, d_view(b, RES(m1, 0), 3, d3), k, s, p, dl, q.ceil);
	v[0] = unflat3(b, RES(m2, 0), t, q.r, q.O);
	if (op->nres > 1 && !d_unused_from(op, 1))
		v[1] = unflat3(b, index3(b, RES(m1, 1), RES(m2, 1), L, D, H * W, q.O[0],
		    q.O[1] * q.O[2]), t, q.r, q.O);
	else if (op->nres > 1)
		v[1] = v[0];    /* unused: any value of the op's results */
	torch_replace(b->c, op, v);
	return 1;
}

/* adaptive_max_pool3d(self, output_size) with its indices used:
 * adaptive_max_pool2d over (H, W), then over (D, 1) of [L, D, oH * oW];
 * called by d_adaptive_pool3d (decompose_resize.c) */
int
d_adaptive_max_pool3d_indices(B *b, Op *op)
{
	Value *x = OPND(op, 0), *v[2];
	Type *t = x->type;
	int r = tt_rank(t), i;
	int64_t o[3], d[TORCH_MAXRANK], L, D, H, W, s[2];
	Op *m1, *m2;

	if ((r != 4 && r != 5) || !ty_static(t) || !dt_isfloat(tt_dtype(t))
	    || tv_ints(OPND(op, 1), o, 3) != 3 || op->nres != 2)
		return 0;
	for (i = 0; i < 3; i++)
		if (o[i] <= 0 || t->dims[r - 3 + i] <= 0)
			return 0;
	for (i = 0; i < r; i++)
		d[i] = i < r - 3 ? t->dims[i] : o[i - (r - 3)];
	if (!result_is(op, 0, r, d) || !result_is(op, 1, r, d))
		return 0;
	if (empty_result_types(op))
		return empty_results(b, op);
	D = t->dims[r - 3], H = t->dims[r - 2], W = t->dims[r - 1];
	L = ty_numel(t) / (D * H * W);
	d[0] = L * D, d[1] = H, d[2] = W;
	v[0] = d_view(b, x, 3, d), v[1] = b_ints(b, 2, o + 1);
	m1 = b_opn(b, "aten.adaptive_max_pool2d", 2, v);
	d[0] = L, d[1] = D, d[2] = o[1] * o[2];
	s[0] = o[0], s[1] = o[1] * o[2];
	v[0] = d_view(b, RES(m1, 0), 3, d), v[1] = b_ints(b, 2, s);
	m2 = b_opn(b, "aten.adaptive_max_pool2d", 2, v);
	v[0] = unflat3(b, RES(m2, 0), t, r, o);
	v[1] = unflat3(b, index3(b, RES(m1, 1), RES(m2, 1), L, D, H * W, o[0], o[1] * o[2]),
	    t, r, o);
	torch_replace(b->c, op, v);
	return 1;
}

/* avg_pool3d(self, kernel, stride, padding, ceil, count_include_pad,
 * divisor_override): sums of the two stages, then PyTorch's divisor
 * (the window clipped to the padded input, or to the input) */
static int
avg_pool3d(B *b, Op *op)
{
	Value *x = OPND(op, 0), *y, *dv;
	Type *t = x->type, *dt = tt_dtype(t), *acc;
	int64_t d3[3], L, D, H, W, k[2], s[2], p[2], n, i, j, div = 0, ext[2];
	double *tab;
	int cip;
	Pool q;

	if (!pool_params(op, 3, 0, &q) || !tv_bool(OPND(op, 5), &cip))
		return 0;
	if (!tv_none(OPND(op, 6)) && (!tv_int(OPND(op, 6), &div) || div == 0))
		return 0;
	/* PyTorch averages floats and int64 (truncating) */
	if (!dt_isfloat(dt) && !(dt == dt_i64(b->c)))
		return 0;
	if (empty_result_types(op))
		return empty_results(b, op);
	acc = dt_opmath(b->c, dt);
	D = t->dims[q.r - 3], H = t->dims[q.r - 2], W = t->dims[q.r - 1];
	L = ty_numel(t) / (D * H * W);
	d3[0] = L * D, d3[1] = H, d3[2] = W;
	y = avg2(b, d_view(b, to_dtype(b, x, acc), 3, d3), q.K + 1, q.S + 1, q.P + 1, q.ceil);
	d3[0] = L, d3[1] = D, d3[2] = q.O[1] * q.O[2];
	k[0] = q.K[0], s[0] = q.S[0], p[0] = q.P[0];
	k[1] = s[1] = 1, p[1] = 0;
	y = avg2(b, d_view(b, y, 3, d3), k, s, p, q.ceil);
	n = q.O[0] * q.O[1] * q.O[2];
	tab = table(n);
	for (i = 0; i < n; i++) {
		int64_t o[3] = {i / (q.O[1] * q.O[2]), i / q.O[2] % q.O[1], i % q.O[2]};
		double all = 1, in = 1;
		for (j = 0; j < 3; j++) {
			int64_t in_n = t->dims[q.r - 3 + j];
			int64_t s0 = o[j] * q.S[j] - q.P[j], e0 = s0 + q.K[j];
			if (e0 > in_n + q.P[j])
				e0 = in_n + q.P[j];
			all *= (double)(e0 - s0);
			if (s0 < 0)
				s0 = 0;
			if (e0 > in_n)
				e0 = in_n;
			in *= (double)(e0 - s0);
		}
		tab[i] = div ? (double)div : cip ? all : in;
	}
	ext[0] = q.O[0], ext[1] = q.O[1] * q.O[2];
	dv = lit_make(b, tt_vt(b->c, 2, ext, acc), tab, n, NULL);
	free(tab);
	if (dt_isfloat(acc)) {
		y = d_div(b, y, dv);
	} else {
		Value *m[3] = {y, dv, b_str(b, "trunc")};
		y = b_op(b, "aten.div.Tensor_mode", 3, m);
	}
	d_done(b, op, to_dtype(b, unflat3(b, y, t, q.r, q.O), dt));
	return 1;
}

/* ---- pads ---- */

/* reflection_pad3d, replication_pad3d (self, [l, r, t, b, f, k]): the 2-d
 * pad over (H, W) of [L * D, H, W], then over (D, 1) of [L, D, H' * W'] */
static int
pad3d(B *b, Op *op)
{
	int refl = strstr(torch_opname(op), "reflection") != NULL;
	const char *p2 = refl ? "aten.reflection_pad2d" : "aten.replication_pad2d";
	Value *x = OPND(op, 0);
	Type *t = x->type;
	int r = tt_rank(t), i;
	int64_t pd[6], d[TORCH_MAXRANK], v3[3], L, D, H, W, q[4];

	if ((r != 4 && r != 5) || !ty_static(t) || tv_ints(OPND(op, 1), pd, 6) != 6)
		return 0;
	for (i = 0; i < r; i++) {
		d[i] = t->dims[i];
		if (i >= r - 3)
			d[i] += pd[2 * (r - 1 - i)] + pd[2 * (r - 1 - i) + 1];
		/* PyTorch: a batch may be empty, no other dim */
		if (d[i] <= 0 && i >= r - 4)
			return 0;
		if (t->dims[i] <= 0 && i >= r - 4)
			return 0;
		/* PyTorch: a reflection stays inside the input */
		if (refl && i >= r - 3 && (pd[2 * (r - 1 - i)] >= t->dims[i]
		    || pd[2 * (r - 1 - i) + 1] >= t->dims[i]))
			return 0;
	}
	if (!result_is(op, 0, r, d))
		return 0;
	if (ty_numel(t) == 0)
		return empty_results(b, op);
	D = t->dims[r - 3], H = t->dims[r - 2], W = t->dims[r - 1];
	L = ty_numel(t) / (D * H * W);
	v3[0] = L * D, v3[1] = H, v3[2] = W;
	x = d_view(b, x, 3, v3);
	if (pd[0] || pd[1] || pd[2] || pd[3])
		x = b_op2(b, p2, x, b_ints(b, 4, pd));
	v3[0] = L, v3[1] = D, v3[2] = d[r - 2] * d[r - 1];
	x = d_view(b, x, 3, v3);
	q[0] = q[1] = 0, q[2] = pd[4], q[3] = pd[5];
	if (pd[4] || pd[5])
		x = b_op2(b, p2, x, b_ints(b, 4, q));
	d_done(b, op, d_view(b, x, r, d));
	return 1;
}

/* replication_pad1d(self [.., W], [l, r]): replication_pad2d of
 * [.., 1, W] by (l, r, 0, 0) */
static int
replication_pad1d(B *b, Op *op)
{
	Value *x = OPND(op, 0);
	Type *t = x->type;
	int r = tt_rank(t);
	int64_t pd[4] = {0, 0, 0, 0}, d[3];

	if ((r != 2 && r != 3) || !ty_static(t) || tv_ints(OPND(op, 1), pd, 2) != 2)
		return 0;
	memcpy(d, t->dims, sizeof *d * r);
	d[r - 1] += pd[0] + pd[1];
	if (d[r - 1] <= 0 || t->dims[r - 1] <= 0 || (r == 3 && t->dims[1] <= 0)
	    || (r == 2 && t->dims[0] <= 0) || !result_is(op, 0, r, d))
		return 0;
	pd[2] = pd[3] = 0;
	x = b_op2(b, "aten.unsqueeze", x, b_int(b, -2));
	x = b_op2(b, "aten.replication_pad2d", x, b_ints(b, 4, pd));
	d_done(b, op, b_op2(b, "aten.squeeze.dim", x, b_int(b, -2)));
	return 1;
}

/* ---- unfold, im2col ---- */

/* unfold(self, dimension, size, step): [.., n, ..] to [.., cnt, .., size],
 * cnt = (n - size) / step + 1: index_select of the windows' elements
 * (i * step + j), viewed [.., cnt, size, ..], the size dim moved last */
static int
unfold(B *b, Op *op)
{
	Value *x = OPND(op, 0), *y;
	Type *t = x->type;
	int r = tt_rank(t), i;
	int64_t dim, size, step, n, cnt, d[TORCH_MAXRANK + 1], perm[TORCH_MAXRANK + 1];
	double *tab;

	if (r < 0 || !ty_static(t) || !tt_dtype(t) || !tv_int(OPND(op, 1), &dim)
	    || !tv_int(OPND(op, 2), &size) || !tv_int(OPND(op, 3), &step) || step <= 0 || size < 0)
		return 0;
	if (r == 0) {
		/* a 0-d tensor is one element: windows of 0 or 1 */
		if ((dim != 0 && dim != -1) || size > 1 || !result_is(op, 0, 1, &size))
			return 0;
		d_done(b, op, size ? d_view(b, x, 1, &size) : zeros(b, 1, &size, tt_dtype(t)));
		return 1;
	}
	if (dim < -r || dim >= r)
		return 0;
	dim = dim < 0 ? dim + r : dim;
	n = t->dims[dim];
	if (size > n)
		return 0;
	cnt = (n - size) / step + 1;
	for (i = 0; i < r; i++)
		d[i] = i == dim ? cnt : t->dims[i];
	d[r] = size;
	if (!result_is(op, 0, r + 1, d))
		return 0;
	if (ty_numel(RES(op, 0)->type) == 0)
		return empty_results(b, op);
	tab = table(cnt * size);
	for (i = 0; i < cnt * size; i++)
		tab[i] = (double)((i / size) * step + i % size);
	y = b_op3(b, "aten.index_select", x, b_int(b, dim), index_lit(b, tab, cnt * size));
	free(tab);
	for (i = 0; i <= r; i++)
		d[i] = i < dim ? t->dims[i] : i == dim ? cnt : i == dim + 1 ? size : t->dims[i - 1];
	y = d_view(b, y, r + 1, d);
	for (i = 0; i <= r; i++)
		perm[i] = i == r ? dim + 1 : i <= dim ? i : i + 1;
	if (dim + 1 != r)
		y = b_op2(b, "aten.permute", y, b_ints(b, r + 1, perm));
	d_done(b, op, y);
	return 1;
}

/* im2col(self [N, C, H, W] or [C, H, W], kernel, dilation, padding,
 * stride): [N, C * kh * kw, oH * oW], element (c * kh * kw + ki * kw + kj,
 * oh * oW + ow) = padded (c, oh * sh + ki * dh, ow * sw + kj * dw) */
static int
im2col(B *b, Op *op)
{
	Value *x = OPND(op, 0), *y;
	Type *t = x->type;
	int r = tt_rank(t), i;
	int64_t k[2], dl[2], p[2], s[2], o[2], H, W, Hp, Wp, C, nl, n, d[4], pd[4];
	double *tab;

	if ((r != 3 && r != 4) || !ty_static(t) || !tt_dtype(t)
	    || tv_ints(OPND(op, 1), k, 2) != 2 || tv_ints(OPND(op, 2), dl, 2) != 2
	    || tv_ints(OPND(op, 3), p, 2) != 2 || tv_ints(OPND(op, 4), s, 2) != 2)
		return 0;
	C = t->dims[r - 3], H = t->dims[r - 2], W = t->dims[r - 1];
	for (i = 0; i < 2; i++) {
		int64_t in = t->dims[r - 2 + i];
		if (k[i] <= 0 || dl[i] <= 0 || s[i] <= 0 || p[i] < 0 || k[i] > (1 << 20)
		    || dl[i] > (1 << 20) || p[i] > ((int64_t)1 << 40))
			return 0;
		o[i] = (in + 2 * p[i] - (dl[i] * (k[i] - 1) + 1)) / s[i] + 1;
		if (in + 2 * p[i] - (dl[i] * (k[i] - 1) + 1) < 0 || o[i] < 1)
			return 0;
	}
	/* PyTorch: non-empty (but for the batch) */
	if (C <= 0 || H <= 0 || W <= 0)
		return 0;
	if (r == 4)
		d[0] = t->dims[0];
	d[r - 3] = C * k[0] * k[1], d[r - 2] = o[0] * o[1];
	if (!result_is(op, 0, r - 1, d))
		return 0;
	if (ty_numel(t) == 0)
		return empty_results(b, op);
	Hp = H + 2 * p[0], Wp = W + 2 * p[1];
	if (p[0] || p[1]) {
		pd[0] = pd[1] = p[1], pd[2] = pd[3] = p[0];
		y = b_op3(b, "aten.constant_pad_nd", x, b_ints(b, 4, pd),
		    dt_isfloat(tt_dtype(t)) ? b_float(b, 0) : b_int(b, 0));
	} else {
		y = x;
	}
	if (r == 4)
		pd[0] = t->dims[0];
	pd[r - 3] = C, pd[r - 2] = Hp * Wp;
	y = d_view(b, y, r - 1, pd);
	nl = o[0] * o[1], n = k[0] * k[1] * nl;
	tab = table(n);
	for (i = 0; i < n; i++) {
		int64_t kk = i / nl, l = i % nl, ki = kk / k[1], kj = kk % k[1];
		int64_t oh = l / o[1], ow = l % o[1];
		tab[i] = (double)((oh * s[0] + ki * dl[0]) * Wp + ow * s[1] + kj * dl[1]);
	}
	y = b_op3(b, "aten.index_select", y, b_int(b, r - 2), index_lit(b, tab, n));
	free(tab);
	d_done(b, op, d_view(b, y, r - 1, d));
	return 1;
}

/* ---- unpooling and the backward of pools ---- */

/* max_unpool2d(self, indices, output_size), max_unpool3d(self, indices,
 * output_size, stride, padding): zeros [P, prod(out)] with self's values
 * scattered to the flat indices of each plane (the last of equal indices
 * wins, as PyTorch's loop) */
static int
max_unpool(B *b, Op *op)
{
	int k = strstr(torch_opname(op), "3d") ? 3 : 2, i;
	Value *x = OPND(op, 0), *ix = OPND(op, 1), *y, *v[4];
	Type *t = x->type, *it = ix->type, *dt = tt_dtype(t);
	int r = tt_rank(t);
	int64_t o[3], d[TORCH_MAXRANK], S, OS, P, f[2];

	if ((r != k + 1 && r != k + 2) || !ty_static(t) || !ty_static(it) || tt_rank(it) != r
	    || memcmp(t->dims, it->dims, sizeof *d * r) || tt_dtype(it) != dt_i64(b->c)
	    || !dt || dt_code(dt) < 0 || tv_ints(OPND(op, 2), o, 3) != k)
		return 0;
	for (i = 0; i < r; i++)
		d[i] = i < r - k ? t->dims[i] : o[i - (r - k)];
	for (i = 0; i < k; i++)
		if (o[i] < 0)
			return 0;
	if (!result_is(op, 0, r, d))
		return 0;
	if (ty_numel(t) == 0 || ty_numel(RES(op, 0)->type) == 0)
		return empty_results(b, op);
	S = prod(t->dims + r - k, k), OS = prod(o, k), P = ty_numel(t) / S;
	f[0] = P, f[1] = OS;
	y = zeros(b, 2, f, dt);
	f[1] = S;
	v[0] = y, v[1] = b_int(b, 1), v[2] = d_view(b, ix, 2, f), v[3] = d_view(b, x, 2, f);
	y = b_op(b, "aten.scatter.src", 4, v);
	d_done(b, op, d_view(b, y, r, d));
	return 1;
}

/* max_pool{2,3}d_with_indices_backward(grad, self, kernel, stride,
 * padding, dilation, ceil, indices): zeros like self, grad added at the
 * flat indices of each plane, in the order of the outputs (PyTorch's) */
static int
max_pool_backward(B *b, Op *op)
{
	int k = strstr(torch_opname(op), "3d") ? 3 : 2;
	Value *g = OPND(op, 0), *x = OPND(op, 1), *ix = OPND(op, 7), *y, *v[4];
	Type *gt = g->type, *t = x->type, *it = ix->type, *dt = tt_dtype(t);
	int r = tt_rank(t);
	int64_t S, OS, P, f[2];

	if ((r != k + 1 && r != k + 2) || !ty_static(t) || !ty_static(gt) || !ty_static(it)
	    || tt_rank(gt) != r || tt_rank(it) != r || memcmp(gt->dims, it->dims, sizeof f[0] * r)
	    || memcmp(gt->dims, t->dims, sizeof f[0] * (r - k)) || tt_dtype(it) != dt_i64(b->c)
	    || !dt || !dt_isfloat(dt) || tt_dtype(gt) != dt || !result_is(op, 0, r, t->dims))
		return 0;
	if (ty_numel(t) == 0)
		return empty_results(b, op);
	if (ty_numel(gt) == 0) {
		/* no gradient reaches the input */
		d_done(b, op, zeros(b, r, t->dims, dt));
		return 1;
	}
	S = prod(t->dims + r - k, k), OS = prod(gt->dims + r - k, k), P = ty_numel(t) / S;
	f[0] = P, f[1] = S;
	y = zeros(b, 2, f, dt);
	f[1] = OS;
	v[0] = y, v[1] = b_int(b, 1), v[2] = d_view(b, ix, 2, f), v[3] = d_view(b, g, 2, f);
	y = b_op(b, "aten.scatter_add", 4, v);
	d_done(b, op, d_view(b, y, r, t->dims));
	return 1;
}

/* PyTorch's nearest_idx (UpSample.h): the input position output o reads */
static int64_t
nearest_idx(int64_t o, int64_t in, int64_t out, double scale)
{
	float s;
	int64_t a;

	if (out == in)
		return o;
	if (out == 2 * in)
		return o >> 1;
	s = scale > 0 ? (float)(1.0 / scale) : (float)in / (float)out;
	a = (int64_t)floorf((float)o * s);
	return a < in - 1 ? a : in - 1;
}

/* upsample_nearest{1,2,3}d_backward(grad, output_size, input_size,
 * scales..): per spatial dim (last first), input i sums the gradient at
 * the outputs that read it, in increasing order: the sum of R gathers of
 * the gradient with a zero appended (R the most outputs one input has) */
static int
upsample_nearest_backward(B *b, Op *op)
{
	const char *n = torch_opname(op);
	int k = n[strlen("aten.upsample_nearest")] - '0', i, j;
	Value *g = OPND(op, 0);
	Type *gt = g->type, *dt = tt_dtype(gt);
	int64_t out[3], in[TORCH_MAXRANK], d[TORCH_MAXRANK];
	double sc[3];

	if (k < 1 || k > 3 || tt_rank(gt) != k + 2 || !ty_static(gt) || !dt || !dt_isfloat(dt)
	    || tv_ints(OPND(op, 1), out, 3) != k || tv_ints(OPND(op, 2), in, TORCH_MAXRANK) != k + 2
	    || op->nopnds != 3 + k)
		return 0;
	for (i = 0; i < k; i++) {
		sc[i] = 0;
		if (!tv_none(OPND(op, 3 + i)) && !tv_float(OPND(op, 3 + i), &sc[i]))
			return 0;
		if (out[i] <= 0 || in[2 + i] <= 0 || gt->dims[2 + i] != out[i])
			return 0;
	}
	if (in[0] != gt->dims[0] || in[1] != gt->dims[1] || !result_is(op, 0, k + 2, in))
		return 0;
	if (ty_numel(gt) == 0)
		return empty_results(b, op);
	/* summed in opmath, as PyTorch's kernel */
	g = to_dtype(b, g, dt_opmath(b->c, dt));
	memcpy(d, gt->dims, sizeof *d * (k + 2));
	for (i = k - 1; i >= 0; i--) {
		int64_t O = out[i], N = in[2 + i], R = 0, *cnt = xcalloc((size_t)N, sizeof *cnt);
		int64_t *src = xmalloc(sizeof *src * (size_t)O), o, one[TORCH_MAXRANK];
		double *tab = table(N);
		Value *gz, *c[2], *acc = NULL;
		for (o = 0; o < O; o++) {
			src[o] = nearest_idx(o, N, O, sc[i]);
			if (++cnt[src[o]] > R)
				R = cnt[src[o]];
		}
		memcpy(one, d, sizeof *d * (k + 2));
		one[2 + i] = 1;
		c[0] = g, c[1] = zeros(b, k + 2, one, tt_dtype(g->type));
		gz = b_op2(b, "aten.cat", b_list(b, 2, c), b_int(b, 2 + i));
		for (j = 0; j < R; j++) {
			int64_t q;
			Value *y;
			/* tab[q]: the j-th output reading input q, or the zero at O */
			for (q = 0; q < N; q++)
				tab[q] = (double)O;
			for (q = 0; q < N; q++)
				cnt[q] = 0;
			for (o = 0; o < O; o++)
				if (cnt[src[o]]++ == j)
					tab[src[o]] = (double)o;
			y = b_op3(b, "aten.index_select", gz, b_int(b, 2 + i), index_lit(b, tab, N));
			acc = acc ? d_add(b, acc, y) : y;
		}
		if (!acc) {
			/* no output reads any input: zeros */
			d[2 + i] = N;
			acc = zeros(b, k + 2, d, tt_dtype(g->type));
		}
		free(cnt), free(src), free(tab);
		g = acc;
		d[2 + i] = N;
	}
	d_done(b, op, to_dtype(b, g, dt));
	return 1;
}

/* ---- grid_sampler_2d ---- */

static Value *
scal(B *b, const char *name, Value *x, double v)
{
	if (strstr(name, "add") || strstr(name, "sub"))
		return b_op3(b, name, x, b_float(b, v), b_int(b, 1));
	return b_op2(b, name, x, b_float(b, v));
}

/* where(m, x, 0) */
static Value *
masked(B *b, Value *m, Value *x)
{
	Value *v[3] = {m, x, b_float(b, 0)};

	return b_op(b, "aten.where.ScalarOther", 3, v);
}

static Value *
and_(B *b, Value *x, Value *y)
{
	return b_op2(b, "aten.logical_and", x, y);
}

/* -1 < c < n, c a float tensor of integral values */
static Value *
inside(B *b, Value *c, int64_t n)
{
	return and_(b, scal(b, "aten.gt.Scalar", c, -1), scal(b, "aten.lt.Scalar", c, (double)n));
}

/* input [N, C, H, W] at (yy, xx) [N, oH, oW] (float, integral) where m,
 * else 0: [N, C, oH, oW] */
static Value *
corner(B *b, Value *in, Value *yy, Value *xx, Value *m, const int64_t *d, const int64_t *o)
{
	int64_t f[3] = {d[0], d[1], d[2] * d[3]}, ix[3] = {d[0], 1, o[0] * o[1]};
	int64_t ex[3] = {d[0], d[1], o[0] * o[1]}, od[4] = {d[0], d[1], o[0], o[1]};
	int64_t md[4] = {d[0], 1, o[0], o[1]};
	Value *flat = d_add(b, scal(b, "aten.mul.Scalar", yy, (double)d[3]), xx), *g[4], *v;

	flat = to_dtype(b, masked(b, m, flat), dt_i64(b->c));
	flat = b_op3(b, "aten.expand", d_view(b, flat, 3, ix), b_ints(b, 3, ex), b_bool(b, 0));
	g[0] = d_view(b, in, 3, f), g[1] = b_int(b, 2), g[2] = flat, g[3] = b_bool(b, 0);
	v = d_view(b, b_op(b, "aten.gather", 4, g), 4, od);
	return masked(b, d_view(b, m, 4, md), v);
}

/* grid_sampler_2d(input [N, C, H, W], grid [N, oH, oW, 2], interpolation,
 * padding, align_corners): bilinear (0) and nearest (1), zeros (0) and
 * border (1) padding, as PyTorch's CPU kernel: x = (gx + 1) * s (- 0.5),
 * s = (W - 1) / 2 or W / 2; border clamps x to [0, W - 1]; bilinear sums
 * the four corners' values (0 outside) times their weights, nearest reads
 * round-half-even (x, y) (0 outside). */
static int
grid_sampler(B *b, Op *op)
{
	Value *in = OPND(op, 0), *gr = OPND(op, 1), *c[2], *y;
	Type *t = in->type, *gt = gr->type, *dt = tt_dtype(t);
	int64_t mode, pad, d[4], o[2], rd[4];
	int ac, i;

	if (tt_rank(t) != 4 || tt_rank(gt) != 4 || !ty_static(t) || !ty_static(gt) || !dt
	    || (dt != dt_f32(b->c) && dt != dt_f64(b->c)) || tt_dtype(gt) != dt
	    || !tv_int(OPND(op, 2), &mode) || !tv_int(OPND(op, 3), &pad)
	    || !tv_bool(OPND(op, 4), &ac) || (mode != 0 && mode != 1) || (pad != 0 && pad != 1))
		return 0;
	memcpy(d, t->dims, sizeof d);
	o[0] = gt->dims[1], o[1] = gt->dims[2];
	if (gt->dims[0] != d[0] || gt->dims[3] != 2 || d[2] <= 0 || d[3] <= 0
	    || d[2] * d[3] > (1 << 24))
		return 0;
	rd[0] = d[0], rd[1] = d[1], rd[2] = o[0], rd[3] = o[1];
	if (!result_is(op, 0, 4, rd))
		return 0;
	if (ty_numel(RES(op, 0)->type) == 0)
		return empty_results(b, op);
	for (i = 0; i < 2; i++) {
		int64_t n = d[3 - i];    /* x: W, y: H */
		Value *v = b_op3(b, "aten.select.int", gr, b_int(b, 3), b_int(b, i));
		v = scal(b, "aten.add.Scalar", v, 1);
		v = scal(b, "aten.mul.Scalar", v, ac ? (double)(n - 1) / 2 : (double)n / 2);
		if (!ac)
			v = scal(b, "aten.sub.Scalar", v, 0.5);
		if (pad == 1) {
			Value *cl[3] = {v, b_float(b, 0), b_float(b, (double)(n - 1))};
			v = b_op(b, "aten.clamp", 3, cl);
		}
		c[i] = v;
	}
	if (mode == 1) {
		Value *xr = b_op1(b, "aten.round", c[0]), *yr = b_op1(b, "aten.round", c[1]);
		Value *m = and_(b, inside(b, xr, d[3]), inside(b, yr, d[2]));
		d_done(b, op, corner(b, in, yr, xr, m, d, o));
		return 1;
	}
	{
		Value *xw = b_op1(b, "aten.floor", c[0]), *yn = b_op1(b, "aten.floor", c[1]);
		Value *xe = scal(b, "aten.add.Scalar", xw, 1), *ys = scal(b, "aten.add.Scalar", yn, 1);
		Value *w = d_sub(b, c[0], xw), *n = d_sub(b, c[1], yn);
		Value *e = scal(b, "aten.rsub.Scalar", w, 1), *s = scal(b, "aten.rsub.Scalar", n, 1);
		Value *mw = inside(b, xw, d[3]), *me = inside(b, xe, d[3]);
		Value *mn = inside(b, yn, d[2]), *ms = inside(b, ys, d[2]);
		Value *cy[4] = {yn, yn, ys, ys}, *cx[4] = {xw, xe, xw, xe};
		Value *cm[4] = {and_(b, mw, mn), and_(b, me, mn), and_(b, mw, ms), and_(b, me, ms)};
		Value *cw[4] = {d_mul(b, s, e), d_mul(b, s, w), d_mul(b, n, e), d_mul(b, n, w)};
		int64_t wd[4] = {d[0], 1, o[0], o[1]};
		y = NULL;
		for (i = 0; i < 4; i++) {
			Value *v = d_mul(b, corner(b, in, cy[i], cx[i], cm[i], d, o),
			    d_view(b, cw[i], 4, wd));
			y = y ? d_add(b, y, v) : v;
		}
	}
	d_done(b, op, y);
	return 1;
}

const Decomp decomp_pool[] = {
	{"aten.max_pool1d", pool1d}, {"aten.max_pool1d_with_indices", pool1d},
	{"aten.avg_pool1d", pool1d},
	{"aten.max_pool3d", max_pool3d}, {"aten.max_pool3d_with_indices", max_pool3d},
	{"aten.avg_pool3d", avg_pool3d},
	{"aten.reflection_pad3d", pad3d}, {"aten.replication_pad3d", pad3d},
	{"aten.replication_pad1d", replication_pad1d},
	{"aten.unfold", unfold}, {"aten.im2col", im2col},
	{"aten.max_unpool2d", max_unpool}, {"aten.max_unpool3d", max_unpool},
	{"aten.max_pool2d_with_indices_backward", max_pool_backward},
	{"aten.max_pool3d_with_indices_backward", max_pool_backward},
	{"aten.upsample_nearest1d_backward", upsample_nearest_backward},
	{"aten.upsample_nearest2d_backward", upsample_nearest_backward},
	{"aten.upsample_nearest3d_backward", upsample_nearest_backward},
	{"aten.grid_sampler_2d", grid_sampler}, {"aten.grid_sampler", grid_sampler},
	{NULL, NULL},
};

const OpTable decomp_pool_optables[] = {
	OPTABLE("decomposition", decomp_pool, "torch."),
	{NULL},
};
