/*
 * canon_create.c - constant tensors made or reshaped from constants:
 * dtype conversions of literals;
 * views and reshapes of literals (the row-major data is unchanged), and
 * broadcasts of splats.  A value that the result dtype cannot hold
 * exactly, or whose conversion PyTorch leaves undefined (a float out of
 * an int dtype's range, NaN to an int), is not folded.
 *
 * ones, zeros and full are not made literals here (torch-mlir does): the
 * decompositions emit them on purpose and the backends fill them best.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "canon.h"

/* The static vtensor result of op with a known dtype, or NULL. */
static Type *
static_result(Op *op)
{
	Type *t = RES(op, 0)->type;

	if (t->kind != TY_TORCH_VTENSOR || !ty_static(t) || !tt_dtype(t)
	    || ty_numel(t) > (1 << 16))
		return NULL;
	return t;
}

/* v converted from its dtype to d as PyTorch's casts do, when defined
 * and done in one rounding. */
static int
convert(Ctx *c, Num v, const Type *from, const Type *d, Num *out)
{
	double f = ct_f(v);

	*out = v;
	if (d->kind == TY_INT && d->width == 1) {
		*out = (Num){0, v.isf ? f != 0 : v.i != 0, 0};
		return 1;
	}
	if (ty_isfloat(d)) {
		out->isf = 1;
		/* c10's Half and BFloat16 convert from a double or an int
		 * through float: round twice as it does */
		if ((from->kind == TY_F64 || !v.isf) && d->kind != TY_F32 && d->kind != TY_F64)
			f = fp_round(f, ty_float(c, TY_F32));
		out->f = fp_round(f, d);
		return v.isf || (v.i <= (1LL << 53) && v.i >= -(1LL << 53));
	}
	if (!v.isf) {
		out->i = ct_wrap(d, v.i);
		return 1;
	}
	f = trunc(f);
	if (!(f >= -0x1p63 && f < 0x1p63) || !ct_fits(d, (int64_t)f))
		return 0;
	*out = (Num){0, (int64_t)f, 0};
	return 1;
}

/* Replaces op by a literal of type t holding v[0..n) converted from
 * dtype from (exact: only when each value is held as it is); frees v. */
static int
converted(Ctx *c, Op *op, Type *t, Num *v, int64_t n, const Type *from, int exact)
{
	Type *d = tt_dtype(t);
	size_t esz = elem_size(d);
	uint8_t *buf = xmalloc(mulsz(n ? n : 1, esz));
	int64_t k;
	Num r;

	for (k = 0; k < n; k++) {
		if (!convert(c, v[k], from, d, &r) || (exact && (ty_isfloat(d)
		    ? r.f != ct_f(v[k]) : r.i != v[k].i || v[k].isf))) {
			free(buf);
			free(v);
			return 0;
		}
		ct_put(buf + k * esz, d, r);
	}
	free(v);
	return canon_value(op, ct_literal(c, op, t, buf, n * esz));
}

/* to.dtype and friends of a literal (the result type says the dtype) */
static int
to_dtype(Ctx *c, Op *op)
{
	Type *t = static_result(op);
	Src s;
	int64_t n, k;
	Num *v;

	if (OPND(op, 0)->type == RES(op, 0)->type && tt_dtype(RES(op, 0)->type))
		return canon_value(op, OPND(op, 0));   /* to its own dtype */
	if (!t || !ct_src(OPND(op, 0), &s) || !s.a || s.t->rank != t->rank
	    || ty_numel(s.t) != ty_numel(t) || ct_quantized(&s, tt_dtype(t)))
		return 0;
	n = s.a->splat ? 1 : ty_numel(t);
	v = xmalloc(mulsz(n ? n : 1, sizeof *v));
	for (k = 0; k < n; k++)
		v[k] = ct_at(&s, k);
	return converted(c, op, t, v, n, tt_dtype(s.t), 0);
}

/* A view or reshape of a literal: the same elements in the same order;
 * a broadcast of a splat: the splat. */
