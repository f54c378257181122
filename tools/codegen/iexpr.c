/*
 * iexpr.c - index expressions: construction with folding, range analysis,
 * substitution.  Folding matters: reshapes and unit dims produce
 * floordivs and mods that range analysis removes, so the loops that reach
 * LLVM index memory with plain sums of products.
 */
#include <string.h>

#include "kir.h"

static IExpr *mk(KCtx *k, IKind kind, int64_t v, IExpr *l, IExpr *r)
{
	IExpr *e = arena_alloc(k->c, sizeof *e);

	e->kind = kind;
	e->v = v;
	e->l = l;
	e->r = r;
	return e;
}

IExpr *ix_dim(KCtx *k, int d)
{
	if (d < k->ndims && k->ext && k->ext[d] == 1)
		return ix_const(k, 0);
	return mk(k, IX_DIM, d, NULL, NULL);
}

IExpr *ix_const(KCtx *k, int64_t v) { return mk(k, IX_CONST, v, NULL, NULL); }

static int isc(const IExpr *e, int64_t v) { return e->kind == IX_CONST && e->v == v; }

/* (x floordiv c) * (c * s) + (x mod c) * s = x * s, or NULL */
static IExpr *recombine(KCtx *k, IExpr *a, IExpr *b)
{
	int64_t sa = 1, sb = 1;
	IExpr *x, *y;

	if (a->kind == IX_MUL && a->r->kind == IX_CONST)
		sa = a->r->v, a = a->l;
	if (b->kind == IX_MUL && b->r->kind == IX_CONST)
		sb = b->r->v, b = b->l;
	if (a->kind != IX_FLOORDIV || b->kind != IX_MOD)
		return NULL;
	x = a->l, y = b->l;
	if (a->r->v != b->r->v || sa != b->r->v * sb || !ix_eq(x, y))
		return NULL;
	return ix_mul(k, x, sb);
}

/* the terms of sum a into t[*n..] (at most max), NULL where more */
static int terms(IExpr *a, IExpr **t, int *n, int max)
{
	if (a->kind == IX_ADD)
		return terms(a->l, t, n, max) && terms(a->r, t, n, max);
	if (*n == max)
		return 0;
	t[(*n)++] = a;
	return 1;
}

/* a + b with a term of a recombined with one of b (the floordiv and the
 * mod of an index split into rows and columns, put back together with
 * constants between them: a padded convolution's input offset (oh + kh -
 * 1) W + ow + kw - 1, oh and ow n's row and column, is n + (kh - 1) W +
 * kw - 1), or NULL */
static IExpr *recombine_in(KCtx *k, IExpr *a, IExpr *b)
{
	IExpr *t[32], *e, *sum;
	int n = 0, na, i, j, l;

	if (!terms(a, t, &n, 16) || (na = n, !terms(b, t, &n, 32)))
		return NULL;
	for (i = 0; i < na; i++)
		for (j = na; j < n; j++) {
			if (!(e = recombine(k, t[i], t[j])) && !(e = recombine(k, t[j], t[i])))
				continue;
			sum = e;
			for (l = 0; l < n; l++)
				if (l != i && l != j)
					sum = ix_add(k, sum, t[l]);
			return sum;
		}
	return NULL;
}

IExpr *ix_add(KCtx *k, IExpr *a, IExpr *b)
{
	IExpr *e;

	if (a->kind == IX_CONST && b->kind == IX_CONST)
		return ix_const(k, a->v + b->v);
	if (isc(a, 0))
		return b;
	if (isc(b, 0))
		return a;
	if (a->kind == IX_CONST)        /* constants to the right */
		return ix_add(k, b, a);
	if (b->kind == IX_CONST && a->kind == IX_ADD && a->r->kind == IX_CONST)
		return ix_add(k, a->l, ix_const(k, a->r->v + b->v));
	if ((e = recombine(k, a, b)))
		return e;
	if (a->kind == IX_ADD && (e = recombine(k, a->r, b)))
		return ix_add(k, a->l, e);
	if ((a->kind == IX_ADD || b->kind == IX_ADD) && (e = recombine_in(k, a, b)))
		return e;
	return mk(k, IX_ADD, 0, a, b);
}

