/*
 * decompose_idx.c - index, scatter and counting ops whose results the
 * contract's elementwise ops, reductions, cumsum and gathers compute:
 *
 *   _index_put_impl      index_put (unsafe only skips checks)
 *   index_put, one bool mask with a value per selected element:
 *                        the k-th selected element takes values[k], k its
 *                        place among the selected (a cumsum of the mask)
 *   masked_scatter       the same, with source read flat
 *   scatter_reduce.two   dense: E[.., p, q, ..] = index[.., q, ..] == p
 *                        (p the target along dim), the updates with E
 *                        reduced over q, then combined with self where some
 *                        update landed; O(|self dim| |index|) compares
 *   count_nonzero        sum of x != 0
 *   bucketize.Tensor     the count of boundaries below each element
 *   tril/triu_indices    a constant
 *   repeat_interleave.Tensor, with output_size or constant repeats:
 *                        out[j] = #{ i : cumsum(repeats)[i] <= j }
 *   one_hot              x[..., None] == arange(n), as int64, for a
 *                        constant n >= 0 (-1, the data's max + 1, is left)
 *
 * Ops whose result size depends on the data (nonzero, bincount, a mask
 * with an unknown count) are left for the contract check to refuse.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "decompose.h"

/* arange(lo, hi) int64, viewed at rank with its extent at dim at */
static Value *
arange_at(B *b, int64_t lo, int64_t hi, int rank, int at)
{
	Value *v[7] = {b_int(b, lo), b_int(b, hi), b_int(b, 1),
		b_int(b, dt_code(dt_i64(b->c))), b_none(b), b_none(b), b_none(b)};
	int64_t d[TORCH_MAXRANK + 1];
	int i;

	for (i = 0; i < rank; i++)
		d[i] = i == at ? hi - lo : 1;
	return b_op2(b, "aten.view", b_op(b, "aten.arange.start_step", 7, v), b_ints(b, rank, d));
}

/* sum.dim_IntList(x, [dim], keepdim false, dtype) */
static Value *
sum_dim(B *b, Value *x, int64_t dim, Type *dt)
{
	Value *v[4] = {x, b_ints(b, 1, &dim), b_bool(b, 0), b_int(b, dt_code(dt))};

	return b_op(b, "aten.sum.dim_IntList", 4, v);
}

static int
static_ranked(Value *v)
{
	return tt_is(v->type) && tt_rank(v->type) >= 0 && ty_static(v->type)
	    && tt_dtype(v->type) && dt_code(tt_dtype(v->type)) >= 0;
}

static int64_t
numel(const Type *t)
{
	int64_t n = 1;
	int i;

	for (i = 0; i < t->rank; i++)
		n *= t->dims[i];
	return n;
}

/* ---- _index_put_impl(self, indices, values, accumulate, unsafe) ---- */

static int
index_put_impl(B *b, Op *op)
{
	Value *v[4] = {OPND(op, 0), OPND(op, 1), OPND(op, 2), OPND(op, 3)};

	d_done(b, op, b_op(b, "aten.index_put", 4, v));
	return 1;
}

/* ---- the k-th selected element takes the k-th update ---- */

/* For a static bool mask m (any shape), the int64 place of each element
 * among the selected ones, flat ([numel(m)]); 0 where m is false. */
static Value *
places(B *b, Value *m)
{
	int64_t n = numel(m->type);
	Value *flat = b_op2(b, "aten.view", m, b_ints(b, 1, &n));
	Value *c[3] = {flat, b_int(b, 0), b_int(b, dt_code(dt_i64(b->c)))};
	Value *pos = b_op3(b, "aten.sub.Scalar", b_op(b, "aten.cumsum", 3, c), b_int(b, 1),
	    b_int(b, 1));

	return b_op3(b, "aten.where.ScalarOther", flat, pos, b_int(b, 0));
}

/* A 1-d bool mask m among int index tensors that broadcast to [L], L > 1:
 * the mask's nonzero positions as an int64 [L] index.  Broadcasting asks
 * its count K to be L, or 1 (then every entry is the one position):
 * entry i is the position of the min(i, K - 1)-th selected element. */
