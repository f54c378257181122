/*
 * decompose_lit2.c - torch-decompose-complex-ops' own rules: the forms
 * torch-mlir's DecomposeComplexOps gives, where they differ from ours.
 *
 * Only the pass torch-decompose-complex-ops (torch-mlir's name) reads this
 * table, and reads it first: a row here replaces the op's rule of the
 * other tables, and an op whose row refuses it stays as it is (as
 * torch-mlir's pass leaves it for its TorchToLinalg).  torch-decompose,
 * and so the default pipeline, never sees these rows.
 *
 *   diagonal, diag_embed, prims.collapse
 *                              left as they are (torch-mlir lowers them)
 *   diag(x, k)                 1-D x: diag_embed(x, k, -2, -1); 2-D x:
 *                              diagonal(x, k, 0, 1)
 *   addbmm(s, x, y, beta, alpha)  f32 only (else left): x [B,N,K]
 *                              permuted to [N,B,K] and collapsed to
 *                              [N,B*K], y [B,K,P] collapsed to [B*K,P],
 *                              one mm; then s*beta + alpha*mm
 *                              (mul.Scalar, add.Tensor), or alpha*mm
 *                              alone when beta is a constant 0 (eager
 *                              ignores s then, NaN included)
 *   repeat_interleave.Tensor, scaled_dot_product_attention
 *                              ours (a rule's -1) where torch-mlir's pass
 *                              decomposes them, else left
 *   broadcast_tensors          static shapes: an assert (true) per result
 *                              dimension, each tensor broadcast_to the
 *                              result shape
 *   one_hot(x, n)              n not constant: eq.Tensor(unsqueeze(x),
 *                              arange(n)) to si64, n >= 0 asserted
 *   fft_rfft(x)                2-D f32, static length: mm by the DFT
 *                              matrix, viewed as complex
 *   batch_norm, native_batch_norm  inference (training a constant
 *                              false, running stats given, only result
 *                              0 used): (x - mean) * rsqrt(var + eps)
 *                              * weight + bias, the per-channel tensors
 *                              viewed as [1, C, 1...]; f16 computes in
 *                              f32 and rounds once; else ours
 *
 * A rule returns 1 (done), 0 (the op stays) or -1 (the op's rule of the
 * other tables, as torch-decompose has it).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "decompose.h"

/* name's op of operands v and result type rt, before b->at */
static Value *
mk(B *b, const char *name, int n, Value *const *v, Type *rt)
{
	Op *o = op_new(b->c, intern(b->c, name), n, (Value **)v, 1, &rt, 0, b->loc);

	op_insert_before(b->at, o);
	return RES(o, 0);
}

static int
keep(B *b, Op *op)
{
	return 0;
}

static int
diag(B *b, Op *op)
{
	Value *v[4] = {OPND(op, 0), OPND(op, 1)};
	int r = tt_rank(v[0]->type);

	if (r == 1) {
		v[2] = d_int_before(b, op, -2), v[3] = d_int_before(b, op, -1);
		d_done(b, op, mk(b, "torch.aten.diag_embed", 4, v, RES(op, 0)->type));
	} else if (r == 2) {
		v[2] = d_int_before(b, op, 0), v[3] = d_int_before(b, op, 1);
		d_done(b, op, mk(b, "torch.aten.diagonal", 4, v, RES(op, 0)->type));
	} else
		return 0;
	return 1;
}

static int
is_f32(Value *v)
{
	Type *dt = tt_is(v->type) ? tt_dtype(v->type) : NULL;

	return dt && dt->kind == TY_F32;
}

static int64_t
prod(int64_t a, int64_t b)
{
	return a == DYN || b == DYN ? DYN : a * b;
}

