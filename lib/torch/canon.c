/*
 * canon.c - the dispatcher of the torch canonicalization patterns and
 * helpers they share.  Patterns live in canon_*.c, one table per family.
 */
#include <stdlib.h>
#include <string.h>

#include "canon.h"
#include "pass.h"

static const CanonRule *const tables[] = {
	canon_scalar_rules, canon_list_rules, canon_tensor_rules,
};

int
torch_canon_pattern(Ctx *c, Op *op)
{
	const CanonRule *r;
	size_t i;

	if (strncmp(op->name, "torch.", 6))
		return 0;
	for (i = 0; i < sizeof tables / sizeof *tables; i++)
		for (r = tables[i]; r->op; r++)
			if (!strcmp(r->op, op->name))
				return r->fn(c, op);
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
	return op_is(u, "func.return") || (!strncmp(u->name, "torch.", 6)
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
