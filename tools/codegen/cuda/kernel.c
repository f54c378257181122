/*
 * kernel.c - one kernel as an NVVM IR .entry: thread per point, block
 * per point (warp shuffles, then a word of shared memory per warp), or a
 * tiled contraction (tile_kernel; mma_kernel on tensor cores for f16 and
 * bf16 operands).  Expressions come from llvm/ (e_expr), as on the CPU.
 */
#include <stdlib.h>
#include <string.h>

#include "cuda.h"

/* ---- NVVM helpers ---- */

static LLVMValueRef call0(CU *u, const char *name, LLVMTypeRef rt, LLVMValueRef *a,
	LLVMTypeRef *at, int n)
{
	E *e = &u->e;
	LLVMTypeRef ft = LLVMFunctionType(rt, at, (unsigned)n, 0);
	LLVMValueRef f = LLVMGetNamedFunction(e->m, name);

	if (!f)
		f = LLVMAddFunction(e->m, name, ft);
	return LLVMBuildCall2(e->b, ft, f, a, (unsigned)n, "");
}

static LLVMValueRef sreg(CU *u, const char *r)
{
	char name[64];

	snprintf(name, sizeof name, "llvm.nvvm.read.ptx.sreg.%s", r);
	return LLVMBuildZExt(u->e.b, call0(u, name, u->e.i32, NULL, NULL, 0), u->e.i64, r);
}

static void barrier(CU *u)
{
	call0(u, "llvm.nvvm.barrier0", LLVMVoidTypeInContext(u->e.cx), NULL, NULL, 0);
}

static LLVMValueRef shfl32(CU *u, LLVMValueRef v, int lanemask)
{
	E *e = &u->e;
	LLVMValueRef a[4] = { LLVMConstInt(e->i32, 0xffffffffu, 0), v,
		LLVMConstInt(e->i32, (unsigned)lanemask, 0), LLVMConstInt(e->i32, 31, 0) };
	LLVMTypeRef t[4] = { e->i32, e->i32, e->i32, e->i32 };

	return call0(u, "llvm.nvvm.shfl.sync.bfly.i32", e->i32, a, t, 4);
}

/* v from the lane lane ^ lanemask, for any scalar of up to 64 bits */
static LLVMValueRef shfl(CU *u, LLVMValueRef v, int lanemask)
{
	E *e = &u->e;
	LLVMTypeRef t = LLVMTypeOf(v), it;
	unsigned bits;
	LLVMValueRef x;

	if (LLVMGetTypeKind(t) == LLVMIntegerTypeKind)
		bits = LLVMGetIntTypeWidth(t);
	else
		bits = LLVMGetTypeKind(t) == LLVMHalfTypeKind ? 16 :
			LLVMGetTypeKind(t) == LLVMDoubleTypeKind ? 64 : 32;
	it = LLVMIntTypeInContext(e->cx, bits);
	x = LLVMBuildBitCast(e->b, v, it, "");
	if (bits <= 32) {
		x = bits < 32 ? LLVMBuildZExt(e->b, x, e->i32, "") : x;
		x = shfl32(u, x, lanemask);
		x = bits < 32 ? LLVMBuildTrunc(e->b, x, it, "") : x;
	} else {
		LLVMValueRef lo = LLVMBuildTrunc(e->b, x, e->i32, "");
		LLVMValueRef hi = LLVMBuildTrunc(e->b, LLVMBuildLShr(e->b, x, e_i64(e, 32), ""), e->i32, "");

		lo = LLVMBuildZExt(e->b, shfl32(u, lo, lanemask), e->i64, "");
		hi = LLVMBuildZExt(e->b, shfl32(u, hi, lanemask), e->i64, "");
		x = LLVMBuildOr(e->b, lo, LLVMBuildShl(e->b, hi, e_i64(e, 32), ""), "");
	}
	return LLVMBuildBitCast(e->b, x, t, "");
}

/* The combiner's identity in type t. */
static LLVMValueRef identity(CU *u, int op, Type *t)
{
	E *e = &u->e;
	LLVMTypeRef lt = e_type(e, t);
	unsigned w = t->kind == TY_INT ? (unsigned)t->width : 0;

	if (ty_isfloat(t)) {
		double inf = __builtin_inf();

		if (op == kop.addf) return LLVMConstReal(lt, -0.0);
		if (op == kop.mulf) return LLVMConstReal(lt, 1.0);
		if (op == kop.maxf) return LLVMConstReal(lt, -inf);
		return LLVMConstReal(lt, inf);
	}
	if (op == kop.muli) return LLVMConstInt(lt, 1, 0);
	if (op == kop.andi || op == kop.minui) return LLVMConstAllOnes(lt);
	if (op == kop.maxsi)
		return LLVMConstShl(LLVMConstInt(lt, 1, 0), LLVMConstInt(lt, w - 1, 0));
	if (op == kop.minsi)
		return LLVMConstLShr(LLVMConstAllOnes(lt), LLVMConstInt(lt, 1, 0));
	return LLVMConstNull(lt);   /* addi, ori, xori, maxui */
}

