/*
 * asm_fxvm.c - custom forms of the fxvm dialect: codegen's host program
 * (formats/fxvm.md).  Each form keeps its values in named attributes so
 * that vmpack reads them with op_attr():
 *
 *   fxvm.executable @k attributes {format = "elf-x86_64", object = ...}
 *   fxvm.kernel @d attributes {executable = @k, symbol = "d", bindings = 3 : i64}
 *                                    sym_name + the dictionary
 *   fxvm.global @g : T = ATTR        sym_name, type (T), value (ATTR)
 *   %r = fxvm.result 0 : T           index
 *   %r = fxvm.alloc 64 : T           offset
 *   %r = fxvm.constant @g : T        global
 *   %r = fxvm.view %b[64] : T -> U   offset
 *   fxvm.dispatch @d[X, Y, Z](%a, %b) : T, U    kernel, grid (array<i64>)
 *   fxvm.copy %src, %dst : T
 *   fxvm.fill %dst, 0.0 : T          value (typed by T's element type)
 */
#include <stdlib.h>
#include <string.h>

#include "asm.h"

static Ctx *C(Parser *p) { return p_ctx(p); }

static int sym_name(Parser *p, AttrList *al)
{
	const char *name;

	if (p_symbol(p, &name))
		return -1;
	attrlist_add(al, "sym_name", at_str(C(p), name));
	return 0;
}

static void print_sym_name(Printer *pr, Op *op)
{
	Attr *a = op_attr(op, "sym_name");

	pr_puts(pr, " ");
	pr_symbol(pr, a && a->kind == AT_STR ? a->s : "");
}

static Op *make(Parser *p, const OpInfo *info, int n, Value **v, Type *rt,
	Loc *loc, AttrList *al)
{
	return p_make(p, info, n, v, rt != NULL, &rt, 0, loc, al);
}

/* ---- fxvm.executable / fxvm.kernel: @name attributes {...} ---- */

Op *asm_parse_fxsym(Parser *p, const OpInfo *info, int nres, Loc *loc)
{
	AttrList al = {0, 0, NULL};

	if (sym_name(p, &al) || p_attr_dict_kw(p, &al))
		return free(al.v), NULL;
	return make(p, info, 0, NULL, NULL, loc, &al);
}

void asm_print_fxsym(Printer *pr, Op *op)
{
	static const char *const elide[] = { "sym_name", NULL };

	print_sym_name(pr, op);
	pr_attr_dict(pr, op, elide, 1);
}

/* ---- fxvm.global @g : T = ATTR ---- */

Op *asm_parse_fxglobal(Parser *p, const OpInfo *info, int nres, Loc *loc)
{
	AttrList al = {0, 0, NULL};
	Type *t;
	Attr *v;

	if (sym_name(p, &al) || p_expect(p, ":") || !(t = p_type(p)) ||
			p_expect(p, "=") || !(v = p_attr(p, t)) || p_attr_dict_kw(p, &al))
		return free(al.v), NULL;
	attrlist_add(&al, "type", at_type(C(p), t));
	attrlist_add(&al, "value", v);
	return make(p, info, 0, NULL, NULL, loc, &al);
}

void asm_print_fxglobal(Printer *pr, Op *op)
{
	static const char *const elide[] = { "sym_name", "type", "value", NULL };
	Attr *t = op_attr(op, "type"), *v = op_attr(op, "value");

	print_sym_name(pr, op);
	pr_puts(pr, " : ");
	if (t && t->kind == AT_TYPE)
		pr_type(pr, t->type);
	pr_puts(pr, " = ");
	if (v)
		pr_attr(pr, v);
	pr_attr_dict(pr, op, elide, 1);
}

/* ---- fxvm.result N : T, fxvm.alloc OFFSET : T ---- */

static const char *index_name(const OpInfo *info)
{
	return strcmp(info->name, "fxvm.result") ? "offset" : "index";
}

Op *asm_parse_fxindex(Parser *p, const OpInfo *info, int nres, Loc *loc)
{
	AttrList al = {0, 0, NULL};
	int64_t v;
	Type *t;

	if (p_int(p, &v) || p_attr_dict(p, &al) || p_expect(p, ":") || !(t = p_type(p)))
		return free(al.v), NULL;
	attrlist_add(&al, index_name(info), at_int(C(p), v, NULL));
	return make(p, info, 0, NULL, t, loc, &al);
}

