/*
 * pass_canonicalize.c - canonicalize: greedy folding to a fixed point.
 *
 * needs:       nothing; runs on the op it is given (a module or a function)
 *              and rewrites everything nested in it, not the op itself.
 * guarantees:  ops whose table fold hook applies are folded and their
 *              constants materialized (within max-iterations sweeps,
 *              default 10); trivially dead ops are erased; constants are
 *              unique per isolated-from-above region and stand at the start
 *              of that region's entry block in order of first appearance;
 *              commutative ops and arith.cmpi have constant operands last.
 *              Fails (after the sweep) when a pattern reported an error:
 *              an op sure to fail at run time (_assert_tensor_metadata).
 * invalidates: op identities (ops are erased, constants moved and merged);
 *              result name hints of merged constants.
 *
 * Each sweep folds every op in pre-order (so a chain of constants folds in
 * one sweep), puts what does not fold in canonical form (constant operands
 * of commutative ops and of arith.cmpi last), then walks the constants like
 * MLIR's OperationFolder: unused ones die, duplicates merge into the first,
 * the rest are hoisted.
 */
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "fold.h"
#include "pass.h"

typedef struct OpVec {
	Op **p;
	size_t n, cap;
} OpVec;

static void
push(OpVec *v, Op *op)
{
	if (v->n == v->cap) {
		v->cap = v->cap ? v->cap * 2 : 64;
		v->p = xrealloc(v->p, mulsz(v->cap, sizeof *v->p));
	}
	v->p[v->n++] = op;
}

static int
collect(Op *op, void *env)
{
	push(env, op);
	return 0;
}

/* Everything nested in anchor, in pre-order. */
static void
ops_under(Op *anchor, OpVec *v)
{
	v->n = 0;
	op_walk(anchor, collect, v);
}

/* Is op still nested in anchor (not erased, nor inside an erased op)? */
static int
alive(Op *op, Op *anchor)
{
	while (op != anchor) {
		if (!op || !op->parent)
			return 0;
		op = block_parent_op(op->parent);
	}
	return 1;
}

static int
is_const(Op *op)
{
	if (op->nres != 1 || op->nopnds || op->nregs)
		return 0;
	return op_has(op, TR_CONSTANT) || value_const(RES(op, 0))
	    || op_is(op, "torch.constant.none");
}

/* ---- the constants of each insertion region ---- */

/* A slot keys a constant (key = val = the op) or, with key NULL, the last
 * constant hoisted into region r (val). */
typedef struct Slot {
	uint64_t h;
	Region *r;
	Op *key, *val;
} Slot;

typedef struct Canon {
	Ctx *c;
	Op *anchor;
	Slot *s;
	size_t n, cap;
	OpVec ops, dead;
} Canon;

static uint64_t
attr_hash(const Attr *a)
{
	uint64_t h, bits;

	if (!a)
		return 0;
	h = hash_bytes(&a->kind, sizeof a->kind, (uintptr_t)a->type);
	switch (a->kind) {
	case AT_INT:
		return hash_bytes(&a->i, sizeof a->i, h);
	case AT_FLOAT:
		bits = fp_bits(a->f, a->type);
		return hash_bytes(&bits, sizeof bits, h);
	case AT_STR:
		return hash_bytes(a->s, a->n, h);
	case AT_DENSE:
		return hash_bytes(a->data, a->n < 64 ? a->n : 64, h);
	default:
		return h;
	}
}

static uint64_t
const_hash(Op *op)
{
	uint64_t h = attr_hash(op_attr(op, "value"));

	h = hash_bytes(&op->name, sizeof op->name, h);
	return hash_bytes(&RES(op, 0)->type, sizeof(Type *), h);
}

static int
same_const(Op *a, Op *b)
{
	int i;

	if (a->name != b->name || RES(a, 0)->type != RES(b, 0)->type
	    || a->nattrs != b->nattrs)
		return 0;
	for (i = 0; i < a->nattrs; i++)
		if (!attr_eq(a->attrs[i].val, op_attr(b, a->attrs[i].name)))
			return 0;
	return 1;
}

