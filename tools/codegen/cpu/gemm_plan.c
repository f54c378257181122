/*
 * gemm_plan.c - contractions (matmul, batch matmul, convolution as implicit
 * GEMM) through a register-blocked micro-kernel over packed operands.
 *
 * gemm_plan recognizes an f32 multiply-accumulate root and splits its
 * loop dims into batch, M (only A reads them), N (only B reads them) and
 * K (reductions).  B's columns are the output's innermost dim, stored as
 * vectors, unless the other way round pads the NR-wide panels much less
 * (a 7x7 map against 512 channels): then the operands trade places.  The
 * operands are packed into panels, A as [batch][M/MR][K][MR] and B as
 * [batch][N/NR][K][NR], zero-padded: a constant operand at compile time
 * (a pre-packed fxvm.global, by a strided copy when it is one affine load
 * of a weight), any other by a pack kernel of its own whose body is the
 * operand's fused expression (im2col with padding for convolutions,
 * transposes, elementwise producers) -- or, for B when there are enough
 * panels and one fits in L2, by the GEMM kernel itself, one panel on its
 * stack at a time, so that the im2col never reaches memory; a traded
 * convolution's A reads its input through the taps instead, from a copy
 * channels last (tap_plan), or where it lies (a 1x1's, direct_a).  The
 * kernel keeps an MR x NR tile of C in registers (MR rows of two
 * vectors; cpu.h), reads one B vector pair and MR broadcasts of A per k,
 * then stores the tile to the stack and applies the fused epilogue row
 * by row (a traded tile's column by column).  Where
 * the CPU has AVX-512 VNNI, a contraction of a quantized weight with
 * quantized activations runs on their integers (the int8 section below).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cpu.h"

/* ---- substitution into a new domain ---- */

typedef struct Sub {
	KCtx kc;
	IExpr **sub;
	PMap memo;
} Sub;

static KExpr *kx_subst(Sub *s, KExpr *e)
{
	KExpr *r = pmap_get(&s->memo, e);
	int i;

	if (r)
		return r;
	r = arena_alloc(s->kc.c, sizeof *r);
	*r = *e;
	r->a = arena_alloc(s->kc.c, sizeof *r->a * (size_t)(e->n + 1));
	for (i = 0; i < e->n; i++)
		r->a[i] = kx_subst(s, e->a[i]);
	if (e->rank) {
		r->ix = arena_alloc(s->kc.c, sizeof *r->ix * (size_t)e->rank);
		for (i = 0; i < e->rank; i++)
			r->ix[i] = ix_subst(&s->kc, e->ix[i], s->sub);
	}
	*pmap_slot(&s->memo, e, 1) = r;
	return r;
}

/* s over a new domain of n dims of extents ext (copied into the arena),
 * each of the nd dims it substitutes at 0 until the caller sets it */
static void sub_begin(Ctx *c, Sub *s, int n, const int64_t *ext, int nd)
{
	int i;

	memset(s, 0, sizeof *s);
	s->kc = (KCtx){ c, n, arena_alloc(c, sizeof *ext * (size_t)n) };
	memcpy((int64_t *)s->kc.ext, ext, sizeof *ext * (size_t)n);
	s->sub = arena_alloc(c, sizeof *s->sub * (size_t)(nd + 1));
	for (i = 0; i < nd; i++)
		s->sub[i] = ix_const(&s->kc, 0);
}

/* Re-binds the buffers of an expression from kernel `from` into `to`. */
static int rebind(Kernel *to, Kernel *from, int b, int out)
{
	return kernel_bind(to, from->bind[b].val, from->bind[b].type, out);
}

static void rebind_expr(Kernel *to, Kernel *from, KExpr *e, PMap *seen)
{
	int i;

	if (pmap_get(seen, e))
		return;
	*pmap_slot(seen, e, 1) = e;
	if (e->kind == KX_LOAD || e->kind == KX_XLOAD)
		e->buf = rebind(to, from, e->buf, 0);
	for (i = 0; i < e->n; i++)
		rebind_expr(to, from, e->a[i], seen);
}

/* Delinearizes lin over dims[0..n) (outermost first) into sub[]. */
static void delin(KCtx *kc, IExpr *lin, const int *dims, int n, const int64_t *ext, IExpr **sub)
{
	int64_t inner = 1;
	int i;

	for (i = n - 1; i >= 0; i--) {
		IExpr *q = ix_floordiv(kc, lin, inner);

		sub[dims[i]] = i ? ix_mod(kc, q, ext[dims[i]]) : q;
		inner *= ext[dims[i]];
	}
}

typedef struct GPlan {
	int bd[64], nb, md[64], nm, nd[64], nn, kd[64], nk;
	int64_t B, M, N, K;
	int mr;
	KExpr *bpack;         /* make_pack: B is packed in the GEMM kernel */
	int64_t *pext;
	int adirect;          /* A read in place: a0 + b * asb + m * lda + k * aks */
	int64_t a0, asb, lda, aks;
	int atap;             /* A read through its taps (tap_plan) */
	KTaps tap;
	int64_t nimg;         /* its images (n of M's (n, oh, ow)) */
	int tax[2];           /* the K dims of the taps along oh and ow, or -1 */
	KBound bb, bm, bn, bk;   /* B, M, N and K at the call's length (c = 0: none) */
} GPlan;

/* B panels packed in the GEMM kernel, one [K][NR] panel on the stack at a
 * time while every row panel of A runs over it, instead of by a kernel of
 * their own through memory: when a panel fits in L2 and there are enough
 * panels to spread across threads */
enum { BPACK_MAX_BYTES = 256 << 10, BPACK_MIN_PANELS = 8 };

/* B operands from which the micro-kernel prefetches the next panel */
enum { BNEXT_MIN_BYTES = 256 << 10 };

static void plan_bounds(Kernel *k, GPlan *p)
{
	p->bb = kernel_dims_bound(k, p->bd, p->nb);
	p->bm = kernel_dims_bound(k, p->md, p->nm);
	p->bn = kernel_dims_bound(k, p->nd, p->nn);
	p->bk = kernel_dims_bound(k, p->kd, p->nk);
}

/* Bounds of dims (b, x, ...) from the plan's: NULL where there are none
 * (nor a bound on K, the GEMM's own). */
static KBound *bounds_of(Gen *g, int n, KBound b0, KBound b1, KBound b2, KBound bk)
{
	KBound *b;

	if (!b0.c && !b1.c && !b2.c && !bk.c)
		return NULL;
	b = arena_alloc(g->c, sizeof *b * (size_t)n);
	b[0] = b0, b[1] = b1;
	if (n > 2)
		b[2] = b2;
	for (int i = 0; i < n; i++)
		if (!b[i].c)
			b[i] = (KBound){ 0, 0, 1 };
	return b;
}

/* ---- compile-time packing of constants ---- */

/* a load of a constant of element type kind */
static int const_load(Kernel *k, KExpr *e, TypeKind kind)
{
	Value *v = k->bind[e->buf].val;
	Attr *a;

	if (e->kind != KX_LOAD || !v->def || kop_of(v->def) != kop.constant)
		return 0;
	a = op_attr(v->def, "value");
	return a && v->type->elem->kind == kind && dense_bytes(a, &(size_t){0});
}

/* the bits, sign included, that hold every integer in [lo, hi] */
static int sbits(int64_t lo, int64_t hi)
{
	int bits = 1;

	while (bits < 64 && (lo < -((int64_t)1 << (bits - 1)) || hi >= (int64_t)1 << (bits - 1)))
		bits++;
	return bits;
}

/* the bits, sign included, of the widest of the n values of a */
static int widest(const Attr *a, int64_t n)
{
	int64_t i, lo = 0, hi = 0;

	for (i = 0; i < n; i++) {
		int64_t v = dense_get_i(a, i);

		lo = v < lo ? v : lo;
		hi = v > hi ? v : hi;
	}
	return sbits(lo, hi);
}

/* Bits, sign included, that hold every value of e, an integer
 * expression over constants: loads of signless integer constants,
 * integer constants, extsi, addi and subi that cannot wrap in their
 * width (PT2E's int8 weights less their zero points); -1 for any other
 * e.  Where it is at most 53, a double evaluates e exactly. */
static int int_bits(Kernel *k, KExpr *e)
{
	Value *v;
	Attr *a;
	int x, y;

	if (e->kind == KX_CONST)
		return e->cval->kind == AT_INT ? sbits(e->cval->i < 0 ? e->cval->i : 0,
			e->cval->i > 0 ? e->cval->i : 0) : -1;
	if (e->kind == KX_LOAD) {
		v = k->bind[e->buf].val;
		if (!const_load(k, e, TY_INT) || v->type->elem->sign == UNSIGNED
		    || v->type->elem->width < 2)
			return -1;
		if (v->type->elem->width <= 32)
			return v->type->elem->width;
		a = op_attr(v->def, "value");
		return widest(a, a->kind == AT_DENSE && a->splat ? 1 : ty_numel(v->type));
	}
	if (e->kind != KX_OP)
		return -1;
	if (e->op == kop.extsi)
		return int_bits(k, e->a[0]);
	if (e->op != kop.addi && e->op != kop.subi)
		return -1;
	x = int_bits(k, e->a[0]);
	y = int_bits(k, e->a[1]);
	if (x < 0 || y < 0)
		return -1;
	x = (x > y ? x : y) + 1;
	return x <= e->type->width ? x : -1;
}

/* x through conversions between float types (exact for the small
 * integers they carry here) */
static KExpr *fconv_peel(KExpr *x)
{
	while (x->kind == KX_OP && (x->op == kop.extf || x->op == kop.truncf))
		x = x->a[0];
	return x;
}

/* e is an integer of 8 bits at most over constants that eval computes
 * as the kernel would (the FX reference form's quantize of a float
 * weight: roundeven, clamp, fptosi, trunci), or of int_bits' form */
static int const_int(Kernel *k, KExpr *e)
{
	int i, ok = 0;
	TypeKind t;

	switch (e->kind) {
	case KX_CONST:
		return 1;
	case KX_LOAD:
		t = k->bind[e->buf].type->elem->kind;
		return (t == TY_F32 || t == TY_F64 || t == TY_INT) && const_load(k, e, t) &&
			!(t == TY_INT && k->bind[e->buf].type->elem->width > 32);
	case KX_OP:
		if (e->op == kop.addi || e->op == kop.subi)
			return int_bits(k, e) >= 0 && int_bits(k, e) <= 53;
		if (e->op == kop.sitofp && e->a[0]->type->width > 32)
			return 0;
		ok = e->op == kop.select || e->op == kop.mulf || e->op == kop.addf ||
			e->op == kop.subf || e->op == kop.divf || e->op == kop.extf ||
			e->op == kop.truncf || e->op == kop.roundeven || e->op == kop.cmpf ||
			e->op == kop.extsi || e->op == kop.sitofp || e->op == kop.fptosi ||
			e->op == kop.trunci;
		for (i = 0; i < e->n && ok; i++)
			ok = const_int(k, e->a[i]);
		return ok && (e->type->kind != TY_INT || e->type->width <= 64);
	default:
		return 0;
	}
}

/* f converts an integer expression over constants to f32 (PT2E's int8
 * weights: int_bits; FX's, quantized from a float weight: const_int,
 * through f64): the integers, or NULL */
static KExpr *int_weight(Kernel *k, KExpr *f)
{
	KExpr *in;
	int bits;

	if (f->type->kind != TY_F32)
		return NULL;
	f = fconv_peel(f);
	if (f->kind != KX_OP || f->op != kop.sitofp)
		return NULL;
	in = f->a[0];
	bits = int_bits(k, in);
	return (bits >= 0 && bits <= 53) || (in->type->width <= 8 && const_int(k, in)) ? in : NULL;
}

static int const_buffers_only(Gen *g, Kernel *k, KExpr *e)
{
	int i;

	if (e->kind == KX_XLOAD || e->kind == KX_ACC)
		return 0;
	if (e->kind == KX_LOAD)
		return const_load(k, e, TY_F32);
	/* a weight rounded to bf16 or f16 and widened back to f32, or a bf16
	 * or f16 weight widened: autocast's models */
	if (e->kind == KX_OP && e->op == kop.extf) {
		KExpr *x = e->a[0];

		if (e->type->kind != TY_F32 || (x->type->kind != TY_BF16 && x->type->kind != TY_F16))
			return 0;
		if (x->kind == KX_OP && x->op == kop.truncf)
			return const_load(k, x->a[0], TY_F32);
		return const_load(k, x, x->type->kind);
	}
	/* an integer weight converted (PT2E's and FX's int8 weights) */
	if (e->kind == KX_OP && (e->op == kop.sitofp || e->op == kop.truncf))
		return int_weight(k, e) != NULL;
	if (e->kind == KX_OP && e->op != kop.select && e->op != kop.mulf &&
			e->op != kop.addf && e->op != kop.subf)
		return 0;
	for (i = 0; i < e->n; i++)
		if (!const_buffers_only(g, k, e->a[i]))
			return 0;
	return 1;
}

/* v rounded to e's float type */
static double fl(const KExpr *e, double v)
{
	return e->type->kind == TY_F64 ? v : fp_round(v, e->type);
}

/* arith.cmpf's predicate p (0 false, 1..6 oeq ogt oge olt ole one, 7 ord,
 * 8..13 their unordered forms, 14 uno, 15 true) on a, b */
static int cmpf(int64_t p, double a, double b)
{
	int nan = a != a || b != b, r;

	switch (p == 0 || p == 7 || p >= 14 ? 0 : (p - 1) % 7 + 1) {
	case 1: r = a == b; break;
	case 2: r = a > b; break;
	case 3: r = a >= b; break;
	case 4: r = a < b; break;
	case 5: r = a <= b; break;
	case 6: r = a != b; break;
	default:
		return p == 15 || (p == 7 && !nan) || (p == 14 && nan);
	}
	return p <= 6 ? !nan && r : nan || r;
}

