/*
 * decompose_bwd.c - the elementwise backward ops of activations and of
 * softmax, and the prims ops PyTorch's decompositions leave behind, in
 * elementwise ops and reductions of the backend contract:
 *   threshold_backward      where(x <= t, 0, g)
 *   hardtanh_backward       where(x <= lo | x >= hi, 0, g)
 *   leaky_relu_backward     where(x > 0, g, g * slope)
 *   rrelu_with_noise_backward  g * noise (training, upper - lower > 1e-6),
 *                           leaky_relu_backward at (lower + upper) / 2 (eval)
 *   elu_backward            where(x <= 0, g * is * (y + a * s) | g * is * a * s
 *                           * exp(x * is), g * s)
 *   softplus_backward       where(x * beta > t, g, g * z / (z + 1)), z = exp(x * beta)
 *   gelu_backward           g * (cdf + x * pdf); tanh: the derivative of the
 *                           tanh approximation
 *   tanh_backward           g * (1 - y * y);  sigmoid_backward  g * y * (1 - y)
 *   _softmax_backward_data  g * y - y * sum(g * y, dim)
 *   _log_softmax_backward_data  g - exp(y) * sum(g, dim)
 *   prims.view_of           its input;  prims.convert_element_type  to.dtype
 *   prims.squeeze           squeeze.dim of each listed dim
 *   prims.split_dim         a view [.., outer, n / outer, ..]
 *   prims.sum, prims.prod   reductions over the listed dims in the input's
 *                           dtype (or output_dtype): float and int64 inputs,
 *                           where the prim's definition and eager agree.
 * Each computes in the op's result dtype, widened to float for float16 and
 * bfloat16 as PyTorch's kernels do (their opmath), and narrows at the end.
 * The operand dtypes PyTorch's kernels refuse (an integer gelu_backward)
 * are refused here too: the op stays and the verifier names it.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "decompose.h"

static Value *
mul_s(B *b, Value *x, double s)
{
	return b_op2(b, "aten.mul.Scalar", x, b_float(b, s));
}

static Value *
add_s(B *b, Value *x, double s)
{
	return b_op3(b, "aten.add.Scalar", x, b_float(b, s), b_int(b, 1));
}

/* s - x */
static Value *
rsub_s(B *b, Value *x, double s)
{
	return b_op3(b, "aten.rsub.Scalar", x, b_float(b, s), b_int(b, 1));
}

/* The result dtype of op and the dtype it computes in; 0 when unknown,
 * or (float_only) not a floating dtype. */
static int
dtypes(B *b, Op *op, int float_only, Type **rdt, Type **odt)
{
	Type *t = RES(op, 0)->type;

	if (!tt_is(t) || !(*rdt = tt_dtype(t)) || dt_code(*rdt) < 0
	    || (float_only && !dt_isfloat(*rdt)) || dt_isbool(*rdt))
		return 0;
	*odt = dt_opmath(b->c, *rdt);
	return 1;
}

/* Operands i and j of op known tensors. */
static int
tensors(Op *op, int i, int j)
{
	return tt_rank(OPND(op, i)->type) >= 0 && tt_dtype(OPND(op, i)->type)
	    && tt_rank(OPND(op, j)->type) >= 0 && tt_dtype(OPND(op, j)->type);
}

static void
done(B *b, Op *op, Value *v, Type *rdt)
{
	d_done(b, op, d_to(b, v, rdt));
}

/* ---- activations ---- */

/* threshold_backward(g, x, t): integers too; the threshold converted to
 * the integer dtype (toward zero) as the kernel does. */
static int
threshold_backward(B *b, Op *op)
{
	Type *rdt, *odt;
	Value *g, *x, *th, *c;
	double t;

	if (!dtypes(b, op, 0, &rdt, &odt) || !tensors(op, 0, 1) || !tv_float(OPND(op, 2), &t))
		return 0;
	g = d_to(b, OPND(op, 0), odt), x = d_to(b, OPND(op, 1), odt);
	if (dt_isfloat(odt))
		th = b_float(b, t);
	else if (fabs(t) < 9.2e18)
		th = b_int(b, (int64_t)t);
	else
		return 0;
	c = b_op2(b, "aten.le.Scalar", x, th);
	done(b, op, b_op3(b, "aten.where.ScalarSelf", c, b_int(b, 0), g), rdt);
	return 1;
}