static int
slot_match(const Slot *s, uint64_t h, Region *r, Op *key)
{
	if (s->h != h || s->r != r || !s->val || !s->key != !key)
		return 0;
	return !key || same_const(s->key, key);
}

static Slot *
slot_find(Canon *k, uint64_t h, Region *r, Op *key)
{
	size_t i = h & (k->cap - 1);

	while (k->s[i].val && !slot_match(&k->s[i], h, r, key))
		i = (i + 1) & (k->cap - 1);
	return &k->s[i];
}

static void
slots_grow(Canon *k)
{
	Slot *old = k->s;
	size_t i, oldcap = k->cap;

	k->cap = k->cap ? k->cap * 2 : 256;
	k->s = xcalloc(k->cap, sizeof *k->s);
	for (i = 0; i < oldcap; i++)
		if (old[i].val)
			*slot_find(k, old[i].h, old[i].r, old[i].key) = old[i];
	free(old);
}

/* The slot for (r, key), made empty-valued if new. */
static Slot *
slot_get(Canon *k, Region *r, Op *key)
{
	uint64_t h = key ? const_hash(key) : hash_bytes(&r, sizeof r, 1);
	Slot *s;

	if (2 * (k->n + 1) > k->cap)
		slots_grow(k);
	s = slot_find(k, h, r, key);
	if (!s->val) {
		s->h = h;
		s->r = r;
		s->key = key;
	}
	return s;
}

static void
slots_clear(Canon *k)
{
	if (k->cap)
		memset(k->s, 0, k->cap * sizeof *k->s);
	k->n = 0;
}

/* The region constants of op go to: the nearest enclosing region whose
 * op is isolated from above (or unregistered, or the anchor). */
static Region *
insertion_region(Op *op, Op *anchor)
{
	Region *r = op->parent->parent;
	Op *p;

	while ((p = r->parent) && p != anchor && p->info
	    && !op_has(p, TR_ISOLATED) && p->parent)
		r = p->parent->parent;
	return r;
}

/* Moves op to just after tail, or to the start of entry; 1 if it moved. */
static int
hoist(Op *op, Block *entry, Op *tail)
{
	if (tail ? op->prev == tail : entry->first == op)
		return 0;
	op_unlink(op);
	if (tail)
		op_insert_after(tail, op);
	else if (entry->first)
		op_insert_before(entry->first, op);
	else
		op_append(entry, op);
	return 1;
}

static int
place_const(Canon *k, Op *op)
{
	Region *r;
	Slot *s, *tail;
	int moved;

	if (value_use_empty(RES(op, 0))) {
		op_erase(op);
		return 1;
	}
	r = insertion_region(op, k->anchor);
	if (!r->first)
		return 0;
	s = slot_get(k, r, op);
	if (s->val) {
		value_replace_all_uses(RES(op, 0), RES(s->val, 0));
		op_erase(op);
		return 1;
	}
	s->val = op;
	k->n++;
	tail = slot_get(k, r, NULL);
	if (!tail->val)
		k->n++;
	moved = hoist(op, r->first, tail->val);
	tail->val = op;
	return moved;
}

static int
const_sweep(Canon *k)
{
	size_t i;
	int changed = 0;

	slots_clear(k);
	ops_under(k->anchor, &k->ops);
	for (i = 1; i < k->ops.n; i++)
		if (is_const(k->ops.p[i]))
			changed |= place_const(k, k->ops.p[i]);
	return changed;
}

/* ---- in-place canonical forms ---- */

static int
is_const_value(Value *v)
{
	return v && v->def && is_const(v->def);
}

/* Commutative ops take their constant operands last, like MLIR's
 * foldCommutative, so x + 1 and 1 + x print and merge alike. */
