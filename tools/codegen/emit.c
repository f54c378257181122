/*
 * emit.c - kernels to LLVM IR through LLVM-C, then to an ELF object.
 *
 * Each kernel is two functions: the ABI entry point (formats/fxvm.md),
 * which loads the binding pointers and calls an internal body whose
 * pointer parameters are noalias and 64-byte aligned, so LLVM may
 * vectorize freely.  Loop nests are written plainly: counters and
 * accumulators in allocas, innermost loops with constant trip counts and
 * unit-stride addresses where the layout allows, so that after mem2reg the
 * O3 pipeline's loop vectorizer turns them into AVX-512 code.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/DebugInfo.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <llvm-c/Support.h>

#include "emit.h"
#include "rt/rt.h"
#include "tool.h"

LLVMValueRef e_i64(E *e, int64_t v) { return LLVMConstInt(e->i64, (unsigned long long)v, 1); }

LLVMTypeRef e_type(E *e, const Type *t)
{
	switch (t->kind) {
	case TY_F32: return e->f32;
	case TY_F64: return LLVMDoubleTypeInContext(e->cx);
	case TY_F16: return LLVMHalfTypeInContext(e->cx);
	case TY_BF16: return LLVMInt16TypeInContext(e->cx);   /* bits; math in f32 */
	case TY_INDEX: return e->i64;
	case TY_INT: return LLVMIntTypeInContext(e->cx, (unsigned)t->width);
	default:
		die("codegen: no LLVM type for type kind %d", t->kind);
	}
}

LLVMTypeRef e_memtype(E *e, const Type *t)
{
	if (t->kind == TY_INT && t->width == 1)
		return e->i8;
	return e_type(e, t);
}

static LLVMTypeRef vtype(E *e, LLVMTypeRef t)
{
	return e->vw > 1 ? LLVMVectorType(t, (unsigned)e->vw) : t;
}

static LLVMValueRef splat(E *e, LLVMValueRef s)
{
	LLVMValueRef v;
	int i;

	if (e->vw <= 1)
		return s;
	if (LLVMIsConstant(s)) {
		LLVMValueRef el[64];

		for (i = 0; i < e->vw; i++)
			el[i] = s;
		return LLVMConstVector(el, (unsigned)e->vw);
	}
	v = LLVMGetUndef(LLVMVectorType(LLVMTypeOf(s), (unsigned)e->vw));
	v = LLVMBuildInsertElement(e->b, v, s, LLVMConstInt(e->i32, 0, 0), "");
	return LLVMBuildShuffleVector(e->b, v, v,
		LLVMConstNull(LLVMVectorType(e->i32, (unsigned)e->vw)), "splat");
}

void e_reset(E *e)
{
	pmap_free(&e->memo);
	memset(&e->memo, 0, sizeof e->memo);
}

LLVMValueRef e_alloca(E *e, LLVMTypeRef t, const char *name)
{
	LLVMBasicBlockRef cur = LLVMGetInsertBlock(e->b);
	LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(e->fn);
	LLVMValueRef first = LLVMGetFirstInstruction(entry), a;

	if (first)
		LLVMPositionBuilderBefore(e->b, first);
	else
		LLVMPositionBuilderAtEnd(e->b, entry);
	a = LLVMBuildAlloca(e->b, t, name);
	LLVMPositionBuilderAtEnd(e->b, cur);
	return a;
}

/* ---- index arithmetic (always scalar i64) ---- */

LLVMValueRef e_index(E *e, const IExpr *x)
{
	LLVMValueRef l, r;

	switch (x->kind) {
	case IX_DIM: return e->dimv[x->v];
	case IX_CONST: return e_i64(e, x->v);
	case IX_ADD:
		return LLVMBuildNSWAdd(e->b, e_index(e, x->l), e_index(e, x->r), "");
	case IX_MUL:
		return LLVMBuildNSWMul(e->b, e_index(e, x->l), e_index(e, x->r), "");
	case IX_FLOORDIV: {
		/* indices are never negative where we divide */
		return LLVMBuildSDiv(e->b, e_index(e, x->l), e_index(e, x->r), "");
	}
	case IX_MOD:
		return LLVMBuildSRem(e->b, e_index(e, x->l), e_index(e, x->r), "");
	case IX_CLAMP:
		l = e_index(e, x->l);
		r = LLVMBuildSelect(e->b, LLVMBuildICmp(e->b, LLVMIntSLT, l, e_i64(e, x->v), ""),
			e_i64(e, x->v), l, "");
		return LLVMBuildSelect(e->b, LLVMBuildICmp(e->b, LLVMIntSGT, r, e_i64(e, x->v2), ""),
			e_i64(e, x->v2), r, "");
	}
	return e_i64(e, 0);
}

/* The linear element offset of ix in a buffer of type t. */
static IExpr *linear(E *e, Type *t, IExpr *const *ix)
{
	KCtx kc = { e->g->c, e->k->ndims, e->k->ext };
	IExpr *s = ix_const(&kc, 0);
	int i;

	for (i = 0; i < t->rank; i++)
		s = ix_add(&kc, ix_mul(&kc, s, t->dims[i]), ix[i]);
	return s;
}

LLVMValueRef e_addr(E *e, int buf, IExpr *const *ix)
{
	Type *t = e->k->bind[buf].type;
	LLVMValueRef off = e_index(e, linear(e, t, ix));

	return LLVMBuildInBoundsGEP2(e->b, e_memtype(e, t->elem), e->bp[buf], &off, 1, "");
}

/* e = c * d + (terms without d)?  1 and c if so. */
static int coef(const IExpr *x, int d, int64_t *c)
{
	int64_t a, b;

	switch (x->kind) {
	case IX_DIM: *c = x->v == d; return 1;
	case IX_CONST: *c = 0; return 1;
	case IX_ADD:
		if (!coef(x->l, d, &a) || !coef(x->r, d, &b))
			return 0;
		*c = a + b;
		return 1;
	case IX_MUL:
		if (x->r->kind != IX_CONST || !coef(x->l, d, &a))
			return 0;
		*c = a * x->r->v;
		return 1;
	default:
		*c = 0;
		return !ix_uses_dim(x, d);
	}
}

/* x as a vector of e->vw lanes of integer type it, the vector dim at
 * base + lane; parts that do not depend on it are computed once */
static LLVMValueRef vindex(E *e, const IExpr *x, LLVMTypeRef it)
{
	LLVMValueRef l, r;
	int i;

	if (!ix_uses_dim(x, e->vdim))
		return splat(e, LLVMBuildIntCast2(e->b, e_index(e, x), it, 1, ""));
	switch (x->kind) {
	case IX_DIM: {
		LLVMValueRef lanes[64];

		for (i = 0; i < e->vw; i++)
			lanes[i] = LLVMConstInt(it, (unsigned long long)i, 0);
		return LLVMBuildAdd(e->b, splat(e, LLVMBuildIntCast2(e->b, e->dimv[x->v], it, 1, "")),
			LLVMConstVector(lanes, (unsigned)e->vw), "");
	}
	case IX_ADD:
		return LLVMBuildNSWAdd(e->b, vindex(e, x->l, it), vindex(e, x->r, it), "");
	case IX_MUL:
		return LLVMBuildNSWMul(e->b, vindex(e, x->l, it), vindex(e, x->r, it), "");
	case IX_FLOORDIV:
		return LLVMBuildSDiv(e->b, vindex(e, x->l, it), vindex(e, x->r, it), "");
	case IX_MOD:
		return LLVMBuildSRem(e->b, vindex(e, x->l, it), vindex(e, x->r, it), "");
	case IX_CLAMP: {
		LLVMValueRef lo = splat(e, LLVMConstInt(it, (unsigned long long)x->v, 1));
		LLVMValueRef hi = splat(e, LLVMConstInt(it, (unsigned long long)x->v2, 1));

		l = vindex(e, x->l, it);
		r = LLVMBuildSelect(e->b, LLVMBuildICmp(e->b, LLVMIntSLT, l, lo, ""), lo, l, "");
		return LLVMBuildSelect(e->b, LLVMBuildICmp(e->b, LLVMIntSGT, r, hi, ""), hi, r, "");
	}
	default:
		return splat(e, LLVMBuildIntCast2(e->b, e_index(e, x), it, 1, ""));
	}
}

/* the index type for vectors of indices into the kernel: i32 when every
 * value an index takes fits (buffers and the domain below 2^31 elements) */
static LLVMTypeRef vindex_type(E *e, const Type *t)
{
	int64_t n = 1;
	int i;

	for (i = 0; i < e->k->ndims; i++)
		if ((n *= e->k->ext[i] > 0 ? e->k->ext[i] : 1) >= (1ll << 30))
			return e->i64;
	return ty_numel(t) < (1ll << 30) ? e->i32 : e->i64;
}

/* ---- scalar and vector expressions ---- */

static LLVMValueRef load_mem(E *e, LLVMTypeRef mt, LLVMValueRef p, const Type *t, int vec)
{
	LLVMTypeRef lt = vec ? LLVMVectorType(mt, (unsigned)e->vw) : mt;
	LLVMValueRef v = LLVMBuildLoad2(e->b, lt, p, "");

	LLVMSetAlignment(v, (unsigned)elem_size(t));
	if (t->kind == TY_INT && t->width == 1)
		v = LLVMBuildTrunc(e->b, v, vec ? LLVMVectorType(e->i1, (unsigned)e->vw) : e->i1, "");
	return v;
}

/* Evaluates f once per lane with the vector dim at base + lane. */
static LLVMValueRef per_lane(E *e, KExpr *x, LLVMValueRef (*f)(E *, KExpr *))
{
	LLVMValueRef base = e->dimv[e->vdim], v;
	int vw = e->vw, i;

	e->vw = 1;
	v = NULL;
	for (i = 0; i < vw; i++) {
		LLVMValueRef s;

		e->dimv[e->vdim] = LLVMBuildAdd(e->b, base, e_i64(e, i), "");
		s = f(e, x);
		if (!v)
			v = LLVMGetUndef(LLVMVectorType(LLVMTypeOf(s), (unsigned)vw));
		v = LLVMBuildInsertElement(e->b, v, s, LLVMConstInt(e->i32, (unsigned long long)i, 0), "");
	}
	e->dimv[e->vdim] = base;
	e->vw = vw;
	return v;
}