static int
reshape(Ctx *c, Op *op)
{
	Type *t = static_result(op);
	Src s;
	size_t nb, esz;
	const uint8_t *p;
	uint8_t *buf;
	int bcast = strstr(op->name, "expand") || strstr(op->name, "broadcast_to");

	/* a view of rank 0 or 1 to its own type keeps every element where
	 * it was, static or not */
	if (!bcast && OPND(op, 0)->type == RES(op, 0)->type && tt_rank(RES(op, 0)->type) >= 0
	    && tt_rank(RES(op, 0)->type) <= 1)
		return canon_value(op, OPND(op, 0));
	if (!t || !ct_src(OPND(op, 0), &s) || !s.a || tt_dtype(s.t) != tt_dtype(t)
	    || (!s.a->splat && (bcast || ty_numel(s.t) != ty_numel(t))))
		return 0;
	esz = elem_size(tt_dtype(t));
	p = dense_bytes(s.a, &nb);
	nb = s.a->splat ? esz : (size_t)ty_numel(t) * esz;
	buf = xmalloc(nb ? nb : 1);
	memcpy(buf, p, nb);
	return canon_value(op, ct_literal(c, op, t, buf, nb));
}

const CanonRule canon_create_rules[] = {
	{"torch.aten.to.dtype", to_dtype},
	{"torch.aten.to.dtype_layout", to_dtype},
	{"torch.aten._to_copy", to_dtype},
	{"torch.prims.convert_element_type", to_dtype},
	{"torch.aten.view", reshape},
	{"torch.aten.reshape", reshape},
	{"torch.aten._unsafe_view", reshape},
	{"torch.aten.squeeze", reshape},
	{"torch.aten.squeeze.dim", reshape},
	{"torch.aten.unsqueeze", reshape},
	{"torch.aten.flatten.using_ints", reshape},
	{"torch.aten.expand", reshape},
	{"torch.aten.broadcast_to", reshape},
	{NULL, NULL},
};

/* Copies the elements of s (static shape sd) whose index along dim is
 * idx[0..n), in row-major order, into buf (esz bytes each). */
static void
gather(const Src *s, int dim, const int64_t *idx, int64_t n, uint8_t *buf, size_t esz)
{
	const Type *t = s->t;
	int64_t outer = 1, inner = 1, o, j, i, k = 0;
	size_t nb;
	const uint8_t *p = dense_bytes(s->a, &nb);

	for (i = 0; i < dim; i++)
		outer *= t->dims[i];
	for (i = dim + 1; i < t->rank; i++)
		inner *= t->dims[i];
	for (o = 0; o < outer; o++)
		for (j = 0; j < n; j++)
			for (i = 0; i < inner; i++, k++) {
				int64_t from = s->a->splat ? 0 : (o * t->dims[dim] + idx[j]) * inner + i;
				memcpy(buf + k * esz, p + from * esz, esz);
			}
}

/* lit (a new literal) with the element type of src's data where that is
 * the same integers, signless where the dtype is signed (torch-mlir keeps
 * the selected literal's attribute type). */
static Value *
src_elem(Ctx *c, Value *lit, const Attr *src)
{
	Type *se = src->type ? src->type->elem : NULL, *le;
	Attr *a;
	size_t nb;

	if (!lit || !lit->def || !(a = op_attr(lit->def, "value")) || a->kind != AT_DENSE
	    || !a->type || !se || (le = a->type->elem) == se || se->kind != TY_INT
	    || le->kind != TY_INT || se->width != le->width)
		return lit;
	const uint8_t *p = dense_bytes(a, &nb);
	op_set_attr(c, lit->def, "value",
	    at_dense(c, ty_tensor(c, a->type->rank, a->type->dims, se), p, nb, a->splat));
	return lit;
}

/* select.int(x, dim, i) and index_select(x, dim, index) of a literal x
 * with constant indices in range (negative ones only for select, as in
 * PyTorch, whose index_select refuses them). */