IExpr *ix_mul(KCtx *k, IExpr *a, int64_t c)
{
	if (c == 0)
		return ix_const(k, 0);
	if (c == 1)
		return a;
	if (a->kind == IX_CONST)
		return ix_const(k, a->v * c);
	if (a->kind == IX_MUL && a->r->kind == IX_CONST)
		return ix_mul(k, a->l, a->r->v * c);
	if (a->kind == IX_ADD)
		return ix_add(k, ix_mul(k, a->l, c), ix_mul(k, a->r, c));
	return mk(k, IX_MUL, 0, a, ix_const(k, c));
}

IExpr *ix_mulx(KCtx *k, IExpr *a, IExpr *b)
{
	if (b->kind == IX_CONST)
		return ix_mul(k, a, b->v);
	if (a->kind == IX_CONST)
		return ix_mul(k, b, a->v);
	return mk(k, IX_MUL, 0, a, b);
}

/* a sum's terms that are multiples of c (x * m, c dividing m), divided
 * by c into *q, and the rest into *r; 0 where none is, or more terms
 * than fit */
static int split_multiples(KCtx *k, IExpr *a, int64_t c, IExpr **q, IExpr **r)
{
	IExpr *t[16];
	int n = 0, i, any = 0;

	if (a->kind != IX_ADD || !terms(a, t, &n, 16))
		return 0;
	*q = ix_const(k, 0), *r = ix_const(k, 0);
	for (i = 0; i < n; i++)
		if (t[i]->kind == IX_MUL && t[i]->r->kind == IX_CONST && t[i]->r->v % c == 0) {
			*q = ix_add(k, *q, ix_mul(k, t[i]->l, t[i]->r->v / c));
			any = 1;
		} else
			*r = ix_add(k, *r, t[i]);
	return any;
}

IExpr *ix_floordiv(KCtx *k, IExpr *a, int64_t c)
{
	int64_t lo, hi;

	/* c is 0 only in a reshape of an empty tensor: no point of the
	 * domain reads it, any index will do */
	if (c == 0)
		return ix_const(k, 0);
	if (c == 1)
		return a;
	if (a->kind == IX_CONST)
		return ix_const(k, a->v >= 0 ? a->v / c : -((-a->v + c - 1) / c));
	if (ix_range(k, a, &lo, &hi) && lo >= 0 && hi < c)
		return ix_const(k, 0);
	/* (x * c) floordiv c = x; (x * c + y) floordiv c = x when 0 <= y < c */
	if (a->kind == IX_MUL && a->r->kind == IX_CONST && a->r->v % c == 0)
		return ix_mul(k, a->l, a->r->v / c);
	if (a->kind == IX_ADD && a->l->kind == IX_MUL && a->l->r->kind == IX_CONST &&
			a->l->r->v % c == 0 && ix_range(k, a->r, &lo, &hi) && lo >= 0 && hi < c)
		return ix_mul(k, a->l->l, a->l->r->v / c);
	/* (x * m + C) floordiv c = x * (m / c) + C floordiv c where c
	 * divides m, for any C (a pack's k as kper k' + i: gemm_plan.c) */
	if (a->kind == IX_ADD && a->l->kind == IX_MUL && a->l->r->kind == IX_CONST &&
			a->l->r->v % c == 0 && a->r->kind == IX_CONST)
		return ix_add(k, ix_mul(k, a->l->l, a->l->r->v / c), ix_floordiv(k, a->r, c));
	/* (x m + y) floordiv c = x (m / c) + y floordiv c where c divides m
	 * and y is never negative (the division is emitted as sdiv): a
	 * pack's k as D s + k', s a loop's (gemm_plan.c's inner form) */
	if (a->kind == IX_ADD && c > 0) {
		IExpr *q, *r;

		if (split_multiples(k, a, c, &q, &r) && ix_range(k, r, &lo, &hi) && lo >= 0)
			return ix_add(k, q, ix_floordiv(k, r, c));
	}
	/* (x m + y) floordiv c = x floordiv (c / m) where m divides c and 0
	 * <= y < m (k floordiv 192 of a 3x3's k = 64 s + c) */
	if (a->kind == IX_ADD && c > 0) {
		IExpr *t[16], *r;
		int n = 0, i, j;

		if (terms(a, t, &n, 16))
			for (i = 0; i < n; i++) {
				int64_t m = t[i]->kind == IX_MUL && t[i]->r->kind == IX_CONST ? t[i]->r->v : 0;

				if (m <= 1 || c % m || !ix_range(k, t[i]->l, &lo, &hi) || lo < 0)
					continue;
				r = ix_const(k, 0);
				for (j = 0; j < n; j++)
					if (j != i)
						r = ix_add(k, r, t[j]);
				if (ix_range(k, r, &lo, &hi) && lo >= 0 && hi < m)
					return ix_floordiv(k, t[i]->l, c / m);
			}
	}
	/* (x + C) floordiv c = (x + C mod c) floordiv c + C floordiv c (a
	 * pack's k as D i + k': gemm_plan.c's inner form), where x + C mod c
	 * is never negative (the division is emitted as sdiv) */
	if (a->kind == IX_ADD && a->r->kind == IX_CONST && c > 0 && (a->r->v < 0 || a->r->v >= c) &&
			ix_range(k, a->l, &lo, &hi) && lo + ((a->r->v % c) + c) % c >= 0) {
		int64_t r = ((a->r->v % c) + c) % c;

		return ix_add(k, ix_floordiv(k, ix_add(k, a->l, ix_const(k, r)), c), ix_const(k, (a->r->v - r) / c));
	}
	return mk(k, IX_FLOORDIV, 0, a, ix_const(k, c));
}