static LLVMValueRef scalar_load(E *e, KExpr *x)
{
	Type *t = e->k->bind[x->buf].type;

	return load_mem(e, e_memtype(e, t->elem), e_addr(e, x->buf, x->ix), t->elem, 0);
}

/* lane l of the vector: i0 + l * step (step 1 or 2)?  An i1. */
static LLVMValueRef lanes_step(E *e, LLVMValueRef off, LLVMValueRef i0, LLVMTypeRef it, int step)
{
	LLVMValueRef lanes[64], eq;
	int i;

	for (i = 0; i < e->vw; i++)
		lanes[i] = LLVMConstInt(it, (unsigned long long)(i * step), 0);
	eq = LLVMBuildICmp(e->b, LLVMIntEQ, off,
		LLVMBuildAdd(e->b, splat(e, i0), LLVMConstVector(lanes, (unsigned)e->vw), ""), "");
	eq = LLVMBuildBitCast(e->b, eq, LLVMIntTypeInContext(e->cx, (unsigned)e->vw), "");
	return LLVMBuildICmp(e->b, LLVMIntEQ, eq, LLVMConstAllOnes(LLVMIntTypeInContext(e->cx, (unsigned)e->vw)), "");
}

static LLVMValueRef load_at(E *e, LLVMTypeRef vt, LLVMTypeRef mt, int buf, LLVMValueRef i, unsigned align)
{
	LLVMValueRef v = LLVMBuildLoad2(e->b, vt, LLVMBuildGEP2(e->b, mt, e->bp[buf], &i, 1, ""), "");

	LLVMSetAlignment(v, align);
	return v;
}

/* ---- an index that stays on one affine piece across the lanes ---- */

/* x at the vector's first lane and at its last */
static void lane_ends(E *e, const IExpr *x, LLVMValueRef *first, LLVMValueRef *last)
{
	LLVMValueRef base = e->dimv[e->vdim];

	*first = e_index(e, x);
	e->dimv[e->vdim] = LLVMBuildAdd(e->b, base, e_i64(e, e->vw - 1), "");
	*last = e_index(e, x);
	e->dimv[e->vdim] = base;
}

static void and_into(E *e, LLVMValueRef *cond, LLVMValueRef c)
{
	*cond = *cond ? LLVMBuildAnd(e->b, *cond, c, "") : c;
}

/* x over the lanes is affine with the constant slope *slope >= 0 per lane
 * wherever the scalar conditions ANDed into *cond hold: no floordiv or
 * mod changes quotient between the first lane and the last (x's parts
 * never decrease along the lanes), no clamp bites at either end.  0 when
 * x's form rules that out.  Cheaper than the lanes' offsets as a vector:
 * a few scalar operations, which run beside the vector units. */
static int lane_affine(E *e, const IExpr *x, int64_t *slope, LLVMValueRef *cond)
{
	LLVMValueRef lo, hi;
	int64_t a, b;

	if (!ix_uses_dim(x, e->vdim)) {
		*slope = 0;
		return 1;
	}
	switch (x->kind) {
	case IX_DIM:
		*slope = 1;
		return 1;
	case IX_ADD:
		if (!lane_affine(e, x->l, &a, cond) || !lane_affine(e, x->r, &b, cond))
			return 0;
		*slope = a + b;
		return 1;
	case IX_MUL:
		if (x->r->kind == IX_CONST && x->r->v >= 0 && lane_affine(e, x->l, &a, cond)) {
			*slope = a * x->r->v;
			return 1;
		}
		if (x->l->kind == IX_CONST && x->l->v >= 0 && lane_affine(e, x->r, &a, cond)) {
			*slope = a * x->l->v;
			return 1;
		}
		return 0;
	case IX_FLOORDIV:
	case IX_MOD:
		if (x->r->kind != IX_CONST || x->r->v <= 0 || !lane_affine(e, x->l, &a, cond))
			return 0;
		lane_ends(e, x->l, &lo, &hi);
		and_into(e, cond, LLVMBuildICmp(e->b, LLVMIntEQ, LLVMBuildSDiv(e->b, lo, e_i64(e, x->r->v), ""),
			LLVMBuildSDiv(e->b, hi, e_i64(e, x->r->v), ""), ""));
		*slope = x->kind == IX_MOD ? a : 0;
		return 1;
	case IX_CLAMP:
		if (!lane_affine(e, x->l, &a, cond))
			return 0;
		lane_ends(e, x->l, &lo, &hi);
		and_into(e, cond, LLVMBuildICmp(e->b, LLVMIntSGE, lo, e_i64(e, x->v), ""));
		and_into(e, cond, LLVMBuildICmp(e->b, LLVMIntSLE, hi, e_i64(e, x->v2), ""));
		*slope = a;
		return 1;
	default:
		return 0;
	}
}

/* elements i0, i0 + 2, ..., i0 + 2 (vw - 1): lanes 0, 2, … of a load from
 * i0 and 1, 3, … of one from i0 + vw - 1, so nothing past the last is read */
static LLVMValueRef load_stride2(E *e, LLVMTypeRef vt, LLVMTypeRef mt, int buf, LLVMValueRef i0, unsigned al)
{
	LLVMValueRef lanes[64];
	int i, vw = e->vw;

	for (i = 0; i < vw; i++)
		lanes[i] = LLVMConstInt(e->i32, (unsigned long long)(2 * i <= vw - 1 ? 2 * i : 2 * i + 1), 0);
	return LLVMBuildShuffleVector(e->b, load_at(e, vt, mt, buf, i0, al),
		load_at(e, vt, mt, buf, LLVMBuildAdd(e->b, i0, LLVMConstInt(LLVMTypeOf(i0), (unsigned long long)vw - 1, 0), ""), al),
		LLVMConstVector(lanes, (unsigned)vw), "");
}

/* The lanes' offsets as a vector.  Where they turn out consecutive at
 * run time, one vector load; every second element, two loads and a
 * shuffle; else a gather. */
static LLVMValueRef gather_lanes(E *e, KExpr *x, const Type *t, IExpr *lin)
{
	LLVMTypeRef mt = e_memtype(e, t->elem), vt = LLVMVectorType(mt, (unsigned)e->vw);
	LLVMTypeRef pt = LLVMVectorType(e->ptr, (unsigned)e->vw), ovl[2] = { vt, pt };
	LLVMTypeRef it = vindex_type(e, t);
	LLVMValueRef off = vindex(e, lin, it), args[4], lanes[64], i0, v[3], phi;
	LLVMBasicBlockRef bb[3], s2test, join;
	unsigned id = LLVMLookupIntrinsicID("llvm.masked.gather", 18), al = (unsigned)elem_size(t->elem);
	int i, vw = e->vw;

	i0 = LLVMBuildExtractElement(e->b, off, LLVMConstInt(e->i32, 0, 0), "");
	bb[0] = LLVMAppendBasicBlockInContext(e->cx, e->fn, "run");
	s2test = LLVMAppendBasicBlockInContext(e->cx, e->fn, "stride2?");
	bb[1] = LLVMAppendBasicBlockInContext(e->cx, e->fn, "stride2");
	bb[2] = LLVMAppendBasicBlockInContext(e->cx, e->fn, "gather");
	join = LLVMAppendBasicBlockInContext(e->cx, e->fn, "loaded");
	LLVMBuildCondBr(e->b, lanes_step(e, off, i0, it, 1), bb[0], s2test);
	LLVMPositionBuilderAtEnd(e->b, bb[0]);
	v[0] = load_at(e, vt, mt, x->buf, i0, al);
	LLVMBuildBr(e->b, join);
	LLVMPositionBuilderAtEnd(e->b, s2test);
	LLVMBuildCondBr(e->b, lanes_step(e, off, i0, it, 2), bb[1], bb[2]);
	LLVMPositionBuilderAtEnd(e->b, bb[1]);
	v[1] = load_stride2(e, vt, mt, x->buf, i0, al);
	LLVMBuildBr(e->b, join);
	LLVMPositionBuilderAtEnd(e->b, bb[2]);
	for (i = 0; i < vw; i++)
		lanes[i] = LLVMConstInt(e->i1, 1, 0);
	args[0] = LLVMBuildGEP2(e->b, mt, e->bp[x->buf], &off, 1, "");
	args[1] = LLVMConstInt(e->i32, al, 0);
	args[2] = LLVMConstVector(lanes, (unsigned)vw);
	args[3] = LLVMGetUndef(vt);
	v[2] = LLVMBuildCall2(e->b, LLVMIntrinsicGetType(e->cx, id, ovl, 2),
		LLVMGetIntrinsicDeclaration(e->m, id, ovl, 2), args, 4, "");
	LLVMBuildBr(e->b, join);
	LLVMPositionBuilderAtEnd(e->b, join);
	phi = LLVMBuildPhi(e->b, vt, "");
	LLVMAddIncoming(phi, v, bb, 3);
	return phi;
}

/* v_fast where cond holds, else what slow() emits */
static LLVMValueRef fast_or(E *e, LLVMValueRef cond, LLVMValueRef (*fast)(E *, void *),
	LLVMValueRef (*slow)(E *, void *), void *arg, const char *name)
{
	LLVMBasicBlockRef fb = LLVMAppendBasicBlockInContext(e->cx, e->fn, name);
	LLVMBasicBlockRef sb = LLVMAppendBasicBlockInContext(e->cx, e->fn, "lanes");
	LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(e->cx, e->fn, "joined"), from[2];
	LLVMValueRef v[2], phi;

	LLVMBuildCondBr(e->b, cond, fb, sb);
	LLVMPositionBuilderAtEnd(e->b, fb);
	v[0] = fast(e, arg);
	from[0] = LLVMGetInsertBlock(e->b);
	LLVMBuildBr(e->b, join);
	LLVMPositionBuilderAtEnd(e->b, sb);
	v[1] = slow(e, arg);
	from[1] = LLVMGetInsertBlock(e->b);
	LLVMBuildBr(e->b, join);
	LLVMPositionBuilderAtEnd(e->b, join);
	phi = LLVMBuildPhi(e->b, LLVMTypeOf(v[0]), "");
	LLVMAddIncoming(phi, v, from, 2);
	return phi;
}

