/*
 * dispatch.h - what dispatch formation's two halves share: dispatch.c
 * plans (which ops are roots, which are fused where), kbuild.c builds
 * each kernel's IR.
 */
#ifndef CODEGEN_DISPATCH_H
#define CODEGEN_DISPATCH_H

#include "gen.h"
#include "named_ops.h"

/* structured ops seen as generics (lib/named_ops.h) */
typedef LinalgView SOp;

/* dispatch.c */
int all_parallel(const SOp *s);
int is_perm(const AffMap *m);     /* every result a distinct dim, all dims */
int is_same_index_view(const Op *op);
int is_view_op(const Op *op);     /* a reshape or a same-index cast */
Op *single_user(Value *v);

/* kbuild.c: the kernel of a root (with its epilogue chain), or of a
 * materialized value computed over its own shape; pushed to fp.  0, or
 * -1 after an error at the op. */
int build_root(Gen *g, Op *op, FnPlan *fp);
int build_value(Gen *g, Value *v, Op *op, FnPlan *fp);
/* fn's last argument where it is a dynamic length (a tensor<1xi64>:
 * seqpad.c's padded functions), else NULL */
Value *length_arg(Op *fn);
/* The scalar an insert_slice pads its source with, when its value can
 * be the host's fill and a kernel storing the source inside (over the
 * source's own shape, no condition per element): static offsets, unit
 * strides, every dim kept, into a tensor every element of which is that
 * scalar (a fill of a constant, a splat, an empty tensor: 0) and which
 * is not a buffer.  NULL otherwise. */
Attr *pad_value(Gen *g, Op *op);
/* wino.c: 3x3 convolutions by Winograd's F(2x2, 3x3), rewritten in fn
 * before its values are planned (wino_kind: gen.h); the fix inside its
 * output transform's body */
void wino_rewrite(Gen *g, Op *fn);
int wino_is_fix(const Op *op);
/* the value whose buffer a fix reads the convolution's input from: the
 * input, or the source of the pad it is (*pad, else NULL) */
Value *wino_fix_input(Gen *g, Op *fix, Op **pad);
/* the buffers a fix reads, that one and the weight (plan_values) */
void wino_fix_buffers(Gen *g, Op *fix);
int aff_uses_dim(const AffExpr *a, int d);
int map_uses_dim(const AffMap *m, int d);


#endif