static Value *
mask_positions(B *b, Value *m, int64_t L)
{
	int64_t n = m->type->dims[0];
	Value *c[3] = {m, b_int(b, 0), b_int(b, dt_code(dt_i64(b->c)))};
	Value *pos = b_op3(b, "aten.sub.Scalar", b_op(b, "aten.cumsum", 3, c), b_int(b, 1),
	    b_int(b, 1));                                                  /* [n] */
	Value *s[2] = {m, b_int(b, dt_code(dt_i64(b->c)))};
	Value *k1 = b_op3(b, "aten.sub.Scalar", b_op(b, "aten.sum", 2, s), b_int(b, 1), b_int(b, 1));
	Value *t = b_op2(b, "aten.minimum", arange_at(b, 0, L, 2, 0), k1);  /* [L, 1] */
	Value *hit = b_op2(b, "aten.logical_and", b_op2(b, "aten.unsqueeze", m, b_int(b, 0)),
	    b_op2(b, "aten.eq.Tensor", b_op2(b, "aten.unsqueeze", pos, b_int(b, 0)), t));
	Value *w = b_op3(b, "aten.where.ScalarOther", hit, arange_at(b, 0, n, 2, 1), b_int(b, 0));

	return sum_dim(b, w, 1, dt_i64(b->c));
}

/* index_put(self, [.., m, ..], v, acc) with one 1-d bool mask among int
 * indices: the mask becomes its positions (mask_positions), an int index
 * torch-lower takes. */
static int
index_put_mixed(B *b, Op *op, Value **e, int n)
{
	Value *l[TORCH_MAXRANK], *m = NULL, *x;
	int i, at = -1;
	int64_t L = 1;

	if (n > TORCH_MAXRANK)
		return 0;
	for (i = 0; i < n; i++) {
		x = e[i];
		if (x->def && !strcmp(x->def->name, "torch.derefine"))
			x = OPND(x->def, 0);
		l[i] = x;
		if (tv_none(x))
			continue;
		if (!static_ranked(x))
			return 0;
		if (dt_isbool(tt_dtype(x->type))) {
			if (m || x->type->rank != 1)
				return 0;
			m = x, at = i;
			continue;
		}
		if (dt_isfloat(tt_dtype(x->type)) || x->type->rank > 1)
			return 0;
		if (x->type->rank == 1 && x->type->dims[0] != 1) {
			if (L != 1 && L != x->type->dims[0])
				return 0;
			L = x->type->dims[0];
		}
	}
	if (!m || L <= 1)
		return 0;
	l[at] = mask_positions(b, m, L);
	Value *v[4] = {OPND(op, 0), b_list(b, n, l), OPND(op, 2), OPND(op, 3)};
	d_done(b, op, b_op(b, "aten.index_put", 4, v));
	return 1;
}

/* index_put(self, [m], v, acc), m a bool mask over self's leading dims,
 * v a value per selected element ([K, rest..] with K > 1, K the mask's
 * count, which PyTorch checks): v's rows in order where m is true.  The
 * one-value forms are index_put_mask's (decompose_misc.c). */
