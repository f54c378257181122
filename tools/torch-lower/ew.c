/*
 * ew.c - elementwise ops: one linalg.generic each, operands broadcast
 * through their indexing maps (size-1 dims read index 0), every value
 * converted to the compute type inside the body.
 *
 * Adding an op is one row of `rows` and, unless an existing body fits,
 * one BODY.  A body gets x[i] for each tensor operand i, already in the
 * compute type; X(i) also makes a constant of scalar operand i.  The
 * compute type is the result dtype (M_RES, f16/bf16 compute in f32), or
 * PyTorch's result_type of the first nargs operands (M_PROMOTE, for ops
 * whose result is bool).  Operands in boolmask become i1 instead.  A body
 * returns a value of the compute type or i1; the driver casts it to the
 * result dtype.
 */
#include <math.h>
#include <string.h>

#include "lower.h"

enum { M_RES, M_PROMOTE };

typedef struct Ew Ew;
typedef Value *(*Body)(L *l, const Ew *e, Op *op, Value **x, Type *ct);

struct Ew {
	const char *name;
	Body body;
	int mode;
	int nargs;            /* M_PROMOTE: operands that take part */
	unsigned boolmask;    /* operands converted to i1 */
	const char *fop;      /* the math/arith op of simple bodies */
};

#define BODY(n) static Value *n(L *l, const Ew *e, Op *op, Value **x, Type *ct)
#define X(i) xarg(l, op, x, i, ct)
#define S(i) OPND(op, i)          /* the torch operand, for tv_* */
#define K(v) cst_d(l, v, ct)

/* Scalar operand i in the body: a constant, or the value computed
 * outside it (a size under dynamic shapes: a roll's modulus). */
static Value *
xarg(L *l, Op *op, Value **x, int i, Type *ct)
{
	double f;
	Value *s;

	if (!x[i]) {
		if (tv_float(OPND(op, i), &f))
			x[i] = cst_of(l, OPND(op, i), ct);
		else if ((s = get(l, OPND(op, i))) && (s->type->kind == TY_INT ||
				ty_isfloat(s->type)))
			x[i] = cv(l, s, s->type->kind == TY_INT && s->type->width > 1 ?
				ty_int(l->c, s->type->width, SIGNED) : s->type, ct);
		else
			die("elementwise operand %d of %s is not a number", i, op->name);
	}
	return x[i];
}

static int
one(Value *v)
{
	double f;

	return tv_float(v, &f) && f == 1.0;
}

/* ---- unary ---- */

BODY(b_math) { return un(l, e->fop, x[0]); }

BODY(b_neg)
{
	if (dt_isfloat(ct))
		return un(l, "arith.negf", x[0]);
	return ar(l, "sub", ct, K(0), x[0]);
}

BODY(b_abs)
{
	if (dt_isfloat(ct))
		return un(l, "math.absf", x[0]);
	return dt_isunsigned(ct) ? x[0] : un(l, "math.absi", x[0]);
}

/* floor, ceil, round, trunc: the identity on integers */
BODY(b_round) { return dt_isfloat(ct) ? un(l, e->fop, x[0]) : x[0]; }

BODY(b_reciprocal) { return ar(l, "div", ct, K(1), x[0]); }

static Value *
sigmoid(L *l, Type *ct, Value *v)
{
	Value *ex = un(l, "math.exp", un(l, "arith.negf", v));
	return ar(l, "div", ct, K(1), ar(l, "add", ct, K(1), ex));
}

BODY(b_sigmoid) { return sigmoid(l, ct, x[0]); }
BODY(b_silu) { return ar(l, "mul", ct, x[0], sigmoid(l, ct, x[0])); }

BODY(b_sign)
{
	Value *pos, *neg;

	if (dt_isbool(ct))
		return x[0];
	pos = cmp(l, "gt", ct, x[0], K(0));
	neg = cmp(l, "lt", ct, x[0], K(0));
	return sel(l, pos, K(1), sel(l, neg, K(-1), K(0)));
}

static Value *clamp1(L *l, Type *ct, Value *v, Value *b, int hi);

BODY(b_relu) { return clamp1(l, ct, x[0], K(0), 0); }

