/*
 * decompose_lin.c - diagonals, identity and window creation, shuffles and
 * rotations, small linear algebra:
 *
 *   diagonal, diag (2-D)   permute dim1, dim2 last, slice the offset off,
 *                          view the [L, L] corner as [L*L] and slice it
 *                          with step L + 1 (a strided view, no gather);
 *   diag_embed, diag (1-D) where(j - i == offset, x padded to N along
 *                          the row (offset >= 0) or the column, 0), the
 *                          [N, N] plane permuted to dim1, dim2;
 *   trace                  sum of the diagonal (integers sum in int64);
 *   eye, eye.m             arange(n)[:, None] == arange(m)[None, :];
 *   linalg_cross           roll(a, -1) * roll(b, -2) - roll(a, -2) * roll(b, -1)
 *                          along dim, both expanded to the result first;
 *   channel_shuffle,
 *   pixel_(un)shuffle      view, permute, view;
 *   rot90                  flip and transpose, k taken mod 4 (PyTorch's);
 *   linspace               a literal: eager's CPU kernel replayed (below);
 *   hann_window(.periodic) 0.5 - 0.5 cos(2 pi i / (M - 1)), as
 *                          hamming_window computes it;
 *   expand_copy            expand; aminmax: amin and amax;
 *   addbmm                 one mm over the batch folded into the
 *                          contraction, beta 0 ignores self (NaN too);
 *   bilinear               x1[*, 1, i, 1] * W[1, o, i, j] * x2[*, 1, 1, j]
 *                          summed over j, then i, plus the bias;
 *   einsum                 one or two operands, letters only: the labels
 *                          of one operand alone and not kept summed out,
 *                          then [batch, kept, contracted] @ [batch,
 *                          contracted, kept] as one bmm, viewed and
 *                          permuted to the output's order;
 *   _linalg_det,
 *   _linalg_slogdet        LU with partial pivoting unrolled over a static
 *                          n <= 64 (the pivot is the first largest |x|, as
 *                          LAPACK's getrf), over the flattened batch; only
 *                          when the LU and pivots results are unused.
 *
 * Every rule needs static shapes and constant ints where it reads them;
 * otherwise it leaves the op for the contract check to refuse.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "decompose.h"

/* ---- helpers ---- */

static Value *
slice(B *b, Value *x, int64_t dim, int64_t start, int64_t end, int64_t step)
{
	if (start == 0 && end == x->type->dims[dim] && step == 1)
		return x;
	return b_op(b, "aten.slice.Tensor", 5, (Value *[]){x, b_int(b, dim), b_int(b, start),
	    b_int(b, end), b_int(b, step)});
}

static Value *
sel(B *b, Value *x, int64_t dim, int64_t i)
{
	return b_op3(b, "aten.select.int", x, b_int(b, dim), b_int(b, i));
}

static Value *
permute(B *b, Value *x, int r, const int64_t *perm)
{
	int i;

	for (i = 0; i < r && perm[i] == i; i++)
		;
	if (i == r)
		return x;
	return b_op2(b, "aten.permute", x, b_ints(b, r, perm));
}

static Value *
arange(B *b, int64_t start, int64_t end, int64_t step, Type *dt)
{
	Value *v[7] = {b_int(b, start), b_int(b, end), b_int(b, step),
		b_int(b, dt_code(dt)), b_none(b), b_none(b), b_none(b)};

	return b_op(b, "aten.arange.start_step", 7, v);
}

/* arange(n) int64 viewed to rank r with the n at dim at. */
static Value *
arange_at(B *b, int64_t n, int r, int at)
{
	int64_t d[TORCH_MAXRANK];
	int i;

	for (i = 0; i < r; i++)
		d[i] = i == at ? n : 1;
	return d_view(b, arange(b, 0, n, 1, dt_i64(b->c)), r, d);
}

static Value *
full(B *b, int r, const int64_t *dims, Value *fill, Type *dt)
{
	Value *v[6] = {b_ints(b, r, dims), fill, b_int(b, dt_code(dt)), b_none(b), b_none(b),
		b_none(b)};

	return b_op(b, "aten.full", 6, v);
}

static Value *
zero_for(B *b, Type *dt)
{
	if (dt_isbool(dt))
		return b_bool(b, 0);
	return dt_isfloat(dt) ? b_float(b, 0) : b_int(b, 0);
}

static Value *
to_dtype(B *b, Value *x, Type *dt)
{
	if (tt_dtype(x->type) == dt)
		return x;
	return b_op(b, "aten.to.dtype", 5, (Value *[]){x, b_int(b, dt_code(dt)), b_bool(b, 0),
	    b_bool(b, 0), b_none(b)});
}

/* A static tensor with a known dtype of a dtype code we can name. */
static int
known(Value *x)
{
	Type *dt;

	return tt_is(x->type) && tt_rank(x->type) >= 0 && ty_static(x->type)
	    && (dt = tt_dtype(x->type)) && dt_code(dt) >= 0;
}

/* ---- diagonals ---- */

