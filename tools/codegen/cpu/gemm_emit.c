/*
 * gemm_emit.c - a packed GEMM kernel (gemm_plan.c's KK_GEMM) in LLVM IR:
 * the MR x NR tile of C in registers (MR rows of two vectors, cpu.h's mk),
 * one B vector pair and MR broadcasts of A per k, the tile stored to the
 * stack, then the fused epilogue row by row; with a fused pack, each
 * B panel packed onto the stack first (pack_panel).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cpu.h"

/* the lanes of one of a tile row's NV vectors */
#define VW (mk.nr / NV)
/* floats in a cache line */
enum { LINE = 16 };

/* how many steps ahead a micro-kernel reading A in place across planes
 * prefetches it (micro_step) */
enum { APF_STEPS = 32 };

/* n elements of type el (f32, or i32: an int8 GEMM's sums and panels) */
static LLVMValueRef vload_as(E *e, LLVMTypeRef el, LLVMValueRef base, LLVMValueRef off, int n)
{
	LLVMTypeRef vt = n > 1 ? LLVMVectorType(el, (unsigned)n) : el;
	LLVMValueRef p = LLVMBuildInBoundsGEP2(e->b, el, base, &off, 1, "");
	LLVMValueRef v = LLVMBuildLoad2(e->b, vt, p, "");

	LLVMSetAlignment(v, 4);
	return v;
}

static LLVMValueRef vload(E *e, LLVMValueRef base, LLVMValueRef off, int n)
{
	return vload_as(e, e->f32, base, off, n);
}

/* the tile's elements: the sums' type */
static LLVMTypeRef tile_el(E *e, const Kernel *k)
{
	return k->g.q == 1 || k->g.q == 2 || k->g.q == 4 ? e->i32 : e->f32;
}

/* 4-byte words per k step of a panel's row or column: an AMX GEMM's
 * step is 32 k of bf16 or 64 of int8 (16 words of pairs or groups of
 * four in B, 16 of a row in A) */
static int64_t kwords(const KGemm *g)
{
	return gemm_amx(g) ? g->K * 16 : g->K;
}

static LLVMValueRef chunk_range(E *e, LLVMValueRef w, LLVMValueRef nw, LLVMValueRef total,
	LLVMValueRef *hi)
{
	/* [w * total / nw, (w + 1) * total / nw) */
	LLVMValueRef lo = LLVMBuildSDiv(e->b, LLVMBuildMul(e->b, w, total, ""), nw, "");

	*hi = LLVMBuildSDiv(e->b, LLVMBuildMul(e->b, LLVMBuildAdd(e->b, w, e_i64(e, 1), ""),
		total, ""), nw, "");
	return lo;
}

/* ceil(x / q) */
static LLVMValueRef panels(E *e, LLVMValueRef x, int64_t q)
{
	return LLVMBuildSDiv(e->b, LLVMBuildAdd(e->b, x, e_i64(e, q - 1), ""), e_i64(e, q), "");
}

/* The output's linear index over (b, m, n) */
static IExpr *out_linear(E *e, Kernel *k)
{
	KOut *o = &k->out[0];

	return e_linear(e, k->bind[o->buf].type, o->ix);
}

/* a vector store at p: masked to a tail's lanes (e->ntail), else whole */
static void vstore(E *e, LLVMValueRef v, LLVMValueRef p, const Type *et, unsigned al)
{
	if (e->ntail > 0)
		e_store(e, v, p, et);
	else
		LLVMSetAlignment(LLVMBuildStore(e->b, v, p), al);
}

static void store_tile_vec(E *e, Kernel *k, LLVMValueRef acc)
{
	KOut *o = &k->out[0];
	LLVMValueRef v = acc, p;
	Type *bt = k->bind[o->buf].type;
	unsigned al;

	e_reset(e);
	e->accp[0] = acc;
	if (o->epi)
		v = e_expr(e, o->epi);
	if (!v)
		return;
	/* booleans are bytes in memory: a vector of i1 stored as it is
	 * would pack them into bits */
	if (bt->elem->kind == TY_INT && bt->elem->width == 1)
		v = LLVMBuildZExt(e->b, v, e->vw > 1 ? LLVMVectorType(e->i8, (unsigned)e->vw)
			: e->i8, "");
	al = (unsigned)elem_size(bt->elem);
	p = e_addr(e, o->buf, o->ix);
	if (e->vw > 1) {
		/* contiguous along the vector's dim (n, or m: cols_out)? */
		IExpr *t = out_linear(e, k);
		int64_t c = -1;

		if (!ix_coef(t, e->vdim, &c))
			c = -1;
		if (c == 1) {
			vstore(e, v, p, bt->elem, al);
			return;
		}
		/* consecutive where the lanes stay in one row of the output
		 * (a store inside a pad: rows of W among rows of W + 2), found
		 * by a few scalar tests; else a scatter (a vector across two
		 * rows: 16 extracted lanes each stored took 5-8% of
		 * mobilenet_v2's 1x1 convolutions at 56x56 and 28x28) */
		{
			LLVMValueRef cond = NULL;
			LLVMBasicBlockRef vec = NULL, lanes = NULL, done = NULL;
			int64_t slope = 0;
			int rowwise = e_lane_affine(e, t, &slope, &cond) && slope == 1;

			if (rowwise && !cond) {
				vstore(e, v, p, bt->elem, al);
				return;
			}
			if (rowwise) {
				vec = LLVMAppendBasicBlockInContext(e->cx, e->fn, "rowstore");
				lanes = LLVMAppendBasicBlockInContext(e->cx, e->fn, "lanestore");
				done = LLVMAppendBasicBlockInContext(e->cx, e->fn, "stored");
				LLVMBuildCondBr(e->b, cond, vec, lanes);
				LLVMPositionBuilderAtEnd(e->b, vec);
				vstore(e, v, p, bt->elem, al);
				LLVMBuildBr(e->b, done);
				LLVMPositionBuilderAtEnd(e->b, lanes);
			}

			e_scatter(e, v, o->buf, t, bt->elem);
			if (done) {
				LLVMBuildBr(e->b, done);
				LLVMPositionBuilderAtEnd(e->b, done);
			}
		}
		return;
	}
	LLVMSetAlignment(LLVMBuildStore(e->b, v, p), al);
}

/* B's panel pn of batch b into the stack: its expression over (b, pn,
 * k, column), NR columns as two vectors; with kper (kir.h), a loop over
 * k' = k / kper of kper steps, each its own expression over (b, pn, k',
 * column), or with kin, a loop over the kper steps s, each a loop over a
 * run of kin rows, the expressions over (b, pn, k', column, j, s); an
 * int8 GEMM's bytes over (b, pn, k / 4, column, k % 4), the four k of a
 * vector of columns interleaved into the vpdpbusd layout (a column's four
 * bytes together) */
