/*
 * canon_ctrl.c - canonicalization of torch identity tests, comparisons of
 * a value with itself, membership in literal lists and dicts, and
 * prim.If with a known condition or the same result on both sides.
 */
#include <string.h>

#include "canon.h"

/* 1: v is None; 0: v cannot be None; -1: not known. */
static int
none_state(Value *v)
{
	while (v->def && op_is(v->def, "torch.derefine"))
		v = OPND(v->def, 0);
	switch (v->type->kind) {
	case TY_TORCH_NONE:
		return 1;
	case TY_TORCH_OPTIONAL:
	case TY_TORCH_ANY:
	case TY_TORCH_UNION:
	case TY_OPAQUE:
		return -1;
	default:
		return 0;
	}
}

/* x is y / x is not y, decided only when one side is None and the
 * other is None too or cannot be None. */
static int
is_isnot(Ctx *c, Op *op)
{
	int a = none_state(OPND(op, 0)), b = none_state(OPND(op, 1));
	int isnot = !strcmp(op->name, "torch.aten.__isnot__");

	if (a < 0 || b < 0 || (!a && !b))
		return 0;
	return canon_bool(c, op, (a == b) != isnot);
}

/* b == b, b != b on bools; x < x, x > x on floats (false even for NaN;
 * x <= x and x == x are not: NaN) */
static int
same_operand(Ctx *c, Op *op)
{
	int yes = !strcmp(op->name, "torch.aten.eq.bool");

	if (OPND(op, 0) != OPND(op, 1))
		return 0;
	if (!strcmp(op->name, "torch.aten.lt.float") || !strcmp(op->name, "torch.aten.gt.float"))
		return OPND(op, 0)->type->kind == TY_TORCH_FLOAT && canon_bool(c, op, 0);
	return OPND(op, 0)->type->kind == TY_TORCH_BOOL && canon_bool(c, op, yes);
}

/* size(x, d) == k or != k with a negative constant k: a size is never
 * negative. */
static int
size_vs_negative(Ctx *c, Op *op)
{
	int ne = !strcmp(op->name, "torch.aten.ne.int"), i;
	int64_t k;
	Value *s;

	for (i = 0; i < 2; i++) {
		s = OPND(op, 1 - i);
		if (tv_int(OPND(op, i), &k) && k < 0 && s->def
		    && op_is(s->def, "torch.aten.size.int"))
			return canon_bool(c, op, ne);
	}
	return 0;
}

/* s in [constant strs] with s constant too */
static int
contains_str_list(Ctx *c, Op *op)
{
	Op *l = canon_list(OPND(op, 0));
	const char *k, *e;
	int i, found = 0;

	if (!l || !tv_str(OPND(op, 1), &k))
		return 0;
	for (i = 0; i < l->nopnds; i++) {
		if (!tv_str(OPND(l, i), &e))
			return 0;
		found |= !strcmp(e, k);
	}
	return canon_bool(c, op, found);
}

/* Two literal int lists: of different lengths unequal; element by
 * element the same values equal. */
static int
eq_int_list(Ctx *c, Op *op)
{
	Op *a = canon_list(OPND(op, 0)), *b = canon_list(OPND(op, 1));
	int i;

	if (!a || !b)
		return 0;
	if (a->nopnds != b->nopnds)
		return canon_bool(c, op, 0);
	for (i = 0; i < a->nopnds; i++)
		if (OPND(a, i) != OPND(b, i))
			return 0;
	return canon_bool(c, op, 1);
}

/* The DictConstruct behind d when every user only reads it. */
static Op *
literal_dict(Value *d)
{
	Use *u;

	if (!d->def || !op_is(d->def, "torch.prim.DictConstruct"))
		return NULL;
	for (u = d->uses; u; u = u->next)
		if (op_has(u->owner, TR_MUTABLE) || op_has(u->owner, TR_INPLACE)
		    || !(op_is(u->owner, "torch.aten.__contains__.str")
		    || op_is(u->owner, "torch.aten.__getitem__.Dict_str")
		    || op_is(u->owner, "torch.aten.keys.str")
		    || op_is(u->owner, "torch.aten.len.Dict_str")))
			return NULL;
	return d->def;
}

/* k in {..., k: v, ...}: the keys are the first half of the operands. */
static int
contains_dict(Ctx *c, Op *op)
{
	Op *d = literal_dict(OPND(op, 0));
	int i;

	if (!d || d->nopnds % 2)
		return 0;
	for (i = 0; i < d->nopnds / 2; i++)
		if (OPND(d, i) == OPND(op, 1))
			return canon_bool(c, op, 1);
	return 0;
}

