/*
 * ops.c - the arith and math ops of kernel bodies in LLVM IR: one table
 * row per op, looked up by op code (a per-code array filled once at
 * start-up by expr_init); bf16 arithmetic and f16/bf16 math computed in
 * f32; libm calls scalarized across vector lanes; a vectorizable expf.
 */
#include <stdlib.h>
#include <string.h>

#include "emit.h"

static LLVMValueRef call_fn(E *e, const char *name, LLVMTypeRef t, LLVMValueRef *args, int n)
{
	LLVMTypeRef pt[3] = { t, t, t };
	LLVMTypeRef ft = LLVMFunctionType(t, pt, (unsigned)n, 0);
	LLVMValueRef f = LLVMGetNamedFunction(e->m, name);

	if (!f) {
		f = LLVMAddFunction(e->m, name, ft);
		LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
			LLVMCreateEnumAttribute(e->cx, LLVMGetEnumAttributeKindForName("nounwind", 8), 0));
		LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
			LLVMCreateEnumAttribute(e->cx, LLVMGetEnumAttributeKindForName("willreturn", 10), 0));
	}
	return LLVMBuildCall2(e->b, ft, f, args, (unsigned)n, "");
}

/* A libm call, scalarized for vectors. */
static LLVMValueRef libm(E *e, const char *base, Type *t, LLVMValueRef *a, int n)
{
	char name[32];
	LLVMTypeRef st = e_type(e, t);
	LLVMValueRef v;
	int i, j;

	snprintf(name, sizeof name, "%s%s", base, t->kind == TY_F32 ? "f" : "");
	if (t->kind != TY_F32 && t->kind != TY_F64)
		return NULL;
	if (e->vw <= 1)
		return call_fn(e, name, st, a, n);
	v = LLVMGetUndef(LLVMVectorType(st, (unsigned)e->vw));
	for (i = 0; i < e->vw; i++) {
		LLVMValueRef s[3];

		for (j = 0; j < n; j++)
			s[j] = LLVMBuildExtractElement(e->b, a[j], LLVMConstInt(e->i32, (unsigned long long)i, 0), "");
		v = LLVMBuildInsertElement(e->b, v, call_fn(e, name, st, s, n),
			LLVMConstInt(e->i32, (unsigned long long)i, 0), "");
	}
	return v;
}

static LLVMValueRef intrinsic(E *e, const char *name, LLVMValueRef *a, int n)
{
	unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
	LLVMTypeRef t = LLVMTypeOf(a[0]);
	LLVMValueRef f = LLVMGetIntrinsicDeclaration(e->m, id, &t, 1);
	LLVMTypeRef ft = LLVMIntrinsicGetType(e->cx, id, &t, 1);

	return LLVMBuildCall2(e->b, ft, f, a, (unsigned)n, "");
}

static LLVMRealPredicate fpred(int64_t p)
{
	/* MLIR's order: false oeq ogt oge olt ole one ord ueq ugt uge ult ule une uno true */
	static const LLVMRealPredicate m[] = {
		LLVMRealPredicateFalse, LLVMRealOEQ, LLVMRealOGT, LLVMRealOGE, LLVMRealOLT,
		LLVMRealOLE, LLVMRealONE, LLVMRealORD, LLVMRealUEQ, LLVMRealUGT, LLVMRealUGE,
		LLVMRealULT, LLVMRealULE, LLVMRealUNE, LLVMRealUNO, LLVMRealPredicateTrue,
	};
	return p >= 0 && p < 16 ? m[p] : LLVMRealPredicateFalse;
}

static LLVMIntPredicate ipred(int64_t p)
{
	static const LLVMIntPredicate m[] = {
		LLVMIntEQ, LLVMIntNE, LLVMIntSLT, LLVMIntSLE, LLVMIntSGT, LLVMIntSGE,
		LLVMIntULT, LLVMIntULE, LLVMIntUGT, LLVMIntUGE,
	};
	return p >= 0 && p < 10 ? m[p] : LLVMIntEQ;
}

/* bf16 <-> f32 by bits: LLVM 16's x86 backend has no bf16 arithmetic. */
static LLVMValueRef bf16_to_f32(E *e, LLVMValueRef v)
{
	LLVMTypeRef i16 = e_vtype(e, LLVMInt16TypeInContext(e->cx));
	LLVMTypeRef i32 = e_vtype(e, e->i32);

	(void)i16;
	v = LLVMBuildZExt(e->b, v, i32, "");
	v = LLVMBuildShl(e->b, v, e_splat(e, LLVMConstInt(e->i32, 16, 0)), "");
	return LLVMBuildBitCast(e->b, v, e_vtype(e, e->f32), "");
}