static int
select_fold(Ctx *c, Op *op)
{
	Type *t = static_result(op);
	int sel = !strcmp(op->name, "torch.aten.select.int");
	int64_t dim, idx[64], n = 1, j;
	Src s, is;
	size_t esz;
	uint8_t *buf;

	/* one index and the input's own type: the dim has size 1 and the
	 * index can only be 0 */
	if (!sel && OPND(op, 0)->type == RES(op, 0)->type && tt_is(OPND(op, 2)->type)
	    && ty_numel(OPND(op, 2)->type) == 1)
		return canon_value(op, OPND(op, 0));
	if (!t || !ct_src(OPND(op, 0), &s) || !s.a || tt_dtype(s.t) != tt_dtype(t))
		return 0;
	esz = elem_size(tt_dtype(t));
	if (s.a->splat) {
		/* whatever it selects (when it runs at all) is the splat */
		size_t nb;
		buf = xmalloc(esz);
		memcpy(buf, dense_bytes(s.a, &nb), esz);
		return canon_value(op, src_elem(c, ct_literal(c, op, t, buf, esz), s.a));
	}
	if (!tv_int(OPND(op, 1), &dim) || dim < -s.t->rank || dim >= s.t->rank)
		return 0;
	dim = tt_dim(dim, s.t->rank);
	if (sel) {
		if (!tv_int(OPND(op, 2), &idx[0]))
			return 0;
		if (idx[0] < 0)
			idx[0] += s.t->dims[dim];
	} else {
		Type *id;
		if (!ct_src(OPND(op, 2), &is) || !is.a || is.t->rank > 1
		    || (n = ty_numel(is.t)) > 64 || !(id = tt_dtype(is.t)) || id->kind != TY_INT
		    || (id->width != 32 && id->width != 64) || id->sign == UNSIGNED)
			return 0;
		for (j = 0; j < n; j++)
			idx[j] = ct_at(&is, j).i;
	}
	for (j = 0; j < n; j++)
		if (idx[j] < 0 || idx[j] >= s.t->dims[dim])
			return 0;
	if (ty_numel(t) != ty_numel(s.t) / s.t->dims[dim] * n)
		return 0;
	buf = xmalloc(mulsz(ty_numel(t) ? ty_numel(t) : 1, esz));
	gather(&s, (int)dim, idx, n, buf, esz);
	return canon_value(op, src_elem(c, ct_literal(c, op, t, buf, ty_numel(t) * esz), s.a));
}

/* cat(xs) where all but one x is empty along the dim (size 0 there: it
 * adds nothing, and PyTorch skips 1-d empty ones whatever the dim): that
 * one, when it has the result's type (so no dtype was promoted).  An x
 * of no element but of size k > 0 along the dim adds k: [0, n] and
 * [0, 2] make [0, n + 2], a type like [0, n]'s when n is dynamic. */
static int
cat_of_empties(Op *op, Op *l)
{
	Value *keep = NULL;
	int64_t dim;
	int i, known = tv_int(OPND(op, 1), &dim);

	for (i = 0; i < l->nopnds; i++) {
		Type *t = OPND(l, i)->type;
		if (tt_is(t) && ty_static(t) && ty_numel(t) == 0
		    && ((t->rank == 1 && !t->dims[0])
		    || (known && tt_dim(dim, t->rank) >= 0 && !t->dims[tt_dim(dim, t->rank)])))
			continue;
		if (keep)
			return 0;
		keep = OPND(l, i);
	}
	return keep && canon_value(op, keep);
}

/* cat of one tensor of the result's type; of literals along dim 0
 * (the other dims then match the result's, by the type). */
