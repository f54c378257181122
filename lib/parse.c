/*
 * parse.c - reads MLIR text (the generic form and, through the op table's
 * hooks, every custom form) into the IR.
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
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "asm.h"

/* Nesting bounds, so that no input runs the recursive descent (or the
 * printer and the walkers after it) out of stack: attributes, locations
 * and affine expressions count on p->depth together with ops and regions,
 * types on their own. */
enum {
	MAXNEST = 1000,
	MAXTYPENEST = 256,
};

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

/* A name bound in a scope: one value per result, placeholders pending. */
typedef struct Entry Entry;
struct Entry {
	const char *name;
	int depth;
	Entry *prev;          /* the binding this one shadows */
	int n, cap;
	Value **vals;
	Tok *use;             /* use token of a pending placeholder */
	unsigned char *pending;
};

typedef struct Scope {
	int isolated;
	int n, cap;
	Entry **defs;
} Scope;

/* Block labels of the region being parsed. */
typedef struct BlockRef {
	const char *name;
	Block *b;
	int defined;
	Tok tok;
} BlockRef;

typedef struct Blocks {
	int n, cap;
	BlockRef *v;
	PMap at;              /* name -> index in v + 1 */
} Blocks;

typedef struct LocRef {
	Loc *ph;
	const char *name;
	Tok tok;
} LocRef;

typedef struct ResRef {
	Attr *a;
	const char *key;
	Tok tok;
} ResRef;

struct Parser {
	Ctx *c;
	Lexer lx;
	Tok tok;
	const char *file;
	int err;
	PMap names;           /* interned name -> Entry (innermost binding) */
	Scope *scopes;
	int nscopes, scap;
	Blocks *blocks;       /* of the region being parsed */
	const OpInfo *cur;    /* op whose regions are being parsed */
	PMap aliases;         /* interned "#x" / "!x" -> Attr / Type / Loc */
	PMap locph;           /* placeholder Loc -> 1 */
	LocRef *locrefs;
	int nlocrefs, clocrefs;
	ResRef *resrefs;
	int nresrefs, cresrefs;
	PMap resources;       /* interned key -> Resource */
	const TextBlob *taken;  /* the blobs taken out of the text (textin.c), */
	int ntaken;             /* sorted by offset */
	LexHole *blobs;       /* where they were, for the lexer's columns */
	int depth;            /* nesting, against stack exhaustion */
	int tdepth;           /* type nesting, likewise */
	int tmax, amax;       /* the deepest type / attribute level reached,
	                         aliases' insides counted */
	PMap adepth;          /* alias key -> levels of its type / attribute */
	PMap locseen;         /* Loc -> its levels (loc_levels) */
	PMap affd;            /* AffExpr -> its levels, when more than 1 */
};

Ctx *p_ctx(Parser *p) { return p->c; }
void *p_alloc(Parser *p, size_t n) { return arena_alloc(p->c, n); }
const Tok *p_tok(Parser *p) { return &p->tok; }