/* hardtanh_backward(g, x, min, max) */
static int
hardtanh_backward(B *b, Op *op)
{
	Type *rdt, *odt;
	Value *g, *x, *c;
	double lo, hi;

	if (!dtypes(b, op, 1, &rdt, &odt) || !tensors(op, 0, 1) || !tv_float(OPND(op, 2), &lo)
	    || !tv_float(OPND(op, 3), &hi))
		return 0;
	g = d_to(b, OPND(op, 0), odt), x = d_to(b, OPND(op, 1), odt);
	c = b_op2(b, "aten.logical_or", b_op2(b, "aten.le.Scalar", x, b_float(b, lo)),
	    b_op2(b, "aten.ge.Scalar", x, b_float(b, hi)));
	done(b, op, b_op3(b, "aten.where.ScalarSelf", c, b_float(b, 0), g), rdt);
	return 1;
}

static Value *
leaky(B *b, Value *g, Value *x, double slope)
{
	Value *c = b_op2(b, "aten.gt.Scalar", x, b_int(b, 0));

	return b_op3(b, "aten.where.self", c, g, mul_s(b, g, slope));
}

/* leaky_relu_backward(g, x, slope, self_is_result) */
static int
leaky_relu_backward(B *b, Op *op)
{
	Type *rdt, *odt;
	double s;

	if (!dtypes(b, op, 1, &rdt, &odt) || !tensors(op, 0, 1) || !tv_float(OPND(op, 2), &s))
		return 0;
	done(b, op, leaky(b, d_to(b, OPND(op, 0), odt), d_to(b, OPND(op, 1), odt), s), rdt);
	return 1;
}

/* rrelu_with_noise_backward(g, x, noise, lower, upper, training, is_result) */
static int
rrelu_with_noise_backward(B *b, Op *op)
{
	Type *rdt, *odt;
	double lo, hi;
	int train;

	if (!dtypes(b, op, 1, &rdt, &odt) || !tensors(op, 0, 1) || !tv_float(OPND(op, 3), &lo)
	    || !tv_float(OPND(op, 4), &hi) || !tv_bool(OPND(op, 5), &train))
		return 0;
	/* training with lower == upper: PyTorch 1.13 multiplies by the noise,
	 * later releases take leaky_relu_backward; refused */
	if (train && hi - lo <= 1e-6)
		return 0;
	if (train) {
		if (!tensors(op, 0, 2))
			return 0;
		done(b, op, b_op2(b, "aten.mul.Tensor", OPND(op, 0), OPND(op, 2)), rdt);
		return 1;
	}
	done(b, op, leaky(b, d_to(b, OPND(op, 0), odt), d_to(b, OPND(op, 1), odt),
	    (lo + hi) / 2), rdt);
	return 1;
}

/* elu_backward(g, alpha, scale, input_scale, is_result, x_or_y) */
static int
elu_backward(B *b, Op *op)
{
	Type *rdt, *odt;
	Value *g, *x, *neg, *c;
	double alpha, scale, is;
	int res;

	if (!dtypes(b, op, 1, &rdt, &odt) || !tensors(op, 0, 5) || !tv_float(OPND(op, 1), &alpha)
	    || !tv_float(OPND(op, 2), &scale) || !tv_float(OPND(op, 3), &is)
	    || !tv_bool(OPND(op, 4), &res))
		return 0;
	g = d_to(b, OPND(op, 0), odt), x = d_to(b, OPND(op, 5), odt);
	if (res)    /* y = a * s * (exp(x * is) - 1): the derivative is is * (y + a * s) */
		neg = d_mul(b, mul_s(b, g, is), add_s(b, x, alpha * scale));
	else
		neg = d_mul(b, mul_s(b, mul_s(b, g, is), alpha * scale),
		    b_op1(b, "aten.exp", mul_s(b, x, is)));
	c = b_op2(b, "aten.le.Scalar", x, b_int(b, 0));
	done(b, op, b_op3(b, "aten.where.self", c, neg, mul_s(b, g, scale)), rdt);
	return 1;
}