static void pack_panel(E *e, Kernel *k, LLVMValueRef bloc, LLVMValueRef b, LLVMValueRef pn,
	LLVMValueRef kend)
{
	KGemm *g = &k->g;
	int ndims = k->ndims, j, i, s, bf = gemm_pairs(g), nk = bf ? 2 : g->q ? 4 : 1;
	int nstep = g->kper && !g->kin ? g->kper : 1;
	KExpr **step = g->kper ? g->bper : &g->bpack;
	int64_t *ext = k->ext, pext[6];
	LLVMValueRef saved[6], kk, sv = NULL;
	ELoop lk, ls;

	/* the expressions' indices are over the pack's domain */
	k->ndims = g->kin ? 6 : g->q ? 5 : 4;
	memcpy(pext, g->pext, sizeof *pext * (size_t)(g->q ? 5 : 4));
	if (g->q >= 3)  /* AMX, bf16: rows of pairs or groups of four k */
		kend = e_i64(e, pext[2]);
	if (g->kper)    /* never with a K bounded by the length */
		kend = e_i64(e, pext[2] = g->kin ? g->kin : (g->q >= 3 ? pext[2] : g->K) / g->kper);
	if (g->kin) {
		pext[4] = nk;
		pext[5] = g->kper;
	}
	k->ext = pext;
	memcpy(saved, e->dimv, sizeof saved);
	if (g->kin)
		sv = e_loop_begin(e, &ls, e_i64(e, 0), e_i64(e, g->kper), NULL);
	kk = e_loop_begin(e, &lk, e_i64(e, 0), kend, NULL);
	for (s = 0; s < nstep; s++)
		for (j = 0; j < mk.nr; j += VW) {
			LLVMValueRef v[4], off, st, row;

			for (i = 0; i < nk; i++) {
				e_reset(e);
				e->dimv[0] = b;
				e->dimv[1] = pn;
				e->dimv[2] = kk;
				e->dimv[3] = e_i64(e, j);
				e->dimv[4] = e_i64(e, i);
				e->dimv[5] = sv;
				e->vw = VW;
				e->vdim = 3;
				v[i] = e_expr(e, step[g->kper && !g->kin ? nk * s + i : g->kin ? i : s]);
				e->vw = 1;
			}
			row = g->kin ? LLVMBuildAdd(e->b, LLVMBuildMul(e->b, sv, e_i64(e, g->kin), ""), kk, "") :
				nstep > 1 ? LLVMBuildAdd(e->b, LLVMBuildMul(e->b, kk, e_i64(e, nstep), ""),
				e_i64(e, s), "") : kk;
			off = LLVMBuildAdd(e->b, LLVMBuildMul(e->b, row, e_i64(e, mk.nr), ""), e_i64(e, j), "");
			st = LLVMBuildStore(e->b, g->q ? interleave(e, v, VW, nk) : v[0],
				LLVMBuildInBoundsGEP2(e->b, e->f32, bloc, &off, 1, ""));
			LLVMSetAlignment(st, 64);
		}
	e_reset(e);
	e_loop_end(e, &lk, NULL, 0);
	if (g->kin)
		e_loop_end(e, &ls, NULL, 0);
	memcpy(e->dimv, saved, sizeof saved);
	k->ndims = ndims;
	k->ext = ext;
}

/* The first element of the A and B panels the tile reads: A's
 * ((b * mp + pm) * K) * mr, or in place a0 + b * asb + pm * mr * lda;
 * B's ((b * np + pn) * K) * NR, or 0 for the panel on the stack. */
static void panel_bases(E *e, Kernel *k, LLVMValueRef bidx, LLVMValueRef pm, LLVMValueRef pn,
	LLVMValueRef *abase, LLVMValueRef *bbase)
{
	KGemm *g = &k->g;
	int64_t np = (g->N + mk.nr - 1) / mk.nr, mp = (g->M + g->mr - 1) / g->mr;

	if (g->atap) {
		LLVMValueRef t = LLVMBuildSRem(e->b, pm, e_i64(e, g->tap.tpi), "");

		*abase = LLVMBuildAdd(e->b, LLVMBuildAdd(e->b, LLVMBuildMul(e->b, bidx, e_i64(e, g->asb), ""),
			LLVMBuildMul(e->b, LLVMBuildSDiv(e->b, pm, e_i64(e, g->tap.tpi), ""), e_i64(e, g->tap.timg), ""), ""),
			LLVMBuildAdd(e->b, LLVMBuildMul(e->b, LLVMBuildSDiv(e->b, t, e_i64(e, g->tap.tpr), ""),
			e_i64(e, g->mr / g->tap.tw * g->tap.arow), ""), LLVMBuildMul(e->b, LLVMBuildSRem(e->b, t,
			e_i64(e, g->tap.tpr), ""), e_i64(e, g->mr * g->lda), ""), ""), "");
	} else if (g->adirect)
		*abase = LLVMBuildAdd(e->b, LLVMBuildAdd(e->b, e_i64(e, g->a0),
			LLVMBuildMul(e->b, bidx, e_i64(e, g->asb), ""), ""),
			LLVMBuildMul(e->b, pm, e_i64(e, g->mr * g->lda), ""), "");
	else
		*abase = LLVMBuildMul(e->b, LLVMBuildAdd(e->b, LLVMBuildMul(e->b, bidx, e_i64(e, mp), ""), pm, ""),
			e_i64(e, kwords(g) * g->mr), "");
	*bbase = g->bpack ? e_i64(e, 0) :
		LLVMBuildMul(e->b, LLVMBuildAdd(e->b, LLVMBuildMul(e->b, bidx, e_i64(e, np), ""), pn, ""),
			e_i64(e, kwords(g) * mk.nr), "");
}

/* a prefetch of p's cache line into L2 */
static void prefetch(E *e, LLVMValueRef p)
{
	LLVMTypeRef pt = e->ptr;
	unsigned id = LLVMLookupIntrinsicID("llvm.prefetch", 13);
	LLVMValueRef f = LLVMGetIntrinsicDeclaration(e->m, id, &pt, 1);
	LLVMValueRef args[4] = { p, LLVMConstInt(e->i32, 0, 0), LLVMConstInt(e->i32, 2, 0),
		LLVMConstInt(e->i32, 1, 0) };

	LLVMBuildCall2(e->b, LLVMIntrinsicGetType(e->cx, id, &pt, 1), f, args, 4, "");
}

/* The prefetches of step k0 (B's elements from bo, in 4-byte words) of
 * the next B panel at pf (kir.h's KGemm bnext): of its step k0 (all),
 * or of line k0 (half). */
static void prefetch_step(E *e, const KGemm *g, LLVMValueRef k0, LLVMValueRef bo, LLVMValueRef pf)
{
	LLVMValueRef po = g->bnext == 1 ? LLVMBuildMul(e->b, k0, e_i64(e, LINE), "") : bo;
	LLVMValueRef pp = LLVMBuildGEP2(e->b, e->f32, pf, &po, 1, "");
	int j;

	for (j = 0; j < (g->bnext == 1 ? LINE : mk.nr); j += LINE) {
		LLVMValueRef o = e_i64(e, j);

		prefetch(e, LLVMBuildGEP2(e->b, e->f32, pp, &o, 1, ""));
	}
}

/* One step k0 of the reduction: NV vectors of B, and for each of the
 * mr rows a broadcast of A fused-multiply-added into the tile; with pf,
 * a prefetch of the next B panel's lines (kir.h's KGemm bnext): of its
 * step k0 (all), or of line k0 from pf (half).  A's rows start at aoff
 * where A is read through its taps. */