IExpr *ix_mod(KCtx *k, IExpr *a, int64_t c)
{
	int64_t lo, hi;

	if (c == 0 || c == 1)   /* 0: as in ix_floordiv */
		return ix_const(k, 0);
	if (a->kind == IX_CONST)
		return ix_const(k, ((a->v % c) + c) % c);
	if (ix_range(k, a, &lo, &hi) && lo >= 0 && hi < c)
		return a;
	if (a->kind == IX_MUL && a->r->kind == IX_CONST && a->r->v % c == 0)
		return ix_const(k, 0);
	if (a->kind == IX_ADD && a->l->kind == IX_MUL && a->l->r->kind == IX_CONST &&
			a->l->r->v % c == 0)
		return ix_mod(k, a->r, c);
	if (a->kind == IX_ADD && c > 0) {
		IExpr *q, *r;

		if (split_multiples(k, a, c, &q, &r) && ix_range(k, r, &lo, &hi) && lo >= 0)
			return ix_mod(k, r, c);
	}
	if (a->kind == IX_ADD && a->r->kind == IX_CONST && c > 0 && (a->r->v < 0 || a->r->v >= c) &&
			ix_range(k, a->l, &lo, &hi) && lo + ((a->r->v % c) + c) % c >= 0)
		return ix_mod(k, ix_add(k, a->l, ix_const(k, ((a->r->v % c) + c) % c)), c);
	return mk(k, IX_MOD, 0, a, ix_const(k, c));
}

IExpr *ix_clamp(KCtx *k, IExpr *a, int64_t lo, int64_t hi)
{
	int64_t l, h;
	IExpr *e;

	if (ix_range(k, a, &l, &h) && l >= lo && h <= hi)
		return a;
	e = mk(k, IX_CLAMP, lo, a, NULL);
	e->v2 = hi;
	return e;
}

int ix_range(KCtx *k, const IExpr *e, int64_t *lo, int64_t *hi)
{
	int64_t a, b, c, d;

	switch (e->kind) {
	case IX_DIM:
		if (!k->ext || e->v >= k->ndims)
			return 0;
		*lo = 0;
		*hi = k->ext[e->v] - 1;
		return 1;
	case IX_CONST:
		*lo = *hi = e->v;
		return 1;
	case IX_ADD:
		if (!ix_range(k, e->l, &a, &b) || !ix_range(k, e->r, &c, &d))
			return 0;
		*lo = a + c;
		*hi = b + d;
		return 1;
	case IX_MUL:
		if (e->r->kind != IX_CONST || !ix_range(k, e->l, &a, &b))
			return 0;
		if (e->r->v >= 0)
			*lo = a * e->r->v, *hi = b * e->r->v;
		else
			*lo = b * e->r->v, *hi = a * e->r->v;
		return 1;
	case IX_FLOORDIV:
		if (!ix_range(k, e->l, &a, &b) || a < 0)
			return 0;
		*lo = a / e->r->v;
		*hi = b / e->r->v;
		return 1;
	case IX_MOD:
		*lo = 0;
		*hi = e->r->v - 1;
		return 1;
	case IX_CLAMP:
		*lo = e->v;
		*hi = e->v2;
		return 1;
	}
	return 0;
}

