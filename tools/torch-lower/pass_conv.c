/*
 * pass_conv.c - convert-torch-to-linalg's own rows (conv helper): ops the
 * torch-lower tool does not lower, taken by the pass only.
 *
 * convolution (not transposed) of static float tensors, as torch-mlir's
 * pattern: the input padded with zeros by tensor.pad, the output made in
 * the accumulator type (f32 for f16, bf16 and f32; f64) by a linalg.fill
 * of 0 or a linalg.broadcast of the bias over all dims but 1, the input
 * and weight in their own dtype into linalg's named conv_1d_ncw_fcw,
 * conv_2d_nchw_fchw or conv_3d_ncdhw_fcdhw (groups 1) or, with groups
 * for 2 spatial dims, conv_2d_ngchw_gfchw on the input, weight and output
 * with the group split off (tensor.expand_shape, collapsed after), then
 * one conversion to the result's dtype.  The rest (transposed, dynamic,
 * integer, depthwise, 1-d or 3-d groups) keeps torch-lower's lowering.
 *
 * sym_constrain_range(size, min, max): min <= size <= max asserted at
 * run time (cf.assert), a missing bound being int64's extreme, as
 * torch-mlir's pattern; the op goes.  Bounds must be constants.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "lower.h"
#include "pass.h"

/* The torch_c.to_i64 of torch int v for op: one already made in op's
 * block, else a new one right after v's definition (first in the block
 * for an argument), as torch-mlir's conversion materializes it. */
static Value *
scalar_i64(L *l, Value *v, Op *op)
{
	Type *i64 = ty_int(l->c, 64, SIGNLESS);
	Use *u;
	Op *m;

	for (u = v->uses; u; u = u->next)
		if (op_is(u->owner, "torch_c.to_i64") && u->owner->parent == op->parent)
			return RES(u->owner, 0);
	m = op_new(l->c, "torch_c.to_i64", 1, &v, 1, &i64, 0, op->loc);
	if ((v->def ? v->def->parent : v->block) == op->parent)
		pass_place_after_def(m, v);
	else
		op_insert_before(op, m);
	return RES(m, 0);
}

static int
lower_sym_constrain_range(L *l, Op *op, const void *arg)
{
	int64_t lo = INT64_MIN, hi = INT64_MAX;
	Type *i64 = ty_int(l->c, 64, SIGNLESS);
	char msg[96];

	(void)arg;
	if (op->nopnds != 3 || OPND(op, 0)->type->kind != TY_TORCH_INT)
		return -1;
	if ((OPND(op, 1)->type->kind != TY_TORCH_NONE && !tv_int(OPND(op, 1), &lo)) ||
			(OPND(op, 2)->type->kind != TY_TORCH_NONE && !tv_int(OPND(op, 2), &hi)) ||
			hi < lo)
		return -1;
	Value *n = scalar_i64(l, OPND(op, 0), op);
	Value *min = cst_i(l, lo, i64), *max = cst_i(l, hi, i64);
	Value *ge = cmpi(l, "sle", min, n), *le = cmpi(l, "sle", n, max);
	Value *ok = bin(l, "arith.andi", ge, le);
	Op *a = emit(l, "cf.assert", 1, &ok, 0, NULL);
	snprintf(msg, sizeof msg, "Size constraint failed. Expected range: [%" PRId64 ", %" PRId64 "]",
		lo, hi);
	op_set_attr(l->c, a, "msg", at_str(l->c, msg));
	return 0;
}

/* (input, weight, bias, stride, padding, dilation, transposed,
 * output_padding, groups) */
/* t is static; for torch-lower on dynamic shapes, but for its dim 0
 * (the batch) */
static int
static_but_batch(L *l, Type *t)
{
	int i;

	if (!l->dyn || !t->ranked)
		return ty_static(t);
	for (i = 1; i < t->rank; i++)
		if (t->dims[i] == DYN)
			return 0;
	return 1;
}

