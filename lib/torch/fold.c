/*
 * fold.c - torch_fold_hooks: folds of tensor-level torch ops for
 * canonicalize (attached to the op table next to lib/fold.c's hooks).
 * Each hook only reads the IR: it answers an existing value (x * 1 -> x,
 * transpose of transpose -> x, squeeze of unsqueeze -> x, a no-op view,
 * cast or slice -> x) or a constant (the length or an element of a list
 * of constants, the rank of a ranked tensor).  rewrite.c's fold_op()
 * only accepts a value of the very type of the result, so folds that
 * would change a type never apply.
 */
#include <string.h>

#include "canon.h"
#include "fold.h"
#include "optable.h"
#include "torch.h"
#include "verify.h"

static int
to_value(Value *v, Value **outv)
{
	outv[0] = v;
	return 1;
}

/* Does slice op (static result t) with constant bounds, if they are
 * constants, give all of its dim? */
static int
slice_whole(Op *op, Type *t, int64_t step)
{
	int64_t d, n, lo, hi, len;

	if (!tv_int(OPND(op, 1), &d) || (d = tt_dim(d, t->rank)) < 0)
		return 0;
	n = t->dims[d];
	if (!canon_slice_bound(OPND(op, 2), n, 0, &lo)
	    || !canon_slice_bound(OPND(op, 3), n, n, &hi))
		return 1;
	len = hi > lo ? 1 + (hi - lo - 1) / step : 0;
	return len == n;
}

/* An op whose result has its operand's type is that operand: no-op
 * views, casts, expands, permutes, slices, squeezes. */
static int
fold_noop(Ctx *c, Op *op, Value **outv, Attr **outa)
{
	Type *t = RES(op, 0)->type;

	if (op->nopnds < 1 || OPND(op, 0)->type != t)
		return 0;
	if (torch_is(op, "aten.transpose.int") && tt_rank(t) > 0) {
		int64_t a, b;
		/* swapping a dim with itself is the identity, static or not */
		if (tv_int(OPND(op, 1), &a) && tv_int(OPND(op, 2), &b)
		    && tt_dim(a, t->rank) == tt_dim(b, t->rank))
			return to_value(OPND(op, 0), outv);
	}
	if (!ty_static(t))
		return 0;
	if (torch_is(op, "aten.transpose.int"))
		return 0;
	if (torch_is(op, "aten.slice.Tensor")) {
		int64_t step;
		/* a step below 1 raises in PyTorch */
		if (op->nopnds < 5 || !tv_int(OPND(op, 4), &step) || step < 1)
			return 0;
		/* constant bounds must take the whole dim: a result type
		 * that says otherwise is not believed */
		if (!slice_whole(op, t, step))
			return 0;
	}
	if (torch_is(op, "aten.permute")) {
		int64_t p[TORCH_MAXRANK];
		int n, i;
		if ((n = tv_ints(OPND(op, 1), p, TORCH_MAXRANK)) != t->rank)
			return 0;
		for (i = 0; i < n; i++)
			if (tt_dim(p[i], n) != i)
				return 0;
	}
	return to_value(OPND(op, 0), outv);
}

/* transpose(transpose(x, a, b), a, b), t(t(x)): x */
static int
fold_transpose(Ctx *c, Op *op, Value **outv, Attr **outa)
{
	Op *d = OPND(op, 0)->def;
	int64_t a, b, x, y;
	int r = tt_rank(OPND(op, 0)->type);

	if (fold_noop(c, op, outv, outa))
		return 1;
	if (!d || strcmp(d->name, op->name))
		return 0;
	if (torch_is(op, "aten.t"))
		return to_value(OPND(d, 0), outv);
	if (!tv_int(OPND(op, 1), &a) || !tv_int(OPND(op, 2), &b) || !tv_int(OPND(d, 1), &x)
	    || !tv_int(OPND(d, 2), &y))
		return 0;
	a = tt_dim(a, r), b = tt_dim(b, r), x = tt_dim(x, r), y = tt_dim(y, r);
	if ((a == x && b == y) || (a == y && b == x))
		return to_value(OPND(d, 0), outv);
	return 0;
}

/* squeeze.dim(unsqueeze(x, d), d): x; views back to x's own type: x. */
static int
fold_view_chain(Ctx *c, Op *op, Value **outv, Attr **outa)
{
	Op *d = OPND(op, 0)->def;
	Value *x;

	if (fold_noop(c, op, outv, outa))
		return 1;
	if (!d || !(torch_is(d, "aten.unsqueeze") || torch_is(d, "aten.view")
	    || torch_is(d, "aten.squeeze.dim") || torch_is(d, "aten.reshape")
	    || torch_is(d, "aten.flatten.using_ints") || torch_is(d, "aten.squeeze")))
		return 0;
	x = OPND(d, 0);
	if (x->type != RES(op, 0)->type || !ty_static(x->type))
		return 0;
	return to_value(x, outv);
}

static int
is_splat(Value *v, double want)
{
	Attr *a = value_const(v);
	double f;

	if (!tt_is(v->type))
		return tv_float(v, &f) && f == want;
	if (!a || a->kind != AT_DENSE || !a->splat)
		return 0;
	return dense_get_f(a, 0) == want;
}

