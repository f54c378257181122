/*
 * canon_tensor.c - folds of tensor ops whose operands are constants:
 * vtensor literals, prim.NumToTensor.Scalar of a constant, and scalar
 * constants.  Elementwise arithmetic, comparisons and where are computed
 * per element with broadcasting; scalar reads of 0-d tensors
 * (Int.Tensor, item, ScalarImplicit, ...) give the constant.
 *
 * Exactness: integers compute in int64 and wrap to the result's width as
 * PyTorch's kernels do; a float fold happens only when every operand
 * value is exact in the result's float dtype (f32 or f64) and the op is
 * one IEEE operation, so rounding the double result once is the value
 * PyTorch computes.  Division by zero, float floor division, an int
 * scalar outside the tensor dtype's range and INT64_MIN / -1 are left.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "canon.h"
#include "fold.h"

enum { MAXFOLD = 1 << 16 };   /* most elements a fold makes */

/* A dense_resource whose blob holds exactly its elements (read only
 * when the tensor is small enough to fold). */
static int
resource_ok(const Attr *a)
{
	size_t n;

	if (a->kind != AT_DENSE_RESOURCE || a->splat || !a->type || !a->type->elem
	    || !ty_static(a->type) || ty_numel(a->type) > MAXFOLD || !elem_size(a->type->elem))
		return 0;
	return dense_bytes(a, &n) && n == (size_t)ty_numel(a->type) * elem_size(a->type->elem);
}

int
ct_quantized(const Src *s, const Type *to)
{
	Type *d = s->a && s->t ? tt_dtype(s->t) : NULL;

	return d && d->kind == TY_INT && d->width == 8 && !s->a->splat && ty_numel(s->t) > 16
	    && !(to && to->kind == TY_INT && to->width == 8);
}

int
ct_src(Value *v, Src *s)
{
	Attr *a;
	Op *d = v->def;

	memset(s, 0, sizeof *s);
	if (tt_is(v->type)) {
		if (d && op_is(d, "torch.prim.NumToTensor.Scalar") && tt_dtype(v->type))
			return ct_src(OPND(d, 0), s);
		a = value_const(v);
		if (!a || (a->kind != AT_DENSE && !resource_ok(a)) || !ty_static(v->type)
		    || !tt_dtype(v->type) || ty_numel(v->type) > MAXFOLD || !a->type
		    || !a->type->elem || (!a->splat && dense_numel(a) != ty_numel(v->type)))
			return 0;
		s->a = a;
		s->t = v->type;
		return 1;
	}
	if (v->type->kind == TY_TORCH_FLOAT && tv_float(v, &s->f))
		return s->isf = 1;
	return (v->type->kind == TY_TORCH_INT && tv_int(v, &s->i))
	    || (v->type->kind == TY_TORCH_BOOL && tv_bool(v, (int *)&s->i) && (s->i = !!s->i, 1));
}

/* An int of dtype d as PyTorch holds it: wrapped to d's width, signed or
 * not. */
int64_t
ct_wrap(const Type *d, int64_t v)
{
	int w = d->width;

	if (w >= 64)
		return v;
	if (w == 1)
		return v != 0;
	if (d->sign == UNSIGNED)
		return (int64_t)((uint64_t)v & ((1ull << w) - 1));
	return (int64_t)((uint64_t)v << (64 - w)) >> (64 - w);
}

int
ct_fits(const Type *d, int64_t v)
{
	return ct_wrap(d, v) == v;
}

/* Element k of s (a flat index into s's own shape), with s's dtype. */
Num
ct_at(const Src *s, int64_t k)
{
	Num n = {s->isf, s->i, s->f};
	Type *d;

	if (!s->a)
		return n;
	d = tt_dtype(s->t);
	k = s->a->splat ? 0 : k;
	n.isf = ty_isfloat(d);
	if (n.isf)
		n.f = dense_get_f(s->a, k);
	else
		n.i = ct_wrap(d, dense_get_i(s->a, k));
	return n;
}

/* The flat index into s of result element k of shape (rank r, dims),
 * broadcasting s's dims against the result's. */
