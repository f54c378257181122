/*
 * decompose_ew.c - elementwise ops the backend contract lacks, written
 * with the elementwise ops it has.  PyTorch's own formulas where it has
 * one (xlogy: 0 where x == 0 unless y is NaN; fmax ignores a NaN; the
 * shifts past the width give 0 or the sign), NaN and inf as eager gives
 * them.  Integer inputs of the floating functions convert to the result
 * dtype first; f16 and bf16 compute in f32 and round once at the end.
 *
 *   xlogy               where(isnan(y), y, where(x == 0, 0, x log y))
 *   heaviside           where(x == 0, values, x > 0)
 *   bitwise_*.Scalar    bitwise_*.Tensor with a 0-d full
 *   shifts              a * 2^b and floor(a / 2^b), b clamped, outside
 *                       [0, width) PyTorch's 0 or sign
 *   rrelu (eval)        leaky_relu((lower + upper) / 2); training: random
 *                       slopes (d_rrelu_train, decompose_rng.c)
 *   atan, asin, acos    atan2 (asin x = atan2(x, sqrt((1-x)(1+x))))
 *   sinh, cosh          expm1 and exp of |x|, exp(|x|/2)^2/2 past 20; bf16
 *                       inf where exp(|x|) overflows f32, as eager's
 *   asinh, acosh, atanh log1p forms of |x|, log(x) + ln 2 past 2^28
 *   log10, exp2         log / ln 10, pow(2, x)
 *   logaddexp[2]        max + log1p(exp(-|a - b|)), a == b == inf: a
 *   copysign            where(signbit(b), -|a|, |a|), signbit a contract op
 *   shrinks, celu, prelu, rad2deg, deg2rad, nan_to_num, frac, fmax, fmin,
 *   logit, sgn, isposinf, isneginf, log_sigmoid, glu, round.decimals
 */
#include <math.h>
#include <float.h>
#include <stdint.h>
#include <stdio.h>

#include "decompose.h"

/* ---- helpers ---- */

static Type *
rdt(Op *op)
{
	return op->nres && tt_is(RES(op, 0)->type) ? tt_dtype(RES(op, 0)->type) : NULL;
}

/* A 0-d tensor of dtype dt holding fill. */
static Value *
full0(B *b, Value *fill, Type *dt)
{
	Value *v[6] = {b_ints(b, 0, NULL), fill, b_int(b, dt_code(dt)), b_none(b), b_none(b),
		b_none(b)};

	return b_op(b, "aten.full", 6, v);
}

/* A scalar constant of dt's kind: int for integer dtypes. */
static Value *
num(B *b, Type *dt, double v)
{
	return dt_isfloat(dt) ? b_float(b, v) : b_int(b, (int64_t)v);
}

static Value *adds(B *b, Value *x, double s) { return b_op3(b, "aten.add.Scalar", x, b_float(b, s), b_int(b, 1)); }
static Value *rsubs(B *b, Value *x, double s) { return b_op3(b, "aten.rsub.Scalar", x, b_float(b, s), b_int(b, 1)); }
static Value *muls(B *b, Value *x, double s) { return b_op2(b, "aten.mul.Scalar", x, b_float(b, s)); }
static Value *divs(B *b, Value *x, double s) { return b_op2(b, "aten.div.Scalar", x, b_float(b, s)); }
static Value *cmps(B *b, const char *op, Value *x, Value *s) { return b_op2(b, op, x, s); }
static Value *u(B *b, const char *name, Value *x) { return b_op1(b, name, x); }
static Value *where(B *b, Value *c, Value *x, Value *y) { return b_op3(b, "aten.where.self", c, x, y); }

/* The float dtype a float op computes in (f16, bf16: f32) and its
 * operand converted to it; NULL when the result is not floating. */
static Type *
fbegin(B *b, Op *op, int i, Value **x)
{
	Type *dt = rdt(op), *ct;

	if (!dt || !dt_isfloat(dt) || !tt_is(OPND(op, i)->type) || !tt_dtype(OPND(op, i)->type))
		return NULL;
	ct = dt_opmath(b->c, dt);
	*x = d_to(b, OPND(op, i), ct);
	return ct;
}

