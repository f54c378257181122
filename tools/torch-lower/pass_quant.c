/*
 * pass_quant.c - convert-torch-to-linalg's quantized_decomposed ops
 * (quantize/dequantize, per tensor and per channel), pass only, in
 * torch-mlir's form: one linalg.generic each.
 *
 *   quantize:   q = clamp(roundeven(x / scale) + zp, qmin, qmax), computed
 *               in x's float type (scale and zp converted to it), then
 *               fptosi (fptoui for an unsigned result).  The clamp is
 *               maximumf/minimumf: NaN stays NaN as in PyTorch's clamp.
 *   dequantize: y = (q - zp) * scale: the subtraction in integers wide
 *               enough to be exact (the zero point's width when wider
 *               than q's, else twice q's: i8 -> i16 ... i32 -> i64; q
 *               extended as its dtype is signed or unsigned), converted
 *               to the scale's float type (sitofp; uitofp for an
 *               unsigned q with no zero point), the product in that
 *               type, and only then converted to the result's dtype.
 *               A per-tensor scale (a !torch.float) is f32, PyTorch's
 *               default dtype.
 * Per channel, scales and zero points are rank-1 tensors indexed by the
 * axis (negative counts from the end); the zero points may be none for
 * dequantize.  Constant scalars only (ints become arith.constant, a
 * float scale torch_c.to_f64 of its torch value, inside the body, as
 * torch-mlir materializes them); 64-bit quantized values, float zero
 * points and f16<->bf16 conversions are left unlowered.  An unsigned zero
 * point tensor is zero-extended (torch-mlir's rule sign-extends it).
 */
#include <string.h>

#include "lower.h"
#include "pass.h"

static int
fwidth(Type *t)
{
	switch (t->kind) {
	case TY_F16: case TY_BF16: return 16;
	case TY_F32: return 32;
	case TY_F64: return 64;
	default: return 0;
	}
}

/* float v (builtin) to float type to: truncf/extf; NULL where it is
 * f16 <-> bf16 */
static Value *
fconv(L *l, Value *v, Type *to)
{
	int a = fwidth(v->type), b = fwidth(to);

	if (v->type == to)
		return v;
	if (!a || !b || a == b)
		return NULL;
	return emit1(l, a > b ? "arith.truncf" : "arith.extf", 1, &v, to);
}

/* a constant !torch.int as a builtin i64 */
static Value *
int_scalar(L *l, Value *v)
{
	int64_t k;

	if (!tv_int(v, &k))
		return NULL;
	return cst_i(l, k, ty_int(l->c, 64, SIGNLESS));
}

/* a constant !torch.float as a builtin of float type to: torch_c.to_f64
 * of it, then converted */
static Value *
float_scalar(L *l, Value *v, Type *to)
{
	double f;

	if (v->type->kind != TY_TORCH_FLOAT || !tv_float(v, &f))
		return NULL;
	Value *d = emit1(l, "torch_c.to_f64", 1, &v, ty_float(l->c, TY_F64));
	return fconv(l, d, to);
}

/* clamp(roundeven(x / scale) + zp, qmin, qmax) -> the result's int type */
static Value *
quantize(L *l, Value *x, Value *scale, Value *zp, Value *lo, Value *hi, Type *rd)
{
	Value *v = bin(l, "arith.divf", x, scale);

	v = un(l, "math.roundeven", v);
	v = bin(l, "arith.addf", v, zp);
	v = bin(l, "arith.maximumf", v, lo);
	v = bin(l, "arith.minimumf", v, hi);
	return emit1(l, dt_isunsigned(rd) ? "arith.fptoui" : "arith.fptosi", 1, &v,
		belem(l->c, rd));
}

/* the exact width for q - zp, 0 if none */
static int
sub_width(int qw, int zw)
{
	if (zw > qw)
		return zw;
	return qw == 8 || qw == 16 || qw == 32 ? 2 * qw : 0;
}

