/*
 * decompose_rng.c - random number ops as a counter-based generator,
 * Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as
 * 1, 2, 3", SC 2011), in the backend contract's integer elementwise ops:
 * every element's numbers are a function of its index alone, so the
 * tensor parallelises and fuses like any elementwise op.  Rows in
 * decomp_bwd (decompose_bwd.c).
 *
 * Seed and streams.  The key is the 64-bit seed: the integer attribute
 * torch.rng_seed of the enclosing func.func, 0 when it has none
 * (formats/ir.md).  The counter of element i of the k-th random op of
 * the function (in program order, k from 0) is (i mod 2^32, i / 2^32, k,
 * 0): each op draws from its own stream, and the function's attribute
 * torch.rng_stream records the next k.  A compiled module thus gives
 * the same numbers on every run; the numbers are not PyTorch's (its
 * generator state is not ours to read), only their distributions are.
 *
 * The 32-bit words live in int64 tensors: a 32 x 32-bit product is an
 * int64 multiply (it wraps), its low word remainder(p, 2^32) and its
 * high word remainder(floor_divide(p, 2^32), 2^32); xor is bitwise_xor.
 * Words known at compile time (the key, the stream, the high index word)
 * are folded here, so the first round costs little.
 *
 * From the four words w0..w3 of an element:
 *   uniform [0, 1)  f32: (w0 >> 8) 2^-24;  f64: ((w0 >> 5) 2^26 + (w1 >> 6)) 2^-53
 *   uniform(a, b)   a + (b - a) u, clamped below b (rounding could reach b)
 *   normal          Box-Muller: sqrt(-2 log(1 - u)) cos(2 pi u') with u
 *                   from w0 (w0, w1), u' from w2 (w2, w3)
 *   exponential     -log(1 - u) / lambda
 *   bernoulli       u < p, in the op's dtype
 *   randint         low + hi32(w0 (high - low)) (high - low < 2^32)
 *   dropout         mask u < 1 - p, x * mask / (1 - p) (0 when p = 1)
 *   rrelu, training where(x <= 0, x * s, x), s uniform(lower, upper) as
 *                   above (lower when lower == upper); PyTorch also writes
 *                   s (1 where x > 0) into its noise operand, which the
 *                   value form drops: refused when noise has another use
 *   multinomial     with replacement: the number of entries of the
 *                   row's cumulative sum <= u * total (a binary search
 *                   of gathers); without: the n
 *                   smallest of E / p, E exponential (the sequential
 *                   draw's law), by topk.
 * What PyTorch checks when it runs (probabilities in [0, 1] for bernoulli,
 * non-negative rows with a positive sum for multinomial, enough non-zero
 * categories without replacement) is not checked at run time: such inputs
 * give numbers where PyTorch raises (without replacement, zero-probability
 * categories come last).
 * Float results are float32 or float64 (others are refused); shapes must
 * be static and hold fewer than 2^32 elements; a generator argument other
 * than None is refused (its seed could not be honoured).
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "decompose.h"

typedef struct W {
	Value *v;      /* an int64 tensor of words in [0, 2^32), or NULL: */
	uint32_t k;    /* the word k for every element */
} W;


static Value *
i64_lit(B *b, int64_t k)
{
	return b_literal(b, tt_vt(b->c, 0, NULL, dt_i64(b->c)), &k, sizeof k);
}

static Value *
rem32(B *b, Value *x)
{
	return b_op2(b, "aten.remainder.Scalar", x, b_int(b, (int64_t)1 << 32));
}

static Value *
floordiv_(B *b, Value *x, int64_t d)
{
	return b_op3(b, "aten.div.Scalar_mode", x, b_int(b, d), b_str(b, "floor"));
}

static W
w_xor(B *b, W x, W y)
{
	W r = {NULL, 0};

	if (!x.v && !y.v)
		r.k = x.k ^ y.k;
	else if (!x.v || !y.v) {
		W t = x.v ? x : y, k = x.v ? y : x;

		r.v = k.k ? b_op2(b, "aten.bitwise_xor.Tensor", t.v, i64_lit(b, k.k)) : t.v;
	} else
		r.v = b_op2(b, "aten.bitwise_xor.Tensor", x.v, y.v);
	return r;
}

