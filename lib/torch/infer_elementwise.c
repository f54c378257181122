/*
 * infer_elementwise.c - inference for elementwise ops: the result shape
 * broadcasts the tensor operands named by a mask, the dtype comes from
 * PyTorch's type promotion over the operands named by another mask, then
 * per family: as is, made floating (true division, exp), or bool.
 */
#include "infer.h"

enum { M_PROMO, M_FLOAT, M_BOOL, M_SELF, M_DIVMODE };

#define EW(b, p, m) ((b) | ((p) << 8) | ((m) << 16))
#define UNARY EW(1, 1, M_PROMO)
#define UFLOAT EW(1, 1, M_FLOAT)
#define UBOOL EW(1, 1, M_BOOL)
#define BIN EW(3, 3, M_PROMO)
#define BFLOAT EW(3, 3, M_FLOAT)
#define BBOOL EW(3, 3, M_BOOL)

int
tt_broadcast(const Type *a, const Type *b, int64_t *dims)
{
	int ra = tt_rank(a), rb = tt_rank(b), r, i;
	int64_t x, y;

	if (ra < 0 || rb < 0)
		return -1;
	r = ra > rb ? ra : rb;
	for (i = 0; i < r; i++) {
		x = i < r - ra ? 1 : a->dims[i - (r - ra)];
		y = i < r - rb ? 1 : b->dims[i - (r - rb)];
		if (x == 1)
			dims[i] = y;
		else if (y == 1)
			dims[i] = x;
		else if (x == DYN || y == DYN)
			dims[i] = x == DYN ? y : x;
		else if (x == y)
			dims[i] = x;
		else
			return -2;
	}
	return r;
}

/* The broadcast shape of the tensor operands in mask: rank, -1 if some
 * is unranked, -2 if they do not broadcast. */
static int
bcast(Op *op, unsigned mask, int64_t *dims)
{
	Type *acc = NULL, *t;
	int i, r = 0;
	int64_t tmp[TORCH_MAXRANK];

	for (i = 0; i < op->nopnds && i < 8; i++) {
		if (!(mask & (1u << i)) || !tt_is(t = OPND(op, i)->type))
			continue;
		if (tt_rank(t) < 0)
			return -1;
		if (!acc) {
			acc = t;
			r = t->rank;
			for (int k = 0; k < r; k++)
				dims[k] = t->dims[k];
			continue;
		}
		Type fake = {.kind = TY_TORCH_VTENSOR, .ranked = 1, .rank = r, .dims = tmp};
		for (int k = 0; k < r; k++)
			tmp[k] = dims[k];
		if ((r = tt_broadcast(&fake, t, dims)) < 0)
			return -2;
	}
	return r;
}

static Type *
ew_dtype(Ctx *c, Op *op, unsigned pmask, int mode)
{
	Promo p = {0};
	Type *d;
	int i;

	if (mode == M_BOOL)
		return dt_bool(c);
	if (mode == M_SELF)
		return tt_dtype(OPND(op, 0)->type);
	for (i = 0; i < op->nopnds && i < 8; i++)
		if (pmask & (1u << i))
			promo_add(c, &p, OPND(op, i));
	if (!(d = promo_result(c, &p)))
		return NULL;
	if (mode == M_FLOAT && !dt_isfloat(d))
		return dt_f32(c);
	if (mode == M_DIVMODE && !dt_isfloat(d) && op->nopnds > 2
	    && tv_none(OPND(op, 2)))
		return dt_f32(c);
	return d;
}

static int
ew(Ctx *c, Op *op, Type **out, int arg)
{
	int64_t dims[TORCH_MAXRANK];
	int r = bcast(op, arg & 0xff, dims);

	if (r == -2)
		return 0;
	return out_set(c, op, out, 0, r, dims, ew_dtype(c, op, (arg >> 8) & 0xff,
	    arg >> 16));
}

/* masked_fill: self's dtype, self and mask broadcast. */
#define MASKED EW(3, 1, M_SELF)