static int
cat_fold(Ctx *c, Op *op)
{
	Op *l = canon_list(OPND(op, 0));
	Type *t = static_result(op);
	int64_t dim, off = 0, m;
	size_t esz;
	uint8_t *buf;
	Src s;
	int i;

	if (!l || !l->nopnds)
		return 0;
	if (l->nopnds == 1 && canon_value(op, OPND(l, 0)))
		return 1;
	if (cat_of_empties(op, l))
		return 1;
	if (!t || !tv_int(OPND(op, 1), &dim) || tt_dim(dim, t->rank) != 0)
		return 0;
	esz = elem_size(tt_dtype(t));
	buf = xmalloc(mulsz(ty_numel(t) ? ty_numel(t) : 1, esz));
	for (i = 0; i < l->nopnds; i++) {
		if (!ct_src(OPND(l, i), &s) || !s.a || tt_dtype(s.t) != tt_dtype(t)
		    || s.t->rank != t->rank || off + (m = ty_numel(s.t)) > ty_numel(t)) {
			free(buf);
			return 0;
		}
		/* along dim 0 each input's row-major data is one run */
		for (int64_t j = 0; j < m; j++)
			ct_put(buf + (off + j) * esz, tt_dtype(t), ct_at(&s, j));
		off += m;
	}
	if (off != ty_numel(t)) {
		free(buf);
		return 0;
	}
	return canon_value(op, ct_literal(c, op, t, buf, off * esz));
}

int
canon_slice_bound(Value *v, int64_t n, int64_t dflt, int64_t *out)
{
	int64_t x;

	if (tv_none(v)) {
		*out = dflt;
		return 1;
	}
	if (!tv_int(v, &x))
		return 0;
	if (x < 0)
		x = x < -n ? 0 : x + n;
	*out = x > n ? n : x;
	return 1;
}

/* slice.Tensor(x, dim, start, end, step): the whole of x (any dim) when
 * it takes everything; of a literal, its elements.  A step below 1
 * raises in PyTorch and stays. */
static int
slice_fold(Ctx *c, Op *op)
{
	Type *t = static_result(op);
	int64_t dim, lo, hi, step, n, j, *idx;
	Src s;
	size_t esz;
	uint8_t *buf;
	int64_t x;

	if (!tv_int(OPND(op, 4), &step) || step < 1)
		return 0;
	if (step == 1 && OPND(op, 0)->type == RES(op, 0)->type
	    && (tv_none(OPND(op, 2)) || (tv_int(OPND(op, 2), &x) && x == 0))
	    && (tv_none(OPND(op, 3)) || (tv_int(OPND(op, 3), &x) && x == INT64_MAX)))
		return canon_value(op, OPND(op, 0));
	if (!t || !ct_src(OPND(op, 0), &s) || !s.a || tt_dtype(s.t) != tt_dtype(t)
	    || !tv_int(OPND(op, 1), &dim) || dim < -s.t->rank || dim >= s.t->rank)
		return 0;
	dim = tt_dim(dim, s.t->rank);
	n = s.t->dims[dim];
	if (!canon_slice_bound(OPND(op, 2), n, 0, &lo) || !canon_slice_bound(OPND(op, 3), n, n, &hi))
		return 0;
	n = hi > lo ? (hi - lo + step - 1) / step : 0;
	if (ty_numel(t) != (s.t->dims[dim] ? ty_numel(s.t) / s.t->dims[dim] * n : 0))
		return 0;
	idx = xmalloc(mulsz(n ? n : 1, sizeof *idx));
	for (j = 0; j < n; j++)
		idx[j] = lo + j * step;
	esz = elem_size(tt_dtype(t));
	buf = xmalloc(mulsz(ty_numel(t) ? ty_numel(t) : 1, esz));
	gather(&s, (int)dim, idx, n, buf, esz);
	free(idx);
	return canon_value(op, ct_literal(c, op, t, buf, ty_numel(t) * esz));
}

