/*
 * asm_torch_module.c - custom forms of torch's module structure: class
 * types and their attrs and methods, nn_module objects and their slots,
 * global slots and their initializer, and the few value ops that only
 * such IR holds (linear_params.create, symbolic_int, bind_symbolic_shape).
 */
#include <stdlib.h>
#include <string.h>

#include "asm.h"

/* Makes op (p_make takes al's entries) and moves region r into it. */
static Op *make_region_op(Parser *p, const OpInfo *info, int n, Value **v,
	int nres, Type **rt, Region *r, Loc *loc, AttrList *al)
{
	Op *op = p_make(p, info, n, v, nres, rt, 1, loc, al);

	if (op)
		p_take_region(op, 0, r);
	return op;
}

/* ---- torch.class_type @name { ... } ---- */

Op *asm_parse_tclass(Parser *p, const OpInfo *info, int nres, Loc *loc)
{
	AttrList al = {0, 0, NULL};
	const char *name;
	Region r;

	if (p_symbol(p, &name) || p_region(p, &r, -1, NULL) || p_attr_dict(p, &al))
		return free(al.v), NULL;
	attrlist_add(&al, "sym_name", at_str(p_ctx(p), name));
	return make_region_op(p, info, 0, NULL, 0, NULL, &r, loc, &al);
}

void asm_print_tclass(Printer *pr, Op *op)
{
	static const char *const elide[] = { "sym_name", NULL };

	pr_puts(pr, " ");
	pr_symbol(pr, op_sym_name(op));
	pr_puts(pr, " ");
	pr_region(pr, &op->regs[0], 0);
	pr_attr_dict(pr, op, elide, 0);
}

/* `private` in front of an attr or method: the unit attribute isPrivate */
static void opt_private(Parser *p, AttrList *al)
{
	if (p_eat(p, "private"))
		attrlist_add(al, "isPrivate", at_unit(p_ctx(p)));
}

static int named(Parser *p, AttrList *al)
{
	const char *s;
	size_t n;

	opt_private(p, al);
	if (p_string(p, &s, &n))
		return -1;
	attrlist_add(al, "name", at_strn(p_ctx(p), s, n));
	return 0;
}

static void pr_named(Printer *pr, Op *op)
{
	Attr *name = op_attr(op, "name");

	pr_puts(pr, op_attr(op, "isPrivate") ? " private " : " ");
	if (name)
		pr_attr(pr, name);
}

/* ---- torch.attr [private] "name" : T, and
 * torch.method [private] "name", @function: a class type's members,
 * their second part an attribute (`type`, `function`) ---- */

static int is_method(const OpInfo *info) { return !strcmp(info->name, "torch.method"); }

Op *asm_parse_tmember(Parser *p, const OpInfo *info, int nres, Loc *loc)
{
	AttrList al = {0, 0, NULL};
	const char *f;
	Type *t;

	if (named(p, &al))
		return free(al.v), NULL;
	if (is_method(info)) {
		if (p_expect(p, ",") || p_symbol(p, &f))
			return free(al.v), NULL;
		attrlist_add(&al, "function", at_symref(p_ctx(p), f));
	} else {
		if (p_expect(p, ":") || !(t = p_type(p)))
			return free(al.v), NULL;
		attrlist_add(&al, "type", at_type(p_ctx(p), t));
	}
	if (p_attr_dict(p, &al))
		return free(al.v), NULL;
	return p_make(p, info, 0, NULL, 0, NULL, 0, loc, &al);
}

void asm_print_tmember(Printer *pr, Op *op)
{
	static const char *const elide[] = { "name", "type", "function", "isPrivate", NULL };
	Attr *a = op_attr(op, is_method(op->info) ? "function" : "type");

	pr_named(pr, op);
	pr_puts(pr, is_method(op->info) ? ", " : " : ");
	if (a && a->kind == AT_TYPE)
		pr_type(pr, a->type);
	else if (a)
		pr_attr(pr, a);
	pr_attr_dict(pr, op, elide, 0);
}

/* ---- %m = torch.nn_module { slots } : !torch.nn.Module<"c"> ---- */