static void
mulhilo(B *b, uint32_t m, W x, W *hi, W *lo)
{
	Value *p;

	if (!x.v) {
		uint64_t q = (uint64_t)m * x.k;

		hi->v = lo->v = NULL;
		hi->k = q >> 32, lo->k = (uint32_t)q;
		return;
	}
	p = b_op2(b, "aten.mul.Scalar", x.v, b_int(b, m));
	lo->v = rem32(b, p);
	hi->v = rem32(b, floordiv_(b, p, (int64_t)1 << 32));
}

/* Philox4x32-10 of counter c under key (k0, k1), in place. */
static void
philox(B *b, W c[4], uint32_t k0, uint32_t k1)
{
	int r;

	for (r = 0; r < 10; r++) {
		W hi0, lo0, hi1, lo1, kw0 = {NULL, k0}, kw1 = {NULL, k1};

		mulhilo(b, 0xD2511F53u, c[0], &hi0, &lo0);
		mulhilo(b, 0xCD9E8D57u, c[2], &hi1, &lo1);
		c[0] = w_xor(b, w_xor(b, hi1, c[1]), kw0);
		c[1] = lo1;
		c[2] = w_xor(b, w_xor(b, hi0, c[3]), kw1);
		c[3] = lo0;
		k0 += 0x9E3779B9u, k1 += 0xBB67AE85u;
	}
}

static Op *
enclosing_func(Op *op)
{
	while (op && strcmp(op->name, "func.func"))
		op = op->parent ? block_parent_op(op->parent) : NULL;
	return op;
}

/* The four words of every element of a tensor of static shape t (its
 * dims), drawn from the next stream of op's function; 0 when the shape
 * does not allow it. */
static int
draw(B *b, Op *op, const Type *t, W w[4])
{
	Op *fn = enclosing_func(op);
	Attr *a;
	uint64_t seed = 0;
	int64_t n = 1, stream = 0;
	int i, r = tt_rank(t);

	if (!fn || r < 0 || !ty_static(t))
		return 0;
	for (i = 0; i < r; i++)
		n *= t->dims[i];
	if ((a = op_attr(fn, "torch.rng_seed")) && a->kind == AT_INT)
		seed = (uint64_t)a->i;
	if ((a = op_attr(fn, "torch.rng_stream")) && a->kind == AT_INT)
		stream = a->i;
	if (n >= ((int64_t)1 << 32) || stream < 0 || stream >= ((int64_t)1 << 32))
		return 0;
	op_set_attr(b->c, fn, "torch.rng_stream", at_int(b->c, stream + 1, NULL));
	{
		Value *v[7] = {b_int(b, 0), b_int(b, n), b_int(b, 1),
			b_int(b, dt_code(dt_i64(b->c))), b_none(b), b_none(b), b_none(b)};
		Value *idx = b_op(b, "aten.arange.start_step", 7, v);

		if (r != 1)
			idx = b_op2(b, "aten.view", idx, b_ints(b, r, t->dims));
		w[0].v = idx, w[0].k = 0;
	}
	w[1].v = NULL, w[1].k = 0;
	w[2].v = NULL, w[2].k = (uint32_t)stream;
	w[3].v = NULL, w[3].k = 0;
	philox(b, w, (uint32_t)seed, (uint32_t)(seed >> 32));
	for (i = 0; i < 4; i++)
		if (!w[i].v)   /* never after ten rounds from a tensor index */
			return 0;
	return 1;
}