/* x * 1, 1 * x, x / 1, x + 0, 0 + x, x - 0 (alpha any). */
static int
fold_identity(Ctx *c, Op *op, Value **outv, Attr **outa)
{
	const char *n = torch_opname(op);
	int mul = !strncmp(n, "aten.mul.", 9), div = !strncmp(n, "aten.div.", 9);
	int add = !strncmp(n, "aten.add.", 9), sub = !strncmp(n, "aten.sub.", 9);
	double k = mul || div ? 1 : 0;
	Value *x = OPND(op, 0), *y = OPND(op, 1);

	if (!strcmp(n, "aten.div.Tensor_mode") || !strcmp(n, "aten.div.Scalar_mode"))
		return 0;
	if (is_splat(y, k) && x->type == RES(op, 0)->type)
		return to_value(x, outv);
	if ((mul || (add && (op->nopnds < 3 || is_splat(OPND(op, 2), 1))))
	    && is_splat(x, k) && y->type == RES(op, 0)->type)
		return to_value(y, outv);
	(void)sub;
	return 0;
}

/* _to_copy / to.dtype to the same type. */
static int
fold_to(Ctx *c, Op *op, Value **outv, Attr **outa)
{
	if (OPND(op, 0)->type != RES(op, 0)->type || !tt_dtype(RES(op, 0)->type))
		return 0;
	return to_value(OPND(op, 0), outv);
}

/* len(list), list[i] of a ListConstruct that nothing mutates. */
static int
fold_list(Ctx *c, Op *op, Value **outv, Attr **outa)
{
	Op *d = canon_list(OPND(op, 0));
	int64_t i;

	if (!d)
		return 0;
	if (torch_is(op, "aten.len.t")) {
		outa[0] = at_int(c, d->nopnds, NULL);
		return 1;
	}
	if (!tv_int(OPND(op, 1), &i))
		return 0;
	if (i < 0)
		i += d->nopnds;
	if (i < 0 || i >= d->nopnds || OPND(d, i)->type != RES(op, 0)->type)
		return 0;
	return to_value(OPND(d, i), outv);
}

/* dim(x), numel(x) of ranked or static tensors. */
static int
fold_rank(Ctx *c, Op *op, Value **outv, Attr **outa)
{
	Type *t = OPND(op, 0)->type;

	if (torch_is(op, "aten.dim") && tt_rank(t) >= 0)
		outa[0] = at_int(c, t->rank, NULL);
	else if (torch_is(op, "aten.numel") && ty_static(t))
		outa[0] = at_int(c, ty_numel(t), NULL);
	return outa[0] != NULL;
}

/* is_floating_point(x), is_complex(x) of a tensor whose dtype is known
 * (no complex dtype reaches the torch dialect here). */
static int
fold_dtype_test(Ctx *c, Op *op, Value **outv, Attr **outa)
{
	Type *d = tt_dtype(OPND(op, 0)->type);

	(void)outv;
	if (!d)
		return 0;
	outa[0] = at_bool(c, torch_is(op, "aten.is_floating_point") && ty_isfloat(d));
	return 1;
}

const OpHook torch_fold_hooks[] = {
	{"torch.aten.transpose.int", (void *)fold_transpose},
	{"torch.aten.t", (void *)fold_transpose},
	{"torch.aten.permute", (void *)fold_noop},
	{"torch.aten.view", (void *)fold_view_chain},
	{"torch.aten.reshape", (void *)fold_view_chain},
	{"torch.aten.squeeze.dim", (void *)fold_view_chain},
	{"torch.aten.squeeze", (void *)fold_view_chain},
	{"torch.aten.unsqueeze", (void *)fold_view_chain},
	{"torch.aten.flatten.using_ints", (void *)fold_view_chain},
	{"torch.aten.expand", (void *)fold_noop},
	{"torch.aten.broadcast_to", (void *)fold_noop},
	{"torch.aten.slice.Tensor", (void *)fold_noop},
	{"torch.aten.contiguous", (void *)fold_noop},
	{"torch.aten.clone", (void *)fold_noop},
	{"torch.aten.mul.Tensor", (void *)fold_identity},
	{"torch.aten.mul.Scalar", (void *)fold_identity},
	{"torch.aten.div.Tensor", (void *)fold_identity},
	{"torch.aten.div.Scalar", (void *)fold_identity},
	{"torch.aten.add.Tensor", (void *)fold_identity},
	{"torch.aten.add.Scalar", (void *)fold_identity},
	{"torch.aten.sub.Tensor", (void *)fold_identity},
	{"torch.aten.sub.Scalar", (void *)fold_identity},
	{"torch.aten._to_copy", (void *)fold_to},
	{"torch.aten.to.dtype", (void *)fold_to},
	{"torch.aten.len.t", (void *)fold_list},
	{"torch.aten.__getitem__.t", (void *)fold_list},
	{"torch.aten.dim", (void *)fold_rank},
	{"torch.aten.numel", (void *)fold_rank},
	{"torch.aten.is_floating_point", (void *)fold_dtype_test},
	{"torch.aten.is_complex", (void *)fold_dtype_test},
	{NULL, NULL},
};

const OpTable torch_fold_optables[] = {
	OPTABLE("fold rule", torch_fold_hooks, ""),
	{NULL},
};
