/*
 * decompose_resize.c - resizing ops in gathers and elementwise ops:
 *   upsample_nearest{1,2,3}d     index_select along each spatial dim with
 *                                PyTorch's source indices
 *                                min(floor(o * scale), in - 1);
 *   upsample_{linear1d,bilinear2d,trilinear3d}
 *                                per spatial dim, last first,
 *                                x[i0] * l0 + x[i1] * l1 with the indices
 *                                and weights PyTorch computes (in its
 *                                opmath precision), as constant tables;
 *   adaptive pools               the 1-d forms as 2-d pools over [.., 1, L],
 *                                _adaptive_avg_pool2d as adaptive_avg_pool2d,
 *                                the 3-d average (and max without indices)
 *                                as a 2-d pool over (H, W), then over D.
 * Shapes must be static: the tables are computed here.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "decompose.h"
#include "infer.h"

/* ---- upsample operands ---- */

typedef struct Resize {
	int k, linear, ac;          /* spatial dims, bilinear-like, align_corners */
	int64_t out[3];
	double scale[3];            /* <= 0: none */
} Resize;

/* Reads the op's spatial rank, output sizes and scales; in gives the
 * spatial input sizes (DYN allowed unless the sizes come from scales).
 * 0 when an operand is not constant or the forms disagree. */
static int
resize_params(Op *op, const int64_t *in, Resize *z)
{
	const char *n = torch_opname(op), *d;
	int vec = strstr(n, ".vec") != NULL, si, i, ok;
	Value *os = OPND(op, 1), **e = NULL;

	memset(z, 0, sizeof *z);
	z->linear = strstr(n, "linear") != NULL;
	d = strstr(n, z->linear ? "linear" : "nearest");
	z->k = d[strlen(z->linear ? "linear" : "nearest")] - '0';
	if (z->k < 1 || z->k > 3)
		return 0;
	si = z->linear ? 3 : 2;
	if (z->linear && !tv_bool(OPND(op, 2), &z->ac))
		return 0;
	if (vec) {
		if (tv_none(OPND(op, si))) {
			if (tv_ints(os, z->out, 3) != z->k)
				return 0;
			return 1;
		}
		if (!tv_none(os))
			return 0;
		ok = tv_list(OPND(op, si), &e) == z->k;
		for (i = 0; ok && i < z->k; i++) {
			double o;
			if (!tv_float(e[i], &z->scale[i]) || in[i] == DYN) {
				ok = 0;
				break;
			}
			/* PyTorch's compute_output_size: the product truncated */
			o = (double)in[i] * z->scale[i];
			ok = o > -1 && o < 0x1p62;
			z->out[i] = ok ? (int64_t)o : 0;
		}
		free(e);
		return ok;
	}
	if (tv_ints(os, z->out, 3) != z->k || op->nopnds < si + z->k)
		return 0;
	for (i = 0; i < z->k; i++) {
		Value *s = OPND(op, si + i);
		z->scale[i] = 0;
		if (!tv_none(s) && !tv_float(s, &z->scale[i]))
			return 0;
	}
	return 1;
}

int
infer_upsample(Ctx *c, Op *op, Type **out, int arg)
{
	Type *x = TY(op, 0);
	int r = tt_rank(x), i;
	int64_t d[TORCH_MAXRANK];
	Resize z;

	(void)arg;
	if (r < 3)
		return r < 0 && out_set(c, op, out, 0, -1, NULL, tt_dtype(x));
	for (i = 0; i < TORCH_MAXRANK; i++)
		d[i] = i < r ? x->dims[i] : DYN;
	if (!resize_params(op, d + 2, &z) || r != z.k + 2)
		return 0;
	for (i = 0; i < z.k; i++)
		d[2 + i] = z.out[i];
	return out_set(c, op, out, 0, r, d, tt_dtype(x));
}

/* ---- upsample tables, in PyTorch's arithmetic ---- */

/* Source indices i0, i1 and weights l0, l1 of output positions o < O for
 * an input of n along one dim, computed in float (f64 0: the opmath of
 * f32, f16, bf16) or double, as PyTorch's area_pixel_compute_scale,
 * area_pixel_compute_source_index and compute_source_index_and_lambda. */
