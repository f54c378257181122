/*
 * parse_affine.c - affine maps, `affine_map<(d0, d1)[s0] -> (d0 + s0)>`:
 * expressions are folded as they are read (constants, and the
 * simplifications MLIR's parser makes), with their nesting bounded like
 * any other.
 */
#include <stdlib.h>

#include "parse.h"

typedef struct AffNames {
	int nd, ns;
	const char *names[64];   /* dims then symbols, interned */
} AffNames;

static AffExpr *aff_expr(Parser *p, AffNames *an);
static AffExpr *fold_bin(Parser *p, AffKind k, AffExpr *l, AffExpr *r);

/* The levels of an expression built here: `d0 + d0 + ...` nests to the
 * left as deep as it is long, so its length is bounded like nesting. */
static int aff_levels(Parser *p, AffExpr *e)
{
	void *d = pmap_get(&p->affd, e);

	return d ? (int)(intptr_t)d : 1;
}

/* Constant operands fold; a result outside int64 (INT64_MIN floordiv -1
 * would trap) is an error. */
static AffExpr *aff_fold(Parser *p, AffKind k, AffExpr *l, AffExpr *r)
{
	int dl, dr;
	AffExpr *e;

	if (!l || !r)
		return NULL;
	dl = aff_levels(p, l), dr = aff_levels(p, r);
	if ((dl > dr ? dl : dr) >= MAXNEST) {
		p_error(p, "expression nested too deeply");
		return NULL;
	}
	e = fold_bin(p, k, l, r);
	if (e && e->kind != AFF_CONST)
		*pmap_slot(&p->affd, e, 1) = (void *)(intptr_t)(1 + (dl > dr ? dl : dr));
	return e;
}

static AffExpr *fold_bin(Parser *p, AffKind k, AffExpr *l, AffExpr *r)
{
	if (l->kind == AFF_CONST && r->kind == AFF_CONST) {
		int64_t a = l->v, b = r->v, v = 0, m;
		int ovf = 0;

		switch (k) {
		case AFF_ADD: ovf = __builtin_add_overflow(a, b, &v); break;
		case AFF_MUL: ovf = __builtin_mul_overflow(a, b, &v); break;
		default:
			if (b == 0)
				goto keep;
			if (b == -1) {   /* a % -1 is UB for INT64_MIN */
				v = 0;
				if (k != AFF_MOD)
					ovf = __builtin_sub_overflow(0, a, &v);
				break;
			}
			m = a % b;
			if (k == AFF_MOD)   /* the sign of b, as floordiv rounds */
				v = m && (m < 0) != (b < 0) ? m + b : m;
			else if (k == AFF_FLOORDIV)
				v = a / b - (m && ((a < 0) != (b < 0)));
			else
				v = a / b + (m && ((a < 0) == (b < 0)));
		}
		if (ovf) {
			static const char *const name[] = {
				[AFF_ADD] = "+", [AFF_MUL] = "*", [AFF_MOD] = "mod",
				[AFF_FLOORDIV] = "floordiv", [AFF_CEILDIV] = "ceildiv",
			};
			p_error(p, "affine expression %lld %s %lld overflows a 64-bit integer",
				(long long)a, name[k], (long long)b);
			return NULL;
		}
		return aff_const(p->c, v);
	}
keep:
	/* like MLIR, keep constants on the right of + and * */
	if ((k == AFF_ADD || k == AFF_MUL) && l->kind == AFF_CONST) {
		AffExpr *t = l;

		l = r;
		r = t;
	}
	return aff_bin(p->c, k, l, r);
}

