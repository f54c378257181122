/*
 * pass_basic.c - convert-torch-to-linalg's own rows (basic helper): forms
 * of torch-mlir's TorchToLinalg that the torch-lower tool does not take
 * or writes differently, for the pass only.
 *
 * full with sizes or a fill value known only at run time: the value
 * leaves torch through torch_c.to_f64 (to_i64, to_i1) and is converted
 * to the dtype as PyTorch casts it; each size the result's type does not
 * know is its torch_c.to_i64 as an index.
 *
 * max.dim and min.dim of an integer (bool included) tensor: one generic
 * that keeps maxui/maxsi (minui/minsi) of the value and the index of the
 * first element strictly beyond the running one, from the dtype's
 * lowest (highest) value and index 0.
 *
 * any.dim and all.dim of a bool tensor: torch-mlir's reduction generic.
 *
 * onnx.rotary_embedding: torch-mlir's one generic (see lower_rotary).
 */
#include <stdio.h>
#include <string.h>

#include "lower.h"

/* the builtin value of torch scalar v (torch_c.to_i64, to_f64, to_i1)
 * and its dtype (si64, f64, i1) */
static Value *
scalar_in(L *l, Value *v, Type **dt)
{
	const char *sfx;
	char name[32];
	Type *bt;

	if (v->type->kind == TY_TORCH_VTENSOR || !(bt = torch_c_type(l->c, v->type, &sfx)))
		return NULL;
	*dt = v->type->kind == TY_TORCH_INT ? ty_int(l->c, 64, SIGNED) :
		v->type->kind == TY_TORCH_FLOAT ? dt_f64(l->c) : dt_bool(l->c);
	snprintf(name, sizeof name, "torch_c.to_%s", sfx);
	return emit1(l, name, 1, &v, bt);
}

static int
by_table(L *l, Op *op, const void *arg)
{
	const Row *r = lower_lookup(op->name);

	return r ? r->fn(l, op, r->arg) : -1;
}

/* full(size, fill): sizes from the list (those the result's type knows
 * are static), the fill value converted to the result's dtype */
static int
lower_full_any(L *l, Op *op, const void *arg)
{
	Type *bt = btensor(l->c, op->res[0].type), *rt = op->res[0].type->elem, *from;
	Value *sz[TY_MAXRANK], *dyn[TY_MAXRANK], *fillv;
	int n = list_vals(OPND(op, 0), sz, TY_MAXRANK), i, k = 0;

	if (!bt || n != bt->rank || !(fillv = scalar_in(l, OPND(op, 1), &from)))
		return -1;
	for (i = 0; i < n; i++) {
		if (sz[i]->type->kind != TY_TORCH_INT)
			return -1;
		if (bt->dims[i] != DYN)
			continue;
		Value *s = emit1(l, "torch_c.to_i64", 1, &sz[i], ty_int(l->c, 64, SIGNLESS));
		dyn[k++] = emit1(l, "arith.index_cast", 1, &s, ty_index(l->c));
	}
	fillv = cv(l, fillv, from, rt);
	Value *out = emit1(l, "tensor.empty", k, dyn, bt);
	set(l, RES(op, 0), fill(l, fillv, out));
	return 0;
}