/* diagonal(x, offset, d1, d2) of a static x; d1 != d2 normalized. */
static Value *
diagonal(B *b, Value *x, int64_t off, int d1, int d2)
{
	Type *t = x->type;
	int r = t->rank, i, k = 0;
	int64_t perm[TORCH_MAXRANK], d[TORCH_MAXRANK], n1 = t->dims[d1], n2 = t->dims[d2], L;

	for (i = 0; i < r; i++)
		if (i != d1 && i != d2) {
			d[k] = t->dims[i];
			perm[k++] = i;
		}
	perm[k] = d1, perm[k + 1] = d2;
	L = off >= 0 ? (n1 < n2 - off ? n1 : n2 - off) : (n1 + off < n2 ? n1 + off : n2);
	if (L <= 0) {
		d[k] = 0;
		return full(b, r - 1, d, zero_for(b, tt_dtype(t)), tt_dtype(t));
	}
	x = permute(b, x, r, perm);
	x = slice(b, x, k, off < 0 ? -off : 0, (off < 0 ? -off : 0) + L, 1);
	x = slice(b, x, k + 1, off > 0 ? off : 0, (off > 0 ? off : 0) + L, 1);
	d[k] = L * L;
	x = d_view(b, x, r - 1, d);
	return slice(b, x, k, 0, L * L, L + 1);
}

static int
diagonal_op(B *b, Op *op)
{
	Value *x = OPND(op, 0);
	int64_t off, d1, d2;
	int r = tt_rank(x->type);

	if (!known(x) || r < 2 || !tv_int(OPND(op, 1), &off) || !tv_int(OPND(op, 2), &d1)
	    || !tv_int(OPND(op, 3), &d2) || (d1 = tt_dim(d1, r)) < 0
	    || (d2 = tt_dim(d2, r)) < 0 || d1 == d2)
		return 0;
	d_done(b, op, diagonal(b, x, off, (int)d1, (int)d2));
	return 1;
}

/* diag_embed(x, offset, d1, d2) of a static x of rank r >= 1: rank r + 1. */
static Value *
embed(B *b, Value *x, int64_t off, int d1, int d2)
{
	Type *t = x->type, *dt = tt_dtype(t);
	int r = t->rank, i, k = 0;
	int64_t n = t->dims[r - 1], a = off < 0 ? -off : off, N = n + a, perm[TORCH_MAXRANK];
	Value *mask, *v;

	/* the plane at r - 1 (rows i), r (columns j) */
	mask = d_sub(b, arange_at(b, N, 2, 1), arange_at(b, N, 2, 0));
	mask = b_op2(b, "aten.eq.Scalar", mask, b_int(b, off));
	v = x;
	if (a)
		v = b_op3(b, "aten.constant_pad_nd", v, b_ints(b, 2, (int64_t[]){0, a}),
		    dt_isfloat(dt) ? b_float(b, 0) : b_int(b, 0));
	/* the element on row i is x[i] when offset >= 0, else x[j] */
	v = b_op2(b, "aten.unsqueeze", v, b_int(b, off >= 0 ? r : r - 1));
	v = b_op3(b, "aten.where.ScalarOther", mask, v, zero_for(b, dt));
	for (i = 0; i <= r; i++)
		perm[i] = i == d1 ? r - 1 : i == d2 ? r : k++;
	return permute(b, v, r + 1, perm);
}

static int
diag_embed_op(B *b, Op *op)
{
	Value *x = OPND(op, 0);
	int64_t off, d1, d2;
	int r = tt_rank(x->type);

	if (!known(x) || r < 1 || r + 1 > TORCH_MAXRANK || !tv_int(OPND(op, 1), &off)
	    || !tv_int(OPND(op, 2), &d1) || !tv_int(OPND(op, 3), &d2)
	    || (d1 = tt_dim(d1, r + 1)) < 0 || (d2 = tt_dim(d2, r + 1)) < 0 || d1 == d2)
		return 0;
	d_done(b, op, embed(b, x, off, (int)d1, (int)d2));
	return 1;
}

/* diag(x, k): a 1-D x on the k-th diagonal of a square matrix, or the
 * k-th diagonal of a 2-D x. */
static int
diag_op(B *b, Op *op)
{
	Value *x = OPND(op, 0);
	int64_t off;
	int r = tt_rank(x->type);

	if (!known(x) || (r != 1 && r != 2) || !tv_int(OPND(op, 1), &off))
		return 0;
	d_done(b, op, r == 1 ? embed(b, x, off, 0, 1) : diagonal(b, x, off, 0, 1));
	return 1;
}

static int
trace_op(B *b, Op *op)
{
	Value *x = OPND(op, 0);

	if (!known(x) || tt_rank(x->type) != 2)
		return 0;
	d_done(b, op, b_op2(b, "aten.sum", diagonal(b, x, 0, 0, 1), b_none(b)));
	return 1;
}

/* ---- creation ---- */

/* eye(n, dtype, ...), eye.m(n, m, dtype, ...) */
static int
eye_op(B *b, Op *op)
{
	Type *t = RES(op, 0)->type, *dt = tt_dtype(t);
	int64_t n, m;
	int two = torch_is(op, "aten.eye.m");

	if (!dt || dt_code(dt) < 0 || !tv_int(OPND(op, 0), &n)
	    || !tv_int(OPND(op, two ? 1 : 0), &m) || n < 0 || m < 0)
		return 0;
	d_done(b, op, to_dtype(b, b_op2(b, "aten.eq.Tensor", arange_at(b, n, 2, 0),
	    arange_at(b, m, 2, 1)), dt));
	return 1;
}

/*
 * linspace(start, end, steps, dtype, ...): the values of eager's CPU
 * kernel (ATen's linspace_kernel, AVX2 dispatch) computed here.  It takes
 * start and end in the dtype T (integers truncated), step = (end - start)
 * / (steps - 1) in T (double for integers), and element i as
 *   start + step * i                 for i <  steps / 2,
 *   end - step * (steps - i - 1)     for i >= steps / 2,
 * both a fused multiply-add; it runs in blocks of two 32-byte vectors,
 * each vector from its first index idx as base + k * step (k = 0.., an
 * unfused multiply and add, integers truncated), base being the formula
 * above at idx; the last steps % (64 / sizeof T) elements take the
 * formula.  steps == 1 is start.  One thread runs all of steps <= 32768
 * (ATen's grain size); more would split by the thread count, refused.
 */
