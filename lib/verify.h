/* verify.h - per-op verify hooks, attached to the op table by name. */
#ifndef FX_VERIFY_H
#define FX_VERIFY_H

#include "ir.h"

typedef struct OpHook {
	const char *op;      /* op name, or a prefix ending in '*' */
	void *fn;            /* VerifyFn or FoldFn */
} OpHook;

extern const OpHook verify_hooks[];   /* verify_ops.c, NULL-ended */
extern const OpHook fold_hooks[];     /* fold.c, NULL-ended */
extern const OpHook torch_fold_hooks[]; /* torch/fold.c, NULL-ended */

/* An attribute an op cannot be without, as ODS declares required
 * attributes.  Custom forms print these without their names, so an op
 * read from the generic form without one, or with one of another kind,
 * would print as something that does not read back or means another
 * thing (a cmpf without a predicate as `false`).  One table, read by one
 * check (verify_needs); an op's rows are consecutive. */
typedef struct AttrNeed {
	const char *op, *attr;
	int kind;            /* an AttrKind, or -1: any */
	int n;               /* DENSE_ARRAY: its length; SYMREF: 0 = flat; -1 */
	const char *what;    /* for the message: "a flat symbol reference" */
} AttrNeed;

extern const AttrNeed attr_needs[];   /* verify_ops.c, NULL-ended */
int verify_needs(Op *op);             /* op->info->needs' rows */

int verify_torch_op(Op *op);          /* torch.aten.*: operands vs schema */

/* verify_torch.c */
const char *type_text(const Type *t, Buf *b);   /* t printed into b, for messages */
int torch_subtype(const Type *t, const Type *super);   /* t's values are super's */
int torch_shapes_compatible(const Type *a, const Type *b);  /* dtype, dims equal or unknown */
int torch_tensor_refines(const Type *t, const Type *super);  /* t says all super says */
int verify_derefine(Op *op);
int verify_unchecked_cast(Op *op);
int verify_static_info_cast(Op *op);
int verify_torch_c_tensor(Op *op);
int verify_list_construct(Op *op);
int verify_overwrite(Op *op);
int verify_literal(Op *op);
int verify_permute(Op *op);
int verify_type_bounds(Op *func, const Type *ft);   /* from verify_func */
int verify_prim_if(Op *op);
int verify_prim_loop(Op *op);
int verify_calculate(Op *op);

/* verify_scaled_mm.c */
int verify_scaled_mm(Op *op);
int verify_scaled_mm_v2(Op *op);

/* verify_concat.c */
int verify_concat(Op *op);

/* verify_torch_module.c */
int verify_class_type(Op *op);
int verify_method(Op *op);
int verify_nn_module(Op *op);
int verify_module_initializer(Op *op);
int verify_bind_symbolic_shape(Op *op);

#endif
