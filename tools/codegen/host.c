/*
 * host.c - the host program of one function (formats/fxvm.md): buffers
 * for every materialized value, a dispatch per kernel, copies for results
 * that are views or inputs, and the arena plan.
 *
 * Memory planning: every fxvm.alloc lives from the op that first writes it
 * to the last op that reads it or a view of it; buffers whose lifetimes do
 * not overlap share arena bytes (first fit, largest first).
 */
#include <stdlib.h>
#include <string.h>

#include "gen.h"

typedef struct HB {
	Gen *g;
	Op *fn, *newfn;
	Block *blk;
	Loc *loc;
} HB;

static Op *append(HB *h, const char *name, int n, Value **v, Type *rt)
{
	Op *op = op_new(h->g->c, name, n, v, rt != NULL, &rt, 0, h->loc);

	op_append(h->blk, op);
	return op;
}

/* The global holding constant v: one of the module's already where one
 * has v's type and value (a dynamic batch's chunk functions, the same
 * weight packed the same way twice), else a new one before newfn. */
Value *host_global(Gen *g, Value *v, Op *newfn)
{
	VInfo *vi = vinfo(g, v);
	Attr *a = op_attr(v->def, "value");
	Op *gl = NULL, *cst;
	Type *t = v->type;
	int i;

	if (vi->host)
		return vi->host;
	for (i = 0; i < g->nglobals && !gl; i++)
		if (op_attr(g->globals[i], "type")->type == t
		    && attr_eq(op_attr(g->globals[i], "value"), a))
			gl = g->globals[i];
	if (!gl) {
		char name[32];

		snprintf(name, sizeof name, "cst%d", g->nglobals);
		gl = op_new(g->c, "fxvm.global", 0, NULL, 0, NULL, 0, v->def->loc);
		op_set_attr(g->c, gl, "sym_name", at_str(g->c, name));
		op_set_attr(g->c, gl, "type", at_type(g->c, t));
		op_set_attr(g->c, gl, "value", a);
		op_insert_before(newfn, gl);
		g->globals = xrealloc(g->globals, (size_t)(g->nglobals + 1) * sizeof *g->globals);
		g->globals[g->nglobals++] = gl;
	}
	cst = op_new(g->c, "fxvm.constant", 0, NULL, 1, &t, 0, v->def->loc);
	op_set_attr(g->c, cst, "global", at_symref(g->c, op_attr(gl, "sym_name")->s));
	if (newfn->regs[0].first->first)
		op_insert_before(newfn->regs[0].first->first, cst);
	else
		op_append(newfn->regs[0].first, cst);
	return vi->host = RES(cst, 0);
}

static Value *host_value(HB *h, Value *v)
{
	VInfo *vi = vinfo(h->g, v);
	Value *src;

	if (vi->host)
		return vi->host;
	if (v->def && op_is(v->def, "arith.constant"))
		return host_global(h->g, v, h->newfn);
	if ((src = view_source(v))) {
		Value *s = host_value(h, src);
		Op *op;

		if (!s)
			return NULL;
		op = append(h, "fxvm.view", 1, &s, v->type);
		op_set_attr(h->g->c, op, "offset", at_int(h->g->c, 0, NULL));
		return vi->host = RES(op, 0);
	}
	return NULL;
}

static Value *out_buffer(HB *h, Value *v)
{
	VInfo *vi = vinfo(h->g, v);
	Op *op;

	if (vi->host)
		return vi->host;
	op = append(h, "fxvm.alloc", 0, NULL, value_buftype(h->g, v));
	op_set_attr(h->g->c, op, "offset", at_int(h->g->c, 0, NULL));
	return vi->host = RES(op, 0);
}

/* The box of buffer type t that kernel k writes whole after its fill,
 * where the fill need not reach (fxvm.fill's interior): offsets then
 * sizes in box[0 .. 2 rank).  Only a kernel that writes its pad's columns
 * too (kir.h's padw: the inside's rows, whole) has one: filling the two
 * columns beside each row from the host, in lines not yet in cache, was
 * slower than filling the whole buffer.  0 where it has none. */
enum { BOX_RANK = 16 };

