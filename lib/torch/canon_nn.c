/*
 * canon_nn.c - canonical forms of pooling and convolution ops (one-int
 * parameter lists spelled out per spatial dim, max pooling whose
 * indices go unused), device(type, index) of constants and in-place
 * sort of a literal int list.
 */
#include <stdlib.h>
#include <string.h>

#include "canon.h"

/* max_pool{2,3}d_with_indices whose indices nobody reads: max_pool. */
static int
pool_no_indices(Ctx *c, Op *op)
{
	const char *to = strstr(op->name, "2d") ? "torch.aten.max_pool2d" : "torch.aten.max_pool3d";
	Value *v[6], *r;
	int i;

	if (op->nres != 2 || op->nopnds != 6 || RES(op, 1)->uses)
		return 0;
	for (i = 0; i < 6; i++)
		v[i] = OPND(op, i);
	r = canon_op(c, op, to, 6, v, RES(op, 0)->type);
	value_replace_all_uses(RES(op, 0), r);
	op_erase(op);
	return 1;
}

/* Operand k, a literal list of one int, as a list of n copies of it;
 * 1 when changed. */
static int
spell_out(Ctx *c, Op *op, int k, int n)
{
	Op *l = canon_list(OPND(op, k));
	Value *e[8];
	int i;

	if (!l || l->nopnds != 1 || n < 2 || n > 8)
		return 0;
	for (i = 0; i < n; i++)
		e[i] = OPND(l, 0);
	op_set_operand(op, k, canon_new_list(c, op, OPND(op, k)->type, n, e));
	return 1;
}

/* avg_pool2d/3d: PyTorch reads a one-int kernel, stride or padding as
 * that int for every spatial dim. */
static int
avg_pool_ints(Ctx *c, Op *op)
{
	int n = strstr(op->name, "3d") ? 3 : 2, k, done = 0;

	for (k = 1; k <= 3; k++)
		done |= spell_out(c, op, k, n);
	return done;
}

/* convolution: a one-int stride, padding, dilation or output_padding
 * stands for every spatial dim (the weight's rank less 2). */
static int
conv_ints(Ctx *c, Op *op)
{
	static const int lists[] = {3, 4, 5, 7};
	int r = tt_rank(OPND(op, 1)->type), done = 0;
	size_t i;

	if (op->nopnds != 9 || r < 4)
		return 0;
	for (i = 0; i < sizeof lists / sizeof *lists; i++)
		done |= spell_out(c, op, lists[i], r - 2);
	return done;
}

/* torch.device(type, index) of a constant type name and index >= 0 */
static int
device_with_index(Ctx *c, Op *op)
{
	const char *s, *p;
	int64_t i;
	char buf[96];
	Type *t = RES(op, 0)->type;
	Value *r;
	Op *d;

	if (!tv_str(OPND(op, 0), &s) || !tv_int(OPND(op, 1), &i) || i < 0 || !*s
	    || strlen(s) > 64)
		return 0;
	for (p = s; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || *p == '_'))
			return 0;
	snprintf(buf, sizeof buf, "%s:%lld", s, (long long)i);
	d = op_new(c, intern(c, "torch.constant.device"), 0, NULL, 1, &t, 0, op->loc);
	op_set_attr(c, d, "value", at_str(c, buf));
	op_insert_before(op, d);
	r = RES(d, 0);
	op_replace(op, &r);
	return 1;
}