/* The int operand's builtin type for arith ops. */
static Value *
ext(L *l, Value *v, Type *d, Type *to)
{
	if (v->type == to)
		return v;
	return emit1(l, dt_isunsigned(d) ? "arith.extui" : "arith.extsi", 1, &v, to);
}

/* a quantized dtype: an integer, not bool, not 64 bits */
static int
qtype(Type *d)
{
	return d && d->kind == TY_INT && !dt_isbool(d) && d->width < 64;
}

/* what the body is built from */
typedef struct Q {
	Type *in, *out;      /* torch dtypes of input and result */
	Type *sdt, *zdt;     /* per channel: scales' and zero points' dtypes */
	int per_channel, has_zp;
} Q;

/* dequantize's body: x the quantized element; scale/zp the per-channel
 * block args or NULL for the per-tensor scalars sv/zv */
static Value *
dequantize(L *l, const Q *q, Value *x, Value *scale, Value *zp, Value *sv, Value *zv)
{
	Type *it = belem(l->c, q->in), *st, *ot = belem(l->c, q->out);
	int zw = q->per_channel ? (q->has_zp ? q->zdt->width : 0) : 64, w;
	Value *v = x;

	if (q->has_zp) {
		Type *wt;
		if (!(w = sub_width(it->width, zw)))
			return NULL;
		wt = ty_int(l->c, w, SIGNLESS);
		if (q->per_channel)
			zp = ext(l, zp, q->zdt, wt);
		else if (!(zp = int_scalar(l, zv)))
			return NULL;
		v = ext(l, v, q->in, wt);
		v = bin(l, "arith.subi", v, zp);
	}
	if (!q->per_channel) {
		st = ty_float(l->c, TY_F32);
		if (!(scale = float_scalar(l, sv, st)))
			return NULL;
	} else
		st = scale->type;
	v = emit1(l, dt_isunsigned(q->in) && !q->has_zp ? "arith.uitofp" : "arith.sitofp",
		1, &v, st);
	v = bin(l, "arith.mulf", v, scale);
	return fconv(l, v, ot);
}

/* operands: per tensor (x, scale, zp, qmin, qmax, dtype[, out_dtype]);
 * per channel (x, scales, zps, axis, qmin, qmax, dtype[, out_dtype]) */
