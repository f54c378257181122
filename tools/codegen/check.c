/*
 * check.c - codegen checks the host programs it is about to print.
 *
 * Needs: the new module, its functions built by host.c, the kernels of
 * gen.h.  Guarantees, or reports an internal error at the op: every
 * dispatch names a kernel and binds exactly its buffers, each the size of
 * the kernel's binding; allocs are 64-byte aligned and inside the arena;
 * views lie inside their buffer; copies have equal sizes; every buffer is
 * written (by a kernel, a copy or a fill) before anything reads it and
 * every result before the function returns; buffers that share arena
 * bytes are never live at once.  vmpack checks the format (formats/
 * fxvm.md); these are the properties only the producer can get wrong
 * without the format noticing, each a wrong number at run time.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"

typedef struct Buf1 {
	Value *v;             /* an alloc or result */
	int64_t off, size;    /* arena bytes (allocs) */
	int64_t first, last;  /* op positions: first and last use */
	int written;
} Buf1;

typedef struct Chk {
	Gen *g;
	Op *fn;
	Buf1 *b;
	int nb;
	PMap at;              /* Value* (alloc, result) -> index + 1 */
	int err;
} Chk;

static void fail(Chk *c, Op *op, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void fail(Chk *c, Op *op, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	op_error(op, "internal error: codegen produced an invalid host program: %s", msg);
	c->err = 1;
}

static int64_t nbytes(const Type *t)
{
	return ty_numel(t) * (int64_t)elem_size(t->elem);
}

/* The alloc or result a buffer value is, or a view of; NULL for
 * arguments and constants. */
static Buf1 *base_of(Chk *c, Value *v)
{
	while (v->def && op_is(v->def, "fxvm.view"))
		v = OPND(v->def, 0);
	{
		intptr_t i = (intptr_t)pmap_get(&c->at, v);

		return i ? &c->b[i - 1] : NULL;
	}
}

static Kernel *kernel_named(Gen *g, const char *name)
{
	int i;

	for (i = 0; i < g->nk; i++)
		if (!strcmp(g->k[i]->name, name))
			return g->k[i];
	return NULL;
}

static void use(Chk *c, Op *op, Value *v, int64_t pos, int write)
{
	Buf1 *b = base_of(c, v);

	if (!b) {
		if (write)
			fail(c, op, "%s writes an argument or a constant", op->name);
		return;
	}
	if (!write && !b->written)
		fail(c, op, "%s: a buffer is read before anything writes it", op->name);
	if (write)
		b->written = 1;
	if (b->first < 0)
		b->first = pos;
	b->last = pos;
}

static void check_dispatch(Chk *c, Op *op, int64_t pos)
{
	Attr *ka = op_attr(op, "kernel");
	Kernel *k = ka && ka->kind == AT_SYMREF ? kernel_named(c->g, ka->s) : NULL;
	int i;

	if (!k) {
		fail(c, op, "%s: no such kernel", op->name);
		return;
	}
	if (op->nopnds != k->nbind) {
		fail(c, op, "%s binds %d buffers, the kernel takes %d", k->name, op->nopnds, k->nbind);
		return;
	}
	for (i = 0; i < k->nbind; i++)
		if (nbytes(OPND(op, i)->type) != nbytes(k->bind[i].type))
			fail(c, op, "%s: binding %d has %lld bytes, the kernel's %lld", k->name, i,
				(long long)nbytes(OPND(op, i)->type), (long long)nbytes(k->bind[i].type));
	if (op_attr(op, "grid_length")) {
		Attr *ln = op_attr(op, "length");

		if (!k->len || !ln || ln->kind != AT_INT || ln->i != k->lenbuf)
			fail(c, op, "%s: its grid at the call's length does not read the kernel's length", k->name);
	}
	/* reads first: a kernel may not read what it only now writes */
	for (i = 0; i < k->nbind; i++)
		if (!k->bind[i].out)
			use(c, op, OPND(op, i), pos, 0);
	for (i = 0; i < k->nbind; i++)
		if (k->bind[i].out)
			use(c, op, OPND(op, i), pos, 1);
}

static void add_buf(Chk *c, Value *v, int64_t off)
{
	c->b = xrealloc(c->b, sizeof *c->b * (size_t)(c->nb + 1));
	c->b[c->nb] = (Buf1){ v, off, nbytes(v->type), -1, -1, 0 };
	*pmap_slot(&c->at, v, 1) = (void *)(intptr_t)++c->nb;
}

static void check_op(Chk *c, Op *op, int64_t pos, int64_t arena)
{
	if (op_is(op, "fxvm.alloc")) {
		Attr *o = op_attr(op, "offset");
		int64_t off = o && o->kind == AT_INT ? o->i : -1;

		if (off < 0 || off % 64 || off + nbytes(RES(op, 0)->type) > arena)
			fail(c, op, "%s at offset %lld does not fit an arena of %lld bytes", op->name,
				(long long)off, (long long)arena);
		add_buf(c, RES(op, 0), off);
	} else if (op_is(op, "fxvm.result")) {
		add_buf(c, RES(op, 0), -1);
	} else if (op_is(op, "fxvm.view")) {
		Attr *o = op_attr(op, "offset");
		int64_t off = o && o->kind == AT_INT ? o->i : -1;

		if (off < 0 || off + nbytes(RES(op, 0)->type) > nbytes(OPND(op, 0)->type))
			fail(c, op, "%s at offset %lld is not inside its buffer", op->name, (long long)off);
	} else if (op_is(op, "fxvm.dispatch")) {
		check_dispatch(c, op, pos);
	} else if (op_is(op, "fxvm.copy")) {
		if (nbytes(OPND(op, 0)->type) != nbytes(OPND(op, 1)->type))
			fail(c, op, "%s of %lld bytes into %lld", op->name,
				(long long)nbytes(OPND(op, 0)->type), (long long)nbytes(OPND(op, 1)->type));
		use(c, op, OPND(op, 0), pos, 0);
		use(c, op, OPND(op, 1), pos, 1);
	} else if (op_is(op, "fxvm.fill")) {
		use(c, op, OPND(op, 0), pos, 1);
	} else if (op_is(op, "func.return")) {
		int i;

		for (i = 0; i < op->nopnds; i++) {
			Value *v = OPND(op, i);
			Attr *ix = v->def && op_is(v->def, "fxvm.result") ? op_attr(v->def, "index") : NULL;

			if (!ix || ix->kind != AT_INT || ix->i != i)
				fail(c, op, "%s: result %d is not fxvm.result %d", op->name, i, i);
			else
				use(c, op, v, pos, 0);
		}
	} else if (!op_is(op, "fxvm.constant")) {
		fail(c, op, "%s: not an op of a host program", op->name);
	}
}

/* Allocs sharing arena bytes must not be live at once.  A buffer is live
 * from the op that writes it first to the last that reads it. */
static void check_overlap(Chk *c)
{
	int i, j;

	for (i = 0; i < c->nb; i++)
		for (j = 0; j < i; j++) {
			Buf1 *x = &c->b[i], *y = &c->b[j];

			if (x->off < 0 || y->off < 0 || !x->size || !y->size || x->first < 0 ||
					y->first < 0)
				continue;
			if (x->off < y->off + y->size && y->off < x->off + x->size &&
					x->first <= y->last && y->first <= x->last)
				fail(c, x->v->def, "%s: arena bytes at %lld are also those of a buffer "
					"live at once, at %lld", x->v->def->name, (long long)x->off,
					(long long)y->off);
		}
}

static int check_fn(Gen *g, Op *fn)
{
	Chk c = { g, fn, NULL, 0, {0}, 0 };
	Attr *a = op_attr(fn, "fxvm.arena");
	int64_t arena = a && a->kind == AT_INT ? a->i : 0, pos = 0;
	Op *op;

	for (op = fn->regs[0].first->first; op; op = op->next)
		check_op(&c, op, pos++, arena);
	check_overlap(&c);
	free(c.b);
	pmap_free(&c.at);
	return c.err ? -1 : 0;
}

int check_module(Gen *g)
{
	Op *op;
	int rc = 0;

	for (op = g->module->regs[0].first->first; op; op = op->next)
		if (op_is(op, "func.func") && op->regs[0].first && check_fn(g, op))
			rc = -1;
	return rc;
}
