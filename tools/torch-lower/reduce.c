/*
 * reduce.c - reductions: a linalg.generic with reduction iterators into a
 * filled accumulator of the kept dims, then expand_shape for keepdim.
 * Floats accumulate in f32 at least; max and min let NaN win, as PyTorch
 * does; max.dim and argmax carry (value, index) pairs and keep the first
 * index of ties.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "lower.h"

/* Applied to each element before it is combined, in the accumulator type. */
typedef Value *(*Pre)(L *l, Value *x, Type *acc, const double *p);

/* The largest finite value of float dtype d. */
static double
dt_max_finite(Type *d)
{
	switch (d->kind) {
	case TY_F16: return 65504.0;
	case TY_BF16: return 0x1.fep127;
	case TY_F32: return 0x1.fffffep127;
	default: return DBL_MAX;
	}
}

static Value *
ident(L *l, Type *d, const char *kind)
{
	int mx = !strcmp(kind, "max"), mn = !strcmp(kind, "min");

	if (!strcmp(kind, "prod") || !strcmp(kind, "all"))
		return cst_d(l, 1, d);
	if (!mx && !mn)
		return cst_d(l, 0, d);
	if (dt_isfloat(d) && l->finite)
		return cst_f(l, mx ? -dt_max_finite(d) : dt_max_finite(d), d);
	if (dt_isfloat(d))
		return cst_f(l, mx ? -INFINITY : INFINITY, d);
	if (dt_isunsigned(d))
		return cst_i(l, mx ? 0 : -1, belem(l->c, d));
	if (d->width == 64)
		return cst_i(l, mx ? INT64_MIN : INT64_MAX, belem(l->c, d));
	return cst_i(l, mx ? -(INT64_C(1) << (d->width - 1)) :
		(INT64_C(1) << (d->width - 1)) - 1, belem(l->c, d));
}

static Value *
combine(L *l, const char *kind, Type *d, Value *acc, Value *x)
{
	if (!strcmp(kind, "sum") || !strcmp(kind, "mean"))
		return ar(l, "add", d, acc, x);
	if (!strcmp(kind, "prod"))
		return ar(l, "mul", d, acc, x);
	if (!strcmp(kind, "any"))
		return ar(l, "or", d, acc, x);
	if (!strcmp(kind, "all"))
		return ar(l, "and", d, acc, x);
	return ar(l, kind, d, acc, x);
}

/* An empty tensor of type bt, its dim k of v's dim keep[k] (tensor.dim
 * of v where dynamic). */
static Value *
empty_kept(L *l, Type *bt, Value *v, const int *keep)
{
	Value *from[64];

	for (int k = 0; k < bt->rank && k < 64; k++)
		from[k] = v;
	return empty_from(l, bt, from, keep);
}

/* Reduces v (dtype vd) over the dims with red[i] set, into acc dtype;
 * the result has the kept dims only. */
static Value *
reduce(L *l, Value *v, Type *vd, const int *red, const char *kind, Type *acc,
	Pre pre, const double *p)
{
	Type *t = v->type;
	int r = t->rank, nk = 0, i;
	int64_t kd[64];
	int keep[64];
	char it[65];
	AffMap *maps[2];
	Value *out;
	Gen g;

	for (i = 0; i < r; i++) {
		it[i] = red[i] ? 'r' : 'p';
		if (!red[i]) {
			keep[nk] = i;
			kd[nk++] = t->dims[i];
		}
	}
	it[r] = 0;
	out = fill(l, ident(l, acc, kind), empty_kept(l, tensor_of(l->c, nk, kd, acc), v, keep));
	maps[0] = map_id(l, r);
	maps[1] = map_sel(l, r, nk, keep);
	gen_begin(l, &g, 1, &v, 1, &out, maps, r, it);
	Value *x = cv(l, g.arg[0], vd, acc);
	if (pre)
		x = pre(l, x, acc, p);
	Value *y = combine(l, kind, acc, g.arg[1], x);
	return gen_end(l, &g, 1, &y);
}

/* Elementwise f over a tensor: out = f(a[, b]) with b broadcast from the
 * kept dims of a's shape (b may be NULL). */
typedef Value *(*Fn2)(L *l, Value *a, Value *b, Type *d, const double *p);