static LLVMValueRef f32_to_bf16(E *e, LLVMValueRef v)
{
	LLVMTypeRef i32 = e_vtype(e, e->i32);
	LLVMValueRef bits = LLVMBuildBitCast(e->b, v, i32, ""), r, nan;

	r = LLVMBuildAnd(e->b, LLVMBuildLShr(e->b, bits, e_splat(e, LLVMConstInt(e->i32, 16, 0)), ""),
		e_splat(e, LLVMConstInt(e->i32, 1, 0)), "");
	r = LLVMBuildAdd(e->b, bits, LLVMBuildAdd(e->b, r, e_splat(e, LLVMConstInt(e->i32, 0x7FFF, 0)), ""), "");
	r = LLVMBuildLShr(e->b, r, e_splat(e, LLVMConstInt(e->i32, 16, 0)), "");
	nan = LLVMBuildFCmp(e->b, LLVMRealUNO, v, v, "");
	r = LLVMBuildSelect(e->b, nan, e_splat(e, LLVMConstInt(e->i32, 0x7FC0, 0)), r, "");
	return LLVMBuildTrunc(e->b, r, e_vtype(e, LLVMInt16TypeInContext(e->cx)), "");
}

static LLVMValueRef fcast(E *e, LLVMValueRef v, Type *from, Type *to)
{
	if (from->kind == TY_BF16) {
		v = bf16_to_f32(e, v);
		if (to->kind == TY_F32)
			return v;
		from = ty_float(e->g->c, TY_F32);
	}
	if (to->kind == TY_BF16) {
		if (from->kind != TY_F32)
			v = LLVMBuildFPCast(e->b, v, e_vtype(e, e->f32), "");
		return f32_to_bf16(e, v);
	}
	return LLVMBuildFPCast(e->b, v, e_vtype(e, e_type(e, to)), "");
}

/* fast exp for f32: 2^(x log2 e) by range reduction and a degree-6
 * polynomial, exact to ~1 ulp and vectorizable, unlike a call to expf */
static LLVMValueRef fast_expf(E *e, LLVMValueRef x)
{
	LLVMBuilderRef b = e->b;
	LLVMTypeRef ft = e_vtype(e, e->f32), it = e_vtype(e, e->i32);
	LLVMValueRef n, r, p, ni, s, big, small, nan;
	static const double c[] = { 1.0, 1.0, 0.5, 1.6666666666666666e-1,
		4.1666666666666664e-2, 8.3333333333333332e-3, 1.3888888888888889e-3 };
	int i;

#define F(v) e_splat(e, LLVMConstReal(e->f32, (v)))
	big = LLVMBuildFCmp(b, LLVMRealOGT, x, F(88.72283935546875), "");
	small = LLVMBuildFCmp(b, LLVMRealOLT, x, F(-103.97), "");
	nan = LLVMBuildFCmp(b, LLVMRealUNO, x, x, "");
	{
		LLVMValueRef a[1];

		a[0] = LLVMBuildFMul(b, x, F(1.4426950408889634), "");
		n = intrinsic(e, "llvm.rint", a, 1);
	}
	/* r = x - n ln2, in two steps for precision */
	r = LLVMBuildFSub(b, x, LLVMBuildFMul(b, n, F(0.693145751953125), ""), "");
	r = LLVMBuildFSub(b, r, LLVMBuildFMul(b, n, F(1.428606765330187045e-06), ""), "");
	p = F(c[6]);
	for (i = 5; i >= 0; i--) {
		LLVMValueRef a[3] = { p, r, F(c[i]) };

		p = intrinsic(e, "llvm.fma", a, 3);
	}
	/* scale by 2^n in two halves so that n = 128 or -149 still works */
	ni = LLVMBuildFPToSI(b, n, it, "");
	{
		LLVMValueRef h = LLVMBuildAShr(b, ni, e_splat(e, LLVMConstInt(e->i32, 1, 0)), "");
		LLVMValueRef l = LLVMBuildSub(b, ni, h, "");

		s = LLVMBuildBitCast(b, LLVMBuildShl(b, LLVMBuildAdd(b, h, e_splat(e, LLVMConstInt(e->i32, 127, 0)), ""),
			e_splat(e, LLVMConstInt(e->i32, 23, 0)), ""), ft, "");
		p = LLVMBuildFMul(b, p, s, "");
		s = LLVMBuildBitCast(b, LLVMBuildShl(b, LLVMBuildAdd(b, l, e_splat(e, LLVMConstInt(e->i32, 127, 0)), ""),
			e_splat(e, LLVMConstInt(e->i32, 23, 0)), ""), ft, "");
		p = LLVMBuildFMul(b, p, s, "");
	}
	p = LLVMBuildSelect(b, small, F(0.0), p, "");
	p = LLVMBuildSelect(b, big, F(__builtin_inff()), p, "");
	p = LLVMBuildSelect(b, nan, x, p, "");
#undef F
	return p;
}