/* _shape_as_tensor of a static tensor: its dims. */
static int
shape_as_tensor(Ctx *c, Op *op)
{
	Type *t = static_result(op), *x = OPND(op, 0)->type, *d;
	size_t esz;
	uint8_t *buf;
	int i;

	if (!t || !tt_is(x) || !ty_static(x) || t->rank != 1 || t->dims[0] != x->rank)
		return 0;
	d = tt_dtype(t);
	esz = elem_size(d);
	for (i = 0; i < x->rank; i++)
		if (ty_isfloat(d) || d->width == 1 || !ct_fits(d, x->dims[i]))
			return 0;
	buf = xmalloc(mulsz(x->rank ? x->rank : 1, esz));
	for (i = 0; i < x->rank; i++)
		ct_put(buf + i * esz, d, (Num){0, x->dims[i], 0});
	return canon_value(op, ct_literal(c, op, t, buf, x->rank * esz));
}

const CanonRule canon_gather_rules[] = {
	{"torch.aten.slice.Tensor", slice_fold},
	{"torch.aten._shape_as_tensor", shape_as_tensor},
	{"torch.aten.select.int", select_fold},
	{"torch.aten.index_select", select_fold},
	{"torch.aten.cat", cat_fold},
	{NULL, NULL},
};

/* floor, ceil, round, trunc of an integer tensor: itself. */
static int
int_rounding(Ctx *c, Op *op)
{
	Type *d = tt_dtype(OPND(op, 0)->type);

	(void)c;
	return d && !ty_isfloat(d) && canon_value(op, OPND(op, 0));
}

/* torch.tensor(x) of constants: a literal when the dtype holds each
 * value exactly. */
static int
tensor_of(Ctx *c, Op *op)
{
	Type *t = static_result(op);
	int64_t n = 1, k;
	Op *l = NULL;
	Src s;
	Num *v;

	if (!t)
		return 0;
	if (!strcmp(op->name, "torch.aten.tensor")) {
		if (!(l = canon_list(OPND(op, 0))) || t->rank != 1)
			return 0;
		n = l->nopnds;
	}
	if (ty_numel(t) != n)
		return 0;
	v = xmalloc(mulsz(n ? n : 1, sizeof *v));
	for (k = 0; k < n; k++) {
		if (!ct_src(l ? OPND(l, k) : OPND(op, 0), &s) || s.a) {
			free(v);
			return 0;
		}
		v[k] = (Num){s.isf, s.i, s.isf ? s.f : (double)s.i};
	}
	return converted(c, op, t, v, n, tt_dtype(t), 1);
}

/* Python's a + b of two scalar constants (aten.add of Scalars) */
static int
scalar_add(Ctx *c, Op *op)
{
	Src a, b;
	Value *k;
	B bb = b_at(c, op);

	if (!ct_src(OPND(op, 0), &a) || a.a || !ct_src(OPND(op, 1), &b) || b.a)
		return 0;
	if (a.isf || b.isf)
		k = b_float(&bb, (a.isf ? a.f : (double)a.i) + (b.isf ? b.f : (double)b.i));
	else
		k = b_int(&bb, (int64_t)((uint64_t)a.i + (uint64_t)b.i));
	if (canon_replace(c, op, &k))
		return 1;
	op_erase(k->def);
	return 0;
}