static double eval(Kernel *k, KExpr *e, const int64_t *d)
{
	int i;

	switch (e->kind) {
	case KX_CONST:
		return e->cval->kind == AT_FLOAT ? e->cval->f : (double)e->cval->i;
	case KX_LOAD: {
		Value *v = k->bind[e->buf].val;
		Attr *a = op_attr(v->def, "value");
		Type *t = v->type;
		int64_t off = 0;

		for (i = 0; i < t->rank; i++)
			off = off * t->dims[i] + ix_eval(e->ix[i], d);
		return dense_get_f(a, a->kind == AT_DENSE && a->splat ? 0 : off);
	}
	case KX_INRANGE:
		for (i = 0; i < e->rank; i++) {
			int64_t v = ix_eval(e->ix[i], d);

			if (v < e->lo[i] || v >= e->hi[i])
				return 0;
		}
		return 1;
	case KX_OP:
		if (e->op == kop.select)
			return eval(k, e->a[0], d) != 0 ? eval(k, e->a[1], d) : eval(k, e->a[2], d);
		/* f32 and f64 arithmetic, each op rounded to its type */
		if (e->op == kop.mulf)
			return fl(e, eval(k, e->a[0], d) * eval(k, e->a[1], d));
		if (e->op == kop.addf)
			return fl(e, eval(k, e->a[0], d) + eval(k, e->a[1], d));
		if (e->op == kop.subf)
			return fl(e, eval(k, e->a[0], d) - eval(k, e->a[1], d));
		if (e->op == kop.divf)
			return fl(e, eval(k, e->a[0], d) / eval(k, e->a[1], d));
		if (e->op == kop.extf)
			return eval(k, e->a[0], d);
		if (e->op == kop.truncf)   /* to f32, bf16 or f16, as the kernel rounds */
			return fp_round(eval(k, e->a[0], d), e->type);
		if (e->op == kop.roundeven)
			return __builtin_rint(eval(k, e->a[0], d));   /* ties to even */
		if (e->op == kop.cmpf)
			return cmpf(e->attr ? e->attr->i : 0, eval(k, e->a[0], d), eval(k, e->a[1], d));
		/* integers of at most 53 bits (int_bits, const_int): exact in
		 * a double */
		if (e->op == kop.extsi)
			return eval(k, e->a[0], d);
		if (e->op == kop.addi)
			return eval(k, e->a[0], d) + eval(k, e->a[1], d);
		if (e->op == kop.subi)
			return eval(k, e->a[0], d) - eval(k, e->a[1], d);
		if (e->op == kop.sitofp)
			return fl(e, eval(k, e->a[0], d));
		if (e->op == kop.fptosi) {   /* NaN where it is poison */
			double v = __builtin_trunc(eval(k, e->a[0], d)), lim = (double)(1ull << (e->type->width - 1));

			return v >= -lim && v < lim ? v : __builtin_nan("");
		}
		if (e->op == kop.trunci) {
			int w = e->type->width;
			double v = eval(k, e->a[0], d);
			uint64_t m = w < 64 ? (1ull << w) - 1 : ~0ull, u;

			if (v != v || w >= 64)   /* 53 bits at most: int_bits, const_int */
				return v;
			u = (uint64_t)(int64_t)v & m;
			return u >> (w - 1) ? (double)(int64_t)(u | ~m) : (double)(int64_t)u;
		}
		return 0;
	default:
		return 0;
	}
}

/* e as c0 + sum coef[d] * dim d, when it is that syntactically */
static int affine(const IExpr *e, int nd, int64_t mul, int64_t *coef, int64_t *c0)
{
	switch (e->kind) {
	case IX_DIM:
		if (e->v < 0 || e->v >= nd)
			return 0;
		coef[e->v] += mul;
		return 1;
	case IX_CONST:
		*c0 += mul * e->v;
		return 1;
	case IX_ADD:
		return affine(e->l, nd, mul, coef, c0) && affine(e->r, nd, mul, coef, c0);
	case IX_MUL:
		if (e->r->kind == IX_CONST)
			return affine(e->l, nd, mul * e->r->v, coef, c0);
		if (e->l->kind == IX_CONST)
			return affine(e->r, nd, mul * e->l->v, coef, c0);
		return 0;
	default:
		return 0;
	}
}

/* off[l] for l in [0, n): sum coef[dims[i]] * (dim i of l delinearized
 * over dims, outermost first) */
static int64_t *group_offsets(const int64_t *coef, const int *dims, int nd, const int64_t *ext, int64_t n)
{
	int64_t *off = xmalloc(sizeof *off * (size_t)(n + 1)), l;

	for (l = 0; l < n; l++) {
		int64_t r = l, o = 0;
		int i;

		for (i = nd - 1; i >= 0; i--) {
			o += coef[dims[i]] * (r % ext[dims[i]]);
			r /= ext[dims[i]];
		}
		off[l] = o;
	}
	return off;
}

/* The load x's element offset as c0 + sum coef[d] * dim d over the
 * kernel's dims (coef malloc'd), or NULL when its index is not that. */
static int64_t *load_coefs(Kernel *root, const KExpr *x, int64_t *c0)
{
	Type *t = root->bind[x->buf].type;
	int64_t *coef = xcalloc((size_t)root->ndims + 1, sizeof *coef), stride = 1;
	int i;

	*c0 = 0;
	for (i = t->rank - 1; i >= 0; i--) {
		if (!affine(x->ix[i], root->ndims, stride, coef, c0)) {
			free(coef);
			return NULL;
		}
		stride *= t->dims[i];
	}
	return coef;
}

/* A constant operand that is one load, affine in the loop dims, of an
 * f32 weight (linear and convolution weights, transposed or not), packed
 * by a strided copy with three offset tables instead of evaluating each
 * element: out[b][pn][k][j] = src[c0 + ob[b] + ok[k] + on[pn * tile + j]],
 * 0 past lim. */
typedef struct PackCopy PackCopy;
struct PackCopy {
	Resource *res;        /* src's, if a resource */
	const uint8_t *src;
	int64_t c0, *ob, *ok, *on;
	int64_t B, panels, K, tile, lim;
	Resource *packed;     /* the pack's own resource */
	PackCopy *next;       /* the context's packs made so far */
};

/* The copy that packs x, its tables in the context's arena; 0 when x is
 * not such a load. */
/* x, a load of a constant of elements of esize bytes with an affine
 * index: the data (*a its attribute) and the offsets of the elements the
 * pack of operand side reads, c0 + ob[b] + ok[k] + on[j] (allocated);
 * NULL where x is not such a load or reads past the constant. */
static const uint8_t *load_offsets(Kernel *root, const KExpr *x, const GPlan *p, int side, size_t esize,
	Attr **a, int64_t *c0, int64_t **ob, int64_t **ok, int64_t **on)
{
	Value *v;
	const uint8_t *src;
	size_t nbytes;
	int64_t *coef, lim = side ? p->N : p->M, b, k, j, lo, hi;
	int64_t kl = INT64_MAX, kh = INT64_MIN, nl = INT64_MAX, nh = INT64_MIN, bl = INT64_MAX, bh = INT64_MIN;

	if (x->kind != KX_LOAD)
		return NULL;
	v = root->bind[x->buf].val;
	if (!v->def || !(*a = op_attr(v->def, "value")) || ((*a)->kind == AT_DENSE && (*a)->splat))
		return NULL;
	src = dense_bytes(*a, &nbytes);
	if (nbytes != (size_t)ty_numel(v->type) * esize || !(coef = load_coefs(root, x, c0)))
		return NULL;
	*ob = group_offsets(coef, p->bd, p->nb, root->ext, p->B);
	*ok = group_offsets(coef, p->kd, p->nk, root->ext, p->K);
	*on = group_offsets(coef, side ? p->nd : p->md, side ? p->nn : p->nm, root->ext, lim);
	free(coef);
	/* every element read lies in the weight */
	for (k = 0; k < p->K; k++)
		kl = (*ok)[k] < kl ? (*ok)[k] : kl, kh = (*ok)[k] > kh ? (*ok)[k] : kh;
	for (j = 0; j < lim; j++)
		nl = (*on)[j] < nl ? (*on)[j] : nl, nh = (*on)[j] > nh ? (*on)[j] : nh;
	for (b = 0; b < p->B; b++)
		bl = (*ob)[b] < bl ? (*ob)[b] : bl, bh = (*ob)[b] > bh ? (*ob)[b] : bh;
	lo = *c0 + kl + nl + bl;
	hi = *c0 + kh + nh + bh;
	if (lo < 0 || hi >= ty_numel(v->type)) {
		free(*ob), free(*ok), free(*on);
		return NULL;
	}
	return src;
}

static int pack_plan(Ctx *c, Kernel *root, const KExpr *x, const GPlan *p, int side, PackCopy *pc)
{
	Attr *a;
	const uint8_t *src;
	int64_t c0, lim = side ? p->N : p->M;
	int64_t tile = side ? mk.nr : p->mr, *ob, *ok, *on;

	if (!(src = load_offsets(root, x, p, side, sizeof(float), &a, &c0, &ob, &ok, &on)))
		return 0;
	pc->res = a->kind == AT_DENSE_RESOURCE ? a->res : NULL;
	pc->src = src;
	pc->c0 = c0;
	pc->B = p->B;
	pc->K = p->K;
	pc->tile = tile;
	pc->lim = lim;
	pc->panels = (lim + tile - 1) / tile;
	pc->ob = arena_alloc(c, sizeof *ob * (size_t)p->B);
	pc->ok = arena_alloc(c, sizeof *ok * (size_t)p->K);
	pc->on = arena_alloc(c, sizeof *on * (size_t)lim);
	memcpy(pc->ob, ob, sizeof *ob * (size_t)p->B);
	memcpy(pc->ok, ok, sizeof *ok * (size_t)p->K);
	memcpy(pc->on, on, sizeof *on * (size_t)lim);
	free(ob), free(ok), free(on);
	return 1;
}

/* a and b copy the same bytes to the same places */
static int same_copy(const PackCopy *a, const PackCopy *b)
{
	return a->src == b->src && a->c0 == b->c0 && a->B == b->B && a->K == b->K
	    && a->tile == b->tile && a->lim == b->lim
	    && !memcmp(a->ob, b->ob, sizeof *a->ob * (size_t)a->B)
	    && !memcmp(a->ok, b->ok, sizeof *a->ok * (size_t)a->K)
	    && !memcmp(a->on, b->on, sizeof *a->on * (size_t)a->lim);
}

/* offs[i] == i * step for every i (step: offs[1] - offs[0]) */
static int evenly(const int64_t *offs, int64_t n, int64_t *step)
{
	int64_t i;

	*step = n > 1 ? offs[1] - offs[0] : 0;
	for (i = 0; i < n; i++)
		if (offs[i] != i * *step)
			return 0;
	return 1;
}

/* A panel at a time, a row of it at a time: the row is read in order
 * (when k is evenly strided, the usual case) and written tile floats
 * apart, in a panel that stays in the cache. */
static void pack_copy(void *arg, uint8_t *dst)
{
	const PackCopy *pc = arg;
	float *data = (float *)dst;
	int64_t b, pn, k, j, tile = pc->tile, K = pc->K, step;
	int even = evenly(pc->ok, K, &step);

	for (b = 0; b < pc->B; b++)
		for (pn = 0; pn < pc->panels; pn++) {
			float *d = data + (b * pc->panels + pn) * K * tile;

			for (j = 0; j < tile; j++) {
				int64_t n = pn * tile + j;
				const uint8_t *s;

				if (n >= pc->lim) {
					for (k = 0; k < K; k++)
						d[k * tile + j] = 0;
					continue;
				}
				s = pc->src + (pc->c0 + pc->ob[b] + pc->on[n]) * (int64_t)sizeof(float);
				if (even)
					for (k = 0; k < K; k++)
						memcpy(&d[k * tile + j], s + k * step * (int64_t)sizeof(float), sizeof(float));
				else
					for (k = 0; k < K; k++)
						memcpy(&d[k * tile + j], s + pc->ok[k] * (int64_t)sizeof(float), sizeof(float));
			}
		}
}

/* A that the micro-kernel can read where it lies: one load, row-major in
 * (m, k) with k contiguous (a matmul's or a linear layer's activations,
 * a batch matmul's left operand), or with m contiguous (a traded 1x1
 * convolution's input, channels first: a step's mr rows are one run of
 * the step's channel).  Its tile rows are mr streams along k, or a step
 * one run: no pack kernel, no packed copy in the arena.  Where M is not
 * a whole number of row panels, the last panel's M % mr rows have a
 * micro-kernel of their own (gemm_emit.c), so that no row past M is read. */
static int direct_a(Kernel *root, const KExpr *x, GPlan *p, TypeKind el)
{
	int64_t *coef, *off, c0, step = 1;
	int ok;

	if (x->kind != KX_LOAD || root->bind[x->buf].type->elem->kind != el ||
			!(coef = load_coefs(root, x, &c0)))
		return 0;
	off = group_offsets(coef, p->kd, p->nk, root->ext, p->K);
	ok = p->K == 1 || (evenly(off, p->K, &step) && step > 0);
	free(off);
	if (ok) {
		off = group_offsets(coef, p->md, p->nm, root->ext, p->M);
		if (p->M == 1)   /* one row (a classifier's input vector): any lda */
			p->lda = 1;
		else
			ok = evenly(off, p->M, &p->lda) && p->lda > 0;
		ok = ok && (p->K == 1 || step == 1 || p->lda == 1);
		free(off);
	}
	if (ok) {
		off = group_offsets(coef, p->bd, p->nb, root->ext, p->B);
		ok = evenly(off, p->B, &p->asb);
		free(off);
	}
	free(coef);
	/* the tile's rows as 32-bit displacements from the panel's first */
	if (!ok || c0 < 0 || p->lda * p->mr > (1 << 28))
		return 0;
	p->adirect = 1;
	p->a0 = c0;
	p->aks = p->K == 1 ? 1 : step;
	return 1;
}