/* softplus_backward(g, x, beta, threshold) */
static int
softplus_backward(B *b, Op *op)
{
	Type *rdt, *odt;
	Value *g, *x, *xb, *z, *c;
	double beta, th;

	if (!dtypes(b, op, 1, &rdt, &odt) || !tensors(op, 0, 1) || !tv_float(OPND(op, 2), &beta)
	    || !tv_float(OPND(op, 3), &th))
		return 0;
	g = d_to(b, OPND(op, 0), odt), x = d_to(b, OPND(op, 1), odt);
	xb = mul_s(b, x, beta);
	z = b_op1(b, "aten.exp", xb);
	c = b_op2(b, "aten.gt.Scalar", xb, b_float(b, th));
	done(b, op, b_op3(b, "aten.where.self", c, g, d_div(b, d_mul(b, g, z), add_s(b, z, 1))),
	    rdt);
	return 1;
}

/* gelu_backward(g, x, approximate) */
static int
gelu_backward(B *b, Op *op)
{
	const double sqrt2 = 1.41421356237309504880, sqrt1_2 = 0.70710678118654752440;
	const double two_sqrtpi = 1.12837916709551257390;
	Type *rdt, *odt;
	Value *g, *x, *d;
	const char *mode;

	if (!dtypes(b, op, 1, &rdt, &odt) || !tensors(op, 0, 1) || !tv_str(OPND(op, 2), &mode))
		return 0;
	g = d_to(b, OPND(op, 0), odt), x = d_to(b, OPND(op, 1), odt);
	if (!strcmp(mode, "none")) {
		/* cdf + x * pdf, cdf = (1 + erf(x / sqrt 2)) / 2, pdf = exp(-x^2 / 2) / sqrt(2 pi) */
		Value *cdf = mul_s(b, add_s(b, b_op1(b, "aten.erf", mul_s(b, x, sqrt1_2)), 1), 0.5);
		Value *pdf = mul_s(b, b_op1(b, "aten.exp", mul_s(b, d_mul(b, x, x), -0.5)),
		    two_sqrtpi * sqrt1_2 * 0.5);
		d = d_add(b, cdf, d_mul(b, x, pdf));
	} else if (!strcmp(mode, "tanh")) {
		/* u = k (x + c x^3), t = tanh u: d/dx of x (1 + t) / 2 is
		 * (1 + t) / 2 + x / 2 * (1 - t^2) * k (1 + 3 c x^2) */
		const double k = sqrt2 * two_sqrtpi * 0.5, cc = 0.044715;
		Value *x2 = d_mul(b, x, x), *x3 = d_mul(b, x2, x);
		Value *t = b_op1(b, "aten.tanh", mul_s(b, d_add(b, x, mul_s(b, x3, cc)), k));
		Value *left = mul_s(b, add_s(b, t, 1), 0.5);
		Value *dt = rsub_s(b, d_mul(b, t, t), 1);
		Value *du = mul_s(b, add_s(b, mul_s(b, x2, 3 * cc), 1), k);
		d = d_add(b, left, d_mul(b, d_mul(b, mul_s(b, x, 0.5), dt), du));
	} else
		return 0;
	done(b, op, d_mul(b, g, d), rdt);
	return 1;
}

/* tanh_backward(g, y), sigmoid_backward(g, y) */
static int
tanh_backward(B *b, Op *op)
{
	Type *rdt, *odt;
	Value *g, *y;

	if (!dtypes(b, op, 1, &rdt, &odt) || !tensors(op, 0, 1))
		return 0;
	g = d_to(b, OPND(op, 0), odt), y = d_to(b, OPND(op, 1), odt);
	done(b, op, d_mul(b, g, rsub_s(b, d_mul(b, y, y), 1)), rdt);
	return 1;
}

static int
sigmoid_backward(B *b, Op *op)
{
	Type *rdt, *odt;
	Value *g, *y;

	if (!dtypes(b, op, 1, &rdt, &odt) || !tensors(op, 0, 1))
		return 0;
	g = d_to(b, OPND(op, 0), odt), y = d_to(b, OPND(op, 1), odt);
	done(b, op, d_mul(b, g, d_mul(b, y, rsub_s(b, y, 1))), rdt);
	return 1;
}

/* _softmax_backward_data(g, y, dim, input_dtype) and the log form: the
 * result in input_dtype, which PyTorch's CPU kernel wants equal to g's. */