static void
fdone(B *b, Op *op, Value *v)
{
	d_done(b, op, d_to(b, v, rdt(op)));
}

/* r, the function of |x|, given x's sign (odd functions); x itself
 * below 2^-28, where f(x) = x to the last bit, keeps -0.0. */
static Value *
odd(B *b, Value *x, Value *a, Value *r)
{
	r = where(b, cmps(b, "aten.lt.Scalar", x, b_float(b, 0)), u(b, "aten.neg", r), r);
	return where(b, cmps(b, "aten.lt.Scalar", a, b_float(b, 0x1p-28)), x, r);
}

/* ---- logs and exponentials ---- */

static int
xlogy(B *b, Op *op)
{
	Type *dt = rdt(op), *ct;
	Value *x, *y, *r;

	if (!dt || !dt_isfloat(dt) || !tt_dtype(OPND(op, 0)->type) || !tt_dtype(OPND(op, 1)->type))
		return 0;
	ct = dt_opmath(b->c, dt);
	x = d_to(b, OPND(op, 0), ct);
	y = d_to(b, OPND(op, 1), ct);
	r = d_mul(b, x, u(b, "aten.log", y));
	r = b_op3(b, "aten.where.ScalarSelf", cmps(b, "aten.eq.Scalar", x, b_float(b, 0)),
	    b_float(b, 0), r);
	fdone(b, op, where(b, u(b, "aten.isnan", y), y, r));
	return 1;
}

static int
log10_(B *b, Op *op)
{
	Value *x;

	if (!fbegin(b, op, 0, &x))
		return 0;
	fdone(b, op, divs(b, u(b, "aten.log", x), M_LN10));
	return 1;
}

static int
exp2_(B *b, Op *op)
{
	Value *x;

	if (!fbegin(b, op, 0, &x))
		return 0;
	fdone(b, op, b_op2(b, "aten.pow.Scalar", b_float(b, 2), x));
	return 1;
}

/* max(a, b) + log1p(base^-|a - b|) / ln base; equal infinities are
 * themselves (their difference is NaN). */
static int
logaddexp_like(B *b, Op *op, int two)
{
	Type *dt = rdt(op), *ct;
	Value *x, *y, *d, *r;

	if (!dt || !dt_isfloat(dt) || !tt_dtype(OPND(op, 0)->type) || !tt_dtype(OPND(op, 1)->type))
		return 0;
	ct = dt_opmath(b->c, dt);
	x = d_to(b, OPND(op, 0), ct);
	y = d_to(b, OPND(op, 1), ct);
	d = u(b, "aten.neg", u(b, "aten.abs", d_sub(b, x, y)));
	d = two ? b_op2(b, "aten.pow.Scalar", b_float(b, 2), d) : u(b, "aten.exp", d);
	d = u(b, "aten.log1p", d);
	if (two)
		d = muls(b, d, 1 / M_LN2);
	r = d_add(b, b_op2(b, "aten.maximum", x, y), d);
	r = where(b, b_op2(b, "aten.logical_and", u(b, "aten.isinf", x),
	    b_op2(b, "aten.eq.Tensor", x, y)), x, r);
	fdone(b, op, r);
	return 1;
}

static int logaddexp(B *b, Op *op) { return logaddexp_like(b, op, 0); }
static int logaddexp2(B *b, Op *op) { return logaddexp_like(b, op, 1); }

/* logit(x, eps): log(z / (1 - z)), z = x clamped to [eps, 1 - eps]. */
static int
logit(B *b, Op *op)
{
	Value *x;
	double eps;

	if (!fbegin(b, op, 0, &x))
		return 0;
	if (!tv_none(OPND(op, 1))) {
		if (!tv_float(OPND(op, 1), &eps))
			return 0;
		x = b_op3(b, "aten.clamp", x, b_float(b, eps), b_float(b, 1 - eps));
	}
	fdone(b, op, u(b, "aten.log", d_div(b, x, rsubs(b, x, 1))));
	return 1;
}

