/*
 * pass_maximize_value_semantics.c - torch-maximize-value-semantics.
 *
 * needs:       torch-reduce-op-variants: the only users of a non-value
 *              tensor are copy.to_vtensor, overwrite.tensor.contents,
 *              view-like ops and the function's return.
 * guarantees:  for every tensor made by copy.to_tensor whose every use
 *              (through its views) can be interpreted exactly: each read
 *              (copy.to_vtensor) becomes the value the tensor, or its
 *              view, holds at that point, with the views replayed on value
 *              tensors; a return of the tensor becomes a copy.to_tensor
 *              of the value it holds then; the copies, overwrites and
 *              non-value views are erased.  Other tensors are left alone
 *              as they were (the contract verifier names them).
 * invalidates: op identities.
 *
 * This is torch-mlir's abstract interpretation of one allocation: walk
 * the block in order, keeping the current value of the tensor.  A plan
 * walks it first without changing anything, so that a tensor is either
 * converted whole or left whole.
 *
 * What is exact, and so accepted:
 *  - a read anywhere after the write it sees, in the block or inside a
 *    region of an op of the block (torch.prim.If): the region reads the
 *    value the tensor holds when that op starts, as nothing in it writes;
 *  - a view that always aliases (view_kind) is a function of what it
 *    views, so it may be replayed at the read; one that may copy
 *    (reshape, contiguous, to.dtype, ...) only while nothing was written
 *    since it was made, because a copy keeps the old contents;
 *  - a write through casts is a write of the whole tensor; a write through
 *    a view that maps each element to its own place (not expand, not
 *    as_strided) leaves the view's value known and the rest unknown: a
 *    later read of the rest, or return, is refused.
 */
#include <stdlib.h>
#include <string.h>

#include "pass.h"
#include "torch.h"

enum { V_ROOT, V_CAST, V_WRITABLE, V_READONLY, V_MAYCOPY };

/* How op, a view of its operand 0, aliases it. */
static int
view_kind(Op *op)
{
	/* always views, element to own element: a write through them is exact */
	static const char *const writable[] = {"view", "view_as", "unsqueeze", "squeeze",
		"squeeze.dim", "permute", "transpose.int", "t", "select.int", "narrow",
		"diagonal", "alias", "detach", "movedim.int", "swapaxes", "swapdims",
		"adjoint", "unflatten.int", NULL};
	/* always views, but elements share places or bits are reinterpreted */
	static const char *const readonly[] = {"expand", "expand_as", "broadcast_to",
		"as_strided", "unfold", "view.dtype", "view_as_real", "view_as_complex",
		"real", "imag", NULL};
	const char *n = op->name + strlen("torch.aten.");
	int i;

	if (op_is(op, "torch.tensor_static_info_cast"))
		return V_CAST;
	if (strncmp(op->name, "torch.aten.", 11))
		return V_MAYCOPY;
	for (i = 0; writable[i]; i++)
		if (!strcmp(n, writable[i]))
			return V_WRITABLE;
	for (i = 0; readonly[i]; i++)
		if (!strcmp(n, readonly[i]))
			return V_READONLY;
	return V_MAYCOPY;
}

typedef struct Alias {
	Value *v;        /* the root's result or a view's */
	int parent;      /* the alias it views; -1 for the root */
	int kind;        /* V_* */
	int epoch;       /* writes seen when it was made */
	Value *cache;    /* its value in this epoch, or NULL */
} Alias;

typedef struct Alloc {
	Ctx *c;
	Op *root;        /* the copy.to_tensor */
	Alias *al;
	int n, cap;
	Op **nested;     /* reads inside regions of the block's ops */
	int nnested;
	int dry;         /* planning: nothing is changed */
	int epoch;
	int live;        /* -1: the root's value is cur; else only this alias's
	                    value (and its views') is known */
	Value *cur;
} Alloc;

static Value dummy;  /* the planner's stand-in for a value */

static int
alias_of(Alloc *a, Value *v)
{
	int i;

	for (i = 0; i < a->n; i++)
		if (a->al[i].v == v)
			return i;
	return -1;
}

static void
add_alias(Alloc *a, Value *v, int parent, int kind, int epoch)
{
	if (a->n == a->cap) {
		a->cap = a->cap ? 2 * a->cap : 8;
		a->al = xrealloc(a->al, mulsz(a->cap, sizeof *a->al));
	}
	a->al[a->n++] = (Alias){v, parent, kind, epoch, NULL};
}

/* Does an op with regions run them in place, before the next op, as
 * control flow does?  (An op we do not know could keep them for later.) */
static int
runs_in_place(const Op *op)
{
	return op_is(op, "torch.prim.If") || op_is(op, "torch.prim.Loop")
	    || op_is(op, "scf.if") || op_is(op, "scf.for");
}

/* The op of the root's block that holds op, through control flow only,
 * or NULL. */