static void micro_step(E *e, Kernel *k, int mr, LLVMValueRef (*acc)[NV], LLVMValueRef apanel,
	LLVMValueRef bpanel, LLVMValueRef k0, LLVMValueRef pf, LLVMValueRef aoff)
{
	KGemm *g = &k->g;
	LLVMTypeRef vt = LLVMVectorType(e->f32, VW);
	LLVMValueRef bv[NV], ao = g->atap ? aoff : LLVMBuildMul(e->b, k0, e_i64(e, g->adirect ? g->aks : g->mr), "");
	LLVMValueRef bo = LLVMBuildMul(e->b, k0, e_i64(e, mk.nr), "");
	/* the step's first elements as pointers, the rows and vectors at
	 * constant offsets from them: addressing modes, no index arithmetic
	 * per load */
	LLVMValueRef ap = LLVMBuildInBoundsGEP2(e->b, e->f32, apanel, &ao, 1, "");
	LLVMValueRef bp = LLVMBuildInBoundsGEP2(e->b, e->f32, bpanel, &bo, 1, "");
	int r, j;

	for (j = 0; j < NV; j++)
		bv[j] = vload(e, bp, e_i64(e, j * VW), VW);
	if (pf)
		prefetch_step(e, g, k0, bo, pf);
	/* A read in place with each step's rows in another plane (NCHW: the
	 * step's mr pixels of one channel, aks apart): the step APF_STEPS
	 * ahead prefetched, its first and last row's lines.  No prefetcher
	 * follows a plane's stride from one load to the next, and a plane
	 * that the other core has just written (a depthwise convolution's
	 * output, split by channels, before a projection split by pixels)
	 * came a line at a time at its latency: mobilenet_v2's 14x14
	 * projections took as long on two threads as on one (57 us; 41 us
	 * prefetched, 30 with an input nobody writes).  Not at a dynamic K
	 * (the micro-kernel's name has no K to tell them apart) nor where
	 * the steps end before the prefetches' start. */
	if (g->adirect && g->aks != 1 && !g->kbound.c && g->K > APF_STEPS) {
		LLVMValueRef o[2] = { e_i64(e, APF_STEPS * g->aks),
			e_i64(e, APF_STEPS * g->aks + (mr - 1) * g->lda) };

		for (j = 0; j < 2; j++)
			prefetch(e, LLVMBuildGEP2(e->b, e->f32, ap, &o[j], 1, ""));
	}
	for (r = 0; r < mr; r++) {
		LLVMValueRef av = vload(e, ap, e_i64(e, g->atap ? r / g->tap.tw * g->tap.arow +
			r % g->tap.tw * g->lda : g->adirect ? r * g->lda : r), 1);
		LLVMValueRef sv;

		e->vw = VW;
		sv = LLVMGetUndef(vt);
		sv = LLVMBuildInsertElement(e->b, sv, av, LLVMConstInt(e->i32, 0, 0), "");
		sv = LLVMBuildShuffleVector(e->b, sv, sv, LLVMConstNull(LLVMVectorType(e->i32, VW)), "");
		e->vw = 1;
		for (j = 0; j < NV; j++) {
			LLVMValueRef c = LLVMBuildLoad2(e->b, vt, acc[r][j], "");
			LLVMValueRef args[3] = { sv, bv[j], c };
			unsigned id = LLVMLookupIntrinsicID("llvm.fma", 8);
			LLVMValueRef f = LLVMGetIntrinsicDeclaration(e->m, id, &vt, 1);

			c = LLVMBuildCall2(e->b, LLVMIntrinsicGetType(e->cx, id, &vt, 1), f, args, 3, "");
			LLVMBuildStore(e->b, c, acc[r][j]);
		}
	}
}

/* micro_step for an int8 GEMM: step k0 is four k, each element of the
 * panels four bytes, the unsigned ones B's (g->q 1) or A's (2), summed
 * into the i32 tile by vpdpbusd; for a bf16 one (5), a pair of k, each
 * element a pair of bf16, summed into the f32 tile by vdpbf16ps, its A
 * packed or read in place (rows lda words apart); aoff unused */
static void qmicro_step(E *e, Kernel *k, int mr, LLVMValueRef (*acc)[NV], LLVMValueRef apanel,
	LLVMValueRef bpanel, LLVMValueRef k0, LLVMValueRef pf, LLVMValueRef aoff)
{
	KGemm *g = &k->g;
	LLVMTypeRef vt = LLVMVectorType(e->i32, VW), ct = LLVMVectorType(tile_el(e, k), VW);
	LLVMValueRef bv[NV], ao = g->adirect ? k0 : LLVMBuildMul(e->b, k0, e_i64(e, g->mr), "");
	LLVMValueRef bo = LLVMBuildMul(e->b, k0, e_i64(e, mk.nr), "");
	LLVMValueRef ap = LLVMBuildInBoundsGEP2(e->b, e->i32, apanel, &ao, 1, "");
	LLVMValueRef bp = LLVMBuildInBoundsGEP2(e->b, e->i32, bpanel, &bo, 1, "");
	/* vdpbf16ps's operands: pairs of bf16 as 32 bfloat */
	LLVMTypeRef ot = g->q == 5 ? LLVMVectorType(LLVMBFloatTypeInContext(e->cx), 2 * VW) : vt;
	LLVMTypeRef ft = LLVMFunctionType(ct, (LLVMTypeRef[]){ ct, ot, ot }, 3, 0);
	const char *name = g->q == 5 ? "llvm.x86.avx512bf16.dpbf16ps.512" : "llvm.x86.avx512.vpdpbusd.512";
	LLVMValueRef f = LLVMGetNamedFunction(e->m, name);
	int r, j;

	if (!f)
		f = LLVMAddFunction(e->m, name, ft);
	for (j = 0; j < NV; j++)
		bv[j] = LLVMBuildBitCast(e->b, vload_as(e, e->i32, bp, e_i64(e, j * VW), VW), ot, "");
	if (pf)
		prefetch_step(e, g, k0, bo, pf);
	for (r = 0; r < mr; r++) {
		LLVMValueRef av = vload_as(e, e->i32, ap, e_i64(e, g->adirect ? r * g->lda : r), 1);
		LLVMValueRef sv;

		sv = LLVMBuildInsertElement(e->b, LLVMGetUndef(vt), av, LLVMConstInt(e->i32, 0, 0), "");
		sv = LLVMBuildShuffleVector(e->b, sv, sv, LLVMConstNull(LLVMVectorType(e->i32, VW)), "");
		sv = LLVMBuildBitCast(e->b, sv, ot, "");
		for (j = 0; j < NV; j++) {
			LLVMValueRef c = LLVMBuildLoad2(e->b, ct, acc[r][j], "");
			LLVMValueRef args[3] = { c, g->q == 1 ? bv[j] : sv, g->q == 1 ? sv : bv[j] };

			c = LLVMBuildCall2(e->b, ft, f, args, 3, "");
			LLVMBuildStore(e->b, c, acc[r][j]);
		}
	}
}

/* Columns n .. n + VW - 1 of the tile's element row (row: its offset in
 * the tile) through the epilogue, as one vector */
static void vec_out(E *e, Kernel *k, LLVMValueRef tile, LLVMValueRef row, LLVMValueRef n)
{
	e->dimv[2] = n;
	e->vw = VW;
	e->vdim = 2;
	store_tile_vec(e, k, vload_as(e, tile_el(e, k), tile, row, VW));
	e->vw = 1;
}

/* Columns n.. of tile row `row` through the epilogue: a vector's worth
 * when they are all inside N, else one at a time (at most VW - 1
 * of them). */
static void row_out(E *e, Kernel *k, LLVMValueRef tile, LLVMValueRef row, LLVMValueRef n)
{
	LLVMValueRef fn = e->fn;
	LLVMBasicBlockRef full, part, done;
	ELoop lc;
	LLVMValueRef ci;

	full = LLVMAppendBasicBlockInContext(e->cx, fn, "full");
	part = LLVMAppendBasicBlockInContext(e->cx, fn, "part");
	done = LLVMAppendBasicBlockInContext(e->cx, fn, "done");
	LLVMBuildCondBr(e->b, LLVMBuildICmp(e->b, LLVMIntSLE,
		LLVMBuildAdd(e->b, n, e_i64(e, VW), ""), e_i64(e, k->g.N), ""), full, part);
	LLVMPositionBuilderAtEnd(e->b, full);
	vec_out(e, k, tile, row, n);
	LLVMBuildBr(e->b, done);
	LLVMPositionBuilderAtEnd(e->b, part);
	ci = e_loop_begin(e, &lc, e_i64(e, 0), LLVMBuildSub(e->b, e_i64(e, k->g.N), n, ""), NULL);
	e->dimv[2] = LLVMBuildAdd(e->b, n, ci, "");
	store_tile_vec(e, k, vload_as(e, tile_el(e, k), tile, LLVMBuildAdd(e->b, row, ci, ""), 1));
	e_loop_end(e, &lc, NULL, LOOP_NO_UNROLL);
	LLVMBuildBr(e->b, done);
	LLVMPositionBuilderAtEnd(e->b, done);
}