/* min(x, 0) - log1p(exp(-|x|)); log_sigmoid_forward's buffer unused. */
static int
log_sigmoid(B *b, Op *op)
{
	Value *x, *r;

	if (!d_unused_from(op, 1) || !fbegin(b, op, 0, &x))
		return 0;
	r = u(b, "aten.log1p", u(b, "aten.exp", u(b, "aten.neg", u(b, "aten.abs", x))));
	r = d_sub(b, b_op2(b, "aten.clamp_max", x, b_float(b, 0)), r);
	if (op->nres == 1) {
		fdone(b, op, r);
		return 1;
	}
	/* the buffer is unused: the result list takes r twice */
	Value *vals[2];
	vals[0] = d_to(b, r, rdt(op));
	vals[1] = vals[0];
	if (tt_dtype(RES(op, 1)->type) && tt_dtype(RES(op, 1)->type) != rdt(op))
		return 0;
	torch_replace(b->c, op, vals);
	return 1;
}

/* ---- trigonometric and hyperbolic ---- */

static Value *
one_like(B *b, Value *x)
{
	return full0(b, b_float(b, 1), tt_dtype(x->type));
}

static int
atan_(B *b, Op *op)
{
	Value *x;

	if (!fbegin(b, op, 0, &x))
		return 0;
	fdone(b, op, b_op2(b, "aten.atan2", x, one_like(b, x)));
	return 1;
}

/* sqrt(1 - x^2) as sqrt((1 - x)(1 + x)): exact near |x| = 1 */
static Value *
cos_of_asin(B *b, Value *x)
{
	return u(b, "aten.sqrt", d_mul(b, rsubs(b, x, 1), adds(b, x, 1)));
}

static int
asin_(B *b, Op *op)
{
	Value *x;

	if (!fbegin(b, op, 0, &x))
		return 0;
	fdone(b, op, b_op2(b, "aten.atan2", x, cos_of_asin(b, x)));
	return 1;
}

static int
acos_(B *b, Op *op)
{
	Value *x;

	if (!fbegin(b, op, 0, &x))
		return 0;
	fdone(b, op, b_op2(b, "aten.atan2", cos_of_asin(b, x), x));
	return 1;
}

/* exp(a) / 2 for a > 20 without overflowing early: h * (h / 2), h = exp(a/2) */
static Value *
half_exp_big(B *b, Value *a)
{
	Value *h = u(b, "aten.exp", muls(b, a, 0.5));

	return d_mul(b, h, muls(b, h, 0.5));
}

/* bf16's sinh and cosh are inf where exp(|x|) overflows f32: past
 * 0x1.62e42ep+6 (88.72283, the largest f32 with a finite exp), though
 * they are finite to 89.4 (bf16's 89.0: 2.25e38).  That is eager's
 * vectorized CPU loop (PyTorch 1.13 and 2.x: exp in f32), the one a dense
 * operand takes but for each row's last n % 32 elements (AVX2), which
 * its scalar loop computes finite, as it does a strided operand's; f32
 * and f64 keep the finite value (2.x's f32 loops and 1.13's scalar one;
 * 1.13's f32 vector loop overflowed as bf16's does), and f16 is inf
 * past 11.8 either way. */
static Value *
bf16_exp_overflow(B *b, Op *op, Value *a, Value *s)
{
	if (rdt(op)->kind != TY_BF16)
		return s;
	return b_op3(b, "aten.where.ScalarSelf",
	    cmps(b, "aten.gt.Scalar", a, b_float(b, 0x1.62e42ep+6)), b_float(b, INFINITY), s);
}

static int
sinh_(B *b, Op *op)
{
	Value *x, *a, *t, *s;

	if (!fbegin(b, op, 0, &x))
		return 0;
	a = u(b, "aten.abs", x);
	/* (e^a - e^-a) / 2 = (t + t / (t + 1)) / 2, t = expm1(a) */
	t = u(b, "aten.expm1", a);
	s = muls(b, d_add(b, t, d_div(b, t, adds(b, t, 1))), 0.5);
	s = where(b, cmps(b, "aten.gt.Scalar", a, b_float(b, 20)), half_exp_big(b, a), s);
	fdone(b, op, odd(b, x, a, bf16_exp_overflow(b, op, a, s)));
	return 1;
}

