/*
 * asm_torch.c - custom forms of the torch and torch_c dialects.
 *
 * Most torch ops share torch-mlir's default form
 *   %r = torch.aten.mm %a, %b : T, U -> R
 * the rest (constants, literals, casts) have small forms of their own.
 */
#include <stdlib.h>
#include <string.h>

#include "asm.h"

/* Exactly n comma-separated types (none when n is 0). */
static int types_n(Parser *p, int n, Type ***v)
{
	int got;

	*v = NULL;
	if (!n)
		return 0;
	if (p_types(p, v, &got))
		return -1;
	if (got != n)
		return p_error(p, "expected %d types, got %d", n, got);
	return 0;
}

/* ---- the default form: `%a, %b {attrs} : T, U -> R, S` ---- */

/* `%a, %b {attrs} : T, U`, the operands resolved into *vals. */
int p_torch_operands(Parser *p, AttrList *al, Value ***vals, int *n)
{
	OpRef *refs;
	Type **in;

	if (p_oprefs(p, &refs, n) || p_attr_dict(p, al) || p_expect(p, ":") ||
			types_n(p, *n, &in))
		return -1;
	*vals = p_alloc(p, sizeof **vals * (size_t)(*n + 1));
	return p_resolve_list(p, *n, refs, *n, in, *vals);
}

void pr_torch_operands(Printer *pr, Op *op)
{
	pr_puts(pr, " ");
	pr_operands(pr, op, 0, op->nopnds);
	pr_attr_dict(pr, op, NULL, 0);
	pr_puts(pr, " : ");
	pr_operand_types(pr, op, 0, op->nopnds);
}

Op *asm_parse_torch(Parser *p, const OpInfo *info, int nres, Loc *loc)
{
	AttrList al = {0, 0, NULL};
	Type **out;
	Value **vals;
	int n;

	/* unbound results (no `%r =`) still exist: take the table's count */
	if (!nres && info->nres > 0)
		nres = info->nres;
	if (p_torch_operands(p, &al, &vals, &n))
		return free(al.v), NULL;
	/* an op of no results has no `-> ...` (torch.aten._assert_*) */
	out = NULL;
	if ((nres || p_is(p, "->")) &&
			(p_expect(p, "->") || types_n(p, nres, &out)))
		return free(al.v), NULL;
	return p_make(p, info, n, vals, nres, out, 0, loc, &al);
}

void asm_print_torch(Printer *pr, Op *op)
{
	pr_torch_operands(pr, op);
	if (!op->nres)
		return;
	pr_puts(pr, " -> ");
	pr_result_types(pr, op);
}

/* ---- torch.constant.*: `torch.constant.int 0` ---- */

typedef struct ConstKind {
	const char *op;
	TypeKind type;
} ConstKind;

static const ConstKind consts[] = {
	{"torch.constant.int", TY_TORCH_INT},
	{"torch.constant.float", TY_TORCH_FLOAT},
	{"torch.constant.bool", TY_TORCH_BOOL},
	{"torch.constant.str", TY_TORCH_STR},
	{"torch.constant.device", TY_TORCH_DEVICE},
	{"torch.constant.number", TY_TORCH_NUMBER},
};

static Attr *const_value(Parser *p, const char *op)
{
	Ctx *c = p_ctx(p);
	int64_t v;

	if (!strcmp(op, "torch.constant.int"))
		return p_int(p, &v) ? NULL : at_int(c, v, NULL);
	if (!strcmp(op, "torch.constant.float"))
		return p_attr(p, ty_float(c, TY_F64));
	if (!strcmp(op, "torch.constant.bool")) {
		/* an i1 literal: true, false, or 1 and 0 as torch-mlir reads */
		const Tok *t = p_tok(p);

		if (t->kind == T_INT && (tok_is(t, "0") || tok_is(t, "1"))) {
			v = tok_is(t, "1");
		} else if (!p_is(p, "true") && !p_is(p, "false")) {
			return p_error(p, "expected 'true' or 'false'"), NULL;
		} else {
			v = p_is(p, "true");
		}
		p_skip(p);
		return at_bool(c, (int)v);
	}
	if (!strcmp(op, "torch.constant.number"))
		return p_attr(p, NULL);
	{
		const char *s;
		size_t n;

		return p_string(p, &s, &n) ? NULL : at_strn(c, s, n);
	}
}