/* d[k] of a literal dict: the value of the last key equal to k, when
 * every key after it is provably different (both constant strings);
 * a later key that may equal k at run time, or none equal (KeyError),
 * leaves it. */
static int
getitem_dict(Ctx *c, Op *op)
{
	Op *d = literal_dict(OPND(op, 0));
	Value *k = OPND(op, 1);
	const char *ks, *e;
	int i, n, kc = tv_str(k, &ks);

	if (!d || d->nopnds % 2)
		return 0;
	n = d->nopnds / 2;
	for (i = n - 1; i >= 0; i--) {
		if (OPND(d, i) == k || (kc && tv_str(OPND(d, i), &e) && !strcmp(e, ks)))
			return canon_replace(c, op, &OPND(d, n + i));
		if (!kc || !tv_str(OPND(d, i), &e))
			return 0;
	}
	return 0;
}

/* Is o nested (at any depth) in anc? */
static int
nested_in(Op *o, Op *anc)
{
	while (o && o->parent) {
		o = block_parent_op(o->parent);
		if (o == anc)
			return 1;
	}
	return 0;
}

/* Is the block argument owner b inside anc (or anc's own)? */
static int
block_in(Block *b, Op *anc)
{
	Op *p = b ? block_parent_op(b) : NULL;

	return p && (p == anc || nested_in(p, anc));
}

/* prim.If with a constant condition: the live branch's ops move before
 * the If and its yielded values replace the If's results. */
static int
if_const(Ctx *c, Op *op)
{
	int cond;
	Block *b;
	Op *y, *o;

	(void)c;
	if (!tv_bool(OPND(op, 0), &cond) || op->nregs != 2)
		return 0;
	b = op->regs[cond ? 0 : 1].first;
	if (!b || b != op->regs[cond ? 0 : 1].last || b->nargs
	    || !(y = block_terminator(b)) || y->nopnds != op->nres)
		return 0;
	{
		Value *v[op->nres + 1];
		int i;

		for (i = 0; i < op->nres; i++)
			if ((v[i] = OPND(y, i))->type != RES(op, i)->type)
				return 0;
		while ((o = b->first) != y) {
			op_unlink(o);
			op_insert_before(op, o);
		}
		op_replace(op, v);
	}
	return 1;
}

/* Results that both branches yield as the same value from outside the
 * If are that value. */
static int
if_same(Ctx *c, Op *op)
{
	Op *y0, *y1;
	Value *v;
	int i, n = 0;

	(void)c;
	if (op->nregs != 2 || !op->regs[0].first || !op->regs[1].first
	    || !(y0 = block_terminator(op->regs[0].last))
	    || !(y1 = block_terminator(op->regs[1].last))
	    || y0->nopnds != op->nres || y1->nopnds != op->nres)
		return 0;
	for (i = 0; i < op->nres; i++) {
		v = OPND(y0, i);
		if (v != OPND(y1, i) || v->type != RES(op, i)->type || !RES(op, i)->uses)
			continue;
		/* defined outside the If: a block argument of another op's
		 * block or a result of an op not nested in op */
		if (v->def ? nested_in(v->def, op) : block_in(v->block, op))
			continue;
		value_replace_all_uses(RES(op, i), v);
		n++;
	}
	return n > 0;
}

/* Is everything nested in op free of effects (terminators aside)? */
static int
body_pure(Op *op)
{
	int i;
	Block *b;
	Op *o;

	for (i = 0; i < op->nregs; i++)
		for (b = op->regs[i].first; b; b = b->next)
			for (o = b->first; o; o = o->next) {
				if (op_has(o, TR_TERMINATOR))
					continue;
				if (op_has(o, TR_MUTABLE) || !(op_has(o, TR_PURE) || (o->nres == 1 && tv_const(RES(o, 0)))
				    || op_is(o, "torch.constant.none")) || (o->nregs && !body_pure(o)))
					return 0;
			}
	return 1;
}

/* A prim.If whose results are partly unused: a new If yielding only the
 * used ones; with none used and nothing with effects inside, gone. */
