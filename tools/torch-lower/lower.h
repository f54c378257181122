/*
 * lower.h - torch-lower's internals: the lowering context, the IR builders
 * the lowerings share, and the lowering table.
 *
 * A lowering reads one torch op (its operands keep their torch types, so
 * dtypes keep their signedness) and emits builtin ops before it; the value
 * map sends each torch tensor value to its builtin tensor.  Torch scalars
 * and lists are never lowered: a lowering reads their constant values.
 * Dtypes are passed around as torch element types (si64, ui8, i1, f32) and
 * turned into signless builtin types only when an op is built; what a
 * dtype means (promotion, compute type) is lib/torch's (torch.h).
 */
#ifndef TORCH_LOWER_H
#define TORCH_LOWER_H

#include "ir.h"
#include "optable.h"
#include "torch/torch.h"

typedef struct L {
	Ctx *c;
	Op *op;         /* the torch op being lowered: location, errors */
	Op *before;     /* new ops go before this op ... */
	Block *blk;     /* ... or, when set, at the end of this block */
	PMap vmap;      /* torch value -> builtin value */
	PMap ttype;     /* value whose type was rewritten -> its torch type */
	int finite;     /* max/min start from the largest finite value, not
	                   infinity (convert-torch-to-linalg's
	                   allow-non-finites=false) */
	int pass;       /* the convert-torch-to-linalg pass: torch-mlir's forms
	                   (broadcast asserts, a captured alpha) */
	int dyn;        /* torch-lower on an op with dynamic shapes (those
	                   forms, and where they keep a static dim to
	                   torch-lower's static rows, the dynamic one; their
	                   size asserts even under strict symbolic shapes,
	                   which torch-mlir's elide: a wrong input size is
	                   an abort, not a wrong result) */
} L;

/* A lowering: 0 on success, else -1 after op_error. */
typedef int (*LowerFn)(L *l, Op *op, const void *arg);

typedef struct Row {
	const char *name;
	LowerFn fn;
	const void *arg;
} Row;

/* --mlir-dialect-version: the MLIR release whose syntax and named ops the
 * output uses (16, the default, for mlir-opt-16; 19 and later for current
 * upstream MLIR and IREE); MLIR_UPSTREAM for "upstream" */
enum { MLIR_UPSTREAM = 1000, MLIR_NEWER = 19 };
extern int lower_mlir_version;

extern const Row lower_table[];
extern const OpTable lower_optables[], ew_optables[], check_optables[];
const Row *lower_lookup(const char *name);
/* the row of tab (ended by a NULL name) for op name, or NULL */
const Row *row_find(const Row *tab, const char *name);
const Row *pass_view_lookup(const char *name);   /* pass_view.c: pass-only rows */
const Row *pass_view_fallback(const char *name);
int pass_view_reads_scalars(const Row *r);
int pass_view_legacy_disabled(Op *op);
const Row *pass_conv_lookup(const char *name);   /* pass_conv.c: pass-only rows */
int pass_conv_reads_scalars(const Row *r);
const Row *pass_bwd_lookup(const char *name);    /* pass_bwd.c: pass-only rows */
Value *pass_bwd_split_group(L *l, Value *v, int at, int64_t g);
Value *pass_bwd_merge_group(L *l, Value *v, Type *bt, int at);
Value *pass_bwd_zero_pad(L *l, Value *v, int from, const int64_t *p);
void pass_place_after_def(Op *m, Value *v);      /* pass.c */
const Row *pass_basic_lookup(const char *name);   /* pass_basic.c: pass-only rows */
int pass_basic_reads_scalars(const Row *r);
const Row *pass_concat_lookup(const char *name);   /* pass_concat.c: pass-only rows */
int pass_view_uncast(Op *op);
/* elementwise init tensor with torch-mlir's broadcast asserts; alpha */
Value *pass_view_ew_empty(L *l, int nin, Value *const *ins, Type *bt);
Value *pass_view_capture(L *l, Value *scalar, Type *ct);
int pass_view_broadcast_to(L *l, Op *op, const void *arg);
Attr *pass_view_groups(Ctx *c, int n, const int *start);
const Row *pass_view2_lookup(const char *name);   /* pass_view2.c */
int pass_view2_reads_scalars(const Row *r);
void lower_list(FILE *f);   /* every op with a lowering, one a line */
/* the convert-torch-to-linalg pass's row for an op: torch-mlir's forms,
 * which take dynamic shapes (pass.c) */
const Row *lower_pass_row(const char *name);
/* ---- dynamic shapes (dynamic.c) ---- */
/* the row for an op with a dynamic dim, or NULL */
const Row *lower_dynamic_row(const char *name);
/* torch.bind_symbolic_shape: run-time checks of an argument's shape */
int lower_bind_symbolic_shape(L *l, Op *op);
/* size.int and int add, sub, mul, floordiv: 0 lowered, -1 after an
 * error, 1 for any other op */
