/*
 * torch.h - helpers shared by the torch-level passes (lib/torch/): op
 * names, constant operands, dtypes and PyTorch's type promotion, shape and
 * dtype inference, and a builder that makes typed aten ops.
 */
#ifndef FX_TORCH_H
#define FX_TORCH_H

#include <string.h>

#include "ir.h"

enum { TORCH_MAXRANK = TY_MAXRANK };

/* ---- names (util.c) ---- */

/* "aten.add.Tensor" for torch.aten.add.Tensor and for a torch.operator
 * named "aten.add.Tensor"; NULL for other ops. */
const char *torch_opname(const Op *op);
/* Is op torch.aten.<name> (name without "torch.") or a torch.operator of
 * that name? */
int torch_is(const Op *op, const char *name);

/* ---- constant operands (util.c) ---- */

int tv_int(Value *v, int64_t *out);        /* torch.constant.int */
int tv_float(Value *v, double *out);       /* constant.float or .int */
int tv_bool(Value *v, int *out);
int tv_none(Value *v);                     /* torch.constant.none */
int tv_str(Value *v, const char **out);    /* torch.constant.str */
int tv_const(Value *v);                    /* any torch.constant.* */
/* The value of an int, bool or float constant (a float truncates), or 0:
 * for readers that checked tv_const and the schema settles the kind. */
int64_t tv_ival(Value *v);
double tv_fval(Value *v);
/* The constant ints of a torch.prim.ListConstruct (at most max); the
 * count, or -1 when some element is not a constant int. */
int tv_ints(Value *list, int64_t *out, int max);
/* The elements of a ListConstruct, or -1. */
int tv_list(Value *list, Value ***elts);

/* ---- tensor types (util.c) ---- */

int tt_is(const Type *t);                  /* a torch tensor type */
int tt_rank(const Type *t);                /* -1 when unranked */
Type *tt_dtype(const Type *t);             /* NULL when unk */
/* A type of t's kind (tensor or vtensor) with this shape and dtype;
 * rank < 0: unranked. */
Type *tt_make(Ctx *c, const Type *kind, int rank, const int64_t *dims, Type *dtype);
Type *tt_vt(Ctx *c, int rank, const int64_t *dims, Type *dtype);
/* Normalizes a dimension index d against rank (negative from the end);
 * -1 when out of range. */
int64_t tt_dim(int64_t d, int rank);

/* ---- dtypes (promote.c) ---- */

Type *dt_f32(Ctx *c);
Type *dt_f64(Ctx *c);
Type *dt_i64(Ctx *c);
Type *dt_bool(Ctx *c);
int dt_isfloat(const Type *d);
int dt_isbool(const Type *d);
int dt_isunsigned(const Type *d);           /* ui* and bool */
/* The dtype arithmetic on d computes in: f16 and bf16 widen to f32. */
Type *dt_opmath(Ctx *c, Type *d);
/* torch.dtype codes (ScalarType): 6 float32, 4 int64, 11 bool, ... */
Type *dt_from_code(Ctx *c, int64_t code);
int dt_code(const Type *d);                /* -1 when none */
Type *dt_promote(Ctx *c, Type *a, Type *b);

/* PyTorch's result_type over tensors, 0-dim tensors and Python scalars. */
typedef struct Promo {
	Type *dim, *zero, *wrapped;
	int unknown;
} Promo;
void promo_add(Ctx *c, Promo *p, Value *v);  /* tensor or scalar */
/* The same from a tensor's or scalar's type alone, for a value whose
 * type was set aside (torch-lower); a wrapped number (NumToTensor) or a
 * torch.constant.number needs the value: promo_add. */
void promo_add_type(Ctx *c, Promo *p, const Type *t);
Type *promo_result(Ctx *c, const Promo *p);  /* NULL when unknown */

/* ---- inference (infer*.c) ---- */

/* The result types of op from its operands (same tensor kind as the
 * current result types); 1 when known, 0 when op has no rule or its
 * operands are not known well enough.  out has op->nres entries and is
 * pre-filled with the current types. */
int torch_infer(Ctx *c, Op *op, Type **out);

