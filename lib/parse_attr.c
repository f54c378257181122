/*
 * parse_attr.c - attributes: numbers checked against their type, dense
 * literals (nested lists or hex), dense_resource references (patched at
 * the end of the file), dense arrays, arrays, dictionaries, symbol
 * references, #alias uses and the keyword forms; and the attribute
 * dictionaries of ops.
 */
#include <stdlib.h>
#include <string.h>

#include "parse.h"

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
	/* elements are read and printed through 64-bit integers */
	if (t->elem->kind == TY_INT && t->elem->width > 64)
		return p_error_at(p, at, "elements of integer types wider than 64 bits are not supported"), NULL;
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
			strncmp(key, "#linalg.", 8) && strncmp(key, "#torch.", 7) &&
			strncmp(key, "#sparse_tensor.", 15)) {
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
