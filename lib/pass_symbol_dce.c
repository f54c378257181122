/*
 * pass_symbol_dce.c - symbol-dce: erase private symbols nothing uses.
 *
 * needs:       a builtin.module (the symbol table it cleans).
 * guarantees:  every symbol left in the module body is public (no
 *              sym_visibility, or "public") or is reachable through
 *              @references (AT_SYMREF attributes, also inside arrays and
 *              dictionaries, at any depth of nesting) from a public symbol
 *              or from an op of the body that is not a symbol.  Private
 *              and nested symbols that only dead code references die too,
 *              cycles of them included.
 * invalidates: the erased symbols; nothing else changes.
 */
#include <stdlib.h>
#include <string.h>

#include "pass.h"

typedef struct Live {
	Op *mod;
	Op **syms;      /* the module body's symbol ops */
	char *live;     /* per symbol */
	int n;
	int *work;      /* symbols marked live, not yet scanned */
	int nwork;
} Live;

static int
is_public(Op *op)
{
	Attr *v = op_attr(op, "sym_visibility");

	return !v || v->kind != AT_STR || !strcmp(v->s, "public");
}

static int
sym_index(Live *l, const char *name)
{
	int i;

	if (name[0] == '@')
		name++;
	for (i = 0; i < l->n; i++)
		if (!strcmp(op_sym_name(l->syms[i]), name))
			return i;
	return -1;
}

static void
mark(Live *l, int i)
{
	if (i < 0 || l->live[i])
		return;
	l->live[i] = 1;
	l->work[l->nwork++] = i;
}

/* Marks the symbols a names, through arrays and dictionaries. */
static void
mark_attr(Live *l, const Attr *a)
{
	size_t i;

	if (!a)
		return;
	if (a->kind == AT_SYMREF && a->s)
		mark(l, sym_index(l, a->s));
	else if (a->kind == AT_ARRAY)
		for (i = 0; i < a->n; i++)
			mark_attr(l, a->elts[i]);
	else if (a->kind == AT_DICT)
		for (i = 0; i < a->n; i++)
			mark_attr(l, a->dict[i].val);
}

static int
mark_refs(Op *op, void *env)
{
	int i;

	for (i = 0; i < op->nattrs; i++)
		mark_attr(env, op->attrs[i].val);
	return 0;
}

static void
find_symbols(Live *l)
{
	Block *b = l->mod->regs[0].first;
	Op *o;

	for (o = b ? b->first : NULL; o; o = o->next)
		if (op_sym_name(o))
			l->n++;
	l->syms = xcalloc(l->n + 1, sizeof *l->syms);
	l->live = xcalloc(l->n + 1, 1);
	l->work = xcalloc(l->n + 1, sizeof *l->work);
	l->n = 0;
	for (o = b ? b->first : NULL; o; o = o->next)
		if (op_sym_name(o))
			l->syms[l->n++] = o;
}

/* Roots: public symbols and the body's other ops; then what they use. */
static void
propagate(Live *l)
{
	Block *b = l->mod->regs[0].first;
	Op *o;
	int i;

	for (i = 0; i < l->n; i++)
		if (is_public(l->syms[i]))
			mark(l, i);
	for (o = b ? b->first : NULL; o; o = o->next)
		if (!op_sym_name(o))
			op_walk(o, mark_refs, l);
	while (l->nwork)
		op_walk(l->syms[l->work[--l->nwork]], mark_refs, l);
}

static int
run(Ctx *c, Op *op, PassArgs *a)
{
	Live l = {.mod = op};
	int i;

	(void)c;
	if (!op->nregs)
		return 0;
	find_symbols(&l);
	propagate(&l);
	for (i = 0; i < l.n; i++)
		if (!l.live[i]) {
			op_erase(l.syms[i]);
			a->changed = 1;
		}
	free(l.syms);
	free(l.live);
	free(l.work);
	return 0;
}

const PassInfo pass_symbol_dce = {
	.name = "symbol-dce",
	.summary = "erase private symbols that nothing references",
	.anchor = "builtin.module",
	.run = run,
};