/* uniform [0, 1) in dt (f32 or f64) from words x (and y for f64) */
static Value *
unit(B *b, Type *dt, W x, W y)
{
	Value *m;

	if (dt == dt_f32(b->c))
		return b_op2(b, "aten.mul.Scalar", d_to(b, floordiv_(b, x.v, 256), dt),
		    b_float(b, ldexp(1, -24)));
	m = b_op3(b, "aten.add.Tensor", b_op2(b, "aten.mul.Scalar", floordiv_(b, x.v, 32),
	    b_int(b, (int64_t)1 << 26)), floordiv_(b, y.v, 64), b_int(b, 1));
	return b_op2(b, "aten.mul.Scalar", d_to(b, m, dt), b_float(b, ldexp(1, -53)));
}

/* The result type of op: static, float32 or float64 when fl, else any
 * int or float dtype but bool. */
static Type *
result(Op *op, Ctx *c, int fl)
{
	Type *t = RES(op, 0)->type, *dt;

	if (!tt_is(t) || !ty_static(t) || !(dt = tt_dtype(t)))
		return NULL;
	if (fl ? dt != dt_f32(c) && dt != dt_f64(c) : (dt_isbool(dt) || dt_code(dt) < 0))
		return NULL;
	return t;
}

static int
no_gen(Value *g)
{
	return tv_none(g);
}

static Value *
uniform_of(B *b, Op *op, Type *t)
{
	W w[4];

	if (!draw(b, op, t, w))
		return NULL;
	return unit(b, tt_dtype(t), w[0], w[1]);
}

/* rand(size, ...), rand_like(x, ...) */
static int
rand_(B *b, Op *op)
{
	Type *t = result(op, b->c, 1);
	Value *u;

	if (!t || !(u = uniform_of(b, op, t)))
		return 0;
	d_done(b, op, u);
	return 1;
}

/* uniform(x, from, to, gen) */
static int
uniform(B *b, Op *op)
{
	Type *t = result(op, b->c, 1);
	Value *u;
	double lo, hi, top;

	if (!t || !tv_float(OPND(op, 1), &lo) || !tv_float(OPND(op, 2), &hi) || !(lo < hi)
	    || !no_gen(OPND(op, 3)) || !(u = uniform_of(b, op, t)))
		return 0;
	u = b_op3(b, "aten.add.Scalar", b_op2(b, "aten.mul.Scalar", u, b_float(b, hi - lo)),
	    b_float(b, lo), b_int(b, 1));
	top = tt_dtype(t) == dt_f32(b->c) ? nextafterf((float)hi, -INFINITY) : nextafter(hi, -INFINITY);
	d_done(b, op, b_op2(b, "aten.clamp_max", u, b_float(b, top)));
	return 1;
}

/* standard normal of t by Box-Muller */
static Value *
normal_of(B *b, Op *op, Type *t)
{
	Type *dt = tt_dtype(t);
	Value *u1, *u2, *rad;
	W w[4];

	if (!draw(b, op, t, w))
		return NULL;
	u1 = b_op3(b, "aten.rsub.Scalar", unit(b, dt, w[0], w[1]), b_float(b, 1), b_int(b, 1));
	u2 = unit(b, dt, w[2], w[3]);
	rad = b_op1(b, "aten.sqrt", b_op2(b, "aten.mul.Scalar", b_op1(b, "aten.log", u1),
	    b_float(b, -2)));
	return b_op2(b, "aten.mul.Tensor", rad,
	    b_op1(b, "aten.cos", b_op2(b, "aten.mul.Scalar", u2, b_float(b, 2 * M_PI))));
}

/* randn(size, ...), randn.generator(size, gen, ...), randn_like(x, ...) */
static int
randn_(B *b, Op *op)
{
	Type *t = result(op, b->c, 1);
	Value *z;

	if (!t || (torch_is(op, "aten.randn.generator") && !no_gen(OPND(op, 1)))
	    || !(z = normal_of(b, op, t)))
		return 0;
	d_done(b, op, z);
	return 1;
}

