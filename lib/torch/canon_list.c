/*
 * canon_list.c - canonicalization of list and tuple ops: sizes as lists,
 * list arithmetic on lists that nothing mutates (canon_list), unpacking
 * of what was just packed.
 */
#include <string.h>

#include "canon.h"

enum { MAXLIST = 1024 };   /* longest list a fold builds */

/* Looks through copies of x that nothing else touches, for the most
 * refined type of the same tensor. */
static Type *
tensor_type(Value *x)
{
	Type *t = x->type;
	Op *d;

	while ((d = x->def) && d->nopnds == 1) {
		if (op_is(d, "torch.copy.to_tensor") && !value_has_one_use(x))
			break;
		if (!op_is(d, "torch.copy.to_vtensor") && !op_is(d, "torch.copy.to_tensor")
		    && !op_is(d, "torch.tensor_static_info_cast"))
			break;
		x = OPND(d, 0);
		if (tt_is(x->type) && x->type->ranked && !t->ranked)
			t = x->type;
		else if (tt_is(x->type) && ty_static(x->type))
			t = x->type;
	}
	return t;
}

static Value *
size_of(Ctx *c, Op *before, Value *x, Value *dim)
{
	Value *v[2] = {x, dim};

	return canon_op(c, before, "torch.aten.size.int", 2, v, ty_torch(c, TY_TORCH_INT));
}

/* size(x) of a static x: its dims as a list of constants.  (With a
 * dynamic dim the size stays: one op is better than a list of size.int.) */
static int
size_to_list(Ctx *c, Op *op)
{
	Type *t = tensor_type(OPND(op, 0));
	Value *e[TORCH_MAXRANK + 1];
	B b = b_at(c, op);
	int i;

	if (!tt_is(t) || !ty_static(t))
		return 0;
	for (i = 0; i < t->rank; i++)
		e[i] = b_int(&b, t->dims[i]);
	return canon_value(op, canon_new_list(c, op, RES(op, 0)->type, t->rank, e));
}

/* size.int(x, d) of a static dim behind copies */
static int
size_int(Ctx *c, Op *op)
{
	Type *t = tensor_type(OPND(op, 0));
	int64_t d;

	if (!tt_is(t) || !t->ranked || !tv_int(OPND(op, 1), &d) || d < -t->rank
	    || d >= t->rank || t->dims[tt_dim(d, t->rank)] == DYN)
		return 0;
	return canon_int(c, op, t->dims[tt_dim(d, t->rank)]);
}

/* len(size(x)) is dim(x). */
static int
len_t(Ctx *c, Op *op)
{
	Op *d = OPND(op, 0)->def;

	if (!d || !op_is(d, "torch.aten.size"))
		return 0;
	return canon_value(op, canon_op(c, op, "torch.aten.dim", 1, &OPND(d, 0),
	    RES(op, 0)->type));
}

/* size(x)[i] is size.int(x, i). */
static int
getitem_t(Ctx *c, Op *op)
{
	Op *d = OPND(op, 0)->def;

	if (!d || !op_is(d, "torch.aten.size") || RES(op, 0)->type->kind != TY_TORCH_INT)
		return 0;
	return canon_value(op, size_of(c, op, OPND(d, 0), OPND(op, 1)));
}

/* list * n: the elements n times (none for n <= 0). */
static int
mul_left_t(Ctx *c, Op *op)
{
	Op *l = canon_list(OPND(op, 0));
	int64_t n, i, k = 0;
	Value *e[MAXLIST];

	if (!l || !tv_int(OPND(op, 1), &n))
		return 0;
	if (n < 0)
		n = 0;
	if (l->nopnds && n > MAXLIST / l->nopnds)
		return 0;
	for (i = 0; i < n; i++)
		for (int j = 0; j < l->nopnds; j++)
			e[k++] = OPND(l, j);
	return canon_value(op, canon_new_list(c, op, RES(op, 0)->type, (int)k, e));
}

/* a + b of two lists */
static int
add_t(Ctx *c, Op *op)
{
	Op *a = canon_list(OPND(op, 0)), *b = canon_list(OPND(op, 1));
	Value *e[MAXLIST];
	int i, k = 0;

	if (!a || !b || a->nopnds + b->nopnds > MAXLIST)
		return 0;
	for (i = 0; i < a->nopnds; i++)
		e[k++] = OPND(a, i);
	for (i = 0; i < b->nopnds; i++)
		e[k++] = OPND(b, i);
	return canon_value(op, canon_new_list(c, op, RES(op, 0)->type, k, e));
}

/* One bound of a Python slice (slice.indices): None is the default,
 * negatives count from the end, the result is clamped. */
static int
slice_bound(Value *v, int64_t n, int64_t step, int start, int64_t *out)
{
	int64_t x;

	if (tv_none(v)) {
		*out = start ? (step > 0 ? 0 : n - 1) : (step > 0 ? n : -1);
		return 1;
	}
	if (!tv_int(v, &x))
		return 0;
	if (x < 0) {
		x += n;
		if (x < 0)
			x = step < 0 ? -1 : 0;
	} else if (x >= n)
		x = step < 0 ? n - 1 : n;
	*out = x;
	return 1;
}

/* list[start:end:step]; a step of 0 raises and stays. */
static int
slice_t(Ctx *c, Op *op)
{
	Op *l = canon_list(OPND(op, 0));
	int64_t n, step, lo, hi, i;
	Value *e[MAXLIST];
	int k = 0;

	if (!l || !tv_int(OPND(op, 3), &step) || step == 0 || l->nopnds > MAXLIST)
		return 0;
	n = l->nopnds;
	if (!slice_bound(OPND(op, 1), n, step, 1, &lo) || !slice_bound(OPND(op, 2), n, step, 0, &hi))
		return 0;
	for (i = lo; step > 0 ? i < hi : i > hi; i += step)
		e[k++] = OPND(l, i);
	return canon_value(op, canon_new_list(c, op, RES(op, 0)->type, k, e));
}

/* ListUnpack of a list of as many elements, TupleUnpack of a tuple. */
static int
unpack(Ctx *c, Op *op)
{
	Op *l = OPND(op, 0)->def;

	if (op_is(op, "torch.prim.ListUnpack"))
		l = canon_list(OPND(op, 0));
	else if (!l || !op_is(l, "torch.prim.TupleConstruct"))
		return 0;
	if (!l || l->nopnds != op->nres)
		return 0;
	Value *e[l->nopnds + 1];
	for (int i = 0; i < l->nopnds; i++)
		e[i] = OPND(l, i);
	return canon_replace(c, op, e);
}

/* TupleIndex(tuple, i) of a constant i */
static int
tuple_index(Ctx *c, Op *op)
{
	Op *t = OPND(op, 0)->def;
	int64_t i;

	if (!t || !op_is(t, "torch.prim.TupleConstruct") || !tv_int(OPND(op, 1), &i))
		return 0;
	if (i < 0)
		i += t->nopnds;
	if (i < 0 || i >= t->nopnds)
		return 0;
	return canon_replace(c, op, &OPND(t, i));
}

const CanonRule canon_list_rules[] = {
	{"torch.aten.size", size_to_list},
	{"torch.aten.size.int", size_int},
	{"torch.aten.len.t", len_t},
	{"torch.aten.__getitem__.t", getitem_t},
	{"torch.aten.mul.left_t", mul_left_t},
	{"torch.aten.add.t", add_t},
	{"torch.aten.slice.t", slice_t},
	{"torch.prim.ListUnpack", unpack},
	{"torch.prim.TupleUnpack", unpack},
	{"torch.prim.TupleIndex", tuple_index},
	{NULL, NULL},
};