static int
lower_conv_named(L *l, Op *op, const void *arg)
{
	Ctx *c = l->c;
	Type *it = ttype(l, OPND(op, 0)), *wt = ttype(l, OPND(op, 1)), *rt = op->res[0].type;
	Type *acc, *ie, *bt = NULL;
	int64_t s[3], p[3], d[3], G, od[TY_MAXRANK];
	int r, ns, i, tr;
	const char *nm;

	if (!it->ranked || !wt->ranked || !rt->ranked || !static_but_batch(l, it) ||
			!ty_static(wt) || !static_but_batch(l, rt) || !it->elem || it->elem != wt->elem ||
			!dt_isfloat(it->elem) || !dt_isfloat(rt->elem) ||
			!tv_bool(OPND(op, 6), &tr) || tr || !tv_int(OPND(op, 8), &G))
		return lower_conv(l, op, arg);
	r = it->rank;
	ns = r - 2;
	if (ns < 1 || ns > 3 || wt->rank != r || rt->rank != r || G < 1 ||
			tv_ints(OPND(op, 3), s, 3) != ns || tv_ints(OPND(op, 4), p, 3) != ns ||
			tv_ints(OPND(op, 5), d, 3) != ns)
		return lower_conv(l, op, arg);
	int64_t N = it->dims[0], C = it->dims[1], F = wt->dims[0];
	if (C != wt->dims[1] * G || F % G || rt->dims[0] != N || rt->dims[1] != F)
		return lower_conv(l, op, arg);
	if (G == 1)
		nm = ns == 1 ? "linalg.conv_1d_ncw_fcw" : ns == 2 ? "linalg.conv_2d_nchw_fchw" :
			"linalg.conv_3d_ncdhw_fcdhw";
	else if (ns == 2 && !(C == G && F == G))
		nm = "linalg.conv_2d_ngchw_gfchw";
	else
		return lower_conv(l, op, arg);
	if (G > 1 && l->dyn && lower_mlir_version == 16) {
		/* MLIR 16 has no grouped named conv; torch-lower's own form
		 * takes static shapes only */
		op_error(op, "torch-lower: a grouped convolution with a dynamic batch needs "
			"--mlir-dialect-version=19 or later (linalg.conv_2d_ngchw_gfchw)");
		return -1;
	}
	for (i = 0; i < ns; i++) {
		int64_t H = it->dims[2 + i] + 2 * p[i], k = d[i] * (wt->dims[2 + i] - 1) + 1;
		if (s[i] < 1 || d[i] < 1 || p[i] < 0 || H < k ||
				(H - k) / s[i] + 1 != rt->dims[2 + i])
			return lower_conv(l, op, arg);
	}
	if (!tv_none(OPND(op, 2))) {
		bt = ttype(l, OPND(op, 2));
		if (!bt->ranked || bt->rank != 1 || bt->dims[0] != F || !bt->elem ||
				!dt_isfloat(bt->elem))
			return lower_conv(l, op, arg);
	}
	ie = it->elem;
	acc = ie->kind == TY_F64 ? ie : ty_float(c, TY_F32);
	Value *x = pass_bwd_zero_pad(l, get(l, OPND(op, 0)), 2, p), *w = get(l, OPND(op, 1)), *out;
	if (!x)
		return -1;
	Value *init = empty(l, tensor_of(c, r, rt->dims, acc), get(l, OPND(op, 0)));
	if (!bt) {
		out = fill(l, cst_d(l, 0, acc), init);
	} else {
		Value *b = get(l, OPND(op, 2));
		int64_t dims[TY_MAXRANK];
		int n = 0;
		if (bt->elem != acc)
			b = convert_tensor(l, b, bt->elem, acc);
		for (i = 0; i < r; i++)
			if (i != 1)
				dims[n++] = i;
		Value *bo[2] = { b, init };
		Op *bc = emit(l, "linalg.broadcast", 2, bo, 1, &init->type);
		op_set_attr(c, bc, "dimensions", at_dense_array(c, ty_int(c, 64, SIGNLESS), n, dims));
		out = RES(bc, 0);
	}
	if (G > 1) {
		x = pass_bwd_split_group(l, x, 1, G);
		w = pass_bwd_split_group(l, w, 0, G);
		out = pass_bwd_split_group(l, out, 1, G);
		if (!x || !w || !out)
			return -1;
	}
	Value *v[3] = { x, w, out };
	Op *cv = emit(l, nm, 3, v, 1, &out->type);
	op_set_attr(c, cv, "dilations", window_attr(c, ns, d));
	op_set_attr(c, cv, "strides", window_attr(c, ns, s));
	op_set_attr(c, cv, "operand_segment_sizes",
		at_dense_array(c, ty_int(c, 32, SIGNLESS), 2, (int64_t[]){ 2, 1 }));
	out = RES(cv, 0);
	if (G > 1) {
		for (i = 0; i < r; i++)
			od[i] = rt->dims[i];
		out = pass_bwd_merge_group(l, out, tensor_of(c, r, od, acc), 1);
	}
	set(l, RES(op, 0), acc == rt->elem ? out : convert_tensor(l, out, acc, rt->elem));
	return 0;
}

static const Row rows[] = {
	{"torch.aten.convolution", lower_conv_named, NULL},
	{"torch.aten.sym_constrain_range", lower_sym_constrain_range, NULL},
	{NULL, NULL, NULL},
};

const Row *
pass_conv_lookup(const char *name)
{
	return row_find(rows, name);
}

/* rows whose lowering reads scalars that are not constants */
int
pass_conv_reads_scalars(const Row *r)
{
	return r->fn == lower_sym_constrain_range;
}
