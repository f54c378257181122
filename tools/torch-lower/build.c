/*
 * build.c - the builders every lowering shares: constants read from torch
 * ops, scalar arith emitted with PyTorch's casting rules, tensors,
 * reshapes and linalg.generic.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lower.h"

/* --mlir-dialect-version (torch-lower's main.c sets it; torch-opt's
 * convert-torch-to-linalg keeps 16) */
int lower_mlir_version = 16;

/* ---- values and types ---- */

Type *
ttype(L *l, Value *v)
{
	Type *t = pmap_get(&l->ttype, v);

	return t ? t : v->type;
}

Value *
get(L *l, Value *v)
{
	return pmap_get(&l->vmap, v);
}

void
set(L *l, Value *torch, Value *builtin)
{
	*pmap_slot(&l->vmap, torch, 1) = builtin;
}

Type *
dtype_of(L *l, Value *v)
{
	return tt_dtype(ttype(l, v));
}

int
is_tensor(L *l, Value *v)
{
	return tt_is(ttype(l, v));
}

Type *
belem(Ctx *c, Type *d)
{
	if (d->kind == TY_INT && d->sign != SIGNLESS)
		return ty_int(c, d->width, SIGNLESS);
	return d;
}

Type *
tensor_of(Ctx *c, int rank, const int64_t *dims, Type *d)
{
	return ty_tensor(c, rank, dims, belem(c, d));
}

Type *
btensor(Ctx *c, Type *vt)
{
	if (!ty_istorchtensor(vt) || !vt->elem || !vt->ranked)
		return NULL;
	return tensor_of(c, vt->rank, vt->dims, vt->elem);
}

/* ---- constants read from torch ops ---- */

/* lib's tv_list, into the caller's array */
int
list_vals(Value *v, Value **out, int max)
{
	Value **e = NULL;
	int n = tv_list(v, &e);

	if (n > max)
		n = -1;
	if (n > 0)
		memcpy(out, e, sizeof *e * n);
	free(e);
	return n;
}

int
norm_dim(L *l, int64_t d, int rank)
{
	int64_t n = tt_dim(d, rank);

	if (n < 0)
		op_error(l->op, "torch-lower: dimension %lld out of range for rank %d",
			(long long)d, rank);
	return (int)n;
}

/* Lowerings read scalars and lists at lowering time: they must be
 * constants (lists may hold tensors). */
int
check_constants(L *l, Op *op)
{
	int i, k;

	for (i = 0; i < op->nopnds; i++) {
		Value *v = OPND(op, i);
		Op *d = v->def;
		/* a torch.constant.device too: full's and arange's, there is one */
		if (is_tensor(l, v) || tv_const(v))
			continue;
		if (d && op_is(d, "torch.prim.ListConstruct")) {
			for (k = 0; k < d->nopnds; k++) {
				Value *e = OPND(d, k);
				if (!is_tensor(l, e) && !tv_const(e))
					break;
			}
			if (k == d->nopnds)
				continue;
		}
		op_error(op, "torch-lower: operand %d of '%s' must be a constant", i, op->name);
		return -1;
	}
	return 0;
}

/* ---- emitting ---- */

static void
place(L *l, Op *op)
{
	if (l->blk)
		op_append(l->blk, op);
	else
		op_insert_before(l->before, op);
}

Op *
emit(L *l, const char *name, int n, Value *const *opnds, int nres,
	Type *const *rt)
{
	Op *op = op_new(l->c, name, n, opnds, nres, rt, 0, l->op->loc);

	place(l, op);
	return op;
}

Value *
emit1(L *l, const char *name, int n, Value *const *opnds, Type *rt)
{
	return RES(emit(l, name, n, opnds, 1, &rt), 0);
}

static Value *
cst(L *l, Attr *a, Type *t)
{
	Op *op = emit(l, "arith.constant", 0, NULL, 1, &t);

	op_set_attr(l->c, op, "value", a);
	return RES(op, 0);
}

