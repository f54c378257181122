/*
 * fold.c - the op table's fold hooks (FoldFn): constant folding of arith,
 * tensor and torch scalar ops, and the classic canonicalizations that
 * replace an op by a value it already has (x + 0 -> x, select %true ...).
 *
 * A hook reads constant operands through value_const(), fills outv[i]
 * with an existing value or outa[i] with a constant attribute, and returns
 * 1; rewrite.c's fold_op() materializes the attributes.  A hook never
 * changes the IR itself.  Integer constants are kept by at_int() in their
 * type's range, so folds compute in 64 bits and let at_int() wrap.
 */
#include <math.h>
#include <string.h>

#include "fold.h"
#include "optable.h"
#include "verify.h"


static int
num_of_attr(const Attr *a, Num *n)
{
	if (!a)
		return 0;
	n->isf = a->kind == AT_FLOAT;
	if (a->kind == AT_INT || a->kind == AT_FLOAT) {
		n->i = a->i;
		n->f = a->f;
		return 1;
	}
	if (a->kind != AT_DENSE || !a->splat || !a->type || !a->type->elem)
		return 0;
	n->isf = ty_isfloat(a->type->elem);
	if (!n->isf && !ty_isintlike(a->type->elem))
		return 0;
	n->i = n->isf ? 0 : dense_get_i(a, 0);
	n->f = n->isf ? dense_get_f(a, 0) : 0;
	return 1;
}

static int
num_of(Value *v, Num *n)
{
	return num_of_attr(value_const(v), n);
}

/* The scalar type behind a scalar or shaped builtin type. */
static Type *
scalar_type(Type *t)
{
	return t && (t->kind == TY_TENSOR || t->kind == TY_VECTOR) ? t->elem : t;
}

static Attr *
splat_of(Ctx *c, Type *t, uint64_t bits)
{
	uint8_t b[8];
	size_t n = elem_size(t->elem), i;

	if (!ty_static(t) || n == 0 || n > 8)
		return NULL;
	for (i = 0; i < n; i++)
		b[i] = (uint8_t)(bits >> (8 * i));
	return at_dense(c, t, b, n, 1);
}

/* A constant of type t (scalar, or a splat of a static shaped type). */
static Attr *
num_attr(Ctx *c, Type *t, Num n)
{
	Type *s = scalar_type(t);
	uint64_t bits;

	if (!s || n.isf != ty_isfloat(s) || (!n.isf && !ty_isintlike(s)))
		return NULL;
	if (s == t)
		return n.isf ? at_float(c, n.f, t) : at_int(c, n.i, t);
	bits = n.isf ? fp_bits(n.f, s) : (uint64_t)n.i;
	if (s->kind == TY_INT && s->width == 1)
		bits &= 1;
	return splat_of(c, t, bits);
}

static Num
inum(int64_t i)
{
	return (Num){0, i, 0};
}

static Num
fnum(double f)
{
	return (Num){1, 0, f};
}

/* Sign- and zero-extension of the low w bits. */
static int64_t
sx(uint64_t v, int w)
{
	if (w >= 64)
		return (int64_t)v;
	v &= (1ull << w) - 1;
	return (v >> (w - 1)) & 1 ? (int64_t)(v | ~((1ull << w) - 1)) : (int64_t)v;
}

static uint64_t
zx(uint64_t v, int w)
{
	return w >= 64 ? v : v & ((1ull << w) - 1);
}

static int
width_of(Value *v)
{
	Type *s = scalar_type(v->type);

	return s && ty_isintlike(s) ? ty_bitwidth(s) : 64;
}

/* ---- arith integer binary ops ---- */

typedef int (*IntEval)(uint64_t a, uint64_t b, int w, uint64_t *r);

static int ev_addi(uint64_t a, uint64_t b, int w, uint64_t *r) { (void)w; *r = a + b; return 1; }
static int ev_subi(uint64_t a, uint64_t b, int w, uint64_t *r) { (void)w; *r = a - b; return 1; }
static int ev_muli(uint64_t a, uint64_t b, int w, uint64_t *r) { (void)w; *r = a * b; return 1; }
static int ev_andi(uint64_t a, uint64_t b, int w, uint64_t *r) { (void)w; *r = a & b; return 1; }
static int ev_ori(uint64_t a, uint64_t b, int w, uint64_t *r) { (void)w; *r = a | b; return 1; }
static int ev_xori(uint64_t a, uint64_t b, int w, uint64_t *r) { (void)w; *r = a ^ b; return 1; }

/* Signed division overflows only for INT_MIN / -1. */
static int
sdiv_ok(uint64_t a, uint64_t b, int w)
{
	return zx(b, w) != 0 && !(sx(a, w) == sx(1ull << (w - 1), w) && sx(b, w) == -1);
}

static int
ev_divsi(uint64_t a, uint64_t b, int w, uint64_t *r)
{
	if (!sdiv_ok(a, b, w))
		return 0;
	*r = (uint64_t)(sx(a, w) / sx(b, w));
	return 1;
}

static int
ev_divui(uint64_t a, uint64_t b, int w, uint64_t *r)
{
	if (!zx(b, w))
		return 0;
	*r = zx(a, w) / zx(b, w);
	return 1;
}

static int
ev_remsi(uint64_t a, uint64_t b, int w, uint64_t *r)
{
	if (!zx(b, w))
		return 0;
	*r = sx(b, w) == -1 ? 0 : (uint64_t)(sx(a, w) % sx(b, w));
	return 1;
}

static int
ev_remui(uint64_t a, uint64_t b, int w, uint64_t *r)
{
	if (!zx(b, w))
		return 0;
	*r = zx(a, w) % zx(b, w);
	return 1;
}

