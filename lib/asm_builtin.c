/*
 * asm_builtin.c - custom forms of builtin.module and the func dialect.
 */
#include <stdlib.h>
#include <string.h>

#include "asm.h"

/* ---- builtin.module: `module @name attributes {...} {...}` ---- */

Op *asm_parse_module(Parser *p, const OpInfo *info, int nres, Loc *loc)
{
	AttrList al = {0, 0, NULL};
	Region body;
	const char *name;
	Op *op;

	if (p_tok(p)->kind == T_AT) {
		if (p_symbol(p, &name))
			return NULL;
		attrlist_add(&al, "sym_name", at_str(p_ctx(p), name));
	}
	if (p_attr_dict_kw(p, &al) || p_region(p, &body, -1, NULL)) {
		free(al.v);
		return NULL;
	}
	op = p_make(p, info, 0, NULL, 0, NULL, 1, loc, &al);
	p_take_region(op, 0, &body);
	if (!op->regs[0].first)   /* the body block always exists */
		region_append(&op->regs[0], block_new(p_ctx(p)));
	return op;
}

void asm_print_module(Printer *pr, Op *op)
{
	static const char *const elide[] = { "sym_name", NULL };
	Attr *name = op_attr(op, "sym_name");

	if (name && name->kind == AT_STR) {
		pr_puts(pr, " ");
		pr_symbol(pr, name->s);
	}
	pr_attr_dict(pr, op, elide, 1);
	pr_puts(pr, " ");
	pr_region(pr, &op->regs[0], 0);
}

/* ---- func.func ---- */

static const char *const func_elide[] = {
	"sym_name", "function_type", "sym_visibility", "arg_attrs", "res_attrs",
	NULL,
};

/* One argument: `%a: T {attrs} loc(...)` with a body, `T {attrs}` without. */
static int func_arg(Parser *p, ArgDef *a, int *named)
{
	if (p_is_opref(p)) {
		if (*named == 0)
			return p_error(p, "expected type instead of SSA identifier");
		*named = 1;
		return p_argdef(p, a, 1);
	}
	if (*named == 1)
		return p_error(p, "expected SSA identifier");
	*named = 0;
	memset(a, 0, sizeof *a);
	if (!(a->type = p_type(p)))
		return -1;
	if (p_is(p, "{")) {
		AttrList l = {0, 0, NULL};

		if (p_attr_dict(p, &l))
			return free(l.v), -1;
		a->attrs = at_dict(p_ctx(p), l.n, l.v);
		free(l.v);
	}
	return 0;
}

/* Collects per-entry attribute dicts as an ARRAY, or NULL if all empty. */
static Attr *attr_array(Parser *p, int n, Attr **dicts)
{
	int i, any = 0;

	for (i = 0; i < n; i++) {
		if (dicts[i] && dicts[i]->n)
			any = 1;
		if (!dicts[i])
			dicts[i] = at_dict(p_ctx(p), 0, NULL);
	}
	return any ? at_array(p_ctx(p), n, dicts) : NULL;
}

static int func_args(Parser *p, ArgDef **args, int *nargs, int *named)
{
	ArgDef *v = NULL, a;
	int cap = 0;

	*nargs = 0;
	*named = -1;
	if (p_expect(p, "("))
		return -1;
	while (!p_is(p, ")")) {
		if (*nargs && p_expect(p, ","))
			return free(v), -1;
		if (func_arg(p, &a, named))
			return free(v), -1;
		if (*nargs == cap)
			v = xrealloc(v, sizeof *v * (size_t)(cap = cap ? 2 * cap : 8));
		v[(*nargs)++] = a;
	}
	*args = v;
	return p_expect(p, ")");
}

