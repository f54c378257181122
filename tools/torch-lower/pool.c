/*
 * pool.c - 2-D pooling as one linalg.generic over (lead.., oh, ow, kh, kw):
 * the input is padded with the reduction's identity, a shape-only window
 * operand gives the kernel loops their bounds (as linalg's named pooling
 * ops do), and the divisors of average pooling are a constant table
 * computed here, since shapes are static.  Adaptive pools read windows at
 * (o * H) floordiv O and mask the positions past each window's end.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lower.h"

typedef struct Win {
	int64_t H[2], O[2], K[2], s[2], p[2], d[2];
	int adaptive;
} Win;

static int64_t wstart(const Win *w, int i, int64_t o) { return o * w->H[i] / w->O[i]; }

static int64_t
wend(const Win *w, int i, int64_t o)
{
	return ((o + 1) * w->H[i] + w->O[i] - 1) / w->O[i];
}

static Value *
ident(L *l, Type *d, int mx)
{
	if (!mx)
		return cst_d(l, 0, d);
	if (dt_isfloat(d))
		return cst_f(l, -INFINITY, d);
	if (dt_isunsigned(d))
		return cst_i(l, 0, belem(l->c, d));
	return cst_i(l, d->width == 64 ? INT64_MIN : -(INT64_C(1) << (d->width - 1)),
		belem(l->c, d));
}

/* linalg's pooling_nchw_max or _sum, as torch-mlir emits them: a window
 * of fixed size over a 4-D input padded with the reduction's identity,
 * without indices; max in float (arith's maximum, NaN-propagating as
 * PyTorch) or signed integers (unsigned ones want the _unsigned op) */
static int
named_pool(const Win *w, int r, int mx, int want_idx, Type *acc)
{
	return r == 4 && !w->adaptive && !want_idx &&
		(!mx || dt_isfloat(acc) || (acc->kind == TY_INT && !dt_isunsigned(acc) &&
			acc->width > 1));
}

/* The pooled values (acc dtype) and, for max with want_idx, the flat
 * indices h * W + w into the input. */
