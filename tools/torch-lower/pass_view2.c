/*
 * pass_view2.c - convert-torch-to-linalg's own rows (view2 helper): forms
 * of torch-mlir's TorchToLinalg data movement that the torch-lower tool
 * does not take, for the pass only.
 *
 * transpose.int of a tensor with dynamic dims: a tensor.empty sized by
 * the input's dims (swapped), cast to the result type where that
 * differs, a linalg.transpose, a cast to the result type.
 *
 * broadcast_to with sizes known only at run time, as torch-mlir's
 * broadcastToGivenShape: each new leading dim is its size (asserted
 * >= 0); a static 1 broadcasts to the size (a negative size keeps 1); a
 * constant -1 keeps the input's dim; another size is the dim's size
 * (asserted >= 0; where the input's dim is static and not 1, asserted
 * equal to it, and where it is dynamic, asserted equal to it or 1, as
 * PyTorch requires: torch-mlir leaves these two unchecked and would read
 * out of bounds).  Without a dynamic input dim that may broadcast (or
 * under strict symbolic shapes, which elide every assert and take a
 * dynamic dim as not broadcast) a generic copies over the kept dims, the
 * broadcast ones collapsed away; otherwise one generic over the output
 * extracts each element, index 0 on a dim whose run-time size is 1.
 */
#include <stdint.h>
#include <string.h>

#include "lower.h"
#include "pass.h"

static int
strict(L *l)
{
	Op *fn = block_parent_op(l->op->parent);

	return fn && op_attr(fn, "torch.assume_strict_symbolic_shapes");
}

static Value *
dim_of(L *l, Value *x, int i)
{
	Value *o[2] = { x, cst_idx(l, i) };

	return emit1(l, "tensor.dim", 2, o, ty_index(l->c));
}

static int
lower_transpose_dyn(L *l, Op *op, const void *arg)
{
	Type *st = OPND(op, 0)->type, *bt = btensor(l->c, op->res[0].type);
	int64_t a, b, perm[TY_MAXRANK], dims[TY_MAXRANK];
	Value *dyn[TY_MAXRANK];
	int r, i, n = 0;

	if (!bt || !st->ranked || ty_static(st) || st->rank < 2 || bt->rank != st->rank)
		return lower_transpose(l, op, arg);
	r = st->rank;
	if (!tv_int(OPND(op, 1), &a) || !tv_int(OPND(op, 2), &b) ||
			(a = tt_dim(a, r)) < 0 || (b = tt_dim(b, r)) < 0)
		return -1;
	Value *x = get(l, OPND(op, 0));
	for (i = 0; i < r; i++)
		perm[i] = i == a ? b : i == b ? a : i;
	for (i = 0; i < r; i++) {
		dims[i] = st->dims[perm[i]];
		if (dims[i] == DYN)
			dyn[n++] = dim_of(l, x, (int)perm[i]);
	}
	Type *et = tensor_of(l->c, r, dims, st->elem);
	for (i = 0; i < r; i++)
		if (bt->dims[i] != DYN && dims[i] != DYN && bt->dims[i] != dims[i])
			return -1;
	Value *out = emit1(l, "tensor.empty", n, dyn, et);
	if (et != bt)
		out = emit1(l, "tensor.cast", 1, &out, bt);
	Value *o[2] = { x, out };
	Op *t = emit(l, "linalg.transpose", 2, o, 1, &bt);
	op_set_attr(l->c, t, "permutation", at_dense_array(l->c,
		ty_int(l->c, 64, SIGNLESS), r, perm));
	set(l, RES(op, 0), RES(t, 0));   /* the pass casts it to the result type */
	return 0;
}

/* broadcast_to whose sizes are not all constants (see the header);
 * constant sizes are pass_view.c's */