Op *asm_parse_tconst(Parser *p, const OpInfo *info, int nres, Loc *loc)
{
	AttrList al = {0, 0, NULL};
	Type *t = NULL;
	Attr *v;
	size_t i;

	for (i = 0; i < sizeof consts / sizeof *consts; i++)
		if (!strcmp(consts[i].op, info->name))
			t = ty_torch(p_ctx(p), consts[i].type);
	if (!(v = const_value(p, info->name)) || p_attr_dict(p, &al))
		return free(al.v), NULL;
	attrlist_add(&al, "value", v);
	return p_make(p, info, 0, NULL, 1, &t, 0, loc, &al);
}

void asm_print_tconst(Printer *pr, Op *op)
{
	static const char *const elide[] = { "value", NULL };
	Attr *v = op_attr(op, "value");

	pr_puts(pr, " ");
	if (v && op_is(op, "torch.constant.number"))
		pr_attr(pr, v);
	else if (v)
		pr_attr_value(pr, v);
	pr_attr_dict(pr, op, elide, 0);
}

/* ---- torch.constant.none ---- */

Op *asm_parse_tnone(Parser *p, const OpInfo *info, int nres, Loc *loc)
{
	AttrList al = {0, 0, NULL};
	Type *t = ty_torch(p_ctx(p), TY_TORCH_NONE);

	if (p_attr_dict(p, &al))
		return free(al.v), NULL;
	return p_make(p, info, 0, NULL, 1, &t, 0, loc, &al);
}

void asm_print_tnone(Printer *pr, Op *op)
{
	pr_attr_dict(pr, op, NULL, 0);
}

/* ---- torch.prim.ListConstruct: `%a, %b : (T, U) -> R` ---- */

Op *asm_parse_tlist(Parser *p, const OpInfo *info, int nres, Loc *loc)
{
	AttrList al = {0, 0, NULL};
	OpRef *refs;
	Type **in, **out;
	Value **vals;
	int n, nin, nout;

	if (p_oprefs(p, &refs, &n) || p_attr_dict(p, &al) || p_expect(p, ":") ||
			p_functional(p, &in, &nin, &out, &nout))
		return free(al.v), NULL;
	vals = p_alloc(p, sizeof *vals * (size_t)(n + 1));
	if (p_resolve_list(p, n, refs, nin, in, vals))
		return free(al.v), NULL;
	return p_make(p, info, n, vals, nout, out, 0, loc, &al);
}

void asm_print_tlist(Printer *pr, Op *op)
{
	pr_puts(pr, " ");
	pr_operands(pr, op, 0, op->nopnds);
	pr_attr_dict(pr, op, NULL, 0);
	pr_puts(pr, " : ");
	pr_functional(pr, op, 0, op->nopnds);
}

/* ---- torch.vtensor.literal(dense<...> : tensor<..>) : R ---- */

Op *asm_parse_tliteral(Parser *p, const OpInfo *info, int nres, Loc *loc)
{
	AttrList al = {0, 0, NULL};
	Attr *v;
	Type *t;

	if (p_expect(p, "(") || !(v = p_attr(p, NULL)) || p_expect(p, ")") ||
			p_attr_dict(p, &al) || p_expect(p, ":") || !(t = p_type(p)))
		return free(al.v), NULL;
	attrlist_add(&al, "value", v);
	return p_make(p, info, 0, NULL, 1, &t, 0, loc, &al);
}

void asm_print_tliteral(Printer *pr, Op *op)
{
	static const char *const elide[] = { "value", NULL };
	Attr *v = op_attr(op, "value");

	pr_puts(pr, "(");
	if (v)
		pr_attr(pr, v);
	pr_puts(pr, ")");
	pr_attr_dict(pr, op, elide, 0);
	pr_puts(pr, " : ");
	pr_result_types(pr, op);
}

/* ---- torch.copy.to_vtensor / to_tensor: `%x : R` ---- */

Op *asm_parse_tcopy(Parser *p, const OpInfo *info, int nres, Loc *loc)
{
	AttrList al = {0, 0, NULL};
	OpRef r;
	Type *t, *it;
	Value *v;
	Ctx *c = p_ctx(p);

	if (p_opref(p, &r) || p_attr_dict(p, &al) || p_expect(p, ":") ||
			!(t = p_type(p)))
		return free(al.v), NULL;
	if (!ty_istorchtensor(t))
		return free(al.v), p_error(p, "expected a torch tensor type"), NULL;
	/* the operand is the same tensor on the other side of value semantics */
	if (!strcmp(info->name, "torch.copy.to_vtensor"))
		it = ty_torch_tensor(c, t->ranked ? t->rank : -1, t->dims, t->elem);
	else
		it = ty_vtensor(c, t->ranked ? t->rank : -1, t->dims, t->elem);
	if (!(v = p_resolve(p, &r, it)))
		return free(al.v), NULL;
	return p_make(p, info, 1, &v, 1, &t, 0, loc, &al);
}

