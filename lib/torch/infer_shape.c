/*
 * infer_shape.c - inference for views, data movement, creation and
 * reductions: the rules follow PyTorch's meta functions (negative dims
 * wrap, -1 in a view size is inferred from the element count, slices
 * clamp their bounds, `dim=None` or `[]` reduces everything).
 */
#include <stdlib.h>
#include <string.h>

#include "infer.h"

#define UNKNOWN INT64_MIN   /* a list entry that is not a constant */

/* The entries of an int list: constants, or UNKNOWN; the count or -1. */
static int
list_dims(Value *list, int64_t *d, int max)
{
	Value **e;
	int n = list ? tv_list(list, &e) : -1, i;

	if (n < 0 || n > max) {
		if (n > 0)
			free(e);
		return -1;
	}
	for (i = 0; i < n; i++)
		if (!tv_int(e[i], &d[i]))
			d[i] = UNKNOWN;
	if (n)
		free(e);
	return n;
}

static Type *
dtype0(Op *op)
{
	return tt_dtype(TY(op, 0));
}

/* An int operand (dim) normalized against rank; -1 if unknown. */
static int64_t
dim_at(Op *op, int i, int rank)
{
	int64_t d;

	return NOPND(op, i) && tv_int(OPND(op, i), &d) ? tt_dim(d, rank) : -1;
}

/* ---- views ---- */

static int
view(Ctx *c, Op *op, Type **out, int arg)
{
	int64_t d[TORCH_MAXRANK], known = 1, numel;
	int n = list_dims(NOPND(op, 1), d, TORCH_MAXRANK), i, infer = -1;

	if (n < 0)
		return out_set(c, op, out, 0, -1, NULL, dtype0(op));
	for (i = 0; i < n; i++) {
		if (d[i] == UNKNOWN || (d[i] == -1 && infer >= 0) || d[i] < -1)
			d[i] = DYN, known = 0;
		else if (d[i] == -1)
			infer = i;
		else if (__builtin_mul_overflow(known, d[i], &known))
			known = 0;   /* the model's sizes: no int64 overflow */
	}
	if (infer >= 0) {
		numel = ty_numel(TY(op, 0));
		d[infer] = numel >= 0 && known > 0 && numel % known == 0 ? numel / known : DYN;
	}
	return out_set(c, op, out, 0, n, d, dtype0(op));
}

static int
flatten(Ctx *c, Op *op, Type **out, int arg)
{
	Type *t = TY(op, 0);
	int r = tt_rank(t), n = 0, i;
	int64_t s, e, d[TORCH_MAXRANK], p = 1;

	if (r < 0 || (s = dim_at(op, 1, r)) < 0 || (e = dim_at(op, 2, r)) < 0)
		return r == 0 ? out_set(c, op, out, 0, 1, (int64_t[]){1}, dtype0(op)) : 0;
	if (r == 0)
		return out_set(c, op, out, 0, 1, (int64_t[]){1}, dtype0(op));
	for (i = 0; i < s; i++)
		d[n++] = t->dims[i];
	for (i = s; i <= e; i++)
		p = t->dims[i] == DYN || p == DYN ? DYN : p * t->dims[i];
	d[n++] = p;
	for (i = e + 1; i < r; i++)
		d[n++] = t->dims[i];
	return out_set(c, op, out, 0, n, d, dtype0(op));
}

static int
unflatten(Ctx *c, Op *op, Type **out, int arg)
{
	Type *t = TY(op, 0);
	int r = tt_rank(t), n = 0, i, k;
	int64_t dim, s[TORCH_MAXRANK], d[TORCH_MAXRANK];

	if (r < 0 || (dim = dim_at(op, 1, r)) < 0
	    || (k = list_dims(NOPND(op, 2), s, TORCH_MAXRANK)) < 0 || r + k > TORCH_MAXRANK)
		return 0;
	for (i = 0; i < r; i++) {
		if (i != dim) {
			d[n++] = t->dims[i];
			continue;
		}
		int64_t known = 1, at = -1;
		for (int j = 0; j < k; j++) {
			if (s[j] < 0 || s[j] == UNKNOWN)
				at = j, d[n + j] = DYN;
			else if (__builtin_mul_overflow(known, d[n + j] = s[j], &known))
				known = 0;
		}
		if (at >= 0 && t->dims[i] != DYN && known > 0)
			d[n + at] = t->dims[i] / known;
		n += k;
	}
	return out_set(c, op, out, 0, n, d, dtype0(op));
}