/* A rule computes out[] for op; arg parametrizes a shared function. */
typedef int (*InferFn)(Ctx *c, Op *op, Type **out, int arg);
typedef struct InferRule {
	const char *name;   /* "aten.relu" */
	InferFn fn;
	int arg;
} InferRule;
extern const InferRule infer_elementwise[], infer_shape[], infer_nn[];

/* Broadcast shape of two ranked types into dims; the rank, or -1. */
int tt_broadcast(const Type *a, const Type *b, int64_t *dims);

/* ---- building (build.c) ---- */

typedef struct B {
	Ctx *c;
	Op *at;          /* new ops go before this op */
	Loc *loc;
} B;

B b_at(Ctx *c, Op *op);
Value *b_int(B *b, int64_t v);
Value *b_float(B *b, double v);
Value *b_bool(B *b, int v);
Value *b_none(B *b);
Value *b_str(B *b, const char *s);                /* torch.constant.str */
Value *b_ints(B *b, int n, const int64_t *v);     /* list of constant ints */
Value *b_list(B *b, int n, Value *const *v);      /* list of values */
/* An aten op ("aten.mm"), its result types inferred; dies when it cannot
 * infer them (a bug in a decomposition). */
Op *b_opn(B *b, const char *name, int n, Value *const *v);
Value *b_op(B *b, const char *name, int n, Value *const *v);
/* Convenience wrappers. */
Value *b_op1(B *b, const char *name, Value *x);
Value *b_op2(B *b, const char *name, Value *x, Value *y);
Value *b_op3(B *b, const char *name, Value *x, Value *y, Value *z);
/* A vtensor literal holding data of type (static shape, dtype): a dense
 * attribute when small or a splat, else a new resource named name (NULL:
 * "torch_folded"). */
Value *b_literal(B *b, Type *vt, const void *data, size_t nbytes);
Value *b_literal_named(B *b, Type *vt, const void *data, size_t nbytes,
	const char *name);
/* The same, taking data (malloc'd) instead of copying it. */
/* A literal in a resource whose nbytes fill(arg, dst) computes when they
 * are printed or read (resource_lazy), from src's data if src (counted
 * among its readers, so the printer gives it back after). */
Value *b_literal_lazy(B *b, Type *vt, size_t nbytes, const char *name,
	void (*fill)(void *arg, uint8_t *dst), void *arg, Resource *src);
Value *b_literal_take(B *b, Type *vt, void *data, size_t nbytes,
	const char *name);

/* ---- literals (literal.c) ---- */

/* The elements of the vtensor literal behind v as doubles (malloc'd, n of
 * them), or NULL when v is not a literal of a static type. */
double *lit_load(Value *v, int64_t *n);
/* A literal of vt (static, a float, int or bool dtype) from n doubles. */
Value *lit_make(B *b, Type *vt, const double *vals, int64_t n, const char *name);
int lit_load_ok(Value *v);      /* would lit_load succeed? */
/* The packed f32 bytes of the literal behind v (n elements), or NULL
 * when it is not a non-splat f32 literal. */
const uint8_t *lit_f32(Value *v, int64_t *n);
/* The resource name behind a literal, or NULL. */
const char *lit_name(Value *v);

/* Replaces op's results by vals and erases op, keeping refined types:
 * when a new value's type differs from the old one, a
 * torch.tensor_static_info_cast bridges them. */
void torch_replace(Ctx *c, Op *op, Value *const *vals);

/* Applies rewrite to every op of fn's body in order (rewrite may replace
 * the op it is given); returns 1 if any call returned nonzero. */
int torch_rewrite_each(Ctx *c, Op *fn, int (*rewrite)(Ctx *c, Op *op));

/* Refines the types of op's results from torch_infer; 1 if changed, -1
 * on a conflict (reported). */
int torch_refine_op(Ctx *c, Op *op);
/* Updates the enclosing function's result types from its return op. */
void torch_sync_func_type(Ctx *c, Op *ret);

/* Two size lists of n entries are equal; n may be 0 with NULL lists (a
 * 0-d type has no dims array, and memcmp of NULL is undefined even for
 * 0 bytes). */
static inline int
dims_eq(const int64_t *a, const int64_t *b, int n)
{
	return n <= 0 || !memcmp(a, b, n * sizeof *a);
}

#endif
