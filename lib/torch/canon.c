/*
 * canon.c - the dispatcher of the torch canonicalization patterns and
 * helpers they share.  Patterns live in canon_*.c, one table per family.
 */
#include <stdlib.h>
#include <string.h>

#include "canon.h"
#include "verify.h"
#include "pass.h"

static const CanonRule *const tables[] = {
	canon_scalar_rules, canon_list_rules, canon_tensor_rules, canon_create_rules,
	canon_gather_rules, canon_cast_rules, canon_misc_rules, canon_ctrl_rules,
	canon_nn_rules,
	canon_lit_rules, canon_fill_rules,
};

int
torch_canon_pattern(Ctx *c, Op *op)
{
	const CanonRule *r;
	size_t i;

	if (strncmp(op->name, "torch.", 6))
		return 0;
	/* an op may have rules in several families: the first that
	 * applies wins */
	for (i = 0; i < sizeof tables / sizeof *tables; i++)
		for (r = tables[i]; r->op; r++)
			if (!strcmp(r->op, op->name) && r->fn(c, op))
				return 1;
	return 0;
}

int
canon_const(Ctx *c, Op *op, Attr *a)
{
	Value *v;

	if (!a || op->nres != 1)
		return 0;
	if (!(v = materialize_constant(c, op, a, RES(op, 0)->type, op->loc)))
		return 0;
	op_replace(op, &v);
	return 1;
}

int
canon_int(Ctx *c, Op *op, int64_t v)
{
	return RES(op, 0)->type->kind == TY_TORCH_INT && canon_const(c, op, at_int(c, v, NULL));
}

int
canon_bool(Ctx *c, Op *op, int v)
{
	return RES(op, 0)->type->kind == TY_TORCH_BOOL && canon_const(c, op, at_bool(c, v));
}

int
canon_float(Ctx *c, Op *op, double v)
{
	return RES(op, 0)->type->kind == TY_TORCH_FLOAT
	    && canon_const(c, op, at_float(c, v, NULL));
}

int
canon_value(Op *op, Value *v)
{
	if (op->nres != 1 || !v || v == RES(op, 0) || v->type != RES(op, 0)->type)
		return 0;
	op_replace(op, &v);
	return 1;
}

/* A user that only reads the list: a torch op with value semantics that
 * writes no operand, or a return. */
static int
reads_only(Op *u)
{
	if (op_has(u, TR_MUTABLE) || op_has(u, TR_INPLACE))
		return 0;
	if (op_is(u, "func.return") || op_is(u, "torch.prim.ListUnpack"))
		return 1;
	return (!strncmp(u->name, "torch.", 6)
	    && (op_has(u, TR_PURE) || op_has(u, TR_VALUESEM)));
}

Op *
canon_list(Value *list)
{
	Use *u;

	if (!list->def || !op_is(list->def, "torch.prim.ListConstruct"))
		return NULL;
	for (u = list->uses; u; u = u->next)
		if (!reads_only(u->owner))
			return NULL;
	return list->def;
}

Value *
canon_op(Ctx *c, Op *before, const char *name, int n, Value *const *v, Type *t)
{
	Op *op = op_new(c, intern(c, name), n, v, 1, &t, 0, before->loc);

	op_insert_before(before, op);
	return RES(op, 0);
}

static Value *
make1(Ctx *c, Op *before, const char *name, Value *x, Type *t)
{
	return canon_op(c, before, name, 1, &x, t);
}

Value *
canon_adapt(Ctx *c, Op *before, Value *v, Type *want)
{
	if (v->type == want)
		return v;
	if (v->type->kind == want->kind && tt_is(want) && torch_shapes_compatible(v->type, want))
		return make1(c, before, "torch.tensor_static_info_cast", v, want);
	if ((want->kind == TY_TORCH_OPTIONAL && (want->elem == v->type
	    || v->type->kind == TY_TORCH_NONE)) || want->kind == TY_TORCH_ANY
	    || (want->kind == TY_TORCH_NUMBER && (v->type->kind == TY_TORCH_INT
	    || v->type->kind == TY_TORCH_FLOAT)))
		return make1(c, before, "torch.derefine", v, want);
	return NULL;
}

int
canon_replace(Ctx *c, Op *op, Value *const *vals)
{
	Value *v[op->nres + 1];
	int i, j;

	for (i = 0; i < op->nres; i++) {
		if ((v[i] = canon_adapt(c, op, vals[i], RES(op, i)->type)))
			continue;
		for (j = 0; j < i; j++)
			if (v[j] != vals[j])
				op_erase(v[j]->def);
		return 0;
	}
	op_replace(op, v);
	return 1;
}

Value *
canon_new_list(Ctx *c, Op *before, Type *t, int n, Value *const *elts)
{
	return canon_op(c, before, "torch.prim.ListConstruct", n, elts, t);
}
