/*
 * pass_view.c - convert-torch-to-linalg's own rows (view helper): ops the
 * torch-lower tool does not lower, taken by the pass only.
 */
#include <stdint.h>
#include <string.h>

#include "lower.h"
#include "pass.h"

enum { DYN_INDEX = INT64_MIN };   /* MLIR's kDynamic in an index list */

extern const Row ew_pass_table[];   /* ew.c */

static int lower_slice_dyn(L *l, Op *op, const void *arg);
static int lower_unflatten(L *l, Op *op, const void *arg);

static const Row view_rows[] = {
	{"torch.aten.broadcast_to", pass_view_broadcast_to, NULL},
	{"torch.aten.slice.Tensor", lower_slice_dyn, NULL},
	{"torch.aten.unflatten.int", lower_unflatten, NULL},
	{NULL, NULL, NULL},
};

const Row *
pass_view_lookup(const char *name)
{
	const Row *r = pass_view2_lookup(name);

	if (!r)
		r = row_find(view_rows, name);
	return r ? r : row_find(ew_pass_table, name);
}

/* torch.disable_legacy_view on op's function: only the strict pattern
 * lowers view */
int
pass_view_legacy_disabled(Op *op)
{
	Op *fn = block_parent_op(op->parent);

	return fn && op_attr(fn, "torch.disable_legacy_view");
}

/* view under strict symbolic shapes with the legacy patterns off, as
 * torch-mlir's strict pattern: no sizes collapse to rank 0; constant
 * sizes with one -1 flatten the tensor to one dim (collapse_shape, a
 * cast to the flat type) and unflatten it (cast to the sizes' product
 * where dynamic, expand_shape); other sizes go to tensor.reshape of a
 * tensor.from_elements shape, a -1 there as the element count over the
 * product of the others (unsigned division: strict shapes promise a
 * valid view); constants as arith.constant i64.  Anything else is left. */
static Value *flatten_unflatten(L *l, Value *x, Type *bt);

static int
lower_view_strict(L *l, Op *op)
{
	Value *sz[TY_MAXRANK], *v[TY_MAXRANK], *x = get(l, OPND(op, 0));
	Type *bt = btensor(l->c, op->res[0].type), *i64 = ty_int(l->c, 64, SIGNLESS);
	Op *fn = block_parent_op(op->parent);
	int n = list_vals(OPND(op, 1), sz, TY_MAXRANK), i, consts = 1, neg = -1;
	int64_t k;

	if (!fn || !op_attr(fn, "torch.assume_strict_symbolic_shapes") || !bt || n < 0 ||
			n != bt->rank || !x->type->ranked)
		return -1;
	for (i = 0; !n && i < x->type->rank; i++)
		if (x->type->dims[i] != DYN && x->type->dims[i] != 1)
			return -1;
	if (!n) {
		set(l, RES(op, 0), expand_dims(l, x, bt, at_array(l->c, 0, NULL), 1));
		return 0;
	}
	for (i = 0; i < n; i++) {
		if (sz[i]->type->kind != TY_TORCH_INT)
			return -1;
		if (!tv_int(sz[i], &k))
			consts = 0;
		else if (k < -1 || (k == -1 && neg >= 0))
			return -1;
		else if (k == -1)
			neg = i;
	}
	if (consts && !ty_static(bt))
		return -1;
	if (consts && neg >= 0) {
		Value *f = flatten_unflatten(l, x, bt);
		if (!f)
			return -1;
		set(l, RES(op, 0), f);
		return 0;
	}
	Value *inferred = NULL;
	if (neg >= 0) {
		Value *one = cst_i(l, 1, i64), *known = one, *total = one;
		for (i = 0; i < n; i++)
			if (i != neg)
				known = bin(l, "arith.muli", known, tv_int(sz[i], &k) ?
					cst_i(l, k, i64) : emit1(l, "torch_c.to_i64", 1, &sz[i], i64));
		for (i = 0; i < x->type->rank; i++) {
			Value *o[2] = { x, cst_idx(l, i) };
			Value *d = emit1(l, "tensor.dim", 2, o, ty_index(l->c));
			total = bin(l, "arith.muli", total, emit1(l, "arith.index_cast", 1, &d, i64));
		}
		inferred = bin(l, "arith.divui", total, known);
	}
	for (i = 0; i < n; i++)
		v[i] = i == neg ? inferred : tv_int(sz[i], &k) ? cst_i(l, k, i64) :
			emit1(l, "torch_c.to_i64", 1, &sz[i], i64);
	Value *shape = emit1(l, "tensor.from_elements", n, v,
		ty_tensor(l->c, 1, (int64_t[]){ n }, i64));
	set(l, RES(op, 0), emit1(l, "tensor.reshape", 2, (Value *[]){ x, shape }, bt));
	return 0;
}