static int
lower_broadcast_dyn(L *l, Op *op, const void *arg)
{
	Value *sz[TY_MAXRANK], *outs[TY_MAXRANK], *s[TY_MAXRANK];
	Type *st = OPND(op, 0)->type, *bt = btensor(l->c, op->res[0].type);
	Type *i64 = ty_int(l->c, 64, SIGNLESS), *ix = ty_index(l->c);
	int n = list_vals(OPND(op, 1), sz, TY_MAXRANK), r, diff, i, j, consts = 1;
	int bcast[TY_MAXRANK] = {0}, numpy = 0, any = 0, nd = 0, ng = 0;
	int64_t k[TY_MAXRANK];

	for (i = 0; i < n; i++)
		if (!tv_int(sz[i], &k[i]))
			consts = 0;
	if (n < 0 || consts)
		return pass_view_broadcast_to(l, op, arg);
	if (!bt || !st->ranked || n != bt->rank || n < st->rank)
		return -1;
	r = st->rank;
	diff = n - r;
	int el = strict(l);
	Value *x = get(l, OPND(op, 0)), *zero = cst_i(l, 0, i64);
	for (i = 0; i < n; i++) {
		if (sz[i]->type->kind != TY_TORCH_INT)
			return -1;
		s[i] = tv_int(sz[i], &k[i]) ? cst_i(l, k[i], i64) :
			emit1(l, "torch_c.to_i64", 1, &sz[i], i64);
	}
	for (i = 0; i < n; i++) {
		j = i - diff;
		int64_t in = i >= diff ? st->dims[j] : 1, o = bt->dims[i];
		int dyn = i >= diff && in == DYN;
		Value *d = NULL;
#define D() (d ? d : (d = dim_of(l, x, j)))
		outs[i] = NULL;
		if (o != DYN) {
			if (i < diff)
				continue;
			if (dyn) {
				numpy = 1;
				if (!el) {
					Value *eq = cmpi(l, "eq", D(), cst_idx(l, o));
					Value *one = cmpi(l, "eq", D(), cst_idx(l, 1));
					emit_assert(l, bin(l, "arith.ori", eq, one),
						"mismatched size for broadcast");
				}
			} else if (in != o && in != 1)
				return -1;
			bcast[j] = in != o && !dyn;
			continue;
		}
		if (i < diff) {
			if (!el)
				emit_assert(l, cmpi(l, "sge", s[i], zero),
					"negative values not allowed in new dimensions");
			outs[i] = emit1(l, "arith.index_cast", 1, &s[i], ix);
			continue;
		}
		if (in == 1) {
			Value *c = emit1(l, "arith.index_cast", 1, &s[i], ix);
			outs[i] = sel(l, cmpi(l, "slt", s[i], zero), cst_idx(l, 1), c);
			bcast[j] = 1;
			continue;
		}
		if (tv_int(sz[i], &k[i]) && k[i] < 0) {
			outs[i] = dyn ? D() : cst_idx(l, in);
			continue;
		}
		if (tv_int(sz[i], &k[i]) && in != DYN && k[i] != in)
			return -1;
		outs[i] = emit1(l, "arith.index_cast", 1, &s[i], ix);
		numpy |= dyn;
		if (!el) {
			emit_assert(l, cmpi(l, "sge", s[i], zero),
				"unimplemented: dynamic negative broadcast sizes");
			Value *eq = cmpi(l, "eq", outs[i], dyn ? D() : cst_idx(l, in));
			if (dyn)
				eq = bin(l, "arith.ori", eq, cmpi(l, "eq", D(), cst_idx(l, 1)));
			emit_assert(l, eq, "mismatched size for broadcast");
		}
#undef D
	}
	Value *dv[TY_MAXRANK];
	for (i = 0; i < n; i++)
		if (outs[i])
			dv[nd++] = outs[i];
	Value *out = emit1(l, "tensor.empty", nd, dv, bt);
	Gen g;
	if (!numpy || el) {
		int start[TY_MAXRANK + 1];
		int64_t mid[TY_MAXRANK];
		AffExpr *e[TY_MAXRANK];
		for (j = 0; j < r; j++) {
			any |= bcast[j];
			if (bcast[j])
				continue;
			start[ng] = ng ? j : 0;
			mid[ng] = st->dims[j];
			e[ng++] = d_(l, j + diff);
		}
		start[ng] = r;
		if (!any && r == n) {
			set(l, RES(op, 0), emit1(l, "tensor.cast", 1, &x, bt));
			return 0;
		}
		if (any)
			x = expand_dims(l, x, tensor_of(l->c, ng, mid, st->elem),
				ng ? pass_view_groups(l->c, ng, start) : at_array(l->c, 0, NULL), 1);
		AffMap *maps[2] = { map_of(l, n, ng, e), map_id(l, n) };
		gen_begin(l, &g, 1, &x, 1, &out, maps, n, NULL);
		set(l, RES(op, 0), gen_end(l, &g, 1, &g.arg[0]));
		return 0;
	}
	AffMap *maps[1] = { map_id(l, n) };
	Value *idx[TY_MAXRANK];
	gen_begin(l, &g, 0, NULL, 1, &out, maps, n, NULL);
	for (j = 0; j < r; j++) {
		if (st->dims[j] == 1) {
			idx[j] = cst_idx(l, 0);
			continue;
		}
		Value *li = lindex(l, j + diff);
		Value *one = cmpi(l, "eq", dim_of(l, x, j), cst_idx(l, 1));
		idx[j] = sel(l, one, cst_idx(l, 0), li);
	}
	Value *ex[TY_MAXRANK + 1];
	ex[0] = x;
	memcpy(ex + 1, idx, sizeof *idx * r);
	Value *v = emit1(l, "tensor.extract", r + 1, ex, st->elem);
	set(l, RES(op, 0), gen_end(l, &g, 1, &v));
	return 0;
}

static const Row view2_rows[] = {
	{"torch.aten.transpose.int", lower_transpose_dyn, NULL},
	{"torch.aten.broadcast_to", lower_broadcast_dyn, NULL},
	{NULL, NULL, NULL},
};

const Row *
pass_view2_lookup(const char *name)
{
	return row_find(view2_rows, name);
}

/* broadcast_to reads its sizes at run time */
int
pass_view2_reads_scalars(const Row *r)
{
	return r == &view2_rows[1];
}
