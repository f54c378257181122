/*
 * pass_pool.c - convert-torch-to-linalg's max pooling of float tensors with
 * dynamic shapes, in torch-mlir's form: the input padded with the lowest
 * value (-inf, or the lowest finite one under allow-non-finites=false)
 * by tensor.pad, the output sized (in + 2p - d(k-1) - 1) floordiv s + 1
 * at run time, filled with that value and reduced by linalg's named
 * pooling_ncw_max / pooling_nchw_max (arith.maximumf: NaN propagates, as
 * PyTorch's).  A 2-D pool of static shapes keeps torch-lower's lowering;
 * ceil_mode, integer dtypes and unbatched inputs are left to it or unlowered.
 * As torch-mlir, a padding past half the kernel (which PyTorch rejects) is
 * not checked: the pass lowers what torch-mlir's pattern lowers.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "lower.h"
#include "pass.h"

static double
lowest_finite(Type *d)
{
	switch (d->kind) {
	case TY_F16: return -65504.0;
	case TY_BF16: return -0x1.fep127;
	case TY_F32: return -0x1.fffffep127;
	default: return -DBL_MAX;
	}
}

static Value *
dim_of(L *l, Value *v, int i)
{
	Value *o[2] = { v, cst_idx(l, i) };

	return emit1(l, "tensor.dim", 2, o, ty_index(l->c));
}

/* x padded by lo/hi with scalar v (a tensor.pad always, as torch-mlir's
 * getPaddedTensor) to type pt */
static Value *
pad_by(L *l, Value *x, Type *pt, const int64_t *lo, const int64_t *hi, Value *v)
{
	Ctx *c = l->c;
	int r = pt->rank, i;
	int64_t seg[3] = { 1, 0, 0 };
	Op *pad = op_new(c, "tensor.pad", 1, &x, 1, &pt, 1, l->op->loc);

	if (l->blk)
		op_append(l->blk, pad);
	else
		op_insert_before(l->before, pad);
	op_set_attr(c, pad, "static_low", at_dense_array(c, ty_int(c, 64, SIGNLESS), r, lo));
	op_set_attr(c, pad, "static_high", at_dense_array(c, ty_int(c, 64, SIGNLESS), r, hi));
	op_set_attr(c, pad, "operand_segment_sizes",
		at_dense_array(c, ty_int(c, 32, SIGNLESS), 3, seg));
	Block *b = block_new(c);
	region_append(&pad->regs[0], b);
	for (i = 0; i < r; i++)
		block_add_arg(c, b, ty_index(c), l->op->loc);
	op_append(b, op_new(c, "tensor.yield", 1, &v, 0, NULL, 0, l->op->loc));
	return RES(pad, 0);
}

/* (self, kernel_size, stride, padding, dilation, ceil_mode); arg: the
 * number of pooled dims */