/* fast erf for f32, odd: x + x P(x^2) below 0.875, 1 - exp(-x^2) R(|x|)
 * up to 3.92 (R = erfc(a) exp(a^2) in two pieces, around 1.4375 and
 * 2.96), +-1 above; polynomials fitted here (Chebyshev interpolation,
 * coefficients rounded to f32), evaluated with FMAs.  A C copy of this
 * arithmetic was checked against erf in double, rounded, over every
 * positive float: at most 1 ulp off (14.8 million of 2.1 billion by 1);
 * tests/codegen/math-f32.bats checks a sample through codegen.  Vectorizes,
 * unlike a call to erff (~22 ns a call here: BERT's GELU). */
static LLVMValueRef fast_erff(E *e, LLVMValueRef x)
{
	static const double p1[] = { 0.12837916612625122, -0.37612634897232056,
		0.11283735185861588, -0.026861706748604774, 0.00520704872906208,
		-0.0008214570698328316, 8.690368849784136e-05 };
	static const double r2[] = { 0.33211755752563477, -0.1735411435365677,
		0.08265211433172226, -0.036487236618995667, 0.015102319419384003,
		-0.005894836969673634, 0.0021966637577861547, -0.0008506137528456748,
		0.0002895134093705565 };
	static const double r3[] = { 0.1812017410993576, -0.0556647889316082,
		0.016433846205472946, -0.004680967889726162, 0.0012900481233373284,
		-0.0003427540068514645, 8.91629679244943e-05, -2.574519021436572e-05,
		6.3269308157032356e-06 };
	LLVMBuilderRef b = e->b;
	LLVMValueRef a, t, p, s1, lo, u, q, ex, s2, one, r;
	int k;

#define F(v) e_splat(e, LLVMConstReal(e->f32, (v)))
#define FMA(x, y, z) intrinsic(e, "llvm.fma", (LLVMValueRef[]){ (x), (y), (z) }, 3)
	a = intrinsic(e, "llvm.fabs", &x, 1);
	t = LLVMBuildFMul(b, a, a, "");
	p = F(p1[6]);
	for (k = 5; k >= 0; k--)
		p = FMA(p, t, F(p1[k]));
	s1 = FMA(x, p, x);
	lo = LLVMBuildFCmp(b, LLVMRealOLT, a, F(2.0), "");
	u = LLVMBuildFSub(b, a, LLVMBuildSelect(b, lo, F(1.4375), F(2.9600000381469727), ""), "");
	q = LLVMBuildSelect(b, lo, F(r2[8]), F(r3[8]), "");
	for (k = 7; k >= 0; k--)
		q = FMA(q, u, LLVMBuildSelect(b, lo, F(r2[k]), F(r3[k]), ""));
	ex = fast_expf(e, LLVMBuildFNeg(b, t, ""));
	s2 = FMA(LLVMBuildFNeg(b, ex, ""), q, F(1.0));
	s2 = intrinsic(e, "llvm.copysign", (LLVMValueRef[]){ s2, x }, 2);
	one = intrinsic(e, "llvm.copysign", (LLVMValueRef[]){ F(1.0), x }, 2);
	/* NaN: neither compare holds, s2 is NaN */
	r = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOGE, a, F(3.92), ""), one, s2, "");
	r = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOLT, a, F(0.875), ""), s1, r, "");
#undef FMA
#undef F
	return r;
}

/* fast tanh for f32, odd: x + x t P(t), t = x^2, below 0.9 (P of degree
 * 7, fitted here by Chebyshev interpolation in t, coefficients rounded
 * to f32), 1 - 2 / (exp(2|x|) + 1) above (exp overflows to inf past
 * 44.4: 1), x's sign on both.  A C copy of this arithmetic was checked
 * against tanh in double, rounded, over every positive float: at most 1
 * ulp off (2.1 million of 2.1 billion by 1); tests/codegen/math-f32.bats
 * checks a sample through codegen.  Vectorizes, unlike a call to tanhf
 * (GPT-2's GELU). */