static LLVMValueRef combine(CU *u, LLVMValueRef a, LLVMValueRef b)
{
	E *e = &u->e;

	e->accp[u->slot_a] = a;
	e->accp[u->slot_b] = b;
	e_reset(e);
	return e_expr(e, u->cmb);
}

static LLVMValueRef warp_reduce(CU *u, LLVMValueRef v)
{
	for (int m = 16; m >= 1; m /= 2)
		v = combine(u, v, shfl(u, v, m));
	return v;
}

/* ---- kernels ---- */

/* Sets dimv of dims[0..n) (the last fastest) from the linear index i. */
static void delinearize(E *e, const int *dims, int n, LLVMValueRef i)
{
	for (int j = n - 1; j >= 0; j--) {
		LLVMValueRef ext = e_i64(e, e->k->ext[dims[j]]);

		e->dimv[dims[j]] = j ? LLVMBuildURem(e->b, i, ext, "") : i;
		if (j)
			i = LLVMBuildUDiv(e->b, i, ext, "");
	}
}

static void store_out(E *e, KOut *o, LLVMValueRef v)
{
	Type *t = e->k->bind[o->buf].type->elem;
	LLVMValueRef s;

	if (t->kind == TY_INT && t->width == 1)
		v = LLVMBuildZExt(e->b, v, e->i8, "");
	s = LLVMBuildStore(e->b, v, e_addr(e, o->buf, o->ix));
	LLVMSetAlignment(s, (unsigned)elem_size(t));
}

/* The result of out i from its accumulator, then stored. */
static void finish(E *e, int i)
{
	KOut *o = &e->k->out[i];
	LLVMValueRef v = o->epi ? e_expr(e, o->epi)
		: LLVMBuildLoad2(e->b, e_type(e, o->acctype), e->accp[i], "");

	if (v)
		store_out(e, o, v);
}

static void red_loops(E *e, const int *red, int n)
{
	Kernel *k = e->k;
	ELoop l;

	if (n == 0) {
		e_reset(e);
		for (int i = 0; i < k->nout; i++) {
			LLVMValueRef v = e_expr(e, k->out[i].val);

			if (v)
				LLVMBuildStore(e->b, v, e->accp[i]);
		}
		return;
	}
	e->dimv[red[0]] = e_loop_begin(e, &l, e_i64(e, 0), e_i64(e, k->ext[red[0]]), NULL);
	red_loops(e, red + 1, n - 1);
	e_loop_end(e, &l, NULL, 0);
}

/* One thread computes the output point whose parallel dims are set. */
static void thread_point(E *e, CSched *s)
{
	Kernel *k = e->k;
	int i;

	if (e_point_start(e, s->nred, store_out))
		return;
	red_loops(e, s->red, s->nred);
	for (i = 0; i < s->nred; i++)   /* the loops' values end with them */
		e->dimv[s->red[i]] = e_i64(e, 0);
	e_reset(e);
	for (i = 0; i < k->nout; i++)
		finish(e, i);
}

static LLVMBasicBlockRef block(E *e, const char *name)
{
	return LLVMAppendBasicBlockInContext(e->cx, e->fn, name);
}

