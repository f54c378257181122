/*
 * asm_arith.c - custom forms of the arith and math dialects.
 */
#include <stdlib.h>
#include <string.h>

#include "asm.h"

static Type *i1_like(Ctx *c, Type *t)
{
	Type *i1 = ty_int(c, 1, SIGNLESS);

	return ty_isshaped(t) ? ty_with_elem(c, t, i1) : i1;
}

/* ---- arith.constant 1 : i32 ---- */

Op *asm_parse_aconst(Parser *p, const OpInfo *info, int nres, Loc *loc)
{
	AttrList al = {0, 0, NULL};
	Attr *v;
	Type *t;

	if (p_attr_dict(p, &al) || !(v = p_attr(p, NULL)))
		return free(al.v), NULL;
	t = v->type;
	if (v->kind == AT_INT && !t)
		t = ty_int(p_ctx(p), 64, SIGNLESS);
	if (!t || v->kind == AT_STR || v->kind == AT_TYPE)
		return free(al.v), p_error(p, "'arith.constant' value must be a typed number or elements attribute"), NULL;
	attrlist_add(&al, "value", v);
	return p_make(p, info, 0, NULL, 1, &t, 0, loc, &al);
}

void asm_print_aconst(Printer *pr, Op *op)
{
	static const char *const elide[] = { "value", NULL };
	Attr *v = op_attr(op, "value");

	pr_attr_dict(pr, op, elide, 0);
	pr_puts(pr, " ");
	if (v)
		pr_attr(pr, v);
}

/* ---- fastmath flags: `fastmath<nnan,ninf>` ---- */

static const char fm_prefix[] = "#arith.fastmath<";

static int parse_fastmath(Parser *p, AttrList *al)
{
	Buf b = {0};
	const char *kw;
	int n = 0;

	if (!p_eat(p, "fastmath"))
		return 0;
	if (p_expect(p, "<"))
		return -1;
	buf_puts(&b, fm_prefix);
	do {
		if (p_keyword(p, &kw))
			return buf_free(&b), -1;
		if (n++)
			buf_putc(&b, ',');
		buf_puts(&b, kw);
	} while (p_eat(p, ","));
	buf_putc(&b, '>');
	buf_putc(&b, 0);
	attrlist_add(al, "fastmath", at_opaque(p_ctx(p), intern(p_ctx(p), b.p)));
	buf_free(&b);
	return p_expect(p, ">");
}

static void print_fastmath(Printer *pr, Op *op)
{
	Attr *fm = op_attr(op, "fastmath");

	if (!fm || fm->kind != AT_OPAQUE || !strcmp(fm->s, "#arith.fastmath<none>"))
		return;
	if (!strncmp(fm->s, fm_prefix, sizeof fm_prefix - 1))
		pr_printf(pr, " fastmath<%s", fm->s + sizeof fm_prefix - 1);
	else
		pr_printf(pr, " fastmath %s", fm->s);
}

/* ---- same-type ops: `arith.addf %a, %b fastmath<fast> : f32` ---- */

static const char *const fm_elide[] = { "fastmath", NULL };

Op *asm_parse_same(Parser *p, const OpInfo *info, int nres, Loc *loc)
{
	AttrList al = {0, 0, NULL};
	OpRef *refs;
	Type *t, *ts[8];
	Value *vals[8];
	int n, i;

	if (p_oprefs(p, &refs, &n) || parse_fastmath(p, &al) ||
			p_attr_dict(p, &al) || p_expect(p, ":") || !(t = p_type(p)))
		return free(al.v), NULL;
	if (n != info->nopnds || n > 8)
		return free(al.v), p_error(p, "expected %d operands, got %d", info->nopnds, n), NULL;
	for (i = 0; i < n; i++)
		ts[i] = t;
	if (p_resolve_list(p, n, refs, n, ts, vals))
		return free(al.v), NULL;
	return p_make(p, info, n, vals, 1, &t, 0, loc, &al);
}

void asm_print_same(Printer *pr, Op *op)
{
	pr_puts(pr, " ");
	pr_operands(pr, op, 0, op->nopnds);
	print_fastmath(pr, op);
	pr_attr_dict(pr, op, fm_elide, 0);
	pr_puts(pr, " : ");
	pr_result_types(pr, op);
}

/* ---- cmpf / cmpi: `arith.cmpf ugt, %a, %b : f32` ---- */

static const char *const cmpf_preds[] = {
	"false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord",
	"ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true", NULL,
};
static const char *const cmpi_preds[] = {
	"eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge", NULL,
};