/* an AMX instruction: llvm.x86.NAME on tile numbers t[0..nt) (immediates)
 * and then the pointer p and the stride st (where p) */
static void amx(E *e, const char *name, const int *t, int nt, LLVMValueRef p, int64_t st)
{
	LLVMTypeRef i8 = LLVMInt8TypeInContext(e->cx), pt[5];
	LLVMValueRef args[5], f;
	char full[48];
	int n = 0, i;

	for (i = 0; i < nt; i++) {
		pt[n] = i8;
		args[n++] = LLVMConstInt(i8, (unsigned long long)t[i], 0);
	}
	if (p) {
		pt[n] = e->ptr;
		args[n++] = p;
		if (st) {
			pt[n] = e->i64;
			args[n++] = e_i64(e, st);
		}
	}
	snprintf(full, sizeof full, "llvm.x86.%s", name);
	if (!(f = LLVMGetNamedFunction(e->m, full)))
		f = LLVMAddFunction(e->m, full, LLVMFunctionType(LLVMVoidTypeInContext(e->cx), pt,
			(unsigned)n, 0));
	LLVMBuildCall2(e->b, LLVMGlobalGetValueType(f), f, args, (unsigned)n, "");
}

/* p + off bytes */
static LLVMValueRef byte_ptr(E *e, LLVMValueRef p, LLVMValueRef off)
{
	return LLVMBuildInBoundsGEP2(e->b, LLVMInt8TypeInContext(e->cx), p, &off, 1, "");
}

/* The tile registers' configuration (palette 1, every tile 16 rows of 64
 * bytes), loaded at the GEMM kernel's start: the micro-kernels use tiles
 * 0-3 for C, 4-5 for A, 6-7 for B. */
static void amx_config(E *e)
{
	LLVMTypeRef i8 = LLVMInt8TypeInContext(e->cx);
	LLVMValueRef b[64], cfg = e_alloca(e, LLVMArrayType(i8, 64), "tilecfg");
	int i;

	for (i = 0; i < 64; i++)
		b[i] = LLVMConstInt(i8, i == 0 ? 1 : i >= 16 && i < 32 && i % 2 == 0 ? 64 :
			i >= 48 && i < 56 ? 16 : 0, 0);
	LLVMSetAlignment(cfg, 64);
	LLVMBuildStore(e->b, LLVMConstVector(b, 64), cfg);
	amx(e, "ldtilecfg", NULL, 0, cfg, 0);
}

/* The micro-kernel of a GEMM on AMX tiles (gemm_plan.c's bgemm, and
 * qgemm's on AMX-INT8): mk(ptr a, ptr b, ptr tile) sums K steps of 32 k
 * of bf16 (tdpbf16ps) or 64 of int8 (tdpbsud: signed A, unsigned B) into
 * mr / 16 x 2 tiles of 16x16 f32 or i32 (A's rows 16 at a time, B's
 * columns), and stores them at tile as mr rows of mk.nr sums. */
static LLVMValueRef amx_fn(E *e, Kernel *k, int mr)
{
	KGemm *g = &k->g;
	LLVMTypeRef pt[3] = { e->ptr, e->ptr, e->ptr };
	LLVMValueRef f, fn = e->fn, k0, ap, bp;
	LLVMBasicBlockRef at = LLVMGetInsertBlock(e->b);
	ELoop lk;
	char name[64];
	int r, j;

	snprintf(name, sizeof name, "gemm.amx%dx%d.k%lld%s", mr, mk.nr, (long long)g->K,
		g->q == 4 ? ".s8u8" : "");
	if ((f = LLVMGetNamedFunction(e->m, name)))
		return f;
	f = LLVMAddFunction(e->m, name, LLVMFunctionType(LLVMVoidTypeInContext(e->cx), pt, 3, 0));
	LLVMSetLinkage(f, LLVMInternalLinkage);
	cpu_fn_attrs(e, f);
	LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, cpu_enum_attr(e, "noinline", 0));
	e->fn = f;
	LLVMPositionBuilderAtEnd(e->b, LLVMAppendBasicBlockInContext(e->cx, f, "entry"));
	for (r = 0; r < mr / 16; r++)
		for (j = 0; j < 2; j++)
			amx(e, "tilezero", (int[]){ 2 * r + j }, 1, NULL, 0);
	k0 = e_loop_begin(e, &lk, e_i64(e, 0), e_i64(e, g->K), NULL);
	ap = byte_ptr(e, LLVMGetParam(f, 0), LLVMBuildMul(e->b, k0, e_i64(e, mr * 64), ""));
	bp = byte_ptr(e, LLVMGetParam(f, 1), LLVMBuildMul(e->b, k0, e_i64(e, 16 * mk.nr * 4), ""));
	for (r = 0; r < mr / 16; r++)
		amx(e, "tileloadd64", (int[]){ 4 + r }, 1, byte_ptr(e, ap, e_i64(e, r * 16 * 64)), 64);
	for (j = 0; j < 2; j++)
		amx(e, "tileloadd64", (int[]){ 6 + j }, 1, byte_ptr(e, bp, e_i64(e, j * 64)), mk.nr * 4);
	for (r = 0; r < mr / 16; r++)
		for (j = 0; j < 2; j++)
			amx(e, g->q == 4 ? "tdpbsud" : "tdpbf16ps", (int[]){ 2 * r + j, 4 + r, 6 + j }, 3, NULL, 0);
	e_loop_end(e, &lk, NULL, LOOP_NO_UNROLL);
	for (r = 0; r < mr / 16; r++)
		for (j = 0; j < 2; j++)
			amx(e, "tilestored64", (int[]){ 2 * r + j }, 1, byte_ptr(e, LLVMGetParam(f, 2),
				e_i64(e, (r * 16 * mk.nr + j * 16) * 4)), mk.nr * 4);
	LLVMBuildRetVoid(e->b);
	e_reset(e);
	e->fn = fn;
	LLVMPositionBuilderAtEnd(e->b, at);
	return f;
}

/* The micro-kernel as a function of its own, one per shape in the
 * module: mk(ptr a, ptr b, ptr tile) zeroes the tile's accumulators, runs
 * the K steps over the A panel at a and the B panel at b, and stores the
 * tile (mr rows of mk.nr floats) at tile; with K bounded by the length,
 * mk(ptr a, ptr b, ptr tile, i64 k) runs the first k steps; else with
 * bnext, mk(ptr a, ptr b, ptr tile, ptr next) prefetches from next as it
 * goes (micro_step).  Apart from the kernel's loops
 * and epilogue, whose constants LLVM would otherwise keep in registers
 * across the K loop: a 6x16 tile in ymm needs 15 of the 16 registers,
 * and one more live value made LLVM 16 spill an accumulator and shuffle
 * the rest in every step. */
