/*
 * symbolic.c - dynamic dimensions (formats/fx-json.md, "Symbolic shapes").
 *
 * The document's top-level `symbols` table becomes one torch.symbolic_int
 * per symbol at the start of @main; a shape entry that is a string is a
 * `?` dimension whose size is an expression over those symbols.  Every
 * tensor with such a dimension (graph inputs and node results) gets a
 * torch.bind_symbolic_shape after it, as torch-mlir's FX importer makes:
 * operands the symbols it uses, sorted by name, and an affine map
 * `()[s0, s1] -> (s0, 3, s1 * 2)` with one result per dimension.
 *
 * Expressions (the exporter's grammar):
 *   expr := term (("+" | "-") term)*
 *   term := unary (("*" | "//" | "%") unary)*
 *   unary := "-" unary | atom
 *   atom := INTEGER | SYMBOL | "(" expr ")"
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fximport.h"

enum { MAXSYMS = 1024, MAXEXPR = 1024, MAXDEPTH = 64 };

/* One expression being read: symbols map to `remap` (their local index
 * in the map being built) or, with remap NULL, are recorded in `used`. */
typedef struct Ex {
	Imp *im;
	const char *path, *s, *p;
	const int *remap;
	unsigned char *used;
	int depth;
} Ex;

static _Noreturn void
ex_fail(Ex *x, const char *what)
{
	fail(x->im, x->path, "bad shape expression \"%s\": %s at offset %d", x->s, what,
	    (int)(x->p - x->s));
}

static void
skip(Ex *x)
{
	while (*x->p == ' ')
		x->p++;
}

static int
sym_index(Imp *im, const char *name, size_t n)
{
	int i;

	for (i = 0; i < im->nsyms; i++)
		if (strlen(im->sym_names[i]) == n && !strncmp(im->sym_names[i], name, n))
			return i;
	return -1;
}

static AffExpr *ex_sum(Ex *x);

static AffExpr *
ex_atom(Ex *x)
{
	AffExpr *e;

	skip(x);
	if (*x->p == '(') {
		x->p++;
		if (++x->depth > MAXDEPTH)
			ex_fail(x, "nested too deeply");
		e = ex_sum(x);
		x->depth--;
		skip(x);
		if (*x->p != ')')
			ex_fail(x, "expected ')'");
		x->p++;
		return e;
	}
	if (isdigit((unsigned char)*x->p)) {
		char *end;
		long long v;

		errno = 0;
		v = strtoll(x->p, &end, 10);
		if (errno)
			ex_fail(x, "integer out of range");
		x->p = end;
		return aff_const(x->im->c, v);
	}
	if (isalpha((unsigned char)*x->p) || *x->p == '_') {
		const char *b = x->p;
		int i;

		while (isalnum((unsigned char)*x->p) || *x->p == '_')
			x->p++;
		if ((i = sym_index(x->im, b, x->p - b)) < 0) {
			x->p = b;
			ex_fail(x, "a name that is not in the document's symbols");
		}
		if (!x->remap) {
			x->used[i] = 1;
			return aff_sym(x->im->c, 0);
		}
		return aff_sym(x->im->c, x->remap[i]);
	}
	ex_fail(x, *x->p ? "expected an integer, a symbol or '('" : "unexpected end");
}

static AffExpr *
ex_unary(Ex *x)
{
	skip(x);
	if (*x->p == '-') {
		AffExpr *e;

		x->p++;
		if (++x->depth > MAXDEPTH)
			ex_fail(x, "nested too deeply");
		e = ex_unary(x);
		x->depth--;
		return aff_bin(x->im->c, AFF_MUL, e, aff_const(x->im->c, -1));
	}
	return ex_atom(x);
}

static AffExpr *
ex_term(Ex *x)
{
	AffExpr *e = ex_unary(x), *r;

	for (;;) {
		AffKind k;

		skip(x);
		if (x->p[0] == '/' && x->p[1] == '/')
			k = AFF_FLOORDIV, x->p += 2;
		else if (*x->p == '*')
			k = AFF_MUL, x->p++;
		else if (*x->p == '%')
			k = AFF_MOD, x->p++;
		else
			return e;
		r = ex_unary(x);
		if (k != AFF_MUL && r->kind == AFF_CONST && r->v <= 0)
			ex_fail(x, "a divisor that is not positive");
		if (k == AFF_MUL && e->kind == AFF_CONST && r->kind != AFF_CONST) {
			AffExpr *t = e;   /* MLIR's order: the constant factor last */
			e = r, r = t;
		}
		e = aff_bin(x->im->c, k, e, r);
	}
}

static AffExpr *
ex_sum(Ex *x)
{
	AffExpr *e = ex_term(x);

	for (;;) {
		skip(x);
		if (*x->p == '+') {
			x->p++;
			e = aff_bin(x->im->c, AFF_ADD, e, ex_term(x));
		} else if (*x->p == '-') {
			x->p++;
			e = aff_bin(x->im->c, AFF_ADD, e,
			    aff_bin(x->im->c, AFF_MUL, ex_term(x), aff_const(x->im->c, -1)));
		} else
			return e;
	}
}

static AffExpr *
parse_expr(Imp *im, const char *s, const char *path, const int *remap, unsigned char *used)
{
	Ex x = {im, path, s, s, remap, used, 0};
	AffExpr *e;

	if (strlen(s) > MAXEXPR)
		fail(im, path, "shape expression longer than %d characters", MAXEXPR);
	e = ex_sum(&x);
	skip(&x);
	if (*x.p)
		ex_fail(&x, "unexpected character");
	return e;
}

