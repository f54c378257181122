/*
 * shape.c - data movement and creation: reshapes become expand_shape and
 * collapse_shape, slices extract_slice, concatenation and padding
 * insert_slice into a filled tensor, and the index shuffles (flip, roll,
 * repeat, broadcast) linalg.generic with affine indexing maps.
 */
#include <math.h>
#include <string.h>

#include "lower.h"

enum { DYNAMIC = INT64_MIN };

/* The result's builtin type; static shapes only. */
static Type *
result_bt(L *l, Op *op, int i)
{
	Type *bt = btensor(l->c, op->res[i].type);

	if (!bt || !ty_static(bt)) {
		op_error(op, "torch-lower: '%s' needs a static result shape", op->name);
		return NULL;
	}
	return bt;
}

static Value *
self_of(L *l, Op *op)
{
	return get(l, OPND(op, 0));
}

/* The result has self's dims in the order perm gives (NULL: the same). */
static int
same_dims(L *l, Op *op, Type *bt, const int64_t *perm)
{
	Type *st = ttype(l, OPND(op, 0));
	int i, bad = !st->ranked || st->rank != bt->rank;

	for (i = 0; !bad && i < bt->rank; i++)
		bad = bt->dims[i] != st->dims[perm ? perm[i] : i];
	if (bad)
		op_error(op, "torch-lower: '%s' result shape does not fit its operand", op->name);
	return bad ? -1 : 0;
}

static int
done(L *l, Op *op, Value *v)
{
	if (!v)
		return -1;
	set(l, RES(op, 0), v);
	return 0;
}

int
lower_view(L *l, Op *op, const void *arg)
{
	Type *bt = result_bt(l, op, 0);

	return bt ? done(l, op, reshape_to(l, self_of(l, op), bt)) : -1;
}

static Value *
transpose(L *l, Value *v, Type *bt, const int64_t *perm)
{
	Value *dyn[64], *out, *o[2];
	int i, n = 0;
	Op *t;

	/* a dynamic result dim is the size of v's dim it comes from */
	for (i = 0; i < bt->rank && i < 64; i++)
		if (bt->dims[i] == DYN)
			dyn[n++] = emit1(l, "tensor.dim", 2, (Value *[]){v, cst_idx(l, perm[i])},
				ty_index(l->c));
	out = emit1(l, "tensor.empty", n, dyn, bt);
	o[0] = v;
	o[1] = out;
	t = emit(l, "linalg.transpose", 2, o, 1, &bt);
	op_set_attr(l->c, t, "permutation", at_dense_array(l->c,
		ty_int(l->c, 64, SIGNLESS), bt->rank, perm));
	return RES(t, 0);
}

/* The result's builtin type, dynamic dims allowed (where they are the
 * operand's, as same_dims checks). */
static Type *
result_bt_dyn(L *l, Op *op)
{
	Type *bt = btensor(l->c, op->res[0].type);

	if (!bt || !bt->ranked || bt->rank > 64)
		op_error(op, "torch-lower: '%s' needs a ranked result", op->name);
	return bt && bt->ranked && bt->rank <= 64 ? bt : NULL;
}

int
lower_permute(L *l, Op *op, const void *arg)
{
	Type *bt = result_bt_dyn(l, op);
	int64_t perm[64];
	int n, i, d;

	if (!bt)
		return -1;
	n = tv_ints(OPND(op, 1), perm, 64);
	if (n != bt->rank) {
		op_error(op, "torch-lower: expected a constant permutation");
		return -1;
	}
	for (i = 0; i < n; i++) {
		if ((d = norm_dim(l, perm[i], n)) < 0)
			return -1;
		perm[i] = d;
	}
	if (same_dims(l, op, bt, perm))
		return -1;
	if (n == 0)   /* linalg.transpose needs a loop */
		return done(l, op, self_of(l, op));
	return done(l, op, transpose(l, self_of(l, op), bt, perm));
}