static LLVMValueRef micro_fn(E *e, Kernel *k, int mr)
{
	KGemm *g = &k->g;
	LLVMTypeRef vt = LLVMVectorType(tile_el(e, k), VW), pt[4] = { e->ptr, e->ptr, e->ptr, e->i64 };
	LLVMValueRef f, fn = e->fn, acc[MRCAP][NV], k0;
	LLVMBasicBlockRef at = LLVMGetInsertBlock(e->b);
	int kn = g->kbound.c != 0, pf = g->bnext;
	ELoop lk;
	char name[112], aks[32] = "";
	int r, j;

	/* A's k stride in the name where it is not 1 (A read in place with
	 * its rows contiguous) */
	if (g->adirect && g->aks != 1)
		snprintf(aks, sizeof aks, ".ks%lld", (long long)g->aks);
	if (kn)
		snprintf(name, sizeof name, "gemm.mk%dx%d.kn.%s%lld%s", mr, mk.nr,
			g->adirect ? "lda" : "packed", (long long)(g->adirect ? g->lda : 0), aks);
	else if (g->atap)
		snprintf(name, sizeof name, "gemm.mk%dx%d.taps%lldx%lldx%lld.%lld.%lld.lda%lld.%lld.%lld%s", mr,
			mk.nr, (long long)g->tap.kh, (long long)g->tap.kw, (long long)g->tap.c, (long long)g->tap.dh,
			(long long)g->tap.c, (long long)g->lda, (long long)g->tap.tw, (long long)g->tap.arow, pf ? ".pf" : "");
	else
		snprintf(name, sizeof name, "gemm.mk%dx%d.k%lld.%s%lld%s%s%s", mr, mk.nr, (long long)g->K,
			g->adirect ? "lda" : "packed", (long long)(g->adirect ? g->lda : 0), aks, pf ? ".pf" : "",
			g->q == 1 ? ".u8b" : g->q == 2 ? ".u8a" : g->q == 5 ? ".bf16" : "");
	if ((f = LLVMGetNamedFunction(e->m, name)))
		return f;
	if (pf)         /* never with kn: gemm_plan.c */
		pt[3] = e->ptr;
	f = LLVMAddFunction(e->m, name, LLVMFunctionType(LLVMVoidTypeInContext(e->cx), pt,
		3 + (unsigned)(kn || pf), 0));
	LLVMSetLinkage(f, LLVMInternalLinkage);
	cpu_fn_attrs(e, f);
	LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, cpu_enum_attr(e, "noinline", 0));
	for (r = 0; r < 3; r++) {
		LLVMAddAttributeAtIndex(f, (unsigned)r + 1, cpu_enum_attr(e, "noalias", 0));
		LLVMAddAttributeAtIndex(f, (unsigned)r + 1, cpu_enum_attr(e, "nocapture", 0));
		if (r < 2)
			LLVMAddAttributeAtIndex(f, (unsigned)r + 1, cpu_enum_attr(e, "readonly", 0));
	}
	e->fn = f;
	LLVMPositionBuilderAtEnd(e->b, LLVMAppendBasicBlockInContext(e->cx, f, "entry"));
	for (r = 0; r < mr; r++)
		for (j = 0; j < NV; j++) {
			acc[r][j] = e_alloca(e, vt, "c");
			LLVMBuildStore(e->b, LLVMConstNull(vt), acc[r][j]);
		}
	if (g->atap) {
		/* k = (kh tap.kw + kw) tap.c + c, A's rows from the tap's offset
		 * kh tap.dh + kw tap.c + c: both kh's step plus u = kw tap.c + c,
		 * one run of a kernel row's taps and channels (a 7x7 stem's 21,
		 * not seven loops of its 3 channels).  The name's fields: the
		 * taps, channels, kh step, kw step (tap.c), lda, tw, arow */
		ELoop lh;
		LLVMValueRef kh = e_loop_begin(e, &lh, e_i64(e, 0), e_i64(e, g->tap.kh), NULL), u;

		u = e_loop_begin(e, &lk, e_i64(e, 0), e_i64(e, g->tap.kw * g->tap.c), NULL);
		micro_step(e, k, mr, acc, LLVMGetParam(f, 0), LLVMGetParam(f, 1),
			LLVMBuildAdd(e->b, LLVMBuildMul(e->b, kh, e_i64(e, g->tap.kw * g->tap.c), ""), u, ""),
			pf ? LLVMGetParam(f, 3) : NULL,
			LLVMBuildAdd(e->b, LLVMBuildMul(e->b, kh, e_i64(e, g->tap.dh), ""), u, ""));
		e_loop_end(e, &lk, NULL, 0);
		e_loop_end(e, &lh, NULL, 0);
	} else {
		k0 = e_loop_begin(e, &lk, e_i64(e, 0), kn ? LLVMGetParam(f, 3) : e_i64(e, g->K), NULL);
		(g->q ? qmicro_step : micro_step)(e, k, mr, acc, LLVMGetParam(f, 0), LLVMGetParam(f, 1), k0,
			pf ? LLVMGetParam(f, 3) : NULL, NULL);
		e_loop_end(e, &lk, NULL, 0);
	}
	for (r = 0; r < mr; r++)
		for (j = 0; j < NV; j++) {
			LLVMValueRef idx = e_i64(e, r * mk.nr + j * VW);

			LLVMSetAlignment(LLVMBuildStore(e->b, LLVMBuildLoad2(e->b, vt, acc[r][j], ""),
				LLVMBuildInBoundsGEP2(e->b, tile_el(e, k), LLVMGetParam(f, 2), &idx, 1, "")), 64);
		}
	LLVMBuildRetVoid(e->b);
	e_reset(e);
	e->fn = fn;
	LLVMPositionBuilderAtEnd(e->b, at);
	return f;
}

/* The pad's value, and the tile's range along the pad's rows' dim padd,
 * [r[0], r[1]), and along the other dim, [r[2], r[3]): its rows m0 ..
 * m0 + rows and columns n0 .. n0 + NR within N */
static LLVMValueRef pad_span(E *e, Kernel *k, LLVMValueRef m0, LLVMValueRef rows, LLVMValueRef n0,
	LLVMValueRef r[4])
{
	KExpr *pv = kx_new(e->g->c, KX_CONST, k->bind[k->out[0].buf].type->elem, 0);
	LLVMValueRef nend = LLVMBuildAdd(e->b, n0, e_i64(e, mk.nr), ""), mend;
	int d = k->padd;

	nend = LLVMBuildSelect(e->b, LLVMBuildICmp(e->b, LLVMIntSLT, nend, e_i64(e, k->g.N), ""),
		nend, e_i64(e, k->g.N), "");
	mend = LLVMBuildAdd(e->b, m0, rows, "");
	r[0] = d == 2 ? n0 : m0, r[1] = d == 2 ? nend : mend;
	r[2] = d == 2 ? m0 : n0, r[3] = d == 2 ? mend : nend;
	pv->cval = k->prefill;
	e->vw = 1;
	e_reset(e);
	return e_expr(e, pv);
}

/* The pad's columns beside the rows the tile ends or starts (kir.h's
 * padw), r its span (pad_span): along its dim padd, padr prefill
 * elements v after each row end (index mod W = W - 1) and padl before
 * each row start (mod W = 0), for each of its indices along the other
 * dim, at their rows' addresses, while the lines are in cache. */
static void pad_cols(E *e, Kernel *k, LLVMValueRef *r, LLVMValueRef v)
{
	KOut *o = &k->out[0];
	LLVMTypeRef t = e_type(e, k->bind[o->buf].type->elem);
	LLVMValueRef w = e_i64(e, k->padw), rem, x, y, p0, first[2];
	int side, d = k->padd;

	rem = LLVMBuildSRem(e->b, r[0], w, "");
	/* the first row end at or after lo, and the first row start */
	first[0] = LLVMBuildAdd(e->b, r[0], LLVMBuildSub(e->b, e_i64(e, k->padw - 1), rem, ""), "");
	first[1] = LLVMBuildAdd(e->b, r[0], LLVMBuildSRem(e->b, LLVMBuildSub(e->b, w, rem, ""), w, ""), "");
	for (side = 0; side < 2; side++) {
		int64_t cnt = side ? k->padl : k->padr, j;
		ELoop lx, ly;

		if (!cnt)
			continue;
		x = e_loop_begin(e, &lx, first[side], r[1], w);
		e_reset(e);
		e->dimv[d] = x;
		e->dimv[3 - d] = r[2];
		p0 = e_addr(e, o->buf, o->ix);
		/* the other dim's indices at a constant stride from the first */
		y = e_loop_begin(e, &ly, e_i64(e, 0), LLVMBuildSub(e->b, r[3], r[2], ""), NULL);
		{
			LLVMValueRef yo = LLVMBuildMul(e->b, y, e_i64(e, k->pads), "");
			LLVMValueRef p = LLVMBuildGEP2(e->b, t, p0, &yo, 1, "");

			for (j = 0; j < cnt; j++) {
				LLVMValueRef at = e_i64(e, side ? j - cnt : j + 1);

				LLVMBuildStore(e->b, v, LLVMBuildGEP2(e->b, t, p, &at, 1, ""));
			}
		}
		e_loop_end(e, &ly, NULL, LOOP_NO_UNROLL);
		e_reset(e);
		e_loop_end(e, &lx, w, LOOP_NO_UNROLL);
	}
}