BODY(b_gelu)
{
	Value *v = x[0], *t;
	const char *s;

	if (op->nopnds > 1 && tv_str(S(1), &s) && !strcmp(s, "tanh")) {
		/* 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))) */
		Value *x3 = ar(l, "mul", ct, ar(l, "mul", ct, v, v), v);
		t = ar(l, "add", ct, v, ar(l, "mul", ct, K(0.044715), x3));
		t = un(l, "math.tanh", ar(l, "mul", ct, K(sqrt(2.0 / M_PI)), t));
	} else {
		t = un(l, "math.erf", ar(l, "mul", ct, v, K(M_SQRT1_2)));
	}
	t = ar(l, "add", ct, K(1), t);
	return ar(l, "mul", ct, ar(l, "mul", ct, K(0.5), v), t);
}

BODY(b_logical_not) { return cmp(l, "eq", ct, x[0], K(0)); }
BODY(b_bitwise_not) { return ar(l, "xor", ct, x[0], K(-1)); }

/* v clamped below by lo (hi: above), as PyTorch's clamp, relu and
 * hardtanh do it: v unless it is past the bound (so -0.0 stays -0.0
 * under relu, where max(-0.0, 0) may give +0.0), a NaN v or bound NaN. */
static Value *
clamp1(L *l, Type *ct, Value *v, Value *b, int hi)
{
	if (!dt_isfloat(ct))
		return ar(l, hi ? "min" : "max", ct, v, b);
	return sel(l, cmpf(l, hi ? "ogt" : "olt", v, b), b,
		sel(l, cmpf(l, "uno", b, b), b, v));
}

BODY(b_clamp)
{
	Value *v = x[0];

	if (!tv_none(S(1)))
		v = clamp1(l, ct, v, X(1), 0);
	if (op->nopnds > 2 && !tv_none(S(2)))
		v = clamp1(l, ct, v, X(2), 1);
	return v;
}

BODY(b_clamp_max) { return clamp1(l, ct, x[0], X(1), 1); }

BODY(b_threshold)
{
	return sel(l, cmp(l, "le", ct, x[0], X(1)), X(2), x[0]);
}

BODY(b_leaky_relu)
{
	Value *neg = ar(l, "mul", ct, x[0], op->nopnds > 1 ? X(1) : K(0.01));
	return sel(l, cmp(l, "gt", ct, x[0], K(0)), x[0], neg);
}

BODY(b_elu)
{
	/* x > 0 ? scale x : scale alpha (exp(x input_scale) - 1) */
	Value *pos = ar(l, "mul", ct, x[0], X(2));
	Value *ex = un(l, "math.exp", ar(l, "mul", ct, x[0], X(3)));
	Value *neg = ar(l, "mul", ct, ar(l, "sub", ct, ex, K(1)),
		ar(l, "mul", ct, X(1), X(2)));
	return sel(l, cmp(l, "le", ct, x[0], K(0)), neg, pos);
}

static Value *
softplus(L *l, Type *ct, Value *v, Value *beta, Value *th)
{
	Value *bx = ar(l, "mul", ct, v, beta);
	Value *sp = ar(l, "div", ct, un(l, "math.log1p", un(l, "math.exp", bx)), beta);
	return sel(l, cmp(l, "gt", ct, bx, th), v, sp);
}

BODY(b_softplus) { return softplus(l, ct, x[0], X(1), X(2)); }

BODY(b_mish)
{
	Value *sp = softplus(l, ct, x[0], K(1), K(20));
	return ar(l, "mul", ct, x[0], un(l, "math.tanh", sp));
}

BODY(b_hardtanh)
{
	return clamp1(l, ct, clamp1(l, ct, x[0], X(1), 0), X(2), 1);
}

static Value *
relu6(L *l, Type *ct, Value *v)
{
	return clamp1(l, ct, clamp1(l, ct, v, K(0), 0), K(6), 1);
}

BODY(b_relu6) { return relu6(l, ct, x[0]); }

BODY(b_hardsigmoid)
{
	return ar(l, "div", ct, relu6(l, ct, ar(l, "add", ct, x[0], K(3))), K(6));
}

