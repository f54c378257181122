/*
 * decompose_strided.c - as_strided and its copy and scatter forms over a
 * value tensor.  fx-import lets them through only over the storage they
 * address laid out row-major (tools/fx-import/call.c, check_as_strided;
 * for a view, its base in storage order: tools/fx-import/strided.c), so
 * that storage is the operand flattened: element
 * (i0, .., ik) of as_strided(x, size, stride, off) is
 * flat(x)[off + sum(ij * stride[j])].
 *
 *   a view chain    when, leaving out the dims of size 1 and the dims of
 *                   stride 0 (broadcast: expand), the strides are the
 *                   row-major ones of the sizes left in some order:
 *                   flat(x) sliced [off, off + n), viewed, permuted,
 *                   viewed, expanded;
 *   a gather        otherwise (skipping elements, overlapping windows):
 *                   index_select(flat(x), 0, the indices as an int64
 *                   literal), viewed to size;
 *   scatter         flat(self) with index_put of flat(src) at the same
 *                   indices, viewed back; overlapping indices refused.
 *
 * Refused with an error: sizes, strides or offset not constants, a negative
 * one, an index past the operand's last element, a dynamic operand.
 */
#include <stdlib.h>
#include <string.h>

#include "decompose.h"

#define ERRATTR "as_strided_refused"

typedef struct Strided {
	int r;
	int64_t size[TORCH_MAXRANK], stride[TORCH_MAXRANK], off, n, numel;
} Strided;

/* Reports once per op (the sweeps see it again) and leaves it. */
static int
refuse(B *b, Op *op, const char *why)
{
	if (!op_attr(op, ERRATTR)) {
		op_error(op, "'%s' %s", op->name + 6, why);
		op_set_attr(b->c, op, ERRATTR, at_unit(b->c));
	}
	return 0;
}

/* The operands size, stride, storage_offset at i..i+2 of op over x. */
static int
read_strided(B *b, Op *op, Value *x, int i, Strided *s)
{
	int64_t max = 0;
	int k, rs;

	if (!ty_static(x->type) || !tt_dtype(x->type))
		return 0;
	s->r = tv_ints(OPND(op, i), s->size, TORCH_MAXRANK);
	rs = tv_ints(OPND(op, i + 1), s->stride, TORCH_MAXRANK);
	if (s->r < 0 || rs < 0)
		return refuse(b, op, "with sizes or strides that are not constants is not supported");
	if (s->r != rs)
		return refuse(b, op, "has a size list and a stride list of different lengths");
	s->off = 0;
	if (!tv_none(OPND(op, i + 2)) && !tv_int(OPND(op, i + 2), &s->off))
		return refuse(b, op, "with a storage_offset that is not a constant is not supported");
	if (s->off < 0)
		return refuse(b, op, "has a negative storage_offset");
	s->numel = ty_numel(x->type);
	s->n = 1;
	for (k = 0; k < s->r; k++) {
		if (s->size[k] < 0 || s->stride[k] < 0)
			return refuse(b, op, "has a negative size or stride (PyTorch refuses it too)");
		if (__builtin_mul_overflow(s->n, s->size[k], &s->n))
			return refuse(b, op, "has a result too large to address");
	}
	if (s->n == 0)
		return 1;
	for (k = 0; k < s->r; k++) {
		int64_t t;
		if (__builtin_mul_overflow(s->size[k] - 1, s->stride[k], &t)
		    || __builtin_add_overflow(max, t, &max))
			return refuse(b, op, "addresses past the end of its operand");
	}
	if (__builtin_add_overflow(max, s->off, &max) || max >= s->numel)
		return refuse(b, op, "addresses past the last element of its operand "
		    "(storage_offset + sum((size - 1) * stride) >= numel)");
	return 1;
}

/* The flat index of each result element, row-major; malloc'd. */
static int64_t *
indices(const Strided *s)
{
	int64_t *idx = xcalloc(s->n ? s->n : 1, sizeof *idx), i;
	int64_t at[TORCH_MAXRANK] = {0};
	int k;

	for (i = 0; i < s->n; i++) {
		int64_t f = s->off;
		for (k = 0; k < s->r; k++)
			f += at[k] * s->stride[k];
		idx[i] = f;
		for (k = s->r - 1; k >= 0 && ++at[k] == s->size[k]; k--)
			at[k] = 0;
	}
	return idx;
}

static Value *
flat(B *b, Value *x, int64_t numel)
{
	return d_view(b, x, 1, &numel);
}

static Value *
index_literal(B *b, const Strided *s)
{
	int64_t *idx = indices(s);
	Type *t = tt_vt(b->c, 1, &s->n, dt_i64(b->c));

	return b_literal_take(b, t, idx, (size_t)s->n * sizeof *idx, "torch_as_strided_index");
}

/* The view chain, or NULL when the strides do not allow one: the dims
 * of size > 1 and stride > 0, ordered by falling stride, must have the
 * row-major strides of their sizes; flat(x)[off, off + n) viewed so, then
 * permuted back, viewed with the size-1 dims, expanded at stride 0. */