Op *asm_parse_tnnmodule(Parser *p, const OpInfo *info, int nres, Loc *loc)
{
	AttrList al = {0, 0, NULL};
	Region r;
	Type *t;

	if (p_region(p, &r, -1, NULL) || p_attr_dict(p, &al) || p_expect(p, ":") ||
			!(t = p_type(p)))
		return free(al.v), NULL;
	return make_region_op(p, info, 0, NULL, 1, &t, &r, loc, &al);
}

void asm_print_tnnmodule(Printer *pr, Op *op)
{
	pr_puts(pr, " ");
	pr_region_tail(pr, op, 0);
}

/* ---- torch.slot "name", %v : T ---- */

Op *asm_parse_tslot(Parser *p, const OpInfo *info, int nres, Loc *loc)
{
	AttrList al = {0, 0, NULL};
	OpRef r;
	Type *t;
	Value *v;

	if (named(p, &al) || p_expect(p, ",") || p_opref(p, &r) || p_attr_dict(p, &al) ||
			p_expect(p, ":") || !(t = p_type(p)) || !(v = p_resolve(p, &r, t)))
		return free(al.v), NULL;
	return p_make(p, info, 1, &v, 0, NULL, 0, loc, &al);
}

void asm_print_tslot(Printer *pr, Op *op)
{
	static const char *const elide[] = { "name", "isPrivate", NULL };

	pr_named(pr, op);
	pr_puts(pr, ", ");
	pr_value(pr, OPND(op, 0));
	pr_attr_dict(pr, op, elide, 0);
	pr_puts(pr, " : ");
	pr_operand_types(pr, op, 0, 1);
}

/* ---- torch.global_slot [visibility] @name : T ---- */

Op *asm_parse_tglobal(Parser *p, const OpInfo *info, int nres, Loc *loc)
{
	static const char *const vis[] = { "private", "public", "nested", NULL };
	AttrList al = {0, 0, NULL};
	const char *name;
	Type *t;
	int i;

	for (i = 0; vis[i]; i++)
		if (p_eat(p, vis[i])) {
			attrlist_add(&al, "sym_visibility", at_str(p_ctx(p), vis[i]));
			break;
		}
	if (p_symbol(p, &name) || p_attr_dict(p, &al) || p_expect(p, ":") || !(t = p_type(p)))
		return free(al.v), NULL;
	attrlist_add(&al, "sym_name", at_str(p_ctx(p), name));
	attrlist_add(&al, "typeBound", at_type(p_ctx(p), t));
	return p_make(p, info, 0, NULL, 0, NULL, 0, loc, &al);
}

void asm_print_tglobal(Printer *pr, Op *op)
{
	static const char *const elide[] = { "sym_name", "sym_visibility", "typeBound", NULL };
	Attr *vis = op_attr(op, "sym_visibility"), *t = op_attr(op, "typeBound");

	pr_puts(pr, " ");
	if (vis && vis->kind == AT_STR) {
		pr_puts(pr, vis->s);
		pr_puts(pr, " ");
	}
	pr_symbol(pr, op_sym_name(op));
	pr_attr_dict(pr, op, elide, 0);
	pr_puts(pr, " : ");
	if (t && t->kind == AT_TYPE)
		pr_type(pr, t->type);
}

/* ---- torch.global_slot.module_initializer { ... } ---- */

Op *asm_parse_tinit(Parser *p, const OpInfo *info, int nres, Loc *loc)
{
	AttrList al = {0, 0, NULL};
	Region r;

	if (p_region(p, &r, -1, NULL) || p_attr_dict(p, &al))
		return free(al.v), NULL;
	return make_region_op(p, info, 0, NULL, 0, NULL, &r, loc, &al);
}

void asm_print_tinit(Printer *pr, Op *op)
{
	pr_puts(pr, " ");
	pr_region(pr, &op->regs[0], 0);
	pr_attr_dict(pr, op, NULL, 0);
}

/* ---- torch.initialize.global_slots [ @a(%x : T) @b(%y : U) ] ---- */