static int64_t
src_index(const Src *s, int r, const int64_t *dims, int64_t k)
{
	int64_t idx = 0, stride = 1, c;
	int i, j;

	if (!s->a || s->a->splat)
		return 0;
	for (i = r - 1, j = s->t->rank - 1; i >= 0; i--, j--) {
		c = k % dims[i];
		k /= dims[i];
		if (j < 0)
			continue;
		idx += (s->t->dims[j] == 1 ? 0 : c) * stride;
		stride *= s->t->dims[j];
	}
	return idx;
}

/* Can s broadcast to the shape (r, dims)? */
static int
src_fits(const Src *s, int r, const int64_t *dims)
{
	int i, j;

	if (!s->a)
		return 1;
	if (s->t->rank > r)
		return 0;
	for (i = r - 1, j = s->t->rank - 1; j >= 0; i--, j--)
		if (s->t->dims[j] != 1 && s->t->dims[j] != dims[i])
			return 0;
	return 1;
}

double
ct_f(Num n)
{
	return n.isf ? n.f : (double)n.i;
}

/* Is n exact in the float dtype d? */
int
ct_exact(Num n, const Type *d)
{
	double f = ct_f(n);

	if (!n.isf && (n.i > (1LL << 53) || n.i < -(1LL << 53)))
		return 0;
	return isnan(f) || fp_round(f, d) == f;
}

/* ---- the per-element kernels ---- */

/* A kernel computes out from the operand values v (v[2]: alpha or the
 * division mode); fd: the float dtype it computes in, NULL for ints. */
typedef int (*Kernel)(const char *op, const Num *v, const Type *fd, Num *out);

static int
k_arith(const char *op, const Num *v, const Type *fd, Num *out)
{
	int isf = fd != NULL;
	out->isf = isf;
	if (!strncmp(op, "torch.aten.rsub.", 16)) {
		Num t[3] = {v[1], v[0], v[2]};
		return k_arith("torch.aten.sub.", t, fd, out);
	}
	if (!strncmp(op, "torch.aten.add.", 15) || !strncmp(op, "torch.aten.sub.", 15)) {
		int sub = op[11] == 's';
		if (isf) {
			/* alpha * b must be exact in fd: PyTorch rounds it
			 * (scalar loop) or fuses it (vector loop) */
			double p = ct_f(v[2]) * ct_f(v[1]);
			if (fma(ct_f(v[2]), ct_f(v[1]), -p) != 0 || fp_round(p, fd) != p)
				return 0;
			out->f = sub ? ct_f(v[0]) - p : ct_f(v[0]) + p;
			return 1;
		}
		uint64_t p = (uint64_t)v[2].i * (uint64_t)v[1].i;
		out->i = (int64_t)(sub ? (uint64_t)v[0].i - p : (uint64_t)v[0].i + p);
		return 1;
	}
	if (!strncmp(op, "torch.aten.mul.", 15)) {
		if (isf)
			out->f = ct_f(v[0]) * ct_f(v[1]);
		else
			out->i = (int64_t)((uint64_t)v[0].i * (uint64_t)v[1].i);
		return 1;
	}
	if (!strncmp(op, "torch.aten.remainder.", 21)) {
		if (isf) {
			double b = ct_f(v[1]), r;
			if (b == 0)
				return 0;
			r = fmod(ct_f(v[0]), b);
			out->f = r != 0 && (r < 0) != (b < 0) ? r + b : r;
			return 1;
		}
		if (v[1].i == 0 || (v[1].i == -1 && v[0].i == INT64_MIN))
			return 0;
		out->i = v[0].i % v[1].i;
		if (out->i != 0 && (out->i < 0) != (v[1].i < 0))
			out->i += v[1].i;
		return 1;
	}
	return 0;
}

/* Float floor division as PyTorch's kernels compute it (in the dtype):
 * from fmod, with the quotient rounded to the nearest integer when the
 * division is off by rounding. */
#define FLOOR_DIV(T, FMOD, FLOOR) do { \
	T x = (T)a, y = (T)b, mod = FMOD(x, y), div = (x - mod) / y, fl; \
	if (mod != 0 && (y < 0) != (mod < 0)) \
		div -= 1; \
	if (div != 0) { \
		fl = FLOOR(div); \
		if (div - fl > (T)0.5) \
			fl += 1; \
	} else \
		fl = copysign(0, (double)(x / y)); \
	out->f = fl; \
} while (0)

