/* ir.c - the context, operations, values, use lists, blocks, regions. */
#include <stdlib.h>
#include <string.h>

#include "ctx.h"

int ctx_allow_unregistered;

Ctx *
ctx_new(void)
{
	return xcalloc(1, sizeof(Ctx));
}

void
ctx_own(Ctx *c, void *p)
{
	if (c->nowned == c->ownedcap) {
		c->ownedcap = c->ownedcap ? c->ownedcap * 2 : 16;
		c->owned = xrealloc(c->owned, mulsz(c->ownedcap, sizeof *c->owned));
	}
	c->owned[c->nowned++] = p;
}

void
ctx_free(Ctx *c)
{
	Chunk *ch, *next;
	size_t i;

	if (!c)
		return;
	for (ch = c->chunks; ch; ch = next) {
		next = ch->next;
		free(ch);
	}
	for (i = 0; i < c->nowned; i++)
		free(c->owned[i]);
	free(c->owned);
	ctx_big_free(c);
	free(c->strs);
	free(c->types);
	free(c->rtab);
	free(c);
}

/* ---- uses ---- */

static void
use_link(Use *u, Value *v)
{
	u->val = v;
	u->prevp = &v->uses;
	u->next = v->uses;
	if (v->uses)
		v->uses->prevp = &u->next;
	v->uses = u;
}

static void
use_unlink(Use *u)
{
	if (!u->val)
		return;
	*u->prevp = u->next;
	if (u->next)
		u->next->prevp = u->prevp;
	u->val = NULL;
	u->next = NULL;
	u->prevp = NULL;
}

int
value_has_one_use(const Value *v)
{
	return v->uses && !v->uses->next;
}

int
value_use_empty(const Value *v)
{
	return !v->uses;
}

void
value_replace_all_uses(Value *from, Value *to)
{
	if (from == to)
		return;
	while (from->uses) {
		Use *u = from->uses;
		use_unlink(u);
		use_link(u, to);
	}
}

void
value_set_type(Value *v, Type *t)
{
	v->type = t;
}

/* ---- operations ---- */

Op *
op_new(Ctx *c, const char *name, int nopnds, Value *const *opnds,
	int nres, Type *const *restypes, int nregs, Loc *loc)
{
	Op *op = arena_alloc(c, sizeof *op);
	int i;

	op->name = intern(c, name);
	op->info = opinfo_lookup(op->name);
	op->loc = loc ? loc : loc_unknown(c);
	op->nopnds = nopnds;
	op->opnds = arena_alloc(c, nopnds * sizeof *op->opnds);
	for (i = 0; i < nopnds; i++) {
		op->opnds[i].owner = op;
		if (opnds && opnds[i])
			use_link(&op->opnds[i], opnds[i]);
	}
	op->nres = nres;
	op->res = arena_alloc(c, nres * sizeof *op->res);
	for (i = 0; i < nres; i++) {
		op->res[i].type = restypes ? restypes[i] : NULL;
		op->res[i].def = op;
		op->res[i].index = i;
	}
	op->nregs = nregs;
	op->regs = arena_alloc(c, nregs * sizeof *op->regs);
	for (i = 0; i < nregs; i++)
		op->regs[i].parent = op;
	return op;
}

void
op_set_operand(Op *op, int i, Value *v)
{
	use_unlink(&op->opnds[i]);
	if (v)
		use_link(&op->opnds[i], v);
}

void
op_set_operands(Ctx *c, Op *op, int n, Value *const *vals)
{
	int i;

	for (i = 0; i < op->nopnds; i++)
		use_unlink(&op->opnds[i]);
	if (n > op->nopnds) {
		op->opnds = arena_alloc(c, n * sizeof *op->opnds);
		for (i = 0; i < n; i++)
			op->opnds[i].owner = op;
	}
	op->nopnds = n;
	for (i = 0; i < n; i++)
		if (vals[i])
			use_link(&op->opnds[i], vals[i]);
}

void
op_set_successors(Ctx *c, Op *op, int n, Block *const *succs)
{
	op->nsuccs = n;
	op->succs = arena_alloc(c, n * sizeof *op->succs);
	if (n)
		memcpy(op->succs, succs, n * sizeof *succs);
}

Attr *
op_attr(const Op *op, const char *name)
{
	int i;

	for (i = 0; i < op->nattrs; i++)
		if (!strcmp(op->attrs[i].name, name))
			return op->attrs[i].val;
	return NULL;
}