static LLVMValueRef fast_tanhf(E *e, LLVMValueRef x)
{
	static const double p[] = { -0.3333333432674408, 0.1333332657814026,
		-0.05396651849150658, 0.021851900964975357, -0.00877421721816063,
		0.003340372582897544, -0.0010391203686594963, 0.00018206539971288294 };
	LLVMBuilderRef b = e->b;
	LLVMValueRef a, t, q, s1, ex, s2;
	int k;

#define F(v) e_splat(e, LLVMConstReal(e->f32, (v)))
#define FMA(x, y, z) intrinsic(e, "llvm.fma", (LLVMValueRef[]){ (x), (y), (z) }, 3)
	a = intrinsic(e, "llvm.fabs", &x, 1);
	t = LLVMBuildFMul(b, x, x, "");
	q = F(p[7]);
	for (k = 6; k >= 0; k--)
		q = FMA(q, t, F(p[k]));
	s1 = FMA(x, LLVMBuildFMul(b, q, t, ""), x);
	ex = fast_expf(e, LLVMBuildFAdd(b, a, a, ""));
	s2 = LLVMBuildFSub(b, F(1.0), LLVMBuildFDiv(b, F(2.0), LLVMBuildFAdd(b, ex, F(1.0), ""), ""), "");
	/* NaN: the compare fails, s2 is NaN; x's sign on both (s1 of -0
	 * is +0: the FMA adds -0 to +0) */
	s1 = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOLT, a, F(0.9), ""), s1, s2, "");
	return intrinsic(e, "llvm.copysign", (LLVMValueRef[]){ s1, x }, 2);
#undef FMA
#undef F
}

/* math.ipowi: square and multiply over the exponent's bits, straight-line
 * so that it vectorizes; a negative exponent gives what PyTorch's integer
 * pow gives: 1 for base 1, +-1 for base -1, else 0. */
static LLVMValueRef ipowi(E *e, LLVMValueRef x, LLVMValueRef n)
{
	LLVMBuilderRef b = e->b;
	LLVMTypeRef t = LLVMTypeOf(x);
	LLVMTypeRef st = LLVMGetTypeKind(t) == LLVMVectorTypeKind ? LLVMGetElementType(t) : t;
	unsigned w = LLVMGetIntTypeWidth(st), k;
	LLVMValueRef one = e_splat(e, LLVMConstInt(st, 1, 0)), zero = LLVMConstNull(t);
	LLVMValueRef m1 = LLVMConstAllOnes(t), r = one, p = x, odd, neg;

	for (k = 0; k + 1 < w; k++) {
		LLVMValueRef bit = LLVMBuildAnd(b, n, e_splat(e, LLVMConstInt(st, 1ull << k, 0)), "");

		r = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntNE, bit, zero, ""),
			LLVMBuildMul(b, r, p, ""), r, "");
		if (k + 2 < w)
			p = LLVMBuildMul(b, p, p, "");
	}
	odd = LLVMBuildICmp(b, LLVMIntNE, LLVMBuildAnd(b, n, one, ""), zero, "");
	neg = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, x, one, ""), one,
		LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, x, m1, ""),
			LLVMBuildSelect(b, odd, m1, one, ""), zero, ""), "");
	return LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSLT, n, zero, ""), neg, r, "");
}

/* ---- ops: one row per op, dispatched by op code ---- */

typedef struct ORow ORow;
typedef LLVMValueRef (*OpFn)(E *e, KExpr *x, LLVMValueRef *a, const ORow *r);

/* R_FLOAT: float arithmetic, on bf16 done in f32; R_BITS: arith that
 * bf16 passes through as bits; R_MATH: on f16 and bf16 done in f32 */
enum { R_FLOAT = 1, R_ARITH, R_BITS, R_MATH };

struct ORow {
	const char *name;
	int kind;
	OpFn fn;
	int how;              /* a variant: predicate, signedness, operands */
	const char *llvm;     /* the intrinsic or libm function */
	OpFn half;            /* R_MATH in f32 for f16/bf16; NULL: libm */
};

static LLVMTypeRef res_type(E *e, KExpr *x)
{
	return e_vtype(e, e_type(e, x->type));
}

#define BIN(f, build) \
	static LLVMValueRef f(E *e, KExpr *x, LLVMValueRef *a, const ORow *r) \
	{ return build(e->b, a[0], a[1], ""); }
BIN(em_addf, LLVMBuildFAdd) BIN(em_subf, LLVMBuildFSub) BIN(em_mulf, LLVMBuildFMul)
BIN(em_divf, LLVMBuildFDiv) BIN(em_remf, LLVMBuildFRem)
BIN(em_addi, LLVMBuildAdd) BIN(em_subi, LLVMBuildSub) BIN(em_muli, LLVMBuildMul)
BIN(em_divsi, LLVMBuildSDiv) BIN(em_divui, LLVMBuildUDiv)
BIN(em_remsi, LLVMBuildSRem) BIN(em_remui, LLVMBuildURem)
BIN(em_andi, LLVMBuildAnd) BIN(em_ori, LLVMBuildOr) BIN(em_xori, LLVMBuildXor)
BIN(em_shli, LLVMBuildShl) BIN(em_shrsi, LLVMBuildAShr) BIN(em_shrui, LLVMBuildLShr)
#undef BIN

#define CAST(f, build) \
	static LLVMValueRef f(E *e, KExpr *x, LLVMValueRef *a, const ORow *r) \
	{ return build(e->b, a[0], res_type(e, x), ""); }
