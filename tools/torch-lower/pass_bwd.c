/*
 * pass_bwd.c - convert-torch-to-linalg's own rows (bwd helper): ops the
 * torch-lower tool does not lower, taken by the pass only.
 *
 * convolution_backward (not transposed, output_padding 0, static float
 * tensors of one dtype, 1-3 spatial dims, constant lists) as torch-mlir's
 * pattern, each result that output_mask asks for (the others are none and
 * must be unused), accumulated in f32 (f64 for f64) and converted after:
 *
 *   grad_input[n, (g,) c, o] = sum over f, k of
 *       go'[n, (g,) f, d*k + o] * wflip[(g,) f, c, k]
 *     where wflip is the weight reversed along its spatial dims of size
 *     other than 1 (a linalg.generic of tensor.extract), and go' is the
 *     grad output padded with zeros by p' = d*(K-1) - p at both ends
 *     (tensor.pad) or, for a stride over 1, inserted with that stride at
 *     offset p' into zeros of size (H-1) + d*(K-1) + 1 (tensor.insert_slice);
 *     a negative p' is refused;
 *   grad_weight[(g,) f, c, k] = sum over n, o of
 *       xpad[n, (g,) c, d*k + s*o] * go[n, (g,) f, o]
 *     where xpad is the input padded by p at both ends;
 *   grad_bias[f] = sum of go over all dims but 1.
 *
 * With groups the group splits off dim 1 of grad output and input and dim
 * 0 of the weight (tensor.expand_shape); results collapse back.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "lower.h"
#include "pass.h"

/* dims at and at+1 of the big side as one: [[0], .., [at, at+1], ..] */
static Attr *
group_reassoc(L *l, int nsmall, int at)
{
	Attr *groups[TY_MAXRANK], *inner[2];
	int j;

	for (j = 0; j < nsmall; j++) {
		int b = j <= at ? j : j + 1;
		inner[0] = at_int(l->c, b, NULL);
		inner[1] = at_int(l->c, b + 1, NULL);
		groups[j] = at_array(l->c, j == at ? 2 : 1, inner);
	}
	return at_array(l->c, nsmall, groups);
}

/* [.., b*c, ..] -> [.., b, c, ..] at dim at, b = g, by one
 * tensor.expand_shape (pass_conv.c too) */
Value *
pass_bwd_split_group(L *l, Value *v, int at, int64_t g)
{
	int64_t d[TY_MAXRANK + 1];
	int i, n = 0;

	for (i = 0; i < v->type->rank; i++) {
		if (i == at) {
			d[n++] = g;
			d[n++] = v->type->dims[i] == DYN ? DYN : v->type->dims[i] / g;
		} else {
			d[n++] = v->type->dims[i];
		}
	}
	return expand_dims(l, v, ty_tensor(l->c, n, d, v->type->elem),
		group_reassoc(l, v->type->rank, at), 0);
}

/* v padded with zeros by p[i] at both ends of each dim from `from` on,
 * by torch-mlir's tensor.pad (pass_conv.c too) */
Value *
pass_bwd_zero_pad(L *l, Value *v, int from, const int64_t *p)
{
	int64_t off[TY_MAXRANK], d[TY_MAXRANK];
	int r = v->type->rank, i, any = 0;

	for (i = 0; i < r; i++) {
		off[i] = i < from ? 0 : p[i - from];
		d[i] = v->type->dims[i] == DYN ? DYN : v->type->dims[i] + 2 * off[i];
		any |= off[i] != 0;
	}
	if (!any)
		return v;
	int saved = lower_mlir_version;
	lower_mlir_version = MLIR_NEWER;   /* torch-mlir's tensor.pad */
	v = pad_with(l, v, ty_tensor(l->c, r, d, v->type->elem), off,
		cst_d(l, 0, v->type->elem));
	lower_mlir_version = saved;
	return v;
}

/* the linalg.index of loop i (of static size n): 0 for a unit loop, as
 * linalg.index folds */
static Value *
loop_index(L *l, int i, int64_t n)
{
	return n == 1 ? cst_idx(l, 0) : lindex(l, i);
}

/* v reversed along its dims from `from` on whose size is not 1; v itself
 * when there are none */
