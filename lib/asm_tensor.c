/*
 * asm_tensor.c - custom forms of the tensor dialect (and the yield form
 * shared by tensor.yield, linalg.yield and scf.yield).
 *
 * Slices and pads mix static and dynamic indices: `[0, %i]`.  The IR keeps
 * MLIR's encoding: static_* dense arrays with INT64_MIN where an operand
 * stands, and operand_segment_sizes saying how many operands each list has.
 */
#include <stdlib.h>
#include <string.h>

#include "asm.h"

enum { DYNAMIC = INT64_MIN };   /* ShapedType::kDynamic in MLIR 16 */

static Type *index_type(Parser *p) { return ty_index(p_ctx(p)); }

/* Parsed pieces of an op: operands, their types, attributes. */
typedef struct Parts {
	int n, cap;
	OpRef *refs;
	Type **types;
	AttrList al;
	int segs[8], nsegs;
} Parts;

static void parts_free(Parts *ps)
{
	free(ps->refs);
	free(ps->types);
	free(ps->al.v);
}

static void add_ref(Parts *ps, const OpRef *r, Type *t)
{
	if (ps->n == ps->cap) {
		ps->cap = ps->cap ? 2 * ps->cap : 8;
		ps->refs = xrealloc(ps->refs, sizeof *ps->refs * (size_t)ps->cap);
		ps->types = xrealloc(ps->types, sizeof *ps->types * (size_t)ps->cap);
	}
	ps->refs[ps->n] = *r;
	ps->types[ps->n++] = t;
}

static int one_ref(Parser *p, Parts *ps)
{
	OpRef r;

	if (p_opref(p, &r))
		return -1;
	add_ref(ps, &r, NULL);
	ps->segs[ps->nsegs++] = 1;
	return 0;
}

/* Resolves the operands (types filled in by now) and builds the op. */
static Op *parts_make(Parser *p, const OpInfo *info, Parts *ps, int nres,
	Type *rt, int nregs, Loc *loc)
{
	Value **vals = p_alloc(p, sizeof *vals * (size_t)(ps->n + 1));
	Op *op;

	if (p_resolve_list(p, ps->n, ps->refs, ps->n, ps->types, vals)) {
		parts_free(ps);
		return NULL;
	}
	if (ps->nsegs) {
		int64_t s[8];
		int i;

		for (i = 0; i < ps->nsegs; i++)
			s[i] = ps->segs[i];
		attrlist_add(&ps->al, "operand_segment_sizes",
			at_dense_array(p_ctx(p), ty_int(p_ctx(p), 32, SIGNLESS), ps->nsegs, s));
	}
	op = p_make(p, info, ps->n, vals, 1, &rt, nregs, loc, &ps->al);
	ps->al.v = NULL;
	parts_free(ps);
	return op;
}

/* `[0, %i, 4]`: static entries into name, operands into ps. */
static int index_list(Parser *p, Parts *ps, const char *name)
{
	int64_t *v = NULL;
	int n = 0, cap = 0, nops = 0;

	if (p_expect(p, "["))
		return -1;
	while (!p_is(p, "]")) {
		int64_t x = DYNAMIC;

		if (n && p_expect(p, ","))
			return free(v), -1;
		if (p_is_opref(p)) {
			OpRef r;

			if (p_opref(p, &r))
				return free(v), -1;
			add_ref(ps, &r, index_type(p));
			nops++;
		} else if (p_int(p, &x)) {
			return free(v), -1;
		}
		if (n == cap)
			v = xrealloc(v, sizeof *v * (size_t)(cap = cap ? 2 * cap : 8));
		v[n++] = x;
	}
	attrlist_add(&ps->al, name, at_dense_array(p_ctx(p), ty_int(p_ctx(p), 64, SIGNLESS), n, v));
	ps->segs[ps->nsegs++] = nops;
	free(v);
	return p_expect(p, "]");
}

