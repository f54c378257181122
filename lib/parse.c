/*
 * parse.c - reads MLIR text (the generic form and, through the op table's
 * hooks, every custom form) into the IR.  This file has the parser's
 * core (tokens, literals) and the top level (aliases, resources, what is
 * patched at the end); parse_type.c, parse_affine.c, parse_attr.c,
 * parse_loc.c, parse_ssa.c and parse_op.c the rest, sharing parse.h.
 *
 * One Parser per file.  SSA names live in a stack of scopes: a region
 * pushes one, an IsolatedFromAbove region hides everything below it.  A
 * use of a name not yet defined makes a placeholder value in the nearest
 * isolated scope; its definition replaces the placeholder's uses, and
 * placeholders left when that scope ends are errors.  Location aliases
 * (#loc3) and dense_resource keys may be used before they are defined, so
 * both are patched at the end of the file.
 *
 * A text read from a pipe comes with its resource blobs decoded already
 * (textin.c): parse_module_blobs takes them as arguments; parse_module
 * asks textin.c for those of the text it read, if this is that text.
 *
 * Errors: the first one is reported as FILE:LINE:COL and everything after
 * it is skipped, so no half-built IR escapes.
 */
#include <stdlib.h>
#include <string.h>

#include "parse.h"

/* ---- small containers ---- */

void attrlist_add(AttrList *l, const char *name, Attr *a)
{
	NamedAttr na;

	na.name = name;
	na.val = a;
	PUSH(l->v, l->n, l->cap, na);
}

Attr *attrlist_get(const AttrList *l, const char *name)
{
	int i;

	for (i = 0; i < l->n; i++)
		if (strcmp(l->v[i].name, name) == 0)
			return l->v[i].val;
	return NULL;
}

/* ---- the parser ---- */

Ctx *p_ctx(Parser *p) { return p->c; }
void *p_alloc(Parser *p, size_t n) { return arena_alloc(p->c, n); }
const Tok *p_tok(Parser *p) { return &p->tok; }

Loc *tok_loc(Parser *p, const Tok *t)
{
	Loc *l = loc_file(p->c, p->file, t->line, t->col);

	l->implicit = 1;
	return l;
}

Loc *p_loc(Parser *p) { return tok_loc(p, &p->tok); }

static int verror_at(Parser *p, const Tok *t, const char *fmt, va_list ap)
{
	if (!p->err) {
		loc_diag(tok_loc(p, t), "error", fmt, ap);
		p->err = 1;
	}
	return -1;
}

int p_error_at(Parser *p, const Tok *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror_at(p, t, fmt, ap);
	va_end(ap);
	return -1;
}

int p_error(Parser *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror_at(p, &p->tok, fmt, ap);
	va_end(ap);
	return -1;
}

void p_skip(Parser *p)
{
	if (p->tok.kind == T_EOF || p->err)
		return;
	p->tok = lex_next(&p->lx);
	if (p->tok.kind == T_ERROR)
		p_error(p, "%s", p->lx.err);
}

int p_is(Parser *p, const char *s)
{
	if (p->tok.kind != T_PUNCT && p->tok.kind != T_IDENT)
		return 0;
	return tok_is(&p->tok, s);
}

int p_eat(Parser *p, const char *s)
{
	if (!p_is(p, s))
		return 0;
	p_skip(p);
	return 1;
}

int p_expect(Parser *p, const char *s)
{
	if (p->err)
		return -1;
	if (p_eat(p, s))
		return 0;
	return p_error(p, "expected '%s'", s);
}

const char *tok_intern(Parser *p, const Tok *t, size_t skip)
{
	return internn(p->c, t->s + skip, t->n - skip);
}

int p_keyword(Parser *p, const char **kw)
{
	if (p->tok.kind != T_IDENT)
		return p_error(p, "expected keyword");
	*kw = tok_intern(p, &p->tok, 0);
	p_skip(p);
	return 0;
}

/* ---- literals ---- */

