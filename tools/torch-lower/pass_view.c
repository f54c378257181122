/*
 * pass_view.c - convert-torch-to-linalg's own rows (view helper): ops the
 * torch-lower tool does not lower, taken by the pass only.
 */
#include <string.h>

#include "lower.h"
#include "pass.h"

extern const Row ew_pass_table[];   /* ew.c */

const Row *
pass_view_lookup(const char *name)
{
	return row_find(ew_pass_table, name);
}

/* torch.disable_legacy_view on op's function: only the strict pattern
 * lowers view */
int
pass_view_legacy_disabled(Op *op)
{
	Op *fn = block_parent_op(op->parent);

	return fn && op_attr(fn, "torch.disable_legacy_view");
}

/* view under strict symbolic shapes with the legacy patterns off, as
 * torch-mlir's strict pattern: sizes with no -1 go to tensor.reshape,
 * constants as arith.constant; the rest is left */
static int
lower_view_strict(L *l, Op *op)
{
	Value *sz[TY_MAXRANK], *v[TY_MAXRANK], *x = get(l, OPND(op, 0));
	Type *bt = btensor(l->c, op->res[0].type), *i64 = ty_int(l->c, 64, SIGNLESS);
	Op *fn = block_parent_op(op->parent);
	int n = list_vals(OPND(op, 1), sz, TY_MAXRANK), i, consts = 1;
	int64_t k;

	if (!fn || !op_attr(fn, "torch.assume_strict_symbolic_shapes") || !bt || n < 1 ||
			n != bt->rank)
		return -1;
	for (i = 0; i < n; i++) {
		if (sz[i]->type->kind != TY_TORCH_INT)
			return -1;
		if (!tv_int(sz[i], &k)) {
			consts = 0;
			v[i] = emit1(l, "torch_c.to_i64", 1, &sz[i], i64);
			continue;
		}
		if (k < 0)
			return -1;
		v[i] = cst_i(l, k, i64);
	}
	if (consts && !ty_static(bt))
		return -1;
	Value *shape = emit1(l, "tensor.from_elements", n, v,
		ty_tensor(l->c, 1, (int64_t[]){ n }, i64));
	set(l, RES(op, 0), emit1(l, "tensor.reshape", 2, (Value *[]){ x, shape }, bt));
	return 0;
}

/* view whose sizes torch-lower's reshape cannot take (sizes known only at
 * run time): torch-mlir's last resort, a tensor.reshape to a shape built
 * with tensor.from_elements.  A -1 size is the element count over the
 * product of the others; outside strict symbolic shapes, more than one
 * -1 fails an assert. */
static int
lower_view_reshape(L *l, Op *op, const void *arg)
{
	if (pass_view_legacy_disabled(op))
		return lower_view_strict(l, op);
	Value *sz[TY_MAXRANK], *v[TY_MAXRANK], *x = get(l, OPND(op, 0));
	Type *bt = btensor(l->c, op->res[0].type), *i64 = ty_int(l->c, 64, SIGNLESS);
	Op *fn = block_parent_op(op->parent);
	int n = list_vals(OPND(op, 1), sz, TY_MAXRANK), i;

	if (!bt || n < 1 || n != bt->rank || !x->type->ranked)
		return -1;
	Value *one = cst_i(l, 1, i64), *zero = cst_i(l, 0, i64), *count = zero, *known = one;
	for (i = 0; i < n; i++) {
		if (sz[i]->type->kind != TY_TORCH_INT)
			return -1;
		v[i] = emit1(l, "torch_c.to_i64", 1, &sz[i], i64);
		Value *mul = bin(l, "arith.muli", known, v[i]);
		Value *add = bin(l, "arith.addi", count, one);
		Value *neg = cmpi(l, "slt", v[i], zero);
		known = sel(l, neg, known, mul);
		count = sel(l, neg, add, count);
	}
	if (!fn || !op_attr(fn, "torch.assume_strict_symbolic_shapes")) {
		Op *a = emit(l, "cf.assert", 1, (Value *[]){ cmpi(l, "sle", count, one) }, 0, NULL);
		op_set_attr(l->c, a, "msg",
			at_str(l->c, "must have at most one inferred (negative) dimension"));
	}
	Value *total = one;
	for (i = 0; i < x->type->rank; i++) {
		Value *o[2] = { x, cst_idx(l, i) };
		Value *d = emit1(l, "tensor.dim", 2, o, ty_index(l->c));
		total = bin(l, "arith.muli", total, emit1(l, "arith.index_cast", 1, &d, i64));
	}
	Value *inferred = bin(l, "arith.divsi", total, known);
	for (i = 0; i < n; i++)
		v[i] = sel(l, cmpi(l, "slt", v[i], zero), inferred, v[i]);
	Value *shape = emit1(l, "tensor.from_elements", n, v,
		ty_tensor(l->c, 1, (int64_t[]){ n }, i64));
	set(l, RES(op, 0), emit1(l, "tensor.reshape", 2, (Value *[]){ x, shape }, bt));
	return 0;
}

static const Row fallback_rows[] = {
	{"torch.aten.view", lower_view_reshape, NULL},
	{NULL, NULL, NULL},
};

/* the row to try when op's own refused it, or NULL */
const Row *
pass_view_fallback(const char *name)
{
	return row_find(fallback_rows, name);
}

/* rows whose lowering reads scalars that are not constants */
int
pass_view_reads_scalars(const Row *r)
{
	return r >= fallback_rows && r < fallback_rows + sizeof fallback_rows / sizeof *fallback_rows;
}
