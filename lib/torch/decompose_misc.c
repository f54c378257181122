/*
 * decompose_misc.c - decompositions of copies, views, creation ops and
 * lists: clone and inference dropout are their input, reshapes are
 * views, zeros, ones, empty, the _like and new_ forms are full, split and friends are
 * slices, stack is unsqueeze + cat.  Also the helpers the other
 * decomposition files share.
 */
#include <stdlib.h>
#include <string.h>

#include "decompose.h"
#include "pass.h"

/* ---- helpers ---- */

Value *
d_dim(B *b, Value *x, int i)
{
	Type *t = x->type;

	if (tt_rank(t) > i && t->dims[i] != DYN)
		return b_int(b, t->dims[i]);
	return b_op2(b, "aten.size.int", x, b_int(b, i));
}

Value *
d_shape(B *b, Value *x)
{
	Value *e[TORCH_MAXRANK];
	int r = tt_rank(x->type), i;

	for (i = 0; i < r; i++)
		e[i] = d_dim(b, x, i);
	return b_list(b, r, e);
}

Value *
d_view(B *b, Value *x, int n, const int64_t *dims)
{
	int64_t d[TORCH_MAXRANK];
	int i, dyn = 0;

	for (i = 0; i < n; i++) {
		d[i] = dims[i];
		if (d[i] == DYN && dyn++)
			return NULL;
	}
	if (tt_rank(x->type) == n && dims_eq(x->type->dims, d, n) && !dyn)
		return x;
	return b_op2(b, "aten.view", x, b_ints(b, n, d));
}

/* A decomposition computes what the op computes, in its dtype: one that
 * gave another dtype (an integer addmm that came out float) is a bug in
 * the table, never a result to pass on. */
void
d_done(B *b, Op *op, Value *v)
{
	Value *vals[8] = {v};
	Type *want = op->nres && tt_is(RES(op, 0)->type) ? tt_dtype(RES(op, 0)->type) : NULL;
	Type *got = tt_is(v->type) ? tt_dtype(v->type) : NULL;

	if (want && got && want != got) {
		Buf bw = {0}, bg = {0};
		print_type(&bw, want);
		print_type(&bg, got);
		die("torch-decompose: the decomposition of '%s' gives %.*s where the op gives %.*s",
		    op->name, (int)bg.n, bg.p, (int)bw.n, bw.p);
	}
	torch_replace(b->c, op, vals);
}

int
d_unused_from(Op *op, int i)
{
	for (; i < op->nres; i++)
		if (!value_use_empty(RES(op, i)))
			return 0;
	return 1;
}

/* v, a [C] tensor, viewed as [1, .., C, .., 1] with C at axis of rank r;
 * NULL if v is not [C] or the axis is not in rank r */
Value *
d_along(B *b, Value *v, int axis, int r)
{
	int64_t d[TORCH_MAXRANK];
	int i;

	if (tt_rank(v->type) != 1 || r > TORCH_MAXRANK || axis < 0 || axis >= r)
		return NULL;
	for (i = 0; i < r; i++)
		d[i] = 1;
	d[axis] = v->type->dims[0];
	return d_view(b, v, r, d);
}

/* v along the channels (axis 1) of rank r; v itself where that is no view */
Value *
d_channel(B *b, Value *v, int r)
{
	Value *w = r < 2 ? NULL : d_along(b, v, 1, r);

	return w ? w : v;
}

Value *d_add(B *b, Value *x, Value *y) { return b_op3(b, "aten.add.Tensor", x, y, b_int(b, 1)); }
Value *d_sub(B *b, Value *x, Value *y) { return b_op3(b, "aten.sub.Tensor", x, y, b_int(b, 1)); }
Value *d_mul(B *b, Value *x, Value *y) { return b_op2(b, "aten.mul.Tensor", x, y); }
Value *d_div(B *b, Value *x, Value *y) { return b_op2(b, "aten.div.Tensor", x, y); }

Value *
d_transpose(B *b, Value *x, int64_t d0, int64_t d1)
{
	return b_op3(b, "aten.transpose.int", x, b_int(b, d0), b_int(b, d1));
}

/* ---- identities ---- */

static int
identity(B *b, Op *op)
{
	d_done(b, op, OPND(op, 0));
	return 1;
}