typedef struct GatherArg {
	KExpr *x;
	const Type *t;
	IExpr *lin;
	int64_t slope;
} GatherArg;

static LLVMValueRef piece_load(E *e, void *arg)
{
	GatherArg *g = arg;
	LLVMTypeRef mt = e_memtype(e, g->t->elem), vt = LLVMVectorType(mt, (unsigned)e->vw);
	LLVMValueRef i0 = e_index(e, g->lin);
	unsigned al = (unsigned)elem_size(g->t->elem);

	return g->slope == 1 ? load_at(e, vt, mt, g->x->buf, i0, al) : load_stride2(e, vt, mt, g->x->buf, i0, al);
}

static LLVMValueRef lanes_load(E *e, void *arg)
{
	GatherArg *g = arg;

	return gather_lanes(e, g->x, g->t, g->lin);
}

/* A load whose address is not provably contiguous along the vector dim.
 * Where the index stays on one affine piece across the lanes (an im2col
 * row away from the padding and the row's end), found by a few scalar
 * tests, one vector load or, every second element (a stride-2
 * convolution or pooling), two loads and a shuffle; else by the lanes'
 * offsets as a vector. */
static LLVMValueRef gather(E *e, KExpr *x, const Type *t, IExpr *lin)
{
	GatherArg g = { x, t, lin, 0 };
	LLVMValueRef cond = NULL;

	if (!e->pieces || !lane_affine(e, lin, &g.slope, &cond) || (g.slope != 1 && g.slope != 2))
		return gather_lanes(e, x, t, lin);
	if (!cond)
		return piece_load(e, &g);
	return fast_or(e, cond, piece_load, lanes_load, &g, "piece");
}

/* lo <= ix < hi for every index, a vector of lanes */
static LLVMValueRef inrange_lanes(E *e, void *arg)
{
	KExpr *x = arg;
	LLVMValueRef c = NULL;
	int i;

	for (i = 0; i < x->rank; i++) {
		int64_t lo, hi;
		KCtx kc = { e->g->c, e->k->ndims, e->k->ext };
		LLVMTypeRef it = e->i64;
		LLVMValueRef v, d;

		int known = ix_range(&kc, x->ix[i], &lo, &hi);

		if (known && lo >= x->lo[i] && hi < x->hi[i])
			continue;
		if (known && lo > -(1ll << 30) && hi < (1ll << 30) &&
				x->lo[i] > -(1ll << 30) && x->hi[i] < (1ll << 30))
			it = e->i32;
		v = LLVMBuildSub(e->b, vindex(e, x->ix[i], it), splat(e, LLVMConstInt(it, (unsigned long long)x->lo[i], 1)), "");
		d = LLVMBuildICmp(e->b, LLVMIntULT, v,
			splat(e, LLVMConstInt(it, (unsigned long long)(x->hi[i] - x->lo[i]), 0)), "");
		c = c ? LLVMBuildAnd(e->b, c, d, "") : d;
	}
	return c ? c : splat(e, LLVMConstInt(e->i1, 1, 0));
}

static LLVMValueRef all_lanes(E *e, void *arg)
{
	(void)arg;
	return splat(e, LLVMConstInt(e->i1, 1, 0));
}

/* Every lane in range where each index is on one affine piece across
 * the lanes and its first and last lane are in range (scalar tests, as
 * for gather; an index the lanes share, tested once), else lane by lane. */
static LLVMValueRef vector_inrange(E *e, KExpr *x)
{
	LLVMValueRef cond = NULL, lo, hi;
	int64_t slope;
	int i;

	if (!e->pieces)
		return inrange_lanes(e, x);
	for (i = 0; i < x->rank; i++) {
		if (!ix_uses_dim(x->ix[i], e->vdim)) {
			/* the same for every lane: in range or not */
			lo = hi = e_index(e, x->ix[i]);
		} else {
			if (!lane_affine(e, x->ix[i], &slope, &cond))
				return inrange_lanes(e, x);
			lane_ends(e, x->ix[i], &lo, &hi);
		}
		and_into(e, &cond, LLVMBuildICmp(e->b, LLVMIntSGE, lo, e_i64(e, x->lo[i]), ""));
		and_into(e, &cond, LLVMBuildICmp(e->b, LLVMIntSLT, hi, e_i64(e, x->hi[i]), ""));
	}
	if (!cond)
		return inrange_lanes(e, x);
	return fast_or(e, cond, all_lanes, inrange_lanes, x, "inside");
}

static LLVMValueRef emit_load(E *e, KExpr *x)
{
	Type *t = e->k->bind[x->buf].type;
	int64_t c;

	if (e->vw > 1) {
		IExpr *lin = linear(e, t, x->ix);

		if ((!coef(lin, e->vdim, &c) || (c != 0 && c != 1)) &&
				(elem_size(t->elem) == 4 || elem_size(t->elem) == 8) && !(t->elem->kind == TY_INT && t->elem->width == 1))
			return gather(e, x, t, lin);
		if (!coef(lin, e->vdim, &c) || (c != 0 && c != 1))
			return per_lane(e, x, scalar_load);
		if (c == 0)
			return splat(e, scalar_load(e, x));
		return load_mem(e, e_memtype(e, t->elem), e_addr(e, x->buf, x->ix), t->elem, 1);
	}
	return scalar_load(e, x);
}

/* Stops the kernel (a trap: vmrun reports it) unless every index in ok,
 * one i1 or a vector of them, is in range.  An index out of range is a
 * wrong input (an embedding's token past the table): no result beats a
 * read of whatever lies there. */
static void check_in_range(E *e, LLVMValueRef ok)
{
	LLVMBasicBlockRef bad = LLVMAppendBasicBlockInContext(e->cx, e->fn, "out_of_range");
	LLVMBasicBlockRef good = LLVMAppendBasicBlockInContext(e->cx, e->fn, "in_range");
	unsigned id = LLVMLookupIntrinsicID("llvm.trap", 9);

	if (e->vw > 1) {
		LLVMTypeRef bits = LLVMIntTypeInContext(e->cx, (unsigned)e->vw);

		ok = LLVMBuildICmp(e->b, LLVMIntEQ, LLVMBuildBitCast(e->b, ok, bits, ""),
			LLVMConstAllOnes(bits), "");
	}
	LLVMBuildCondBr(e->b, ok, good, bad);
	LLVMPositionBuilderAtEnd(e->b, bad);
	LLVMBuildCall2(e->b, LLVMIntrinsicGetType(e->cx, id, NULL, 0),
		LLVMGetIntrinsicDeclaration(e->m, id, NULL, 0), NULL, 0, "");
	LLVMBuildUnreachable(e->b);
	LLVMPositionBuilderAtEnd(e->b, good);
}

/* A load at computed indices, each checked against its dim.  In vectors
 * the indices are vectors of the lanes' own values (each lane's, not the
 * first lane's, which a per-lane scalar load would reuse from the memo),
 * then a gather. */
static LLVMValueRef emit_xload(E *e, KExpr *x)
{
	Type *t = e->k->bind[x->buf].type;
	LLVMTypeRef mt = e_memtype(e, t->elem), it = vtype(e, e->i64);
	LLVMValueRef off = splat(e, e_i64(e, 0)), ok = NULL, p, args[4], mask[64], v;
	unsigned id;
	int i;

	for (i = 0; i < x->n; i++) {
		LLVMValueRef iv = e_expr(e, x->a[i]), in;

		if (!iv)
			return NULL;
		iv = LLVMBuildIntCast2(e->b, iv, it, 1, "");
		in = LLVMBuildICmp(e->b, LLVMIntULT, iv, splat(e, e_i64(e, t->dims[i])), "");
		ok = ok ? LLVMBuildAnd(e->b, ok, in, "") : in;
		off = LLVMBuildAdd(e->b, LLVMBuildMul(e->b, off, splat(e, e_i64(e, t->dims[i])), ""),
			iv, "");
	}
	if (ok)
		check_in_range(e, ok);
	p = LLVMBuildGEP2(e->b, mt, e->bp[x->buf], &off, 1, "");
	if (e->vw <= 1)
		return load_mem(e, mt, p, t->elem, 0);
	{
		LLVMTypeRef vt = LLVMVectorType(mt, (unsigned)e->vw);
		LLVMTypeRef ovl[2] = { vt, LLVMVectorType(e->ptr, (unsigned)e->vw) };

		id = LLVMLookupIntrinsicID("llvm.masked.gather", 18);
		for (i = 0; i < e->vw; i++)
			mask[i] = LLVMConstInt(e->i1, 1, 0);
		args[0] = p;
		args[1] = LLVMConstInt(e->i32, (unsigned long long)elem_size(t->elem), 0);
		args[2] = LLVMConstVector(mask, (unsigned)e->vw);
		args[3] = LLVMGetUndef(vt);
		v = LLVMBuildCall2(e->b, LLVMIntrinsicGetType(e->cx, id, ovl, 2),
			LLVMGetIntrinsicDeclaration(e->m, id, ovl, 2), args, 4, "");
	}
	if (t->elem->kind == TY_INT && t->elem->width == 1)
		v = LLVMBuildTrunc(e->b, v, LLVMVectorType(e->i1, (unsigned)e->vw), "");
	return v;
}

static LLVMValueRef emit_const(E *e, KExpr *x)
{
	Attr *a = x->cval;
	LLVMTypeRef t = e_type(e, x->type);
	LLVMValueRef v;

	if (ty_isfloat(x->type)) {
		double d = a->kind == AT_FLOAT ? a->f : (double)a->i;

		if (x->type->kind == TY_BF16) {
			v = LLVMConstInt(t, fp_bits(d, x->type), 0);
		} else {
			v = LLVMConstReal(t, d);
		}
	} else {
		v = LLVMConstInt(t, (unsigned long long)(a->kind == AT_FLOAT ? (int64_t)a->f : a->i), 1);
	}
	return splat(e, v);
}