static int
cosh_(B *b, Op *op)
{
	Value *x, *a, *e, *s;

	if (!fbegin(b, op, 0, &x))
		return 0;
	a = u(b, "aten.abs", x);
	e = u(b, "aten.exp", a);
	s = d_add(b, muls(b, e, 0.5), divs(b, u(b, "aten.reciprocal", e), 2));
	s = where(b, cmps(b, "aten.gt.Scalar", a, b_float(b, 20)), half_exp_big(b, a), s);
	fdone(b, op, bf16_exp_overflow(b, op, a, s));
	return 1;
}

/* log(a) + ln 2, the limit of asinh and acosh past 2^28 */
static Value *
log2a(B *b, Value *a)
{
	return adds(b, u(b, "aten.log", a), M_LN2);
}

static int
asinh_(B *b, Op *op)
{
	Value *x, *a, *a2, *s;

	if (!fbegin(b, op, 0, &x))
		return 0;
	a = u(b, "aten.abs", x);
	/* log1p(a + a^2 / (1 + sqrt(1 + a^2))) */
	a2 = d_mul(b, a, a);
	s = d_div(b, a2, adds(b, u(b, "aten.sqrt", adds(b, a2, 1)), 1));
	s = u(b, "aten.log1p", d_add(b, a, s));
	s = where(b, cmps(b, "aten.gt.Scalar", a, b_float(b, 0x1p28)), log2a(b, a), s);
	fdone(b, op, odd(b, x, a, s));
	return 1;
}

static int
acosh_(B *b, Op *op)
{
	Value *x, *t, *s;

	if (!fbegin(b, op, 0, &x))
		return 0;
	/* log1p(t + sqrt(t (t + 2))), t = x - 1; NaN below 1 (the formula
	 * cancels to 0 at large negative x) */
	t = adds(b, x, -1);
	s = u(b, "aten.sqrt", d_mul(b, t, adds(b, t, 2)));
	s = u(b, "aten.log1p", d_add(b, t, s));
	s = where(b, cmps(b, "aten.gt.Scalar", x, b_float(b, 0x1p28)), log2a(b, x), s);
	s = b_op3(b, "aten.where.ScalarSelf", cmps(b, "aten.lt.Scalar", x, b_float(b, 1)),
	    b_float(b, NAN), s);
	fdone(b, op, s);
	return 1;
}

static int
atanh_(B *b, Op *op)
{
	Value *x, *a, *s;

	if (!fbegin(b, op, 0, &x))
		return 0;
	a = u(b, "aten.abs", x);
	/* log1p(2a / (1 - a)) / 2 */
	s = d_div(b, muls(b, a, 2), rsubs(b, a, 1));
	s = muls(b, u(b, "aten.log1p", s), 0.5);
	fdone(b, op, odd(b, x, a, s));
	return 1;
}

/* c rounded to the result dtype, as eager's mul by a wrapped scalar
 * tensor does (rad2deg of bf16 multiplies by 57.25): f16 keeps 11
 * significant bits, bf16 8; c is a normal number of either. */
static double
in_rdt(Op *op, double c)
{
	Type *dt = rdt(op);
	int e, bits = dt->kind == TY_F16 ? 11 : dt->kind == TY_BF16 ? 8 : 0;
	double m;

	if (!bits)
		return c;
	m = frexp(c, &e);
	return ldexp(nearbyint(ldexp(m, bits)), e - bits);
}

static int
rad2deg(B *b, Op *op)
{
	Value *x;

	if (!fbegin(b, op, 0, &x))
		return 0;
	fdone(b, op, muls(b, x, in_rdt(op, 57.295779513082320876798154814105170332405472466564)));
	return 1;
}

static int
deg2rad(B *b, Op *op)
{
	Value *x;

	if (!fbegin(b, op, 0, &x))
		return 0;
	fdone(b, op, muls(b, x, in_rdt(op, 0.017453292519943295769236907684886127134428718885417)));
	return 1;
}

/* ---- piecewise ---- */