static Value *
map2(L *l, Value *a, Value *b, const int *bsel, int nb, Type *d, Type *rd,
	Fn2 f, const double *p)
{
	Type *bt = tensor_of(l->c, a->type->rank, a->type->dims, rd);
	Value *out = empty(l, bt, a), *ins[2] = { a, b };
	AffMap *maps[3];
	Gen g;
	Value *scalar = nb < 0 ? b : NULL;   /* nb -1: b is a scalar, read in the body */
	if (scalar)
		b = NULL;
	int n = b ? 2 : 1;

	if (!out)
		return NULL;
	maps[0] = map_id(l, bt->rank);
	maps[1] = b && bsel ? map_sel(l, bt->rank, nb, bsel) : maps[0];
	maps[n] = map_id(l, bt->rank);
	gen_begin(l, &g, n, ins, 1, &out, maps, bt->rank, NULL);
	Value *y = f(l, g.arg[0], b ? g.arg[1] : scalar, d, p);
	return gen_end(l, &g, 1, &y);
}

/* The reduced dims of op's operand `at` (a list, an int or none), with
 * keepdim read from operand `at + 1`; all dims when at < 0. */
static int
red_dims(L *l, Op *op, int at, int r, int *red, int *keepdim)
{
	int64_t dims[64];
	int n = 0, i, d;

	*keepdim = 0;
	for (i = 0; i < r; i++)
		red[i] = at < 0;
	if (at < 0)
		return 0;
	Value *v = OPND(op, at);
	if (tv_none(v))
		n = 0;
	else if (tv_int(v, &dims[0]))
		n = 1;
	else if ((n = tv_ints(v, dims, 64)) < 0) {
		op_error(op, "torch-lower: expected constant dims");
		return -1;
	}
	if (!n)
		for (i = 0; i < r; i++)
			red[i] = 1;
	for (i = 0; i < n; i++) {
		if ((d = norm_dim(l, dims[i], r)) < 0)
			return -1;
		red[d] = 1;
	}
	if (at + 1 < op->nopnds)
		tv_bool(OPND(op, at + 1), keepdim);
	return 0;
}

/* v of the kept dims to bt, which has the reduced ones (red) as 1 among
 * dynamic ones (keepdim): an expand_shape, each unit dim in the group of
 * the kept dim before it (leading ones in the first kept dim's). */
static Value *
keep_units(L *l, Value *v, Type *bt, const int *red)
{
	Attr *groups[64], *inner[64][64];
	int n[64] = {0}, g = -1, lead = 0, i, k;

	for (i = 0; i < bt->rank; i++) {
		if (!red[i]) {
			g++;
			for (; lead; lead--)
				inner[g][n[g]++] = at_int(l->c, i - lead, NULL);
			inner[g][n[g]++] = at_int(l->c, i, NULL);
		} else if (g < 0) {
			lead++;
		} else {
			inner[g][n[g]++] = at_int(l->c, i, NULL);
		}
	}
	for (k = 0; k <= g; k++)
		groups[k] = at_array(l->c, n[k], inner[k]);
	return expand_dims(l, v, bt, at_array(l->c, g + 1, groups), 0);
}

static int finish(L *l, Op *op, int i, Value *v, Type *from);

/* finish of a reduction whose operand may have dynamic dims: keepdim's
 * unit dims put in among them */
static int
finish_red(L *l, Op *op, int i, Value *v, Type *from, const int *red, int keep)
{
	Type *bt = btensor(l->c, op->res[i].type);

	if (!v || !bt)
		return -1;
	if (ty_static(bt))
		return finish(l, op, i, v, from);
	v = convert_tensor(l, v, from, op->res[i].type->elem);
	if (v->type != bt)
		v = keep ? keep_units(l, v, bt, red) : emit1(l, "tensor.cast", 1, &v, bt);
	set(l, RES(op, i), v);
	return 0;
}

/* The reduced dims are static (their count is a constant); else an error */
static int
red_static(L *l, Op *op, Type *st, const int *red)
{
	int i;

	for (i = 0; i < st->rank; i++)
		if (red[i] && st->dims[i] == DYN) {
			op_error(op, "torch-lower: '%s' over a dynamic dimension is not "
				"supported yet", op->name);
			return 0;
		}
	return 1;
}

static int
finish(L *l, Op *op, int i, Value *v, Type *from)
{
	Type *rtt = op->res[i].type, *bt = btensor(l->c, rtt);

	if (!v || !bt)
		return -1;
	v = convert_tensor(l, v, from, rtt->elem);
	if (v->type != bt && !(v = reshape_to(l, v, bt)))
		return -1;
	set(l, RES(op, i), v);
	return 0;
}