BODY(b_hardswish)
{
	Value *h = ar(l, "div", ct, relu6(l, ct, ar(l, "add", ct, x[0], K(3))), K(6));
	return ar(l, "mul", ct, x[0], h);
}

BODY(b_isnan)
{
	if (!dt_isfloat(ct))
		return cst_i(l, 0, dt_bool(l->c));
	return cmpf(l, "uno", x[0], x[0]);
}

BODY(b_isinf)
{
	if (!dt_isfloat(ct))
		return cst_i(l, 0, dt_bool(l->c));
	return cmpf(l, "oeq", un(l, "math.absf", x[0]), K(INFINITY));
}

/* the sign bit: of the bits for floats (-0.0, -NaN), x < 0 for integers */
BODY(b_signbit)
{
	Type *it;

	if (!dt_isfloat(ct))
		return cmp(l, "lt", ct, x[0], K(0));
	it = ty_int(l->c, x[0]->type->kind == TY_F64 ? 64 : 32, SIGNLESS);
	if (x[0]->type->kind != TY_F64 && x[0]->type->kind != TY_F32)
		die("signbit of an unexpected float type in %s", op->name);
	return cmpi(l, "slt", emit1(l, "arith.bitcast", 1, &x[0], it), cst_i(l, 0, it));
}

/* x ** n for a constant n >= 0, by squaring */
static Value *
ipow_const(L *l, Type *ct, Value *b, int64_t n)
{
	Value *r = NULL;

	for (; n > 0; n >>= 1) {
		if (n & 1)
			r = r ? ar(l, "mul", ct, r, b) : b;
		if (n > 1)
			b = ar(l, "mul", ct, b, b);
	}
	return r ? r : K(1);
}

static Value *
pow_(L *l, Type *ct, Value *b, Value *ex)
{
	if (dt_isfloat(ct))
		return bin(l, "math.powf", b, ex);
	return bin(l, "math.ipowi", b, ex);
}

BODY(b_pow_ts)
{
	Value *ev = S(1);
	int64_t n;
	double f;

	if (tv_int(ev, &n) && n >= 0 && n <= 64 && (!dt_isfloat(ct) || n <= 4))
		return ipow_const(l, ct, x[0], n);
	if (tv_float(ev, &f) && f == 0.5 && dt_isfloat(ct))
		return un(l, "math.sqrt", x[0]);
	return pow_(l, ct, x[0], X(1));
}

BODY(b_pow) { return pow_(l, ct, X(0), X(1)); }

/* ---- binary ---- */

/* self OP alpha * other */
static Value *
alpha_times(L *l, Op *op, Value **x, Type *ct, int i, int ai)
{
	if (ai < op->nopnds && l->pass && !dt_isbool(ct) && !is_tensor(l, OPND(op, ai)))
		return ar(l, "mul", ct, X(i), pass_view_capture(l, OPND(op, ai), ct));
	if (ai < op->nopnds && !one(OPND(op, ai)) && !dt_isbool(ct))
		return ar(l, "mul", ct, X(i), X(ai));
	return X(i);
}

BODY(b_add) { return ar(l, "add", ct, X(0), alpha_times(l, op, x, ct, 1, 2)); }
BODY(b_sub) { return ar(l, "sub", ct, X(0), alpha_times(l, op, x, ct, 1, 2)); }
BODY(b_rsub) { return ar(l, "sub", ct, X(1), alpha_times(l, op, x, ct, 0, 2)); }
BODY(b_ar) { return ar(l, e->fop, ct, X(0), X(1)); }

/* a nonzero remainder r (of a division by b) whose sign is not b's:
 * where rounding toward -inf takes one step more than truncation */
static Value *
past_zero(L *l, Type *ct, Value *r, Value *b)
{
	Type *bt = dt_bool(l->c);

	return ar(l, "and", bt, cmp(l, "ne", ct, r, K(0)),
		ar(l, "xor", bt, cmp(l, "lt", ct, r, K(0)), cmp(l, "lt", ct, b, K(0))));
}

