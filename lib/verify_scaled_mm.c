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

/* fp8 or fp4 matrices, where their dtypes are known. */
static int
check_data_dtypes(Op *op, const Type *a, const Type *b)
{
	Buf x = {0};

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
	return 0;
}

static int
check_ranks(Op *op, const Type *a, const Type *b)
{
	char msg[96];

	if (a->rank == 2 && b->rank == 2)
		return 0;
	snprintf(msg, sizeof msg, "expected self and mat2 to be rank 2, but got ranks %d and %d",
	    a->rank, b->rank);
	return fail(op, msg);
}

/* Contracting sizes k (self) and bk (mat2) that match (unless what is
 * NULL; it names the pair in the message) and, with n, divide by 16. */
static int
check_k(Op *op, int64_t k, int64_t bk, int64_t n, const char *what)
{
	char msg[160];

	msg[0] = 0;
	if (what && k != DYN && bk != DYN && k != bk)
		snprintf(msg, sizeof msg, "expected self and mat2 %s to match, but got %lld and %lld",
		    what, (long long)k, (long long)bk);
	else if (k != DYN && k % 16)
		snprintf(msg, sizeof msg, "expected self contracting dimension to be divisible by 16, but got %lld", (long long)k);
	else if (bk != DYN && bk % 16)
		snprintf(msg, sizeof msg, "expected mat2 contracting dimension to be divisible by 16, but got %lld", (long long)bk);
	else if (n != DYN && n % 16)
		snprintf(msg, sizeof msg, "expected mat2 non-contracting dimension to be divisible by 16, but got %lld", (long long)n);
	return msg[0] ? fail(op, msg) : 0;
}

/* Data types and rank-2 shapes; 1 in *known when the sizes are there to
 * go on with. */
