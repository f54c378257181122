/*
 * parse_ssa.c - SSA names: the stack of scopes, bindings of %name to one
 * value per result, and placeholders for uses before definitions, whose
 * uses a definition takes over (see parse.c's overview).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"

void scope_push(Parser *p, int isolated)
{
	Scope s;

	memset(&s, 0, sizeof s);
	s.isolated = isolated;
	PUSH(p->scopes, p->nscopes, p->scap, s);
}

/* The innermost binding of name visible from the current scope. */
static Entry *lookup(Parser *p, const char *name)
{
	Entry *e = pmap_get(&p->names, name);
	int i, floor = 0;

	for (i = p->nscopes - 1; i >= 0; i--)
		if (p->scopes[i].isolated) {
			floor = i;
			break;
		}
	return e && e->depth >= floor ? e : NULL;
}

static int iso_scope(Parser *p)
{
	int i;

	for (i = p->nscopes - 1; i > 0; i--)
		if (p->scopes[i].isolated)
			return i;
	return 0;
}

static Entry *bind(Parser *p, const char *name, int depth)
{
	Entry *e = p_alloc(p, sizeof *e);
	void **slot = pmap_slot(&p->names, name, 1);
	Scope *s = &p->scopes[depth];

	e->name = name;
	e->depth = depth;
	e->prev = *slot;
	*slot = e;
	PUSH(s->defs, s->n, s->cap, e);
	return e;
}

static void entry_size(Parser *p, Entry *e, int n)
{
	if (n <= e->n)
		return;
	if (n > e->cap) {
		int cap = n < 4 ? 4 : n * 2;
		Value **v = p_alloc(p, sizeof *v * (size_t)cap);
		Tok *u = p_alloc(p, sizeof *u * (size_t)cap);
		unsigned char *pd = p_alloc(p, (size_t)cap);

		if (e->n) {
			memcpy(v, e->vals, sizeof *v * (size_t)e->n);
			memcpy(u, e->use, sizeof *u * (size_t)e->n);
			memcpy(pd, e->pending, (size_t)e->n);
		}
		e->vals = v;
		e->use = u;
		e->pending = pd;
		e->cap = cap;
	}
	e->n = n;
}

/* Bound to real values (not placeholders for forward uses)? */
static int entry_defined(const Entry *e)
{
	return e->n > 0 && e->vals[0] && !e->pending[0];
}

void scope_pop(Parser *p)
{
	Scope *s = &p->scopes[p->nscopes - 1];
	int i, j;

	for (i = s->n - 1; i >= 0; i--) {
		Entry *e = s->defs[i];

		for (j = 0; j < e->n && s->isolated; j++)
			if (e->pending[j])
				p_error_at(p, &e->use[j], "use of undeclared SSA value name");
		*pmap_slot(&p->names, e->name, 1) = e->prev;
	}
	free(s->defs);
	p->nscopes--;
}

/* A name without its sigil and without a #N suffix. */
int p_is_opref(Parser *p)
{
	return p->tok.kind == T_PCT;
}

int p_opref(Parser *p, OpRef *r)
{
	if (p->tok.kind != T_PCT)
		return p_error(p, "expected SSA operand");
	r->tok = p->tok;
	r->name = tok_intern(p, &p->tok, 1);
	r->idx = 0;
	p_skip(p);
	if (p->tok.kind == T_HASH && p->tok.s == r->tok.s + r->tok.n) {
		Tok t = p->tok;
		int ovf;
		uint64_t v;

		t.s++;
		t.n--;
		if (t.n == 0 || t.s[0] < '0' || t.s[0] > '9')
			return p_error(p, "invalid SSA value result number");
		v = tok_uint(&t, &ovf);
		if (ovf || v > 1u << 30)
			return p_error(p, "invalid SSA value result number");
		r->idx = (int)v;
		p_skip(p);
	}
	return 0;
}