Value *
cst_f(L *l, double v, Type *bt)
{
	return cst(l, at_float(l->c, v, bt), bt);
}

Value *
cst_i(L *l, int64_t v, Type *bt)
{
	if (bt->kind == TY_INT && bt->width == 1)
		return cst(l, at_bool(l->c, v != 0), bt);
	return cst(l, at_int(l->c, v, bt), bt);
}

Value *
cst_idx(L *l, int64_t v)
{
	return cst_i(l, v, ty_index(l->c));
}

Value *
cst_d(L *l, double v, Type *d)
{
	if (dt_isfloat(d))
		return cst_f(l, v, d);
	if (dt_isbool(d))
		return cst_i(l, v != 0, d);
	return cst_i(l, (int64_t)v, belem(l->c, d));
}

Value *
cst_of(L *l, Value *v, Type *d)
{
	int64_t i;
	int b;

	/* an int goes in whole: through a double, 2^53 + 1 would not */
	if (tv_bool(v, &b))
		i = b;
	else if (!tv_int(v, &i))
		return cst_d(l, tv_fval(v), d);
	if (dt_isfloat(d))
		return cst_f(l, (double)i, d);
	if (dt_isbool(d))
		return cst_i(l, i != 0, d);
	return cst_i(l, i, belem(l->c, d));
}

Value *
un(L *l, const char *name, Value *a)
{
	return emit1(l, name, 1, &a, a->type);
}

Value *
bin(L *l, const char *name, Value *a, Value *b)
{
	Value *v[2] = { a, b };

	return emit1(l, name, 2, v, a->type);
}

static Value *
cmp_op(L *l, const char *name, int pred, Value *a, Value *b)
{
	Value *v[2] = { a, b };
	Type *i1 = ty_int(l->c, 1, SIGNLESS);
	Op *op = emit(l, name, 2, v, 1, &i1);

	op_set_attr(l->c, op, "predicate", at_int(l->c, pred, NULL));
	return RES(op, 0);
}

static int
pred_index(const char *const *preds, const char *p)
{
	int i;

	for (i = 0; preds[i]; i++)
		if (!strcmp(preds[i], p))
			return i;
	die("unknown predicate %s", p);
}

Value *
cmpf(L *l, const char *pred, Value *a, Value *b)
{
	static const char *const preds[] = {
		"false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord",
		"ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true", NULL,
	};

	return cmp_op(l, "arith.cmpf", pred_index(preds, pred), a, b);
}

Value *
cmpi(L *l, const char *pred, Value *a, Value *b)
{
	static const char *const preds[] = {
		"eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge", NULL,
	};

	return cmp_op(l, "arith.cmpi", pred_index(preds, pred), a, b);
}

void
emit_assert(L *l, Value *cond, const char *msg)
{
	Op *a = emit(l, "cf.assert", 1, &cond, 0, NULL);

	op_set_attr(l->c, a, "msg", at_str(l->c, msg));
}

Value *
sel(L *l, Value *c, Value *a, Value *b)
{
	Value *v[3] = { c, a, b };

	return emit1(l, "arith.select", 3, v, a->type);
}

static Value *
cast(L *l, const char *name, Value *v, Type *to)
{
	return emit1(l, name, 1, &v, to);
}