static int
constants_last(Ctx *c, Op *op)
{
	int i, n = op->nopnds, k = 0;
	Value *v[n + 1];

	if (!op_has(op, TR_COMMUTATIVE) || n < 2)
		return 0;
	for (i = 0; i < n; i++)
		if (!is_const_value(OPND(op, i)))
			v[k++] = OPND(op, i);
	for (i = 0; i < n; i++)
		if (is_const_value(OPND(op, i)))
			v[k++] = OPND(op, i);
	for (i = 0; i < n && v[i] == OPND(op, i); i++)
		;
	if (i == n)
		return 0;
	op_set_operands(c, op, n, v);
	return 1;
}

/* cmpi with a constant lhs: swap the operands and mirror the predicate
 * (eq ne slt sle sgt sge ult ule ugt uge). */
static int
cmpi_constant_rhs(Ctx *c, Op *op)
{
	static const int mirror[] = {0, 1, 4, 5, 2, 3, 8, 9, 6, 7};
	Attr *p = op_attr(op, "predicate");
	Value *v[2];

	if (!op_is(op, "arith.cmpi") || op->nopnds != 2 || !p || p->kind != AT_INT
	    || p->i < 0 || p->i > 9 || !is_const_value(OPND(op, 0))
	    || is_const_value(OPND(op, 1)))
		return 0;
	v[0] = OPND(op, 1);
	v[1] = OPND(op, 0);
	op_set_operands(c, op, 2, v);
	op_set_attr(c, op, "predicate", at_int(c, mirror[p->i], p->type));
	return 1;
}

static int
canonical_form(Ctx *c, Op *op)
{
	return constants_last(c, op) | cmpi_constant_rhs(c, op);
}

/* ---- folding and dead ops ---- */

static void
push_defs(OpVec *v, Op *op)
{
	int i;

	for (i = 0; i < op->nopnds; i++)
		if (OPND(op, i) && OPND(op, i)->def)
			push(v, OPND(op, i)->def);
}

/* Erases the dead ops on k->dead and those their deaths make dead. */
static void
erase_dead(Canon *k)
{
	Op *op;

	while (k->dead.n) {
		op = k->dead.p[--k->dead.n];
		if (!alive(op, k->anchor) || !op_is_trivially_dead(op))
			continue;
		push_defs(&k->dead, op);
		op_erase(op);
	}
}

static int
fold_one(Canon *k, Op *op)
{
	size_t mark = k->dead.n;

	if (op_is_trivially_dead(op)) {
		push(&k->dead, op);
		erase_dead(k);
		return 1;
	}
	if (is_const(op))
		return 0;
	push_defs(&k->dead, op);
	if (!fold_op(k->c, op) && !torch_canon_pattern(k->c, op)) {
		k->dead.n = mark;
		return canonical_form(k->c, op);
	}
	erase_dead(k);
	return 1;
}

static int
fold_sweep(Canon *k)
{
	size_t i;
	int changed = 0;

	ops_under(k->anchor, &k->ops);
	for (i = 1; i < k->ops.n; i++)
		if (alive(k->ops.p[i], k->anchor))
			changed |= fold_one(k, k->ops.p[i]);
	return changed;
}

static int
run(Ctx *c, Op *op, PassArgs *a)
{
	Canon k = {.c = c, .anchor = op};
	long max = pass_opt_int(a, "max-iterations", 10), i = 0;
	int changed, errors = diag_errors;

	torch_canon_mlir_forms = pass_opt_int(a, "torch-mlir-forms", 1) != 0;

	do {
		changed = fold_sweep(&k);
		changed |= const_sweep(&k);
		a->changed |= changed;
		/* a pattern that found the input sure to fail (a failing
		 * assertion) said so: the pass fails after that sweep, so each
		 * such op is reported once */
	} while (changed && diag_errors == errors && (max < 0 || ++i < max));
	free(k.s);
	free(k.ops.p);
	free(k.dead.p);
	return diag_errors == errors ? 0 : -1;
}

static const char *const options[] = {"max-iterations", "torch-mlir-forms", NULL};

const PassInfo pass_canonicalize = {
	.name = "canonicalize",
	.summary = "fold ops, erase dead ones and unique constants, to a fixed point",
	.anchor = NULL,
	.options = options,
	.run = run,
};