int
d_index_put_bool(B *b, Op *op)
{
	Value *self = OPND(op, 0), *v = OPND(op, 2), **e = NULL, *m, *g, *y;
	Type *st = self->type, *dt, *mt, *vt;
	int acc, r, k, i, n;
	int64_t d[TORCH_MAXRANK];

	n = tv_list(OPND(op, 1), &e);
	if (n > 1) {
		i = index_put_mixed(b, op, e, n);
		free(e);
		return i;
	}
	m = n == 1 ? e[0] : NULL;
	free(e);
	if (!m || !tv_bool(OPND(op, 3), &acc) || !static_ranked(self) || !static_ranked(v))
		return 0;
	if (m->def && !strcmp(m->def->name, "torch.derefine"))
		m = OPND(m->def, 0);
	mt = m->type, vt = v->type, dt = tt_dtype(st), r = st->rank;
	if (!static_ranked(m) || !dt_isbool(tt_dtype(mt)) || (k = mt->rank) > r || k < 1)
		return 0;
	for (i = 0; i < k; i++)
		if (mt->dims[i] != st->dims[i])
			return 0;
	/* v without a K dim (rest' broadcasting to self's dims k..): every
	 * selected element takes the same slice */
	if (vt->rank <= r - k && numel(vt) > 1) {
		for (i = 1; i <= vt->rank; i++)
			if (vt->dims[vt->rank - i] != 1 && vt->dims[vt->rank - i] != st->dims[r - i])
				return 0;
		g = d_to(b, v, dt);
		goto put;
	}
	/* v is [K, rest'], rest' broadcasting to self's dims k.. */
	if (vt->rank != r - k + 1 || vt->dims[0] <= 1)
		return 0;
	for (i = 1; i < vt->rank; i++)
		if (vt->dims[i] != 1 && vt->dims[i] != st->dims[k + i - 1])
			return 0;
	g = b_op3(b, "aten.index_select", d_to(b, v, dt), b_int(b, 0), places(b, m));
	for (i = 0; i < k; i++)
		d[i] = mt->dims[i];
	for (i = 1; i < vt->rank; i++)
		d[k + i - 1] = vt->dims[i];
	g = b_op2(b, "aten.view", g, b_ints(b, r, d));
put:
	for (i = k; i < r; i++)
		m = b_op2(b, "aten.unsqueeze", m, b_int(b, i));
	if (acc) {
		y = b_op3(b, "aten.where.ScalarOther", m, g, b_int(b, 0));
		y = d_add(b, self, y);
	} else
		y = b_op3(b, "aten.where.self", m, g, self);
	d_done(b, op, y);
	return 1;
}

/* masked_scatter(self, mask, source): mask broadcast to self; the k-th
 * selected element (row-major) takes source's k-th element. */
static int
masked_scatter(B *b, Op *op)
{
	Value *self = OPND(op, 0), *m = OPND(op, 1), *src = OPND(op, 2), *g;
	Type *st = self->type, *dt;
	int64_t n, ns;

	if (!static_ranked(self) || !static_ranked(m) || !static_ranked(src)
	    || !dt_isbool(tt_dtype(m->type)) || m->type->rank > st->rank)
		return 0;
	/* the mask broadcasts to self (a result of another shape is left) */
	for (int i = 1; i <= m->type->rank; i++) {
		int64_t md = m->type->dims[m->type->rank - i];
		if (md != 1 && md != st->dims[st->rank - i])
			return 0;
	}
	dt = tt_dtype(st);
	n = numel(st), ns = numel(src->type);
	if (ns == 0 || n == 0) {
		/* nothing can be selected (PyTorch checks the count) */
		d_done(b, op, self);
		return 1;
	}
	m = b_op3(b, "aten.expand", m, b_ints(b, st->rank, st->dims), b_bool(b, 0));
	src = b_op2(b, "aten.view", d_to(b, src, dt), b_ints(b, 1, &ns));
	g = b_op3(b, "aten.index_select", src, b_int(b, 0), places(b, m));
	g = b_op2(b, "aten.view", g, b_ints(b, st->rank, st->dims));
	d_done(b, op, b_op3(b, "aten.where.self", m, g, self));
	return 1;
}

/* ---- scatter_reduce.two(self, dim, index, src, reduce, include_self) ---- */

enum { R_SUM, R_PROD, R_MEAN, R_AMAX, R_AMIN };

/* the identity-free filler of amax (lo) or amin: below (above) every value */
static Value *
extreme(B *b, Type *dt, int lo)
{
	if (dt_isfloat(dt))
		return b_float(b, lo ? -INFINITY : INFINITY);
	if (dt->sign == UNSIGNED)
		return b_int(b, lo ? 0 : (int64_t)((1ull << dt->width) - 1));
	if (dt->width >= 64)
		return b_int(b, lo ? INT64_MIN : INT64_MAX);
	return b_int(b, lo ? -(1ll << (dt->width - 1)) : (1ll << (dt->width - 1)) - 1);
}

