/*
 * parse_type.c - types: the builtin ones (integers, floats, index,
 * tensors and vectors, functions, tuples), torch's !torch.* types, other
 * dialects' types kept as opaque text, and !alias uses.  Types nest on a
 * depth of their own (type_enter), aliases' insides counted.
 */
#include <stdlib.h>
#include <string.h>

#include "parse.h"

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

/* Float types the IR carries but no stage computes in (f8 and f4 kinds,
 * tf32, f80, f128): kept as their spelling, an opaque type, so that they
 * parse, compare and print back; a stage that meets one refuses it. */
static const char *const other_floats[] = {
	"f8E5M2", "f8E4M3", "f8E4M3FN", "f8E5M2FNUZ", "f8E4M3FNUZ",
	"f8E4M3B11FNUZ", "f8E3M4", "f8E8M0FNU", "f6E2M3FN", "f6E3M2FN",
	"f4E2M1FN", "tf32", "f80", "f128",
};

/* `complex<T>`, T a float type: opaque, as above. */
static Type *parse_complex(Parser *p)
{
	Type *e;
	Buf b = {0};

	p_skip(p);
	if (p_expect(p, "<") || !(e = p_type(p)))
		return NULL;
	if (!ty_isfloat(e) && !(e->kind == TY_OPAQUE && e->text[0] != '!'
			&& strncmp(e->text, "complex", 7))) {
		p_error(p, "invalid element type for complex");
		return NULL;
	}
	if (p_expect(p, ">"))
		return NULL;
	buf_puts(&b, "complex<");
	print_type(&b, e);
	buf_puts(&b, ">");
	buf_putc(&b, 0);
	e = ty_opaque(p->c, b.p);
	buf_free(&b);
	return e;
}