static int
unsqueeze(Ctx *c, Op *op, Type **out, int arg)
{
	Type *t = TY(op, 0);
	int r = tt_rank(t), i, n = 0;
	int64_t dim, d[TORCH_MAXRANK];

	if (r < 0 || r + 1 > TORCH_MAXRANK || (dim = dim_at(op, 1, r + 1)) < 0)
		return 0;
	for (i = 0; i <= r; i++) {
		if (i == dim)
			d[n++] = 1;
		if (i < r)
			d[n++] = t->dims[i];
	}
	return out_set(c, op, out, 0, r + 1, d, dtype0(op));
}

static int
squeeze(Ctx *c, Op *op, Type **out, int arg)
{
	Type *t = TY(op, 0);
	int r = tt_rank(t), i, n = 0;
	int64_t dim = -2, d[TORCH_MAXRANK];

	if (r < 0 || (op->nopnds > 1 && (dim = dim_at(op, 1, r)) < 0 && r > 0))
		return 0;
	for (i = 0; i < r; i++) {
		int sel = dim == -2 || dim == i;
		if (sel && t->dims[i] == DYN)
			return 0;
		if (!(sel && t->dims[i] == 1))
			d[n++] = t->dims[i];
	}
	return out_set(c, op, out, 0, n, d, dtype0(op));
}

static int
transpose(Ctx *c, Op *op, Type **out, int arg)
{
	Type *t = TY(op, 0);
	int r = tt_rank(t), i;
	int64_t a, b, d[TORCH_MAXRANK];

	if (r < 0)
		return 0;
	if (arg) {   /* t: at most 2-D */
		a = 0, b = r == 2 ? 1 : 0;
	} else if ((a = dim_at(op, 1, r)) < 0 || (b = dim_at(op, 2, r)) < 0)
		return r == 0 ? out_like(c, op, out, 0, t, dtype0(op)) : 0;
	for (i = 0; i < r; i++)
		d[i] = t->dims[i];
	if (r) {
		d[a] = t->dims[b];
		d[b] = t->dims[a];
	}
	return out_set(c, op, out, 0, r, d, dtype0(op));
}

static int
permute(Ctx *c, Op *op, Type **out, int arg)
{
	Type *t = TY(op, 0);
	int r = tt_rank(t), i;
	int64_t p[TORCH_MAXRANK], d[TORCH_MAXRANK], k;

	if (r < 0 || tv_ints(OPND(op, 1), p, TORCH_MAXRANK) != r)
		return 0;
	for (i = 0; i < r; i++) {
		if ((k = tt_dim(p[i], r)) < 0)
			return 0;
		d[i] = t->dims[k];
	}
	return out_set(c, op, out, 0, r, d, dtype0(op));
}

static int
expand(Ctx *c, Op *op, Type **out, int arg)
{
	Type *t = TY(op, 0);
	int r = tt_rank(t), n, i;
	int64_t d[TORCH_MAXRANK];

	if (arg) {   /* expand_as */
		Type *o = TY(op, 1);
		return out_set(c, op, out, 0, tt_rank(o), tt_rank(o) >= 0 ? o->dims : NULL,
		    dtype0(op));
	}
	if (r < 0 || (n = list_dims(OPND(op, 1), d, TORCH_MAXRANK)) < r)
		return 0;
	for (i = 0; i < n; i++) {
		int k = i - (n - r);
		if (d[i] == UNKNOWN)
			d[i] = k >= 0 && t->dims[k] != 1 ? t->dims[k] : DYN;
		else if (d[i] == -1)
			d[i] = k >= 0 ? t->dims[k] : DYN;
	}
	return out_set(c, op, out, 0, n, d, dtype0(op));
}

/* PyTorch's slice bounds: negative from the end, clamped into [0, n]. */
static int64_t
clamp_bound(int64_t v, int64_t n)
{
	if (v < 0)
		v += n;
	return v < 0 ? 0 : v > n ? n : v;
}

