/*
 * pass_refine_types.c - torch-refine-types: shape and dtype inference.
 *
 * needs:       a func.func of torch ops (value or non-value tensors).
 * guarantees:  every tensor result whose op has an inference rule
 *              (infer*.c) carries the most refined type its operands and
 *              its old type allow: rank, static sizes, dtype (PyTorch's
 *              broadcasting and type promotion); the function's result
 *              types follow its return.  A result whose old type
 *              contradicts its operands is an error at the op.
 * invalidates: nothing (types only get more refined).
 *
 * One forward sweep is enough: there is no control flow, so operands are
 * refined before their users.
 */
#include "pass.h"
#include "torch.h"

typedef struct Walk {
	Ctx *c;
	int changed, failed;
} Walk;

static int
visit(Op *op, void *env)
{
	Walk *w = env;
	int r;

	if (w->failed)
		return 1;
	r = torch_refine_op(w->c, op);
	if (r < 0)
		w->failed = 1;
	else
		w->changed |= r;
	return 0;
}

static int
run(Ctx *c, Op *fn, PassArgs *a)
{
	Walk w = {c, 0, 0};

	op_walk(fn, visit, &w);
	a->changed |= w.changed;
	return w.failed ? -1 : 0;
}

const PassInfo pass_torch_refine_types = {
	.name = "torch-refine-types",
	.summary = "infer the shapes and dtypes of torch tensors",
	.anchor = "func.func",
	.run = run,
};
