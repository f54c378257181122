/*
 * pass_cse.c - cse: common subexpression elimination, as MLIR's CSE.
 *
 * needs:       nothing; runs on the op it is given (a module or a function)
 *              and everything nested in it.
 * guarantees:  no pure, region-free op is left that has the same name,
 *              operands, attributes (in any order) and result types as an
 *              op that dominates it; the later one is erased and its uses
 *              go to the earlier.  Trivially dead ops it meets are erased.
 *              Ops in graph regions (module bodies, TR_GRAPH) are left.
 * invalidates: op identities; result name hints of the merged ops.
 *
 * Known ops live in one scoped hash table.  A block's entries are popped
 * when the walk leaves it, so a hit always dominates: the ops before it in
 * its block, in the blocks around it, and, for any other block of a
 * region, in the entry block (which dominates the region).  An isolated op
 * raises the table's floor so nothing outside is visible within.
 */
#include <stdlib.h>

#include "ctx.h"
#include "pass.h"

typedef struct Ent {
	Op *op;
	uint64_t h;
	long shadow;    /* the older entry of the same bucket, or -1 */
} Ent;

typedef struct Cse {
	Ent *e;
	size_t n, cap;
	long *head;     /* newest entry of each bucket, or -1 */
	size_t mask;
	size_t floor;   /* entries below it are outside an isolated op */
} Cse;

static uint64_t
attr_hash(const Attr *a)
{
	uint64_t h;

	if (!a)
		return 0;
	h = hash_bytes(&a->kind, sizeof a->kind, (uintptr_t)a->type);
	switch (a->kind) {
	case AT_INT:
		return hash_bytes(&a->i, sizeof a->i, h);
	case AT_STR:
		return hash_bytes(a->s, a->n, h);
	case AT_SYMREF:
	case AT_OPAQUE:
		return hash_bytes(&a->s, sizeof a->s, h);
	default:
		return h;
	}
}

/* Operands as compared: sorted for commutative ops, which match with
 * their operands in any order. */
static void
operands(const Op *op, Value **v)
{
	int i, j;

	for (i = 0; i < op->nopnds; i++)
		v[i] = op->opnds[i].val;
	if (!op_has(op, TR_COMMUTATIVE))
		return;
	for (i = 1; i < op->nopnds; i++)
		for (j = i; j > 0 && (uintptr_t)v[j - 1] > (uintptr_t)v[j]; j--) {
			Value *t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
}

static uint64_t
op_hash(const Op *op)
{
	uint64_t h = hash_bytes(&op->name, sizeof op->name, 0), attrs = 0;
	Value *v[op->nopnds + 1];
	int i;

	operands(op, v);
	for (i = 0; i < op->nopnds; i++)
		h = hash_bytes(&v[i], sizeof(Value *), h);
	for (i = 0; i < op->nres; i++)
		h = hash_bytes(&op->res[i].type, sizeof(Type *), h);
	/* order-insensitive over the attributes */
	for (i = 0; i < op->nattrs; i++)
		attrs += hash_bytes(&op->attrs[i].name, sizeof(char *),
		    attr_hash(op->attrs[i].val));
	return hash_bytes(&attrs, sizeof attrs, h);
}

static int
same_operands(const Op *a, const Op *b)
{
	Value *u[a->nopnds + 1], *v[b->nopnds + 1];
	int i;

	operands(a, u);
	operands(b, v);
	for (i = 0; i < a->nopnds; i++)
		if (u[i] != v[i])
			return 0;
	return 1;
}

static int
same_op(const Op *a, const Op *b)
{
	int i;

	if (a->name != b->name || a->nopnds != b->nopnds || a->nres != b->nres
	    || a->nattrs != b->nattrs || !same_operands(a, b))
		return 0;
	for (i = 0; i < a->nres; i++)
		if (a->res[i].type != b->res[i].type)
			return 0;
	for (i = 0; i < a->nattrs; i++)
		if (!attr_eq(a->attrs[i].val, op_attr(b, a->attrs[i].name)))
			return 0;
	return 1;
}

static Op *
lookup(Cse *s, Op *op, uint64_t h)
{
	long i;

	for (i = s->head[h & s->mask]; i >= (long)s->floor; i = s->e[i].shadow)
		if (s->e[i].h == h && same_op(s->e[i].op, op))
			return s->e[i].op;
	return NULL;
}

static void
insert(Cse *s, Op *op, uint64_t h)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 256;
		s->e = xrealloc(s->e, mulsz(s->cap, sizeof *s->e));
	}
	s->e[s->n] = (Ent){op, h, s->head[h & s->mask]};
	s->head[h & s->mask] = (long)s->n++;
}