static int
heaviside(B *b, Op *op)
{
	Type *dt = rdt(op);
	Value *x = OPND(op, 0), *vals, *pos;

	if (!dt || !tt_dtype(x->type) || !tt_dtype(OPND(op, 1)->type))
		return 0;
	vals = d_to(b, OPND(op, 1), dt);
	pos = d_to(b, cmps(b, "aten.gt.Scalar", x, b_int(b, 0)), dt);
	d_done(b, op, where(b, cmps(b, "aten.eq.Scalar", x, b_int(b, 0)), vals, pos));
	return 1;
}

/* rrelu_with_noise(x, noise, lower, upper, training, gen) and rrelu(x,
 * lower, upper, training, gen) in eval mode: leaky_relu by the mean
 * slope.  Training draws random slopes by Philox (d_rrelu_train). */
static int
rrelu(B *b, Op *op)
{
	int k = torch_is(op, "aten.rrelu") ? 1 : 2, train = 1;
	double lo, hi;

	if (!tv_float(OPND(op, k), &lo) || !tv_float(OPND(op, k + 1), &hi)
	    || !tv_bool(OPND(op, k + 2), &train) || !rdt(op))
		return 0;
	if (train)
		return d_rrelu_train(b, op, k, lo, hi);
	d_done(b, op, b_op2(b, "aten.leaky_relu", OPND(op, 0), b_float(b, (lo + hi) / 2)));
	return 1;
}

/* softshrink: x - l above l, x + l below -l, else 0 (NaN too, as the
 * reference PyTorch 1.13 gives it). */
static int
softshrink(B *b, Op *op)
{
	Value *x;
	double l;

	if (!tv_float(OPND(op, 1), &l) || !fbegin(b, op, 0, &x))
		return 0;
	Value *mid = b_op3(b, "aten.where.ScalarOther", cmps(b, "aten.lt.Scalar", x, b_float(b, -l)),
	    adds(b, x, l), b_float(b, 0));
	fdone(b, op, where(b, cmps(b, "aten.gt.Scalar", x, b_float(b, l)), adds(b, x, -l), mid));
	return 1;
}

/* hardshrink: 0 on [-l, l], else x. */
static int
hardshrink(B *b, Op *op)
{
	Type *dt = rdt(op);
	Value *x = OPND(op, 0), *in;
	double l;

	if (!dt || tt_dtype(x->type) != dt || !tv_float(OPND(op, 1), &l))
		return 0;
	in = b_op2(b, "aten.logical_and", cmps(b, "aten.ge.Scalar", x, b_float(b, -l)),
	    cmps(b, "aten.le.Scalar", x, b_float(b, l)));
	d_done(b, op, b_op3(b, "aten.where.ScalarSelf", in, num(b, dt, 0), x));
	return 1;
}

/* celu(x, alpha) = elu(x, alpha, 1, 1 / alpha) */
static int
celu(B *b, Op *op)
{
	Value *v[4];
	double a;

	if (!tv_float(OPND(op, 1), &a) || a == 0 || !rdt(op) || !dt_isfloat(rdt(op)))
		return 0;
	v[0] = OPND(op, 0), v[1] = OPND(op, 1), v[2] = b_float(b, 1), v[3] = b_float(b, 1.0 / a);
	d_done(b, op, b_op(b, "aten.elu", 4, v));
	return 1;
}

/* prelu(x, w): x > 0 ? x : w x, w per channel (dim 1) or one. */
static int
prelu(B *b, Op *op)
{
	Value *x = OPND(op, 0), *w = OPND(op, 1);
	Type *dt = rdt(op);
	int r = tt_rank(x->type), rw = tt_rank(w->type);

	if (!dt || r < 0 || rw < 0 || rw > 1 || tt_dtype(x->type) != dt || tt_dtype(w->type) != dt)
		return 0;
	if (rw == 1 && w->type->dims[0] != 1) {
		if (r < 2 || w->type->dims[0] == DYN || w->type->dims[0] != x->type->dims[1])
			return 0;
		w = d_channel(b, w, r);
	}
	d_done(b, op, where(b, cmps(b, "aten.gt.Scalar", x, b_int(b, 0)), x, d_mul(b, x, w)));
	return 1;
}