/* x flattened to one dim (collapse_shape of a rank above 1, a cast to
 * the flat type) then unflattened to bt's static shape (a cast of a
 * dynamic flat dim to the product, an expand_shape to a rank above 1),
 * as torch-mlir's strict view with a constant -1 */
static Value *
flatten_unflatten(L *l, Value *x, Type *bt)
{
	Type *st = x->type;
	int r = st->rank, n = bt->rank, i;
	int64_t flat = 1, prod = 1;
	Attr *g[TY_MAXRANK], *one[1];

	if (r < 1)
		return NULL;
	for (i = 0; i < r; i++) {
		g[i] = at_int(l->c, i, NULL);
		flat = st->dims[i] == DYN || flat == DYN ? DYN : flat * st->dims[i];
	}
	for (i = 0; i < n; i++)
		prod *= bt->dims[i];
	if (flat != DYN && flat != prod)
		return NULL;
	Type *ft = tensor_of(l->c, 1, &flat, st->elem);
	if (r > 1) {
		one[0] = at_array(l->c, r, g);
		x = expand_dims(l, x, ft, at_array(l->c, 1, one), 1);
		x = emit1(l, "tensor.cast", 1, &x, ft);
	}
	if (flat == DYN)
		x = emit1(l, "tensor.cast", 1, &x, tensor_of(l->c, 1, &prod, st->elem));
	if (n > 1) {
		for (i = 0; i < n; i++)
			g[i] = at_int(l->c, i, NULL);
		one[0] = at_array(l->c, n, g);
		x = expand_dims(l, x, bt, at_array(l->c, 1, one), 0);
	}
	return x;
}

/* reassociation groups g[0..n) of dims, group k being [start[k], start[k+1]) */
Attr *
pass_view_groups(Ctx *c, int n, const int *start)
{
	Attr *g[TY_MAXRANK], *in[TY_MAXRANK];
	int k, i;

	for (k = 0; k < n; k++) {
		for (i = start[k]; i < start[k + 1]; i++)
			in[i - start[k]] = at_int(c, i, NULL);
		g[k] = at_array(c, start[k + 1] - start[k], in);
	}
	return at_array(c, n, g);
}

/* The constant sizes sz[0..n) into k, *prod the product of those not -1:
 * the index of the one -1, -1 for none, -2 when not constants >= -1 or
 * more than one -1 */
static int
const_sizes(Value *const *sz, int n, int64_t *k, int64_t *prod)
{
	int i, neg = -1;

	for (i = 0; i < n; i++) {
		if (!tv_int(sz[i], &k[i]) || k[i] < -1 || (k[i] == -1 && neg >= 0))
			return -2;
		if (k[i] == -1)
			neg = i;
		else
			*prod *= k[i];
	}
	return neg;
}

/* view with constant sizes whose shapes are all known once the one
 * unknown is inferred from the element count (a -1 size of a static
 * tensor, or the one dynamic dim of the tensor when no size is -1), as
 * torch-mlir's legacy pattern: the tensor cast to its inferred static
 * shape, dims grouped from the left by the shortest runs of equal
 * product (trailing 1s join the last group), a collapse_shape where a
 * group of the input has several dims, an expand_shape where one of the
 * output has */