/* max.dim / min.dim of an integer tensor, keepdim false */
static int
lower_int_maxdim(L *l, Op *op, const void *arg)
{
	Type *d = dtype_of(l, OPND(op, 0)), *i64 = ty_int(l->c, 64, SIGNLESS);
	Value *x = get(l, OPND(op, 0)), *sz[TY_MAXRANK], *outs[2], *y[2];
	int mx = op_is(op, "torch.aten.max.dim"), r, dim, i, n = 0, keep[TY_MAXRANK], b;
	int64_t dims[TY_MAXRANK], init;
	char it[TY_MAXRANK + 1];
	AffMap *maps[3];
	Gen g;

	if (!d || d->kind != TY_INT || !x->type->ranked || x->type->rank < 1 ||
			!tv_bool(OPND(op, 2), &b) || b || op->res[0].type->elem != d ||
			!btensor(l->c, op->res[1].type) || op->res[1].type->elem != dt_i64(l->c))
		return by_table(l, op, arg);
	r = x->type->rank;
	if ((dim = (int)tt_dim(tv_ival(OPND(op, 1)), r)) < 0)
		return -1;
	for (i = 0; i < r; i++) {
		it[i] = i == dim ? 'r' : 'p';
		if (i == dim)
			continue;
		Value *o[2] = { x, cst_idx(l, i) };
		sz[n] = emit1(l, "tensor.dim", 2, o, ty_index(l->c));
		keep[n] = i;
		dims[n++] = DYN;
	}
	it[r] = 0;
	/* torch-mlir's init sizes are all tensor.dim: the tensor.cast after
	 * the op gives the result's static dims */
	outs[1] = fill(l, cst_i(l, 0, i64),
		emit1(l, "tensor.empty", n, sz, tensor_of(l->c, n, dims, ty_int(l->c, 64, SIGNED))));
	if (dt_isunsigned(d))
		init = mx ? 0 : (int64_t)(d->width == 64 ? ~0ULL : (1ULL << d->width) - 1);
	else
		init = mx ? (int64_t)(~0ULL << (d->width - 1)) :
			(int64_t)((1ULL << (d->width - 1)) - 1);
	outs[0] = fill(l, cst_i(l, init, belem(l->c, d)),
		emit1(l, "tensor.empty", n, sz, tensor_of(l->c, n, dims, d)));
	maps[0] = map_id(l, r);
	maps[1] = maps[2] = map_sel(l, r, n, keep);
	gen_begin(l, &g, 1, &x, 2, outs, maps, r, it);
	Value *idx = emit1(l, "arith.index_cast", 1, (Value *[]){ lindex(l, dim) }, i64);
	int u = dt_isunsigned(d);
	y[0] = bin(l, mx ? (u ? "arith.maxui" : "arith.maxsi") : (u ? "arith.minui" : "arith.minsi"),
		g.arg[0], g.arg[1]);
	Value *p = cmpi(l, mx ? (u ? "ugt" : "sgt") : (u ? "ult" : "slt"), g.arg[0], g.arg[1]);
	y[1] = sel(l, p, idx, g.arg[2]);
	gen_end(l, &g, 2, y);
	set(l, RES(op, 0), RES(g.op, 0));
	set(l, RES(op, 1), RES(g.op, 1));
	return 0;
}

/* the size of dim i of t: a constant where its type knows it (torch-mlir's
 * folded tensor.dim), else tensor.dim */
static Value *
size_at(L *l, Value *t, int i)
{
	Value *o[2];

	if (t->type->dims[i] != DYN)
		return cst_idx(l, t->type->dims[i]);
	o[0] = t;
	o[1] = cst_idx(l, i);
	return emit1(l, "tensor.dim", 2, o, ty_index(l->c));
}

/* i64 sizes v[0..n) as a shape tensor for tensor.reshape */
static Value *
shape_of(L *l, int n, Value **v)
{
	Type *i64 = ty_int(l->c, 64, SIGNLESS);
	int i;

	for (i = 0; i < n; i++)
		v[i] = emit1(l, "arith.index_cast", 1, &v[i], i64);
	return emit1(l, "tensor.from_elements", n, v, ty_tensor(l->c, 1, (int64_t[]){ n }, i64));
}

/* onnx.rotary_embedding (com.microsoft's RotaryEmbedding) as torch-mlir
 * lowers it: one generic over (batch, heads, seq, head) that reads the
 * rotated partner element and the cos/sin cache rows at the position id,
 * times scale; a rank-3 input (batch, seq, hidden) reshaped to rank 4
 * and back.  Taken only where every head dim rotates (torch-mlir's form
 * would rotate the tail of a partial rotary dim too) and without packed
 * batching; position ids whose shape the type does not fix are asserted
 * to match the input's batch and sequence. */
