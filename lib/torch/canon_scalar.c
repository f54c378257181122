/*
 * canon_scalar.c - canonicalization of torch scalar ops: Python int,
 * float, bool and str arithmetic on constants, with PyTorch's semantics
 * (int64 that wraps, floats in double), and the identities that need no
 * constant (max(x, x), s == s).  What Python would raise on (a negative
 * square root, ceil of inf, 0 ** -1) is left alone.
 */
#include <math.h>
#include <string.h>

#include "canon.h"

/* len(range(lo, hi, step)); only a positive step is folded. */
static int
range_length(Ctx *c, Op *op)
{
	int64_t lo, hi, step;
	__int128 d;

	if (!tv_int(OPND(op, 0), &lo) || !tv_int(OPND(op, 1), &hi)
	    || !tv_int(OPND(op, 2), &step) || step <= 0)
		return 0;
	d = (__int128)hi - lo;
	return canon_int(c, op, d <= 0 ? 0 : (int64_t)((d + step - 1) / step));
}

/* prim.max.int, prim.min.int: max(x, x) is x; of constants, the value. */
static int
min_max(Ctx *c, Op *op)
{
	int64_t a, b;
	int max = !strcmp(op->name, "torch.prim.max.int");

	if (OPND(op, 0) == OPND(op, 1))
		return canon_value(op, OPND(op, 0));
	if (!tv_int(OPND(op, 0), &a) || !tv_int(OPND(op, 1), &b))
		return 0;
	return canon_int(c, op, (a > b) == max ? a : b);
}

/* prim.max.self_int, prim.min.self_int of a non-empty list of constants */
static int
min_max_list(Ctx *c, Op *op)
{
	Op *l = canon_list(OPND(op, 0));
	int max = !strcmp(op->name, "torch.prim.max.self_int");
	int64_t best = 0, x;
	int i;

	if (!l || !l->nopnds)
		return 0;
	for (i = 0; i < l->nopnds; i++) {
		if (!tv_int(OPND(l, i), &x))
			return 0;
		if (!i || (max ? x > best : x < best))
			best = x;
	}
	return canon_int(c, op, best);
}

/* any / all of a list of constant bools */
static int
any_all(Ctx *c, Op *op)
{
	Op *l = canon_list(OPND(op, 0));
	int all = !strcmp(op->name, "torch.aten.all.bool"), i, b;

	if (!l)
		return 0;
	for (i = 0; i < l->nopnds; i++)
		if (!tv_bool(OPND(l, i), &b))
			return 0;
	for (i = 0; i < l->nopnds; i++)
		if (tv_bool(OPND(l, i), &b) && b != all)
			return canon_bool(c, op, !all);
	return canon_bool(c, op, all);
}

/* len(s): Python counts code points, so UTF-8 continuation bytes do
 * not count. */
static int
len_str(Ctx *c, Op *op)
{
	const char *s;
	int64_t n = 0;

	if (!tv_str(OPND(op, 0), &s))
		return 0;
	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return canon_int(c, op, n);
}

static int
str_compare(Ctx *c, Op *op)
{
	const char *a, *b;
	int ne = !strcmp(op->name, "torch.aten.ne.str");

	if (OPND(op, 0) == OPND(op, 1))
		return canon_bool(c, op, !ne);
	if (!tv_str(OPND(op, 0), &a) || !tv_str(OPND(op, 1), &b))
		return 0;
	return canon_bool(c, op, (strcmp(a, b) == 0) != ne);
}

/* float(x): a float is itself; an int constant converts. */
static int
float_scalar(Ctx *c, Op *op)
{
	int64_t i;

	if (canon_value(op, OPND(op, 0)))
		return 1;
	return tv_int(OPND(op, 0), &i) && canon_float(c, op, (double)i);
}

/* int ** float: Python gives a complex for a negative base and a
 * fractional exponent and raises for 0 ** negative; neither is folded. */
static int
pow_int_float(Ctx *c, Op *op)
{
	int64_t a;
	double b;

	if (!tv_int(OPND(op, 0), &a) || OPND(op, 1)->type->kind != TY_TORCH_FLOAT
	    || !tv_float(OPND(op, 1), &b))
		return 0;
	if ((a < 0 && b != floor(b)) || (a == 0 && b < 0) || isnan(b))
		return 0;
	return canon_float(c, op, pow((double)a, b));
}