typedef struct Lin {
	int isint;
	double s, e, st;      /* integers: start, end, step (double) */
	float fs, fe, fst;    /* f32 */
	int f32;
	int64_t n;
} Lin;

static double
lin_formula(const Lin *l, int64_t i)
{
	if (l->isint)
		return trunc(i < l->n / 2 ? fma(l->st, (double)i, l->s)
		    : fma(-l->st, (double)(l->n - i - 1), l->e));
	if (l->f32)
		return i < l->n / 2 ? fmaf(l->fst, (float)i, l->fs)
		    : fmaf(-l->fst, (float)(l->n - i - 1), l->fe);
	return i < l->n / 2 ? fma(l->st, (double)i, l->s)
	    : fma(-l->st, (double)(l->n - i - 1), l->e);
}

static double
lin_lane(const Lin *l, double base, int k)
{
	volatile double p;
	volatile float pf;

	if (l->f32) {
		pf = (float)k * l->fst;
		return (float)base + pf;
	}
	p = (double)k * l->st;
	return l->isint ? trunc(base + p) : base + p;
}

static int
linspace_op(B *b, Op *op)
{
	Type *t = RES(op, 0)->type, *dt = tt_dtype(t);
	double s, e, lo, hi, *vals;
	int64_t n, i, V, esz;
	Lin l = {0};

	if (!dt || !tv_float(OPND(op, 0), &s) || !tv_float(OPND(op, 1), &e)
	    || !tv_int(OPND(op, 2), &n) || n < 0 || n > 32768 || tt_rank(t) != 1)
		return 0;
	if (dt->kind == TY_F32 || dt->kind == TY_F64) {
		esz = dt->kind == TY_F32 ? 4 : 8;
		l.f32 = esz == 4;
		l.fs = (float)s, l.fe = (float)e;
		l.s = s, l.e = e;
	} else if (dt->kind == TY_INT && dt->sign == SIGNED && dt->width >= 8 && dt->width <= 64) {
		/* Scalar::to<T> refuses values out of T's range */
		esz = dt->width / 8;
		hi = esz == 8 ? 9007199254740992.0 : ldexp(1, (int)dt->width - 1) - 1;
		lo = esz == 8 ? -hi : -hi - 1;
		if (!(s >= lo && s <= hi && e >= lo && e <= hi))
			return 0;
		l.isint = 1;
		l.s = trunc(s), l.e = trunc(e);
	} else {
		return 0;
	}
	l.n = n;
	vals = xcalloc(n ? n : 1, sizeof *vals);
	if (n == 1)
		vals[0] = l.isint ? l.s : l.f32 ? (double)l.fs : l.s;
	if (n > 1) {
		if (l.isint)
			l.st = (l.e - l.s) / (double)(n - 1);
		else if (l.f32)
			l.fst = (l.fe - l.fs) / (float)(n - 1);
		else
			l.st = (l.e - l.s) / (double)(n - 1);
		V = 32 / esz;
		for (i = 0; i + 2 * V <= n; i += 2 * V) {
			int64_t j;
			int k;
			for (j = i; j < i + 2 * V; j += V) {
				double base = lin_formula(&l, j);
				for (k = 0; k < V; k++)
					vals[j + k] = lin_lane(&l, base, k);
			}
		}
		for (; i < n; i++)
			vals[i] = lin_formula(&l, i);
	}
	d_done(b, op, lit_make(b, tt_vt(b->c, 1, &n, dt), vals, n, "torch_linspace"));
	free(vals);
	return 1;
}

/* hann_window.periodic(n, periodic, dtype, ...), hann_window(n, dtype, ...) */
static int
hann_window_op(B *b, Op *op)
{
	Type *t = RES(op, 0)->type, *dt = tt_dtype(t);
	int64_t n, m;
	int periodic;
	Value *w;

	periodic = 1;
	if (!dt || (dt->kind != TY_F32 && dt->kind != TY_F64) || !tv_int(OPND(op, 0), &n)
	    || (torch_is(op, "aten.hann_window.periodic") && !tv_bool(OPND(op, 1), &periodic))
	    || n < 0)
		return 0;
	if (n <= 1) {
		d_done(b, op, full(b, 1, &n, b_float(b, 1), dt));
		return 1;
	}
	m = periodic ? n + 1 : n;
	w = arange(b, 0, m, 1, dt);
	w = b_op2(b, "aten.mul.Scalar", w, b_float(b, 2.0 * M_PI / (double)(m - 1)));
	w = b_op1(b, "aten.cos", w);
	w = b_op2(b, "aten.mul.Scalar", w, b_float(b, -0.5));
	w = b_op3(b, "aten.add.Scalar", w, b_float(b, 0.5), b_int(b, 1));
	d_done(b, op, slice(b, w, 0, 0, n, 1));
	return 1;
}

/* ---- shape shuffles ---- */

static int
expand_copy_op(B *b, Op *op)
{
	d_done(b, op, b_op3(b, "aten.expand", OPND(op, 0), OPND(op, 1), OPND(op, 2)));
	return 1;
}