static int
slice(Ctx *c, Op *op, Type **out, int arg)
{
	Type *t = TY(op, 0);
	int r = tt_rank(t), i;
	int64_t dim, s = 0, e = INT64_MAX, step = 1, d[TORCH_MAXRANK], n;
	int known = 1;

	if (r < 0 || (dim = dim_at(op, 1, r)) < 0)
		return 0;
	for (i = 0; i < r; i++)
		d[i] = t->dims[i];
	n = t->dims[dim];
	if (!tv_none(OPND(op, 2)) && !tv_int(OPND(op, 2), &s))
		known = 0;
	if (!tv_none(OPND(op, 3)) && !tv_int(OPND(op, 3), &e))
		known = 0;
	if (!tv_int(OPND(op, 4), &step) || step <= 0)
		known = 0;
	if (!known || n == DYN) {
		d[dim] = DYN;
		return out_set(c, op, out, 0, r, d, dtype0(op));
	}
	s = clamp_bound(s, n);
	e = clamp_bound(e, n);
	d[dim] = e > s ? (e - s - 1) / step + 1 : 0;
	return out_set(c, op, out, 0, r, d, dtype0(op));
}

static int
select_(Ctx *c, Op *op, Type **out, int arg)
{
	Type *t = TY(op, 0);
	int r = tt_rank(t), i, n = 0;
	int64_t dim, d[TORCH_MAXRANK], len;

	if (r < 0 || (dim = dim_at(op, 1, r)) < 0)
		return 0;
	for (i = 0; i < r; i++) {
		if (i != dim)
			d[n++] = t->dims[i];
		else if (arg)   /* narrow: the length */
			d[n++] = tv_int(OPND(op, 3), &len) ? len : DYN;
	}
	return out_set(c, op, out, 0, n, d, dtype0(op));
}

static int
cat(Ctx *c, Op *op, Type **out, int arg)
{
	Value **e;
	int n = tv_list(OPND(op, 0), &e), i, k, r = -1;
	int64_t dim = 0, d[TORCH_MAXRANK];
	Promo p = {0};

	if (n <= 0)
		return 0;
	for (i = 0; i < n; i++) {
		Type *t = e[i]->type;
		promo_add(c, &p, e[i]);
		if (tt_rank(t) < 0)
			goto unranked;
		if (r < 0) {
			r = t->rank;
			if ((dim = dim_at(op, 1, arg ? r + 1 : r)) < 0)
				goto unranked;
			for (k = 0; k < r; k++)
				d[k] = t->dims[k];
			if (!arg)
				d[dim] = 0;
		}
		if (t->rank != r)
			goto unranked;
		for (k = 0; k < r; k++) {
			if (!arg && k == dim)
				d[k] = d[k] == DYN || t->dims[k] == DYN ? DYN : d[k] + t->dims[k];
			else if (d[k] == DYN)
				d[k] = t->dims[k];
		}
	}
	free(e);
	if (arg) {   /* stack: a new dim of n */
		memmove(d + dim + 1, d + dim, (r - dim) * sizeof *d);
		d[dim] = n;
		r++;
	}
	return out_set(c, op, out, 0, r, d, promo_result(c, &p));
unranked:
	free(e);
	return out_set(c, op, out, 0, -1, NULL, NULL);
}

static int
repeat(Ctx *c, Op *op, Type **out, int arg)
{
	Type *t = TY(op, 0);
	int r = tt_rank(t), n, i;
	int64_t d[TORCH_MAXRANK];

	if (r < 0 || (n = list_dims(OPND(op, 1), d, TORCH_MAXRANK)) < r)
		return 0;
	for (i = 0; i < n; i++) {
		int k = i - (n - r);
		int64_t s = k >= 0 ? t->dims[k] : 1;
		d[i] = d[i] == UNKNOWN || s == DYN ? DYN : d[i] * s;
	}
	return out_set(c, op, out, 0, n, d, dtype0(op));
}