static Type *parse_builtin_type(Parser *p)
{
	size_t i;
	Type *t;

	for (i = 0; i < sizeof other_floats / sizeof *other_floats; i++)
		if (tok_is(&p->tok, other_floats[i])) {
			p_skip(p);
			return ty_opaque(p->c, other_floats[i]);
		}
	if (tok_is(&p->tok, "complex"))
		return parse_complex(p);

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
int alias_nest(Parser *p, const char *key, int at, int *max, int limit)
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

/* What a torch tensor may hold: integers, floats (the opaque ones too),
 * complex numbers and torch's quantized types. */
static int valid_dtype(const Type *t)
{
	if (ty_isint(t) || ty_isfloat(t))
		return 1;
	if (t->kind != TY_OPAQUE)
		return 0;
	if (!strncmp(t->text, "!torch.", 7))
		return t->text[7] == 'q';   /* the quantized ones of torch_opaque */
	return t->text[0] != '!' && t->text[0] != '#';
}

/* The dimensions an encoding's map takes: `map = (d0, d1) -> ...`, or
 * `map = [s0](d0) -> ...`; -1 when it has no map. */
static int encoding_dims(const char *s)
{
	const char *m = strstr(s, "map"), *e;
	int n = 0;

	if (!m || !(m = strchr(m, '(')))
		return -1;
	if (!(e = strchr(m, ')')))
		return -1;
	for (m++; m < e; m++)
		if (*m == 'd' && (m[-1] == '(' || m[-1] == ' ' || m[-1] == ','))
			n++;
	return n;
}

/* A torch tensor's third part: a #sparse_tensor.encoding<...>, whose map
 * takes as many dimensions as the tensor has. */
static const char *sparse_encoding(Parser *p, const Tok *at, int rank)
{
	static const char want[] = "#sparse_tensor.encoding<";
	Attr *a = p_attr(p, NULL);
	int n;

	if (!a)
		return NULL;
	if (a->kind != AT_OPAQUE || strncmp(a->s, want, sizeof want - 1)) {
		p_error_at(p, at, "invalid sparsity encoding attribute");
		return NULL;
	}
	if (rank >= 0 && (n = encoding_dims(a->s)) >= 0 && n != rank) {
		p_error_at(p, at, "dimension-rank mismatch between encoding and tensor shape: %d != %d", n, rank);
		return NULL;
	}
	return a->s;
}

static Type *torch_tensor(Parser *p, int value)
{
	int64_t *dims = NULL;
	int rank = -1, cap = 0;
	Type *dtype = NULL, *t;
	Tok at, dt, et;
	const char *enc = NULL;

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
	dt = p->tok;
	if (!p_eat(p, "unk") && !(dtype = p_type(p)))
		goto fail;
	if (dtype && !valid_dtype(dtype)) {
		Buf b = {0};

		print_type(&b, dtype);
		buf_putc(&b, 0);
		p_error_at(p, &dt, "invalid dtype '%s' for !torch.%s type", b.p,
		    value ? "vtensor" : "tensor");
		buf_free(&b);
		goto fail;
	}
	et = p->tok;
	if (p_eat(p, ",") && !(enc = sparse_encoding(p, &et, rank)))
		goto fail;
	if (p_expect(p, ">"))
		goto fail;
done:
	t = value ? ty_vtensor(p->c, rank, dims, dtype)
		: ty_torch_tensor(p->c, rank, dims, dtype);
	if (enc)
		t = ty_torch_encoded(p->c, t, enc);
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

/* torch types no stage computes with (quantized dtypes, packed linear
 * parameters): opaque types spelled `!torch.NAME`. */
static const char *const torch_opaque[] = {
	"qint8", "quint8", "qint16", "qint32", "quint4x2", "quint2x4",
	"LinearParams",
};

static Type *torch_opaque_type(Parser *p, Buf *b)
{
	Type *t;

	buf_putc(b, 0);
	t = ty_opaque(p->c, b->p);
	buf_free(b);
	return t;
}

/* `nn.Module<"name">`: the type of a torch.nn_module of class @name. */
static Type *torch_module_type(Parser *p)
{
	Buf b = {0};
	const char *s;
	size_t n, i;

	if (p_expect(p, "<") || p_string(p, &s, &n))
		return NULL;
	for (i = 0; i < n; i++)
		if (s[i] == '"' || s[i] == '\\' || (unsigned char)s[i] < 0x20)
			return p_error(p, "invalid class name in !torch.nn.Module"), NULL;
	if (p_expect(p, ">"))
		return NULL;
	buf_printf(&b, "!torch.nn.Module<\"%.*s\">", (int)n, s);
	return torch_opaque_type(p, &b);
}

/* `dict<K, V>`. */
static Type *torch_dict_type(Parser *p)
{
	Buf b = {0};
	Type *k, *v;

	if (p_expect(p, "<") || !(k = torch_inner(p)) || p_expect(p, ",")
			|| !(v = torch_inner(p)) || p_expect(p, ">"))
		return NULL;
	buf_puts(&b, "!torch.dict<");
	print_torch_inner(&b, k);
	buf_puts(&b, ", ");
	print_torch_inner(&b, v);
	buf_puts(&b, ">");
	return torch_opaque_type(p, &b);
}

static Type *torch_type_body(Parser *p, const char *name, size_t n)
{
	Tok t = { T_IDENT, name, n, 0, 0 };
	size_t i;
	Type *e;

	for (i = 0; i < sizeof torch_scalars / sizeof *torch_scalars; i++)
		if (tok_is(&t, torch_scalars[i].name))
			return ty_torch(p->c, torch_scalars[i].kind);
	for (i = 0; i < sizeof torch_opaque / sizeof *torch_opaque; i++)
		if (tok_is(&t, torch_opaque[i])) {
			Buf b = {0};

			buf_printf(&b, "!torch.%s", torch_opaque[i]);
			return torch_opaque_type(p, &b);
		}
	if (tok_is(&t, "nn.Module"))
		return torch_module_type(p);
	if (tok_is(&t, "dict"))
		return torch_dict_type(p);
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
		} else if (*q == '>' && q > start && q[-1] == '-') {
			continue;   /* `->` of an affine map, as MLIR's lexer reads it */
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
const char *opaque_text(Parser *p)
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