static int
ev_floordivsi(uint64_t a, uint64_t b, int w, uint64_t *r)
{
	int64_t x = sx(a, w), y = sx(b, w), q;

	if (!sdiv_ok(a, b, w))
		return 0;
	q = x / y;
	if (x % y && (x < 0) != (y < 0))
		q--;
	*r = (uint64_t)q;
	return 1;
}

static int
ev_ceildivsi(uint64_t a, uint64_t b, int w, uint64_t *r)
{
	int64_t x = sx(a, w), y = sx(b, w), q;

	if (!sdiv_ok(a, b, w))
		return 0;
	q = x / y;
	if (x % y && (x < 0) == (y < 0))
		q++;
	*r = (uint64_t)q;
	return 1;
}

static int
ev_ceildivui(uint64_t a, uint64_t b, int w, uint64_t *r)
{
	if (!zx(b, w))
		return 0;
	*r = zx(a, w) / zx(b, w) + (zx(a, w) % zx(b, w) != 0);
	return 1;
}

static int
ev_maxsi(uint64_t a, uint64_t b, int w, uint64_t *r)
{
	*r = sx(a, w) > sx(b, w) ? a : b;
	return 1;
}

static int
ev_minsi(uint64_t a, uint64_t b, int w, uint64_t *r)
{
	*r = sx(a, w) < sx(b, w) ? a : b;
	return 1;
}

static int
ev_maxui(uint64_t a, uint64_t b, int w, uint64_t *r)
{
	*r = zx(a, w) > zx(b, w) ? a : b;
	return 1;
}

static int
ev_minui(uint64_t a, uint64_t b, int w, uint64_t *r)
{
	*r = zx(a, w) < zx(b, w) ? a : b;
	return 1;
}

/* Shifts by the width or more are poison: no fold. */
static int
ev_shli(uint64_t a, uint64_t b, int w, uint64_t *r)
{
	if (zx(b, w) >= (uint64_t)w)
		return 0;
	*r = a << zx(b, w);
	return 1;
}

static int
ev_shrui(uint64_t a, uint64_t b, int w, uint64_t *r)
{
	if (zx(b, w) >= (uint64_t)w)
		return 0;
	*r = zx(a, w) >> zx(b, w);
	return 1;
}

static int
ev_shrsi(uint64_t a, uint64_t b, int w, uint64_t *r)
{
	int64_t x = sx(a, w);
	uint64_t s = zx(b, w);

	if (s >= (uint64_t)w)
		return 0;
	*r = x < 0 ? ~(~(uint64_t)x >> s) : (uint64_t)x >> s;
	return 1;
}

/* Patterns on one constant operand (rhs, or either for COMM). */
enum {
	COMM = 1 << 0,        /* commutative: look at the lhs too */
	ID_ZERO = 1 << 1,     /* x op 0 -> x */
	ID_ONE = 1 << 2,      /* x op 1 -> x */
	ID_ONES = 1 << 3,     /* x op -1 -> x */
	ABS_ZERO = 1 << 4,    /* x op 0 -> 0 */
	ABS_ONES = 1 << 5,    /* x op -1 -> -1 */
	ONE_ZERO = 1 << 6,    /* x op 1 -> 0 */
	SAME_X = 1 << 7,      /* x op x -> x */
	SAME_ZERO = 1 << 8,   /* x op x -> 0 */
	ABSORB = 1 << 9,      /* x op (x op y) -> x op y (idempotent op) */
};

typedef struct IntRule {
	const char *op;
	IntEval eval;
	unsigned pat;
} IntRule;

static const IntRule int_rules[] = {
	{"arith.addi", ev_addi, COMM | ID_ZERO},
	{"arith.subi", ev_subi, ID_ZERO | SAME_ZERO},
	{"arith.muli", ev_muli, COMM | ID_ONE | ABS_ZERO},
	{"arith.divsi", ev_divsi, ID_ONE},
	{"arith.divui", ev_divui, ID_ONE},
	{"arith.floordivsi", ev_floordivsi, ID_ONE},
	{"arith.ceildivsi", ev_ceildivsi, ID_ONE},
	{"arith.ceildivui", ev_ceildivui, ID_ONE},
	{"arith.remsi", ev_remsi, ONE_ZERO},
	{"arith.remui", ev_remui, ONE_ZERO},
	{"arith.andi", ev_andi, COMM | ID_ONES | ABS_ZERO | SAME_X | ABSORB},
	{"arith.ori", ev_ori, COMM | ID_ZERO | ABS_ONES | SAME_X | ABSORB},
	{"arith.xori", ev_xori, COMM | ID_ZERO | SAME_ZERO},
	{"arith.maxsi", ev_maxsi, COMM | SAME_X | ABSORB},
	{"arith.minsi", ev_minsi, COMM | SAME_X | ABSORB},
	{"arith.maxui", ev_maxui, COMM | SAME_X | ABSORB},
	{"arith.minui", ev_minui, COMM | SAME_X | ABSORB},
	{"arith.shli", ev_shli, ID_ZERO},
	{"arith.shrui", ev_shrui, ID_ZERO},
	{"arith.shrsi", ev_shrsi, ID_ZERO},
	{NULL, NULL, 0},
};

static const IntRule *
int_rule(const Op *op)
{
	const IntRule *r;

	for (r = int_rules; r->op; r++)
		if (!strcmp(r->op, op->name))
			return r;
	return NULL;
}

static int
fold_zero(Ctx *c, Op *op, Attr **outa)
{
	outa[0] = num_attr(c, RES(op, 0)->type, inum(0));
	return outa[0] != NULL;
}

/* x op k with k constant: the patterns of pat that apply.  The result is
 * x, or the constant operand k itself, or a new zero. */
