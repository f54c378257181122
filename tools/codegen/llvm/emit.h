/*
 * emit.h - kernel IR to LLVM IR, shared by both targets (cpu/, cuda/):
 * expressions (expr.c, ops.c) and loops (loop.c).  A target sets up E
 * (context, module, types, the kernel and its bindings) and builds its
 * iteration around e_expr.
 */
#ifndef CODEGEN_EMIT_H
#define CODEGEN_EMIT_H

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>

#include "gen.h"

typedef struct E {
	Gen *g;
	LLVMContextRef cx;
	LLVMModuleRef m;
	LLVMBuilderRef b;
	LLVMValueRef fn;            /* the kernel's body function */
	LLVMTypeRef i1, i8, i32, i64, f32, ptr;
	Kernel *k;
	LLVMValueRef *bp;           /* binding pointers */
	LLVMValueRef *dimv;         /* current value of each loop dim (i64) */
	LLVMValueRef *hi;           /* a bounded dim's extent at the call (e_bounds) */
	LLVMValueRef n;             /* with bounds: the call's length */
	LLVMValueRef *accp;         /* accumulator slots (pointers) */
	PMap memo;                  /* KExpr* -> LLVMValueRef, per scope */
	int vw;                     /* >1: emit expressions as vectors along vdim */
	int vdim;
	int pieces;                 /* vector loads and range tests try the
	                             * scalar one-affine-piece test first */
	int ntail;                  /* > 0: only the vector's first ntail
	                             * lanes are points (a row's last vector):
	                             * loads and stores masked to them */
	int rdim;                   /* >= 0: dim rdim is rbase + roff (S2's
	                             * row blocks), e_addr's offsets then one
	                             * sum of the other dims plus a constant */
	LLVMValueRef rbase;
	int64_t roff;
	int err;
	int maskbw;                 /* masked loads of bytes and halves are
	                             * single instructions (AVX-512BW) */
	const char *cpu, *features;
} E;

/* e's context and "kernels" module for triple and td, with its builder
 * and types; e_close disposes of them */
void e_open(E *e, Gen *g, const char *triple, LLVMTargetDataRef td);
void e_close(E *e);
LLVMTypeRef e_type(E *e, const Type *t);      /* register type */
LLVMTypeRef e_memtype(E *e, const Type *t);   /* in-memory type */
LLVMValueRef e_index(E *e, const IExpr *x);   /* i64 */
LLVMValueRef e_expr(E *e, KExpr *x);
void expr_init(void);                         /* ops.c's table, once */
LLVMValueRef e_op(E *e, KExpr *x);            /* ops.c: a KX_OP */
LLVMTypeRef e_vtype(E *e, LLVMTypeRef t);     /* t, or e->vw lanes of it */
LLVMValueRef e_splat(E *e, LLVMValueRef s);   /* s, or e->vw lanes of it */
/* stores v (i1 as i8) of element type t at p, aligned to the element */
void e_store(E *e, LLVMValueRef v, LLVMValueRef p, const Type *t);
LLVMValueRef e_addr(E *e, int buf, IExpr *const *ix);
/* v's lanes stored each at its own index of lin, e_linear's (a masked scatter) */
void e_scatter(E *e, LLVMValueRef v, int buf, IExpr *lin, const Type *et);
/* the element offset that index ix (t's rank) addresses in a buffer of type t */
IExpr *e_linear(E *e, const Type *t, IExpr *const *ix);
/* x over the e->vw lanes of the vector dim is affine with slope *slope
 * wherever *cond holds (a few scalar tests; NULL: always): no floordiv
 * or mod changes quotient between the first lane and the last, no clamp
 * bites.  0 when x's form rules that out. */
int e_lane_affine(E *e, const IExpr *x, int64_t *slope, LLVMValueRef *cond);
LLVMValueRef e_i64(E *e, int64_t v);
void e_reset(E *e);
LLVMValueRef e_alloca(E *e, LLVMTypeRef t, const char *name);
/* x reads memory only in ways a tail's masks cover (e->ntail): plain
 * loads of 4- or 8-byte elements (bytes and halves where e->maskbw), no
 * data-dependent load, no integer division (the masked lanes hold zeros) */
int e_tail_ok(E *e, KExpr *x);

typedef struct ELoop {
	LLVMBasicBlockRef hdr, body, exit;
	LLVMValueRef var;
} ELoop;
LLVMValueRef e_loop_begin(E *e, ELoop *l, LLVMValueRef lo, LLVMValueRef hi, LLVMValueRef step);
/* hint: 0, or one of these as loop metadata */
enum { LOOP_VECTORIZE = 1, LOOP_NO_UNROLL = 2 };
void e_loop_end(E *e, ELoop *l, LLVMValueRef step, int hint);

/* At the kernel's entry: the extents of its loops bounded by the length
 * (Kernel.bound), read from the length's binding, into e->hi (allocated;
 * NULL without bounds).  e_extent: dim d's extent, the bounded one or the
 * constant. */
void e_bounds(E *e);
LLVMValueRef e_extent(E *e, int d);
/* b at the call's length (e->n), at most ext */
LLVMValueRef e_bound(E *e, const KBound *b, int64_t ext);

/* A point of a loop-nest kernel whose parallel dims are set: without
 * reduction dims its outputs, epilogues applied, through store (returns
 * 1); else its accumulators set to their initial values (returns 0, the
 * reduction loops to follow).  Also 1 after an error. */
int e_point_start(E *e, int nred, void (*store)(E *, KOut *, LLVMValueRef));


#endif