int
lower_pass_maxpool(L *l, Op *op, const void *arg)
{
	Ctx *c = l->c;
	int nd = arg ? (int)(*(const char *)arg - '0') : 2, r = nd + 2, i, ceil, nk;
	Type *it = ttype(l, OPND(op, 0)), *rt = op->res[0].type, *e;
	int64_t K[2], s[2], p[2], d[2], v[4], pd[4], od[4], lo[4] = {0}, hi[4] = {0};
	int64_t seg2[2] = { 2, 1 };
	Value *x = get(l, OPND(op, 0)), *neutral, *padded, *dyn[4], *win, *out;
	int ndyn = 0;

	if (op->nres != 1 || !it->ranked || it->rank != r || !rt->ranked || rt->rank != r ||
			!dt_isfloat(it->elem))
		return -1;
	if (nd == 2 && ty_static(it) && ty_static(rt))
		return lower_maxpool(l, op, NULL);
	if (!tv_bool(OPND(op, 5), &ceil) || ceil)
		return -1;
	if ((nk = tv_ints(OPND(op, 1), K, 2)) != nd)
		return -1;
	for (i = 2; i <= 4; i++) {
		int64_t *dst = i == 2 ? s : i == 3 ? p : d;
		int n = tv_ints(OPND(op, i), v, 2);
		if (n < 0 || n > nd || (n && n != 1 && n != nd))
			return -1;
		dst[0] = n ? v[0] : i == 2 ? K[0] : i == 3 ? 0 : 1;
		dst[1] = n > 1 ? v[1] : n ? v[0] : i == 2 ? K[1 % nd] : i == 3 ? 0 : 1;
	}
	for (i = 0; i < nd; i++)
		if (K[i] < 1 || s[i] < 1 || d[i] < 1 || p[i] < 0 || K[i] > INT32_MAX ||
				s[i] > INT32_MAX || d[i] > INT32_MAX || p[i] > INT32_MAX)
			return -1;
	e = belem(c, it->elem);
	neutral = cst_f(l, l->finite ? lowest_finite(it->elem) : -INFINITY, e);
	for (i = 0; i < r; i++) {
		int64_t q = i < 2 ? 0 : p[i - 2];
		lo[i] = hi[i] = q;
		pd[i] = it->dims[i] < 0 ? -1 : it->dims[i] + 2 * q;
	}
	padded = pad_by(l, x, ty_tensor(c, r, pd, e), lo, hi, neutral);
	for (i = 0; i < r; i++) {
		int64_t k = i < 2 ? 0 : d[i - 2] * (K[i - 2] - 1) + 1 - 2 * p[i - 2];
		int64_t st = i < 2 ? 1 : s[i - 2];
		if (it->dims[i] >= 0) {
			if (it->dims[i] < k)
				return -1;
			od[i] = i < 2 ? it->dims[i] : (it->dims[i] - k) / st + 1;
			if (rt->dims[i] >= 0 && rt->dims[i] != od[i])
				return -1;
			continue;
		}
		od[i] = -1;
		dyn[ndyn] = dim_of(l, x, i);
		if (i >= 2) {
			dyn[ndyn] = bin(l, "arith.subi", dyn[ndyn], cst_idx(l, k));
			dyn[ndyn] = bin(l, "arith.floordivsi", dyn[ndyn], cst_idx(l, st));
			dyn[ndyn] = bin(l, "arith.addi", dyn[ndyn], cst_idx(l, 1));
		}
		ndyn++;
	}
	Type *ot = ty_tensor(c, r, od, e);
	out = fill(l, neutral, emit1(l, "tensor.empty", ndyn, dyn, ot));
	win = emit1(l, "tensor.empty", 0, NULL, ty_tensor(c, nd, K, e));
	Value *ops[3] = { padded, win, out };
	Op *pl = emit(l, nd == 1 ? "linalg.pooling_ncw_max" : "linalg.pooling_nchw_max", 3, ops,
		1, &ot);
	op_set_attr(c, pl, "dilations", window_attr(c, nd, d));
	op_set_attr(c, pl, "strides", window_attr(c, nd, s));
	op_set_attr(c, pl, "operand_segment_sizes",
		at_dense_array(c, ty_int(c, 32, SIGNLESS), 2, seg2));
	set(l, RES(op, 0), RES(pl, 0));
	return 0;
}

/*
 * Average pooling, 1-D to 3-D, of f32, f64 or si64 tensors of static
 * shape, in torch-mlir's form: the input padded with zeros (ceil_mode pads
 * the high end by one stride more), linalg's pooling_ncw_sum /
 * pooling_nchw_sum / pooling_ndhwc_sum (the 3-D one between two
 * linalg.transposes) into a zero-filled output, then one linalg.generic
 * dividing by the window size.  A stride list of twice the pooled dims
 * carries the dilations after the strides (torch-mlir's convention).  The
 * divisor is the kernel's size (or divisor_override) unless a window can
 * reach past the input or its padding: then each position counts its
 * taps, as PyTorch's kernels, with per dim
 *   i0 = o*s - p,  i1 = min(i0 + (k-1)d + 1, H + p)
 *   taps = max(ceil((min(i1, H) - i0) / d) - ceil(max(-i0, 0) / d), 0)
 * or with count_include_pad max(ceil((i1 - i0) / d), 0); integers divide
 * truncating (arith.divsi) as PyTorch's int64 kernel.
 */

/* an i64 that is a known constant (v NULL) or a value; the arithmetic
 * below folds as MLIR's createOrFold does, so constants stay constants */
typedef struct Iv {
	Value *v;
	int64_t k;
} Iv;