/* channel_shuffle(x, g): [N, C, *] as [N, g, C/g, *], dims 1, 2 swapped. */
static int
channel_shuffle_op(B *b, Op *op)
{
	Value *x = OPND(op, 0);
	Type *t = x->type;
	int64_t g, d[TORCH_MAXRANK];
	int r = tt_rank(t), i;

	if (!known(x) || r < 2 || r + 1 > TORCH_MAXRANK || !tv_int(OPND(op, 1), &g) || g < 1
	    || t->dims[1] % g)
		return 0;
	d[0] = t->dims[0], d[1] = g, d[2] = t->dims[1] / g;
	for (i = 2; i < r; i++)
		d[i + 1] = t->dims[i];
	x = d_transpose(b, d_view(b, x, r + 1, d), 1, 2);
	d_done(b, op, d_view(b, x, r, t->dims));
	return 1;
}

/* pixel_shuffle(x, f): [*, C f f, H, W] -> [*, C, f, f, H, W] ->
 * [*, C, H, f, W, f] -> [*, C, H f, W f]; pixel_unshuffle the reverse. */
static int
pixel_shuffle_at(B *b, Op *op, int un)
{
	Value *x = OPND(op, 0);
	Type *t = x->type, *rt = RES(op, 0)->type;
	int64_t f, d[TORCH_MAXRANK], p[TORCH_MAXRANK], C, H, W;
	int r = tt_rank(t), k, i;

	if (!known(x) || r < 3 || r + 3 > TORCH_MAXRANK || !tv_int(OPND(op, 1), &f) || f < 1
	    || tt_rank(rt) != r)
		return 0;
	k = r - 3;
	C = t->dims[k], H = t->dims[k + 1], W = t->dims[k + 2];
	if (un ? H % f || W % f : C % (f * f))
		return 0;
	for (i = 0; i < k; i++)
		d[i] = t->dims[i], p[i] = i;
	if (!un) {
		/* [C/ff, f, f, H, W] -> (0, 3, 1, 4, 2) */
		int64_t s[5] = {C / (f * f), f, f, H, W}, q[5] = {0, 3, 1, 4, 2};
		for (i = 0; i < 5; i++)
			d[k + i] = s[i], p[k + i] = k + q[i];
	} else {
		/* [C, H/f, f, W/f, f] -> (0, 2, 4, 1, 3) */
		int64_t s[5] = {C, H / f, f, W / f, f}, q[5] = {0, 2, 4, 1, 3};
		for (i = 0; i < 5; i++)
			d[k + i] = s[i], p[k + i] = k + q[i];
	}
	x = permute(b, d_view(b, x, r + 2, d), r + 2, p);
	for (i = 0; i < k; i++)
		d[i] = t->dims[i];
	if (!un)
		d[k] = C / (f * f), d[k + 1] = H * f, d[k + 2] = W * f;
	else
		d[k] = C * f * f, d[k + 1] = H / f, d[k + 2] = W / f;
	d_done(b, op, d_view(b, x, r, d));
	return 1;
}

static int pixel_shuffle_op(B *b, Op *op) { return pixel_shuffle_at(b, op, 0); }
static int pixel_unshuffle_op(B *b, Op *op) { return pixel_shuffle_at(b, op, 1); }

/* rot90(x, k, dims): k mod 4 quarter turns from dims[0] towards dims[1]. */
static int
rot90_op(B *b, Op *op)
{
	Value *x = OPND(op, 0), *v;
	int64_t k, d[2];
	int r = tt_rank(x->type);

	if (r < 2 || !tv_int(OPND(op, 1), &k) || tv_ints(OPND(op, 2), d, 2) != 2
	    || (d[0] = tt_dim(d[0], r)) < 0 || (d[1] = tt_dim(d[1], r)) < 0 || d[0] == d[1])
		return 0;
	k = ((k % 4) + 4) % 4;
	if (k == 0)
		v = x;
	else if (k == 2)
		v = b_op2(b, "aten.flip", x, b_ints(b, 2, d));
	else
		v = d_transpose(b, b_op2(b, "aten.flip", x, b_ints(b, 1, &d[k == 1 ? 1 : 0])),
		    d[0], d[1]);
	d_done(b, op, v);
	return 1;
}

/* ---- reductions and products ---- */

/* aminmax(x, dim=None, keepdim) */
static int
aminmax_op(B *b, Op *op)
{
	Value *x = OPND(op, 0), *res[2];
	int64_t dim, dims[TORCH_MAXRANK];
	int r = tt_rank(x->type), keep, n, i;

	if (r < 0 || !tv_bool(OPND(op, 2), &keep))
		return 0;
	if (tv_none(OPND(op, 1))) {
		for (n = 0; n < r; n++)
			dims[n] = n;
	} else if (tv_int(OPND(op, 1), &dim) && (dim = tt_dim(dim, r ? r : 1)) >= 0) {
		dims[0] = dim, n = 1;
	} else {
		return 0;
	}
	if (r == 0) {
		res[0] = res[1] = x;
	} else {
		res[0] = b_op3(b, "aten.amin", x, b_ints(b, n, dims), b_bool(b, keep));
		res[1] = b_op3(b, "aten.amax", x, b_ints(b, n, dims), b_bool(b, keep));
	}
	for (i = 0; i < 2; i++)
		if (tt_dtype(res[i]->type) != tt_dtype(RES(op, i)->type))
			return 0;
	torch_replace(b->c, op, res);
	return 1;
}

/* addbmm(self, b1 [B, n, m], b2 [B, m, p], beta, alpha): the batch
 * folded into the contraction: [n, B m] @ [B m, p]. */