static int
softmax_bwd_at(B *b, Op *op, int logf)
{
	Type *rdt, *odt, *gdt;
	Value *g, *y, *s, *v[4];
	int64_t dim, code;
	int r;

	if (!dtypes(b, op, 1, &rdt, &odt) || !tensors(op, 0, 1) || !tv_int(OPND(op, 2), &dim)
	    || !tv_int(OPND(op, 3), &code) || !(gdt = tt_dtype(OPND(op, 0)->type))
	    || gdt != rdt || dt_from_code(b->c, code) != rdt
	    || tt_dtype(OPND(op, 1)->type) != rdt)
		return 0;
	r = tt_rank(OPND(op, 0)->type);
	if (tt_dim(dim, r ? r : 1) < 0)
		return 0;
	g = d_to(b, OPND(op, 0), odt), y = d_to(b, OPND(op, 1), odt);
	if (!logf)
		g = d_mul(b, g, y);
	v[0] = g, v[1] = b_ints(b, r ? 1 : 0, &dim), v[2] = b_bool(b, 1), v[3] = b_none(b);
	if (!r)   /* a 0-dim softmax: the sum over its one element is itself */
		s = g;
	else
		s = b_op(b, "aten.sum.dim_IntList", 4, v);
	if (logf)
		done(b, op, d_sub(b, g, d_mul(b, b_op1(b, "aten.exp", y), s)), rdt);
	else
		done(b, op, d_sub(b, g, d_mul(b, y, s)), rdt);
	return 1;
}

static int softmax_backward(B *b, Op *op) { return softmax_bwd_at(b, op, 0); }
static int log_softmax_backward(B *b, Op *op) { return softmax_bwd_at(b, op, 1); }

/* ---- prims ---- */

static int
view_of(B *b, Op *op)
{
	if (tt_rank(OPND(op, 0)->type) < 0)
		return 0;
	d_done(b, op, OPND(op, 0));
	return 1;
}

/* convert_element_type(x, dtype) */
static int
convert_element_type(B *b, Op *op)
{
	int64_t code;
	Type *dt;

	if (tt_rank(OPND(op, 0)->type) < 0 || !tt_dtype(OPND(op, 0)->type)
	    || !tv_int(OPND(op, 1), &code) || !(dt = dt_from_code(b->c, code)) || dt_code(dt) < 0)
		return 0;
	d_done(b, op, d_to(b, OPND(op, 0), dt));
	return 1;
}

static int
cmp_desc(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? 1 : x > y ? -1 : 0;
}

/* The dims of list v normalized against rank r, sorted descending, no
 * repeats; their count or -1. */
static int
dims_desc(Value *v, int r, int64_t *d)
{
	int n = tv_ints(v, d, TORCH_MAXRANK), i;

	if (n < 0 || r < 0)
		return -1;
	for (i = 0; i < n; i++)
		if ((d[i] = tt_dim(d[i], r)) < 0)
			return -1;
	qsort(d, n, sizeof *d, cmp_desc);
	for (i = 1; i < n; i++)
		if (d[i] == d[i - 1])
			return -1;
	return n;
}

/* squeeze(x, dims): each listed dim has extent 1 (a static one must) */
static int
squeeze(B *b, Op *op)
{
	Value *x = OPND(op, 0);
	int64_t d[TORCH_MAXRANK];
	int r = tt_rank(x->type), n, i;

	if ((n = dims_desc(OPND(op, 1), r, d)) < 0)
		return 0;
	for (i = 0; i < n; i++)
		if (x->type->dims[d[i]] != 1 && x->type->dims[d[i]] != DYN)
			return 0;
	for (i = 0; i < n; i++)
		x = b_op2(b, "aten.squeeze.dim", x, b_int(b, d[i]));
	d_done(b, op, x);
	return 1;
}

/* split_dim(x, dim, outer): [.., outer, n / outer, ..] */
static int
split_dim(B *b, Op *op)
{
	Value *x = OPND(op, 0), *v;
	Type *t = x->type;
	int64_t dim, outer, d[TORCH_MAXRANK];
	int r = tt_rank(t), i, k = 0;

	if (r < 1 || r >= TORCH_MAXRANK || !tv_int(OPND(op, 1), &dim) || !tv_int(OPND(op, 2), &outer)
	    || (dim = tt_dim(dim, r)) < 0 || outer < 1)
		return 0;
	if (t->dims[dim] != DYN && t->dims[dim] % outer)
		return 0;
	for (i = 0; i < r; i++)
		if (i == dim) {
			d[k++] = outer;
			d[k++] = t->dims[i] == DYN ? DYN : t->dims[i] / outer;
		} else
			d[k++] = t->dims[i];
	if (!(v = d_view(b, x, k, d)))
		return 0;
	d_done(b, op, v);
	return 1;
}