static int
if_prune(Ctx *c, Op *op)
{
	Op *y[2], *n;
	int i, k, used = 0, r;

	if (op->nregs != 2)
		return 0;
	for (i = 0; i < op->nres; i++)
		used += RES(op, i)->uses != NULL;
	if (used == op->nres)
		return 0;
	if (!used && body_pure(op)) {
		op_erase(op);
		return 1;
	}
	for (r = 0; r < 2; r++)
		if (!op->regs[r].first || op->regs[r].first != op->regs[r].last
		    || !(y[r] = block_terminator(op->regs[r].first)) || y[r]->nopnds != op->nres)
			return 0;
	{
		Type *t[used + 1];
		Value *keep[2][used + 1], *nv[op->nres + 1];
		Block *b;

		for (i = k = 0; i < op->nres; i++)
			if (RES(op, i)->uses) {
				t[k] = RES(op, i)->type;
				keep[0][k] = OPND(y[0], i);
				keep[1][k++] = OPND(y[1], i);
			}
		n = op_new(c, op->name, 1, &OPND(op, 0), used, t, 2, op->loc);
		op_insert_before(op, n);
		for (r = 0; r < 2; r++) {
			op_set_operands(c, y[r], used, keep[r]);
			b = op->regs[r].first;
			block_unlink(b);
			region_append(&n->regs[r], b);
		}
		for (i = k = 0; i < op->nres; i++)
			nv[i] = RES(op, i)->uses ? RES(n, k++) : NULL;
		for (i = 0; i < op->nres; i++)
			if (nv[i])
				value_replace_all_uses(RES(op, i), nv[i]);
		op_erase(op);
	}
	return 1;
}

/* unchecked_cast(derefine(x)) to x's own type is x */
static int
unchecked_derefine(Ctx *c, Op *op)
{
	Value *x = OPND(op, 0);

	(void)c;
	if (!x->def || !op_is(x->def, "torch.derefine"))
		return 0;
	return canon_value(op, OPND(x->def, 0));
}

/* prims.view_of a value tensor is the tensor itself */
static int
view_of(Ctx *c, Op *op)
{
	(void)c;
	return OPND(op, 0)->type->kind == TY_TORCH_VTENSOR && canon_value(op, OPND(op, 0));
}

/*
 * _assert_tensor_metadata(a, size, stride, dtype, device, layout) whose
 * size and dtype, where given, are a's static ones holds: erased.  Strides,
 * device and layout are not checked (a value tensor has none; eager would
 * raise, we go on with the same numbers).  One that is sure to fail (a
 * constant size of another rank or with another static extent, a known
 * dtype code other than a's) is an error, and canonicalize fails (eager
 * raises there); one that may fail stays, and the backend contract names it.
 */
static int
assert_metadata(Ctx *c, Op *op)
{
	const Type *t = OPND(op, 0)->type;
	Value *size = OPND(op, 1), *dtype = op->nopnds > 3 ? OPND(op, 3) : NULL;
	int64_t v;
	Op *l;
	int i, sure = 1, bad = 0;

	(void)c;
	if (!tt_is(t))
		return 0;
	if (!tv_none(size)) {
		if (!(l = canon_list(size)) || !t->ranked)
			sure = 0;
		else if (l->nopnds != t->rank)
			bad = 1;
		else
			for (i = 0; i < l->nopnds; i++) {
				if (!tv_int(OPND(l, i), &v) || t->dims[i] < 0)
					sure = 0;
				else if (t->dims[i] != v)
					bad = 1;
			}
		if (bad) {
			op_error(op, "'%s' op Failed to canonicalize the _assert_tensor_metadata "
			    "op since the sizes do not match", op->name);
			return 0;
		}
	}
	if (dtype && !tv_none(dtype)) {
		if (!t->elem || !tv_int(dtype, &v) || dt_code(t->elem) < 0)
			sure = 0;
		else if (dt_code(t->elem) != v) {
			/* codes are one per dtype: another one fails in eager */
			op_error(op, "'%s' op Failed to canonicalize the _assert_tensor_metadata "
			    "op since the dtype does not match", op->name);
			return 0;
		}
	}
	if (!sure)
		return 0;
	op_erase(op);
	return 1;
}

const CanonRule canon_ctrl_rules[] = {
	{"torch.aten._assert_tensor_metadata", assert_metadata},
	{"torch.aten.__is__", is_isnot},
	{"torch.aten.__isnot__", is_isnot},
	{"torch.aten.eq.bool", same_operand},
	{"torch.aten.ne.bool", same_operand},
	{"torch.aten.lt.float", same_operand},
	{"torch.aten.gt.float", same_operand},
	{"torch.aten.eq.int", size_vs_negative},
	{"torch.aten.ne.int", size_vs_negative},
	{"torch.aten.__contains__.str_list", contains_str_list},
	{"torch.aten.eq.int_list", eq_int_list},
	{"torch.aten.__contains__.str", contains_dict},
	{"torch.aten.__getitem__.Dict_str", getitem_dict},
	{"torch.prim.If", if_const},
	{"torch.prim.If", if_same},
	{"torch.prim.If", if_prune},
	{"torch.prim.unchecked_cast", unchecked_derefine},
	{"torch.prims.view_of", view_of},
	{NULL, NULL},
};