/* dropout(x, p, train): x in inference. */
static int
dropout(B *b, Op *op)
{
	int train = 1;

	if (!tv_bool(OPND(op, 2), &train) || train)
		return 0;
	return identity(b, op);
}

static int
t(B *b, Op *op)
{
	Value *x = OPND(op, 0);
	int r = tt_rank(x->type);

	/* above rank 2, t() raises and numpy_T reverses every dim: left */
	if (r < 0 || r > 2)
		return 0;
	d_done(b, op, r == 2 ? d_transpose(b, x, 0, 1) : x);
	return 1;
}

/* ---- reshapes ---- */

/* reshape, _reshape_alias, _unsafe_view: a view of the same size list. */
static int
reshape(B *b, Op *op)
{
	d_done(b, op, b_op2(b, "aten.view", OPND(op, 0), OPND(op, 1)));
	return 1;
}

/* flatten, unflatten: a view to the inferred result shape. */
static int
to_result_shape(B *b, Op *op)
{
	Type *t = RES(op, 0)->type;
	Value *v;

	if (tt_rank(t) < 0 || !(v = d_view(b, OPND(op, 0), t->rank, t->dims)))
		return 0;
	d_done(b, op, v);
	return 1;
}

static int
expand_as(B *b, Op *op)
{
	if (tt_rank(OPND(op, 1)->type) < 0)
		return 0;
	d_done(b, op, b_op3(b, "aten.expand", OPND(op, 0), d_shape(b, OPND(op, 1)),
	    b_bool(b, 0)));
	return 1;
}

/* ---- creation: full(size, value, dtype, layout, device, pin) ---- */

static Value *
full(B *b, Value *size, Value *fill, Type *dtype)
{
	Value *v[6] = {size, fill, b_int(b, dt_code(dtype)), b_none(b), b_none(b), b_none(b)};

	return b_op(b, "aten.full", 6, v);
}

/* The fill value of a creation op (arg): 0, 1, or operand i. */
static int
creation(B *b, Op *op, Value *size, Value *fill)
{
	Type *dt = tt_dtype(RES(op, 0)->type);

	if (!dt || !size)
		return 0;
	if (dt_code(dt) < 0)
		return 0;
	d_done(b, op, full(b, size, fill, dt));
	return 1;
}

static Value *
scalar_for(B *b, Op *op, int v)
{
	Type *dt = tt_dtype(RES(op, 0)->type);

	if (dt && dt_isfloat(dt))
		return b_float(b, v);
	if (dt && dt_isbool(dt))
		return b_bool(b, v);
	return b_int(b, v);
}

static Value *
like_size(B *b, Op *op)
{
	return tt_rank(OPND(op, 0)->type) >= 0 ? d_shape(b, OPND(op, 0)) : NULL;
}

static int zeros(B *b, Op *op) { return creation(b, op, OPND(op, 0), scalar_for(b, op, 0)); }
static int ones(B *b, Op *op) { return creation(b, op, OPND(op, 0), scalar_for(b, op, 1)); }
static int zeros_like(B *b, Op *op) { return creation(b, op, like_size(b, op), scalar_for(b, op, 0)); }
static int ones_like(B *b, Op *op) { return creation(b, op, like_size(b, op), scalar_for(b, op, 1)); }
static int full_like(B *b, Op *op) { return creation(b, op, like_size(b, op), OPND(op, 1)); }
static int new_zeros(B *b, Op *op) { return creation(b, op, OPND(op, 1), scalar_for(b, op, 0)); }
static int new_ones(B *b, Op *op) { return creation(b, op, OPND(op, 1), scalar_for(b, op, 1)); }
static int new_full(B *b, Op *op) { return creation(b, op, OPND(op, 1), OPND(op, 2)); }

/* full(size, v, dtype=None): the dtype made explicit. */
static int
full_dtype(B *b, Op *op)
{
	if (!tv_none(OPND(op, 2)))
		return 0;
	return creation(b, op, OPND(op, 0), OPND(op, 1));
}

/* arange(end, ...), arange.start(start, end, ...): arange.start_step
 * with step 1 and the result's dtype made explicit. */