static int func_results(Parser *p, Type ***types, Attr ***attrs, int *n)
{
	int cap = 0, paren;

	*n = 0;
	*types = NULL;
	*attrs = NULL;
	if (!p_eat(p, "->"))
		return 0;
	paren = p_eat(p, "(");
	if (paren && p_eat(p, ")"))
		return 0;
	do {
		Type *t = p_type(p);
		Attr *d = NULL;

		if (!t)
			return -1;
		if (paren && p_is(p, "{")) {
			AttrList l = {0, 0, NULL};

			if (p_attr_dict(p, &l))
				return free(l.v), -1;
			d = at_dict(p_ctx(p), l.n, l.v);
			free(l.v);
		}
		if (*n == cap) {
			cap = cap ? 2 * cap : 8;
			*types = xrealloc(*types, sizeof **types * (size_t)cap);
			*attrs = xrealloc(*attrs, sizeof **attrs * (size_t)cap);
		}
		(*types)[*n] = t;
		(*attrs)[(*n)++] = d;
	} while (paren && p_eat(p, ","));
	return paren ? p_expect(p, ")") : 0;
}

static const char *const visibilities[] = { "private", "public", "nested", NULL };

static int func_header(Parser *p, AttrList *al)
{
	const char *name;
	int i;

	for (i = 0; visibilities[i]; i++)
		if (p_eat(p, visibilities[i])) {
			attrlist_add(al, "sym_visibility", at_str(p_ctx(p), visibilities[i]));
			break;
		}
	if (p_symbol(p, &name))
		return -1;
	attrlist_add(al, "sym_name", at_str(p_ctx(p), name));
	return 0;
}

Op *asm_parse_func(Parser *p, const OpInfo *info, int nres, Loc *loc)
{
	AttrList al = {0, 0, NULL};
	ArgDef *args = NULL;
	Type **rt = NULL, **at = NULL;
	Attr **ra = NULL, **aa = NULL, *x;
	Region body = {0};
	int nargs = 0, named, nrt = 0, i, hasbody = 0;
	Op *op = NULL;
	Ctx *c = p_ctx(p);

	if (func_header(p, &al) || func_args(p, &args, &nargs, &named) ||
			func_results(p, &rt, &ra, &nrt) || p_attr_dict_kw(p, &al))
		goto out;
	if (p_is(p, "{")) {
		if (named == 0) {
			p_error(p, "expected SSA identifier");
			goto out;
		}
		if (p_region(p, &body, nargs, args))
			goto out;
		hasbody = 1;
	}   /* a declaration may name its arguments; the names go, as in MLIR */
	at = xcalloc((size_t)nargs + 1, sizeof *at);
	aa = xcalloc((size_t)nargs + 1, sizeof *aa);
	for (i = 0; i < nargs; i++) {
		at[i] = args[i].type;
		aa[i] = args[i].attrs;
	}
	/* at has room, so no NULL array reaches ty_func even when empty */
	attrlist_add(&al, "function_type", at_type(c, ty_func(c, nargs, at, nrt, nrt ? rt : at)));
	if ((x = attr_array(p, nargs, aa)))
		attrlist_add(&al, "arg_attrs", x);
	if ((x = attr_array(p, nrt, ra)))
		attrlist_add(&al, "res_attrs", x);
	op = p_make(p, info, 0, NULL, 0, NULL, 1, loc, &al);
	al.v = NULL;
	if (hasbody)
		p_take_region(op, 0, &body);
out:
	free(al.v);
	free(args);
	free(rt);
	free(ra);
	free(at);
	free(aa);
	return op;
}

static Attr *nth_dict(Attr *arr, int i)
{
	if (!arr || arr->kind != AT_ARRAY || (size_t)i >= arr->n)
		return NULL;
	return arr->elts[i];
}

static void print_func_results(Printer *pr, const Type *ft, Attr *ra)
{
	int nout = ft->nsub - ft->nin, i, paren;
	Attr *d0 = nth_dict(ra, 0);

	if (!nout)
		return;
	pr_puts(pr, " -> ");
	paren = nout > 1 || ft->sub[ft->nin]->kind == TY_FUNC || (d0 && d0->n);
	if (paren)
		pr_puts(pr, "(");
	for (i = 0; i < nout; i++) {
		Attr *d = nth_dict(ra, i);

		if (i)
			pr_puts(pr, ", ");
		pr_type(pr, ft->sub[ft->nin + i]);
		if (d && d->n) {
			pr_puts(pr, " ");
			pr_attr_entries(pr, d);
		}
	}
	if (paren)
		pr_puts(pr, ")");
}

