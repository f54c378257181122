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
 */
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

const Decomp decomp_lit2[] = {
	{"aten.diagonal", keep}, {"aten.diag_embed", keep}, {"prims.collapse", keep},
	{"aten.diag", diag}, {"aten.addbmm", addbmm},
	{NULL, NULL},
};

const OpTable decomp_lit2_optables[] = {
	OPTABLE("decomposition", decomp_lit2, "torch."),
	{NULL},
};