CAST(em_extsi, LLVMBuildSExt) CAST(em_extui, LLVMBuildZExt) CAST(em_trunci, LLVMBuildTrunc)
CAST(em_bitcast, LLVMBuildBitCast)
#undef CAST

static LLVMValueRef em_negf(E *e, KExpr *x, LLVMValueRef *a, const ORow *r)
{
	return LLVMBuildFNeg(e->b, a[0], "");
}

/* maxf, minf: NaN in a[0] propagates */
static LLVMValueRef em_fminmax(E *e, KExpr *x, LLVMValueRef *a, const ORow *r)
{
	LLVMBuilderRef b = e->b;
	LLVMValueRef c = LLVMBuildFCmp(b, (LLVMRealPredicate)r->how, a[0], a[1], "");
	LLVMValueRef v = LLVMBuildSelect(b, c, a[0], a[1], "");

	return LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealUNO, a[0], a[0], ""), a[0], v, "");
}

/* floordivsi (how 1), ceildivsi (0): truncating division, adjusted when
 * the signs differ (floor) or agree (ceil) and there is a remainder */
static LLVMValueRef em_divround(E *e, KExpr *x, LLVMValueRef *a, const ORow *r)
{
	LLVMBuilderRef b = e->b;
	LLVMValueRef q = LLVMBuildSDiv(b, a[0], a[1], ""), m = LLVMBuildSRem(b, a[0], a[1], "");
	LLVMValueRef z = LLVMConstNull(LLVMTypeOf(m));
	LLVMValueRef ne = LLVMBuildICmp(b, LLVMIntNE, m, z, "");
	LLVMValueRef sg = LLVMBuildICmp(b, r->how ? LLVMIntSLT : LLVMIntSGE,
		LLVMBuildXor(b, a[0], a[1], ""), z, "");
	LLVMValueRef adj = LLVMBuildZExt(b, LLVMBuildAnd(b, ne, sg, ""), LLVMTypeOf(q), "");

	return r->how ? LLVMBuildSub(b, q, adj, "") : LLVMBuildAdd(b, q, adj, "");
}

static LLVMValueRef em_ceildivui(E *e, KExpr *x, LLVMValueRef *a, const ORow *r)
{
	LLVMBuilderRef b = e->b;
	LLVMValueRef one = LLVMConstInt(LLVMTypeOf(a[1]), 1, 0);

	return LLVMBuildUDiv(b, LLVMBuildSub(b, LLVMBuildAdd(b, a[0], a[1], ""), one, ""), a[1], "");
}

static LLVMValueRef em_iminmax(E *e, KExpr *x, LLVMValueRef *a, const ORow *r)
{
	LLVMBuilderRef b = e->b;

	return LLVMBuildSelect(b, LLVMBuildICmp(b, (LLVMIntPredicate)r->how, a[0], a[1], ""),
		a[0], a[1], "");
}

static LLVMValueRef em_cmpf(E *e, KExpr *x, LLVMValueRef *a, const ORow *r)
{
	if (x->a[0]->type->kind == TY_BF16) {
		a[0] = bf16_to_f32(e, a[0]);
		a[1] = bf16_to_f32(e, a[1]);
	}
	return LLVMBuildFCmp(e->b, fpred(x->attr ? x->attr->i : 0), a[0], a[1], "");
}

static LLVMValueRef em_cmpi(E *e, KExpr *x, LLVMValueRef *a, const ORow *r)
{
	return LLVMBuildICmp(e->b, ipred(x->attr ? x->attr->i : 0), a[0], a[1], "");
}

static LLVMValueRef em_select(E *e, KExpr *x, LLVMValueRef *a, const ORow *r)
{
	return LLVMBuildSelect(e->b, a[0], a[1], a[2], "");
}

/* x's value is a bf16 value widened: an extf of bf16, a constant bf16
 * holds, a max, min or select of such (a ReLU or a max pool of bf16
 * values) */
static int bf16_exact(E *e, const KExpr *x)
{
	if (x->type->kind != TY_F32)
		return 0;
	if (x->kind == KX_CONST)
		return x->cval->kind == AT_FLOAT &&
			fp_round(x->cval->f, ty_float(e->g->c, TY_BF16)) == x->cval->f;
	if (x->kind != KX_OP)
		return 0;
	if (x->op == kop.extf)
		return x->a[0]->type->kind == TY_BF16;
	if (x->op == kop.maxf || x->op == kop.minf)
		return bf16_exact(e, x->a[0]) && bf16_exact(e, x->a[1]);
	if (x->op == kop.select)
		return bf16_exact(e, x->a[1]) && bf16_exact(e, x->a[2]);
	return 0;
}