static int
pool(L *l, Op *op, Value *in, Type *vd, const Win *w, int mx, int want_idx,
	Value **vals, Value **idxs)
{
	Type *t = in->type, *acc = dt_opmath(l->c, vd), *i64 = dt_i64(l->c);
	int r = t->rank, nl = r + 2, i, lead = r - 2;
	int64_t pd[8], off[8], od[8];
	Value *outs[2], *ins[2];
	AffExpr *ie[8], *ke[2], *oe[8];
	AffMap *maps[4];
	char it[12];
	Gen g;

	in = convert_tensor(l, in, vd, acc);
	for (i = 0; i < r; i++) {
		pd[i] = t->dims[i];
		off[i] = 0;
		od[i] = t->dims[i];
	}
	for (i = 0; i < 2; i++) {
		int64_t reach;
		if (w->adaptive)
			reach = wstart(w, i, w->O[i] - 1) + w->K[i];
		else
			reach = (w->O[i] - 1) * w->s[i] + w->d[i] * (w->K[i] - 1) + 1;
		off[lead + i] = w->p[i];
		pd[lead + i] = w->H[i] + 2 * w->p[i];
		if (pd[lead + i] < reach)
			pd[lead + i] = reach;
		od[lead + i] = w->O[i];
	}
	if (memcmp(pd, t->dims, sizeof *pd * r)) {
		in = pad_with(l, in, ty_tensor(l->c, r, pd, in->type->elem), off,
			ident(l, acc, mx));
		if (!in)
			return -1;
	}
	ins[0] = in;
	ins[1] = emit1(l, "tensor.empty", 0, NULL, ty_tensor(l->c, 2, w->K, in->type->elem));
	outs[0] = filled(l, tensor_of(l->c, r, od, acc), ident(l, acc, mx));
	if (named_pool(w, r, mx, want_idx, acc)) {
		Value *v[3] = { in, ins[1], outs[0] };
		Op *pl = emit(l, mx ? "linalg.pooling_nchw_max" : "linalg.pooling_nchw_sum", 3, v,
			1, &outs[0]->type);
		op_set_attr(l->c, pl, "dilations", window_attr(l->c, 2, w->d));
		op_set_attr(l->c, pl, "strides", window_attr(l->c, 2, w->s));
		int64_t seg[2] = { 2, 1 };
		op_set_attr(l->c, pl, "operand_segment_sizes",
			at_dense_array(l->c, ty_int(l->c, 32, SIGNLESS), 2, seg));
		*vals = RES(pl, 0);
		return 0;
	}
	/* -1: no position of the window read yet (see below) */
	outs[1] = want_idx ? filled(l, tensor_of(l->c, r, od, i64), cst_d(l, -1, i64)) : NULL;
	for (i = 0; i < nl; i++) {
		it[i] = i < r ? 'p' : 'r';
		if (i < r)
			oe[i] = ie[i] = d_(l, i);
	}
	it[nl] = 0;
	for (i = 0; i < 2; i++) {
		AffExpr *o = d_(l, lead + i), *k = d_(l, r + i);
		ke[i] = k;
		if (w->adaptive)
			ie[lead + i] = add_(l, aff_bin(l->c, AFF_FLOORDIV, mul_(l, o, w->H[i]),
				c_(l, w->O[i])), k);
		else
			ie[lead + i] = add_(l, mul_(l, o, w->s[i]), mul_(l, k, w->d[i]));
	}
	maps[0] = map_of(l, nl, r, ie);
	maps[1] = map_of(l, nl, 2, ke);
	maps[2] = maps[3] = map_of(l, nl, r, oe);
	gen_begin(l, &g, 2, ins, want_idx ? 2 : 1, outs, maps, nl, it);
	Value *x = g.arg[0], *a = g.arg[2];
	Value *pos[2], *valid = NULL;
	for (i = 0; i < 2; i++) {
		Value *o = lindex(l, lead + i), *k = lindex(l, r + i);
		if (w->adaptive) {
			Value *H = cst_idx(l, w->H[i]), *O = cst_idx(l, w->O[i]);
			Value *s0 = bin(l, "arith.divui", bin(l, "arith.muli", o, H), O);
			Value *o1 = bin(l, "arith.addi", o, cst_idx(l, 1));
			Value *e0 = bin(l, "arith.divui", bin(l, "arith.addi",
				bin(l, "arith.muli", o1, H), cst_idx(l, w->O[i] - 1)), O);
			pos[i] = bin(l, "arith.addi", s0, k);
			Value *in = cmpi(l, "ult", pos[i], e0);
			x = sel(l, in, x, ident(l, acc, mx));
			if (want_idx)
				valid = valid ? bin(l, "arith.andi", valid, in) : in;
		} else if (want_idx) {
			pos[i] = bin(l, "arith.subi", bin(l, "arith.addi",
				bin(l, "arith.muli", o, cst_idx(l, w->s[i])),
				bin(l, "arith.muli", k, cst_idx(l, w->d[i]))), cst_idx(l, w->p[i]));
			/* inside the input, not its padding: 0 <= pos < H */
			Value *in = cmpi(l, "ult", pos[i], cst_idx(l, w->H[i]));
			valid = valid ? bin(l, "arith.andi", valid, in) : in;
		}
	}
	if (!mx) {
		Value *y = ar(l, "add", acc, a, x);
		gen_end(l, &g, 1, &y);
		*vals = RES(g.op, 0);
		return 0;
	}
	/* NaN wins; with indices every NaN does, so that the index is the
	 * last NaN's, as PyTorch's kernels (val > max || isnan(val)) give */
	Value *better = cmp(l, "gt", acc, x, a);
	if (dt_isfloat(acc))
		better = bin(l, "arith.ori", better, want_idx ? cmpf(l, "uno", x, x) :
			bin(l, "arith.andi", cmpf(l, "uno", x, x), cmpf(l, "ord", a, a)));
	/* with indices, the window's first position in the input is taken
	 * whatever its value: a window of -inf (or of the integer minimum)
	 * gives its first position's index, as PyTorch's kernels, whose
	 * index starts there */
	if (want_idx)
		better = bin(l, "arith.ori", better, bin(l, "arith.andi", valid,
			cmpi(l, "eq", g.arg[3], cst_d(l, -1, i64))));
	Value *y[2] = { sel(l, better, x, a), NULL };
	if (want_idx) {
		Value *flat = bin(l, "arith.addi", bin(l, "arith.muli", pos[0],
			cst_idx(l, w->H[1])), pos[1]);
		y[1] = sel(l, better, from_index(l, flat, belem(l->c, i64)), g.arg[3]);
	}
	gen_end(l, &g, want_idx ? 2 : 1, y);
	*vals = RES(g.op, 0);
	*idxs = want_idx ? RES(g.op, 1) : NULL;
	return 0;
}