/* n elements of type et from p, each v: vectors of VW, then the rest */
static void fill_run(E *e, Type *et, LLVMValueRef p, int64_t n, LLVMValueRef v)
{
	LLVMTypeRef t = e_type(e, et);
	LLVMValueRef vv, q;
	ELoop l;
	int64_t j;

	if (n >= VW) {
		e->vw = VW;
		vv = e_splat(e, v);
		e->vw = 1;
		q = e_loop_begin(e, &l, e_i64(e, 0), e_i64(e, n / VW * VW), e_i64(e, VW));
		LLVMSetAlignment(LLVMBuildStore(e->b, vv, LLVMBuildGEP2(e->b, t, p, &q, 1, "")),
			(unsigned)elem_size(et));
		e_loop_end(e, &l, e_i64(e, VW), LOOP_NO_UNROLL);
	}
	for (j = n / VW * VW; j < n; j++) {
		LLVMValueRef at = e_i64(e, j);

		LLVMBuildStore(e->b, v, LLVMBuildGEP2(e->b, t, p, &at, 1, ""));
	}
}

/* The pad's rows above and below each plane (kir.h's padt, padb) that
 * the tile's span r (pad_span) starts or ends, at each of its indices
 * along the other dim: from the address of the plane's first inside
 * element (row padt, column padl), back padt rows and padl columns, and
 * on past its padh rows. */
static void pad_rows(E *e, Kernel *k, LLVMValueRef *r, LLVMValueRef v)
{
	KOut *o = &k->out[0];
	Type *bt = k->bind[o->buf].type, *et = bt->elem;
	LLVMTypeRef t = e_type(e, et);
	/* the buffer's rows: padl + padw + padr, or more (layout.c's
	 * aligned pads) */
	int64_t wp = bt->dims[bt->rank - 1], first[2], cnt[2];
	LLVMValueRef p0, at[2];
	int side, d = k->padd;

	first[0] = -(k->padt * wp + k->padl), cnt[0] = k->padt * wp;
	first[1] = k->padh * wp - k->padl, cnt[1] = k->padb * wp;
	at[0] = LLVMBuildICmp(e->b, LLVMIntEQ, r[0], e_i64(e, 0), "");
	at[1] = LLVMBuildICmp(e->b, LLVMIntEQ, r[1], e_i64(e, k->ext[d]), "");
	for (side = 0; side < 2; side++) {
		LLVMBasicBlockRef yes, done;
		ELoop ly;
		LLVMValueRef y, off;

		if (!cnt[side])
			continue;
		yes = LLVMAppendBasicBlockInContext(e->cx, e->fn, side ? "padbottom" : "padtop");
		done = LLVMAppendBasicBlockInContext(e->cx, e->fn, "padrows");
		LLVMBuildCondBr(e->b, at[side], yes, done);
		LLVMPositionBuilderAtEnd(e->b, yes);
		e_reset(e);
		e->dimv[d] = e_i64(e, 0);
		e->dimv[3 - d] = r[2];
		p0 = e_addr(e, o->buf, o->ix);
		y = e_loop_begin(e, &ly, e_i64(e, 0), LLVMBuildSub(e->b, r[3], r[2], ""), NULL);
		off = LLVMBuildAdd(e->b, LLVMBuildMul(e->b, y, e_i64(e, k->pads), ""),
			e_i64(e, first[side]), "");
		fill_run(e, et, LLVMBuildGEP2(e->b, t, p0, &off, 1, ""), cnt[side], v);
		e_loop_end(e, &ly, NULL, LOOP_NO_UNROLL);
		e_reset(e);
		LLVMBuildBr(e->b, done);
		LLVMPositionBuilderAtEnd(e->b, done);
	}
}

/* The tile's rows are consecutive in the output and its columns are not
 * (a traded GEMM's: rows pixels, columns channels): stored a column at a
 * time, its rows' values gathered from the tile into one vector along
 * m.  Not for int8 sums, booleans, a dynamic M or N, or an epilogue that
 * the column's masked tail cannot carry. */
static int cols_ok(E *e, Kernel *k)
{
	KOut *o = &k->out[0];
	Type *bt = k->bind[o->buf].type;
	IExpr *t = out_linear(e, k);
	int64_t c;

	if (k->g.q == 1 || k->g.q == 2 || k->g.q == 4 || (bt->elem->kind == TY_INT && bt->elem->width == 1) ||
	    (k->g.mr > VW && k->g.mr % VW) ||
	    (k->bound && (k->bound[1].c || k->bound[2].c)) || (o->epi && !e_tail_ok(e, o->epi)))
		return 0;
	if (ix_coef(t, 2, &c) && c == 1)
		return 0;
	return (ix_coef(t, 1, &c) && c == 1) || (k->padw && k->padd == 1);
}

/* The tile's columns as vectors along m: each block of VW columns
 * loaded as its rows (those past `rows` zeros) and transposed by
 * log2(VW) rounds of two-vector shuffles (the round of distance d swaps
 * the d-bit of the row with that of the column, one vpermt2ps a vector
 * on AVX-512), into cols, column c's rows at c VW.  A gather per column
 * from the tile took as long as the micro-kernel itself at K = 64
 * (mobilenet_v2's traded expansions at 14x14). */
static void transpose_tile(E *e, LLVMValueRef tile, LLVMValueRef cols, int rows)
{
	LLVMTypeRef vt = LLVMVectorType(e->f32, VW);
	LLVMValueRef r[64], lo[64], hi[64], at;
	int j, i, d, l;

	for (j = 0; j < NV; j++) {
		for (i = 0; i < VW; i++) {
			if (i >= rows) {
				r[i] = LLVMConstNull(vt);
				continue;
			}
			at = e_i64(e, (int64_t)i * mk.nr + j * VW);
			r[i] = LLVMBuildLoad2(e->b, vt, LLVMBuildGEP2(e->b, e->f32, tile, &at, 1, ""), "row");
			LLVMSetAlignment(r[i], 4 * VW);
		}
		for (d = VW / 2; d >= 1; d /= 2) {
			for (l = 0; l < VW; l++) {
				lo[l] = LLVMConstInt(e->i32, (unsigned)(l & d ? VW + l - d : l), 0);
				hi[l] = LLVMConstInt(e->i32, (unsigned)(l & d ? VW + l : l + d), 0);
			}
			for (i = 0; i < VW; i++) {
				LLVMValueRef a, b;

				if (i & d)
					continue;
				a = LLVMBuildShuffleVector(e->b, r[i], r[i + d], LLVMConstVector(lo, VW), "");
				b = LLVMBuildShuffleVector(e->b, r[i], r[i + d], LLVMConstVector(hi, VW), "");
				r[i] = a;
				r[i + d] = b;
			}
		}
		for (i = 0; i < VW; i++) {
			at = e_i64(e, (int64_t)(j * VW + i) * VW);
			LLVMSetAlignment(LLVMBuildStore(e->b, r[i],
				LLVMBuildGEP2(e->b, e->f32, cols, &at, 1, "")), 4 * VW);
		}
	}
}

/* Columns n0 .. n0 + NR (those inside N) of a tile of `rows` rows (at
 * most VW) from m0: the tile transposed (transpose_tile), each column's
 * vector along m through the epilogue and stored, masked to the rows
 * (store_tile_vec along m). */
