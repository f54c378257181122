/*
 * canon_cast.c - static info casts and derefines: a cast back to where
 * it came from is its source, and torch ops with value semantics (which
 * accept any refinement of their operand types) read the more refined
 * source directly, so the cast dies when nothing else needs it.
 */
#include "canon.h"
#include "verify.h"

/* May u's owner read a more refined type in place of the cast's? */
static int
allows_refinement(Op *u)
{
	return !strncmp(u->name, "torch.aten.", 11) && op_has(u, TR_VALUESEM)
	    && !op_has(u, TR_MUTABLE) && !op_has(u, TR_INPLACE);
}

/* Rewires the uses of op's result that allow refinement to src. */
static int
refine_uses(Op *op, Value *src)
{
	Use *u, *next;
	int changed = 0;

	for (u = RES(op, 0)->uses; u; u = next) {
		next = u->next;
		if (!allows_refinement(u->owner))
			continue;
		op_set_operand(u->owner, (int)(u - u->owner->opnds), src);
		changed = 1;
	}
	return changed;
}

/* cast(cast(x)) back to x's type; when x is the more refined, uses that
 * allow it read x. */
static int
static_info_cast(Ctx *c, Op *op)
{
	Value *x = OPND(op, 0);
	Op *d = x->def;

	(void)c;
	if (d && op_is(d, "torch.tensor_static_info_cast")
	    && canon_value(op, OPND(d, 0)))
		return 1;
	return torch_tensor_refines(x->type, RES(op, 0)->type) && refine_uses(op, x);
}

/* derefine(unchecked_cast(x)) back to x's type; uses that allow it read
 * the refined value. */
static int
derefine(Ctx *c, Op *op)
{
	Op *d = OPND(op, 0)->def;

	(void)c;
	if (d && op_is(d, "torch.prim.unchecked_cast") && canon_value(op, OPND(d, 0)))
		return 1;
	return refine_uses(op, OPND(op, 0));
}

const CanonRule canon_cast_rules[] = {
	{"torch.tensor_static_info_cast", static_info_cast},
	{"torch.derefine", derefine},
	{NULL, NULL},
};