static void
pop_to(Cse *s, size_t mark)
{
	while (s->n > mark) {
		s->n--;
		s->head[s->e[s->n].h & s->mask] = s->e[s->n].shadow;
	}
}

static int
mergeable(const Op *op)
{
	return op->info && op_has(op, TR_PURE) && !op_has(op, TR_MUTABLE)
	    && !op_has(op, TR_TERMINATOR) && !op->nregs && !op->nsuccs && op->nres;
}

/* Does the block's region have SSA dominance (not a graph region)? */
static int
has_dominance(const Block *b)
{
	Op *p = block_parent_op(b);

	return p && !op_has(p, TR_GRAPH) && !op_has(p, TR_SYMTAB);
}

static int simplify_region(Cse *s, Region *r);

static int
simplify_nested(Cse *s, Op *op)
{
	size_t floor = s->floor;
	int i, changed = 0;

	/* an unregistered op might be isolated from above */
	if (!op->info || op_has(op, TR_ISOLATED))
		s->floor = s->n;
	for (i = 0; i < op->nregs; i++)
		changed |= simplify_region(s, &op->regs[i]);
	s->floor = floor;
	return changed;
}

/* Sends op's uses to old's results and erases op. */
static void
merge_into(Op *op, Op *old)
{
	Value *vals[op->nres + 1];
	int i;

	for (i = 0; i < op->nres; i++)
		vals[i] = RES(old, i);
	op_replace(op, vals);
}

static int
simplify_op(Cse *s, Op *op, int dom)
{
	uint64_t h;
	Op *old;

	if (op_is_trivially_dead(op)) {
		op_erase(op);
		return 1;
	}
	if (!dom || !mergeable(op))
		return 0;
	h = op_hash(op);
	if (!(old = lookup(s, op, h))) {
		insert(s, op, h);
		return 0;
	}
	merge_into(op, old);
	return 1;
}

static int
simplify_block(Cse *s, Block *b)
{
	int dom = has_dominance(b), changed = 0;
	Op *op, *next;

	for (op = b->first; op; op = next) {
		next = op->next;
		if (op->nregs)
			changed |= simplify_nested(s, op);
		changed |= simplify_op(s, op, dom);
	}
	return changed;
}

/* The entry block's entries stay visible in the region's other blocks. */
static int
simplify_region(Cse *s, Region *r)
{
	size_t mark = s->n, entry;
	int changed = 0;
	Block *b;

	if (!r->first)
		return 0;
	changed |= simplify_block(s, r->first);
	entry = s->n;
	for (b = r->first->next; b; b = b->next) {
		changed |= simplify_block(s, b);
		pop_to(s, entry);
	}
	pop_to(s, mark);
	return changed;
}

static int
count(Op *op, void *env)
{
	(void)op;
	++*(size_t *)env;
	return 0;
}

static int
run(Ctx *c, Op *op, PassArgs *a)
{
	Cse s = {0};
	size_t n = 0, nb = 16, i;

	(void)c;
	op_walk(op, count, &n);
	while (nb < 2 * n)
		nb *= 2;
	s.head = xmalloc(mulsz(nb, sizeof *s.head));
	for (i = 0; i < nb; i++)
		s.head[i] = -1;
	s.mask = nb - 1;
	a->changed |= simplify_nested(&s, op);
	free(s.head);
	free(s.e);
	return 0;
}

const PassInfo pass_cse = {
	.name = "cse",
	.summary = "eliminate common subexpressions",
	.anchor = NULL,
	.run = run,
};