/* ---- convolutions read through their taps ----
 *
 * A traded convolution (its tile rows output pixels, its columns output
 * channels) would pack A as an im2col: each input element copied once per
 * tap (9x for 3x3).  Instead its input is copied once, channels last and
 * padded, to xp[b][hp][wp][c] (a pack kernel of its own), and the
 * micro-kernel reads A where it lies: k runs over the taps (kh, kw), then
 * the channels, so that A(m, k) = xp[b][oh sh + kh][ow sw + kw][c] is, for
 * a tile of pixels along one output row, mr rows sw*C apart, each a
 * stream along c from the tap's offset (kh Wp + kw) C.  A tile is a
 * divisor of the output row or whole rows (tap_mr), so that its rows lie
 * at the same offsets from its first for every tile.
 *
 * The copy is A's own expression (padding tests included) with oh, ow at
 * 0 and kh, kw at hp, wp: exact where every index of A is affine and
 * reads oh and kh only as oh sh + kh (and ow, kw as ow sw + kw), which
 * tap_plan checks of each index (a dilation that is not a multiple of the
 * stride fails it). */

/* The indices of e (loads, index values, range tests) into ix[], at most
 * cap; -1 past cap */
static int kx_indices(const KExpr *e, const IExpr **ix, int n, int cap, PMap *seen)
{
	int i;

	if (n < 0 || pmap_get(seen, e))
		return n;
	*pmap_slot(seen, (void *)e, 1) = (void *)e;
	if (e->kind == KX_ACC)
		return -1;
	for (i = 0; i < e->rank; i++) {
		if (n == cap)
			return -1;
		ix[n++] = e->ix[i];
	}
	for (i = 0; i < e->n && n >= 0; i++)
		n = kx_indices(e->a[i], ix, n, cap, seen);
	return n;
}

enum { TAP_MAXIX = 64 };

/* The affine pieces of index e as coefficient rows of nd at coef[n * nd]
 * (calloc'd, TAP_MAXIX rows): e itself, or the pieces of the operands of
 * its sums and scalings and of what it clamps, divides or reduces modulo
 * (e is a function of them); -1 when some piece is not affine or past
 * TAP_MAXIX */
static int ix_pieces(const IExpr *e, int nd, int64_t *coef, int n)
{
	int64_t c0 = 0;

	if (n < 0 || n == TAP_MAXIX)
		return -1;
	if (affine(e, nd, 1, coef + n * nd, &c0))
		return n + 1;
	memset(coef + n * nd, 0, sizeof *coef * (size_t)nd);
	switch (e->kind) {
	case IX_ADD:
	case IX_MUL:
		return ix_pieces(e->r, nd, coef, ix_pieces(e->l, nd, coef, n));
	case IX_CLAMP:
	case IX_FLOORDIV:
	case IX_MOD:
		return ix_pieces(e->l, nd, coef, n);
	default:
		return -1;
	}
}

/* The tile of a w-wide, h-high output: *tw pixels along a row (mr = tw,
 * *tpr tiles a row: w itself or its largest divisor) or whole rows (mr =
 * rows * w, *tw = w, *tpr = 1) as many as fit -- with whole, as many as
 * divide h (several images: no tile across two); at most mk.mrmax rows,
 * at least 6 (12 accumulators for the FMA's latency); 0 when no divisor
 * fits */
static int tap_mr(int64_t w, int64_t h, int whole, int64_t *tw, int64_t *tpr)
{
	int64_t d, top = mk.mrmax, rows;

	*tw = w, *tpr = 1;
	if (2 * w <= top) {
		rows = top / w < h ? top / w : h;
		while (whole && h % rows)
			rows--;
		return rows * w >= 6 ? (int)(rows * w) : 0;
	}
	for (d = top; d >= 6; d--)
		if (w % d == 0) {
			*tw = d, *tpr = w / d;
			return (int)d;
		}
	return 0;
}

/* Whether traded A reads through its taps; if so p's fields and K's order
 * (kh, kw, c) set.  M is (oh, ow), or (n, oh, ow) for several images; K
 * is (c, kh, kw), or (c, kh) or (c, kw) for a window of one column or
 * row: an output dim without a tap reads xp at its own index (stride 1,
 * one tap). */
static int tap_plan(Kernel *root, const KExpr *x, GPlan *p)
{
	const IExpr *ix[TAP_MAXIX];
	int64_t *coef, s[2] = { 1, 1 }, e[2] = { 1, 1 }, hp, wp, oh, ow;
	int n, i, j, q, pair[2] = { -1, -1 }, cd = -1, mr, nd = root->ndims, kd[3];
	PMap seen = {0};

	if (p->bb.c || p->bm.c || p->bn.c || p->bk.c || p->nm < 2 || p->nm > 3 || p->nk < 2 || p->nk > 3)
		return 0;
	i = kx_indices(x, ix, 0, TAP_MAXIX, &seen);
	pmap_free(&seen);
	if (i <= 0)
		return 0;
	coef = xcalloc((size_t)(TAP_MAXIX * nd), sizeof *coef);
	for (n = 0, q = 0; q < i; q++)
		n = ix_pieces(ix[q], nd, coef, n);
	if (n <= 0)
		goto no;
	/* each output dim with the K dim it reads beside, at a whole stride */
	for (j = 0; j < 2; j++) {
		int m = p->md[p->nm - 2 + j];

		for (q = 0; q < p->nk && pair[j] < 0; q++) {
			int k = p->kd[q], ok = 1;
			int64_t st = 0;

			if (j && k == pair[0])
				continue;
			for (i = 0; i < n && ok; i++) {
				int64_t cm = coef[i * nd + m], ck = coef[i * nd + k];

				if (!ck)
					ok = !cm;
				else if (!st)
					ok = cm % ck == 0 && (st = cm / ck) >= 1;
				else
					ok = cm == st * ck;
			}
			if (ok && st)
				pair[j] = k, s[j] = st, e[j] = root->ext[k];
		}
	}
	free(coef);
	/* one K dim left: the channel */
	for (q = 0; q < p->nk; q++)
		if (p->kd[q] != pair[0] && p->kd[q] != pair[1]) {
			if (cd >= 0)
				return 0;
			cd = p->kd[q];
		}
	if (cd < 0 || e[0] * e[1] < 2)
		return 0;
	oh = root->ext[p->md[p->nm - 2]], ow = root->ext[p->md[p->nm - 1]];
	p->nimg = p->nm == 3 ? root->ext[p->md[0]] : 1;
	if (!(mr = tap_mr(ow, oh, p->nimg > 1, &p->tap.tw, &p->tap.tpr)))
		return 0;
	hp = (oh - 1) * s[0] + e[0];
	wp = (ow - 1) * s[1] + e[1];
	/* smaller than the im2col it replaces */
	if (hp * wp * root->ext[cd] * p->nimg >= p->M * p->K)
		return 0;
	p->atap = 1;
	p->mr = mr;
	for (n = 0, j = 0; j < 2; j++)
		if (pair[j] >= 0)
			kd[n++] = pair[j];
	kd[n] = cd;
	memcpy(p->kd, kd, sizeof *kd * (size_t)p->nk);
	p->tax[0] = pair[0], p->tax[1] = pair[1];
	p->tap.kh = e[0], p->tap.kw = e[1], p->tap.c = root->ext[cd];
	p->tap.dh = wp * p->tap.c;
	p->tap.arow = s[0] * p->tap.dh;
	p->lda = s[1] * p->tap.c;
	p->tap.timg = hp * p->tap.dh;
	p->tap.tpi = (oh * ow + mr - 1) / mr;
	p->asb = p->nimg * p->tap.timg;
	p->a0 = 0;
	return 1;
no:
	free(coef);
	return 0;
}

/* A pack's shape: [batch][panel][k][tile] over operand side's panels. */
typedef struct Pack {
	int side;             /* 0: A, 1: B */
	int nd;               /* its domain's dims: 4, or 5 for groups of q
	                       * k ([batch][panel][k / q][tile][k % q],
	                       * gpack_body: int8's bytes, bf16's pairs) */
	int64_t tile, panels, lim;
	int64_t ext[5], total;
	Type *el, *pt;        /* its element (f32, i8 or bf16), its tensor */
	int taps;             /* A's input channels last (tap_copy) */
} Pack;

static void pack_shape(Gen *g, const GPlan *p, int side, Pack *k)
{
	k->side = side;
	k->nd = 4;
	k->taps = 0;
	k->tile = side ? mk.nr : p->mr;
	k->panels = side ? (p->N + mk.nr - 1) / mk.nr : (p->M + p->mr - 1) / p->mr;
	k->ext[0] = p->B, k->ext[1] = k->panels, k->ext[2] = p->K, k->ext[3] = k->tile;
	k->total = p->B * k->panels * p->K * k->tile;
	k->el = ty_float(g->c, TY_F32);
	k->pt = ty_tensor(g->c, 1, &k->total, k->el);
	k->lim = side ? p->N : p->M;
}


/* select(0 <= ix < hi, x, other) */
static KExpr *below(Ctx *c, IExpr *ix, int64_t hi, KExpr *x, KExpr *other)
{
	KExpr *sel = kx_op(c, kop.select, x->type, 3), *in;

	in = kx_new(c, KX_INRANGE, ty_int(c, 1, SIGNLESS), 0);
	in->rank = 1;
	in->ix = arena_alloc(c, sizeof *in->ix);
	in->lo = arena_alloc(c, sizeof *in->lo);
	in->hi = arena_alloc(c, sizeof *in->hi);
	in->ix[0] = ix;
	in->hi[0] = hi;
	sel->a[0] = in;
	sel->a[1] = x;
	sel->a[2] = other;
	return sel;
}

/* x over the pack's domain (s: root's dims in its terms), zero past the
 * last row or column; *ix1 the pack's linear index */
static KExpr *pack_body(Gen *g, Kernel *root, KExpr *x, const GPlan *p, const Pack *k, Sub *s,
	IExpr **ix1)
{
	KExpr *body;
	IExpr *lin;

	sub_begin(g->c, s, 4, k->ext, root->ndims);
	delin(&s->kc, ix_dim(&s->kc, 0), p->bd, p->nb, root->ext, s->sub);
	delin(&s->kc, ix_dim(&s->kc, 2), p->kd, p->nk, root->ext, s->sub);
	lin = ix_add(&s->kc, ix_mul(&s->kc, ix_dim(&s->kc, 1), k->tile), ix_dim(&s->kc, 3));
	delin(&s->kc, ix_clamp(&s->kc, lin, 0, k->lim - 1), k->side ? p->nd : p->md,
		k->side ? p->nn : p->nm, root->ext, s->sub);
	body = kx_subst(s, x);
	pmap_free(&s->memo);
	if (k->panels * k->tile != k->lim)
		body = below(g->c, lin, k->lim, body, kx_const_f(g->c, k->el, 0));
	*ix1 = ix_add(&s->kc, ix_mul(&s->kc, ix_add(&s->kc, ix_mul(&s->kc, ix_add(&s->kc,
		ix_mul(&s->kc, ix_dim(&s->kc, 0), k->panels), ix_dim(&s->kc, 1)), p->K),
		ix_dim(&s->kc, 2)), k->tile), ix_dim(&s->kc, 3));
	return body;
}

/* A constant of type t holding r's bytes, a buffer */
static Value *const_value(Gen *g, Op *op, Type *t, Resource *r)
{
	Op *cst = op_new(g->c, "arith.constant", 0, NULL, 1, &t, 0, op->loc);

	op_set_attr(g->c, cst, "value", at_dense_resource(g->c, t, r));
	vinfo(g, RES(cst, 0))->mat = 1;
	return RES(cst, 0);
}

/* A pack of constants as a constant: copied when it is printed, or
 * evaluated now. */
static Value *const_pack(Gen *g, Kernel *root, KExpr *x, const GPlan *p, const Pack *k,
	KExpr *body, IExpr *ix1, Op *op)
{
	PackCopy *pc = arena_alloc(g->c, sizeof *pc);
	size_t nbytes = mulsz((size_t)k->total, sizeof(float));
	Resource *r;
	char name[64];

	snprintf(name, sizeof name, "%s_packed_%c", root->name, k->side ? 'b' : 'a');
	if (pack_plan(g->c, root, x, p, k->side, pc)) {
		/* a strided copy of a weight, made as the global is printed:
		 * no second copy of the weights in memory; one resource for
		 * the same copy made twice (a dynamic batch's chunk functions
		 * packing a weight alike), so one global (host_global) */
		PackCopy *q;

		for (q = g->packs; q && !same_copy(q, pc); q = q->next)
			;
		if (q)
			r = q->packed;
		else {
			r = resource_lazy(g->c, "builtin", name, nbytes, 64, pack_copy, pc);
			if ((r->src = pc->res))
				r->src->readers++;
			pc->packed = r, pc->next = g->packs, g->packs = pc;
		}
	} else {
		int64_t d[4];
		const int64_t *ext = k->ext;
		float *data;

		r = resource_alloc(g->c, "builtin", name, nbytes, 64);
		data = (float *)r->data;
		for (d[0] = 0; d[0] < ext[0]; d[0]++)
			for (d[1] = 0; d[1] < ext[1]; d[1]++)
				for (d[2] = 0; d[2] < ext[2]; d[2]++)
					for (d[3] = 0; d[3] < ext[3]; d[3]++)
						data[ix_eval(ix1, d)] = (float)eval(root, body, d);
	}
	return const_value(g, op, k->pt, r);
}