static Op *
ancestor_in(Op *op, Block *b)
{
	while (op && op->parent != b) {
		op = op->parent && op->parent->parent ? op->parent->parent->parent : NULL;
		if (op && !runs_in_place(op))
			return NULL;
	}
	return op;
}

/* Is use u of alias i one the interpreter models?  Views join the set. */
static int
use_ok(Alloc *a, int i, Use *u)
{
	Op *o = u->owner;
	Block *b = a->root->parent;

	if (op_is(o, "torch.copy.to_vtensor")) {
		if (o->parent == b)
			return 1;
		if (!ancestor_in(o, b))
			return 0;
		a->nested = xrealloc(a->nested, mulsz(a->nnested + 1, sizeof *a->nested));
		a->nested[a->nnested++] = o;
		return 1;
	}
	if (o->parent != b)
		return 0;
	if (op_is(o, "torch.overwrite.tensor.contents"))
		return u == &o->opnds[1];
	if (op_is(o, "func.return"))
		return i == 0;
	if ((op_has(o, TR_VIEW) || op_is(o, "torch.tensor_static_info_cast"))
	    && u == &o->opnds[0] && o->nres == 1
	    && RES(o, 0)->type->kind == TY_TORCH_TENSOR) {
		for (int k = 1; k < o->nopnds; k++)
			if (OPND(o, k)->type->kind == TY_TORCH_TENSOR)
				return 0;
		add_alias(a, RES(o, 0), i, view_kind(o), 0);
		return 1;
	}
	return 0;
}

static int
collect(Alloc *a)
{
	int i, nret = 0;

	add_alias(a, RES(a->root, 0), -1, V_ROOT, 0);
	for (i = 0; i < a->n; i++)
		for (Use *u = a->al[i].v->uses; u; u = u->next) {
			if (!use_ok(a, i, u))
				return 0;
			nret += op_is(u->owner, "func.return");
		}
	/* returned twice, the caller would see one tensor; two copies are two */
	return nret <= 1;
}

/* Can alias i be read now? */
static int
readable(Alloc *a, int i)
{
	int j;

	for (j = i; j > 0; j = a->al[j].parent)
		if (a->al[j].kind == V_MAYCOPY && a->al[j].epoch != a->epoch)
			return 0;
	if (a->live < 0)
		return 1;
	for (j = i; j >= 0; j = a->al[j].parent)
		if (j == a->live)
			return 1;
	return 0;
}

/* The value alias i holds now, made before `at`. */
static Value *
materialize(Alloc *a, int i, Op *at)
{
	Alias *x = &a->al[i];
	Op *view = x->v->def, *nop;
	Value *src;
	Type *t;

	if (x->cache)
		return x->cache;
	if (i == 0)
		return a->cur;
	src = materialize(a, x->parent, at);
	if (a->dry)
		return a->al[i].cache = &dummy;
	nop = op_clone(a->c, view, NULL, NULL);
	op_set_operand(nop, 0, src);
	t = RES(view, 0)->type;
	value_set_type(RES(nop, 0), tt_vt(a->c, tt_rank(t), t->dims, t->elem));
	op_insert_before(at, nop);
	torch_refine_op(a->c, nop);
	return a->al[i].cache = RES(nop, 0);
}

/* v as type t, cast where their static info differs. */
static Value *
cast_to(Alloc *a, Value *v, Type *t, Op *at)
{
	Op *cast;

	if (a->dry || v->type == t)
		return v;
	cast = op_new(a->c, "torch.tensor_static_info_cast", 1, &v, 1, &t, 0, at->loc);
	op_insert_before(at, cast);
	return RES(cast, 0);
}

/* A read of alias i by op (a copy.to_vtensor) placed at `at`. */
static int
read(Alloc *a, int i, Op *op, Op *at)
{
	Value *v;

	if (!readable(a, i))
		return 0;
	v = materialize(a, i, at);
	if (!a->dry) {
		v = cast_to(a, v, RES(op, 0)->type, at);
		torch_replace(a->c, op, &v);
	}
	return 1;
}

static void
forget(Alloc *a)
{
	int i;

	for (i = 0; i < a->n; i++)
		a->al[i].cache = NULL;
}

/* op overwrites alias i with its operand 0. */
static int
overwrite(Alloc *a, int i, Op *op)
{
	Value *val = OPND(op, 0);
	Type *rt = RES(a->root, 0)->type;
	int j, kind = V_CAST;

	for (j = i; j > 0; j = a->al[j].parent)
		if (a->al[j].kind == V_WRITABLE)
			kind = V_WRITABLE;
		else if (a->al[j].kind != V_CAST)
			return 0;
	forget(a);
	a->epoch++;
	if (kind == V_CAST) {
		/* the whole tensor: its value is val, cast back */
		a->cur = cast_to(a, val, tt_vt(a->c, tt_rank(rt), rt->dims, rt->elem), op);
		a->live = -1;
	} else
		a->live = i;
	if (i > 0)
		a->al[i].cache = val;
	if (!a->dry)
		op_erase(op);
	return 1;
}