void
op_set_attr(Ctx *c, Op *op, const char *name, Attr *a)
{
	int i;

	for (i = 0; i < op->nattrs; i++)
		if (!strcmp(op->attrs[i].name, name))
			break;
	if (!a) {
		if (i < op->nattrs) {
			memmove(op->attrs + i, op->attrs + i + 1,
			    (op->nattrs - i - 1) * sizeof *op->attrs);
			op->nattrs--;
		}
		return;
	}
	if (i < op->nattrs) {
		op->attrs[i].val = a;
		return;
	}
	if (op->nattrs == op->attrcap) {
		int cap = op->attrcap ? op->attrcap * 2 : 4;
		NamedAttr *na = arena_alloc(c, cap * sizeof *na);
		if (op->nattrs)
			memcpy(na, op->attrs, op->nattrs * sizeof *na);
		op->attrs = na;
		op->attrcap = cap;
	}
	op->attrs[op->nattrs].name = intern(c, name);
	op->attrs[op->nattrs].val = a;
	op->nattrs++;
}

int
op_is(const Op *op, const char *name)
{
	return op && !strcmp(op->name, name);
}

int
op_has(const Op *op, unsigned trait)
{
	return op->info && (op->info->traits & trait) == trait;
}

/* ---- placement ---- */

static void
link_between(Block *b, Op *prev, Op *next, Op *op)
{
	if (op->parent)
		die("op_insert: '%s' is already in a block", op->name);
	op->parent = b;
	op->prev = prev;
	op->next = next;
	if (prev)
		prev->next = op;
	else
		b->first = op;
	if (next)
		next->prev = op;
	else
		b->last = op;
}

void op_insert_before(Op *before, Op *op) { link_between(before->parent, before->prev, before, op); }
void op_insert_after(Op *after, Op *op) { link_between(after->parent, after, after->next, op); }
void op_append(Block *b, Op *op) { link_between(b, b->last, NULL, op); }

void
op_unlink(Op *op)
{
	Block *b = op->parent;

	if (!b)
		return;
	if (op->prev)
		op->prev->next = op->next;
	else
		b->first = op->next;
	if (op->next)
		op->next->prev = op->prev;
	else
		b->last = op->prev;
	op->parent = NULL;
	op->prev = op->next = NULL;
}

static void
drop_one(Op *op, void *env)
{
	int i;

	(void)env;
	for (i = 0; i < op->nopnds; i++)
		use_unlink(&op->opnds[i]);
}

void
op_drop_uses(Op *op)
{
	op_walk_post(op, drop_one, NULL);
}

void
op_erase(Op *op)
{
	int i;

	for (i = 0; i < op->nres; i++)
		if (op->res[i].uses)
			die("op_erase: result %d of '%s' still has uses", i, op->name);
	op_drop_uses(op);
	op_unlink(op);
}

void
op_replace(Op *op, Value *const *vals)
{
	int i;

	for (i = 0; i < op->nres; i++)
		value_replace_all_uses(&op->res[i], vals[i]);
	op_erase(op);
}

/* ---- blocks and regions ---- */

Block *
block_new(Ctx *c)
{
	return arena_alloc(c, sizeof(Block));
}

Value *
block_add_arg(Ctx *c, Block *b, Type *t, Loc *loc)
{
	Value *v = arena_alloc(c, sizeof *v);

	if (b->nargs == b->argcap) {
		int cap = b->argcap ? b->argcap * 2 : 4;
		Value **na = arena_alloc(c, cap * sizeof *na);
		if (b->nargs)
			memcpy(na, b->args, b->nargs * sizeof *na);
		b->args = na;
		b->argcap = cap;
	}
	v->type = t;
	v->block = b;
	v->index = b->nargs;
	v->loc = loc;
	b->args[b->nargs++] = v;
	return v;
}

void
block_erase_arg(Block *b, int i)
{
	int j;

	if (b->args[i]->uses)
		die("block_erase_arg: argument %d still has uses", i);
	for (j = i; j + 1 < b->nargs; j++) {
		b->args[j] = b->args[j + 1];
		b->args[j]->index = j;
	}
	b->nargs--;
}

void
region_append(Region *r, Block *b)
{
	b->parent = r;
	b->prev = r->last;
	b->next = NULL;
	if (r->last)
		r->last->next = b;
	else
		r->first = b;
	r->last = b;
}

void
block_unlink(Block *b)
{
	Region *r = b->parent;

	if (!r)
		return;
	if (b->prev)
		b->prev->next = b->next;
	else
		r->first = b->next;
	if (b->next)
		b->next->prev = b->prev;
	else
		r->last = b->prev;
	b->parent = NULL;
	b->prev = b->next = NULL;
}

Op *
block_terminator(Block *b)
{
	return b->last && op_has(b->last, TR_TERMINATOR) ? b->last : NULL;
}

