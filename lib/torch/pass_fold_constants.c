/*
 * pass_fold_constants.c - torch-fold-constants: evaluates ops whose
 * tensor operands are all literals (weights), e.g. t(W) becomes the
 * transposed literal, the per-channel factors of a decomposed batch norm
 * become literals.
 *
 * needs:       value semantics and static result types.
 * guarantees:  layout ops (t, transpose, permute, views, squeeze,
 *              unsqueeze, clone) and elementwise arithmetic (add, sub,
 *              mul, div with broadcasting; neg, sqrt, rsqrt, reciprocal,
 *              exp, log, ...) on literals with a static result type of a
 *              float dtype are replaced by a literal, computed in double
 *              and rounded once to the result dtype (layout ops of one
 *              dtype move the elements' bytes), unless the result
 *              would be larger than its largest operand (expand is not
 *              materialized).  New literals are dense attributes when
 *              small, new resources otherwise.
 * invalidates: op identities; old literals may become dead.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fold.h"
#include "optable.h"
#include "pass.h"
#include "torch.h"

typedef struct Arg {
	double *d;        /* tensor data, or NULL for a scalar */
	int64_t n;
	double s;         /* the scalar */
	Type *t;
} Arg;

typedef double (*Un)(double);
typedef double (*Bin)(double, double, double);   /* x, y, alpha */

static double f_neg(double x) { return -x; }
static double f_rsqrt(double x) { return 1 / sqrt(x); }
static double f_recip(double x) { return 1 / x; }
static double f_relu(double x) { return x > 0 ? x : 0; }
static double f_sigmoid(double x) { return 1 / (1 + exp(-x)); }
static double f_id(double x) { return x; }

static double f_add(double x, double y, double a) { return x + a * y; }
static double f_sub(double x, double y, double a) { return x - a * y; }
static double f_rsub(double x, double y, double a) { return y - a * x; }
static double f_mul(double x, double y, double a) { return x * y; }
static double f_div(double x, double y, double a) { return x / y; }

static const struct {
	const char *name;
	Un fn;
} unary[] = {
	{"aten.neg", f_neg}, {"aten.sqrt", sqrt}, {"aten.rsqrt", f_rsqrt},
	{"aten.reciprocal", f_recip}, {"aten.exp", exp}, {"aten.log", log},
	{"aten.abs", fabs}, {"aten.relu", f_relu}, {"aten.sigmoid", f_sigmoid},
	{"aten.tanh", tanh}, {"aten.clone", f_id}, {"aten.contiguous", f_id},
	{"aten.detach", f_id},
};

/* binary: alpha at operand 2 (0: none) */
static const struct {
	const char *name;
	Bin fn;
	int alpha;
} binary[] = {
	{"aten.add.Tensor", f_add, 2}, {"aten.sub.Tensor", f_sub, 2},
	{"aten.add.Scalar", f_add, 2}, {"aten.sub.Scalar", f_sub, 2},
	{"aten.rsub.Scalar", f_rsub, 2}, {"aten.mul.Tensor", f_mul, 0},
	{"aten.mul.Scalar", f_mul, 0}, {"aten.div.Tensor", f_div, 0},
	{"aten.div.Scalar", f_div, 0},
};

/* Ops that keep the element order: only the type changes. */
static const char *const reshapes[] = {
	"aten.view", "aten.reshape", "aten._unsafe_view", "aten._reshape_alias",
	"aten.unsqueeze", "aten.squeeze", "aten.squeeze.dim", "aten.flatten.using_ints",
	"aten.unflatten.int", NULL,
};

const OpTable fold_constants_optables[] = {
	OPTABLE("constant fold", unary, "torch."),
	OPTABLE("constant fold", binary, "torch."),
	OPTABLE("constant fold", reshapes, "torch."),
	{NULL},
};

static int
arg_of(Value *v, Arg *a)
{
	a->d = NULL;
	a->t = v->type;
	if (!tt_is(v->type))
		return tv_float(v, &a->s);
	return (a->d = lit_load(v, &a->n)) != NULL;
}