static int
arange_step1(B *b, Op *op)
{
	Type *dt = tt_dtype(RES(op, 0)->type);
	int start = torch_is(op, "aten.arange.start");

	if (!dt || dt_code(dt) < 0)
		return 0;
	Value *v[7] = {start ? OPND(op, 0) : b_int(b, 0), OPND(op, start), b_int(b, 1),
		b_int(b, dt_code(dt)), b_none(b), b_none(b), b_none(b)};
	d_done(b, op, b_op(b, "aten.arange.start_step", 7, v));
	return 1;
}

/* scalar_tensor(v, dtype, ...): a 0-dim full. */
static int scalar_tensor(B *b, Op *op) { return creation(b, op, b_ints(b, 0, NULL), OPND(op, 0)); }

/* fill.Scalar(x, v), zero(x): the contents do not matter. */
static int fill(B *b, Op *op) { return creation(b, op, like_size(b, op), OPND(op, 1)); }
static int zero(B *b, Op *op) { return creation(b, op, like_size(b, op), scalar_for(b, op, 0)); }

/* ---- dtype conversions ---- */

/* x converted to dtype dt (aten.to.dtype); x itself when it has it */
Value *
d_to(B *b, Value *x, Type *dt)
{
	Value *v[5];

	if (tt_dtype(x->type) == dt)
		return x;
	v[0] = x, v[1] = b_int(b, dt_code(dt)), v[2] = b_bool(b, 0), v[3] = b_bool(b, 0);
	v[4] = b_none(b);
	return b_op(b, "aten.to.dtype", 5, v);
}

/* _to_copy, to.other, type_as: to.dtype of the result's dtype. */
static int
to_result_dtype(B *b, Op *op)
{
	Type *dt = tt_dtype(RES(op, 0)->type);

	if (!dt || dt_code(dt) < 0)
		return 0;
	d_done(b, op, d_to(b, OPND(op, 0), dt));
	return 1;
}

/* type_as(x, other) whose dtype is not known yet: to.dtype of other's
 * dtype read at run time (prim.dtype), the result's type kept. */
static int
type_as(B *b, Op *op)
{
	Value *v[5], *dt = OPND(op, 1);
	Type *it = ty_torch(b->c, TY_TORCH_INT), *rt = RES(op, 0)->type;
	Op *nop;

	if (to_result_dtype(b, op))
		return 1;
	v[2] = v[3] = b_bool(b, 0);
	v[4] = b_none(b);
	nop = op_new(b->c, "torch.prim.dtype", 1, &dt, 1, &it, 0, b->loc);
	op_insert_before(b->at, nop);
	v[0] = OPND(op, 0), v[1] = RES(nop, 0);
	nop = op_new(b->c, "torch.aten.to.dtype", 5, v, 1, &rt, 0, b->loc);
	op_insert_before(b->at, nop);
	d_done(b, op, RES(nop, 0));
	return 1;
}

int
d_list_mutable(Value *v)
{
	static const char *const mut[] = {"torch.aten.append.t", "torch.aten._set_item.t",
		"torch.aten.insert.t", "torch.aten.extend.t", "torch.aten.pop.t",
		"torch.aten.clear.t", "torch.aten.add_.t", NULL};
	int i;

	for (Use *u = v->uses; u; u = u->next) {
		const char *n = u->owner->name;
		if (strncmp(n, "torch.", 6) || !strcmp(n, "torch.operator"))
			return 1;
		for (i = 0; mut[i]; i++)
			if (!strcmp(n, mut[i]))
				return 1;
	}
	return 0;
}

/* broadcast_tensors(list): each tensor expanded to the common shape.  The
 * list must be built here, unchanged, of static shapes (a size-1 dim met
 * by a dynamic one could go either way; shapes that do not broadcast, an
 * error in PyTorch, are left). */