static int hexval(int ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

/* Decodes a string token body (between the quotes) into the arena. */
int decode_string(Parser *p, const Tok *t, size_t skip,
	const char **out, size_t *outn)
{
	const char *s = t->s + skip + 1, *e = t->s + t->n - 1;
	char *buf = p_alloc(p, (size_t)(e - s) + 1), *o = buf;

	while (s < e) {
		if (*s != '\\') {
			*o++ = *s++;
			continue;
		}
		s++;
		switch (*s) {
		case 'n': *o++ = '\n'; s++; continue;
		case 't': *o++ = '\t'; s++; continue;
		case '"': *o++ = '"'; s++; continue;
		case '\\': *o++ = '\\'; s++; continue;
		}
		if (s + 1 >= e + 1 || hexval(s[0]) < 0 || hexval(s[1]) < 0)
			return p_error_at(p, t, "unknown escape in string literal");
		*o++ = (char)(hexval(s[0]) * 16 + hexval(s[1]));
		s += 2;
	}
	*o = 0;
	*out = buf;
	if (outn)
		*outn = (size_t)(o - buf);
	return 0;
}

int p_string(Parser *p, const char **s, size_t *n)
{
	if (p->tok.kind != T_STR)
		return p_error(p, "expected string");
	if (decode_string(p, &p->tok, 0, s, n))
		return -1;
	p_skip(p);
	return 0;
}

/* Value of an integer token; hex allowed.  Sets *ovf on overflow. */
uint64_t tok_uint(const Tok *t, int *ovf)
{
	uint64_t v = 0;
	size_t i = 0;
	int base = 10;

	*ovf = 0;
	if (t->n > 2 && t->s[0] == '0' && t->s[1] == 'x') {
		base = 16;
		i = 2;
	}
	for (; i < t->n; i++) {
		uint64_t d = (uint64_t)hexval(t->s[i]);

		if (v > (UINT64_MAX - d) / (uint64_t)base)
			*ovf = 1;
		v = v * (uint64_t)base + d;
	}
	return v;
}

int p_int(Parser *p, int64_t *v)
{
	int neg = 0, ovf;
	uint64_t u;

	if (p_is(p, "-")) {
		neg = 1;
		p_skip(p);
	}
	if (p->tok.kind != T_INT)
		return p_error(p, "expected integer value");
	u = tok_uint(&p->tok, &ovf);
	if (ovf || u > (uint64_t)INT64_MAX + (uint64_t)neg)
		return p_error(p, "integer value too large");
	*v = neg ? (int64_t)(0 - u) : (int64_t)u;
	p_skip(p);
	return 0;
}

int p_symbol(Parser *p, const char **name)
{
	if (p->tok.kind != T_AT)
		return p_error(p, "expected symbol reference");
	if (p->tok.s[1] == '"') {
		if (decode_string(p, &p->tok, 1, name, NULL))
			return -1;
		*name = intern(p->c, *name);
	} else {
		*name = tok_intern(p, &p->tok, 1);
	}
	p_skip(p);
	return 0;
}

/* ---- top level ---- */

/* `#name = attr` / `#loc = loc(...)` / `!name = type` */
static int parse_alias_def(Parser *p)
{
	Tok t = p->tok;
	const char *key = tok_intern(p, &t, 0);
	void *v;

	if (t.kind == T_HASH && memchr(t.s, '.', t.n))
		return p_error(p, "expected attribute alias name without '.'");
	if (pmap_get(&p->aliases, key))
		return p_error(p, "redefinition of attribute alias id '%.*s'", (int)t.n - 1, t.s + 1);
	p_skip(p);
	if (p_expect(p, "="))
		return -1;
	p->tmax = p->amax = 0;
	if (t.kind == T_BANG)
		v = p_type(p);
	else if (p_is(p, "loc")) {
		v = parse_loc(p);
		if (v && loc_levels(&p->locseen, v, 0) < 0)
			return p_error_at(p, &t, "location nested too deeply");
	} else
		v = p_attr(p, NULL);
	if (!v)
		return -1;
	*pmap_slot(&p->aliases, key, 1) = v;
	*pmap_slot(&p->adepth, key, 1) = (void *)(intptr_t)(t.kind == T_BANG ? p->tmax : p->amax);
	return 0;
}

/* The blob whose placeholder is the string token t, or NULL. */
static const TextBlob *taken_blob(Parser *p, const Tok *t)
{
	size_t at;
	int lo = 0, hi = p->ntaken;

	if (!p->ntaken || t->s < p->lx.text || t->s >= p->lx.end)
		return NULL;
	at = (size_t)(t->s - p->lx.text);
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (p->taken[mid].at < at)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < p->ntaken && p->taken[lo].at == at ? &p->taken[lo] : NULL;
}

/* Decodes "0x<align LE><data>" into a new resource. */
static int resource_entry(Parser *p, const char *dialect)
{
	Tok kt = p->tok, vt;
	const char *key;
	const TextBlob *b;
	size_t n;
	uint8_t al[4];
	uint32_t align;
	Resource *r;

	if (kt.kind == T_STR) {
		if (decode_string(p, &kt, 0, &key, NULL))
			return -1;
		key = intern(p->c, key);
	} else if (kt.kind == T_IDENT) {
		key = tok_intern(p, &kt, 0);
	} else {
		return p_error(p, "expected identifier key for 'resource' entry");
	}
	p_skip(p);
	if (p_expect(p, ":"))
		return -1;
	vt = p->tok;
	if (vt.kind == T_STR && (b = taken_blob(p, &vt))) {
		/* decoded as it was read */
		r = resource_borrow(p->c, dialect, key, b->data, b->size, b->align);
		/* textin.c's memory, the process's own: passes may write it
		 * in place, unless a reproducer may have to write it back */
		r->mut = !text_blobs_kept;
		*pmap_slot(&p->resources, key, 1) = r;
		p_skip(p);
		return 0;
	}
	if (vt.kind != T_STR || vt.n < 12 || vt.s[1] != '0' || vt.s[2] != 'x' ||
			(vt.n - 4) % 2 || hex_decode(al, vt.s + 3, 4))
		return p_error(p, "expected hex string blob for key '%s'", key);
	n = (vt.n - 4) / 2 - 4;
	align = (uint32_t)al[0] | (uint32_t)al[1] << 8 | (uint32_t)al[2] << 16 |
		(uint32_t)al[3] << 24;
	/* straight into the resource: no copy of the blob */
	r = resource_alloc(p->c, dialect, key, n, align);
	if (hex_decode(r->data, vt.s + 11, n))
		return p_error(p, "expected hex string blob for key '%s'", key);
	*pmap_slot(&p->resources, key, 1) = r;
	p_skip(p);
	return 0;
}

static int resource_group(Parser *p, int external)
{
	int n = 0;

	if (p_expect(p, ":") || p_expect(p, "{"))
		return -1;
	while (!p_is(p, "}") && !p->err) {
		const char *dialect = NULL;
		int m = 0;

		if (n++ && p_expect(p, ","))
			return -1;
		if (p_keyword(p, &dialect) || p_expect(p, ":") || p_expect(p, "{"))
			return -1;
		while (!p_is(p, "}") && !p->err) {
			if (m++ && p_expect(p, ","))
				return -1;
			if (external) {
				/* not ours to keep: skip `key: value` */
				p_skip(p);
				if (p_expect(p, ":") || !p_attr(p, NULL))
					return -1;
			} else if (resource_entry(p, dialect)) {
				return -1;
			}
		}
		if (p_expect(p, "}"))
			return -1;
	}
	return p_expect(p, "}");
}

static int parse_resources(Parser *p)
{
	int n = 0;

	p_skip(p);
	while (!p_is(p, "#-}") && !p->err) {
		if (n++ && p_expect(p, ","))
			return -1;
		if (p_is(p, "dialect_resources")) {
			p_skip(p);
			if (resource_group(p, 0))
				return -1;
		} else if (p_is(p, "external_resources")) {
			p_skip(p);
			if (resource_group(p, 1))
				return -1;
		} else {
			return p_error(p, "expected identifier key in file metadata dictionary");
		}
	}
	return p_expect(p, "#-}");
}

static Loc *resolve_loc(Parser *p, const char *name, int depth)
{
	Loc *l = pmap_get(&p->aliases, name);
	int i;

	if (!l || !pmap_get(&p->locph, l) || depth > 100)
		return l;
	for (i = 0; i < p->nlocrefs; i++)
		if (p->locrefs[i].ph == l)
			return resolve_loc(p, p->locrefs[i].name, depth + 1);
	return l;
}

/* A blob shorter than its tensor type would be read past its end.  A
 * longer one is accepted, as mlir does: the elements are its first bytes. */
static int short_blob(Parser *p, const ResRef *rr, const Resource *r)
{
	Type *t = rr->a->type, *et = ty_isshaped(t) ? t->elem : NULL;
	int64_t n = ty_numel(t);
	size_t es;
	Buf b = {0};
	int rc;

	if (n < 0 || !et || !(ty_isfloat(et) || ty_isintlike(et)))
		return 0;
	es = elem_size(et);
	if ((uint64_t)n <= r->size / es)
		return 0;
	type_str(&b, t);
	rc = p_error_at(p, &rr->tok, "dense_resource '%s' has %zu bytes, %s needs %llu",
		rr->key, r->size, b.p, (unsigned long long)n * es);
	buf_free(&b);
	return rc;
}

/* The levels of location l, or -1 past MAXNEST or in a cycle: aliases
 * used before their definition are patched in at the end, so only then
 * is it known how deep they make a location, or whether one holds itself
 * (`#a = loc(callsite(#b at ...))`, `#b = loc(callsite(#a at ...))`). */
int loc_levels(PMap *seen, Loc *l, int level)
{
	void **s;
	int d = 0, e, i;

	if (!l)
		return 0;
	if (level > MAXNEST)
		return -1;
	/* the levels + 2 once known; 1 (-1, a cycle) on the way down */
	s = pmap_slot(seen, l, 1);
	if (*s)
		return (int)(intptr_t)*s - 2;
	*s = (void *)1;
	switch (l->kind) {
	case LOC_NAME:
		d = loc_levels(seen, l->child, level + 1);
		break;
	case LOC_CALLSITE:
		d = loc_levels(seen, l->child, level + 1);
		e = loc_levels(seen, l->caller, level + 1);
		d = d < 0 || e < 0 ? -1 : d > e ? d : e;
		break;
	case LOC_FUSED:
		for (i = 0; i < l->n && d >= 0; i++)
			if ((e = loc_levels(seen, l->locs[i], level + 1)) < 0 || e > d)
				d = e;
		break;
	default:
		break;
	}
	if (d >= 0 && ++d > MAXNEST)
		d = -1;
	*pmap_slot(seen, l, 1) = (void *)(intptr_t)(d + 2);
	return d;
}

static int finish(Parser *p)
{
	PMap seen = {0};
	int i;

	for (i = 0; i < p->nlocrefs && !p->err; i++) {
		Loc *l = resolve_loc(p, p->locrefs[i].name, 0);

		if (!l || pmap_get(&p->locph, l))
			return p_error_at(p, &p->locrefs[i].tok, "undefined symbol alias id '%s'",
				p->locrefs[i].name + 1);
		*p->locrefs[i].ph = *l;
	}
	for (i = 0; i < p->nlocrefs && !p->err; i++)
		if (loc_levels(&seen, p->locrefs[i].ph, 0) < 0)
			p_error_at(p, &p->locrefs[i].tok, "location nested too deeply");
	pmap_free(&seen);
	for (i = 0; i < p->nresrefs && !p->err; i++) {
		Resource *r = pmap_get(&p->resources, p->resrefs[i].key);

		if (!r) {
			/* as mlir: a key with no blob in the file is a handle
			 * without data (printed without a blob, never read) */
			r = resource_borrow(p->c, "builtin", p->resrefs[i].key, NULL, 0, 8);
			r->mut = 0;
			*pmap_slot(&p->resources, p->resrefs[i].key, 1) = r;
		} else if ((r->data || r->fill) && short_blob(p, &p->resrefs[i], r))
			return -1;
		p->resrefs[i].a->res = r;
	}
	return p->err ? -1 : 0;
}

static Op *wrap_module(Parser *p, Block *top)
{
	const OpInfo *mi = opinfo_lookup("builtin.module");
	Op *m, *op;

	op = top->first;
	if (op && !op->next && op_is(op, "builtin.module"))
		return op;
	if (!mi)
		die("builtin.module is not in the op table");
	m = op_new(p->c, mi->name, 0, NULL, 0, NULL, 1, loc_file(p->c, p->file, 0, 0));
	m->loc->implicit = 1;
	region_append(&m->regs[0], block_new(p->c));
	while ((op = top->first)) {
		op_unlink(op);
		op_append(m->regs[0].first, op);
	}
	return m;
}

static Op *parse_top(Parser *p)
{
	Block *top = block_new(p->c);

	scope_push(p, 1);
	while (p->tok.kind != T_EOF && !p->err) {
		if ((p->tok.kind == T_HASH || p->tok.kind == T_BANG)) {
			parse_alias_def(p);
		} else if (p_is(p, "{-#")) {
			parse_resources(p);
		} else {
			Op *op = parse_op(p);

			if (op)
				op_append(top, op);
		}
	}
	scope_pop(p);
	if (p->err || finish(p))
		return NULL;
	return wrap_module(p, top);
}

Op *parse_module_blobs(Ctx *c, const char *file, const char *text, size_t len,
	const TextBlob *taken, int ntaken)
{
	Parser p;
	Op *m;

	memset(&p, 0, sizeof p);
	p.c = c;
	p.file = intern(c, file);
	lex_init(&p.lx, text, len);
	if (ntaken > 0) {
		int i;

		p.taken = taken;
		p.ntaken = ntaken;
		p.blobs = xmalloc(mulsz((size_t)ntaken, sizeof *p.blobs));
		for (i = 0; i < ntaken; i++) {
			p.blobs[i].at = taken[i].at;
			p.blobs[i].extra = taken[i].extra;
		}
		p.lx.holes = p.blobs;
		p.lx.nholes = ntaken;
	}
	p.tok = lex_next(&p.lx);
	if (p.tok.kind == T_ERROR)
		p_error(&p, "%s", p.lx.err);
	m = parse_top(&p);
	while (p.nscopes)
		scope_pop(&p);
	free(p.scopes);
	pmap_free(&p.names);
	pmap_free(&p.aliases);
	pmap_free(&p.adepth);
	pmap_free(&p.locseen);
	pmap_free(&p.affd);
	pmap_free(&p.locph);
	pmap_free(&p.resources);
	free(p.locrefs);
	free(p.resrefs);
	free(p.blobs);
	return p.err ? NULL : m;
}

Op *parse_module(Ctx *c, const char *file, const char *text, size_t len)
{
	const TextBlob *taken;
	int n = text_blobs(text, &taken);

	return parse_module_blobs(c, file, text, len, taken, n);
}