/* Float floor division as PyTorch computes it (div_floor_floating):
 * from fmod, so that the exact quotient is rounded down -- floor(a / b)
 * rounds the rounded quotient (1 // 0.1 is 9, not 10) and leaves an
 * infinite a infinite where PyTorch's fmod makes it NaN.  b == 0: a / b. */
static Value *
floor_divf(L *l, Type *ct, Value *a, Value *b)
{
	Value *q = bin(l, "arith.divf", a, b);
	Value *mod = bin(l, "arith.remf", a, b);
	Value *div = bin(l, "arith.divf", ar(l, "sub", ct, a, mod), b);
	Value *fl, *r;

	div = sel(l, past_zero(l, ct, mod, b), ar(l, "sub", ct, div, K(1)), div);
	fl = un(l, "math.floor", div);
	fl = sel(l, cmp(l, "gt", ct, ar(l, "sub", ct, div, fl), K(0.5)), ar(l, "add", ct, fl, K(1)), fl);
	r = sel(l, cmp(l, "ne", ct, div, K(0)), fl, bin(l, "math.copysign", K(0), q));
	return sel(l, cmp(l, "eq", ct, b, K(0)), q, r);
}

BODY(b_div_mode)
{
	const char *mode = "";
	Value *a = X(0), *b = X(1);

	if (op->nopnds > 2)
		tv_str(S(2), &mode);   /* none: true division */

	if (dt_isfloat(ct) && !strcmp(mode, "floor"))
		return floor_divf(l, ct, a, b);
	if (dt_isfloat(ct)) {
		Value *q = bin(l, "arith.divf", a, b);
		if (!strcmp(mode, "trunc"))
			return un(l, "math.trunc", q);
		return q;
	}
	if (!strcmp(mode, "floor") && !dt_isunsigned(ct))
		return bin(l, "arith.floordivsi", a, b);
	return ar(l, "div", ct, a, b);
}

/* Python's a % b: the sign of b */
BODY(b_remainder)
{
	Value *a = X(0), *b = X(1), *r;

	if (dt_isunsigned(ct))
		return bin(l, "arith.remui", a, b);
	r = bin(l, dt_isfloat(ct) ? "arith.remf" : "arith.remsi", a, b);
	return sel(l, past_zero(l, ct, r, b), ar(l, "add", ct, r, b), r);
}

BODY(b_fmod)
{
	if (dt_isfloat(ct))
		return bin(l, "arith.remf", X(0), X(1));
	return bin(l, dt_isunsigned(ct) ? "arith.remui" : "arith.remsi", X(0), X(1));
}

BODY(b_atan2) { return bin(l, "math.atan2", X(0), X(1)); }
BODY(b_cmp) { return cmp(l, e->fop, ct, X(0), X(1)); }
BODY(b_logical) { return ar(l, e->fop, dt_bool(l->c), X(0), X(1)); }

BODY(b_where) { return sel(l, X(0), X(1), X(2)); }
BODY(b_masked_fill) { return sel(l, X(1), X(2), X(0)); }

BODY(b_lerp)
{
	/* weight < 0.5 ? self + weight (end - self) : end - (end - self) (1 - weight) */
	Value *s = X(0), *en = X(1), *w = X(2);
	Value *d = ar(l, "sub", ct, en, s);
	Value *lo = ar(l, "add", ct, s, ar(l, "mul", ct, w, d));
	Value *hi = ar(l, "sub", ct, en, ar(l, "mul", ct, d, ar(l, "sub", ct, K(1), w)));
	return sel(l, cmpf(l, "olt", un(l, "math.absf", w), K(0.5)), lo, hi);
}

BODY(b_addcmul)
{
	Value *p = ar(l, "mul", ct, ar(l, "mul", ct, X(3), X(1)), X(2));
	return ar(l, "add", ct, X(0), p);
}

BODY(b_addcdiv)
{
	Value *p = ar(l, "div", ct, ar(l, "mul", ct, X(3), X(1)), X(2));
	return ar(l, "add", ct, X(0), p);
}

