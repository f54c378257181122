/*
 * viewdtype.c - aten.view.dtype: the same bytes read as another dtype.
 * The same width is one arith.bitcast an element; a dtype k times
 * narrower splits each element into its k pieces, the least significant
 * first (little-endian, as eager's memory holds them), over [..., n, k]
 * then collapsed to [..., n*k].  A wider dtype, a bool result and a 0-dim
 * operand of another width are refused.
 */
#include "lower.h"

/* bits a dtype's element takes in memory; 0 for none we read */
static int
bits(Type *d)
{
	if (!d)
		return 0;
	if (dt_isbool(d))
		return 8;
	switch (d->kind) {
	case TY_INT: return d->width;
	case TY_F16: case TY_BF16: return 16;
	case TY_F32: return 32;
	case TY_F64: return 64;
	default: return 0;
	}
}

/* v (builtin type of din) as the signless integer of its width */
static Value *
as_int(L *l, Value *v, Type *din, int w)
{
	Type *it = ty_int(l->c, w, SIGNLESS);

	if (dt_isbool(din))
		return emit1(l, "arith.extui", 1, &v, it);
	if (dt_isfloat(din))
		return emit1(l, "arith.bitcast", 1, &v, it);
	return v;
}

/* the integer i (width of dout) as dout's builtin type */
static Value *
from_int(L *l, Value *i, Type *dout)
{
	Type *bt = belem(l->c, dout);

	return dt_isfloat(dout) ? emit1(l, "arith.bitcast", 1, &i, bt) : i;
}

int
lower_view_dtype(L *l, Op *op, const void *arg)
{
	Type *rtt = op->res[0].type, *bt = btensor(l->c, rtt), *st = ttype(l, OPND(op, 0));
	Type *din = dtype_of(l, OPND(op, 0)), *dout = rtt->elem, *mid;
	int win = bits(din), wout = bits(dout), r, k, i;
	Value *in = get(l, OPND(op, 0)), *out, *v, *sh;
	int64_t dims[16];
	AffMap *maps[2];
	AffExpr *e[16];
	Gen g;

	if (!bt || !ty_static(bt) || !st->ranked || !ty_static(st) || !win || !wout
	    || dt_isbool(dout)) {
		op_error(op, "torch-lower: '%s' needs static shapes and an int or float result",
			op->name);
		return -1;
	}
	r = st->rank;
	if (win == wout) {
		if (bt->rank != r) {
			op_error(op, "torch-lower: '%s' result shape does not fit its operand", op->name);
			return -1;
		}
		if (!(out = empty(l, bt, NULL)))
			return -1;
		maps[0] = maps[1] = map_id(l, r);
		gen_begin(l, &g, 1, &in, 1, &out, maps, r, NULL);
		v = from_int(l, as_int(l, g.arg[0], din, win), dout);
		set(l, RES(op, 0), gen_end(l, &g, 1, &v));
		return 0;
	}
	k = win / wout;
	if (wout > win || win % wout || r < 1 || r >= 15 || bt->rank != r
	    || bt->dims[r - 1] != st->dims[r - 1] * k) {
		op_error(op, "torch-lower: '%s' to a wider dtype or from a 0-dim operand is not supported",
			op->name);
		return -1;
	}
	for (i = 0; i < r; i++) {
		dims[i] = st->dims[i];
		e[i] = d_(l, i);
	}
	dims[r] = k;
	mid = tensor_of(l->c, r + 1, dims, dout);
	if (!(out = empty(l, mid, NULL)))
		return -1;
	maps[0] = map_of(l, r + 1, r, e);
	maps[1] = map_id(l, r + 1);
	gen_begin(l, &g, 1, &in, 1, &out, maps, r + 1, NULL);
	{
		Type *it = ty_int(l->c, win, SIGNLESS);
		Value *x = as_int(l, g.arg[0], din, win), *m[2];
		m[0] = from_index(l, lindex(l, r), it);
		m[1] = cst_i(l, wout, it);
		sh = emit1(l, "arith.muli", 2, m, it);
		m[0] = x, m[1] = sh;
		x = emit1(l, "arith.shrui", 2, m, it);
		x = emit1(l, "arith.trunci", 1, &x, ty_int(l->c, wout, SIGNLESS));
		v = from_int(l, x, dout);
	}
	v = gen_end(l, &g, 1, &v);
	if (!(v = reshape_to(l, v, bt)))
		return -1;
	set(l, RES(op, 0), v);
	return 0;
}