static int
broadcast_tensors(B *b, Op *op)
{
	Op *l = OPND(op, 0)->def;
	int64_t d[TORCH_MAXRANK], nd[TORCH_MAXRANK];
	Type acc = {.kind = TY_TORCH_VTENSOR, .ranked = 1, .rank = 0, .dims = d};
	Type *rt = RES(op, 0)->type;
	int i, r = 0;

	if (!l || !op_is(l, "torch.prim.ListConstruct") || l->nopnds < 1 || l->nopnds > 64
	    || d_list_mutable(OPND(op, 0)))
		return 0;
	for (i = 0; i < l->nopnds; i++) {
		Type *t = OPND(l, i)->type;
		if (t->kind != TY_TORCH_VTENSOR || !ty_static(t)
		    || (r = tt_broadcast(&acc, t, nd)) < 0)
			return 0;
		memcpy(d, nd, (size_t)r * sizeof *d);
		acc.rank = r;
	}
	Value *v[l->nopnds], *shape = b_ints(b, r, d);
	for (i = 0; i < l->nopnds; i++) {
		Value *x = OPND(l, i);
		int same = x->type->rank == r && dims_eq(x->type->dims, d, r);
		v[i] = same ? x : b_op3(b, "aten.expand", x, shape, b_bool(b, 0));
	}
	/* the tensors go straight to the users of the list's unpackings, which
	 * are left dead for the sweep to erase (erasing them here could take
	 * the op the sweep visits next) */
	for (Use *u = RES(op, 0)->uses; u; u = u->next) {
		Op *un = u->owner;
		if (!op_is(un, "torch.prim.ListUnpack") || un->nres != l->nopnds)
			continue;
		for (i = 0; i < l->nopnds; i++) {
			Value *x = v[i];
			Type *t = RES(un, i)->type;
			if (x->type != t) {
				Op *cast = op_new(b->c, "torch.tensor_static_info_cast", 1, &x, 1, &t, 0, b->loc);
				op_insert_before(b->at, cast);
				x = RES(cast, 0);
			}
			value_replace_all_uses(RES(un, i), x);
		}
	}
	Op *nl = op_new(b->c, "torch.prim.ListConstruct", l->nopnds, v, 1, &rt, 0, b->loc);
	op_insert_before(b->at, nl);
	torch_replace(b->c, op, (Value *[]){RES(nl, 0)});
	return 1;
}

/* copy(self, src): src in self's dtype and shape. */
static int
copy(B *b, Op *op)
{
	Value *self = OPND(op, 0), *src = OPND(op, 1);
	Type *dt = tt_dtype(self->type);

	if (!dt || dt_code(dt) < 0 || tt_rank(self->type) < 0 || tt_rank(src->type) < 0)
		return 0;
	src = d_to(b, src, dt);
	if (src->type->rank != self->type->rank
	    || !dims_eq(src->type->dims, self->type->dims, self->type->rank)
	    || !ty_static(self->type))
		src = b_op3(b, "aten.expand", src, d_shape(b, self), b_bool(b, 0));
	d_done(b, op, src);
	return 1;
}

/* The X.Scalar twin of an X.Tensor op (same arguments, `other` a
 * Scalar), or NULL. */
static const OpInfo *
scalar_twin(const Op *op)
{
	char name[128];
	size_t n = strlen(op->name);
	const OpInfo *in;

	if (n < 7 || n + 1 > sizeof name || strcmp(op->name + n - 7, ".Tensor"))
		return NULL;
	snprintf(name, sizeof name, "%.*s.Scalar", (int)(n - 7), op->name);
	in = opinfo_lookup(name);
	if (!in || !in->sig || !op->info || !op->info->sig || in->nopnds != op->nopnds
	    || strncmp(in->sig->args, "Tensor self,Scalar other", 24))
		return NULL;
	return in;
}

/* x OP NumToTensor(s) becomes OP.Scalar(x, s): the scalar is a wrapped
 * number, which PyTorch's promotion ranks below a 0-dim tensor (si32
 * 0-dim + 3 is si32); once the literal below stands in for it, the two
 * would promote as equals (si64).  Renamed in place: the sweep holds the
 * next op. */
static void
scalar_users(Op *op)
{
	const OpInfo *in;
	Use *u, *next;

	for (u = RES(op, 0)->uses; u; u = next) {
		next = u->next;
		if (u->owner->nopnds < 2 || u != &u->owner->opnds[1]
		    || OPND(u->owner, 0) == RES(op, 0) || !(in = scalar_twin(u->owner)))
			continue;
		u->owner->info = in;
		u->owner->name = in->name;
		op_set_operand(u->owner, 1, OPND(op, 0));
	}
}