static AffExpr *aff_atom(Parser *p, AffNames *an)
{
	AffExpr *e;
	int i;

	if (p_eat(p, "(")) {
		e = aff_expr(p, an);
		if (!e || p_expect(p, ")"))
			return NULL;
		return e;
	}
	if (p_is(p, "-")) {
		if (p->depth >= MAXNEST) {
			p_error(p, "expression nested too deeply");
			return NULL;
		}
		p->depth++;
		p_skip(p);
		e = aff_atom(p, an);
		p->depth--;
		return e ? aff_fold(p, AFF_MUL, e, aff_const(p->c, -1)) : NULL;
	}
	if (p->tok.kind == T_INT) {
		int64_t v;

		if (p_int(p, &v))
			return NULL;
		return aff_const(p->c, v);
	}
	if (p->tok.kind == T_IDENT) {
		const char *name = tok_intern(p, &p->tok, 0);

		for (i = 0; i < an->nd + an->ns; i++)
			if (an->names[i] == name) {
				p_skip(p);
				return i < an->nd ? aff_dim(p->c, i)
					: aff_sym(p->c, i - an->nd);
			}
		p_error(p, "use of undeclared identifier");
		return NULL;
	}
	p_error(p, "expected affine expression");
	return NULL;
}

static const struct { const char *op; AffKind k; } aff_mulops[] = {
	{"*", AFF_MUL}, {"floordiv", AFF_FLOORDIV}, {"ceildiv", AFF_CEILDIV},
	{"mod", AFF_MOD},
};

static AffExpr *aff_term(Parser *p, AffNames *an)
{
	AffExpr *e = aff_atom(p, an), *r;
	size_t i;

	while (e) {
		for (i = 0; i < sizeof aff_mulops / sizeof *aff_mulops; i++)
			if (p_is(p, aff_mulops[i].op))
				break;
		if (i == sizeof aff_mulops / sizeof *aff_mulops)
			return e;
		p_skip(p);
		if (!(r = aff_atom(p, an)))
			return NULL;
		e = aff_fold(p, aff_mulops[i].k, e, r);
	}
	return NULL;
}

static AffExpr *aff_expr(Parser *p, AffNames *an)
{
	AffExpr *e, *r;

	if (++p->depth > MAXNEST) {
		p_error(p, "expression nested too deeply");
		return NULL;
	}
	e = aff_term(p, an);
	while (e && (p_is(p, "+") || p_is(p, "-"))) {
		int neg = p_is(p, "-");

		p_skip(p);
		if (!(r = aff_term(p, an)))
			return NULL;
		if (neg && !(r = aff_fold(p, AFF_MUL, r, aff_const(p->c, -1))))
			return NULL;
		e = aff_fold(p, AFF_ADD, e, r);
	}
	p->depth--;
	return e;
}

static int aff_idlist(Parser *p, AffNames *an, int *count, const char *close)
{
	*count = 0;
	while (!p_is(p, close) && !p->err) {
		if (*count && p_expect(p, ","))
			return -1;
		if (p->tok.kind != T_IDENT)
			return p_error(p, "expected bare identifier");
		if (an->nd + an->ns >= 64)
			return p_error(p, "too many affine identifiers");
		an->names[an->nd + an->ns] = tok_intern(p, &p->tok, 0);
		(*count)++;
		if (close[0] == ')')
			an->nd++;
		else
			an->ns++;
		p_skip(p);
	}
	return p_expect(p, close);
}

AffMap *parse_affine_map(Parser *p)
{
	AffNames an;
	AffExpr **res = NULL, *e;
	int n = 0, cap = 0, cnt;
	AffMap *m = NULL;

	an.nd = an.ns = 0;
	if (p_expect(p, "(") || aff_idlist(p, &an, &cnt, ")"))
		return NULL;
	if (p_eat(p, "[") && aff_idlist(p, &an, &cnt, "]"))
		return NULL;
	if (p_expect(p, "->") || p_expect(p, "("))
		return NULL;
	while (!p_is(p, ")") && !p->err) {
		if (n && p_expect(p, ","))
			break;
		if (!(e = aff_expr(p, &an)))
			break;
		PUSH(res, n, cap, e);
	}
	if (p_expect(p, ")") == 0)
		m = affmap_new(p->c, an.nd, an.ns, n, res);
	free(res);
	return m;
}