#define LINEAR_TABLE(NAME, T)                                                        \
static void                                                                         \
NAME(int64_t n, int64_t O, int ac, double scale, double *i0, double *i1,            \
	double *l0, double *l1)                                                     \
{                                                                                   \
	T ratio, real, lam;                                                         \
	int64_t o, a;                                                               \
                                                                                    \
	if (ac)                                                                     \
		ratio = O > 1 ? (T)(n - 1) / (T)(O - 1) : (T)0;                     \
	else                                                                        \
		ratio = scale > 0 ? (T)(1.0 / scale) : (T)n / (T)O;                 \
	for (o = 0; o < O; o++) {                                                   \
		if (O == n) {                                                       \
			i0[o] = i1[o] = (double)o, l0[o] = 1, l1[o] = 0;            \
			continue;                                                   \
		}                                                                   \
		if (ac)                                                             \
			real = ratio * (T)o;                                        \
		else {                                                              \
			real = (T)((double)ratio * ((double)o + 0.5) - 0.5);        \
			if (real < 0)                                               \
				real = 0;                                           \
		}                                                                   \
		a = (int64_t)real;                                                  \
		if (a > n - 1)                                                      \
			a = n - 1;                                                  \
		lam = real - (T)a;                                                  \
		lam = lam < 0 ? (T)0 : lam > 1 ? (T)1 : lam;                        \
		i0[o] = (double)a;                                                  \
		i1[o] = (double)(a + (a < n - 1));                                  \
		l1[o] = (double)lam;                                                \
		l0[o] = (double)((T)1 - lam);                                       \
	}                                                                           \
}
LINEAR_TABLE(linear_f, float)
LINEAR_TABLE(linear_d, double)

/* nearest_neighbor_compute_source_index: always in float */
static void
nearest_table(int64_t n, int64_t O, double scale, double *i0)
{
	float s = scale > 0 ? (float)(1.0 / scale) : (float)n / (float)O;
	int64_t o, a;

	for (o = 0; o < O; o++) {
		a = (int64_t)floorf((float)o * s);
		i0[o] = (double)(a < n - 1 ? a : n - 1);
	}
}

static Value *
index_lit(B *b, const double *idx, int64_t O)
{
	return lit_make(b, tt_vt(b->c, 1, &O, dt_i64(b->c)), idx, O, NULL);
}

/* weights [O, 1, ...] broadcasting along dim d of rank r */
static Value *
weight_lit(B *b, const double *w, int64_t O, int d, int r, Type *dt)
{
	int64_t dims[TORCH_MAXRANK];
	int i;

	for (i = 0; i < r - d; i++)
		dims[i] = i ? 1 : O;
	return lit_make(b, tt_vt(b->c, r - d, dims, dt), w, O, NULL);
}

static int
is_iota(const double *v, int64_t n)
{
	int64_t i;

	for (i = 0; i < n; i++)
		if (v[i] != (double)i)
			return 0;
	return 1;
}

static int
all_zero(const double *v, int64_t n)
{
	int64_t i;

	for (i = 0; i < n; i++)
		if (v[i] != 0)
			return 0;
	return 1;
}

static Value *
gather(B *b, Value *x, int d, const double *idx, int64_t O)
{
	if (O == x->type->dims[d] && is_iota(idx, O))
		return x;
	return b_op3(b, "aten.index_select", x, b_int(b, d), index_lit(b, idx, O));
}

/* x resampled along dim d to O positions */
static Value *
resample(B *b, Value *x, int d, int64_t O, const Resize *z, double scale)
{
	int64_t n = x->type->dims[d];
	int r = tt_rank(x->type);
	Type *dt = tt_dtype(x->type);
	double *t = xmalloc(sizeof(double) * 4 * (size_t)(O ? O : 1));
	double *i0 = t, *i1 = t + O, *l0 = t + 2 * O, *l1 = t + 3 * O;
	Value *y;

	if (!z->linear) {
		nearest_table(n, O, scale, i0);
		y = gather(b, x, d, i0, O);
	} else {
		(dt->kind == TY_F64 ? linear_d : linear_f)(n, O, z->ac, scale, i0, i1, l0, l1);
		y = gather(b, x, d, i0, O);
		if (!all_zero(l1, O)) {
			y = d_mul(b, y, weight_lit(b, l0, O, d, r, dt));
			y = d_add(b, y, d_mul(b, gather(b, x, d, i1, O),
			    weight_lit(b, l1, O, d, r, dt)));
		}
	}
	free(t);
	return y;
}

static Value *
to_dtype(B *b, Value *x, Type *dt)
{
	Value *v[5] = { x, b_int(b, dt_code(dt)), b_bool(b, 0), b_bool(b, 0), b_none(b) };

	return b_op(b, "aten.to.dtype", 5, v);
}

