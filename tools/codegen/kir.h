/*
 * kir.h - codegen's kernel IR: what one dispatch computes, between the
 * linalg input (kbuild.c builds it) and LLVM (llvm/ and each target's
 * iteration, cpu/ or cuda/, lower it).  Ops are op codes (OpInfo.code).
 *
 * A kernel iterates a rectangular domain of loop dims.  Index expressions
 * (IExpr) address buffers in terms of those dims; scalar expressions
 * (KExpr) are the fused bodies of the linalg ops, their leaves loads from
 * bound buffers, constants, loop indices and accumulators.  Fusion happens
 * while building: a load of a value that is not materialized is replaced
 * by the expression that computes it, so fused intermediates never reach
 * memory.  Everything lives in the codegen context's arena.
 */
#ifndef CODEGEN_KIR_H
#define CODEGEN_KIR_H

#include "ir.h"

typedef struct IExpr IExpr;
typedef struct KExpr KExpr;

/* ---- index expressions ---- */

typedef enum IKind {
	IX_DIM, IX_CONST, IX_ADD, IX_MUL, IX_FLOORDIV, IX_MOD,
	IX_CLAMP,      /* min(max(l, v), hi) with v = lo bound: l clamped to [v, v2] */
} IKind;

struct IExpr {
	IKind kind;
	int64_t v, v2;      /* DIM: position; CONST: value; CLAMP: bounds */
	IExpr *l, *r;       /* MUL/FLOORDIV/MOD: r is a CONST where possible */
};

/* The kernel context: arena and the domain's extents for range analysis. */
typedef struct KCtx {
	Ctx *c;
	int ndims;
	const int64_t *ext;
} KCtx;

IExpr *ix_dim(KCtx *k, int d);
IExpr *ix_const(KCtx *k, int64_t v);
IExpr *ix_add(KCtx *k, IExpr *a, IExpr *b);
IExpr *ix_mul(KCtx *k, IExpr *a, int64_t c);
IExpr *ix_mulx(KCtx *k, IExpr *a, IExpr *b);
IExpr *ix_floordiv(KCtx *k, IExpr *a, int64_t c);
IExpr *ix_mod(KCtx *k, IExpr *a, int64_t c);
IExpr *ix_clamp(KCtx *k, IExpr *a, int64_t lo, int64_t hi);
/* [lo, hi] of e over the domain; returns 0 when unknown */
int ix_range(KCtx *k, const IExpr *e, int64_t *lo, int64_t *hi);
int ix_eq(const IExpr *a, const IExpr *b);
int ix_uses_dim(const IExpr *e, int d);
/* e is c * dim d + (terms without d), syntactically: 1 and c if so */
int ix_coef(const IExpr *e, int d, int64_t *c);
/* the same, where (y floordiv q) * q + (y' mod q) is y (y - y' a multiple
 * of q): through a reshape's delinearized indices */
int ix_slope(const IExpr *e, int d, int64_t *c);
/* x = *k + sum of c[i] atom[i] (atoms: dims, floordivs, mods, clamps;
 * none twice): their count, -1 where x has more than max or is no such
 * sum */
int ix_terms(const IExpr *x, int64_t *k, int64_t *c, const IExpr **atom, int max);
/* a - b is the constant *d, a multiple of q (q = 0: any constant) */
int ix_diff(const IExpr *a, const IExpr *b, int64_t q, int64_t *d);
void ix_dims(const IExpr *e, uint64_t *set);   /* the dims e reads (kexpr.c) */
/* Replaces every IX_DIM d by sub[d]. */
IExpr *ix_subst(KCtx *k, IExpr *e, IExpr *const *sub);
IExpr *ix_from_aff(KCtx *k, const AffExpr *a, IExpr *const *dims);
int64_t ix_eval(const IExpr *e, const int64_t *dims);
void ix_print(Buf *b, const IExpr *e);

/* ---- scalar expressions ---- */