int p_oprefs(Parser *p, OpRef **v, int *n)
{
	OpRef *a = NULL, r;
	int cap = 0;

	*n = 0;
	*v = NULL;
	if (!p_is_opref(p))
		return 0;
	do {
		if (p_opref(p, &r)) {
			free(a);
			return -1;
		}
		PUSH(a, *n, cap, r);
	} while (p_eat(p, ","));
	*v = p_alloc(p, sizeof r * (size_t)*n);
	memcpy(*v, a, sizeof r * (size_t)*n);
	free(a);
	return 0;
}

void type_str(Buf *b, const Type *t)
{
	b->n = 0;
	print_type(b, t);
	buf_putc(b, 0);
}

static int type_mismatch(Parser *p, const OpRef *r, Type *want, Type *have)
{
	Buf a = {0}, b = {0};

	type_str(&a, want);
	type_str(&b, have);
	p_error_at(p, &r->tok, "use of value '%%%s' expects different type than prior uses: '%s' vs '%s'",
		r->name, a.p, b.p);
	buf_free(&a);
	buf_free(&b);
	return -1;
}

Value *p_resolve(Parser *p, const OpRef *r, Type *t)
{
	Entry *e = lookup(p, r->name);
	Value *v;

	if (p->err)
		return NULL;
	if (!e)
		e = bind(p, r->name, iso_scope(p));
	if (r->idx >= e->n) {
		int i, old = e->n;

		if (entry_defined(e)) {
			/* defined, and #N is past its results */
			p_error_at(p, &r->tok, "reference to invalid result number");
			return NULL;
		}
		entry_size(p, e, r->idx + 1);
		for (i = old; i < e->n; i++) {
			e->vals[i] = NULL;
			e->pending[i] = 0;
		}
	}
	if (!(v = e->vals[r->idx])) {
		v = p_alloc(p, sizeof *v);
		v->type = t;
		e->vals[r->idx] = v;
		e->pending[r->idx] = 1;
		e->use[r->idx] = r->tok;
		return v;
	}
	if (v->type != t) {
		type_mismatch(p, r, t, v->type);
		return NULL;
	}
	return v;
}

int p_resolve_list(Parser *p, int n, const OpRef *r, int nt, Type *const *t,
	Value **out)
{
	int i;

	if (n != nt)
		return p_error(p, "%d operands present, but expected %d", n, nt);
	for (i = 0; i < n; i++)
		if (!(out[i] = p_resolve(p, &r[i], t[i])))
			return -1;
	return 0;
}

/* Binds name (results [0, n) of vals) in the current scope. */
int define_name(Parser *p, const Tok *at, const char *name, int n,
	Value **vals)
{
	Entry *e = lookup(p, name);
	int i;

	if (e && entry_defined(e))
		return p_error_at(p, at, "redefinition of SSA value '%%%s'", name);
	if (!e) {
		e = bind(p, name, p->nscopes - 1);
	} else {
		for (i = 0; i < e->n; i++) {
			if (!e->vals[i])
				continue;
			if (!e->pending[i])
				return p_error_at(p, at, "redefinition of SSA value '%%%s'", name);
			if (i >= n)
				return p_error_at(p, &e->use[i], "reference to invalid result number");
			if (e->vals[i]->type != vals[i]->type) {
				Buf a = {0}, b = {0};

				type_str(&a, vals[i]->type);
				type_str(&b, e->vals[i]->type);
				p_error_at(p, at, "definition of SSA value '%%%s#%d' has type '%s' but was used with type '%s'",
					name, i, a.p, b.p);
				buf_free(&a);
				buf_free(&b);
				return -1;
			}
			value_replace_all_uses(e->vals[i], vals[i]);
		}
	}
	entry_size(p, e, n);
	for (i = 0; i < n; i++) {
		e->vals[i] = vals[i];
		e->pending[i] = 0;
	}
	return 0;
}