/* NumToTensor.Scalar: a 0-dim literal for a constant, else full([]). */
static int
num_to_tensor(B *b, Op *op)
{
	Type *t = RES(op, 0)->type, *dt = tt_dtype(t);
	Value *s = OPND(op, 0);
	union { double f64; float f32; int64_t i64; uint8_t u8; } u;
	double f;
	size_t n;

	if (!dt || t->kind != TY_TORCH_VTENSOR)
		return 0;
	scalar_users(op);
	if (value_use_empty(RES(op, 0))) {
		op_erase(op);
		return 1;
	}
	/* always 0-dim: a literal of an unranked type does not read back */
	t = tt_vt(b->c, 0, NULL, dt);
	if (!tv_float(s, &f)) {
		d_done(b, op, full(b, b_ints(b, 0, NULL), s, dt));
		return 1;
	}
	if (dt->kind == TY_F32)
		u.f32 = (float)f, n = 4;
	else if (dt->kind == TY_F64)
		u.f64 = f, n = 8;
	else if (dt_isbool(dt))
		u.u8 = f != 0, n = 1;
	else if (dt == dt_i64(b->c))
		u.i64 = (int64_t)f, n = 8;
	else
		return 0;
	d_done(b, op, b_literal(b, t, &u, n));
	return 1;
}

/* ---- writes into views (from functionalization) ---- */

/* index_put(self, [None]*dim + [idx], src): the rows idx of dimension
 * dim of self replaced by src; idx is int64 [k] (src's size k at dim). */
static Value *
put_rows(B *b, Value *self, int64_t dim, Value *idx, Value *src)
{
	Value *e[TORCH_MAXRANK];
	Type *lt;
	Op *l;
	int i;

	for (i = 0; i < dim; i++)
		e[i] = b_none(b);
	e[dim] = idx;
	lt = ty_torch_list(b->c, ty_torch_optional(b->c, ty_vtensor(b->c, -1, NULL, NULL)));
	l = op_new(b->c, "torch.prim.ListConstruct", (int)dim + 1, e, 1, &lt, 0, b->loc);
	op_insert_before(b->at, l);
	return b_op(b, "aten.index_put", 4, (Value *[]){self, RES(l, 0), src, b_bool(b, 0)});
}

static Value *
arange(B *b, int64_t start, int64_t end, int64_t step)
{
	Value *v[7] = {b_int(b, start), b_int(b, end), b_int(b, step),
		b_int(b, dt_code(dt_i64(b->c))), b_none(b), b_none(b), b_none(b)};

	return b_op(b, "aten.arange.start_step", 7, v);
}

/* slice_scatter(self, src, dim, start, end, step): self with
 * self[dim, start:end:step] = src, as index_put of an arange. */
static int
slice_scatter(B *b, Op *op)
{
	Value *self = OPND(op, 0), *src = OPND(op, 1);
	Type *st = self->type;
	int64_t dim, start = 0, end = INT64_MAX, step = 1, n;
	int r = tt_rank(st);

	if (r < 0 || !tv_int(OPND(op, 2), &dim) || (dim = tt_dim(dim, r)) < 0
	    || st->dims[dim] == DYN || !tv_int(OPND(op, 5), &step) || step < 1
	    || (!tv_none(OPND(op, 3)) && !tv_int(OPND(op, 3), &start))
	    || (!tv_none(OPND(op, 4)) && !tv_int(OPND(op, 4), &end))
	    || tt_dtype(st) != tt_dtype(src->type) || tt_rank(src->type) != r)
		return 0;
	n = st->dims[dim];
	if (start < 0)
		start = start < -n ? 0 : start + n;
	if (end < 0)
		end = end < -n ? 0 : end + n;
	start = start > n ? n : start;
	end = end > n ? n : end < start ? start : end;
	if (start == end) {
		d_done(b, op, self);
		return 1;
	}
	if (start == 0 && end == n && step == 1 && src->type == st) {
		d_done(b, op, src);
		return 1;
	}
	d_done(b, op, put_rows(b, self, dim, arange(b, start, end, step), src));
	return 1;
}

/* select_scatter(self, src, dim, index): src unsqueezed at dim, put at
 * the one row index. */
