/*
 * parse_loc.c - locations, loc(...): file:line:col, names, call sites,
 * fused lists, unknown, and #loc aliases, which may be used before they
 * are defined (a placeholder, filled in by the top level's finish).
 */
#include <stdlib.h>

#include "parse.h"

static Loc *parse_loc_inner(Parser *p);

static Loc *loc_alias_use(Parser *p)
{
	const char *key = tok_intern(p, &p->tok, 0);
	Loc *l = pmap_get(&p->aliases, key);
	LocRef r;

	if (l) {
		p_skip(p);
		return l;
	}
	/* defined later in the file (MLIR prints them at the end) */
	r.ph = p_alloc(p, sizeof *r.ph);
	r.ph->kind = LOC_UNKNOWN;
	r.name = key;
	r.tok = p->tok;
	*pmap_slot(&p->locph, r.ph, 1) = r.ph;
	PUSH(p->locrefs, p->nlocrefs, p->clocrefs, r);
	p_skip(p);
	return r.ph;
}

static Loc *parse_fused(Parser *p)
{
	Attr *meta = NULL;
	Loc **v = NULL, *l;
	int n = 0, cap = 0;

	p_skip(p);
	if (p_eat(p, "<")) {
		if (!(meta = p_attr(p, NULL)) || p_expect(p, ">"))
			return NULL;
	}
	if (p_expect(p, "["))
		return NULL;
	while (!p_is(p, "]") && !p->err) {
		if (n && p_expect(p, ","))
			break;
		if (!(l = parse_loc_inner(p)))
			break;
		PUSH(v, n, cap, l);
	}
	l = NULL;
	if (p_expect(p, "]") == 0)
		l = loc_fused(p->c, n, v, meta);
	free(v);
	return l;
}

static Loc *parse_callsite(Parser *p)
{
	Loc *callee, *caller;

	p_skip(p);
	if (p_expect(p, "(") || !(callee = parse_loc_inner(p)) ||
			p_expect(p, "at") || !(caller = parse_loc_inner(p)) ||
			p_expect(p, ")"))
		return NULL;
	return loc_callsite(p->c, callee, caller);
}

static Loc *parse_loc_string(Parser *p)
{
	const char *s;
	int64_t line, col;
	Loc *child = NULL;

	if (p_string(p, &s, NULL))
		return NULL;
	s = intern(p->c, s);
	if (p_eat(p, ":")) {
		if (p->tok.kind != T_INT)
			return p_error(p, "expected integer line number in FileLineColLoc"), NULL;
		if (p_int(p, &line) || p_expect(p, ":"))
			return NULL;
		if (p->tok.kind != T_INT)
			return p_error(p, "expected integer column number in FileLineColLoc"), NULL;
		if (p_int(p, &col))
			return NULL;
		return loc_file(p->c, s, (int)line, (int)col);
	}
	if (p_eat(p, "(")) {
		if (!(child = parse_loc_inner(p)) || p_expect(p, ")"))
			return NULL;
	}
	return loc_name(p->c, s, child);
}

static Loc *parse_loc_inner(Parser *p)
{
	Loc *l = NULL;

	if (++p->depth > MAXNEST)
		return p_error(p, "location nested too deeply"), NULL;
	if (p->tok.kind == T_HASH)
		l = loc_alias_use(p);
	else if (p->tok.kind == T_STR)
		l = parse_loc_string(p);
	else if (p_eat(p, "unknown"))
		l = loc_unknown(p->c);
	else if (p_is(p, "fused"))
		l = parse_fused(p);
	else if (p_is(p, "callsite"))
		l = parse_callsite(p);
	else
		p_error(p, "expected location instance");
	p->depth--;
	return l;
}

/* `loc(...)`, the keyword current. */
Loc *parse_loc(Parser *p)
{
	Loc *l;

	p_skip(p);
	if (p_expect(p, "(") || !(l = parse_loc_inner(p)) || p_expect(p, ")"))
		return NULL;
	return l;
}