/* finish of result i of an argmax, argmin, max.dim or min.dim over dim
 * d (keepdim: operand 2) */
static int
finish_arg(L *l, Op *op, int i, Value *v, Type *from, int d)
{
	int red[64] = {0}, keep = 0;

	red[d] = 1;
	tv_bool(OPND(op, 2), &keep);
	return finish_red(l, op, i, v, from, red, keep);
}

static int64_t
count(Type *t, const int *red)
{
	int64_t n = 1;
	int i;

	for (i = 0; i < t->rank; i++)
		if (red[i])
			n *= t->dims[i];
	return n;
}

static Value *
f_div_by(L *l, Value *a, Value *b, Type *d, const double *p)
{
	return ar(l, "div", d, a, b);
}

static Value *
f_scale(L *l, Value *a, Value *b, Type *d, const double *p)
{
	return ar(l, "div", d, a, cst_d(l, p[0], d));
}

/* the operand holding the dims: "x.dim..." forms and amax/amin */
static int
dims_operand(Op *op)
{
	if (strstr(op->name, ".dim") || op_is(op, "torch.aten.amax") ||
			op_is(op, "torch.aten.amin"))
		return 1;
	return -1;
}

int
lower_reduce(L *l, Op *op, const void *arg)
{
	const char *kind = arg;
	Type *st = ttype(l, OPND(op, 0)), *rt = op->res[0].type->elem, *acc;
	int red[64], keep;
	Value *v;

	if (!st->ranked || st->rank > 64 || !rt) {
		op_error(op, "torch-lower: '%s' needs a ranked operand", op->name);
		return -1;
	}
	if (red_dims(l, op, dims_operand(op), st->rank, red, &keep))
		return -1;
	int dyn_count = 0;
	for (int i = 0; i < st->rank; i++)
		dyn_count |= red[i] && st->dims[i] == DYN;
	if (!strcmp(kind, "any") || !strcmp(kind, "all"))
		acc = dt_bool(l->c);
	else if (!strcmp(kind, "max") || !strcmp(kind, "min"))
		acc = dt_opmath(l->c, st->elem);
	else
		acc = dt_opmath(l->c, rt);
	v = reduce(l, get(l, OPND(op, 0)), st->elem, red, kind, acc, NULL, NULL);
	if (v && !strcmp(kind, "mean") && !dyn_count) {
		double n = (double)count(st, red);
		v = map2(l, v, NULL, NULL, 0, acc, acc, f_scale, &n);
	} else if (v && !strcmp(kind, "mean")) {
		/* the count at run time: the product of the reduced sizes */
		Value *x = get(l, OPND(op, 0)), *n = cst_idx(l, 1);
		for (int i = 0; i < st->rank; i++)
			if (red[i])
				n = bin(l, "arith.muli", n, emit1(l, "tensor.dim", 2,
					(Value *[]){x, cst_idx(l, i)}, ty_index(l->c)));
		n = emit1(l, "arith.index_cast", 1, &n, ty_int(l->c, 64, SIGNLESS));
		n = cv(l, n, dt_i64(l->c), acc);
		v = map2(l, v, n, NULL, -1, acc, acc, f_div_by, NULL);
	}
	return finish_red(l, op, 0, v, acc, red, keep);
}

/* (value, index) over dim d of v */
static int
argreduce(L *l, Value *v, Type *vd, int d, int mx, Value **vals, Value **idxs)
{
	Type *t = v->type, *acc = dt_opmath(l->c, vd), *i64 = dt_i64(l->c);
	int r = t->rank, nk = 0, i;
	int64_t kd[64];
	int keep[64];
	char it[65];
	AffMap *maps[3];
	Value *outs[2];
	Gen g;

	for (i = 0; i < r; i++) {
		it[i] = i == d ? 'r' : 'p';
		if (i != d) {
			keep[nk] = i;
			kd[nk++] = t->dims[i];
		}
	}
	it[r] = 0;
	/* the kept dims' sizes, dynamic ones from v */
	for (i = 0; i < 2; i++) {
		Value *c = i ? cst_d(l, 0, i64) : ident(l, acc, mx ? "max" : "min");

		outs[i] = fill(l, c, empty_kept(l, tensor_of(l->c, nk, kd, i ? i64 : acc), v, keep));
	}
	maps[0] = map_id(l, r);
	maps[1] = maps[2] = map_sel(l, r, nk, keep);
	gen_begin(l, &g, 1, &v, 2, outs, maps, r, it);
	Value *x = cv(l, g.arg[0], vd, acc), *a = g.arg[1];
	Value *better = cmp(l, mx ? "gt" : "lt", acc, x, a);
	if (dt_isfloat(acc)) {
		Value *xn = cmpf(l, "uno", x, x), *an = cmpf(l, "ord", a, a);
		better = bin(l, "arith.ori", better, bin(l, "arith.andi", xn, an));
	}
	Value *ix = from_index(l, lindex(l, d), belem(l->c, i64));
	Value *y[2] = { sel(l, better, x, a), sel(l, better, ix, g.arg[2]) };
	gen_end(l, &g, 2, y);
	*vals = RES(g.op, 0);
	*idxs = RES(g.op, 1);
	return 0;
}

