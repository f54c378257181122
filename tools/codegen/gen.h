/*
 * gen.h - codegen's driver state, shared by its stages:
 *   dispatch.c  linalg ops -> dispatch regions (kernels in kir.h form)
 *   host.c      the fxvm host program, globals, memory planning
 *   emit.c      kernels -> LLVM IR (loop nests)
 *   gemm.c      matmul/convolution -> packed micro-kernel
 *   check.c     the host program checked before it is printed
 *   target.c    LLVM target machine, optimization, object emission
 */
#ifndef CODEGEN_GEN_H
#define CODEGEN_GEN_H

#include "asm.h"
#include "kir.h"

typedef struct Opts {
	const char *input, *output, *target, *cpu, *features, *emit;
	const char *gpu_arch;  /* --target=cuda: sm_80 … */
	int dump, opt, threads_hint;
	int no_gemm;          /* contractions as loop nests (the GPU's, or: */
	int no_micro;         /* --no-microkernel: loop nests only, untiled) */
	int no_fuse_pack;     /* --no-fused-pack: B packed by kernels of its own */
	int timing;           /* --timing: phase wall times on stderr */
	int jobs;             /* --jobs: LLVM threads (0: one per CPU) */
	const char *passes;   /* --llvm-passes: LLVM's pass pipeline */
} Opts;

/* What codegen knows about one tensor value of the input. */
typedef struct VInfo {
	int uses;
	int mat;              /* materialized: lives in a buffer */
	int absorbed;         /* computed inside another op's kernel (epilogue) */
	int root;             /* its op gets a kernel of its own */
	Op *chain_end;        /* root: the last op of its epilogue chain */
	Op *chain_root;       /* chain end: the root whose kernel computes it */
	Value *host;          /* the buffer in the host program */
	Value *gpacked;       /* host value of the pre-packed global */
	int result;           /* returned as result N, -1 */
	int claimed;          /* in some root's epilogue chain */
} VInfo;

typedef struct Gen {
	Ctx *c;
	Op *module;
	Opts *o;
	Kernel **k;
	int nk, ck;
	PMap vi;              /* Value* -> VInfo* */
	int nglobals;
	Op *newmod_first;     /* where globals go */
	int err;
} Gen;

VInfo *vinfo(Gen *g, Value *v);

/* main.c: --timing; marks the end of a phase (a no-op without it) */
void phase_done(Gen *g, const char *name);

/* dispatch.c: plans and builds the kernels of one function, in order;
 * returns 0 or -1 after op_error. fn_kernels receives them. */
typedef struct HostStep {
	int kind;             /* 0 dispatch kernel k; 1 copy; 2 fill */
	Kernel *k;
	Value *src, *dst;     /* copy: input IR values */
	Attr *fillv;
	Op *op;
} HostStep;

typedef struct FnPlan {
	HostStep *st;
	int n, cap;
} FnPlan;

int plan_function(Gen *g, Op *fn, FnPlan *fp);
Value *view_source(Value *v);   /* through reshapes; NULL if not a view */

/* host.c */
int host_build(Gen *g, Op *fn, FnPlan *fp, Op *newfn);
Value *host_global(Gen *g, Value *v, Op *newfn);

/* check.c: the host programs keep formats/fxvm.md's contract and the
 * planner's (written before read, no shared live bytes); 0, or -1 after
 * reporting an internal error */
int check_module(Gen *g);

/* emit.c / target.c */
typedef struct LLVMOpaqueContext *LLVMContextRef_;
typedef struct KObj {
	uint8_t *p;           /* an ELF object (or --emit's text) */
	size_t n;
} KObj;
/* the kernels as *nobj objects (Kernel.exe: whose) */
/* --cpu and --features name an x86-64 CPU with 64-bit mode and known
 * features; else an error is printed and -1 returned. */
int cpu_check(const char *cpu, const char *features);
int emit_kernels(Gen *g, KObj **objs, int *nobj, const char **cpu,
	const char **features);

/* gemm.c: turns a contraction kernel into a packed GEMM when it can */
int gemm_plan(Gen *g, Kernel *k, FnPlan *fp, Op *op);

void kernel_add_fused(Kernel *k, Op *op);
Kernel *kernel_new(Gen *g, Op *root);
void plan_push(FnPlan *fp, Kernel *k, Op *op);
void loop_grid(Kernel *k);   /* emit.c: sets a loop nest's grid */
void expr_init(void);

#endif