static int
addbmm_op(B *b, Op *op)
{
	Value *self = OPND(op, 0), *x = OPND(op, 1), *y = OPND(op, 2);
	Value *beta = OPND(op, 3), *alpha = OPND(op, 4), *v;
	Type *dt = tt_dtype(RES(op, 0)->type), *xt = x->type, *yt = y->type;
	int64_t d[2];
	double f;

	if (!dt || !known(x) || !known(y) || xt->rank != 3 || yt->rank != 3
	    || tt_dtype(xt) != dt || tt_dtype(yt) != dt || tt_dtype(self->type) != dt
	    || xt->dims[0] != yt->dims[0]
	    || xt->dims[2] != yt->dims[1])
		return 0;
	if (!dt_isfloat(dt) && (!(beta = d_int_scale(b, beta)) || !(alpha = d_int_scale(b, alpha))))
		return 0;
	if (!tv_float(beta, &f) || !tv_float(alpha, &f))
		return 0;
	d[0] = xt->dims[1], d[1] = xt->dims[0] * xt->dims[2];
	x = d_view(b, d_transpose(b, x, 0, 1), 2, d);
	d[0] = yt->dims[0] * yt->dims[1], d[1] = yt->dims[2];
	y = d_view(b, y, 2, d);
	v = b_op2(b, "aten.mm", x, y);
	if (!(tv_float(alpha, &f) && f == 1))
		v = b_op2(b, "aten.mul.Scalar", v, alpha);
	if (!(tv_float(beta, &f) && f == 0))
		v = b_op3(b, "aten.add.Tensor", v, self, beta);
	d_done(b, op, v);
	return 1;
}

/*
 * The diagonal of U in A = P L U over A [B, n, n] (float), by Gaussian
 * elimination with partial pivoting on the trailing [m, m] block: the
 * row of the first largest |a| in the block's first column swaps to the
 * top (a gather), the rows below subtract their multiple of it.  A zero
 * pivot (its whole column zero) leaves the block as it is, as getrf does.
 * diag[k] gets the k-th pivot [B]; *odd, bool [B, 1], the permutation's
 * parity.
 */
static void
lu_diag(B *b, Value *S, int64_t nb, int64_t n, Value **diag, Value **odd)
{
	int64_t k, m, d3[3];
	Value *col, *p, *ar, *idx, *piv, *f, *row, *rest, *sw;

	*odd = NULL;
	for (k = 0; k < n; k++) {
		m = n - k;
		col = b_op1(b, "aten.abs", sel(b, S, 2, 0));                     /* [B, m] */
		p = b_op3(b, "aten.argmax", col, b_int(b, 1), b_bool(b, 1));     /* [B, 1] */
		if (m > 1) {
			ar = arange_at(b, m, 2, 1);                                   /* [1, m] */
			idx = b_op3(b, "aten.where.ScalarSelf", b_op2(b, "aten.eq.Tensor", ar, p),
			    b_int(b, 0), ar);
			idx = b_op3(b, "aten.where.self", b_op2(b, "aten.eq.Scalar", ar, b_int(b, 0)),
			    p, idx);                                                  /* [B, m] */
			d3[0] = nb, d3[1] = m, d3[2] = m;
			idx = b_op3(b, "aten.expand", b_op2(b, "aten.unsqueeze", idx, b_int(b, 2)),
			    b_ints(b, 3, d3), b_bool(b, 0));
			S = b_op(b, "aten.gather", 4, (Value *[]){S, b_int(b, 1), idx, b_bool(b, 0)});
			sw = b_op2(b, "aten.ne.Scalar", p, b_int(b, 0));
			*odd = *odd ? b_op2(b, "aten.logical_xor", *odd, sw) : sw;
		}
		piv = sel(b, sel(b, S, 1, 0), 1, 0);                                  /* [B] */
		diag[k] = piv;
		if (m == 1)
			break;
		d3[0] = nb, d3[1] = 1, d3[2] = 1;
		piv = b_op3(b, "aten.masked_fill.Scalar", piv,
		    b_op2(b, "aten.eq.Scalar", piv, b_int(b, 0)), b_int(b, 1));
		f = d_div(b, slice(b, slice(b, S, 1, 1, m, 1), 2, 0, 1, 1), d_view(b, piv, 3, d3));
		row = slice(b, slice(b, S, 1, 0, 1, 1), 2, 1, m, 1);
		rest = slice(b, slice(b, S, 1, 1, m, 1), 2, 1, m, 1);
		S = d_sub(b, rest, d_mul(b, f, row));
	}
}

/* _linalg_det(A) -> (det, LU, pivots); _linalg_slogdet(A) -> (sign,
 * logabsdet, LU, pivots): LU and pivots unused. */