static int
floor_div(double a, double b, const Type *fd, Num *out)
{
	out->isf = 1;
	out->i = -1;
	if (fd->kind == TY_F32)
		FLOOR_DIV(float, fmodf, floorf);
	else
		FLOOR_DIV(double, fmod, floor);
	return 1;
}

/* div.Tensor, div.Scalar: true division; the _mode forms with the rounding
 * mode in v[2] (-1: none, 0: trunc, 1: floor). */
static int
k_div(const char *op, const Num *v, const Type *fd, Num *out)
{
	int isf = fd != NULL;
	int mode = (int)v[2].i;

	(void)op;
	out->isf = isf;
	if (ct_f(v[1]) == 0 || (!v[1].isf && !v[0].isf && v[1].i == 0))
		return 0;
	if (isf) {
		if (mode == 1)
			return floor_div(ct_f(v[0]), ct_f(v[1]), fd, out);
		out->f = ct_f(v[0]) / ct_f(v[1]);
		out->i = mode;   /* trunc after rounding to the dtype */
		return 1;
	}
	if (mode < 0 || (v[1].i == -1 && v[0].i == INT64_MIN))
		return 0;
	out->i = v[0].i / v[1].i;
	if (mode == 1 && (v[0].i % v[1].i != 0) && ((v[0].i < 0) != (v[1].i < 0)))
		out->i -= 1;
	return 1;
}

static int
k_compare(const char *op, const Num *v, const Type *fd, Num *out)
{
	int isf = fd != NULL;
	const char *n = op + 11;
	int lt, eq;

	if (isf) {
		double a = ct_f(v[0]), b = ct_f(v[1]);
		if (isnan(a) || isnan(b)) {
			out->i = !strncmp(n, "ne.", 3);
			out->isf = 0;
			return 1;
		}
		lt = a < b, eq = a == b;
	} else
		lt = v[0].i < v[1].i, eq = v[0].i == v[1].i;
	out->isf = 0;
	out->i = !strncmp(n, "eq.", 3) ? eq : !strncmp(n, "ne.", 3) ? !eq
	    : !strncmp(n, "lt.", 3) ? lt : !strncmp(n, "le.", 3) ? lt || eq
	    : !strncmp(n, "gt.", 3) ? !lt && !eq : !lt;
	return 1;
}

static int
k_where(const char *op, const Num *v, const Type *fd, Num *out)
{
	int isf = fd != NULL;
	(void)op, (void)isf, (void)fd;
	*out = v[0].i ? v[1] : v[2];
	return 1;
}

/* ---- the elementwise driver ---- */

typedef struct Fold {
	Src s[3];
	int n;               /* tensor or scalar sources */
	Num extra;           /* alpha, or the division mode */
	Type *d;             /* the result's dtype */
	int isf;             /* compute in floats */
	Type *fd;            /* the float dtype values must be exact in */
} Fold;

int
ct_float_dt(const Type *d)
{
	return d && (d->kind == TY_F32 || d->kind == TY_F64);
}

static int
src_isf(const Src *s)
{
	return s->a ? ty_isfloat(tt_dtype(s->t)) : s->isf;
}

/* The sources of op and what its extra operand says; 0 when op's form is
 * not one folded here. */
static int
fold_sources(Op *op, Fold *f)
{
	const char *n = op->name;
	int i, k = !strncmp(n, "torch.aten.where.", 17) ? 3 : 2;
	const char *mode;

	f->n = k;
	for (i = 0; i < k; i++)
		if (!ct_src(OPND(op, i), &f->s[i]))
			return 0;
	f->extra = (Num){0, 1, 1};
	if (!strncmp(n, "torch.aten.add.", 15) || !strncmp(n, "torch.aten.sub.", 15)
	    || !strncmp(n, "torch.aten.rsub.", 16)) {
		Src a;
		if (op->nopnds != 3 || !ct_src(OPND(op, 2), &a) || a.a)
			return 0;
		f->extra = (Num){a.isf, a.i, a.isf ? a.f : (double)a.i};
	} else if (!strcmp(n, "torch.aten.div.Tensor") || !strcmp(n, "torch.aten.div.Scalar")) {
		f->extra.i = -1;   /* true division */
	} else if (!strcmp(n, "torch.aten.div.Tensor_mode") || !strcmp(n, "torch.aten.div.Scalar_mode")) {
		f->extra.i = -1;
		if (tv_str(OPND(op, 2), &mode))
			f->extra.i = !strcmp(mode, "floor") ? 1 : !strcmp(mode, "trunc") ? 0 : 2;
		else if (!tv_none(OPND(op, 2)))
			return 0;
		if (f->extra.i == 2)
			return 0;
	}
	return 1;
}