static int
pad(Ctx *c, Op *op, Type **out, int arg)
{
	Type *t = TY(op, 0);
	int r = tt_rank(t), n, i;
	int64_t p[2 * TORCH_MAXRANK], d[TORCH_MAXRANK];

	if (r < 0 || (n = list_dims(OPND(op, 1), p, 2 * TORCH_MAXRANK)) < 0 || n / 2 > r)
		return 0;
	for (i = 0; i < r; i++)
		d[i] = t->dims[i];
	for (i = 0; i < n / 2; i++) {
		int k = r - 1 - i;
		if (p[2 * i] == UNKNOWN || p[2 * i + 1] == UNKNOWN || d[k] == DYN)
			d[k] = DYN;
		else
			d[k] += p[2 * i] + p[2 * i + 1];
	}
	return out_set(c, op, out, 0, r, d, dtype0(op));
}

static int
index_select(Ctx *c, Op *op, Type **out, int arg)
{
	Type *t = TY(op, 0), *ix = TY(op, 2);
	int r = tt_rank(t), i;
	int64_t dim, d[TORCH_MAXRANK];

	if (r < 0 || (dim = dim_at(op, 1, r)) < 0)
		return 0;
	for (i = 0; i < r; i++)
		d[i] = t->dims[i];
	d[dim] = tt_rank(ix) >= 0 ? ty_numel(ix) : DYN;
	if (d[dim] < 0)
		d[dim] = DYN;
	return out_set(c, op, out, 0, r, d, dtype0(op));
}

static int
gather(Ctx *c, Op *op, Type **out, int arg)
{
	return out_like(c, op, out, 0, TY(op, 2), dtype0(op));
}

static int
embedding(Ctx *c, Op *op, Type **out, int arg)
{
	Type *w = TY(op, 0), *ix = TY(op, 1);
	int r = tt_rank(ix), i;
	int64_t d[TORCH_MAXRANK];

	if (r < 0 || tt_rank(w) != 2 || r + 1 > TORCH_MAXRANK)
		return 0;
	for (i = 0; i < r; i++)
		d[i] = ix->dims[i];
	d[r] = w->dims[1];
	return out_set(c, op, out, 0, r + 1, d, dtype0(op));
}

/* ---- lists of tensors: split, chunk, unbind ---- */

/* The types of the tensors a list producer makes; the count or -1. */
static int
list_types(Ctx *c, Op *def, Type **types, int max)
{
	Type *t = TY(def, 0);
	int r = tt_rank(t), n = 0, i, k;
	int64_t dim, size, d[TORCH_MAXRANK], sizes[64];

	if (r < 0 || (dim = dim_at(def, torch_is(def, "aten.unbind.int") ? 1 : 2, r)) < 0
	    || (size = t->dims[dim]) == DYN)
		return -1;
	if (torch_is(def, "aten.split.Tensor") || torch_is(def, "aten.chunk")
	    || torch_is(def, "aten.unsafe_split.Tensor") || torch_is(def, "aten.unsafe_chunk")) {
		int64_t s;
		if (!tv_int(OPND(def, 1), &s) || s <= 0)
			return -1;
		/* ceilings without overflow: s is the model's constant */
		if (torch_is(def, "aten.chunk") || torch_is(def, "aten.unsafe_chunk"))
			s = size ? (size - 1) / s + 1 : 0;
		int64_t cnt = size && s ? (size - 1) / s + 1 : 0;
		for (; n < 64 && n < cnt; n++)
			sizes[n] = size - n * s < s ? size - n * s : s;
		if (size == 0)
			sizes[n++] = 0;
	} else if (torch_is(def, "aten.split_with_sizes")
	    || torch_is(def, "aten.unsafe_split_with_sizes") || torch_is(def, "aten.split.sizes")
	    || torch_is(def, "aten.split")) {
		int64_t sum = 0;
		if ((n = tv_ints(OPND(def, 1), sizes, 64)) < 0)
			return -1;
		for (i = 0; i < n; i++) {
			if (sizes[i] < 0)
				return -1;
			sum += sizes[i];
		}
		if (sum != size)   /* PyTorch refuses sizes that do not add up */
			return -1;
	} else if (torch_is(def, "aten.unbind.int")) {
		for (; n < 64 && n < size; n++)
			sizes[n] = -1;
	} else
		return -1;
	if (n > max)
		return -1;
	for (i = 0; i < n; i++) {
		int m = 0;
		for (k = 0; k < r; k++) {
			if (k != dim)
				d[m++] = t->dims[k];
			else if (sizes[i] >= 0)
				d[m++] = sizes[i];
		}
		types[i] = tt_vt(c, m, d, tt_dtype(t));
	}
	return n;
}