Value *
cv(L *l, Value *v, Type *from, Type *to)
{
	Ctx *c = l->c;
	Type *bt = belem(c, to);

	if (from == to)
		return v;
	if (dt_isbool(to)) {
		if (dt_isfloat(from))
			return cmpf(l, "une", v, cst_f(l, 0, from));
		return cmpi(l, "ne", v, cst_i(l, 0, v->type));
	}
	if (dt_isfloat(from) && dt_isfloat(to)) {
		if (ty_bitwidth(from) == 16 && ty_bitwidth(to) == 16) {
			v = cast(l, "arith.extf", v, dt_f32(c));
			return cast(l, "arith.truncf", v, to);
		}
		return cast(l, ty_bitwidth(to) > ty_bitwidth(from) ?
			"arith.extf" : "arith.truncf", v, to);
	}
	if (dt_isfloat(to))
		return cast(l, dt_isunsigned(from) ? "arith.uitofp" : "arith.sitofp", v, to);
	if (dt_isfloat(from) && to->width < 32) {
		/* as PyTorch on x86 does: to int32, then wrap (-1.0 -> 255 in
		 * uint8, 70000.0 -> 4464 in int16); a direct fptosi to i16 is
		 * poison out of range and LLVM folds it away */
		v = cast(l, "arith.fptosi", v, ty_int(c, 32, SIGNLESS));
		return cast(l, "arith.trunci", v, bt);
	}
	if (dt_isfloat(from))
		return cast(l, dt_isunsigned(to) ? "arith.fptoui" : "arith.fptosi", v, bt);
	if (to->width > from->width)
		return cast(l, dt_isunsigned(from) ? "arith.extui" : "arith.extsi", v, bt);
	if (to->width < from->width)
		return cast(l, "arith.trunci", v, bt);
	return v;
}

Value *
ar(L *l, const char *w, Type *d, Value *a, Value *b)
{
	int f = dt_isfloat(d), bl = dt_isbool(d), u = dt_isunsigned(d);

	if (!strcmp(w, "add"))
		return bin(l, f ? "arith.addf" : bl ? "arith.ori" : "arith.addi", a, b);
	if (!strcmp(w, "sub"))
		return bin(l, f ? "arith.subf" : bl ? "arith.xori" : "arith.subi", a, b);
	if (!strcmp(w, "mul"))
		return bin(l, f ? "arith.mulf" : bl ? "arith.andi" : "arith.muli", a, b);
	if (!strcmp(w, "div"))
		return bin(l, f ? "arith.divf" : u ? "arith.divui" : "arith.divsi", a, b);
	if (!strcmp(w, "max") || !strcmp(w, "min")) {
		int mx = w[1] == 'a';
		if (f) {
			/* NaN wins, as in torch.maximum */
			Value *m = sel(l, cmpf(l, mx ? "ogt" : "olt", a, b), a, b);
			return sel(l, cmpf(l, "uno", a, a), a, m);
		}
		return bin(l, mx ? (u ? "arith.maxui" : "arith.maxsi") :
			(u ? "arith.minui" : "arith.minsi"), a, b);
	}
	if (!strcmp(w, "and"))
		return bin(l, "arith.andi", a, b);
	if (!strcmp(w, "or"))
		return bin(l, "arith.ori", a, b);
	if (!strcmp(w, "xor"))
		return bin(l, "arith.xori", a, b);
	die("ar: %s", w);
}

Value *
cmp(L *l, const char *w, Type *d, Value *a, Value *b)
{
	static const char *const names[] = { "eq", "ne", "lt", "le", "gt", "ge" };
	static const char *const fp[] = { "oeq", "une", "olt", "ole", "ogt", "oge" };
	static const char *const sp[] = { "eq", "ne", "slt", "sle", "sgt", "sge" };
	static const char *const up[] = { "eq", "ne", "ult", "ule", "ugt", "uge" };
	int i;

	for (i = 0; i < 6 && strcmp(names[i], w); i++)
		;
	if (i == 6)
		die("cmp: %s", w);
	if (dt_isfloat(d))
		return cmpf(l, fp[i], a, b);
	return cmpi(l, dt_isunsigned(d) ? up[i] : sp[i], a, b);
}

Value *
to_index(L *l, Value *v)
{
	if (v->type->kind == TY_INDEX)
		return v;
	return cast(l, "arith.index_cast", v, ty_index(l->c));
}

Value *
from_index(L *l, Value *v, Type *bt)
{
	return cast(l, "arith.index_cast", v, bt);
}