/* A pack kernel of its own, writing a new buffer: body at ix1. */
static Value *pack_kernel(Gen *g, Kernel *root, const GPlan *p, const Pack *k, KExpr *body,
	IExpr *ix1, int64_t *ext, FnPlan *fp, Op *op)
{
	Kernel *pk = kernel_new(g, op);
	Op *buf = op_new(g->c, "tensor.empty", 0, NULL, 1, (Type *const *)&k->pt, 0, op->loc);
	PMap seen = {0};

	vinfo(g, RES(buf, 0))->mat = 1;
	pk->kind = KK_LOOP;
	pk->vpack = k->nd == 5 ? 2 : 1;
	pk->ndims = k->nd;
	pk->ext = ext;
	pk->red = arena_alloc(g->c, 6);
	rebind_expr(pk, root, body, &seen);
	pmap_free(&seen);
	pk->nout = 1;
	pk->out = arena_alloc(g->c, sizeof *pk->out);
	pk->out[0].buf = rebind(pk, &(Kernel){ .bind = &(KBind){ RES(buf, 0), k->pt, 1 } }, 0, 1);
	pk->out[0].ix = arena_alloc(g->c, sizeof(IExpr *));
	pk->out[0].ix[0] = ix1;
	pk->out[0].val = body;
	pk->out[0].acctype = k->el;
	buf_printf(&pk->fused, "    pack %s of %s: [%lld][%lld][%lld][%lld]%s\n", k->side ? "B" : "A",
		root->name, (long long)k->ext[0], (long long)k->ext[1], (long long)k->ext[2],
		(long long)k->ext[3], k->nd == 5 ? k->ext[4] == 2 ? "[2] bf16 pairs" : "[4] bytes" :
		k->taps ? " channels last" : "");
	pk->at = root->at;    /* named after the gemm's line */
	{
		/* the panels at the call's length: of its rows (A) or columns (B) */
		KBound pb = k->side ? p->bn : p->bm;

		pb.q *= k->tile;
		if ((pk->bound = bounds_of(g, 4, p->bb, pb, p->bk, p->bk)))
			pk->len = root->len;
	}
	loop_grid(pk);
	plan_push(fp, pk, op);
	return RES(buf, 0);
}

/* A's input channels last, padded, for tap_plan: xp[b][hp][wp][c], A's
 * expression at oh = ow = 0, (kh, kw, c) = (hp, wp, c) */
static Value *tap_copy(Gen *g, Kernel *root, KExpr *x, const GPlan *p, FnPlan *fp, Op *op)
{
	Pack k;
	Sub s;
	KExpr *body;
	IExpr *ix1;
	int i, outer[65];

	memset(&k, 0, sizeof k);
	k.nd = 4;
	k.tile = 1;
	k.taps = 1;
	k.ext[0] = p->B * p->nimg, k.ext[1] = p->tap.timg / p->tap.dh, k.ext[2] = p->tap.dh / p->tap.c;
	k.ext[3] = p->tap.c;
	k.total = p->B * p->asb;
	k.el = ty_float(g->c, TY_F32);
	k.pt = ty_tensor(g->c, 1, &k.total, k.el);
	sub_begin(g->c, &s, 4, k.ext, root->ndims);
	/* the images: the batch's dims, then n */
	memcpy(outer, p->bd, sizeof *outer * (size_t)p->nb);
	outer[p->nb] = p->md[0];
	delin(&s.kc, ix_dim(&s.kc, 0), outer, p->nb + (p->nm == 3), root->ext, s.sub);
	/* (hp, wp) at (kh, kw), or at (oh, ow) without taps along it */
	for (i = 0; i < 2; i++)
		s.sub[p->tax[i] >= 0 ? p->tax[i] : p->md[p->nm - 2 + i]] = ix_dim(&s.kc, i + 1);
	s.sub[p->kd[p->nk - 1]] = ix_dim(&s.kc, 3);
	body = kx_subst(&s, x);
	pmap_free(&s.memo);
	ix1 = ix_dim(&s.kc, 0);
	for (i = 1; i < 4; i++)
		ix1 = ix_add(&s.kc, ix_mul(&s.kc, ix1, k.ext[i]), ix_dim(&s.kc, i));
	return pack_kernel(g, root, p, &k, body, ix1, (int64_t *)s.kc.ext, fp, op);
}

/* The pack of operand x (A: side 0, B: side 1) as a kernel, or as a
 * constant: copied when it is printed, or evaluated now.  Returns the
 * input IR value holding it (NULL: B packed in the GEMM kernel). */
static Value *make_pack(Gen *g, Kernel *root, KExpr *x, GPlan *p, int side, FnPlan *fp,
	Op *op)
{
	Pack k;
	Sub s;
	KExpr *body;
	IExpr *ix1;

	pack_shape(g, p, side, &k);
	body = pack_body(g, root, x, p, &k, &s, &ix1);
	if (const_buffers_only(g, root, body))
		return const_pack(g, root, x, p, &k, body, ix1, op);
	if (!side && tap_plan(root, x, p))
		return tap_copy(g, root, x, p, fp, op);
	if (!side && direct_a(root, x, p, TY_F32))
		return root->bind[x->buf].val;
	if (side && k.panels >= BPACK_MIN_PANELS &&
			p->K * mk.nr * (int64_t)sizeof(float) <= BPACK_MAX_BYTES && !g->o->no_fuse_pack) {
		p->bpack = body;
		p->pext = (int64_t *)s.kc.ext;
		return NULL;
	}
	return pack_kernel(g, root, p, &k, body, ix1, (int64_t *)s.kc.ext, fp, op);
}

static void mark_used(KExpr *e, int *used, PMap *seen)
{
	int i;

	if (pmap_get(seen, e))
		return;
	*pmap_slot(seen, e, 1) = e;
	if (e->kind == KX_LOAD || e->kind == KX_XLOAD)
		used[e->buf] = 1;
	for (i = 0; i < e->n; i++)
		mark_used(e->a[i], used, seen);
}

static void remap(KExpr *e, const int *map, PMap *seen)
{
	int i;

	if (pmap_get(seen, e))
		return;
	*pmap_slot(seen, e, 1) = e;
	if (e->kind == KX_LOAD || e->kind == KX_XLOAD)
		e->buf = map[e->buf];
	for (i = 0; i < e->n; i++)
		remap(e->a[i], map, seen);
}

/* Drops the bindings the GEMM no longer reads (the unpacked operands). */
static void compact(Kernel *k)
{
	int *used = xcalloc((size_t)k->nbind + 1, sizeof *used);
	int *map = xcalloc((size_t)k->nbind + 1, sizeof *map);
	PMap seen = {0};
	int i, n = 0;

	if (k->out[0].epi)
		mark_used(k->out[0].epi, used, &seen);
	if (k->g.bpack)
		mark_used(k->g.bpack, used, &seen);
	pmap_free(&seen);
	used[k->out[0].buf] = used[k->g.a] = 1;
	if (k->g.bb >= 0)
		used[k->g.bb] = 1;
	for (i = 0; i < k->nbind; i++) {
		map[i] = n;
		if (used[i])
			k->bind[n++] = k->bind[i];
	}
	k->nbind = n;
	memset(&seen, 0, sizeof seen);
	if (k->out[0].epi)
		remap(k->out[0].epi, map, &seen);
	if (k->g.bpack)
		remap(k->g.bpack, map, &seen);
	pmap_free(&seen);
	k->out[0].buf = map[k->out[0].buf];
	k->g.a = map[k->g.a];
	if (k->g.bb >= 0)
		k->g.bb = map[k->g.bb];
	free(used);
	free(map);
}

/* rows of the micro-kernel's tile for M rows: the count from mk.mrmin to
 * mk.mrmax that pads the smallest share of its tiles, the larger on a tie
 * (8 to 14 in zmm; in ymm always 6: two FMA units of 4 to 5 cycles'
 * latency need 8 to 10 independent accumulators, and 5 rows hold just
 * 10); all of them where M is smaller */
static int pick_mr(int64_t M)
{
	int best = mk.mrmax, j;
	int64_t waste = (M + mk.mrmax - 1) / mk.mrmax * mk.mrmax - M;

	if (M <= mk.mrmax)
		return (int)M;
	for (j = mk.mrmax - 1; j >= mk.mrmin; j--) {
		int64_t w = (M + j - 1) / j * j - M;

		if (w * best < waste * j)
			best = j, waste = w;
	}
	return best;
}

static int64_t padded(int64_t n, int64_t tile)
{
	return (n + tile - 1) / tile * tile;
}

/* The one dim of set that index x steps by 1, or -1 */
static int unit_dim(const IExpr *x, uint64_t set)
{
	int64_t c;
	int d, found = -1;

	for (d = 0; d < 64; d++)
		if (set >> d & 1 && ix_coef(x, d, &c) && c == 1) {
			if (found >= 0)
				return -1;
			found = d;
		}
	return found;
}

/* The operands of k's multiply-accumulate as A and B: B reads the
 * output's innermost dim, A does not; 0 when k is no such contraction. */
static int operands(Kernel *k, KExpr **a, KExpr **b, uint64_t *dout)
{
	KOut *o = &k->out[0];
	KExpr *x, *y;
	uint64_t dx = 0, dy = 0;
	Type *ot;
	int last, i;

	if (k->nout != 1 || k->ndims > 63 || !o->init || !kx_is_zero(o->init) || !gemm_mac(o->val, &x, &y))
		return 0;
	if (x->type->kind != TY_F32 || y->type->kind != TY_F32)
		return 0;
	kx_dims(x, &dx);
	kx_dims(y, &dy);
	ot = k->bind[o->buf].type;
	for (i = 0; i < ot->rank; i++)
		ix_dims(o->ix[i], dout);
	/* the innermost output dim decides which operand is B; where the
	 * innermost index reads several dims (heads and columns collapsed
	 * into [128, 12 * 64] by a transposed store), the one of step 1 */
	last = -1;
	for (i = ot->rank - 1; i >= 0 && last < 0; i--) {
		uint64_t s1 = 0;

		ix_dims(o->ix[i], &s1);
		if (s1 && !(s1 & (s1 - 1)))
			last = __builtin_ctzll(s1);
		else if (s1 && (last = unit_dim(o->ix[i], s1)) < 0)
			return 0;
	}
	if (last < 0)
		return 0;
	if ((dx >> last & 1) && !(dy >> last & 1))
		*a = y, *b = x;
	else if ((dy >> last & 1) && !(dx >> last & 1))
		*a = x, *b = y;
	else
		return 0;
	return 1;
}

/* The loop dims as batch, M (only A reads them), N (only B) and K (the
 * reductions), and the sizes; 0 when some dim is none of them. */
static int plan_dims(Kernel *k, KExpr *a, KExpr *b, uint64_t dout, GPlan *p)
{
	Type *ot = k->bind[k->out[0].buf].type;
	uint64_t da = 0, db = 0, seen = 0;
	int i, d;

	kx_dims(a, &da);
	kx_dims(b, &db);
	memset(p, 0, sizeof *p);
	/* dims in the order of the output index, outermost first; a dim
	 * that several output indices use (a collapsed matmul row
	 * delinearized into [32,5,31]) is one dim of the plan, once */
	for (i = 0; i < ot->rank; i++)
		for (d = 0; d < k->ndims; d++) {
			uint64_t s1 = 0;

			ix_dims(k->out[0].ix[i], &s1);
			if (!(s1 >> d & 1) || k->red[d] || k->ext[d] == 1 || (seen >> d & 1))
				continue;
			seen |= 1ull << d;
			if ((da >> d & 1) && !(db >> d & 1))
				p->md[p->nm++] = d;
			else if ((db >> d & 1) && !(da >> d & 1))
				p->nd[p->nn++] = d;
			else
				p->bd[p->nb++] = d;
		}
	for (d = 0; d < k->ndims; d++) {
		if (k->ext[d] == 1)
			continue;
		if (k->red[d]) {
			p->kd[p->nk++] = d;
			continue;
		}
		if (!(dout >> d & 1))
			return 0;
	}
	p->B = p->M = p->N = p->K = 1;
	for (i = 0; i < p->nb; i++) p->B *= k->ext[p->bd[i]];
	for (i = 0; i < p->nm; i++) p->M *= k->ext[p->md[i]];
	for (i = 0; i < p->nn; i++) p->N *= k->ext[p->nd[i]];
	for (i = 0; i < p->nk; i++) p->K *= k->ext[p->kd[i]];
	return 1;
}

/* The operands trade places: A's dims become N, B's M */
static void trade(GPlan *p, KExpr **a, KExpr **b)
{
	int t[64], j;
	int64_t n = p->N;
	KExpr *x1 = *a;

	memcpy(t, p->md, sizeof t);
	memcpy(p->md, p->nd, sizeof t);
	memcpy(p->nd, t, sizeof t);
	j = p->nm, p->nm = p->nn, p->nn = j;
	p->N = p->M, p->M = n;
	*a = *b, *b = x1;
}

/* B's columns run along the output's innermost dim, stored as vectors;
 * when that leaves much of the last NR-wide panel empty (a 7x7 or 14x14
 * feature map against 512 channels) and the other way round pads less,
 * the operands trade places and the tile is stored column by column.
 * Returns whether they did. */