static int
int_pattern(Ctx *c, Op *op, unsigned pat, Value *x, Value *k, Value **outv,
	Attr **outa)
{
	Num n;
	int w = width_of(k);
	uint64_t v, ones = zx(~0ull, w);

	if (!num_of(k, &n) || n.isf)
		return 0;
	v = zx((uint64_t)n.i, w);
	if (((pat & ID_ZERO) && v == 0) || ((pat & ID_ONE) && v == 1)
	    || ((pat & ID_ONES) && v == ones))
		return (outv[0] = x) != NULL;
	if (((pat & ABS_ZERO) && v == 0) || ((pat & ABS_ONES) && v == ones))
		return (outv[0] = k) != NULL;
	if ((pat & ONE_ZERO) && v == 1)
		return fold_zero(c, op, outa);
	return 0;
}

/* For an idempotent, commutative, associative op: x op (x op y) and
 * (x op y) op x are x op y. */
static Value *
absorb(const Op *op, Value *x, Value *y)
{
	Op *dy = y->def, *dx = x->def;

	if (dy && dy->name == op->name && (OPND(dy, 0) == x || OPND(dy, 1) == x))
		return y;
	if (dx && dx->name == op->name && (OPND(dx, 0) == y || OPND(dx, 1) == y))
		return x;
	return NULL;
}

/* addi(subi(a, b), b) and addi(b, subi(a, b)) are a; subi(addi(a, b), b)
 * is a and subi(addi(a, b), a) is b. */
static Value *
add_sub_inverse(const Op *op, Value *x, Value *y)
{
	Op *dx = x->def, *dy = y->def;

	if (op_is(op, "arith.addi")) {
		if (op_is(dx, "arith.subi") && OPND(dx, 1) == y)
			return OPND(dx, 0);
		if (op_is(dy, "arith.subi") && OPND(dy, 1) == x)
			return OPND(dy, 0);
	} else if (op_is(op, "arith.subi") && op_is(dx, "arith.addi")) {
		if (OPND(dx, 1) == y)
			return OPND(dx, 0);
		if (OPND(dx, 0) == y)
			return OPND(dx, 1);
	}
	return NULL;
}

static int
fold_int_binary(Ctx *c, Op *op, Value **outv, Attr **outa)
{
	const IntRule *r = int_rule(op);
	Value *x = OPND(op, 0), *y = OPND(op, 1);
	Num a, b;
	uint64_t v;

	if (!r || op->nopnds != 2 || op->nres != 1)
		return 0;
	if (num_of(x, &a) && num_of(y, &b) && !a.isf && !b.isf) {
		if (!r->eval((uint64_t)a.i, (uint64_t)b.i, width_of(x), &v))
			return 0;
		outa[0] = num_attr(c, RES(op, 0)->type, inum((int64_t)v));
		return outa[0] != NULL;
	}
	if (x == y && (r->pat & SAME_X))
		return (outv[0] = x) != NULL;
	if (x == y && (r->pat & SAME_ZERO))
		return fold_zero(c, op, outa);
	if ((outv[0] = add_sub_inverse(op, x, y)))
		return 1;
	if ((r->pat & ABSORB) && (outv[0] = absorb(op, x, y)))
		return 1;
	if (int_pattern(c, op, r->pat, x, y, outv, outa))
		return 1;
	return (r->pat & COMM) && int_pattern(c, op, r->pat, y, x, outv, outa);
}

/* ---- arith float binary ops ---- */

typedef double (*FloatEval)(double a, double b);

static double fe_add(double a, double b) { return a + b; }
static double fe_sub(double a, double b) { return a - b; }
static double fe_mul(double a, double b) { return a * b; }
static double fe_div(double a, double b) { return a / b; }
static double fe_rem(double a, double b) { return fmod(a, b); }

/* maxf/minf propagate NaN and order -0.0 below +0.0. */
static double
fe_max(double a, double b)
{
	if (isnan(a) || isnan(b))
		return isnan(a) ? a : b;
	if (a == b)
		return signbit(a) ? b : a;
	return a > b ? a : b;
}

static double
fe_min(double a, double b)
{
	if (isnan(a) || isnan(b))
		return isnan(a) ? a : b;
	if (a == b)
		return signbit(a) ? a : b;
	return a < b ? a : b;
}

enum {
	FID_NEGZERO = 1 << 9,  /* x op -0.0 -> x */
	FID_POSZERO = 1 << 10, /* x op +0.0 -> x */
	FID_ONE = 1 << 11,     /* x op 1.0 -> x */
};

typedef struct FloatRule {
	const char *op;
	FloatEval eval;
	unsigned pat;
} FloatRule;

static const FloatRule float_rules[] = {
	{"arith.addf", fe_add, COMM | FID_NEGZERO},
	{"arith.subf", fe_sub, FID_POSZERO},
	{"arith.mulf", fe_mul, COMM | FID_ONE},
	{"arith.divf", fe_div, FID_ONE},
	{"arith.remf", fe_rem, 0},
	{"arith.maxf", fe_max, COMM | SAME_X},
	{"arith.minf", fe_min, COMM | SAME_X},
	{NULL, NULL, 0},
};

static const FloatRule *
float_rule(const Op *op)
{
	const FloatRule *r;

	for (r = float_rules; r->op; r++)
		if (!strcmp(r->op, op->name))
			return r;
	return NULL;
}

static int
float_pattern(unsigned pat, Value *x, Value *k, Value **outv)
{
	Num n;

	if (!num_of(k, &n) || !n.isf)
		return 0;
	if (((pat & FID_NEGZERO) && n.f == 0 && signbit(n.f))
	    || ((pat & FID_POSZERO) && n.f == 0 && !signbit(n.f))
	    || ((pat & FID_ONE) && n.f == 1))
		return (outv[0] = x) != NULL;
	return 0;
}