/* The block computes the output point whose parallel dims are set. */
static void block_point(CU *u, CSched *s, LLVMValueRef tid)
{
	E *e = &u->e;
	KOut *o = &e->k->out[0];
	LLVMTypeRef at = e_type(e, o->acctype);
	LLVMValueRef v, lane, warp, slot, id = identity(u, o->val->op, o->acctype);
	LLVMBasicBlockRef b1, b2, b3, b4;
	ELoop l;

	e_reset(e);
	v = e_expr(e, o->init);
	if (!v)
		return;
	v = LLVMBuildSelect(e->b, LLVMBuildICmp(e->b, LLVMIntEQ, tid, e_i64(e, 0), ""), v, id, "");
	LLVMBuildStore(e->b, v, e->accp[0]);
	/* the thread's partial over its stride of the reduction domain */
	{
		LLVMValueRef j = e_loop_begin(e, &l, tid, e_i64(e, s->R), e_i64(e, CUDA_BLOCK));

		delinearize(e, s->red, s->nred, j);
		e_reset(e);
		if ((v = e_expr(e, o->val)))
			LLVMBuildStore(e->b, v, e->accp[0]);
		e_loop_end(e, &l, e_i64(e, CUDA_BLOCK), 0);
	}
	for (int i = 0; i < s->nred; i++)   /* the loop's values end with it */
		e->dimv[s->red[i]] = e_i64(e, 0);
	e_reset(e);
	v = warp_reduce(u, LLVMBuildLoad2(e->b, at, e->accp[0], ""));
	lane = LLVMBuildAnd(e->b, tid, e_i64(e, 31), "lane");
	warp = LLVMBuildLShr(e->b, tid, e_i64(e, 5), "warp");
	b1 = block(e, "lane0");
	b2 = block(e, "warps");
	LLVMBuildCondBr(e->b, LLVMBuildICmp(e->b, LLVMIntEQ, lane, e_i64(e, 0), ""), b1, b2);
	LLVMPositionBuilderAtEnd(e->b, b1);
	slot = LLVMBuildMul(e->b, warp, e_i64(e, SLOT), "");
	slot = LLVMBuildInBoundsGEP2(e->b, e->i8, u->smem, &slot, 1, "");
	LLVMBuildStore(e->b, v, slot);
	LLVMBuildBr(e->b, b2);
	LLVMPositionBuilderAtEnd(e->b, b2);
	barrier(u);
	/* warp 0 reduces the warps' partials, its lane 0 stores */
	b3 = block(e, "warp0");
	b4 = block(e, "next");
	LLVMBuildCondBr(e->b, LLVMBuildICmp(e->b, LLVMIntEQ, warp, e_i64(e, 0), ""), b3, b4);
	LLVMPositionBuilderAtEnd(e->b, b3);
	{
		LLVMValueRef in = LLVMBuildICmp(e->b, LLVMIntULT, lane, e_i64(e, CUDA_WARPS), "");
		LLVMValueRef off = LLVMBuildMul(e->b, LLVMBuildSelect(e->b, in, lane, e_i64(e, 0), ""),
			e_i64(e, SLOT), "");
		LLVMValueRef p = LLVMBuildInBoundsGEP2(e->b, e->i8, u->smem, &off, 1, "");
		LLVMBasicBlockRef st = block(e, "store"), done = block(e, "stored");

		v = LLVMBuildSelect(e->b, in, LLVMBuildLoad2(e->b, at, p, ""), id, "");
		v = warp_reduce(u, v);
		LLVMBuildCondBr(e->b, LLVMBuildICmp(e->b, LLVMIntEQ, lane, e_i64(e, 0), ""), st, done);
		LLVMPositionBuilderAtEnd(e->b, st);
		LLVMBuildStore(e->b, v, e->accp[0]);
		e_reset(e);
		finish(e, 0);
		LLVMBuildBr(e->b, done);
		LLVMPositionBuilderAtEnd(e->b, done);
		LLVMBuildBr(e->b, b4);
	}
	LLVMPositionBuilderAtEnd(e->b, b4);
	e_reset(e);
	barrier(u);   /* the slots are free for the next point */
}

/* element i of the tiles in shared memory, of type t */
static LLVMValueRef smem_at(CU *u, LLVMTypeRef t, LLVMValueRef i)
{
	return LLVMBuildInBoundsGEP2(u->e.b, t, u->smem, &i, 1, "");
}

/* Element i (of TT * TK) of x's tile (side 0, k fastest) or y's (side 1,
 * n fastest) into shared memory: the operand at row p0 + r and reduction
 * step k0 + kl, 0 past the domain's end.  f32 tiles: x's [TT][TK + 1],
 * y's [TK][TT] after it; f16/bf16 (t->mma): x's [TT][HP], y's transposed
 * [TT][HP] after it, each unwidened. */