static int
scatter_reduce(B *b, Op *op)
{
	Value *self = OPND(op, 0), *ix = OPND(op, 2), *src = OPND(op, 3);
	Type *st = self->type, *xt = ix->type, *dt;
	const char *how;
	int64_t dim, pad[2 * TORCH_MAXRANK];
	int incl, r, i, red, npad = 0;
	Value *E, *su, *w, *cnt, *val, *has, *y;

	if (!tv_str(OPND(op, 4), &how) || !tv_bool(OPND(op, 5), &incl) || !tv_int(OPND(op, 1), &dim)
	    || !static_ranked(self) || !static_ranked(ix) || !static_ranked(src))
		return 0;
	if (!strcmp(how, "sum"))
		red = R_SUM;
	else if (!strcmp(how, "prod"))
		red = R_PROD;
	else if (!strcmp(how, "mean"))
		red = R_MEAN;
	else if (!strcmp(how, "amax"))
		red = R_AMAX;
	else if (!strcmp(how, "amin"))
		red = R_AMIN;
	else
		return 0;
	dt = tt_dtype(st);
	r = st->rank;
	if (r < 1 || r >= TORCH_MAXRANK || xt->rank != r || src->type->rank != r
	    || (dim = tt_dim(dim, r)) < 0 || dt_isbool(dt) || dt_isbool(tt_dtype(src->type))
	    || dt_isfloat(tt_dtype(xt)) || dt_isbool(tt_dtype(xt)))
		return 0;
	for (i = 0; i < r; i++)
		if (xt->dims[i] > src->type->dims[i] || (i != dim && xt->dims[i] > st->dims[i]))
			return 0;
	if (numel(xt) == 0) {
		d_done(b, op, self);
		return 1;
	}
	/* src's index-shaped corner */
	src = d_to(b, src, dt);
	for (i = 0; i < r; i++)
		if (src->type->dims[i] != xt->dims[i]) {
			Value *s[5] = {src, b_int(b, i), b_int(b, 0), b_int(b, xt->dims[i]), b_int(b, 1)};
			src = b_op(b, "aten.slice.Tensor", 5, s);
		}
	/* E[.., p, q, ..]: p (self's dim) at dim, q (index's dim) at dim + 1 */
	E = b_op2(b, "aten.eq.Tensor", b_op2(b, "aten.unsqueeze", ix, b_int(b, dim)),
	    arange_at(b, 0, st->dims[dim], r + 1, dim));
	su = b_op2(b, "aten.unsqueeze", src, b_int(b, dim));
	cnt = sum_dim(b, E, dim + 1, dt_i64(b->c));
	switch (red) {
	case R_SUM:
	case R_MEAN:
		w = b_op3(b, "aten.where.ScalarOther", E, su, b_int(b, 0));
		val = sum_dim(b, w, dim + 1, dt);
		break;
	case R_PROD: {
		w = b_op3(b, "aten.where.ScalarOther", E, su, b_int(b, 1));
		Value *p[4] = {w, b_int(b, dim + 1), b_bool(b, 0), b_int(b, dt_code(dt))};
		val = b_op(b, "aten.prod.dim_int", 4, p);
		break;
	}
	default: {
		int64_t dd = dim + 1;
		w = b_op3(b, "aten.where.ScalarOther", E, su, extreme(b, dt, red == R_AMAX));
		val = b_op3(b, red == R_AMAX ? "aten.amax" : "aten.amin", w, b_ints(b, 1, &dd),
		    b_bool(b, 0));
		break;
	}
	}
	/* val and cnt are self-shaped at dim, index-shaped elsewhere: pad */
	for (i = r - 1; i >= 0; i--) {
		pad[npad++] = 0;
		pad[npad++] = i == dim ? 0 : st->dims[i] - xt->dims[i];
	}
	for (i = 0; i < npad && !pad[i]; i++)
		;
	if (i < npad) {
		val = b_op3(b, "aten.constant_pad_nd", val, b_ints(b, npad, pad), b_int(b, 0));
		cnt = b_op3(b, "aten.constant_pad_nd", cnt, b_ints(b, npad, pad), b_int(b, 0));
	}
	has = b_op2(b, "aten.gt.Scalar", cnt, b_int(b, 0));
	switch (red) {
	case R_SUM:
		y = incl ? d_add(b, self, val) : val;
		break;
	case R_PROD:
		y = incl ? d_mul(b, self, val) : val;
		break;
	case R_AMAX:
		y = incl ? b_op2(b, "aten.maximum", self, val) : val;
		break;
	case R_AMIN:
		y = incl ? b_op2(b, "aten.minimum", self, val) : val;
		break;
	default:
		/* the count, never 0 where it divides (no int division by 0) */
		if (incl) {
			val = d_add(b, self, val);
			cnt = b_op3(b, "aten.add.Scalar", cnt, b_int(b, 1), b_int(b, 1));
		} else
			cnt = b_op3(b, "aten.where.ScalarOther", has, cnt, b_int(b, 1));
		cnt = d_to(b, cnt, dt);
		y = dt_isfloat(dt) ? d_div(b, val, cnt)
		    : b_op3(b, "aten.div.Tensor_mode", val, cnt, b_str(b, "floor"));
		break;
	}
	d_done(b, op, b_op3(b, "aten.where.self", has, d_to(b, y, dt), self));
	return 1;
}