static Iv ik(int64_t k) { Iv r = { NULL, k }; return r; }

static Value *
iv_val(L *l, Iv a)
{
	return a.v ? a.v : cst_i(l, a.k, ty_int(l->c, 64, SIGNLESS));
}

static int64_t
ceildiv(int64_t a, int64_t b)
{
	int64_t q = a / b;

	return q * b != a && (a < 0) == (b < 0) ? q + 1 : q;
}

/* what: + - * min max ceildiv */
static Iv
iv_op(L *l, int what, Iv a, Iv b)
{
	static const char *const names[] = { "arith.addi", "arith.subi", "arith.muli",
		"arith.minsi", "arith.maxsi", "arith.ceildivsi" };
	const char *ops = "+-*<>/";
	Iv r = { NULL, 0 };

	if (!a.v && !b.v) {
		switch (what) {
		case '+': r.k = a.k + b.k; break;
		case '-': r.k = a.k - b.k; break;
		case '*': r.k = a.k * b.k; break;
		case '<': r.k = a.k < b.k ? a.k : b.k; break;
		case '>': r.k = a.k > b.k ? a.k : b.k; break;
		default: r.k = ceildiv(a.k, b.k); break;
		}
		return r;
	}
	if (!b.v && ((b.k == 0 && (what == '+' || what == '-')) ||
			(b.k == 1 && (what == '*' || what == '/'))))
		return a;
	if (!a.v && ((a.k == 0 && what == '+') || (a.k == 1 && what == '*')))
		return b;
	r.v = bin(l, names[strchr(ops, what) - ops], iv_val(l, a), iv_val(l, b));
	return r;
}

typedef struct Avg {
	int nd, ceil, cip;
	int64_t K[3], s[3], p[3], d[3], H[3], O[3];
} Avg;

/* the taps of the window at the output position of the generic's
 * indices, as an i64 (PyTorch's divide_factor) */
static Value *
window_taps(L *l, const Avg *a)
{
	Iv size = ik(1), zero = ik(0), one = ik(1);
	int i;

	for (i = 0; i < a->nd; i++) {
		Iv o = { emit1(l, "arith.index_cast", 1, (Value *[]){ lindex(l, i + 2) },
			ty_int(l->c, 64, SIGNLESS)), 0 };
		Iv d = ik(a->d[i]), H = ik(a->H[i]);
		Iv i0 = iv_op(l, '-', iv_op(l, '*', o, ik(a->s[i])), ik(a->p[i]));
		Iv ek = iv_op(l, '+', iv_op(l, '*', iv_op(l, '-', ik(a->K[i]), one), d), one);
		Iv i1 = iv_op(l, '<', iv_op(l, '+', i0, ek), iv_op(l, '+', H, ik(a->p[i])));
		Iv n;
		if (a->cip) {
			n = iv_op(l, '>', iv_op(l, '/', iv_op(l, '-', i1, i0), d), zero);
		} else {
			Iv i1c = iv_op(l, '<', i1, H);
			Iv kmin = iv_op(l, '/', iv_op(l, '>', iv_op(l, '-', zero, i0), zero), d);
			Iv kmax = iv_op(l, '/', iv_op(l, '-', i1c, i0), d);
			n = iv_op(l, '>', iv_op(l, '-', kmax, kmin), zero);
		}
		size = i ? iv_op(l, '*', size, n) : n;
	}
	return iv_val(l, size);
}

/* a list operand of 1 or nd ints (or none: dflt) into v[nd]; -1 if not */
static int
pool_ints(Value *lv, int nd, int64_t *v, const int64_t *dflt, int64_t *extra)
{
	int64_t t[6];
	int n = tv_ints(lv, t, 6), i;

	if (n < 0 || (n > 1 && n != nd && !(extra && n == 2 * nd)))
		return -1;
	for (i = 0; i < nd; i++) {
		v[i] = n == 0 ? dflt[i] : n == 1 ? t[0] : t[i];
		if (extra)
			extra[i] = n == 2 * nd ? t[nd + i] : 1;
	}
	return 0;
}