typedef enum KKind {
	KX_LOAD,     /* buf[ix...] */
	KX_XLOAD,    /* buf[a...]: data-dependent indices (tensor.extract) */
	KX_CONST,    /* cval */
	KX_OP,       /* op(a...): an arith/math op of the body */
	KX_INDEX,    /* the value of ix[0], as index */
	KX_ACC,      /* accumulator number `buf` (reductions, epilogues) */
	KX_INRANGE,  /* i1: every ix[i] lies in [lo[i], hi[i]) */
	KX_FIX,      /* a[0], or where it is not finite the direct 3x3 sum
	              * (wino.c) at output (n, k, h, w) = ix; a[1] and a[2]
	              * name the input's and the weight's buffers (loads at
	              * 0, never emitted) */
} KKind;

/* KX_FIX's convolution: the input's element (n, c, h, w) lies at
 * x0 + sum xs[d] (idx[d] - off[d]) of a[1]'s buffer where each idx[d] -
 * off[d] lies in [0, ext[d]) (a pad's source inside it), else it is pad;
 * the weight [K, C, 3, 3] is a[2]'s buffer, row-major. */
typedef struct KFix {
	int64_t C, x0, xs[4], off[4], ext[4];
	double pad;
} KFix;

struct KExpr {
	KKind kind;
	Type *type;          /* scalar type of the value */
	int op;              /* KX_OP: the op's code (OpInfo.code) */
	Attr *attr;          /* KX_OP: predicate (cmpf/cmpi) */
	int n;
	KExpr **a;
	int buf;             /* KX_LOAD/XLOAD: binding; KX_ACC: which */
	int rank;
	IExpr **ix;          /* LOAD, INDEX, INRANGE */
	int64_t *lo, *hi;    /* INRANGE */
	Attr *cval;          /* CONST: an AT_INT or AT_FLOAT */
	KFix *fix;           /* FIX */
	int id;              /* for memo tables while emitting */
};

/* ---- kernels ---- */

typedef struct KBind {
	Value *val;          /* the input IR's tensor value this buffer holds */
	Type *type;          /* its tensor type */
	int out;             /* written by the kernel */
} KBind;

typedef struct KOut {
	int buf;             /* binding */
	IExpr **ix;          /* store index, rank of the buffer */
	KExpr *init;         /* reductions: the accumulator's start (no reduction dims) */
	KExpr *val;          /* the body; reductions read KX_ACC */
	KExpr *epi;          /* after the reduction, over KX_ACC; NULL: the acc */
	Type *acctype;
} KOut;

typedef enum KernKind { KK_LOOP, KK_GEMM } KernKind;

/* A loop of a padded function's kernel (seqpad.c) that stops where the
 * call's length n ends what it computes: at ceil((c * n + d) / q), at most
 * its extent; c = 0: at its extent. */
typedef struct KBound {
	int64_t c, d, q;
} KBound;

/* GEMM: C[b, m, n] = sum_k A[b, m, k] B[b, k, n] over packed panels.
 * A is packed as [b][M/MR][K][MR] (or read in place), B as [b][N/NR][K][NR]; the epilogue
 * maps (b, m, n) through the output's store index. */
/* A read through its taps (gemm_plan.c's tap_plan), the tile's rows
 * output pixels: with i = pm / tpi (the image; tpi tiles each) and t = pm
 * % tpi, pm's tile at a0 + b * asb + i * timg + (t / tpr) (mr / tw) arow +
 * (t % tpr) mr lda, its row r (r / tw) arow + (r % tw) lda past that (rows
 * tw pixels wide, arow apart; pixels lda apart), and k = (kh kw' + kw) c'
 * + c at kh dh + kw c' + c for kh < kh', kw < kw', c < c' (the fields
 * kh, kw, c: the taps' and channels' counts) */
typedef struct KTaps {
	int64_t kh, kw, c, dh, arow, tw, tpr, tpi, timg;
} KTaps;

