/*
 * asm_linalg.c - custom forms of the linalg dialect.
 *
 * Structured ops share `ins(%a, %b : T, U) outs(%c : V)`; the operands are
 * ins then outs, and operand_segment_sizes records the split.  Named ops
 * keep no region: the op name says what the body computes.
 */
#include <stdlib.h>
#include <string.h>

#include "asm.h"

typedef struct InsOuts {
	int n[2];             /* ins, outs */
	OpRef *refs[2];
	Type **types[2];
} InsOuts;

static int operand_group(Parser *p, const char *kw, int *n, OpRef **refs,
	Type ***types)
{
	int nt = 0;

	*n = 0;
	if (!p_eat(p, kw))
		return 0;
	if (p_expect(p, "(") || p_oprefs(p, refs, n) || p_expect(p, ":") ||
			p_types(p, types, &nt) || p_expect(p, ")"))
		return -1;
	if (nt != *n)
		return p_error(p, "expected as many types as operands");
	return 0;
}

static int ins_outs(Parser *p, InsOuts *io)
{
	return operand_group(p, "ins", &io->n[0], &io->refs[0], &io->types[0]) ||
		operand_group(p, "outs", &io->n[1], &io->refs[1], &io->types[1]);
}

static Value **resolve_io(Parser *p, InsOuts *io)
{
	int n = io->n[0] + io->n[1];
	Value **v = p_alloc(p, sizeof *v * (size_t)(n + 1));

	if (p_resolve_list(p, io->n[0], io->refs[0], io->n[0], io->types[0], v) ||
			p_resolve_list(p, io->n[1], io->refs[1], io->n[1], io->types[1], v + io->n[0]))
		return NULL;
	return v;
}

static void add_segments(Parser *p, AttrList *al, InsOuts *io)
{
	int64_t s[2] = { io->n[0], io->n[1] };

	attrlist_add(al, "operand_segment_sizes",
		at_dense_array(p_ctx(p), ty_int(p_ctx(p), 32, SIGNLESS), 2, s));
}

/* The number of ins: from operand_segment_sizes, else all but the last. */
static int num_ins(Op *op)
{
	Attr *seg = op_attr(op, "operand_segment_sizes");

	if (seg && seg->kind == AT_DENSE_ARRAY && seg->n == 2)
		return (int)seg->ints[0];
	return op->nopnds ? op->nopnds - 1 : 0;
}

static void print_ins_outs(Printer *pr, Op *op)
{
	int nin = num_ins(op), nout = op->nopnds - nin;

	if (nin) {
		pr_puts(pr, " ins(");
		pr_operands(pr, op, 0, nin);
		pr_puts(pr, " : ");
		pr_operand_types(pr, op, 0, nin);
		pr_puts(pr, ")");
	}
	if (nout) {
		pr_puts(pr, " outs(");
		pr_operands(pr, op, nin, nout);
		pr_puts(pr, " : ");
		pr_operand_types(pr, op, nin, nout);
		pr_puts(pr, ")");
	}
}

static void print_results(Printer *pr, Op *op)
{
	if (!op->nres)
		return;
	pr_puts(pr, " -> ");
	if (op->nres > 1)
		pr_puts(pr, "(");
	pr_result_types(pr, op);
	if (op->nres > 1)
		pr_puts(pr, ")");
}

static int results(Parser *p, Type ***rt, int *nrt)
{
	*nrt = 0;
	*rt = NULL;
	if (!p_eat(p, "->"))
		return 0;
	return p_type_group(p, rt, nrt);
}

/* ---- named ops: `linalg.matmul {attrs} ins(..) outs(..) -> T` ---- */

static const char *const seg_elide[] = { "operand_segment_sizes", NULL };

Op *asm_parse_named(Parser *p, const OpInfo *info, int nres, Loc *loc)
{
	AttrList al = {0, 0, NULL};
	InsOuts io;
	Type **rt;
	Value **v;
	int nrt;

	memset(&io, 0, sizeof io);
	if (p_attr_dict(p, &al) || ins_outs(p, &io) || results(p, &rt, &nrt) ||
			!(v = resolve_io(p, &io)))
		return free(al.v), NULL;
	add_segments(p, &al, &io);
	return p_make(p, info, io.n[0] + io.n[1], v, nrt, rt, 0, loc, &al);
}

void asm_print_named(Printer *pr, Op *op)
{
	pr_attr_dict(pr, op, seg_elide, 0);
	print_ins_outs(pr, op);
	print_results(pr, op);
}

/* ---- linalg.generic ---- */

static const char *const generic_names[] = {
	"doc", "indexing_maps", "iterator_types", "library_call", NULL,
};
static const char *const generic_elide[] = {
	"doc", "indexing_maps", "iterator_types", "library_call",
	"operand_segment_sizes", NULL,
};

static int is_generic_name(const char *s)
{
	int i;

	for (i = 0; generic_names[i]; i++)
		if (!strcmp(generic_names[i], s))
			return 1;
	return 0;
}

Op *asm_parse_generic_linalg(Parser *p, const OpInfo *info, int nres, Loc *loc)
{
	AttrList al = {0, 0, NULL};
	InsOuts io;
	Region body = {0};
	Type **rt;
	Value **v;
	int nrt, hasbody = 0;
	Op *op;

	memset(&io, 0, sizeof io);
	if (p_attr_dict(p, &al) || ins_outs(p, &io))
		return free(al.v), NULL;
	if (p_eat(p, "attrs") && (p_expect(p, "=") || p_attr_dict(p, &al)))
		return free(al.v), NULL;
	if (p_is(p, "{")) {
		if (p_region(p, &body, -1, NULL))
			return free(al.v), NULL;
		hasbody = 1;
	}
	if (results(p, &rt, &nrt) || !(v = resolve_io(p, &io)))
		return free(al.v), NULL;
	add_segments(p, &al, &io);
	op = p_make(p, info, io.n[0] + io.n[1], v, nrt, rt, 1, loc, &al);
	if (op && hasbody)
		p_take_region(op, 0, &body);
	return op;
}

