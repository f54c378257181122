/*
 * pass_dce.c - dce: erase trivially dead ops.
 *
 * needs:       nothing; runs on the op it is given and everything nested.
 * guarantees:  no op nested in the anchor is trivially dead: each op with
 *              unused results and no side effects (pure, with pure regions)
 *              is gone, chains of them included.  Block arguments, dead or
 *              not, are kept, and no op is folded or moved.
 * invalidates: op identities of the erased ops.
 *
 * Blocks are walked backwards, nested regions before their op, so a user
 * dies before its operands are looked at; sweeps repeat until none erases
 * anything (uses across blocks of a CFG need that).
 */
#include "pass.h"

static int sweep_op(Op *op);

static int
sweep_block(Block *b)
{
	Op *op, *prev;
	int changed = 0;

	for (op = b->last; op; op = prev) {
		prev = op->prev;
		changed |= sweep_op(op);
		if (op_is_trivially_dead(op)) {
			op_erase(op);
			changed = 1;
		}
	}
	return changed;
}

/* The regions of op, blocks last to first. */
static int
sweep_op(Op *op)
{
	int i, changed = 0;
	Block *b;

	for (i = op->nregs - 1; i >= 0; i--)
		for (b = op->regs[i].last; b; b = b->prev)
			changed |= sweep_block(b);
	return changed;
}

static int
run(Ctx *c, Op *op, PassArgs *a)
{
	(void)c;
	while (sweep_op(op))
		a->changed = 1;
	return 0;
}

const PassInfo pass_dce = {
	.name = "dce",
	.summary = "erase trivially dead operations",
	.anchor = NULL,
	.run = run,
};