static void stage(CU *u, const CTile *t, const CSched *s, int side, LLVMValueRef i,
	LLVMValueRef p0, LLVMValueRef k0, LLVMValueRef bi)
{
	E *e = &u->e;
	KExpr *x = t->mma ? (side ? t->yh : t->xh) : side ? t->y : t->x;
	LLVMTypeRef et = e_type(e, x->type);
	LLVMValueRef r, kl, pos, kk, in, slot, v;
	LLVMBasicBlockRef ld = block(e, "stage"), zero = block(e, "pad"), done = block(e, "staged");

	if (side) {
		r = LLVMBuildURem(e->b, i, e_i64(e, TT), "");
		kl = LLVMBuildUDiv(e->b, i, e_i64(e, TT), "");
		slot = t->mma ? LLVMBuildAdd(e->b, LLVMBuildMul(e->b, r, e_i64(e, HP), ""),
				LLVMBuildAdd(e->b, kl, e_i64(e, TT * HP), ""), "")
			: LLVMBuildAdd(e->b, LLVMBuildMul(e->b, kl, e_i64(e, TT), ""),
				LLVMBuildAdd(e->b, r, e_i64(e, TT * (TK + 1)), ""), "");
	} else {
		kl = LLVMBuildURem(e->b, i, e_i64(e, TK), "");
		r = LLVMBuildUDiv(e->b, i, e_i64(e, TK), "");
		slot = LLVMBuildAdd(e->b, LLVMBuildMul(e->b, r, e_i64(e, t->mma ? HP : TK + 1), ""), kl, "");
	}
	slot = smem_at(u, et, slot);
	pos = LLVMBuildAdd(e->b, p0, r, "");
	kk = LLVMBuildAdd(e->b, k0, kl, "");
	in = LLVMBuildAnd(e->b, LLVMBuildICmp(e->b, LLVMIntULT, pos, e_i64(e, side ? t->N : t->M), ""),
		LLVMBuildICmp(e->b, LLVMIntULT, kk, e_i64(e, s->R), ""), "");
	LLVMBuildCondBr(e->b, in, ld, zero);
	LLVMPositionBuilderAtEnd(e->b, ld);
	delinearize(e, side ? t->nd : t->md, side ? t->nn : t->nm, pos);
	delinearize(e, s->red, s->nred, kk);
	if (t->nb)
		delinearize(e, t->bd, t->nb, bi);
	e_reset(e);
	v = e_expr(e, x);
	LLVMBuildStore(e->b, v ? v : LLVMConstNull(et), slot);
	LLVMBuildBr(e->b, done);
	LLVMPositionBuilderAtEnd(e->b, zero);
	LLVMBuildStore(e->b, LLVMConstNull(et), slot);
	LLVMBuildBr(e->b, done);
	LLVMPositionBuilderAtEnd(e->b, done);
	e_reset(e);
}

/* The tile a block starts at, from its index in a grid-stride loop: the
 * batch bi and the first row and column. */
static void tile_origin(E *e, const CTile *t, LLVMValueRef tile, LLVMValueRef *bi, LLVMValueRef *m0,
	LLVMValueRef *n0)
{
	int64_t mt = (t->M + TT - 1) / TT, nt = (t->N + TT - 1) / TT;
	LLVMValueRef r = LLVMBuildURem(e->b, tile, e_i64(e, mt * nt), "");

	*bi = LLVMBuildUDiv(e->b, tile, e_i64(e, mt * nt), "");
	*m0 = LLVMBuildMul(e->b, LLVMBuildUDiv(e->b, r, e_i64(e, nt), ""), e_i64(e, TT), "m0");
	*n0 = LLVMBuildMul(e->b, LLVMBuildURem(e->b, r, e_i64(e, nt), ""), e_i64(e, TT), "n0");
}

/* A tile wholly past the sizes at the call's length (its batch, first row
 * or first column there) is padding: the block skips it.  Opens the
 * tile's body; tile_done closes it.  NULL: every tile is computed. */
static LLVMBasicBlockRef tile_live(E *e, const CTile *t, LLVMValueRef bi, LLVMValueRef m0,
	LLVMValueRef n0)
{
	const int *ds[3] = { t->bd, t->md, t->nd };
	int nd[3] = { t->nb, t->nm, t->nn };
	int64_t ext[3] = { t->B, t->M, t->N };
	LLVMValueRef at[3] = { bi, m0, n0 }, live = NULL;
	LLVMBasicBlockRef body, skip;

	for (int i = 0; i < 3; i++) {
		KBound b = kernel_dims_bound(e->k, ds[i], nd[i]);
		LLVMValueRef in;

		if (!b.c)
			continue;
		in = LLVMBuildICmp(e->b, LLVMIntSLT, at[i], e_bound(e, &b, ext[i]), "");
		live = live ? LLVMBuildAnd(e->b, live, in, "") : in;
	}
	if (!live)
		return NULL;
	body = block(e, "tile");
	skip = block(e, "skip");
	LLVMBuildCondBr(e->b, live, body, skip);
	LLVMPositionBuilderAtEnd(e->b, body);
	return skip;
}

static void tile_done(E *e, LLVMBasicBlockRef skip)
{
	if (!skip)
		return;
	LLVMBuildBr(e->b, skip);
	LLVMPositionBuilderAtEnd(e->b, skip);
}

/* Output (m, n) of the tile, from its accumulator, through the output's
 * epilogue, if it lies in the domain. */