Op *
block_parent_op(const Block *b)
{
	return b && b->parent ? b->parent->parent : NULL;
}

Op *
op_ancestor(Op *op, const char *name)
{
	for (op = block_parent_op(op->parent); op; op = block_parent_op(op->parent))
		if (op_is(op, name))
			return op;
	return NULL;
}

/* ---- walking ---- */

void
op_walk(Op *op, int (*fn)(Op *, void *), void *env)
{
	int i;

	if (fn(op, env))
		return;
	for (i = 0; i < op->nregs; i++)
		for (Block *b = op->regs[i].first; b; b = b->next) {
			Op *o, *next;
			for (o = b->first; o; o = next) {
				next = o->next;
				op_walk(o, fn, env);
			}
		}
}

void
op_walk_post(Op *op, void (*fn)(Op *, void *), void *env)
{
	int i;

	for (i = 0; i < op->nregs; i++)
		for (Block *b = op->regs[i].first; b; b = b->next) {
			Op *o, *next;
			for (o = b->first; o; o = next) {
				next = o->next;
				op_walk_post(o, fn, env);
			}
		}
	fn(op, env);
}

/* ---- cloning ---- */

typedef struct Map {
	Value **from, **to;
	size_t n, cap;
	Value *(*user)(void *, Value *);
	void *env;
} Map;

static void
map_add(Map *m, Value *from, Value *to)
{
	if (m->n == m->cap) {
		m->cap = m->cap ? m->cap * 2 : 32;
		m->from = xrealloc(m->from, mulsz(m->cap, sizeof *m->from));
		m->to = xrealloc(m->to, mulsz(m->cap, sizeof *m->to));
	}
	m->from[m->n] = from;
	m->to[m->n++] = to;
}

static Value *
map_get(Map *m, Value *v)
{
	size_t i;

	for (i = m->n; i-- > 0;)
		if (m->from[i] == v)
			return m->to[i];
	return m->user ? m->user(m->env, v) : v;
}

static Op *clone_rec(Ctx *c, Op *op, Map *m);

static void
clone_region(Ctx *c, Region *from, Region *to, Map *m)
{
	Block *b;

	/* blocks first, so successors and forward uses resolve */
	for (b = from->first; b; b = b->next) {
		Block *nb = block_new(c);
		for (int i = 0; i < b->nargs; i++)
			map_add(m, b->args[i], block_add_arg(c, nb, b->args[i]->type, b->args[i]->loc));
		region_append(to, nb);
	}
	Block *nb = to->first;
	for (b = from->first; b; b = b->next, nb = nb->next)
		for (Op *o = b->first; o; o = o->next)
			op_append(nb, clone_rec(c, o, m));
}

static Op *
clone_rec(Ctx *c, Op *op, Map *m)
{
	Value *ops[op->nopnds + 1];
	Type *tys[op->nres + 1];
	int i;

	for (i = 0; i < op->nopnds; i++)
		ops[i] = map_get(m, op->opnds[i].val);
	for (i = 0; i < op->nres; i++)
		tys[i] = op->res[i].type;
	Op *n = op_new(c, op->name, op->nopnds, ops, op->nres, tys, op->nregs, op->loc);
	n->info = op->info;
	for (i = 0; i < op->nattrs; i++)
		op_set_attr(c, n, op->attrs[i].name, op->attrs[i].val);
	for (i = 0; i < op->nres; i++) {
		n->res[i].hint = op->res[i].hint;
		map_add(m, &op->res[i], &n->res[i]);
	}
	for (i = 0; i < op->nregs; i++)
		clone_region(c, &op->regs[i], &n->regs[i], m);
	if (op->nsuccs) {
		/* successors inside a cloned region were remapped by position */
		op_set_successors(c, n, op->nsuccs, op->succs);
	}
	return n;
}

Op *
op_clone(Ctx *c, Op *op, Value *(*map)(void *env, Value *v), void *env)
{
	Map m = {.user = map, .env = env};
	Op *n = clone_rec(c, op, &m);

	free(m.from);
	free(m.to);
	return n;
}

/* ---- symbols ---- */

const char *
op_sym_name(const Op *op)
{
	Attr *a = op_attr(op, "sym_name");

	return a && a->kind == AT_STR ? a->s : NULL;
}

Op *
symtab_lookup(Op *symtab, const char *name)
{
	if (!symtab->nregs || !symtab->regs[0].first)
		return NULL;
	for (Op *o = symtab->regs[0].first->first; o; o = o->next) {
		const char *s = op_sym_name(o);
		if (s && !strcmp(s, name))
			return o;
	}
	return NULL;
}