static Loc *tok_loc(Parser *p, const Tok *t)
{
	return loc_file(p->c, p->file, t->line, t->col);
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

static const char *tok_intern(Parser *p, const Tok *t, size_t skip)
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
static int decode_string(Parser *p, const Tok *t, size_t skip,
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
static uint64_t tok_uint(const Tok *t, int *ovf)
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

/* ---- types ---- */

static const struct { const char *name; TypeKind kind; } simple_types[] = {
	{"index", TY_INDEX}, {"f16", TY_F16}, {"bf16", TY_BF16},
	{"f32", TY_F32}, {"f64", TY_F64}, {"none", TY_NONE},
};

static const struct { const char *name; TypeKind kind; } torch_scalars[] = {
	{"int", TY_TORCH_INT}, {"float", TY_TORCH_FLOAT},
	{"bool", TY_TORCH_BOOL}, {"none", TY_TORCH_NONE},
	{"str", TY_TORCH_STR}, {"Device", TY_TORCH_DEVICE}, {"device", TY_TORCH_DEVICE},
	{"number", TY_TORCH_NUMBER}, {"Generator", TY_TORCH_GENERATOR},
	{"any", TY_TORCH_ANY},
};

static Type *int_type(Parser *p, const Tok *t)
{
	size_t i = 0;
	Signedness s = SIGNLESS;
	long w = 0;

	if (t->n > 2 && t->s[0] == 's' && t->s[1] == 'i') {
		s = SIGNED;
		i = 2;
	} else if (t->n > 2 && t->s[0] == 'u' && t->s[1] == 'i') {
		s = UNSIGNED;
		i = 2;
	} else if (t->n > 1 && t->s[0] == 'i') {
		i = 1;
	} else {
		return NULL;
	}
	for (; i < t->n; i++) {
		if (t->s[i] < '0' || t->s[i] > '9' || w > 1 << 16)
			return NULL;
		w = w * 10 + (t->s[i] - '0');
	}
	if (w == 0)
		return NULL;
	return ty_int(p->c, (int)w, s);
}

/* Moves past the `x` that separates dimensions: it starts the next
 * identifier token, so the lexer restarts right after it. */
static int eat_x(Parser *p)
{
	if (p->tok.kind != T_IDENT || p->tok.s[0] != 'x')
		return p_error(p, "expected 'x' in dimension list");
	lex_reset(&p->lx, p->tok.s + 1);
	p->tok = lex_next(&p->lx);
	if (p->tok.kind == T_ERROR)
		return p_error(p, "%s", p->lx.err);
	return 0;
}

/* `4x?x` dims; *ranked 0 after `*x`.  Stops at the element type. */
static int parse_dims(Parser *p, int64_t **dims, int *rank, int *ranked)
{
	int cap = 0;

	*dims = NULL;
	*rank = 0;
	*ranked = 1;
	if (p_is(p, "*")) {
		p_skip(p);
		*ranked = 0;
		return eat_x(p);
	}
	for (;;) {
		int64_t d;
		int ovf;

		if (p_is(p, "?")) {
			d = DYN;
			p_skip(p);
		} else if (p->tok.kind == T_INT) {
			if (p->tok.n > 1 && p->tok.s[1] == 'x') {
				/* `0x3xf32` lexes as a hex number */
				lex_reset(&p->lx, p->tok.s + 1);
				p->tok = lex_next(&p->lx);
				PUSH(*dims, *rank, cap, 0);
				if (eat_x(p))
					return -1;
				continue;
			}
			d = (int64_t)tok_uint(&p->tok, &ovf);
			if (ovf || d < 0)
				return p_error(p, "invalid dimension");
			p_skip(p);
		} else {
			return 0;
		}
		PUSH(*dims, *rank, cap, d);
		if (eat_x(p))
			return -1;
	}
}

/* t, or NULL after an error at `at` when it has too many dims or
 * elements (ty_check_limits) */
static Type *shape_limits(Parser *p, const Tok *at, Type *t)
{
	Buf why = {0};

	if (t && ty_check_limits(t, &why)) {
		p_error_at(p, at, "%s", why.p);
		t = NULL;
	}
	buf_free(&why);
	return t;
}

static Type *parse_shaped(Parser *p, int vector)
{
	int64_t *dims;
	int rank, ranked;
	Type *elem, *t = NULL;
	Tok at = p->tok;

	p_skip(p);
	if (p_expect(p, "<"))
		return NULL;
	if (parse_dims(p, &dims, &rank, &ranked)) {
		free(dims);
		return NULL;
	}
	elem = p_type(p);
	if (elem && p_expect(p, ">") == 0) {
		if (vector && (!ranked || rank == 0))
			p_error(p, "vector types must have static shape");
		else if (vector)
			t = ty_vector(p->c, rank, dims, elem);
		else if (!ranked)
			t = ty_unranked_tensor(p->c, elem);
		else
			t = ty_tensor(p->c, rank, dims, elem);
	}
	free(dims);
	return shape_limits(p, &at, t);
}

/* Parses a parenthesised or bare list of types, `(` already seen. */
static int type_list_paren(Parser *p, Type ***v, int *n)
{
	if (p_expect(p, "("))
		return -1;
	if (p_eat(p, ")")) {
		*v = p_alloc(p, sizeof **v);   /* empty, but never NULL */
		*n = 0;
		return 0;
	}
	if (p_types(p, v, n))
		return -1;
	return p_expect(p, ")");
}

static Type *parse_functype(Parser *p)
{
	Type **in, **out, *one;
	int nin, nout;

	if (type_list_paren(p, &in, &nin) || p_expect(p, "->"))
		return NULL;
	if (p_is(p, "(")) {
		if (type_list_paren(p, &out, &nout))
			return NULL;
	} else {
		if (!(one = p_type(p)))
			return NULL;
		out = &one;
		nout = 1;
	}
	return ty_func(p->c, nin, in, nout, out);
}

static Type *parse_tuple(Parser *p)
{
	Type **v = NULL;
	int n = 0;

	p_skip(p);
	if (p_expect(p, "<"))
		return NULL;
	if (!p_eat(p, ">")) {
		if (p_types(p, &v, &n) || p_expect(p, ">"))
			return NULL;
	}
	return ty_tuple(p->c, n, v);
}

static Type *parse_builtin_type(Parser *p)
{
	size_t i;
	Type *t;

	for (i = 0; i < sizeof simple_types / sizeof *simple_types; i++)
		if (tok_is(&p->tok, simple_types[i].name)) {
			TypeKind k = simple_types[i].kind;

			p_skip(p);
			if (k == TY_INDEX)
				return ty_index(p->c);
			if (k == TY_NONE)
				return ty_none(p->c);
			return ty_float(p->c, k);
		}
	if (tok_is(&p->tok, "tensor"))
		return parse_shaped(p, 0);
	if (tok_is(&p->tok, "vector"))
		return parse_shaped(p, 1);
	if (tok_is(&p->tok, "tuple"))
		return parse_tuple(p);
	if ((t = int_type(p, &p->tok))) {
		p_skip(p);
		return t;
	}
	p_error(p, "expected non-function type");
	return NULL;
}

static Type *torch_type_body(Parser *p, const char *name, size_t n);

/* An alias used below level `at` adds the levels inside it: the nesting
 * bounds hold for what aliases build up as for what is written out. */
static int alias_nest(Parser *p, const char *key, int at, int *max, int limit)
{
	int d = at + (int)(intptr_t)pmap_get(&p->adepth, key);

	if (d > limit)
		return -1;
	if (d > *max)
		*max = d;
	return 0;
}

/* One level deeper into a type; an error past MAXTYPENEST.  The caller
 * steps back out with p->tdepth--. */
static int type_enter(Parser *p)
{
	if (p->tdepth >= MAXTYPENEST)
		return p_error(p, "type nested too deeply"), -1;
	if (++p->tdepth > p->tmax)
		p->tmax = p->tdepth;
	return 0;
}

/* A type inside a torch container: `int`, `vtensor<...>` or `!torch.int`. */
static Type *torch_inner(Parser *p)
{
	Tok t = p->tok;
	Type *ty;

	if (t.kind == T_BANG)
		return p_type(p);
	if (t.kind != T_IDENT) {
		p_error(p, "expected torch type");
		return NULL;
	}
	if (type_enter(p))
		return NULL;
	p_skip(p);
	ty = torch_type_body(p, t.s, t.n);
	p->tdepth--;
	return ty;
}

static Type *torch_tensor(Parser *p, int value)
{
	int64_t *dims = NULL;
	int rank = -1, cap = 0;
	Type *dtype = NULL, *t;
	Tok at;

	if (!p_eat(p, "<"))
		goto done;
	if (p_eat(p, "*")) {
		rank = -1;
	} else {
		at = p->tok;
		if (p_expect(p, "["))
			return NULL;
		rank = 0;
		while (!p_is(p, "]") && !p->err) {
			int64_t d = DYN;

			if (rank && p_expect(p, ","))
				break;
			if (!p_eat(p, "?") && p_int(p, &d))
				break;
			PUSH(dims, rank, cap, d);
		}
		if (p_expect(p, "]"))
			goto fail;
	}
	if (p_expect(p, ","))
		goto fail;
	if (!p_eat(p, "unk") && !(dtype = p_type(p)))
		goto fail;
	if (p_expect(p, ">"))
		goto fail;
done:
	t = value ? ty_vtensor(p->c, rank, dims, dtype)
		: ty_torch_tensor(p->c, rank, dims, dtype);
	free(dims);
	return rank < 0 ? t : shape_limits(p, &at, t);
fail:
	free(dims);
	return NULL;
}

static Type *torch_multi(Parser *p, int isunion)
{
	Type **v = NULL, *t;
	int n = 0, cap = 0;

	if (p_expect(p, "<"))
		return NULL;
	while (!p_is(p, ">") && !p->err) {
		if (n && p_expect(p, ","))
			break;
		if (!(t = torch_inner(p)))
			break;
		PUSH(v, n, cap, t);
	}
	t = NULL;
	if (p_expect(p, ">") == 0)
		t = isunion ? ty_torch_union(p->c, n, v) : ty_torch_tuple(p->c, n, v);
	free(v);
	return t;
}

static Type *torch_type_body(Parser *p, const char *name, size_t n)
{
	Tok t = { T_IDENT, name, n, 0, 0 };
	size_t i;
	Type *e;

	for (i = 0; i < sizeof torch_scalars / sizeof *torch_scalars; i++)
		if (tok_is(&t, torch_scalars[i].name))
			return ty_torch(p->c, torch_scalars[i].kind);
	if (tok_is(&t, "vtensor"))
		return torch_tensor(p, 1);
	if (tok_is(&t, "tensor"))
		return torch_tensor(p, 0);
	if (tok_is(&t, "list") || tok_is(&t, "optional")) {
		if (p_expect(p, "<") || !(e = torch_inner(p)) || p_expect(p, ">"))
			return NULL;
		return name[0] == 'l' ? ty_torch_list(p->c, e)
			: ty_torch_optional(p->c, e);
	}
	if (tok_is(&t, "tuple"))
		return torch_multi(p, 0);
	if (tok_is(&t, "union"))
		return torch_multi(p, 1);
	p_error(p, "unknown torch type '%.*s'", (int)n, name);
	return NULL;
}

/* The raw text of a `<...>` dialect body starting at the lexer position;
 * strings may hold brackets. */
static int raw_body(Parser *p, const char *start, const char **end)
{
	const char *q = start, *e = p->lx.end;
	int depth = 0;

	for (; q < e; q++) {
		if (*q == '"') {
			for (q++; q < e && *q != '"'; q++)
				if (*q == '\\')
					q++;
		} else if (*q == '<' || *q == '(' || *q == '[' || *q == '{') {
			depth++;
		} else if (*q == '>' || *q == ')' || *q == ']' || *q == '}') {
			if (--depth == 0) {
				*end = q + 1;
				return 0;
			}
		}
	}
	lex_reset(&p->lx, e);
	p->tok = lex_next(&p->lx);
	return p_error(p, "unbalanced '<' character in pretty dialect name");
}

/* `!foo.bar<...>` or `#foo.bar<...>`: kept as text.  The token is current;
 * the body, if any, follows it directly. */
static const char *opaque_text(Parser *p)
{
	const char *s = p->tok.s, *e = p->tok.s + p->tok.n;

	if (e < p->lx.end && *e == '<') {
		if (raw_body(p, e, &e))
			return NULL;
		lex_reset(&p->lx, e);
	}
	p_skip(p);
	return internn(p->c, s, (size_t)(e - s));
}

static Type *parse_bang_type(Parser *p)
{
	const Tok t = p->tok;
	const char *key = tok_intern(p, &t, 0), *text;
	Type *ty;

	if ((ty = pmap_get(&p->aliases, key))) {
		if (alias_nest(p, key, p->tdepth - 1, &p->tmax, MAXTYPENEST))
			return p_error(p, "type nested too deeply"), NULL;
		p_skip(p);
		return ty;
	}
	if (t.n > 7 && memcmp(t.s, "!torch.", 7) == 0) {
		p_skip(p);
		return torch_type_body(p, t.s + 7, t.n - 7);
	}
	if (!memchr(t.s, '.', t.n)) {
		p_error(p, "undefined symbol alias id '%.*s'", (int)t.n - 1, t.s + 1);
		return NULL;
	}
	if (!ctx_allow_unregistered) {
		p_error(p, "dialect '%.*s' is unknown",
			(int)((const char *)memchr(t.s, '.', t.n) - t.s - 1), t.s + 1);
		return NULL;
	}
	if (!(text = opaque_text(p)))
		return NULL;
	return ty_opaque(p->c, text);
}

static Type *type_at(Parser *p)
{
	if (p->tok.kind == T_BANG)
		return parse_bang_type(p);
	if (p_is(p, "("))
		return parse_functype(p);
	if (p->tok.kind == T_IDENT)
		return parse_builtin_type(p);
	p_error(p, "expected type");
	return NULL;
}

Type *p_type(Parser *p)
{
	Type *t;

	if (p->err)
		return NULL;
	if (type_enter(p))
		return NULL;
	t = type_at(p);
	p->tdepth--;
	return t;
}

int p_types(Parser *p, Type ***v, int *n)
{
	Type **a = NULL, *t;
	int cap = 0;

	*n = 0;
	do {
		if (!(t = p_type(p))) {
			free(a);
			return -1;
		}
		PUSH(a, *n, cap, t);
	} while (p_eat(p, ","));
	*v = p_alloc(p, sizeof *a * (size_t)*n);
	memcpy(*v, a, sizeof *a * (size_t)*n);
	free(a);
	return 0;
}

int p_type_group(Parser *p, Type ***v, int *n)
{
	if (p_is(p, "(")) {
		/* a function type is also a single type */
		return type_list_paren(p, v, n);
	}
	*v = p_alloc(p, sizeof **v);
	*n = 1;
	return ((*v)[0] = p_type(p)) ? 0 : -1;
}

int p_functional(Parser *p, Type ***in, int *nin, Type ***out, int *nout)
{
	if (type_list_paren(p, in, nin) || p_expect(p, "->"))
		return -1;
	return p_type_group(p, out, nout);
}

/* ---- affine maps ---- */

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

static AffMap *parse_affine_map(Parser *p)
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

/* ---- attributes ---- */

/* Why the integer -u (neg) or u does not fit the integer type, as
 * MLIR's parser says it, or NULL.  Signless types take either the
 * signed or the unsigned range (255 : i8 is -1), si* the signed one,
 * ui* the unsigned one. */
static const char *int_range(const Type *type, uint64_t u, int neg,
	const char *what)
{
	static char msg[64];
	int w;
	uint64_t max;

	if (!type || !ty_isintlike(type))
		return NULL;
	w = ty_bitwidth(type);
	if (neg && u && type->kind == TY_INT && type->sign == UNSIGNED)
		return what[0] == 'a' ? "negative integer literal not valid for unsigned integer type"
		    : "expected unsigned integer elements, but parsed negative value";
	if (w > 64)
		return NULL;   /* i65 and wider hold every 64-bit literal */
	if (neg)
		max = (uint64_t)1 << (w - 1);
	else if (type->kind == TY_INT && type->sign == SIGNED)
		max = ((uint64_t)1 << (w - 1)) - 1;
	else
		max = w == 64 ? UINT64_MAX : ((uint64_t)1 << w) - 1;
	if (u <= max)
		return NULL;
	snprintf(msg, sizeof msg, "integer constant out of range for %s", what);
	return msg;
}

/* A number literal (the sign is the caller's), as the given type. */
static Attr *number_attr_for(Parser *p, const Tok *t, int neg, Type *type,
	const char *what)
{
	int ovf;
	const char *why;

	if (t->kind == T_FLOAT || (type && ty_isfloat(type))) {
		double v;

		if (t->kind == T_INT && t->n > 2 && t->s[1] == 'x') {
			uint64_t bits = tok_uint(t, &ovf);
			Type *ft = type ? type : ty_float(p->c, TY_F64);
			int w = ty_bitwidth(ft);

			if (neg)
				return p_error_at(p, t, "hexadecimal float literal should not have a leading minus"), NULL;
			/* the bits of one value of the type, no more (MLIR's check) */
			if (ovf || (w < 64 && bits >> w))
				return p_error_at(p, t, "hexadecimal float constant out of range for type"), NULL;
			v = fp_from_bits(bits, ft);
			return at_float(p->c, v, type);
		}
		if (type && !ty_isfloat(type)) {
			p_error_at(p, t, "floating point value not valid for specified type");
			return NULL;
		}
		if (type && type->kind == TY_F32)
			v = strtof(internn(p->c, t->s, t->n), NULL);
		else
			v = strtod(internn(p->c, t->s, t->n), NULL);
		return at_float(p->c, neg ? -v : v, type ? type : ty_float(p->c, TY_F64));
	}
	{
		uint64_t u = tok_uint(t, &ovf);

		if (ovf) {
			p_error_at(p, t, "integer constant out of range for %s", what);
			return NULL;
		}
		if ((why = int_range(type, u, neg, what))) {
			p_error_at(p, t, "%s", why);
			return NULL;
		}
		return at_int(p->c, neg ? (int64_t)(0 - u) : (int64_t)u, type);
	}
}

static Attr *number_attr(Parser *p, const Tok *t, int neg, Type *type)
{
	return number_attr_for(p, t, neg, type, "attribute");
}

static Attr *parse_number(Parser *p, Type *type)
{
	int neg = p_eat(p, "-");
	Tok t = p->tok;

	if (t.kind != T_INT && t.kind != T_FLOAT) {
		p_error(p, "expected integer or floating point literal");
		return NULL;
	}
	p_skip(p);
	if (p_eat(p, ":") && !(type = p_type(p)))
		return NULL;
	if (type && type->kind == TY_INT && type->width == 1 && t.kind == T_INT) {
		return number_attr(p, &t, neg, type);
	}
	if (type && !ty_isfloat(type) && !ty_isintlike(type)) {
		p_error_at(p, &t, "invalid type for number literal");
		return NULL;
	}
	return number_attr(p, &t, neg, type);
}

/* A dense literal before its type is known: a flat list of element
 * tokens (with signs) and the nested list shape. */
typedef struct DenseLit {
	Tok *elts;
	unsigned char *neg;
	int n, cap, capn;
	int64_t shape[16];
	int rank;          /* -1 until the first innermost element is seen */
	Tok hex;           /* "0x..." string form */
	int ishex;
} DenseLit;

static int dense_list(Parser *p, DenseLit *d, int depth)
{
	int64_t count = 0;

	if (depth >= 16)
		return p_error(p, "dense literal nested too deeply");
	if (!p_is(p, "[")) {
		int neg = p_eat(p, "-");

		if (d->rank < 0)
			d->rank = depth;
		else if (d->rank != depth)
			return p_error(p, "tensor literal is invalid; ranks are not consistent between elements");
		if (p->tok.kind != T_INT && p->tok.kind != T_FLOAT &&
				!p_is(p, "true") && !p_is(p, "false"))
			return p_error(p, "expected element literal of primitive type");
		PUSH(d->elts, d->n, d->cap, p->tok);
		d->n--;
		PUSH(d->neg, d->n, d->capn, (unsigned char)neg);
		p_skip(p);
		return 0;
	}
	p_skip(p);
	while (!p_is(p, "]") && !p->err) {
		if (count && p_expect(p, ","))
			return -1;
		if (dense_list(p, d, depth + 1))
			return -1;
		count++;
	}
	if (p_expect(p, "]"))
		return -1;
	if (d->rank < 0)
		d->rank = depth + 1;     /* `[]` */
	if (depth < d->rank) {
		if (d->shape[depth] && d->shape[depth] != count)
			return p_error(p, "tensor literal is invalid; ranks are not consistent between elements");
		d->shape[depth] = count;
	}
	return 0;
}

static void put_elem(uint8_t *o, const Type *et, double f, int64_t i)
{
	size_t sz = elem_size(et);

	if (ty_isfloat(et)) {
		uint64_t bits = fp_bits(f, et);

		memcpy(o, &bits, sz);   /* little-endian hosts */
	} else {
		memcpy(o, &i, sz);
	}
}

/* One element token as a value of type et. */
static int dense_elem(Parser *p, const Tok *t, int neg, const Type *et,
	uint8_t *o)
{
	Attr *a;

	if (tok_is(t, "true") || tok_is(t, "false")) {
		if (!(et->kind == TY_INT && et->width == 1))
			return p_error_at(p, t, "expected i1 type for 'true' or 'false' values");
		put_elem(o, et, 0, t->s[0] == 't');
		return 0;
	}
	if (!ty_isfloat(et) && !ty_isintlike(et))
		return p_error_at(p, t, "expected integer or float element type");
	if (!(a = number_attr_for(p, t, neg, (Type *)et, "type")))
		return -1;
	put_elem(o, et, a->f, a->i);
	return 0;
}

static Attr *dense_hex(Parser *p, DenseLit *d, Type *t)
{
	const char *s = d->hex.s + 3, *e = d->hex.s + d->hex.n - 1;
	size_t n = (size_t)(e - s) / 2, es = elem_size(t->elem);
	int64_t numel = ty_numel(t);
	uint8_t *buf;
	Attr *a;

	if ((size_t)(e - s) % 2 || numel < 0 ||
			(n != es && n != (size_t)numel * es)) {
		p_error_at(p, &d->hex, "elements hex data size is invalid for provided type");
		return NULL;
	}
	buf = xmalloc(n ? n : 1);
	if (hex_decode(buf, s, n)) {
		free(buf);
		p_error_at(p, &d->hex, "expected string containing hex digits starting with `0x`");
		return NULL;
	}
	a = at_dense(p->c, t, buf, n, n == es && numel != 1);
	free(buf);
	return a;
}

static int check_dense_shape(Parser *p, DenseLit *d, Type *t, const Tok *at)
{
	int i;

	if (d->rank == 0)
		return 0;    /* splat */
	if (!t->ranked || d->rank != t->rank)
		goto bad;
	for (i = 0; i < d->rank; i++)
		if (t->dims[i] != d->shape[i])
			goto bad;
	return 0;
bad:
	return p_error_at(p, at, "inferred shape of elements literal does not match type");
}

static Attr *dense_build(Parser *p, DenseLit *d, Type *t, const Tok *at)
{
	size_t es;
	uint8_t *buf;
	int64_t i, numel = ty_numel(t);
	Attr *a = NULL;

	if (!ty_isshaped(t) || t->kind == TY_TORCH_VTENSOR || !t->elem)
		return p_error_at(p, at, "elements literal must be a shaped type"), NULL;
	if (numel < 0)
		return p_error_at(p, at, "elements literal type must have static shape"), NULL;
	if (d->ishex)
		return dense_hex(p, d, t);
	if (d->rank < 0) {    /* dense<> */
		if (numel != 0)
			return p_error_at(p, at, "parsed zero elements, but type (%s) expected at least 1", "tensor"), NULL;
		return at_dense(p->c, t, NULL, 0, 0);
	}
	if (check_dense_shape(p, d, t, at))
		return NULL;
	es = elem_size(t->elem);
	buf = xcalloc((size_t)d->n + 1, es);
	for (i = 0; i < d->n; i++)
		if (dense_elem(p, &d->elts[i], d->neg[i], t->elem, buf + i * es))
			goto out;
	a = at_dense(p->c, t, buf, (size_t)d->n * es, d->rank == 0 && numel != 1);
out:
	free(buf);
	return a;
}

static Attr *parse_dense(Parser *p)
{
	DenseLit d;
	Tok at = p->tok;
	Type *t;
	Attr *a = NULL;

	memset(&d, 0, sizeof d);
	d.rank = -1;
	p_skip(p);
	if (p_expect(p, "<"))
		return NULL;
	if (p->tok.kind == T_STR) {
		if (p->tok.n < 4 || p->tok.s[1] != '0' || p->tok.s[2] != 'x') {
			p_error(p, "expected string containing hex digits starting with `0x`");
			return NULL;
		}
		d.ishex = 1;
		d.hex = p->tok;
		p_skip(p);
	} else if (!p_is(p, ">") && dense_list(p, &d, 0)) {
		goto out;
	}
	if (p_expect(p, ">") || p_expect(p, ":") || !(t = p_type(p)))
		goto out;
	a = dense_build(p, &d, t, &at);
out:
	free(d.elts);
	free(d.neg);
	return a;
}

static Attr *parse_dense_resource(Parser *p)
{
	Tok key;
	Type *t;
	ResRef r;
	Attr *a;

	p_skip(p);
	if (p_expect(p, "<"))
		return NULL;
	key = p->tok;
	if (key.kind != T_IDENT && key.kind != T_STR) {
		p_error(p, "expected resource handle");
		return NULL;
	}
	p_skip(p);
	if (p_expect(p, ">") || p_expect(p, ":") || !(t = p_type(p)))
		return NULL;
	a = at_dense_resource(p->c, t, NULL);
	r.a = a;
	r.tok = key;
	if (key.kind == T_STR) {
		if (decode_string(p, &key, 0, &r.key, NULL))
			return NULL;
		r.key = intern(p->c, r.key);
	} else {
		r.key = tok_intern(p, &key, 0);
	}
	PUSH(p->resrefs, p->nresrefs, p->cresrefs, r);
	return a;
}

static Attr *parse_dense_array(Parser *p)
{
	Type *et;
	int64_t *v = NULL;
	int n = 0, cap = 0;
	Attr *a = NULL;

	p_skip(p);
	if (p_expect(p, "<") || !(et = p_type(p)))
		return NULL;
	if (!ty_isfloat(et) && et->kind != TY_INT) {
		p_error(p, "expected integer or float type");
		return NULL;
	}
	if (p_eat(p, ":")) {
		do {
			Attr *e;
			int64_t x;

			if (p_is(p, "true") || p_is(p, "false")) {
				x = p_is(p, "true");
				p_skip(p);
			} else {
				if (!(e = parse_number(p, et)))
					goto out;
				if (ty_isfloat(et))
					memcpy(&x, &e->f, sizeof x);
				else
					x = e->i;
			}
			PUSH(v, n, cap, x);
		} while (p_eat(p, ","));
	}
	if (p_expect(p, ">") == 0)
		a = at_dense_array(p->c, et, n, v);
out:
	free(v);
	return a;
}

static Attr *parse_array(Parser *p)
{
	Attr **v = NULL, *e, *a = NULL;
	int n = 0, cap = 0;

	if (p->depth >= MAXNEST) {
		p_error(p, "attribute nested too deeply");
		return NULL;
	}
	if (++p->depth > p->amax)
		p->amax = p->depth;
	p_skip(p);
	while (!p_is(p, "]") && !p->err) {
		if (n && p_expect(p, ","))
			break;
		if (!(e = p_attr(p, NULL)))
			break;
		PUSH(v, n, cap, e);
	}
	if (p_expect(p, "]") == 0)
		a = at_array(p->c, n, v);
	free(v);
	p->depth--;
	return a;
}

static Attr *parse_dict(Parser *p)
{
	AttrList l = {0, 0, NULL};
	Attr *a = NULL;

	if (p->depth >= MAXNEST) {
		p_error(p, "attribute nested too deeply");
		return NULL;
	}
	if (++p->depth > p->amax)
		p->amax = p->depth;
	if (p_attr_dict(p, &l) == 0)
		a = at_dict(p->c, l.n, l.v);
	free(l.v);
	p->depth--;
	return a;
}

static Attr *parse_symref(Parser *p)
{
	const char *root, *s;
	Attr **nest = NULL, *a;
	int n = 0, cap = 0;

	if (p_symbol(p, &root))
		return NULL;
	while (p_eat(p, "::")) {
		if (p_symbol(p, &s)) {
			free(nest);
			return NULL;
		}
		PUSH(nest, n, cap, at_symref(p->c, s));
	}
	a = at_symref(p->c, root);
	if (n) {
		a->n = (size_t)n;
		a->elts = p_alloc(p, sizeof *nest * (size_t)n);
		memcpy(a->elts, nest, sizeof *nest * (size_t)n);
	}
	free(nest);
	return a;
}

/* Opaque dialect attrs we pass through: linalg's iterator types come back
 * as strings, the form our IR keeps them in. */
static Attr *parse_hash_attr(Parser *p)
{
	const char *key = tok_intern(p, &p->tok, 0), *text;
	static const char it[] = "#linalg.iterator_type<";
	Attr *a;

	if ((a = pmap_get(&p->aliases, key))) {
		if (alias_nest(p, key, p->depth, &p->amax, MAXNEST))
			return p_error(p, "attribute nested too deeply"), NULL;
		p_skip(p);
		return a;
	}
	if (!memchr(p->tok.s, '.', p->tok.n)) {
		p_error(p, "undefined symbol alias id '%.*s'", (int)p->tok.n - 1, p->tok.s + 1);
		return NULL;
	}
	if (!ctx_allow_unregistered && strncmp(key, "#arith.", 7) &&
			strncmp(key, "#linalg.", 8) && strncmp(key, "#torch.", 7)) {
		p_error(p, "dialect '%.*s' is unknown",
			(int)((const char *)memchr(p->tok.s, '.', p->tok.n) - p->tok.s - 1),
			p->tok.s + 1);
		return NULL;
	}
	if (!(text = opaque_text(p)))
		return NULL;
	if (strncmp(text, it, sizeof it - 1) == 0)
		return at_strn(p->c, text + sizeof it - 1, strlen(text) - sizeof it);
	return at_opaque(p->c, text);
}

static Attr *parse_keyword_attr(Parser *p, Type *type)
{
	Type *t;

	if (p_is(p, "true") || p_is(p, "false")) {
		int v = p_is(p, "true");

		p_skip(p);
		return at_bool(p->c, v);
	}
	if (p_is(p, "dense"))
		return parse_dense(p);
	if (p_is(p, "dense_resource"))
		return parse_dense_resource(p);
	if (p_is(p, "array"))
		return parse_dense_array(p);
	if (p_is(p, "unit")) {
		p_skip(p);
		return at_unit(p->c);
	}
	if (p_is(p, "affine_map")) {
		AffMap *m;

		p_skip(p);
		if (p_expect(p, "<") || !(m = parse_affine_map(p)) || p_expect(p, ">"))
			return NULL;
		return at_affine_map(p->c, m);
	}
	(void)type;
	if (!(t = p_type(p)))
		return NULL;
	return at_type(p->c, t);
}

Attr *p_attr(Parser *p, Type *type)
{
	const Tok t = p->tok;

	if (p->err)
		return NULL;
	switch (t.kind) {
	case T_INT: case T_FLOAT:
		return parse_number(p, type);
	case T_STR: {
		const char *s;
		size_t n;

		if (p_string(p, &s, &n))
			return NULL;
		return at_strn(p->c, s, n);
	}
	case T_AT:
		return parse_symref(p);
	case T_HASH:
		return parse_hash_attr(p);
	case T_IDENT: case T_BANG:
		return parse_keyword_attr(p, type);
	default:
		break;
	}
	if (p_is(p, "-"))
		return parse_number(p, type);
	if (p_is(p, "["))
		return parse_array(p);
	if (p_is(p, "{"))
		return parse_dict(p);
	if (p_is(p, "(")) {
		Type *ft = p_type(p);

		return ft ? at_type(p->c, ft) : NULL;
	}
	p_error(p, "expected attribute value");
	return NULL;
}

static int attr_dict(Parser *p, AttrList *l, PMap *seen);
static int loc_levels(PMap *seen, Loc *l, int level);

/* Is name already a key of l's entries from first on?  A scan while they
 * are few, then a set of them (seen), so a big dictionary is not
 * quadratic. */
static int dup_key(AttrList *l, int first, PMap *seen, const char *name)
{
	int i;

	if (l->n - first < 16) {
		for (i = first; i < l->n; i++)
			if (l->v[i].name == name)
				return 1;
		return 0;
	}
	if (!seen->cap)
		for (i = first; i < l->n; i++)
			*pmap_slot(seen, l->v[i].name, 1) = (void *)1;
	if (pmap_get(seen, name))
		return 1;
	*pmap_slot(seen, name, 1) = (void *)1;
	return 0;
}

int p_attr_dict(Parser *p, AttrList *l)
{
	PMap seen = {0};
	int rc;

	rc = attr_dict(p, l, &seen);
	pmap_free(&seen);
	return rc;
}

static int attr_dict(Parser *p, AttrList *l, PMap *seen)
{
	int first = l->n;

	if (!p_eat(p, "{"))
		return 0;
	while (!p_is(p, "}") && !p->err) {
		const char *name;
		Tok nt = p->tok;
		Attr *a;

		if (l->n > first && p_expect(p, ","))
			return -1;
		nt = p->tok;
		if (nt.kind == T_STR) {
			if (p_string(p, &name, NULL))
				return -1;
			name = intern(p->c, name);
		} else if (nt.kind == T_IDENT) {
			name = tok_intern(p, &nt, 0);
			p_skip(p);
		} else {
			return p_error(p, "expected attribute name");
		}
		if (dup_key(l, first, seen, name))
			return p_error_at(p, &nt, "duplicate key '%s' in dictionary attribute", name);
		if (p_eat(p, "=")) {
			if (!(a = p_attr(p, NULL)))
				return -1;
		} else {
			a = at_unit(p->c);
		}
		attrlist_add(l, name, a);
	}
	return p_expect(p, "}");
}

int p_attr_dict_kw(Parser *p, AttrList *l)
{
	if (!p_eat(p, "attributes"))
		return 0;
	if (!p_is(p, "{"))
		return p_error(p, "expected '{'");
	return p_attr_dict(p, l);
}

/* ---- locations ---- */

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
static Loc *parse_loc(Parser *p)
{
	Loc *l;

	p_skip(p);
	if (p_expect(p, "(") || !(l = parse_loc_inner(p)) || p_expect(p, ")"))
		return NULL;
	return l;
}

/* ---- SSA names ---- */

static void scope_push(Parser *p, int isolated)
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

static void scope_pop(Parser *p)
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

static void type_str(Buf *b, const Type *t)
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
static int define(Parser *p, const Tok *at, const char *name, int n,
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

/* ---- blocks and regions ---- */

static BlockRef *block_ref(Parser *p, const Tok *t)
{
	Blocks *bs = p->blocks;
	const char *name = tok_intern(p, t, 0);
	BlockRef r;
	void **slot;

	if (!bs) {
		p_error_at(p, t, "blocks are only allowed inside regions");
		return NULL;
	}
	slot = pmap_slot(&bs->at, name, 1);
	if (*slot)
		return &bs->v[(intptr_t)*slot - 1];
	*slot = (void *)(intptr_t)(bs->n + 1);
	r.name = name;
	r.b = block_new(p->c);
	r.defined = 0;
	r.tok = *t;
	PUSH(bs->v, bs->n, bs->cap, r);
	return &bs->v[bs->n - 1];
}

int p_argdef(Parser *p, ArgDef *a, int with_attrs)
{
	memset(a, 0, sizeof *a);
	if (p_opref(p, &a->ref))
		return -1;
	if (a->ref.idx)
		return p_error_at(p, &a->ref.tok, "invalid block argument name");
	if (p_expect(p, ":") || !(a->type = p_type(p)))
		return -1;
	if (with_attrs && p_is(p, "{")) {
		AttrList l = {0, 0, NULL};

		if (p_attr_dict(p, &l) == 0)
			a->attrs = at_dict(p->c, l.n, l.v);
		free(l.v);
		if (p->err)
			return -1;
	}
	if (p_is(p, "loc") && !(a->loc = parse_loc(p)))
		return -1;
	return 0;
}

static int add_args(Parser *p, Block *b, int n, const ArgDef *args)
{
	int i;

	for (i = 0; i < n; i++) {
		Loc *l = args[i].loc ? args[i].loc : tok_loc(p, &args[i].ref.tok);
		Value *v = block_add_arg(p->c, b, args[i].type, l);

		if (define(p, &args[i].ref.tok, args[i].ref.name, 1, &v))
			return -1;
	}
	return 0;
}

/* `^bb1(%a: T, ...):`, the label current. */
static Block *parse_label(Parser *p, Region *r)
{
	Tok t = p->tok;
	BlockRef *br = block_ref(p, &t);
	ArgDef a;

	if (!br)
		return NULL;
	if (br->defined)
		return p_error(p, "redefinition of block '%.*s'", (int)t.n, t.s), NULL;
	br->defined = 1;
	region_append(r, br->b);
	p_skip(p);
	if (p_eat(p, "(")) {
		int n = 0;

		while (!p_is(p, ")") && !p->err) {
			if (n++ && p_expect(p, ","))
				return NULL;
			if (p_argdef(p, &a, 0) || add_args(p, br->b, 1, &a))
				return NULL;
		}
		if (p_expect(p, ")"))
			return NULL;
	}
	if (p_expect(p, ":"))
		return NULL;
	return br->b;
}

static Op *parse_op(Parser *p);

/* Ops until `}` or the next label. */
static int parse_block_body(Parser *p, Block *b)
{
	while (!p->err && !p_is(p, "}") && p->tok.kind != T_CARET) {
		Op *op;

		if (p->tok.kind == T_EOF)
			return p_error(p, "expected '}' to end region");
		if (!(op = parse_op(p)))
			return -1;
		op_append(b, op);
	}
	return p->err ? -1 : 0;
}

static int region_blocks(Parser *p, Region *r, int nargs, const ArgDef *args)
{
	Block *b;

	if (nargs >= 0 || !p_is(p, "}")) {
		if (p->tok.kind == T_CARET) {
			if (nargs > 0)
				return p_error(p, "invalid block name in region with named arguments");
			if (!(b = parse_label(p, r)))
				return -1;
		} else {
			b = block_new(p->c);
			region_append(r, b);
			if (nargs > 0 && add_args(p, b, nargs, args))
				return -1;
		}
		if (parse_block_body(p, b))
			return -1;
	}
	while (p->tok.kind == T_CARET) {
		if (!(b = parse_label(p, r)) || parse_block_body(p, b))
			return -1;
	}
	return 0;
}

int p_region(Parser *p, Region *r, int nargs, const ArgDef *args)
{
	Blocks bs = {0}, *saved = p->blocks;
	const OpInfo *cur = p->cur;
	int i, rc = -1;

	memset(r, 0, sizeof *r);
	if (p_is(p, "{") && p->depth >= 200)
		return p_error(p, "regions nested too deeply");
	if (p_expect(p, "{"))
		return -1;
	p->depth++;
	p->blocks = &bs;
	scope_push(p, cur && (cur->traits & TR_ISOLATED));
	if (region_blocks(p, r, nargs, args) == 0 && p_expect(p, "}") == 0) {
		rc = 0;
		for (i = 0; i < bs.n; i++)
			if (!bs.v[i].defined) {
				rc = p_error_at(p, &bs.v[i].tok, "reference to an undefined block");
				break;
			}
	}
	scope_pop(p);
	if (p->err)
		rc = -1;
	free(bs.v);
	pmap_free(&bs.at);
	p->blocks = saved;
	p->depth--;
	return rc;
}

void p_take_region(Op *op, int i, Region *r)
{
	Region *dst = &op->regs[i];
	Block *b;

	dst->first = r->first;
	dst->last = r->last;
	dst->parent = op;
	for (b = dst->first; b; b = b->next)
		b->parent = dst;
	r->first = r->last = NULL;
}

/* Sets al's attributes on the new op as op_set_attr one by one would (a
 * later one of a name replaces the value, in the first's place), but
 * with a map of the names, not a scan of the op's attributes per name. */
static void set_attrs(Parser *p, Op *op, const AttrList *al)
{
	PMap pos = {0};
	NamedAttr *v;
	void **slot;
	int i, n = 0;

	if (op->nattrs || al->n < 16) {
		for (i = 0; i < al->n; i++)
			op_set_attr(p->c, op, al->v[i].name, al->v[i].val);
		return;
	}
	v = p_alloc(p, sizeof *v * (size_t)al->n);
	for (i = 0; i < al->n; i++) {
		slot = pmap_slot(&pos, intern(p->c, al->v[i].name), 1);
		if (*slot) {
			v[(intptr_t)*slot - 1].val = al->v[i].val;
			continue;
		}
		*slot = (void *)(intptr_t)(n + 1);
		v[n++] = al->v[i];
	}
	pmap_free(&pos);
	op->attrs = v;
	op->nattrs = n;
	op->attrcap = al->n;
}

Op *p_make(Parser *p, const OpInfo *info, int nopnds, Value *const *opnds,
	int nres, Type *const *restypes, int nregs, Loc *loc, AttrList *al)
{
	Op *op;

	if (nres && !restypes) {
		free(al ? al->v : NULL);
		p_error(p, "'%s' op has no results to bind", info->name);
		return NULL;
	}
	op = op_new(p->c, info->name, nopnds, opnds, nres, restypes, nregs, loc);

	if (al) {
		set_attrs(p, op, al);
		free(al->v);
	}
	return op;
}

/* ---- operations ---- */

/* linalg's generic form spells iterator types as opaque attrs; ours are
 * strings (parse_hash_attr converts), nothing else to do here. */

static int parse_successors(Parser *p, Block ***v, int *n)
{
	Block **a = NULL;
	int cap = 0;

	*n = 0;
	do {
		BlockRef *br;

		if (p->tok.kind != T_CARET)
			return free(a), p_error(p, "expected block name");
		if (!(br = block_ref(p, &p->tok)))
			return free(a), -1;
		PUSH(a, *n, cap, br->b);
		p_skip(p);
	} while (p_eat(p, ","));
	*v = p_alloc(p, sizeof *a * (size_t)*n);
	memcpy(*v, a, sizeof *a * (size_t)*n);
	free(a);
	return p_expect(p, "]");
}

static int generic_regions(Parser *p, Region **regs, int *nregs)
{
	Region *v = NULL, r;
	int cap = 0;

	*nregs = 0;
	do {
		if (p_region(p, &r, -1, NULL)) {
			free(v);
			return -1;
		}
		PUSH(v, *nregs, cap, r);
	} while (p_eat(p, ","));
	*regs = p_alloc(p, sizeof r * (size_t)*nregs);
	if (*nregs)
		memcpy(*regs, v, sizeof r * (size_t)*nregs);
	free(v);
	return p_expect(p, ")");
}

static Op *parse_generic_op(Parser *p, const Tok *nt, int nres, Loc *loc)
{
	const char *name;
	const OpInfo *info;
	OpRef *refs;
	Block **succs = NULL;
	Region *regs = NULL;
	AttrList al = {0, 0, NULL};
	Type **in, **out;
	int nref, nsucc = 0, nregs = 0, nin, nout, i;
	Value **vals;
	Op *op;

	if (decode_string(p, nt, 0, &name, NULL))
		return NULL;
	name = intern(p->c, name);
	info = opinfo_lookup(name);
	if (!info && !ctx_allow_unregistered) {
		const char *dot = strchr(name, '.');

		p_error_at(p, nt, "unregistered operation '%s' found in dialect ('%.*s') that does not allow unknown operations",
			name, dot ? (int)(dot - name) : 0, name);
		return NULL;
	}
	p_skip(p);
	if (p_expect(p, "(") || p_oprefs(p, &refs, &nref) || p_expect(p, ")"))
		return NULL;
	if (p_eat(p, "[") && parse_successors(p, &succs, &nsucc))
		return NULL;
	if (p_eat(p, "(")) {
		const OpInfo *saved = p->cur;

		p->cur = info;
		i = generic_regions(p, &regs, &nregs);
		p->cur = saved;
		if (i)
			return NULL;
	}
	if (p_attr_dict(p, &al) || p_expect(p, ":"))
		return free(al.v), NULL;
	if (p_functional(p, &in, &nin, &out, &nout))
		return free(al.v), NULL;
	vals = p_alloc(p, sizeof *vals * (size_t)(nref + 1));
	if (p_resolve_list(p, nref, refs, nin, in, vals))
		return free(al.v), NULL;
	if (nres && nout != nres) {
		free(al.v);
		p_error_at(p, nt, "operation defines %d results but was provided %d to bind", nout, nres);
		return NULL;
	}
	op = op_new(p->c, name, nref, vals, nout, out, nregs, loc);
	set_attrs(p, op, &al);
	free(al.v);
	for (i = 0; i < nregs; i++)
		p_take_region(op, i, &regs[i]);
	if (info && (info->traits & TR_SYMTAB) && nregs && !op->regs[0].first)
		region_append(&op->regs[0], block_new(p->c));
	if (nsucc)
		op_set_successors(p->c, op, nsucc, succs);
	return op;
}

/* The op's info for a custom-form name, trying the default dialects. */
static const OpInfo *custom_info(const Tok *t)
{
	static const char *const prefixes[] = { "", "func.", "builtin." };
	char buf[256];
	size_t i;

	for (i = 0; i < sizeof prefixes / sizeof *prefixes; i++) {
		const OpInfo *info;

		if (strlen(prefixes[i]) + t->n >= sizeof buf)
			break;
		snprintf(buf, sizeof buf, "%s%.*s", prefixes[i], (int)t->n, t->s);
		if ((info = opinfo_lookup(buf)) && info->parse)
			return info;
	}
	return NULL;
}

static Op *parse_custom_op(Parser *p, const Tok *nt, int nres, Loc *loc)
{
	const OpInfo *info = custom_info(nt), *saved = p->cur;
	Op *op;

	if (!info) {
		p_error_at(p, nt, "custom op '%.*s' is unknown", (int)nt->n, nt->s);
		return NULL;
	}
	p_skip(p);
	p->cur = info;
	op = info->parse(p, info, nres, loc);
	p->cur = saved;
	if (!op && !p->err)
		p_error_at(p, nt, "failed to parse '%s'", info->name);
	if (op && nres && op->nres != nres) {
		p_error_at(p, nt, "operation defines %d results but was provided %d to bind",
			op->nres, nres);
		return NULL;
	}
	return p->err ? NULL : op;
}

typedef struct ResGroup {
	Tok tok;
	const char *name;
	int n;
} ResGroup;

/* `%a, %b:2 =` */
static int parse_results(Parser *p, ResGroup **v, int *ng, int *total)
{
	ResGroup *a = NULL, g;
	int cap = 0;

	*ng = *total = 0;
	if (p->tok.kind != T_PCT)
		return 0;
	do {
		if (p->tok.kind != T_PCT)
			return free(a), p_error(p, "expected SSA operand");
		g.tok = p->tok;
		g.name = tok_intern(p, &p->tok, 1);
		g.n = 1;
		p_skip(p);
		if (p_eat(p, ":")) {
			int64_t n;

			if (p->tok.kind != T_INT || p_int(p, &n) || n < 1 || n > 1 << 20)
				return free(a), p_error(p, "expected integer number of results");
			g.n = (int)n;
		}
		PUSH(a, *ng, cap, g);
		*total += g.n;
	} while (p_eat(p, ","));
	*v = a;
	return p_expect(p, "=");
}

static int bind_results(Parser *p, Op *op, ResGroup *g, int ng)
{
	int i, k = 0;

	for (i = 0; i < ng; i++) {
		Value **vals = p_alloc(p, sizeof *vals * (size_t)g[i].n);
		int j;

		for (j = 0; j < g[i].n; j++)
			vals[j] = RES(op, k + j);
		if (define(p, &g[i].tok, g[i].name, g[i].n, vals))
			return -1;
		k += g[i].n;
	}
	return 0;
}

static Op *parse_op(Parser *p)
{
	ResGroup *groups = NULL;
	int ng, nres;
	Tok nt;
	Loc *loc;
	Op *op = NULL;

	if (++p->depth > 400)
		return p_error(p, "operations nested too deeply"), NULL;
	if (parse_results(p, &groups, &ng, &nres))
		goto out;
	nt = p->tok;
	loc = tok_loc(p, &nt);
	if (nt.kind == T_STR)
		op = parse_generic_op(p, &nt, nres, loc);
	else if (nt.kind == T_IDENT)
		op = parse_custom_op(p, &nt, nres, loc);
	else
		p_error(p, nres ? "expected operation name in quotes" : "expected operation name");
	if (!op)
		goto out;
	if (p_is(p, "loc")) {
		Loc *l = parse_loc(p);

		if (!l) {
			op = NULL;
			goto out;
		}
		op->loc = l;
	}
	if (bind_results(p, op, groups, ng))
		op = NULL;
out:
	free(groups);
	p->depth--;
	return p->err ? NULL : op;
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
		r->mut = 1;   /* textin.c's memory, the process's own */
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
static int loc_levels(PMap *seen, Loc *l, int level)
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

		if (!r)
			return p_error_at(p, &p->resrefs[i].tok, "unknown dense_resource '%s'",
				p->resrefs[i].key);
		if (short_blob(p, &p->resrefs[i], r))
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