/* The function returns the root: a fresh tensor of the value it holds. */
static int
ret(Alloc *a, Op *op)
{
	Value *v;
	Type *t = RES(a->root, 0)->type;
	Op *copy;
	int k;

	if (!readable(a, 0))
		return 0;
	v = materialize(a, 0, op);
	if (a->dry)
		return 1;
	/* copy.to_tensor's operand has its result's static info */
	v = cast_to(a, v, tt_vt(a->c, tt_rank(t), t->dims, t->elem), op);
	copy = op_new(a->c, "torch.copy.to_tensor", 1, &v, 1, &t, 0, op->loc);
	op_insert_before(op, copy);
	for (k = 0; k < op->nopnds; k++)
		if (OPND(op, k) == RES(a->root, 0))
			op_set_operand(op, k, RES(copy, 0));
	return 1;
}

/* The reads inside op's regions, at op. */
static int
nested_reads(Alloc *a, Op *op)
{
	int k, i;

	for (k = 0; k < a->nnested; k++) {
		Op *r = a->nested[k];
		if (!r || ancestor_in(r, a->root->parent) != op)
			continue;
		i = alias_of(a, OPND(r, 0));
		if (!read(a, i, r, op))
			return 0;
		if (!a->dry)
			a->nested[k] = NULL;
	}
	return 1;
}

/* One step of the walk: 0 when op cannot be interpreted. */
static int
step(Alloc *a, Op *op)
{
	int i;

	if (op->nregs && a->nnested && !nested_reads(a, op))
		return 0;
	if (op_is(op, "torch.overwrite.tensor.contents")
	    && (i = alias_of(a, OPND(op, 1))) >= 0)
		return overwrite(a, i, op);
	if (op_is(op, "torch.copy.to_vtensor") && (i = alias_of(a, OPND(op, 0))) >= 0)
		return read(a, i, op, op);
	if (op_is(op, "func.return")) {
		for (i = 0; i < op->nopnds; i++)
			if (OPND(op, i) == RES(a->root, 0))
				return ret(a, op);
		return 1;
	}
	if ((i = alias_of(a, op->nres ? RES(op, 0) : NULL)) > 0)
		a->al[i].epoch = a->epoch;
	return 1;
}

/* Walks the block from the root; 0 if some use cannot be interpreted. */
static int
interpret(Alloc *a, int dry)
{
	Op *op, *next;

	a->dry = dry;
	a->epoch = 0;
	a->live = -1;
	a->cur = OPND(a->root, 0);
	forget(a);
	for (op = a->root->next; op; op = next) {
		next = op->next;
		if (!step(a, op))
			return 0;
	}
	return 1;
}

/* Erases the non-value views (users first) and the root. */
static void
erase_aliases(Alloc *a)
{
	int i;

	for (i = a->n - 1; i >= 0; i--)
		if (value_use_empty(a->al[i].v))
			op_erase(a->al[i].v->def);
}

/* expand_as, view_as and reshape_as read only the shape of their other
 * operand: read it as a value where the op is, so that the operand's
 * tensor is not kept by a use that is no view of it. */
static int
read_shape_operand(Ctx *c, Op *op)
{
	static const char *const shape_of[] = {"torch.aten.expand_as",
		"torch.aten.view_as", "torch.aten.reshape_as", NULL};
	Value *v;
	Type *t;
	Op *copy;
	int i;

	for (i = 0; shape_of[i] && !op_is(op, shape_of[i]); i++)
		;
	if (!shape_of[i] || op->nopnds != 2 || OPND(op, 1)->type->kind != TY_TORCH_TENSOR)
		return 0;
	v = OPND(op, 1);
	t = tt_vt(c, tt_rank(v->type), v->type->dims, v->type->elem);
	copy = op_new(c, "torch.copy.to_vtensor", 1, &v, 1, &t, 0, op->loc);
	op_insert_before(op, copy);
	op_set_operand(op, 1, RES(copy, 0));
	return 1;
}

static int
run(Ctx *c, Op *fn, PassArgs *pa)
{
	Op **roots = NULL;
	int i, n = 0;

	for (Block *b = fn->nregs ? fn->regs[0].first : NULL; b; b = b->next)
		for (Op *op = b->first; op; op = op->next)
			if (read_shape_operand(c, op))
				pa->changed = 1;
			else if (op_is(op, "torch.copy.to_tensor")) {
				roots = xrealloc(roots, mulsz(n + 1, sizeof *roots));
				roots[n++] = op;
			}
	for (i = 0; i < n; i++) {
		Alloc a = {c, roots[i]};
		if (collect(&a) && interpret(&a, 1)) {
			interpret(&a, 0);
			erase_aliases(&a);
			pa->changed = 1;
		}
		free(a.al);
		free(a.nested);
	}
	free(roots);
	return 0;
}

const PassInfo pass_torch_maximize_value_semantics = {
	.name = "torch-maximize-value-semantics",
	.summary = "replace non-value tensors and their copies by value tensors",
	.anchor = "func.func",
	.run = run,
};
