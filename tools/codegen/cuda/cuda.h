/*
 * cuda.h - the CUDA target's own declarations (cuda/): the schedule of a
 * kernel (schedule.c), its NVVM IR (kernel.c), and the module's PTX
 * (cuda.c).  The middle sees none of it: only T_cuda (gen.h).
 */
#ifndef CODEGEN_CUDA_H
#define CODEGEN_CUDA_H

#include "llvm/emit.h"

enum {
	CUDA_BLOCK = 256,              /* threads per block */
	CUDA_WARPS = CUDA_BLOCK / 32,
	CUDA_MAX_GRID = 1 << 20,       /* blocks; grid-stride loops do the rest */
	SLOT = 8,                      /* shared bytes per warp partial */
	TT = 64,                       /* a tiled contraction's block: TT x TT outputs, */
	TK = 16,                       /* TK steps of the reduction staged at a time, */
	TR = TT / 16,                  /* TR x TR outputs per thread of 16 x 16 */
	TILE_SHARED = (TT * (TK + 1) + TK * TT) * 4,
	HP = TK + 8,                   /* f16/bf16 tiles: halves a row (the pad
	                                * spreads a warp's fragment loads over
	                                * the 32 banks), x's [TT][HP] then y's
	                                * transposed, [TT][HP] */
	MMA_SHARED = 2 * TT * HP * 2,
};

typedef struct CSched {
	int par[64], npar;             /* parallel dims, outermost first */
	int red[64], nred;
	int64_t P, R;                  /* points, reduction length */
	int block_red;                 /* block per point */
} CSched;

/* A contraction, out = the sum over the reduction dims of x * y in f32
 * from zero (matmul, batch matmul, convolution): its output is cut into
 * TT x TT tiles of (m, n), m over the parallel dims only x reads, n over
 * those only y reads (y has the output's innermost dim), the rest a batch.
 * A block computes a tile, staging TK steps of the reduction of x and y
 * through shared memory at a time. */
typedef struct CTile {
	KExpr *x, *y;
	int md[64], nm, nd[64], nn, bd[64], nb;
	int64_t M, N, B;
	int mma;                       /* x and y f16 (1) or bf16 (2) widened: */
	KExpr *xh, *yh;                /* tensor cores on these, unwidened */
} CTile;

typedef struct CU {
	E e;
	LLVMValueRef smem;             /* dynamic shared memory */
	LLVMTypeRef i16;
	KExpr *cmb;                    /* the combiner over acc slots A and B */
	int slot_a, slot_b;
} CU;

/* schedule.c: the iteration of kernel k (pure: as often as needed) */
void cuda_schedule(const Kernel *k, CSched *s);
/* 1 if a point-per-thread (or per-block) kernel's points stop at the
 * call's length: its outermost parallel dim, c * n + d at length n, is
 * bounded (kbuild.c's length_bounds); *b, the points at n, c n + d times
 * the inner points */
int cuda_points_bound(const Kernel *k, const CSched *s, KBound *b);
/* 1 if k is a contraction tiled through shared memory, as *t */
int cuda_tile_plan(const Opts *o, const Kernel *k, const CSched *s, CTile *t);
/* Sets k->grid for the CUDA schedule and returns the block size and the
 * dynamic shared memory (bytes) a launch needs. */
void cuda_launch(const Opts *o, Kernel *k, int64_t block[3], int64_t *shared);

/* kernel.c: kernel k as a PTX .entry of u's module; 0 or -1 */
int cu_kernel(CU *u, Kernel *k);

#endif