void asm_print_fxindex(Printer *pr, Op *op)
{
	const char *name = index_name(op->info);
	const char *elide[] = { name, NULL };
	Attr *a = op_attr(op, name);

	pr_printf(pr, " %lld", a ? (long long)a->i : 0LL);
	pr_attr_dict(pr, op, elide, 0);
	pr_puts(pr, " : ");
	pr_result_types(pr, op);
}

/* ---- fxvm.constant @g : T ---- */

Op *asm_parse_fxconst(Parser *p, const OpInfo *info, int nres, Loc *loc)
{
	AttrList al = {0, 0, NULL};
	const char *g;
	Type *t;

	if (p_symbol(p, &g) || p_attr_dict(p, &al) || p_expect(p, ":") || !(t = p_type(p)))
		return free(al.v), NULL;
	attrlist_add(&al, "global", at_symref(C(p), g));
	return make(p, info, 0, NULL, t, loc, &al);
}

void asm_print_fxconst(Printer *pr, Op *op)
{
	pr_lead_attr(pr, op, "global");
	pr_puts(pr, " : ");
	pr_result_types(pr, op);
}

/* ---- fxvm.view %b[OFFSET] : T -> U ---- */

Op *asm_parse_fxview(Parser *p, const OpInfo *info, int nres, Loc *loc)
{
	AttrList al = {0, 0, NULL};
	OpRef r;
	int64_t off;
	Type *t, *u;
	Value *v;

	if (p_opref(p, &r) || p_expect(p, "[") || p_int(p, &off) || p_expect(p, "]") ||
			p_attr_dict(p, &al) || p_expect(p, ":") || !(t = p_type(p)) ||
			p_expect(p, "->") || !(u = p_type(p)) || !(v = p_resolve(p, &r, t)))
		return free(al.v), NULL;
	attrlist_add(&al, "offset", at_int(C(p), off, NULL));
	return make(p, info, 1, &v, u, loc, &al);
}

void asm_print_fxview(Printer *pr, Op *op)
{
	static const char *const elide[] = { "offset", NULL };
	Attr *a = op_attr(op, "offset");

	pr_puts(pr, " ");
	pr_value(pr, OPND(op, 0));
	pr_printf(pr, "[%lld]", a ? (long long)a->i : 0LL);
	pr_attr_dict(pr, op, elide, 0);
	pr_puts(pr, " : ");
	pr_type(pr, OPND(op, 0)->type);
	pr_puts(pr, " -> ");
	pr_result_types(pr, op);
}

/* ---- fxvm.dispatch @k[X, Y, Z](%a, %b) : T, U ---- */

Op *asm_parse_fxdispatch(Parser *p, const OpInfo *info, int nres, Loc *loc)
{
	AttrList al = {0, 0, NULL};
	const char *k;
	int64_t grid[3];
	OpRef *refs = NULL;
	Type **types = NULL;
	Value **v;
	int i, n = 0, nt = 0;

	if (p_symbol(p, &k) || p_expect(p, "["))
		return NULL;
	for (i = 0; i < 3; i++)
		if ((i && p_expect(p, ",")) || p_int(p, &grid[i]))
			return NULL;
	if (p_expect(p, "]") || p_expect(p, "(") || p_oprefs(p, &refs, &n) ||
			p_expect(p, ")") || p_attr_dict(p, &al))
		return free(al.v), NULL;
	if (n && (p_expect(p, ":") || p_types(p, &types, &nt)))
		return free(al.v), NULL;
	v = p_alloc(p, sizeof *v * (size_t)(n + 1));
	if (p_resolve_list(p, n, refs, nt, types, v))
		return free(al.v), NULL;
	attrlist_add(&al, "kernel", at_symref(C(p), k));
	attrlist_add(&al, "grid", at_dense_array(C(p), ty_int(C(p), 64, SIGNLESS), 3, grid));
	return make(p, info, n, v, NULL, loc, &al);
}

void asm_print_fxdispatch(Printer *pr, Op *op)
{
	static const char *const elide[] = { "kernel", "grid", NULL };
	Attr *k = op_attr(op, "kernel"), *g = op_attr(op, "grid");
	size_t i;

	pr_puts(pr, " ");
	if (k)
		pr_attr(pr, k);
	pr_puts(pr, "[");
	for (i = 0; g && g->kind == AT_DENSE_ARRAY && i < g->n; i++)
		pr_printf(pr, "%s%lld", i ? ", " : "", (long long)g->ints[i]);
	pr_puts(pr, "](");
	pr_operands(pr, op, 0, op->nopnds);
	pr_puts(pr, ")");
	pr_attr_dict(pr, op, elide, 0);
	if (op->nopnds) {
		pr_puts(pr, " : ");
		pr_operand_types(pr, op, 0, op->nopnds);
	}
}