/* ---- counting ---- */

/* count_nonzero(x, dim?), count_nonzero.dim_IntList(x, dims) */
static int
count_nonzero(B *b, Op *op)
{
	Value *x = OPND(op, 0), *nz, *v[4];
	int64_t d;

	if (!tt_is(x->type) || tt_rank(x->type) < 0 || !tt_dtype(x->type))
		return 0;
	nz = b_op2(b, "aten.ne.Scalar", x, b_int(b, 0));
	if (torch_is(op, "aten.count_nonzero.dim_IntList")) {
		v[1] = OPND(op, 1);
	} else if (tv_none(OPND(op, 1))) {
		Value *s[2] = {nz, b_int(b, dt_code(dt_i64(b->c)))};
		d_done(b, op, b_op(b, "aten.sum", 2, s));
		return 1;
	} else if (tv_int(OPND(op, 1), &d)) {
		v[1] = b_ints(b, 1, &d);
	} else
		return 0;
	v[0] = nz, v[2] = b_bool(b, 0), v[3] = b_int(b, dt_code(dt_i64(b->c)));
	d_done(b, op, b_op(b, "aten.sum.dim_IntList", 4, v));
	return 1;
}

/* bucketize.Tensor(x, boundaries, out_int32, right): the count of
 * boundaries b with !(b >= x) (right: !(b > x)); PyTorch's binary search
 * asks the same question, so a NaN x lands past every boundary. */
static int
bucketize(B *b, Op *op)
{
	Value *x = OPND(op, 0), *bd = OPND(op, 1), *c;
	int i32, right, r = tt_rank(x->type);

	if (r < 0 || r >= TORCH_MAXRANK || tt_rank(bd->type) != 1 || !tt_dtype(x->type)
	    || !tt_dtype(bd->type) || dt_isbool(tt_dtype(x->type))
	    || !tv_bool(OPND(op, 2), &i32) || !tv_bool(OPND(op, 3), &right))
		return 0;
	c = b_op2(b, right ? "aten.gt.Tensor" : "aten.ge.Tensor", bd,
	    b_op2(b, "aten.unsqueeze", x, b_int(b, r)));
	c = b_op1(b, "aten.logical_not", c);
	d_done(b, op, sum_dim(b, c, r, i32 ? dt_from_code(b->c, 3) : dt_i64(b->c)));
	return 1;
}

/* ---- constants ---- */

/* tril_indices / triu_indices(row, col, offset, dtype, layout, device,
 * pin): the [2, N] coordinates of the triangle, row-major. */
static int
tri_indices(B *b, Op *op)
{
	int upper = torch_is(op, "aten.triu_indices");
	int64_t row, col, off, code, i, j, n = 0, dims[2];
	Type *dt;
	double *v;

	if (!tv_int(OPND(op, 0), &row) || !tv_int(OPND(op, 1), &col) || !tv_int(OPND(op, 2), &off)
	    || row < 0 || col < 0 || row > (1 << 14) || col > (1 << 14))
		return 0;
	if (tv_none(OPND(op, 3)))
		dt = dt_i64(b->c);
	else if (!tv_int(OPND(op, 3), &code) || !(dt = dt_from_code(b->c, code)) || dt_isfloat(dt)
	    || dt_isbool(dt))
		return 0;
	for (i = 0; i < row; i++)
		for (j = 0; j < col; j++)
			n += upper ? j - i >= off : j - i <= off;
	v = xmalloc(sizeof *v * (2 * n + 1));
	n = 0;
	for (i = 0; i < row; i++)
		for (j = 0; j < col; j++)
			if (upper ? j - i >= off : j - i <= off)
				n++;
	dims[0] = 2, dims[1] = n;
	n = 0;
	for (i = 0; i < row; i++)
		for (j = 0; j < col; j++)
			if (upper ? j - i >= off : j - i <= off) {
				v[n] = (double)i;
				v[dims[1] + n] = (double)j;
				n++;
			}
	Value *lit = lit_make(b, tt_vt(b->c, 2, dims, dt), v, 2 * n, NULL);
	free(v);
	d_done(b, op, lit);
	return 1;
}