static int
addbmm(B *b, Op *op)
{
	Value *s = OPND(op, 0), *x = OPND(op, 1), *y = OPND(op, 2), *res = RES(op, 0);
	Value *beta = OPND(op, 3), *alpha = OPND(op, 4), *v[3], *mm;
	Type *xt = x->type, *yt = y->type, *f32;
	int64_t d[3], bi;
	double bf;
	int zero;

	if (!is_f32(s) || !is_f32(x) || !is_f32(y) || !is_f32(res))
		return 0;
	if (tv_float(beta, &bf))
		zero = bf == 0;
	else if (tv_int(beta, &bi))
		zero = bi == 0;
	else
		return 0;
	if (tt_rank(xt) != 3 || tt_rank(yt) != 3)
		return 0;
	f32 = tt_dtype(res->type);
	v[0] = d_int_before(b, op, 0), v[1] = d_int_before(b, op, 1), v[2] = d_int_before(b, op, 2);
	Value *zero_, *one = v[1], *two = v[2];
	zero_ = v[0];
	Value *perm[3] = {one, zero_, two};
	d[0] = xt->dims[1], d[1] = xt->dims[0], d[2] = xt->dims[2];
	v[0] = x, v[1] = b_list(b, 3, perm);
	x = mk(b, "torch.aten.permute", 2, v, tt_vt(b->c, 3, d, f32));
	d[0] = xt->dims[1], d[1] = prod(xt->dims[0], xt->dims[2]);
	v[0] = x, v[1] = one, v[2] = two;
	x = mk(b, "torch.prims.collapse", 3, v, tt_vt(b->c, 2, d, f32));
	d[0] = prod(yt->dims[0], yt->dims[1]), d[1] = yt->dims[2];
	v[0] = y, v[1] = zero_, v[2] = one;
	y = mk(b, "torch.prims.collapse", 3, v, tt_vt(b->c, 2, d, f32));
	v[0] = x, v[1] = y;
	mm = mk(b, "torch.aten.mm", 2, v, res->type);
	if (zero) {
		v[0] = mm, v[1] = alpha;
		d_done(b, op, mk(b, "torch.aten.mul.Scalar", 2, v, res->type));
		return 1;
	}
	v[0] = s, v[1] = beta;
	v[0] = mk(b, "torch.aten.mul.Scalar", 2, v, s->type);
	v[1] = mm, v[2] = alpha;
	d_done(b, op, mk(b, "torch.aten.add.Tensor", 3, v, res->type));
	return 1;
}

/* repeat_interleave.Tensor: ours where torch-mlir's pass decomposes it
 * (repeats 1-D si32/si64, a constant output size equal to the static
 * result length, the [repeats, output] intermediate at most 2^20
 * elements); else left */
static int
repeat_interleave(B *b, Op *op)
{
	Type *rt = OPND(op, 0)->type, *ot = RES(op, 0)->type, *dt;
	int64_t n;

	if (tt_rank(rt) != 1 || tt_rank(ot) != 1 || !(dt = tt_dtype(rt)) || !tt_dtype(ot))
		return 0;
	if (dt->kind != TY_INT || (dt->width != 64 && dt->width != 32) || dt->sign != SIGNED)
		return 0;
	if (!tv_int(OPND(op, 1), &n) || rt->dims[0] == DYN || ot->dims[0] == DYN || n < 0
	    || n != ot->dims[0])
		return 0;
	if (n && rt->dims[0] > (1 << 20) / n)
		return 0;
	return -1;
}

/* broadcast_tensors of static tensors: an assert per dimension of the
 * result (its condition folded: the shapes are known compatible), each
 * tensor broadcast_to the result shape */
static int
broadcast_tensors(B *b, Op *op)
{
	Value **xs, *dims[TORCH_MAXRANK], *t, *c;
	int64_t d[TORCH_MAXRANK], nd[TORCH_MAXRANK];
	Type acc = {.kind = TY_TORCH_VTENSOR, .ranked = 1, .rank = 0, .dims = d};
	int i, n, r = 0;

	if (d_list_mutable(OPND(op, 0)) || (n = tv_list(OPND(op, 0), &xs)) < 1)
		return -1;
	for (i = 0; i < n; i++) {
		if (xs[i]->type->kind != TY_TORCH_VTENSOR || !ty_static(xs[i]->type)
		    || !tt_dtype(xs[i]->type) || (r = tt_broadcast(&acc, xs[i]->type, nd)) < 0) {
			free(xs);
			return -1;
		}
		memcpy(d, nd, (size_t)r * sizeof *d);
		acc.rank = r;
	}
	for (i = 0; i < r; i++)
		dims[i] = b_int(b, d[i]);
	t = b_bool(b, 1);
	for (i = 0; i < r; i++) {
		Op *a = op_new(b->c, intern(b->c, "torch.runtime.assert"), 1, &t, 0, NULL, 0, b->loc);
		op_set_attr(b->c, a, "message", at_str(b->c, "tensors are not broadcast compatible"));
		op_insert_before(b->at, a);
	}
	Value *shape = b_list(b, r, dims), *v[n];
	for (i = 0; i < n; i++) {
		Value *o[2] = {xs[i], shape};
		v[i] = mk(b, "torch.aten.broadcast_to", 2, o, tt_vt(b->c, r, d, tt_dtype(xs[i]->type)));
	}
	free(xs);
	Type *lt = RES(op, 0)->type;
	Op *l = op_new(b->c, intern(b->c, "torch.prim.ListConstruct"), n, v, 1, &lt, 0, b->loc);
	op_insert_before(b->at, l);
	c = RES(l, 0);
	d_done(b, op, c);
	return 1;
}