/* the elements of M x N in whole tiles */
static int64_t tiled(int64_t m, int64_t n)
{
	return padded(n, mk.nr) * padded(m, pick_mr(m));
}

static int maybe_trade(GPlan *p, KExpr **a, KExpr **b)
{
	if (!(tiled(p->M, p->N) * 10 > tiled(p->N, p->M) * 11 && p->M >= 8))
		return 0;
	trade(p, a, b);
	return 1;
}

/* Whether e reads a value kept channels last (layout.c) */
static int reads_cl(Gen *g, const Kernel *k, const KExpr *e, PMap *seen)
{
	int i;

	if (pmap_get(seen, e))
		return 0;
	*pmap_slot(seen, (void *)e, 1) = (void *)e;
	if (e->kind == KX_LOAD && vinfo(g, k->bind[e->buf].val)->phys)
		return 1;
	for (i = 0; i < e->n; i++)
		if (reads_cl(g, k, e->a[i], seen))
			return 1;
	return 0;
}

/* A convolution over channels-last values has its pixels as the tile's
 * rows: where it stores channels last, its channels (an M dim untraded,
 * the output's innermost) become N, stored as vectors; where B would
 * read them (its input), A reads them, a k step one channel, the next
 * beside it (in place for a 1x1, through the taps for a window).
 * Returns whether they traded. */
static int cl_trade(Gen *g, Kernel *k, GPlan *p, KExpr **a, KExpr **b)
{
	KOut *o = &k->out[0];
	int r = k->bind[o->buf].type->rank, i, trade_it = 0;
	PMap seen = {0};

	if (vinfo(g, k->bind[o->buf].val)->phys) {
		for (i = 0; i < p->nm; i++)
			trade_it |= ix_uses_dim(o->ix[r - 1], p->md[i]);
	} else {
		trade_it = reads_cl(g, k, *b, &seen);
		pmap_free(&seen);
	}
	if (trade_it)
		trade(p, a, b);
	return trade_it;
}

/* A convolution with a window trades places too where its A can then be
 * read through its taps (tap_plan): the micro-kernel reads the input
 * from one channels-last copy, where untraded the kernel packs every
 * panel of pixels as an im2col, each element once per tap (resnet's 3x3
 * layers at 56x56 and 28x28 and its 7x7 stem, 15-20% faster each).  Not
 * where the tiles would pad much more (8 channels in a panel of 32), nor
 * for a short K (mobilenet_v2's stem, 27: each tile's few k steps do not
 * pay for its column-wise store). */
enum { TAP_TRADE_MIN_K = 64 };

static void tap_trade(Kernel *k, GPlan *p, KExpr **a, KExpr **b)
{
	GPlan t = *p, probe;
	KExpr *ta = *a, *tb = *b;

	if (p->K < TAP_TRADE_MIN_K || p->nk < 2)
		return;
	if (tiled(p->N, p->M) * 10 > tiled(p->M, p->N) * 11)
		return;
	trade(&t, &ta, &tb);
	t.mr = pick_mr(t.M);
	plan_bounds(k, &t);
	probe = t;
	if (!tap_plan(k, ta, &probe))
		return;
	*p = t, *a = ta, *b = tb;
}

/* k's loop dims become (b, m, n): the epilogue and the store index
 * substituted, the body gone (the micro-kernel computes it) */
static void to_bmn(Gen *g, Kernel *k, const GPlan *p)
{
	KOut *o = &k->out[0];
	Type *ot = k->bind[o->buf].type;
	int64_t ext3[3];
	KExpr *epi;
	Sub s;
	int i;

	ext3[0] = p->B, ext3[1] = p->M, ext3[2] = p->N;
	sub_begin(g->c, &s, 3, ext3, k->ndims);
	delin(&s.kc, ix_dim(&s.kc, 0), p->bd, p->nb, k->ext, s.sub);
	delin(&s.kc, ix_dim(&s.kc, 1), p->md, p->nm, k->ext, s.sub);
	delin(&s.kc, ix_dim(&s.kc, 2), p->nd, p->nn, k->ext, s.sub);
	epi = o->epi ? kx_subst(&s, o->epi) : NULL;
	for (i = 0; i < ot->rank; i++)
		o->ix[i] = ix_subst(&s.kc, o->ix[i], s.sub);
	pmap_free(&s.memo);
	o->epi = epi;
	o->init = NULL;
	o->val = NULL;
	k->kind = KK_GEMM;
	k->ndims = 3;
	k->ext = (int64_t *)s.kc.ext;
	k->red = arena_alloc(g->c, 4);
	k->bound = bounds_of(g, 3, p->bb, p->bm, p->bn, p->bk);
	k->g.kbound = p->bk;
}

/* bindings: keep the epilogue's, add the packs */
static void bind_packs(Kernel *k, const GPlan *p, Value *ap, Value *bp)
{
	Kernel tmp = { .bind = &(KBind){ ap, ap->type, 0 } };

	k->g.a = rebind(k, &tmp, 0, 0);
	k->g.bb = -1;
	if (bp) {
		Kernel tmp2 = { .bind = &(KBind){ bp, bp->type, 0 } };

		k->g.bb = rebind(k, &tmp2, 0, 0);
	}
	k->g.bpack = p->bpack;
	k->g.pext = p->pext;
	k->g.adirect = p->adirect;
	k->g.a0 = p->a0, k->g.asb = p->asb, k->g.lda = p->lda, k->g.aks = p->aks;
	k->g.atap = p->atap;
	k->g.tap = p->tap;
	k->g.B = p->B, k->g.M = p->M, k->g.N = p->N, k->g.K = p->K;
	k->g.mr = p->mr;
	k->g.nr = mk.nr;
	/* B from memory (not packed in the kernel): each tile prefetches the
	 * next panel, half of it (a line a step: pm's parity says which half)
	 * where M has two panels or more and a step is two lines, so that it
	 * comes from L2 when its turn comes (resnet18's layer4 convolutions,
	 * whose weights are read once a run: 2.5 -> 1.85 ms each); not where B
	 * is small enough to stay in cache */
	k->g.bnext = p->bpack || p->bk.c || p->B * p->K * p->N * 4 < BNEXT_MIN_BYTES ? 0 :
		p->M > p->mr && mk.nr == 32 ? 1 : 2;
}

/* Workgroups over N's panels, then M's: about one per half MFLOP, or
 * per 256 KB of B where B streams from memory (a classifier's 8 MB of
 * weights against one row), at most 64, and an even number where there
 * are two panels or more, so that two threads share them evenly (9
 * workgroups over 12 panels left 5 of them to one thread, a mobilenet
 * layer's second core idle an eighth of its time); the kernel loops over
 * the batch.  Where M is the larger and all of B stays in cache
 * (resnet50's 56x56 1x1 convolutions: 3136 pixels, 64 KB of weights),
 * over M's panels alone, each workgroup's tiles across all of N's
 * panels (mfirst): a tile's rows of A are read once, not once per
 * panel of B, and each row of the output is written whole, not a panel
 * at a time over the whole map (those layers 8-10% faster). */
static void gemm_grid(Kernel *k, const GPlan *p)
{
	int64_t np = (p->N + mk.nr - 1) / mk.nr, mp = (p->M + p->mr - 1) / p->mr;
	int64_t flops = 2 * p->B * p->M * p->N * p->K, want = flops / (1 << 19);
	int64_t bytes = p->B * p->K * p->N * 4;

	if (want < bytes / (256 << 10))
		want = bytes / (256 << 10);
	if (want < 1)
		want = 1;
	if (want > 64)
		want = 64;
	want += want > 1 && want % 2;
	k->grid[2] = 1;
	k->g.mfirst = !p->bpack && p->M > p->N && p->K * p->N * 4 < BNEXT_MIN_BYTES;
	k->grid[0] = k->g.mfirst ? 1 : np < want ? np : want;
	want = (want + k->grid[0] - 1) / k->grid[0];
	/* a B panel packed in the kernel is packed by one workgroup */
	k->grid[1] = p->bpack ? 1 : mp < want ? mp : want;
	/* an odd count: one more chunk of M's, else of N's, else one less
	 * of M's */
	if (k->grid[0] * k->grid[1] % 2) {
		if (!p->bpack && k->grid[1] < mp)
			k->grid[1]++;
		else if (k->grid[0] < np)
			k->grid[0]++;
		else if (k->grid[1] > 1)
			k->grid[1]--;
	}
	/* N's and M's panels at the call's length */
	if (k->bound && k->bound[2].c && k->grid[0] > 1)
		k->glen[0] = (KBound){ k->bound[2].c, k->bound[2].d, k->bound[2].q * mk.nr };
	if (k->bound && k->bound[1].c && k->grid[1] > 1)
		k->glen[1] = (KBound){ k->bound[1].c, k->bound[1].d, k->bound[1].q * p->mr };
}

/* ---- int8 GEMMs (AVX-512 VNNI) ----
 *
 * A contraction of a dequantized int8 weight, sitofp(I) * S with I
 * integers over constants and S per output channel, with dequantized
 * activations, (q - z) * s with q of 8 bits and s, z constants (PT2E's
 * and FX's quantize / dequantize pairs around a convolution or a linear
 * layer): sum_k I (q - z) is exact in 32-bit integers, so the GEMM runs
 * on the integers, four k at a time by vpdpbusd (unsigned bytes times
 * signed bytes), and its epilogue turns the sum into the float the
 * contraction computes: S s (sum_k I u - c sum_k I), u = q (unsigned q)
 * or q + 128 (signed) and c = z or z + 128.  Both packs hold bytes in
 * groups of four k ([batch][panel][k / 4][tile][k % 4]), zero-padded
 * weights; past K and in the padding the activations hold c. */

/* x = mulf(sitofp(I), S), either order, through float conversions, I an
 * integer expression over constants (int_bits, or const_int of 8 bits),
 * S a float expression over constants: *ix, *sx */
static int q_weight(Kernel *k, KExpr *x, KExpr **ix, KExpr **sx)
{
	int i;

	if (x->kind != KX_OP || x->op != kop.mulf || x->type->kind != TY_F32)
		return 0;
	for (i = 0; i < 2; i++) {
		KExpr *in = int_weight(k, x->a[i]);

		if (!in || !const_buffers_only(NULL, k, x->a[!i]))
			continue;
		*ix = in;
		*sx = x->a[!i];
		return 1;
	}
	return 0;
}

/* x = (q - z) * s or q * s, q an 8-bit integer expression converted
 * signed or unsigned (through extsi or extui or not), z and s float
 * constants: the bytes u as an i8 expression, with *c and *s; inside
 * selects of range tests whose other value is 0 (a convolution's
 * padding, in the pack's domain), c there.  NULL where x is not that. */
static KExpr *q_act(Gen *g, KExpr *x, int64_t *c, double *s)
{
	Type *i8 = ty_int(g->c, 8, SIGNLESS);
	KExpr *d, *f, *q, *u;
	double z = 0;
	int uns, i;

	if (x->kind == KX_OP && x->op == kop.select && x->a[0]->kind == KX_INRANGE && kx_is_zero(x->a[2])) {
		KExpr *in = q_act(g, x->a[1], c, s), *sel;

		if (!in)
			return NULL;
		sel = kx_op(g->c, kop.select, i8, 3);
		sel->a[0] = x->a[0];
		sel->a[1] = in;
		sel->a[2] = kx_const_i(g->c, i8, *c > 127 ? *c - 256 : *c);
		return sel;
	}
	if (x->kind != KX_OP || x->op != kop.mulf || x->type->kind != TY_F32)
		return NULL;
	for (i = 0; i < 2 && !(x->a[i]->kind == KX_CONST && x->a[i]->cval->kind == AT_FLOAT); i++)
		;
	if (i == 2)
		return NULL;
	*s = x->a[i]->cval->f;
	d = fconv_peel(x->a[!i]);
	f = d;
	if (d->kind == KX_OP && d->op == kop.subf && d->a[1]->kind == KX_CONST &&
			d->a[1]->cval->kind == AT_FLOAT) {
		z = d->a[1]->cval->f;
		f = fconv_peel(d->a[0]);
	}
	if (f->kind != KX_OP || (f->op != kop.sitofp && f->op != kop.uitofp))
		return NULL;
	uns = f->op == kop.uitofp;
	q = f->a[0];
	if (q->kind == KX_OP && (q->op == kop.extui || (q->op == kop.extsi && !uns))) {
		uns = q->op == kop.extui;
		q = q->a[0];
	}
	if (q->type->kind != TY_INT || q->type->width != 8 || z != (double)(int64_t)z)
		return NULL;
	*c = (int64_t)z + (uns ? 0 : 128);
	if (*c < 0 || *c > 255 || *s == 0 || *s != *s)
		return NULL;
	if (uns)
		return q;
	u = kx_op(g->c, kop.xori, i8, 2);
	u->a[0] = q;
	u->a[1] = kx_const_i(g->c, i8, -128);
	return u;
}

/* u over a grouped pack's domain (batch, panel, k / q, tile, k % q): k
 * and the row or column clamped inside K and the operand (rows past it
 * are never stored), fill past K (the domain's ext[2] q k); *ix1 the
 * pack's linear index.  int8's bytes (q = 4) and bf16's pairs (q = 2). */