int
lower_transpose(L *l, Op *op, const void *arg)
{
	Type *bt = result_bt_dyn(l, op);
	int64_t perm[64];
	int i, a, b;

	if (!bt)
		return -1;
	if ((a = norm_dim(l, tv_ival(OPND(op, 1)), bt->rank)) < 0 ||
			(b = norm_dim(l, tv_ival(OPND(op, 2)), bt->rank)) < 0)
		return -1;
	if (bt->rank == 0)
		return done(l, op, self_of(l, op));
	for (i = 0; i < bt->rank; i++)
		perm[i] = i;
	perm[a] = b;
	perm[b] = a;
	if (same_dims(l, op, bt, perm))
		return -1;
	return done(l, op, transpose(l, self_of(l, op), bt, perm));
}

/* out[i] = in[map(i)] over out's shape (NULL: NULL) */
static Value *
gather_into(L *l, Value *in, Value *out, AffMap *m)
{
	AffMap *maps[2] = { m, NULL };
	Gen g;

	if (!out)
		return NULL;
	maps[1] = map_id(l, out->type->rank);
	gen_begin(l, &g, 1, &in, 1, &out, maps, out->type->rank, NULL);
	return gen_end(l, &g, 1, &g.arg[0]);
}

/* ... over the result's shape, its dynamic sizes like's at the same
 * dimensions */
static Value *
gather_like(L *l, Value *in, Type *bt, AffMap *m, Value *like)
{
	return gather_into(l, in, empty(l, bt, like), m);
}

/* out[i] = in[map(i)] over the result's shape (static) */
Value *
gather_map(L *l, Value *in, Type *bt, AffMap *m)
{
	return gather_like(l, in, bt, m, NULL);
}

int
lower_expand(L *l, Op *op, const void *arg)
{
	Type *bt = result_bt(l, op, 0);
	Type *st = ttype(l, OPND(op, 0));

	if (!bt)
		return -1;
	if (!ty_static(st) || st->rank > bt->rank) {
		op_error(op, "torch-lower: cannot expand to fewer dimensions");
		return -1;
	}
	for (int i = 0; i < st->rank; i++) {
		int64_t a = st->dims[i], r = bt->dims[bt->rank - st->rank + i];
		if (a != r && a != 1) {
			op_error(op, "torch-lower: cannot expand size %lld to %lld",
				(long long)a, (long long)r);
			return -1;
		}
	}
	return done(l, op, gather_map(l, self_of(l, op), bt, map_bcast(l, bt->rank, st, bt)));
}

static Value *
extract_slice(L *l, Value *v, Type *bt, const int64_t *off, const int64_t *sz,
	const int64_t *st)
{
	Ctx *c = l->c;
	int r = v->type->rank;
	Type *i64 = ty_int(c, 64, SIGNLESS);
	Op *s = emit(l, "tensor.extract_slice", 1, &v, 1, &bt);
	int64_t seg[4] = { 1, 0, 0, 0 };

	op_set_attr(c, s, "static_offsets", at_dense_array(c, i64, r, off));
	op_set_attr(c, s, "static_sizes", at_dense_array(c, i64, r, sz));
	op_set_attr(c, s, "static_strides", at_dense_array(c, i64, r, st));
	op_set_attr(c, s, "operand_segment_sizes",
		at_dense_array(c, ty_int(c, 32, SIGNLESS), 4, seg));
	return RES(s, 0);
}

Value *
insert_slice(L *l, Value *src, Value *dst, const int64_t *off, const int64_t *st)
{
	Ctx *c = l->c;
	int r = dst->type->rank;
	Type *i64 = ty_int(c, 64, SIGNLESS);
	Value *o[2] = { src, dst };
	Op *s = emit(l, "tensor.insert_slice", 2, o, 1, &dst->type);
	int64_t seg[5] = { 1, 1, 0, 0, 0 };

	op_set_attr(c, s, "static_offsets", at_dense_array(c, i64, r, off));
	op_set_attr(c, s, "static_sizes", at_dense_array(c, i64, r, src->type->dims));
	op_set_attr(c, s, "static_strides", at_dense_array(c, i64, r, st));
	op_set_attr(c, s, "operand_segment_sizes",
		at_dense_array(c, ty_int(c, 32, SIGNLESS), 5, seg));
	return RES(s, 0);
}