static int
det_at(B *b, Op *op, int slog)
{
	Value *A = OPND(op, 0), *res[4] = {NULL}, *diag[64] = {NULL}, *odd = NULL, *v, *sg, *la;
	Type *t = A->type, *dt = tt_dtype(t);
	int r = tt_rank(t), i;
	int64_t n, nb = 1, d3[3];

	if (!known(A) || r < 2 || !dt_isfloat(dt) || (dt->kind != TY_F32 && dt->kind != TY_F64)
	    || t->dims[r - 1] != t->dims[r - 2] || (n = t->dims[r - 1]) > 64
	    || !d_unused_from(op, slog ? 2 : 1))
		return 0;
	for (i = 0; i < r - 2; i++)
		nb *= t->dims[i];
	if (n == 0 || nb == 0) {
		res[0] = full(b, r - 2, t->dims, b_float(b, nb ? 1 : 0), dt);
		if (slog)
			res[1] = full(b, r - 2, t->dims, b_float(b, 0), dt);
		torch_replace(b->c, op, res);
		return 1;
	}
	d3[0] = nb, d3[1] = n, d3[2] = n;
	lu_diag(b, d_view(b, A, 3, d3), nb, n, diag, &odd);
	/* sign of the permutation: -1 where odd */
	sg = odd ? b_op3(b, "aten.where.Scalar", d_view(b, odd, 1, &nb), b_float(b, -1),
	    b_float(b, 1)) : NULL;
	if (!slog) {
		v = diag[0];
		for (i = 1; i < n; i++)
			v = d_mul(b, v, diag[i]);
		if (sg)
			v = d_mul(b, v, to_dtype(b, sg, dt));
		res[0] = d_view(b, v, r - 2, t->dims);
	} else {
		v = b_op1(b, "aten.sign", diag[0]);
		la = b_op1(b, "aten.log", b_op1(b, "aten.abs", diag[0]));
		for (i = 1; i < n; i++) {
			v = d_mul(b, v, b_op1(b, "aten.sign", diag[i]));
			la = d_add(b, la, b_op1(b, "aten.log", b_op1(b, "aten.abs", diag[i])));
		}
		if (sg)
			v = d_mul(b, v, to_dtype(b, sg, dt));
		res[0] = d_view(b, v, r - 2, t->dims);
		res[1] = d_view(b, la, r - 2, t->dims);
	}
	for (i = 0; i < 1 + slog; i++)
		if (tt_dtype(res[i]->type) != tt_dtype(RES(op, i)->type))
			return 0;
	torch_replace(b->c, op, res);
	return 1;
}

static int det_op(B *b, Op *op) { return det_at(b, op, 0); }
static int slogdet_op(B *b, Op *op) { return det_at(b, op, 1); }

/* linalg_cross(a, b, dim): both expanded to the result shape. */
static int
cross_op(B *b, Op *op)
{
	Value *x = OPND(op, 0), *y = OPND(op, 1), *s[2][2];
	Type *rt = RES(op, 0)->type, *dt = tt_dtype(rt);
	int64_t dim;
	int r = tt_rank(rt), i, j;

	if (!dt || dt_code(dt) < 0 || dt_isbool(dt) || r < 1 || !ty_static(rt) || !known(x) || !known(y)
	    || !tv_int(OPND(op, 2), &dim) || (dim = tt_dim(dim, r)) < 0 || rt->dims[dim] != 3
	    || tt_rank(x->type) != r || tt_rank(y->type) != r)
		return 0;
	x = to_dtype(b, x, dt), y = to_dtype(b, y, dt);
	if (x->type != rt)
		x = b_op3(b, "aten.expand", x, b_ints(b, r, rt->dims), b_bool(b, 0));
	if (y->type != rt)
		y = b_op3(b, "aten.expand", y, b_ints(b, r, rt->dims), b_bool(b, 0));
	for (i = 0; i < 2; i++)
		for (j = 0; j < 2; j++)
			s[i][j] = b_op3(b, "aten.roll", i ? y : x, b_ints(b, 1, (int64_t[]){-1 - j}),
			    b_ints(b, 1, &dim));
	/* c[k] = a[k+1] b[k+2] - a[k+2] b[k+1] */
	d_done(b, op, d_sub(b, d_mul(b, s[0][0], s[1][1]), d_mul(b, s[0][1], s[1][0])));
	return 1;
}

/* bilinear(x1, x2, W, b): x1 [*, i] and x2 [*, j] of one batch shape *,
 * W [o, i, j], b [o] or None.  The constants come first, each made once. */
static int
bilinear(B *b, Op *op)
{
	Value *x1 = OPND(op, 0), *x2 = OPND(op, 1), *w = OPND(op, 2), *bias = OPND(op, 3);
	Value *c[3], *f, *none, *y, *v[4];
	int r = tt_rank(x1->type), k;

	if (r < 1 || r > TORCH_MAXRANK - 2 || tt_rank(x2->type) != r || tt_rank(w->type) != 3
	    || (!tv_none(bias) && tt_rank(bias->type) != 1)
	    || !ty_static(x1->type) || !ty_static(x2->type) || !ty_static(w->type)
	    || !dims_eq(x1->type->dims, x2->type->dims, r - 1)
	    || w->type->dims[1] != x1->type->dims[r - 1] || w->type->dims[2] != x2->type->dims[r - 1]
	    || (!tv_none(bias) && bias->type->dims[0] != w->type->dims[0]))
		return 0;
	none = b_none(b), f = b_bool(b, 0);
	for (k = 0; k < 3; k++)
		c[k] = b_int(b, r - 1 + k);       /* r-1, r, r+1 */
	Value *zero = r == 1 ? c[0] : b_int(b, 0);
	y = b_op2(b, "aten.unsqueeze", b_op2(b, "aten.unsqueeze", x1, c[0]), c[2]);
	for (k = 0; k < r - 1; k++)
		w = b_op2(b, "aten.unsqueeze", w, zero);
	x2 = b_op2(b, "aten.unsqueeze", b_op2(b, "aten.unsqueeze", x2, c[0]), c[1]);
	y = d_mul(b, d_mul(b, y, w), x2);
	v[1] = b_list(b, 1, &c[2]), v[2] = f, v[3] = none, v[0] = y;
	y = b_op(b, "aten.sum.dim_IntList", 4, v);
	v[1] = b_list(b, 1, &c[1]), v[0] = y;
	y = b_op(b, "aten.sum.dim_IntList", 4, v);
	if (!tv_none(bias))
		y = b_op3(b, "aten.add.Tensor", y, bias, r <= 2 ? c[2 - r] : b_int(b, 1));
	d_done(b, op, y);
	return 1;
}