/* fmax, fmin: a NaN operand gives the other. */
static int
fmaxmin(B *b, Op *op)
{
	Type *dt = rdt(op);
	const char *m = torch_is(op, "aten.fmax") ? "aten.maximum" : "aten.minimum";
	Value *x, *y, *r;

	if (!dt || !tt_dtype(OPND(op, 0)->type) || !tt_dtype(OPND(op, 1)->type))
		return 0;
	x = d_to(b, OPND(op, 0), dt);
	y = d_to(b, OPND(op, 1), dt);
	r = b_op2(b, m, x, y);
	if (dt_isfloat(dt))
		r = where(b, u(b, "aten.isnan", x), y, where(b, u(b, "aten.isnan", y), x, r));
	d_done(b, op, r);
	return 1;
}

/* nan_to_num(x, nan, posinf, neginf): defaults 0 and dt's extremes;
 * integer and bool tensors are themselves. */
static int
nan_to_num(B *b, Op *op)
{
	Type *dt = rdt(op);
	Value *x = OPND(op, 0), *r;
	double v[3] = {0, 0, 0}, big;
	int i;

	if (!dt || tt_dtype(x->type) != dt)
		return 0;
	if (!dt_isfloat(dt)) {
		d_done(b, op, x);
		return 1;
	}
	switch (dt->kind) {
	case TY_F16: big = 65504.0; break;
	case TY_BF16: big = 0x1.fep127; break;
	case TY_F32: big = FLT_MAX; break;
	case TY_F64: big = DBL_MAX; break;
	default: return 0;
	}
	v[1] = big, v[2] = -big;
	for (i = 0; i < 3; i++)
		if (op->nopnds > i + 1 && !tv_none(OPND(op, i + 1)) && !tv_float(OPND(op, i + 1), &v[i]))
			return 0;
	r = b_op3(b, "aten.where.ScalarSelf", cmps(b, "aten.eq.Scalar", x, b_float(b, -INFINITY)),
	    b_float(b, v[2]), x);
	r = b_op3(b, "aten.where.ScalarSelf", cmps(b, "aten.eq.Scalar", x, b_float(b, INFINITY)),
	    b_float(b, v[1]), r);
	r = b_op3(b, "aten.where.ScalarSelf", u(b, "aten.isnan", x), b_float(b, v[0]), r);
	d_done(b, op, r);
	return 1;
}

static int
frac(B *b, Op *op)
{
	Type *dt = rdt(op);
	Value *x = OPND(op, 0);

	if (!dt || !dt_isfloat(dt) || tt_dtype(x->type) != dt)
		return 0;
	d_done(b, op, d_sub(b, x, u(b, "aten.trunc", x)));
	return 1;
}

/* copysign(a, b): |a| or -|a| by b's sign bit (signbit, a contract op:
 * -0.0 and -NaN count). */
static int
copysign_(B *b, Op *op)
{
	Type *dt = rdt(op), *ct;
	Value *a, *s;

	if (!dt || !dt_isfloat(dt) || !tt_dtype(OPND(op, 0)->type) || !tt_dtype(OPND(op, 1)->type))
		return 0;
	ct = dt_opmath(b->c, dt);
	a = u(b, "aten.abs", d_to(b, OPND(op, 0), ct));
	s = u(b, "aten.signbit", OPND(op, 1));
	fdone(b, op, where(b, s, u(b, "aten.neg", a), a));
	return 1;
}

static int
sgn(B *b, Op *op)
{
	Type *dt = rdt(op);

	if (!dt || tt_dtype(OPND(op, 0)->type) != dt)
		return 0;
	d_done(b, op, u(b, "aten.sign", OPND(op, 0)));
	return 1;
}

static int
isposneginf(B *b, Op *op)
{
	double inf = torch_is(op, "aten.isposinf") ? INFINITY : -INFINITY;

	if (!tt_dtype(OPND(op, 0)->type))
		return 0;
	d_done(b, op, cmps(b, "aten.eq.Scalar", OPND(op, 0), b_float(b, inf)));
	return 1;
}

/* round.decimals(x, d): round(x * 10^d) / 10^d, round(x / 10^-d) * 10^-d
 * for d < 0, in opmath as PyTorch does. */