static int
lower_view_inferred(L *l, Op *op)
{
	Value *sz[TY_MAXRANK], *x = get(l, OPND(op, 0));
	Type *st = OPND(op, 0)->type, *rt = btensor(l->c, op->res[0].type);
	int64_t in[TY_MAXRANK], out[TY_MAXRANK], known = 1, have = 1, mid[TY_MAXRANK];
	int n = list_vals(OPND(op, 1), sz, TY_MAXRANK), r = st->rank, i, j;
	int neg = -1, dyn = -1, si[TY_MAXRANK + 1], so[TY_MAXRANK + 1], ng = 0;

	if (!rt || !st->ranked || r < 1 || n < 1 || n != rt->rank)
		return -1;
	if ((neg = const_sizes(sz, n, out, &known)) < -1)
		return -1;
	for (i = 0; i < n; i++)
		if (!out[i])
			return -1;
	for (i = 0; i < r; i++) {
		in[i] = st->dims[i];
		if (in[i] == DYN && dyn >= 0)
			return -1;
		if (in[i] == DYN)
			dyn = i;
		else if (in[i] == 0)
			return -1;
		else
			have *= in[i];
	}
	if ((neg >= 0) == (dyn >= 0) && (neg >= 0 || dyn >= 0))
		return -1;
	if (neg >= 0) {
		if (have % known)
			return -1;
		out[neg] = have / known;
	} else if (dyn >= 0) {
		if (known % have)
			return -1;
		in[dyn] = known / have;
	} else if (have != known)
		return -1;
	for (i = 0; i < n; i++)
		if (rt->dims[i] != DYN && rt->dims[i] != out[i])
			return -1;
	/* the shortest runs of equal product, from the left */
	for (i = 0, j = 0; i < r && j < n; ng++) {
		int64_t pi = in[i], po = out[j];
		si[ng] = i++;
		so[ng] = j++;
		while (pi != po) {
			if (pi < po && i < r)
				pi *= in[i++];
			else if (pi > po && j < n)
				po *= out[j++];
			else
				return -1;
		}
		mid[ng] = po;
	}
	for (; i < r; i++)
		if (in[i] != 1)
			return -1;
	for (; j < n; j++)
		if (out[j] != 1)
			return -1;
	si[ng] = r;
	so[ng] = n;
	int coll = ng < r, exp = ng < n;
	if (dyn >= 0)
		x = emit1(l, "tensor.cast", 1, &x, tensor_of(l->c, r, in, st->elem));
	if (coll)
		x = expand_dims(l, x, tensor_of(l->c, ng, mid, st->elem),
			pass_view_groups(l->c, ng, si), 1);
	if (exp)
		x = expand_dims(l, x, tensor_of(l->c, n, out, st->elem),
			pass_view_groups(l->c, ng, so), 0);
	set(l, RES(op, 0), x);
	return 0;
}

/* view(-1) of a tensor of rank 2 or more: one collapse_shape of all
 * its dims (a flatten, whatever the dims), cast where the result type
 * knows the count */
static int
lower_view_flat(L *l, Op *op)
{
	Value *sz[2], *x = get(l, OPND(op, 0));
	Type *st = x->type, *bt = btensor(l->c, op->res[0].type);
	Attr *g[TY_MAXRANK], *one[1];
	int64_t k, flat = 1;
	int i;

	if (!bt || bt->rank != 1 || list_vals(OPND(op, 1), sz, 2) != 1 || !tv_int(sz[0], &k) ||
			k != -1 || !st->ranked || st->rank < 2)
		return -1;
	for (i = 0; i < st->rank; i++) {
		g[i] = at_int(l->c, i, NULL);
		flat = st->dims[i] == DYN || flat == DYN ? DYN : flat * st->dims[i];
	}
	if (bt->dims[0] != DYN && flat != DYN && bt->dims[0] != flat)
		return -1;
	one[0] = at_array(l->c, st->rank, g);
	x = expand_dims(l, x, tensor_of(l->c, 1, &flat, st->elem), at_array(l->c, 1, one), 1);
	set(l, RES(op, 0), x);   /* the pass casts it to the result type */
	return 0;
}

/* view whose sizes torch-lower's reshape cannot take (sizes known only at
 * run time): torch-mlir's last resort, a tensor.reshape to a shape built
 * with tensor.from_elements.  A -1 size is the element count over the
 * product of the others; outside strict symbolic shapes, more than one
 * -1 fails an assert. */