static LLVMValueRef scalar_index(E *e, KExpr *x) { return e_index(e, x->ix[0]); }

static LLVMValueRef scalar_inrange(E *e, KExpr *x)
{
	LLVMValueRef c = LLVMConstInt(e->i1, 1, 0);
	int i;

	for (i = 0; i < x->rank; i++) {
		int64_t lo, hi;
		KCtx kc = { e->g->c, e->k->ndims, e->k->ext };
		LLVMValueRef v;

		if (ix_range(&kc, x->ix[i], &lo, &hi) && lo >= x->lo[i] && hi < x->hi[i])
			continue;
		v = e_index(e, x->ix[i]);
		/* lo <= v < hi as one unsigned compare */
		v = LLVMBuildSub(e->b, v, e_i64(e, x->lo[i]), "");
		c = LLVMBuildAnd(e->b, c, LLVMBuildICmp(e->b, LLVMIntULT, v,
			e_i64(e, x->hi[i] - x->lo[i]), ""), "");
	}
	return c;
}

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
	LLVMTypeRef i16 = vtype(e, LLVMInt16TypeInContext(e->cx));
	LLVMTypeRef i32 = vtype(e, e->i32);

	(void)i16;
	v = LLVMBuildZExt(e->b, v, i32, "");
	v = LLVMBuildShl(e->b, v, splat(e, LLVMConstInt(e->i32, 16, 0)), "");
	return LLVMBuildBitCast(e->b, v, vtype(e, e->f32), "");
}

static LLVMValueRef f32_to_bf16(E *e, LLVMValueRef v)
{
	LLVMTypeRef i32 = vtype(e, e->i32);
	LLVMValueRef bits = LLVMBuildBitCast(e->b, v, i32, ""), r, nan;

	r = LLVMBuildAnd(e->b, LLVMBuildLShr(e->b, bits, splat(e, LLVMConstInt(e->i32, 16, 0)), ""),
		splat(e, LLVMConstInt(e->i32, 1, 0)), "");
	r = LLVMBuildAdd(e->b, bits, LLVMBuildAdd(e->b, r, splat(e, LLVMConstInt(e->i32, 0x7FFF, 0)), ""), "");
	r = LLVMBuildLShr(e->b, r, splat(e, LLVMConstInt(e->i32, 16, 0)), "");
	nan = LLVMBuildFCmp(e->b, LLVMRealUNO, v, v, "");
	r = LLVMBuildSelect(e->b, nan, splat(e, LLVMConstInt(e->i32, 0x7FC0, 0)), r, "");
	return LLVMBuildTrunc(e->b, r, vtype(e, LLVMInt16TypeInContext(e->cx)), "");
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
			v = LLVMBuildFPCast(e->b, v, vtype(e, e->f32), "");
		return f32_to_bf16(e, v);
	}
	return LLVMBuildFPCast(e->b, v, vtype(e, e_type(e, to)), "");
}

/* fast exp for f32: 2^(x log2 e) by range reduction and a degree-6
 * polynomial, exact to ~1 ulp and vectorizable, unlike a call to expf */
static LLVMValueRef fast_expf(E *e, LLVMValueRef x)
{
	LLVMBuilderRef b = e->b;
	LLVMTypeRef ft = vtype(e, e->f32), it = vtype(e, e->i32);
	LLVMValueRef n, r, p, ni, s, big, small, nan;
	static const double c[] = { 1.0, 1.0, 0.5, 1.6666666666666666e-1,
		4.1666666666666664e-2, 8.3333333333333332e-3, 1.3888888888888889e-3 };
	int i;

#define F(v) splat(e, LLVMConstReal(e->f32, (v)))
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
		LLVMValueRef h = LLVMBuildAShr(b, ni, splat(e, LLVMConstInt(e->i32, 1, 0)), "");
		LLVMValueRef l = LLVMBuildSub(b, ni, h, "");

		s = LLVMBuildBitCast(b, LLVMBuildShl(b, LLVMBuildAdd(b, h, splat(e, LLVMConstInt(e->i32, 127, 0)), ""),
			splat(e, LLVMConstInt(e->i32, 23, 0)), ""), ft, "");
		p = LLVMBuildFMul(b, p, s, "");
		s = LLVMBuildBitCast(b, LLVMBuildShl(b, LLVMBuildAdd(b, l, splat(e, LLVMConstInt(e->i32, 127, 0)), ""),
			splat(e, LLVMConstInt(e->i32, 23, 0)), ""), ft, "");
		p = LLVMBuildFMul(b, p, s, "");
	}
	p = LLVMBuildSelect(b, small, F(0.0), p, "");
	p = LLVMBuildSelect(b, big, F(__builtin_inff()), p, "");
	p = LLVMBuildSelect(b, nan, x, p, "");