/* The one value every element of v has, when v is a constant: a full of
 * a constant int, or a literal, seen through views and expands. */
static int
const_splat(Value *v, int64_t *c)
{
	double *d;
	int64_t n, i;

	while (v->def && (torch_is(v->def, "aten.expand") || torch_is(v->def, "aten.view")
	    || torch_is(v->def, "aten.broadcast_to") || torch_is(v->def, "aten.unsqueeze")))
		v = OPND(v->def, 0);
	if (v->def && torch_is(v->def, "aten.full"))
		return tv_int(OPND(v->def, 1), c);
	if (!(d = lit_load(v, &n)))
		return 0;
	for (i = 1; i < n && d[i] == d[0]; i++)
		;
	*c = n ? (int64_t)d[0] : 0;
	i = i >= n && (double)*c == d[0];
	free(d);
	return (int)i;
}

/* repeat_interleave.Tensor(repeats, output_size): index i repeated
 * repeats[i] times.  The size is output_size when given (PyTorch checks
 * it is the sum), else the sum of constant repeats; otherwise it depends
 * on the data and the op is left. */
static int
repeat_interleave(B *b, Op *op)
{
	Value *rp = OPND(op, 0), *cum, *j, *c[3];
	Type *dt = tt_dtype(rp->type);
	int64_t L, n;

	if (tt_rank(rp->type) != 1 || !ty_static(rp->type) || !dt || dt_isfloat(dt) || dt_isbool(dt))
		return 0;
	n = rp->type->dims[0];
	if (!tv_int(OPND(op, 1), &L)) {
		double *v;
		int64_t k, i;

		if (!tv_none(OPND(op, 1)))
			return 0;
		if (const_splat(rp, &k)) {
			if (k < 0 || k > (1 << 24))
				return 0;
			L = k * n;
			goto sized;
		}
		if (!(v = lit_load(rp, &k)) || k != n)
			return 0;
		for (L = 0, i = 0; i < n; i++) {
			if (v[i] < 0 || v[i] > (1 << 24)) {
				free(v);
				return 0;
			}
			L += (int64_t)v[i];
		}
		free(v);
	}
sized:
	if (L < 0)
		return 0;
	/* torch-mlir's order: cumsum as a column [n, 1], positions as a row
	 * [1, L], position >= cumsum as int64 summed over the column */
	c[0] = d_to(b, rp, dt_i64(b->c)), c[1] = b_int(b, 0), c[2] = b_int(b, dt_code(dt_i64(b->c)));
	cum = b_op(b, "aten.cumsum", 3, c);
	Value *a[7] = {b_int(b, 0), b_int(b, L), b_int(b, 1), b_int(b, dt_code(dt_i64(b->c))),
		b_none(b), b_none(b), b_none(b)};
	j = b_op(b, "aten.arange.start_step", 7, a);
	cum = b_op2(b, "aten.unsqueeze", cum, b_int(b, 1));                          /* [n, 1] */
	j = b_op2(b, "aten.unsqueeze", j, b_int(b, 0));                              /* [1, L] */
	j = d_to(b, b_op2(b, "aten.ge.Tensor", j, cum), dt_i64(b->c));               /* [n, L] */
	d_done(b, op, d_to(b, sum_dim(b, j, 0, dt_i64(b->c)), dt));
	return 1;
}

/* _embedding_bag(_forward_only)(weight, indices, offsets, scale_grad,
 * mode, sparse, per_sample_weights, include_last_offset, padding_idx), mode
 * sum only: bag b sums weight's rows indices[offsets[b] : offsets[b + 1]]
 * (the last to the end), index j's bag being #{b : offsets[b] <= j} - 1
 * (offsets ascend from 0, which PyTorch checks).  offset2bag is empty,
 * bag_size and max_indices zeros, as PyTorch gives them for sum without
 * grad. */