static KExpr *gpack_body(Gen *g, Kernel *root, KExpr *u, KExpr *fill, int q, const GPlan *p,
	Pack *k, IExpr **ix1)
{
	Sub s;
	KExpr *body;
	IExpr *kk;
	int i;

	sub_begin(g->c, &s, 5, k->ext, root->ndims);
	delin(&s.kc, ix_dim(&s.kc, 0), p->bd, p->nb, root->ext, s.sub);
	kk = ix_add(&s.kc, ix_mul(&s.kc, ix_dim(&s.kc, 2), q), ix_dim(&s.kc, 4));
	delin(&s.kc, k->ext[2] * q != p->K ? ix_clamp(&s.kc, kk, 0, p->K - 1) : kk, p->kd, p->nk,
		root->ext, s.sub);
	delin(&s.kc, ix_clamp(&s.kc, ix_add(&s.kc, ix_mul(&s.kc, ix_dim(&s.kc, 1), k->tile),
		ix_dim(&s.kc, 3)), 0, k->lim - 1), k->side ? p->nd : p->md, k->side ? p->nn : p->nm,
		root->ext, s.sub);
	body = kx_subst(&s, u);
	pmap_free(&s.memo);
	if (k->ext[2] * q != p->K)
		body = below(g->c, kk, p->K, body, fill);
	*ix1 = ix_dim(&s.kc, 0);
	for (i = 1; i < 5; i++)
		*ix1 = ix_add(&s.kc, ix_mul(&s.kc, *ix1, k->ext[i]), ix_dim(&s.kc, i));
	return body;
}

/* A constant of n elements of type el, its bytes data (copied) */
static Value *const_data(Gen *g, Op *op, const char *name, Type *el, int64_t n, const void *data)
{
	Type *t = ty_tensor(g->c, 1, &n, el);
	size_t nbytes = mulsz((size_t)n, (size_t)elem_size(el));
	Resource *r = resource_alloc(g->c, "builtin", name, nbytes, 64);

	memcpy(r->data, data, nbytes);
	return const_value(g, op, t, r);
}

/* e with its accumulator replaced by r */
static KExpr *kx_with_acc(Ctx *c, KExpr *e, KExpr *r, PMap *memo)
{
	KExpr *n = pmap_get(memo, e);
	int i;

	if (n)
		return n;
	if (e->kind == KX_ACC)
		return r;
	if (!kx_has_acc(e))
		return e;
	n = arena_alloc(c, sizeof *n);
	*n = *e;
	n->a = arena_alloc(c, sizeof *n->a * (size_t)(e->n + 1));
	for (i = 0; i < e->n; i++)
		n->a[i] = kx_with_acc(c, e->a[i], r, memo);
	*pmap_slot(memo, e, 1) = n;
	return n;
}

/* The weight's bytes packed (side ws: A 0, B 1), *corr and *scale per
 * (batch, channel): c sum_k I and S s; 0 where some I is outside the
 * signed bytes or a sum could overflow 32 bits. */
static int qweights(Gen *g, Kernel *k, KExpr *wi, KExpr *ws, int ws_side, int64_t c, double s,
	int64_t k64, GPlan *p, Op *op, Value **packed, Value **corr, Value **scale)
{
	Pack pk;
	Sub sb;
	IExpr *ix1;
	KExpr *ib, *sbody;
	int64_t K4 = (p->K + 3) / 4, d[4], nch, n;
	int8_t *w;
	int32_t *cr;
	float *sc;
	int ok = 1;
	char name[64];

	if (p->K * 255 * 128 >= ((int64_t)1 << 31))
		return 0;
	pack_shape(g, p, ws_side, &pk);
	ib = pack_body(g, k, wi, p, &pk, &sb, &ix1);
	sbody = pack_body(g, k, ws, p, &pk, &sb, &ix1);
	nch = p->B * pk.lim;
	n = k64 ? p->B * pk.panels * k64 * pk.tile * 64 : p->B * pk.panels * K4 * pk.tile * 4;
	w = xcalloc((size_t)n, 1);
	cr = xcalloc((size_t)nch, sizeof *cr);
	sc = xcalloc((size_t)nch, sizeof *sc);
	for (d[0] = 0; d[0] < p->B && ok; d[0]++)
		for (d[1] = 0; d[1] < pk.panels && ok; d[1]++)
			for (d[3] = 0; d[3] < pk.tile && ok; d[3]++) {
				int64_t ch = d[1] * pk.tile + d[3], sum = 0;

				if (ch >= pk.lim)
					continue;
				for (d[2] = 0; d[2] < p->K; d[2]++) {
					double v = eval(k, ib, d);

					if (!(v >= -128 && v <= 127)) {
						ok = 0;
						break;
					}
					w[k64 ? (((d[0] * pk.panels + d[1]) * k64 + d[2] / 64) * pk.tile + d[3]) * 64 +
						d[2] % 64 : (((d[0] * pk.panels + d[1]) * K4 + d[2] / 4) * pk.tile + d[3]) * 4 +
						d[2] % 4] = (int8_t)v;
					sum += (int64_t)v;
				}
				d[2] = 0;
				cr[d[0] * pk.lim + ch] = (int32_t)(c * sum);
				sc[d[0] * pk.lim + ch] = (float)((float)eval(k, sbody, d) * (float)s);
			}
	if (ok) {
		snprintf(name, sizeof name, "%s_packed_%c", k->name, ws_side ? 'b' : 'a');
		*packed = const_data(g, op, name, ty_int(g->c, 8, SIGNLESS), n, w);
		snprintf(name, sizeof name, "%s_qcorr", k->name);
		*corr = const_data(g, op, name, ty_int(g->c, 32, SIGNLESS), nch, cr);
		snprintf(name, sizeof name, "%s_qscale", k->name);
		*scale = const_data(g, op, name, ty_float(g->c, TY_F32), nch, sc);
	}
	free(w), free(cr), free(sc);
	return ok;
}

/* k as an int8 GEMM when its operands are a quantized weight and
 * quantized activations (the comment above); 0 where not (nothing
 * changed), 1 when planned. */
static int qgemm(Gen *g, Kernel *k, KExpr *a, KExpr *b, GPlan *p, FnPlan *fp, Op *op)
{
	KExpr *wi = NULL, *wsx = NULL, *u = NULL, *body, *conv, *acc;
	int64_t c = 0, K = p->K, K4 = (p->K + 3) / 4, k64 = 0, *ext;
	double s = 0;
	int side, i, ch;
	uint64_t sd = 0, chd = 0;
	Value *wp, *corr, *scale, *xp;
	Pack xk;
	IExpr *ix1, *cix;
	KCtx kc;
	PMap memo = {0};
	GPlan was = *p;

	if (!(mk.vnni || mk.amx8) || p->bb.c || p->bm.c || p->bn.c || p->bk.c)
		return 0;
	for (side = 0; side < 2; side++)
		if (q_weight(k, side ? b : a, &wi, &wsx) && (u = q_act(g, side ? a : b, &c, &s)))
			break;
	if (side == 2)
		return 0;
	/* on AMX tiles (tdpbsud: signed A, unsigned B) the weight is A, in
	 * tile rows of 64 k, the activations' groups of four k B's, K padded
	 * to 64 */
	if (mk.amx8) {
		if (side)
			trade(p, &a, &b);
		side = 0;
		k64 = (p->K + 63) / 64;
		K4 = k64 * 16;
		p->mr = p->M > 16 ? 32 : 16;
	}
	/* S per channel: it reads the weight's M or N dims and the batch's
	 * only (a grouped convolution's channel is both) */
	kx_dims(wsx, &sd);
	for (i = 0; i < (side ? p->nn : p->nm); i++)
		chd |= 1ull << (side ? p->nd : p->md)[i];
	for (i = 0; i < p->nb; i++)
		chd |= 1ull << p->bd[i];
	if (sd & ~chd) {
		*p = was;
		return 0;
	}
	/* the four k of a group differ in one dim alone where one's extent
	 * allows (a convolution's input channel, moved innermost): their
	 * loads share an index and range test but for a stride (the sums are
	 * exact in any order) */
	if (p->nk > 1 && k->ext[p->kd[p->nk - 1]] % 4)
		for (i = 0; i < p->nk - 1; i++)
			if (k->ext[p->kd[i]] % 4 == 0) {
				int d = p->kd[i];

				memmove(&p->kd[i], &p->kd[i + 1], sizeof *p->kd * (size_t)(p->nk - 1 - i));
				p->kd[p->nk - 1] = d;
				break;
			}
	if (!qweights(g, k, wi, wsx, side, c, s, k64, p, op, &wp, &corr, &scale)) {
		*p = was;
		return 0;
	}
	/* the activations' bytes: B packed in the kernel or a pack kernel */
	pack_shape(g, p, !side, &xk);
	xk.nd = 5;
	xk.ext[2] = K4;
	xk.ext[4] = 4;
	body = gpack_body(g, k, u, kx_const_i(g->c, u->type, c > 127 ? c - 256 : c), 4, p, &xk, &ix1);
	xk.el = ty_int(g->c, 8, SIGNLESS);
	xk.total = p->B * xk.panels * K4 * xk.tile * 4;
	xk.pt = ty_tensor(g->c, 1, &xk.total, xk.el);
	ext = arena_alloc(g->c, sizeof xk.ext);
	memcpy(ext, xk.ext, sizeof xk.ext);
	xp = NULL;
	if (!side && xk.panels >= BPACK_MIN_PANELS && K4 * mk.nr * 4 <= BPACK_MAX_BYTES &&
			!g->o->no_fuse_pack) {
		p->bpack = body;
		p->pext = ext;
	} else
		xp = pack_kernel(g, k, p, &xk, body, ix1, ext, fp, op);
	p->K = k64 ? k64 : K4;
	to_bmn(g, k, p);
	/* the epilogue reads S s (sum - corr) for the accumulator */
	ch = side ? 2 : 1;
	kc = (KCtx){ g->c, 3, k->ext };
	cix = ix_add(&kc, ix_mul(&kc, ix_dim(&kc, 0), side ? p->N : p->M), ix_dim(&kc, ch));
	acc = kx_new(g->c, KX_ACC, ty_int(g->c, 32, SIGNLESS), 0);
	acc->buf = 0;
	conv = kx_op(g->c, kop.mulf, ty_float(g->c, TY_F32), 2);
	conv->a[0] = kx_op(g->c, kop.sitofp, conv->type, 1);
	conv->a[0]->a[0] = kx_op(g->c, kop.subi, acc->type, 2);
	conv->a[0]->a[0]->a[0] = acc;
	for (i = 0; i < 2; i++) {
		Value *v = i ? scale : corr;
		KExpr *ld = kx_new(g->c, KX_LOAD, v->type->elem, 0);

		ld->buf = kernel_bind(k, v, v->type, 0);
		ld->rank = 1;
		ld->ix = arena_alloc(g->c, sizeof *ld->ix);
		ld->ix[0] = cix;
		if (i)
			conv->a[1] = ld;
		else
			conv->a[0]->a[0]->a[1] = ld;
	}
	k->out[0].epi = k->out[0].epi ? kx_with_acc(g->c, k->out[0].epi, conv, &memo) : conv;
	pmap_free(&memo);
	k->out[0].acctype = acc->type;
	bind_packs(k, p, side ? xp : wp, side ? wp : xp);
	k->g.q = k64 ? 4 : side ? 2 : 1;
	if (k64)
		k->g.bnext = 0;
	gemm_grid(k, p);
	compact(k);
	buf_printf(&k->fused, "    gemm: batch %lld, M %lld, N %lld, K %lld, tile %dx%d, int8 (%s)%s\n",
		(long long)p->B, (long long)p->M, (long long)p->N, (long long)K, p->mr, mk.nr,
		k64 ? "AMX" : "vpdpbusd", p->bpack ? ", B packed per panel in the kernel" : "");
	return 1;
}

/* ---- bf16 GEMMs (AMX, AVX-512 BF16) ----
 *
 * A contraction whose operands are bf16 values widened to f32 (autocast's
 * models: a weight rounded to bf16, activations converted to bf16 and
 * back) runs on AMX tiles where the CPU has AMX-BF16, else by vdpbf16ps
 * where it has AVX-512 BF16: both sum pairs of bf16 products into f32,
 * exactly the products the f32 kernel would form; the sums' order
 * differs (pairs, and on AMX 32 k a step), and both treat bf16 denormals
 * as zero.  The weight is A, packed at compile time as [batch][panel][K /
 * s][mr][s] with s = 32 on AMX (a tile row is 32 k of one output row)
 * and s = 2 for vdpbf16ps (a row's pair of k, broadcast as one word), the
 * activations B as bf16 pairs, [batch][panel][K / 2][NR][2] (on AMX a
 * tile row is a pair of k for 16 columns; for vdpbf16ps a vector of 16
 * columns' pairs), both zero past K (rounded up to s).  The AMX
 * micro-kernel (gemm_emit.c) keeps a 32x32 tile of C in four tile
 * registers (16x32 where M is 16 or less) and stores it to the stack for
 * the usual epilogue; the vdpbf16ps one is the f32 kernel's register
 * tile, a pair of k a step. */

/* x rebuilt in bf16 where its value is a bf16 value widened: an extf of
 * bf16, a load of such values (rounded back: exact), a constant bf16
 * holds, a select of two such (a pad's range test); NULL where not */
static KExpr *bf16_of(Gen *g, Kernel *k, KExpr *x)
{
	Type *bt = ty_float(g->c, TY_BF16);
	KExpr *t, *f, *sel;

	if (x->type->kind != TY_F32)
		return NULL;
	if (x->kind == KX_OP && x->op == kop.extf && x->a[0]->type->kind == TY_BF16)
		return x->a[0];
	if (x->kind == KX_LOAD && value_bf16_widened(k->bind[x->buf].val)) {
		t = kx_op(g->c, kop.truncf, bt, 1);
		t->a[0] = x;
		return t;
	}
	if (x->kind == KX_CONST && x->cval->kind == AT_FLOAT && fp_round(x->cval->f, bt) == x->cval->f)
		return kx_const_f(g->c, bt, x->cval->f);
	if (x->kind != KX_OP || x->op != kop.select || !(t = bf16_of(g, k, x->a[1])) ||
			!(f = bf16_of(g, k, x->a[2])))
		return NULL;
	sel = kx_op(g->c, kop.select, bt, 3);
	sel->a[0] = x->a[0];
	sel->a[1] = t;
	sel->a[2] = f;
	return sel;
}

