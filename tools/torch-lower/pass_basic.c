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

static int
by_table(L *l, Op *op, const void *arg)
{
	const Row *r = lower_lookup(op->name);

	return r ? r->fn(l, op, r->arg) : -1;
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
			!btensor(l->c, op->res[1].type))
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

static const Row rows[] = {
	{"torch.aten.full", lower_full_any, NULL},
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
	return r == &rows[0];
}
