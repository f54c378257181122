/* schema.c - op schemas: from lib/torch_ops.def rows ("Tensor self,
 * *Scalar alpha=1") or from the operators the exporter recorded. */
#include <stdlib.h>
#include <string.h>

#include "fximport.h"

/* Schema types live as long as the process: one arena for all of them. */
static Ctx *stypes;

static SType *
mk(SKind k, SType *elem)
{
	SType *t;

	if (!stypes)
		stypes = ctx_new();
	t = arena_alloc(stypes, sizeof *t);

	t->k = k;
	t->elem = elem;
	return t;
}

static int
starts(const char *s, size_t n, const char *pre)
{
	size_t m = strlen(pre);

	return n > m && !strncmp(s, pre, m) && s[n - 1] == ']';
}

static const struct {
	const char *name;
	SKind k;
} bases[] = {
	{"Tensor", SK_TENSOR}, {"int", SK_INT}, {"SymInt", SK_INT},
	{"float", SK_FLOAT}, {"bool", SK_BOOL}, {"str", SK_STR},
	{"Scalar", SK_SCALAR}, {"number", SK_SCALAR}, {"ScalarType", SK_INT},
	{"Layout", SK_INT}, {"MemoryFormat", SK_INT}, {"Device", SK_DEVICE},
	{"Generator", SK_GENERATOR},
};

/* Both spellings: "Optional[List[int]]" and "int[2]?". */
SType *
stype_parse(const char *s, size_t n)
{
	size_t i;
	const char *lb;

	while (n && s[n - 1] == ' ')
		n--;
	if (n && s[n - 1] == '?')
		return mk(SK_OPTIONAL, stype_parse(s, n - 1));
	if (starts(s, n, "Optional["))
		return mk(SK_OPTIONAL, stype_parse(s + 9, n - 10));
	if (starts(s, n, "List["))
		return mk(SK_LIST, stype_parse(s + 5, n - 6));
	lb = memchr(s, '[', n);
	if (lb && s[n - 1] == ']') {
		SType *t = mk(SK_LIST, stype_parse(s, lb - s));
		t->len = atoi(lb + 1);
		return t;
	}
	for (i = 0; i < sizeof bases / sizeof *bases; i++)
		if (strlen(bases[i].name) == n && !strncmp(bases[i].name, s, n))
			return mk(bases[i].k, NULL);
	return mk(SK_ANY, NULL);
}

/* Next comma-separated field of s, skipping commas in [] and "". */
static const char *
field_end(const char *s)
{
	int depth = 0, quote = 0;

	for (; *s; s++) {
		if (*s == '"')
			quote = !quote;
		else if (!quote && *s == '[')
			depth++;
		else if (!quote && *s == ']')
			depth--;
		else if (!quote && !depth && *s == ',')
			break;
	}
	return s;
}

static int
is_float_text(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] == '.' || s[i] == 'e' || s[i] == 'E' || s[i] == 'n')
			return 1;
	return 0;
}

/* A default written in a .def row, as a tagged arg. */
static json_t *
parse_default(const char *s, size_t n)
{
	char buf[256];

	snprintf(buf, sizeof buf, "%.*s", (int)n, s);
	if (!strcmp(buf, "None"))
		return tag_none();
	if (!strcmp(buf, "True") || !strcmp(buf, "False"))
		return tag_bool(buf[0] == 'T');
	if (buf[0] == '"') {
		buf[strlen(buf) - 1] = 0;
		return tag_str(buf + 1);
	}
	if (buf[0] == '[') {
		json_t *l = tag_list(), *items = list_items(l);
		const char *p = s + 1, *end = s + n - 1, *q;
		for (; p < end; p = q + 1) {
			for (q = p; q < end && *q != ','; q++)
				;
			if (q > p)
				json_array_append_new(items, parse_default(p, q - p));
		}
		return l;
	}
	if (!strcmp(buf, "inf") || !strcmp(buf, "-inf") || is_float_text(buf, n))
		return tag_float(strtod(buf, NULL));
	return tag_int(strtoll(buf, NULL, 10));
}

/* Defaults live as long as the schemas: one process-wide array owns them. */
static json_t *defaults;

static void
parse_param(Ctx *c, Param *p, const char *s, const char *end)
{
	const char *sp, *eq, *ns;

	if (*s == '*') {
		p->kwonly = 1;
		s++;
	}
	/* the type may hold no space: "Optional[List[int]]" */
	for (sp = s; sp < end && *sp != ' '; sp++)
		;
	p->type = stype_parse(s, sp - s);
	for (eq = sp; eq < end && *eq != '='; eq++)
		;
	ns = sp < end ? sp + 1 : sp;
	p->name = arena_strndup(c, ns, eq - ns);
	if (eq < end) {
		if (!defaults)
			defaults = json_array();
		p->dflt = parse_default(eq + 1, end - eq - 1);
		json_array_append_new(defaults, p->dflt);
	}
}