static int
lower_rotary(L *l, Op *op, const void *arg)
{
	Value *x = get(l, OPND(op, 0)), *pos = get(l, OPND(op, 1));
	Value *cosc = get(l, OPND(op, 2)), *sinc = get(l, OPND(op, 3));
	Type *xt = x->type, *ct = cosc->type, *pt = pos->type, *e = xt->elem;
	Type *bt = btensor(l->c, op->res[0].type), *dx = dtype_of(l, OPND(op, 0));
	int64_t inter, packed, heads, rdim, hidden, hsize, nheads, d4[4];
	double scale = tv_fval(OPND(op, 8));
	int r = xt->rank, i, k = 0;

	if (!bt || (r != 3 && r != 4) || pt->rank != 2 || ct->rank != 2 ||
			sinc->type != ct || !ty_static(ct) || !dx || !dt_isfloat(dx) ||
			dtype_of(l, OPND(op, 2)) != dx || dtype_of(l, OPND(op, 3)) != dx ||
			op->res[0].type->elem != dx || !dtype_of(l, OPND(op, 1)) ||
			dtype_of(l, OPND(op, 1))->kind != TY_INT || dt_isbool(dtype_of(l, OPND(op, 1))) ||
			!tv_int(OPND(op, 4), &inter) || !tv_int(OPND(op, 5), &packed) ||
			!tv_int(OPND(op, 6), &heads) || !tv_int(OPND(op, 7), &rdim) ||
			packed || heads < 0 || rdim < 0 || xt->dims[r - 1] == DYN)
		return -1;
	hsize = ct->dims[1] * 2;
	if (r == 3)
		hidden = xt->dims[2];
	else if (xt->dims[1] != DYN)
		hidden = xt->dims[1] * xt->dims[3];
	else if (heads > 0)
		hidden = heads * hsize;
	else
		return -1;
	if (rdim > 0 && heads > 0)
		hsize = hidden / heads;
	nheads = heads > 0 ? heads : hidden / hsize;
	if ((rdim > 0 && rdim != hsize) || ct->dims[1] * 2 != hsize || hsize <= 0 ||
			nheads * hsize != hidden || (r == 4 && xt->dims[3] != hsize))
		return -1;
	/* the position ids' shape is the input's (batch, seq) */
	for (i = 0; i < 2; i++) {
		int64_t xd = xt->dims[i == 0 ? 0 : r - 2];
		if (pt->dims[i] != DYN && xd != DYN && pt->dims[i] != xd)
			return -1;
	}
	Value *orig[3], *x4 = x, *sz[4], *dyn[4];
	if (r == 3) {
		for (i = 0; i < 3; i++)
			orig[i] = size_at(l, x, i);
		Value *nh = cst_idx(l, nheads), *hs = cst_idx(l, hsize);
		Value *v[4] = { orig[0], nh, orig[1], hs };
		d4[0] = xt->dims[0];
		d4[1] = nheads;
		d4[2] = xt->dims[1];
		d4[3] = hsize;
		Value *shape = shape_of(l, 4, v);
		x4 = emit1(l, "tensor.reshape", 2, (Value *[]){ x, shape }, ty_tensor(l->c, 4, d4, e));
	}
	Type *t4 = x4->type;
	for (i = 0; i < 4; i++) {
		sz[i] = NULL;
		if (t4->dims[i] != DYN)
			continue;
		Value *o[2] = { x4, cst_idx(l, i) };
		dyn[k++] = sz[i] = emit1(l, "tensor.dim", 2, o, ty_index(l->c));
	}
	for (i = 0; i < 2; i++) {
		int xi = i == 0 ? 0 : 2;
		if (pt->dims[i] != DYN && t4->dims[xi] != DYN)
			continue;
		Value *a = sz[xi] ? sz[xi] : cst_idx(l, t4->dims[xi]);
		Value *o[2] = { pos, cst_idx(l, i) };
		Value *b = emit1(l, "tensor.dim", 2, o, ty_index(l->c));
		Op *as = emit(l, "cf.assert", 1, (Value *[]){ cmpi(l, "eq", b, a) }, 0, NULL);
		op_set_attr(l->c, as, "msg", at_str(l->c,
			"position_ids must have the input's batch and sequence sizes"));
	}
	Value *out = fill(l, cst_f(l, 0, e), emit1(l, "tensor.empty", k, dyn, t4));
	Value *one = cst_f(l, 1, e), *mone = cst_f(l, -1, e);
	Value *c2 = cst_idx(l, 2), *c1 = cst_idx(l, 1), *crot = cst_idx(l, hsize);
	Value *chalf = cst_idx(l, hsize / 2);
	AffMap *maps[3] = { map_id(l, 4), map_sel(l, 4, 2, (const int[]){ 0, 2 }), map_id(l, 4) };
	Value *ins[2] = { x4, pos }, *idx[4], *ci, *sg, *j;
	Gen g;
	gen_begin(l, &g, 2, ins, 1, &out, maps, 4, "pppp");
	for (i = 0; i < 4; i++)
		idx[i] = lindex(l, i);
	if (inter) {
		ci = bin(l, "arith.remsi", bin(l, "arith.divsi", idx[3], c2), chalf);
		sg = emit1(l, "arith.trunci", 1, (Value *[]){ bin(l, "arith.andi", idx[3], c1) },
			ty_int(l->c, 1, SIGNLESS));
		j = sel(l, sg, bin(l, "arith.subi", idx[3], c1), bin(l, "arith.addi", idx[3], c1));
	} else {
		ci = bin(l, "arith.remsi", idx[3], chalf);
		sg = cmpi(l, "sge", idx[3], chalf);
		j = bin(l, "arith.remsi", bin(l, "arith.addi", idx[3], chalf), crot);
	}
	Value *p = emit1(l, "arith.index_cast", 1, &g.arg[1], ty_index(l->c));
	Value *cv_ = emit1(l, "tensor.extract", 3, (Value *[]){ cosc, p, ci }, e);
	Value *sv = emit1(l, "tensor.extract", 3, (Value *[]){ sinc, p, ci }, e);
	Value *rv = emit1(l, "tensor.extract", 5, (Value *[]){ x4, idx[0], idx[1], idx[2], j }, e);
	Value *m = sel(l, sg, one, mone);
	Value *oi = bin(l, "arith.mulf", g.arg[0], cv_);
	Value *oj = bin(l, "arith.mulf", bin(l, "arith.mulf", rv, sv), m);
	Value *y = bin(l, "arith.addf", oi, oj);
	out = gen_end(l, &g, 1, &y);
	if (scale != 1.0) {
		Value *sc = cst_f(l, scale, e);
		Value *so = emit1(l, "tensor.empty", k, dyn, t4);
		AffMap *m2[2] = { map_id(l, 4), map_id(l, 4) };
		gen_begin(l, &g, 1, &out, 1, &so, m2, 4, "pppp");
		y = bin(l, "arith.mulf", g.arg[0], sc);
		out = gen_end(l, &g, 1, &y);
	}
	if (r == 3) {
		Value *v[3] = { orig[0], orig[1], orig[2] };
		Value *shape = shape_of(l, 3, v);
		out = emit1(l, "tensor.reshape", 2, (Value *[]){ out, shape }, bt);
	}
	set(l, RES(op, 0), out);
	return 0;
}