/* v (static) transposed: result dim i is v's dim perm[i] */
static Value *
permuted(L *l, Value *v, const int64_t *perm)
{
	Type *t = v->type;
	int64_t d[5];
	int i;

	for (i = 0; i < t->rank; i++)
		d[i] = t->dims[perm[i]];
	Type *bt = ty_tensor(l->c, t->rank, d, t->elem);
	Value *o[2] = { v, emit1(l, "tensor.empty", 0, NULL, bt) };
	Op *tr = emit(l, "linalg.transpose", 2, o, 1, &bt);
	op_set_attr(l->c, tr, "permutation", at_dense_array(l->c,
		ty_int(l->c, 64, SIGNLESS), t->rank, perm));
	return RES(tr, 0);
}

/* (self, kernel_size, stride, padding, ceil_mode, count_include_pad
 * [, divisor_override]); arg: the number of pooled dims */
int
lower_pass_avgpool(L *l, Op *op, const void *arg)
{
	Ctx *c = l->c;
	Avg a = { *(const char *)arg - '0' };
	int nd = a.nd, r = nd + 2, i, clamp = 0;
	Type *it = ttype(l, OPND(op, 0)), *rt = op->res[0].type, *e, *i64 = dt_i64(c);
	int64_t zero[3] = { 0, 0, 0 }, lo[5] = { 0 }, hi[5] = { 0 }, pd[5], od[5], over = 0;
	int64_t seg2[2] = { 2, 1 };
	Value *x = get(l, OPND(op, 0));

	if (op->nres != 1 || !it->ranked || it->rank != r || !ty_static(it) || !rt->ranked ||
			rt->rank != r || rt->elem != it->elem || !(it->elem->kind == TY_F32 ||
			it->elem->kind == TY_F64 || (it->elem->kind == TY_INT &&
			it->elem->width == 64 && !dt_isunsigned(it->elem))))
		goto other;
	if (pool_ints(OPND(op, 1), nd, a.K, zero, NULL) ||
			pool_ints(OPND(op, 2), nd, a.s, a.K, a.d) ||
			pool_ints(OPND(op, 3), nd, a.p, zero, NULL) ||
			!tv_bool(OPND(op, 4), &a.ceil) || !tv_bool(OPND(op, 5), &a.cip))
		goto other;
	if (op->nopnds > 6 && !tv_none(OPND(op, 6)) &&
			(!tv_int(OPND(op, 6), &over) || over == 0))
		goto other;
	for (i = 0; i < nd; i++) {
		int64_t K = a.K[i], s = a.s[i], p = a.p[i], d = a.d[i], H = it->dims[i + 2], span;
		if (K < 1 || s < 1 || d < 1 || p < 0 || K > INT32_MAX || s > INT32_MAX ||
				d > INT32_MAX || p > INT32_MAX)
			goto other;
		span = H + 2 * p - d * (K - 1) - 1;
		if (span < 0)
			goto other;
		a.H[i] = H;
		a.O[i] = (a.ceil ? ceildiv(span, s) : span / s) + 1;
		if (a.ceil && (a.O[i] - 1) * s >= H + p)
			a.O[i]--;
		if (rt->dims[i + 2] >= 0 && rt->dims[i + 2] != a.O[i])
			goto other;
		clamp |= (!a.cip && p) || (a.ceil && s != 1) || d != 1;
		lo[i + 2] = p;
		hi[i + 2] = p + (a.ceil ? s : 0);
	}
	for (i = 0; i < r; i++) {
		pd[i] = it->dims[i] + lo[i] + hi[i];
		od[i] = i < 2 ? it->dims[i] : a.O[i - 2];
		if (rt->dims[i] >= 0 && rt->dims[i] != od[i])
			goto other;
	}
	e = belem(c, it->elem);
	Value *z = cst_d(l, 0, it->elem);
	Value *padded = pad_by(l, x, ty_tensor(c, r, pd, e), lo, hi, z);
	Type *ot = ty_tensor(c, r, od, e);
	Value *out = fill(l, z, emit1(l, "tensor.empty", 0, NULL, ot));
	Value *win = emit1(l, "tensor.empty", 0, NULL, ty_tensor(c, nd, a.K, e));
	Type *pt = ot;
	if (nd == 3) {
		static const int64_t to_last[5] = { 0, 2, 3, 4, 1 };
		padded = permuted(l, padded, to_last);
		out = permuted(l, out, to_last);
		pt = out->type;
	}
	Value *ops[3] = { padded, win, out };
	Op *pl = emit(l, nd == 1 ? "linalg.pooling_ncw_sum" : nd == 2 ? "linalg.pooling_nchw_sum" :
		"linalg.pooling_ndhwc_sum", 3, ops, 1, &pt);
	op_set_attr(c, pl, "dilations", window_attr(c, nd, a.d));
	op_set_attr(c, pl, "strides", window_attr(c, nd, a.s));
	op_set_attr(c, pl, "operand_segment_sizes",
		at_dense_array(c, ty_int(c, 32, SIGNLESS), 2, seg2));
	Value *sum = RES(pl, 0);
	if (nd == 3) {
		static const int64_t to_second[5] = { 0, 4, 1, 2, 3 };
		sum = permuted(l, sum, to_second);
	}
	/* the divisor, outside the generic when it is the same everywhere */
	Value *div = NULL;
	if (!clamp || over) {
		int64_t n = 1;
		for (i = 0; i < nd; i++)
			n *= a.K[i];
		div = cv(l, cst_i(l, over ? over : n, ty_int(c, 64, SIGNLESS)), i64, it->elem);
	}
	Value *res = emit1(l, "tensor.empty", 0, NULL, ot);
	AffMap *maps[2] = { map_id(l, r), map_id(l, r) };
	Gen g;
	gen_begin(l, &g, 1, &sum, 1, &res, maps, r, NULL);
	if (!div)
		div = cv(l, window_taps(l, &a), i64, it->elem);
	Value *y = bin(l, dt_isfloat(it->elem) ? "arith.divf" : "arith.divsi", g.arg[0], div);
	set(l, RES(op, 0), gen_end(l, &g, 1, &y));
	return 0;
other:
	return nd == 2 ? lower_avgpool(l, op, NULL) : -1;
}