static int
lower_view_reshape(L *l, Op *op, const void *arg)
{
	if (pass_view_legacy_disabled(op))
		return lower_view_strict(l, op);
	if (!lower_view_inferred(l, op) || !lower_view_flat(l, op))
		return 0;
	Value *sz[TY_MAXRANK], *v[TY_MAXRANK], *x = get(l, OPND(op, 0));
	Type *bt = btensor(l->c, op->res[0].type), *i64 = ty_int(l->c, 64, SIGNLESS);
	Op *fn = block_parent_op(op->parent);
	int n = list_vals(OPND(op, 1), sz, TY_MAXRANK), i;

	if (!bt || n < 1 || n != bt->rank || !x->type->ranked)
		return -1;
	Value *one = cst_i(l, 1, i64), *zero = cst_i(l, 0, i64), *count = zero, *known = one;
	for (i = 0; i < n; i++) {
		if (sz[i]->type->kind != TY_TORCH_INT)
			return -1;
		v[i] = emit1(l, "torch_c.to_i64", 1, &sz[i], i64);
		Value *mul = bin(l, "arith.muli", known, v[i]);
		Value *add = bin(l, "arith.addi", count, one);
		Value *neg = cmpi(l, "slt", v[i], zero);
		known = sel(l, neg, known, mul);
		count = sel(l, neg, add, count);
	}
	if (!fn || !op_attr(fn, "torch.assume_strict_symbolic_shapes")) {
		Op *a = emit(l, "cf.assert", 1, (Value *[]){ cmpi(l, "sle", count, one) }, 0, NULL);
		op_set_attr(l->c, a, "msg",
			at_str(l->c, "must have at most one inferred (negative) dimension"));
	}
	Value *total = one;
	for (i = 0; i < x->type->rank; i++) {
		Value *o[2] = { x, cst_idx(l, i) };
		Value *d = emit1(l, "tensor.dim", 2, o, ty_index(l->c));
		total = bin(l, "arith.muli", total, emit1(l, "arith.index_cast", 1, &d, i64));
	}
	Value *inferred = bin(l, "arith.divsi", total, known);
	for (i = 0; i < n; i++)
		v[i] = sel(l, cmpi(l, "slt", v[i], zero), inferred, v[i]);
	Value *shape = emit1(l, "tensor.from_elements", n, v,
		ty_tensor(l->c, 1, (int64_t[]){ n }, i64));
	set(l, RES(op, 0), emit1(l, "tensor.reshape", 2, (Value *[]){ x, shape }, bt));
	return 0;
}

static const Row fallback_rows[] = {
	{"torch.aten.view", lower_view_reshape, NULL},
	{NULL, NULL, NULL},
};

/* the row to try when op's own refused it, or NULL */
const Row *
pass_view_fallback(const char *name)
{
	return row_find(fallback_rows, name);
}

/* rows whose lowering reads scalars that are not constants */
int
pass_view_reads_scalars(const Row *r)
{
	return (r >= fallback_rows && r < fallback_rows + sizeof fallback_rows / sizeof *fallback_rows) ||
		pass_view2_reads_scalars(r);
}

/* flatten.using_ints of rank 0: torch-mlir's pattern gives the
 * expand_shape itself, with no tensor.cast after it */
int
pass_view_uncast(Op *op)
{
	return op_is(op, "torch.aten.flatten.using_ints") && op->nopnds &&
		OPND(op, 0)->type->ranked && OPND(op, 0)->type->rank == 0;
}

static int
strict_shapes(L *l)
{
	Op *fn = block_parent_op(l->op->parent);

	return fn && op_attr(fn, "torch.assume_strict_symbolic_shapes");
}

/* The init tensor of an elementwise generic over ins, as torch-mlir
 * sizes it: each result dim takes the size of the first operand that
 * iterates it (a static 1 broadcasts where another operand's dim is not
 * 1); every later one's size is asserted equal to it at run time (a
 * dynamic size 1 does not broadcast), except under strict symbolic
 * shapes.  Two static sizes that differ are refused. */