#undef F
	return p;
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
	LLVMValueRef one = splat(e, LLVMConstInt(st, 1, 0)), zero = LLVMConstNull(t);
	LLVMValueRef m1 = LLVMConstAllOnes(t), r = one, p = x, odd, neg;

	for (k = 0; k + 1 < w; k++) {
		LLVMValueRef bit = LLVMBuildAnd(b, n, splat(e, LLVMConstInt(st, 1ull << k, 0)), "");

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
	return vtype(e, e_type(e, x->type));
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

static LLVMValueRef em_fcast(E *e, KExpr *x, LLVMValueRef *a, const ORow *r)
{
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
		LLVMValueRef f = r->how ? LLVMBuildSIToFP(b, a[0], vtype(e, e->f32), "")
			: LLVMBuildUIToFP(b, a[0], vtype(e, e->f32), "");
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

	return LLVMBuildFDiv(e->b, splat(e, LLVMConstReal(e_type(e, x->type), 1.0)), s, "");
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

static LLVMValueRef em_exp(E *e, KExpr *x, LLVMValueRef *a, const ORow *r)
{
	if (x->type->kind == TY_F32)
		return fast_expf(e, a[0]);
	return libm(e, "exp", x->type, a, 1);
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
	{ "math.exp", R_MATH, em_exp, 0, NULL, em_fast_exp },
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
	LIBM1("log10"), LIBM1("sin"), LIBM1("cos"), LIBM1("tan"), LIBM1("tanh"),
	LIBM1("atan"), LIBM1("erf"),
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
		row_of[kop_code("emit.c rows", rows[i].name)] = &rows[i];
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

static LLVMValueRef emit_op(E *e, KExpr *x)
{
	const ORow *r = x->op >= 0 && x->op < nrow_of ? row_of[x->op] : NULL;
	LLVMValueRef a[3] = { NULL, NULL, NULL };
	Type *at = x->n ? x->a[0]->type : x->type;
	int i;

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

LLVMValueRef e_expr(E *e, KExpr *x)
{
	LLVMValueRef v = pmap_get(&e->memo, x);

	if (v)
		return v;
	switch (x->kind) {
	case KX_LOAD: v = emit_load(e, x); break;
	case KX_XLOAD: v = emit_xload(e, x); break;
	case KX_CONST: v = emit_const(e, x); break;
	case KX_INDEX:
		v = e->vw > 1 ? per_lane(e, x, scalar_index) : scalar_index(e, x);
		break;
	case KX_INRANGE:
		v = e->vw > 1 ? vector_inrange(e, x) : scalar_inrange(e, x);
		break;
	case KX_ACC:
		if (e->accp[x->buf] && LLVMGetTypeKind(LLVMTypeOf(e->accp[x->buf])) == LLVMPointerTypeKind) {
			v = LLVMBuildLoad2(e->b, vtype(e, e_type(e, x->type)), e->accp[x->buf], "acc");
			/* S2's accumulator is the output: a vector of it is
			 * aligned to its element only */
			LLVMSetAlignment(v, (unsigned)elem_size(x->type));
		} else
			v = e->accp[x->buf];
		break;
	case KX_OP:
		v = emit_op(e, x);
		if (!v && !e->err) {
			op_error(e->k->root, "unsupported operation '%s' on %s in a fused body",
				kop_name(x->op), x->n && x->a[0]->type->kind == TY_BF16 ? "bf16" : "this type");
			e->err = 1;
		}
		break;
	}
	if (v)
		*pmap_slot(&e->memo, x, 1) = v;
	return v;
}

static void store_val(E *e, LLVMValueRef v, LLVMValueRef p, const Type *t)
{
	LLVMValueRef s;

	if (t->kind == TY_INT && t->width == 1)
		v = LLVMBuildZExt(e->b, v, e->vw > 1 ? LLVMVectorType(e->i8, (unsigned)e->vw) : e->i8, "");
	s = LLVMBuildStore(e->b, v, p);
	LLVMSetAlignment(s, (unsigned)elem_size(t));
}

/* ---- loops ---- */

LLVMValueRef e_loop_begin(E *e, ELoop *l, LLVMValueRef lo, LLVMValueRef hi, LLVMValueRef step)
{
	LLVMValueRef i;

	(void)step;
	l->var = e_alloca(e, e->i64, "i");
	LLVMBuildStore(e->b, lo, l->var);
	l->hdr = LLVMAppendBasicBlockInContext(e->cx, e->fn, "loop");
	l->body = LLVMAppendBasicBlockInContext(e->cx, e->fn, "body");
	l->exit = LLVMAppendBasicBlockInContext(e->cx, e->fn, "exit");
	LLVMBuildBr(e->b, l->hdr);
	LLVMPositionBuilderAtEnd(e->b, l->hdr);
	i = LLVMBuildLoad2(e->b, e->i64, l->var, "");
	LLVMBuildCondBr(e->b, LLVMBuildICmp(e->b, LLVMIntSLT, i, hi, ""), l->body, l->exit);
	LLVMPositionBuilderAtEnd(e->b, l->body);
	return LLVMBuildLoad2(e->b, e->i64, l->var, "");
}

void e_loop_end(E *e, ELoop *l, LLVMValueRef step, int hint)
{
	LLVMValueRef i = LLVMBuildLoad2(e->b, e->i64, l->var, ""), br;

	LLVMBuildStore(e->b, LLVMBuildNSWAdd(e->b, i, step ? step : e_i64(e, 1), ""), l->var);
	br = LLVMBuildBr(e->b, l->hdr);
	if (hint) {
		LLVMMetadataRef tmp = LLVMTemporaryMDNode(e->cx, NULL, 0), node, ops[2];
		const char *what = hint == LOOP_VECTORIZE ? "llvm.loop.vectorize.enable" : "llvm.loop.unroll.disable";

		ops[0] = tmp;
		if (hint == LOOP_VECTORIZE) {
			LLVMMetadataRef kv[2] = { LLVMMDStringInContext2(e->cx, what, strlen(what)),
				LLVMValueAsMetadata(LLVMConstInt(e->i1, 1, 0)) };

			ops[1] = LLVMMDNodeInContext2(e->cx, kv, 2);
		} else {
			LLVMMetadataRef k1 = LLVMMDStringInContext2(e->cx, what, strlen(what));

			ops[1] = LLVMMDNodeInContext2(e->cx, &k1, 1);
		}
		node = LLVMMDNodeInContext2(e->cx, ops, 2);
		LLVMMetadataReplaceAllUsesWith(tmp, node);
		LLVMSetMetadata(br, LLVMGetMDKindIDInContext(e->cx, "llvm.loop", 9),
			LLVMMetadataAsValue(e->cx, node));
	}
	LLVMPositionBuilderAtEnd(e->b, l->exit);
}

/* ---- loop-nest kernels ---- */

typedef struct Sched {
	int order[64], n;     /* parallel dims, outermost first (extent > 1) */
	int red[64], nred;
	int split;            /* the dim split across workgroups, or -1 */
	int64_t chunk;
	int empty;            /* a parallel dim of extent 0: nothing to do */
} Sched;

static void schedule(Kernel *k, Sched *s)
{
	int i, j, d;
	int64_t work = 1;

	s->n = s->nred = s->empty = 0;
	/* the first output's layout decides the order of the parallel dims */
	if (k->nout)
		for (j = 0; j < k->bind[k->out[0].buf].type->rank; j++)
			for (d = 0; d < k->ndims; d++)
				if (!k->red[d] && k->ext[d] > 1 && ix_uses_dim(k->out[0].ix[j], d)) {
					for (i = 0; i < s->n && s->order[i] != d; i++)
						;
					if (i == s->n)
						s->order[s->n++] = d;
				}
	/* dims of extent 1 are no loop (their index stays 0); an empty
	 * reduction is a loop that never runs, its outputs the initial
	 * values */
	for (d = 0; d < k->ndims; d++) {
		if (k->ext[d] == 0 && !k->red[d])
			s->empty = 1;
		if (k->ext[d] == 1 || (k->ext[d] == 0 && !k->red[d]))
			continue;
		if (k->red[d]) {
			s->red[s->nred++] = d;
			continue;
		}
		for (i = 0; i < s->n && s->order[i] != d; i++)
			;
		if (i == s->n)
			s->order[s->n++] = d;
	}
	for (d = 0; d < k->ndims; d++)
		work *= k->ext[d];
	s->split = s->n ? s->order[0] : -1;
	k->grid[0] = 1;
	if (s->split >= 0) {
		int64_t ext = k->ext[s->split], want = work / 16384;

		if (want > 64)
			want = 64;
		if (want > ext)
			want = ext;
		if (want < 1)
			want = 1;
		s->chunk = (ext + want - 1) / want;
		k->grid[0] = (ext + s->chunk - 1) / s->chunk;
	}
}

void loop_grid(Kernel *k)
{
	Sched s;

	schedule(k, &s);
}

static LLVMValueRef store_ptr(E *e, KOut *o)
{
	return e_addr(e, o->buf, o->ix);
}

/* Builds the loops over order[from..n), then calls f at the innermost. */
typedef void (*NestFn)(E *e, void *env);

/* vec_inner of nest(): the innermost loop written as vectors of EVW
 * lanes by us, not left to LLVM's loop vectorizer */
enum { VEC_EXPLICIT = 2, EVW = 16 };

/* The innermost loop over dim d (not split across workgroups): EVW lanes
 * at a time, then the rest one at a time. */
static void vloop(E *e, int d, NestFn f, void *env)
{
	int64_t ext = e->k->ext[d], main = ext / EVW * EVW;
	ELoop l;

	if (main) {
		e->dimv[d] = e_loop_begin(e, &l, e_i64(e, 0), e_i64(e, main), NULL);
		e->vw = EVW;
		e->vdim = d;
		/* a window's rows: mostly one affine piece (the test costs
		 * more code than it saves in a GEMM's packs) */
		e->pieces = 1;
		f(e, env);
		e->pieces = 0;
		e->vw = 1;
		e_loop_end(e, &l, e_i64(e, EVW), 0);
	}
	if (main < ext) {
		e->dimv[d] = e_loop_begin(e, &l, e_i64(e, main), e_i64(e, ext), NULL);
		f(e, env);
		e_loop_end(e, &l, NULL, 0);
	}
}

static void nest(E *e, const int *order, int n, Sched *s, LLVMValueRef wx,
	NestFn f, void *env, int vec_inner)
{
	ELoop l;
	int d;
	LLVMValueRef lo, hi;

	if (n == 0) {
		f(e, env);
		return;
	}
	if (n == 1 && vec_inner == VEC_EXPLICIT) {
		vloop(e, order[0], f, env);
		return;
	}
	d = order[0];
	lo = e_i64(e, 0);
	hi = e_i64(e, e->k->ext[d]);
	if (d == s->split) {
		LLVMValueRef h;

		lo = LLVMBuildMul(e->b, wx, e_i64(e, s->chunk), "lo");
		h = LLVMBuildAdd(e->b, lo, e_i64(e, s->chunk), "");
		hi = LLVMBuildSelect(e->b, LLVMBuildICmp(e->b, LLVMIntSLT, h, hi, ""), h, hi, "hi");
	}
	e->dimv[d] = e_loop_begin(e, &l, lo, hi, NULL);
	nest(e, order + 1, n - 1, s, wx, f, env, vec_inner);
	e_loop_end(e, &l, NULL, vec_inner && n == 1 ? LOOP_VECTORIZE : 0);
}

typedef struct LoopEnv {
	Sched *s;
	LLVMValueRef wx;
	int phase;            /* S2: 0 init, 1 body, 2 epilogue */
	int inner;            /* S2: the innermost parallel dim */
	int vec;              /* S2: in vectors of our own (s2_explicit) */
} LoopEnv;

static void store_out(E *e, KOut *o, LLVMValueRef v)
{
	store_val(e, v, store_ptr(e, o), e->k->bind[o->buf].type->elem);
}

int e_point_start(E *e, int nred, void (*store)(E *, KOut *, LLVMValueRef))
{
	Kernel *k = e->k;
	int i;

	e_reset(e);
	if (!nred) {
		for (i = 0; i < k->nout; i++)
			if (k->out[i].init)
				die("codegen: kernel %s: a reduction without its loops", k->name);
		for (i = 0; i < k->nout; i++) {
			LLVMValueRef v = e_expr(e, k->out[i].val);

			if (!v)
				return 1;
			if (k->out[i].epi) {
				LLVMBuildStore(e->b, v, e->accp[i]);
				v = e_expr(e, k->out[i].epi);
			}
			if (v)
				store(e, &k->out[i], v);
		}
		return 1;
	}
	for (i = 0; i < k->nout; i++) {
		LLVMValueRef v = e_expr(e, k->out[i].init);

		if (!v)
			return 1;
		LLVMBuildStore(e->b, v, e->accp[i]);
	}
	return 0;
}

/* S1 innermost point of the parallel loops: init, reduce, epilogue. */
static void red_body(E *e, void *env)
{
	Kernel *k = e->k;
	int i;

	e_reset(e);
	for (i = 0; i < k->nout; i++)
		LLVMBuildStore(e->b, e_expr(e, k->out[i].val), e->accp[i]);
}

/* A float product reduction: acc * x.  Its order stays the order of the
 * loops: a product regrouped across vector lanes can overflow to inf
 * where the sequential one reaches a 0 first (inf * 0 = NaN, not 0). */
static int fp_product(Kernel *k)
{
	int i;

	for (i = 0; i < k->nout; i++) {
		KExpr *v = k->out[i].val;

		if (v && v->kind == KX_OP && v->op == kop.mulf &&
				(v->a[0]->kind == KX_ACC || v->a[1]->kind == KX_ACC))
			return 1;
	}
	return 0;
}

static void s1_point(E *e, void *env)
{
	LoopEnv *le = env;
	Kernel *k = e->k;
	int i;

	if (e_point_start(e, le->s->nred, store_out))
		return;
	nest(e, le->s->red, le->s->nred, le->s, le->wx, red_body, NULL, !fp_product(k));
	e_reset(e);
	for (i = 0; i < k->nout; i++) {
		LLVMValueRef v = k->out[i].epi ? e_expr(e, k->out[i].epi)
			: LLVMBuildLoad2(e->b, e_type(e, k->out[i].acctype), e->accp[i], "");

		if (v)
			store_out(e, &k->out[i], v);
	}
}

/* S2: the accumulator lives in the output; the innermost parallel dim is
 * the innermost loop of every phase, so each phase vectorizes. */
static void s2_phase(E *e, void *env)
{
	LoopEnv *le = env;
	KOut *o = &e->k->out[0];
	LLVMValueRef v;

	e_reset(e);
	e->accp[0] = store_ptr(e, o);
	if (le->phase == 0)
		v = e_expr(e, o->init);
	else if (le->phase == 1)
		v = e_expr(e, o->val);
	else
		v = e_expr(e, o->epi);
	if (v)
		store_out(e, o, v);
}

static void s2_point(E *e, void *env)
{
	LoopEnv *le = env;
	int in[1] = { le->inner }, vec = le->vec ? VEC_EXPLICIT : 1;

	le->phase = 0;
	nest(e, in, 1, le->s, le->wx, s2_phase, le, vec);
	le->phase = 1;
	{
		/* reduction loops outside, the parallel dim inside */
		int order[65], i;

		for (i = 0; i < le->s->nred; i++)
			order[i] = le->s->red[i];
		order[i] = le->inner;
		nest(e, order, le->s->nred + 1, le->s, le->wx, s2_phase, le, vec);
	}
	if (e->k->out[0].epi) {
		le->phase = 2;
		nest(e, in, 1, le->s, le->wx, s2_phase, le, vec);
	}
}

/* S2 in vectors of our own (a pooling window's loads: runs, stride-2
 * pairs, gathers only at the padding, where LLVM's vectorizer gathers
 * every lane): f32 accumulators, EVW lanes or more of the parallel dim */
static int s2_explicit(Kernel *k, Sched *s)
{
	return k->out[0].acctype->kind == TY_F32 && k->ext[s->order[s->n - 1]] >= EVW;
}

static int use_s2(Kernel *k, Sched *s)
{
	KOut *o = &k->out[0];
	Type *bt;
	int d;

	if (k->nout != 1 || !s->nred || s->n < 1)
		return 0;
	d = s->order[s->n - 1];
	if (d == s->split || k->ext[d] < 8)
		return 0;
	bt = k->bind[o->buf].type;
	if (bt->elem != o->acctype)
		return 0;
	if (o->epi && o->epi->type != o->acctype)
		return 0;
	/* unit stride in d */
	{
		int64_t c;
		KCtx kc = { NULL, k->ndims, k->ext };
		IExpr *lin;
		int i;

		(void)kc;
		lin = NULL;
		for (i = 0; i < bt->rank; i++)
			if (ix_uses_dim(o->ix[i], d) && i != bt->rank - 1)
				return 0;
		if (!(o->ix[bt->rank - 1]->kind == IX_DIM && o->ix[bt->rank - 1]->v == d))
			return 0;
		(void)lin;
		(void)c;
	}
	return 1;
}

/* A pack kernel's point (batch, panel, k): the tile's lanes as one
 * vector -- contiguous loads, stride-2 pairs or a gather, by gather() --
 * stored as the row of the panel.  Written vectorized, it needs none of
 * LLVM's loop vectorizer, the costliest part of compiling a network. */
static void pack_point(E *e, void *env)
{
	Kernel *k = e->k;
	KOut *o = &k->out[0];
	LLVMValueRef v;

	(void)env;
	e_reset(e);
	e->dimv[3] = e_i64(e, 0);
	e->vw = (int)k->ext[3];
	e->vdim = 3;
	v = e_expr(e, o->val);
	if (v)
		store_val(e, v, store_ptr(e, o), k->bind[o->buf].type->elem);
	e->vw = 1;
}

/* the pack path applies: one f32 output, stored row-major over the four
 * dims, the tile within a vector's lanes, and some dim besides the tile
 * to split across workgroups */
static int vpack_ok(Kernel *k, Sched *s)
{
	return k->vpack && k->ndims == 4 && k->nout == 1 && !k->out[0].epi && k->ext[3] > 1 &&
		k->ext[3] <= 64 && s->split >= 0 && s->split != 3 && !k->red[3];
}

static void emit_loop_kernel(E *e, Kernel *k, LLVMValueRef wx)
{
	Sched s;
	LoopEnv le = { 0 };
	int i;

	schedule(k, &s);
	if (s.empty)
		return;
	if (vpack_ok(k, &s)) {
		int order[3], n = 0;

		for (i = 0; i < s.n; i++)
			if (s.order[i] != 3)
				order[n++] = s.order[i];
		nest(e, order, n, &s, wx, pack_point, NULL, 0);
		k->light = 1;
		return;
	}
	le.s = &s;
	le.wx = wx;
	for (i = 0; i < k->nout; i++)
		e->accp[i] = e_alloca(e, e_type(e, k->out[i].acctype), "acc");
	if (use_s2(k, &s)) {
		le.inner = s.order[s.n - 1];
		le.vec = s2_explicit(k, &s);
		k->light = le.vec;
		nest(e, s.order, s.n - 1, &s, wx, s2_point, &le, 0);
	} else {
		nest(e, s.order, s.n, &s, wx, s1_point, &le, !s.nred);
	}
}

/* ---- functions ---- */

static void add_fn_attrs(E *e, LLVMValueRef f)
{
	LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
		LLVMCreateStringAttribute(e->cx, "target-cpu", 10, e->cpu, (unsigned)strlen(e->cpu)));
	LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
		LLVMCreateStringAttribute(e->cx, "target-features", 15, e->features, (unsigned)strlen(e->features)));
	LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
		LLVMCreateStringAttribute(e->cx, "prefer-vector-width", 19, "512", 3));
	LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
		LLVMCreateStringAttribute(e->cx, "min-legal-vector-width", 22, "512", 3));
	LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
		LLVMCreateEnumAttribute(e->cx, LLVMGetEnumAttributeKindForName("nounwind", 8), 0));
}

