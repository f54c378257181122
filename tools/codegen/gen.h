/*
 * gen.h - codegen's driver state and its targets, shared by its stages.
 * The target-independent middle:
 *   main.c      options, the pipeline, the fxvm module
 *   util.c      --timing's phases
 *   dispatch.c  linalg ops -> dispatch regions: roots, fusion, the plan
 *   kbuild.c    each dispatch region's kernel (kir.h), dispatch.h shared
 *   kexpr.c     kernel IR expressions, op codes, shared analyses
 *   iexpr.c     index expressions
 *   host.c      the fxvm host program, globals, memory planning
 *   check.c     the host program checked before it is printed
 *   graph.c     --dump-dispatch-graph's DOT
 * LLVM IR of kernel expressions, for both targets (llvm/emit.h):
 *   llvm/expr.c loads, indices, constants; llvm/ops.c arith and math ops;
 *   llvm/loop.c loops
 * The targets, seen by the middle only through a Target:
 *   cpu/        x86-64: loop nests, packed GEMMs, ELF objects (T_cpu)
 *   cuda/       NVIDIA GPUs: PTX (T_cuda)
 * The middle never calls into llvm/, cpu/ or cuda/ but through a Target;
 * those call the middle.
 */
#ifndef CODEGEN_GEN_H
#define CODEGEN_GEN_H

#include "util.h"
#include "kir.h"

typedef struct Opts {
	const char *input, *output, *target, *cpu, *features, *emit;
	const char *gpu_arch;  /* --target=cuda: sm_80 … */
	int dump, opt, threads_hint;
	int no_micro;         /* --no-microkernel: loop nests only, untiled */
	int no_fuse_pack;     /* --no-fused-pack: B packed by kernels of its own */
	int no_winograd;      /* --no-winograd: 3x3 convolutions summed directly */
	int vdpbf16ps;        /* --vdpbf16ps: -1 auto (AMD's CPUs), 0 off, 1 on */
	int timing;           /* --timing: phase wall times on stderr */
	const char *graph;    /* --dump-dispatch-graph=FILE */
	int jobs;             /* --jobs: LLVM threads (0: one per CPU) */
	const char *passes;   /* --llvm-passes: LLVM's pass pipeline */
	int length_ratio;     /* --length-ratio: a dynamic length's padded
	                         functions, each about 1/R of the one above */
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
	Type *phys;           /* its buffer's type where that is not its own
	                       * (layout.c): NCHW kept channels last, NHWC
	                       * (perm), or a pad whose inside rows start a
	                       * line: rows a whole number of lines long, one
	                       * more of them, its index shifted (a row down,
	                       * its left pad's columns back into the row
	                       * before) */
	int perm;
	int64_t shift[4];
} VInfo;

typedef struct Target Target;

typedef struct Gen {
	const Target *t;
	Ctx *c;
	Op *module;
	Opts *o;
	Kernel **k;
	int nk, ck;
	PMap vi;              /* Value* -> VInfo* */
	int nglobals;
	Op **globals;          /* the fxvm.global ops made, nglobals of them */
	void *packs;           /* the target's packs of constants so far (cpu:
	                          gemm_plan.c's PackCopy list) */
	Op *newmod_first;     /* where globals go */
	int err;
} Gen;

VInfo *vinfo(Gen *g, Value *v);

/* util.c: --timing; phase_start starts the clock, phase_done marks the
 * end of a phase (printed with --timing), phase_total the time since the
 * start */
void phase_start(void);
void phase_done(Gen *g, const char *name);
double phase_total(void);

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

/* wino.c: the kind of an op that its rewrite of a convolution made
 * ("input", "contraction" or "output"), else NULL; whether it is that */
const char *wino_kind(const Op *op);
int wino_is(const Op *op, const char *which);

/* layout.c: which values live channels last (VInfo.phys), once the
 * kernels' roots and chains are planned and before any is built */
void plan_layouts(Gen *g, Op *fn);
/* v's buffer's type, and index ix (v's own dims) into it (phys) */
Type *value_buftype(Gen *g, Value *v);
IExpr **value_index(KCtx *kc, Gen *g, Value *v, IExpr **ix);
Value *view_source(Value *v);   /* through reshapes; NULL if not a view */
/* whether v's elements are bf16 values widened to f32: a linalg.generic's
 * result that its body yields as an extf of bf16 (autocast's widening) */
int value_bf16_widened(const Value *v);

/* graph.c: --dump-dispatch-graph, after the kernels are formed */
void dispatch_graph(Gen *g, const char *path, Op **fns, FnPlan *plans, int nf);

/* host.c */
int host_build(Gen *g, Op *fn, FnPlan *fp, Op *newfn);
Value *host_global(Gen *g, Value *v, Op *newfn);

/* check.c: the host programs keep formats/fxvm.md's contract and the
 * planner's (written before read, no shared live bytes); 0, or -1 after
 * reporting an internal error */
int check_module(Gen *g);

/* dispatch.c: for the targets' own kernels (a GEMM's packs) */
void kernel_add_fused(Gen *g, Kernel *k, Op *op);
/* k's display name, source, bytes (after its bindings are known) */
void kernel_label(Gen *g, Kernel *k);
Kernel *kernel_new(Gen *g, Op *root);
/* The binding of k that holds v (of type t, written if out), added if
 * k has none: its index */
int kernel_bind(Kernel *k, Value *v, Type *t, int out);
/* A dim made of k's loop dims ds (outermost first: a GEMM's M, a CUDA
 * tile's rows) at the call's length: the first one's bound times the
 * others' extents, where it has one (kbuild.c's length_bounds); c = 0
 * where not */