static int inside_box(Gen *g, const Kernel *k, const Type *t, int64_t *box)
{
	VInfo *vi = vinfo(g, RES(k->inside, 0));
	Attr *off;
	const Type *src;
	int i, r = t->rank;

	/* padw: gemm_plan.c found the pad's offsets and source of t's rank */
	if (!k->padw || r > BOX_RANK)
		return 0;
	off = op_attr(k->inside, "static_offsets");
	src = OPND(k->inside, 0)->type;
	for (i = 0; i < r; i++) {
		box[i] = i < r - 1 ? off->ints[i] + (vi->phys ? vi->shift[i] : 0) : 0;
		box[r + i] = i < r - 1 ? src->dims[i] : t->dims[i];
	}
	/* an aligned pad (layout.c): the last inside row's buffer row ends
	 * in the next row's left pad, which the kernel does not write */
	if (vi->phys && vi->shift[r - 1] < 0)
		box[2 * r - 2]--;
	return 1;
}

static int dispatch(HB *h, Kernel *k)
{
	Gen *g = h->g;
	Value **v = arena_alloc(g->c, sizeof *v * (size_t)(k->nbind + 1));
	Op *op;
	int i;

	for (i = 0; i < k->nbind; i++) {
		KBind *b = &k->bind[i];

		v[i] = b->out ? out_buffer(h, b->val) : host_value(h, b->val);
		if (!v[i])
			return op_error(k->root, "internal: no buffer for an operand of %s", k->name), -1;
	}
	h->loc = k->root->loc;
	/* kir.h's padh: the kernel writes the pad's every element */
	if (k->prefill && !k->padh)
		for (i = 0; i < k->nbind; i++)
			if (k->bind[i].out) {
				Op *f = append(h, "fxvm.fill", 1, &v[i], NULL);
				int64_t box[2 * BOX_RANK];

				op_set_attr(g->c, f, "value", k->prefill);
				if (inside_box(g, k, v[i]->type, box))
					op_set_attr(g->c, f, "interior", at_dense_array(g->c,
						ty_int(g->c, 64, SIGNLESS), 2 * v[i]->type->rank, box));
			}
	op = append(h, "fxvm.dispatch", k->nbind, v, NULL);
	op_set_attr(g->c, op, "kernel", at_symref(g->c, k->name));
	op_set_attr(g->c, op, "grid", at_dense_array(g->c, ty_int(g->c, 64, SIGNLESS), 3, k->grid));
	if (k->glen[0].c || k->glen[1].c || k->glen[2].c) {
		int64_t gl[9];

		for (i = 0; i < 3; i++)
			gl[3 * i] = k->glen[i].c, gl[3 * i + 1] = k->glen[i].d, gl[3 * i + 2] = k->glen[i].c ? k->glen[i].q : 0;
		op_set_attr(g->c, op, "length", at_int(g->c, k->lenbuf, NULL));
		op_set_attr(g->c, op, "grid_length", at_dense_array(g->c, ty_int(g->c, 64, SIGNLESS), 9, gl));
	}
	return 0;
}

/* ---- memory planning ---- */

typedef struct Live {
	Op *alloc;
	int64_t size, start, end, off;
} Live;

static int64_t bytes_of(Type *t)
{
	return mulsz((size_t)ty_numel(t), elem_size(t->elem));
}

static void extend(Value *v, int64_t *end, PMap *pos)
{
	Use *u;

	for (u = v->uses; u; u = u->next) {
		int64_t p = (int64_t)(intptr_t)pmap_get(pos, u->owner);

		if (p > *end)
			*end = p;
		if (op_is(u->owner, "fxvm.view"))
			extend(RES(u->owner, 0), end, pos);
	}
}

static int by_size(const void *a, const void *b)
{
	const Live *x = a, *y = b;

	return x->size < y->size ? 1 : x->size > y->size ? -1 : (x->start > y->start) - (x->start < y->start);
}