/* normal_functional(x, mean, std, gen) */
static int
normal_functional(B *b, Op *op)
{
	Type *t = result(op, b->c, 1);
	Value *z;
	double mean, std;

	if (!t || !tv_float(OPND(op, 1), &mean) || !tv_float(OPND(op, 2), &std) || !(std >= 0)
	    || !no_gen(OPND(op, 3)) || !(z = normal_of(b, op, t)))
		return 0;
	d_done(b, op, b_op3(b, "aten.add.Scalar", b_op2(b, "aten.mul.Scalar", z, b_float(b, std)),
	    b_float(b, mean), b_int(b, 1)));
	return 1;
}

/* -log(1 - u): exponential of rate 1 */
static Value *
exp1_of(B *b, Op *op, Type *t)
{
	Value *u = uniform_of(b, op, t);

	if (!u)
		return NULL;
	return b_op1(b, "aten.neg", b_op1(b, "aten.log",
	    b_op3(b, "aten.rsub.Scalar", u, b_float(b, 1), b_int(b, 1))));
}

/* exponential(x, lambd, gen) */
static int
exponential(B *b, Op *op)
{
	Type *t = result(op, b->c, 1);
	Value *e;
	double lambd;

	if (!t || !tv_float(OPND(op, 1), &lambd) || !(lambd > 0) || !no_gen(OPND(op, 2))
	    || !(e = exp1_of(b, op, t)))
		return 0;
	d_done(b, op, b_op2(b, "aten.div.Scalar", e, b_float(b, lambd)));
	return 1;
}

/* bernoulli(p, gen), bernoulli.Tensor(x, p, gen), bernoulli.p(x, p, gen):
 * u < p as 0 and 1 in the result dtype (float; the uniform in float64
 * for an integer result) */
static int
bernoulli(B *b, Op *op)
{
	Type *t = result(op, b->c, 0), *ut;
	Value *p, *u, *m;
	int pt = torch_is(op, "aten.bernoulli.Tensor"), pf = torch_is(op, "aten.bernoulli.p");
	double pv;

	if (!t || !no_gen(OPND(op, (pt || pf) ? 2 : 1)))
		return 0;
	ut = tt_dtype(t) == dt_f32(b->c) ? dt_f32(b->c) : dt_f64(b->c);
	ut = tt_make(b->c, t, t->rank, t->dims, ut);
	if (pf) {
		if (!tv_float(OPND(op, 1), &pv) || !(pv >= 0 && pv <= 1) || !(u = uniform_of(b, op, ut)))
			return 0;
		m = b_op2(b, "aten.lt.Scalar", u, b_float(b, pv));
	} else {
		int64_t bd[TORCH_MAXRANK];

		p = OPND(op, pt ? 1 : 0);
		/* p broadcast beyond x is not bernoulli's */
		if (tt_rank(p->type) < 0 || !tt_dtype(p->type) || !dt_isfloat(tt_dtype(p->type))
		    || tt_broadcast(t, p->type, bd) != t->rank
		    || !dims_eq(bd, t->dims, t->rank) || !(u = uniform_of(b, op, ut)))
			return 0;
		m = b_op2(b, "aten.lt.Tensor", u, p);
	}
	d_done(b, op, d_to(b, m, tt_dtype(t)));
	return 1;
}

/* randint(high, size, dtype, ...), randint.low(low, high, size, dtype, ...) */
static int
randint(B *b, Op *op)
{
	Type *t = result(op, b->c, 0);
	int lowf = torch_is(op, "aten.randint.low");
	int64_t lo = 0, hi, range;
	Value *r;
	W w[4];

	if (!t || (lowf && !tv_int(OPND(op, 0), &lo)) || !tv_int(OPND(op, lowf), &hi) || hi <= lo
	    || hi - lo < 0 || (range = hi - lo) >= ((int64_t)1 << 32))
		return 0;
	if (dt_isfloat(tt_dtype(t)) && (lo < -(1LL << 53) || hi > (1LL << 53)))
		return 0;
	if (!draw(b, op, t, w))
		return 0;
	r = w[0].v;
	if (range > 1)   /* hi32(w0 * range): in [0, range) */
		r = rem32(b, floordiv_(b, b_op2(b, "aten.mul.Scalar", r, b_int(b, range)), (int64_t)1 << 32));
	else
		r = b_op2(b, "aten.mul.Scalar", r, b_int(b, 0));
	if (lo)
		r = b_op3(b, "aten.add.Scalar", r, b_int(b, lo), b_int(b, 1));
	d_done(b, op, d_to(b, r, tt_dtype(t)));
	return 1;
}