/* Like APFloat: a NaN operand propagates, a new NaN is the positive
 * quiet one (the host may make it negative). */
static double
float_eval(FloatEval eval, double a, double b)
{
	double r = eval(a, b);

	if (!isnan(r))
		return r;
	return isnan(a) ? a : isnan(b) ? b : NAN;
}

static int
fold_float_binary(Ctx *c, Op *op, Value **outv, Attr **outa)
{
	const FloatRule *r = float_rule(op);
	Value *x = OPND(op, 0), *y = OPND(op, 1);
	Num a, b;

	if (!r || op->nopnds != 2 || op->nres != 1)
		return 0;
	if (num_of(x, &a) && num_of(y, &b) && a.isf && b.isf) {
		outa[0] = num_attr(c, RES(op, 0)->type, fnum(float_eval(r->eval, a.f, b.f)));
		return outa[0] != NULL;
	}
	if (x == y && (r->pat & SAME_X))
		return (outv[0] = x) != NULL;
	if (float_pattern(r->pat, x, y, outv))
		return 1;
	return (r->pat & COMM) && float_pattern(r->pat, y, x, outv);
}

/* ---- comparisons ---- */

/* Outcomes as bits; a predicate is the set of outcomes it accepts. */
enum { EQ = 1, GT = 2, LT = 4, UNO = 8, SIGNED_CMP = 16 };

static const struct {
	const char *name;
	unsigned set;
} cmpi_preds[] = {   /* arith::CmpIPredicate order */
	{"eq", EQ}, {"ne", LT | GT},
	{"slt", SIGNED_CMP | LT}, {"sle", SIGNED_CMP | LT | EQ},
	{"sgt", SIGNED_CMP | GT}, {"sge", SIGNED_CMP | GT | EQ},
	{"ult", LT}, {"ule", LT | EQ}, {"ugt", GT}, {"uge", GT | EQ},
}, cmpf_preds[] = {  /* arith::CmpFPredicate order */
	{"false", 0}, {"oeq", EQ}, {"ogt", GT}, {"oge", GT | EQ},
	{"olt", LT}, {"ole", LT | EQ}, {"one", LT | GT}, {"ord", LT | GT | EQ},
	{"ueq", UNO | EQ}, {"ugt", UNO | GT}, {"uge", UNO | GT | EQ},
	{"ult", UNO | LT}, {"ule", UNO | LT | EQ}, {"une", UNO | LT | GT},
	{"uno", UNO}, {"true", UNO | LT | GT | EQ},
};

/* The predicate attribute, as an enum number or its keyword. */
static int
pred_set(const Op *op, int cmpf, unsigned *set)
{
	Attr *a = op_attr(op, "predicate");
	size_t i, n = cmpf ? sizeof cmpf_preds / sizeof *cmpf_preds
	    : sizeof cmpi_preds / sizeof *cmpi_preds;

	for (i = 0; a && i < n; i++) {
		const char *name = cmpf ? cmpf_preds[i].name : cmpi_preds[i].name;
		if ((a->kind == AT_INT && a->i == (int64_t)i)
		    || (a->kind == AT_STR && !strcmp(a->s, name))) {
			*set = cmpf ? cmpf_preds[i].set : cmpi_preds[i].set;
			return 1;
		}
	}
	return 0;
}

static unsigned
outcome_i(uint64_t a, uint64_t b, int w, int sgn)
{
	if (sgn)
		return sx(a, w) < sx(b, w) ? LT : sx(a, w) > sx(b, w) ? GT : EQ;
	return zx(a, w) < zx(b, w) ? LT : zx(a, w) > zx(b, w) ? GT : EQ;
}

static unsigned
outcome_f(double a, double b)
{
	return isnan(a) || isnan(b) ? UNO : a < b ? LT : a > b ? GT : EQ;
}

static int
fold_bool(Ctx *c, Op *op, int v, Attr **outa)
{
	outa[0] = num_attr(c, RES(op, 0)->type, inum(v != 0));
	return outa[0] != NULL;
}

static int
fold_cmpi(Ctx *c, Op *op, Value **outv, Attr **outa)
{
	Num a, b;
	unsigned set;
	int sgn;

	(void)outv;
	if (op->nopnds != 2 || !pred_set(op, 0, &set))
		return 0;
	sgn = (set & SIGNED_CMP) != 0;
	if (OPND(op, 0) == OPND(op, 1))
		return fold_bool(c, op, set & EQ, outa);
	if (!num_of(OPND(op, 0), &a) || !num_of(OPND(op, 1), &b) || a.isf || b.isf)
		return 0;
	return fold_bool(c, op, set & outcome_i((uint64_t)a.i, (uint64_t)b.i,
	    width_of(OPND(op, 0)), sgn), outa);
}

static int
fold_cmpf(Ctx *c, Op *op, Value **outv, Attr **outa)
{
	Num a, b;
	unsigned set;

	(void)outv;
	if (op->nopnds != 2 || !pred_set(op, 1, &set))
		return 0;
	if (set == 0 || set == (UNO | LT | GT | EQ))
		return fold_bool(c, op, set != 0, outa);
	if (!num_of(OPND(op, 0), &a) || !num_of(OPND(op, 1), &b) || !a.isf || !b.isf)
		return 0;
	return fold_bool(c, op, set & outcome_f(a.f, b.f), outa);
}