/* The A pack's element of row m and k of batch b (the layout above:
 * rows of s k, ks of them) */
static int64_t atile_at(int64_t panels, int64_t ks, int s, int64_t mr, int64_t b, int64_t m, int64_t k)
{
	return (((b * panels + m / mr) * ks + k / s) * mr + m % mr) * s + k % s;
}

/* bf16's bits of a weight: NaNs as the quiet NaN, as the f32 kernels'
 * widened weights hold them */
static uint16_t bf16_weight(uint16_t h)
{
	return (h & 0x7fff) > 0x7f80 ? 0x7fc0 : h;
}

/* bweights' copy where w is an extf of a bf16 constant, or of an f32
 * one rounded to bf16, read by an affine index: no evaluation per
 * element (resnet50's 25M weights) */
static int bweights_copy(Kernel *k, KExpr *w, GPlan *p, int side, int64_t ks, int st, const Pack *pk,
	uint16_t *data)
{
	KExpr *x = w->kind == KX_OP && w->op == kop.extf ? w->a[0] : NULL;
	int round = x && x->kind == KX_OP && x->op == kop.truncf && x->a[0]->type->kind == TY_F32;
	int64_t c0, *ob, *ok, *on, b, m, kk;
	const uint8_t *src;
	Attr *a;

	if (!x || (!round && x->type->kind != TY_BF16) ||
			!(src = load_offsets(k, round ? x->a[0] : x, p, side, round ? 4 : 2, &a, &c0, &ob, &ok, &on)))
		return 0;
	for (b = 0; b < p->B; b++)
		for (m = 0; m < pk->lim; m++)
			for (kk = 0; kk < p->K; kk++) {
				int64_t at = c0 + ob[b] + on[m] + ok[kk];
				uint16_t h;

				if (round) {
					float f;

					memcpy(&f, src + at * 4, 4);
					h = (uint16_t)fp_bits(f, x->type);
				} else
					memcpy(&h, src + at * 2, 2);
				data[atile_at(pk->panels, ks, st, pk->tile, b, m, kk)] = bf16_weight(h);
			}
	free(ob), free(ok), free(on);
	return 1;
}

/* The weight w (operand side: A 0, B 1) as bf16 at compile time in the
 * layout above, ks rows of st k; NULL where some value is not a bf16
 * (NaNs pass as bf16's quiet NaN) */
static Value *bweights(Gen *g, Kernel *k, KExpr *w, GPlan *p, int side, int64_t ks, int st, Op *op)
{
	Type *bt = ty_float(g->c, TY_BF16);
	Pack pk;
	Sub sb;
	IExpr *ix1;
	KExpr *body;
	int64_t d[4], n;
	uint16_t *data;
	Value *v = NULL;
	char name[64];

	pack_shape(g, p, side, &pk);
	n = p->B * pk.panels * ks * pk.tile * st;
	data = xcalloc((size_t)n, sizeof *data);
	if (bweights_copy(k, w, p, side, ks, st, &pk, data))
		goto done;
	body = pack_body(g, k, w, p, &pk, &sb, &ix1);
	for (d[0] = 0; d[0] < p->B; d[0]++)
		for (d[1] = 0; d[1] < pk.panels; d[1]++)
			for (d[3] = 0; d[3] < pk.tile; d[3]++)
				for (d[2] = 0; d[2] < p->K; d[2]++) {
					double x = eval(k, body, d);

					if (x == x && fp_round(x, bt) != x)
						goto out;
					data[atile_at(pk.panels, ks, st, pk.tile, d[0], d[1] * pk.tile + d[3], d[2])] =
						bf16_weight((uint16_t)fp_bits(x, bt));
				}
done:
	snprintf(name, sizeof name, "%s_packed_%c", k->name, side ? 'b' : 'a');
	v = const_data(g, op, name, bt, n, data);
out:
	free(data);
	return v;
}

/* The pack of u, bf16 values, as pairs of k on operand side's panels:
 * [batch][panel][rows][tile][2], zero past K (*pk its shape, *ix1 its
 * linear index, *ext its extents in the arena); returns its body */
static KExpr *pairs_pack(Gen *g, Kernel *k, KExpr *u, const GPlan *p, int side, int64_t rows, Pack *pk,
	IExpr **ix1, int64_t **ext)
{
	Type *bt = ty_float(g->c, TY_BF16);
	KExpr *body;

	pack_shape(g, p, side, pk);
	pk->nd = 5;
	pk->ext[2] = rows;
	pk->ext[4] = 2;
	body = gpack_body(g, k, u, kx_const_f(g->c, bt, 0), 2, p, pk, ix1);
	pk->el = bt;
	pk->total = p->B * pk->panels * rows * 2 * pk->tile;
	pk->pt = ty_tensor(g->c, 1, &pk->total, pk->el);
	*ext = arena_alloc(g->c, sizeof pk->ext);
	memcpy(*ext, pk->ext, sizeof pk->ext);
	return body;
}

/* k as a bf16 GEMM on AMX tiles or by vdpbf16ps (the comment above); 0
 * where not (nothing changed), 1 when planned. */
static int bgemm(Gen *g, Kernel *k, KExpr *a, KExpr *b, GPlan *p, FnPlan *fp, Op *op)
{
	KExpr *u, *body;
	int st = mk.amx ? 32 : 2;
	int64_t K = p->K, ks = (p->K + st - 1) / st, *ext;
	Value *wp, *xp = NULL;
	Pack xk;
	IExpr *ix1;
	GPlan was = *p;

	if ((!mk.amx && !mk.dpbf16) || p->bb.c || p->bm.c || p->bn.c || p->bk.c)
		return 0;
	if (const_buffers_only(g, k, b) && !const_buffers_only(g, k, a))
		trade(p, &a, &b);
	p->mr = mk.amx ? (p->M > 16 ? 32 : 16) : pick_mr(p->M);
	if (!const_buffers_only(g, k, a) || const_buffers_only(g, k, b) || !(u = bf16_of(g, k, b)) ||
			!(wp = bweights(g, k, a, p, 0, ks, st, op))) {
		*p = was;
		return 0;
	}
	/* the activations' pairs: B packed in the kernel or a pack kernel */
	body = pairs_pack(g, k, u, p, 1, ks * st / 2, &xk, &ix1, &ext);
	/* for vdpbf16ps, in the kernel from two panels on: a pack kernel
	 * of pairs ran at 1 ns an element (resnet50's 14x14 3x3 convolutions,
	 * seven panels: 0.5 ms each, 5 ms of 55) */
	if (xk.panels >= (mk.amx ? BPACK_MIN_PANELS : 2) && ks * st * mk.nr * 2 <= BPACK_MAX_BYTES &&
			!g->o->no_fuse_pack) {
		p->bpack = body;
		p->pext = ext;
	} else
		xp = pack_kernel(g, k, p, &xk, body, ix1, ext, fp, op);
	p->K = ks;
	to_bmn(g, k, p);
	bind_packs(k, p, wp, xp);
	k->g.bnext = 0;
	k->g.q = mk.amx ? 3 : 5;
	gemm_grid(k, p);
	compact(k);
	buf_printf(&k->fused, "    gemm: batch %lld, M %lld, N %lld, K %lld, tile %dx%d, bf16 (%s)%s\n",
		(long long)p->B, (long long)p->M, (long long)p->N, (long long)K, p->mr, mk.nr,
		mk.amx ? "AMX" : "AVX-512 BF16", p->bpack ? ", B packed per panel in the kernel" : "");
	return 1;
}

/* k as a bf16 GEMM by vdpbf16ps with the activations A and the weight B,
 * packed at compile time as [batch][panel][K / 2][NR][2]: where A's rows
 * can be read where they lie as pairs of bf16 (a linear layer's input, k
 * contiguous: no pack, where the layout above would transpose them into
 * B's pairs; a classifier's one row against its 1000 columns, not one
 * column padded to NR), or where the layout above would pad N's last
 * panel much more than rows of mr pad M (a 14x14 map's 196 pixels, 224 in
 * panels, 196 in rows of 14; a 7x7 map's 49: resnet50's layer3 and layer4
 * 12% and 23% faster with the pack), then A packed as pairs by a pack
 * kernel, [batch][panel][K / 2][mr][2].  0 where not (nothing changed), 1
 * when planned. */
static int bgemm_rows(Gen *g, Kernel *k, KExpr *a, KExpr *b, GPlan *p, FnPlan *fp, Op *op)
{
	KExpr *u;
	Value *wp, *ap;
	GPlan was = *p;
	int direct, packed = 0;
	int64_t ks = (p->K + 1) / 2;

	if (mk.amx || !mk.dpbf16 || p->bb.c || p->bm.c || p->bn.c || p->bk.c)
		return 0;
	if (const_buffers_only(g, k, a) && !const_buffers_only(g, k, b))
		trade(p, &a, &b);
	p->mr = pick_mr(p->M);
	if (const_buffers_only(g, k, a) || !const_buffers_only(g, k, b) || !(u = bf16_of(g, k, a))) {
		*p = was;
		return 0;
	}
	/* A's pairs are words: k contiguous, rows and batches an even
	 * number of elements apart */
	direct = p->K % 2 == 0 && direct_a(k, u, p, TY_BF16) && p->aks == 1 && p->a0 % 2 == 0 &&
		(p->M == 1 || p->lda % 2 == 0) && (p->B == 1 || p->asb % 2 == 0);
	if (!direct) {
		int j;

		p->adirect = 0;
		packed = tiled(p->N, p->M) * 10 > tiled(p->M, p->N) * 11;
		/* rows that divide M, down to 7 (a 7x7 map's pixels: the pack
		 * kernel's rows a row of the map each, a third faster) */
		for (j = mk.mrmax; packed && p->M % p->mr && j >= 7; j--)
			if (p->M % j == 0)
				p->mr = j;
	}
	if ((!direct && !packed) || !(wp = bweights(g, k, b, p, 1, ks, 2, op))) {
		*p = was;
		return 0;
	}
	if (direct) {
		p->a0 /= 2, p->asb /= 2, p->lda = p->M > 1 ? p->lda / 2 : 1;
		ap = k->bind[u->buf].val;
	} else {
		/* the activations' pairs by a pack kernel: A [batch][panel][K / 2][mr][2] */
		Pack ak;
		IExpr *ix1;
		int64_t *ext;
		KExpr *body = pairs_pack(g, k, u, p, 0, ks, &ak, &ix1, &ext);

		ap = pack_kernel(g, k, p, &ak, body, ix1, ext, fp, op);
	}
	p->K = ks;
	to_bmn(g, k, p);
	bind_packs(k, p, ap, wp);
	k->g.q = 5;
	gemm_grid(k, p);
	compact(k);
	buf_printf(&k->fused, "    gemm: batch %lld, M %lld, N %lld, K %lld, tile %dx%d, bf16 (AVX-512 BF16)%s\n",
		(long long)p->B, (long long)p->M, (long long)p->N, (long long)was.K, p->mr, mk.nr,
		direct ? ", A read in place" : "");
	return 1;
}

/* Does e load from binding buf? */
static int kx_reads(const KExpr *e, int buf)
{
	int i;

	if ((e->kind == KX_LOAD || e->kind == KX_XLOAD) && e->buf == buf)
		return 1;
	for (i = 0; i < e->n; i++)
		if (kx_reads(e->a[i], buf))
			return 1;
	return 0;
}

/* A sum of products whose accumulator starts from a value of its output
 * point's own (torch-mlir's convolution and linear: the bias broadcast
 * into the output first) starts from 0 instead, that value added in the
 * epilogue: a GEMM with the bias in its epilogue, the sum in another
 * order, as a GEMM's is anyway.  The micro-kernel sums all of K before
 * the epilogue, so the value is read before its point is stored; not
 * where it is read from the output itself. */
static void init_to_epilogue(Gen *g, Kernel *k)
{
	KOut *o = &k->out[0];
	KExpr *x, *y, *acc, *sum;
	uint64_t d = 0;
	PMap memo = {0};
	int i;

	if (k->nout != 1 || !o->init || kx_is_zero(o->init) || o->acctype->kind != TY_F32 ||
			o->init->type != o->acctype || !gemm_mac(o->val, &x, &y) ||
			kx_has_acc(o->init) || kx_reads(o->init, o->buf))
		return;
	kx_dims(o->init, &d);
	for (i = 0; i < k->ndims; i++)
		if (k->red[i] && (d >> i & 1))
			return;
	acc = kx_new(g->c, KX_ACC, o->acctype, 0);
	acc->buf = 0;
	sum = kx_op(g->c, kop.addf, o->acctype, 2);
	sum->a[0] = acc;
	sum->a[1] = o->init;
	o->epi = o->epi ? kx_with_acc(g->c, o->epi, sum, &memo) : sum;
	pmap_free(&memo);
	o->init = kx_const_f(g->c, o->acctype, 0);
}