Value *
lindex(L *l, int dim)
{
	Type *ix = ty_index(l->c);
	Op *op = emit(l, "linalg.index", 0, NULL, 1, &ix);

	op_set_attr(l->c, op, "dim", at_int(l->c, dim, NULL));
	return RES(op, 0);
}

/* ---- tensors ---- */

Value *
empty_from(L *l, Type *bt, Value *const *from, const int *dim)
{
	Value *dyn[TY_MAXRANK];
	int n = 0, i;

	for (i = 0; i < bt->rank && i < TY_MAXRANK; i++) {
		if (bt->dims[i] != DYN)
			continue;
		if (!from || !from[i] || !from[i]->type->ranked || dim[i] < 0 ||
				dim[i] >= from[i]->type->rank) {
			op_error(l->op, "torch-lower: cannot size a dynamic dimension");
			return NULL;
		}
		Value *v[2] = { from[i], cst_idx(l, dim[i]) };
		dyn[n++] = emit1(l, "tensor.dim", 2, v, ty_index(l->c));
	}
	return emit1(l, "tensor.empty", n, dyn, bt);
}

Value *
empty(L *l, Type *bt, Value *like)
{
	Value *from[TY_MAXRANK];
	int dim[TY_MAXRANK], i;

	for (i = 0; i < bt->rank && i < TY_MAXRANK; i++) {
		from[i] = like && like->type->ranked && like->type->rank == bt->rank ? like : NULL;
		dim[i] = i;
	}
	return empty_from(l, bt, from, dim);
}

static void
segments(L *l, Op *op, int nin, int nout)
{
	int64_t s[2] = { nin, nout };

	op_set_attr(l->c, op, "operand_segment_sizes",
		at_dense_array(l->c, ty_int(l->c, 32, SIGNLESS), 2, s));
}

Value *
fill(L *l, Value *scalar, Value *t)
{
	Value *v[2] = { scalar, t };
	Op *op = emit(l, "linalg.fill", 2, v, 1, &t->type);

	segments(l, op, 1, 1);
	return RES(op, 0);
}

Value *
filled(L *l, Type *bt, Value *scalar)
{
	Value *e = empty(l, bt, NULL);

	return e ? fill(l, scalar, e) : NULL;
}

Value *
expand_dims(L *l, Value *v, Type *bt, Attr *re, int collapse)
{
	Op *op = emit(l, collapse ? "tensor.collapse_shape" : "tensor.expand_shape",
		1, &v, 1, &bt);

	op_set_attr(l->c, op, "reassociation", re);
	return RES(op, 0);
}

/* Groups the dims of big (rank nb) so that group j multiplies to small[j];
 * leftover size-1 dims join the last group.  0 if that is impossible. */
static Attr *
regroup(L *l, const int64_t *big, int nb, const int64_t *small, int ns)
{
	Attr *groups[64], *inner[64];
	int i = 0, j;

	if (ns == 0) {
		for (i = 0; i < nb; i++)
			if (big[i] != 1)
				return NULL;
		return at_array(l->c, 0, groups);
	}
	for (j = 0; j < ns; j++) {
		int64_t p;
		int n = 0;

		if (i >= nb)
			return NULL;
		p = big[i];
		inner[n++] = at_int(l->c, i++, NULL);
		while (p < small[j] && i < nb) {
			p *= big[i];
			inner[n++] = at_int(l->c, i++, NULL);
		}
		if (p != small[j])
			return NULL;
		if (j == ns - 1)
			for (; i < nb; i++) {
				if (big[i] != 1)
					return NULL;
				inner[n++] = at_int(l->c, i, NULL);
			}
		groups[j] = at_array(l->c, n, inner);
	}
	return at_array(l->c, ns, groups);
}