/* select (cmpi eq, a, b), a, b is b; with ne it is a. */
static Value *
select_of_compare(Value *cond, Value *t, Value *f)
{
	Op *cmp = cond->def;
	Attr *p;

	if (!op_is(cmp, "arith.cmpi") || cmp->nopnds != 2
	    || !(p = op_attr(cmp, "predicate")) || p->kind != AT_INT || p->i > 1)
		return NULL;
	if (!((OPND(cmp, 0) == t && OPND(cmp, 1) == f)
	    || (OPND(cmp, 0) == f && OPND(cmp, 1) == t)))
		return NULL;
	return p->i == 1 ? t : f;
}

/* select %c, %a, %b: a known condition picks an arm; equal arms are the
 * arm; select %c, true, false is %c. */
static int
fold_select(Ctx *c, Op *op, Value **outv, Attr **outa)
{
	Value *cond = OPND(op, 0), *t = OPND(op, 1), *f = OPND(op, 2);
	Num n, tn, fn;

	(void)c, (void)outa;
	if (op->nopnds != 3)
		return 0;
	if (t == f)
		return (outv[0] = t) != NULL;
	if ((outv[0] = select_of_compare(cond, t, f)))
		return 1;
	if (num_of(cond, &n) && !n.isf && cond->type == scalar_type(cond->type))
		return (outv[0] = n.i ? t : f) != NULL;
	if (cond->type == RES(op, 0)->type && num_of(t, &tn) && num_of(f, &fn)
	    && !tn.isf && !fn.isf && tn.i == 1 && fn.i == 0)
		return (outv[0] = cond) != NULL;
	return 0;
}

/* ---- casts ---- */

/* Converts n from type s to type d in place; 0 when it must not fold. */
typedef int (*CastFn)(Num *n, const Type *s, const Type *d);

static int
c_sitofp(Num *n, const Type *s, const Type *d)
{
	(void)d;
	*n = fnum((double)sx((uint64_t)n->i, ty_bitwidth(s)));
	return 1;
}

static int
c_uitofp(Num *n, const Type *s, const Type *d)
{
	(void)d;
	*n = fnum((double)zx((uint64_t)n->i, ty_bitwidth(s)));
	return 1;
}

/* Out-of-range and NaN conversions are poison: no fold. */
static int
c_fptosi(Num *n, const Type *s, const Type *d)
{
	double t = trunc(n->f), lim = ldexp(1, ty_bitwidth(d) - 1);

	(void)s;
	if (isnan(t) || t < -lim || t >= lim)
		return 0;
	*n = inum((int64_t)t);
	return 1;
}

static int
c_fptoui(Num *n, const Type *s, const Type *d)
{
	double t = trunc(n->f), lim = ldexp(1, ty_bitwidth(d));

	(void)s;
	if (isnan(t) || t < 0 || t >= lim)
		return 0;
	*n = inum((int64_t)(uint64_t)t);
	return 1;
}

static int
c_extf(Num *n, const Type *s, const Type *d)
{
	(void)n, (void)s, (void)d;
	return 1;
}

/* truncf folds only when the value survives the narrower type. */
static int
c_truncf(Num *n, const Type *s, const Type *d)
{
	(void)s;
	return fp_round(n->f, d) == n->f;
}

static int
c_sext(Num *n, const Type *s, const Type *d)
{
	(void)d;
	n->i = sx((uint64_t)n->i, ty_bitwidth(s));
	return 1;
}

static int
c_zext(Num *n, const Type *s, const Type *d)
{
	(void)d;
	n->i = (int64_t)zx((uint64_t)n->i, ty_bitwidth(s));
	return 1;
}

static int
c_negf(Num *n, const Type *s, const Type *d)
{
	(void)s, (void)d;
	n->f = -n->f;
	return 1;
}

static const struct {
	const char *op;
	int from_float;
	CastFn fn;
} cast_rules[] = {
	{"arith.sitofp", 0, c_sitofp},
	{"arith.uitofp", 0, c_uitofp},
	{"arith.fptosi", 1, c_fptosi},
	{"arith.fptoui", 1, c_fptoui},
	{"arith.extf", 1, c_extf},
	{"arith.truncf", 1, c_truncf},
	{"arith.extsi", 0, c_sext},
	{"arith.extui", 0, c_zext},
	{"arith.trunci", 0, c_sext},     /* at_int() wraps to the result */
	{"arith.index_cast", 0, c_sext},
	{"arith.index_castui", 0, c_zext},
	{"arith.negf", 1, c_negf},
};

static int
fold_cast(Ctx *c, Op *op, Value **outv, Attr **outa)
{
	size_t i;
	Num n;
	Type *s, *d;

	(void)outv;
	if (op->nopnds != 1 || op->nres != 1 || !num_of(OPND(op, 0), &n))
		return 0;
	s = scalar_type(OPND(op, 0)->type);
	d = scalar_type(RES(op, 0)->type);
	for (i = 0; i < sizeof cast_rules / sizeof *cast_rules; i++) {
		if (strcmp(cast_rules[i].op, op->name))
			continue;
		if (n.isf != cast_rules[i].from_float || !cast_rules[i].fn(&n, s, d))
			return 0;
		outa[0] = num_attr(c, RES(op, 0)->type, n);
		return outa[0] != NULL;
	}
	return 0;
}

/* torch_c.to_i64 / to_f64 of a torch constant: its value, as torch-mlir
 * folds them */
static int
fold_torch_c_scalar(Ctx *c, Op *op, Value **outv, Attr **outa)
{
	Num n;

	(void)outv;
	if (op->nopnds != 1 || op->nres != 1 || !num_of(OPND(op, 0), &n) ||
			n.isf != op_is(op, "torch_c.to_f64"))
		return 0;
	outa[0] = num_attr(c, RES(op, 0)->type, n);
	return outa[0] != NULL;
}

/* ---- tensor ---- */

