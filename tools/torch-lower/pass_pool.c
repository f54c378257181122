/*
 * pass_pool.c - convert-torch-to-linalg's max pooling of float tensors with
 * dynamic shapes, in torch-mlir's form: the input padded with the lowest
 * value (-inf, or the lowest finite one under allow-non-finites=false)
 * by tensor.pad, the output sized (in + 2p - d(k-1) - 1) floordiv s + 1
 * at run time, filled with that value and reduced by linalg's named
 * pooling_ncw_max / pooling_nchw_max (arith.maximumf: NaN propagates, as
 * PyTorch's).  A 2-D pool of static shapes keeps torch-lower's lowering;
 * ceil_mode, integer dtypes and unbatched inputs are left to it or unlowered.
 * As torch-mlir, a padding past half the kernel (which PyTorch rejects) is
 * not checked: the pass lowers what torch-mlir's pattern lowers.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "lower.h"
#include "pass.h"

static double
lowest_finite(Type *d)
{
	switch (d->kind) {
	case TY_F16: return -65504.0;
	case TY_BF16: return -0x1.fep127;
	case TY_F32: return -0x1.fffffep127;
	default: return -DBL_MAX;
	}
}

static Value *
dim_of(L *l, Value *v, int i)
{
	Value *o[2] = { v, cst_idx(l, i) };

	return emit1(l, "tensor.dim", 2, o, ty_index(l->c));
}

/* (self, kernel_size, stride, padding, dilation, ceil_mode); arg: the
 * number of pooled dims */
int
lower_pass_maxpool(L *l, Op *op, const void *arg)
{
	Ctx *c = l->c;
	int nd = arg ? (int)(*(const char *)arg - '0') : 2, r = nd + 2, i, ceil, nk;
	Type *it = ttype(l, OPND(op, 0)), *rt = op->res[0].type, *e, *ix = ty_index(c);
	int64_t K[2], s[2], p[2], d[2], v[4], pd[4], od[4], lo[4] = {0}, hi[4] = {0};
	int64_t seg[3] = { 1, 0, 0 }, seg2[2] = { 2, 1 };
	Value *x = get(l, OPND(op, 0)), *neutral, *padded, *dyn[4], *win, *out;
	int ndyn = 0;

	if (op->nres != 1 || !it->ranked || it->rank != r || !rt->ranked || rt->rank != r ||
			!dt_isfloat(it->elem))
		return -1;
	if (nd == 2 && ty_static(it) && ty_static(rt))
		return lower_maxpool(l, op, NULL);
	if (!tv_bool(OPND(op, 5), &ceil) || ceil)
		return -1;
	if ((nk = tv_ints(OPND(op, 1), K, 2)) != nd)
		return -1;
	for (i = 2; i <= 4; i++) {
		int64_t *dst = i == 2 ? s : i == 3 ? p : d;
		int n = tv_ints(OPND(op, i), v, 2);
		if (n < 0 || n > nd || (n && n != 1 && n != nd))
			return -1;
		dst[0] = n ? v[0] : i == 2 ? K[0] : i == 3 ? 0 : 1;
		dst[1] = n > 1 ? v[1] : n ? v[0] : i == 2 ? K[1 % nd] : i == 3 ? 0 : 1;
	}
	for (i = 0; i < nd; i++)
		if (K[i] < 1 || s[i] < 1 || d[i] < 1 || p[i] < 0 || K[i] > INT32_MAX ||
				s[i] > INT32_MAX || d[i] > INT32_MAX || p[i] > INT32_MAX)
			return -1;
	e = belem(c, it->elem);
	neutral = cst_f(l, l->finite ? lowest_finite(it->elem) : -INFINITY, e);
	for (i = 0; i < r; i++) {
		int64_t q = i < 2 ? 0 : p[i - 2];
		lo[i] = hi[i] = q;
		pd[i] = it->dims[i] < 0 ? -1 : it->dims[i] + 2 * q;
	}
	Type *pt = ty_tensor(c, r, pd, e);
	Op *pad = op_new(c, "tensor.pad", 1, &x, 1, &pt, 1, op->loc);
	if (l->blk)
		op_append(l->blk, pad);
	else
		op_insert_before(l->before, pad);
	op_set_attr(c, pad, "static_low", at_dense_array(c, ty_int(c, 64, SIGNLESS), r, lo));
	op_set_attr(c, pad, "static_high", at_dense_array(c, ty_int(c, 64, SIGNLESS), r, hi));
	op_set_attr(c, pad, "operand_segment_sizes",
		at_dense_array(c, ty_int(c, 32, SIGNLESS), 3, seg));
	Block *b = block_new(c);
	region_append(&pad->regs[0], b);
	for (i = 0; i < r; i++)
		block_add_arg(c, b, ix, op->loc);
	op_append(b, op_new(c, "tensor.yield", 1, &neutral, 0, NULL, 0, op->loc));
	padded = RES(pad, 0);
	for (i = 0; i < r; i++) {
		int64_t k = i < 2 ? 0 : d[i - 2] * (K[i - 2] - 1) + 1 - 2 * p[i - 2];
		int64_t st = i < 2 ? 1 : s[i - 2];
		if (it->dims[i] >= 0) {
			if (it->dims[i] < k)
				return -1;
			od[i] = i < 2 ? it->dims[i] : (it->dims[i] - k) / st + 1;
			if (rt->dims[i] >= 0 && rt->dims[i] != od[i])
				return -1;
			continue;
		}
		od[i] = -1;
		dyn[ndyn] = dim_of(l, x, i);
		if (i >= 2) {
			dyn[ndyn] = bin(l, "arith.subi", dyn[ndyn], cst_idx(l, k));
			dyn[ndyn] = bin(l, "arith.floordivsi", dyn[ndyn], cst_idx(l, st));
			dyn[ndyn] = bin(l, "arith.addi", dyn[ndyn], cst_idx(l, 1));
		}
		ndyn++;
	}
	Type *ot = ty_tensor(c, r, od, e);
	out = fill(l, neutral, emit1(l, "tensor.empty", ndyn, dyn, ot));
	win = emit1(l, "tensor.empty", 0, NULL, ty_tensor(c, nd, K, e));
	Value *ops[3] = { padded, win, out };
	Op *pl = emit(l, nd == 1 ? "linalg.pooling_ncw_max" : "linalg.pooling_nchw_max", 3, ops,
		1, &ot);
	op_set_attr(c, pl, "dilations", window_attr(c, nd, d));
	op_set_attr(c, pl, "strides", window_attr(c, nd, s));
	op_set_attr(c, pl, "operand_segment_sizes",
		at_dense_array(c, ty_int(c, 32, SIGNLESS), 2, seg2));
	set(l, RES(op, 0), RES(pl, 0));
	return 0;
}