static void tile_store(E *e, const CTile *t, LLVMValueRef bi, LLVMValueRef m, LLVMValueRef n,
	LLVMValueRef acc)
{
	LLVMBasicBlockRef st = block(e, "out"), next = block(e, "next");

	LLVMBuildCondBr(e->b, LLVMBuildAnd(e->b,
		LLVMBuildICmp(e->b, LLVMIntULT, m, e_i64(e, t->M), ""),
		LLVMBuildICmp(e->b, LLVMIntULT, n, e_i64(e, t->N), ""), ""), st, next);
	LLVMPositionBuilderAtEnd(e->b, st);
	delinearize(e, t->md, t->nm, m);
	delinearize(e, t->nd, t->nn, n);
	if (t->nb)
		delinearize(e, t->bd, t->nb, bi);
	e_reset(e);
	LLVMBuildStore(e->b, LLVMBuildLoad2(e->b, e->f32, acc, ""), e->accp[0]);
	finish(e, 0);
	LLVMBuildBr(e->b, next);
	LLVMPositionBuilderAtEnd(e->b, next);
	e_reset(e);
}

/* Stages the tiles' next TK steps of the reduction from k0, all threads
 * taking part; they are ready after the barrier. */
static void stage_all(CU *u, const CTile *t, const CSched *s, LLVMValueRef tid, LLVMValueRef m0,
	LLVMValueRef n0, LLVMValueRef k0, LLVMValueRef bi)
{
	for (int q = 0; q < TT * TK / CUDA_BLOCK; q++) {
		LLVMValueRef idx = LLVMBuildAdd(u->e.b, tid, e_i64(&u->e, q * CUDA_BLOCK), "");

		stage(u, t, s, 0, idx, m0, k0, bi);
		stage(u, t, s, 1, idx, n0, k0, bi);
	}
	barrier(u);
}

/* The tiles of a contraction, a block each (grid-stride): thread (tx, ty)
 * of 16 x 16 accumulates outputs (ty + 16 i, tx + 16 j) of the tile, i
 * and j below TR, from the staged steps, then stores them through the
 * output's epilogue. */
static void tile_kernel(CU *u, const CTile *t, const CSched *s, LLVMValueRef tid)
{
	E *e = &u->e;
	int64_t mt = (t->M + TT - 1) / TT, nt = (t->N + TT - 1) / TT;
	LLVMValueRef acc[TR][TR], a[TR], b[TR], tx, ty, step, tile, bi, m0, n0, k0, kk;
	LLVMTypeRef ft[3] = { e->f32, e->f32, e->f32 };
	LLVMBasicBlockRef skip;
	ELoop lt, lk, lkk;
	int i, j;

	for (i = 0; i < TR; i++)
		for (j = 0; j < TR; j++)
			acc[i][j] = e_alloca(e, e->f32, "c");
	tx = LLVMBuildAnd(e->b, tid, e_i64(e, 15), "tx");
	ty = LLVMBuildLShr(e->b, tid, e_i64(e, 4), "ty");
	step = sreg(u, "nctaid.x");
	tile = e_loop_begin(e, &lt, sreg(u, "ctaid.x"), e_i64(e, t->B * mt * nt), step);
	tile_origin(e, t, tile, &bi, &m0, &n0);
	skip = tile_live(e, t, bi, m0, n0);
	for (i = 0; i < TR; i++)
		for (j = 0; j < TR; j++)
			LLVMBuildStore(e->b, LLVMConstReal(e->f32, 0), acc[i][j]);
	k0 = e_loop_begin(e, &lk, e_i64(e, 0), e_i64(e, s->R), NULL);
	stage_all(u, t, s, tid, m0, n0, k0, bi);
	kk = e_loop_begin(e, &lkk, e_i64(e, 0), e_i64(e, TK), NULL);
	for (i = 0; i < TR; i++) {
		LLVMValueRef row = LLVMBuildAdd(e->b, ty, e_i64(e, 16 * i), "");
		LLVMValueRef col = LLVMBuildAdd(e->b, tx, e_i64(e, 16 * i), "");

		a[i] = LLVMBuildLoad2(e->b, e->f32, smem_at(u, e->f32, LLVMBuildAdd(e->b,
			LLVMBuildMul(e->b, row, e_i64(e, TK + 1), ""), kk, "")), "");
		b[i] = LLVMBuildLoad2(e->b, e->f32, smem_at(u, e->f32, LLVMBuildAdd(e->b,
			LLVMBuildMul(e->b, kk, e_i64(e, TT), ""),
			LLVMBuildAdd(e->b, col, e_i64(e, TT * (TK + 1)), ""), "")), "");
	}
	for (i = 0; i < TR; i++)
		for (j = 0; j < TR; j++) {
			LLVMValueRef args[3] = { a[i], b[j], LLVMBuildLoad2(e->b, e->f32, acc[i][j], "") };

			LLVMBuildStore(e->b, call0(u, "llvm.fma.f32", e->f32, args, ft, 3), acc[i][j]);
		}
	e_loop_end(e, &lkk, NULL, 0);
	barrier(u);   /* the tiles are read: the next step may overwrite them */
	e_loop_end(e, &lk, e_i64(e, TK), 0);
	for (i = 0; i < s->nred; i++)
		e->dimv[s->red[i]] = e_i64(e, 0);
	for (i = 0; i < TR; i++)
		for (j = 0; j < TR; j++)
			tile_store(e, t, bi,
				LLVMBuildAdd(e->b, m0, LLVMBuildAdd(e->b, ty, e_i64(e, 16 * i), ""), ""),
				LLVMBuildAdd(e->b, n0, LLVMBuildAdd(e->b, tx, e_i64(e, 16 * j), ""), ""), acc[i][j]);
	tile_done(e, skip);
	e_loop_end(e, &lt, step, 0);
}