static LLVMAttributeRef enum_attr(E *e, const char *n, uint64_t v)
{
	return LLVMCreateEnumAttribute(e->cx, LLVMGetEnumAttributeKindForName(n, strlen(n)), v);
}

static int emit_kernel(E *e, Kernel *k)
{
	LLVMTypeRef *pt = xcalloc((size_t)k->nbind + 4, sizeof *pt), ft, et;
	LLVMValueRef body, entry, *args;
	char name[64];
	int i;

	e->k = k;
	e->err = 0;
	/* body(ptr noalias b0..bn-1, i64 wx, i64 wy, i64 nx, i64 ny) */
	for (i = 0; i < k->nbind; i++)
		pt[i] = e->ptr;
	for (i = 0; i < 4; i++)
		pt[k->nbind + i] = e->i64;
	ft = LLVMFunctionType(LLVMVoidTypeInContext(e->cx), pt, (unsigned)k->nbind + 4, 0);
	snprintf(name, sizeof name, "%s.body", k->name);
	body = LLVMAddFunction(e->m, name, ft);
	LLVMSetLinkage(body, LLVMInternalLinkage);
	add_fn_attrs(e, body);
	/* identical bodies are compiled once (dedupe_bodies) and called from
	 * each kernel's entry: not inlined there */
	LLVMAddAttributeAtIndex(body, LLVMAttributeFunctionIndex, enum_attr(e, "noinline", 0));
	for (i = 0; i < k->nbind; i++) {
		LLVMAddAttributeAtIndex(body, (unsigned)i + 1, enum_attr(e, "noalias", 0));
		LLVMAddAttributeAtIndex(body, (unsigned)i + 1, enum_attr(e, "nocapture", 0));
		LLVMAddAttributeAtIndex(body, (unsigned)i + 1, enum_attr(e, "align", 64));
		if (!k->bind[i].out)
			LLVMAddAttributeAtIndex(body, (unsigned)i + 1, enum_attr(e, "readonly", 0));
	}
	e->fn = body;
	LLVMPositionBuilderAtEnd(e->b, LLVMAppendBasicBlockInContext(e->cx, body, "entry"));
	e->bp = xcalloc((size_t)k->nbind + 1, sizeof *e->bp);
	for (i = 0; i < k->nbind; i++)
		e->bp[i] = LLVMGetParam(body, (unsigned)i);
	e->dimv = xcalloc((size_t)(k->ndims > 4 ? k->ndims : 4) + 1, sizeof *e->dimv);
	for (i = 0; i < k->ndims; i++)
		e->dimv[i] = e_i64(e, 0);
	e->accp = xcalloc((size_t)k->nout + (size_t)k->naccs + 4, sizeof *e->accp);
	e->vw = 1;
	if (k->kind == KK_GEMM) {
		if (gemm_emit(e, k))
			e->err = 1;
	} else {
		emit_loop_kernel(e, k, LLVMGetParam(body, (unsigned)k->nbind));
	}
	LLVMBuildRetVoid(e->b);
	e_reset(e);
	free(e->bp);
	free(e->dimv);
	free(e->accp);

	/* the ABI entry */
	{
		LLVMTypeRef at[7] = { e->ptr, e->i64, e->i64, e->i64, e->i64, e->i64, e->i64 };
		LLVMValueRef p, a[4];

		et = LLVMFunctionType(LLVMVoidTypeInContext(e->cx), at, 7, 0);
		entry = LLVMAddFunction(e->m, k->name, et);
		add_fn_attrs(e, entry);
		LLVMPositionBuilderAtEnd(e->b, LLVMAppendBasicBlockInContext(e->cx, entry, "entry"));
		args = xcalloc((size_t)k->nbind + 4, sizeof *args);
		p = LLVMGetParam(entry, 0);
		for (i = 0; i < k->nbind; i++) {
			LLVMValueRef idx = e_i64(e, i);
			LLVMValueRef q = LLVMBuildInBoundsGEP2(e->b, e->ptr, p, &idx, 1, "");

			args[i] = LLVMBuildLoad2(e->b, e->ptr, q, "");
		}
		a[0] = LLVMGetParam(entry, 1);
		a[1] = LLVMGetParam(entry, 2);
		a[2] = LLVMGetParam(entry, 4);
		a[3] = LLVMGetParam(entry, 5);
		for (i = 0; i < 4; i++)
			args[k->nbind + i] = a[i];
		LLVMBuildCall2(e->b, ft, body, args, (unsigned)k->nbind + 4, "");
		LLVMBuildRetVoid(e->b);
		free(args);
	}
	free(pt);
	return e->err ? -1 : 0;
}

/* ---- the target ---- */

/* Kernels with the same code (the repeated blocks of a network: same
 * shapes, same fused ops) share one body: LLVM's MergeFunctions finds
 * them.  An entry may become a call of another, identical entry. */
static int dedupe_bodies(E *e, LLVMTargetMachineRef tm)
{
	LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
	LLVMErrorRef lerr = LLVMRunPasses(e->m, "mergefunc", tm, po);

	LLVMDisposePassBuilderOptions(po);
	if (lerr) {
		char *m = LLVMGetErrorMessage(lerr);

		tool_err("LLVM passes failed: %s", m);
		LLVMDisposeErrorMessage(m);
		return -1;
	}
	return 0;
}

/* One object's worth of kernels, compiled on a thread of its own: the
 * module's bitcode is read into a context of the thread's, everything
 * but the partition's entries (and the bodies they call) deleted. */