void asm_print_tcopy(Printer *pr, Op *op)
{
	pr_puts(pr, " ");
	pr_operands(pr, op, 0, 1);
	pr_attr_dict(pr, op, NULL, 0);
	pr_puts(pr, " : ");
	pr_result_types(pr, op);
}

/* ---- torch.overwrite.tensor.contents %a overwrites %b : T, U ---- */

Op *asm_parse_toverwrite(Parser *p, const OpInfo *info, int nres, Loc *loc)
{
	AttrList al = {0, 0, NULL};
	OpRef r[2];
	Type **t;
	Value *v[2];

	if (p_opref(p, &r[0]) || p_expect(p, "overwrites") || p_opref(p, &r[1]) ||
			p_attr_dict(p, &al) || p_expect(p, ":") || types_n(p, 2, &t) ||
			p_resolve_list(p, 2, r, 2, t, v))
		return free(al.v), NULL;
	return p_make(p, info, 2, v, 0, NULL, 0, loc, &al);
}

void asm_print_toverwrite(Printer *pr, Op *op)
{
	pr_puts(pr, " ");
	pr_value(pr, OPND(op, 0));
	pr_puts(pr, " overwrites ");
	pr_value(pr, OPND(op, 1));
	pr_attr_dict(pr, op, NULL, 0);
	pr_puts(pr, " : ");
	pr_operand_types(pr, op, 0, 2);
}

/* ---- torch.tensor_static_info_cast / torch.derefine: `%x : T to R` ---- */

/* ---- torch.operator "name"(%a) : (T) -> R {regions} ---- */

Op *asm_parse_toperator(Parser *p, const OpInfo *info, int nres, Loc *loc)
{
	AttrList al = {0, 0, NULL};
	const char *name;
	size_t len;
	OpRef *refs;
	Type **in, **out;
	Value **vals;
	Region regs[8];
	int n, nin, nout, nregs = 0, i;
	Op *op;

	if (p_string(p, &name, &len) || p_expect(p, "(") ||
			p_oprefs(p, &refs, &n) || p_expect(p, ")") ||
			p_attr_dict(p, &al) || p_expect(p, ":") ||
			p_functional(p, &in, &nin, &out, &nout))
		return free(al.v), NULL;
	while (p_is(p, "{") && nregs < 8) {
		if (nregs && p_expect(p, ","))
			return free(al.v), NULL;
		if (p_region(p, &regs[nregs++], -1, NULL))
			return free(al.v), NULL;
		if (!p_is(p, ","))
			break;
		p_skip(p);
	}
	vals = p_alloc(p, sizeof *vals * (size_t)(n + 1));
	if (p_resolve_list(p, n, refs, nin, in, vals))
		return free(al.v), NULL;
	attrlist_add(&al, "name", at_strn(p_ctx(p), name, len));
	op = p_make(p, info, n, vals, nout, out, nregs, loc, &al);
	for (i = 0; op && i < nregs; i++)
		p_take_region(op, i, &regs[i]);
	return op;
}

void asm_print_toperator(Printer *pr, Op *op)
{
	static const char *const elide[] = { "name", NULL };
	Attr *name = op_attr(op, "name");
	int i;

	pr_puts(pr, " ");
	if (name)
		pr_attr(pr, name);
	pr_puts(pr, "(");
	pr_operands(pr, op, 0, op->nopnds);
	pr_puts(pr, ")");
	pr_attr_dict(pr, op, elide, 0);
	pr_puts(pr, " : ");
	pr_functional(pr, op, 0, op->nopnds);
	for (i = 0; i < op->nregs; i++) {
		pr_puts(pr, i ? ", " : " ");
		pr_region(pr, &op->regs[i], 1);
	}
}

/* ---- torch.runtime.assert %cond, "message"; cf.assert %i1, "msg" ---- */

static const char *
assert_key(const char *op)
{
	return !strcmp(op, "cf.assert") ? "msg" : "message";
}

Op *asm_parse_tassert(Parser *p, const OpInfo *info, int nres, Loc *loc)
{
	AttrList al = {0, 0, NULL};
	OpRef r;
	const char *msg;
	size_t len;
	Value *v;

	int cf = !strcmp(info->name, "cf.assert");

	if (p_opref(p, &r) || p_expect(p, ",") || p_string(p, &msg, &len) ||
			p_attr_dict(p, &al) ||
			!(v = p_resolve(p, &r, cf ? ty_int(p_ctx(p), 1, SIGNLESS) :
				ty_torch(p_ctx(p), TY_TORCH_BOOL))))
		return free(al.v), NULL;
	attrlist_add(&al, assert_key(info->name), at_strn(p_ctx(p), msg, len));
	return p_make(p, info, 1, &v, 0, NULL, 0, loc, &al);
}