KBound kernel_dims_bound(const Kernel *k, const int *ds, int n);
void plan_push(FnPlan *fp, Kernel *k, Op *op);

typedef struct KObj {
	uint8_t *p;           /* an ELF object (or --emit's text) */
	size_t n;
} KObj;

/* A target: what the middle asks of cpu/ and cuda/.  main.c picks one by
 * --target and calls through it; dispatch formation asks it how to form
 * kernels. */
struct Target {
	const char *name;     /* --target's */
	const char *format;   /* the fxvm.executable's */
	/* checks the options for this target and completes them; a user
	 * error exits (tool_fail) */
	void (*options)(Opts *o);
	void (*init)(void);   /* its tables, once at start-up */
	/* dispatch formation: a contraction kernel k of op turned into a
	 * packed GEMM (with kernels of its own for packs, pushed to fp) when
	 * it can; 0 either way, -1 after an error.  NULL: loop nests only. */
	int (*gemm)(Gen *g, Kernel *k, FnPlan *fp, Op *op);
	/* dispatch formation: whether a convolution's activation v (NCHW),
	 * written and read by convolutions alone, is kept channels last
	 * (layout.c), for the GEMMs to read and store its channels
	 * contiguous; NULL: never */
	int (*channels_last)(const Value *v);
	/* dispatch formation: a loop-nest kernel's grid; NULL: set by launch */
	void (*grid)(Kernel *k);
	/* once every kernel is formed: the grid, and the block and dynamic
	 * shared bytes of a launch (fxvm.kernel's block and shared); NULL:
	 * none */
	void (*launch)(const Opts *o, Kernel *k, int64_t block[3], int64_t *shared);
	/* every kernel as *nobj objects (Kernel.exe: whose), or --emit's
	 * text; *cpu and *features, allocated, for the module's fxvm.cpu and
	 * fxvm.features; 0 or -1 after an error */
	int (*emit)(Gen *g, KObj **objs, int *nobj, const char **cpu, const char **features);
	int text_nul;         /* emit's text ends in a NUL that --emit omits */
};

extern const Target T_cpu, T_cuda;

/* batch.c: a function with a dynamic batch replaced by its chunk
 * functions (static, NAME.batch8 and NAME.batch1, after it) and a
 * declaration carrying fxvm.batch (*decl, where fn stood); 0, or -1 after
 * an error at the op that keeps the batch's items from being computed
 * apart.  batch_signature gives the declaration its first chunk
 * function's signature (as codegen made it), `?` where batched. */
int batch_split(Ctx *c, Op *fn, Op **decl, int only1);
void batch_signature(Ctx *c, Op *decl, Op *chunk);
/* batch.c's rewrites that seqpad.c shares: constant operands of a
 * slice's, pad's or expand_shape's lists folded into them; a static
 * tensor.reshape as collapse_shape and expand_shape; a function's type
 * from its block's arguments and its return. */
void fold_lists(Ctx *c, Op *op, int prefix, const char *const *names, int nnames);
/* ... and what both read sizes with: floor and ceiling division (b > 0),
 * cmpi's predicate p (0 eq .. 9 uge) on constants, group g of a reshape's
 * reassociation (its first dimension and count; -1 if malformed), the
 * names of a slice's and a pad's mixed lists */
int64_t fdiv(int64_t a, int64_t b);
int64_t cdiv(int64_t a, int64_t b);
int cmp_const(int p, int64_t x, int64_t y);
int group(Op *op, int g, int *first, int *n);
extern const char *const slice_lists[3], *const pad_lists[2];
/* a rank-reducing slice of big to small: the dimensions of big it drops
 * (bits of *mask), as MLIR matches the sizes left to right: -1 where
 * they do not match */
int slice_dropped(Op *op, const Type *big, const Type *small, uint64_t *mask);
void reshape_views(Ctx *c, Op *op);
void set_function_type(Ctx *c, Op *fn);

/* seqpad.c: a function with a dynamic length (`?` at a dimension other
 * than an argument's first) replaced by a declaration carrying
 * fxvm.length (*decl, where fn stood) and functions at lengths of the
 * range (pads[], after it, ascending: the range's top NAME.seq, each
 * below it NAME.seqL, L about 1/ratio of the one above; ratio < 2: the
 * top's alone), each its last argument the length, a dynamic batch
 * still dynamic, to be chunked one item at a time; their count, or -1
 * after an error at the op that keeps fn from being padded. */
enum { SEQ_MAXPADS = 16 };
/* The attribute seqpad.c puts on a padded function's ops whose results
 * have sizes that vary with the length: per result an array of (c, d)
 * pairs, the size at length n c * n + d (c = 0: fixed).  Past those sizes
 * a tensor is padding that no result reads (seqpad.c's proof), so a
 * kernel need not compute it (kbuild.c's length_bounds).  Reserved: an
 * input that carries it is refused. */
#define LENGTH_SIZES "fxpipe.length_sizes"
/* ... and on a linalg.generic whose reductions along the length it
 * masked (a step past the length keeps the accumulator): per loop (c, d),
 * the loop's extent at n c * n + d, c = 0 where it is not masked, so
 * that the kernel may stop there.  Reserved likewise. */
#define LENGTH_LOOPS "fxpipe.length_loops"
int has_dynamic_length(Op *fn);
/* Does an op inside op's regions stop a kernel at some operands (a
 * gather's index out of range, an integer division by zero)? */
int traps(Op *op);
int seq_split(Ctx *c, Op *fn, int ratio, Op **decl, Op **pads);
void seq_signature(Ctx *c, Op *decl, Op *padded);

#endif