/* any.dim / all.dim of a bool tensor, as torch-mlir's reductions: every
 * size by tensor.dim, an init of false (true) sized by the kept dims (1
 * for the reduced one with keepdim), ori (andi) of each element into it */
static int
lower_bool_anydim(L *l, Op *op, const void *arg)
{
	Type *d = dtype_of(l, OPND(op, 0));
	Value *x = get(l, OPND(op, 0)), *sz[TY_MAXRANK], *dyn[TY_MAXRANK], *out, *y;
	int any = op_is(op, "torch.aten.any.dim"), r, dim, i, n = 0, k = 0, keep;
	int64_t dims[TY_MAXRANK];
	AffExpr *re[TY_MAXRANK];
	char it[TY_MAXRANK + 1];
	AffMap *maps[2];
	Gen g;

	if (!d || !dt_isbool(d) || op->res[0].type->elem != d || !x->type->ranked ||
			(r = x->type->rank) < 1 || !tv_bool(OPND(op, 2), &keep) ||
			(dim = (int)tt_dim(tv_ival(OPND(op, 1)), r)) < 0)
		return by_table(l, op, arg);
	Value *init = cst_i(l, !any, ty_int(l->c, 1, SIGNLESS));
	cst_idx(l, 1);   /* torch-mlir's size of a kept reduced dim, folded */
	for (i = 0; i < r; i++) {
		Value *o[2] = { x, cst_idx(l, i) };
		sz[i] = emit1(l, "tensor.dim", 2, o, ty_index(l->c));
	}
	for (i = 0; i < r; i++) {
		it[i] = i == dim ? 'r' : 'p';
		if (i == dim && !keep)
			continue;
		if (i == dim) {
			re[n] = c_(l, 0);
			dims[n++] = 1;
			continue;
		}
		re[n] = d_(l, i);
		dims[n++] = DYN;
		dyn[k++] = sz[i];
	}
	it[r] = 0;
	out = fill(l, init, emit1(l, "tensor.empty", k, dyn, tensor_of(l->c, n, dims, d)));
	maps[0] = map_id(l, r);
	maps[1] = map_of(l, r, n, re);
	gen_begin(l, &g, 1, &x, 1, &out, maps, r, it);
	y = bin(l, any ? "arith.ori" : "arith.andi", g.arg[0], g.arg[1]);
	set(l, RES(op, 0), gen_end(l, &g, 1, &y));
	return 0;
}

static const Row rows[] = {
	{"torch.aten.any.dim", lower_bool_anydim, NULL},
	{"torch.aten.all.dim", lower_bool_anydim, NULL},
	{"torch.aten.full", lower_full_any, NULL},
	{"torch.onnx.rotary_embedding", lower_rotary, NULL},
	{"torch.aten.max.dim", lower_int_maxdim, NULL},
	{"torch.aten.min.dim", lower_int_maxdim, NULL},
	{NULL, NULL, NULL},
};

const Row *
pass_basic_lookup(const char *name)
{
	return row_find(rows, name);
}

/* rows whose lowering reads scalars that are not constants */
int
pass_basic_reads_scalars(const Row *r)
{
	return r && r->fn == lower_full_any;
}