int ix_eq(const IExpr *a, const IExpr *b)
{
	if (a == b)
		return 1;
	if (!a || !b || a->kind != b->kind || a->v != b->v || a->v2 != b->v2)
		return 0;
	return ix_eq(a->l, b->l) && ix_eq(a->r, b->r);
}

int ix_uses_dim(const IExpr *e, int d)
{
	if (!e)
		return 0;
	if (e->kind == IX_DIM)
		return e->v == d;
	return ix_uses_dim(e->l, d) || ix_uses_dim(e->r, d);
}

IExpr *ix_subst(KCtx *k, IExpr *e, IExpr *const *sub)
{
	switch (e->kind) {
	case IX_DIM: return sub[e->v];
	case IX_CONST: return e;
	case IX_ADD: return ix_add(k, ix_subst(k, e->l, sub), ix_subst(k, e->r, sub));
	case IX_MUL: return ix_mulx(k, ix_subst(k, e->l, sub), ix_subst(k, e->r, sub));
	case IX_FLOORDIV: return ix_floordiv(k, ix_subst(k, e->l, sub), e->r->v);
	case IX_MOD: return ix_mod(k, ix_subst(k, e->l, sub), e->r->v);
	case IX_CLAMP: return ix_clamp(k, ix_subst(k, e->l, sub), e->v, e->v2);
	}
	return e;
}

IExpr *ix_from_aff(KCtx *k, const AffExpr *a, IExpr *const *dims)
{
	IExpr *l, *r;

	switch (a->kind) {
	case AFF_DIM: return dims[a->v];
	case AFF_CONST: return ix_const(k, a->v);
	case AFF_SYM: return NULL;
	default: break;
	}
	l = ix_from_aff(k, a->l, dims);
	r = ix_from_aff(k, a->r, dims);
	if (!l || !r)
		return NULL;
	switch (a->kind) {
	case AFF_ADD: return ix_add(k, l, r);
	case AFF_MUL: return ix_mulx(k, l, r);
	case AFF_MOD: return r->kind == IX_CONST && r->v > 0 ? ix_mod(k, l, r->v) : NULL;
	case AFF_FLOORDIV: return r->kind == IX_CONST && r->v > 0 ? ix_floordiv(k, l, r->v) : NULL;
	case AFF_CEILDIV:
		return r->kind == IX_CONST && r->v > 0 ?
			ix_floordiv(k, ix_add(k, l, ix_const(k, r->v - 1)), r->v) : NULL;
	default: return NULL;
	}
}

int64_t ix_eval(const IExpr *e, const int64_t *d)
{
	int64_t a, b;

	switch (e->kind) {
	case IX_DIM: return d[e->v];
	case IX_CONST: return e->v;
	case IX_ADD: return ix_eval(e->l, d) + ix_eval(e->r, d);
	case IX_MUL: return ix_eval(e->l, d) * ix_eval(e->r, d);
	case IX_FLOORDIV:
		a = ix_eval(e->l, d), b = e->r->v;
		return a >= 0 ? a / b : -((-a + b - 1) / b);
	case IX_MOD:
		a = ix_eval(e->l, d), b = e->r->v;
		return ((a % b) + b) % b;
	case IX_CLAMP:
		a = ix_eval(e->l, d);
		return a < e->v ? e->v : a > e->v2 ? e->v2 : a;
	}
	return 0;
}

void ix_print(Buf *b, const IExpr *e)
{
	static const char *const ops[] = { "", "", " + ", " * ", " floordiv ", " mod " };

	switch (e->kind) {
	case IX_DIM: buf_printf(b, "d%lld", (long long)e->v); return;
	case IX_CONST: buf_printf(b, "%lld", (long long)e->v); return;
	case IX_CLAMP:
		buf_puts(b, "clamp(");
		ix_print(b, e->l);
		buf_printf(b, ", %lld, %lld)", (long long)e->v, (long long)e->v2);
		return;
	default:
		buf_putc(b, '(');
		ix_print(b, e->l);
		buf_puts(b, ops[e->kind]);
		ix_print(b, e->r);
		buf_putc(b, ')');
	}
}

/* x = c * dim d + (terms without d), syntactically? */
int ix_coef(const IExpr *x, int d, int64_t *c)
{
	int64_t a, b;

	switch (x->kind) {
	case IX_DIM: *c = x->v == d; return 1;
	case IX_CONST: *c = 0; return 1;
	case IX_ADD:
		if (!ix_coef(x->l, d, &a) || !ix_coef(x->r, d, &b))
			return 0;
		*c = a + b;
		return 1;
	case IX_MUL:
		if (x->r->kind != IX_CONST || !ix_coef(x->l, d, &a))
			return 0;
		*c = a * x->r->v;
		return 1;
	default:
		*c = 0;
		return !ix_uses_dim(x, d);
	}
}