static const Ew rows[] = {
	/* unary */
	{"torch.aten.neg", b_neg},
	{"torch.aten.abs", b_abs},
	{"torch.aten.exp", b_math, .fop = "math.exp"},
	{"torch.aten.expm1", b_math, .fop = "math.expm1"},
	{"torch.aten.log", b_math, .fop = "math.log"},
	{"torch.aten.log1p", b_math, .fop = "math.log1p"},
	{"torch.aten.log2", b_math, .fop = "math.log2"},
	{"torch.aten.sqrt", b_math, .fop = "math.sqrt"},
	{"torch.aten.rsqrt", b_math, .fop = "math.rsqrt"},
	{"torch.aten.sin", b_math, .fop = "math.sin"},
	{"torch.aten.cos", b_math, .fop = "math.cos"},
	{"torch.aten.tan", b_math, .fop = "math.tan"},
	{"torch.aten.tanh", b_math, .fop = "math.tanh"},
	{"torch.aten.erf", b_math, .fop = "math.erf"},
	{"torch.aten.reciprocal", b_reciprocal},
	{"torch.aten.sigmoid", b_sigmoid},
	{"torch.aten.floor", b_round, .fop = "math.floor"},
	{"torch.aten.ceil", b_round, .fop = "math.ceil"},
	{"torch.aten.round", b_round, .fop = "math.roundeven"},
	{"torch.aten.trunc", b_round, .fop = "math.trunc"},
	{"torch.aten.sign", b_sign},
	{"torch.aten.relu", b_relu},
	{"torch.aten.gelu", b_gelu},
	{"torch.aten.silu", b_silu},
	{"torch.aten.logical_not", b_logical_not, M_PROMOTE, 1},
	{"torch.aten.bitwise_not", b_bitwise_not},
	{"torch.aten.clamp", b_clamp},
	{"torch.aten.clamp.Tensor", b_clamp},
	{"torch.aten.clamp_min", b_clamp},
	{"torch.aten.clamp_max", b_clamp_max},
	{"torch.aten.threshold", b_threshold},
	{"torch.aten.leaky_relu", b_leaky_relu},
	{"torch.aten.elu", b_elu},
	{"torch.aten.softplus", b_softplus},
	{"torch.aten.pow.Tensor_Scalar", b_pow_ts},
	{"torch.aten.pow.Tensor_Tensor", b_pow},
	{"torch.aten.pow.Scalar", b_pow},
	{"torch.aten.hardtanh", b_hardtanh},
	{"torch.aten.hardsigmoid", b_hardsigmoid},
	{"torch.aten.hardswish", b_hardswish},
	{"torch.aten.mish", b_mish},
	{"torch.aten.relu6", b_relu6},
	{"torch.aten.isnan", b_isnan, M_PROMOTE, 1},
	{"torch.aten.isinf", b_isinf, M_PROMOTE, 1},
	{"torch.aten.signbit", b_signbit, M_PROMOTE, 1},
	/* binary and ternary */
	{"torch.aten.add.Tensor", b_add},
	{"torch.aten.add.Scalar", b_add},
	{"torch.aten.sub.Tensor", b_sub},
	{"torch.aten.sub.Scalar", b_sub},
	{"torch.aten.rsub.Scalar", b_rsub},
	{"torch.aten.mul.Tensor", b_ar, .fop = "mul"},
	{"torch.aten.mul.Scalar", b_ar, .fop = "mul"},
	{"torch.aten.div.Tensor", b_ar, .fop = "div"},
	{"torch.aten.div.Scalar", b_ar, .fop = "div"},
	{"torch.aten.div.Tensor_mode", b_div_mode},
	{"torch.aten.div.Scalar_mode", b_div_mode},
	{"torch.aten.remainder.Tensor", b_remainder},
	{"torch.aten.remainder.Scalar", b_remainder},
	{"torch.aten.fmod.Tensor", b_fmod},
	{"torch.aten.fmod.Scalar", b_fmod},
	{"torch.aten.atan2", b_atan2},
	{"torch.aten.maximum", b_ar, .fop = "max"},
	{"torch.aten.minimum", b_ar, .fop = "min"},
	{"torch.aten.eq.Tensor", b_cmp, M_PROMOTE, 2, .fop = "eq"},
	{"torch.aten.eq.Scalar", b_cmp, M_PROMOTE, 2, .fop = "eq"},
	{"torch.aten.ne.Tensor", b_cmp, M_PROMOTE, 2, .fop = "ne"},
	{"torch.aten.ne.Scalar", b_cmp, M_PROMOTE, 2, .fop = "ne"},
	{"torch.aten.lt.Tensor", b_cmp, M_PROMOTE, 2, .fop = "lt"},
	{"torch.aten.lt.Scalar", b_cmp, M_PROMOTE, 2, .fop = "lt"},
	{"torch.aten.le.Tensor", b_cmp, M_PROMOTE, 2, .fop = "le"},
	{"torch.aten.le.Scalar", b_cmp, M_PROMOTE, 2, .fop = "le"},
	{"torch.aten.gt.Tensor", b_cmp, M_PROMOTE, 2, .fop = "gt"},
	{"torch.aten.gt.Scalar", b_cmp, M_PROMOTE, 2, .fop = "gt"},
	{"torch.aten.ge.Tensor", b_cmp, M_PROMOTE, 2, .fop = "ge"},
	{"torch.aten.ge.Scalar", b_cmp, M_PROMOTE, 2, .fop = "ge"},
	{"torch.aten.logical_and", b_logical, .boolmask = 3, .fop = "and"},
	{"torch.aten.logical_or", b_logical, .boolmask = 3, .fop = "or"},
	{"torch.aten.logical_xor", b_logical, .boolmask = 3, .fop = "xor"},
	{"torch.aten.bitwise_and.Tensor", b_ar, .fop = "and"},
	{"torch.aten.bitwise_or.Tensor", b_ar, .fop = "or"},
	{"torch.aten.bitwise_xor.Tensor", b_ar, .fop = "xor"},
	{"torch.aten.where.self", b_where, .boolmask = 1},
	{"torch.aten.where.Scalar", b_where, .boolmask = 1},
	{"torch.aten.where.ScalarSelf", b_where, .boolmask = 1},
	{"torch.aten.where.ScalarOther", b_where, .boolmask = 1},
	{"torch.aten.masked_fill.Scalar", b_masked_fill, .boolmask = 2},
	{"torch.aten.masked_fill.Tensor", b_masked_fill, .boolmask = 2},
	{"torch.aten.lerp.Tensor", b_lerp},
	{"torch.aten.lerp.Scalar", b_lerp},
	{"torch.aten.addcmul", b_addcmul},
	{"torch.aten.addcdiv", b_addcdiv},
	{NULL, NULL},
};