static void
parse_rets(Ctx *c, Schema *sc, const char *r)
{
	const char *e;
	int n = 0;

	for (e = r; *e; e = *e ? e + 1 : e) {   /* count, then fill */
		e = field_end(e);
		n++;
	}
	sc->rets = arena_alloc(c, n * sizeof *sc->rets);
	for (; *r; r = *e ? e + 1 : e) {
		e = field_end(r);
		sc->rets[sc->nrets++] = stype_parse(r, e - r);
	}
}

/* Which arguments an op writes: the exporter's schema says; failing that,
 * a trailing-underscore op writes its self. */
static void
mark_mutable(Schema *sc, const OpInfo *info, json_t *jop)
{
	json_t *args = json_object_get(jop, "arguments"), *a;
	size_t i;
	int k;

	json_array_foreach(args, i, a) {
		const char *name = json_string_value(json_object_get(a, "name"));
		for (k = 0; name && k < sc->n; k++)
			if (!strcmp(sc->p[k].name, name))
				sc->p[k].mutable = json_is_true(json_object_get(a, "mutable"));
	}
	if (!args && sc->n && (info->traits & (TR_INPLACE | TR_MUTABLE)))
		sc->p[0].mutable = 1;
}

Schema *
schema_from_sig(Imp *im, const OpInfo *info, json_t *jop)
{
	Schema *sc = arena_alloc(im->c, sizeof *sc);
	const char *s = info->sig->args, *e;

	int n = 0;

	for (e = s; *e; e = *e ? e + 1 : e) {   /* count, then fill */
		e = field_end(e);
		n++;
	}
	sc->p = arena_alloc(im->c, n * sizeof *sc->p);
	for (; *s; s = *e ? e + 1 : e) {
		e = field_end(s);
		parse_param(im->c, &sc->p[sc->n++], s, e);
	}
	parse_rets(im->c, sc, info->sig->rets);
	mark_mutable(sc, info, jop);
	return sc;
}

Schema *
schema_from_json(Imp *im, json_t *jop, const char *path)
{
	Schema *sc = arena_alloc(im->c, sizeof *sc);
	json_t *args = jreq(im, jop, "arguments", JSON_ARRAY, path);
	json_t *rets = jreq(im, jop, "returns", JSON_ARRAY, path), *a;
	const char *ap = pkey(im, path, "arguments");
	size_t i;

	sc->p = arena_alloc(im->c, (json_array_size(args) + 1) * sizeof *sc->p);
	json_array_foreach(args, i, a) {
		const char *p = pidx(im, ap, i), *type = jstr(im, a, "type", p);
		Param *q = &sc->p[sc->n++];
		q->name = jstr(im, a, "name", p);
		q->type = stype_parse(type, strlen(type));
		q->kwonly = json_is_true(json_object_get(a, "kwarg_only"));
		q->mutable = json_is_true(json_object_get(a, "mutable"));
		q->dflt = json_object_get(a, "default");
	}
	sc->rets = arena_alloc(im->c, (json_array_size(rets) + 1) * sizeof *sc->rets);
	json_array_foreach(rets, i, a) {
		const char *type = jstr(im, a, "type", pidx(im, pkey(im, path, "returns"), i));
		sc->rets[sc->nrets++] = stype_parse(type, strlen(type));
	}
	return sc;
}

/* For a callee we know nothing about: every argument as it comes. */
Schema *
schema_any(Imp *im, int nargs, json_t *kwargs)
{
	Schema *sc = arena_alloc(im->c, sizeof *sc);
	const char *key;
	json_t *v;

	sc->nrets = -1;   /* as many as the recorded value has */
	sc->p = arena_alloc(im->c, (nargs + json_object_size(kwargs) + 1) * sizeof *sc->p);
	for (sc->n = 0; sc->n < nargs; sc->n++) {
		sc->p[sc->n].name = "";
		sc->p[sc->n].type = mk(SK_ANY, NULL);
	}
	json_object_foreach(kwargs, key, v) {
		sc->p[sc->n].name = key;
		sc->p[sc->n].kwonly = 1;
		sc->p[sc->n++].type = mk(SK_ANY, NULL);
	}
	return sc;
}