Value *
pass_view_ew_empty(L *l, int nin, Value *const *ins, Type *bt)
{
	Value *size[TY_MAXRANK] = {0}, *dyn[TY_MAXRANK];
	int64_t st[TY_MAXRANK];
	int r = bt->rank, strict = !l->dyn && strict_shapes(l), notone[TY_MAXRANK] = {0}, set_[TY_MAXRANK] = {0};
	int k, i, n = 0;

	if (r > TY_MAXRANK)
		return NULL;
	for (k = 0; k < nin; k++)
		for (i = 0; i < ins[k]->type->rank; i++)
			notone[i + r - ins[k]->type->rank] |= ins[k]->type->dims[i] != 1;
	for (k = 0; k < nin; k++) {
		Type *t = ins[k]->type;
		for (i = 0; i < t->rank; i++) {
			int d = i + r - t->rank;
			int64_t s = t->dims[i];
			Value *cur = NULL;
			if (s == 1 && notone[d])
				continue;
			if (s == DYN) {
				Value *o[2] = { ins[k], cst_idx(l, i) };
				cur = emit1(l, "tensor.dim", 2, o, ty_index(l->c));
			}
			if (!set_[d]) {
				set_[d] = 1;
				st[d] = s;
				size[d] = cur;
				continue;
			}
			if (s != DYN && st[d] != DYN) {
				if (s != st[d])
					return NULL;
				continue;
			}
			if (strict)
				continue;
			Value *a = size[d] ? size[d] : cst_idx(l, st[d]);
			Value *b = cur ? cur : cst_idx(l, s);
			Op *as = emit(l, "cf.assert", 1, (Value *[]){ cmpi(l, "eq", a, b) }, 0, NULL);
			op_set_attr(l->c, as, "msg", at_str(l->c, "mismatched size for broadcast"));
		}
	}
	for (i = 0; i < r; i++) {
		if (bt->dims[i] != DYN)
			continue;
		dyn[n++] = size[i] ? size[i] : cst_idx(l, set_[i] ? st[i] : 1);
	}
	return emit1(l, "tensor.empty", n, dyn, bt);
}

/* A captured scalar (torch-mlir's alpha): the torch constant as an i64 or
 * f64 arith.constant right after it (the backend type conversion folds
 * torch_c.to_i64 of a constant), converted to ct where it is used */
Value *
pass_view_capture(L *l, Value *scalar, Type *ct)
{
	Op *d = scalar->def, *saved = l->before;
	Block *blk = l->blk;
	Ctx *c = l->c;
	Type *from = NULL;
	Value *k = NULL;
	int64_t i;
	double f;

	if (!d || !d->next)
		return cst_of(l, scalar, ct);
	l->blk = NULL;
	l->before = d->next;
	if (scalar->type->kind == TY_TORCH_INT && tv_int(scalar, &i)) {
		k = cst_i(l, i, ty_int(c, 64, SIGNLESS));
		from = ty_int(c, 64, SIGNED);
	} else if (scalar->type->kind == TY_TORCH_FLOAT && tv_float(scalar, &f)) {
		from = ty_float(c, TY_F64);
		k = cst_f(l, f, from);
	}
	l->blk = blk;
	l->before = saved;
	return k ? cv(l, k, from, ct) : cst_of(l, scalar, ct);
}

/* broadcast_to between static shapes, as torch-mlir's broadcastToGivenShape:
 * the input's broadcast dims (size 1 to more) are collapsed into the dim
 * before them (the first kept one when leading; all of them away when
 * every dim is broadcast), and a generic copies over the kept dims; no
 * broadcast dim and the same rank is the input itself.  Other shapes are
 * torch-lower's. */