/* Prints a static/dynamic list; *next is the next dynamic operand. */
static void print_index_list(Printer *pr, Op *op, const char *name, int *next)
{
	Attr *a = op_attr(op, name);
	size_t i;

	pr_puts(pr, "[");
	for (i = 0; a && a->kind == AT_DENSE_ARRAY && i < a->n; i++) {
		if (i)
			pr_puts(pr, ", ");
		if (a->ints[i] == DYNAMIC && *next < op->nopnds)
			pr_value(pr, OPND(op, (*next)++));
		else
			pr_printf(pr, "%lld", (long long)a->ints[i]);
	}
	pr_puts(pr, "]");
}

static const char *const seg_elide[] = {
	"operand_segment_sizes", "static_offsets", "static_sizes",
	"static_strides", "static_low", "static_high", "nofold", NULL,
};

/* ---- tensor.empty(%d) : T ---- */

Op *asm_parse_empty(Parser *p, const OpInfo *info, int nres, Loc *loc)
{
	Parts ps;
	OpRef *refs;
	int n, i;
	Type *t;

	memset(&ps, 0, sizeof ps);
	if (p_expect(p, "(") || p_oprefs(p, &refs, &n) || p_expect(p, ")") ||
			p_attr_dict(p, &ps.al) || p_expect(p, ":") || !(t = p_type(p)))
		return parts_free(&ps), NULL;
	for (i = 0; i < n; i++)
		add_ref(&ps, &refs[i], index_type(p));
	return parts_make(p, info, &ps, 1, t, 0, loc);
}

void asm_print_empty(Printer *pr, Op *op)
{
	pr_puts(pr, "(");
	pr_operands(pr, op, 0, op->nopnds);
	pr_puts(pr, ")");
	pr_attr_dict(pr, op, NULL, 0);
	pr_puts(pr, " : ");
	pr_result_types(pr, op);
}

/* ---- expand_shape / collapse_shape %x [[0, 1]] : T into R ---- */

static Attr *reassociation(Parser *p)
{
	Attr **groups = NULL, **inner = NULL, *a = NULL;
	int ng = 0, cg = 0, ni, ci;

	if (p_expect(p, "["))
		return NULL;
	while (!p_is(p, "]")) {
		if (ng && p_expect(p, ","))
			goto out;
		if (p_expect(p, "["))
			goto out;
		ni = ci = 0;
		while (!p_is(p, "]")) {
			int64_t v;

			if ((ni && p_expect(p, ",")) || p_int(p, &v))
				goto out;
			if (ni == ci)
				inner = xrealloc(inner, sizeof *inner * (size_t)(ci = ci ? 2 * ci : 8));
			inner[ni++] = at_int(p_ctx(p), v, NULL);
		}
		if (p_expect(p, "]"))
			goto out;
		if (ng == cg)
			groups = xrealloc(groups, sizeof *groups * (size_t)(cg = cg ? 2 * cg : 8));
		groups[ng++] = at_array(p_ctx(p), ni, inner);
	}
	if (p_expect(p, "]") == 0)
		a = at_array(p_ctx(p), ng, groups);
out:
	free(groups);
	free(inner);
	return a;
}

/* MLIR 19's `output_shape [2, 3]` is kept as static_output_shape */
Op *asm_parse_reshape(Parser *p, const OpInfo *info, int nres, Loc *loc)
{
	Parts ps;
	Attr *re;
	Type *t, *rt;

	memset(&ps, 0, sizeof ps);
	if (one_ref(p, &ps) || !(re = reassociation(p)) ||
			(p_eat(p, "output_shape") && index_list(p, &ps, "static_output_shape")) ||
			p_attr_dict(p, &ps.al) || p_expect(p, ":") || !(t = p_type(p)) ||
			p_expect(p, "into") || !(rt = p_type(p)))
		return parts_free(&ps), NULL;
	ps.nsegs = 0;
	ps.types[0] = t;
	attrlist_add(&ps.al, "reassociation", re);
	return parts_make(p, info, &ps, 1, rt, 0, loc);
}