typedef struct KGemm {
	int64_t B, M, N, K;
	int a, bb;           /* bindings of the packed operands (bb: -1 with bpack) */
	int mr, nr;
	KExpr *bpack;        /* B packed by the kernel itself, one panel at a
	                      * time: its value over (batch, panel, k, column) */
	int64_t *pext;       /* that domain's extents */
	int adirect;         /* A not packed: read at a0 + b * asb + m * lda + k * aks */
	int64_t a0, asb, lda, aks;
	int atap;            /* A a convolution's input read through its taps
	                      * (gemm_plan.c's tap_plan): tap */
	KTaps tap;
	KBound kbound;       /* K at the call's length (operands zero past it);
	                      * c = 0: K */
	int q;               /* 0: f32.  int8 (vpdpbusd): K counts groups of
	                      * four k, each panel element is four bytes, the
	                      * accumulators i32, and the operand of unsigned
	                      * bytes is B (1) or A (2).  On AMX tiles (the
	                      * weight A, in tile rows; gemm_emit.c's amx_fn):
	                      * 3 bf16, K counts steps of 32 k (gemm_plan.c's
	                      * bgemm); 4 int8, steps of 64 k, i32 sums.
	                      * 5: bf16 by vdpbf16ps, K counts pairs of k,
	                      * each panel element a pair, f32 sums */
	int kper;            /* bpack at k = kper k' + i, each i's value over
	                      * (batch, panel, k', column) in bper[i] (its k
	                      * decomposition constant: im2col's taps), or 0;
	                      * a bf16 pack's at pair kper k' + i, bper[2 i +
	                      * j] the pair's k j */
	KExpr **bper;
	int64_t kin;         /* 0, or the steps are runs of kin rows each
	                      * instead, bper[j] the pack's j-th k of a pair or
	                      * group over (batch, panel, k', column, j, s), step
	                      * s's row kin s + k' (gemm_plan.c's gemm_kperiod's
	                      * inner form) */
	int bnext;           /* the micro-kernel prefetches the next B panel:
	                      * 0 no, 1 the half pm & 1 (a step of two cache
	                      * lines, a line a step), 2 all of it */
	int mfirst;          /* each workgroup a chunk of M's tiles, each
	                      * tile across all of N's panels (gemm_grid) */
} KGemm;

/* g on AMX tiles (q 3, 4); g's operands pairs of bf16 (q 3, 5) */
static inline int gemm_amx(const KGemm *g) { return g->q == 3 || g->q == 4; }
static inline int gemm_pairs(const KGemm *g) { return g->q == 3 || g->q == 5; }

typedef struct Kernel {
	const char *name;
	KernKind kind;
	int ndims;
	int64_t *ext;        /* extents */
	char *red;           /* 1: reduction dim */
	int nbind;
	KBind *bind;
	int nout;
	KOut *out;
	KGemm g;
	int64_t grid[3];
	Buf fused;           /* for --dump-dispatches: one line per fused op */
	Op *root;            /* for diagnostics */
	/* what it is, for people and profilers (kernel_label) */
	const char **words;  /* its ops as words, the root's first */
	int nwords;
	const Loc *at;       /* the root's file location, else a fused op's */
	int64_t flops;       /* per dispatch; formats/vmfb.md says how counted */
	const char *display; /* dispatch_12_conv_2d_nchw_fchw_add@m.py:92 */
	const char *source;  /* FILE:LINE:COL, or "" */
	int64_t bytes;       /* its bindings' */
	int naccs;
	int exe;             /* the object (fxvm.executable) holding it */
	int vpack;           /* a pack ([batch][panel][k][tile], make_pack):
	                      * emitted one tile-wide vector per row */
	int light;           /* emitted in vectors of our own: compiled with
	                      * the short pipeline, not O3 */
	KBound *bound;       /* per dim, or NULL: every loop to its extent */
	Value *len;          /* with bound: the length (tensor<1xi64>), */
	int lenbuf;          /* bound as this binding (plan_push) */
	KBound glen[3];      /* per grid axis with c > 0: as many workgroups
	                      * as ceil((c n + d) / q) at length n, at most
	                      * grid's (the kernel shares its bounded loop
	                      * among the grid it is given) */
	Attr *prefill;       /* its output holds this scalar everywhere before
	                      * it runs (the host fills it): a pad, of which
	                      * the kernel writes only the inside */
	Op *inside;          /* with prefill: the pad (tensor.insert_slice)
	                      * whose inside the kernel writes: its static
	                      * offsets and its source's sizes */
	int64_t padw, padl, padr; /* padw > 0: the kernel also writes the
	                      * prefill into the padl columns before and the
	                      * padr after each row of padw elements it
	                      * stores (the pad's last dim, along the GEMM's
	                      * dim padd: 2, N, or 1, M), so the host fills
	                      * only the rows it leaves (host.c) */
	int padd;
	int64_t pads;        /* the elements between one index of the other
	                      * dim (3 - padd) and the next */
	int64_t padt, padb, padh; /* with padw, padh > 0: the kernel also
	                      * writes the padt rows above and the padb below
	                      * the padh rows of each plane (the pad's dim
	                      * before the last), so the host fills none */
} Kernel;

