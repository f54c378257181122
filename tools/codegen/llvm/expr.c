/*
 * expr.c - kernel IR expressions to LLVM IR, shared by both targets:
 * types, index arithmetic, loads (scalar, or EVW-lane vectors along the
 * vectorized dim: contiguous, strided, gathered, or per lane behind a
 * range test), constants, range tests, and the memo that emits every
 * expression node once per scope.  The ops themselves are ops.c's.
 */
#include <stdlib.h>
#include <string.h>

#include "emit.h"

void e_open(E *e, Gen *g, const char *triple, LLVMTargetDataRef td)
{
	e->g = g;
	e->cx = LLVMContextCreate();
	e->m = LLVMModuleCreateWithNameInContext("kernels", e->cx);
	LLVMSetTarget(e->m, triple);
	LLVMSetModuleDataLayout(e->m, td);
	e->b = LLVMCreateBuilderInContext(e->cx);
	e->i1 = LLVMInt1TypeInContext(e->cx);
	e->i8 = LLVMInt8TypeInContext(e->cx);
	e->i32 = LLVMInt32TypeInContext(e->cx);
	e->i64 = LLVMInt64TypeInContext(e->cx);
	e->f32 = LLVMFloatTypeInContext(e->cx);
	e->ptr = LLVMPointerTypeInContext(e->cx, 0);
	e->rdim = -1;
}

void e_close(E *e)
{
	LLVMDisposeBuilder(e->b);
	LLVMDisposeModule(e->m);
	LLVMContextDispose(e->cx);
}

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

LLVMTypeRef e_vtype(E *e, LLVMTypeRef t)
{
	return e->vw > 1 ? LLVMVectorType(t, (unsigned)e->vw) : t;
}

LLVMValueRef e_splat(E *e, LLVMValueRef s)
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

/* the vector's first n lanes */
static LLVMValueRef prefix_mask(E *e, int n)
{
	LLVMValueRef m[64];
	int i;

	for (i = 0; i < e->vw; i++)
		m[i] = LLVMConstInt(e->i1, i < n, 0);
	return LLVMConstVector(m, (unsigned)e->vw);
}

/* the tail's lanes, else NULL */
static LLVMValueRef tail_mask(E *e)
{
	return e->ntail > 0 && e->vw > 1 ? prefix_mask(e, e->ntail) : NULL;
}

/* a vector of type vt at p where mask holds, else 0; none read where it
 * does not */
static LLVMValueRef mload(E *e, LLVMTypeRef vt, LLVMValueRef p, LLVMValueRef mask, unsigned al)
{
	unsigned id = LLVMLookupIntrinsicID("llvm.masked.load", 16);
	LLVMTypeRef ovl[2] = { vt, e->ptr };
	LLVMValueRef args[4] = { p, LLVMConstInt(e->i32, al, 0), mask, LLVMConstNull(vt) };

	return LLVMBuildCall2(e->b, LLVMIntrinsicGetType(e->cx, id, ovl, 2),
		LLVMGetIntrinsicDeclaration(e->m, id, ovl, 2), args, 4, "");
}

/* elements a masked load or store reads or writes in one instruction:
 * words and double words anywhere, bytes and halves where the target
 * masks them (AVX-512BW: a quantized tensor's), not booleans */
static int maskable(E *e, const Type *elem)
{
	int sz = (int)elem_size(elem);

	return (sz == 4 || sz == 8 || ((sz == 1 || sz == 2) && e->maskbw)) &&
		!(elem->kind == TY_INT && elem->width == 1);
}

static int tail_ok_in(E *e, KExpr *x, PMap *seen)
{
	int i;

	if (!x || pmap_get(seen, x))
		return 1;
	*pmap_slot(seen, x, 1) = x;
	if (x->kind == KX_XLOAD || (x->kind == KX_OP && kop_int_div(x->op)))
		return 0;
	if (x->kind == KX_LOAD && !maskable(e, e->k->bind[x->buf].type->elem))
		return 0;
	for (i = 0; i < x->n; i++)
		if (!tail_ok_in(e, x->a[i], seen))
			return 0;
	return 1;
}