typedef struct Part {
	const char *bc;
	size_t bclen;
	const char **names;
	int nnames;
	double cost;
	const char *triple, *cpu, *features;
	int opt, asmout, llout;
	const char *passes;
	uint8_t *obj;
	size_t objlen;
	char *err;
} Part;

static int in_part(const Part *p, const char *name)
{
	int i;

	for (i = 0; i < p->nnames; i++)
		if (!strcmp(p->names[i], name))
			return 1;
	return 0;
}

static void part_err(Part *p, const char *what, char *msg)
{
	size_t n = strlen(what) + strlen(msg) + 3;

	p->err = xmalloc(n);
	snprintf(p->err, n, "%s: %s", what, msg);
}

static void *part_compile(void *arg)
{
	Part *p = arg;
	LLVMContextRef cx = LLVMContextCreate();
	LLVMMemoryBufferRef mb = LLVMCreateMemoryBufferWithMemoryRange(p->bc, p->bclen, "kernels", 0);
	LLVMModuleRef m = NULL;
	LLVMTargetRef target;
	LLVMTargetMachineRef tm = NULL;
	LLVMValueRef f, next;
	char *err = NULL;
	int again;

	if (LLVMParseBitcodeInContext2(cx, mb, &m)) {
		p->err = xstrdup("internal error: cannot read back the kernels' bitcode");
		goto out;
	}
	for (f = LLVMGetFirstFunction(m); f; f = next) {
		size_t n;

		next = LLVMGetNextFunction(f);
		if (!LLVMIsDeclaration(f) && LLVMGetLinkage(f) == LLVMExternalLinkage &&
				!in_part(p, LLVMGetValueName2(f, &n)))
			LLVMDeleteFunction(f);
	}
	do {
		again = 0;
		for (f = LLVMGetFirstFunction(m); f; f = next) {
			next = LLVMGetNextFunction(f);
			if (LLVMGetLinkage(f) == LLVMInternalLinkage && !LLVMGetFirstUse(f)) {
				LLVMDeleteFunction(f);
				again = 1;
			}
		}
	} while (again);
	if (LLVMGetTargetFromTriple(p->triple, &target, &err)) {
		part_err(p, "LLVM", err);
		goto out;
	}
	tm = LLVMCreateTargetMachine(target, p->triple, p->cpu, p->features, LLVMCodeGenLevelAggressive,
		LLVMRelocStatic, LLVMCodeModelLarge);
	if (p->opt) {
		LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
		LLVMErrorRef lerr;

		LLVMPassBuilderOptionsSetLoopVectorization(po, 1);
		LLVMPassBuilderOptionsSetSLPVectorization(po, 1);
		LLVMPassBuilderOptionsSetLoopUnrolling(po, 1);
		LLVMPassBuilderOptionsSetLoopInterleaving(po, 1);
		lerr = LLVMRunPasses(m, p->passes, tm, po);
		LLVMDisposePassBuilderOptions(po);
		if (lerr) {
			char *msg = LLVMGetErrorMessage(lerr);

			part_err(p, "LLVM passes failed", msg);
			LLVMDisposeErrorMessage(msg);
			goto out;
		}
	}
	if (p->llout) {
		char *s = LLVMPrintModuleToString(m);

		p->objlen = strlen(s);
		p->obj = (uint8_t *)xstrdup(s);
		LLVMDisposeMessage(s);
	} else {
		LLVMMemoryBufferRef ob;

		if (LLVMTargetMachineEmitToMemoryBuffer(tm, m, p->asmout ? LLVMAssemblyFile : LLVMObjectFile,
				&err, &ob)) {
			part_err(p, "LLVM code generation failed", err);
			goto out;
		}
		p->objlen = LLVMGetBufferSize(ob);
		p->obj = xmalloc(p->objlen + 1);
		memcpy(p->obj, LLVMGetBufferStart(ob), p->objlen);
		p->obj[p->objlen] = 0;
		LLVMDisposeMemoryBuffer(ob);
	}
out:
	LLVMDisposeMessage(err);
	if (tm)
		LLVMDisposeTargetMachine(tm);
	if (m)
		LLVMDisposeModule(m);
	LLVMDisposeMemoryBuffer(mb);
	LLVMContextDispose(cx);
	return NULL;
}

/* instructions in f, the estimate of its compile time */
static double fn_cost(LLVMValueRef f)
{
	LLVMBasicBlockRef bb;
	LLVMValueRef in;
	double n = 0;

	for (bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
		for (in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in))
			n++;
	return n;
}

/* the body an entry calls, through entries merged into calls of others */
static LLVMValueRef callee_of(LLVMValueRef f)
{
	int depth;

	for (depth = 0; f && depth < 8; depth++) {
		LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f);
		LLVMValueRef in, c = NULL;

		for (in = bb ? LLVMGetFirstInstruction(bb) : NULL; in && !c; in = LLVMGetNextInstruction(in))
			if (LLVMGetInstructionOpcode(in) == LLVMCall)
				c = LLVMGetCalledValue(in);
		if (!c || LLVMGetLinkage(c) != LLVMExternalLinkage || LLVMIsDeclaration(c))
			return c;
		f = c;
	}
	return f;
}

enum { PART_COST = 4000, MAXPART = 8, LOOP_WEIGHT = 4 };

/* LLVM's pipelines.  GEMM kernels come vectorized and register-blocked
 * already: scalar cleanup and hoisting is all they need (O3 takes twice
 * as long for the same code speed); loop nests need the loop vectorizer
 * and the rest of O3. */
static const char GEMM_PASSES[] = "function(sroa,early-cse,simplifycfg,instcombine,loop(loop-rotate),"
	"loop-mssa(licm),gvn,instcombine,simplifycfg)";
static const char LOOP_PASSES[] = "default<O3>";

/* kernels we wrote vectorized (GEMMs, packs, S2) take the short pipeline */
static int light(const Kernel *k)
{
	return k->kind == KK_GEMM || k->light;
}

/* The parts, heaviest first, taken by whichever thread is free. */
typedef struct Queue {
	Part *parts;
	const int *order;
	int np;
	_Atomic int next;
} Queue;

static void *worker(void *arg)
{
	Queue *q = arg;
	int i;

	while ((i = atomic_fetch_add(&q->next, 1)) < q->np)
		part_compile(&q->parts[q->order[i]]);
	return NULL;
}

/* a part's estimated compile time: O3 costs about four times as much per
 * instruction as the GEMM pipeline */
static double part_weight(const Part *p)
{
	return p->cost * (p->passes == LOOP_PASSES ? LOOP_WEIGHT : 1);
}

/* Splits the kernels into objects by estimated cost (the split depends on
 * the input alone, not on the machine), compiles them on up to --jobs
 * threads; k->exe is each kernel's object. */