/* A slice of dim d: [start, start + len * step) by step. */
static Value *
slice_dim(L *l, Value *v, Type *bt, int d, int64_t start, int64_t len, int64_t step)
{
	Type *t = v->type;
	int64_t off[64], sz[64], st[64];
	int i;

	for (i = 0; i < t->rank; i++) {
		off[i] = 0;
		sz[i] = t->dims[i];
		st[i] = 1;
	}
	off[d] = start;
	sz[d] = len;
	st[d] = step;
	/* in bounds, and the result is the slice (select drops dim d) */
	int bad = start < 0 || len < 0 || (len && start + (len - 1) * step >= t->dims[d]) ||
		(bt->rank != t->rank && bt->rank != t->rank - 1);
	for (i = 0; i < bt->rank && !bad; i++)
		bad = bt->dims[i] != sz[bt->rank == t->rank || i < d ? i : i + 1];
	if (bad) {
		op_error(l->op, "torch-lower: '%s' is out of range or its result shape "
			"does not fit", l->op->name);
		return NULL;
	}
	return extract_slice(l, v, bt, off, sz, st);
}

static int64_t
clampi(int64_t v, int64_t lo, int64_t hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

int
lower_slice(L *l, Op *op, const void *arg)
{
	Type *bt = result_bt(l, op, 0), *st = ttype(l, OPND(op, 0));
	int64_t size, start, end, step;
	int d;

	if (!bt || !ty_static(st) || (d = norm_dim(l, tv_ival(OPND(op, 1)), st->rank)) < 0)
		return bt ? -1 : -1;
	size = st->dims[d];
	start = tv_none(OPND(op, 2)) ? 0 : tv_ival(OPND(op, 2));
	end = tv_none(OPND(op, 3)) ? size : tv_ival(OPND(op, 3));
	step = tv_ival(OPND(op, 4));
	if (step <= 0) {
		op_error(op, "torch-lower: slice step must be positive");
		return -1;
	}
	if (start < 0)
		start += size;
	if (end < 0)
		end += size;
	start = clampi(start, 0, size);
	end = clampi(end, start, size);
	return done(l, op, slice_dim(l, self_of(l, op), bt, d, start,
		(end - start + step - 1) / step, step));
}

int
lower_select(L *l, Op *op, const void *arg)
{
	Type *bt = result_bt(l, op, 0), *st = ttype(l, OPND(op, 0));
	int64_t i;
	int d;

	if (!bt || !ty_static(st) || (d = norm_dim(l, tv_ival(OPND(op, 1)), st->rank)) < 0)
		return -1;
	i = tv_ival(OPND(op, 2));
	if (i < 0)
		i += st->dims[d];
	return done(l, op, slice_dim(l, self_of(l, op), bt, d, i, 1, 1));
}

int
lower_narrow(L *l, Op *op, const void *arg)
{
	Type *bt = result_bt(l, op, 0), *st = ttype(l, OPND(op, 0));
	int64_t start;
	int d;

	if (!bt || !ty_static(st) || (d = norm_dim(l, tv_ival(OPND(op, 1)), st->rank)) < 0)
		return -1;
	start = tv_ival(OPND(op, 2));
	if (start < 0)
		start += st->dims[d];
	return done(l, op, slice_dim(l, self_of(l, op), bt, d, start, tv_ival(OPND(op, 3)), 1));
}

int
lower_cat(L *l, Op *op, const void *arg)
{
	Type *bt = result_bt(l, op, 0), *rt = op->res[0].type->elem;
	Value *ts[256], *out;
	int64_t off[64] = {0}, st[64];
	int n, i, d;

	if (!bt)
		return -1;
	n = list_vals(OPND(op, 0), ts, 256);
	if (n < 0) {
		op_error(op, "torch-lower: expected a list of tensors");
		return -1;
	}
	if ((d = norm_dim(l, tv_ival(OPND(op, 1)), bt->rank)) < 0 || !(out = empty(l, bt, NULL)))
		return -1;
	for (i = 0; i < bt->rank; i++)
		st[i] = 1;
	for (i = 0; i < n; i++) {
		Type *t = ttype(l, ts[i]);
		Value *v = get(l, ts[i]);
		if (!ty_static(t)) {
			op_error(op, "torch-lower: 'torch.aten.cat' needs static shapes");
			return -1;
		}
		if (t->rank == 1 && t->dims[0] == 0 && bt->rank != 1)
			continue;   /* legacy: empty 1-D tensors are skipped */
		int bad = t->rank != bt->rank;
		for (int k = 0; k < bt->rank && !bad; k++)
			bad = k != d && t->dims[k] != bt->dims[k];
		if (bad || off[d] + t->dims[d] > bt->dims[d]) {
			op_error(op, "torch-lower: 'torch.aten.cat' operand %d does not fit the result", i);
			return -1;
		}
		v = convert_tensor(l, v, t->elem, rt);
		out = insert_slice(l, v, out, off, st);
		off[d] += t->dims[d];
	}
	if (off[d] != bt->dims[d]) {
		op_error(op, "torch-lower: 'torch.aten.cat' operands do not fill the result");
		return -1;
	}
	return done(l, op, out);
}

/* The result's dimensions those of self; a dynamic one only where it is
 * not flipped. */
int
lower_flip(L *l, Op *op, const void *arg)
{
	Type *bt = btensor(l->c, op->res[0].type);
	AffExpr *e[64];
	int64_t dims[64];
	int n, i, d;

	if (!bt || !bt->ranked || bt->rank > 64) {
		op_error(op, "torch-lower: '%s' needs a ranked result", op->name);
		return -1;
	}
	if (same_dims(l, op, bt, NULL))
		return -1;
	for (i = 0; i < bt->rank; i++)
		e[i] = d_(l, i);
	n = tv_ints(OPND(op, 1), dims, 64);
	if (bt->rank == 0 && n >= 0)   /* a 0-d tensor flips to itself */
		return done(l, op, self_of(l, op));
	for (i = 0; i < n; i++) {
		if ((d = norm_dim(l, dims[i], bt->rank)) < 0)
			return -1;
		if (bt->dims[d] == DYN) {
			op_error(op, "torch-lower: cannot lower 'torch.aten.flip' with dynamic shapes: "
				"it flips dimension %d, which is dynamic", d);
			return -1;
		}
		e[d] = add_(l, mul_(l, d_(l, d), -1), c_(l, bt->dims[d] - 1));
	}
	return done(l, op, gather_like(l, self_of(l, op), bt,
		map_of(l, bt->rank, bt->rank, e), self_of(l, op)));
}

int
lower_roll(L *l, Op *op, const void *arg)
{
	Type *bt = result_bt(l, op, 0);
	AffExpr *e[64];
	int64_t shifts[64], dims[64];
	int ns, nd, i, d;
	Value *v = self_of(l, op);
	Type *work = bt;

	if (!bt || same_dims(l, op, bt, NULL))
		return -1;
	ns = tv_ints(OPND(op, 1), shifts, 64);
	nd = tv_ints(OPND(op, 2), dims, 64);
	if (ns < 0 || nd < 0 || (nd && ns != nd) || (!nd && ns != 1)) {
		op_error(op, "torch-lower: expected constant shifts and dims");
		return -1;
	}
	if (!nd) {   /* roll the flattened tensor */
		int64_t n = ty_numel(bt);
		work = ty_tensor(l->c, 1, &n, bt->elem);
		if (!(v = reshape_to(l, v, work)))
			return -1;
		dims[0] = 0;
		nd = 1;
	}
	for (i = 0; i < work->rank; i++)
		e[i] = d_(l, i);
	for (i = 0; i < nd; i++) {
		int64_t k;
		if ((d = norm_dim(l, dims[i], work->rank)) < 0)
			return -1;
		k = work->dims[d];
		if (k == 0)   /* nothing to move along an empty dim */
			continue;
		int64_t s = ((shifts[i] % k) + k) % k;
		e[d] = aff_bin(l->c, AFF_MOD, add_(l, e[d], c_(l, k - s)), c_(l, k));
	}
	v = gather_map(l, v, work, map_of(l, work->rank, work->rank, e));
	return done(l, op, work == bt ? v : reshape_to(l, v, bt));
}

int
lower_repeat(L *l, Op *op, const void *arg)
{
	Type *bt = result_bt_dyn(l, op), *st = ttype(l, OPND(op, 0));
	AffExpr *e[64];
	Value *from[64];
	int64_t reps[64];
	int k, R, r, n, dim[64];

	if (!bt || !st->ranked)
		return -1;
	R = bt->rank;
	r = st->rank;
	n = tv_ints(OPND(op, 1), reps, 64);
	int bad = n != R || r > R;
	for (k = 0; k < R && !bad; k++) {
		int64_t d = k < R - r ? 1 : st->dims[k - (R - r)];

		if (d == DYN || bt->dims[k] == DYN) {
			/* a dynamic size is taken whole, once */
			if (d != DYN || bt->dims[k] != DYN || reps[k] != 1) {
				op_error(op, "torch-lower: cannot lower 'torch.aten.repeat' with dynamic shapes: "
					"it repeats dimension %d, which is dynamic", k);
				return -1;
			}
			continue;
		}
		bad = reps[k] < 0 || bt->dims[k] != reps[k] * d;
	}
	if (bad) {
		op_error(op, "torch-lower: 'torch.aten.repeat' repeats and result shape do not agree");
		return -1;
	}
	for (k = 0; k < R; k++)
		from[k] = k < R - r ? NULL : self_of(l, op), dim[k] = k - (R - r);
	if (ty_static(bt) && ty_numel(bt) == 0)   /* nothing to read (and no `mod 0`) */
		return done(l, op, empty(l, bt, NULL));
	for (k = 0; k < R; k++)
		if (bt->dims[k] == 0)   /* likewise, whatever the dynamic sizes */
			return done(l, op, empty_from(l, bt, from, dim));
	for (k = 0; k < r; k++) {
		int i = k + R - r;
		e[k] = st->dims[k] == DYN ? d_(l, i) : st->dims[k] == 1 ? c_(l, 0) :
			aff_bin(l->c, AFF_MOD, d_(l, i), c_(l, st->dims[k]));
	}
	/* sized like self where dynamic */
	return done(l, op, gather_into(l, self_of(l, op), empty_from(l, bt, from, dim),
		map_of(l, R, r, e)));
}

/* constant_pad_nd's pads (before and after each of the last n / 2 of r
 * dimensions, the last first) into pad[128]: n, or -1 after an error */
static int
pads_of(L *l, Op *op, int r, int64_t *pad)
{
	int n = tv_ints(OPND(op, 1), pad, 128);

	if (n < 0 || n % 2 || n / 2 > r) {
		op_error(op, "torch-lower: expected constant pads");
		return -1;
	}
	return n;
}

/* constant_pad_nd of a tensor with dynamic dimensions, none of them
 * padded, the pads not negative: tensor.pad, whose result keeps the
 * source's dynamic sizes (a dynamic batch around an image's padding) */
static int
pad_dynamic(L *l, Op *op)
{
	Type *bt = btensor(l->c, op->res[0].type), *st = ttype(l, OPND(op, 0));
	int64_t pad[128], lo[64] = {0}, hi[64] = {0};
	Value *scalar;
	int n, i, r;

	if (!bt || !st->ranked || bt->rank != st->rank || st->rank > 64) {
		op_error(op, "torch-lower: '%s' needs a ranked result of its input's rank", op->name);
		return -1;
	}
	r = st->rank;
	if ((n = pads_of(l, op, r, pad)) < 0)
		return -1;
	for (i = 0; i < n / 2; i++) {
		int d = r - 1 - i;

		lo[d] = pad[2 * i], hi[d] = pad[2 * i + 1];
		if (lo[d] < 0 || hi[d] < 0 || ((lo[d] || hi[d]) && st->dims[d] == DYN)) {
			op_error(op, "torch-lower: cannot lower 'torch.aten.constant_pad_nd' with "
				"dynamic shapes: it pads dimension %d by (%lld, %lld), which is dynamic "
				"or cut", d, (long long)lo[d], (long long)hi[d]);
			return -1;
		}
	}
	for (i = 0; i < r; i++)
		if ((st->dims[i] == DYN) != (bt->dims[i] == DYN) ||
				(st->dims[i] != DYN && bt->dims[i] != st->dims[i] + lo[i] + hi[i])) {
			op_error(op, "torch-lower: pads and result shape do not agree with the input");
			return -1;
		}
	if (!(scalar = cst_of(l, OPND(op, 2), st->elem)))
		return -1;
	return done(l, op, tensor_pad(l, self_of(l, op), bt, lo, hi, scalar));
}

int
lower_pad(L *l, Op *op, const void *arg)
{
	Type *bt, *st = ttype(l, OPND(op, 0));
	int64_t pad[128], lo[64], off[64], sz[64], str[64];
	Value *v = self_of(l, op), *out;
	int n, i, r, cut = 0;

	if (!ty_static(st) || !ty_static(op->res[0].type))
		return pad_dynamic(l, op);
	if (!(bt = result_bt(l, op, 0)))
		return -1;
	r = st->rank;
	if ((n = pads_of(l, op, r, pad)) < 0)
		return -1;
	for (i = 0; i < r; i++) {
		lo[i] = 0;
		off[i] = 0;
		sz[i] = st->dims[i];
		str[i] = 1;
	}
	for (i = 0; i < n / 2; i++) {
		int d = r - 1 - i;
		int64_t a = pad[2 * i], b = pad[2 * i + 1];
		if (a < 0) {
			off[d] = -a;
			sz[d] += a;
			a = 0;
			cut = 1;
		}
		if (b < 0) {
			sz[d] += b;
			cut = 1;
		}
		lo[d] = a;
	}
	for (i = 0; i < r; i++)
		if (sz[i] < 0 || bt->rank != r || bt->dims[i] != lo[i] + sz[i] +
				(r - 1 - i < n / 2 && pad[2 * (r - 1 - i) + 1] > 0 ?
				pad[2 * (r - 1 - i) + 1] : 0)) {
			op_error(op, "torch-lower: pads and result shape do not agree with the input");
			return -1;
		}
	if (cut)
		v = extract_slice(l, v, tensor_of(l->c, r, sz, st->elem), off, sz, str);
	out = filled(l, bt, cst_of(l, OPND(op, 2), st->elem));
	if (!out)
		return -1;
	return done(l, op, insert_slice(l, v, out, lo, str));
}

/* reflection and replication pads: each output element reads the input at
 * a computed index */
int
lower_refpad(L *l, Op *op, const void *arg)
{
	Type *bt = result_bt(l, op, 0), *st = ttype(l, OPND(op, 0));
	int reflect = !strcmp(arg, "reflect");
	int64_t pad[8];
	Value *in = self_of(l, op), *out, *idx[64];
	AffMap *m;
	Gen g;
	int n, i, r;

	if (!bt || !ty_static(st) || !(out = empty(l, bt, NULL)))
		return -1;
	r = st->rank;
	n = tv_ints(OPND(op, 1), pad, 8);
	if (n < 0 || n % 2 || n / 2 > r) {
		op_error(op, "torch-lower: expected constant pads");
		return -1;
	}
	for (i = 0; i < r; i++) {
		int k = r - 1 - i;   /* pad pairs count from the last dim */
		int64_t a = k < n / 2 ? pad[2 * k] : 0, b = k < n / 2 ? pad[2 * k + 1] : 0;
		int64_t W = st->dims[i];
		/* PyTorch's limits: reflection stays inside, replication needs an edge */
		if (bt->rank != r || bt->dims[i] != W + a + b ||
				(k < n / 2 && (reflect ? a >= W || b >= W : W == 0))) {
			op_error(op, "torch-lower: '%s' pads and result shape do not fit the input",
				op->name);
			return -1;
		}
	}
	m = map_id(l, r);
	gen_begin(l, &g, 0, NULL, 1, &out, &m, r, NULL);
	for (i = 0; i < r; i++) {
		int k = r - 1 - i;   /* pad pairs count from the last dim */
		idx[i] = lindex(l, i);
		k = (r - 1 - i) < n / 2 ? (r - 1 - i) : -1;
		if (k < 0)
			continue;
		Value *w1 = cst_idx(l, st->dims[i] - 1), *z = cst_idx(l, 0);
		Value *j = bin(l, "arith.subi", idx[i], cst_idx(l, pad[2 * k]));
		if (reflect) {
			/* j = |j|; j = (W-1) - |(W-1) - j| */
			j = sel(l, cmpi(l, "slt", j, z), bin(l, "arith.subi", z, j), j);
			Value *t = bin(l, "arith.subi", w1, j);
			t = sel(l, cmpi(l, "slt", t, z), bin(l, "arith.subi", z, t), t);
			j = bin(l, "arith.subi", w1, t);
		} else {
			j = bin(l, "arith.maxsi", j, z);
			j = bin(l, "arith.minsi", j, w1);
		}
		idx[i] = j;
	}
	Value *o[65];
	o[0] = in;
	for (i = 0; i < r; i++)
		o[i + 1] = idx[i];
	Value *e = emit1(l, "tensor.extract", r + 1, o, in->type->elem);
	return done(l, op, gen_end(l, &g, 1, &e));
}

int
lower_tri(L *l, Op *op, const void *arg)
{
	Type *bt = result_bt(l, op, 0);
	int lower = !strcmp(arg, "tril");
	Value *in = self_of(l, op), *out;
	AffMap *maps[2];
	Gen g;
	int r;

	if (!bt || !(out = empty(l, bt, NULL)))
		return -1;
	r = bt->rank;
	if (r < 2) {
		op_error(op, "torch-lower: '%s' needs at least 2 dimensions", op->name);
		return -1;
	}
	maps[0] = maps[1] = map_id(l, r);
	gen_begin(l, &g, 1, &in, 1, &out, maps, r, NULL);
	Value *d = bin(l, "arith.subi", lindex(l, r - 1), lindex(l, r - 2));
	Value *keep = cmpi(l, lower ? "sle" : "sge", d, cst_idx(l, tv_ival(OPND(op, 1))));
	Type *dt = op->res[0].type->elem;
	Value *y = sel(l, keep, g.arg[0], cst_d(l, 0, dt_isfloat(dt) ? dt : belem(l->c, dt)));
	return done(l, op, gen_end(l, &g, 1, &y));
}

int
lower_arange(L *l, Op *op, const void *arg)
{
	Type *bt = result_bt(l, op, 0), *rt = op->res[0].type->elem;
	Value *out;
	AffMap *m;
	Gen g;
	Value *y;

	if (!bt || bt->rank != 1)
		return -1;
	/* PyTorch's length: ceil((end - start) / step), in double */
	double st0 = tv_fval(OPND(op, 0)), en = tv_fval(OPND(op, 1)), sp = tv_fval(OPND(op, 2));
	double len = sp != 0 ? ceil((en - st0) / sp) : -1;
	if (sp == 0 || len < 0 || (len < 0 ? 0 : len) != (double)bt->dims[0]) {
		op_error(op, "torch-lower: 'torch.aten.arange.start_step' range and result "
			"length do not agree");
		return -1;
	}
	if (!(out = empty(l, bt, NULL)))
		return -1;
	m = map_id(l, 1);
	gen_begin(l, &g, 0, NULL, 1, &out, &m, 1, NULL);
	Value *i = from_index(l, lindex(l, 0), ty_int(l->c, 64, SIGNLESS));
	/* in double when a bound or the step is a float, as PyTorch does */
	Promo p = {0};
	for (int k = 0; k < 3; k++)
		promo_add(l->c, &p, OPND(op, k));
	if (dt_isfloat(rt) || dt_isfloat(promo_result(l->c, &p))) {
		Type *f64 = dt_f64(l->c);
		Value *f = cv(l, i, dt_i64(l->c), f64);
		y = bin(l, "arith.addf", bin(l, "arith.mulf", f, cst_f(l, tv_fval(OPND(op, 2)), f64)),
			cst_f(l, tv_fval(OPND(op, 0)), f64));
		y = cv(l, y, f64, rt);
	} else {
		Type *i64 = ty_int(l->c, 64, SIGNLESS);
		y = bin(l, "arith.addi", bin(l, "arith.muli", i, cst_i(l, tv_ival(OPND(op, 2)), i64)),
			cst_i(l, tv_ival(OPND(op, 0)), i64));
		y = cv(l, y, dt_i64(l->c), rt);
	}
	return done(l, op, gen_end(l, &g, 1, &y));
}

int
lower_full(L *l, Op *op, const void *arg)
{
	Type *bt = result_bt(l, op, 0), *rt = op->res[0].type->elem;

	if (!bt)
		return -1;
	return done(l, op, filled(l, bt, cst_of(l, OPND(op, 1), rt)));
}

int
lower_to(L *l, Op *op, const void *arg)
{
	Type *rt = op->res[0].type->elem;

	if (!btensor(l->c, op->res[0].type))
		return -1;
	return done(l, op, convert_tensor(l, self_of(l, op), dtype_of(l, OPND(op, 0)), rt));
}