/* ---- the ops codegen builds or recognizes itself (kexpr.c) ---- */

/* Their codes, looked up once at start-up (kops_init), so that no path
 * per expression compares op names. */
#define KOPS(X) \
	X(addf, "arith.addf") X(subf, "arith.subf") X(mulf, "arith.mulf") \
	X(maxf, "arith.maxf") X(minf, "arith.minf") \
	X(addi, "arith.addi") X(subi, "arith.subi") X(muli, "arith.muli") X(andi, "arith.andi") \
	X(ori, "arith.ori") X(xori, "arith.xori") \
	X(maxsi, "arith.maxsi") X(minsi, "arith.minsi") \
	X(maxui, "arith.maxui") X(minui, "arith.minui") \
	X(select, "arith.select") X(extf, "arith.extf") X(truncf, "arith.truncf") \
	X(sitofp, "arith.sitofp") X(fptosi, "arith.fptosi") X(uitofp, "arith.uitofp") \
	X(extsi, "arith.extsi") X(extui, "arith.extui") X(trunci, "arith.trunci") \
	X(index_cast, "arith.index_cast") \
	X(absf, "math.absf") X(sqrt, "math.sqrt") X(rsqrt, "math.rsqrt") \
	X(roundeven, "math.roundeven") X(cmpf, "arith.cmpf") X(cmpi, "arith.cmpi") X(divf, "arith.divf") \
	X(divsi, "arith.divsi") X(divui, "arith.divui") X(remsi, "arith.remsi") \
	X(remui, "arith.remui") X(floordivsi, "arith.floordivsi") \
	X(ceildivsi, "arith.ceildivsi") X(ceildivui, "arith.ceildivui") \
	X(constant, "arith.constant")

typedef struct KOps {
#define KOP_FIELD(f, name) int f;
	KOPS(KOP_FIELD)
#undef KOP_FIELD
} KOps;

extern KOps kop;
void kops_init(void);
/* The code of an op a start-up table names; an unknown name is a bug:
 * an internal error naming the table and the name. */
int kop_code(const char *table, const char *name);
/* The op's name, for diagnostics. */
const char *kop_name(int code);
/* An arith or math op (one a kernel body may hold: KX_OP), a math op. */
int kop_scalar(int code);
int kop_math(int code);
/* an integer division or remainder: it traps on a zero divisor */
int kop_int_div(int code);
int kop_of(const Op *op);   /* op's code, -1 if unregistered */

KExpr *kx_new(Ctx *c, KKind k, Type *t, int n);
KExpr *kx_op(Ctx *c, int op, Type *t, int n);   /* a KX_OP */
KExpr *kx_const_f(Ctx *c, Type *t, double v);
KExpr *kx_const_i(Ctx *c, Type *t, int64_t v);
int kx_has_acc(const KExpr *e);              /* reads some accumulator */
/* v is a two-operand op of an accumulator and an x that reads none
 * (either order): x, else NULL */
KExpr *kx_acc_other(const KExpr *v);
int kx_is_zero(const KExpr *e);               /* the constant 0.0 */
void kx_dims(const KExpr *e, uint64_t *set);  /* the loop dims e reads */
/* The loops of k: its parallel dims in par (those the first output's
 * layout uses first, in that order, then the rest), its reduction dims in
 * red; dims of extent 1 are no loop, and neither is an empty parallel dim
 * (then the kernel has no points: returns 1, else 0).  An empty reduction
 * dim is a loop that never runs (the outputs keep their initial values). */
int kernel_loops(const Kernel *k, int *par, int *npar, int *red, int *nred);
/* val = acc + x * y in f32 (either order): its operands, or 0 */
int gemm_mac(KExpr *val, KExpr **x, KExpr **y);

#endif
