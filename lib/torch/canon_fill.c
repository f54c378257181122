/*
 * canon_fill.c - forms torch-mlir's canonicalizer makes that torch-opt's
 * default pipeline does not want (it runs canonicalize{torch-mlir-forms=0},
 * which leaves them).
 *
 * ones, zeros and full of constant sizes as splat literals, as
 * torch-mlir's folders make them:
 *
 *   ones(size...) / zeros(size...)  -> literal(dense<1 or 0>)
 *   full(size, v...)                -> literal(dense<v>)
 *
 * when the sizes are constant ints equal to the static dims of the
 * result, whose dtype (the one the result type names, as the lowering
 * uses) is an int, bool or real float dtype.  full folds only a value
 * that the dtype holds exactly as PyTorch fills it: an int constant
 * into an int dtype that holds it (bool: 0 or 1), a float constant
 * into a float dtype that holds it after one rounding (f32, f64), or
 * exactly (f16, bf16, whose fill PyTorch rounds twice), or an infinity
 * or NaN; an int into a float tensor, a float into an int one and a
 * finite value beyond the dtype's range (PyTorch raises) stay.
 *
 * The default pipeline keeps the creation ops: the backends fill them,
 * where a splat constant that is returned or not fused into its users
 * becomes a global the size of the tensor in the module.
 *
 * _int_mm(a, b) -> mm(a, b) of the same si32 result type, for si8
 * operands (what _int_mm takes): linalg's matmul widens the operands to
 * the result's element type, so the products sum in int32 as _int_mm's
 * do.  The default pipeline keeps _int_mm: mm's own dtype rule (its
 * operands') would refuse the si32 result.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "canon.h"

int torch_canon_mlir_forms = 1;

/* The value to fill with, as the dtype d holds it; 0 when unsure. */
static int
fill_value(Value *v, Type *d, Num *out)
{
	Attr *a = value_const(v);
	double f;

	if (!a)
		return 0;
	if (v->type->kind == TY_TORCH_INT && a->kind == AT_INT && !ty_isfloat(d)) {
		*out = (Num){0, a->i, 0};
		return d->width == 1 ? a->i == 0 || a->i == 1 : ct_fits(d, a->i);
	}
	if (v->type->kind != TY_TORCH_FLOAT || a->kind != AT_FLOAT || !ty_isfloat(d))
		return 0;
	f = a->f;
	*out = (Num){1, 0, f};
	if (!isfinite(f))
		return 1;
	if (ct_float_dt(d))
		return d->width == 64 || fabs(f) <= 0x1.fffffep127;
	return fp_round(f, d) == f;
}

static int
fill(Ctx *c, Op *op)
{
	Type *rt = RES(op, 0)->type, *d = tt_dtype(rt);
	int64_t dims[16];
	Num v = {0, 0, 0};
	uint8_t *p;
	int n;

	if (!torch_canon_mlir_forms || rt->kind != TY_TORCH_VTENSOR || !d || !ty_static(rt)
	    || (d->kind != TY_INT && !ty_isfloat(d)) || rt->rank > 16)
		return 0;
	n = tv_ints(OPND(op, 0), dims, 16);
	if (n != rt->rank || !dims_eq(dims, rt->dims, n))
		return 0;
	if (op_is(op, "torch.aten.full")) {
		if (!fill_value(OPND(op, 1), d, &v))
			return 0;
	}
	else
		v.i = op_is(op, "torch.aten.ones");
	if (!(p = calloc(1, elem_size(d))))
		return 0;
	ct_put(p, d, v);
	return canon_value(op, ct_literal(c, op, rt, p, elem_size(d)));
}

static int
int_mm(Ctx *c, Op *op)
{
	Type *a = tt_dtype(OPND(op, 0)->type), *b = tt_dtype(OPND(op, 1)->type);
	Type *r = tt_dtype(RES(op, 0)->type);
	Type *rt = RES(op, 0)->type;

	if (!torch_canon_mlir_forms || rt->kind != TY_TORCH_VTENSOR || !a || !b || !r
	    || a->kind != TY_INT || a->width != 8 || a->sign != SIGNED || b != a
	    || r->kind != TY_INT || r->width != 32 || r->sign != SIGNED)
		return 0;
	return canon_value(op, canon_op(c, op, "torch.aten.mm", 2,
		(Value *[]){ OPND(op, 0), OPND(op, 1) }, rt));
}

const CanonRule canon_fill_rules[] = {
	{"torch.aten.ones", fill},
	{"torch.aten.zeros", fill},
	{"torch.aten.full", fill},
	{"torch.aten._int_mm", int_mm},
	{NULL, NULL},
};