void asm_print_generic_linalg(Printer *pr, Op *op)
{
	NamedAttr d[4];
	int i, n = 0, extra = 0;

	for (i = 0; generic_names[i]; i++) {
		Attr *a = op_attr(op, generic_names[i]);

		if (a) {
			d[n].name = generic_names[i];
			d[n++].val = a;
		}
	}
	pr_puts(pr, " ");
	if (n) {
		Attr dict;

		memset(&dict, 0, sizeof dict);
		dict.kind = AT_DICT;
		dict.dict = d;
		dict.n = (size_t)n;
		pr_attr_entries(pr, &dict);
	}
	print_ins_outs(pr, op);
	for (i = 0; i < op->nattrs; i++)
		if (!is_generic_name(op->attrs[i].name) &&
				strcmp(op->attrs[i].name, "operand_segment_sizes"))
			extra = 1;
	if (extra) {
		pr_puts(pr, " attrs = ");
		pr_attr_dict(pr, op, generic_elide, 0);
	}
	if (op->regs[0].first) {
		pr_puts(pr, " ");
		pr_region(pr, &op->regs[0], 1);
	}
	print_results(pr, op);
}

/* ---- transpose / broadcast: `ins(..) outs(..) permutation = [1, 0] ` ---- */

static Op *parse_permuting(Parser *p, const OpInfo *info, const char *kw,
	Loc *loc)
{
	AttrList al = {0, 0, NULL};
	InsOuts io;
	int64_t *perm = NULL;
	int n = 0, cap = 0;
	Value **v;
	Type *rt;

	memset(&io, 0, sizeof io);
	if (ins_outs(p, &io) || p_expect(p, kw) || p_expect(p, "=") ||
			p_expect(p, "["))
		return NULL;
	while (!p_is(p, "]")) {
		int64_t x;

		if ((n && p_expect(p, ",")) || p_int(p, &x))
			return free(perm), NULL;
		if (n == cap)
			perm = xrealloc(perm, sizeof *perm * (size_t)(cap = cap ? 2 * cap : 8));
		perm[n++] = x;
	}
	if (p_expect(p, "]") || p_attr_dict(p, &al) || !(v = resolve_io(p, &io)))
		return free(perm), free(al.v), NULL;
	if (io.n[0] != 1 || io.n[1] != 1)
		return free(perm), free(al.v), p_error(p, "expected one input and one init"), NULL;
	attrlist_add(&al, kw, at_dense_array(p_ctx(p), ty_int(p_ctx(p), 64, SIGNLESS), n, perm));
	free(perm);
	rt = io.types[1][0];
	/* on tensors the op returns the init's type; on buffers nothing */
	return p_make(p, info, 2, v, rt->kind == TY_TENSOR, &rt, 0, loc, &al);
}

static void print_permuting(Printer *pr, Op *op, const char *kw)
{
	const char *elide[] = { kw, NULL };
	Attr *a = op_attr(op, kw);
	size_t i;

	pr_puts(pr, " ins(");
	pr_operands(pr, op, 0, 1);
	pr_puts(pr, " : ");
	pr_operand_types(pr, op, 0, 1);
	pr_puts(pr, ") outs(");
	pr_operands(pr, op, 1, 1);
	pr_puts(pr, " : ");
	pr_operand_types(pr, op, 1, 1);
	pr_printf(pr, ") %s = [", kw);
	for (i = 0; a && a->kind == AT_DENSE_ARRAY && i < a->n; i++)
		pr_printf(pr, "%s%lld", i ? ", " : "", (long long)a->ints[i]);
	pr_puts(pr, "] ");
	pr_attr_dict(pr, op, elide, 0);
}

Op *asm_parse_transpose(Parser *p, const OpInfo *info, int nres, Loc *loc)
{
	return parse_permuting(p, info, "permutation", loc);
}

void asm_print_transpose(Printer *pr, Op *op)
{
	print_permuting(pr, op, "permutation");
}

Op *asm_parse_broadcast(Parser *p, const OpInfo *info, int nres, Loc *loc)
{
	return parse_permuting(p, info, "dimensions", loc);
}

void asm_print_broadcast(Printer *pr, Op *op)
{
	print_permuting(pr, op, "dimensions");
}

/* ---- linalg.index 0 : index ---- */

Op *asm_parse_lindex(Parser *p, const OpInfo *info, int nres, Loc *loc)
{
	AttrList al = {0, 0, NULL};
	int64_t dim;
	Type *t;

	if (p_int(p, &dim) || p_attr_dict(p, &al) || p_expect(p, ":") ||
			!(t = p_type(p)))
		return free(al.v), NULL;
	attrlist_add(&al, "dim", at_int(p_ctx(p), dim, NULL));
	return p_make(p, info, 0, NULL, 1, &t, 0, loc, &al);
}

void asm_print_lindex(Printer *pr, Op *op)
{
	static const char *const elide[] = { "dim", NULL };
	Attr *d = op_attr(op, "dim");

	pr_printf(pr, " %lld", d ? (long long)d->i : 0LL);
	pr_attr_dict(pr, op, elide, 0);
	pr_puts(pr, " : ");
	pr_result_types(pr, op);
}
