/*
 * canon_lit.c - canonicalization of ops on constant tensors that
 * torch-mlir rewrites and that stay exact here:
 *
 *   pow.Tensor_Tensor(x, e) with e a 0-d f32/f64 literal of x's dtype
 *     -> pow.Tensor_Scalar(x, e as a float).  PyTorch computes both as
 *     pow(x, e) in x's dtype, except that its Tensor_Scalar kernel
 *     special-cases exponents 0.5, -0.5 and integral ones (sqrt, x*x...,
 *     which differ at -0, -inf or by rounding): those, and a non-finite
 *     e, stay.  (torch-mlir rewrites any one-element exponent; one of
 *     rank > 0 would also change the result's rank.)
 *   log of a splat literal whose value is 0 or 1 (bool, int or float):
 *     the splat -inf or 0, exact in any float dtype.  Other values are
 *     not folded: log is not correctly rounded in PyTorch's kernels.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "canon.h"

static int
pow_tensor_exponent(Ctx *c, Op *op)
{
	Value *e = OPND(op, 1);
	Type *d = tt_dtype(OPND(op, 0)->type);
	Src s;
	double f;
	B b;

	if (!d || !ct_float_dt(d) || !e->def || !op_is(e->def, "torch.vtensor.literal") ||
			!ct_src(e, &s) || !s.a || s.t->rank != 0 || tt_dtype(s.t) != d ||
			tt_dtype(RES(op, 0)->type) != d)
		return 0;
	f = ct_f(ct_at(&s, 0));
	if (!isfinite(f) || f == trunc(f) || f == 0.5 || f == -0.5)
		return 0;
	b = b_at(c, op);
	return canon_value(op, canon_op(c, op, "torch.aten.pow.Tensor_Scalar", 2,
		(Value *[]){ OPND(op, 0), b_float(&b, f) }, RES(op, 0)->type));
}

static int
log_splat(Ctx *c, Op *op)
{
	Type *rt = RES(op, 0)->type, *rd = tt_dtype(rt);
	Src s;
	Num v = {1, 0, 0};
	double f;
	uint8_t *p;

	if (!rd || !ct_float_dt(rd) || !ty_static(rt) || !ct_src(OPND(op, 0), &s) ||
			!s.a || !s.a->splat || !ty_static(s.t) || s.t->rank != rt->rank ||
			memcmp(s.t->dims, rt->dims, sizeof *rt->dims * (size_t)rt->rank))
		return 0;
	f = ct_f(ct_at(&s, 0));
	if (f != 0 && f != 1)
		return 0;
	v.f = f == 0 ? -INFINITY : 0.0;
	p = calloc(1, elem_size(rd));
	if (!p)
		return 0;
	ct_put(p, rd, v);
	return canon_value(op, ct_literal(c, op, rt, p, elem_size(rd)));
}

const CanonRule canon_lit_rules[] = {
	{"torch.aten.pow.Tensor_Tensor", pow_tensor_exponent},
	{"torch.aten.log", log_splat},
	{NULL, NULL},
};