static Value *
flip_spatial(L *l, Value *v, int from)
{
	Type *t = v->type;
	Value *idx[TY_MAXRANK], *k1[TY_MAXRANK];
	int r = t->rank, i, any = 0;
	Gen g;

	for (i = from; i < r; i++)
		any |= t->dims[i] != 1;
	if (!any)
		return v;
	for (i = from; i < r; i++)
		k1[i] = t->dims[i] != 1 ? cst_idx(l, t->dims[i] - 1) : NULL;
	Value *init = filled(l, t, cst_d(l, 0, t->elem));
	AffMap *maps[2] = { map_id(l, r), map_id(l, r) };
	gen_begin(l, &g, 1, &v, 1, &init, maps, r, NULL);
	for (i = 0; i < r; i++)
		idx[i] = loop_index(l, i, t->dims[i]);
	for (i = from; i < r; i++)
		if (t->dims[i] != 1)
			idx[i] = bin(l, "arith.subi", k1[i], idx[i]);
	Value *ex[TY_MAXRANK + 1];
	ex[0] = v;
	for (i = 0; i < r; i++)
		ex[i + 1] = idx[i];
	Value *e = emit1(l, "tensor.extract", r + 1, ex, t->elem);
	return gen_end(l, &g, 1, &e);
}

/* a + b, two plain dims in ascending order as MLIR orders them */
static AffExpr *
sum_(L *l, AffExpr *a, AffExpr *b)
{
	if (a->kind == AFF_DIM && b->kind == AFF_DIM && a->v > b->v)
		return add_(l, b, a);
	return add_(l, a, b);
}

/* out += ext(a) * ext(b) over nloops loops, the last nred reductions */
static Value *
conv_generic(L *l, Value *a, Value *b, Value *out, AffMap **maps, int nloops, int nred)
{
	char it[2 * TY_MAXRANK + 2];
	Type *acc = out->type->elem;
	Value *in[2] = { a, b };
	Gen g;
	int i;

	for (i = 0; i < nloops; i++)
		it[i] = i < nloops - nred ? 'p' : 'r';
	it[nloops] = 0;
	gen_begin(l, &g, 2, in, 1, &out, maps, nloops, it);
	Value *x = g.arg[0], *y = g.arg[1];
	if (x->type != acc)
		x = emit1(l, "arith.extf", 1, &x, acc);
	if (y->type != acc)
		y = emit1(l, "arith.extf", 1, &y, acc);
	Value *m = bin(l, "arith.mulf", x, y);
	Value *s = bin(l, "arith.addf", m, g.arg[2]);
	return gen_end(l, &g, 1, &s);
}

typedef struct Bwd {
	int ns, grp;          /* spatial dims; 1 when grouped */
	int64_t G, s[3], p[3], d[3];
	Type *acc;
} Bwd;

/* (the result converted to dt, collapsed to rt's shape when grouped) */
/* v's dims at and at+1 merged into one, to type bt */
Value *
pass_bwd_merge_group(L *l, Value *v, Type *bt, int at)
{
	return expand_dims(l, v, bt, group_reassoc(l, bt->rank, at), 1);
}

static Value *
finish(L *l, const Bwd *b, Value *v, Type *rt, int at)
{
	if (v->type->elem != rt->elem)
		v = convert_tensor(l, v, v->type->elem, rt->elem);
	if (b->grp)
		v = pass_bwd_merge_group(l, v, btensor(l->c, rt), at);
	/* cast to the result's type right away, as torch-mlir's pattern */
	return emit1(l, "tensor.cast", 1, &v, btensor(l->c, rt));
}