/* The flat index into operand type t for output index i of type rt. */
static int64_t
bcast_index(const Type *rt, const Type *t, int64_t i)
{
	int64_t idx = 0, stride = 1;
	int k, r = rt->rank, off = r - t->rank;

	for (k = r - 1; k >= 0; k--) {
		int64_t c = i % rt->dims[k];
		i /= rt->dims[k];
		if (k >= off) {
			int64_t d = t->dims[k - off];
			idx += (d == 1 ? 0 : c) * stride;
			stride *= d;
		}
	}
	return idx;
}

static double
elem(const Arg *a, const Type *rt, int64_t i, int same)
{
	if (!a->d)
		return a->s;
	if (a->n == 1)
		return a->d[0];
	return same ? a->d[i] : a->d[bcast_index(rt, a->t, i)];
}

static double *
eval_binary(Bin fn, Arg *x, Arg *y, double alpha, Type *rt, int64_t n)
{
	double *out = xmalloc(mulsz(n ? n : 1, sizeof *out));
	int sx = x->d && x->t == rt, sy = y->d && y->t == rt;
	int64_t i;

	for (i = 0; i < n; i++)
		out[i] = fn(elem(x, rt, i, sx), elem(y, rt, i, sy), alpha);
	return out;
}

/* The stride in input t of each dim of the result of permuting t. */
static void
perm_strides(const Type *t, const int *perm, int64_t *ostride)
{
	int64_t stride[TORCH_MAXRANK];
	int r = t->rank, k;

	for (k = r - 1, stride[r - 1 < 0 ? 0 : r - 1] = 1; k > 0; k--)
		stride[k - 1] = stride[k] * t->dims[k];
	for (k = 0; k < r; k++)
		ostride[k] = stride[perm[k]];
}

/* The input index of the result's element i. */
static int64_t
perm_from(const Type *rt, const int64_t *ostride, int64_t i)
{
	int64_t from = 0;
	int k;

	for (k = rt->rank - 1; k >= 0; k--) {
		from += (i % rt->dims[k]) * ostride[k];
		i /= rt->dims[k];
	}
	return from;
}

/* transpose / permute / t: out[i] = in[perm'd index] */
static double *
eval_permute(const Arg *x, const int *perm, Type *rt, int64_t n)
{
	int64_t ostride[TORCH_MAXRANK], i;
	double *out = xmalloc(mulsz(n ? n : 1, sizeof *out));

	perm_strides(x->t, perm, ostride);
	for (i = 0; i < n; i++)
		out[i] = x->d[perm_from(rt, ostride, i)];
	return out;
}

/* The permutation a layout op applies, into perm; 0 if not one. */
static int
perm_of(Op *op, int r, int *perm)
{
	int64_t a, b, p[TORCH_MAXRANK];
	int k;

	for (k = 0; k < r; k++)
		perm[k] = k;
	if (torch_is(op, "aten.t"))
		return r == 2 ? (perm[0] = 1, perm[1] = 0, 1) : r < 2;
	if (torch_is(op, "aten.transpose.int")) {
		if (!tv_int(OPND(op, 1), &a) || !tv_int(OPND(op, 2), &b)
		    || (a = tt_dim(a, r)) < 0 || (b = tt_dim(b, r)) < 0)
			return 0;
		perm[a] = b, perm[b] = a;
		return 1;
	}
	if (torch_is(op, "aten.permute")) {
		if (tv_ints(OPND(op, 1), p, TORCH_MAXRANK) != r)
			return 0;
		for (k = 0; k < r; k++)
			if ((perm[k] = tt_dim(p[k], r)) < 0)
				return 0;
		return 1;
	}
	return 0;
}

static int
is_reshape(const char *name)
{
	int i;

	for (i = 0; reshapes[i]; i++)
		if (!strcmp(reshapes[i], name))
			return 1;
	return 0;
}