/* Is every source value (and the extra) representable as computed? */
static int
values_ok(Fold *f, Kernel k)
{
	int64_t j, m;
	int i;

	for (i = 0; i < f->n; i++) {
		Src *s = &f->s[i];
		m = s->a ? (s->a->splat ? 1 : ty_numel(s->t)) : 1;
		if (k == k_where && i == 0)
			continue;
		for (j = 0; j < m; j++) {
			Num v = ct_at(s, j);
			if (f->isf ? !ct_exact(v, f->fd) : (v.isf || (!s->a && !ct_fits(f->d, v.i))))
				return 0;
		}
	}
	if (k == k_arith && (f->isf ? !ct_exact(f->extra, f->fd) : f->extra.isf))
		return 0;
	return 1;
}

/* The dtype the op computes in: the result's, or for comparisons the
 * operands' (a float tensor's dtype, f32 when only a scalar is float). */
static int
compute_type(Ctx *c, Fold *f, Kernel k, Type *rd)
{
	int i;

	f->d = rd;
	f->isf = ty_isfloat(rd);
	f->fd = rd;
	if (k == k_compare) {
		f->isf = 0;
		f->fd = NULL;
		for (i = 0; i < f->n; i++)
			if (src_isf(&f->s[i])) {
				f->isf = 1;
				if (f->s[i].a && (!f->fd || tt_dtype(f->s[i].t)->kind == TY_F64))
					f->fd = tt_dtype(f->s[i].t);
			}
		if (f->isf && !f->fd)
			f->fd = ty_float(c, TY_F32);
		for (i = 0; i < f->n && !f->isf; i++)
			if (f->s[i].a)
				f->d = tt_dtype(f->s[i].t);
		return !f->isf || ct_float_dt(f->fd);
	}
	if (k == k_where)
		return 1;
	return f->isf ? ct_float_dt(rd) : rd->width > 1;
}

void
ct_put(uint8_t *p, const Type *d, Num v)
{
	uint64_t bits;
	size_t i, n = elem_size(d);

	if (ty_isfloat(d))
		bits = fp_bits(v.isf ? v.f : (double)v.i, d);
	else
		bits = d->width == 1 ? (uint64_t)(v.isf ? v.f != 0 : v.i != 0) : (uint64_t)ct_wrap(d, v.i);
	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(bits >> (8 * i));
}

/* A where result must hold its value exactly. */
static int
store_ok(const Type *d, Num v, Kernel k)
{
	if (k != k_where)
		return 1;
	if (ty_isfloat(d))
		return ct_float_dt(d) && ct_exact(v, d);
	return !v.isf && ct_fits(d, v.i);
}

/* A vtensor literal of vt holding data (taken): a dense attribute typed
 * with the dtype itself (si64 stays si64), splat when all elements are
 * equal; big ones become resources. */
Value *
ct_literal(Ctx *c, Op *before, Type *vt, uint8_t *data, size_t nb)
{
	Type *d = tt_dtype(vt), *bt = ty_tensor(c, vt->rank, vt->dims, d);
	size_t esz = elem_size(d), i;
	int splat = 1;
	Attr *a;
	B b;

	for (i = esz; i < nb && splat; i += esz)
		splat = !memcmp(data, data + i, esz);
	if (!splat && nb > 4096) {
		b = b_at(c, before);
		return b_literal_take(&b, vt, data, nb, NULL);
	}
	a = at_dense(c, bt, data, splat ? esz : nb, splat);
	free(data);
	Op *op = op_new(c, intern(c, "torch.vtensor.literal"), 0, NULL, 1, &vt, 0, before->loc);
	op_set_attr(c, op, "value", a);
	op_insert_before(before, op);
	return RES(op, 0);
}