int
lower_maxdim(L *l, Op *op, const void *arg)
{
	Type *st = ttype(l, OPND(op, 0));
	Value *vals, *idxs;
	int d;

	if (!st->ranked || (d = norm_dim(l, tv_ival(OPND(op, 1)), st->rank)) < 0)
		return -1;
	if (st->rank == 0) {
		set(l, RES(op, 0), get(l, OPND(op, 0)));
		set(l, RES(op, 1), filled(l, btensor(l->c, op->res[1].type),
			cst_i(l, 0, ty_int(l->c, 64, SIGNLESS))));
		return 0;
	}
	if (argreduce(l, get(l, OPND(op, 0)), st->elem, d, !strcmp(arg, "max"), &vals, &idxs))
		return -1;
	return finish_arg(l, op, 0, vals, dt_opmath(l->c, st->elem), d) ||
		finish_arg(l, op, 1, idxs, dt_i64(l->c), d);
}

int
lower_argmax(L *l, Op *op, const void *arg)
{
	Type *st = ttype(l, OPND(op, 0));
	Value *v = get(l, OPND(op, 0)), *vals, *idxs;
	int d = 0;

	if (!st->ranked)
		return -1;
	if (tv_none(OPND(op, 1)) || st->rank == 0) {
		int64_t n = ty_numel(st);

		if (!ty_static(st)) {
			op_error(op, "torch-lower: cannot lower '%s' with dynamic shapes: over the whole "
				"tensor (no dim)", op->name);
			return -1;
		}
		v = reshape_to(l, v, ty_tensor(l->c, 1, &n, v->type->elem));
	} else if ((d = norm_dim(l, tv_ival(OPND(op, 1)), st->rank)) < 0) {
		return -1;
	}
	if (argreduce(l, v, st->elem, d, !strcmp(arg, "max"), &vals, &idxs))
		return -1;
	return finish_arg(l, op, 0, idxs, dt_i64(l->c), d);
}

static Value *
f_sqdev(L *l, Value *x, Value *m, Type *d, const double *p)
{
	Value *t = ar(l, "sub", d, x, m);
	return ar(l, "mul", d, t, t);
}

/* x in its dtype, mean in acc: the squared deviation in acc */
static Value *
sqdev_sum(L *l, Value *v, Type *vd, Value *mean, const int *red, Type *acc)
{
	Type *t = v->type;
	int r = t->rank, nk = 0, i;
	int64_t kd[64];
	int keep[64];
	char it[65];
	AffMap *maps[3];
	Value *ins[2] = { v, mean }, *out;
	Gen g;

	for (i = 0; i < r; i++) {
		it[i] = red[i] ? 'r' : 'p';
		if (!red[i]) {
			keep[nk] = i;
			kd[nk++] = t->dims[i];
		}
	}
	it[r] = 0;
	out = fill(l, cst_d(l, 0, acc), empty_kept(l, tensor_of(l->c, nk, kd, acc), v, keep));
	maps[0] = map_id(l, r);
	maps[1] = maps[2] = map_sel(l, r, nk, keep);
	gen_begin(l, &g, 2, ins, 1, &out, maps, r, it);
	Value *x = cv(l, g.arg[0], vd, acc);
	Value *y = ar(l, "add", acc, g.arg[2], f_sqdev(l, x, g.arg[1], acc, NULL));
	return gen_end(l, &g, 1, &y);
}