void asm_print_reshape(Printer *pr, Op *op)
{
	static const char *const elide[] = {
		"reassociation", "static_output_shape", NULL,
	};
	Attr *re = op_attr(op, "reassociation");
	int next = 1;

	pr_puts(pr, " ");
	pr_value(pr, OPND(op, 0));
	pr_puts(pr, " ");
	if (re)
		pr_attr(pr, re);
	/* newer MLIR's result sizes of an expand_shape: as the op has them
	 * (torch-opt's convert-torch-to-linalg sets them), else from a
	 * static result type when printing for MLIR 19 or later (MLIR 16
	 * has no such field) */
	if (op_attr(op, "static_output_shape")) {
		pr_puts(pr, " output_shape ");
		print_index_list(pr, op, "static_output_shape", &next);
	} else if (pr_opts(pr)->mlir_version >= 19 && op_is(op, "tensor.expand_shape") &&
			RES(op, 0)->type->kind == TY_TENSOR && ty_static(RES(op, 0)->type)) {
		Type *t = RES(op, 0)->type;
		int i;

		pr_puts(pr, " output_shape [");
		for (i = 0; i < t->rank; i++)
			pr_printf(pr, "%s%lld", i ? ", " : "", (long long)t->dims[i]);
		pr_puts(pr, "]");
	}
	pr_attr_dict(pr, op, elide, 0);
	pr_puts(pr, " : ");
	pr_type(pr, OPND(op, 0)->type);
	pr_puts(pr, " into ");
	pr_result_types(pr, op);
}

/* ---- extract_slice %t[o] [s] [st] : T to R ---- */

static int slice_lists(Parser *p, Parts *ps)
{
	return index_list(p, ps, "static_offsets") ||
		index_list(p, ps, "static_sizes") ||
		index_list(p, ps, "static_strides");
}

static void print_slice_lists(Printer *pr, Op *op, int first)
{
	int next = first;

	print_index_list(pr, op, "static_offsets", &next);
	pr_puts(pr, " ");
	print_index_list(pr, op, "static_sizes", &next);
	pr_puts(pr, " ");
	print_index_list(pr, op, "static_strides", &next);
}

Op *asm_parse_slice(Parser *p, const OpInfo *info, int nres, Loc *loc)
{
	Parts ps;
	Type *t, *rt;

	memset(&ps, 0, sizeof ps);
	if (one_ref(p, &ps) || slice_lists(p, &ps) || p_attr_dict(p, &ps.al) ||
			p_expect(p, ":") || !(t = p_type(p)) || p_expect(p, "to") ||
			!(rt = p_type(p)))
		return parts_free(&ps), NULL;
	ps.types[0] = t;
	return parts_make(p, info, &ps, 1, rt, 0, loc);
}

void asm_print_slice(Printer *pr, Op *op)
{
	pr_puts(pr, " ");
	pr_value(pr, OPND(op, 0));
	print_slice_lists(pr, op, 1);
	pr_attr_dict(pr, op, seg_elide, 0);
	pr_puts(pr, " : ");
	pr_type(pr, OPND(op, 0)->type);
	pr_puts(pr, " to ");
	pr_result_types(pr, op);
}

/* ---- insert_slice %s into %d[o] [s] [st] : T into R ---- */

Op *asm_parse_insert_slice(Parser *p, const OpInfo *info, int nres, Loc *loc)
{
	Parts ps;
	Type *t, *rt;

	memset(&ps, 0, sizeof ps);
	if (one_ref(p, &ps) || p_expect(p, "into") || one_ref(p, &ps) ||
			slice_lists(p, &ps) || p_attr_dict(p, &ps.al) ||
			p_expect(p, ":") || !(t = p_type(p)) || p_expect(p, "into") ||
			!(rt = p_type(p)))
		return parts_free(&ps), NULL;
	ps.types[0] = t;
	ps.types[1] = rt;
	return parts_make(p, info, &ps, 1, rt, 0, loc);
}

void asm_print_insert_slice(Printer *pr, Op *op)
{
	pr_puts(pr, " ");
	pr_value(pr, OPND(op, 0));
	pr_puts(pr, " into ");
	pr_value(pr, OPND(op, 1));
	print_slice_lists(pr, op, 2);
	pr_attr_dict(pr, op, seg_elide, 0);
	pr_puts(pr, " : ");
	pr_type(pr, OPND(op, 0)->type);
	pr_puts(pr, " into ");
	pr_result_types(pr, op);
}