static int
fold_elementwise(Ctx *c, Op *op, Kernel k)
{
	Type *rt = RES(op, 0)->type, *rd = tt_dtype(rt);
	Fold f;
	int64_t n, j;
	size_t esz;
	uint8_t *buf;

	if (!tt_is(rt) || rt->kind != TY_TORCH_VTENSOR || !rd || !ty_static(rt)
	    || (n = ty_numel(rt)) > MAXFOLD || !fold_sources(op, &f) || !compute_type(c, &f, k, rd))
		return 0;
	for (int i = 0; i < f.n; i++)
		if (!src_fits(&f.s[i], rt->rank, rt->dims) || ct_quantized(&f.s[i], rd))
			return 0;
	if (!values_ok(&f, k))
		return 0;
	esz = elem_size(rd);
	buf = xmalloc(mulsz(n ? n : 1, esz));
	for (j = 0; j < n; j++) {
		Num v[3], r;
		for (int i = 0; i < f.n; i++)
			v[i] = ct_at(&f.s[i], src_index(&f.s[i], rt->rank, rt->dims, j));
		if (k != k_where)
			v[2] = f.extra;
		if (!k(op->name, v, f.isf ? f.fd : NULL, &r) || !store_ok(rd, r, k)) {
			free(buf);
			return 0;
		}
		if (r.isf && k == k_div && r.i == 0)
			r.f = trunc(fp_round(r.f, rd));
		ct_put(buf + j * esz, rd, r);
	}
	return canon_value(op, ct_literal(c, op, rt, buf, n * esz));
}

static int
arith(Ctx *c, Op *op)
{
	return fold_elementwise(c, op, k_arith);
}

static int
divide(Ctx *c, Op *op)
{
	return fold_elementwise(c, op, k_div);
}

/* Comparisons; x == x and x != x of an int or bool tensor too (not of
 * floats: NaN != NaN). */
static int
compare(Ctx *c, Op *op)
{
	Type *rt = RES(op, 0)->type, *d = tt_dtype(OPND(op, 0)->type);
	const char *n = op->name + 11;
	int64_t k;
	uint8_t *buf;

	if (OPND(op, 0) != OPND(op, 1) || !d || ty_isfloat(d) || !ty_static(rt)
	    || !tt_dtype(rt) || tt_dtype(rt)->width != 1 || rt->kind != TY_TORCH_VTENSOR)
		return fold_elementwise(c, op, k_compare);
	k = ty_numel(rt);
	buf = xmalloc(k ? k : 1);
	memset(buf, strncmp(n, "eq.", 3) && strncmp(n, "le.", 3) && strncmp(n, "ge.", 3) ? 0 : 1,
	    k ? k : 1);
	return canon_value(op, ct_literal(c, op, rt, buf, k));
}

/* where(c, a, b) of a splat c: a or b when it has the result's type
 * (no broadcast or cast is lost); else per element. */
static int
where(Ctx *c, Op *op)
{
	Src s;

	if (ct_src(OPND(op, 0), &s) && (!s.a || s.a->splat)
	    && canon_value(op, OPND(op, ct_at(&s, 0).i ? 1 : 2)))
		return 1;
	return fold_elementwise(c, op, k_where);
}

/* NumToTensor of a constant: a literal holding it exactly. */
static int
num_to_tensor(Ctx *c, Op *op)
{
	Type *rt = RES(op, 0)->type, *d = tt_dtype(rt);
	Src s;
	Num v;
	uint8_t *buf;

	if (!d || rt->kind != TY_TORCH_VTENSOR || !ty_static(rt) || ty_numel(rt) != 1
	    || !ct_src(OPND(op, 0), &s) || s.a)
		return 0;
	v = (Num){s.isf, s.i, s.f};
	if (ty_isfloat(d) ? !ct_float_dt(d) || !ct_exact(v, d) : v.isf || !ct_fits(d, v.i))
		return 0;
	buf = xmalloc(elem_size(d));
	ct_put(buf, d, v);
	return canon_value(op, ct_literal(c, op, rt, buf, elem_size(d)));
}

/* item(full(size, v)) of one element: v, when the dtype holds it
 * exactly (so the read gives v back unchanged). */
static int
full_item(Ctx *c, Op *op, Value *x)
{
	Type *d = tt_dtype(x->type);
	Value *v = OPND(x->def, 1);
	Src s;

	if (!d || ty_numel(x->type) != 1 || !ct_src(v, &s) || s.a || v->type != RES(op, 0)->type)
		return 0;
	if (ty_isfloat(d) ? !s.isf || fp_round(s.f, d) != s.f : s.isf || !ct_fits(d, s.i) || d->width == 1)
		return 0;
	return canon_value(op, v);
}