static const char *const *preds_of(const char *op)
{
	return !strcmp(op, "arith.cmpf") ? cmpf_preds : cmpi_preds;
}

Op *asm_parse_cmp(Parser *p, const OpInfo *info, int nres, Loc *loc)
{
	const char *const *preds = preds_of(info->name);
	AttrList al = {0, 0, NULL};
	const char *kw;
	OpRef *refs;
	Type *t, *ts[2], *rt;
	Value *vals[2];
	int n, k;

	if (p_keyword(p, &kw))
		return NULL;
	for (k = 0; preds[k] && strcmp(preds[k], kw); k++)
		;
	if (!preds[k])
		return p_error(p, "invalid predicate '%s'", kw), NULL;
	if (p_expect(p, ",") || p_oprefs(p, &refs, &n) || p_attr_dict(p, &al) ||
			p_expect(p, ":") || !(t = p_type(p)))
		return free(al.v), NULL;
	ts[0] = ts[1] = t;
	if (p_resolve_list(p, n, refs, 2, ts, vals))
		return free(al.v), NULL;
	attrlist_add(&al, "predicate", at_int(p_ctx(p), k, NULL));
	rt = i1_like(p_ctx(p), t);
	return p_make(p, info, 2, vals, 1, &rt, 0, loc, &al);
}

void asm_print_cmp(Printer *pr, Op *op)
{
	static const char *const elide[] = { "predicate", NULL };
	const char *const *preds = preds_of(op->name);
	Attr *a = op_attr(op, "predicate");
	int k, n;

	for (n = 0; preds[n]; n++)
		;
	k = a && a->kind == AT_INT && a->i >= 0 && a->i < n ? (int)a->i : 0;
	pr_printf(pr, " %s, ", preds[k]);
	pr_operands(pr, op, 0, 2);
	pr_attr_dict(pr, op, elide, 0);
	pr_puts(pr, " : ");
	pr_type(pr, OPND(op, 0)->type);
}

/* ---- arith.select %c, %a, %b : T  (or `: C, T`) ---- */

Op *asm_parse_select(Parser *p, const OpInfo *info, int nres, Loc *loc)
{
	AttrList al = {0, 0, NULL};
	OpRef *refs;
	Type **t, *ts[3];
	Value *vals[3];
	int n, nt;

	if (p_oprefs(p, &refs, &n) || p_attr_dict(p, &al) || p_expect(p, ":") ||
			p_types(p, &t, &nt))
		return free(al.v), NULL;
	if (nt > 2)
		return free(al.v), p_error(p, "expected one or two types"), NULL;
	ts[0] = nt == 2 ? t[0] : ty_int(p_ctx(p), 1, SIGNLESS);
	ts[1] = ts[2] = t[nt - 1];
	if (p_resolve_list(p, n, refs, 3, ts, vals))
		return free(al.v), NULL;
	return p_make(p, info, 3, vals, 1, &ts[1], 0, loc, &al);
}

void asm_print_select(Printer *pr, Op *op)
{
	Type *ct = OPND(op, 0)->type;

	pr_puts(pr, " ");
	pr_operands(pr, op, 0, 3);
	pr_attr_dict(pr, op, NULL, 0);
	pr_puts(pr, " : ");
	if (ct->kind != TY_INT || ct->width != 1) {
		pr_type(pr, ct);
		pr_puts(pr, ", ");
	}
	pr_result_types(pr, op);
}

/* ---- casts: `arith.sitofp %x : i64 to f32` ---- */

Op *asm_parse_cast(Parser *p, const OpInfo *info, int nres, Loc *loc)
{
	AttrList al = {0, 0, NULL};
	OpRef r;
	Type *t, *rt;
	Value *v;

	if (p_opref(p, &r) || p_attr_dict(p, &al) || p_expect(p, ":") ||
			!(t = p_type(p)) || p_expect(p, "to") || !(rt = p_type(p)) ||
			!(v = p_resolve(p, &r, t)))
		return free(al.v), NULL;
	return p_make(p, info, 1, &v, 1, &rt, 0, loc, &al);
}

void asm_print_cast(Printer *pr, Op *op)
{
	pr_puts(pr, " ");
	pr_value(pr, OPND(op, 0));
	pr_attr_dict(pr, op, NULL, 0);
	pr_puts(pr, " : ");
	pr_type(pr, OPND(op, 0)->type);
	pr_puts(pr, " to ");
	pr_result_types(pr, op);
}