static int
embedding_bag(B *b, Op *op)
{
	Value *w = OPND(op, 0), *ix = OPND(op, 1), *of = OPND(op, 2), *res[4], *e, *bag, *m, *f[6];
	int64_t mode, pad = -1, nb, n, zero = 0;
	int last, i;
	Type *it;

	if (op->nres != 4 || !tv_int(OPND(op, 4), &mode) || mode != 0 || !tv_none(OPND(op, 6))
	    || !tv_bool(OPND(op, 7), &last) || last
	    || !(tv_none(OPND(op, 8)) || (tv_int(OPND(op, 8), &pad) && pad == -1))
	    || !static_ranked(w) || w->type->rank != 2 || !static_ranked(ix) || ix->type->rank != 1
	    || !static_ranked(of) || of->type->rank != 1 || dt_isfloat(tt_dtype(ix->type)))
		return 0;
	for (i = 1; i < 4; i++)
		if (!tt_is(RES(op, i)->type) || !tt_dtype(RES(op, i)->type))
			return 0;
	nb = of->type->dims[0], n = ix->type->dims[0];
	e = b_op3(b, "aten.index_select", w, b_int(b, 0), ix);                     /* [n, D] */
	bag = sum_dim(b, b_op2(b, "aten.le.Tensor", b_op2(b, "aten.unsqueeze", of, b_int(b, 1)),
	    arange_at(b, 0, n, 2, 1)), 0, dt_i64(b->c));                           /* [n] */
	bag = b_op3(b, "aten.sub.Scalar", bag, b_int(b, 1), b_int(b, 1));
	m = b_op2(b, "aten.eq.Tensor", b_op2(b, "aten.unsqueeze", bag, b_int(b, 0)),
	    arange_at(b, 0, nb, 2, 0));                                             /* [nb, n] */
	m = b_op3(b, "aten.where.ScalarOther", b_op2(b, "aten.unsqueeze", m, b_int(b, 2)),
	    b_op2(b, "aten.unsqueeze", e, b_int(b, 0)), b_int(b, 0));             /* [nb, n, D] */
	res[0] = sum_dim(b, m, 1, tt_dtype(w->type));
	for (i = 1; i < 4; i++) {
		it = tt_dtype(RES(op, i)->type);
		f[0] = i == 1 ? b_ints(b, 1, &zero) : b_ints(b, 1, &nb);
		f[1] = b_int(b, 0), f[2] = b_int(b, dt_code(it)), f[3] = f[4] = f[5] = b_none(b);
		res[i] = b_op(b, "aten.full", 6, f);
	}
	torch_replace(b->c, op, res);
	return 1;
}

/* one_hot(x, n): int64 x only (PyTorch refuses others); a class outside
 * [0, n), which PyTorch refuses, gives a row of zeros. */
static int
one_hot(B *b, Op *op)
{
	Value *x = OPND(op, 0);
	int r = tt_rank(x->type);
	int64_t n;

	if (r < 0 || r >= TORCH_MAXRANK || tt_dtype(x->type) != dt_i64(b->c)
	    || !tv_int(OPND(op, 1), &n) || n < 0)
		return 0;
	x = b_op2(b, "aten.unsqueeze", x, b_int(b, r));
	d_done(b, op, d_to(b, b_op2(b, "aten.eq.Tensor", x, arange_at(b, 0, n, r + 1, r)),
	    dt_i64(b->c)));
	return 1;
}

const Decomp decomp_idx[] = {
	{"aten.one_hot", one_hot},
	{"aten._embedding_bag", embedding_bag}, {"aten._embedding_bag_forward_only", embedding_bag},
	{"aten._index_put_impl", index_put_impl},
	{"aten.masked_scatter", masked_scatter},
	{"aten.scatter_reduce.two", scatter_reduce},
	{"aten.count_nonzero", count_nonzero}, {"aten.count_nonzero.dim_IntList", count_nonzero},
	{"aten.bucketize.Tensor", bucketize},
	{"aten.tril_indices", tri_indices}, {"aten.triu_indices", tri_indices},
	{"aten.repeat_interleave.Tensor", repeat_interleave},
	{NULL, NULL},
};

const OpTable decomp_idx_optables[] = {
	OPTABLE("decomposition", decomp_idx, "torch."),
	{NULL},
};