/* item(ones(...)) / item(zeros(...)) of one element: 1 or 0 as the
 * scalar kind the dtype reads as (an int dtype an int, a float one a
 * float); a bool dtype or an unknown one is left alone. */
static int
ones_zeros_item(Ctx *c, Op *op, Value *x)
{
	Type *d = tt_dtype(x->type), *rt = RES(op, 0)->type;
	int one = op_is(x->def, "torch.aten.ones");

	if (!d || x->type->kind != TY_TORCH_VTENSOR || !ty_static(x->type)
	    || ty_numel(x->type) != 1
	    || (!ty_isfloat(d) && (d->kind != TY_INT || d->width == 1)))
		return 0;
	if (ty_isfloat(d))
		return rt->kind == TY_TORCH_FLOAT && canon_float(c, op, one);
	return rt->kind == TY_TORCH_INT && canon_int(c, op, one);
}

/* The one element of a constant tensor or the scalar behind a
 * NumToTensor, as the scalar op's result: Int.Tensor, Float.Tensor,
 * item, ScalarImplicit and the like. */
static int
scalar_read(Ctx *c, Op *op)
{
	Value *x = OPND(op, 0), *k;
	Type *rt = RES(op, 0)->type;
	Src s;
	Num v;
	B b = b_at(c, op);

	if (x->def && op_is(x->def, "torch.prim.NumToTensor.Scalar")
	    && canon_replace(c, op, &OPND(x->def, 0)))
		return 1;
	if (x->def && op_is(x->def, "torch.aten.full") && full_item(c, op, x))
		return 1;
	if (x->def && (op_is(x->def, "torch.aten.ones") || op_is(x->def, "torch.aten.zeros"))
	    && !strcmp(op->name, "torch.aten.item") && ones_zeros_item(c, op, x))
		return 1;
	if (!tt_is(x->type) || ty_numel(x->type) != 1 || !ct_src(x, &s))
		return 0;
	v = ct_at(&s, 0);
	if (rt->kind == TY_TORCH_FLOAT || (rt->kind != TY_TORCH_INT && v.isf))
		k = b_float(&b, ct_f(v));
	else if (v.isf) {
		/* int(2.5) is 2, as item<int64_t>() truncates; NaN, inf and
		 * what int64 cannot hold raise */
		double f = trunc(v.f);
		if (!(f >= -0x1p63 && f < 0x1p63))
			return 0;
		k = b_int(&b, (int64_t)f);
	}
	else if (rt->kind == TY_TORCH_BOOL)
		k = b_bool(&b, v.i != 0);
	else
		k = b_int(&b, v.i);
	if (canon_replace(c, op, &k))
		return 1;
	op_erase(k->def);
	return 0;
}

#define ELT(base, fn) \
	{"torch.aten." base ".Tensor", fn}, {"torch.aten." base ".Scalar", fn}

const CanonRule canon_tensor_rules[] = {
	ELT("add", arith), ELT("sub", arith), ELT("mul", arith),
	ELT("remainder", arith),
	{"torch.aten.rsub.Scalar", arith},
	ELT("div", divide),
	{"torch.aten.div.Tensor_mode", divide},
	{"torch.aten.div.Scalar_mode", divide},
	ELT("eq", compare), ELT("ne", compare), ELT("lt", compare),
	ELT("le", compare), ELT("gt", compare), ELT("ge", compare),
	{"torch.aten.where.self", where},
	{"torch.aten.where.Scalar", where},
	{"torch.aten.where.ScalarOther", where},
	{"torch.aten.where.ScalarSelf", where},
	{"torch.prim.NumToTensor.Scalar", num_to_tensor},
	{"torch.aten.Int.Tensor", scalar_read},
	{"torch.aten.Float.Tensor", scalar_read},
	{"torch.aten.Bool.Tensor", scalar_read},
	{"torch.aten.item", scalar_read},
	{"torch.aten.ScalarImplicit", scalar_read},
	{"torch.aten.IntImplicit", scalar_read},
	{"torch.aten.FloatImplicit", scalar_read},
	{NULL, NULL},
};