int lower_int_op(L *l, Op *op);
/* torch int v as i64: its constant, or its lowered value; NULL if none */
Value *lower_int_of(L *l, Value *v);
/* the torch_c.to_i64 (f64, i1) the dynamic forms read scalars through,
 * replaced by the scalars' builtin values */
int lower_resolve_scalars(L *l, Op *fn);


/* ---- values and types (build.c) ---- */

Type *ttype(L *l, Value *v);            /* the torch type of an operand */
Value *get(L *l, Value *v);             /* its builtin value */
void set(L *l, Value *torch, Value *builtin);
Type *dtype_of(L *l, Value *v);         /* torch element type or NULL */
Type *belem(Ctx *c, Type *dtype);        /* si64/ui8 -> i64/i8 */
Type *btensor(Ctx *c, Type *vt);         /* vtensor -> tensor, signless */
Type *tensor_of(Ctx *c, int rank, const int64_t *dims, Type *dtype);
/* The builtin type of a torch value tensor (with rank and dtype), int
 * (i64), float (f64) or bool (i1), and the suffix of the torch_c ops that
 * convert it ("builtin_tensor", "i64", "f64", "i1"); NULL for any other
 * (pass_types.c). */
Type *torch_c_type(Ctx *c, Type *t, const char **sfx);

/* ---- operands (constants are read with lib/torch's tv_*, torch.h) ---- */

int is_tensor(L *l, Value *v);
/* Elements of a ListConstruct (any kind); -1 if not one or over max. */
int list_vals(Value *v, Value **out, int max);
/* Scalars and list operands of op must be constants (lists may hold
 * tensors); -1 after an error at op. */
int check_constants(L *l, Op *op);
/* Normalizes a dim against rank; -1 after an error. */
int norm_dim(L *l, int64_t d, int rank);

/* ---- emitting ---- */

Op *emit(L *l, const char *name, int n, Value *const *opnds, int nres,
	Type *const *rt);
Value *emit1(L *l, const char *name, int n, Value *const *opnds, Type *rt);
Value *cst_f(L *l, double v, Type *bt);        /* builtin scalar type */
Value *cst_i(L *l, int64_t v, Type *bt);
Value *cst_idx(L *l, int64_t v);
/* A constant of torch dtype d holding v (ints are truncated). */
Value *cst_d(L *l, double v, Type *d);
/* The constant operand v as a value of dtype d. */
Value *cst_of(L *l, Value *v, Type *d);
Value *un(L *l, const char *name, Value *a);
Value *bin(L *l, const char *name, Value *a, Value *b);
Value *cmpf(L *l, const char *pred, Value *a, Value *b);
Value *cmpi(L *l, const char *pred, Value *a, Value *b);
Value *sel(L *l, Value *c, Value *a, Value *b);
/* cf.assert of i1 cond with message msg */
void emit_assert(L *l, Value *cond, const char *msg);
/* Converts a scalar from dtype `from` to dtype `to` as PyTorch casts. */
Value *cv(L *l, Value *v, Type *from, Type *to);
/* Type-generic arithmetic on dtype d: "add" "sub" "mul" "div" "max"
 * "min" (NaN-propagating), "and" "or" "xor". */
Value *ar(L *l, const char *what, Type *d, Value *a, Value *b);
/* Comparison on dtype d: "eq" "ne" "lt" "le" "gt" "ge" -> i1. */
Value *cmp(L *l, const char *what, Type *d, Value *a, Value *b);
Value *to_index(L *l, Value *v);         /* any int -> index */
Value *from_index(L *l, Value *v, Type *bt);
Value *lindex(L *l, int dim);            /* linalg.index */

/* tensors */
Value *empty(L *l, Type *bt, Value *like);   /* like: source of ? dims */
/* ... each ? dim i sized as dimension dim[i] of from[i] */
Value *empty_from(L *l, Type *bt, Value *const *from, const int *dim);
Value *fill(L *l, Value *scalar, Value *t);
Value *filled(L *l, Type *bt, Value *scalar);   /* empty + fill */
Attr *window_attr(Ctx *c, int n, const int64_t *v);   /* strides, dilations */
/* src into dst at off, strides st (shape.c) */
Value *insert_slice(L *l, Value *src, Value *dst, const int64_t *off, const int64_t *st);
Value *pad_with(L *l, Value *v, Type *bt, const int64_t *off, Value *scalar);
Value *tensor_pad(L *l, Value *v, Type *bt, const int64_t *lo, const int64_t *hi, Value *scalar);
Value *reshape_to(L *l, Value *v, Type *bt);    /* any static reshape */
Value *expand_dims(L *l, Value *v, Type *bt, Attr *reassoc, int collapse);
/* out[i] = in[m(i)] over bt's shape (shape.c) */
Value *gather_map(L *l, Value *in, Type *bt, AffMap *m);
/* v (dtype from) as a tensor of dtype to */
Value *convert_tensor(L *l, Value *v, Type *from, Type *to);