static int
cmp_up(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* list.sort(reverse=r) of a ListConstruct of constant ints that the
 * sort is the first to touch and whose other users, all after it in
 * the same block, only read: the ListConstruct lists them sorted. */
static int
sort_int(Ctx *c, Op *op)
{
	Value *lv = OPND(op, 0), *e[64];
	Op *l = lv->def, *o;
	int64_t v[64];
	int n, i, rev;
	Use *u;
	B b;

	if (!l || !op_is(l, "torch.prim.ListConstruct") || !tv_bool(OPND(op, 1), &rev)
	    || l->parent != op->parent || (n = tv_ints(lv, v, 64)) < 0 || n != l->nopnds)
		return 0;
	for (u = lv->uses; u; u = u->next) {
		if (u->owner == op)
			continue;
		for (o = op->next; o && o != u->owner; o = o->next)
			;
		if (!o || op_has(o, TR_MUTABLE) || op_has(o, TR_INPLACE)
		    || !(op_has(o, TR_PURE) || op_has(o, TR_VALUESEM) || op_is(o, "func.return")))
			return 0;
	}
	qsort(v, n, sizeof *v, cmp_up);
	b = b_at(c, l);
	for (i = 0; i < n; i++)
		e[i] = b_int(&b, rev ? v[n - 1 - i] : v[i]);
	op_set_operands(c, l, n, e);
	op_erase(op);
	return 1;
}

/* to.dtype_layout(x, dtype, None, device, None, nb, copy, mf) with a
 * dtype and a device: to.device (to.dtype when there is no device is
 * canon_create.c's). */
static int
dtype_layout_device(Ctx *c, Op *op)
{
	int64_t d;
	Value *ops[6];

	if (op->nopnds != 8 || !tv_int(OPND(op, 1), &d) || !tv_none(OPND(op, 2))
	    || OPND(op, 3)->type->kind != TY_TORCH_DEVICE || !tv_none(OPND(op, 4)))
		return 0;
	ops[0] = OPND(op, 0), ops[1] = OPND(op, 3), ops[2] = OPND(op, 1);
	ops[3] = OPND(op, 5), ops[4] = OPND(op, 6), ops[5] = OPND(op, 7);
	return canon_value(op, canon_op(c, op, "torch.aten.to.device", 6, ops, RES(op, 0)->type));
}

/* to.other(x, other, nb, copy, mf): to.device(x, "cpu", prim.dtype(other),
 * nb, copy, mf), as torch-mlir has it (every tensor here is on the CPU:
 * aten.cuda is the identity too). */
static int
to_other(Ctx *c, Op *op)
{
	Type *dt = ty_torch(c, TY_TORCH_DEVICE), *it = ty_torch(c, TY_TORCH_INT);
	Value *ops[6];
	Op *d;

	if (op->nopnds != 5)
		return 0;
	d = op_new(c, intern(c, "torch.constant.device"), 0, NULL, 1, &dt, 0, op->loc);
	op_set_attr(c, d, "value", at_str(c, "cpu"));
	op_insert_before(op, d);
	ops[0] = OPND(op, 0), ops[1] = RES(d, 0);
	ops[2] = canon_op(c, op, "torch.prim.dtype", 1, &OPND(op, 1), it);
	ops[3] = OPND(op, 2), ops[4] = OPND(op, 3), ops[5] = OPND(op, 4);
	return canon_value(op, canon_op(c, op, "torch.aten.to.device", 6, ops, RES(op, 0)->type));
}

/* x ** 3.0 on a float tensor is x ** 3: PyTorch reads the exponent as a
 * double either way and the result keeps x's dtype. */
static int
pow_int_exponent(Ctx *c, Op *op)
{
	Type *d = tt_dtype(OPND(op, 0)->type);
	double e;
	B b;

	if (!d || !ty_isfloat(d) || OPND(op, 1)->type->kind != TY_TORCH_FLOAT
	    || !tv_float(OPND(op, 1), &e) || e != (double)(int64_t)e
	    || !(e > -0x1p53 && e < 0x1p53) || tt_dtype(RES(op, 0)->type) != d)
		return 0;
	b = b_at(c, op);
	op_set_operand(op, 1, b_int(&b, (int64_t)e));
	return 1;
}

#define POOLS(nd) \
	{"torch.aten.max_pool" nd "_with_indices", pool_no_indices}, \
	{"torch.aten.avg_pool" nd, avg_pool_ints}

const CanonRule canon_nn_rules[] = {
	POOLS("2d"), POOLS("3d"),
	{"torch.aten.convolution", conv_ints},
	{"torch.aten.device.with_index", device_with_index},
	{"torch.aten.sort.int", sort_int},
	{"torch.aten.to.dtype_layout", dtype_layout_device},
	{"torch.aten.to.other", to_other},
	{"torch.aten.pow.Tensor_Scalar", pow_int_exponent},
	{NULL, NULL},
};