/* math.ceil(float) of a finite constant that fits in int64 */
static int
ceil_float(Ctx *c, Op *op)
{
	double f;

	if (OPND(op, 0)->type->kind != TY_TORCH_FLOAT || !tv_float(OPND(op, 0), &f))
		return 0;
	f = ceil(f);
	if (!(f >= -0x1p63 && f < 0x1p63))
		return 0;
	return canon_int(c, op, (int64_t)f);
}

/* math.sqrt(int) of a non-negative constant */
static int
sqrt_int(Ctx *c, Op *op)
{
	int64_t a;

	if (!tv_int(OPND(op, 0), &a) || a < 0)
		return 0;
	return canon_float(c, op, sqrt((double)a));
}

static int
prim_dtype(Ctx *c, Op *op)
{
	Type *d = tt_dtype(OPND(op, 0)->type);
	int code = d ? dt_code(d) : -1;

	return code >= 0 && canon_int(c, op, code);
}

/* runtime.assert of a constant true asserts nothing. */
static int
assert_true(Ctx *c, Op *op)
{
	int b;

	(void)c;
	if (!tv_bool(OPND(op, 0), &b) || !b)
		return 0;
	op_erase(op);
	return 1;
}

/* (x * a) * b: x * (a * b); int64 products wrap, and wrapping
 * multiplication is associative, so the value is the same. */
static int
mul_int_assoc(Ctx *c, Op *op)
{
	Op *d = OPND(op, 0)->def;
	int64_t a, b, k;
	B bb;

	if (!d || !op_is(d, "torch.aten.mul.int") || !tv_int(OPND(op, 1), &b)
	    || !tv_int(OPND(d, 1), &a) || tv_int(OPND(d, 0), &k))
		return 0;
	bb = b_at(c, op);
	op_set_operand(op, 1, b_int(&bb, (int64_t)((uint64_t)a * (uint64_t)b)));
	op_set_operand(op, 0, OPND(d, 0));
	return 1;
}

/* Comparisons of a size (never negative) with 0. */
static int
size_vs_zero(Ctx *c, Op *op)
{
	static const struct { const char *op; int size_first, val; } facts[] = {
		{"torch.aten.ge.int", 1, 1}, {"torch.aten.lt.int", 1, 0},
		{"torch.aten.le.int", 0, 1}, {"torch.aten.gt.int", 0, 0},
	};
	size_t i;
	int64_t z;
	Value *s;

	for (i = 0; i < sizeof facts / sizeof *facts; i++) {
		if (strcmp(op->name, facts[i].op))
			continue;
		s = OPND(op, !facts[i].size_first);
		if (!tv_int(OPND(op, facts[i].size_first), &z) || z != 0 || !s->def
		    || !op_is(s->def, "torch.aten.size.int"))
			return 0;
		return canon_bool(c, op, facts[i].val);
	}
	return 0;
}

const CanonRule canon_scalar_rules[] = {
	{"torch.aten.__range_length", range_length},
	{"torch.prim.max.int", min_max},
	{"torch.prim.min.int", min_max},
	{"torch.prim.max.self_int", min_max_list},
	{"torch.prim.min.self_int", min_max_list},
	{"torch.aten.any.bool", any_all},
	{"torch.aten.all.bool", any_all},
	{"torch.aten.len.str", len_str},
	{"torch.aten.eq.str", str_compare},
	{"torch.aten.ne.str", str_compare},
	{"torch.aten.Float.Scalar", float_scalar},
	{"torch.aten.pow.int_float", pow_int_float},
	{"torch.aten.ceil.float", ceil_float},
	{"torch.aten.sqrt.int", sqrt_int},
	{"torch.prim.dtype", prim_dtype},
	{"torch.runtime.assert", assert_true},
	{"torch.aten.mul.int", mul_int_assoc},
	{"torch.aten.ge.int", size_vs_zero},
	{"torch.aten.lt.int", size_vs_zero},
	{"torch.aten.le.int", size_vs_zero},
	{"torch.aten.gt.int", size_vs_zero},
	{NULL, NULL},
};