/* Computes op's result over literal operands; NULL when it cannot. */
static double *
evaluate(Op *op, Type *rt, int64_t n, int64_t *maxin)
{
	const char *name = torch_opname(op);
	Arg x = {0}, y = {0};
	double *out = NULL, alpha = 1;
	int perm[TORCH_MAXRANK];
	size_t i;

	if (!name || op->nopnds < 1 || !arg_of(OPND(op, 0), &x) || !x.d)
		goto done;
	*maxin = x.n;
	if (is_reshape(name)) {
		if (x.n == n)
			out = x.d, x.d = NULL;
		goto done;
	}
	if (perm_of(op, tt_rank(x.t), perm)) {
		out = eval_permute(&x, perm, rt, n);
		goto done;
	}
	for (i = 0; i < sizeof unary / sizeof *unary; i++)
		if (!strcmp(unary[i].name, name) && op->nopnds == 1) {
			out = xmalloc(mulsz(n ? n : 1, sizeof *out));
			for (int64_t k = 0; k < n; k++)
				out[k] = unary[i].fn(x.d[x.n == 1 ? 0 : k]);
			goto done;
		}
	for (i = 0; i < sizeof binary / sizeof *binary; i++) {
		if (strcmp(binary[i].name, name) || op->nopnds < 2 || !arg_of(OPND(op, 1), &y))
			continue;
		if (binary[i].alpha && op->nopnds > binary[i].alpha
		    && !tv_float(OPND(op, binary[i].alpha), &alpha))
			break;
		if (y.d && y.n > *maxin)
			*maxin = y.n;
		out = eval_binary(binary[i].fn, &x, &y, alpha, rt, n);
		break;
	}
done:
	free(x.d);
	free(y.d);
	return out;
}

/* A layout op on a literal of the result's dtype: its elements moved as
 * bytes, not through doubles (a linear layer's weight passes through
 * here: 8 MB for resnet50's); NULL when it is not one. */
static Value *
permute_bytes(Ctx *c, Op *op, Type *rt)
{
	Value *x = OPND(op, 0);
	const Type *t = x->type;
	Attr *a = value_const(x);
	int perm[TORCH_MAXRANK], r = tt_rank(t);
	int64_t ostride[TORCH_MAXRANK], i, n = ty_numel(rt);
	const uint8_t *src;
	uint8_t *out;
	size_t nb, es;

	if (!a || (a->kind != AT_DENSE && a->kind != AT_DENSE_RESOURCE) ||
	    (a->kind == AT_DENSE && a->splat) || tt_dtype(t) != tt_dtype(rt) ||
	    r < 1 || !ty_static(t) || !perm_of(op, r, perm))
		return NULL;
	es = elem_size(a->type->elem);
	src = dense_bytes(a, &nb);
	if (!src || !es || nb != (size_t)n * es || ty_numel(t) != n)
		return NULL;
	perm_strides(t, perm, ostride);
	out = xmalloc(nb ? nb : 1);
	for (i = 0; i < n; i++)
		memcpy(out + (size_t)i * es, src + (size_t)perm_from(rt, ostride, i) * es, es);
	B b = b_at(c, op);
	return b_literal_take(&b, rt, out, nb, NULL);
}

static int
fold(Ctx *c, Op *op)
{
	Type *rt;
	int64_t n, maxin = 0;
	double *out;
	Value *pv;

	if (op->nres != 1 || !torch_opname(op) || !tt_is(rt = RES(op, 0)->type)
	    || rt->kind != TY_TORCH_VTENSOR || !ty_static(rt) || !dt_isfloat(tt_dtype(rt)))
		return 0;
	for (int i = 0; i < op->nopnds; i++)
		if (tt_is(OPND(op, i)->type) && !lit_load_ok(OPND(op, i)))
			return 0;
	if (op->nopnds >= 1 && tt_is(OPND(op, 0)->type) && (pv = permute_bytes(c, op, rt))) {
		torch_replace(c, op, &pv);
		return 1;
	}
	n = ty_numel(rt);
	if (!(out = evaluate(op, rt, n, &maxin)))
		return 0;
	if (n > maxin && n > 1024) {
		free(out);
		return 0;
	}
	B b = b_at(c, op);
	Value *v = lit_make(&b, rt, out, n, NULL);
	free(out);
	torch_replace(c, op, &v);
	return 1;
}

static int
run(Ctx *c, Op *fn, PassArgs *a)
{
	optable_require(fold_constants_optables);
	if (torch_rewrite_each(c, fn, fold))
		a->changed = 1;
	return 0;
}

const PassInfo pass_torch_fold_constants = {
	.name = "torch-fold-constants",
	.summary = "evaluate torch ops whose tensor operands are all literals",
	.anchor = "func.func",
	.run = run,
};