/* ---- tensor.dim %t, %c : T ---- */

Op *asm_parse_tdim(Parser *p, const OpInfo *info, int nres, Loc *loc)
{
	Parts ps;
	Type *t;

	memset(&ps, 0, sizeof ps);
	if (one_ref(p, &ps) || p_expect(p, ",") || one_ref(p, &ps) ||
			p_attr_dict(p, &ps.al) || p_expect(p, ":") || !(t = p_type(p)))
		return parts_free(&ps), NULL;
	ps.nsegs = 0;
	ps.types[0] = t;
	ps.types[1] = index_type(p);
	return parts_make(p, info, &ps, 1, index_type(p), 0, loc);
}

void asm_print_tdim(Printer *pr, Op *op)
{
	pr_puts(pr, " ");
	pr_operands(pr, op, 0, 2);
	pr_attr_dict(pr, op, NULL, 0);
	pr_puts(pr, " : ");
	pr_type(pr, OPND(op, 0)->type);
}

/* ---- extract %t[%i] : T   /   insert %v into %t[%i] : T ---- */

static int bracket_indices(Parser *p, Parts *ps)
{
	OpRef *refs;
	int n, i;

	if (p_expect(p, "[") || p_oprefs(p, &refs, &n) || p_expect(p, "]"))
		return -1;
	for (i = 0; i < n; i++)
		add_ref(ps, &refs[i], index_type(p));
	return 0;
}

static void print_bracket_indices(Printer *pr, Op *op, int from)
{
	pr_puts(pr, "[");
	pr_operands(pr, op, from, op->nopnds - from);
	pr_puts(pr, "]");
}

Op *asm_parse_extract(Parser *p, const OpInfo *info, int nres, Loc *loc)
{
	Parts ps;
	Type *t;

	memset(&ps, 0, sizeof ps);
	if (one_ref(p, &ps) || bracket_indices(p, &ps) ||
			p_attr_dict(p, &ps.al) || p_expect(p, ":") || !(t = p_type(p)))
		return parts_free(&ps), NULL;
	if (!ty_isshaped(t) || !t->elem)
		return parts_free(&ps), p_error(p, "expected a shaped type"), NULL;
	ps.nsegs = 0;
	ps.types[0] = t;
	return parts_make(p, info, &ps, 1, t->elem, 0, loc);
}

void asm_print_extract(Printer *pr, Op *op)
{
	pr_puts(pr, " ");
	pr_value(pr, OPND(op, 0));
	print_bracket_indices(pr, op, 1);
	pr_attr_dict(pr, op, NULL, 0);
	pr_puts(pr, " : ");
	pr_type(pr, OPND(op, 0)->type);
}

Op *asm_parse_insert(Parser *p, const OpInfo *info, int nres, Loc *loc)
{
	Parts ps;
	Type *t;

	memset(&ps, 0, sizeof ps);
	if (one_ref(p, &ps) || p_expect(p, "into") || one_ref(p, &ps) ||
			bracket_indices(p, &ps) || p_attr_dict(p, &ps.al) ||
			p_expect(p, ":") || !(t = p_type(p)))
		return parts_free(&ps), NULL;
	if (!ty_isshaped(t) || !t->elem)
		return parts_free(&ps), p_error(p, "expected a shaped type"), NULL;
	ps.nsegs = 0;
	ps.types[0] = t->elem;
	ps.types[1] = t;
	return parts_make(p, info, &ps, 1, t, 0, loc);
}

void asm_print_insert(Printer *pr, Op *op)
{
	pr_puts(pr, " ");
	pr_value(pr, OPND(op, 0));
	pr_puts(pr, " into ");
	pr_value(pr, OPND(op, 1));
	print_bracket_indices(pr, op, 2);
	pr_attr_dict(pr, op, NULL, 0);
	pr_puts(pr, " : ");
	pr_type(pr, OPND(op, 1)->type);
}

/* ---- from_elements %a, %b : T   /   splat %v : T ---- */