static void cols_part(E *e, Kernel *k, LLVMValueRef tile, LLVMValueRef m0, LLVMValueRef n0, int rows)
{
	LLVMTypeRef vt = LLVMVectorType(e->f32, VW);
	LLVMValueRef cols = e_alloca(e, LLVMArrayType(e->f32, (unsigned)(mk.nr * VW)), "cols");
	LLVMValueRef ncols, c, at, v;
	ELoop lc;

	LLVMSetAlignment(cols, 64);
	transpose_tile(e, tile, cols, rows);
	ncols = LLVMBuildSub(e->b, e_i64(e, k->g.N), n0, "");
	ncols = LLVMBuildSelect(e->b, LLVMBuildICmp(e->b, LLVMIntSLT, ncols, e_i64(e, mk.nr), ""),
		ncols, e_i64(e, mk.nr), "");
	c = e_loop_begin(e, &lc, e_i64(e, 0), ncols, NULL);
	at = LLVMBuildMul(e->b, c, e_i64(e, VW), "");
	v = LLVMBuildLoad2(e->b, vt, LLVMBuildGEP2(e->b, e->f32, cols, &at, 1, ""), "column");
	LLVMSetAlignment(v, 4 * VW);
	e->dimv[1] = m0;
	e->dimv[2] = LLVMBuildAdd(e->b, n0, c, "");
	e->vw = VW;
	e->vdim = 1;
	e->ntail = rows < VW ? rows : 0;
	store_tile_vec(e, k, v);
	e->vw = 1;
	e->vdim = 2;
	e->ntail = 0;
	e_reset(e);
	e_loop_end(e, &lc, NULL, LOOP_NO_UNROLL);
}

/* cols_part for each VW rows of the tile's `rows` (an AMX tile's 32) */
static void cols_out(E *e, Kernel *k, LLVMValueRef tile, LLVMValueRef m0, LLVMValueRef n0, int rows)
{
	int h;

	for (h = 0; h < rows; h += VW) {
		LLVMValueRef off = e_i64(e, (int64_t)h * mk.nr);

		cols_part(e, k, LLVMBuildInBoundsGEP2(e->b, e->f32, tile, &off, 1, ""),
			LLVMBuildAdd(e->b, m0, e_i64(e, h), ""), n0, rows - h < VW ? rows - h : VW);
	}
}

/* The tile (on the stack) through the epilogue and stored, row by row:
 * a whole tile (mr rows, NR columns inside N) by a loop over its rows
 * that stores each row's NV vectors (a small K's tile spent as long in
 * the general loops' bounds tests as in its steps), else one row's
 * vectors or columns at a time (row_out): the epilogue's code NV + 1
 * times, not mr x NV; or column by column where its rows are the
 * output's consecutive elements (cols_ok).  Then the pad's columns and
 * rows that the tile's span reaches (pad_cols, pad_rows). */
static void tile_out(E *e, Kernel *k, LLVMValueRef tile, LLVMValueRef bidx, LLVMValueRef pm,
	LLVMValueRef pn)
{
	KGemm *g = &k->g;
	ELoop lr, lj;
	LLVMValueRef m0, n0, left, rows, ri, ji, n, row, whole;
	LLVMBasicBlockRef fast, slow, done;
	int j;

	e->dimv[0] = bidx;
	m0 = LLVMBuildMul(e->b, pm, e_i64(e, g->mr), "");
	n0 = LLVMBuildMul(e->b, pn, e_i64(e, mk.nr), "");
	left = LLVMBuildSub(e->b, e_extent(e, 1), m0, "");
	rows = LLVMBuildSelect(e->b, LLVMBuildICmp(e->b, LLVMIntSLT, left,
		e_i64(e, g->mr), ""), left, e_i64(e, g->mr), "");
	whole = LLVMBuildAnd(e->b, LLVMBuildICmp(e->b, LLVMIntEQ, rows, e_i64(e, g->mr), ""),
		LLVMBuildICmp(e->b, LLVMIntSLE, LLVMBuildAdd(e->b, n0, e_i64(e, mk.nr), ""),
		e_i64(e, g->N), ""), "");
	fast = LLVMAppendBasicBlockInContext(e->cx, e->fn, "wholetile");
	slow = LLVMAppendBasicBlockInContext(e->cx, e->fn, "parttile");
	done = LLVMAppendBasicBlockInContext(e->cx, e->fn, "tileout");
	if (cols_ok(e, k)) {
		/* M's last tile of M % mr rows by a second copy */
		int last = (int)(g->M % g->mr);

		LLVMBuildCondBr(e->b, LLVMBuildICmp(e->b, LLVMIntEQ, rows, e_i64(e, g->mr), ""), fast,
			last ? slow : done);
		LLVMPositionBuilderAtEnd(e->b, fast);
		cols_out(e, k, tile, m0, n0, g->mr);
		LLVMBuildBr(e->b, done);
		LLVMPositionBuilderAtEnd(e->b, slow);
		if (last)
			cols_out(e, k, tile, m0, n0, last);
		LLVMBuildBr(e->b, done);
		LLVMPositionBuilderAtEnd(e->b, done);
		goto pads;
	}
	LLVMBuildCondBr(e->b, whole, fast, slow);
	LLVMPositionBuilderAtEnd(e->b, fast);
	ri = e_loop_begin(e, &lr, e_i64(e, 0), e_i64(e, g->mr), NULL);
	e->dimv[1] = LLVMBuildAdd(e->b, m0, ri, "");
	for (j = 0; j < NV; j++)
		vec_out(e, k, tile, LLVMBuildAdd(e->b, LLVMBuildMul(e->b, ri, e_i64(e, mk.nr), ""),
			e_i64(e, j * VW), ""), LLVMBuildAdd(e->b, n0, e_i64(e, j * VW), ""));
	e_reset(e);
	e_loop_end(e, &lr, NULL, LOOP_NO_UNROLL);
	LLVMBuildBr(e->b, done);
	LLVMPositionBuilderAtEnd(e->b, slow);
	ri = e_loop_begin(e, &lr, e_i64(e, 0), rows, NULL);
	e->dimv[1] = LLVMBuildAdd(e->b, m0, ri, "");
	ji = e_loop_begin(e, &lj, e_i64(e, 0), e_i64(e, mk.nr), e_i64(e, VW));
	n = LLVMBuildAdd(e->b, n0, ji, "");
	row = LLVMBuildAdd(e->b, LLVMBuildMul(e->b, ri, e_i64(e, mk.nr), ""), ji, "");
	row_out(e, k, tile, row, n);
	e_loop_end(e, &lj, e_i64(e, VW), LOOP_NO_UNROLL);
	e_loop_end(e, &lr, NULL, LOOP_NO_UNROLL);
	LLVMBuildBr(e->b, done);
	LLVMPositionBuilderAtEnd(e->b, done);
pads:
	if (k->padw) {
		LLVMValueRef r[4], v = pad_span(e, k, m0, rows, n0, r);

		pad_cols(e, k, r, v);
		if (k->padh)
			pad_rows(e, k, r, v);
	}
}

/* The loads of x (an epilogue) of buffers that a kernel writes (not
 * constants) whose index moves with n, into l (at most n of them) */
static int moving_loads(Kernel *k, KExpr *x, KExpr **l, int n, int c)
{
	int i;

	if (x->kind == KX_LOAD) {
		Op *d = k->bind[x->buf].val->def;

		for (i = 0; i < x->rank && !ix_uses_dim(x->ix[i], 2); i++)
			;
		for (int j = 0; j < c; j++)
			if (l[j] == x)
				return c;
		if (i < x->rank && c < n && !(d && kop_of(d) == kop.constant))
			l[c++] = x;
		return c;
	}
	for (i = 0; i < x->n; i++)
		c = moving_loads(k, x->a[i], l, n, c);
	return c;
}

/* An AMX GEMM's tile, rows of output channels and columns of pixels
 * (NCHW), reads its epilogue's operands (a residual sum's) a line from
 * each of mr planes: more streams than the prefetchers follow, so the
 * lines the next panel of columns will read, n0 + NR, are prefetched
 * while this tile's epilogue runs. */