/* torch.prim.ListUnpack of a split: the pieces' types. */
int
infer_list_unpack(Ctx *c, Op *op, Type **out)
{
	Op *def = OPND(op, 0)->def;
	Type *types[64];
	int i;

	if (!def || list_types(c, def, types, 64) != op->nres)
		return 0;
	for (i = 0; i < op->nres; i++)
		out[i] = tt_make(c, RES(op, i)->type, tt_rank(types[i]), types[i]->dims,
		    types[i]->elem);
	return 1;
}

static int
keep_list(Ctx *c, Op *op, Type **out, int arg)
{
	return 1;
}

/* ---- creation ---- */

/* The dtype of a fill value: int64, float32, bool. */
static Type *
fill_dtype(Ctx *c, Value *v)
{
	Promo p = {0};

	promo_add(c, &p, v);
	return promo_result(c, &p);
}

enum { C_ZEROS, C_FULL, C_LIKE, C_FULL_LIKE, C_NEW, C_NEW_FULL };

static int
creation(Ctx *c, Op *op, Type **out, int arg)
{
	static const struct { int size, fill, dtype; } at[] = {
		[C_ZEROS] = {0, -1, 1}, [C_FULL] = {0, 1, 2}, [C_LIKE] = {-1, -1, 1},
		[C_FULL_LIKE] = {-1, 1, 2}, [C_NEW] = {1, -1, 2}, [C_NEW_FULL] = {1, 2, 3},
	};
	int64_t d[TORCH_MAXRANK];
	int n, i;
	Type *dt = arg == C_ZEROS ? dt_f32(c) : arg == C_FULL ? fill_dtype(c, OPND(op, 1))
	    : dtype0(op);

	dt = opt_dtype(c, NOPND(op, at[arg].dtype), dt);
	if (at[arg].size < 0)
		return out_like(c, op, out, 0, TY(op, 0), dt);
	if ((n = list_dims(OPND(op, at[arg].size), d, TORCH_MAXRANK)) < 0)
		return out_set(c, op, out, 0, -1, NULL, dt);
	for (i = 0; i < n; i++)
		if (d[i] == UNKNOWN)
			d[i] = DYN;
	return out_set(c, op, out, 0, n, d, dt);
}

/* arange(end), arange.start(start, end), arange.start_step(start, end,
 * step): arg is the number of Scalar operands. */
static int
arange(Ctx *c, Op *op, Type **out, int arg)
{
	double v[3] = {0, 0, 1};
	int known = 1, allint = 1, i;
	int64_t n = DYN;
	Type *dt;

	for (i = 0; i < arg; i++) {
		Value *x = OPND(op, i);
		int k = arg == 1 ? 1 : i;
		if (x->type->kind != TY_TORCH_INT)
			allint = 0;
		if (!tv_float(x, &v[k]))
			known = 0;
	}
	dt = opt_dtype(c, OPND(op, arg), allint ? dt_i64(c) : dt_f32(c));
	if (known && v[2] != 0) {
		double len = (v[1] - v[0]) / v[2];
		n = len <= 0 ? 0 : (int64_t)len + (len > (int64_t)len);
	}
	return out_set(c, op, out, 0, 1, &n, dt);
}

/* to.dtype, to.other, to.device, _to_copy, type_as: arg picks where the
 * dtype comes from. */
enum { T_CODE1, T_OTHER, T_CODE2, T_OPT1 };

static int
to(Ctx *c, Op *op, Type **out, int arg)
{
	Type *dt;

	switch (arg) {
	case T_CODE1: dt = opt_dtype(c, OPND(op, 1), NULL); break;
	case T_CODE2: dt = opt_dtype(c, OPND(op, 2), NULL); break;
	case T_OTHER: dt = tt_dtype(TY(op, 1)); break;
	default: dt = opt_dtype(c, OPND(op, 1), dtype0(op)); break;
	}
	return out_like(c, op, out, 0, TY(op, 0), dt);
}

