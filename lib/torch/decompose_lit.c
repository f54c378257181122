/*
 * decompose_lit.c - decompositions torch-mlir's DecomposeComplexOps has
 * that the other tables lacked.
 *
 * decomp_lit, run everywhere:
 *   _assert_scalar(c, msg)     runtime.assert(Bool.int(c) or Bool.float(c))
 *                              with msg as its message (a constant msg)
 *   sym_constrain_range_for_size(s, min, max)
 *                              sym_constrain_range(s, min or 0, max); a
 *                              constant max <= 2 is an error, as eager's
 *
 * decomp_lit_contract, ops of the backend contract (torch-lower lowers
 * them as they are): only when torch-decompose is not given keep-contract,
 * which the default pipeline gives, so that these never change what the
 * pipeline computes:
 *   argmax(x, dim, keepdim)    max.dim(x, dim, keepdim)'s indices; dim
 *                              None: of x flattened to 1-D (keepdim false)
 *   argmin                     the same with min.dim
 *   mean.dim(x, dims, keep, dt)  sum.dim_IntList(x, dims, keep, dt) divided
 *                              (div.Scalar) by the count of the reduced
 *                              elements: eager's mean on CPU is that sum,
 *                              rounded to the result dtype, then divided
 *   mish(x)                    x * tanh(softplus(x)), softplus with beta 1
 *                              and threshold 20 as exp, log1p, where; only
 *                              where eager rounds each step as we do (not
 *                              f16, bf16: eager computes those in f32)
 */
#include <string.h>

#include "decompose.h"

/* A torch.constant.int of value v before op in its block, or a new one:
 * MLIR's rewriter folds equal constants into one, and torch-mlir's tests
 * name the one the input had. */
Value *
d_int_before(B *b, Op *op, int64_t v)
{
	Op *p;
	int64_t x;

	for (p = op->prev; p; p = p->prev)
		if (op_is(p, "torch.constant.int") && tv_int(RES(p, 0), &x) && x == v)
			return RES(p, 0);
	return b_int(b, v);
}

static int
assert_scalar(B *b, Op *op)
{
	Value *c = OPND(op, 0);
	Type *bt = ty_torch(b->c, TY_TORCH_BOOL);
	const char *msg, *cv = NULL;
	Op *a;

	if (!tv_str(OPND(op, 1), &msg))
		return 0;
	if (c->type->kind == TY_TORCH_INT)
		cv = "torch.aten.Bool.int";
	else if (c->type->kind == TY_TORCH_FLOAT)
		cv = "torch.aten.Bool.float";
	else if (c->type->kind != TY_TORCH_BOOL)
		return 0;
	if (cv) {
		a = op_new(b->c, intern(b->c, cv), 1, &c, 1, &bt, 0, op->loc);
		op_insert_before(op, a);
		c = RES(a, 0);
	}
	a = op_new(b->c, intern(b->c, "torch.runtime.assert"), 1, &c, 0, NULL, 0, op->loc);
	op_set_attr(b->c, a, "message", at_str(b->c, msg));
	op_insert_before(op, a);
	op_erase(op);
	return 1;
}

static int
constrain_for_size(B *b, Op *op)
{
	Value *v[3] = {OPND(op, 0), OPND(op, 1), OPND(op, 2)};
	int64_t lo, hi;
	Op *r;

	if (tv_none(v[1]))
		v[1] = d_int_before(b, op, 0);
	else if (!tv_int(v[1], &lo))
		return 0;
	if (!tv_none(v[2])) {
		if (!tv_int(v[2], &hi))
			return 0;
		if (hi <= 2) {
			op_error(op, "max value to constrain_range_for_size must be greater than 2, got: %lld",
			    (long long)hi);
			return 0;
		}
	}
	r = op_new(b->c, intern(b->c, "torch.aten.sym_constrain_range"), 3, v, 0, NULL, 0, op->loc);
	op_insert_before(op, r);
	op_erase(op);
	return 1;
}

const Decomp decomp_lit[] = {
	{"aten._assert_scalar", assert_scalar},
	{"aten.sym_constrain_range_for_size", constrain_for_size},
	{NULL, NULL},
};

/* ---- contract ops: standalone torch-decompose only ---- */

static int
arg_reduce(B *b, Op *op, const char *red)
{
	Value *x = OPND(op, 0), *dim = OPND(op, 1), *v[3];
	int r = tt_rank(x->type), keep;
	int64_t d;

	if (r < 1 || !tv_bool(OPND(op, 2), &keep) || !tt_is(RES(op, 0)->type))
		return 0;
	if (tv_none(dim)) {
		if (keep && r > 1)
			return 0;
		v[1] = b_int(b, 0);
		v[2] = b_bool(b, 0);
		if (r > 1)
			x = b_op3(b, "aten.flatten.using_ints", x, b_int(b, 0), b_int(b, r - 1));
	} else {
		if (!tv_int(dim, &d) || d < -r || d >= r)
			return 0;
		v[1] = dim;
		v[2] = OPND(op, 2);
	}
	v[0] = x;
	Op *m = b_opn(b, red, 3, v);
	d_done(b, op, RES(m, 1));
	return 1;
}