/* A cast to its own type (tensor.cast, torch.tensor_static_info_cast). */
static int
fold_same_type_cast(Ctx *c, Op *op, Value **outv, Attr **outa)
{
	(void)c, (void)outa;
	if (op->nopnds < 1 || op->nres != 1 || OPND(op, 0)->type != RES(op, 0)->type)
		return 0;
	outv[0] = OPND(op, 0);
	return 1;
}

/* tensor.concat of one input of the result's type: that input, as MLIR
 * folds it */
static int
fold_single_concat(Ctx *c, Op *op, Value **outv, Attr **outa)
{
	return op->nopnds == 1 && fold_same_type_cast(c, op, outv, outa);
}

/* The static size of dimension d (negative counts from the end when
 * wrap) of a ranked shaped type, or DYN. */
static int64_t
static_dim(const Type *t, int64_t d, int wrap)
{
	if (!t || !ty_isshaped(t) || !t->ranked || !t->dims)
		return DYN;
	if (wrap && d < 0)
		d += t->rank;
	return d >= 0 && d < t->rank ? t->dims[d] : DYN;
}

static int
fold_tensor_dim(Ctx *c, Op *op, Value **outv, Attr **outa)
{
	int64_t d, n;

	(void)outv;
	if (op->nopnds != 2 || !value_int(OPND(op, 1), &d))
		return 0;
	if ((n = static_dim(OPND(op, 0)->type, d, 0)) == DYN)
		return 0;
	outa[0] = at_int(c, n, RES(op, 0)->type);
	return 1;
}

/* collapse_shape(expand_shape(x)) and expand_shape(collapse_shape(x))
 * with the same reassociation are x. */
static int
fold_reshape_pair(Ctx *c, Op *op, Value **outv, Attr **outa)
{
	const char *inverse = op_is(op, "tensor.collapse_shape")
	    ? "tensor.expand_shape" : "tensor.collapse_shape";
	Op *def = op->nopnds ? OPND(op, 0)->def : NULL;
	Value *x;

	(void)c, (void)outa;
	if (!def || !op_is(def, inverse) || !def->nopnds)
		return 0;
	x = OPND(def, 0);
	if (x->type != RES(op, 0)->type
	    || !attr_eq(op_attr(op, "reassociation"), op_attr(def, "reassociation")))
		return 0;
	outv[0] = x;
	return 1;
}

/* ---- torch scalars ---- */

static int
fold_size_int(Ctx *c, Op *op, Value **outv, Attr **outa)
{
	int64_t d, n;

	(void)outv;
	if (op->nopnds != 2 || !value_int(OPND(op, 1), &d))
		return 0;
	if ((n = static_dim(OPND(op, 0)->type, d, 1)) == DYN)
		return 0;
	outa[0] = at_int(c, n, NULL);
	return 1;
}

/* A torch scalar operation on Nums; 0 when it must not fold. */
typedef int (*TorchEval)(Num a, Num b, Num *r);

static double nf(Num n) { return n.isf ? n.f : (double)n.i; }

static int
tn_arith(Num a, Num b, Num *r, int op)
{
	uint64_t x = (uint64_t)a.i, y = (uint64_t)b.i;

	if (a.isf || b.isf) {
		double u = nf(a), v = nf(b);
		*r = fnum(op == '+' ? u + v : op == '-' ? u - v : u * v);
	} else
		*r = inum((int64_t)(op == '+' ? x + y : op == '-' ? x - y : x * y));
	return 1;
}

static int tn_add(Num a, Num b, Num *r) { return tn_arith(a, b, r, '+'); }
static int tn_sub(Num a, Num b, Num *r) { return tn_arith(a, b, r, '-'); }
static int tn_mul(Num a, Num b, Num *r) { return tn_arith(a, b, r, '*'); }

/* Python's / is true division; dividing by zero raises: no fold. */
static int
tn_div(Num a, Num b, Num *r)
{
	if (nf(b) == 0)
		return 0;
	*r = fnum(nf(a) / nf(b));
	return 1;
}

/* Python's // and % round toward negative infinity. */
static int
tn_floordiv(Num a, Num b, Num *r)
{
	uint64_t q;

	if (a.isf || b.isf || !ev_floordivsi((uint64_t)a.i, (uint64_t)b.i, 64, &q))
		return 0;
	*r = inum((int64_t)q);
	return 1;
}

static int
tn_remainder(Num a, Num b, Num *r)
{
	int64_t m;

	if (a.isf || b.isf || b.i == 0)
		return 0;
	m = b.i == -1 ? 0 : a.i % b.i;
	if (m && (m < 0) != (b.i < 0))
		m += b.i;
	*r = inum(m);
	return 1;
}

static int
tn_cmp(Num a, Num b, Num *r, unsigned set)
{
	unsigned o;

	if (a.isf || b.isf)
		o = outcome_f(nf(a), nf(b));
	else
		o = a.i < b.i ? LT : a.i > b.i ? GT : EQ;
	*r = inum((set & o) != 0);
	return 1;
}

static int tn_eq(Num a, Num b, Num *r) { return tn_cmp(a, b, r, EQ); }
static int tn_ne(Num a, Num b, Num *r) { return tn_cmp(a, b, r, LT | GT | UNO); }
static int tn_lt(Num a, Num b, Num *r) { return tn_cmp(a, b, r, LT); }
static int tn_gt(Num a, Num b, Num *r) { return tn_cmp(a, b, r, GT); }
static int tn_le(Num a, Num b, Num *r) { return tn_cmp(a, b, r, LT | EQ); }
static int tn_ge(Num a, Num b, Num *r) { return tn_cmp(a, b, r, GT | EQ); }