static int
select_scatter(B *b, Op *op)
{
	Value *self = OPND(op, 0), *src = OPND(op, 1);
	Type *st = self->type;
	int64_t dim, index, n;
	int r = tt_rank(st);

	if (r < 1 || !tv_int(OPND(op, 2), &dim) || (dim = tt_dim(dim, r)) < 0
	    || st->dims[dim] == DYN || !tv_int(OPND(op, 3), &index)
	    || tt_dtype(st) != tt_dtype(src->type) || tt_rank(src->type) != r - 1)
		return 0;
	n = st->dims[dim];
	if (index < -n || index >= n)
		return 0;
	if (index < 0)
		index += n;
	src = b_op2(b, "aten.unsqueeze", src, b_int(b, dim));
	d_done(b, op, put_rows(b, self, dim, arange(b, index, index + 1, 1), src));
	return 1;
}

/* PyTorch takes a uint8 index tensor as a boolean mask (deprecated, but
 * still so): the index list of op (operand 1) gets x != 0 for each.  1 if
 * it changed anything. */
static int
u8_masks_to_bool(B *b, Op *op)
{
	Op *l = OPND(op, 1)->def;
	int i, changed = 0;

	if (!l || !op_is(l, "torch.prim.ListConstruct"))
		return 0;
	for (i = 0; i < l->nopnds; i++) {
		Value *m = OPND(l, i);
		Type *dt;

		if (m->def && !strcmp(m->def->name, "torch.derefine"))
			m = OPND(m->def, 0);
		if (!tt_is(m->type) || !(dt = tt_dtype(m->type)) || dt->kind != TY_INT
		    || dt->sign != UNSIGNED || dt->width != 8)
			continue;
		B lb = b_at(b->c, l);
		op_set_operand(l, i, b_op2(&lb, "aten.ne.Scalar", m, b_int(&lb, 0)));
		changed = 1;
	}
	return changed;
}

/* index.Tensor: uint8 indices are masks (torch-lower refuses masks). */
static int
index_u8(B *b, Op *op)
{
	return u8_masks_to_bool(b, op);
}

/* index_put(self, [mask], v, accumulate) with one boolean mask over
 * self's leading dimensions and a single value: where(mask, v, self)
 * (v added to self when accumulating).  Other boolean indices have a
 * data-dependent count and are left for the contract check to refuse. */
static int
index_put_mask(B *b, Op *op)
{
	Value *self = OPND(op, 0), *v = OPND(op, 2), **e = NULL, *m;
	Type *st = self->type, *dt = tt_dtype(st), *mt;
	int acc, r = tt_rank(st), i;
	int64_t one = 1;

	if (u8_masks_to_bool(b, op) || d_index_put_bool(b, op))
		return 1;
	i = tv_list(OPND(op, 1), &e);
	m = i == 1 ? e[0] : NULL;
	free(e);
	if (!m || !tv_bool(OPND(op, 3), &acc) || !dt || r < 0)
		return 0;
	if (m->def && !strcmp(m->def->name, "torch.derefine"))
		m = OPND(m->def, 0);
	mt = m->type;
	if (!tt_is(mt) || !tt_dtype(mt) || !dt_isbool(tt_dtype(mt)) || tt_rank(mt) < 0
	    || tt_rank(mt) > r || !ty_static(mt) || !ty_static(st))
		return 0;
	for (i = 0; i < mt->rank; i++)
		if (mt->dims[i] != st->dims[i])
			return 0;
	/* one value for every selected element: 0-dim or [1] */
	if (!tt_is(v->type) || tt_rank(v->type) < 0 || !ty_static(v->type))
		return 0;
	for (i = 0; i < v->type->rank; i++)
		one *= v->type->dims[i];
	if (one != 1 || v->type->rank > 1)
		return 0;
	if (v->type->rank == 1)
		v = d_view(b, v, 0, NULL);
	for (i = mt->rank; i < r; i++)
		m = b_op2(b, "aten.unsqueeze", m, b_int(b, i));
	v = d_to(b, v, dt);
	if (acc)
		v = d_add(b, self, v);
	d_done(b, op, b_op3(b, "aten.where.self", m, v, self));
	return 1;
}