int
pass_quant_lower(L *l, Op *op, const void *arg)
{
	Ctx *c = l->c;
	const char *n = op->name + strlen("torch.quantized_decomposed.");
	int deq = !strncmp(n, "de", 2), i;
	Q q = {0};
	Type *xt, *rt = op->res[0].type, *bt, *ct;
	Value *ins[3], *outv, *y = NULL;
	AffMap *maps[4];
	int64_t axis = 0, lo, hi;
	int nin = 1;

	if (strncmp(op->name, "torch.quantized_decomposed.", 27) || op->nres != 1 ||
			op->nopnds < 6)
		return -1;
	q.per_channel = strstr(n, "per_channel") != NULL;
	xt = ttype(l, OPND(op, 0));
	if (!xt->ranked || !rt->ranked || !xt->elem || !rt->elem || xt->rank != rt->rank)
		return -1;
	q.in = xt->elem;
	q.out = rt->elem;
	if (deq ? !qtype(q.in) || !dt_isfloat(q.out) : !dt_isfloat(q.in) || !qtype(q.out))
		return -1;
	q.has_zp = !q.per_channel || !tv_none(OPND(op, 2));
	ins[0] = get(l, OPND(op, 0));
	if (q.per_channel) {
		Type *s = ttype(l, OPND(op, 1)), *z = q.has_zp ? ttype(l, OPND(op, 2)) : NULL;
		if (!is_tensor(l, OPND(op, 1)) || !s->ranked || s->rank != 1 ||
				!dt_isfloat(q.sdt = s->elem) || !tv_int(OPND(op, 3), &axis))
			return -1;
		if (z && (!is_tensor(l, OPND(op, 2)) || !z->ranked || z->rank != 1 ||
				!(q.zdt = z->elem) || q.zdt->kind != TY_INT || dt_isbool(q.zdt)))
			return -1;
		if (!q.has_zp && op->nopnds > 2 && !tv_none(OPND(op, 2)))
			return -1;
		if (axis < 0)
			axis += xt->rank;
		if (axis < 0 || axis >= xt->rank)
			return -1;
		if (!deq && (!q.has_zp || !tv_int(OPND(op, 4), &lo) || !tv_int(OPND(op, 5), &hi)))
			return -1;
		if (s->dims[0] != DYN && xt->dims[axis] != DYN && s->dims[0] != xt->dims[axis])
			return -1;
		if (z && z->dims[0] != DYN && xt->dims[axis] != DYN && z->dims[0] != xt->dims[axis])
			return -1;
		ins[nin++] = get(l, OPND(op, 1));
		if (q.has_zp)
			ins[nin++] = get(l, OPND(op, 2));
	} else {
		int64_t k;
		double f;
		if (OPND(op, 1)->type->kind != TY_TORCH_FLOAT || !tv_float(OPND(op, 1), &f) ||
				!tv_int(OPND(op, 2), &k) || !tv_int(OPND(op, 3), &lo) ||
				!tv_int(OPND(op, 4), &hi))
			return -1;
	}
	bt = btensor(c, xt);
	if (!bt)
		return -1;
	ct = ty_tensor(c, bt->rank, bt->dims, belem(c, q.out));
	if (!(outv = empty(l, ct, ins[0])))
		return -1;
	maps[0] = map_id(l, xt->rank);
	for (i = 1; i < nin; i++) {
		int a = (int)axis;
		maps[i] = map_sel(l, xt->rank, 1, &a);
	}
	maps[nin] = maps[0];
	Gen g;
	gen_begin(l, &g, nin, ins, 1, &outv, maps, xt->rank, NULL);
	Type *ft = deq ? NULL : belem(c, q.in);
	if (deq) {
		y = dequantize(l, &q, g.arg[0], q.per_channel ? g.arg[1] : NULL,
			q.has_zp && q.per_channel ? g.arg[2] : NULL, OPND(op, 1), OPND(op, 2));
	} else if (q.per_channel) {
		Value *loq = cst_f(l, (double)lo, ft), *hiq = cst_f(l, (double)hi, ft);
		Value *s = fconv(l, g.arg[1], ft);
		Value *z = g.arg[2];
		z = emit1(l, dt_isunsigned(q.zdt) ? "arith.uitofp" : "arith.sitofp", 1, &z, ft);
		if (s)
			y = quantize(l, g.arg[0], s, z, loq, hiq, q.out);
	} else {
		Value *loq = int_scalar(l, OPND(op, 3)), *hiq, *s, *z;
		loq = emit1(l, "arith.sitofp", 1, &loq, ft);
		hiq = int_scalar(l, OPND(op, 4));
		hiq = emit1(l, "arith.sitofp", 1, &hiq, ft);
		s = float_scalar(l, OPND(op, 1), ft);
		z = int_scalar(l, OPND(op, 2));
		z = emit1(l, "arith.sitofp", 1, &z, ft);
		if (s)
			y = quantize(l, g.arg[0], s, z, loq, hiq, q.out);
	}
	if (!y) {
		/* the caller erases what was emitted; close the body first */
		gen_end(l, &g, 1, &g.arg[nin]);
		return -1;
	}
	set(l, RES(op, 0), gen_end(l, &g, 1, &y));
	return 0;
}

/* arith.maximumf/minimumf under MLIR 16's names, maxf/minf: the same ops
 * (NaN wins, -0 < +0), renamed in LLVM 17 (the finalizing conversion's
 * output must read in mlir-opt 16) */
void
pass_quant_mlir16_name(Ctx *c, Op *op)
{
	const char *to = op_is(op, "arith.maximumf") ? "arith.maxf" :
		op_is(op, "arith.minimumf") ? "arith.minf" : NULL;

	if (!to)
		return;
	op->name = intern(c, to);
	op->info = opinfo_lookup(op->name);
}