int
pass_view_broadcast_to(L *l, Op *op, const void *arg)
{
	Type *st = OPND(op, 0)->type, *bt = btensor(l->c, op->res[0].type);
	int r, n, diff, i, ng = 0, start[TY_MAXRANK + 1], any = 0;
	int64_t mid[TY_MAXRANK];
	AffExpr *e[TY_MAXRANK];

	if (!bt || !st->ranked || !ty_static(st) || !ty_static(bt) || st->rank > bt->rank)
		return lower_expand(l, op, arg);
	r = st->rank;
	n = bt->rank;
	diff = n - r;
	for (i = 0; i < r; i++) {
		int64_t a = st->dims[i], o = bt->dims[i + diff];
		if (a != o && a != 1)
			return -1;
		if (a != o) {
			any = 1;
			continue;
		}
		start[ng] = ng ? i : 0;
		mid[ng] = a;
		e[ng++] = d_(l, i + diff);
	}
	start[ng] = r;
	Value *x = get(l, OPND(op, 0)), *out = empty(l, bt, NULL);
	if (!out)
		return -1;
	if (!any && r == n) {
		set(l, RES(op, 0), x);
		return 0;
	}
	if (any)
		x = expand_dims(l, x, tensor_of(l->c, ng, mid, st->elem),
			ng ? pass_view_groups(l->c, ng, start) : at_array(l->c, 0, NULL), 1);
	AffMap *maps[2] = { map_of(l, n, ng, e), map_id(l, n) };
	Gen g;
	gen_begin(l, &g, 1, &x, 1, &out, maps, n, NULL);
	set(l, RES(op, 0), gen_end(l, &g, 1, &g.arg[0]));
	return 0;
}

/* min(max(v, 0), size) of index v, the max only where v may be negative */
static Value *
clamp_index(L *l, Value *v, Value *size, int may_be_negative)
{
	if (may_be_negative) {
		Value *zero = cst_idx(l, 0);
		v = sel(l, cmpi(l, "slt", v, zero), zero, v);
	}
	return sel(l, cmpi(l, "sgt", v, size), size, v);
}

/* slice.Tensor along a dim whose size is known only at run time, with
 * constant start, end (none or INT64_MAX: the end of the dim, as
 * torch-mlir takes it, with no sentinel constant) and a positive step,
 * as PyTorch: a negative start or end counts from the end, both clamp
 * to the dim, the length is ceil((end - start) / step) clamped at 0; a
 * tensor.extract_slice with the start and length as values.  A static
 * dim is torch-lower's. */
static int
lower_slice_dyn(L *l, Op *op, const void *arg)
{
	Type *st = OPND(op, 0)->type, *bt = btensor(l->c, op->res[0].type);
	Type *i64 = ty_int(l->c, 64, SIGNLESS);
	int64_t d, start, end = INT64_MAX, step, off[TY_MAXRANK], szs[TY_MAXRANK];
	int64_t strides[TY_MAXRANK], dims[TY_MAXRANK];
	Value *opnds[2 + TY_MAXRANK + 1];
	int r, i, n = 1;

	if (!bt || !st->ranked || op->nopnds != 5 || !tv_int(OPND(op, 1), &d) ||
			(d = tt_dim(d, st->rank)) < 0 || (st->dims[d] != DYN && !l->dyn))
		return lower_slice(l, op, arg);
	/* torch-lower's dynamic shapes: an end computed from sizes */
	Value *end_v = NULL;
	if (l->dyn && !tv_none(OPND(op, 3)) && !tv_int(OPND(op, 3), &end) &&
			(end_v = lower_int_of(l, OPND(op, 3))))
		end_v = emit1(l, "arith.index_cast", 1, &end_v, ty_index(l->c));
	if (!tv_int(OPND(op, 2), &start) || (!tv_none(OPND(op, 3)) && !end_v &&
			!tv_int(OPND(op, 3), &end)) ||
			!tv_int(OPND(op, 4), &step) || step <= 0 || start == INT64_MIN)
		return -1;
	r = st->rank;
	Value *x = get(l, OPND(op, 0)), *o[2] = { x, cst_idx(l, d) };
	Value *size = emit1(l, "tensor.dim", 2, o, ty_index(l->c));
	Value *b = cst_idx(l, start), *e = size;
	if (start < 0)
		b = bin(l, "arith.addi", b, size);
	b = clamp_index(l, b, size, start < 0);
	if (end_v) {   /* negative counts from the end, at run time */
		Value *neg = cmpi(l, "slt", end_v, cst_idx(l, 0));
		e = sel(l, neg, bin(l, "arith.addi", end_v, size), end_v);
		e = clamp_index(l, e, size, 1);
	} else if (end != INT64_MAX) {
		e = cst_idx(l, end);
		if (end < 0)
			e = bin(l, "arith.addi", e, size);
		e = clamp_index(l, e, size, end < 0);
	}
	Value *len = bin(l, "arith.subi", e, b);
	if (step != 1)
		len = bin(l, "arith.floordivsi", bin(l, "arith.addi", len, cst_idx(l, step - 1)),
			cst_idx(l, step));
	Value *zero = cst_idx(l, 0);
	len = sel(l, cmpi(l, "slt", len, zero), zero, len);
	opnds[0] = x;
	opnds[n++] = b;
	for (i = 0; i < r; i++) {
		off[i] = i == d ? DYN_INDEX : 0;
		strides[i] = i == d ? step : 1;
		dims[i] = i == d ? DYN : st->dims[i];
		szs[i] = dims[i] == DYN ? DYN_INDEX : dims[i];
		if (i == d) {
			opnds[n++] = len;
		} else if (dims[i] == DYN) {
			Value *q[2] = { x, cst_idx(l, i) };
			opnds[n++] = emit1(l, "tensor.dim", 2, q, ty_index(l->c));
		}
	}
	Type *rt = tensor_of(l->c, r, dims, st->elem);
	Op *sl = emit(l, "tensor.extract_slice", n, opnds, 1, &rt);
	op_set_attr(l->c, sl, "static_offsets", at_dense_array(l->c, i64, r, off));
	op_set_attr(l->c, sl, "static_sizes", at_dense_array(l->c, i64, r, szs));
	op_set_attr(l->c, sl, "static_strides", at_dense_array(l->c, i64, r, strides));
	op_set_attr(l->c, sl, "operand_segment_sizes", at_dense_array(l->c,
		ty_int(l->c, 32, SIGNLESS), 4, (int64_t[]){ 1, 1, n - 2, 0 }));
	set(l, RES(op, 0), RES(sl, 0));
	return 0;
}