int
shape_dim_symbolic(Imp *im, json_t *d, const char *path)
{
	unsigned char used[MAXSYMS];

	if (!json_is_string(d))
		return 0;
	if (!im->nsyms)
		fail(im, path, "a symbolic size \"%s\" in a document with no symbols table",
		    json_string_value(d));
	parse_expr(im, json_string_value(d), path, NULL, used);
	return 1;
}

static int
valid_name(const char *s)
{
	if (!*s || !(isalpha((unsigned char)*s) || *s == '_'))
		return 0;
	for (; *s; s++)
		if (!(isalnum((unsigned char)*s) || *s == '_'))
			return 0;
	return 1;
}

void
symbols_read(Imp *im)
{
	json_t *t = jopt(im, im->root, "symbols", JSON_ARRAY, ""), *e;
	size_t i;

	if (!t)
		return;
	if (json_array_size(t) > MAXSYMS)
		fail(im, "symbols", "%zu symbols; at most %d", json_array_size(t), MAXSYMS);
	im->sym_names = arena_alloc(im->c, (json_array_size(t) + 1) * sizeof *im->sym_names);
	im->sym_min = arena_alloc(im->c, (json_array_size(t) + 1) * sizeof *im->sym_min);
	im->sym_max = arena_alloc(im->c, (json_array_size(t) + 1) * sizeof *im->sym_max);
	im->sym_vals = arena_alloc(im->c, (json_array_size(t) + 1) * sizeof *im->sym_vals);
	json_array_foreach(t, i, e) {
		const char *p = pidx(im, "symbols", (int)i);
		const char *name;
		json_t *mx;

		if (!json_is_object(e))
			fail(im, p, "expected an object {\"name\", \"min\", \"max\"}");
		name = jstr(im, e, "name", p);
		if (!valid_name(name))
			fail(im, pkey(im, p, "name"), "'%s' is not a symbol name "
			    "([A-Za-z_][A-Za-z0-9_]*)", name);
		if (sym_index(im, name, strlen(name)) >= 0)
			fail(im, pkey(im, p, "name"), "symbol '%s' is declared twice", name);
		im->sym_min[i] = jint(im, e, "min", p);
		mx = json_object_get(e, "max");
		if (!mx)
			fail(im, pkey(im, p, "max"), "missing (null when unbounded)");
		if (json_is_null(mx))
			im->sym_max[i] = INT64_MAX;
		else if (json_is_integer(mx))
			im->sym_max[i] = json_integer_value(mx);
		else
			fail(im, pkey(im, p, "max"), "expected an integer or null");
		if (im->sym_min[i] < 0)
			fail(im, pkey(im, p, "min"), "a size's lower bound must be >= 0");
		if (im->sym_max[i] < im->sym_min[i])
			fail(im, p, "empty range [%lld, %lld]", (long long)im->sym_min[i],
			    (long long)im->sym_max[i]);
		im->sym_names[i] = name;
		im->nsyms = (int)i + 1;
	}
}

void
symbols_emit(Imp *im)
{
	int i;

	for (i = 0; i < im->nsyms; i++) {
		Op *op;

		im->loc = loc_name(im->c, im->sym_names[i], NULL);
		op = emit(im, "torch.symbolic_int", 0, NULL, 1,
		    (Type *[]){ty_torch(im->c, TY_TORCH_INT)});
		op_set_attr(im->c, op, "symbol_name", at_str(im->c, im->sym_names[i]));
		op_set_attr(im->c, op, "min_val", at_int(im->c, im->sym_min[i], NULL));
		op_set_attr(im->c, op, "max_val", at_int(im->c, im->sym_max[i], NULL));
		im->sym_vals[i] = RES(op, 0);
	}
}

void
bind_symbolic_shape(Imp *im, Value *v, json_t *value, const char *path)
{
	json_t *shape, *d;
	unsigned char used[MAXSYMS];
	int remap[MAXSYMS], order[MAXSYMS];
	int i, j, n = 0, any = 0;
	size_t k;
	AffExpr **res;
	Value **opnds;
	Op *op;

	if (!im->nsyms || !v || !jtag_is(value, "tensor")
	    || !(shape = json_object_get(value, "shape")) || !json_is_array(shape))
		return;
	json_array_foreach(shape, k, d)
		any |= json_is_string(d);
	if (!any || v->type->kind != TY_TORCH_VTENSOR || v->type->rank != (int)json_array_size(shape))
		return;
	memset(used, 0, (size_t)im->nsyms);
	json_array_foreach(shape, k, d)
		if (json_is_string(d))
			parse_expr(im, json_string_value(d), pidx(im, pkey(im, path, "shape"), (int)k),
			    NULL, used);
	/* the symbols used, sorted by name (torch-mlir's order) */
	for (i = 0; i < im->nsyms; i++)
		if (used[i]) {
			for (j = n; j > 0 && strcmp(im->sym_names[order[j - 1]], im->sym_names[i]) > 0; j--)
				order[j] = order[j - 1];
			order[j] = i;
			n++;
		}
	for (j = 0; j < n; j++)
		remap[order[j]] = j;
	res = arena_alloc(im->c, (json_array_size(shape) + 1) * sizeof *res);
	json_array_foreach(shape, k, d)
		res[k] = json_is_string(d)
		    ? parse_expr(im, json_string_value(d), "", remap, NULL)
		    : aff_const(im->c, json_integer_value(d));
	opnds = arena_alloc(im->c, (n + 1) * sizeof *opnds);
	opnds[0] = v;
	for (j = 0; j < n; j++)
		opnds[j + 1] = im->sym_vals[order[j]];
	op = emit(im, "torch.bind_symbolic_shape", n + 1, opnds, 0, NULL);
	op_set_attr(im->c, op, "shape_expressions",
	    at_affine_map(im->c, affmap_new(im->c, 0, n, (int)json_array_size(shape), res)));
}