/* Pass-only rows (convert-torch-to-linalg, pass_view.c): ops the
 * torch-lower tool does not take, lowered in torch-mlir's form. */

/* >> as PyTorch's: arithmetic on signed, logical on unsigned; a shift by
 * the width or more (or a negative one) gives the sign fill or 0, as
 * PyTorch's kernel clamps (arith's shift is poison there, so the select
 * takes the clamped value instead) */
BODY(b_shr)
{
	int w = ct->width, u = dt_isunsigned(ct);
	Value *r = bin(l, u ? "arith.shrui" : "arith.shrsi", x[0], X(1)), *fill;

	fill = u ? K(0) : bin(l, "arith.shrsi", x[0], K(w - 1));
	return sel(l, cmpi(l, "ult", X(1), K(w)), r, fill);
}

static const Ew pass_rows[] = {
	{"torch.aten.sinh", b_math, .fop = "math.sinh"},
	{"torch.aten.cosh", b_math, .fop = "math.cosh"},
	{"torch.aten.__rshift__.Scalar", b_shr},
	{"torch.aten.bitwise_right_shift.Tensor", b_shr},
	{NULL, NULL},
};

const Row ew_pass_table[] = {
	{"torch.aten.sinh", lower_ew, &pass_rows[0]},
	{"torch.aten.cosh", lower_ew, &pass_rows[1]},
	{"torch.aten.__rshift__.Scalar", lower_ew, &pass_rows[2]},
	{"torch.aten.bitwise_right_shift.Tensor", lower_ew, &pass_rows[3]},
	{NULL, NULL, NULL},
};

const OpTable ew_optables[] = {OPTABLE("elementwise lowering", rows, ""), {NULL}};

