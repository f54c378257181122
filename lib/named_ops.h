/*
 * named_ops.h - linalg's structured ops seen as linalg.generic: their
 * loops, indexing maps, iterator kinds and what the body computes.  A
 * named op (matmul, convolution, pooling, copy...) carries no region; its
 * name is its body, and this is what the name means.
 */
#ifndef FX_NAMED_OPS_H
#define FX_NAMED_OPS_H

#include "ir.h"

/* BODY_REGION: the op's own region (linalg.generic); else the named
 * op's body over input a (and b), out the output's element:
 * MAC out + a * b, MAX max(out, a), SUM out + a, COPY a; the inputs
 * converted to the output's element type first. */
typedef enum BodyKind { BODY_REGION, BODY_MAC, BODY_MAX, BODY_SUM, BODY_COPY } BodyKind;

typedef struct LinalgView {
	Op *op;
	int nloops, nin, nout;
	AffMap **maps;        /* per operand: loop dims -> its index */
	char *red;            /* per loop: 1 reduction, 0 parallel */
	int64_t *ext;         /* per loop: its extent */
	BodyKind body;
} LinalgView;

/* The generic view of structured op `op` of static shapes, in c's arena;
 * 0, or -1 after op_error (an unsupported op, a malformed one, dynamic
 * shapes, an extent no operand gives). */
int linalg_view(Ctx *c, Op *op, LinalgView *s);
/* linalg_view without the extents (s->ext NULL), for any shapes. */
int linalg_maps(Ctx *c, Op *op, LinalgView *s);
/* Whether linalg_view knows op (no error printed either way). */
int linalg_viewable(Op *op);
/* Element i of a convolution's or pool's strides or dilations
 * attribute (dense or array); 1 when absent. */
int64_t linalg_window_attr(Op *op, const char *name, int i);

#endif