/* The same tiles on tensor cores, for f16 or bf16 operands: warp w of 8
 * computes rows 16 (w / 2) .. + 16 and columns 32 (w % 2) .. + 32 of the
 * tile as four m16n8k16 products a step, accumulated in f32.  Lane l
 * holds, as mma.sync lays them out (PTX ISA, "Matrix Fragments for
 * mma.m16n8k16 with floating point type"; g = l / 4, q = l % 4): of x,
 * rows g and g + 8, columns 2q, 2q + 1 and those + 8; of y, rows (k) 2q,
 * 2q + 1 and those + 8, column g; of the result, rows g and g + 8,
 * columns 2q and 2q + 1. */
static void mma_kernel(CU *u, const CTile *t, const CSched *s, LLVMValueRef tid)
{
	E *e = &u->e;
	int64_t mt = (t->M + TT - 1) / TT, nt = (t->N + TT - 1) / TT;
	LLVMTypeRef ht = e_type(e, t->xh->type);
	LLVMTypeRef rt = t->mma == 1 ? LLVMVectorType(ht, 2) : e->i32;   /* a fragment register */
	LLVMTypeRef ft[10], st;
	LLVMValueRef acc[4][4], a[4], step, tile, bi, m0, n0, k0, lane, warp, g, q, r0, c0, w0, nb;
	const char *name = t->mma == 1 ? "llvm.nvvm.mma.m16n8k16.row.col.f32.f32"
		: "llvm.nvvm.mma.m16n8k16.row.col.bf16";
	LLVMBasicBlockRef skip;
	ELoop lt, lk;
	int i, j;

	for (i = 0; i < 6; i++)
		ft[i] = rt;
	for (i = 6; i < 10; i++)
		ft[i] = e->f32;
	st = LLVMStructTypeInContext(e->cx, ft + 6, 4, 0);
	for (j = 0; j < 4; j++)
		for (i = 0; i < 4; i++)
			acc[j][i] = e_alloca(e, e->f32, "c");
	lane = LLVMBuildAnd(e->b, tid, e_i64(e, 31), "lane");
	warp = LLVMBuildLShr(e->b, tid, e_i64(e, 5), "warp");
	g = LLVMBuildLShr(e->b, lane, e_i64(e, 2), "g");
	q = LLVMBuildAnd(e->b, lane, e_i64(e, 3), "q");
	/* the warp's first row and column in the tile, the lane's in them */
	r0 = LLVMBuildAdd(e->b, LLVMBuildMul(e->b, LLVMBuildLShr(e->b, warp, e_i64(e, 1), ""), e_i64(e, 16), ""),
		g, "r0");
	w0 = LLVMBuildMul(e->b, LLVMBuildAnd(e->b, warp, e_i64(e, 1), ""), e_i64(e, 32), "w0");
	nb = LLVMBuildAdd(e->b, w0, g, "nb");
	c0 = LLVMBuildMul(e->b, q, e_i64(e, 2), "c0");
	step = sreg(u, "nctaid.x");
	tile = e_loop_begin(e, &lt, sreg(u, "ctaid.x"), e_i64(e, t->B * mt * nt), step);
	tile_origin(e, t, tile, &bi, &m0, &n0);
	skip = tile_live(e, t, bi, m0, n0);
	for (j = 0; j < 4; j++)
		for (i = 0; i < 4; i++)
			LLVMBuildStore(e->b, LLVMConstReal(e->f32, 0), acc[j][i]);
	k0 = e_loop_begin(e, &lk, e_i64(e, 0), e_i64(e, s->R), NULL);
	stage_all(u, t, s, tid, m0, n0, k0, bi);
	/* x's fragment: (r0, c0), (r0 + 8, c0), (r0, c0 + 8), (r0 + 8, c0 + 8) */
	for (i = 0; i < 4; i++) {
		LLVMValueRef row = LLVMBuildAdd(e->b, r0, e_i64(e, i & 1 ? 8 : 0), "");
		LLVMValueRef col = LLVMBuildAdd(e->b, c0, e_i64(e, i & 2 ? 8 : 0), "");

		a[i] = LLVMBuildLoad2(e->b, rt, smem_at(u, ht, LLVMBuildAdd(e->b,
			LLVMBuildMul(e->b, row, e_i64(e, HP), ""), col, "")), "");
	}
	for (j = 0; j < 4; j++) {
		/* y's: column nb + 8 j, rows (k) c0 and c0 + 8, y stored transposed */
		LLVMValueRef n = LLVMBuildAdd(e->b, nb, e_i64(e, 8 * j), "");
		LLVMValueRef at = LLVMBuildAdd(e->b, LLVMBuildMul(e->b, n, e_i64(e, HP), ""),
			LLVMBuildAdd(e->b, c0, e_i64(e, TT * HP), ""), "");
		LLVMValueRef args[10], d;

		for (i = 0; i < 4; i++)
			args[i] = a[i];
		args[4] = LLVMBuildLoad2(e->b, rt, smem_at(u, ht, at), "");
		args[5] = LLVMBuildLoad2(e->b, rt, smem_at(u, ht, LLVMBuildAdd(e->b, at, e_i64(e, 8), "")), "");
		for (i = 0; i < 4; i++)
			args[6 + i] = LLVMBuildLoad2(e->b, e->f32, acc[j][i], "");
		d = call0(u, name, st, args, ft, 10);
		for (i = 0; i < 4; i++)
			LLVMBuildStore(e->b, LLVMBuildExtractValue(e->b, d, (unsigned)i, ""), acc[j][i]);
	}
	barrier(u);   /* the tiles are read: the next step may overwrite them */
	e_loop_end(e, &lk, e_i64(e, TK), 0);
	for (i = 0; i < s->nred; i++)
		e->dimv[s->red[i]] = e_i64(e, 0);
	/* the result's fragment: row r0, columns c0 and c0 + 1 (d0, d1), row
	 * r0 + 8 (d2, d3), of the columns w0 + 8 j .. + 8 */
	for (j = 0; j < 4; j++)
		for (i = 0; i < 4; i++)
			tile_store(e, t, bi,
				LLVMBuildAdd(e->b, m0, LLVMBuildAdd(e->b, r0, e_i64(e, i & 2 ? 8 : 0), ""), ""),
				LLVMBuildAdd(e->b, n0, LLVMBuildAdd(e->b, w0,
					LLVMBuildAdd(e->b, c0, e_i64(e, 8 * j + (i & 1)), ""), ""), ""),
				acc[j][i]);
	tile_done(e, skip);
	e_loop_end(e, &lt, step, 0);
}