static int
tn_bits(Num a, Num b, Num *r, int op)
{
	if (a.isf || b.isf)
		return 0;
	*r = inum(op == '&' ? a.i & b.i : op == '|' ? a.i | b.i : a.i ^ b.i);
	return 1;
}

static int tn_and(Num a, Num b, Num *r) { return tn_bits(a, b, r, '&'); }
static int tn_or(Num a, Num b, Num *r) { return tn_bits(a, b, r, '|'); }
static int tn_xor(Num a, Num b, Num *r) { return tn_bits(a, b, r, '^'); }

static int
tn_neg(Num a, Num b, Num *r)
{
	(void)b;
	*r = a.isf ? fnum(-a.f) : inum((int64_t)(0 - (uint64_t)a.i));
	return 1;
}

static int
tn_not(Num a, Num b, Num *r)
{
	(void)b;
	*r = inum(a.isf ? a.f == 0 : a.i == 0);
	return 1;
}

/* Int(x), Float(x), Bool(x): the conversion is done by tn_result(). */
static int
tn_conv(Num a, Num b, Num *r)
{
	(void)b;
	*r = a;
	return !a.isf || !isnan(a.f);
}

/* torch.aten.<base>.<variant>: the base names the computation */
static const struct {
	const char *base;
	int nargs;
	TorchEval eval;
} torch_rules[] = {
	{"add", 2, tn_add}, {"sub", 2, tn_sub}, {"mul", 2, tn_mul},
	{"div", 2, tn_div}, {"floordiv", 2, tn_floordiv},
	{"remainder", 2, tn_remainder},
	{"eq", 2, tn_eq}, {"ne", 2, tn_ne}, {"lt", 2, tn_lt},
	{"gt", 2, tn_gt}, {"le", 2, tn_le}, {"ge", 2, tn_ge},
	{"__and__", 2, tn_and}, {"__or__", 2, tn_or}, {"__xor__", 2, tn_xor},
	{"neg", 1, tn_neg}, {"__not__", 1, tn_not},
	{"Int", 1, tn_conv}, {"Float", 1, tn_conv}, {"Bool", 1, tn_conv},
};

/* The constant for r as the op's result type (!torch.int, .float, .bool). */
static Attr *
tn_result(Ctx *c, Type *t, Num r)
{
	switch (t->kind) {
	case TY_TORCH_INT:
		if (r.isf && (isnan(r.f) || fabs(r.f) >= 0x1p63))
			return NULL;
		return at_int(c, r.isf ? (int64_t)r.f : r.i, NULL);
	case TY_TORCH_FLOAT:
		return at_float(c, nf(r), NULL);
	case TY_TORCH_BOOL:
		return at_bool(c, nf(r) != 0);
	default:
		return NULL;
	}
}

static int
torch_num_of(Value *v, Num *n)
{
	Attr *a = value_const(v);

	return a && (a->kind == AT_INT || a->kind == AT_FLOAT) && num_of_attr(a, n);
}

static int
torch_rule(const Op *op)
{
	const char *base = op->name + strlen("torch.aten.");
	size_t i, n = strcspn(base, ".");

	for (i = 0; i < sizeof torch_rules / sizeof *torch_rules; i++)
		if (strlen(torch_rules[i].base) == n && !strncmp(base, torch_rules[i].base, n))
			return (int)i;
	return -1;
}

/* x + 0, 0 + x, x - 0, x * 1, 1 * x on !torch.int are x; x * 0 is 0. */
static int
torch_identity(const char *base, Value *x, Value *y, Value **outv)
{
	int64_t k;
	int add = !strcmp(base, "add"), mul = !strcmp(base, "mul");

	if (value_int(y, &k) && (((add || !strcmp(base, "sub")) && k == 0)
	    || (mul && k == 1)))
		return (outv[0] = x) != NULL;
	if (value_int(x, &k) && ((add && k == 0) || (mul && k == 1)))
		return (outv[0] = y) != NULL;
	if (mul && ((value_int(x, &k) && k == 0) || (value_int(y, &k) && k == 0)))
		return (outv[0] = value_int(x, &k) && k == 0 ? x : y) != NULL;
	return 0;
}

/* Comparisons of an int with itself. */
static int
torch_same(Ctx *c, const char *base, Op *op, Attr **outa)
{
	static const char *const yes[] = {"eq", "le", "ge"}, *const no[] = {"ne", "lt", "gt"};
	size_t i;

	for (i = 0; i < 3; i++) {
		if (!strcmp(base, yes[i]) || !strcmp(base, no[i])) {
			outa[0] = at_bool(c, !strcmp(base, yes[i]));
			return RES(op, 0)->type->kind == TY_TORCH_BOOL;
		}
	}
	return 0;
}

static int
fold_torch_scalar(Ctx *c, Op *op, Value **outv, Attr **outa)
{
	int i = torch_rule(op);
	Num a, b = {0, 0, 0}, r;
	const char *base;

	if (i < 0 || op->nres != 1 || op->nopnds != torch_rules[i].nargs)
		return 0;
	base = torch_rules[i].base;
	if (op->nopnds == 2 && OPND(op, 0)->type->kind == TY_TORCH_INT
	    && OPND(op, 1)->type->kind == TY_TORCH_INT) {
		if (RES(op, 0)->type->kind == TY_TORCH_INT
		    && torch_identity(base, OPND(op, 0), OPND(op, 1), outv))
			return 1;
		if (OPND(op, 0) == OPND(op, 1) && torch_same(c, base, op, outa))
			return 1;
	}
	if (!torch_num_of(OPND(op, 0), &a)
	    || (op->nopnds == 2 && !torch_num_of(OPND(op, 1), &b)))
		return 0;
	if (!torch_rules[i].eval(a, b, &r))
		return 0;
	outa[0] = tn_result(c, RES(op, 0)->type, r);
	return outa[0] != NULL;
}