Value *
reshape_to(L *l, Value *v, Type *bt)
{
	Type *st = v->type;
	Attr *re;

	if (!ty_static(st) || !ty_static(bt) || st->rank > 64 || bt->rank > 64) {
		op_error(l->op, "torch-lower: reshape needs static shapes");
		return NULL;
	}
	if (st == bt)
		return v;
	if (ty_numel(st) != ty_numel(bt)) {
		op_error(l->op, "torch-lower: cannot reshape %lld elements into %lld",
			(long long)ty_numel(st), (long long)ty_numel(bt));
		return NULL;
	}
	/* no data to move, and no reassociation regroups a size-0 dim */
	if (ty_numel(bt) == 0)
		return empty(l, bt, NULL);
	if (st->rank > bt->rank &&
			(re = regroup(l, st->dims, st->rank, bt->dims, bt->rank)))
		return expand_dims(l, v, bt, re, 1);
	if (st->rank < bt->rank &&
			(re = regroup(l, bt->dims, bt->rank, st->dims, st->rank)))
		return expand_dims(l, v, bt, re, 0);
	/* through one dimension */
	int64_t n = ty_numel(st);
	Type *flat = ty_tensor(l->c, 1, &n, st->elem);
	if (st->rank != 1)
		v = expand_dims(l, v, flat, regroup(l, st->dims, st->rank, &n, 1), 1);
	if (bt->rank != 1)
		v = expand_dims(l, v, bt, regroup(l, bt->dims, bt->rank, &n, 1), 0);
	return v;
}

/* ---- linalg.generic ---- */

AffExpr *d_(L *l, int i) { return aff_dim(l->c, i); }
AffExpr *c_(L *l, int64_t v) { return aff_const(l->c, v); }
AffExpr *add_(L *l, AffExpr *a, AffExpr *b) { return aff_bin(l->c, AFF_ADD, a, b); }
AffExpr *
mul_(L *l, AffExpr *a, int64_t k)
{
	if (k == 1)
		return a;
	if (k == 0)
		return c_(l, 0);
	return aff_bin(l->c, AFF_MUL, a, c_(l, k));
}

AffMap *
map_of(L *l, int nloops, int nres, AffExpr **res)
{
	return affmap_new(l->c, nloops, 0, nres, res);
}

AffMap *map_id(L *l, int n) { return affmap_identity(l->c, n); }

AffMap *
map_sel(L *l, int n, int nres, const int *s)
{
	return affmap_select(l->c, n, nres, s);
}

AffMap *
map_bcast(L *l, int loops, Type *t, Type *res)
{
	AffExpr *e[64];
	int r = t->rank, k;

	for (k = 0; k < r; k++) {
		int i = k + loops - r;
		if (t->dims[k] == 1 && res->dims[i] != 1)
			e[k] = c_(l, 0);
		else
			e[k] = d_(l, i);
	}
	return map_of(l, loops, r, e);
}

static Type *
elem_or_self(Type *t)
{
	return ty_isshaped(t) ? t->elem : t;
}

void
gen_begin(L *l, Gen *g, int nin, Value *const *ins, int nout,
	Value *const *outs, AffMap *const *maps, int nloops, const char *iters)
{
	Ctx *c = l->c;
	int n = nin + nout, i;
	Value *v[n + 1];
	Type *rt[nout + 1];
	Attr *m[n + 1], *it[nloops + 1];

	for (i = 0; i < nin; i++)
		v[i] = ins[i];
	for (i = 0; i < nout; i++) {
		v[nin + i] = outs[i];
		rt[i] = outs[i]->type;
	}
	g->op = op_new(c, "linalg.generic", n, v, nout, rt, 1, l->op->loc);
	place(l, g->op);
	for (i = 0; i < n; i++)
		m[i] = at_affine_map(c, maps[i]);
	for (i = 0; i < nloops; i++)
		it[i] = at_str(c, iters && iters[i] == 'r' ? "reduction" : "parallel");
	op_set_attr(c, g->op, "indexing_maps", at_array(c, n, m));
	op_set_attr(c, g->op, "iterator_types", at_array(c, nloops, it));
	segments(l, g->op, nin, nout);
	g->body = block_new(c);
	region_append(&g->op->regs[0], g->body);
	g->arg = arena_alloc(c, sizeof *g->arg * (size_t)(n + 1));
	for (i = 0; i < n; i++)
		g->arg[i] = block_add_arg(c, g->body, elem_or_self(v[i]->type), l->op->loc);
	g->saved_blk = l->blk;
	g->saved_before = l->before;
	l->blk = g->body;
}

