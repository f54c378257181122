/*
 * verify.c - the IR verifier: what every op must satisfy (counts and
 * traits from the op table, dominance, terminators, unique symbols), then
 * each op's own verify hook from the table.
 */
#include <stdlib.h>
#include <string.h>

#include "ir.h"
#include "verify.h"

typedef struct V {
	int failed;
} V;

static int
count_ok(Op *op, const char *what, int want, int have)
{
	if (want < 0 || want == have)
		return 1;
	op_error(op, "'%s' op requires %d %s but found %d", op->name, want, what, have);
	return 0;
}

/* Is op (or an ancestor of it) in block b?  Returns that op or NULL. */
static Op *
ancestor_in(Op *op, Block *b)
{
	while (op && op->parent != b)
		op = block_parent_op(op->parent);
	return op;
}

/* a and b are in one block, numbered by number_ops. */
static int
precedes(Op *a, Op *b)
{
	return a->ord < b->ord;
}

/* Numbers the ops of every block so dominance checks are O(1). */
static int
number_ops(Op *op, void *env)
{
	(void)env;
	for (int i = 0; i < op->nregs; i++)
		for (Block *b = op->regs[i].first; b; b = b->next) {
			uint32_t k = 0;
			for (Op *o = b->first; o; o = o->next)
				o->ord = k++;
		}
	return 0;
}

static int
in_graph_region(Block *b)
{
	Op *p = block_parent_op(b);

	return !p || op_has(p, TR_GRAPH) || op_has(p, TR_SYMTAB);
}

static int
dominates(Value *v, Op *user)
{
	Op *anc;

	if (!v->def) {
		/* a block argument is visible to everything nested in its block */
		return ancestor_in(user, v->block) != NULL
		    || block_parent_op(v->block) == NULL;
	}
	if (!v->def->parent)
		return 0;
	anc = ancestor_in(user, v->def->parent);
	if (!anc) {
		/* different blocks of one region: without a CFG analysis we
		 * accept uses in a sibling block of the same region */
		Region *r = v->def->parent->parent;
		for (Op *o = user; o; o = block_parent_op(o->parent))
			if (o->parent && o->parent->parent == r)
				return 1;
		return 0;
	}
	if (anc == v->def)
		return 0;
	return in_graph_region(v->def->parent) || precedes(v->def, anc);
}

static uint64_t
strhash(const char *s)
{
	uint64_t h = 14695981039346656037u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211u;
	return h;
}

/* Each symbol against the first of its name: a hash table, so that a
 * module of many functions is not quadratic. */
static void
check_symbols(Op *op, V *v)
{
	Block *b = op->regs[0].first;
	Op **tab;
	size_t n = 0, cap = 16, i;

	if (!b)
		return;
	for (Op *o = b->first; o; o = o->next)
		n++;
	while (cap < 2 * n)
		cap *= 2;
	tab = xcalloc(cap, sizeof *tab);
	for (Op *o = b->first; o; o = o->next) {
		const char *s = op_sym_name(o);

		if (!s)
			continue;
		for (i = strhash(s) & (cap - 1); tab[i]; i = (i + 1) & (cap - 1))
			if (!strcmp(s, op_sym_name(tab[i])))
				break;
		if (!tab[i]) {
			tab[i] = o;
			continue;
		}
		op_error(o, "redefinition of symbol named '%s'", s);
		op_note(tab[i], "see existing symbol definition here");
		v->failed = 1;
	}
	free(tab);
}

static void
check_terminators(Op *op, V *v)
{
	int i;

	if (!op->info || op_has(op, TR_NOTERM))
		return;
	for (i = 0; i < op->nregs; i++)
		for (Block *b = op->regs[i].first; b; b = b->next)
			if (!b->last || !op_has(b->last, TR_TERMINATOR)) {
				op_error(b->last ? b->last : op,
				    "block in '%s' must end with a terminator", op->name);
				v->failed = 1;
			}
}