/* A truncf to bf16 of a value bf16 holds is its upper half, no rounding
 * (NaNs still the quiet NaN, as f32_to_bf16 makes them) */
static LLVMValueRef em_fcast(E *e, KExpr *x, LLVMValueRef *a, const ORow *r)
{
	if (x->type->kind == TY_BF16 && bf16_exact(e, x->a[0])) {
		LLVMValueRef bits = LLVMBuildBitCast(e->b, a[0], e_vtype(e, e->i32), "");
		LLVMValueRef h = LLVMBuildLShr(e->b, bits, e_splat(e, LLVMConstInt(e->i32, 16, 0)), "");

		h = LLVMBuildSelect(e->b, LLVMBuildFCmp(e->b, LLVMRealUNO, a[0], a[0], ""),
			e_splat(e, LLVMConstInt(e->i32, 0x7FC0, 0)), h, "");
		return LLVMBuildTrunc(e->b, h, e_vtype(e, LLVMInt16TypeInContext(e->cx)), "");
	}
	return fcast(e, a[0], x->a[0]->type, x->type);
}

/* index_cast (how 1: signed), index_castui */
static LLVMValueRef em_intcast(E *e, KExpr *x, LLVMValueRef *a, const ORow *r)
{
	return LLVMBuildIntCast2(e->b, a[0], res_type(e, x), r->how, "");
}

/* sitofp (how 1), uitofp; bf16 through f32 */
static LLVMValueRef em_itofp(E *e, KExpr *x, LLVMValueRef *a, const ORow *r)
{
	LLVMBuilderRef b = e->b;
	LLVMTypeRef rt = res_type(e, x);

	if (x->type->kind == TY_BF16) {
		LLVMValueRef f = r->how ? LLVMBuildSIToFP(b, a[0], e_vtype(e, e->f32), "")
			: LLVMBuildUIToFP(b, a[0], e_vtype(e, e->f32), "");
		return f32_to_bf16(e, f);
	}
	return r->how ? LLVMBuildSIToFP(b, a[0], rt, "") : LLVMBuildUIToFP(b, a[0], rt, "");
}

/* fptosi (how 1), fptoui */
static LLVMValueRef em_fptoi(E *e, KExpr *x, LLVMValueRef *a, const ORow *r)
{
	LLVMBuilderRef b = e->b;
	LLVMTypeRef rt = res_type(e, x);
	Type *at = x->a[0]->type;

	if (at->kind == TY_BF16)
		a[0] = bf16_to_f32(e, a[0]);
	if (at->kind == TY_F16) {
		/* through f32, frozen: LLVM 16's loop vectorizer narrows
		 * fptosi half -> i32 feeding a trunc to i8 into an invalid
		 * "trunc <N x half>" and the backend aborts; freeze keeps
		 * instcombine from folding the fpext back */
		LLVMTypeRef t = LLVMTypeOf(a[0]), ft = e->f32;

		if (LLVMGetTypeKind(t) == LLVMVectorTypeKind)
			ft = LLVMVectorType(e->f32, LLVMGetVectorSize(t));
		a[0] = LLVMBuildFreeze(b, LLVMBuildFPExt(b, a[0], ft, ""), "");
	}
	return r->how ? LLVMBuildFPToSI(b, a[0], rt, "") : LLVMBuildFPToUI(b, a[0], rt, "");
}

/* an intrinsic on the row's `how` operands */
static LLVMValueRef em_intr(E *e, KExpr *x, LLVMValueRef *a, const ORow *r)
{
	return intrinsic(e, r->llvm, a, r->how);
}

/* ctlz, cttz: the result for 0 is defined */
static LLVMValueRef em_countz(E *e, KExpr *x, LLVMValueRef *a, const ORow *r)
{
	a[1] = LLVMConstInt(e->i1, 0, 0);
	return intrinsic(e, r->llvm, a, 2);
}

static LLVMValueRef em_libm(E *e, KExpr *x, LLVMValueRef *a, const ORow *r)
{
	return libm(e, r->llvm, x->type, a, r->how);
}

static LLVMValueRef em_rsqrt(E *e, KExpr *x, LLVMValueRef *a, const ORow *r)
{
	LLVMValueRef s = intrinsic(e, "llvm.sqrt", a, 1);

	return LLVMBuildFDiv(e->b, e_splat(e, LLVMConstReal(e_type(e, x->type), 1.0)), s, "");
}

static LLVMValueRef em_ipowi(E *e, KExpr *x, LLVMValueRef *a, const ORow *r)
{
	return ipowi(e, a[0], a[1]);
}