static int argmax_op(B *b, Op *op) { return arg_reduce(b, op, "aten.max.dim"); }
static int argmin_op(B *b, Op *op) { return arg_reduce(b, op, "aten.min.dim"); }

/* a !torch.int op of two operands (size.int, mul.int) */
static Value *
int_op(B *b, const char *name, Value *x, Value *y)
{
	Type *it = ty_torch(b->c, TY_TORCH_INT);
	Value *v[2] = {x, y};
	Op *o = op_new(b->c, intern(b->c, name), 2, v, 1, &it, 0, b->loc);

	op_insert_before(b->at, o);
	return RES(o, 0);
}

static Value *
extent(B *b, Value *x, int i)
{
	if (x->type->dims[i] != DYN)
		return b_int(b, x->type->dims[i]);
	return int_op(b, "torch.aten.size.int", x, b_int(b, i));
}

static int
mean_dim(B *b, Op *op)
{
	Value *x = OPND(op, 0), *v[4], *count = NULL;
	int64_t d[TORCH_MAXRANK], n = 0, k = 1;
	int r = tt_rank(x->type), wrap, i, j, all, seen[TORCH_MAXRANK] = {0};
	Type *dt = tt_is(RES(op, 0)->type) ? tt_dtype(RES(op, 0)->type) : NULL;

	if (r < 0 || !dt || !dt_isfloat(dt))
		return 0;
	all = tv_none(OPND(op, 1));
	if (!all && (n = tv_ints(OPND(op, 1), d, TORCH_MAXRANK)) < 0)
		return 0;
	all = all || n == 0;
	wrap = r ? r : 1;
	for (i = 0; i < n; i++) {
		if (d[i] < -wrap || d[i] >= wrap)
			return 0;
		d[i] = d[i] < 0 ? d[i] + wrap : d[i];
		if (r && seen[d[i]]++)
			return 0;    /* eager refuses a dim twice */
	}
	/* the count: constant when the reduced extents are static */
	for (i = 0; i < r; i++) {
		int red = all;
		for (j = 0; j < n && !red; j++)
			red = d[j] == i;
		if (!red)
			continue;
		if (x->type->dims[i] == DYN)
			k = -1;
		else if (k >= 0)
			k *= x->type->dims[i];
	}
	if (k >= 0)
		count = b_int(b, k);
	v[0] = x, v[1] = OPND(op, 1), v[2] = OPND(op, 2), v[3] = OPND(op, 3);
	Value *s = b_op(b, "aten.sum.dim_IntList", 4, v);
	if (!count) {
		for (i = 0; i < r; i++) {
			int red = all;
			for (j = 0; j < n && !red; j++)
				red = d[j] == i;
			if (red)
				count = count ? int_op(b, "torch.aten.mul.int", count, extent(b, x, i))
				    : extent(b, x, i);
		}
	}
	d_done(b, op, b_op2(b, "aten.div.Scalar", s, count));
	return 1;
}

static int
mish(B *b, Op *op)
{
	Value *x = OPND(op, 0), *one, *th, *sc, *sp, *v[3];
	Type *dt = tt_is(x->type) ? tt_dtype(x->type) : NULL;

	if (!dt || !dt_isfloat(dt) || dt_opmath(b->c, dt) != dt)
		return 0;
	one = b_float(b, 1);
	th = b_float(b, 20);
	sc = b_op2(b, "aten.mul.Scalar", x, one);
	sp = b_op2(b, "aten.div.Scalar", b_op1(b, "aten.log1p", b_op1(b, "aten.exp", sc)), one);
	v[0] = b_op2(b, "aten.gt.Scalar", sc, th), v[1] = x, v[2] = sp;
	sp = b_op(b, "aten.where.self", 3, v);
	d_done(b, op, b_op2(b, "aten.mul.Tensor", x, b_op1(b, "aten.tanh", sp)));
	return 1;
}

const Decomp decomp_lit_contract[] = {
	{"aten.argmax", argmax_op}, {"aten.argmin", argmin_op},
	{"aten.mean.dim", mean_dim}, {"aten.mish", mish},
	{NULL, NULL},
};

const OpTable decomp_lit_optables[] = {
	OPTABLE("decomposition", decomp_lit, "torch."),
	OPTABLE("decomposition", decomp_lit_contract, "torch."),
	{NULL},
};