/* unflatten.int of dim d into constant sizes (one may be -1 where dim d
 * is static), the other dims static: an expand_shape of dim d's group;
 * a dynamic dim d is first cast to the sizes' product, as torch-mlir
 * (the product is what a valid unflatten has there) */
static int
lower_unflatten(L *l, Op *op, const void *arg)
{
	Type *st = OPND(op, 0)->type, *bt = btensor(l->c, op->res[0].type);
	Value *sz[TY_MAXRANK], *x = get(l, OPND(op, 0));
	int64_t d, k[TY_MAXRANK], in[TY_MAXRANK], out[TY_MAXRANK], prod = 1;
	int n, r, i, j, neg = -1, ng = 0, start[TY_MAXRANK + 1];

	if (!bt || !st->ranked || !tv_int(OPND(op, 1), &d) || (d = tt_dim(d, st->rank)) < 0 ||
			(n = list_vals(OPND(op, 2), sz, TY_MAXRANK)) < 1 ||
			st->rank + n - 1 > TY_MAXRANK || bt->rank != st->rank + n - 1)
		return -1;
	r = st->rank;
	if ((neg = const_sizes(sz, n, k, &prod)) < -1)
		return -1;
	for (i = 0; i < r; i++) {
		in[i] = st->dims[i];
		if (i != d && in[i] == DYN)
			return -1;
	}
	if (neg >= 0) {
		if (in[d] == DYN || !prod || in[d] % prod)
			return -1;
		k[neg] = in[d] / prod;
	} else if (in[d] != DYN && in[d] != prod)
		return -1;
	for (i = 0, j = 0; i < r; i++) {
		start[ng++] = j;
		if (i != d) {
			out[j++] = in[i];
			continue;
		}
		for (int q = 0; q < n; q++)
			out[j++] = k[q];
	}
	start[ng] = j;
	for (i = 0; i < j; i++)
		if (bt->dims[i] != DYN && bt->dims[i] != out[i])
			return -1;
	if (in[d] == DYN) {
		in[d] = prod;
		x = emit1(l, "tensor.cast", 1, &x, tensor_of(l->c, r, in, st->elem));
	}
	if (n > 1)
		x = expand_dims(l, x, tensor_of(l->c, j, out, st->elem),
			pass_view_groups(l->c, ng, start), 0);
	set(l, RES(op, 0), x);
	return 0;
}
