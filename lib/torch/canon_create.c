/*
 * canon_create.c - constant tensors made or reshaped from constants:
 * dtype conversions of literals;
 * views and reshapes of literals (the row-major data is unchanged), and
 * broadcasts of splats.  A value that the result dtype cannot hold
 * exactly, or whose conversion PyTorch leaves undefined (a float out of
 * an int dtype's range, NaN to an int), is not folded.
 *
 * ones, zeros and full are not made literals here (torch-mlir does): the
 * decompositions emit them on purpose and the backends fill them best.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "canon.h"

/* The static vtensor result of op with a known dtype, or NULL. */
static Type *
static_result(Op *op)
{
	Type *t = RES(op, 0)->type;

	if (t->kind != TY_TORCH_VTENSOR || !ty_static(t) || !tt_dtype(t)
	    || ty_numel(t) > (1 << 16))
		return NULL;
	return t;
}

/* v converted from its dtype to d as PyTorch's casts do, when defined
 * and done in one rounding. */
static int
convert(Ctx *c, Num v, const Type *from, const Type *d, Num *out)
{
	double f = ct_f(v);

	*out = v;
	if (d->kind == TY_INT && d->width == 1) {
		*out = (Num){0, v.isf ? f != 0 : v.i != 0, 0};
		return 1;
	}
	if (ty_isfloat(d)) {
		out->isf = 1;
		/* c10's Half and BFloat16 convert from a double or an int
		 * through float: round twice as it does */
		if ((from->kind == TY_F64 || !v.isf) && d->kind != TY_F32 && d->kind != TY_F64)
			f = fp_round(f, ty_float(c, TY_F32));
		out->f = fp_round(f, d);
		return v.isf || (v.i <= (1LL << 53) && v.i >= -(1LL << 53));
	}
	if (!v.isf) {
		out->i = ct_wrap(d, v.i);
		return 1;
	}
	f = trunc(f);
	if (!(f >= -0x1p63 && f < 0x1p63) || !ct_fits(d, (int64_t)f))
		return 0;
	*out = (Num){0, (int64_t)f, 0};
	return 1;
}

/* to.dtype and friends of a literal (the result type says the dtype) */
static int
to_dtype(Ctx *c, Op *op)
{
	Type *t = static_result(op), *d, *from;
	Src s;
	int64_t n, k;
	size_t esz;
	uint8_t *buf;
	Num v;

	if (!t || !ct_src(OPND(op, 0), &s) || !s.a || s.t->rank != t->rank
	    || ty_numel(s.t) != ty_numel(t))
		return 0;
	d = tt_dtype(t), from = tt_dtype(s.t);
	n = s.a->splat ? 1 : ty_numel(t);
	esz = elem_size(d);
	buf = xmalloc(mulsz(n ? n : 1, esz));
	for (k = 0; k < n; k++) {
		if (!convert(c, ct_at(&s, k), from, d, &v)) {
			free(buf);
			return 0;
		}
		ct_put(buf + k * esz, d, v);
	}
	return canon_value(op, ct_literal(c, op, t, buf, n * esz));
}

/* A view or reshape of a literal: the same elements in the same order;
 * a broadcast of a splat: the splat. */
static int
reshape(Ctx *c, Op *op)
{
	Type *t = static_result(op);
	Src s;
	size_t nb, esz;
	const uint8_t *p;
	uint8_t *buf;
	int bcast = strstr(op->name, "expand") || strstr(op->name, "broadcast_to");

	if (!t || !ct_src(OPND(op, 0), &s) || !s.a || tt_dtype(s.t) != tt_dtype(t)
	    || (!s.a->splat && (bcast || ty_numel(s.t) != ty_numel(t))))
		return 0;
	esz = elem_size(tt_dtype(t));
	p = dense_bytes(s.a, &nb);
	nb = s.a->splat ? esz : (size_t)ty_numel(t) * esz;
	buf = xmalloc(nb ? nb : 1);
	memcpy(buf, p, nb);
	return canon_value(op, ct_literal(c, op, t, buf, nb));
}

const CanonRule canon_create_rules[] = {
	{"torch.aten.to.dtype", to_dtype},
	{"torch.aten.to.dtype_layout", to_dtype},
	{"torch.aten._to_copy", to_dtype},
	{"torch.prims.convert_element_type", to_dtype},
	{"torch.aten.view", reshape},
	{"torch.aten.reshape", reshape},
	{"torch.aten._unsafe_view", reshape},
	{"torch.aten.squeeze", reshape},
	{"torch.aten.squeeze.dim", reshape},
	{"torch.aten.unsqueeze", reshape},
	{"torch.aten.flatten.using_ints", reshape},
	{"torch.aten.expand", reshape},
	{"torch.aten.broadcast_to", reshape},
	{NULL, NULL},
};