Op *asm_parse_from_elements(Parser *p, const OpInfo *info, int nres, Loc *loc)
{
	Parts ps;
	OpRef *refs;
	Type *t;
	int n, i;

	memset(&ps, 0, sizeof ps);
	if (p_oprefs(p, &refs, &n) || p_attr_dict(p, &ps.al) ||
			p_expect(p, ":") || !(t = p_type(p)))
		return parts_free(&ps), NULL;
	if (!ty_isshaped(t) || !t->elem)
		return parts_free(&ps), p_error(p, "expected a shaped type"), NULL;
	for (i = 0; i < n; i++)
		add_ref(&ps, &refs[i], t->elem);
	return parts_make(p, info, &ps, 1, t, 0, loc);
}

void asm_print_from_elements(Printer *pr, Op *op)
{
	pr_puts(pr, " ");
	pr_operands(pr, op, 0, op->nopnds);
	pr_attr_dict(pr, op, NULL, 0);
	pr_puts(pr, " : ");
	pr_result_types(pr, op);
}

Op *asm_parse_splat(Parser *p, const OpInfo *info, int nres, Loc *loc)
{
	return asm_parse_from_elements(p, info, nres, loc);
}

void asm_print_splat(Printer *pr, Op *op)
{
	asm_print_from_elements(pr, op);
}

/* ---- tensor.pad %t nofold low[..] high[..] {region} : T to R ---- */

Op *asm_parse_pad(Parser *p, const OpInfo *info, int nres, Loc *loc)
{
	Parts ps;
	Region body;
	Type *t, *rt;
	Op *op;
	int nofold;

	memset(&ps, 0, sizeof ps);
	if (one_ref(p, &ps))
		return parts_free(&ps), NULL;
	nofold = p_eat(p, "nofold");
	if (p_expect(p, "low") || index_list(p, &ps, "static_low") ||
			p_expect(p, "high") || index_list(p, &ps, "static_high") ||
			p_region(p, &body, -1, NULL) || p_attr_dict(p, &ps.al) ||
			p_expect(p, ":") || !(t = p_type(p)) || p_expect(p, "to") ||
			!(rt = p_type(p)))
		return parts_free(&ps), NULL;
	if (nofold)
		attrlist_add(&ps.al, "nofold", at_unit(p_ctx(p)));
	ps.types[0] = t;
	if (!(op = parts_make(p, info, &ps, 1, rt, 1, loc)))
		return NULL;
	p_take_region(op, 0, &body);
	return op;
}

void asm_print_pad(Printer *pr, Op *op)
{
	int next = 1;

	pr_puts(pr, " ");
	pr_value(pr, OPND(op, 0));
	if (op_attr(op, "nofold"))
		pr_puts(pr, " nofold");
	pr_puts(pr, " low");
	print_index_list(pr, op, "static_low", &next);
	pr_puts(pr, " high");
	print_index_list(pr, op, "static_high", &next);
	pr_puts(pr, " ");
	pr_region(pr, &op->regs[0], 1);
	pr_attr_dict(pr, op, seg_elide, 0);
	pr_puts(pr, " : ");
	pr_type(pr, OPND(op, 0)->type);
	pr_puts(pr, " to ");
	pr_result_types(pr, op);
}

/* ---- tensor.generate %d {region} : T ---- */

Op *asm_parse_generate(Parser *p, const OpInfo *info, int nres, Loc *loc)
{
	Parts ps;
	OpRef *refs;
	Region body;
	Type *t;
	Op *op;
	int n, i;

	memset(&ps, 0, sizeof ps);
	if (p_oprefs(p, &refs, &n) || p_region(p, &body, -1, NULL) ||
			p_attr_dict(p, &ps.al) || p_expect(p, ":") || !(t = p_type(p)))
		return parts_free(&ps), NULL;
	for (i = 0; i < n; i++)
		add_ref(&ps, &refs[i], index_type(p));
	if (!(op = parts_make(p, info, &ps, 1, t, 1, loc)))
		return NULL;
	p_take_region(op, 0, &body);
	return op;
}

void asm_print_generate(Printer *pr, Op *op)
{
	pr_puts(pr, " ");
	pr_operands(pr, op, 0, op->nopnds);
	if (op->nopnds)
		pr_puts(pr, " ");
	pr_region_tail(pr, op, 1);
}