static Value *
view_chain(B *b, Value *x, const Strided *s)
{
	int64_t want = 1, vd[TORCH_MAXRANK], sd[TORCH_MAXRANK], perm[TORCH_MAXRANK];
	int k, j, m = 0, ord[TORCH_MAXRANK], bcast = 0, moved = 0;
	Value *v;

	for (k = 0; k < s->r; k++) {
		vd[k] = s->size[k];
		if (s->size[k] == 1)
			continue;
		if (s->stride[k] == 0) {
			vd[k] = 1, bcast = 1;
			continue;
		}
		/* insertion by falling stride, stable */
		for (j = m; j > 0 && s->stride[ord[j - 1]] < s->stride[k]; j--)
			ord[j] = ord[j - 1];
		ord[j] = k, m++;
	}
	for (j = m - 1; j >= 0; j--) {
		if (s->stride[ord[j]] != want)
			return NULL;
		want *= s->size[ord[j]];
	}
	for (j = 0; j < m; j++)
		sd[j] = s->size[ord[j]];
	/* perm[i]: which sorted dim is the i-th kept dim in the result order */
	for (k = 0, j = 0; k < s->r; k++) {
		int i;
		if (s->size[k] == 1 || s->stride[k] == 0)
			continue;
		for (i = 0; ord[i] != k; i++)
			;
		perm[j] = i;
		moved |= i != j;
		j++;
	}
	v = flat(b, x, s->numel);
	if (s->off != 0 || want != s->numel)
		v = b_op(b, "aten.slice.Tensor", 5, (Value *[]){v, b_int(b, 0), b_int(b, s->off),
		    b_int(b, s->off + want), b_int(b, 1)});
	if (moved) {
		v = d_view(b, v, m, sd);
		v = b_op2(b, "aten.permute", v, b_ints(b, m, perm));
	}
	v = d_view(b, v, s->r, vd);
	if (bcast)
		v = b_op3(b, "aten.expand", v, b_ints(b, s->r, s->size), b_bool(b, 0));
	return v;
}

/* as_strided(x, size, stride, off), as_strided_copy alike. */
static int
as_strided(B *b, Op *op)
{
	Value *x = OPND(op, 0), *v;
	Strided s;

	if (!read_strided(b, op, x, 1, &s))
		return 0;
	if (s.n == 0) {
		Value *f[6] = {b_ints(b, s.r, s.size), b_int(b, 0), b_int(b, dt_code(tt_dtype(x->type))),
			b_none(b), b_none(b), b_none(b)};
		v = b_op(b, "aten.full", 6, f);
	} else if (!(v = view_chain(b, x, &s))) {
		v = b_op3(b, "aten.index_select", flat(b, x, s.numel), b_int(b, 0),
		    index_literal(b, &s));
		v = d_view(b, v, s.r, s.size);
	}
	d_done(b, op, v);
	return 1;
}

/* as_strided_scatter(self, src, size, stride, off): self with the
 * elements as_strided(self, ...) would read replaced by src's. */
static int
as_strided_scatter(B *b, Op *op)
{
	Value *self = OPND(op, 0), *src = OPND(op, 1), *v, *e;
	Type *lt;
	Op *l;
	Strided s;
	int64_t *idx, i;
	char *seen;

	if (!read_strided(b, op, self, 2, &s))
		return 0;
	if (!ty_static(src->type) || tt_rank(src->type) != s.r
	    || memcmp(src->type->dims, s.size, s.r * sizeof *s.size))
		return refuse(b, op, "needs src of the shape of its size list");
	if (tt_dtype(src->type) != tt_dtype(self->type))
		return refuse(b, op, "needs src of self's dtype");
	if (s.n == 0) {
		d_done(b, op, self);
		return 1;
	}
	idx = indices(&s);
	seen = xcalloc(s.numel, 1);
	for (i = 0; i < s.n && !seen[idx[i]]; i++)
		seen[idx[i]] = 1;
	free(seen);
	free(idx);
	if (i < s.n)
		return refuse(b, op, "with overlapping elements (a stride of 0 or windows) "
		    "has no defined result; not supported");
	e = index_literal(b, &s);
	lt = ty_torch_list(b->c, ty_torch_optional(b->c, ty_vtensor(b->c, -1, NULL, NULL)));
	l = op_new(b->c, "torch.prim.ListConstruct", 1, &e, 1, &lt, 0, b->loc);
	op_insert_before(b->at, l);
	v = b_op(b, "aten.index_put", 4, (Value *[]){flat(b, self, s.numel), RES(l, 0),
	    flat(b, src, s.n), b_bool(b, 0)});
	d_done(b, op, d_view(b, v, self->type->rank, self->type->dims));
	return 1;
}

int d_as_strided(B *b, Op *op) { return as_strided(b, op); }
int d_as_strided_scatter(B *b, Op *op) { return as_strided_scatter(b, op); }