/* native_dropout(x, p, train): (x * mask / (1 - p), mask) in training,
 * (x, ones) else */
static int
native_dropout(B *b, Op *op)
{
	Value *x = OPND(op, 0), *res[2], *u, *v[6];
	Type *t = x->type, *ut;
	double p;
	int train = 1;

	if (!tv_none(OPND(op, 2)) && !tv_bool(OPND(op, 2), &train))
		return 0;
	if (!tt_is(t) || !ty_static(t) || !tt_dtype(t) || !tv_float(OPND(op, 1), &p) || !(p >= 0 && p <= 1))
		return 0;
	if (!train) {
		v[0] = d_shape(b, x), v[1] = b_bool(b, 1), v[2] = b_int(b, dt_code(dt_bool(b->c)));
		v[3] = b_none(b), v[4] = b_none(b), v[5] = b_none(b);
		res[0] = x, res[1] = b_op(b, "aten.full", 6, v);
		torch_replace(b->c, op, res);
		return 1;
	}
	if (tt_dtype(t) != dt_f32(b->c) && tt_dtype(t) != dt_f64(b->c))
		return 0;
	ut = t;
	if (!(u = uniform_of(b, op, ut)))
		return 0;
	res[1] = b_op2(b, "aten.lt.Scalar", u, b_float(b, 1 - p));
	res[0] = b_op2(b, "aten.mul.Scalar", b_op2(b, "aten.mul.Tensor", x, res[1]),
	    b_float(b, p == 1 ? 0 : 1 / (1 - p)));
	torch_replace(b->c, op, res);
	return 1;
}

/* multinomial(probs [C] or [B, C], n, replacement, gen) */
static int
multinomial(B *b, Op *op)
{
	Value *x = OPND(op, 0), *v[7], *u, *cdf, *tot, *cnt;
	Type *t = x->type, *dt = tt_dtype(t), *st;
	int64_t n, c, d[3];
	int repl, r = tt_rank(t);

	if ((r != 1 && r != 2) || !ty_static(t) || !dt || (dt != dt_f32(b->c) && dt != dt_f64(b->c))
	    || !tv_int(OPND(op, 1), &n) || !tv_bool(OPND(op, 2), &repl) || !no_gen(OPND(op, 3))
	    || n < 1 || (c = t->dims[r - 1]) < 1 || (!repl && n > c))
		return 0;
	if (!repl) {
		/* the n smallest of E / p: E of [.., C] */
		Value *e = exp1_of(b, op, t), *k;

		if (!e)
			return 0;
		k = b_op2(b, "aten.div.Tensor", e, x);
		v[0] = k, v[1] = b_int(b, n), v[2] = b_int(b, -1), v[3] = b_bool(b, 0), v[4] = b_bool(b, 1);
		d_done(b, op, RES(b_opn(b, "aten.topk", 5, v), 1));
		return 1;
	}
	/* u of [.., n] times the row total, its place in the row's cumulative
	 * sum by binary search: lo = #{c : cdf[c] <= v}, the cdf
	 * non-decreasing, each step a gather */
	d[0] = r == 2 ? t->dims[0] : 1, d[1] = n;
	st = tt_make(b->c, t, r, r == 2 ? d : d + 1, dt);
	if (!(u = uniform_of(b, op, st)))
		return 0;
	v[0] = x, v[1] = b_int(b, -1), v[2] = b_none(b);
	cdf = b_op(b, "aten.cumsum", 3, v);
	v[0] = x, v[1] = b_ints(b, 1, (int64_t[]){-1}), v[2] = b_bool(b, 1), v[3] = b_none(b);
	tot = b_op(b, "aten.sum.dim_IntList", 4, v);
	u = d_mul(b, u, tot);
	{
		int64_t step;
		Value *g[4], *f[6] = {b_ints(b, st->rank, st->dims), b_int(b, 0),
			b_int(b, dt_code(dt_i64(b->c))), b_none(b), b_none(b), b_none(b)};

		cnt = b_op(b, "aten.full", 6, f);
		for (step = 1; step * 2 <= c; step *= 2)
			;
		for (; step >= 1; step /= 2) {
			Value *cand = b_op3(b, "aten.add.Scalar", cnt, b_int(b, step), b_int(b, 1));
			Value *at = b_op2(b, "aten.clamp_max", b_op3(b, "aten.sub.Scalar", cand,
			    b_int(b, 1), b_int(b, 1)), b_int(b, c - 1));
			Value *ok;

			g[0] = cdf, g[1] = b_int(b, -1), g[2] = at, g[3] = b_bool(b, 0);
			ok = b_op2(b, "aten.logical_and",
			    b_op2(b, "aten.le.Scalar", cand, b_int(b, c)),
			    b_op2(b, "aten.le.Tensor", b_op(b, "aten.gather", 4, g), u));
			cnt = b_op3(b, "aten.where.self", ok, cand, cnt);
		}
	}
	d_done(b, op, b_op2(b, "aten.clamp_max", cnt, b_int(b, c - 1)));
	return 1;
}