Op *asm_parse_tinitslots(Parser *p, const OpInfo *info, int nres, Loc *loc)
{
	AttrList al = {0, 0, NULL};
	Attr **names = NULL;
	Value **vals = NULL;
	int n = 0, cap = 0, vcap = 0, nv = 0;
	Op *op = NULL;

	if (p_attr_dict(p, &al) || p_expect(p, "["))
		goto out;
	while (!p_eat(p, "]")) {
		const char *sym;
		OpRef r;
		Type *t;
		Value *v;

		if (p_symbol(p, &sym) || p_expect(p, "(") || p_opref(p, &r) ||
				p_expect(p, ":") || !(t = p_type(p)) || p_expect(p, ")") ||
				!(v = p_resolve(p, &r, t)))
			goto out;
		PUSH(names, n, cap, at_symref(p_ctx(p), sym));
		PUSH(vals, nv, vcap, v);
	}
	attrlist_add(&al, "slotSymNames", at_array(p_ctx(p), n, names));
	op = p_make(p, info, nv, vals, 0, NULL, 0, loc, &al);
	al.v = NULL;
out:
	free(al.v);
	free(names);
	free(vals);
	return op;
}

void asm_print_tinitslots(Printer *pr, Op *op)
{
	static const char *const elide[] = { "slotSymNames", NULL };
	Attr *names = op_attr(op, "slotSymNames");
	int i;

	pr_attr_dict(pr, op, elide, 0);
	pr_puts(pr, " [");
	for (i = 0; i < op->nopnds; i++) {
		pr_newline(pr, 2);
		if (names && names->kind == AT_ARRAY && (size_t)i < names->n)
			pr_attr(pr, names->elts[i]);
		pr_puts(pr, "(");
		pr_value(pr, OPND(op, i));
		pr_puts(pr, " : ");
		pr_operand_types(pr, op, i, 1);
		pr_puts(pr, ")");
	}
	pr_newline(pr, 0);
	pr_puts(pr, "]");
}

/* ---- torch.linear_params.create %w[, %b] : T[, U] ---- */

Op *asm_parse_tlparams(Parser *p, const OpInfo *info, int nres, Loc *loc)
{
	AttrList al = {0, 0, NULL};
	Value **vals;
	Type *t;
	int n;

	if (p_torch_operands(p, &al, &vals, &n))
		return free(al.v), NULL;
	t = ty_opaque(p_ctx(p), "!torch.LinearParams");
	return p_make(p, info, n, vals, 1, &t, 0, loc, &al);
}

void asm_print_tlparams(Printer *pr, Op *op)
{
	pr_torch_operands(pr, op);
}

/* ---- %s = torch.symbolic_int "s0" {min_val = 2, max_val = 9} : !torch.int ---- */

Op *asm_parse_tsymint(Parser *p, const OpInfo *info, int nres, Loc *loc)
{
	AttrList al = {0, 0, NULL};
	const char *s;
	size_t n;
	Type *t;

	if (p_string(p, &s, &n) || p_attr_dict(p, &al) || p_expect(p, ":") || !(t = p_type(p)))
		return free(al.v), NULL;
	attrlist_add(&al, "symbol_name", at_strn(p_ctx(p), s, n));
	return p_make(p, info, 0, NULL, 1, &t, 0, loc, &al);
}

static int
i64_attr(const Attr *a)
{
	return a && a->kind == AT_INT && (!a->type || (a->type->kind == TY_INT
	    && a->type->width == 64 && a->type->sign == SIGNLESS));
}

/* As torch-mlir prints it: the bounds in its order, without their i64
 * type; other attributes after them. */
void asm_print_tsymint(Printer *pr, Op *op)
{
	static const char *const elide[] = { "symbol_name", "min_val", "max_val", NULL };
	Attr *s = op_attr(op, "symbol_name"), *lo = op_attr(op, "min_val"),
	    *hi = op_attr(op, "max_val");

	if (!i64_attr(lo) || !i64_attr(hi)) {
		pr_lead_attr(pr, op, "symbol_name");
	} else {
		pr_puts(pr, " ");
		if (s)
			pr_attr(pr, s);
		pr_printf(pr, " {min_val = %lld, max_val = %lld}", (long long)lo->i,
		    (long long)hi->i);
		pr_attr_dict(pr, op, elide, 0);
	}
	pr_puts(pr, " : ");
	pr_result_types(pr, op);
}

/* ---- torch.bind_symbolic_shape %t, [%s0, %s1], affine_map<...> : T ---- */