/* linalg.generic, built in two steps so bodies are straight-line code:
 * gen_begin makes the op and moves the insertion point into its body;
 * gen_end yields and moves it back. */
typedef struct Gen {
	Op *op;
	Block *body, *saved_blk;
	Op *saved_before;
	Value **arg;          /* block arguments: ins then outs */
} Gen;
void gen_begin(L *l, Gen *g, int nin, Value *const *ins, int nout,
	Value *const *outs, AffMap *const *maps, int nloops, const char *iters);
Value *gen_end(L *l, Gen *g, int n, Value *const *yields);

AffMap *map_id(L *l, int n);
/* Broadcasting map from `loops` dims onto an operand of type t whose dims
 * align to the right of res (size-1 dims broadcast as constant 0). */
AffMap *map_bcast(L *l, int loops, Type *t, Type *res);
/* (d0..dn-1) -> (d[sel...]) */
AffMap *map_sel(L *l, int n, int nres, const int *sel);
AffExpr *d_(L *l, int i);
AffExpr *c_(L *l, int64_t v);
AffExpr *add_(L *l, AffExpr *a, AffExpr *b);
AffExpr *mul_(L *l, AffExpr *a, int64_t k);
AffMap *map_of(L *l, int nloops, int nres, AffExpr **res);

/* The lowered module against mlir-opt's rules for what the lowerings
 * build (check.c); -1 after an error at the op. */
int lower_check(Op *m);

/* ---- the lowerings, by family ---- */

int lower_ew(L *l, Op *op, const void *arg);        /* ew.c */
int lower_reduce(L *l, Op *op, const void *arg);    /* reduce.c */
int lower_argmax(L *l, Op *op, const void *arg);
int lower_maxdim(L *l, Op *op, const void *arg);
int lower_var(L *l, Op *op, const void *arg);
int lower_norm(L *l, Op *op, const void *arg);
int lower_cumsum(L *l, Op *op, const void *arg);
int lower_logsumexp(L *l, Op *op, const void *arg);
int lower_mm(L *l, Op *op, const void *arg);        /* conv.c */
int pass_mm_lower(L *l, Op *op, const void *arg);   /* pass_mm.c */
int pass_mm_neg(L *l, Op *op, const void *arg);
int pass_mm_bool_minmax(L *l, Op *op, const void *arg);
int pass_mm_static_cast(L *l, Op *op, const void *arg);
int lower_conv(L *l, Op *op, const void *arg);
int lower_embedding(L *l, Op *op, const void *arg);
int lower_maxpool(L *l, Op *op, const void *arg);   /* pool.c */
int lower_pass_maxpool(L *l, Op *op, const void *arg);   /* pass_pool.c */
int lower_pass_avgpool(L *l, Op *op, const void *arg);
int lower_pass_embedding_bag(L *l, Op *op, const void *arg);
int pass_quant_lower(L *l, Op *op, const void *arg);     /* pass_quant.c */
void pass_quant_mlir16_name(Ctx *c, Op *op);
int lower_avgpool(L *l, Op *op, const void *arg);
int lower_adaptive(L *l, Op *op, const void *arg);
int lower_view_dtype(L *l, Op *op, const void *arg); /* viewdtype.c */
int lower_view(L *l, Op *op, const void *arg);      /* shape.c */
int lower_permute(L *l, Op *op, const void *arg);
int lower_transpose(L *l, Op *op, const void *arg);
int lower_expand(L *l, Op *op, const void *arg);
int lower_slice(L *l, Op *op, const void *arg);
int lower_select(L *l, Op *op, const void *arg);
int lower_narrow(L *l, Op *op, const void *arg);
int lower_cat(L *l, Op *op, const void *arg);
int lower_flip(L *l, Op *op, const void *arg);
int lower_roll(L *l, Op *op, const void *arg);
int lower_repeat(L *l, Op *op, const void *arg);
int lower_pad(L *l, Op *op, const void *arg);
int lower_refpad(L *l, Op *op, const void *arg);
int lower_tri(L *l, Op *op, const void *arg);
int lower_arange(L *l, Op *op, const void *arg);
int lower_full(L *l, Op *op, const void *arg);
int lower_to(L *l, Op *op, const void *arg);
int lower_index_select(L *l, Op *op, const void *arg);   /* index.c */
int lower_gather(L *l, Op *op, const void *arg);
int lower_index(L *l, Op *op, const void *arg);
int lower_scatter(L *l, Op *op, const void *arg);
int lower_index_put(L *l, Op *op, const void *arg);

#endif