static int
ints2(L *l, Op *op, int i, int64_t *out, int64_t dflt0, int64_t dflt1)
{
	int64_t v[4];
	int n = tv_ints(OPND(op, i), v, 4);

	if (n < 0) {
		op_error(op, "torch-lower: expected a constant int list");
		return -1;
	}
	out[0] = n ? v[0] : dflt0;
	out[1] = n > 1 ? v[1] : n ? v[0] : dflt1;
	return 0;
}

static int
window(L *l, Op *op, Win *w, Type *it)
{
	Type *rtt = op->res[0].type;
	int r = it->rank, i;

	if (!ty_static(it) || !ty_static(rtt) || r < 3) {
		op_error(op, "torch-lower: '%s' needs static shapes", op->name);
		return -1;
	}
	if (r > 4 || rtt->rank != r) {   /* as PyTorch: (C, H, W) or (N, C, H, W) */
		op_error(op, "torch-lower: '%s' needs a 3-D or 4-D input and result, not "
			"%d-D and %d-D", op->name, r, rtt->rank);
		return -1;
	}
	for (i = 0; i < 2; i++) {
		w->H[i] = it->dims[r - 2 + i];
		w->O[i] = rtt->dims[r - 2 + i];
	}
	return 0;
}

/* PyTorch's pooling_output_shape, so that a wrong declared type is an
 * error rather than windows read from the wrong place */
static int
check_win(L *l, Op *op, const Win *w, int ceil)
{
	int i;

	for (i = 0; i < 2; i++) {
		int64_t K = w->K[i], s = w->s[i], p = w->p[i], d = w->d[i], H = w->H[i], O, dk;
		/* bounded so that the window arithmetic here and in pool()
		 * stays in int64 */
		if (K <= 0 || s <= 0 || d <= 0 || p < 0 || p > K / 2 || K > TY_MAXNUMEL ||
				s > TY_MAXNUMEL || __builtin_mul_overflow(d, K - 1, &dk) ||
				dk > TY_MAXNUMEL) {
			op_error(op, "torch-lower: '%s' has a bad kernel size, stride, padding "
				"or dilation", op->name);
			return -1;
		}
		int64_t span = H + 2 * p - dk - 1;
		O = (span + (ceil ? s - 1 : 0)) / s + 1;
		if (span < 0)
			O = 0;
		if (ceil && O > 0 && (O - 1) * s >= H + p)
			O--;
		if (O != w->O[i]) {
			op_error(op, "torch-lower: '%s' result shape does not agree with its "
				"window", op->name);
			return -1;
		}
	}
	return 0;
}

static int
finish(L *l, Op *op, int i, Value *v, Type *from)
{
	if (!v)
		return -1;
	set(l, RES(op, i), convert_tensor(l, v, from, op->res[i].type->elem));
	return 0;
}

int
lower_maxpool(L *l, Op *op, const void *arg)
{
	/* (self, kernel_size, stride, padding, dilation, ceil_mode) */
	Type *it = ttype(l, OPND(op, 0));
	Value *vals, *idxs;
	Win w = {0};
	int want = op->nres == 2;

	if (window(l, op, &w, it) || ints2(l, op, 1, w.K, 1, 1) ||
			ints2(l, op, 2, w.s, w.K[0], w.K[1]) || ints2(l, op, 3, w.p, 0, 0) ||
			ints2(l, op, 4, w.d, 1, 1) || check_win(l, op, &w, tv_ival(OPND(op, 5)) != 0))
		return -1;
	if (pool(l, op, get(l, OPND(op, 0)), it->elem, &w, 1, want, &vals, &idxs))
		return -1;
	return finish(l, op, 0, vals, dt_opmath(l->c, it->elem)) ||
		(want && finish(l, op, 1, idxs, dt_i64(l->c)));
}