Op *asm_parse_tbindshape(Parser *p, const OpInfo *info, int nres, Loc *loc)
{
	AttrList al = {0, 0, NULL};
	OpRef t, *syms;
	Attr *map;
	Type *tt;
	Value **vals;
	int n, i;

	if (p_opref(p, &t) || p_expect(p, ",") || p_expect(p, "[") ||
			p_oprefs(p, &syms, &n) || p_expect(p, "]") || p_expect(p, ",") ||
			!(map = p_attr(p, NULL)) || p_attr_dict(p, &al) ||
			p_expect(p, ":") || !(tt = p_type(p)))
		return free(al.v), NULL;
	if (map->kind != AT_AFFINE_MAP)
		return free(al.v), p_error(p, "expected an affine map"), NULL;
	vals = p_alloc(p, sizeof *vals * (size_t)(n + 2));
	if (!(vals[0] = p_resolve(p, &t, tt)))
		return free(al.v), NULL;
	for (i = 0; i < n; i++)
		if (!(vals[i + 1] = p_resolve(p, &syms[i], ty_torch(p_ctx(p), TY_TORCH_INT))))
			return free(al.v), NULL;
	attrlist_add(&al, "shape_expressions", map);
	return p_make(p, info, n + 1, vals, 0, NULL, 0, loc, &al);
}

void asm_print_tbindshape(Printer *pr, Op *op)
{
	static const char *const elide[] = { "shape_expressions", NULL };
	Attr *m = op_attr(op, "shape_expressions");

	pr_puts(pr, " ");
	pr_value(pr, OPND(op, 0));
	pr_puts(pr, ", [");
	pr_operands(pr, op, 1, op->nopnds - 1);
	pr_puts(pr, "], ");
	/* in place, as torch-mlir prints it (its printer writes the map, not
	 * the attribute, so no #map alias) */
	if (m && m->kind == AT_AFFINE_MAP)
		pr_affine_map_inline(pr, m->map);
	else if (m)
		pr_attr(pr, m);
	pr_attr_dict(pr, op, elide, 0);
	pr_puts(pr, " : ");
	pr_operand_types(pr, op, 0, 1);
}

/* ---- torch.prim.DictConstruct keys(%k : T) values(%v : U) -> R ----
 * The operands are the keys, then as many values. */

static int group(Parser *p, const char *kw, OpRef **refs, int *n, Type ***t, int *nt)
{
	*nt = 0;
	if (p_expect(p, kw) || p_expect(p, "(") || p_oprefs(p, refs, n))
		return -1;
	if (*n && (p_expect(p, ":") || p_types(p, t, nt)))
		return -1;
	return p_expect(p, ")");
}

Op *asm_parse_tdict(Parser *p, const OpInfo *info, int nres, Loc *loc)
{
	AttrList al = {0, 0, NULL};
	OpRef *kr, *vr;
	Type **kt = NULL, **vt = NULL, *rt;
	Value **vals;
	int nk, nv, nkt, nvt;

	if (group(p, "keys", &kr, &nk, &kt, &nkt) || group(p, "values", &vr, &nv, &vt, &nvt))
		return NULL;
	if (nk != nv)
		return p_error(p, "expected as many values as keys"), NULL;
	if (p_attr_dict(p, &al) || p_expect(p, "->") || !(rt = p_type(p)))
		return free(al.v), NULL;
	vals = p_alloc(p, sizeof *vals * (size_t)(nk + nv + 1));
	if (p_resolve_list(p, nk, kr, nkt, kt, vals) ||
			p_resolve_list(p, nv, vr, nvt, vt, vals + nk))
		return free(al.v), NULL;
	return p_make(p, info, nk + nv, vals, 1, &rt, 0, loc, &al);
}

static void pr_group(Printer *pr, Op *op, const char *kw, int from, int n)
{
	pr_puts(pr, kw);
	pr_puts(pr, "(");
	if (n) {
		pr_operands(pr, op, from, n);
		pr_puts(pr, " : ");
		pr_operand_types(pr, op, from, n);
	}
	pr_puts(pr, ")");
}

void asm_print_tdict(Printer *pr, Op *op)
{
	int n = op->nopnds / 2;

	pr_group(pr, op, " keys", 0, n);
	pr_group(pr, op, " values", n, n);
	pr_attr_dict(pr, op, NULL, 0);
	pr_puts(pr, " -> ");
	pr_result_types(pr, op);
}
