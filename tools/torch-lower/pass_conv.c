/*
 * pass_conv.c - convert-torch-to-linalg's own rows (conv helper): ops the
 * torch-lower tool does not lower, taken by the pass only.
 *
 * sym_constrain_range(size, min, max): min <= size <= max asserted at
 * run time (cf.assert), a missing bound being int64's extreme, as
 * torch-mlir's pattern; the op goes.  Bounds must be constants.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "lower.h"
#include "pass.h"

/* The torch_c.to_i64 of torch int v for op: one already made in op's
 * block, else a new one right after v's definition (first in the block
 * for an argument), as torch-mlir's conversion materializes it. */
static Value *
scalar_i64(L *l, Value *v, Op *op)
{
	Type *i64 = ty_int(l->c, 64, SIGNLESS);
	Use *u;
	Op *m;

	for (u = v->uses; u; u = u->next)
		if (op_is(u->owner, "torch_c.to_i64") && u->owner->parent == op->parent)
			return RES(u->owner, 0);
	m = op_new(l->c, "torch_c.to_i64", 1, &v, 1, &i64, 0, op->loc);
	if ((v->def ? v->def->parent : v->block) == op->parent)
		pass_place_after_def(m, v);
	else
		op_insert_before(op, m);
	return RES(m, 0);
}

static int
lower_sym_constrain_range(L *l, Op *op, const void *arg)
{
	int64_t lo = INT64_MIN, hi = INT64_MAX;
	Type *i64 = ty_int(l->c, 64, SIGNLESS);
	char msg[96];

	(void)arg;
	if (op->nopnds != 3 || OPND(op, 0)->type->kind != TY_TORCH_INT)
		return -1;
	if ((OPND(op, 1)->type->kind != TY_TORCH_NONE && !tv_int(OPND(op, 1), &lo)) ||
			(OPND(op, 2)->type->kind != TY_TORCH_NONE && !tv_int(OPND(op, 2), &hi)) ||
			hi < lo)
		return -1;
	Value *n = scalar_i64(l, OPND(op, 0), op);
	Value *min = cst_i(l, lo, i64), *max = cst_i(l, hi, i64);
	Value *ge = cmpi(l, "sle", min, n), *le = cmpi(l, "sle", n, max);
	Value *ok = bin(l, "arith.andi", ge, le);
	Op *a = emit(l, "cf.assert", 1, &ok, 0, NULL);
	snprintf(msg, sizeof msg, "Size constraint failed. Expected range: [%" PRId64 ", %" PRId64 "]",
		lo, hi);
	op_set_attr(l->c, a, "msg", at_str(l->c, msg));
	return 0;
}

static const Row rows[] = {
	{"torch.aten.sym_constrain_range", lower_sym_constrain_range, NULL},
	{NULL, NULL, NULL},
};

const Row *
pass_conv_lookup(const char *name)
{
	return row_find(rows, name);
}

/* rows whose lowering reads scalars that are not constants */
int
pass_conv_reads_scalars(const Row *r)
{
	return r == &rows[0];
}