/* the size of v's dim i: a constant where static, as torch-mlir's folded
 * tensor.dim */
static Value *
size_of(L *l, Value *v, int i)
{
	return v->type->dims[i] >= 0 ? cst_idx(l, v->type->dims[i]) : dim_of(l, v, i);
}

static Value *
idx_to_i64(L *l, Value *v)
{
	return emit1(l, "arith.index_cast", 1, &v, ty_int(l->c, 64, SIGNLESS));
}

static int
fits(Type *t, int rank, const int64_t *d)
{
	int i;

	if (!t->ranked || t->rank != rank)
		return 0;
	for (i = 0; i < rank; i++)
		if (t->dims[i] >= 0 && d[i] >= 0 && t->dims[i] != d[i])
			return 0;
	return 1;
}

/*
 * embedding_bag.padding_idx(weight, indices, offsets, scale_grad_by_freq,
 * mode, sparse, per_sample_weights, include_last_offset, padding_idx), in
 * torch-mlir's form: mode sum, f32/f64 weight, si64 indices and offsets,
 * no per-sample weights, no last offset, no padding index.  One generic
 * over (bag b, index j, column d) reduces over j: j joins bag b when
 * offsets[b] <= j < offsets[b + 1] (the indices' length for the last bag,
 * whose offsets[b + 1] is read at 0 instead, in bounds).  offset2bag is
 * empty, bag_size and max_indices zeros, as PyTorch gives them for sum
 * without grad.
 */