const void *
ew_lookup(const char *name)
{
	const Ew *e;

	for (e = rows; e->name; e++)
		if (!strcmp(e->name, name))
			return e;
	return NULL;
}

const char *
ew_name(int i)
{
	return i < (int)(sizeof rows / sizeof *rows) ? rows[i].name : NULL;
}

/* PyTorch's result_type of the first nargs operands, lib/torch's as
 * torch-opt infers it; a tensor's torch type may be kept aside (ttype). */
static Type *
result_type(L *l, Op *op, int nargs)
{
	Promo p = {0};
	int i;

	for (i = 0; i < nargs && i < op->nopnds; i++) {
		Value *v = OPND(op, i);
		if (is_tensor(l, v))
			promo_add_type(l->c, &p, ttype(l, v));
		else
			promo_add(l->c, &p, v);
	}
	return promo_result(l->c, &p);
}

int
lower_ew(L *l, Op *op, const void *arg)
{
	const Ew *e = arg;
	Ctx *c = l->c;
	Type *rtt = op->res[0].type, *bt = btensor(c, rtt), *rt, *ct;
	int n = op->nopnds, nin = 0, i, k;
	Value *ins[n + 1], *x[n + 1], *out, *like = NULL, *r;
	AffMap *maps[n + 2];
	int slot[n + 1];
	Gen g;

	if (!bt) {
		op_error(op, "torch-lower: '%s' needs a ranked result with a dtype", op->name);
		return -1;
	}
	rt = rtt->elem;
	ct = e->mode == M_PROMOTE ? result_type(l, op, e->nargs) : rt;
	if (!ct) {
		op_error(op, "torch-lower: '%s' needs operands of known dtypes", op->name);
		return -1;
	}
	ct = dt_opmath(c, ct);
	if (dt_isfloat(ct) && (e->body == b_bitwise_not || !strncmp(op->name, "torch.aten.bitwise_", 19))) {
		op_error(op, "torch-lower: '%s' is only defined for integer and bool tensors",
			op->name);
		return -1;
	}
	if (e->body == b_shr && (ct->kind != TY_INT || ct->width < 8)) {
		op_error(op, "torch-lower: '%s' is only defined for integer tensors", op->name);
		return -1;
	}
	for (i = 0; i < n; i++) {
		Value *v = OPND(op, i);
		slot[i] = -1;
		x[i] = NULL;
		if (!is_tensor(l, v))
			continue;
		Type *t = ttype(l, v);
		int bad = !t->ranked || t->rank > bt->rank;
		/* dims align to the right: each is the result's or 1 */
		for (k = 0; !bad && k < t->rank; k++) {
			int64_t a = t->dims[k], r_ = bt->dims[bt->rank - t->rank + k];
			bad = a != r_ && a != 1 && a != DYN && r_ != DYN;
		}
		if (bad) {
			op_error(op, "torch-lower: operand %d of '%s' does not broadcast", i, op->name);
			return -1;
		}
		slot[i] = nin;
		ins[nin] = get(l, v);
		maps[nin++] = map_bcast(l, bt->rank, t, bt);
		if (t->rank == bt->rank && !like)
			like = ins[nin - 1];
	}
	maps[nin] = map_id(l, bt->rank);
	if (!(out = l->pass ? pass_view_ew_empty(l, nin, ins, bt) : empty(l, bt, like)))
		return -1;
	gen_begin(l, &g, nin, ins, 1, &out, maps, bt->rank, NULL);
	for (i = 0; i < n; i++) {
		if (slot[i] < 0)
			continue;
		k = slot[i];
		x[i] = cv(l, g.arg[k], dtype_of(l, OPND(op, i)),
			(e->boolmask >> i) & 1 ? dt_bool(c) : ct);
	}
	for (i = 0; i < n; i++)
		if (((e->boolmask >> i) & 1) && !x[i])
			x[i] = cst_of(l, OPND(op, i), dt_bool(c));
	r = e->body(l, e, op, x, ct);
	r = cv(l, r, r->type->kind == TY_INT && r->type->width == 1 ? dt_bool(c) : ct, rt);
	set(l, RES(op, 0), gen_end(l, &g, 1, &r));
	return 0;
}
