/*
 * pass_concat.c - tensor.concat in convert-torch-to-linalg (concat
 * helper), and its decomposition for what cannot read it.
 *
 * cat: torch-mlir's form.  Each operand whose dtype is not the result's
 * is converted first (as PyTorch casts), then the operands that add
 * nothing are dropped: a rank-1 tensor of static size 0 (PyTorch's legacy
 * "empty" operand, of any rank) and one whose size along the dim is a
 * static 0.  What is left is one tensor.concat of the result's type.
 * When nothing is left the result is the first operand of the result's
 * rank (its size along the dim is 0), cast to the result's type.
 *
 * replication_pad1d/2d/3d: torch-mlir's form.  From the last dim back,
 * each padded dim d gets, before and after, the edge slice of the tensor
 * so far (extract_slice of size 1 at 0, or at size-1) repeated pad times
 * (a tensor.concat of the copies when more than one), and the parts are
 * concatenated along d; sizes are read as torch-mlir reads them, one
 * arith.constant per index and static size, tensor.dim for dynamic ones.
 * Negative pads and a static size 0 under a positive pad are left to
 * PyTorch's error (the op stays).
 *
 * decompose-tensor-concat: each tensor.concat as MLIR's tensor
 * decomposition writes it: a tensor.empty of the result's sizes (static
 * where the result type or any input gives them, else tensor.dim of the
 * first input; along the dim the sum, arith.addi of tensor.dim where one
 * is dynamic), each input tensor.insert_slice'd at the running offset
 * with its own sizes, a tensor.cast to the result's type where the empty
 * one's differs.  MLIR 16 (mlir-opt-16) and codegen have no
 * tensor.concat; torch-backend-to-linalg-on-tensors-backend-pipeline runs
 * it after convert-torch-to-linalg.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lower.h"
#include "pass.h"

enum { KDYN = INT64_MIN };   /* MLIR's kDynamic in an index list */

/* tensor.concat dim(d) of vs[0..n) as a tensor of type rt */
static Value *
concat(L *l, int64_t d, int n, Value *const *vs, Type *rt)
{
	Op *o = emit(l, "tensor.concat", n, vs, 1, &rt);

	op_set_attr(l->c, o, "dim", at_int(l->c, d, NULL));
	return RES(o, 0);
}

/* The type MLIR infers for a concat of vs along d, or NULL where static
 * sizes off d differ. */
static Type *
concat_type(Ctx *c, int64_t d, int n, Value *const *vs)
{
	Type *t0 = vs[0]->type;
	int64_t dims[TY_MAXRANK];
	int i, k;

	for (k = 0; k < t0->rank; k++) {
		dims[k] = k == d ? 0 : DYN;
		for (i = 0; i < n; i++) {
			int64_t s = vs[i]->type->dims[k];
			if (k == d)
				dims[k] = dims[k] == DYN || s == DYN ? DYN : dims[k] + s;
			else if (s != DYN && dims[k] != DYN && s != dims[k])
				return NULL;
			else if (s != DYN)
				dims[k] = s;
		}
	}
	return ty_tensor(c, t0->rank, dims, t0->elem);
}

/* Are types a and b's static sizes the same where both are static? */
static int
compatible(const Type *a, const Type *b)
{
	int k;

	if (a->rank != b->rank)
		return 0;
	for (k = 0; k < a->rank; k++)
		if (a->dims[k] != DYN && b->dims[k] != DYN && a->dims[k] != b->dims[k])
			return 0;
	return 1;
}

static int
lower_cat_concat(L *l, Op *op, const void *arg)
{
	Type *bt = btensor(l->c, op->res[0].type), *rd = tt_dtype(op->res[0].type), *it;
	Value *ts[256], *vs[256], *first = NULL;
	int64_t d;
	int n, i, k = 0;

	if (!bt || !rd || (n = list_vals(OPND(op, 0), ts, 256)) < 0 ||
			!tv_int(OPND(op, 1), &d) || (d = tt_dim(d, bt->rank)) < 0)
		return -1;
	for (i = 0; i < n; i++) {
		Type *t = ttype(l, ts[i]), *dt = tt_dtype(t);
		Value *v = get(l, ts[i]);
		if (!v || !dt || !v->type->ranked)
			return -1;
		if (dt != rd)
			v = convert_tensor(l, v, dt, rd);
		vs[i] = v;
	}
	for (i = 0; i < n; i++) {
		Type *t = vs[i]->type;
		if (t->rank == 1 && t->dims[0] == 0)
			continue;
		if (t->rank != bt->rank)
			return -1;
		if (!first)
			first = vs[i];
		if (t->dims[d] != 0)
			vs[k++] = vs[i];
	}
	if (!k) {
		/* all empty along d: any one of the result's rank is the result */
		for (i = 0; !first && i < n; i++)
			if (vs[i]->type->rank == bt->rank)
				first = vs[i];
		if (!first || !compatible(first->type, bt))
			return -1;
		set(l, RES(op, 0), first);
		return 0;
	}
	if (!(it = concat_type(l->c, d, k, vs)) || !compatible(it, bt))
		return -1;
	set(l, RES(op, 0), concat(l, d, k, vs, bt));
	return 0;
}