static LLVMValueRef em_absi(E *e, KExpr *x, LLVMValueRef *a, const ORow *r)
{
	LLVMBuilderRef b = e->b;
	LLVMValueRef z = LLVMConstNull(LLVMTypeOf(a[0]));

	return LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSLT, a[0], z, ""),
		LLVMBuildNeg(b, a[0], ""), a[0], "");
}

static LLVMValueRef em_fast_exp(E *e, KExpr *x, LLVMValueRef *a, const ORow *r)
{
	return fast_expf(e, a[0]);
}

static LLVMValueRef em_fast_erf(E *e, KExpr *x, LLVMValueRef *a, const ORow *r)
{
	return fast_erff(e, a[0]);
}

static LLVMValueRef em_fast_tanh(E *e, KExpr *x, LLVMValueRef *a, const ORow *r)
{
	return fast_tanhf(e, a[0]);
}

/* f32: our own vectorized function (r->half, which f16 and bf16 use
 * too); f64: libm's */
static LLVMValueRef em_fast_f32(E *e, KExpr *x, LLVMValueRef *a, const ORow *r)
{
	if (x->type->kind == TY_F32)
		return r->half(e, x, a, r);
	return libm(e, r->llvm, x->type, a, r->how);
}

#define LIBM1(n) { "math." n, R_MATH, em_libm, 1, n, NULL }
#define INTR1(n, f) { "math." n, R_MATH, em_intr, 1, f, NULL }
static const ORow rows[] = {
	{ "arith.addf", R_FLOAT, em_addf }, { "arith.subf", R_FLOAT, em_subf },
	{ "arith.mulf", R_FLOAT, em_mulf }, { "arith.divf", R_FLOAT, em_divf },
	{ "arith.remf", R_FLOAT, em_remf }, { "arith.negf", R_FLOAT, em_negf },
	{ "arith.maxf", R_FLOAT, em_fminmax, LLVMRealOGT },
	{ "arith.minf", R_FLOAT, em_fminmax, LLVMRealOLT },
	{ "arith.addi", R_ARITH, em_addi }, { "arith.subi", R_ARITH, em_subi },
	{ "arith.muli", R_ARITH, em_muli }, { "arith.divsi", R_ARITH, em_divsi },
	{ "arith.divui", R_ARITH, em_divui }, { "arith.remsi", R_ARITH, em_remsi },
	{ "arith.remui", R_ARITH, em_remui },
	{ "arith.floordivsi", R_ARITH, em_divround, 1 },
	{ "arith.ceildivsi", R_ARITH, em_divround, 0 },
	{ "arith.ceildivui", R_ARITH, em_ceildivui },
	{ "arith.maxsi", R_ARITH, em_iminmax, LLVMIntSGT },
	{ "arith.minsi", R_ARITH, em_iminmax, LLVMIntSLT },
	{ "arith.maxui", R_ARITH, em_iminmax, LLVMIntUGT },
	{ "arith.minui", R_ARITH, em_iminmax, LLVMIntULT },
	{ "arith.andi", R_ARITH, em_andi }, { "arith.ori", R_ARITH, em_ori },
	{ "arith.xori", R_ARITH, em_xori }, { "arith.shli", R_ARITH, em_shli },
	{ "arith.shrsi", R_ARITH, em_shrsi }, { "arith.shrui", R_ARITH, em_shrui },
	{ "arith.cmpf", R_ARITH, em_cmpf }, { "arith.cmpi", R_ARITH, em_cmpi },
	{ "arith.select", R_BITS, em_select }, { "arith.bitcast", R_BITS, em_bitcast },
	{ "arith.extf", R_ARITH, em_fcast }, { "arith.truncf", R_ARITH, em_fcast },
	{ "arith.extsi", R_ARITH, em_extsi }, { "arith.extui", R_ARITH, em_extui },
	{ "arith.trunci", R_ARITH, em_trunci },
	{ "arith.index_cast", R_ARITH, em_intcast, 1 },
	{ "arith.index_castui", R_ARITH, em_intcast, 0 },
	{ "arith.sitofp", R_ARITH, em_itofp, 1 }, { "arith.uitofp", R_ARITH, em_itofp, 0 },
	{ "arith.fptosi", R_ARITH, em_fptoi, 1 }, { "arith.fptoui", R_ARITH, em_fptoi, 0 },
	{ "math.sqrt", R_MATH, em_intr, 1, "llvm.sqrt", em_intr },
	{ "math.absf", R_MATH, em_intr, 1, "llvm.fabs", em_intr },
	{ "math.exp", R_MATH, em_fast_f32, 1, "exp", em_fast_exp },
	{ "math.rsqrt", R_MATH, em_rsqrt },
	INTR1("floor", "llvm.floor"), INTR1("ceil", "llvm.ceil"), INTR1("trunc", "llvm.trunc"),
	INTR1("roundeven", "llvm.roundeven"), INTR1("round", "llvm.round"),
	INTR1("ctpop", "llvm.ctpop"),
	{ "math.copysign", R_MATH, em_intr, 2, "llvm.copysign" },
	{ "math.fma", R_MATH, em_intr, 3, "llvm.fma" },
	{ "math.ctlz", R_MATH, em_countz, 0, "llvm.ctlz" },
	{ "math.cttz", R_MATH, em_countz, 0, "llvm.cttz" },
	{ "math.ipowi", R_MATH, em_ipowi }, { "math.absi", R_MATH, em_absi },
	{ "math.powf", R_MATH, em_libm, 2, "pow" }, { "math.atan2", R_MATH, em_libm, 2, "atan2" },
	LIBM1("exp2"), LIBM1("expm1"), LIBM1("log"), LIBM1("log1p"), LIBM1("log2"),
	LIBM1("log10"), LIBM1("sin"), LIBM1("cos"), LIBM1("tan"),
	LIBM1("atan"), { "math.tanh", R_MATH, em_fast_f32, 1, "tanh", em_fast_tanh },
	{ "math.erf", R_MATH, em_fast_f32, 1, "erf", em_fast_erf },
};
#undef LIBM1
#undef INTR1