/* one_hot(x, n) with n not a constant (a constant n: ours): x unsqueezed
 * at its end, eq.Tensor against arange(0, n), to si64; n = -1 (eager
 * infers it from x) fails a runtime assert */
static int
one_hot(B *b, Op *op)
{
	Value *x = OPND(op, 0), *n = OPND(op, 1), *res = RES(op, 0), *v[7], *c[5];
	Type *bt = ty_torch(b->c, TY_TORCH_BOOL), *i64 = dt_i64(b->c);
	int64_t k, d[TORCH_MAXRANK];
	int r = tt_rank(x->type), i;

	if (tv_int(n, &k))
		return -1;
	if (r < 0 || r + 1 >= TORCH_MAXRANK || tt_dtype(x->type) != i64 || tt_rank(res->type) != r + 1
	    || tt_dtype(res->type) != i64)
		return 0;
	v[0] = n, v[1] = b_int(b, 0);
	Op *ge = op_new(b->c, intern(b->c, "torch.aten.ge.int"), 2, v, 1, &bt, 0, b->loc);
	op_insert_before(b->at, ge);
	v[0] = RES(ge, 0);
	Op *a = op_new(b->c, intern(b->c, "torch.runtime.assert"), 1, v, 0, NULL, 0, b->loc);
	op_set_attr(b->c, a, "message", at_str(b->c, "one_hot: num_classes must not be negative here"));
	op_insert_before(b->at, a);
	c[0] = b_bool(b, 0), c[1] = b_int(b, 4), c[2] = b_none(b), c[3] = b_int(b, 0), c[4] = b_int(b, 1);
	v[0] = c[3], v[1] = n, v[2] = c[4];
	for (i = 3; i < 7; i++)
		v[i] = c[2];
	k = DYN;
	Value *ar = mk(b, "torch.aten.arange.start_step", 7, v, tt_vt(b->c, 1, &k, i64));
	for (i = 0; i < r; i++)
		d[i] = x->type->dims[i];
	d[r] = 1;
	v[0] = x, v[1] = r == 1 ? c[4] : r == 0 ? c[3] : b_int(b, r);
	x = mk(b, "torch.aten.unsqueeze", 2, v, tt_vt(b->c, r + 1, d, i64));
	v[0] = x, v[1] = ar;
	x = mk(b, "torch.aten.eq.Tensor", 2, v, tt_vt(b->c, r + 1, res->type->dims, ty_int(b->c, 1, SIGNLESS)));
	v[0] = x, v[1] = c[1], v[2] = c[0], v[3] = c[0], v[4] = c[2];
	d_done(b, op, mk(b, "torch.aten.to.dtype", 5, v, res->type));
	return 1;
}

/* fft_rfft(x, None, dim, None) of a 2-D f32 x whose length n along dim is
 * static: x (transposed to put dim last) times the [n, 2(n/2+1)] DFT
 * matrix (columns 2k, 2k+1: cos and -sin of 2 pi i k / n), viewed as
 * [.., n/2+1, 2] and then complex (transposed back) */