int
d_upsample(B *b, Op *op)
{
	Value *x = OPND(op, 0);
	Type *t = x->type, *dt = tt_dtype(t);
	int r = tt_rank(t), i;
	Resize z;

	if (r < 3 || !ty_static(t) || !dt || !resize_params(op, t->dims + 2, &z)
	    || r != z.k + 2)
		return 0;
	for (i = 0; i < z.k; i++)
		if (z.out[i] <= 0 || t->dims[2 + i] <= 0)
			return 0;
	/* PyTorch interpolates floats only; nearest copies any dtype */
	if (z.linear && !dt_isfloat(dt))
		return 0;
	if (z.linear && dt != dt_opmath(b->c, dt))
		x = to_dtype(b, x, dt_opmath(b->c, dt));
	for (i = z.k - 1; i >= 0; i--)
		x = resample(b, x, 2 + i, z.out[i], &z, z.scale[i]);
	if (tt_dtype(x->type) != dt)
		x = to_dtype(b, x, dt);
	d_done(b, op, x);
	return 1;
}

/* ---- adaptive pools ---- */

/* _adaptive_avg_pool2d: adaptive_avg_pool2d, which decomposes further */
int
d_adaptive_avg_alias(B *b, Op *op)
{
	Value *v[2] = { OPND(op, 0), OPND(op, 1) };

	if (tt_rank(v[0]->type) < 0)
		return 0;
	d_done(b, op, b_op(b, "aten.adaptive_avg_pool2d", 2, v));
	return 1;
}

static Value *
unsq(B *b, Value *x, int64_t d)
{
	return b_op2(b, "aten.unsqueeze", x, b_int(b, d));
}

static Value *
sq(B *b, Value *x, int64_t d)
{
	return b_op2(b, "aten.squeeze.dim", x, b_int(b, d));
}

/* adaptive_{avg,max}_pool1d(x [.., L], [O]): the 2-d pool of [.., 1, L]
 * to (1, O); max's flat indices h * L + w are then w */
int
d_adaptive_pool1d(B *b, Op *op)
{
	int mx = strstr(torch_opname(op), "max") != NULL;
	int64_t o, two[2] = { 1, 0 };
	Value *v[2];
	Op *p;

	if (tt_rank(OPND(op, 0)->type) < 2 || tv_ints(OPND(op, 1), &o, 1) != 1)
		return 0;
	two[1] = o;
	v[0] = unsq(b, OPND(op, 0), -2), v[1] = b_ints(b, 2, two);
	if (!mx) {
		d_done(b, op, sq(b, b_op(b, "aten.adaptive_avg_pool2d", 2, v), -2));
		return 1;
	}
	p = b_opn(b, "aten.adaptive_max_pool2d", 2, v);
	v[0] = sq(b, RES(p, 0), -2), v[1] = sq(b, RES(p, 1), -2);
	torch_replace(b->c, op, v);
	return 1;
}

/* adaptive_avg_pool3d, _adaptive_avg_pool3d and adaptive_max_pool3d
 * (indices unused) of x [.., D, H, W]: the windows are products, so the
 * pool over (H, W) of [.., D, H, W], then over (D, 1) of
 * [.., D, oH * oW] */
int
d_adaptive_pool3d(B *b, Op *op)
{
	Value *x = OPND(op, 0), *v[2];
	Type *t = x->type;
	int mx = strstr(torch_opname(op), "max") != NULL, r = tt_rank(t), i;
	const char *p2 = mx ? "aten.adaptive_max_pool2d" : "aten.adaptive_avg_pool2d";
	int64_t o[3], d[TORCH_MAXRANK], s[2];
	Op *p;

	if (mx && !d_unused_from(op, 1))
		return d_adaptive_max_pool3d_indices(b, op);
	if ((r != 4 && r != 5) || !ty_static(t) || tv_ints(OPND(op, 1), o, 3) != 3)
		return 0;
	for (i = 0; i < 3; i++)
		if (o[i] <= 0 || t->dims[r - 3 + i] <= 0)
			return 0;
	/* [.., D, H, W] viewed as [lead * D, H, W] */
	d[0] = ty_numel(t) / (t->dims[r - 2] * t->dims[r - 1]);
	d[1] = t->dims[r - 2], d[2] = t->dims[r - 1];
	v[0] = d_view(b, x, 3, d), v[1] = b_ints(b, 2, o + 1);
	p = b_opn(b, p2, 2, v);
	/* [lead, D, oH * oW] */
	d[0] = d[0] / t->dims[r - 3], d[1] = t->dims[r - 3], d[2] = o[1] * o[2];
	s[0] = o[0], s[1] = o[1] * o[2];
	v[0] = d_view(b, RES(p, 0), 3, d), v[1] = b_ints(b, 2, s);
	p = b_opn(b, p2, 2, v);
	for (i = 0; i < r; i++)
		d[i] = i < r - 3 ? t->dims[i] : o[i - (r - 3)];
	d_done(b, op, d_view(b, RES(p, 0), r, d));
	return 1;
}