/* ---- fxvm.copy %src, %dst : T ---- */

Op *asm_parse_fxcopy(Parser *p, const OpInfo *info, int nres, Loc *loc)
{
	AttrList al = {0, 0, NULL};
	OpRef r[2];
	Type *t;
	Value *v[2];

	if (p_opref(p, &r[0]) || p_expect(p, ",") || p_opref(p, &r[1]) ||
			p_attr_dict(p, &al) || p_expect(p, ":") || !(t = p_type(p)) ||
			!(v[0] = p_resolve(p, &r[0], t)) || !(v[1] = p_resolve(p, &r[1], t)))
		return free(al.v), NULL;
	return make(p, info, 2, v, NULL, loc, &al);
}

void asm_print_fxcopy(Printer *pr, Op *op)
{
	pr_puts(pr, " ");
	pr_operands(pr, op, 0, 2);
	pr_attr_dict(pr, op, NULL, 0);
	pr_puts(pr, " : ");
	pr_type(pr, OPND(op, 0)->type);
}

/* ---- fxvm.fill %dst, VALUE : T ---- */

Op *asm_parse_fxfill(Parser *p, const OpInfo *info, int nres, Loc *loc)
{
	AttrList al = {0, 0, NULL};
	OpRef r;
	Tok at;
	Type *t;
	Attr *a;
	Value *v;
	const char *s;
	size_t n;
	int neg;

	if (p_opref(p, &r) || p_expect(p, ","))
		return NULL;
	/* the value's type is T's element type, known only after `: T`:
	 * remember the literal's tokens and read them again then */
	at = *p_tok(p);
	neg = p_eat(p, "-");
	if (p_tok(p)->kind != T_INT && p_tok(p)->kind != T_FLOAT &&
			!p_is(p, "true") && !p_is(p, "false"))
		return p_error(p, "expected a number"), NULL;
	s = p_tok(p)->s;
	n = p_tok(p)->n;
	p_skip(p);
	if (p_attr_dict(p, &al) || p_expect(p, ":") || !(t = p_type(p)) ||
			!(v = p_resolve(p, &r, t)))
		return free(al.v), NULL;
	if (t->kind != TY_TENSOR || !t->elem)
		return free(al.v), p_error_at(p, &at, "expected a tensor type"), NULL;
	{
		char buf[128];
		Type *e = t->elem;

		if (n + 2 > sizeof buf)
			return free(al.v), p_error_at(p, &at, "number too long"), NULL;
		snprintf(buf, sizeof buf, "%s%.*s", neg ? "-" : "", (int)n, s);
		if (!strcmp(buf, "true") || !strcmp(buf, "false"))
			a = at_int(C(p), buf[0] == 't', e);
		else if (ty_isfloat(e) && !strncmp(buf + neg, "0x", 2))
			a = at_float(C(p), fp_from_bits(strtoull(buf + neg, NULL, 16), e), e);
		else if (ty_isfloat(e))
			a = at_float(C(p), strtod(buf, NULL), e);
		else
			a = at_int(C(p), strtoll(buf, NULL, 0), e);
	}
	attrlist_add(&al, "value", a);
	return make(p, info, 1, &v, NULL, loc, &al);
}

void asm_print_fxfill(Printer *pr, Op *op)
{
	static const char *const elide[] = { "value", NULL };
	Attr *a = op_attr(op, "value");

	pr_puts(pr, " ");
	pr_value(pr, OPND(op, 0));
	pr_puts(pr, ", ");
	if (a && a->kind == AT_FLOAT) {
		Buf b = {0};

		print_float(&b, a->f, a->type);
		buf_putc(&b, 0);
		pr_puts(pr, b.p);
		buf_free(&b);
	} else if (a && a->type && a->type->kind == TY_INT && a->type->width == 1) {
		pr_puts(pr, a->i ? "true" : "false");
	} else if (a) {
		pr_printf(pr, "%lld", (long long)a->i);
	}
	pr_attr_dict(pr, op, elide, 0);
	pr_puts(pr, " : ");
	pr_type(pr, OPND(op, 0)->type);
}
