/*
 * verify_scaled_mm.c - aten._scaled_mm's statically checkable metadata,
 * as PyTorch checks it at run time (aten/src/ATen/native/cuda/ScaledBlas):
 * fp8/fp4 operands of rank 2 with contracting sizes that match and divide
 * by 16, a bf16/f16 bias, one f32 scale_result, and scales that fit one of
 * the scaling recipes (tensorwise, rowwise, blockwise).  torch-mlir checks
 * the same in its verifier; the messages contain its wording, which its
 * tests expect.  Nothing here runs unless every size it needs is static.
 */
#include <string.h>

#include "torch/torch.h"
#include "verify.h"

/* The opaque dtype named s. */
static int
dtype_is(const Type *t, const char *s)
{
	return t && t->kind == TY_OPAQUE && !strcmp(t->text, s);
}

/* What the matrices may hold. */
static int
data_dtype(const Type *t)
{
	return dtype_is(t, "f4E2M1FN") || dtype_is(t, "f8E4M3FN")
	    || dtype_is(t, "f8E4M3FNUZ") || dtype_is(t, "f8E5M2")
	    || dtype_is(t, "f8E5M2FNUZ");
}

/* Blockwise scales: e8m0 (MX formats) or e4m3 (NVFP4). */
static int
block_scale_dtype(const Type *t)
{
	return dtype_is(t, "f8E8M0FNU") || dtype_is(t, "f8E4M3FN");
}

static int
is_f32(const Type *t)
{
	return t && t->kind == TY_F32;
}

/* The element count of a ranked tensor type, -1 when a size is unknown. */
static int64_t
numel(const Type *t)
{
	int64_t n = 1;
	int i;

	if (tt_rank(t) < 0)
		return -1;
	for (i = 0; i < t->rank; i++) {
		if (t->dims[i] == DYN)
			return -1;
		n *= t->dims[i];
	}
	return n;
}

static int64_t
ceil_div(int64_t a, int64_t b)
{
	return (a + b - 1) / b;
}

static int
fail(Op *op, const char *msg)
{
	op_error(op, "'%s' op %s", op->name, msg);
	return -1;
}

/* Data types and rank-2 shapes; 1 when the sizes are known to go on. */
static int
check_matrices(Op *op, const Type *a, const Type *b, int *known)
{
	Buf x = {0};
	char msg[160];
	int64_t k, bk, n;

	*known = 0;
	if (a->elem && !data_dtype(a->elem)) {
		op_error(op, "'%s' op expected self to have an FP8 or FP4 dtype, but got '%s'",
		    op->name, type_text(a->elem, &x));
		return buf_free(&x), -1;
	}
	if (b->elem && !data_dtype(b->elem)) {
		op_error(op, "'%s' op expected mat2 to have an FP8 or FP4 dtype, but got '%s'",
		    op->name, type_text(b->elem, &x));
		return buf_free(&x), -1;
	}
	if (tt_rank(a) < 0 || tt_rank(b) < 0)
		return 0;
	if (a->rank != 2 || b->rank != 2) {
		snprintf(msg, sizeof msg, "expected self and mat2 to be rank 2, but got ranks %d and %d",
		    a->rank, b->rank);
		return fail(op, msg);
	}
	k = a->dims[1], bk = b->dims[0], n = b->dims[1];
	msg[0] = 0;
	if (k != DYN && bk != DYN && k != bk)
		snprintf(msg, sizeof msg, "expected self and mat2 contracting dimensions to match, but got %lld and %lld",
		    (long long)k, (long long)bk);
	else if (k != DYN && k % 16)
		snprintf(msg, sizeof msg, "expected self contracting dimension to be divisible by 16, but got %lld", (long long)k);
	else if (bk != DYN && bk % 16)
		snprintf(msg, sizeof msg, "expected mat2 contracting dimension to be divisible by 16, but got %lld", (long long)bk);
	else if (n != DYN && n % 16)
		snprintf(msg, sizeof msg, "expected mat2 non-contracting dimension to be divisible by 16, but got %lld", (long long)n);
	if (msg[0])
		return fail(op, msg);
	*known = 1;
	return 0;
}

/* The bias: n elements of bf16 or f16, the result's dtype. */
static int
check_bias(Op *op, const Type *bias, int64_t n, const Type *res)
{
	Buf x = {0};
	char msg[160];
	int64_t bn = numel(bias);

	if (!tt_is(bias))
		return 0;
	if (bn >= 0 && n != DYN && bn != n) {
		snprintf(msg, sizeof msg, "expected bias to have %lld elements, but got %lld",
		    (long long)n, (long long)bn);
		return fail(op, msg);
	}
	if (!bias->elem)
		return 0;
	if (bias->elem->kind != TY_BF16 && bias->elem->kind != TY_F16) {
		op_error(op, "'%s' op expected bias to have bf16 or f16 dtype, but got '%s'",
		    op->name, type_text(bias->elem, &x));
		return buf_free(&x), -1;
	}
	if (res->elem && is_f32(res->elem))
		return fail(op, "expected bias to be absent for f32 result dtype");
	if (res->elem && (res->elem->kind == TY_BF16 || res->elem->kind == TY_F16)
	    && res->elem != bias->elem) {
		op_error(op, "'%s' op expected bias to have %s dtype for %s result dtype, but got '%s'",
		    op->name, res->elem->kind == TY_BF16 ? "bf16" : "f16",
		    res->elem->kind == TY_BF16 ? "bf16" : "f16", type_text(bias->elem, &x));
		return buf_free(&x), -1;
	}
	return 0;
}