static int64_t plan_arena(Gen *g, Block *blk)
{
	PMap pos = {0};
	Live *lv = NULL;
	int n = 0, i, j;
	int64_t p = 1, total = 0;
	Op *op;

	for (op = blk->first; op; op = op->next)
		*pmap_slot(&pos, op, 1) = (void *)(intptr_t)p++;
	for (op = blk->first; op; op = op->next) {
		if (!op_is(op, "fxvm.alloc"))
			continue;
		lv = xrealloc(lv, sizeof *lv * (size_t)(n + 1));
		lv[n].alloc = op;
		lv[n].size = (bytes_of(RES(op, 0)->type) + 63) & ~(int64_t)63;
		lv[n].start = (int64_t)(intptr_t)pmap_get(&pos, op);
		lv[n].end = lv[n].start;
		extend(RES(op, 0), &lv[n].end, &pos);
		/* first write is the first use */
		n++;
	}
	for (i = 0; i < n; i++) {
		Use *u;
		int64_t first = INT64_MAX;

		for (u = RES(lv[i].alloc, 0)->uses; u; u = u->next) {
			int64_t q = (int64_t)(intptr_t)pmap_get(&pos, u->owner);

			if (q < first)
				first = q;
		}
		if (first != INT64_MAX)
			lv[i].start = first;
	}
	if (n)
		qsort(lv, (size_t)n, sizeof *lv, by_size);
	for (i = 0; i < n; i++) {
		int64_t off = 0;
		int moved = 1;

		while (moved) {
			moved = 0;
			for (j = 0; j < i; j++)
				if (lv[j].start <= lv[i].end && lv[i].start <= lv[j].end &&
						off < lv[j].off + lv[j].size && lv[j].off < off + lv[i].size) {
					off = lv[j].off + lv[j].size;
					moved = 1;
				}
		}
		lv[i].off = off;
		/* each buffer is at most TY_MAXNUMEL elements, but there may be
		 * many: offsets stay below 2^62 or the plan fails */
		if (off > ((int64_t)1 << 62) - lv[i].size) {
			total = -1;
			break;
		}
		if (off + lv[i].size > total)
			total = off + lv[i].size;
		op_set_attr(g->c, lv[i].alloc, "offset", at_int(g->c, off, NULL));
	}
	free(lv);
	pmap_free(&pos);
	return total;
}

int host_build(Gen *g, Op *fn, FnPlan *fp, Op *newfn)
{
	Block *ob = fn->regs[0].first, *nb = newfn->regs[0].first;
	Op *ret = block_terminator(ob), *r;
	Value **rv;
	HB h = { g, fn, newfn, nb, fn->loc };
	int i, nret = ret ? ret->nopnds : 0;

	for (i = 0; i < ob->nargs; i++)
		vinfo(g, ob->args[i])->host = nb->args[i];
	rv = arena_alloc(g->c, sizeof *rv * (size_t)(nret + 1));
	for (i = 0; i < nret; i++) {
		Value *v = OPND(ret, i);
		VInfo *vi = vinfo(g, v);
		Op *op = append(&h, "fxvm.result", 0, NULL, v->type);

		op_set_attr(g->c, op, "index", at_int(g->c, i, NULL));
		rv[i] = RES(op, 0);
		if (vi->result == i && vi->mat && v->def && !op_is(v->def, "arith.constant") &&
				!vi->host)
			vi->host = rv[i];
	}
	for (i = 0; i < fp->n; i++)
		if (dispatch(&h, fp->st[i].k))
			return -1;
	h.loc = ret ? ret->loc : fn->loc;
	for (i = 0; i < nret; i++) {
		Value *src = host_value(&h, OPND(ret, i)), *v[2];

		if (!src)
			return op_error(ret, "internal: no buffer for result %d", i), -1;
		if (src == rv[i])
			continue;
		v[0] = src;
		v[1] = rv[i];
		append(&h, "fxvm.copy", 2, v, NULL);
	}
	r = op_new(g->c, "func.return", nret, rv, 0, NULL, 0, h.loc);
	op_append(nb, r);
	int64_t arena = plan_arena(g, nb);
	if (arena < 0) {
		op_error(fn, "codegen: the function's buffers need an arena of more than 2^62 bytes");
		return -1;
	}
	op_set_attr(g->c, newfn, "fxvm.arena", at_int(g->c, arena, NULL));
	/* the complex arguments and results (fx-import): for vmpack */
	for (i = 0; i < 2; i++) {
		const char *k = i ? "fxpipe.complex_results" : "fxpipe.complex_args";
		Attr *cx = op_attr(fn, k);
		if (cx)
			op_set_attr(g->c, newfn, k, cx);
	}
	return 0;
}
