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

int verify_torch_op(Op *op);          /* torch.aten.*: operands vs schema */

#endif