/* out / table, the table broadcast over the leading dims */
/* The divisors of an average pool, one per output position (a
 * constant); NULL after an error when there would be too many. */
enum { MAX_DIVISORS_LOG2 = 26 };

static double *
divisor_table(Op *op, const Win *w)
{
	int64_t n;

	if (__builtin_mul_overflow(w->O[0], w->O[1], &n) || n > (int64_t)1 << MAX_DIVISORS_LOG2) {
		op_error(op, "torch-lower: '%s' output of %lldx%lld needs more than the 2^%d "
			"divisors supported", op->name, (long long)w->O[0], (long long)w->O[1],
			MAX_DIVISORS_LOG2);
		return NULL;
	}
	return xmalloc(sizeof(double) * (size_t)(n + 1));
}

static Value *
divide(L *l, Value *v, Type *acc, const double *tab, int64_t oh, int64_t ow)
{
	Ctx *c = l->c;
	int64_t d[2] = { oh, ow }, n = oh * ow, i;
	int r = v->type->rank, s[2] = { r - 2, r - 1 };
	Type *tt = ty_tensor(c, 2, d, belem(c, acc));
	size_t es = elem_size(tt->elem);
	uint8_t *buf = arena_alloc(c, (size_t)n * es);

	for (i = 0; i < n; i++) {
		if (acc->kind == TY_F64) {
			memcpy(buf + i * es, &tab[i], es);
		} else if (dt_isfloat(acc)) {
			float f = (float)tab[i];
			memcpy(buf + i * es, &f, es);
		} else {
			int64_t k = (int64_t)tab[i];
			memcpy(buf + i * es, &k, es);
		}
	}
	Op *k = emit(l, "arith.constant", 0, NULL, 1, &tt);
	op_set_attr(c, k, "value", at_dense(c, tt, buf, (size_t)n * es, 0));
	Value *out = empty(l, v->type, NULL), *ins[2] = { v, RES(k, 0) };
	AffMap *maps[3] = { map_id(l, r), map_sel(l, r, 2, s), map_id(l, r) };
	Gen g;
	gen_begin(l, &g, 2, ins, 1, &out, maps, r, NULL);
	/* integers truncate toward zero, as PyTorch's int64 kernel does */
	Value *y = ar(l, "div", acc, g.arg[0], g.arg[1]);
	return gen_end(l, &g, 1, &y);
}

int
lower_avgpool(L *l, Op *op, const void *arg)
{
	/* (self, kernel_size, stride, padding, ceil_mode, count_include_pad,
	 *  divisor_override) */
	Type *it = ttype(l, OPND(op, 0)), *acc = dt_opmath(l->c, it->elem);
	Value *sum;
	Win w = {0};
	int inc, i, j;

	if (window(l, op, &w, it) || ints2(l, op, 1, w.K, 1, 1) ||
			ints2(l, op, 2, w.s, w.K[0], w.K[1]) || ints2(l, op, 3, w.p, 0, 0))
		return -1;
	w.d[0] = w.d[1] = 1;
	if (check_win(l, op, &w, tv_ival(OPND(op, 4)) != 0))
		return -1;
	inc = tv_ival(OPND(op, 5)) != 0;
	/* PyTorch averages floats and, truncating, int64 only */
	if (!dt_isfloat(it->elem) && !(it->elem->kind == TY_INT && it->elem->width == 64 &&
			!dt_isunsigned(it->elem))) {
		op_error(op, "torch-lower: '%s' is not defined for integer or bool tensors "
			"other than int64", op->name);
		return -1;
	}
	if (op->nopnds > 6 && !tv_none(OPND(op, 6)) && tv_fval(OPND(op, 6)) == 0) {
		op_error(op, "torch-lower: '%s' divisor must be not zero", op->name);
		return -1;
	}
	if (pool(l, op, get(l, OPND(op, 0)), it->elem, &w, 0, 0, &sum, NULL))
		return -1;
	double *tab = divisor_table(op, &w);
	if (!tab)
		return -1;
	for (i = 0; i < w.O[0]; i++)
		for (j = 0; j < w.O[1]; j++) {
			int64_t h0 = i * w.s[0] - w.p[0], w0 = j * w.s[1] - w.p[1];
			int64_t h1 = h0 + w.K[0], w1 = w0 + w.K[1];
			if (h1 > w.H[0] + w.p[0]) h1 = w.H[0] + w.p[0];
			if (w1 > w.H[1] + w.p[1]) w1 = w.H[1] + w.p[1];
			double all = (double)(h1 - h0) * (double)(w1 - w0);
			if (h0 < 0) h0 = 0;
			if (w0 < 0) w0 = 0;
			if (h1 > w.H[0]) h1 = w.H[0];
			if (w1 > w.H[1]) w1 = w.H[1];
			tab[i * w.O[1] + j] = inc ? all : (double)(h1 - h0) * (double)(w1 - w0);
			if (op->nopnds > 6 && !tv_none(OPND(op, 6)))
				tab[i * w.O[1] + j] = tv_fval(OPND(op, 6));
		}
	sum = divide(l, sum, acc, tab, w.O[0], w.O[1]);
	free(tab);
	return finish(l, op, 0, sum, acc);
}