static Value *
grad_input(L *l, const Bwd *b, Value *go, Value *w, Type *xt)
{
	int ns = b->ns, gp = b->grp, sp = 2 + gp, i, n = 3 + gp + 2 * ns;
	int64_t pp[3], od[TY_MAXRANK + 1], off[TY_MAXRANK + 1], st[TY_MAXRANK + 1];
	int strided = 0;

	if (gp) {
		go = pass_bwd_split_group(l, go, 1, b->G);
		w = pass_bwd_split_group(l, w, 0, b->G);
	}
	w = flip_spatial(l, w, sp);
	for (i = 0; i < ns; i++) {
		pp[i] = b->d[i] * (w->type->dims[sp + i] - 1) - b->p[i];
		if (pp[i] < 0)
			return NULL;
		strided |= b->s[i] > 1;
	}
	if (strided) {
		for (i = 0; i < go->type->rank; i++) {
			od[i] = go->type->dims[i];
			off[i] = 0;
			st[i] = 1;
		}
		for (i = 0; i < ns; i++) {
			od[sp + i] = xt->dims[2 + i] - 1 + b->d[i] * (w->type->dims[sp + i] - 1) + 1;
			off[sp + i] = pp[i];
			st[sp + i] = b->s[i];
		}
		Value *z = filled(l, ty_tensor(l->c, go->type->rank, od, go->type->elem),
			cst_d(l, 0, go->type->elem));
		go = insert_slice(l, go, z, off, st);
	} else {
		go = pass_bwd_zero_pad(l, go, sp, pp);
	}
	/* loops n, (g,) c, o..., f, k... */
	for (i = 0; i < xt->rank; i++)
		od[i + (gp && i >= 1)] = xt->dims[i];
	if (gp) {
		od[1] = b->G;
		od[2] = xt->dims[1] / b->G;
	}
	Value *out = filled(l, ty_tensor(l->c, xt->rank + gp, od, b->acc), cst_d(l, 0, b->acc));
	AffExpr *lhs[TY_MAXRANK + 1], *rhs[TY_MAXRANK + 1], *res[TY_MAXRANK + 1];
	int c = 1 + gp, f = 2 + gp + ns, k = 3 + gp + ns, nl = 0, nr = 0, no = 0;
	lhs[nl++] = d_(l, 0);
	res[no++] = d_(l, 0);
	if (gp) {
		lhs[nl++] = d_(l, 1);
		rhs[nr++] = d_(l, 1);
		res[no++] = d_(l, 1);
	}
	lhs[nl++] = d_(l, f);
	rhs[nr++] = d_(l, f);
	rhs[nr++] = d_(l, c);
	res[no++] = d_(l, c);
	for (i = 0; i < ns; i++) {
		lhs[nl++] = sum_(l, mul_(l, d_(l, k + i), b->d[i]), d_(l, c + 1 + i));
		rhs[nr++] = d_(l, k + i);
		res[no++] = d_(l, c + 1 + i);
	}
	AffMap *maps[3] = { map_of(l, n, nl, lhs), map_of(l, n, nr, rhs), map_of(l, n, no, res) };
	return conv_generic(l, go, w, out, maps, n, ns + 1);
}

static Value *
grad_weight(L *l, const Bwd *b, Value *go, Value *x, Type *wt)
{
	int ns = b->ns, gp = b->grp, sp = 2 + gp, i, j, n = 3 + gp + 2 * ns;
	int64_t od[TY_MAXRANK + 1];

	if (gp) {
		go = pass_bwd_split_group(l, go, 1, b->G);
		x = pass_bwd_split_group(l, x, 1, b->G);
	}
	x = pass_bwd_zero_pad(l, x, sp, b->p);
	for (i = 0; i < wt->rank; i++)
		od[i + (gp && i >= 1)] = wt->dims[i];
	if (gp) {
		od[0] = b->G;
		od[1] = wt->dims[0] / b->G;
	}
	Value *out = filled(l, ty_tensor(l->c, wt->rank + gp, od, b->acc), cst_d(l, 0, b->acc));
	/* loops (g,) f, c, k..., n, o... */
	AffExpr *lhs[TY_MAXRANK + 1], *rhs[TY_MAXRANK + 1], *res[TY_MAXRANK + 1];
	int f = gp, c = gp + 1, k = gp + 2, nn = gp + 2 + ns, o = gp + 3 + ns;
	j = 0;
	lhs[j] = d_(l, nn); rhs[j] = d_(l, nn); res[j++] = gp ? d_(l, 0) : d_(l, f);
	if (gp) {
		lhs[j] = d_(l, 0); rhs[j] = d_(l, 0); res[j++] = d_(l, f);
	}
	lhs[j] = d_(l, c); rhs[j] = d_(l, f); res[j++] = d_(l, c);
	for (i = 0; i < ns; i++, j++) {
		lhs[j] = sum_(l, mul_(l, d_(l, k + i), b->d[i]), mul_(l, d_(l, o + i), b->s[i]));
		rhs[j] = d_(l, o + i);
		res[j] = d_(l, k + i);
	}
	AffMap *maps[3] = { map_of(l, n, j, lhs), map_of(l, n, j, rhs), map_of(l, n, j, res) };
	return conv_generic(l, x, go, out, maps, n, ns + 1);
}