static Value *
f_sqrt(L *l, Value *a, Value *b, Type *d, const double *p)
{
	return un(l, "math.sqrt", ar(l, "div", d, a, cst_d(l, p[0], d)));
}

int
lower_var(L *l, Op *op, const void *arg)
{
	Type *st = ttype(l, OPND(op, 0)), *rt = op->res[0].type->elem, *acc;
	Value *v = get(l, OPND(op, 0)), *sum, *mean, *ss;
	int red[64], keep;
	double n, den;

	if (!st->ranked || st->rank > 64 || !rt || red_dims(l, op, 1, st->rank, red, &keep) ||
			!red_static(l, op, st, red))
		return -1;
	if (!dt_isfloat(st->elem) || !dt_isfloat(rt)) {
		op_error(op, "torch-lower: '%s' needs a floating-point tensor", op->name);
		return -1;
	}
	/* Both sums in f64 for f32 (and f16, bf16): an f32 mean that is off
	 * by a few ulps of a large sum shifts every deviation, and the
	 * squared error swamps the variance of long reductions. */
	acc = dt_opmath(l->c, rt);
	if (acc->kind == TY_F32)
		acc = dt_f64(l->c);
	/* (self, dim, correction, keepdim): keepdim is operand 3 */
	keep = tv_ival(OPND(op, 3)) != 0;
	n = (double)count(st, red);
	den = n - (tv_none(OPND(op, 2)) ? 1 : tv_fval(OPND(op, 2)));
	if (den < 0)
		den = 0;   /* PyTorch's max(0, N - correction) */
	sum = reduce(l, v, st->elem, red, "sum", acc, NULL, NULL);
	mean = map2(l, sum, NULL, NULL, 0, acc, acc, f_scale, &n);
	ss = sqdev_sum(l, v, st->elem, mean, red, acc);
	ss = map2(l, ss, NULL, NULL, 0, acc, acc,
		!strcmp(arg, "std") ? f_sqrt : f_scale, &den);
	return finish_red(l, op, 0, ss, acc, red, keep);
}

static Value *
pre_abs(L *l, Value *x, Type *acc, const double *p)
{
	return un(l, "math.absf", x);
}

static Value *
pre_sq(L *l, Value *x, Type *acc, const double *p)
{
	return ar(l, "mul", acc, x, x);
}

static Value *
pre_pow(L *l, Value *x, Type *acc, const double *p)
{
	return bin(l, "math.powf", un(l, "math.absf", x), cst_f(l, p[0], acc));
}

static Value *
pre_nonzero(L *l, Value *x, Type *acc, const double *p)
{
	return cv(l, cmpf(l, "une", x, cst_f(l, 0, acc)), dt_bool(l->c), acc);
}

static Value *
f_powinv(L *l, Value *a, Value *b, Type *d, const double *p)
{
	if (p[0] == 2)
		return un(l, "math.sqrt", a);
	return bin(l, "math.powf", a, cst_f(l, 1.0 / p[0], d));
}

static Value *
f_zero(L *l, Value *a, Value *b, Type *d, const double *p)
{
	return cst_f(l, 0, d);
}

int
lower_norm(L *l, Op *op, const void *arg)
{
	/* (self, ord, dim, keepdim, dtype) */
	Type *st = ttype(l, OPND(op, 0)), *rt = op->res[0].type->elem;
	Type *acc = dt_opmath(l->c, rt);
	Value *v = get(l, OPND(op, 0)), *r;
	int red[64], keep;
	double ord = tv_fval(OPND(op, 1));

	if (!ty_static(st) || !dt_isfloat(rt) || red_dims(l, op, 2, st->rank, red, &keep))
		return -1;
	if (isinf(ord)) {
		r = reduce(l, v, st->elem, red, ord > 0 ? "max" : "min", acc, pre_abs, NULL);
		/* the max (min) of no magnitudes: torch.norm's 0 (eager's
		 * linalg.vector_norm refuses it), not the reduction's -inf (inf) */
		for (int i = 0; i < st->rank; i++)
			if (red[i] && st->dims[i] == 0) {
				r = map2(l, r, NULL, NULL, 0, acc, acc, f_zero, NULL);
				break;
			}
	}
	else if (ord == 0)
		r = reduce(l, v, st->elem, red, "sum", acc, pre_nonzero, NULL);
	else if (ord == 1)
		r = reduce(l, v, st->elem, red, "sum", acc, pre_abs, NULL);
	else if (ord == 2) {
		r = reduce(l, v, st->elem, red, "sum", acc, pre_sq, NULL);
		r = map2(l, r, NULL, NULL, 0, acc, acc, f_powinv, &ord);
	} else {
		r = reduce(l, v, st->elem, red, "sum", acc, pre_pow, &ord);
		r = map2(l, r, NULL, NULL, 0, acc, acc, f_powinv, &ord);
	}
	return finish(l, op, 0, r, acc);
}