/* ---- yields: `linalg.yield %a, %b : T, U` ---- */

Op *asm_parse_yield(Parser *p, const OpInfo *info, int nres, Loc *loc)
{
	AttrList al = {0, 0, NULL};
	OpRef *refs;
	Type **t = NULL;
	Value **vals;
	int n, nt = 0;

	if (p_attr_dict(p, &al) || p_oprefs(p, &refs, &n) || p_attr_dict(p, &al))
		return free(al.v), NULL;
	if (n && (p_expect(p, ":") || p_types(p, &t, &nt)))
		return free(al.v), NULL;
	vals = p_alloc(p, sizeof *vals * (size_t)(n + 1));
	if (p_resolve_list(p, n, refs, nt, t, vals))
		return free(al.v), NULL;
	return p_make(p, info, n, vals, 0, NULL, 0, loc, &al);
}

void asm_print_yield(Printer *pr, Op *op)
{
	if (op->nopnds) {
		pr_puts(pr, " ");
		pr_operands(pr, op, 0, op->nopnds);
	}
	pr_attr_dict(pr, op, NULL, 0);
	if (op->nopnds) {
		pr_puts(pr, " : ");
		pr_operand_types(pr, op, 0, op->nopnds);
	}
}

/* ---- tensor.reshape %s(%shape) : (T, S) -> R ---- */

Op *asm_parse_treshape(Parser *p, const OpInfo *info, int nres, Loc *loc)
{
	Parts ps;
	Type **in, **out;
	int nin, nout;

	memset(&ps, 0, sizeof ps);
	if (one_ref(p, &ps) || p_expect(p, "(") || one_ref(p, &ps) ||
			p_expect(p, ")") || p_attr_dict(p, &ps.al) || p_expect(p, ":") ||
			p_functional(p, &in, &nin, &out, &nout))
		return parts_free(&ps), NULL;
	if (nin != 2 || nout != 1)
		return parts_free(&ps), p_error(p, "expected (T, S) -> R"), NULL;
	ps.nsegs = 0;
	ps.types[0] = in[0];
	ps.types[1] = in[1];
	return parts_make(p, info, &ps, 1, out[0], 0, loc);
}

void asm_print_treshape(Printer *pr, Op *op)
{
	pr_puts(pr, " ");
	pr_value(pr, OPND(op, 0));
	pr_puts(pr, "(");
	pr_value(pr, OPND(op, 1));
	pr_puts(pr, ")");
	pr_attr_dict(pr, op, NULL, 0);
	pr_puts(pr, " : ");
	pr_functional(pr, op, 0, 2);
}

/* ---- tensor.concat dim(D) %a, %b : (T, U) -> R ---- */

Op *asm_parse_concat(Parser *p, const OpInfo *info, int nres, Loc *loc)
{
	AttrList al = {0, 0, NULL};
	OpRef *refs;
	Type **in, **out;
	Value **vals;
	int64_t dim;
	int n, nin, nout;

	if (p_expect(p, "dim") || p_expect(p, "(") || p_int(p, &dim) ||
			p_expect(p, ")") || p_oprefs(p, &refs, &n) ||
			p_attr_dict(p, &al) || p_expect(p, ":") ||
			p_functional(p, &in, &nin, &out, &nout))
		return free(al.v), NULL;
	vals = p_alloc(p, sizeof *vals * (size_t)(n + 1));
	if (p_resolve_list(p, n, refs, nin, in, vals))
		return free(al.v), NULL;
	attrlist_add(&al, "dim", at_int(p_ctx(p), dim, NULL));
	return p_make(p, info, n, vals, nout, out, 0, loc, &al);
}

void asm_print_concat(Printer *pr, Op *op)
{
	static const char *const elide[] = { "dim", NULL };
	Attr *d = op_attr(op, "dim");

	pr_printf(pr, " dim(%lld) ", d ? (long long)d->i : 0LL);
	pr_operands(pr, op, 0, op->nopnds);
	pr_attr_dict(pr, op, elide, 0);
	pr_puts(pr, " : ");
	pr_functional(pr, op, 0, op->nopnds);
}