/* ---- reductions ---- */

enum { R_SELF, R_SUM, R_BOOL, R_FLOAT };
#define NA 0xf
#define RED(dim, keep, dt, rule) ((dim) | ((keep) << 4) | ((dt) << 8) | ((rule) << 12))

static Type *
red_dtype(Ctx *c, Op *op, int dti, int rule)
{
	Type *d = dtype0(op);

	/* any and all keep uint8 (PyTorch's legacy), else give bool */
	if (rule == R_BOOL)
		return d && d->kind == TY_INT && d->sign == UNSIGNED ? d : dt_bool(c);
	if (d && rule == R_SUM && !dt_isfloat(d))
		d = dt_i64(c);
	if (d && rule == R_FLOAT && !dt_isfloat(d))
		d = dt_f32(c);
	return dti == NA ? d : opt_dtype(c, NOPND(op, dti), d);
}

static int
reduce(Ctx *c, Op *op, Type **out, int arg)
{
	int dimi = arg & 0xf, keepi = (arg >> 4) & 0xf, keep = 0, r = tt_rank(TY(op, 0));
	int mask[TORCH_MAXRANK], n;
	int64_t d[TORCH_MAXRANK];
	Type *dt = red_dtype(c, op, (arg >> 8) & 0xf, arg >> 12);

	if (keepi != NA && !tv_bool(OPND(op, keepi), &keep))
		return out_set(c, op, out, 0, -1, NULL, dt);
	if (r < 0)
		return out_set(c, op, out, 0, -1, NULL, dt);
	if (dim_mask(dimi == NA ? NULL : OPND(op, dimi), r, mask) < 0)
		return out_set(c, op, out, 0, -1, NULL, dt);
	n = reduce_dims(TY(op, 0), mask, keep, d);
	out_set(c, op, out, 0, n, d, dt);
	if (op->nres == 2)   /* max.dim, min.dim: the indices */
		out_set(c, op, out, 1, n, d, dt_i64(c));
	return 1;
}

static int
argmax(Ctx *c, Op *op, Type **out, int arg)
{
	int r = tt_rank(TY(op, 0)), keep, mask[TORCH_MAXRANK], n;
	int64_t d[TORCH_MAXRANK];

	if (r < 0 || !tv_bool(OPND(op, 2), &keep))
		return out_set(c, op, out, 0, -1, NULL, dt_i64(c));
	if (tv_none(OPND(op, 1))) {   /* over all dims: [] or, kept, [1, ...] */
		for (n = 0; n < r; n++)
			d[n] = 1;
		return out_set(c, op, out, 0, keep ? r : 0, d, dt_i64(c));
	}
	if (dim_mask(OPND(op, 1), r, mask) < 0)
		return 0;
	n = reduce_dims(TY(op, 0), mask, keep, d);
	return out_set(c, op, out, 0, n, d, dt_i64(c));
}

static int
cumsum(Ctx *c, Op *op, Type **out, int arg)
{
	return out_like(c, op, out, 0, TY(op, 0), red_dtype(c, op, 2, R_SUM));
}

/* sort, argsort, msort, topk, kthvalue (arg: S_*): values in the input's
 * dtype, indices int64; topk's dim becomes k, kthvalue's is reduced.  A k
 * outside the extent (PyTorch refuses it) is left unknown. */
enum { S_SORT, S_STABLE, S_ARGSORT, S_ARGSORT_STABLE, S_MSORT, S_TOPK, S_KTH };