/* ---- linear forms ---- */

/* An index as constant + sum of coefficient x atom, the atoms not sums
 * or products by constants (dims, floordiv, mod, clamps). */
enum { LF_MAX = 24 };
typedef struct LForm {
	int64_t k, c[LF_MAX];
	const IExpr *x[LF_MAX];
	int n;
} LForm;

static int lf_add(LForm *f, const IExpr *x, int64_t c)
{
	int i;

	switch (x->kind) {
	case IX_CONST:
		f->k += c * x->v;
		return 1;
	case IX_ADD:
		return lf_add(f, x->l, c) && lf_add(f, x->r, c);
	case IX_MUL:
		if (x->r->kind == IX_CONST)
			return lf_add(f, x->l, c * x->r->v);
		if (x->l->kind == IX_CONST)
			return lf_add(f, x->r, c * x->l->v);
		break;
	default:
		break;
	}
	for (i = 0; i < f->n; i++)
		if (ix_eq(f->x[i], x)) {
			f->c[i] += c;
			return 1;
		}
	if (f->n == LF_MAX)
		return 0;
	f->c[f->n] = c;
	f->x[f->n++] = x;
	return 1;
}

static int lform(LForm *f, const IExpr *x);

/* a - b as a linear form */
static int lf_sub(LForm *d, const IExpr *a, const IExpr *b)
{
	LForm fb;
	int i;

	if (!lform(d, a) || !lform(&fb, b))
		return 0;
	for (i = 0; i < fb.n; i++)
		if (!lf_add(d, fb.x[i], -fb.c[i]))
			return 0;
	d->k -= fb.k;
	return 1;
}

int ix_diff(const IExpr *a, const IExpr *b, int64_t q, int64_t *d)
{
	LForm f;
	int i;

	if (!lf_sub(&f, a, b))
		return 0;
	for (i = 0; i < f.n; i++)
		if (q ? f.c[i] % q : f.c[i])
			return 0;
	if (q && f.k % q)
		return 0;
	*d = f.k;
	return 1;
}

/* x's linear form, (y floordiv q) * c q + (y' mod q) * c taken back to
 * y * c wherever both appear, y - y' a multiple of q (then y' mod q is
 * y mod q); 0 if it has too many atoms */
static int lform(LForm *f, const IExpr *x)
{
	int i, j, again = 1;
	int64_t d;

	memset(f, 0, sizeof *f);
	if (!lf_add(f, x, 1))
		return 0;
	while (again) {
		again = 0;
		for (i = 0; i < f->n && !again; i++) {
			const IExpr *dv = f->x[i];

			if (dv->kind != IX_FLOORDIV || !f->c[i])
				continue;
			for (j = 0; j < f->n; j++) {
				const IExpr *m = f->x[j];
				int64_t c = f->c[j];

				if (m->kind != IX_MOD || m->r->v != dv->r->v || !c ||
						f->c[i] != c * dv->r->v || !ix_diff(dv->l, m->l, dv->r->v, &d))
					continue;
				f->c[i] = f->c[j] = 0;
				if (!lf_add(f, dv->l, c))
					return 0;
				again = 1;
				break;
			}
		}
	}
	return 1;
}

int ix_terms(const IExpr *x, int64_t *k, int64_t *c, const IExpr **atom, int max)
{
	LForm f;
	int i, n = 0;

	if (!lform(&f, x))
		return -1;
	*k = f.k;
	for (i = 0; i < f.n; i++) {
		if (!f.c[i])
			continue;
		if (n == max)
			return -1;
		c[n] = f.c[i];
		atom[n++] = f.x[i];
	}
	return n;
}

int ix_slope(const IExpr *x, int d, int64_t *slope)
{
	LForm f;
	int i;

	if (!lform(&f, x))
		return 0;
	*slope = 0;
	for (i = 0; i < f.n; i++) {
		if (f.x[i]->kind == IX_DIM && f.x[i]->v == d)
			*slope += f.c[i];
		else if (f.c[i] && ix_uses_dim(f.x[i], d))
			return 0;
	}
	return 1;
}