int
lower_pass_embedding_bag(L *l, Op *op, const void *arg)
{
	Ctx *c = l->c;
	Value *w, *ix, *of;
	Type *wt = ttype(l, OPND(op, 0)), *it = ttype(l, OPND(op, 1)), *ot = ttype(l, OPND(op, 2));
	Type *i64 = ty_int(c, 64, SIGNLESS);
	int64_t mode, pad = -1, d0[2], zero = 0;
	int last, i;

	if (op->nres != 4 || op->nopnds != 9 || !tv_int(OPND(op, 4), &mode) || mode != 0 ||
			!tv_none(OPND(op, 6)) || !tv_bool(OPND(op, 7), &last) || last ||
			!(tv_none(OPND(op, 8)) || (tv_int(OPND(op, 8), &pad) && pad == -1)))
		return -1;
	if (!wt->ranked || wt->rank != 2 || !(wt->elem->kind == TY_F32 || wt->elem->kind == TY_F64) ||
			!it->ranked || it->rank != 1 || it->elem != dt_i64(c) ||
			!ot->ranked || ot->rank != 1 || ot->elem != dt_i64(c))
		return -1;
	d0[0] = ot->dims[0], d0[1] = wt->dims[1];
	if (!fits(op->res[0].type, 2, d0) || op->res[0].type->elem != wt->elem ||
			!fits(op->res[1].type, 1, &zero))
		return -1;
	for (i = 1; i < 4; i++)
		if (op->res[i].type->elem != ot->elem || (i > 1 && !fits(op->res[i].type, 1, d0)))
			return -1;
	of = get(l, OPND(op, 2));
	ix = get(l, OPND(op, 1));
	w = get(l, OPND(op, 0));
	Type *e = belem(c, wt->elem), *oe = belem(c, ot->elem);
	Value *dims[2] = { size_of(l, of, 0), size_of(l, w, 1) }, *dyn[2];
	int nd = 0;
	for (i = 0; i < 2; i++)
		if (d0[i] < 0)
			dyn[nd++] = dims[i];
	Type *rt = ty_tensor(c, 2, d0, e);
	Value *init = fill(l, cst_f(l, 0, e), emit1(l, "tensor.empty", nd, dyn, rt));
	Value *nbags = dims[0], *nidx = it->dims[0] >= 0 ? NULL : dim_of(l, ix, 0);
	AffExpr *xe[1] = { d_(l, 1) }, *oe1[1] = { d_(l, 0) }, *re[2] = { d_(l, 0), d_(l, 2) };
	AffMap *maps[3] = { map_of(l, 3, 1, xe), map_of(l, 3, 1, oe1), map_of(l, 3, 2, re) };
	Value *ins[2] = { ix, of };
	Gen g;
	gen_begin(l, &g, 2, ins, 1, &init, maps, 3, "prp");
	Value *b0 = idx_to_i64(l, lindex(l, 0)), *one = cst_i(l, 1, i64);
	Value *b1 = bin(l, "arith.addi", b0, one);
	Value *b1x = emit1(l, "arith.index_cast", 1, &b1, ty_index(c));
	Value *nb = ot->dims[0] >= 0 ? cst_i(l, ot->dims[0], i64) : idx_to_i64(l, nbags);
	Value *islast = cmpi(l, "eq", nb, b1);
	Value *safe = sel(l, islast, cst_idx(l, 0), b1x);
	Value *n = it->dims[0] >= 0 ? cst_i(l, it->dims[0], i64) : idx_to_i64(l, nidx);
	Value *xo[2] = { of, safe }, *at = emit1(l, "tensor.extract", 2, xo, oe);
	Value *next = sel(l, islast, n, at);
	Value *j = idx_to_i64(l, lindex(l, 1));
	Value *lt = cmpi(l, "slt", g.arg[1], j), *eq = cmpi(l, "eq", g.arg[1], j);
	Value *from = bin(l, "arith.ori", lt, eq), *before = cmpi(l, "slt", j, next);
	Value *in = bin(l, "arith.andi", from, before);
	Value *xw[3] = { w, emit1(l, "arith.index_cast", 1, &g.arg[0], ty_index(c)), NULL };
	xw[2] = lindex(l, 2);
	Value *row = emit1(l, "tensor.extract", 3, xw, e);
	Value *y = sel(l, in, bin(l, "arith.addf", row, g.arg[2]), g.arg[2]);
	set(l, RES(op, 0), gen_end(l, &g, 1, &y));
	set(l, RES(op, 1), emit1(l, "tensor.empty", 0, NULL, ty_tensor(c, 1, &zero, oe)));
	for (i = 2; i < 4; i++) {
		Value *z = cst_i(l, 0, oe);
		Value *t = ot->dims[0] >= 0 ? emit1(l, "tensor.empty", 0, NULL, ty_tensor(c, 1, d0, oe)) :
			emit1(l, "tensor.empty", 1, &nbags, ty_tensor(c, 1, d0, oe));
		set(l, RES(op, i), fill(l, z, t));
	}
	return 0;
}
