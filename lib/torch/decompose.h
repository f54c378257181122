/* decompose.h - the decomposition tables of torch-decompose. */
#ifndef FX_TORCH_DECOMPOSE_H
#define FX_TORCH_DECOMPOSE_H

#include "optable.h"
#include "torch.h"

/* Rewrites op (at b) into simpler ops and replaces it; 1 if it did, 0
 * when the op's operands do not allow it (left for the verifier). */
typedef int (*DecompFn)(B *b, Op *op);
typedef struct Decomp {
	const char *name;    /* "aten.linear" */
	DecompFn fn;
} Decomp;

extern const Decomp decomp_linalg[], decomp_nn[], decomp_misc[];
extern const Decomp decomp_lin[];   /* decompose_lin.c */
extern const Decomp decomp_idx[];   /* decompose_idx.c */
/* index_put with one bool mask and a value per selected element */
int d_index_put_bool(B *b, Op *op);
extern const Decomp decomp_ew[];   /* decompose_ew.c */
extern const Decomp decomp_nnx[];   /* losses, training norms, conv variants (decompose_nnx.c) */
int d_batch_norm_train(B *b, Op *op);   /* native_batch_norm, training (decompose_nnx.c) */
extern const Decomp decomp_cplx[];   /* decompose_cplx.c: norm */
extern const Decomp decomp_pool[];    /* decompose_pool.c */
/* backward activations, softmax backward, prims (decompose_bwd.c) */
extern const Decomp decomp_bwd[];
/* torch-mlir's decompositions the others lacked (decompose_lit.c); those
 * of contract ops, decomp_lit_contract, run only without keep-contract */
extern const Decomp decomp_lit[], decomp_lit_contract[];
/* a torch.constant.int of value v before op in its block, or a new one */
Value *d_int_before(B *b, Op *op, int64_t v);
/* torch-decompose-complex-ops' own rules, read before all others
 * (decompose_lit2.c) */
extern const Decomp decomp_lit2[];

/* Resizing and adaptive pools (decompose_resize.c), rows in decomp_nn. */
int d_upsample(B *b, Op *op);
int d_adaptive_avg_alias(B *b, Op *op);
int d_adaptive_pool1d(B *b, Op *op);
int d_adaptive_pool3d(B *b, Op *op);
int d_adaptive_max_pool3d_indices(B *b, Op *op);   /* decompose_pool.c */

/* Shared helpers (decompose_misc.c). */
Value *d_dim(B *b, Value *x, int i);           /* size i, constant if static */
Value *d_shape(B *b, Value *x);                /* its size list */
Value *d_view(B *b, Value *x, int n, const int64_t *dims);  /* DYN: size.int */
void d_done(B *b, Op *op, Value *v);           /* replaces op's result 0 */
int d_unused_from(Op *op, int i);              /* results i.. are unused */
/* A view of a per-channel [C] tensor as [1, C, 1, ...] for rank r. */
Value *d_along(B *b, Value *v, int axis, int r);
Value *d_channel(B *b, Value *v, int r);
Value *d_to(B *b, Value *x, Type *dt);          /* aten.to.dtype unless x has dt */
Value *d_int_scale(B *b, Value *v);   /* an int scale as PyTorch truncates it, or NULL */
Value *d_add(B *b, Value *x, Value *y);        /* add.Tensor, alpha 1 */
Value *d_sub(B *b, Value *x, Value *y);
Value *d_mul(B *b, Value *x, Value *y);
Value *d_div(B *b, Value *x, Value *y);
Value *d_transpose(B *b, Value *x, int64_t d0, int64_t d1);
/* Could a user of list v change its elements (a list op that does, or an
 * op we do not know)? */
int d_list_mutable(Value *v);
/* decompose_strided.c */
int d_as_strided(B *b, Op *op);
int d_as_strided_scatter(B *b, Op *op);

/* sort, argsort, msort, topk, kthvalue as ranks (decompose_sort.c). */
int d_sort(B *b, Op *op);
int d_sort_stable(B *b, Op *op);
int d_argsort(B *b, Op *op);
int d_argsort_stable(B *b, Op *op);
int d_msort(B *b, Op *op);
int d_topk(B *b, Op *op);
int d_kthvalue(B *b, Op *op);

/* random ops by Philox4x32-10 (decompose_rng.c), rows in decomp_bwd. */
int d_rand(B *b, Op *op);
int d_randn(B *b, Op *op);
int d_uniform(B *b, Op *op);
int d_normal_functional(B *b, Op *op);
int d_exponential(B *b, Op *op);
int d_bernoulli(B *b, Op *op);
int d_randint(B *b, Op *op);
int d_native_dropout(B *b, Op *op);
int d_multinomial(B *b, Op *op);
/* rrelu[_with_noise] in training, slopes from operand k (decompose_ew.c) */
int d_rrelu_train(B *b, Op *op, int k, double lo, double hi);

#endif