void asm_print_func(Printer *pr, Op *op)
{
	Attr *name = op_attr(op, "sym_name"), *vis = op_attr(op, "sym_visibility");
	Attr *ft = op_attr(op, "function_type"), *aa = op_attr(op, "arg_attrs");
	Block *entry = op->regs[0].first;
	const Type *t = ft && ft->kind == AT_TYPE ? ft->type : NULL;
	int i;

	pr_puts(pr, " ");
	if (vis && vis->kind == AT_STR)
		pr_printf(pr, "%s ", vis->s);
	pr_symbol(pr, name && name->kind == AT_STR ? name->s : "");
	pr_puts(pr, "(");
	for (i = 0; t && i < t->nin; i++) {
		Attr *d = nth_dict(aa, i);

		if (i)
			pr_puts(pr, ", ");
		if (entry && i < entry->nargs) {
			pr_argdef(pr, entry->args[i], d);
			continue;
		}
		pr_type(pr, t->sub[i]);
		if (d && d->n) {
			pr_puts(pr, " ");
			pr_attr_entries(pr, d);
		}
	}
	pr_puts(pr, ")");
	if (t)
		print_func_results(pr, t, op_attr(op, "res_attrs"));
	pr_attr_dict(pr, op, func_elide, 1);
	if (entry) {
		pr_puts(pr, " ");
		pr_region(pr, &op->regs[0], 0);
	}
}

/* ---- func.return: `return %a, %b : T, U` ---- */

Op *asm_parse_return(Parser *p, const OpInfo *info, int nres, Loc *loc)
{
	AttrList al = {0, 0, NULL};
	OpRef *refs;
	Type **types = NULL;
	Value **vals;
	int n, nt = 0;

	if (p_attr_dict(p, &al) || p_oprefs(p, &refs, &n))
		return free(al.v), NULL;
	if (n && (p_expect(p, ":") || p_types(p, &types, &nt)))
		return free(al.v), NULL;
	vals = p_alloc(p, sizeof *vals * (size_t)(n + 1));
	if (p_resolve_list(p, n, refs, nt, types, vals))
		return free(al.v), NULL;
	return p_make(p, info, n, vals, 0, NULL, 0, loc, &al);
}

void asm_print_return(Printer *pr, Op *op)
{
	pr_attr_dict(pr, op, NULL, 0);
	if (!op->nopnds)
		return;
	pr_puts(pr, " ");
	pr_operands(pr, op, 0, op->nopnds);
	pr_puts(pr, " : ");
	pr_operand_types(pr, op, 0, op->nopnds);
}

/* ---- func.call: `call @f(%a) : (T) -> R` ---- */

Op *asm_parse_call(Parser *p, const OpInfo *info, int nres, Loc *loc)
{
	AttrList al = {0, 0, NULL};
	const char *callee;
	OpRef *refs;
	Type **in, **out;
	Value **vals;
	int n, nin, nout;

	if (p_symbol(p, &callee) || p_expect(p, "(") || p_oprefs(p, &refs, &n) ||
			p_expect(p, ")") || p_attr_dict(p, &al) || p_expect(p, ":") ||
			p_functional(p, &in, &nin, &out, &nout))
		return free(al.v), NULL;
	vals = p_alloc(p, sizeof *vals * (size_t)(n + 1));
	if (p_resolve_list(p, n, refs, nin, in, vals))
		return free(al.v), NULL;
	attrlist_add(&al, "callee", at_symref(p_ctx(p), callee));
	return p_make(p, info, n, vals, nout, out, 0, loc, &al);
}

void asm_print_call(Printer *pr, Op *op)
{
	static const char *const elide[] = { "callee", NULL };
	Attr *callee = op_attr(op, "callee");

	pr_puts(pr, " ");
	pr_attr_value(pr, callee);
	pr_puts(pr, "(");
	pr_operands(pr, op, 0, op->nopnds);
	pr_puts(pr, ")");
	pr_attr_dict(pr, op, elide, 0);
	pr_puts(pr, " : ");
	pr_functional(pr, op, 0, op->nopnds);
}