/* ---- einsum ---- */

enum { EIN_MAX = 16 };

typedef struct Ein {
	B *b;
	int64_t iv[4 * EIN_MAX + 8];   /* the int constants, made up front */
	Value *ic[4 * EIN_MAX + 8];
	int nic;
	Value *f, *none;               /* for sums, when some label is summed */
} Ein;

static void
ein_want(Ein *e, int64_t v)
{
	int i;

	for (i = 0; i < e->nic; i++)
		if (e->iv[i] == v)
			return;
	e->iv[e->nic++] = v;
}

static Value *
ein_int(Ein *e, int64_t v)
{
	int i;

	for (i = 0; e->iv[i] != v; i++)
		;
	return e->ic[i];
}

static Value *
ein_list(Ein *e, int n, const int64_t *v)
{
	Value *x[EIN_MAX + 1];
	int i;

	for (i = 0; i < n; i++)
		x[i] = ein_int(e, v[i]);
	return b_list(e->b, n, x);
}

/* Labels of one operand: 0 if malformed (not a letter, repeated). */
static int
ein_labels(const char *s, size_t n, char *out)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		if (s[i] == ' ')
			continue;
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z'))
		    || k >= EIN_MAX || memchr(out, s[i], k))
			return 0;
		out[k++] = s[i];
	}
	out[k] = 0;
	return 1;
}

/* Parses "ij,jk->ik" (no "->": the labels used once, sorted) into lab[0..n)
 * and out; 0 when malformed or not n operands. */
static int
ein_parse(const char *eq, int n, char lab[2][EIN_MAX + 1], char *out)
{
	const char *arrow = strstr(eq, "->"), *end = arrow ? arrow : eq + strlen(eq);
	const char *comma = memchr(eq, ',', end - eq);
	char c;
	int k = 0;

	if ((n == 1) != !comma || (comma && memchr(comma + 1, ',', end - comma - 1))
	    || !ein_labels(eq, (comma ? comma : end) - eq, lab[0])
	    || (comma && !ein_labels(comma + 1, end - comma - 1, lab[1])))
		return 0;
	if (arrow)
		return ein_labels(arrow + 2, strlen(arrow + 2), out);
	for (c = 'A'; c <= 'z'; c++) {
		int uses = !!strchr(lab[0], c) + (n == 2 && strchr(lab[1], c));
		if (uses == 1 && isalpha((unsigned char)c))
			out[k++] = c;
	}
	out[k] = 0;
	return 1;
}

/* x with the labels of lab not in keep summed out; lab updated. */
static Value *
ein_sum(Ein *e, Value *x, char *lab, const char *keep)
{
	int64_t d[EIN_MAX];
	int i, n = 0, k = 0;
	Value *v[4];

	for (i = 0; lab[i]; i++)
		if (!strchr(keep, lab[i]))
			d[n++] = i;
		else
			lab[k++] = lab[i];
	lab[k] = 0;
	if (!n)
		return x;
	if (!e->f)
		e->f = b_bool(e->b, 0), e->none = b_none(e->b);
	v[0] = x, v[1] = ein_list(e, n, d), v[2] = e->f, v[3] = e->none;
	return b_op(e->b, "aten.sum.dim_IntList", 4, v);
}

/* The positions in lab of the labels of want, in want's order. */
static void
ein_perm(const char *lab, const char *want, int64_t *p)
{
	int i;

	for (i = 0; want[i]; i++)
		p[i] = strchr(lab, want[i]) - lab;
}

static int64_t
ein_size(Value *x, const char *lab, const char *set, int64_t *dims)
{
	int64_t n = 1;
	int i;

	for (i = 0; set[i]; i++)
		n *= dims[i] = x->type->dims[strchr(lab, set[i]) - lab];
	return n;
}