/* The result scale: one f32. */
static int
check_scale_result(Op *op, const Type *s)
{
	Buf x = {0};
	char msg[96];
	int64_t n = numel(s);

	if (!tt_is(s))
		return 0;
	if (s->elem && !is_f32(s->elem)) {
		op_error(op, "'%s' op expected scale_result to have f32 dtype, but got '%s'",
		    op->name, type_text(s->elem, &x));
		return buf_free(&x), -1;
	}
	if (n >= 0 && n != 1) {
		snprintf(msg, sizeof msg, "expected scale_result to have 1 element, but got %lld", (long long)n);
		return fail(op, msg);
	}
	return 0;
}

/* Blockwise scales: one per block of 128 rows (columns) by 16 or 32
 * contracting elements (fp4 data and e4m3 scales count twice), the
 * blocks of K padded to a multiple of 4. */
static int64_t
block_numel(int64_t mn, int64_t k, const Type *data, const Type *scale)
{
	int64_t kk = dtype_is(data, "f4E2M1FN") || dtype_is(scale, "f8E4M3FN") ? 2 * k : k;
	int64_t kb = ceil_div(kk, dtype_is(scale, "f8E4M3FN") ? 16 : 32);

	return 128 * ceil_div(mn, 128) * ceil_div(kb, 4) * 4;
}

static int
shape_is(const Type *t, int64_t d0, int64_t d1)
{
	return t->rank == 2 && t->dims[0] == d0 && t->dims[1] == d1;
}

/* The recipes of f32 scales beyond tensorwise: rowwise, 1x128 by 128x128,
 * 1x128 by 1x128 (as K x N), 128x128 by 1x128. */
static int
f32_recipe(const Type *sa, const Type *sb, int64_t m, int64_t k, int64_t n)
{
	int64_t kb = ceil_div(k, 128), mb = ceil_div(m, 128), nb = ceil_div(n, 128);

	return (shape_is(sa, m, 1) && shape_is(sb, 1, n))
	    || (shape_is(sa, m, kb) && shape_is(sb, kb, nb))
	    || (shape_is(sa, m, kb) && shape_is(sb, kb, n))
	    || (shape_is(sa, mb, kb) && shape_is(sb, kb, n));
}

static int
check_scales(Op *op, const Type *a, const Type *b, const Type *sa, const Type *sb)
{
	int64_t m = a->dims[0], k = a->dims[1], n = b->dims[1];
	int64_t na = numel(sa), nb = numel(sb), ea, eb;
	char msg[200];

	if (!sa->elem || !sb->elem || na < 0 || nb < 0 || m == DYN || k == DYN
	    || n == DYN || b->dims[0] == DYN || !a->elem || !b->elem)
		return 0;
	if (na == 1 || nb == 1) {
		if (na != 1 || nb != 1)
			return fail(op, "expected scale_a and scale_b to both be scalar for tensorwise scaling");
		if (!is_f32(sa->elem) || !is_f32(sb->elem))
			return fail(op, "expected tensorwise scale_a and scale_b to have f32 dtype");
		return 0;
	}
	if (sa->elem == sb->elem && block_scale_dtype(sa->elem)) {
		ea = block_numel(m, k, a->elem, sa->elem);
		eb = block_numel(n, b->dims[0], b->elem, sb->elem);
		if (na == ea && nb == eb)
			return 0;
		snprintf(msg, sizeof msg, "invalid blockwise scaling configuration: expected scale_a to have %lld elements and scale_b to have %lld elements, but got %lld and %lld",
		    (long long)ea, (long long)eb, (long long)na, (long long)nb);
		return fail(op, msg);
	}
	if (!is_f32(sa->elem) || !is_f32(sb->elem))
		return fail(op, "expected non-tensorwise, non-blockwise scale_a and scale_b to have f32 dtype");
	if (sa->rank != 2 || sb->rank != 2) {
		snprintf(msg, sizeof msg, "expected non-tensorwise scale_a and scale_b to be rank 2, but got ranks %d and %d",
		    sa->rank, sb->rank);
		return fail(op, msg);
	}
	return f32_recipe(sa, sb, m, k, n) ? 0
	    : fail(op, "invalid scaling configuration for scale_a and scale_b");
}

/* torch.aten._scaled_mm: self, mat2, scale_a, scale_b, bias, scale_result,
 * out_dtype, use_fast_accum. */
int
verify_scaled_mm(Op *op)
{
	const Type *a = OPND(op, 0)->type, *b = OPND(op, 1)->type;
	const Type *sa = OPND(op, 2)->type, *sb = OPND(op, 3)->type;
	int known;

	if (verify_torch_op(op) || check_matrices(op, a, b, &known))
		return -1;
	if (!known)
		return 0;
	if (check_bias(op, OPND(op, 4)->type, b->dims[1], RES(op, 0)->type)
	    || check_scale_result(op, OPND(op, 5)->type))
		return -1;
	if (tt_rank(sa) < 0 || tt_rank(sb) < 0)
		return 0;
	return check_scales(op, a, b, sa, sb);
}