static Value *
grad_bias(L *l, const Bwd *b, Value *go)
{
	Type *t = go->type;
	int r = t->rank, one = 1, i;
	char it[TY_MAXRANK + 1];
	Gen g;

	Value *out = filled(l, ty_tensor(l->c, 1, &t->dims[1], b->acc), cst_d(l, 0, b->acc));
	for (i = 0; i < r; i++)
		it[i] = i == 1 ? 'p' : 'r';
	it[r] = 0;
	AffMap *maps[2] = { map_id(l, r), map_sel(l, r, 1, &one) };
	gen_begin(l, &g, 1, &go, 1, &out, maps, r, it);
	Value *x = g.arg[0];
	if (x->type != b->acc)
		x = emit1(l, "arith.extf", 1, &x, b->acc);
	Value *s = bin(l, "arith.addf", x, g.arg[1]);
	return gen_end(l, &g, 1, &s);
}

/* (grad_output, input, weight, bias_sizes, stride, padding, dilation,
 * transposed, output_padding, groups, output_mask) */
static int
lower_conv_bwd(L *l, Op *op, const void *arg)
{
	Type *gt = ttype(l, OPND(op, 0)), *xt = ttype(l, OPND(op, 1)), *wt = ttype(l, OPND(op, 2));
	Value *mv[3];
	int64_t op_[3];
	int mask[3], tr, i, r;
	Bwd b = {0};

	(void)arg;
	if (!gt->ranked || !xt->ranked || !wt->ranked || !ty_static(gt) || !ty_static(xt) ||
			!ty_static(wt) || !gt->elem || gt->elem != xt->elem || gt->elem != wt->elem ||
			!dt_isfloat(gt->elem))
		return -1;
	r = gt->rank;
	b.ns = r - 2;
	if (b.ns < 1 || b.ns > 3 || xt->rank != r || wt->rank != r ||
			!tv_bool(OPND(op, 7), &tr) || tr || !tv_int(OPND(op, 9), &b.G) || b.G < 1 ||
			tv_ints(OPND(op, 4), b.s, 3) != b.ns || tv_ints(OPND(op, 5), b.p, 3) != b.ns ||
			tv_ints(OPND(op, 6), b.d, 3) != b.ns || tv_ints(OPND(op, 8), op_, 3) != b.ns ||
			list_vals(OPND(op, 10), mv, 3) != 3)
		return -1;
	for (i = 0; i < 3; i++) {
		if (!tv_bool(mv[i], &mask[i]))
			return -1;
		if (!mask[i] && !value_use_empty(RES(op, i)))
			return -1;
		if (mask[i] && !ty_istorchtensor(op->res[i].type))
			return -1;
	}
	b.grp = b.G > 1;
	int64_t N = xt->dims[0], C = xt->dims[1], F = wt->dims[0];
	if (C != wt->dims[1] * b.G || F % b.G || gt->dims[0] != N || gt->dims[1] != F)
		return -1;
	for (i = 0; i < b.ns; i++) {
		int64_t H = xt->dims[2 + i] + 2 * b.p[i], k = b.d[i] * (wt->dims[2 + i] - 1) + 1;
		if (op_[i] != 0 || b.s[i] < 1 || b.d[i] < 1 || b.p[i] < 0 || H < k ||
				(H - k) / b.s[i] + 1 != gt->dims[2 + i])
			return -1;
	}
	b.acc = gt->elem->kind == TY_F64 ? gt->elem : ty_float(l->c, TY_F32);
	Value *go = get(l, OPND(op, 0)), *x = get(l, OPND(op, 1)), *w = get(l, OPND(op, 2)), *v;
	if (mask[0]) {
		if (!(v = grad_input(l, &b, go, w, xt)))
			return -1;
		set(l, RES(op, 0), finish(l, &b, v, op->res[0].type, 1));
	}
	if (mask[1]) {
		v = grad_weight(l, &b, go, x, wt);
		set(l, RES(op, 1), finish(l, &b, v, op->res[1].type, 0));
	}
	if (mask[2]) {
		b.grp = 0;
		v = grad_bias(l, &b, go);
		set(l, RES(op, 2), finish(l, &b, v, op->res[2].type, 0));
	}
	return 0;
}

static const Row rows[] = {
	{"torch.aten.convolution_backward", lower_conv_bwd, NULL},
	{NULL, NULL, NULL},
};

const Row *
pass_bwd_lookup(const char *name)
{
	return row_find(rows, name);
}