static int
einsum(B *b, Op *op)
{
	const char *eq;
	char lab[2][EIN_MAX + 1], out[EIN_MAX + 1], keep[2][2 * EIN_MAX + 1];
	char bat[EIN_MAX + 1] = "", con[EIN_MAX + 1] = "", kp[2][EIN_MAX + 1] = {"", ""};
	Value **t, *x[2], *y;
	int n, i, j, k;
	Ein e = {b};

	if (!tv_str(OPND(op, 0), &eq) || d_list_mutable(OPND(op, 1)))
		return 0;
	n = tv_list(OPND(op, 1), &t);
	for (i = 0; i < n && i < 2; i++)
		x[i] = t[i];
	if (n > 0)
		free(t);
	if (n < 1 || n > 2 || !ein_parse(eq, n, lab, out))
		return 0;
	for (i = 0; i < n; i++) {
		Type *dt = tt_dtype(x[i]->type);
		if (!ty_static(x[i]->type) || x[i]->type->rank != (int)strlen(lab[i])
		    || !dt || !dt_isfloat(dt) || dt != tt_dtype(x[0]->type))
			return 0;
		for (j = 0; lab[i][j]; j++)       /* a label has one size */
			for (k = 0; k < n; k++) {
				const char *q = strchr(lab[k], lab[i][j]);
				if (q && x[k]->type->dims[q - lab[k]] != x[i]->type->dims[j])
					return 0;
			}
	}
	for (i = 0; out[i]; i++)
		if (!strchr(lab[0], out[i]) && (n == 1 || !strchr(lab[1], out[i])))
			return 0;
	/* what each operand keeps: the output's labels and the other's */
	for (i = 0; i < n; i++)
		snprintf(keep[i], sizeof keep[i], "%s%s", out, n == 2 ? lab[1 - i] : "");
	for (i = 0; n == 2 && lab[0][i]; i++) {
		char c = lab[0][i], s[2] = {c, 0};
		if (!strchr(lab[1], c))
			continue;
		strcat(strchr(out, c) ? bat : con, s);
	}
	/* batch labels in the output's order */
	for (i = k = 0; out[i]; i++)
		if (strchr(bat, out[i]))
			bat[k++] = out[i];
	for (i = 0; i < n; i++)
		for (j = 0; lab[i][j]; j++)
			if (strchr(out, lab[i][j]) && (n == 1 || !strchr(lab[1 - i], lab[i][j])))
				strncat(kp[i], &lab[i][j], 1);

	/* plan the constants, made before the ops: the dims, every size */
	for (i = 0; i < n; i++)
		for (j = 0; j <= (int)strlen(lab[i]); j++)
			ein_want(&e, j);
	for (i = 0; i < n; i++)
		for (j = 0; lab[i][j]; j++)
			ein_want(&e, x[i]->type->dims[j]);
	int64_t db[EIN_MAX], dm[EIN_MAX], dk[EIN_MAX], dn[EIN_MAX];
	char l0[EIN_MAX + 1], l1[EIN_MAX + 1];
	strcpy(l0, lab[0]);
	strcpy(l1, n == 2 ? lab[1] : "");
	int64_t B = 1, M = 1, K = 1, N = 1;
	if (n == 2) {
		B = ein_size(x[0], lab[0], bat, db), M = ein_size(x[0], lab[0], kp[0], dm);
		K = ein_size(x[0], lab[0], con, dk), N = ein_size(x[1], lab[1], kp[1], dn);
		ein_want(&e, B), ein_want(&e, M), ein_want(&e, K), ein_want(&e, N);
	}
	if (e.nic > (int)(sizeof e.iv / sizeof *e.iv) - 4)
		return 0;
	for (i = 0; i < e.nic; i++)
		e.ic[i] = b_int(b, e.iv[i]);

	int64_t p[EIN_MAX];
	if (n == 1) {
		y = ein_sum(&e, x[0], l0, out);
		ein_perm(l0, out, p);
		d_done(b, op, b_op2(b, "aten.permute", y, ein_list(&e, strlen(out), p)));
		return 1;
	}
	char o0[3 * EIN_MAX + 1], o1[3 * EIN_MAX + 1], mid[3 * EIN_MAX + 1];
	x[0] = ein_sum(&e, x[0], l0, keep[0]);
	x[1] = ein_sum(&e, x[1], l1, keep[1]);
	snprintf(o0, sizeof o0, "%s%s%s", bat, kp[0], con);
	snprintf(o1, sizeof o1, "%s%s%s", bat, con, kp[1]);
	ein_perm(l0, o0, p);
	x[0] = b_op2(b, "aten.permute", x[0], ein_list(&e, strlen(o0), p));
	ein_perm(l1, o1, p);
	x[1] = b_op2(b, "aten.permute", x[1], ein_list(&e, strlen(o1), p));
	int64_t s0[3] = {B, M, K}, s1[3] = {B, K, N}, so[3 * EIN_MAX];
	x[0] = b_op2(b, "aten.view", x[0], ein_list(&e, 3, s0));
	x[1] = b_op2(b, "aten.view", x[1], ein_list(&e, 3, s1));
	y = b_op2(b, "aten.bmm", x[0], x[1]);
	/* [batch, kept of 0, kept of 1], then the output's order */
	k = 0;
	for (i = 0; bat[i]; i++)
		so[k++] = db[i];
	for (i = 0; kp[0][i]; i++)
		so[k++] = dm[i];
	for (i = 0; kp[1][i]; i++)
		so[k++] = dn[i];
	y = b_op2(b, "aten.view", y, ein_list(&e, k, so));
	snprintf(mid, sizeof mid, "%s%s%s", bat, kp[0], kp[1]);
	ein_perm(mid, out, p);
	d_done(b, op, b_op2(b, "aten.permute", y, ein_list(&e, strlen(out), p)));
	return 1;
}

const Decomp decomp_lin[] = {
	{"aten.einsum", einsum},
	{"aten.bilinear", bilinear},
	{"aten.diagonal", diagonal_op}, {"aten.diagonal_copy", diagonal_op},
	{"aten.diag", diag_op}, {"aten.diag_embed", diag_embed_op}, {"aten.trace", trace_op},
	{"aten.eye", eye_op}, {"aten.eye.m", eye_op},
	{"aten.linspace", linspace_op}, {"aten.hann_window.periodic", hann_window_op},
	{"aten.hann_window", hann_window_op},
	{"aten.expand_copy", expand_copy_op}, {"aten.channel_shuffle", channel_shuffle_op},
	{"aten.pixel_shuffle", pixel_shuffle_op}, {"aten.pixel_unshuffle", pixel_unshuffle_op},
	{"aten.rot90", rot90_op}, {"aten.aminmax", aminmax_op}, {"aten.addbmm", addbmm_op},
	{"aten._linalg_det", det_op}, {"aten._linalg_slogdet", slogdet_op},
	{"aten.linalg_cross", cross_op},
	{NULL, NULL},
};

const OpTable decomp_lin_optables[] = {
	OPTABLE("decomposition", decomp_lin, "torch."),
	{NULL},
};