/* Size k of v as torch-mlir's getTensorSizes leaves it: the index
 * constant, then the size's constant (static) or tensor.dim. */
static Value *
size_of(L *l, Value *v, int k)
{
	Value *o[2] = { v, cst_idx(l, k) };

	if (v->type->dims[k] != DYN)
		return cst_idx(l, v->type->dims[k]);
	return emit1(l, "tensor.dim", 2, o, ty_index(l->c));
}

/* The slice of v of size 1 along d at its start (end 0) or its end. */
static Value *
edge_slice(L *l, Value *v, int d, int end)
{
	Type *t = v->type, *i64 = ty_int(l->c, 64, SIGNLESS);
	int64_t off[TY_MAXRANK], szs[TY_MAXRANK], str[TY_MAXRANK], dims[TY_MAXRANK];
	Value *sizes[TY_MAXRANK], *opnds[2 + TY_MAXRANK];
	int r = t->rank, k, n = 1, noff = 0;
	Op *s;

	for (k = 0; k < r; k++)
		sizes[k] = size_of(l, v, k);
	opnds[0] = v;
	for (k = 0; k < r; k++) {
		off[k] = 0;
		str[k] = 1;
		dims[k] = k == d ? 1 : t->dims[k];
		szs[k] = dims[k] == DYN ? KDYN : dims[k];
	}
	if (end) {
		Value *last = bin(l, "arith.subi", sizes[d], cst_idx(l, 1));
		off[d] = KDYN;
		opnds[n++] = last;
		noff = 1;
	}
	for (k = 0; k < r; k++)
		if (dims[k] == DYN)
			opnds[n++] = sizes[k];
	Type *rt = ty_tensor(l->c, r, dims, t->elem);
	s = emit(l, "tensor.extract_slice", n, opnds, 1, &rt);
	op_set_attr(l->c, s, "static_offsets", at_dense_array(l->c, i64, r, off));
	op_set_attr(l->c, s, "static_sizes", at_dense_array(l->c, i64, r, szs));
	op_set_attr(l->c, s, "static_strides", at_dense_array(l->c, i64, r, str));
	op_set_attr(l->c, s, "operand_segment_sizes", at_dense_array(l->c,
		ty_int(l->c, 32, SIGNLESS), 4, (int64_t[]){ 1, noff, n - 1 - noff, 0 }));
	return RES(s, 0);
}

/* w copies of slice along d (the slice itself for one) */
static Value *
tile(L *l, Value *slice, int64_t w, int d)
{
	Value **vs, *r;
	int i;

	if (w == 1)
		return slice;
	vs = xmalloc(sizeof *vs * (size_t)w);
	for (i = 0; i < w; i++)
		vs[i] = slice;
	r = concat(l, d, (int)w, vs, concat_type(l->c, d, (int)w, vs));
	free(vs);
	return r;
}

static int
lower_reppad(L *l, Op *op, const void *arg)
{
	int nsp = atoi(arg), r, d, i, n, p = 0;
	Type *st = ttype(l, OPND(op, 0)), *bt = btensor(l->c, op->res[0].type);
	int64_t pad[6];
	Value *res = get(l, OPND(op, 0));

	if (!bt || !res || !st->ranked || (r = st->rank) < (nsp == 3 ? 3 : 2) ||
			(n = tv_ints(OPND(op, 1), pad, 6)) != 2 * nsp)
		return -1;
	for (i = 0; i < n; i++)
		if (pad[i] < 0 || pad[i] > 1 << 16 ||
				(pad[i] > 0 && st->dims[r - 1 - i / 2] == 0))
			return -1;
	for (d = r - 1; d >= r - nsp; d--) {
		int64_t lo = pad[p++], hi = pad[p++];
		Value *parts[3];
		int np = 0;
		if (lo > 0)
			parts[np++] = tile(l, edge_slice(l, res, d, 0), lo, d);
		parts[np++] = res;
		if (hi > 0)
			parts[np++] = tile(l, edge_slice(l, res, d, 1), hi, d);
		if (np > 1)
			res = concat(l, d, np, parts, concat_type(l->c, d, np, parts));
	}
	if (!compatible(res->type, bt))
		return -1;
	set(l, RES(op, 0), res);
	return 0;
}

static const Row rows[] = {
	{"torch.aten.cat", lower_cat_concat, NULL},
	{"torch.aten.replication_pad1d", lower_reppad, "1"},
	{"torch.aten.replication_pad2d", lower_reppad, "2"},
	{"torch.aten.replication_pad3d", lower_reppad, "3"},
	{NULL, NULL, NULL},
};

const Row *
pass_concat_lookup(const char *name)
{
	return row_find(rows, name);
}

/* ---- decompose-tensor-concat ---- */

/* A size: static s, or the value v. */
typedef struct Sz {
	int64_t s;
	Value *v;
} Sz;