/* ---- the hook table ---- */

#define TORCH_NUM(base) \
	{"torch.aten." base ".int", (void *)fold_torch_scalar}, \
	{"torch.aten." base ".float", (void *)fold_torch_scalar}, \
	{"torch.aten." base ".int_float", (void *)fold_torch_scalar}, \
	{"torch.aten." base ".float_int", (void *)fold_torch_scalar}
/* PyTorch has div.int and div.float but no mixed overloads */
#define TORCH_NUM_SAME(base) \
	{"torch.aten." base ".int", (void *)fold_torch_scalar}, \
	{"torch.aten." base ".float", (void *)fold_torch_scalar}

const OpHook fold_hooks[] = {
	{"arith.addi", (void *)fold_int_binary},
	{"arith.subi", (void *)fold_int_binary},
	{"arith.muli", (void *)fold_int_binary},
	{"arith.divsi", (void *)fold_int_binary},
	{"arith.divui", (void *)fold_int_binary},
	{"arith.floordivsi", (void *)fold_int_binary},
	{"arith.ceildivsi", (void *)fold_int_binary},
	{"arith.ceildivui", (void *)fold_int_binary},
	{"arith.remsi", (void *)fold_int_binary},
	{"arith.remui", (void *)fold_int_binary},
	{"arith.andi", (void *)fold_int_binary},
	{"arith.ori", (void *)fold_int_binary},
	{"arith.xori", (void *)fold_int_binary},
	{"arith.maxsi", (void *)fold_int_binary},
	{"arith.minsi", (void *)fold_int_binary},
	{"arith.maxui", (void *)fold_int_binary},
	{"arith.minui", (void *)fold_int_binary},
	{"arith.shli", (void *)fold_int_binary},
	{"arith.shrui", (void *)fold_int_binary},
	{"arith.shrsi", (void *)fold_int_binary},
	{"arith.addf", (void *)fold_float_binary},
	{"arith.subf", (void *)fold_float_binary},
	{"arith.mulf", (void *)fold_float_binary},
	{"arith.divf", (void *)fold_float_binary},
	{"arith.remf", (void *)fold_float_binary},
	{"arith.maxf", (void *)fold_float_binary},
	{"arith.minf", (void *)fold_float_binary},
	{"arith.cmpi", (void *)fold_cmpi},
	{"arith.cmpf", (void *)fold_cmpf},
	{"arith.select", (void *)fold_select},
	{"arith.sitofp", (void *)fold_cast},
	{"arith.uitofp", (void *)fold_cast},
	{"arith.fptosi", (void *)fold_cast},
	{"arith.fptoui", (void *)fold_cast},
	{"arith.extf", (void *)fold_cast},
	{"arith.truncf", (void *)fold_cast},
	{"arith.extsi", (void *)fold_cast},
	{"arith.extui", (void *)fold_cast},
	{"arith.trunci", (void *)fold_cast},
	{"arith.index_cast", (void *)fold_cast},
	{"arith.index_castui", (void *)fold_cast},
	{"arith.negf", (void *)fold_cast},
	{"torch_c.to_i64", (void *)fold_torch_c_scalar},
	{"torch_c.to_f64", (void *)fold_torch_c_scalar},
	{"tensor.cast", (void *)fold_same_type_cast},
	{"tensor.concat", (void *)fold_single_concat},
	{"tensor.dim", (void *)fold_tensor_dim},
	{"tensor.collapse_shape", (void *)fold_reshape_pair},
	{"tensor.expand_shape", (void *)fold_reshape_pair},
	{"torch.tensor_static_info_cast", (void *)fold_same_type_cast},
	{"torch.aten.size.int", (void *)fold_size_int},
	TORCH_NUM("add"), TORCH_NUM("sub"), TORCH_NUM("mul"), TORCH_NUM_SAME("div"),
	TORCH_NUM("eq"), TORCH_NUM("ne"), TORCH_NUM("lt"), TORCH_NUM("gt"),
	TORCH_NUM("le"), TORCH_NUM("ge"),
	{"torch.aten.floordiv.int", (void *)fold_torch_scalar},
	{"torch.aten.remainder.int", (void *)fold_torch_scalar},
	{"torch.aten.neg.int", (void *)fold_torch_scalar},
	{"torch.aten.neg.float", (void *)fold_torch_scalar},
	{"torch.aten.eq.bool", (void *)fold_torch_scalar},
	{"torch.aten.ne.bool", (void *)fold_torch_scalar},
	{"torch.aten.__and__.int", (void *)fold_torch_scalar},
	{"torch.aten.__or__.int", (void *)fold_torch_scalar},
	{"torch.aten.__xor__.int", (void *)fold_torch_scalar},
	{"torch.aten.__and__.bool", (void *)fold_torch_scalar},
	{"torch.aten.__or__.bool", (void *)fold_torch_scalar},
	{"torch.aten.__not__", (void *)fold_torch_scalar},
	{"torch.aten.Int.float", (void *)fold_torch_scalar},
	{"torch.aten.Int.bool", (void *)fold_torch_scalar},
	{"torch.aten.Float.int", (void *)fold_torch_scalar},
	{"torch.aten.Bool.int", (void *)fold_torch_scalar},
	{"torch.aten.Bool.float", (void *)fold_torch_scalar},
	{NULL, NULL},
};

const OpTable fold_optables[] = {
	OPTABLE("fold rule", fold_hooks, ""),
	OPTABLE("integer fold rule", int_rules, ""),
	OPTABLE("float fold rule", float_rules, ""),
	OPTABLE("cast fold rule", cast_rules, ""),
	{NULL},
};