static void prefetch_epilogue(E *e, Kernel *k, LLVMValueRef bidx, LLVMValueRef pm, LLVMValueRef pn)
{
	KExpr *l[4];
	int n = k->out[0].epi ? moving_loads(k, k->out[0].epi, l, 4, 0) : 0, i;
	ELoop lr;
	LLVMValueRef r;

	if (!n)
		return;
	r = e_loop_begin(e, &lr, e_i64(e, 0), e_i64(e, k->g.mr), NULL);
	e_reset(e);
	e->dimv[0] = bidx;
	e->dimv[1] = LLVMBuildAdd(e->b, LLVMBuildMul(e->b, pm, e_i64(e, k->g.mr), ""), r, "");
	e->dimv[2] = LLVMBuildMul(e->b, LLVMBuildAdd(e->b, pn, e_i64(e, 1), ""), e_i64(e, mk.nr), "");
	for (i = 0; i < n; i++) {
		const Type *t = k->bind[l[i]->buf].type;
		LLVMValueRef off = e_index(e, e_linear(e, t, l[i]->ix));

		prefetch(e, LLVMBuildGEP2(e->b, e_memtype(e, t->elem), e->bp[l[i]->buf], &off, 1, ""));
	}
	e_reset(e);
	e_loop_end(e, &lr, NULL, LOOP_NO_UNROLL);
}

/* The tile (pm, pn) of batch bidx: the micro-kernel's call, then the
 * epilogue. */
static void tile_at(E *e, Kernel *k, LLVMValueRef mkf, LLVMValueRef mkt, LLVMValueRef tile,
	LLVMValueRef bsrc, LLVMValueRef bidx, LLVMValueRef pm, LLVMValueRef pn, LLVMValueRef kend)
{
	KGemm *g = &k->g;
	LLVMTypeRef pt[4] = { e->ptr, e->ptr, e->ptr, e->i64 };
	LLVMValueRef abase, bbase, args[4], f = mkf;
	unsigned na = g->kbound.c || g->bnext ? 4 : 3;

	panel_bases(e, k, bidx, pm, pn, &abase, &bbase);
	args[0] = LLVMBuildInBoundsGEP2(e->b, e->f32, e->bp[g->a], &abase, 1, "");
	args[1] = LLVMBuildInBoundsGEP2(e->b, e->f32, bsrc, &bbase, 1, "");
	args[2] = tile;
	args[3] = kend;
	if (g->bnext) {
		LLVMValueRef nb = LLVMBuildAdd(e->b, bbase, e_i64(e, g->K * mk.nr), "");

		if (g->bnext == 1)
			nb = LLVMBuildAdd(e->b, nb, LLVMBuildMul(e->b, LLVMBuildAnd(e->b, pm, e_i64(e, 1), ""),
				e_i64(e, g->K * LINE), ""), "");
		pt[3] = e->ptr;
		args[3] = LLVMBuildGEP2(e->b, e->f32, bsrc, &nb, 1, "");
	}
	/* A read in place (or through its taps) with M not a whole number of
	 * panels: the last panel's rows by a micro-kernel of that many rows,
	 * so that no row past M is read */
	if (mkt)
		f = LLVMBuildSelect(e->b, LLVMBuildICmp(e->b, LLVMIntEQ, pm,
			e_i64(e, (g->M + g->mr - 1) / g->mr - 1), ""), mkt, mkf, "");
	LLVMBuildCall2(e->b, LLVMFunctionType(LLVMVoidTypeInContext(e->cx), pt, na, 0), f, args, na, "");
	if (gemm_amx(g) && !g->mfirst)
		prefetch_epilogue(e, k, bidx, pm, pn);
	tile_out(e, k, tile, bidx, pm, pn);
	e_reset(e);
}

int gemm_emit(E *e, Kernel *k)
{
	KGemm *g = &k->g;
	LLVMValueRef fn = e->fn;
	LLVMValueRef wx = LLVMGetParam(fn, (unsigned)k->nbind), wy = LLVMGetParam(fn, (unsigned)k->nbind + 1);
	LLVMValueRef nx = LLVMGetParam(fn, (unsigned)k->nbind + 2), ny = LLVMGetParam(fn, (unsigned)k->nbind + 3);
	LLVMValueRef mkf = gemm_amx(g) ? amx_fn(e, k, g->mr) : micro_fn(e, k, g->mr), nlo, nhi, mlo, mhi, bidx, tile, bloc = NULL, pn, pm = NULL, bsrc;
	/* the steps at the call's length: past it both operands are zero */
	LLVMValueRef kend = g->kbound.c ? e_bound(e, &g->kbound, g->K) : e_i64(e, g->K);
	LLVMValueRef mkt = (g->adirect || g->atap) && g->M % g->mr ? micro_fn(e, k, (int)(g->M % g->mr)) : NULL;
	ELoop lb, ln, lm;

	tile = e_alloca(e, LLVMArrayType(e->f32, (unsigned)((g->mr > MRCAP ? g->mr : MRCAP) * mk.nr)), "tile");
	LLVMSetAlignment(tile, 64);
	if (g->bpack) {
		bloc = e_alloca(e, LLVMArrayType(e->f32, (unsigned)(kwords(g) * mk.nr)), "bpanel");
		LLVMSetAlignment(bloc, 64);
	}
	if (gemm_amx(g))
		amx_config(e);
	/* the pool runs workgroups x first: workgroup (wx, wy) takes the
	 * (lin / ny)-th chunk of B's panels and the (lin % ny)-th of A's,
	 * lin = wy nx + wx, so that consecutive workgroups share a B panel
	 * and one thread's run of them reads it from L2 (x first, a layer4
	 * convolution's 590 KB panels were read from memory once per chunk
	 * of A: 20% slower); where A is the larger (M > N: mobilenet_v2's
	 * traded projections, 300 KB of activations against 98 KB of
	 * weights), the other way round: a thread's run shares A's chunk,
	 * and the threads split A instead of each reading all of it (those
	 * layers ran no faster on two threads than on one) */
	{
		LLVMValueRef lin = LLVMBuildAdd(e->b, wx, LLVMBuildMul(e->b, wy, nx, ""), "");

		if (g->M > g->N) {
			wy = LLVMBuildSDiv(e->b, lin, nx, "");
			wx = LLVMBuildSRem(e->b, lin, nx, "");
		} else {
			wx = LLVMBuildSDiv(e->b, lin, ny, "");
			wy = LLVMBuildSRem(e->b, lin, ny, "");
		}
	}
	/* the panels at the call's length (at the extents without bounds) */
	nlo = chunk_range(e, wx, nx, panels(e, e_extent(e, 2), mk.nr), &nhi);
	mlo = chunk_range(e, wy, ny, panels(e, e_extent(e, 1), g->mr), &mhi);
	/* the batch index is the grid's z, but the body gets only x and y:
	 * loop over the batch inside instead */
	bidx = e_loop_begin(e, &lb, e_i64(e, 0), e_extent(e, 0), NULL);
	/* M's tiles inside N's panels, or outside them (mfirst: gemm_grid) */
	if (g->mfirst)
		pm = e_loop_begin(e, &lm, mlo, mhi, NULL);
	pn = e_loop_begin(e, &ln, nlo, nhi, NULL);
	bsrc = g->bpack ? bloc : e->bp[g->bb];
	if (g->bpack)
		pack_panel(e, k, bloc, bidx, pn, kend);
	if (!g->mfirst)
		pm = e_loop_begin(e, &lm, mlo, mhi, NULL);
	tile_at(e, k, mkf, mkt, tile, bsrc, bidx, pm, pn, kend);
	e_loop_end(e, g->mfirst ? &ln : &lm, NULL, 0);
	e_loop_end(e, g->mfirst ? &lm : &ln, NULL, 0);
	e_loop_end(e, &lb, NULL, 0);
	return 0;
}