int
lower_adaptive(L *l, Op *op, const void *arg)
{
	/* (self, output_size) */
	Type *it = ttype(l, OPND(op, 0)), *acc = dt_opmath(l->c, it->elem);
	int mx = !strcmp(arg, "max"), want = op->nres == 2, i, j;
	Value *vals, *idxs;
	Win w = {0};

	if (window(l, op, &w, it))
		return -1;
	if (!dt_isfloat(it->elem)) {
		op_error(op, "torch-lower: '%s' needs a floating-point tensor", op->name);
		return -1;
	}
	if (w.H[0] == 0 || w.H[1] == 0) {
		op_error(op, "torch-lower: '%s' needs a non-empty input", op->name);
		return -1;
	}
	if (w.O[0] == 0 || w.O[1] == 0 || ty_numel(op->res[0].type) == 0) {
		/* nothing to pool: the windows would divide by the size 0 */
		for (i = 0; i < op->nres; i++)
			set(l, RES(op, i), emit1(l, "tensor.empty", 0, NULL,
				btensor(l->c, op->res[i].type)));
		return 0;
	}
	for (i = 0; i < 2; i++) {
		int64_t hi;    /* the windows' bounds (o + 1) * H + O - 1 */
		if (__builtin_mul_overflow(w.O[i], w.H[i] + 1, &hi)) {
			op_error(op, "torch-lower: '%s' from %lld to %lld overflows the window "
				"bounds", op->name, (long long)w.H[i], (long long)w.O[i]);
			return -1;
		}
	}
	w.adaptive = 1;
	for (i = 0; i < 2; i++) {
		w.s[i] = w.d[i] = 1;
		if (w.O[i] > (int64_t)1 << 20) {
			/* too many windows to visit: a bound on the longest
			 * (ceil(H / O) + 1), the masks trim each window */
			w.K[i] = (w.H[i] + w.O[i] - 1) / w.O[i] + 1;
			if (w.K[i] > w.H[i])
				w.K[i] = w.H[i];
			continue;
		}
		for (j = 0; j < w.O[i]; j++)
			if (wend(&w, i, j) - wstart(&w, i, j) > w.K[i])
				w.K[i] = wend(&w, i, j) - wstart(&w, i, j);
	}
	if (pool(l, op, get(l, OPND(op, 0)), it->elem, &w, mx, want, &vals, &idxs))
		return -1;
	if (mx)
		return finish(l, op, 0, vals, acc) ||
			(want && finish(l, op, 1, idxs, dt_i64(l->c)));
	double *tab = divisor_table(op, &w);
	if (!tab)
		return -1;
	for (i = 0; i < w.O[0]; i++)
		for (j = 0; j < w.O[1]; j++)
			tab[i * w.O[1] + j] = (double)(wend(&w, 0, i) - wstart(&w, 0, i)) *
				(double)(wend(&w, 1, j) - wstart(&w, 1, j));
	vals = divide(l, vals, acc, tab, w.O[0], w.O[1]);
	free(tab);
	return finish(l, op, 0, vals, acc);
}
