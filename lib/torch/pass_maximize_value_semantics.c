/*
 * pass_maximize_value_semantics.c - torch-maximize-value-semantics.
 *
 * needs:       torch-reduce-op-variants: the only users of a non-value
 *              tensor are copy.to_vtensor, overwrite.tensor.contents and
 *              view-like ops.
 * guarantees:  for every tensor made by copy.to_tensor whose uses are
 *              all of that kind, in the same block, and which is
 *              overwritten only as a whole (not through a view): each
 *              read (copy.to_vtensor) becomes the value the tensor holds
 *              at that point, with its views replayed on value tensors;
 *              the copies, overwrites and non-value views are erased.
 *              Other tensors are left alone (the contract verifier names
 *              them).
 * invalidates: op identities.
 *
 * This is torch-mlir's abstract interpretation of one allocation: walk
 * the block in order, keeping the current value of the tensor.
 */
#include <stdlib.h>

#include "pass.h"
#include "torch.h"

typedef struct Vec {
	void **p;
	int n, cap;
} Vec;

static void
vpush(Vec *v, void *x)
{
	if (v->n == v->cap) {
		v->cap = v->cap ? 2 * v->cap : 16;
		v->p = xrealloc(v->p, mulsz(v->cap, sizeof *v->p));
	}
	v->p[v->n++] = x;
}

static int
vindex(const Vec *v, const void *x)
{
	int i;

	for (i = 0; i < v->n; i++)
		if (v->p[i] == x)
			return i;
	return -1;
}

typedef struct Alloc {
	Ctx *c;
	Op *root;        /* the copy.to_tensor */
	Vec aliases;     /* Value*: the root's result and its views */
	Vec cache;       /* Value*: materialized value per alias, or NULL */
	Value *cur;
} Alloc;

/* Is use u of an alias one we can interpret?  Views join the set. */
static int
use_ok(Alloc *a, Use *u)
{
	Op *o = u->owner;

	if (o->parent != a->root->parent)
		return 0;
	if (op_is(o, "torch.copy.to_vtensor"))
		return 1;
	if (op_is(o, "torch.overwrite.tensor.contents"))
		return u == &o->opnds[1] && u->val == RES(a->root, 0);
	if (op_has(o, TR_VIEW) && u == &o->opnds[0] && o->nres == 1
	    && RES(o, 0)->type->kind == TY_TORCH_TENSOR) {
		vpush(&a->aliases, RES(o, 0));
		return 1;
	}
	return 0;
}

static int
collect(Alloc *a)
{
	int i;

	vpush(&a->aliases, RES(a->root, 0));
	for (i = 0; i < a->aliases.n; i++)
		for (Use *u = ((Value *)a->aliases.p[i])->uses; u; u = u->next)
			if (!use_ok(a, u))
				return 0;
	return 1;
}

/* The value alias i holds now, made before `at`. */
static Value *
materialize(Alloc *a, int i, Op *at)
{
	Value *v = a->aliases.p[i];
	Op *view = v->def, *nop;
	Value *src;
	Type *t;

	if (i == 0)
		return a->cur;
	if (a->cache.p[i])
		return a->cache.p[i];
	src = materialize(a, vindex(&a->aliases, OPND(view, 0)), at);
	nop = op_clone(a->c, view, NULL, NULL);
	op_set_operand(nop, 0, src);
	t = RES(view, 0)->type;
	value_set_type(RES(nop, 0), tt_vt(a->c, tt_rank(t), t->dims, t->elem));
	op_insert_before(at, nop);
	torch_refine_op(a->c, nop);
	return a->cache.p[i] = RES(nop, 0);
}

static void
forget(Alloc *a)
{
	int i;

	for (i = 0; i < a->cache.n; i++)
		a->cache.p[i] = NULL;
}

static void
interpret(Alloc *a)
{
	Op *op, *next;
	int i;

	a->cur = OPND(a->root, 0);
	for (i = 0; i < a->aliases.n; i++)
		vpush(&a->cache, NULL);
	for (op = a->root->next; op; op = next) {
		next = op->next;
		if (op_is(op, "torch.overwrite.tensor.contents")
		    && OPND(op, 1) == RES(a->root, 0)) {
			a->cur = OPND(op, 0);
			forget(a);
			op_erase(op);
		} else if (op_is(op, "torch.copy.to_vtensor")
		    && (i = vindex(&a->aliases, OPND(op, 0))) >= 0) {
			Value *v = materialize(a, i, op);
			torch_replace(a->c, op, &v);
		}
	}
}

/* Erases the non-value views (users first) and the root. */
static void
erase_aliases(Alloc *a)
{
	int i;

	for (i = a->aliases.n - 1; i >= 0; i--) {
		Value *v = a->aliases.p[i];
		if (value_use_empty(v))
			op_erase(v->def);
	}
}

static int
run(Ctx *c, Op *fn, PassArgs *pa)
{
	Block *b = fn->nregs ? fn->regs[0].first : NULL;
	Vec roots = {0};
	int i;

	for (; b; b = b->next)
		for (Op *op = b->first; op; op = op->next)
			if (op_is(op, "torch.copy.to_tensor"))
				vpush(&roots, op);
	for (i = 0; i < roots.n; i++) {
		Alloc a = {c, roots.p[i], {0}, {0}, NULL};
		if (collect(&a)) {
			interpret(&a);
			erase_aliases(&a);
			pa->changed = 1;
		}
		free(a.aliases.p);
		free(a.cache.p);
	}
	free(roots.p);
	return 0;
}

const PassInfo pass_torch_maximize_value_semantics = {
	.name = "torch-maximize-value-semantics",
	.summary = "replace non-value tensors and their copies by value tensors",
	.anchor = "func.func",
	.run = run,
};