const InferRule infer_elementwise[] = {
	/* unary, dtype kept */
	{"aten.neg", ew, UNARY}, {"aten.abs", ew, UNARY}, {"aten.relu", ew, UNARY},
	{"aten.floor", ew, UNARY}, {"aten.ceil", ew, UNARY}, {"aten.round", ew, UNARY},
	{"aten.trunc", ew, UNARY}, {"aten.sign", ew, UNARY}, {"aten.bitwise_not", ew, UNARY},
	{"aten.relu6", ew, UNARY}, {"aten.hardtanh", ew, UNARY}, {"aten.leaky_relu", ew, UNARY},
	{"aten.threshold", ew, UNARY}, {"aten.gelu", ew, UNARY}, {"aten.silu", ew, UNARY},
	{"aten.elu", ew, UNARY}, {"aten.hardswish", ew, UNARY}, {"aten.hardsigmoid", ew, UNARY},
	{"aten.mish", ew, UNARY}, {"aten.softplus", ew, UNARY}, {"aten.clone", ew, UNARY},
	{"aten.contiguous", ew, UNARY}, {"aten.detach", ew, UNARY}, {"aten.alias", ew, UNARY},
	{"aten.lift_fresh_copy", ew, UNARY}, {"aten.dropout", ew, UNARY},
	{"aten.feature_dropout", ew, UNARY}, {"aten.alpha_dropout", ew, UNARY},
	{"aten.zero", ew, UNARY}, {"aten.fill.Scalar", ew, UNARY}, {"aten.fill.Tensor", ew, UNARY},
	{"aten.tril", ew, UNARY}, {"aten.triu", ew, UNARY}, {"aten.flip", ew, UNARY},
	{"aten.roll", ew, UNARY}, {"aten.clamp_min", ew, EW(1, 3, M_PROMO)},
	{"aten.clamp_max", ew, EW(1, 3, M_PROMO)},
	/* clamp: self promoted with its (scalar) bounds, as PyTorch does */
	{"aten.clamp", ew, EW(1, 7, M_PROMO)}, {"aten.hardshrink", ew, UNARY}, {"aten.celu", ew, UNARY},
	{"aten.selu", ew, UNARY}, {"aten.square", ew, UNARY}, {"aten.copy", ew, EW(1, 1, M_SELF)},
	/* writes into self: self's shape and dtype */
	{"aten.index_put", ew, EW(1, 1, M_SELF)}, {"aten.slice_scatter", ew, EW(1, 1, M_SELF)},
	{"aten.as_strided_scatter", ew, EW(1, 1, M_SELF)},
	{"aten.select_scatter", ew, EW(1, 1, M_SELF)},
	{"aten.scatter.src", ew, EW(1, 1, M_SELF)}, {"aten.scatter_add", ew, EW(1, 1, M_SELF)},
	/* unary, made floating */
	{"aten.exp", ew, UFLOAT}, {"aten.expm1", ew, UFLOAT}, {"aten.log", ew, UFLOAT},
	{"aten.log1p", ew, UFLOAT}, {"aten.log2", ew, UFLOAT}, {"aten.log10", ew, UFLOAT},
	{"aten.sqrt", ew, UFLOAT}, {"aten.rsqrt", ew, UFLOAT}, {"aten.reciprocal", ew, UFLOAT},
	{"aten.sin", ew, UFLOAT}, {"aten.cos", ew, UFLOAT}, {"aten.tan", ew, UFLOAT},
	{"aten.tanh", ew, UFLOAT}, {"aten.sigmoid", ew, UFLOAT}, {"aten.erf", ew, UFLOAT},
	{"aten.asin", ew, UFLOAT}, {"aten.acos", ew, UFLOAT}, {"aten.atan", ew, UFLOAT},
	{"aten.sinh", ew, UFLOAT}, {"aten.cosh", ew, UFLOAT}, {"aten.exp2", ew, UFLOAT},
	/* unary, bool */
	{"aten.logical_not", ew, UBOOL}, {"aten.isnan", ew, UBOOL}, {"aten.isinf", ew, UBOOL},
	{"aten.signbit", ew, UBOOL},
	/* binary, promoted; alpha (operand 2) does not take part */
	{"aten.add.Tensor", ew, BIN}, {"aten.add.Scalar", ew, BIN},
	{"aten.sub.Tensor", ew, BIN}, {"aten.sub.Scalar", ew, BIN},
	{"aten.rsub.Tensor", ew, BIN}, {"aten.rsub.Scalar", ew, BIN},
	{"aten.mul.Tensor", ew, BIN}, {"aten.mul.Scalar", ew, BIN},
	{"aten.maximum", ew, BIN}, {"aten.minimum", ew, BIN},
	{"aten.remainder.Tensor", ew, BIN}, {"aten.remainder.Scalar", ew, BIN},
	{"aten.fmod.Tensor", ew, BIN}, {"aten.fmod.Scalar", ew, BIN},
	{"aten.bitwise_and.Tensor", ew, BIN}, {"aten.bitwise_or.Tensor", ew, BIN},
	{"aten.bitwise_xor.Tensor", ew, BIN}, {"aten.bitwise_and.Scalar", ew, BIN},
	{"aten.pow.Tensor_Tensor", ew, BIN}, {"aten.pow.Tensor_Scalar", ew, BIN},
	{"aten.pow.Scalar", ew, EW(2, 3, M_PROMO)},
	{"aten.floor_divide", ew, BIN}, {"aten.floor_divide.Scalar", ew, BIN},
	{"aten.clamp.Tensor", ew, EW(7, 7, M_PROMO)},
	{"aten.clamp_min.Tensor", ew, BIN}, {"aten.clamp_max.Tensor", ew, BIN},
	{"aten.div.Tensor", ew, BFLOAT}, {"aten.div.Scalar", ew, BFLOAT},
	{"aten.div.Tensor_mode", ew, EW(3, 3, M_DIVMODE)},
	{"aten.div.Scalar_mode", ew, EW(3, 3, M_DIVMODE)},
	{"aten.true_divide.Tensor", ew, BFLOAT}, {"aten.atan2", ew, BFLOAT},
	{"aten.lerp.Tensor", ew, EW(7, 3, M_PROMO)}, {"aten.lerp.Scalar", ew, BIN},
	{"aten.addcmul", ew, EW(7, 7, M_PROMO)}, {"aten.addcdiv", ew, EW(7, 7, M_PROMO)},
	{"aten.where.self", ew, EW(7, 6, M_PROMO)}, {"aten.where.Scalar", ew, EW(7, 6, M_PROMO)},
	{"aten.where.ScalarSelf", ew, EW(7, 6, M_PROMO)},
	{"aten.where.ScalarOther", ew, EW(7, 6, M_PROMO)},
	{"aten.masked_fill.Scalar", ew, MASKED}, {"aten.masked_fill.Tensor", ew, MASKED},
	/* comparisons and logic */
	{"aten.eq.Tensor", ew, BBOOL}, {"aten.eq.Scalar", ew, BBOOL},
	{"aten.ne.Tensor", ew, BBOOL}, {"aten.ne.Scalar", ew, BBOOL},
	{"aten.lt.Tensor", ew, BBOOL}, {"aten.lt.Scalar", ew, BBOOL},
	{"aten.le.Tensor", ew, BBOOL}, {"aten.le.Scalar", ew, BBOOL},
	{"aten.gt.Tensor", ew, BBOOL}, {"aten.gt.Scalar", ew, BBOOL},
	{"aten.ge.Tensor", ew, BBOOL}, {"aten.ge.Scalar", ew, BBOOL},
	{"aten.logical_and", ew, BBOOL}, {"aten.logical_or", ew, BBOOL},
	{"aten.logical_xor", ew, BBOOL},
	{NULL, NULL, 0},
};

const OpTable infer_elementwise_optables[] = {
	OPTABLE("inference rule", infer_elementwise, "torch."),
	{NULL},
};