static void annotate(CU *u, LLVMValueRef fn, const char *key, int v)
{
	E *e = &u->e;
	LLVMMetadataRef md[3] = {
		LLVMValueAsMetadata(fn),
		LLVMMDStringInContext2(e->cx, key, strlen(key)),
		LLVMValueAsMetadata(LLVMConstInt(e->i32, (unsigned)v, 0)),
	};

	LLVMAddNamedMetadataOperand(e->m, "nvvm.annotations",
		LLVMMetadataAsValue(e->cx, LLVMMDNodeInContext2(e->cx, md, 3)));
}

static LLVMAttributeRef enum_attr(E *e, const char *n)
{
	return LLVMCreateEnumAttribute(e->cx, LLVMGetEnumAttributeKindForName(n, strlen(n)), 0);
}

/* k's .entry: its bindings `ptr addrspace(1)`, noalias, and readonly
 * where only read; marked a kernel of CUDA_BLOCK threads at most. */
static LLVMValueRef entry_fn(CU *u, Kernel *k)
{
	E *e = &u->e;
	LLVMTypeRef gptr = LLVMPointerTypeInContext(e->cx, 1), *pt, ft;
	LLVMValueRef fn;
	int i;

	pt = xcalloc((size_t)k->nbind + 1, sizeof *pt);
	for (i = 0; i < k->nbind; i++)
		pt[i] = gptr;
	ft = LLVMFunctionType(LLVMVoidTypeInContext(e->cx), pt, (unsigned)k->nbind, 0);
	fn = LLVMAddFunction(e->m, k->name, ft);
	free(pt);
	LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, enum_attr(e, "nounwind"));
	for (i = 0; i < k->nbind; i++) {
		LLVMAddAttributeAtIndex(fn, (unsigned)i + 1, enum_attr(e, "noalias"));
		if (!k->bind[i].out)
			LLVMAddAttributeAtIndex(fn, (unsigned)i + 1, enum_attr(e, "readonly"));
	}
	annotate(u, fn, "kernel", 1);
	annotate(u, fn, "maxntidx", CUDA_BLOCK);
	return fn;
}