static Sz
sz_of(L *l, Value *x, int k)
{
	Value *o[2];

	if (x->type->dims[k] != DYN)
		return (Sz){ x->type->dims[k], NULL };
	o[0] = x;
	o[1] = cst_idx(l, k);
	return (Sz){ DYN, emit1(l, "tensor.dim", 2, o, ty_index(l->c)) };
}

static Sz
sz_add(L *l, Sz a, Sz b)
{
	if (!a.v && !b.v)
		return (Sz){ a.s + b.s, NULL };
	return (Sz){ DYN, bin(l, "arith.addi", a.v ? a.v : cst_idx(l, a.s),
		b.v ? b.v : cst_idx(l, b.s)) };
}

/* v's offsets or sizes (static entries into st, dynamic ones appended
 * to opnds); the number appended */
static int
mixed(const Sz *v, int r, int64_t *st, Value **opnds)
{
	int k, n = 0;

	for (k = 0; k < r; k++) {
		st[k] = v[k].v ? KDYN : v[k].s;
		if (v[k].v)
			opnds[n++] = v[k].v;
	}
	return n;
}

static void
decompose(Ctx *c, Op *cc)
{
	L l = {0};
	Type *rt = cc->res[0].type, *i64 = ty_int(c, 64, SIGNLESS);
	int64_t d = op_attr(cc, "dim")->i, dims[TY_MAXRANK], st[3][TY_MAXRANK];
	int r = rt->rank, m = cc->nopnds, i, k, n;
	Sz out[TY_MAXRANK], off[TY_MAXRANK], (*sizes)[TY_MAXRANK];
	Value *dyn[TY_MAXRANK], *acc, *opnds[2 + 2 * TY_MAXRANK];

	l.c = c;
	l.op = cc;
	l.before = cc;
	/* each input's sizes, read once */
	sizes = xmalloc(sizeof *sizes * (size_t)m);
	for (i = 0; i < m; i++)
		for (k = 0; k < r; k++)
			sizes[i][k] = sz_of(&l, OPND(cc, i), k);
	/* the result's: static where its type or an input says, else the
	 * first input's; along d the sum */
	for (k = 0; k < r; k++) {
		out[k] = (Sz){ rt->dims[k], NULL };
		for (i = 0; k != d && out[k].s == DYN && i < m; i++)
			out[k].s = OPND(cc, i)->type->dims[k];
		if (k != d && out[k].s == DYN)
			out[k] = sizes[0][k];
	}
	if (rt->dims[d] == DYN)
		for (out[d] = sizes[0][d], i = 1; i < m; i++)
			out[d] = sz_add(&l, out[d], sizes[i][d]);
	for (k = 0, n = 0; k < r; k++) {
		dims[k] = out[k].v ? DYN : out[k].s;
		if (out[k].v)
			dyn[n++] = out[k].v;
	}
	Type *et = ty_tensor(c, r, dims, rt->elem);
	acc = emit1(&l, "tensor.empty", n, dyn, et);
	Sz at = { 0, NULL };
	for (k = 0; k < r; k++)
		st[2][k] = 1;
	for (i = 0; i < m; i++) {
		int no, ns;
		for (k = 0; k < r; k++)
			off[k] = k == d ? at : (Sz){ 0, NULL };
		opnds[0] = OPND(cc, i);
		opnds[1] = acc;
		no = mixed(off, r, st[0], opnds + 2);
		ns = mixed(sizes[i], r, st[1], opnds + 2 + no);
		Op *s = emit(&l, "tensor.insert_slice", 2 + no + ns, opnds, 1, &et);
		op_set_attr(c, s, "static_offsets", at_dense_array(c, i64, r, st[0]));
		op_set_attr(c, s, "static_sizes", at_dense_array(c, i64, r, st[1]));
		op_set_attr(c, s, "static_strides", at_dense_array(c, i64, r, st[2]));
		op_set_attr(c, s, "operand_segment_sizes", at_dense_array(c,
			ty_int(c, 32, SIGNLESS), 5, (int64_t[]){ 1, 1, no, ns, 0 }));
		acc = RES(s, 0);
		if (i + 1 < m)
			at = i ? sz_add(&l, at, sizes[i][d]) : sizes[0][d];
	}
	free(sizes);
	if (et != rt)
		acc = emit1(&l, "tensor.cast", 1, &acc, rt);
	value_replace_all_uses(RES(cc, 0), acc);
	op_erase(cc);
}

typedef struct Walk {
	Ctx *c;
	int changed;
} Walk;

/* each tensor.concat in turn (the walk lets it go) */
static void
decompose_each(Op *op, void *arg)
{
	Walk *w = arg;

	if (!op_is(op, "tensor.concat"))
		return;
	decompose(w->c, op);
	w->changed = 1;
}

static int
run_decompose(Ctx *c, Op *fn, PassArgs *a)
{
	Walk w = { c, 0 };

	op_walk_post(fn, decompose_each, &w);
	a->changed = w.changed;
	return 0;
}

const PassInfo pass_decompose_tensor_concat = {
	.name = "decompose-tensor-concat",
	.summary = "tensor.concat as tensor.empty and tensor.insert_slice "
		"(for MLIR 16 and codegen)",
	.anchor = "func.func",
	.run = run_decompose,
};