static int compile_parts(E *e, LLVMModuleRef m, const char *triple, KObj **objs, int *nobj)
{
	Gen *g = e->g;
	LLVMMemoryBufferRef bc = LLVMWriteBitcodeToMemoryBuffer(m);
	double kcost[2] = { 0, 0 };
	int i, j, np, npk[2], nthr, rc = 0;
	LLVMValueRef *callee = xcalloc((size_t)g->nk + 1, sizeof *callee);
	double *cost = xcalloc((size_t)g->nk + 1, sizeof *cost);
	int *order = xcalloc((size_t)g->nk + 1, sizeof *order);
	Part *parts;

	for (i = 0; i < g->nk; i++) {
		LLVMValueRef f = LLVMGetNamedFunction(m, g->k[i]->name);

		callee[i] = f ? callee_of(f) : NULL;
		for (j = 0; j < i && callee[j] != callee[i]; j++)
			;
		/* a shared body is counted once, with its first kernel */
		cost[i] = 10 + (j == i && callee[i] ? fn_cost(callee[i]) : 0);
		order[i] = i;
	}
	/* GEMMs and packs, and loop nests, in parts of their own, each kind
	 * with its pipeline: parts [0, npk[0]) hold the first */
	for (i = 0; i < g->nk; i++)
		kcost[light(g->k[i]) ? 0 : 1] += cost[i] * (light(g->k[i]) ? 1 : LOOP_WEIGHT);
	for (j = 0; j < 2; j++) {
		npk[j] = kcost[j] > 0 ? (int)(kcost[j] / PART_COST) + 1 : 0;
		if (npk[j] > MAXPART / 2)
			npk[j] = MAXPART / 2;
	}
	if (g->o->emit || npk[0] + npk[1] == 0) {
		/* one module of text */
		npk[0] = 0;
		npk[1] = 1;
	}
	np = npk[0] + npk[1];
	parts = xcalloc((size_t)np, sizeof *parts);
	for (i = 0; i < np; i++) {
		parts[i].bc = LLVMGetBufferStart(bc);
		parts[i].bclen = LLVMGetBufferSize(bc);
		parts[i].names = xcalloc((size_t)g->nk + 1, sizeof *parts[i].names);
		parts[i].triple = triple;
		parts[i].cpu = e->cpu;
		parts[i].features = e->features;
		parts[i].opt = g->o->opt;
		parts[i].passes = g->o->passes ? g->o->passes : i < npk[0] ? GEMM_PASSES : LOOP_PASSES;
		parts[i].llout = g->o->emit && !strcmp(g->o->emit, "llvm");
		parts[i].asmout = g->o->emit && !strcmp(g->o->emit, "asm");
	}
	if (g->o->emit && !g->o->passes)
		parts[0].passes = LOOP_PASSES;
	/* largest first, each group of kernels sharing a body to the least
	 * loaded part of its kind */
	for (i = 1; i < g->nk; i++)
		for (j = i; j > 0 && cost[order[j]] > cost[order[j - 1]]; j--) {
			int t = order[j];

			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	for (i = 0; i < g->nk; i++) {
		int k = order[i], lo, hi, best, d;

		for (j = 0; j < i; j++)
			if (callee[order[j]] == callee[k] && callee[k])
				break;
		if (np == 1) {
			lo = 0, hi = 1;
		} else if (light(g->k[k])) {
			lo = 0, hi = npk[0];
		} else {
			lo = npk[0], hi = np;
		}
		best = lo;
		if (j < i) {
			best = g->k[order[j]]->exe;
		} else {
			for (d = lo + 1; d < hi; d++)
				if (parts[d].cost < parts[best].cost)
					best = d;
		}
		g->k[k]->exe = best;
		parts[best].cost += cost[k];
		parts[best].names[parts[best].nnames++] = g->k[k]->name;
	}
	nthr = g->o->jobs > 0 ? g->o->jobs : rt_cpu_count();
	if (nthr > np)
		nthr = np;
	if (nthr < 1)
		nthr = 1;
	{
		pthread_t *th = xcalloc((size_t)nthr, sizeof *th);
		int *porder = xcalloc((size_t)np, sizeof *porder), nstarted = 0;
		Queue q = { parts, porder, np, 0 };

		for (i = 0; i < np; i++) {
			for (j = i; j > 0 && part_weight(&parts[porder[j - 1]]) < part_weight(&parts[i]); j--)
				porder[j] = porder[j - 1];
			porder[j] = i;
		}
		for (i = 1; i < nthr; i++)
			if (!pthread_create(&th[nstarted], NULL, worker, &q))
				nstarted++;
		worker(&q);
		for (i = 0; i < nstarted; i++)
			pthread_join(th[i], NULL);
		free(th);
		free(porder);
	}
	*objs = xcalloc((size_t)np, sizeof **objs);
	*nobj = np;
	for (i = 0; i < np; i++) {
		if (parts[i].err && !rc) {
			tool_err("%s", parts[i].err);
			rc = -1;
		}
		free(parts[i].err);
		free(parts[i].names);
		(*objs)[i].p = parts[i].obj;
		(*objs)[i].n = parts[i].objlen;
	}
	free(parts);
	free(callee);
	free(cost);
	free(order);
	LLVMDisposeMemoryBuffer(bc);
	return rc;
}

/* LLVM's options, set once for the process.  Loop strength reduction
 * is a sixth of the backend's time on a network's kernels and buys them
 * nothing: their address arithmetic comes out of our emitter already
 * strength-reduced (resnet50: same latency with and without it). */
static void llvm_options(void)
{
	static int done;
	const char *argv[] = { "codegen", "-disable-lsr" };

	if (!done)
		LLVMParseCommandLineOptions(2, argv, "");
	done = 1;
}

/* LLVM's options and the X86 target set up; the default triple, for
 * LLVMDisposeMessage. */
static char *x86_init(void)
{
	llvm_options();
	LLVMInitializeX86TargetInfo();
	LLVMInitializeX86Target();
	LLVMInitializeX86TargetMC();
	LLVMInitializeX86AsmPrinter();
	return LLVMGetDefaultTargetTriple();
}

/* The child of cpu_check: creates a target machine for cpu and features,
 * compiles an empty function, and exits 0; LLVM's warnings go to fd 2
 * (a pipe to the parent), and an abort is the parent's to read. */
static _Noreturn void cpu_probe(const char *triple, const char *cpu, const char *features)
{
	LLVMTargetRef target;
	LLVMTargetMachineRef tm;
	LLVMContextRef cx;
	LLVMModuleRef m;
	LLVMMemoryBufferRef buf;
	char *err = NULL;

	if (LLVMGetTargetFromTriple(triple, &target, &err))
		_exit(2);
	tm = LLVMCreateTargetMachine(target, triple, cpu, features, LLVMCodeGenLevelNone,
		LLVMRelocStatic, LLVMCodeModelLarge);
	cx = LLVMContextCreate();
	m = LLVMModuleCreateWithNameInContext("probe", cx);
	LLVMSetTarget(m, triple);
	LLVMBuilderRef b = LLVMCreateBuilderInContext(cx);
	LLVMValueRef fn = LLVMAddFunction(m, "probe", LLVMFunctionType(LLVMVoidTypeInContext(cx), NULL, 0, 0));
	LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(cx, fn, "entry"));
	LLVMBuildRetVoid(b);
	if (LLVMTargetMachineEmitToMemoryBuffer(tm, m, LLVMObjectFile, &err, &buf))
		_exit(3);
	_exit(0);
}

/* "'NAME' is not a recognized WHAT" in LLVM's warnings: NAME, or NULL. */
static char *unrecognized(const char *log, const char *what)
{
	const char *p = log, *q;

	while ((q = strstr(p, "' is not a recognized "))) {
		const char *start = q;
		while (start > log && start[-1] != '\'' )
			start--;
		if (!strncmp(q + 22, what, strlen(what)) && start > log)
			return strndup(start, (size_t)(q - start));
		p = q + 1;
	}
	return NULL;
}

int cpu_check(const char *cpu, const char *features)
{
	char *triple, *name, log[4096];
	int fds[2], status;
	size_t n = 0;
	ssize_t got;
	pid_t pid;

	/* the syntax first: +name or -name, comma-separated */
	for (const char *f = features; f && *f; ) {
		size_t len = strcspn(f, ",");
		if (len < 2 || (f[0] != '+' && f[0] != '-'))
			return tool_err("malformed --features item '%.*s' (expected +name or -name)",
				(int)len, f), -1;
		f += len + (f[len] == ',');
	}
	triple = x86_init();
	fflush(stderr);
	if (pipe(fds) != 0 || (pid = fork()) < 0) {
		LLVMDisposeMessage(triple);
		return tool_err("cannot check --cpu: %s", strerror(errno)), -1;
	}
	if (pid == 0) {
		struct rlimit nocore = { 0, 0 };
		setrlimit(RLIMIT_CORE, &nocore);   /* an abort leaves no core file */
		close(fds[0]);
		dup2(fds[1], 2);
		close(fds[1]);
		cpu_probe(triple, cpu, features ? features : "");
	}
	close(fds[1]);
	/* read to the end (a child blocked on a full pipe would never exit),
	 * keeping the first part */
	for (;;) {
		char sink[4096];
		int full = n == sizeof log - 1;
		got = read(fds[0], full ? sink : log + n, full ? sizeof sink : sizeof log - 1 - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		if (!full)
			n += (size_t)got;
	}
	log[n] = 0;
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	LLVMDisposeMessage(triple);
	if ((name = unrecognized(log, "processor"))) {
		tool_err("unknown CPU '%s' (see llc -march=x86-64 -mcpu=help)", name);
		free(name);
		return -1;
	}
	if ((name = unrecognized(log, "feature"))) {
		tool_err("unknown CPU feature '%s' (see llc -march=x86-64 -mattr=help)", name);
		free(name);
		return -1;
	}
	if (strstr(log, "64-bit code requested"))
		return tool_err("CPU '%s'%s%s has no 64-bit mode (codegen compiles for x86-64)", cpu,
			features && *features ? " with features " : "", features ? features : ""), -1;
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		return tool_err("cannot compile for CPU '%s'%s%s", cpu,
			features && *features ? " with features " : "", features ? features : ""), -1;
	return 0;
}

int emit_kernels(Gen *g, KObj **objs, int *nobj, const char **cpu_out, const char **feat_out)
{
	E e;
	char *err = NULL, *triple, *hostcpu = NULL, *hostfeat = NULL;
	LLVMTargetRef target;
	LLVMTargetMachineRef tm;
	LLVMTargetDataRef td;
	int i, rc = 0;

	*objs = NULL;
	*nobj = 0;
	memset(&e, 0, sizeof e);
	triple = x86_init();
	if (LLVMGetTargetFromTriple(triple, &target, &err)) {
		tool_err("%s", err);
		return -1;
	}
	if (!g->o->cpu || !strcmp(g->o->cpu, "host")) {
		hostcpu = LLVMGetHostCPUName();
		e.cpu = hostcpu;
		if (!g->o->features)
			e.features = hostfeat = LLVMGetHostCPUFeatures();
	} else {
		e.cpu = g->o->cpu;
	}
	if (g->o->features)
		e.features = g->o->features;
	if (!e.features)
		e.features = "";
	tm = LLVMCreateTargetMachine(target, triple, e.cpu, e.features, LLVMCodeGenLevelAggressive,
		LLVMRelocStatic, LLVMCodeModelLarge);
	td = LLVMCreateTargetDataLayout(tm);
	e.g = g;
	e.cx = LLVMContextCreate();
	e.m = LLVMModuleCreateWithNameInContext("kernels", e.cx);
	LLVMSetTarget(e.m, triple);
	LLVMSetModuleDataLayout(e.m, td);
	e.b = LLVMCreateBuilderInContext(e.cx);
	e.i1 = LLVMInt1TypeInContext(e.cx);
	e.i8 = LLVMInt8TypeInContext(e.cx);
	e.i32 = LLVMInt32TypeInContext(e.cx);
	e.i64 = LLVMInt64TypeInContext(e.cx);
	e.f32 = LLVMFloatTypeInContext(e.cx);
	e.ptr = LLVMPointerTypeInContext(e.cx, 0);
	for (i = 0; i < g->nk && !rc; i++)
		if (emit_kernel(&e, g->k[i]))
			rc = -1;
	if (!rc)
		rc = dedupe_bodies(&e, tm);
	phase_done(g, "LLVM IR");
	if (!rc && LLVMVerifyModule(e.m, LLVMReturnStatusAction, &err)) {
		tool_err("internal error: invalid LLVM IR: %s", err);
		rc = -1;
	}
	LLVMDisposeMessage(err);
	err = NULL;
	if (!rc)
		rc = compile_parts(&e, e.m, triple, objs, nobj);
	phase_done(g, "LLVM optimization and code generation");
	*cpu_out = xstrdup(e.cpu);
	*feat_out = xstrdup(e.features);
	LLVMDisposeBuilder(e.b);
	LLVMDisposeModule(e.m);
	LLVMContextDispose(e.cx);
	LLVMDisposeTargetData(td);
	LLVMDisposeTargetMachine(tm);
	LLVMDisposeMessage(triple);
	if (hostcpu)
		LLVMDisposeMessage(hostcpu);
	if (hostfeat)
		LLVMDisposeMessage(hostfeat);
	pmap_free(&e.memo);
	return rc;
}