static int
sort_like(Ctx *c, Op *op, Type **out, int arg)
{
	Type *t = TY(op, 0);
	int r = tt_rank(t), i, nv;
	int64_t dim, k, d[TORCH_MAXRANK];
	int keep = 1;

	if (arg != S_TOPK && arg != S_KTH) {
		if (arg == S_ARGSORT || arg == S_ARGSORT_STABLE)
			return out_like(c, op, out, 0, t, dt_i64(c));
		out_like(c, op, out, 0, t, dtype0(op));
		return out_like(c, op, out, 1, t, dt_i64(c));
	}
	if (r < 0 || (dim = dim_at(op, 2, r < 1 ? 1 : r)) < 0 || !tv_int(OPND(op, 1), &k)
	    || (arg == S_KTH && !tv_bool(OPND(op, 3), &keep))) {
		out_set(c, op, out, 0, -1, NULL, dtype0(op));
		return out_set(c, op, out, 1, -1, NULL, dt_i64(c));
	}
	for (i = nv = 0; i < r; i++) {
		if (i != dim)
			d[nv++] = t->dims[i];
		else if (arg == S_TOPK)
			d[nv++] = t->dims[i] == DYN || (k >= 0 && k <= t->dims[i]) ? k : DYN;
		else if (keep)
			d[nv++] = 1;
	}
	out_set(c, op, out, 0, nv, d, dtype0(op));
	return out_set(c, op, out, 1, nv, d, dt_i64(c));
}

static int
softmax(Ctx *c, Op *op, Type **out, int arg)
{
	Type *dt = dtype0(op);
	int h;

	if (arg)   /* _softmax: half_to_float */
		dt = tv_bool(OPND(op, 2), &h) && h && dt && dt->kind == TY_F16 ? dt_f32(c) : dt;
	else
		dt = opt_dtype(c, OPND(op, 2), dt);
	return out_like(c, op, out, 0, TY(op, 0), dt);
}

/* as_strided(x, size, stride, off), as_strided_copy: the size list. */
static int
as_strided(Ctx *c, Op *op, Type **out, int arg)
{
	int64_t d[TORCH_MAXRANK];
	int n = list_dims(OPND(op, 1), d, TORCH_MAXRANK), i;

	if (n < 0)
		return out_set(c, op, out, 0, -1, NULL, dtype0(op));
	for (i = 0; i < n; i++)
		if (d[i] == UNKNOWN || d[i] < 0)
			d[i] = DYN;
	return out_set(c, op, out, 0, n, d, dtype0(op));
}