int gemm_plan(Gen *g, Kernel *k, FnPlan *fp, Op *op)
{
	KExpr *a, *b;
	uint64_t dout = 0;
	GPlan p;
	Value *ap, *bp;
	int traded;

	init_to_epilogue(g, k);
	if (!operands(k, &a, &b, &dout) || !plan_dims(k, a, b, dout, &p))
		return 0;
	/* a batch of single rows (a depthwise convolution: a batch of
	 * channels) is a loop nest: one row of the tile holds too few
	 * accumulators for the FMA's latency, and its vectors run along the
	 * output's rows (mobilenet_v2's depthwise layers 1.2-2x faster) */
	if (p.M == 1 && p.B > 1)
		return 0;
	if (p.K < 4 || p.N < 8 || p.M * p.N * p.K < 4096)
		return 0;
	traded = cl_trade(g, k, &p, &a, &b) || maybe_trade(&p, &a, &b);
	p.mr = pick_mr(p.M);
	plan_bounds(k, &p);
	if (qgemm(g, k, a, b, &p, fp, op) || bgemm_rows(g, k, a, b, &p, fp, op) || bgemm(g, k, a, b, &p, fp, op))
		return 1;
	if (!traded)
		tap_trade(k, &p, &a, &b);
	ap = make_pack(g, k, a, &p, 0, fp, op);
	bp = make_pack(g, k, b, &p, 1, fp, op);
	to_bmn(g, k, &p);
	bind_packs(k, &p, ap, bp);
	gemm_grid(k, &p);
	compact(k);
	buf_printf(&k->fused, "    gemm: batch %lld, M %lld, N %lld, K %lld, tile %dx%d%s%s\n",
		(long long)p.B, (long long)p.M, (long long)p.N, (long long)p.K, p.mr, mk.nr,
		p.adirect ? ", A read in place" : p.atap ? ", A read through its taps" : "", p.bpack ? ", B packed per panel in the kernel" : "");
	return 1;
}

/* The elements from one index of dim d to the next in the buffer of
 * type t that index ix (t's rank) addresses: each index c * d plus terms
 * without d; 0 where one is not */
static int64_t stride_of(IExpr **ix, const Type *t, int d)
{
	int64_t s = 0, st = 1, c;
	int i;

	for (i = t->rank - 1; i >= 0; st *= t->dims[i], i--)
		if (ix_uses_dim(ix[i], d)) {
			if (!ix_coef(ix[i], d, &c))
				return 0;
			s += c * st;
		}
	return s;
}

/* With the pad's columns written by the kernel (gemm_pad_columns): its
 * rows too, where its dim padd runs over whole planes of rows, one plane
 * for each index of the other dims (the pad's dims before the last two
 * whole, index r - 2 the row pt + n floordiv W, N = H W): the tile that
 * starts a plane writes its top rows, the one that ends it its bottom
 * rows (gemm_emit.c's pad_rows), and the host fills nothing (mobilenet_v2's
 * seventeen fills of a pad's rows, a few cache lines apart each, took the
 * host 3% of the run while the other threads waited). */
static void pad_rows(KCtx *kc, Kernel *k, const Type *src, const Type *dst, const Attr *off,
	int64_t shift)
{
	KOut *o = k->out;
	int r = dst->rank, i, d = k->padd;
	int64_t h, pt;

	if (r < 2)
		return;
	for (i = 0; i < r - 2; i++)
		if (off->ints[i] != 0 || src->dims[i] != dst->dims[i] || ix_uses_dim(o->ix[i], d))
			return;
	h = src->dims[r - 2], pt = off->ints[r - 2];
	if (k->ext[d] != h * k->padw || pt < 0 || dst->dims[r - 2] - h - pt < 0 ||
	    !ix_eq(o->ix[r - 2], ix_add(kc, ix_floordiv(kc, ix_dim(kc, d), k->padw), ix_const(kc, pt + shift))))
		return;
	k->padh = h, k->padt = pt, k->padb = dst->dims[r - 2] - h - pt;
}

/* A GEMM whose one output is stored inside a pad (kbuild.c's prefill and
 * inside), all of it (no length bounds), along its N dim as the pad's
 * rows: the last index pl + n mod W, W the rows' width (the pad's
 * source's last dim), or along M (a traded GEMM: its N the channels).
 * Its epilogue can then write the pad's columns
 * beside each row as it stores the row's ends (gemm_emit.c's pad_cols),
 * in lines it has in cache, and the host fills only the pad's other rows:
 * the whole buffer's fill before the kernel cost mobilenet_v2 ~8%. */
void gemm_pad_columns(Gen *g, Kernel *k)
{
	Op *pad = k->inside;
	Attr *off = pad ? op_attr(pad, "static_offsets") : NULL;
	const Type *src, *dst;
	KOut *o = k->out;
	int r, i;
	int64_t w, pl, pr, *sh;
	KCtx kc;
	IExpr *want;

	if (k->kind != KK_GEMM || !k->prefill || !off || k->nout != 1 || k->ndims != 3
	    || k->glen[0].c || k->glen[1].c || k->glen[2].c)
		return;
	for (i = 0; k->bound && i < k->ndims; i++)
		if (k->bound[i].c)
			return;
	src = OPND(pad, 0)->type, dst = RES(pad, 0)->type;
	sh = vinfo(g, RES(pad, 0))->shift;
	r = dst->rank;
	if (r < 1 || src->rank != r || (int)off->n != r || !ty_static(src) || !ty_static(dst)
	    || k->bind[o->buf].type != value_buftype(g, RES(pad, 0))
	    || (dst->elem->kind == TY_INT && dst->elem->width == 1))
		return;
	w = src->dims[r - 1], pl = off->ints[r - 1], pr = dst->dims[r - 1] - w - pl;
	if (w < 1 || pl < 0 || pr < 0 || pl + pr == 0)
		return;
	kc = (KCtx){ g->c, k->ndims, k->ext };
	for (i = 2; i >= 1; i--) {
		want = ix_add(&kc, ix_mod(&kc, ix_dim(&kc, i), w), ix_const(&kc, pl + (r == 4 ? sh[3] : 0)));
		if (ix_eq(o->ix[r - 1], want) &&
		    (k->pads = stride_of(o->ix, k->bind[o->buf].type, 3 - i)) != 0) {
			k->padw = w, k->padl = pl, k->padr = pr, k->padd = i;
			pad_rows(&kc, k, src, dst, off, r == 4 ? sh[2] : 0);
			return;
		}
	}
}

/* The largest q of an (e floordiv q) over dim d in e */
static int64_t max_div(const IExpr *e, int d)
{
	int64_t q = 0, r;

	if (!e || e->kind == IX_DIM || e->kind == IX_CONST)
		return 0;
	if (e->kind == IX_FLOORDIV && ix_uses_dim(e->l, d) && e->r->kind == IX_CONST)
		q = e->r->v;
	if ((r = max_div(e->l, d)) > q)
		q = r;
	if ((r = max_div(e->r, d)) > q)
		q = r;
	return q;
}

/* 1 where a floordiv or mod of dim d is left in e */
static int64_t divmod_of(const IExpr *e, int d)
{
	if (!e || e->kind == IX_DIM || e->kind == IX_CONST)
		return 0;
	if ((e->kind == IX_FLOORDIV || e->kind == IX_MOD) && ix_uses_dim(e->l, d))
		return 1;
	return divmod_of(e->l, d) || divmod_of(e->r, d);
}

/* the largest f(ix, d) over the indices in x */
static int64_t kx_max(const KExpr *x, int64_t (*f)(const IExpr *, int), int d)
{
	int64_t q = 0, r;
	int i;

	for (i = 0; i < x->n; i++)
		if ((r = kx_max(x->a[i], f, d)) > q)
			q = r;
	for (i = 0; i < x->rank; i++)
		if ((r = f(x->ix[i], d)) > q)
			q = r;
	return q;
}

/* The most steps gemm_kperiod unrolls: resnet50's 7x7 stem in 49 steps
 * made its kernel 0.15 ms faster and codegen 0.3 s slower (0.66 -> 0.95
 * s); its 3x3 layers in 9 cost 0.05 s */
enum { KPER_MAX = 16 };

/* The constants x floordiv c and x mod c take of dim d in e, at most
 * n of them into cs; returns how many */
static int div_consts(const IExpr *e, int d, int64_t *cs, int n, int have)
{
	int i;

	if (!e || e->kind == IX_DIM || e->kind == IX_CONST)
		return have;
	if ((e->kind == IX_FLOORDIV || e->kind == IX_MOD) && ix_uses_dim(e->l, d) &&
			e->r->kind == IX_CONST && e->r->v > 1) {
		for (i = 0; i < have && cs[i] != e->r->v; i++)
			;
		if (i == have && have < n)
			cs[have++] = e->r->v;
	}
	return div_consts(e->r, d, cs, n, div_consts(e->l, d, cs, n, have));
}

static int kx_div_consts(const KExpr *x, int d, int64_t *cs, int n, int have)
{
	int i;

	for (i = 0; i < x->n; i++)
		have = kx_div_consts(x->a[i], d, cs, n, have);
	for (i = 0; i < x->rank; i++)
		have = div_consts(x->ix[i], d, cs, n, have);
	return have;
}

/* gm's pack as nstep steps: outer, nk nstep expressions, step i's j-th
 * k (of nk, dim 4) at row nstep k' + i / nk (k' dim 2); else nk of them
 * for all steps, the j-th k of step s (dim 5, extent nstep) at row rows
 * / nstep s + k'.  NULL where a division of k' is left in one. */
static KExpr **kper_steps(Gen *g, KGemm *gm, int nk, int64_t rows, int64_t nstep, int outer)
{
	int nd = nk > 1 ? 5 : 4, i;
	int64_t ext[6], run = rows / nstep;
	KExpr **v;
	Sub s;

	memcpy(ext, gm->pext, sizeof *ext * (size_t)nd);
	ext[2] = run;
	ext[4] = nk;        /* the pack's for a pair or group; 1 (unused) for f32 */
	ext[5] = nstep;
	memset(&s, 0, sizeof s);
	s.kc = (KCtx){ g->c, outer ? nd : 6, arena_alloc(g->c, sizeof ext) };
	memcpy((int64_t *)s.kc.ext, ext, sizeof ext);
	s.sub = arena_alloc(g->c, sizeof *s.sub * (size_t)nd);
	v = arena_alloc(g->c, sizeof *v * (size_t)(outer ? nk * nstep : nk));
	for (i = 0; i < nd; i++)
		s.sub[i] = ix_dim(&s.kc, i);
	for (i = 0; i < (outer ? nk * nstep : nk); i++) {
		s.sub[2] = outer ? ix_add(&s.kc, ix_mul(&s.kc, ix_dim(&s.kc, 2), nstep), ix_const(&s.kc, i / nk)) :
			ix_add(&s.kc, ix_mul(&s.kc, ix_dim(&s.kc, 5), run), ix_dim(&s.kc, 2));
		if (nk > 1)
			s.sub[4] = ix_const(&s.kc, outer ? i % nk : i);
		v[i] = kx_subst(&s, gm->bpack);
		pmap_free(&s.memo);
		memset(&s.memo, 0, sizeof s.memo);
		if (kx_max(v[i], divmod_of, 2))
			return NULL;
	}
	return v;
}

/* B packed in the kernel, its k a delinearized (c, kh, kw): with k =
 * kper k' + i, kper the largest divisor the pack's indices take of k (9
 * for a 3x3 convolution's taps), each step i's indices are affine in k'
 * -- c = k', the tap's offsets and padding tests constants -- where the
 * pack evaluated the divisions and the tests per k (the loads' masks
 * then hoist out of the k' loop: a 64-channel 3x3 convolution's pack, a
 * third of its time, is one masked load and store a vector).  A bf16
 * pack's rows are pairs of k (k = 2 kk + j): kper pairs a step, 2 kper
 * k (two channels of a 3x3's taps); a vpdpbusd pack's rows groups of
 * four k (k = 4 kk + j).  Where k is (kh, kw, c) instead (an int8
 * convolution's, its channel innermost so that a group's four k are
 * four channels of one tap: qgemm), k = D s + k', D the smallest divisor
 * of k that works (the channels): an outer loop over the taps s, each a
 * run of D k (kin, kir.h), its offsets and padding tests computed once a
 * tap, and an inner one over the run.  Not for a K bounded by the length,
 * AMX's int8, or where a division of k' is left or the steps are more
 * than KPER_MAX. */
void gemm_kperiod(Gen *g, Kernel *k)
{
	KGemm *gm = &k->g;
	int nk = gemm_pairs(gm) ? 2 : gm->q ? 4 : 1, n, i, j;
	int64_t q, rows, cs[8];
	KExpr **v;

	if (!gm->bpack || gm->q == 4 || gm->kbound.c)
		return;
	rows = nk > 1 ? gm->pext[2] : gm->K;
	q = kx_max(gm->bpack, max_div, 2);
	if (q >= 2 && q <= KPER_MAX && rows % q == 0 && (v = kper_steps(g, gm, nk, rows, q, 1))) {
		gm->kper = (int)q;
		gm->bper = v;
		buf_printf(&k->fused, "    B's pack in steps of %lld k (each step's offsets and padding tests "
			"constant)\n", (long long)(nk * q));
		return;
	}
	/* the inner form: the smallest divisor first */
	n = kx_div_consts(gm->bpack, 2, cs, 8, 0);
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && cs[j - 1] > cs[j]; j--)
			q = cs[j], cs[j] = cs[j - 1], cs[j - 1] = q;
	for (i = 0; i < n; i++) {
		int64_t d = cs[i], nstep = rows * nk / d;   /* d > 1: div_consts */

		if (d % nk || (rows * nk) % d || nstep < 2 || nstep > KPER_MAX ||
				!(v = kper_steps(g, gm, nk, rows, nstep, 0)))
			continue;
		gm->kper = (int)nstep;
		gm->kin = d / nk;
		gm->bper = v;
		buf_printf(&k->fused, "    B's pack in %lld runs of %lld k (each run's offsets and padding tests "
			"constant)\n", (long long)nstep, (long long)d);
		return;
	}
}
