/* infer.h - helpers shared by the inference rules (infer*.c). */
#ifndef FX_TORCH_INFER_H
#define FX_TORCH_INFER_H

#include "optable.h"
#include "torch.h"

#define NOPND(op, i) ((i) < (op)->nopnds ? OPND(op, i) : NULL)
#define TY(op, i) ((i) < (op)->nopnds ? OPND(op, i)->type : NULL)

/* out[i] = a tensor type of result i's kind; always returns 1. */
int out_set(Ctx *c, Op *op, Type **out, int i, int rank, const int64_t *dims,
	Type *dtype);
/* out[i] with the shape of t (ranked or not) and dtype d. */
int out_like(Ctx *c, Op *op, Type **out, int i, const Type *t, Type *dtype);
/* The dtype an optional `ScalarType? dtype` operand names: d when it is
 * none; NULL (unknown) when it is not a constant. */
Type *opt_dtype(Ctx *c, Value *v, Type *d);
/* Reduces dims of t (ranked) over the dims in mask; keepdim keeps 1s. */
int reduce_dims(const Type *t, const int *mask, int keep, int64_t *dims);
/* The dims a `int[1]? dim` operand names, as a mask over rank; -1 when
 * not constant.  None or an empty list: every dim. */
int dim_mask(Value *v, int rank, int *mask);

/* torch.prim.ListUnpack of split, chunk, unbind (infer_shape.c). */
int infer_list_unpack(Ctx *c, Op *op, Type **out);

#endif