/* floor_divide(x, y), floor_divide.Scalar: div with rounding_mode "floor". */
static int
floor_divide(B *b, Op *op)
{
	int scalar = torch_is(op, "aten.floor_divide.Scalar");

	d_done(b, op, b_op3(b, scalar ? "aten.div.Scalar_mode" : "aten.div.Tensor_mode",
	    OPND(op, 0), OPND(op, 1), b_str(b, "floor")));
	return 1;
}

/* fill.Tensor(x, v): v (0-dim) broadcast to x's shape, in x's dtype. */
static int
fill_tensor(B *b, Op *op)
{
	Value *self = OPND(op, 0), *v = OPND(op, 1);
	Type *dt = tt_dtype(self->type);

	if (!dt || dt_code(dt) < 0 || tt_rank(self->type) < 0 || tt_rank(v->type) != 0)
		return 0;
	v = d_to(b, v, dt);
	d_done(b, op, b_op3(b, "aten.expand", v, d_shape(b, self), b_bool(b, 0)));
	return 1;
}

/* derefine(x) to an optional, used by list constructions only (the
 * indices of index.Tensor and index_put): the list takes x itself, as
 * the optional it is typed to hold; the derefine goes. */
static int
derefine(B *b, Op *op)
{
	Value *x = OPND(op, 0);
	Use *u, *next;

	(void)b;
	if (!tt_is(x->type))
		return 0;
	for (u = RES(op, 0)->uses; u; u = u->next)
		if (!op_is(u->owner, "torch.prim.ListConstruct"))
			return 0;
	for (u = RES(op, 0)->uses; u; u = next) {
		next = u->next;
		op_set_operand(u->owner, (int)(u - u->owner->opnds), x);
	}
	op_erase(op);
	return 1;
}

/* any, all (and their .dim forms) of uint8 are uint8 0 or 1: reduce
 * x != 0, which is bool, and convert. */
static int
any_all_u8(B *b, Op *op)
{
	Value *x = OPND(op, 0), *v[4];
	Type *dt = tt_dtype(x->type), *rt = tt_dtype(RES(op, 0)->type);
	int i;

	if (!dt || dt->kind != TY_INT || dt->sign != UNSIGNED || rt != dt)
		return 0;
	v[0] = b_op2(b, "aten.ne.Scalar", x, b_int(b, 0));
	for (i = 1; i < op->nopnds && i < 4; i++)
		v[i] = OPND(op, i);
	v[0] = b_op(b, op->name + 6, op->nopnds, v);
	d_done(b, op, d_to(b, v[0], dt));
	return 1;
}

/* ---- lists ---- */

/* ListUnpack of split/chunk/unbind: slices (or selects) of the input. */
static int
list_unpack(B *b, Op *op)
{
	Op *def = OPND(op, 0)->def;
	Value *x, *vals[64];
	int64_t dim, start = 0;
	int i, unbind, r;

	static const char *const producers[] = {"aten.split.Tensor", "aten.split_with_sizes",
		"aten.chunk", "aten.unbind.int", "aten.unsafe_split.Tensor",
		"aten.unsafe_split_with_sizes", "aten.unsafe_chunk", "aten.split.sizes",
		"aten.split", NULL};
	const char *const *p;

	if (def && torch_is(def, "aten.size") && op->nres <= 64) {
		/* x.shape unpacked: the static sizes */
		Type *t = OPND(def, 0)->type;
		if (tt_rank(t) != op->nres)
			return 0;
		for (i = 0; i < op->nres; i++) {
			if (t->dims[i] == DYN)
				return 0;
			vals[i] = b_int(b, t->dims[i]);
		}
		torch_replace(b->c, op, vals);
		return 1;
	}
	for (p = producers; def && *p && !torch_is(def, *p); p++)
		;
	if (!def || !*p || op->nres > 64)
		return 0;
	x = OPND(def, 0);
	unbind = torch_is(def, "aten.unbind.int");
	r = tt_rank(x->type);
	if (r < 0 || !tv_int(OPND(def, unbind ? 1 : 2), &dim) || (dim = tt_dim(dim, r)) < 0)
		return 0;
	for (i = 0; i < op->nres; i++) {
		Type *t = RES(op, i)->type;
		if (unbind) {
			vals[i] = b_op3(b, "aten.select.int", x, b_int(b, dim), b_int(b, i));
			continue;
		}
		if (tt_rank(t) != r || t->dims[dim] == DYN)
			return 0;
		Value *v[5] = {x, b_int(b, dim), b_int(b, start),
			b_int(b, start + t->dims[dim]), b_int(b, 1)};
		vals[i] = b_op(b, "aten.slice.Tensor", 5, v);
		start += t->dims[dim];
	}
	torch_replace(b->c, op, vals);
	return 1;
}