/* prims.sum(x, dims, output_dtype), prims.prod(x, dims, output_dtype):
 * no promotion, an empty list reduces nothing. */
static int
reduce_at(B *b, Op *op, int prod)
{
	Value *x = OPND(op, 0), *v[4];
	Type *dt = tt_dtype(x->type);
	int64_t d[TORCH_MAXRANK], code;
	int r = tt_rank(x->type), n, i;

	if (!dt || dt_code(dt) < 0 || dt_isbool(dt) || (n = dims_desc(OPND(op, 1), r, d)) < 0)
		return 0;
	/* an integer other than int64 is promoted by eager's aten.sum and
	 * aten.prod, not by the prim's definition: refused */
	if (!dt_isfloat(dt) && dt != dt_i64(b->c) && tv_none(OPND(op, 2)))
		return 0;
	if (!tv_none(OPND(op, 2))) {
		if (!tv_int(OPND(op, 2), &code) || !(dt = dt_from_code(b->c, code)) || dt_code(dt) < 0)
			return 0;
	}
	/* PyTorch's eager prims.sum is aten.sum: an empty list reduces every
	 * dim there, none by the prim's definition; refused */
	if (!n && !prod)
		return 0;
	if (!n) {
		d_done(b, op, d_to(b, x, dt));
		return 1;
	}
	if (!prod) {
		v[0] = x, v[1] = b_ints(b, n, d), v[2] = b_bool(b, 0), v[3] = b_int(b, dt_code(dt));
		d_done(b, op, b_op(b, "aten.sum.dim_IntList", 4, v));
		return 1;
	}
	for (i = 0; i < n; i++) {
		v[0] = x, v[1] = b_int(b, d[i]), v[2] = b_bool(b, 0), v[3] = b_int(b, dt_code(dt));
		x = b_op(b, "aten.prod.dim_int", 4, v);
	}
	d_done(b, op, x);
	return 1;
}

static int prims_sum(B *b, Op *op) { return reduce_at(b, op, 0); }
static int prims_prod(B *b, Op *op) { return reduce_at(b, op, 1); }

const Decomp decomp_bwd[] = {
	{"aten.threshold_backward", threshold_backward},
	{"aten.hardtanh_backward", hardtanh_backward},
	{"aten.leaky_relu_backward", leaky_relu_backward},
	{"aten.rrelu_with_noise_backward", rrelu_with_noise_backward},
	{"aten.elu_backward", elu_backward}, {"aten.softplus_backward", softplus_backward},
	{"aten.gelu_backward", gelu_backward}, {"aten.tanh_backward", tanh_backward},
	{"aten.sigmoid_backward", sigmoid_backward},
	{"aten._softmax_backward_data", softmax_backward},
	{"aten._log_softmax_backward_data", log_softmax_backward},
	{"prims.view_of", view_of}, {"prims.convert_element_type", convert_element_type},
	{"prims.squeeze", squeeze}, {"prims.split_dim", split_dim},
	{"prims.sum", prims_sum}, {"prims.prod", prims_prod},
	{"aten.rand", d_rand}, {"aten.rand_like", d_rand},
	{"aten.randn", d_randn}, {"aten.randn.generator", d_randn}, {"aten.randn_like", d_randn},
	{"aten.uniform", d_uniform}, {"aten.normal_functional", d_normal_functional},
	{"aten.exponential", d_exponential},
	{"aten.bernoulli", d_bernoulli}, {"aten.bernoulli.Tensor", d_bernoulli},
	{"aten.bernoulli.p", d_bernoulli},
	{"aten.randint", d_randint}, {"aten.randint.low", d_randint},
	{"aten.native_dropout", d_native_dropout}, {"aten.multinomial", d_multinomial},
	{NULL, NULL},
};

const OpTable decomp_bwd_optables[] = {
	OPTABLE("decomposition", decomp_bwd, "torch."),
	{NULL},
};