/* cumsum as a triangular reduction: out[.., i, ..] = sum_{k <= i} x[.., k, ..] */
int
lower_cumsum(L *l, Op *op, const void *arg)
{
	Type *st = ttype(l, OPND(op, 0)), *rt = op->res[0].type->elem;
	Type *acc = dt_opmath(l->c, rt);
	Value *v = get(l, OPND(op, 0)), *out;
	AffExpr *e[64];
	AffMap *maps[2];
	char it[66];
	int r = st->rank, d, i;
	Gen g;

	if (!st->ranked || r < 0 || r > 63 || (d = norm_dim(l, tv_ival(OPND(op, 1)), r)) < 0)
		return -1;
	/* eager accumulates a float cumsum in double on the CPU: a running
	 * sum that cancels to 0 stays 0, not an ulp either side */
	if (acc->kind == TY_F32)
		acc = dt_f64(l->c);
	if (r == 0)
		return finish(l, op, 0, v, st->elem);
	/* sized like the input: dynamic sizes from it */
	Value *zero = cst_d(l, 0, acc);
	if (!(out = empty(l, tensor_of(l->c, r, st->dims, acc), v)))
		return -1;
	out = fill(l, zero, out);
	for (i = 0; i < r; i++) {
		e[i] = i == d ? d_(l, r) : d_(l, i);
		it[i] = 'p';
	}
	it[r] = 'r';
	it[r + 1] = 0;
	maps[0] = map_of(l, r + 1, r, e);
	int ids[64];
	for (i = 0; i < r; i++)
		ids[i] = i;
	maps[1] = map_sel(l, r + 1, r, ids);
	gen_begin(l, &g, 1, &v, 1, &out, maps, r + 1, it);
	Value *x = cv(l, g.arg[0], st->elem, acc);
	Value *in = cmpi(l, "ule", lindex(l, r), lindex(l, d));
	Value *y = sel(l, in, ar(l, "add", acc, g.arg[1], x), g.arg[1]);
	return finish(l, op, 0, gen_end(l, &g, 1, &y), acc);
}

static Value *
f_finite(L *l, Value *m, Value *b, Type *d, const double *p)
{
	Value *inf = cmpf(l, "oeq", un(l, "math.absf", m), cst_f(l, INFINITY, d));
	return sel(l, inf, cst_f(l, 0, d), m);
}

static Value *
f_expsub(L *l, Value *x, Value *m, Type *d, const double *p)
{
	return un(l, "math.exp", ar(l, "sub", d, x, m));
}

static Value *
f_logadd(L *l, Value *s, Value *m, Type *d, const double *p)
{
	return ar(l, "add", d, un(l, "math.log", s), m);
}

int
lower_logsumexp(L *l, Op *op, const void *arg)
{
	/* (self, dim, keepdim): m = amax (0 where infinite);
	 * log(sum(exp(x - m))) + m */
	Type *st = ttype(l, OPND(op, 0)), *rt = op->res[0].type->elem;
	Type *acc = dt_opmath(l->c, rt);
	Value *v = get(l, OPND(op, 0)), *m, *e, *s;
	int red[64], keep, nk = 0, keepi[64], i;

	if (!ty_static(st) || red_dims(l, op, 1, st->rank, red, &keep))
		return -1;
	for (i = 0; i < st->rank; i++)
		if (!red[i])
			keepi[nk++] = i;
	v = convert_tensor(l, v, st->elem, acc);
	m = reduce(l, v, acc, red, "max", acc, NULL, NULL);
	m = map2(l, m, NULL, NULL, 0, acc, acc, f_finite, NULL);
	e = map2(l, v, m, keepi, nk, acc, acc, f_expsub, NULL);
	s = reduce(l, e, acc, red, "sum", acc, NULL, NULL);
	s = map2(l, s, m, NULL, 0, acc, acc, f_logadd, NULL);
	return finish(l, op, 0, s, acc);
}