/* e's bindings, loop dims and accumulator slots for k, in fn's entry;
 * two slots past them for the combiner's operands */
static void kernel_state(CU *u, Kernel *k, LLVMValueRef fn)
{
	E *e = &u->e;
	int i;

	e->fn = fn;
	LLVMPositionBuilderAtEnd(e->b, block(e, "entry"));
	e->bp = xcalloc((size_t)k->nbind + 1, sizeof *e->bp);
	for (i = 0; i < k->nbind; i++)
		e->bp[i] = LLVMGetParam(fn, (unsigned)i);
	e->dimv = xcalloc((size_t)k->ndims + 1, sizeof *e->dimv);
	for (i = 0; i < k->ndims; i++)
		e->dimv[i] = e_i64(e, 0);
	u->slot_a = k->nout + k->naccs;
	u->slot_b = u->slot_a + 1;
	e->accp = xcalloc((size_t)u->slot_b + 2, sizeof *e->accp);
	for (i = 0; i < k->nout; i++)
		e->accp[i] = e_alloca(e, e_type(e, k->out[i].acctype), "acc");
	e->vw = 1;
}

/* A grid-stride loop over the output points: a block per point (the
 * combiner over slots A and B), or a thread per point. */
static void points(CU *u, Kernel *k, CSched *s, LLVMValueRef tid)
{
	E *e = &u->e;
	LLVMValueRef first, step, p, end;
	KBound b;
	ELoop l;

	if (s->block_red) {
		Type *t = k->out[0].acctype;

		u->cmb = kx_op(e->g->c, k->out[0].val->op, t, 2);
		u->cmb->attr = k->out[0].val->attr;
		u->cmb->a[0] = kx_new(e->g->c, KX_ACC, t, 0);
		u->cmb->a[0]->buf = u->slot_a;
		u->cmb->a[1] = kx_new(e->g->c, KX_ACC, t, 0);
		u->cmb->a[1]->buf = u->slot_b;
		first = sreg(u, "ctaid.x");
		step = sreg(u, "nctaid.x");
	} else {
		first = LLVMBuildAdd(e->b, LLVMBuildMul(e->b, sreg(u, "ctaid.x"), e_i64(e, CUDA_BLOCK), ""),
			tid, "");
		step = LLVMBuildMul(e->b, sreg(u, "nctaid.x"), e_i64(e, CUDA_BLOCK), "");
	}
	/* the points at the call's length: the rest is padding */
	end = cuda_points_bound(k, s, &b) ? e_bound(e, &b, s->P) : e_i64(e, s->P);
	p = e_loop_begin(e, &l, first, end, step);
	delinearize(e, s->par, s->npar, p);
	if (s->block_red)
		block_point(u, s, tid);
	else
		thread_point(e, s);
	e_loop_end(e, &l, step, 0);
}

int cu_kernel(CU *u, Kernel *k)
{
	E *e = &u->e;
	LLVMValueRef tid;
	CSched s;
	CTile t;

	if (k->kind != KK_LOOP) {
		op_error(k->root, "internal error: a packed GEMM kernel for the CUDA target");
		return -1;
	}
	cuda_schedule(k, &s);
	e->k = k;
	e->err = 0;
	kernel_state(u, k, entry_fn(u, k));
	/* the call's length, where loops stop at it */
	e->n = k->bound ? LLVMBuildLoad2(e->b, e->i64, e->bp[k->lenbuf], "n") : NULL;
	tid = sreg(u, "tid.x");
	if (!cuda_tile_plan(e->g->o, k, &s, &t))
		points(u, k, &s, tid);
	else if (t.mma)
		mma_kernel(u, &t, &s, tid);
	else
		tile_kernel(u, &t, &s, tid);
	LLVMBuildRetVoid(e->b);
	e_reset(e);
	free(e->bp);
	free(e->dimv);
	free(e->accp);
	e->bp = e->dimv = e->accp = NULL;
	return e->err ? -1 : 0;
}