const InferRule infer_shape[] = {
	{"aten.as_strided", as_strided, 0}, {"aten.as_strided_copy", as_strided, 0},
	{"aten.view", view, 0}, {"aten.reshape", view, 0}, {"aten._reshape_alias", view, 0},
	{"aten._unsafe_view", view, 0}, {"aten.view_copy", view, 0},
	{"aten.flatten.using_ints", flatten, 0}, {"aten.unflatten.int", unflatten, 0},
	{"aten.unsqueeze", unsqueeze, 0}, {"aten.squeeze", squeeze, 0},
	{"aten.squeeze.dim", squeeze, 0}, {"aten.transpose.int", transpose, 0},
	{"aten.t", transpose, 1}, {"aten.numpy_T", transpose, 1}, {"aten.permute", permute, 0},
	{"aten.expand", expand, 0}, {"aten.broadcast_to", expand, 0},
	{"aten.expand_as", expand, 1}, {"aten.slice.Tensor", slice, 0},
	{"aten.select.int", select_, 0}, {"aten.narrow", select_, 1},
	{"aten.cat", cat, 0}, {"aten.stack", cat, 1}, {"aten.repeat", repeat, 0},
	{"aten.constant_pad_nd", pad, 0}, {"aten.reflection_pad1d", pad, 0},
	{"aten.reflection_pad2d", pad, 0}, {"aten.replication_pad2d", pad, 0},
	{"aten.reflection_pad3d", pad, 0}, {"aten.replication_pad1d", pad, 0},
	{"aten.replication_pad3d", pad, 0},
	{"aten.index_select", index_select, 0}, {"aten.gather", gather, 0},
	{"aten.embedding", embedding, 0},
	{"aten.split.Tensor", keep_list, 0}, {"aten.split_with_sizes", keep_list, 0},
	{"aten.chunk", keep_list, 0}, {"aten.unbind.int", keep_list, 0},
	{"aten.unsafe_split.Tensor", keep_list, 0}, {"aten.unsafe_split_with_sizes", keep_list, 0},
	{"aten.unsafe_chunk", keep_list, 0}, {"aten.split.sizes", keep_list, 0},
	{"aten.split", keep_list, 0},
	{"aten.zeros", creation, C_ZEROS}, {"aten.ones", creation, C_ZEROS},
	{"aten.empty.memory_format", creation, C_ZEROS}, {"aten.full", creation, C_FULL},
	{"aten.zeros_like", creation, C_LIKE}, {"aten.ones_like", creation, C_LIKE},
	{"aten.empty_like", creation, C_LIKE}, {"aten.full_like", creation, C_FULL_LIKE},
	{"aten.new_zeros", creation, C_NEW}, {"aten.new_ones", creation, C_NEW},
	{"aten.new_empty", creation, C_NEW}, {"aten.new_full", creation, C_NEW_FULL},
	{"aten.arange", arange, 1}, {"aten.arange.start", arange, 2},
	{"aten.arange.start_step", arange, 3},
	{"aten.to.dtype", to, T_CODE1}, {"aten.to.other", to, T_OTHER},
	{"aten.to.device", to, T_CODE2}, {"aten._to_copy", to, T_OPT1},
	{"aten.type_as", to, T_OTHER},
	{"aten.sum", reduce, RED(NA, NA, 1, R_SUM)},
	{"aten.sum.dim_IntList", reduce, RED(1, 2, 3, R_SUM)},
	{"aten.mean", reduce, RED(NA, NA, 1, R_SELF)},
	{"aten.mean.dim", reduce, RED(1, 2, 3, R_SELF)},
	{"aten.amax", reduce, RED(1, 2, NA, R_SELF)}, {"aten.amin", reduce, RED(1, 2, NA, R_SELF)},
	{"aten.prod", reduce, RED(NA, NA, 1, R_SUM)},
	{"aten.prod.dim_int", reduce, RED(1, 2, 3, R_SUM)},
	{"aten.max", reduce, RED(NA, NA, NA, R_SELF)}, {"aten.min", reduce, RED(NA, NA, NA, R_SELF)},
	{"aten.max.dim", reduce, RED(1, 2, NA, R_SELF)}, {"aten.min.dim", reduce, RED(1, 2, NA, R_SELF)},
	{"aten.argmax", argmax, 0}, {"aten.argmin", argmax, 0},
	{"aten.var.correction", reduce, RED(1, 3, NA, R_FLOAT)},
	{"aten.std.correction", reduce, RED(1, 3, NA, R_FLOAT)},
	{"aten.var.dim", reduce, RED(1, 3, NA, R_FLOAT)}, {"aten.std.dim", reduce, RED(1, 3, NA, R_FLOAT)},
	{"aten.var", reduce, RED(NA, NA, NA, R_FLOAT)}, {"aten.std", reduce, RED(NA, NA, NA, R_FLOAT)},
	{"aten.linalg_vector_norm", reduce, RED(2, 3, 4, R_FLOAT)},
	{"aten.norm.Scalar", reduce, RED(NA, NA, NA, R_FLOAT)},
	{"aten.norm.ScalarOpt_dim", reduce, RED(2, 3, NA, R_FLOAT)},
	{"aten.any", reduce, RED(NA, NA, NA, R_BOOL)}, {"aten.all", reduce, RED(NA, NA, NA, R_BOOL)},
	{"aten.any.dim", reduce, RED(1, 2, NA, R_BOOL)}, {"aten.all.dim", reduce, RED(1, 2, NA, R_BOOL)},
	{"aten.logsumexp", reduce, RED(1, 2, NA, R_FLOAT)},
	{"aten.cumsum", cumsum, 0},
	{"aten.sort", sort_like, S_SORT}, {"aten.sort.stable", sort_like, S_STABLE},
	{"aten.argsort", sort_like, S_ARGSORT}, {"aten.argsort.stable", sort_like, S_ARGSORT_STABLE},
	{"aten.msort", sort_like, S_MSORT}, {"aten.topk", sort_like, S_TOPK},
	{"aten.kthvalue", sort_like, S_KTH},
	{"aten.softmax.int", softmax, 0}, {"aten.log_softmax.int", softmax, 0},
	{"aten._softmax", softmax, 1}, {"aten._log_softmax", softmax, 1},
	{NULL, NULL, 0},
};

const OpTable infer_shape_optables[] = {
	OPTABLE("inference rule", infer_shape, "torch."),
	{NULL},
};