Value *
gen_end(L *l, Gen *g, int n, Value *const *yields)
{
	emit(l, "linalg.yield", n, yields, 0, NULL);
	l->blk = g->saved_blk;
	l->before = g->saved_before;
	return RES(g->op, 0);
}

Value *
convert_tensor(L *l, Value *v, Type *from, Type *to)
{
	Type *bt = tensor_of(l->c, v->type->rank, v->type->dims, to);
	Value *out;
	AffMap *maps[2];
	Gen g;

	if (from == to)
		return v;
	if (!(out = empty(l, bt, v)))
		return NULL;
	maps[0] = maps[1] = map_id(l, bt->rank);
	gen_begin(l, &g, 1, &v, 1, &out, maps, bt->rank, NULL);
	Value *r = cv(l, g.arg[0], from, to);
	return gen_end(l, &g, 1, &r);
}

/* strides or dilations as linalg prints them: dense<2> : vector<2xi64> */
Attr *
window_attr(Ctx *c, int n, const int64_t *v)
{
	int64_t nn = n;
	int i, splat = 1;

	for (i = 1; i < n; i++)
		splat &= v[i] == v[0];
	return at_dense(c, ty_vector(c, 1, &nn, ty_int(c, 64, SIGNLESS)), v,
		sizeof *v * (splat ? 1 : (size_t)n), splat);
}

/* tensor.pad of v into type bt, lo and hi elements before and after
 * each dimension, scalar there (bt's dynamic sizes v's) */
Value *
tensor_pad(L *l, Value *v, Type *bt, const int64_t *lo, const int64_t *hi, Value *scalar)
{
	Ctx *c = l->c;
	Type *i64 = ty_int(c, 64, SIGNLESS), *ix = ty_index(c);
	int64_t seg[3] = { 1, 0, 0 };
	Op *op = op_new(c, "tensor.pad", 1, &v, 1, &bt, 1, l->op->loc);
	Block *b = block_new(c);

	place(l, op);
	op_set_attr(c, op, "static_low", at_dense_array(c, i64, bt->rank, lo));
	op_set_attr(c, op, "static_high", at_dense_array(c, i64, bt->rank, hi));
	op_set_attr(c, op, "operand_segment_sizes",
		at_dense_array(c, ty_int(c, 32, SIGNLESS), 3, seg));
	region_append(&op->regs[0], b);
	for (int i = 0; i < bt->rank; i++)
		block_add_arg(c, b, ix, l->op->loc);
	op_append(b, op_new(c, "tensor.yield", 1, &scalar, 0, NULL, 0, l->op->loc));
	return RES(op, 0);
}

/* v in a tensor of type bt, at off, the rest scalar: tensor.pad as
 * torch-mlir writes it when the output is for current MLIR (IREE's
 * llvm-cpu miscompiled resnet18's fill + insert_slice feeding a conv),
 * else an insert_slice into a filled tensor, the default's form since
 * before codegen read tensor.pad */
Value *
pad_with(L *l, Value *v, Type *bt, const int64_t *off, Value *scalar)
{
	int r = bt->rank, i;
	int64_t hi[16], st[16];

	for (i = 0; i < r; i++) {
		hi[i] = bt->dims[i] - off[i] - v->type->dims[i];
		st[i] = 1;
	}
	if (lower_mlir_version < MLIR_NEWER) {
		Value *z = filled(l, bt, scalar);
		return z ? insert_slice(l, v, z, off, st) : NULL;
	}
	return tensor_pad(l, v, bt, off, hi, scalar);
}
