/*
 * promote.c - torch dtypes and PyTorch's type promotion (c10's
 * promoteTypes and at::native::result_type): tensors with dimensions
 * decide over 0-dim tensors, which decide over Python scalars, unless the
 * lower group is of a higher category (bool < integer < floating).
 * A Python float is the default dtype (float32), an int is int64.
 */
#include "fold.h"
#include "torch.h"

Type *dt_f32(Ctx *c) { return ty_float(c, TY_F32); }
Type *dt_f64(Ctx *c) { return ty_float(c, TY_F64); }
Type *dt_i64(Ctx *c) { return ty_int(c, 64, SIGNED); }
Type *dt_bool(Ctx *c) { return ty_int(c, 1, SIGNLESS); }

int
dt_isfloat(const Type *d)
{
	return d && ty_isfloat(d);
}

int
dt_isbool(const Type *d)
{
	return d && d->kind == TY_INT && d->width == 1;
}

/* bool counts: as 0 and 1 it extends, compares and divides like ui1 */
int
dt_isunsigned(const Type *d)
{
	return d && d->kind == TY_INT && (d->sign == UNSIGNED || d->width == 1);
}

/* at::opmath_type: half-precision kernels compute in float32 */
Type *
dt_opmath(Ctx *c, Type *d)
{
	if (d->kind == TY_F16 || d->kind == TY_BF16)
		return dt_f32(c);
	return d;
}

/* c10::ScalarType codes that have a torch dtype here. */
static const struct {
	int code;
	TypeKind kind;
	int width;
	Signedness sign;
} codes[] = {
	{0, TY_INT, 8, UNSIGNED}, {1, TY_INT, 8, SIGNED}, {2, TY_INT, 16, SIGNED},
	{3, TY_INT, 32, SIGNED}, {4, TY_INT, 64, SIGNED}, {5, TY_F16, 0, 0},
	{6, TY_F32, 0, 0}, {7, TY_F64, 0, 0}, {11, TY_INT, 1, SIGNLESS},
	{15, TY_BF16, 0, 0},
};
enum { NCODES = sizeof codes / sizeof *codes };

Type *
dt_from_code(Ctx *c, int64_t code)
{
	int i;

	for (i = 0; i < NCODES; i++) {
		if (codes[i].code != code)
			continue;
		if (codes[i].kind == TY_INT)
			return ty_int(c, codes[i].width, codes[i].sign);
		return ty_float(c, codes[i].kind);
	}
	return NULL;
}

int
dt_code(const Type *d)
{
	int i;

	for (i = 0; d && i < NCODES; i++)
		if (codes[i].kind == d->kind && (d->kind != TY_INT
		    || (codes[i].width == d->width && codes[i].sign == d->sign)))
			return codes[i].code;
	return -1;
}

static int
category(const Type *d)
{
	return dt_isbool(d) ? 0 : dt_isfloat(d) ? 2 : 1;
}

static int
float_rank(const Type *d)
{
	return d->kind == TY_F64 ? 3 : d->kind == TY_F32 ? 2 : 1;
}

static Type *
promote_ints(Ctx *c, Type *a, Type *b)
{
	int w;

	if (a->sign == UNSIGNED && b->sign == UNSIGNED)
		return a->width >= b->width ? a : b;
	if (a->sign == UNSIGNED || b->sign == UNSIGNED) {
		Type *u = a->sign == UNSIGNED ? a : b, *s = u == a ? b : a;
		w = s->width > u->width ? s->width : 2 * u->width;
		return ty_int(c, w > 64 ? 64 : w, SIGNED);
	}
	return a->width >= b->width ? a : b;
}

Type *
dt_promote(Ctx *c, Type *a, Type *b)
{
	if (!a || !b)
		return a ? a : b;
	if (a == b)
		return a;
	if (category(a) != category(b))
		return category(a) > category(b) ? a : b;
	if (category(a) == 1)
		return promote_ints(c, a, b);
	if ((a->kind == TY_F16 && b->kind == TY_BF16)
	    || (a->kind == TY_BF16 && b->kind == TY_F16))
		return dt_f32(c);
	return float_rank(a) >= float_rank(b) ? a : b;
}

/* The dtype of a Python scalar operand, as a wrapped number. */
static Type *
scalar_dtype(Ctx *c, const Type *t)
{
	switch (t->kind) {
	case TY_TORCH_INT: return dt_i64(c);
	case TY_TORCH_FLOAT: return dt_f32(c);
	case TY_TORCH_BOOL: return dt_bool(c);
	default: return NULL;
	}
}

/* A torch.constant.number is an int or a float by its value. */
static Type *
number_dtype(Ctx *c, Value *v)
{
	Attr *a = value_const(v);

	if (!a)
		return NULL;
	return a->kind == AT_FLOAT ? dt_f32(c) : a->kind == AT_INT ? dt_i64(c) : NULL;
}

/* fx-import wraps a Python scalar passed for a Tensor argument
 * (add.Tensor(x, 3)) in prim.NumToTensor.Scalar: a wrapped number, which
 * PyTorch promotes as the scalar it was, not as a 0-dim tensor. */
static Value *
unwrap(Value *v)
{
	Op *d = v->def;

	return d && op_is(d, "torch.prim.NumToTensor.Scalar") ? OPND(d, 0) : v;
}

void
promo_add(Ctx *c, Promo *p, Value *v)
{
	v = unwrap(v);
	if (v->type->kind == TY_TORCH_NUMBER) {
		Type *d = number_dtype(c, v);
		if (!d)
			p->unknown = 1;
		else
			p->wrapped = dt_promote(c, p->wrapped, d);
		return;
	}
	promo_add_type(c, p, v->type);
}

void
promo_add_type(Ctx *c, Promo *p, const Type *t)
{
	Type *d;

	if (tt_is(t)) {
		if (!(d = tt_dtype(t))) {
			p->unknown = 1;
			return;
		}
		if (tt_rank(t) == 0)
			p->zero = dt_promote(c, p->zero, d);
		else
			p->dim = dt_promote(c, p->dim, d);
		return;
	}
	if (!(d = scalar_dtype(c, t))) {
		if (t->kind != TY_TORCH_NONE)
			p->unknown = 1;
		return;
	}
	p->wrapped = dt_promote(c, p->wrapped, d);
}

/* c10's combine_categories(higher, lower). */
static Type *
combine(Ctx *c, Type *hi, Type *lo)
{
	if (!hi)
		return lo;
	if (!lo || dt_isfloat(hi))
		return hi;
	if (dt_isbool(hi) || dt_isfloat(lo))
		return dt_promote(c, hi, lo);
	return hi;
}

Type *
promo_result(Ctx *c, const Promo *p)
{
	if (p->unknown)
		return NULL;
	return combine(c, p->dim, combine(c, p->zero, p->wrapped));
}