/* What the parser would refuse to read back: an elements literal whose
 * type is not a statically shaped tensor or vector. */
static int
attr_ok(Op *op, const char *name, const Attr *a)
{
	size_t i;

	if (!a)
		return 1;
	switch (a->kind) {
	case AT_DENSE:
	case AT_DENSE_RESOURCE:
		if (!a->type || !ty_isshaped(a->type) || !a->type->elem
		    || a->type->kind == TY_TORCH_VTENSOR || a->type->kind == TY_TORCH_TENSOR
		    || ty_numel(a->type) < 0) {
			op_error(op, "attribute '%s' of '%s': elements literal type must have static shape",
			    name, op->name);
			return 0;
		}
		return 1;
	case AT_ARRAY:
		for (i = 0; i < a->n; i++)
			if (!attr_ok(op, name, a->elts[i]))
				return 0;
		return 1;
	case AT_DICT:
		for (i = 0; i < a->n; i++)
			if (!attr_ok(op, name, a->dict[i].val))
				return 0;
		return 1;
	default:
		return 1;
	}
}

static int
verify_one(Op *op, void *env)
{
	V *v = env;
	const OpInfo *in = op->info;
	int i;

	if (!in) {
		if (!ctx_allow_unregistered) {
			op_error(op, "unregistered operation '%s'", op->name);
			v->failed = 1;
		}
		return 0;
	}
	if (!count_ok(op, "operands", in->nopnds, op->nopnds)
	    || !count_ok(op, "results", in->nres, op->nres)
	    || !count_ok(op, "regions", in->nregs, op->nregs)) {
		v->failed = 1;
		return 1;
	}
	for (i = 0; i < op->nopnds; i++) {
		Value *val = OPND(op, i);
		if (!val) {
			op_error(op, "operand #%d of '%s' is null", i, op->name);
			v->failed = 1;
		} else if (!dominates(val, op)) {
			op_error(op, "operand #%d does not dominate this use", i);
			v->failed = 1;
		}
	}
	if (op->next && op_has(op, TR_TERMINATOR)) {
		op_error(op, "'%s' must be the last operation in its block", op->name);
		v->failed = 1;
	}
	check_terminators(op, v);
	for (i = 0; i < op->nattrs; i++)
		if (!attr_ok(op, op->attrs[i].name, op->attrs[i].val))
			v->failed = 1;
	if (op_has(op, TR_SYMTAB) && op->nregs)
		check_symbols(op, v);
	if (in->needs && verify_needs(op) != 0)
		v->failed = 1;   /* and its own rules, which read them, would only add noise */
	else if (in->verify && in->verify(op) != 0)
		v->failed = 1;
	return 0;
}

int
verify(Op *op)
{
	V v = {0};

	op_walk(op, number_ops, NULL);
	op_walk(op, verify_one, &v);
	return v.failed ? -1 : 0;
}

typedef struct NoData {
	const char *first;
	int n;
} NoData;

static int
no_data(Op *op, void *env)
{
	NoData *d = env;

	for (int i = 0; i < op->nattrs; i++) {
		const Attr *a = op->attrs[i].val;

		if (a && a->kind == AT_DENSE_RESOURCE && !a->res->data && !a->res->fill &&
		    (!d->n++ || !d->first))
			d->first = a->res->name;
	}
	return 0;
}

int
verify_resource_data(Op *top, const char *input)
{
	NoData d = {NULL, 0};

	op_walk(top, no_data, &d);
	if (d.n > 1)
		fprintf(stderr, "%s: error: dense_resource '%s' and %d more have no data: the input "
		    "holds no blobs for them (was it cut short?)\n", input, d.first, d.n - 1);
	else if (d.n)
		fprintf(stderr, "%s: error: dense_resource '%s' has no data: the input holds no "
		    "blob for it (was it cut short?)\n", input, d.first);
	diag_errors += d.n > 0;
	return d.n;
}
