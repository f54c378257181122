/* fold.h - folding helpers shared by canonicalize and the torch passes. */
#ifndef FX_FOLD_H
#define FX_FOLD_H

#include "ir.h"

/* A constant scalar: an int (i) or a float (f, isf set); lib/fold.c
 * reads an int or float attribute or a splat's element into one. */
typedef struct Num {
	int isf;
	int64_t i;
	double f;
} Num;

/* The constant attribute behind v (arith.constant, torch.constant.*,
 * torch.vtensor.literal), or NULL. */
Attr *value_const(Value *v);
/* Integer behind v: torch.constant.int / arith.constant; 1 if found. */
int value_int(Value *v, int64_t *out);

/* Torch canonicalization patterns (lib/torch/canon.c): rewrites op in
 * place or replaces it by new ops; 1 if the IR changed. */
int torch_canon_pattern(Ctx *c, Op *op);
/* 0: the torch-mlir forms the default pipeline does not want stay
 * (canonicalize{torch-mlir-forms=0}; lib/torch/canon_fill.c). */
extern int torch_canon_mlir_forms;

#endif