static int
stack(B *b, Op *op)
{
	Value **e, *u[64];
	int n = tv_list(OPND(op, 0), &e), i, r;
	int64_t dim;

	if (n <= 0 || n > 64 || (r = tt_rank(e[0]->type)) < 0 || !tv_int(OPND(op, 1), &dim)
	    || (dim = tt_dim(dim, r + 1)) < 0) {
		if (n > 0)
			free(e);
		return 0;
	}
	for (i = 0; i < n; i++)
		u[i] = b_op2(b, "aten.unsqueeze", e[i], b_int(b, dim));
	free(e);
	d_done(b, op, b_op2(b, "aten.cat", b_list(b, n, u), b_int(b, dim)));
	return 1;
}

const Decomp decomp_misc[] = {
	{"aten.broadcast_tensors", broadcast_tensors},
	{"aten.clone", identity}, {"aten.contiguous", identity}, {"aten.detach", identity},
	{"aten.alias", identity}, {"aten.lift_fresh_copy", identity},
	{"aten.dropout", dropout}, {"aten.feature_dropout", dropout},
	{"aten.alpha_dropout", dropout}, {"aten.feature_alpha_dropout", dropout},
	{"aten.t", t}, {"aten.numpy_T", t},
	{"aten.reshape", reshape}, {"aten._reshape_alias", reshape},
	{"aten._unsafe_view", reshape}, {"aten.view_copy", reshape},
	{"aten.flatten.using_ints", to_result_shape}, {"aten.unflatten.int", to_result_shape},
	{"aten.expand_as", expand_as},
	{"aten.zeros", zeros}, {"aten.ones", ones}, {"aten.empty.memory_format", zeros},
	{"aten.full", full_dtype}, {"aten.new_empty", new_zeros},
	{"aten.zeros_like", zeros_like}, {"aten.ones_like", ones_like},
	{"aten.empty_like", zeros_like}, {"aten.full_like", full_like},
	{"aten.new_zeros", new_zeros}, {"aten.new_ones", new_ones}, {"aten.new_full", new_full},
	{"aten.fill.Scalar", fill}, {"aten.zero", zero}, {"aten.scalar_tensor", scalar_tensor},
	{"aten.arange", arange_step1}, {"aten.arange.start", arange_step1},
	{"aten._to_copy", to_result_dtype}, {"aten.to.other", to_result_dtype},
	{"aten.type_as", type_as}, {"aten.to.device", to_result_dtype},
	{"aten.copy", copy},
	{"aten.slice_scatter", slice_scatter}, {"aten.select_scatter", select_scatter},
	{"aten.fill.Tensor", fill_tensor}, {"aten.floor_divide", floor_divide},
	{"aten.floor_divide.Scalar", floor_divide}, {"aten.index_put", index_put_mask},
	{"aten.index.Tensor", index_u8},
	{"prim.NumToTensor.Scalar", num_to_tensor}, {"prim.ListUnpack", list_unpack},
	{"derefine", derefine},
	{"aten.any", any_all_u8}, {"aten.all", any_all_u8},
	{"aten.any.dim", any_all_u8}, {"aten.all.dim", any_all_u8},
	{"aten.stack", stack},
	{"aten.sort", d_sort}, {"aten.sort.stable", d_sort_stable}, {"aten.argsort", d_argsort},
	{"aten.argsort.stable", d_argsort_stable}, {"aten.msort", d_msort},
	{"aten.topk", d_topk}, {"aten.kthvalue", d_kthvalue},
	{"aten.as_strided", d_as_strided}, {"aten.as_strided_copy", d_as_strided},
	{"aten.as_strided_scatter", d_as_strided_scatter},
	{NULL, NULL},
};

const OpTable decomp_misc_optables[] = {
	OPTABLE("decomposition", decomp_misc, "torch."),
	{NULL},
};