static int
check_matrices(Op *op, const Type *a, const Type *b, int *known)
{
	*known = 0;
	if (check_data_dtypes(op, a, b))
		return -1;
	if (tt_rank(a) < 0 || tt_rank(b) < 0)
		return 0;
	if (check_ranks(op, a, b) || check_k(op, a->dims[1], b->dims[0], b->dims[1],
	    "contracting dimensions"))
		return -1;
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

/* ---- aten._scaled_mm_v2: lists of scales, each with a recipe (PyTorch's
 * ScalingType) and a swizzle, and an optional contraction_dim pair ---- */

enum { TENSORWISE, ROWWISE, BLOCK_1x16, BLOCK_1x32, BLOCK_1x128, BLOCK_128x128 };
enum { SWIZZLE_32_4_4 = 1 };

/* The recipe pairs PyTorch accepts. */
typedef enum Mode {
	M_UNKNOWN, M_TENSOR, M_ROW, M_NV, M_NV2, M_MX, M_B1_1, M_B1_128, M_B128_1,
} Mode;

typedef struct List {
	int n;                 /* -1: not a ListConstruct, so not checked */
	const Type *t[3];      /* scale lists: the first types */
	int64_t v[3];          /* int lists: the first values */
} List;

static const char nonempty[] = "expected scale_a, recipe_a, scale_b and recipe_b lists to be non-empty";

/* A list operand as a List; what names it in messages. */
static int
read_list(Op *op, Value *l, const char *what, int tensors, const char *empty, List *out)
{
	char msg[96];
	int i, n;

	out->n = -1;
	if (!l->def || !op_is(l->def, "torch.prim.ListConstruct"))
		return 0;
	n = l->def->nopnds;
	for (i = 0; i < n; i++) {
		Value *e = OPND(l->def, i);
		int ok = tensors ? tt_is(e->type) : tv_int(e, &out->v[i < 3 ? i : 2]);

		if (!ok) {
			snprintf(msg, sizeof msg, "expected %s to be a statically constructed %s list",
			    what, tensors ? "tensor" : "int");
			return fail(op, msg);
		}
		if (tensors && i < 3)
			out->t[i] = e->type;
	}
	if (!n)
		return fail(op, empty);
	out->n = n;
	return 0;
}

/* Recipe pair to mode; M_UNKNOWN where a list is not known. */
static int
classify(Op *op, const List *ra, const List *rb, Mode *mode)
{
	static const struct { int a, b; Mode m; } pairs[] = {
		{TENSORWISE, TENSORWISE, M_TENSOR}, {ROWWISE, ROWWISE, M_ROW},
		{BLOCK_1x16, BLOCK_1x16, M_NV}, {BLOCK_1x32, BLOCK_1x32, M_MX},
		{BLOCK_1x128, BLOCK_1x128, M_B1_1}, {BLOCK_1x128, BLOCK_128x128, M_B1_128},
		{BLOCK_128x128, BLOCK_1x128, M_B128_1},
	};
	size_t i;

	*mode = M_UNKNOWN;
	if (ra->n < 0 || rb->n < 0)
		return 0;
	if (ra->n == 2 && rb->n == 2 && ra->v[0] == BLOCK_1x16 && rb->v[0] == BLOCK_1x16
	    && ra->v[1] == TENSORWISE && rb->v[1] == TENSORWISE) {
		*mode = M_NV2;
		return 0;
	}
	for (i = 0; ra->n == 1 && rb->n == 1 && i < sizeof pairs / sizeof *pairs; i++)
		if (ra->v[0] == pairs[i].a && rb->v[0] == pairs[i].b) {
			*mode = pairs[i].m;
			return 0;
		}
	return fail(op, "invalid scaling configuration for recipe_a and recipe_b");
}

static int
lengths(Op *op, const List *sa, const List *ra, const List *sb, const List *rb)
{
	if (sa->n > 2 || sb->n > 2 || ra->n > 2 || rb->n > 2)
		return fail(op, "expected scale_a, recipe_a, scale_b and recipe_b lists to have at most two elements");
	if (sa->n > 0 && ra->n > 0 && sa->n != ra->n)
		return fail(op, "expected scale_a and recipe_a lists to have the same length");
	if (sb->n > 0 && rb->n > 0 && sb->n != rb->n)
		return fail(op, "expected scale_b and recipe_b lists to have the same length");
	return 0;
}

/* Both dtypes known and satisfying ok. */
static int
both(const Type *a, const Type *b, int (*ok)(const Type *))
{
	return !a->elem || !b->elem || (ok(a->elem) && ok(b->elem));
}

static int is_e4m3(const Type *t) { return dtype_is(t, "f8E4M3FN"); }
static int is_e8m0(const Type *t) { return dtype_is(t, "f8E8M0FNU"); }

/* The first scales' dtypes (and a tensorwise pair's sizes) per mode. */
static int
scale_dtypes(Op *op, Mode mode, const List *sa, const List *sb)
{
	const Type *a, *b;
	int64_t na, nb;
	char msg[128];

	if (mode == M_UNKNOWN || sa->n < 1 || sb->n < 1)
		return 0;
	a = sa->t[0], b = sb->t[0], na = numel(a), nb = numel(b);
	if (mode == M_TENSOR && !both(a, b, is_f32))
		return fail(op, "expected tensorwise scale_a and scale_b to have f32 dtype");
	if (mode == M_TENSOR && na >= 0 && nb >= 0 && (na != 1 || nb != 1))
		return fail(op, "expected scale_a and scale_b to both be scalar for tensorwise scaling");
	if (mode == M_ROW && !both(a, b, is_f32))
		return fail(op, "expected rowwise scale_a and scale_b to have f32 dtype");
	if ((mode == M_NV || mode == M_NV2) && !both(a, b, is_e4m3))
		return fail(op, "expected NV blockwise scale_a and scale_b to have f8E4M3FN dtype");
	if (mode == M_NV2 && !both(sa->t[1], sb->t[1], is_f32))
		return fail(op, "expected two-level NV tensorwise scale_a and scale_b to have f32 dtype");
	if (mode == M_NV2 && numel(sa->t[1]) >= 0 && numel(sb->t[1]) >= 0
	    && (numel(sa->t[1]) != 1 || numel(sb->t[1]) != 1))
		return fail(op, "expected two-level NV tensorwise scale_a and scale_b to both be scalar");
	if (mode >= M_B1_1 && !both(a, b, is_f32))
		return fail(op, "expected f32 blockwise scale_a and scale_b to have f32 dtype");
	if (mode >= M_B1_1 && tt_rank(a) >= 0 && tt_rank(b) >= 0 && (a->rank != 2 || b->rank != 2)) {
		snprintf(msg, sizeof msg, "expected f32 blockwise scale_a and scale_b to be rank 2, but got ranks %d and %d",
		    a->rank, b->rank);
		return fail(op, msg);
	}
	if (mode == M_MX && !both(a, b, is_e8m0))
		return fail(op, "expected MX blockwise scale_a and scale_b to have f8E8M0FNU dtype");
	return 0;
}

/* NV and MX blockwise scales come swizzled 32x4x4. */
static int
swizzles(Op *op, Mode mode, const List *wa, const List *wb)
{
	if ((mode != M_NV && mode != M_NV2 && mode != M_MX) || wa->n < 1 || wb->n < 1)
		return 0;
	if (wa->v[0] != SWIZZLE_32_4_4 || wb->v[0] != SWIZZLE_32_4_4)
		return fail(op, "expected blockwise swizzle_a and swizzle_b to be SWIZZLE_32_4_4");
	return 0;
}

/* The matrices' sizes: m, n, and k as the scales count it (fp4 against
 * fp4 packs two values an element); -1 in *m when not all known. */
static int
matrices_v2(Op *op, const Type *a, const Type *b, Value *cdim, int64_t *m, int64_t *k, int64_t *n)
{
	int64_t cd[3], ak, bk, f;
	int nc = -1;
	char msg[128];

	*m = -1;
	if (cdim->def && op_is(cdim->def, "torch.prim.ListConstruct")) {
		if ((nc = tv_ints(cdim, cd, 3)) < 0)
			return fail(op, "expected contraction_dim to be a statically constructed int list");
		if (nc && nc != 2)
			return fail(op, "contraction_dim must have exactly 2 elements");
	}
	if (tt_rank(a) < 0 || tt_rank(b) < 0)
		return 0;
	if (check_ranks(op, a, b))
		return -1;
	if (nc == 2) {
		int64_t da = cd[0] < 0 ? cd[0] + 2 : cd[0], db = cd[1] < 0 ? cd[1] + 2 : cd[1];

		if (da < 0 || da > 1 || db < 0 || db > 1) {
			snprintf(msg, sizeof msg, "expected contraction_dim values to be valid rank-2 dimensions, but got %lld and %lld",
			    (long long)cd[0], (long long)cd[1]);
			return fail(op, msg);
		}
		if (a->dims[da] != DYN && b->dims[db] != DYN && a->dims[da] != b->dims[db]) {
			snprintf(msg, sizeof msg, "expected self and mat2 contraction_dim-selected dimensions to match, but got %lld and %lld",
			    (long long)a->dims[da], (long long)b->dims[db]);
			return fail(op, msg);
		}
	}
	f = dtype_is(a->elem, "f4E2M1FN") && dtype_is(b->elem, "f4E2M1FN") ? 2 : 1;
	ak = a->dims[1] == DYN ? DYN : f * a->dims[1];
	bk = b->dims[0] == DYN ? DYN : f * b->dims[0];
	if (check_k(op, ak, bk, b->dims[1], nc == 0 ? "contracting dimensions" : NULL))
		return -1;
	if (ak != DYN && bk != DYN && a->dims[0] != DYN && b->dims[1] != DYN)
		*m = a->dims[0], *k = ak, *n = b->dims[1];
	return 0;
}

static int
numel_error(Op *op, const char *what, int64_t ea, int64_t eb, int64_t na, int64_t nb)
{
	char msg[200];

	snprintf(msg, sizeof msg, "invalid %sscaling configuration: expected scale_a to have %lld elements and scale_b to have %lld elements, but got %lld and %lld",
	    what, (long long)ea, (long long)eb, (long long)na, (long long)nb);
	return fail(op, msg);
}

/* The 1x128 and 128x128 f32 recipes' scale shapes; K by 128s. */
static int
f32_block_shapes(Op *op, Mode mode, const Type *sa, const Type *sb, int64_t m, int64_t k, int64_t n)
{
	int64_t kb = k / 128, pkb = ceil_div(kb, 4) * 4;
	int64_t want[3][4] = {
		{m, kb, n, kb}, {m, kb, pkb, n / 128}, {pkb, m / 128, n, kb},
	};
	static const char *const names[] = { "1x128 x 1x128", "1x128 x 128x128", "128x128 x 1x128" };
	const int64_t *w = want[mode - M_B1_1];
	char msg[200];

	if (k % 128)
		return fail(op, "expected contracting dimension to be divisible by 128 for 1x128/128x128 blockwise scaling");
	if (shape_is(sa, w[0], w[1]) && shape_is(sb, w[2], w[3]))
		return 0;
	snprintf(msg, sizeof msg, "invalid %s blockwise scaling configuration: expected scale_a shape [%lld, %lld] and scale_b shape [%lld, %lld]",
	    names[mode - M_B1_1], (long long)w[0], (long long)w[1], (long long)w[2], (long long)w[3]);
	return fail(op, msg);
}

/* The first scales' element counts per mode, all sizes known: k is the
 * logical K, sk the stored one (MX counts blocks of the stored K). */
static int
scale_counts(Op *op, Mode mode, const Type *sa, const Type *sb, int64_t m, int64_t k, int64_t sk, int64_t n)
{
	int64_t na = numel(sa), nb = numel(sb), kb;

	if (mode == M_UNKNOWN || mode == M_TENSOR || na < 0 || nb < 0)
		return 0;
	if (mode == M_ROW)
		return sa->rank >= 1 && sa->dims[0] == m && na == m && nb == n ? 0
		    : numel_error(op, "rowwise ", m, n, na, nb);
	if (mode >= M_B1_1)
		return f32_block_shapes(op, mode, sa, sb, m, k, n);
	kb = ceil_div(ceil_div(mode == M_MX ? sk : k, mode == M_MX ? 32 : 16), 4) * 4;
	if (na == 128 * ceil_div(m, 128) * kb && nb == 128 * ceil_div(n, 128) * kb)
		return 0;
	return numel_error(op, mode == M_MX ? "blockwise " : "NV blockwise ",
	    128 * ceil_div(m, 128) * kb, 128 * ceil_div(n, 128) * kb, na, nb);
}

/* torch.aten._scaled_mm_v2: self, mat2, scale_a, recipe_a, swizzle_a,
 * scale_b, recipe_b, swizzle_b, bias, out_dtype, contraction_dim,
 * use_fast_accum. */
int
verify_scaled_mm_v2(Op *op)
{
	static const char noswz[] = "expected swizzle_a and swizzle_b lists to be non-empty";
	const Type *a = OPND(op, 0)->type, *b = OPND(op, 1)->type;
	List sa, ra, wa, sb, rb, wb;
	Mode mode;
	int64_t m, k, n;

	if (verify_torch_op(op) || check_data_dtypes(op, a, b)
	    || read_list(op, OPND(op, 2), "scale_a", 1, nonempty, &sa)
	    || read_list(op, OPND(op, 5), "scale_b", 1, nonempty, &sb)
	    || read_list(op, OPND(op, 3), "recipe_a", 0, nonempty, &ra)
	    || read_list(op, OPND(op, 6), "recipe_b", 0, nonempty, &rb)
	    || read_list(op, OPND(op, 4), "swizzle_a", 0, noswz, &wa)
	    || read_list(op, OPND(op, 7), "swizzle_b", 0, noswz, &wb)
	    || lengths(op, &sa, &ra, &sb, &rb) || classify(op, &ra, &rb, &mode)
	    || scale_dtypes(op, mode, &sa, &sb) || swizzles(op, mode, &wa, &wb)
	    || matrices_v2(op, a, b, OPND(op, 10), &m, &k, &n))
		return -1;
	if (m < 0 || sa.n < 1 || sb.n < 1 || tt_rank(sa.t[0]) < 0 || tt_rank(sb.t[0]) < 0)
		return 0;
	return scale_counts(op, mode, sa.t[0], sb.t[0], m, k, a->dims[1], n);
}