static int
round_decimals(B *b, Op *op)
{
	Value *x;
	int64_t d;
	double p;

	if (!tv_int(OPND(op, 1), &d) || !fbegin(b, op, 0, &x))
		return 0;
	if (dt_opmath(b->c, rdt(op))->kind == TY_F32)
		p = (float)pow(10, (double)(d < 0 ? -d : d));
	else
		p = pow(10, (double)(d < 0 ? -d : d));
	if (d >= 0)
		x = divs(b, u(b, "aten.round", muls(b, x, p)), p);
	else
		x = muls(b, u(b, "aten.round", divs(b, x, p)), p);
	fdone(b, op, x);
	return 1;
}

/* glu(x, dim): a * sigmoid(b), a and b the halves along dim. */
static int
glu(B *b, Op *op)
{
	Value *x = OPND(op, 0), *v[5], *h0, *h1;
	int r = tt_rank(x->type);
	int64_t dim, n;

	if (r < 1 || !tv_int(OPND(op, 1), &dim) || (dim = tt_dim(dim, r)) < 0
	    || (n = x->type->dims[dim]) == DYN || n % 2 || !rdt(op) || !dt_isfloat(rdt(op)))
		return 0;
	v[0] = x, v[1] = b_int(b, dim), v[2] = b_int(b, 0), v[3] = b_int(b, n / 2), v[4] = b_int(b, 1);
	h0 = b_op(b, "aten.slice.Tensor", 5, v);
	v[0] = x, v[1] = b_int(b, dim), v[2] = b_int(b, n / 2), v[3] = b_int(b, n), v[4] = b_int(b, 1);
	h1 = b_op(b, "aten.slice.Tensor", 5, v);
	d_done(b, op, d_mul(b, h0, u(b, "aten.sigmoid", h1)));
	return 1;
}

/* ---- bitwise ---- */

/* bitwise_{and,or,xor}.Scalar: the Tensor form with a 0-d full. */
static int
bitwise_scalar(B *b, Op *op)
{
	Type *dt = rdt(op);
	const char *n = torch_opname(op);
	char name[40];

	if (!dt || dt_isfloat(dt) || !tt_dtype(OPND(op, 0)->type))
		return 0;
	snprintf(name, sizeof name, "aten.bitwise_%s.Tensor", n[13] == 'a' ? "and" : n[13] == 'o' ? "or" : "xor");
	d_done(b, op, b_op2(b, name, d_to(b, OPND(op, 0), dt), full0(b, OPND(op, 1), dt)));
	return 1;
}

static int
width(Type *dt)
{
	return dt && dt->kind == TY_INT && !dt_isbool(dt) ? dt->width : 0;
}

/* a >> maxshift: the sign (-1 or 0) of signed a, 0 of unsigned a. */
static Value *
shift_out(B *b, Value *a, Type *dt)
{
	Value *v;

	if (dt_isunsigned(dt))
		return b_op2(b, "aten.mul.Scalar", a, b_int(b, 0));
	v = b_op3(b, "aten.div.Scalar_mode", a, b_int(b, (int64_t)1 << (width(dt) - 2)),
	    b_str(b, "floor"));
	return b_op3(b, "aten.div.Scalar_mode", v, b_int(b, 2), b_str(b, "floor"));
}

/* bitwise_{left,right}_shift.Tensor(a, s) and __[lr]shift__.Tensor: PyTorch gives 0 (left) and
 * a >> maxshift (right) for s < 0 or s >= maxshift, maxshift the width
 * (less the sign bit for a signed right shift). */