/* transpose.int / permute of a literal: element by element. */
static int
permute_fold(Ctx *c, Op *op)
{
	Type *t = static_result(op);
	int64_t perm[TORCH_MAXRANK], a, b, k, j, rem, from, stride[TORCH_MAXRANK];
	Src s;
	size_t esz, nb;
	const uint8_t *p;
	uint8_t *buf;
	int i, r;

	if (!t || !ct_src(OPND(op, 0), &s) || !s.a || tt_dtype(s.t) != tt_dtype(t)
	    || (r = s.t->rank) != t->rank)
		return 0;
	for (i = 0; i < r; i++)
		perm[i] = i;
	if (!strcmp(op->name, "torch.aten.transpose.int")) {
		if (!tv_int(OPND(op, 1), &a) || !tv_int(OPND(op, 2), &b) || a < -r || a >= r
		    || b < -r || b >= r)
			return 0;
		a = tt_dim(a, r), b = tt_dim(b, r);
		perm[a] = b, perm[b] = a;
	} else if (tv_ints(OPND(op, 1), perm, TORCH_MAXRANK) != r)
		return 0;
	for (i = r - 1, k = 1; i >= 0; k *= s.t->dims[i--]) {
		if (perm[i] < -r || perm[i] >= r)
			return 0;
		perm[i] = tt_dim(perm[i], r);
		stride[i] = k;
	}
	for (i = 0; i < r; i++)
		if (t->dims[i] != s.t->dims[perm[i]])
			return 0;
	esz = elem_size(tt_dtype(t));
	p = dense_bytes(s.a, &nb);
	buf = xmalloc(mulsz(ty_numel(t) ? ty_numel(t) : 1, esz));
	for (j = 0; j < ty_numel(t); j++) {
		for (i = r - 1, rem = j, from = 0; i >= 0; i--) {
			from += rem % t->dims[i] * stride[perm[i]];
			rem /= t->dims[i];
		}
		memcpy(buf + j * esz, p + (s.a->splat ? 0 : from) * esz, esz);
	}
	return canon_value(op, ct_literal(c, op, t, buf, ty_numel(t) * esz));
}

/* masked_fill.Tensor with a 0-d constant value: masked_fill.Scalar of
 * that value (both cast it to self's dtype alike). */
static int
masked_fill_scalar(Ctx *c, Op *op)
{
	Src s;
	Num v;
	Value *x, *ops[3];
	B b = b_at(c, op);

	if (!ct_src(OPND(op, 2), &s) || !tt_is(OPND(op, 2)->type) || ty_numel(OPND(op, 2)->type) != 1)
		return 0;
	v = s.a ? ct_at(&s, 0) : (Num){s.isf, s.i, s.f};
	if (s.a && tt_dtype(s.t)->kind == TY_INT && tt_dtype(s.t)->width == 1)
		x = b_bool(&b, v.i != 0);
	else
		x = v.isf ? b_float(&b, v.f) : b_int(&b, v.i);
	ops[0] = OPND(op, 0), ops[1] = OPND(op, 1), ops[2] = x;
	return canon_value(op, canon_op(c, op, "torch.aten.masked_fill.Scalar", 3, ops,
	    RES(op, 0)->type));
}

/* to.dtype_layout on no layout, device or pinning: to.dtype. */
static int
dtype_layout(Ctx *c, Op *op)
{
	int64_t d;
	Value *ops[5];

	if (op->nopnds != 8 || !tv_int(OPND(op, 1), &d) || !tv_none(OPND(op, 2))
	    || !tv_none(OPND(op, 3)) || !tv_none(OPND(op, 4)))
		return 0;
	ops[0] = OPND(op, 0), ops[1] = OPND(op, 1), ops[2] = OPND(op, 5);
	ops[3] = OPND(op, 6), ops[4] = OPND(op, 7);
	return canon_value(op, canon_op(c, op, "torch.aten.to.dtype", 5, ops, RES(op, 0)->type));
}

/* x.cuda(): the same values (fxpipe places tensors itself) */
static int
same_values(Ctx *c, Op *op)
{
	(void)c;
	return canon_value(op, OPND(op, 0));
}

const CanonRule canon_misc_rules[] = {
	{"torch.aten.cuda", same_values},
	{"torch.aten.transpose.int", permute_fold},
	{"torch.aten.permute", permute_fold},
	{"torch.aten.masked_fill.Tensor", masked_fill_scalar},
	{"torch.aten.to.dtype_layout", dtype_layout},
	{"torch.aten.floor", int_rounding},
	{"torch.aten.ceil", int_rounding},
	{"torch.aten.round", int_rounding},
	{"torch.aten.trunc", int_rounding},
	{"torch.aten.tensor", tensor_of},
	{"torch.aten.tensor.int", tensor_of},
	{"torch.aten.tensor.float", tensor_of},
	{"torch.aten.tensor.bool", tensor_of},
	{"torch.aten.add", scalar_add},
	{NULL, NULL},
};