static const ORow **row_of;   /* by op code; NULL: not an op of bodies */
static int nrow_of;

void expr_init(void)
{
	size_t i;

	nrow_of = opinfo_count();
	row_of = xcalloc((size_t)nrow_of, sizeof *row_of);
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++)
		row_of[kop_code("llvm/ops.c rows", rows[i].name)] = &rows[i];
}

/* bf16 arithmetic: in f32, rounded back */
static LLVMValueRef bf16_arith(E *e, KExpr *x, LLVMValueRef *a, const ORow *r)
{
	LLVMValueRef v;
	int i;

	for (i = 0; i < x->n; i++)
		a[i] = bf16_to_f32(e, a[i]);
	if (r->kind != R_FLOAT)
		return NULL;
	v = r->fn(e, x, a, r);
	return v ? f32_to_bf16(e, v) : NULL;
}

/* math on f16 and bf16: in f32, rounded back */
static LLVMValueRef half_math(E *e, KExpr *x, LLVMValueRef *a, const ORow *r)
{
	Type *at = x->a[0]->type, *f32 = ty_float(e->g->c, TY_F32);
	LLVMValueRef v;
	int i;

	for (i = 0; i < x->n; i++)
		a[i] = fcast(e, a[i], at, f32);
	if (r->half)
		v = r->half(e, x, a, r);
	else   /* named after the op: math.powf is powff */
		v = libm(e, kop_name(x->op) + 5, f32, a, x->n);
	return v ? fcast(e, v, f32, x->type) : NULL;
}

/* A contraction's step, acc + a b in f32 or f64, as one multiply-add:
 * one rounding where the CPU has FMA (llvm.fmuladd), as the GEMM
 * micro-kernels and oneDNN's convolutions take it -- a depthwise
 * window's nine taps nine FMAs, not nine products and nine sums; NULL
 * where x is no such step */
static LLVMValueRef acc_fmuladd(E *e, KExpr *x)
{
	LLVMValueRef f[3];
	KExpr *m;
	int i;

	if (x->type->kind != TY_F32 && x->type->kind != TY_F64)
		return NULL;
	for (i = 0; i < 2 && x->a[i]->kind != KX_ACC; i++)
		;
	if (i == 2)
		return NULL;
	m = x->a[1 - i];
	if (m->kind != KX_OP || m->op != kop.mulf)
		return NULL;
	if (!(f[0] = e_expr(e, m->a[0])) || !(f[1] = e_expr(e, m->a[1])) || !(f[2] = e_expr(e, x->a[i])))
		return NULL;
	return intrinsic(e, "llvm.fmuladd", f, 3);
}

LLVMValueRef e_op(E *e, KExpr *x)
{
	const ORow *r = x->op >= 0 && x->op < nrow_of ? row_of[x->op] : NULL;
	LLVMValueRef a[3] = { NULL, NULL, NULL }, v;
	Type *at = x->n ? x->a[0]->type : x->type;
	int i;

	if (x->op == kop.addf && (v = acc_fmuladd(e, x)))
		return v;
	for (i = 0; i < x->n && i < 3; i++)
		if (!(a[i] = e_expr(e, x->a[i])))
			return NULL;
	if (!r)
		return NULL;
	if (r->kind == R_MATH)
		return at->kind == TY_BF16 || at->kind == TY_F16 ? half_math(e, x, a, r)
			: r->fn(e, x, a, r);
	if (at->kind == TY_BF16 && x->type->kind == TY_BF16 && r->kind != R_BITS)
		return bf16_arith(e, x, a, r);
	return r->fn(e, x, a, r);
}