static int
shift_tensor(B *b, Op *op)
{
	Type *dt = rdt(op);
	int w = width(dt), left = torch_is(op, "aten.bitwise_left_shift.Tensor")
	    || torch_is(op, "aten.__lshift__.Tensor");
	int maxs = w - (!left && !dt_isunsigned(dt));
	Value *a, *s, *sc, *p, *oob, *r;

	if (!w || !tt_dtype(OPND(op, 0)->type) || !tt_dtype(OPND(op, 1)->type))
		return 0;
	a = d_to(b, OPND(op, 0), dt);
	s = d_to(b, OPND(op, 1), dt);
	sc = b_op3(b, "aten.clamp", s, b_int(b, 0), b_int(b, maxs - 1));
	p = b_op2(b, "aten.pow.Scalar", b_int(b, 2), sc);
	oob = b_op2(b, "aten.logical_or", cmps(b, "aten.lt.Scalar", s, b_int(b, 0)),
	    cmps(b, "aten.ge.Scalar", s, b_int(b, maxs)));
	if (left) {
		r = b_op3(b, "aten.where.ScalarSelf", oob, b_int(b, 0), d_mul(b, a, p));
	} else {
		Value *v[3] = {a, p, b_str(b, "floor")};
		r = where(b, oob, shift_out(b, a, dt), b_op(b, "aten.div.Tensor_mode", 3, v));
	}
	d_done(b, op, r);
	return 1;
}

/* __rshift__.Scalar and __lshift__.Scalar by a constant. */
static int
shift_scalar(B *b, Op *op)
{
	Type *dt = rdt(op);
	int w = width(dt), left = torch_is(op, "aten.__lshift__.Scalar");
	int maxs = w - (!left && !dt_isunsigned(dt));
	Value *a = OPND(op, 0), *r;
	int64_t s;

	if (!w || tt_dtype(a->type) != dt || !tv_int(OPND(op, 1), &s))
		return 0;
	if (s < 0 || s >= maxs)
		r = left ? b_op2(b, "aten.mul.Scalar", a, b_int(b, 0)) : shift_out(b, a, dt);
	else if (left)
		r = b_op2(b, "aten.mul.Scalar", a, b_int(b, (int64_t)((uint64_t)1 << s)));
	else
		r = b_op3(b, "aten.div.Scalar_mode", a, b_int(b, (int64_t)1 << s), b_str(b, "floor"));
	d_done(b, op, r);
	return 1;
}

const Decomp decomp_ew[] = {
	{"aten.xlogy.Tensor", xlogy}, {"aten.log10", log10_}, {"aten.exp2", exp2_},
	{"aten.logaddexp", logaddexp}, {"aten.logaddexp2", logaddexp2}, {"aten.logit", logit},
	{"aten.log_sigmoid", log_sigmoid}, {"aten.log_sigmoid_forward", log_sigmoid},
	{"aten.atan", atan_}, {"aten.asin", asin_}, {"aten.acos", acos_},
	{"aten.sinh", sinh_}, {"aten.cosh", cosh_}, {"aten.asinh", asinh_},
	{"aten.acosh", acosh_}, {"aten.atanh", atanh_},
	{"aten.rad2deg", rad2deg}, {"aten.deg2rad", deg2rad},
	{"aten.heaviside", heaviside}, {"aten.rrelu", rrelu}, {"aten.rrelu_with_noise", rrelu},
	{"aten.softshrink", softshrink}, {"aten.hardshrink", hardshrink}, {"aten.celu", celu},
	{"aten.prelu", prelu}, {"aten.fmax", fmaxmin}, {"aten.fmin", fmaxmin},
	{"aten.nan_to_num", nan_to_num}, {"aten.frac", frac}, {"aten.sgn", sgn},
	{"aten.copysign.Tensor", copysign_},
	{"aten.isposinf", isposneginf}, {"aten.isneginf", isposneginf},
	{"aten.round.decimals", round_decimals}, {"aten.glu", glu},
	{"aten.bitwise_and.Scalar", bitwise_scalar}, {"aten.bitwise_or.Scalar", bitwise_scalar},
	{"aten.bitwise_xor.Scalar", bitwise_scalar},
	{"aten.bitwise_left_shift.Tensor", shift_tensor},
	{"aten.bitwise_right_shift.Tensor", shift_tensor},
	{"aten.__lshift__.Tensor", shift_tensor}, {"aten.__rshift__.Tensor", shift_tensor},
	{"aten.__rshift__.Scalar", shift_scalar}, {"aten.__lshift__.Scalar", shift_scalar},
	{NULL, NULL},
};

const OpTable decomp_ew_optables[] = {
	OPTABLE("decomposition", decomp_ew, "torch."),
	{NULL},
};