void asm_print_tassert(Printer *pr, Op *op)
{
	const char *elide[] = { assert_key(op->name), NULL };
	Attr *msg = op_attr(op, elide[0]);

	pr_puts(pr, " ");
	pr_value(pr, OPND(op, 0));
	pr_puts(pr, ", ");
	if (msg)
		pr_attr(pr, msg);
	pr_attr_dict(pr, op, elide, 0);
}

/* Makes op (p_make takes al's entries) and moves the regions the caller
 * read into it. */
static Op *make_with_regions(Parser *p, const OpInfo *info, int n, Value **v,
	int nres, Type **rt, int nregs, Region *regs, Loc *loc, AttrList *al)
{
	Op *op = p_make(p, info, n, v, nres, rt, nregs, loc, al);
	int i;

	for (i = 0; op && i < nregs; i++)
		p_take_region(op, i, &regs[i]);
	return op;
}

/* ---- torch.prim.If %c -> (T) {then} else {else} ---- */

Op *asm_parse_tif(Parser *p, const OpInfo *info, int nres, Loc *loc)
{
	AttrList al = {0, 0, NULL};
	Region r[2];
	OpRef c;
	Type **rt = NULL;
	Value *v;
	int nrt = 0;

	if (p_opref(p, &c) || p_expect(p, "->") || p_type_group(p, &rt, &nrt) ||
			p_region(p, &r[0], -1, NULL) || p_expect(p, "else") ||
			p_region(p, &r[1], -1, NULL) || p_attr_dict(p, &al) ||
			!(v = p_resolve(p, &c, ty_torch(p_ctx(p), TY_TORCH_BOOL))))
		return free(al.v), NULL;
	return make_with_regions(p, info, 1, &v, nrt, rt, 2, r, loc, &al);
}

/* `(T, U)`, always in parentheses, as torch-mlir prints result lists */
static void pr_paren_results(Printer *pr, Op *op)
{
	pr_puts(pr, "(");
	pr_result_types(pr, op);
	pr_puts(pr, ")");
}

void asm_print_tif(Printer *pr, Op *op)
{
	pr_puts(pr, " ");
	pr_value(pr, OPND(op, 0));
	pr_puts(pr, " -> ");
	pr_paren_results(pr, op);
	pr_puts(pr, " ");
	pr_region(pr, &op->regs[0], 0);
	pr_puts(pr, " else ");
	pr_region(pr, &op->regs[1], 0);
	pr_attr_dict(pr, op, NULL, 0);
}

/* ---- torch.prim.Loop %max, %cond, init(%x) {body} : (T...) -> (R...) ---- */

Op *asm_parse_tloop(Parser *p, const OpInfo *info, int nres, Loc *loc)
{
	AttrList al = {0, 0, NULL};
	OpRef *refs, *inits, two[2];
	Region r;
	Type **in, **out;
	Value **vals;
	int n, nin, nout;

	if (p_opref(p, &two[0]) || p_expect(p, ",") || p_opref(p, &two[1]) ||
			p_expect(p, ",") || p_expect(p, "init") || p_expect(p, "(") ||
			p_oprefs(p, &inits, &n) || p_expect(p, ")") ||
			p_region(p, &r, -1, NULL) || p_attr_dict(p, &al) ||
			p_expect(p, ":") || p_functional(p, &in, &nin, &out, &nout))
		return free(al.v), NULL;
	refs = p_alloc(p, sizeof *refs * (size_t)(n + 2));
	refs[0] = two[0];
	refs[1] = two[1];
	if (n)
		memcpy(refs + 2, inits, sizeof *refs * (size_t)n);
	vals = p_alloc(p, sizeof *vals * (size_t)(n + 2));
	if (p_resolve_list(p, n + 2, refs, nin, in, vals))
		return free(al.v), NULL;
	return make_with_regions(p, info, n + 2, vals, nout, out, 1, &r, loc, &al);
}

void asm_print_tloop(Printer *pr, Op *op)
{
	pr_puts(pr, " ");
	pr_operands(pr, op, 0, 2);
	pr_puts(pr, ", init(");
	pr_operands(pr, op, 2, op->nopnds - 2);
	pr_puts(pr, ") ");
	pr_region(pr, &op->regs[0], 1);
	pr_attr_dict(pr, op, NULL, 0);
	pr_puts(pr, " : ");
	pr_functional(pr, op, 0, op->nopnds);
}

/* ---- torch.prim.Loop.condition %c, iter(%x : T) ---- */

