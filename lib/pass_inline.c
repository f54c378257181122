/*
 * pass_inline.c - inline: replace func.call ops by the callee's body.
 *
 * needs:       a builtin.module whose body holds the func.func callees.
 * guarantees:  each func.call of a func.func in the module whose body is a
 *              single block ending in func.return (operand and result
 *              types matching the call) is replaced by a copy of that body:
 *              callee arguments become the call's operands, the call's
 *              results the func.return operands.  Callees are done before
 *              their callers, so what is copied is already inlined.  Calls
 *              that close a cycle of the call graph (recursion) and calls
 *              of external or multi-block functions stay.  Then private
 *              func.func ops with a body that nothing else references are
 *              erased, until none is left (declarations stay).
 * invalidates: the erased calls and functions.  Copied ops get call-site
 *              locations: callsite(callee location at call location).
 *              Runs no canonicalization afterwards.
 */
#include <stdlib.h>
#include <string.h>

#include "pass.h"

/* ---- value map: callee values -> caller values ---- */

typedef struct VMap {
	Value **from, **to;
	size_t n, cap;   /* open addressing; cap a power of two */
} VMap;

static size_t
vslot(const VMap *m, const Value *v)
{
	size_t i = ((uintptr_t)v >> 4) * 0x9E3779B97F4A7C15ull & (m->cap - 1);

	while (m->from[i] && m->from[i] != v)
		i = (i + 1) & (m->cap - 1);
	return i;
}

static void vmap_add(VMap *m, Value *from, Value *to);

static void
vmap_grow(VMap *m)
{
	VMap old = *m;
	size_t i;

	m->cap = m->cap ? m->cap * 2 : 64;
	m->n = 0;
	m->from = xcalloc(m->cap, sizeof *m->from);
	m->to = xcalloc(m->cap, sizeof *m->to);
	for (i = 0; i < old.cap; i++)
		if (old.from[i])
			vmap_add(m, old.from[i], old.to[i]);
	free(old.from);
	free(old.to);
}

static void
vmap_add(VMap *m, Value *from, Value *to)
{
	size_t i;

	if (2 * (m->n + 1) > m->cap)
		vmap_grow(m);
	i = vslot(m, from);
	if (!m->from[i])
		m->n++;
	m->from[i] = from;
	m->to[i] = to;
}

/* op_clone's hook for values defined outside the op being cloned */
static Value *
vmap_get(void *env, Value *v)
{
	VMap *m = env;
	size_t i;

	if (!m->cap)
		return v;
	i = vslot(m, v);
	return m->from[i] ? m->to[i] : v;
}

/* ---- the call graph ---- */

typedef struct Inliner {
	Ctx *c;
	Op **fns;       /* the module's func.func ops */
	char *state;    /* 0 new, 1 on the walk's stack, 2 done */
	int n;
	int changed;
} Inliner;

static int
fn_index(Inliner *in, const char *name)
{
	int i;

	if (name[0] == '@')
		name++;
	for (i = 0; i < in->n; i++)
		if (in->fns[i] && !strcmp(op_sym_name(in->fns[i]), name))
			return i;
	return -1;
}

static int
callee_of(Inliner *in, Op *call)
{
	Attr *a = op_attr(call, "callee");

	return a && a->kind == AT_SYMREF && !a->n ? fn_index(in, a->s) : -1;
}

/* Single block ending in func.return, with the call's types. */
static int
inlinable(Op *fn, Op *call)
{
	Block *b = fn->nregs ? fn->regs[0].first : NULL;
	Op *ret = b ? b->last : NULL;
	int i;

	if (!b || b->next || !op_is(ret, "func.return") || b->nargs != call->nopnds
	    || ret->nopnds != call->nres)
		return 0;
	for (i = 0; i < b->nargs; i++)
		if (b->args[i]->type != OPND(call, i)->type)
			return 0;
	for (i = 0; i < ret->nopnds; i++)
		if (OPND(ret, i)->type != RES(call, i)->type)
			return 0;
	return 1;
}

typedef struct Reloc {
	Ctx *c;
	Loc *caller;
} Reloc;

static int
relocate(Op *op, void *env)
{
	Reloc *r = env;

	op->loc = loc_callsite(r->c, op->loc, r->caller);
	return 0;
}

static void
inline_call(Ctx *c, Op *call, Op *fn)
{
	Block *b = fn->regs[0].first;
	Op *ret = b->last, *o, *n;
	VMap m = {0};
	Reloc r = {c, call->loc};
	Value *vals[call->nres + 1];
	int i;

	for (i = 0; i < b->nargs; i++)
		vmap_add(&m, b->args[i], OPND(call, i));
	for (o = b->first; o != ret; o = o->next) {
		n = op_clone(c, o, vmap_get, &m);
		op_walk(n, relocate, &r);
		op_insert_before(call, n);
		for (i = 0; i < o->nres; i++)
			vmap_add(&m, RES(o, i), RES(n, i));
	}
	for (i = 0; i < call->nres; i++)
		vals[i] = vmap_get(&m, OPND(ret, i));
	op_replace(call, vals);
	free(m.from);
	free(m.to);
}