static int
fft_rfft(B *b, Op *op)
{
	Value *x = OPND(op, 0), *res = RES(op, 0), *v[3], *two, *m, *t0 = NULL, *t1 = NULL;
	Type *xt = x->type, *f32 = tt_dtype(xt), *ct = tt_dtype(res->type);
	int64_t dim = -1, n, k, rows, d[3], i, j;
	float *w;

	if (!tv_none(OPND(op, 1)) || !tv_none(OPND(op, 3)) || !is_f32(x) || !ct || tt_rank(xt) != 2
	    || tt_rank(res->type) != 2)
		return 0;
	if (!tv_none(OPND(op, 2)) && !tv_int(OPND(op, 2), &dim))
		return 0;
	if (dim < -2 || dim > 1)
		return 0;
	dim = dim < 0 ? dim + 2 : dim;
	if ((n = xt->dims[dim]) == DYN || n < 1 || n > 4096)
		return 0;
	k = n / 2 + 1;
	rows = xt->dims[1 - dim];
	two = b_int(b, 2);
	v[0] = b_int(b, rows), v[1] = b_int(b, k);
	w = xmalloc((size_t)(n * 2 * k) * sizeof *w);
	for (i = 0; i < n; i++)
		for (j = 0; j < 2 * k; j++) {
			double a = 2 * 3.14159265358979323846 / (double)n * (double)i * (double)(j / 2);
			w[i * 2 * k + j] = (float)(j % 2 ? -sin(a) : cos(a));
		}
	d[0] = n, d[1] = 2 * k;
	Type *mt = tt_vt(b->c, 2, d, f32);
	Op *lit = op_new(b->c, intern(b->c, "torch.vtensor.literal"), 0, NULL, 1, &mt, 0, b->loc);
	op_set_attr(b->c, lit, "value", at_dense(b->c, ty_to_builtin(b->c, mt), w, (size_t)(n * 2 * k) * sizeof *w, 0));
	op_insert_before(b->at, lit);
	free(w);
	m = RES(lit, 0);
	if (dim == 0) {
		Value *o[3] = {x, t0 = d_int_before(b, op, 0), t1 = d_int_before(b, op, 1)};
		d[0] = xt->dims[1], d[1] = xt->dims[0];
		x = mk(b, "torch.aten.transpose.int", 3, o, tt_vt(b->c, 2, d, f32));
	}
	Value *o[2] = {x, m};
	d[0] = rows, d[1] = 2 * k;
	x = mk(b, "torch.aten.mm", 2, o, tt_vt(b->c, 2, d, f32));
	v[2] = two;
	o[0] = x, o[1] = b_list(b, 3, v);
	d[0] = rows, d[1] = k, d[2] = 2;
	x = mk(b, "torch.aten.view", 2, o, tt_vt(b->c, 3, d, f32));
	d[0] = rows, d[1] = k;
	x = mk(b, "torch.aten.view_as_complex", 1, &x, tt_vt(b->c, 2, d, ct));
	if (dim == 0) {
		Value *p[3] = {x, t0, t1};
		x = mk(b, "torch.aten.transpose.int", 3, p, res->type);
	}
	d_done(b, op, x);
	return 1;
}

/* scaled_dot_product_attention: ours only where torch-mlir's pass
 * decomposes it (no mask, dropout a constant 0, not causal, no GQA);
 * else left */
static int
sdpa(B *b, Op *op)
{
	double p;
	int causal, gqa;

	if (op->nopnds < 8 || !tv_none(OPND(op, 3)) || !tv_float(OPND(op, 4), &p) || p != 0
	    || !tv_bool(OPND(op, 5), &causal) || causal || !tv_bool(OPND(op, 7), &gqa) || gqa)
		return 0;
	return -1;
}

/* batch norm in inference mode, the invstd by rsqrt (ours divides the
 * weight by sqrt): torch-mlir's form */
static int
batch_norm_eval(B *b, Op *op)
{
	Value *x = OPND(op, 0), *w = OPND(op, 1), *bias = OPND(op, 2);
	Value *mean = OPND(op, 3), *var = OPND(op, 4), *inv, *y;
	Type *dt = tt_dtype(x->type), *f32;
	int r = tt_rank(x->type), t = 1;
	double eps;

	if (op->nopnds < 8 || !tv_bool(OPND(op, 5), &t) || t || r < 2 || !dt
	    || tv_none(mean) || tv_none(var) || !tv_float(OPND(op, 7), &eps)
	    || !d_unused_from(op, 1))
		return -1;
	f32 = dt->kind == TY_F16 ? ty_float(b->c, TY_F32) : NULL;
	if (f32) {
		x = d_to(b, x, f32), mean = d_to(b, mean, f32), var = d_to(b, var, f32);
		w = tv_none(w) ? w : d_to(b, w, f32);
		bias = tv_none(bias) ? bias : d_to(b, bias, f32);
	}
	inv = b_op3(b, "aten.add.Scalar", d_channel(b, var, r), b_float(b, eps), b_int(b, 1));
	inv = b_op1(b, "aten.rsqrt", inv);
	y = d_mul(b, d_sub(b, x, d_channel(b, mean, r)), inv);
	if (!tv_none(w))
		y = d_mul(b, y, d_channel(b, w, r));
	if (!tv_none(bias))
		y = d_add(b, y, d_channel(b, bias, r));
	d_done(b, op, f32 ? d_to(b, y, dt) : y);
	return 1;
}

const Decomp decomp_lit2[] = {
	{"aten.diagonal", keep}, {"aten.diag_embed", keep}, {"prims.collapse", keep},
	{"aten.diag", diag}, {"aten.addbmm", addbmm},
	{"aten.repeat_interleave.Tensor", repeat_interleave},
	{"aten.broadcast_tensors", broadcast_tensors}, {"aten.one_hot", one_hot},
	{"aten.fft_rfft", fft_rfft}, {"aten.scaled_dot_product_attention", sdpa},
	{"aten.batch_norm", batch_norm_eval}, {"aten.native_batch_norm", batch_norm_eval},
	{NULL, NULL},
};

const OpTable decomp_lit2_optables[] = {
	OPTABLE("decomposition", decomp_lit2, "torch."),
	{NULL},
};