int e_tail_ok(E *e, KExpr *x)
{
	PMap seen = {0};
	int ok = tail_ok_in(e, x, &seen);

	pmap_free(&seen);
	return ok;
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
IExpr *e_linear(E *e, const Type *t, IExpr *const *ix)
{
	KCtx kc = { e->g->c, e->k->ndims, e->k->ext };
	IExpr *s = ix_const(&kc, 0);
	int i;

	for (i = 0; i < t->rank; i++)
		s = ix_add(&kc, ix_mul(&kc, s, t->dims[i]), ix[i]);
	return s;
}

/* x's value as the sum of its terms in their order, the constant last,
 * dim rdim as rbase + roff and unrolled dims as their constants: the
 * same instructions, then the same loads for GVN, wherever two points
 * of a row block address the same element; NULL where x is no sum */
static LLVMValueRef canon_index(E *e, const IExpr *x)
{
	const IExpr *atom[16];
	int64_t k, c[16], v;
	int i, n = ix_terms(x, &k, c, atom, 16);
	LLVMValueRef s = NULL, t;

	if (n < 0)
		return NULL;
	for (i = 0; i < n; i++) {
		if (atom[i]->kind == IX_DIM && atom[i]->v == e->rdim) {
			k += c[i] * e->roff;
			t = e->rbase;
		} else if (atom[i]->kind == IX_DIM && LLVMIsAConstantInt(e->dimv[atom[i]->v])) {
			v = LLVMConstIntGetSExtValue(e->dimv[atom[i]->v]);
			k += c[i] * v;
			continue;
		} else
			t = e_index(e, atom[i]);
		if (c[i] != 1)
			t = LLVMBuildNSWMul(e->b, t, e_i64(e, c[i]), "");
		s = s ? LLVMBuildNSWAdd(e->b, s, t, "") : t;
	}
	if (!s)
		return e_i64(e, k);
	return k ? LLVMBuildNSWAdd(e->b, s, e_i64(e, k), "") : s;
}

LLVMValueRef e_addr(E *e, int buf, IExpr *const *ix)
{
	Type *t = e->k->bind[buf].type;
	IExpr *lin = e_linear(e, t, ix);
	LLVMValueRef off = e->rdim >= 0 ? canon_index(e, lin) : NULL;

	if (!off)
		off = e_index(e, lin);

	return LLVMBuildInBoundsGEP2(e->b, e_memtype(e, t->elem), e->bp[buf], &off, 1, "");
}

/* x as a vector of e->vw lanes of integer type it, the vector dim at
 * base + lane; parts that do not depend on it are computed once */
static LLVMValueRef vindex(E *e, const IExpr *x, LLVMTypeRef it)
{
	LLVMValueRef l, r;
	int i;

	if (!ix_uses_dim(x, e->vdim))
		return e_splat(e, LLVMBuildIntCast2(e->b, e_index(e, x), it, 1, ""));
	switch (x->kind) {
	case IX_DIM: {
		LLVMValueRef lanes[64];

		for (i = 0; i < e->vw; i++)
			lanes[i] = LLVMConstInt(it, (unsigned long long)i, 0);
		return LLVMBuildAdd(e->b, e_splat(e, LLVMBuildIntCast2(e->b, e->dimv[x->v], it, 1, "")),
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
		LLVMValueRef lo = e_splat(e, LLVMConstInt(it, (unsigned long long)x->v, 1));
		LLVMValueRef hi = e_splat(e, LLVMConstInt(it, (unsigned long long)x->v2, 1));

		l = vindex(e, x->l, it);
		r = LLVMBuildSelect(e->b, LLVMBuildICmp(e->b, LLVMIntSLT, l, lo, ""), lo, l, "");
		return LLVMBuildSelect(e->b, LLVMBuildICmp(e->b, LLVMIntSGT, r, hi, ""), hi, r, "");
	}
	default:
		return e_splat(e, LLVMBuildIntCast2(e->b, e_index(e, x), it, 1, ""));
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

/* Stores the e->vw lanes of v at their own offsets, lin (a buffer's
 * linear index, e_linear) at each lane's index along e->vdim (a GEMM
 * tile's vector across a row boundary of a padded output): one masked
 * scatter, the tail's lanes alone where the vector is a tail (AVX-512's
 * vscatterdps; elsewhere LLVM stores the lanes one by one) */
void e_scatter(E *e, LLVMValueRef v, int buf, IExpr *lin, const Type *et)
{
	Type *t = e->k->bind[buf].type;
	LLVMTypeRef pt = LLVMVectorType(e->ptr, (unsigned)e->vw), ovl[2] = { LLVMTypeOf(v), pt };
	LLVMValueRef off = vindex(e, lin, vindex_type(e, t)), args[4];
	unsigned id = LLVMLookupIntrinsicID("llvm.masked.scatter", 19);

	args[0] = v;
	args[1] = LLVMBuildInBoundsGEP2(e->b, e_memtype(e, t->elem), e->bp[buf], &off, 1, "");
	args[2] = LLVMConstInt(e->i32, (unsigned)elem_size(et), 0);
	args[3] = tail_mask(e) ? tail_mask(e) : prefix_mask(e, e->vw);
	LLVMBuildCall2(e->b, LLVMIntrinsicGetType(e->cx, id, ovl, 2),
		LLVMGetIntrinsicDeclaration(e->m, id, ovl, 2), args, 4, "");
}

/* ---- scalar and vector expressions ---- */

static LLVMValueRef load_mem(E *e, LLVMTypeRef mt, LLVMValueRef p, const Type *t, int vec)
{
	LLVMTypeRef lt = vec ? LLVMVectorType(mt, (unsigned)e->vw) : mt;
	LLVMValueRef v, m = vec ? tail_mask(e) : NULL;

	if (m) {
		v = mload(e, lt, p, m, (unsigned)elem_size(t));
	} else {
		v = LLVMBuildLoad2(e->b, lt, p, "");
		LLVMSetAlignment(v, (unsigned)elem_size(t));
	}
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
		/* a load past the tail's lanes: none */
		s = v && x->kind == KX_LOAD && e->ntail > 0 && i >= e->ntail ?
			LLVMConstNull(LLVMGetElementType(LLVMTypeOf(v))) : f(e, x);
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
		LLVMBuildAdd(e->b, e_splat(e, i0), LLVMConstVector(lanes, (unsigned)e->vw), ""), "");
	if (tail_mask(e))   /* lanes past a tail: any offset */
		eq = LLVMBuildOr(e->b, eq, LLVMBuildNot(e->b, tail_mask(e), ""), "");
	eq = LLVMBuildBitCast(e->b, eq, LLVMIntTypeInContext(e->cx, (unsigned)e->vw), "");
	return LLVMBuildICmp(e->b, LLVMIntEQ, eq, LLVMConstAllOnes(LLVMIntTypeInContext(e->cx, (unsigned)e->vw)), "");
}

static LLVMValueRef load_at(E *e, LLVMTypeRef vt, LLVMTypeRef mt, int buf, LLVMValueRef i, unsigned align)
{
	LLVMValueRef v = LLVMBuildLoad2(e->b, vt, LLVMBuildGEP2(e->b, mt, e->bp[buf], &i, 1, ""), "");

	LLVMSetAlignment(v, align);
	return v;
}

/* vw consecutive elements from i: only the tail's lanes where there is
 * one */
static LLVMValueRef load_run(E *e, LLVMTypeRef vt, LLVMTypeRef mt, int buf, LLVMValueRef i, unsigned align)
{
	LLVMValueRef m = tail_mask(e);

	return m ? mload(e, vt, LLVMBuildGEP2(e->b, mt, e->bp[buf], &i, 1, ""), m, align)
		: load_at(e, vt, mt, buf, i, align);
}

/* ---- an index that stays on one affine piece across the lanes ---- */

/* x at the vector's first lane and at its last (a tail's last: the
 * lanes past it are neither loaded nor stored) */
static void lane_ends(E *e, const IExpr *x, LLVMValueRef *first, LLVMValueRef *last)
{
	LLVMValueRef base = e->dimv[e->vdim];

	*first = e_index(e, x);
	e->dimv[e->vdim] = LLVMBuildAdd(e->b, base, e_i64(e, (e->ntail > 0 ? e->ntail : e->vw) - 1), "");
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

int e_lane_affine(E *e, const IExpr *x, int64_t *slope, LLVMValueRef *cond)
{
	*cond = NULL;
	return lane_affine(e, x, slope, cond);
}

/* elements i0, i0 + 2, ..., i0 + 2 (vw - 1): lanes 0, 2, … of a load from
 * i0 and 1, 3, … of one from i0 + vw - 1, so nothing past the last is read */
static LLVMValueRef load_stride2(E *e, LLVMTypeRef vt, LLVMTypeRef mt, int buf, LLVMValueRef i0, unsigned al)
{
	LLVMValueRef lanes[64], i1;
	int i, vw = e->vw;

	i1 = LLVMBuildAdd(e->b, i0, LLVMConstInt(LLVMTypeOf(i0), (unsigned long long)vw - 1, 0), "");
	for (i = 0; i < vw; i++)
		lanes[i] = LLVMConstInt(e->i32, (unsigned long long)(2 * i <= vw - 1 ? 2 * i : 2 * i + 1), 0);
	if (e->ntail > 0) {
		/* the tail's elements: i0 .. i0 + 2 (ntail - 1) */
		int n = 2 * e->ntail - 1;

		return LLVMBuildShuffleVector(e->b,
			mload(e, vt, LLVMBuildGEP2(e->b, mt, e->bp[buf], &i0, 1, ""), prefix_mask(e, n), al),
			mload(e, vt, LLVMBuildGEP2(e->b, mt, e->bp[buf], &i1, 1, ""), prefix_mask(e, n - (vw - 1)), al),
			LLVMConstVector(lanes, (unsigned)vw), "");
	}
	return LLVMBuildShuffleVector(e->b, load_at(e, vt, mt, buf, i0, al), load_at(e, vt, mt, buf, i1, al),
		LLVMConstVector(lanes, (unsigned)vw), "");
}

/* can gather_off read t's elements: 4 or 8 bytes, or narrower ones in
 * a buffer of 4 bytes or more (each lane's 32 bits), not i1 */
static int gatherable(const Type *t)
{
	int64_t al = elem_size(t->elem);

	return (al == 4 || al == 8 || (al < 4 && ty_numel(t) * al >= 4)) &&
		!(t->elem->kind == TY_INT && t->elem->width == 1);
}

/* the lanes' elements of x at offsets off (of type it) by a gather */
static LLVMValueRef gather_off(E *e, KExpr *x, const Type *t, LLVMValueRef off, LLVMTypeRef it)
{
	LLVMTypeRef mt = e_memtype(e, t->elem), vt = LLVMVectorType(mt, (unsigned)e->vw);
	LLVMTypeRef pt = LLVMVectorType(e->ptr, (unsigned)e->vw), ovl[2] = { vt, pt };
	LLVMValueRef args[4], lanes[64], v;
	unsigned id = LLVMLookupIntrinsicID("llvm.masked.gather", 18), al = (unsigned)elem_size(t->elem);
	int i, vw = e->vw;

	for (i = 0; i < vw; i++)
		lanes[i] = LLVMConstInt(e->i1, 1, 0);
	args[1] = LLVMConstInt(e->i32, al, 0);
	args[2] = tail_mask(e) ? tail_mask(e) : LLVMConstVector(lanes, (unsigned)vw);
	if (al < 4 && ty_numel(t) * al >= 4 && !(t->elem->kind == TY_INT && t->elem->width == 1)) {
		/* bytes and halves (a quantized tensor's), which no instruction
		 * gathers: each lane's 32 bits ending at its element (from
		 * the buffer's start for the first few), shifted down */
		LLVMTypeRef wt = LLVMVectorType(e->i32, (unsigned)vw), ow[2] = { wt, pt };
		LLVMValueRef b = LLVMBuildMul(e->b, off, e_splat(e, LLVMConstInt(it, al, 0)), "");
		LLVMValueRef a = LLVMBuildSub(e->b, b, e_splat(e, LLVMConstInt(it, 4 - al, 0)), "");

		a = LLVMBuildSelect(e->b, LLVMBuildICmp(e->b, LLVMIntSLT, a, LLVMConstNull(LLVMTypeOf(a)), ""),
			LLVMConstNull(LLVMTypeOf(a)), a, "");
		args[0] = LLVMBuildGEP2(e->b, e->i8, e->bp[x->buf], &a, 1, "");
		args[1] = LLVMConstInt(e->i32, 1, 0);
		args[3] = LLVMGetUndef(wt);
		v = LLVMBuildCall2(e->b, LLVMIntrinsicGetType(e->cx, id, ow, 2),
			LLVMGetIntrinsicDeclaration(e->m, id, ow, 2), args, 4, "");
		v = LLVMBuildLShr(e->b, v, LLVMBuildIntCast2(e->b, LLVMBuildMul(e->b,
			LLVMBuildSub(e->b, b, a, ""), e_splat(e, LLVMConstInt(it, 8, 0)), ""), wt, 0, ""), "");
		return LLVMBuildBitCast(e->b, LLVMBuildTrunc(e->b, v,
			LLVMVectorType(LLVMIntTypeInContext(e->cx, al * 8), (unsigned)vw), ""), vt, "");
	}
	args[0] = LLVMBuildGEP2(e->b, mt, e->bp[x->buf], &off, 1, "");
	args[3] = LLVMGetUndef(vt);
	return LLVMBuildCall2(e->b, LLVMIntrinsicGetType(e->cx, id, ovl, 2),
		LLVMGetIntrinsicDeclaration(e->m, id, ovl, 2), args, 4, "");
}

static LLVMValueRef fast_or(E *e, LLVMValueRef cond, LLVMValueRef (*fast)(E *, void *),
	LLVMValueRef (*slow)(E *, void *), void *arg, const char *name);
static LLVMValueRef masked_run(E *e, LLVMTypeRef vt, LLVMTypeRef mt, int buf, LLVMValueRef i0,
	LLVMValueRef mask, unsigned al, int64_t slope);

typedef struct SplitRun {
	int buf;
	const Type *t;
	int64_t slope;
	LLVMValueRef i0, i1, first, second, mask;
	LLVMValueRef (*slow)(E *, void *);
	void *arg;
} SplitRun;

static LLVMValueRef split_load(E *e, void *arg)
{
	SplitRun *s = arg;
	LLVMTypeRef mt = e_memtype(e, s->t->elem), vt = LLVMVectorType(mt, (unsigned)e->vw);
	unsigned al = (unsigned)elem_size(s->t->elem);
	LLVMValueRef a, b;

	a = masked_run(e, vt, mt, s->buf, s->i0, LLVMBuildAnd(e->b, s->mask, s->first, ""), al, s->slope);
	b = masked_run(e, vt, mt, s->buf, s->i1, LLVMBuildAnd(e->b, s->mask, s->second, ""), al, s->slope);
	return LLVMBuildSelect(e->b, s->first, a, b, "");
}

static LLVMValueRef split_slow(E *e, void *arg)
{
	SplitRun *s = arg;

	return s->slow(e, s->arg);
}

/* The lanes of buf at offsets off (of type it) where mask holds (NULL:
 * every lane, but for a tail), as two runs of the slope (1 or 2), the
 * first from lane 0's offset and the second ending at the last lane's,
 * each lane from the one its offset lies on: a vector across a row's
 * end (a stride-2 window or convolution over rows of 28 or 56 against 16
 * lanes), two masked loads or pairs of them, where a gather took the
 * lanes one by one; slow(arg) where a lane lies on neither. */
static LLVMValueRef split_runs(E *e, int buf, const Type *t, LLVMValueRef off, LLVMTypeRef it, int64_t slope,
	LLVMValueRef mask, LLVMValueRef (*slow)(E *, void *), void *arg)
{
	LLVMTypeRef bits = LLVMIntTypeInContext(e->cx, (unsigned)e->vw);
	LLVMValueRef lanes[64], iota, stray, ok, i1;
	SplitRun s = { buf, t, slope, NULL, NULL, NULL, NULL, mask, slow, arg };
	int i, vw = e->vw;

	if (!s.mask)
		s.mask = tail_mask(e) ? tail_mask(e) : e_splat(e, LLVMConstInt(e->i1, 1, 0));
	for (i = 0; i < vw; i++)
		lanes[i] = LLVMConstInt(it, (unsigned long long)(i * slope), 0);
	iota = LLVMConstVector(lanes, (unsigned)vw);
	s.i0 = LLVMBuildExtractElement(e->b, off, LLVMConstInt(e->i32, 0, 0), "");
	i1 = LLVMBuildExtractElement(e->b, off, LLVMConstInt(e->i32, (unsigned long long)vw - 1, 0), "");
	s.i1 = LLVMBuildSub(e->b, i1, LLVMConstInt(it, (unsigned long long)((vw - 1) * slope), 0), "");
	s.first = LLVMBuildICmp(e->b, LLVMIntEQ, off, LLVMBuildAdd(e->b, e_splat(e, s.i0), iota, ""), "");
	s.second = LLVMBuildICmp(e->b, LLVMIntEQ, off, LLVMBuildAdd(e->b, e_splat(e, s.i1), iota, ""), "");
	s.i0 = LLVMBuildSExt(e->b, s.i0, e->i64, "");
	s.i1 = LLVMBuildSExt(e->b, s.i1, e->i64, "");
	stray = LLVMBuildAnd(e->b, s.mask, LLVMBuildNot(e->b, LLVMBuildOr(e->b, s.first, s.second, ""), ""), "");
	ok = LLVMBuildICmp(e->b, LLVMIntEQ, LLVMBuildBitCast(e->b, stray, bits, ""), LLVMConstNull(bits), "");
	return fast_or(e, ok, split_load, split_slow, &s, "split");
}

typedef struct GatherOff {
	KExpr *x;
	const Type *t;
	LLVMValueRef off;
	LLVMTypeRef it;
} GatherOff;

static LLVMValueRef gather_arg(E *e, void *arg)
{
	GatherOff *g = arg;

	return gather_off(e, g->x, g->t, g->off, g->it);
}

/* The lanes' offsets as a vector.  Where they turn out consecutive at
 * run time, one vector load; every second element, two loads and a
 * shuffle; every second element of two rows, two runs (split_runs); else
 * a gather. */
static LLVMValueRef gather_lanes(E *e, KExpr *x, const Type *t, IExpr *lin)
{
	LLVMTypeRef mt = e_memtype(e, t->elem), vt = LLVMVectorType(mt, (unsigned)e->vw);
	LLVMTypeRef it = vindex_type(e, t);
	LLVMValueRef off = vindex(e, lin, it), i0, v[3], phi;
	LLVMBasicBlockRef bb[3], s2test, join;
	unsigned al = (unsigned)elem_size(t->elem);
	int64_t c;

	i0 = LLVMBuildExtractElement(e->b, off, LLVMConstInt(e->i32, 0, 0), "");
	bb[0] = LLVMAppendBasicBlockInContext(e->cx, e->fn, "run");
	s2test = LLVMAppendBasicBlockInContext(e->cx, e->fn, "stride2?");
	bb[1] = LLVMAppendBasicBlockInContext(e->cx, e->fn, "stride2");
	bb[2] = LLVMAppendBasicBlockInContext(e->cx, e->fn, "gather");
	join = LLVMAppendBasicBlockInContext(e->cx, e->fn, "loaded");
	LLVMBuildCondBr(e->b, lanes_step(e, off, i0, it, 1), bb[0], s2test);
	LLVMPositionBuilderAtEnd(e->b, bb[0]);
	v[0] = load_run(e, vt, mt, x->buf, i0, al);
	LLVMBuildBr(e->b, join);
	LLVMPositionBuilderAtEnd(e->b, s2test);
	LLVMBuildCondBr(e->b, lanes_step(e, off, i0, it, 2), bb[1], bb[2]);
	LLVMPositionBuilderAtEnd(e->b, bb[1]);
	v[1] = load_stride2(e, vt, mt, x->buf, i0, al);
	LLVMBuildBr(e->b, join);
	LLVMPositionBuilderAtEnd(e->b, bb[2]);
	/* two runs only where the offsets' step along the lanes is not one
	 * constant (a tap copy's lanes across NCHW planes never are) */
	if (maskable(e, t->elem) && e->vw % 2 == 0 && !ix_coef(lin, e->vdim, &c)) {
		GatherOff g = { x, t, off, it };

		v[2] = split_runs(e, x->buf, t, off, it, 2, NULL, gather_arg, &g);
	} else
		v[2] = gather_off(e, x, t, off, it);
	bb[2] = LLVMGetInsertBlock(e->b);
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

	return g->slope == 1 ? load_run(e, vt, mt, g->x->buf, i0, al) : load_stride2(e, vt, mt, g->x->buf, i0, al);
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
		v = LLVMBuildSub(e->b, vindex(e, x->ix[i], it), e_splat(e, LLVMConstInt(it, (unsigned long long)x->lo[i], 1)), "");
		d = LLVMBuildICmp(e->b, LLVMIntULT, v,
			e_splat(e, LLVMConstInt(it, (unsigned long long)(x->hi[i] - x->lo[i]), 0)), "");
		c = c ? LLVMBuildAnd(e->b, c, d, "") : d;
	}
	return c ? c : e_splat(e, LLVMConstInt(e->i1, 1, 0));
}

static LLVMValueRef all_lanes(E *e, void *arg)
{
	(void)arg;
	return e_splat(e, LLVMConstInt(e->i1, 1, 0));
}

/* Range test x holds for every lane where the scalar conditions ANDed
 * into *cond hold: each index on one affine piece across the lanes with
 * its first and last lane in range (an index the lanes share, tested
 * once).  0 when x's indices rule that out. */
static int lanes_inside(E *e, KExpr *x, LLVMValueRef *cond)
{
	LLVMValueRef lo, hi;
	int64_t slope;
	int i;

	for (i = 0; i < x->rank; i++) {
		if (!ix_uses_dim(x->ix[i], e->vdim)) {
			/* the same for every lane: in range or not */
			lo = hi = e_index(e, x->ix[i]);
		} else {
			if (!lane_affine(e, x->ix[i], &slope, cond))
				return 0;
			lane_ends(e, x->ix[i], &lo, &hi);
		}
		and_into(e, cond, LLVMBuildICmp(e->b, LLVMIntSGE, lo, e_i64(e, x->lo[i]), ""));
		and_into(e, cond, LLVMBuildICmp(e->b, LLVMIntSLT, hi, e_i64(e, x->hi[i]), ""));
	}
	return 1;
}

/* Every lane in range where lanes_inside's scalar tests (as for gather)
 * say so, else lane by lane. */
static LLVMValueRef vector_inrange(E *e, KExpr *x)
{
	LLVMValueRef cond = NULL;

	if (!e->pieces || !lanes_inside(e, x, &cond) || !cond)
		return inrange_lanes(e, x);
	return fast_or(e, cond, all_lanes, inrange_lanes, x, "inside");
}

static LLVMValueRef emit_load(E *e, KExpr *x)
{
	Type *t = e->k->bind[x->buf].type;
	int64_t c;

	if (e->vw > 1) {
		IExpr *lin = e_linear(e, t, x->ix);

		if ((!ix_coef(lin, e->vdim, &c) || (c != 0 && c != 1)) && gatherable(t))
			return gather(e, x, t, lin);
		if (!ix_coef(lin, e->vdim, &c) || (c != 0 && c != 1))
			return per_lane(e, x, scalar_load);
		if (c == 0)
			return e_splat(e, scalar_load(e, x));
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
	LLVMTypeRef mt = e_memtype(e, t->elem), it = e_vtype(e, e->i64);
	LLVMValueRef off = e_splat(e, e_i64(e, 0)), ok = NULL, p, args[4], mask[64], v;
	unsigned id;
	int i;

	for (i = 0; i < x->n; i++) {
		LLVMValueRef iv = e_expr(e, x->a[i]), in;

		if (!iv)
			return NULL;
		iv = LLVMBuildIntCast2(e->b, iv, it, 1, "");
		in = LLVMBuildICmp(e->b, LLVMIntULT, iv, e_splat(e, e_i64(e, t->dims[i])), "");
		ok = ok ? LLVMBuildAnd(e->b, ok, in, "") : in;
		off = LLVMBuildAdd(e->b, LLVMBuildMul(e->b, off, e_splat(e, e_i64(e, t->dims[i])), ""),
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
	return e_splat(e, v);
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

/* ---- select(in range, load, other): one masked load ---- */

/* Does one of the tests in g[0..ng) keep clamp x idle: x's operand is a
 * tested index plus a constant whose range there lies inside the clamp? */
static int clamp_idle(const IExpr *x, KExpr *const *g, int ng)
{
	int i, j;
	int64_t d;

	for (i = 0; i < ng; i++)
		for (j = 0; j < g[i]->rank; j++)
			if (ix_diff(x->l, g[i]->ix[j], 0, &d) && g[i]->lo[j] + d >= x->v &&
					g[i]->hi[j] - 1 + d <= x->v2)
				return 1;
	return 0;
}

/* x with the clamps that g's tests keep idle taken out (*n counts them);
 * under a floordiv or mod only those whose operand is never negative,
 * as the division takes its operands */
static IExpr *unclamp(KCtx *kc, IExpr *x, KExpr *const *g, int ng, int under, int *n)
{
	int64_t lo, hi;

	switch (x->kind) {
	case IX_ADD:
		return ix_add(kc, unclamp(kc, x->l, g, ng, under, n), unclamp(kc, x->r, g, ng, under, n));
	case IX_MUL:
		if (x->r->kind != IX_CONST)
			return x;
		return ix_mul(kc, unclamp(kc, x->l, g, ng, under, n), x->r->v);
	case IX_FLOORDIV:
		return ix_floordiv(kc, unclamp(kc, x->l, g, ng, 1, n), x->r->v);
	case IX_MOD:
		return ix_mod(kc, unclamp(kc, x->l, g, ng, 1, n), x->r->v);
	case IX_CLAMP: {
		int m = 0;
		IExpr *y;

		if (!clamp_idle(x, g, ng))
			return x;
		y = unclamp(kc, x->l, g, ng, under, &m);
		if (under && !(ix_range(kc, y, &lo, &hi) && lo >= 0))
			return x;
		*n += m + 1;
		return y;
	}
	default:
		return x;
	}
}

/* vw elements from buf at i0 where mask holds, else 0; none read where
 * it does not (i0 may lie outside the buffer: no inbounds) */
static LLVMValueRef masked_load(E *e, LLVMTypeRef vt, LLVMTypeRef mt, int buf, LLVMValueRef i0,
	LLVMValueRef mask, unsigned al)
{
	return mload(e, vt, LLVMBuildGEP2(e->b, mt, e->bp[buf], &i0, 1, ""), mask, al);
}

/* lanes i of buf[i0 + slope i] (slope 1 or 2, vw even) where mask holds,
 * else 0: at stride 2 as load_stride2, lanes 0, 2, ... of a load from i0
 * and 1, 3, ... of one from i0 + vw - 1, each element masked by the lane
 * it goes to */
static LLVMValueRef masked_run(E *e, LLVMTypeRef vt, LLVMTypeRef mt, int buf, LLVMValueRef i0,
	LLVMValueRef mask, unsigned al, int64_t slope)
{
	LLVMValueRef la[64], lb[64], lanes[64], z = LLVMConstNull(LLVMTypeOf(mask));
	int i, vw = e->vw;

	if (slope == 1)
		return masked_load(e, vt, mt, buf, i0, mask, al);
	for (i = 0; i < vw; i++) {
		la[i] = LLVMConstInt(e->i32, (unsigned long long)(i % 2 ? vw : i / 2), 0);
		lb[i] = LLVMConstInt(e->i32, (unsigned long long)(i % 2 ? (i + vw - 1) / 2 : vw), 0);
		lanes[i] = LLVMConstInt(e->i32, (unsigned long long)(2 * i <= vw - 1 ? 2 * i : 2 * i + 1), 0);
	}
	return LLVMBuildShuffleVector(e->b,
		masked_load(e, vt, mt, buf, i0, LLVMBuildShuffleVector(e->b, mask, z,
			LLVMConstVector(la, (unsigned)vw), ""), al),
		masked_load(e, vt, mt, buf, LLVMBuildAdd(e->b, i0,
			LLVMConstInt(LLVMTypeOf(i0), (unsigned long long)vw - 1, 0), ""),
			LLVMBuildShuffleVector(e->b, mask, z, LLVMConstVector(lb, (unsigned)vw), ""), al),
		LLVMConstVector(lanes, (unsigned)vw), "");
}

typedef struct MaskedRun {
	KExpr *ld;
	IExpr *lin;             /* ld's index without the idle clamps */
	LLVMValueRef mask;
	int64_t slope;
	LLVMValueRef cond;      /* lin runs along the lanes where it holds; NULL: always */
} MaskedRun;

static LLVMValueRef run_fast(E *e, void *arg)
{
	MaskedRun *r = arg;
	Type *t = e->k->bind[r->ld->buf].type;
	LLVMTypeRef mt = e_memtype(e, t->elem);

	/* the first lane's element, which may lie outside the buffer where
	 * that lane fails */
	return masked_run(e, LLVMVectorType(mt, (unsigned)e->vw), mt, r->ld->buf, e_index(e, r->lin),
		r->mask, (unsigned)elem_size(t->elem), r->slope);
}

/* the lanes' elements one by one: a gather, without emit_load's tests
 * for a run or a stride (one site of code, not four: the packs of a
 * layer's taps hold dozens) */
static LLVMValueRef run_gather(E *e, void *arg)
{
	KExpr *ld = ((MaskedRun *)arg)->ld;
	Type *t = e->k->bind[ld->buf].type;
	LLVMTypeRef it = vindex_type(e, t);

	if (gatherable(t))
		return gather_off(e, ld, t, vindex(e, e_linear(e, t, ld->ix), it), it);
	return emit_load(e, ld);
}

/* where the run's scalar tests fail: a vector across a row's end (a
 * stride-2 window or convolution over rows of 28 or 56 against 16
 * lanes) as two runs (split_runs), on the index without its idle clamps
 * (a lane the tests drop may lie outside the buffer); else (the last
 * panel of a GEMM's pack, whose columns past N clamp to the last; three
 * rows in a vector) a gather */
static LLVMValueRef run_slow(E *e, void *arg)
{
	MaskedRun *r = arg;
	Type *t = e->k->bind[r->ld->buf].type;
	LLVMTypeRef it = vindex_type(e, t);

	if (!maskable(e, t->elem))
		return run_gather(e, arg);
	return split_runs(e, r->ld->buf, t, vindex(e, r->lin, it), it, r->slope, r->mask, run_gather, r);
}

static LLVMValueRef run_masked(E *e, void *arg)
{
	MaskedRun *r = arg;

	return r->cond ? fast_or(e, r->cond, run_fast, run_slow, r, "masked") : run_fast(e, r);
}

/* every lane passes the tests: the run unmasked (a constant mask, which
 * LLVM folds into plain loads) */
static LLVMValueRef run_inside(E *e, void *arg)
{
	MaskedRun r = *(MaskedRun *)arg;

	r.mask = tail_mask(e) ? tail_mask(e) : e_splat(e, LLVMConstInt(e->i1, 1, 0));
	return run_fast(e, &r);
}

/* The load ld (the lanes' elements of buf[...]) as a masked load of the
 * lanes that pass every test in g[0..ng), where its index without the
 * clamps the tests keep idle runs along the lanes; NULL where not.  Where
 * scalar tests at the lanes' ends find every lane passing (a pooling
 * window or an im2col row away from the padding), the run's plain loads
 * instead, without the mask's shuffles. */
static LLVMValueRef masked_value(E *e, KExpr *ld, KExpr **g, int ng)
{
	KCtx kc = { e->g->c, e->k->ndims, e->k->ext };
	Type *t = e->k->bind[ld->buf].type;
	IExpr **ix, *lin;
	int64_t slope;
	LLVMValueRef cond = NULL, mask, inside = NULL;
	int i, n = 0, ends;

	if (!maskable(e, t->elem))
		return NULL;
	ix = arena_alloc(e->g->c, sizeof *ix * (size_t)(t->rank + 1));
	for (i = 0; i < t->rank; i++)
		ix[i] = unclamp(&kc, ld->ix[i], g, ng, 0, &n);
	if (!n)
		return NULL;
	lin = e_linear(e, t, ix);
	/* one run along the lanes for every vector, else where a few
	 * scalar tests find one (a stride-2 window across a row's end
	 * is none) */
	if (!ix_slope(lin, e->vdim, &slope) && !lane_affine(e, lin, &slope, &cond))
		return NULL;
	if (slope != 1 && (slope != 2 || e->vw % 2))
		return NULL;
	mask = e_expr(e, g[0]);
	for (i = 1; i < ng; i++)
		mask = LLVMBuildAnd(e->b, mask, e_expr(e, g[i]), "");
	if (tail_mask(e))
		mask = LLVMBuildAnd(e->b, mask, tail_mask(e), "");
	ends = e->pieces;
	for (i = 0; i < ng && ends; i++)
		ends = lanes_inside(e, g[i], &inside);
	{
		MaskedRun r = { ld, lin, mask, slope, cond };

		if (!ends || !inside)
			return run_masked(e, &r);
		if (cond)
			and_into(e, &inside, cond);
		return fast_or(e, inside, run_inside, run_masked, &r, "inside");
	}
}

/* Does x read the lanes' dim through loads other than one, *ld (set at
 * the first), or hold an op that may trap on the zeros a masked load
 * gives the failing lanes (an integer division), a data-dependent load
 * or a range test's select?  0: x is ops over the one load, indices and
 * values the same for every lane. */
static int not_one_load(E *e, KExpr *x, KExpr **ld, PMap *seen)
{
	int i;

	if (pmap_get(seen, x))
		return 0;
	*pmap_slot(seen, x, 1) = x;
	if (x->kind == KX_XLOAD)
		return 1;
	if (x->kind == KX_LOAD) {
		for (i = 0; i < x->rank; i++)
			if (ix_uses_dim(x->ix[i], e->vdim))
				break;
		if (i == x->rank)
			return 0;
		if (*ld && *ld != x)
			return 1;
		*ld = x;
		return 0;
	}
	if (x->kind == KX_OP) {
		if ((x->op == kop.select && x->a[0]->kind == KX_INRANGE) || kop_int_div(x->op))
			return 1;
		for (i = 0; i < x->n; i++)
			if (not_one_load(e, x->a[i], ld, seen))
				return 1;
	}
	return 0;
}

/* forgets the values of x's nodes that read ld: 1 if x does */
static int forget(E *e, KExpr *x, KExpr *ld, PMap *seen)
{
	int i, r = x == ld;
	void **slot;

	if ((slot = pmap_slot(seen, x, 0)))
		return *slot != NULL;
	for (i = 0; i < x->n; i++)
		r |= forget(e, x->a[i], ld, seen);
	*pmap_slot(seen, x, 1) = r ? x : NULL;
	if (r && (slot = pmap_slot(&e->memo, x, 0)))
		*slot = NULL;
	return r;
}

/* select(t1, select(t2, ... f(load)), other) with range tests t (in
 * g[0..ng), outermost first) as vectors: where the load's index without
 * the clamps the tests keep idle runs along the lanes one by one (an
 * im2col row of a padded convolution across its padding and its rows'
 * ends), one masked load of the lanes that pass every test, instead of
 * the lanes' offsets as a vector, a run test and a gather; f, ops of that
 * load alone (a dequantization), applied to it.  The load and f are not
 * memoized: their failing lanes hold zeros or f of zeros, which only
 * these selects see.  NULL where the form does not fit. */
static LLVMValueRef masked_select(E *e, KExpr *x, KExpr **g, int ng)
{
	KExpr *ld = x->a[1], *l1 = NULL;
	LLVMValueRef v, other;

	if (x->kind != KX_OP || x->op != kop.select || x->a[0]->kind != KX_INRANGE || ng == 4)
		return NULL;
	g[ng++] = x->a[0];
	if (ld->kind == KX_LOAD) {
		if (!(v = masked_value(e, ld, g, ng)))
			return NULL;
	} else if (ld->kind == KX_OP && ld->op == kop.select && ld->a[0]->kind == KX_INRANGE) {
		if (!(v = masked_select(e, ld, g, ng)))
			return NULL;
	} else if (ld->kind == KX_OP) {
		PMap seen = {0};
		int no = not_one_load(e, ld, &l1, &seen);

		pmap_free(&seen);
		if (no || !l1 || !(v = masked_value(e, l1, g, ng)))
			return NULL;
		*pmap_slot(&e->memo, l1, 1) = v;
		v = e_expr(e, ld);
		memset(&seen, 0, sizeof seen);
		forget(e, ld, l1, &seen);
		pmap_free(&seen);
		if (!v)
			return NULL;
	} else
		return NULL;
	other = e_expr(e, x->a[2]);
	return LLVMBuildSelect(e->b, e_expr(e, x->a[0]), v, other, "");
}

/* KX_FIX's direct sum at the current point (scalar): over the input
 * channels and the 3x3 window, the input's pad where it lies outside
 * its source */
static LLVMValueRef fix_sum(E *e, KExpr *x)
{
	const KFix *f = x->fix;
	LLVMValueRef idx[4], acc = e_alloca(e, e->f32, "fix"), c, wk, s;
	ELoop l;
	int d, i, j;

	for (d = 0; d < 4; d++)
		idx[d] = e_index(e, x->ix[d]);
	/* the weight's row of output channel k */
	wk = LLVMBuildNSWMul(e->b, idx[1], e_i64(e, 9 * f->C), "");
	LLVMBuildStore(e->b, LLVMConstReal(e->f32, 0), acc);
	c = e_loop_begin(e, &l, e_i64(e, 0), e_i64(e, f->C), NULL);
	s = LLVMBuildLoad2(e->b, e->f32, acc, "");
	for (i = 0; i < 3; i++)
		for (j = 0; j < 3; j++) {
			LLVMValueRef at[4] = { idx[0], c, LLVMBuildNSWAdd(e->b, idx[2], e_i64(e, i), ""),
				LLVMBuildNSWAdd(e->b, idx[3], e_i64(e, j), "") };
			LLVMValueRef in = LLVMConstInt(e->i1, 1, 0), off = e_i64(e, f->x0), xv, wv, p;

			for (d = 0; d < 4; d++) {
				LLVMValueRef r = LLVMBuildSub(e->b, at[d], e_i64(e, f->off[d]), "");

				in = LLVMBuildAnd(e->b, in, LLVMBuildICmp(e->b, LLVMIntULT, r, e_i64(e, f->ext[d]), ""), "");
				r = LLVMBuildSelect(e->b, in, r, e_i64(e, 0), "");
				off = LLVMBuildAdd(e->b, off, LLVMBuildMul(e->b, r, e_i64(e, f->xs[d]), ""), "");
			}
			/* every index 0 where any lies outside: a load in range */
			off = LLVMBuildSelect(e->b, in, off, e_i64(e, f->x0), "");
			p = LLVMBuildGEP2(e->b, e->f32, e->bp[x->a[1]->buf], &off, 1, "");
			xv = LLVMBuildSelect(e->b, in, LLVMBuildLoad2(e->b, e->f32, p, ""),
				LLVMConstReal(e->f32, f->pad), "");
			off = LLVMBuildAdd(e->b, wk, LLVMBuildAdd(e->b,
				LLVMBuildMul(e->b, c, e_i64(e, 9), ""), e_i64(e, 3 * i + j), ""), "");
			p = LLVMBuildGEP2(e->b, e->f32, e->bp[x->a[2]->buf], &off, 1, "");
			wv = LLVMBuildLoad2(e->b, e->f32, p, "");
			s = LLVMBuildFAdd(e->b, s, LLVMBuildFMul(e->b, xv, wv, ""), "");
		}
	LLVMBuildStore(e->b, s, acc);
	e_loop_end(e, &l, NULL, LOOP_NO_UNROLL);
	return LLVMBuildLoad2(e->b, e->f32, acc, "");
}

/* KX_FIX: the value, where every lane is finite (the fast path); else
 * the direct sum in the lanes that are not */
static LLVMValueRef emit_fix(E *e, KExpr *x)
{
	LLVMValueRef v = e_expr(e, x->a[0]), bad, any, r, phi;
	LLVMTypeRef vt;
	LLVMBasicBlockRef slow, join, from[2];
	unsigned id;
	int vw = e->vw;

	if (!v)
		return NULL;
	vt = LLVMTypeOf(v);
	id = LLVMLookupIntrinsicID("llvm.fabs", 9);
	r = LLVMBuildCall2(e->b, LLVMIntrinsicGetType(e->cx, id, &vt, 1),
		LLVMGetIntrinsicDeclaration(e->m, id, &vt, 1), &v, 1, "");
	bad = LLVMBuildFCmp(e->b, LLVMRealUGE, r, e_splat(e, LLVMConstReal(e->f32, __builtin_inff())), "");
	if (vw > 1) {
		LLVMTypeRef bt = LLVMTypeOf(bad);

		if (e->ntail > 0)
			bad = LLVMBuildAnd(e->b, bad, prefix_mask(e, e->ntail), "");
		id = LLVMLookupIntrinsicID("llvm.vector.reduce.or", 21);
		any = LLVMBuildCall2(e->b, LLVMIntrinsicGetType(e->cx, id, &bt, 1),
			LLVMGetIntrinsicDeclaration(e->m, id, &bt, 1), &bad, 1, "");
	} else
		any = bad;
	slow = LLVMAppendBasicBlockInContext(e->cx, e->fn, "not_finite");
	join = LLVMAppendBasicBlockInContext(e->cx, e->fn, "checked");
	from[0] = LLVMGetInsertBlock(e->b);
	LLVMBuildCondBr(e->b, any, slow, join);
	LLVMPositionBuilderAtEnd(e->b, slow);
	if (vw == 1) {
		r = fix_sum(e, x);
	} else {
		/* a loop over the lanes (one copy of the sum's code), each not
		 * finite summed again into the vector's slot */
		LLVMValueRef slot = e_alloca(e, vt, "fix"), base = e->dimv[e->vdim], l, lane;
		LLVMBasicBlockRef redo = LLVMAppendBasicBlockInContext(e->cx, e->fn, "sum_lane"),
			next = LLVMAppendBasicBlockInContext(e->cx, e->fn, "next_lane");
		ELoop lp;

		LLVMBuildStore(e->b, v, slot);
		l = e_loop_begin(e, &lp, e_i64(e, 0), e_i64(e, e->ntail > 0 ? e->ntail : vw), NULL);
		lane = LLVMBuildTrunc(e->b, l, e->i32, "");
		LLVMBuildCondBr(e->b, LLVMBuildExtractElement(e->b, bad, lane, ""), redo, next);
		LLVMPositionBuilderAtEnd(e->b, redo);
		e->vw = 1;
		e->dimv[e->vdim] = LLVMBuildAdd(e->b, base, l, "");
		r = fix_sum(e, x);
		LLVMBuildStore(e->b, LLVMBuildInsertElement(e->b, LLVMBuildLoad2(e->b, vt, slot, ""), r,
			lane, ""), slot);
		LLVMBuildBr(e->b, next);
		LLVMPositionBuilderAtEnd(e->b, next);
		e->dimv[e->vdim] = base;
		e->vw = vw;
		e_loop_end(e, &lp, NULL, LOOP_NO_UNROLL);
		r = LLVMBuildLoad2(e->b, vt, slot, "");
	}
	from[1] = LLVMGetInsertBlock(e->b);
	LLVMBuildBr(e->b, join);
	LLVMPositionBuilderAtEnd(e->b, join);
	phi = LLVMBuildPhi(e->b, vt, "");
	LLVMAddIncoming(phi, (LLVMValueRef[]){ v, r }, from, 2);
	return phi;
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
	case KX_FIX: v = emit_fix(e, x); break;
	case KX_INDEX:
		v = e->vw > 1 ? per_lane(e, x, scalar_index) : scalar_index(e, x);
		break;
	case KX_INRANGE:
		v = e->vw > 1 ? vector_inrange(e, x) : scalar_inrange(e, x);
		break;
	case KX_ACC:
		if (e->accp[x->buf] && LLVMGetTypeKind(LLVMTypeOf(e->accp[x->buf])) == LLVMPointerTypeKind) {
			v = LLVMBuildLoad2(e->b, e_vtype(e, e_type(e, x->type)), e->accp[x->buf], "acc");
			/* S2's accumulator is the output: a vector of it is
			 * aligned to its element only */
			LLVMSetAlignment(v, (unsigned)elem_size(x->type));
		} else
			v = e->accp[x->buf];
		break;
	case KX_OP:
		if (e->vw > 1) {
			KExpr *g[4];

			if ((v = masked_select(e, x, g, 0)))
				break;
		}
		v = e_op(e, x);
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

void e_store(E *e, LLVMValueRef v, LLVMValueRef p, const Type *t)
{
	LLVMValueRef s;

	if (t->kind == TY_INT && t->width == 1)
		v = LLVMBuildZExt(e->b, v, e->vw > 1 ? LLVMVectorType(e->i8, (unsigned)e->vw) : e->i8, "");
	if (tail_mask(e)) {
		unsigned id = LLVMLookupIntrinsicID("llvm.masked.store", 17);
		LLVMTypeRef ovl[2] = { LLVMTypeOf(v), e->ptr };
		LLVMValueRef args[4] = { v, p, LLVMConstInt(e->i32, (unsigned)elem_size(t), 0), tail_mask(e) };

		LLVMBuildCall2(e->b, LLVMIntrinsicGetType(e->cx, id, ovl, 2),
			LLVMGetIntrinsicDeclaration(e->m, id, ovl, 2), args, 4, "");
		return;
	}
	s = LLVMBuildStore(e->b, v, p);
	LLVMSetAlignment(s, (unsigned)elem_size(t));
}