typedef struct Calls {
	Op **p;
	size_t n, cap;
} Calls;

static int
collect_call(Op *op, void *env)
{
	Calls *v = env;

	if (!op_is(op, "func.call"))
		return 0;
	if (v->n == v->cap) {
		v->cap = v->cap ? v->cap * 2 : 16;
		v->p = xrealloc(v->p, mulsz(v->cap, sizeof *v->p));
	}
	v->p[v->n++] = op;
	return 0;
}

/* Inlines into function i, its callees first (depth first). */
static void
visit(Inliner *in, int i)
{
	Calls calls = {0};
	size_t k;
	int j;

	in->state[i] = 1;
	op_walk(in->fns[i], collect_call, &calls);
	for (k = 0; k < calls.n; k++) {
		if ((j = callee_of(in, calls.p[k])) < 0)
			continue;
		if (!in->state[j])
			visit(in, j);
		if (in->state[j] == 2 && inlinable(in->fns[j], calls.p[k])) {
			inline_call(in->c, calls.p[k], in->fns[j]);
			in->changed = 1;
		}
	}
	free(calls.p);
	in->state[i] = 2;
}

/* ---- dead private functions ---- */

typedef struct Refs {
	Inliner *in;
	int self;       /* references from function self do not count */
	char *used;
} Refs;

static void
ref_attr(Refs *r, const Attr *a)
{
	size_t i;
	int j;

	if (!a)
		return;
	if (a->kind == AT_SYMREF && a->s && (j = fn_index(r->in, a->s)) >= 0
	    && j != r->self)
		r->used[j] = 1;
	if (a->kind == AT_ARRAY || a->kind == AT_SYMREF)
		for (i = 0; i < a->n; i++)
			ref_attr(r, a->elts[i]);
	if (a->kind == AT_DICT)
		for (i = 0; i < a->n; i++)
			ref_attr(r, a->dict[i].val);
}

static int
ref_op(Op *op, void *env)
{
	int i;

	for (i = 0; i < op->nattrs; i++)
		ref_attr(env, op->attrs[i].val);
	return 0;
}

/* A private function with a body may go when unused; declarations stay,
 * as with MLIR's inliner. */
static int
discardable(Op *fn)
{
	Attr *v = op_attr(fn, "sym_visibility");

	return v && v->kind == AT_STR && !strcmp(v->s, "private")
	    && fn->nregs && fn->regs[0].first;
}

/* Erases one round of unreferenced private functions; 1 if any. */
static int
erase_unused(Inliner *in, Op *mod)
{
	Refs r = {in, -1, xcalloc(in->n + 1, 1)};
	Op *o;
	int i, erased = 0;

	for (o = mod->regs[0].first->first; o; o = o->next) {
		r.self = op_is(o, "func.func") ? fn_index(in, op_sym_name(o)) : -1;
		op_walk(o, ref_op, &r);
	}
	for (i = 0; i < in->n; i++)
		if (in->fns[i] && !r.used[i] && discardable(in->fns[i])) {
			op_erase(in->fns[i]);
			in->fns[i] = NULL;
			erased = 1;
		}
	free(r.used);
	return erased;
}

static void
find_functions(Inliner *in, Op *mod)
{
	Op *o;

	for (o = mod->regs[0].first->first; o; o = o->next)
		if (op_is(o, "func.func") && op_sym_name(o))
			in->n++;
	in->fns = xcalloc(in->n + 1, sizeof *in->fns);
	in->state = xcalloc(in->n + 1, 1);
	in->n = 0;
	for (o = mod->regs[0].first->first; o; o = o->next)
		if (op_is(o, "func.func") && op_sym_name(o))
			in->fns[in->n++] = o;
}

static int
run(Ctx *c, Op *op, PassArgs *a)
{
	Inliner in = {.c = c};
	int i;

	if (!op->nregs || !op->regs[0].first)
		return 0;
	find_functions(&in, op);
	for (i = 0; i < in.n; i++)
		if (!in.state[i])
			visit(&in, i);
	while (erase_unused(&in, op))
		in.changed = 1;
	a->changed |= in.changed;
	free(in.fns);
	free(in.state);
	return 0;
}

const PassInfo pass_inline = {
	.name = "inline",
	.summary = "inline func.call ops and erase dead private functions",
	.anchor = "builtin.module",
	.run = run,
};