Op *asm_parse_tloopcond(Parser *p, const OpInfo *info, int nres, Loc *loc)
{
	AttrList al = {0, 0, NULL};
	OpRef *refs, c;
	Type **t = NULL;
	Value **vals;
	int n, nt = 0;

	if (p_opref(p, &c) || p_expect(p, ",") || p_expect(p, "iter") ||
			p_expect(p, "(") || p_oprefs(p, &refs, &n) ||
			(n && (p_expect(p, ":") || p_types(p, &t, &nt))) ||
			p_expect(p, ")") || p_attr_dict(p, &al))
		return free(al.v), NULL;
	vals = p_alloc(p, sizeof *vals * (size_t)(n + 1));
	if (!(vals[0] = p_resolve(p, &c, ty_torch(p_ctx(p), TY_TORCH_BOOL))) ||
			p_resolve_list(p, n, refs, nt, t, vals + 1))
		return free(al.v), NULL;
	return make_with_regions(p, info, n + 1, vals, 0, NULL, 0, NULL, loc, &al);
}

void asm_print_tloopcond(Printer *pr, Op *op)
{
	pr_puts(pr, " ");
	pr_value(pr, OPND(op, 0));
	pr_puts(pr, ", iter(");
	if (op->nopnds > 1) {
		pr_operands(pr, op, 1, op->nopnds - 1);
		pr_puts(pr, " : ");
		pr_operand_types(pr, op, 1, op->nopnds - 1);
	}
	pr_puts(pr, ")");
	pr_attr_dict(pr, op, NULL, 0);
}

/* ---- torch.shape.calculate {body} shapes {shapes} : T, and
 * torch.dtype.calculate {body} dtypes {dtypes} : T ---- */

Op *asm_parse_tcalc(Parser *p, const OpInfo *info, int nres, Loc *loc)
{
	AttrList al = {0, 0, NULL};
	const char *kw = strstr(info->name, "shape") ? "shapes" : "dtypes";
	Region r[2];
	Type **rt = NULL;
	int nrt = 0;

	if (p_region(p, &r[0], -1, NULL) || p_expect(p, kw) ||
			p_region(p, &r[1], -1, NULL) || p_attr_dict(p, &al) ||
			p_expect(p, ":") || (nres && p_types(p, &rt, &nrt)))
		return free(al.v), NULL;
	return make_with_regions(p, info, 0, NULL, nrt, rt, 2, r, loc, &al);
}

void asm_print_tcalc(Printer *pr, Op *op)
{
	pr_puts(pr, " ");
	pr_region(pr, &op->regs[0], 0);
	pr_puts(pr, strstr(op->name, "shape") ? " shapes " : " dtypes ");
	pr_region(pr, &op->regs[1], 0);
	pr_attr_dict(pr, op, NULL, 0);
	pr_puts(pr, " : ");
	pr_result_types(pr, op);
}

/* ---- torch_c.to_i64 and the other scalar boundaries: `%x` ---- */

/* The torch and builtin types of a scalar torch_c op, by its name:
 * to_X reads the torch one, from_X makes it. */
static void
tcscalar_types(Ctx *c, const char *name, Type **torch, Type **builtin)
{
	const char *k = strrchr(name, '_') + 1;

	if (!strcmp(k, "i64")) {
		*torch = ty_torch(c, TY_TORCH_INT);
		*builtin = ty_int(c, 64, SIGNLESS);
	} else if (!strcmp(k, "f64")) {
		*torch = ty_torch(c, TY_TORCH_FLOAT);
		*builtin = ty_float(c, TY_F64);
	} else {
		*torch = ty_torch(c, TY_TORCH_BOOL);
		*builtin = ty_int(c, 1, SIGNLESS);
	}
}

Op *asm_parse_tcscalar(Parser *p, const OpInfo *info, int nres, Loc *loc)
{
	AttrList al = {0, 0, NULL};
	OpRef r;
	Type *tt, *bt;
	Value *v;
	int to = !strncmp(info->name, "torch_c.to_", 11);

	tcscalar_types(p_ctx(p), info->name, &tt, &bt);
	if (p_opref(p, &r) || p_attr_dict(p, &al))
		return free(al.v), NULL;
	if (!(v = p_resolve(p, &r, to ? tt : bt)))
		return free(al.v), NULL;
	return p_make(p, info, 1, &v, 1, to ? &bt : &tt, 0, loc, &al);
}

void asm_print_tcscalar(Printer *pr, Op *op)
{
	pr_puts(pr, " ");
	pr_operands(pr, op, 0, op->nopnds);
	pr_attr_dict(pr, op, NULL, 0);
}