/* rrelu_with_noise(x, noise, lower, upper, true, gen) (k = 2) and
 * rrelu(x, lower, upper, true, gen) (k = 1), lower and upper known:
 * like PyTorch's CPU kernel, x <= 0 (-0 and 0 too) takes x * s with s
 * uniform in [lower, upper), others (NaN too) stay x.  Called from
 * decompose_ew.c's rrelu for the training mode. */
int
d_rrelu_train(B *b, Op *op, int k, double lo, double hi)
{
	Type *t = result(op, b->c, 1);
	Value *x = OPND(op, 0), *s, *neg;
	double top;

	if (!t || !tt_is(x->type) || tt_dtype(x->type) != tt_dtype(t) || !ty_static(x->type)
	    || tt_rank(x->type) != t->rank
	    || !dims_eq(x->type->dims, t->dims, t->rank)
	    || !(lo <= hi) || !no_gen(OPND(op, k + 3)))
		return 0;
	/* the noise PyTorch writes is not produced: nothing else may read it */
	if (k == 2 && !value_has_one_use(OPND(op, 1)))
		return 0;
	neg = b_op2(b, "aten.le.Scalar", x, b_float(b, 0));
	if (lo == hi)
		s = b_op2(b, "aten.mul.Scalar", x, b_float(b, lo));
	else {
		if (!(s = uniform_of(b, op, t)))
			return 0;
		s = b_op3(b, "aten.add.Scalar", b_op2(b, "aten.mul.Scalar", s, b_float(b, hi - lo)),
		    b_float(b, lo), b_int(b, 1));
		top = tt_dtype(t) == dt_f32(b->c) ? nextafterf((float)hi, -INFINITY) : nextafter(hi, -INFINITY);
		s = b_op2(b, "aten.mul.Tensor", x, b_op2(b, "aten.clamp_max", s, b_float(b, top)));
	}
	d_done(b, op, b_op3(b, "aten.where.self", neg, s, x));
	return 1;
}

int d_rand(B *b, Op *op) { return rand_(b, op); }
int d_randn(B *b, Op *op) { return randn_(b, op); }
int d_uniform(B *b, Op *op) { return uniform(b, op); }
int d_normal_functional(B *b, Op *op) { return normal_functional(b, op); }
int d_exponential(B *b, Op *op) { return exponential(b, op); }
int d_bernoulli(B *b, Op *op) { return bernoulli(b, op); }
int d_randint(B *b, Op *op) { return randint(b, op); }
int d_native_dropout(B *b, Op *op) { return native_dropout(b, op); }
int d_multinomial(B *b, Op *op) { return multinomial(b, op); }
