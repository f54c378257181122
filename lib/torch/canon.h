/* canon.h - torch canonicalization patterns for canonicalize
 * (lib/pass_canonicalize.c calls torch_canon_pattern when no fold hook
 * applies).  A pattern may replace its op by constants, existing values
 * or new ops; it returns 1 when it changed the IR. */
#ifndef FX_TORCH_CANON_H
#define FX_TORCH_CANON_H

#include "torch.h"

typedef int (*CanonFn)(Ctx *c, Op *op);
typedef struct CanonRule {
	const char *op;      /* full name, "torch.aten.len.t" */
	CanonFn fn;
} CanonRule;

/* One table per family, NULL-ended. */
extern const CanonRule canon_scalar_rules[];  /* canon_scalar.c */
extern const CanonRule canon_list_rules[];    /* canon_list.c */
extern const CanonRule canon_tensor_rules[];  /* canon_tensor.c */
extern const CanonRule canon_create_rules[];  /* canon_create.c */
extern const CanonRule canon_gather_rules[];  /* canon_create.c */
extern const CanonRule canon_misc_rules[];    /* canon_create.c */
extern const CanonRule canon_cast_rules[];    /* canon_cast.c */
extern const CanonRule canon_ctrl_rules[];    /* canon_ctrl.c */
extern const CanonRule canon_nn_rules[];      /* canon_nn.c */
extern const CanonRule canon_lit_rules[];     /* canon_lit.c */
extern const CanonRule canon_fill_rules[];    /* canon_fill.c */

/* Replace op's single result by a constant a (its type the result's). */
int canon_const(Ctx *c, Op *op, Attr *a);
int canon_int(Ctx *c, Op *op, int64_t v);
int canon_bool(Ctx *c, Op *op, int v);
int canon_float(Ctx *c, Op *op, double v);
/* Replace op's single result by v when v has the very type. */
int canon_value(Op *op, Value *v);
/* The torch.prim.ListConstruct behind list when nothing may mutate the
 * list (every user only reads it), or NULL. */
Op *canon_list(Value *list);

/* v as a value of type want: itself, a tensor_static_info_cast between
 * compatible tensor types, a derefine into an optional; NULL otherwise. */
Value *canon_adapt(Ctx *c, Op *before, Value *v, Type *want);
/* Replace op's results by vals, adapted to the results' types; 0 (and
 * nothing changed) when some cannot be. */
int canon_replace(Ctx *c, Op *op, Value *const *vals);
/* One bound of slice.Tensor (v: a constant int or None, then dflt) as
 * PyTorch clamps it into [0, n]; 0 when v is neither (canon_create.c). */
int canon_slice_bound(Value *v, int64_t n, int64_t dflt, int64_t *out);
/* A new torch.prim.ListConstruct of type t before before. */
Value *canon_new_list(Ctx *c, Op *before, Type *t, int n, Value *const *elts);

/* A new op name(v...) of one result of type t, before before. */
Value *canon_op(Ctx *c, Op *before, const char *name, int n, Value *const *v, Type *t);

/* ---- constant tensors (canon_tensor.c) ---- */

#include "fold.h"

/* One constant operand: a dense vtensor literal (a, of static type t),
 * or a scalar (also behind prim.NumToTensor.Scalar). */
typedef struct Src {
	Attr *a;
	Type *t;
	int isf;            /* scalar: a float */
	int64_t i;
	double f;
} Src;

int ct_src(Value *v, Src *s);
/* s is quantized data: a literal of more than 16 8-bit integers (not a
 * splat), whose conversions and arithmetic to other dtypes are not
 * folded: a dequantized weight stays its integers and their scale, a
 * quarter of the floats' bytes, and codegen may compute on the integers
 * (its int8 GEMMs) */
int ct_quantized(const Src *s, const Type *to);
Num ct_at(const Src *s, int64_t k);         /* element k, s's dtype */
double ct_f(Num n);
int64_t ct_wrap(const Type *d, int64_t v);  /* an int as dtype d holds it */
int ct_fits(const Type *d, int64_t v);
int ct_exact(Num n, const Type *d);         /* n exact in float dtype d */
int ct_float_dt(const Type *d);             /* f32 or f64 */
void ct_put(uint8_t *p, const Type *d, Num v);
/* A vtensor literal of vt from data (malloc'd, taken) before before. */
Value *ct_literal(Ctx *c, Op *before, Type *vt, uint8_t *data, size_t nb);

#endif
