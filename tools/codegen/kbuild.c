/*
 * kbuild.c - the kernel IR of a dispatch region (kir.h), built from the
 * linalg ops dispatch.c planned: a root's loop dims, its outputs and
 * accumulators, its body, and the epilogue chain after it; a load of a
 * value that is not materialized becomes the expression computing it
 * (inline_op), through reshapes (index arithmetic) and slices (a select
 * where the slice is inserted).  Built lazily and memoized per index, so
 * an intermediate read twice at the same index is computed once.
 */
#include <stdlib.h>
#include <string.h>

#include "dispatch.h"

/* ---- kernel building ---- */

typedef struct Memo {
	const void *key;
	int n;
	IExpr **ix;
	void *val;
} Memo;

typedef struct KB {
	Gen *g;
	Kernel *k;
	KCtx kc;
	Value *accval;        /* epilogue: loads of this value are the acc */
	Memo *memo;
	int nmemo, cmemo;
	int err;
} KB;

static void *memo_get(KB *kb, const void *key, int n, IExpr **ix)
{
	int i, j;

	for (i = kb->nmemo - 1; i >= 0; i--) {
		Memo *m = &kb->memo[i];

		if (m->key != key || m->n != n)
			continue;
		for (j = 0; j < n && ix_eq(m->ix[j], ix[j]); j++)
			;
		if (j == n)
			return m->val;
	}
	return NULL;
}

static void memo_put(KB *kb, const void *key, int n, IExpr **ix, void *val)
{
	if (kb->nmemo == kb->cmemo)
		kb->memo = xrealloc(kb->memo, sizeof *kb->memo * (size_t)(kb->cmemo = kb->cmemo ? 2 * kb->cmemo : 64));
	kb->memo[kb->nmemo++] = (Memo){ key, n, ix, val };
}

static int bind(KB *kb, Value *v, int out)
{
	return kernel_bind(kb->k, v, value_buftype(kb->g, v), out);
}

static KExpr *load(KB *kb, Value *v, IExpr **ix);
static KExpr **inline_op(KB *kb, Op *op, IExpr **ix, int *nres);

static int kb_fail(KB *kb, Op *op, const char *msg)
{
	if (!kb->err)
		op_error(op, "%s", msg);
	kb->err = 1;
	return -1;
}

/* The dims of a reassociation group, linearized: sum over the group of
 * ix[d] scaled by the extents after it. */
static IExpr *group_linear(KCtx *k, const Attr *grp, const int64_t *dims, IExpr **ix)
{
	IExpr *e = ix_const(k, 0);
	size_t j;

	for (j = 0; j < grp->n; j++) {
		int d = (int)grp->elts[j]->i;

		e = ix_add(k, ix_mul(k, e, dims[d]), ix[d]);
	}
	return e;
}

/* The reverse: x delinearized into the group's dims of out. */
static void group_delinear(KCtx *k, const Attr *grp, const int64_t *dims, IExpr *x, IExpr **out)
{
	int64_t inner = 1;
	size_t j;

	for (j = grp->n; j-- > 0;) {
		int d = (int)grp->elts[j]->i;

		out[d] = j ? ix_mod(k, ix_floordiv(k, x, inner), dims[d]) : ix_floordiv(k, x, inner);
		inner *= dims[d];
	}
}

/* The index of a reshape's source from its result's (fwd 0), or the
 * reverse (fwd 1); NULL without reassociation groups.  Dims in no group
 * (a reshape to or from rank 0) have extent 1. */
static IExpr **reshape_map(KB *kb, Op *op, IExpr **ix, int fwd)
{
	KCtx *k = &kb->kc;
	Type *st = OPND(op, 0)->type, *rt = RES(op, 0)->type;
	Type *from = fwd ? st : rt, *to = fwd ? rt : st;
	Attr *re = op_attr(op, "reassociation");
	/* whether the result's dims are the finer ones */
	int expand = op_is(op, "tensor.expand_shape");
	IExpr **out = arena_alloc(k->c, sizeof *out * (size_t)(to->rank + 1));
	size_t gi;
	int d;

	if (!re || re->kind != AT_ARRAY)
		return NULL;
	for (d = 0; d < to->rank; d++)
		out[d] = ix_const(k, 0);
	for (gi = 0; gi < re->n; gi++) {
		if (expand != fwd)   /* the fine dims of group gi are ix's */
			out[gi] = group_linear(k, re->elts[gi], from->dims, ix);
		else
			group_delinear(k, re->elts[gi], to->dims, ix[gi], out);
	}
	return out;
}

static IExpr **reshape_index(KB *kb, Op *op, IExpr **ix)
{
	return reshape_map(kb, op, ix, 0);
}

/* The reverse: the result's index from the source's. */
static IExpr **reshape_index_fwd(KB *kb, Op *op, IExpr **ix)
{
	if (is_same_index_view(op))
		return ix;
	return reshape_map(kb, op, ix, 1);
}

static Attr *scalar_const(Value *v)
{
	Attr *a;

	if (!v->def || !op_is(v->def, "arith.constant"))
		return NULL;
	a = op_attr(v->def, "value");
	if (a && (a->kind == AT_INT || a->kind == AT_FLOAT))
		return a;
	if (a && a->kind == AT_DENSE && a->splat)
		return NULL;
	return NULL;
}

static KExpr *const_of(KB *kb, Attr *a, Type *t)
{
	KExpr *e = kx_new(kb->g->c, KX_CONST, t, 0);

	e->cval = a;
	return e;
}

static KExpr *splat_const(KB *kb, Attr *a, Type *et)
{
	if (ty_isfloat(et))
		return kx_const_f(kb->g->c, et, dense_get_f(a, 0));
	return kx_const_i(kb->g->c, et, dense_get_i(a, 0));
}

/* extract_slice: the source at offset + index * stride; a rank-reducing
 * slice drops unit sizes */
static KExpr *load_extract(KB *kb, Op *op, IExpr **ix, Attr *off, Attr *sz, Attr *st)
{
	KCtx *k = &kb->kc;
	Type *srct = OPND(op, 0)->type, *rt = RES(op, 0)->type;
	IExpr **sx = arena_alloc(k->c, sizeof *sx * (srct->rank + 1));
	int r = 0, todrop = srct->rank - rt->rank;
	size_t i;

	for (i = 0; i < off->n; i++) {
		int dropped = sz->ints[i] == 1 && todrop > 0 &&
			(r >= rt->rank || rt->dims[r] != 1 || (int)(off->n - i) - todrop <= 0);
		IExpr *e = dropped ? ix_const(k, 0) : ix[r++];

		todrop -= dropped;

		sx[i] = ix_add(k, ix_const(k, off->ints[i]), ix_mul(k, e, st->ints[i]));
	}
	return load(kb, OPND(op, 0), sx);
}

/* insert_slice: select(in the slice, source, dest).  A strided slice adds
 * one condition per strided dim: its index minus the offset is a
 * multiple of the stride, that is (index + c) mod stride lies in [0, 1). */
static KExpr *load_insert(KB *kb, Op *op, IExpr **ix, Attr *off, Attr *sz, Attr *st)
{
	KCtx *k = &kb->kc;
	Value *src = OPND(op, 0), *dst = OPND(op, 1);
	Type *srct = src->type;
	IExpr **sx = arena_alloc(k->c, sizeof *sx * (size_t)(off->n + 1));
	KExpr *in, *a, *b, *sel;
	int r = 0, unit = 1, todrop = (int)off->n - srct->rank;
	size_t i;

	/* an empty slice inserts nothing: the source is not read (a clamp
	 * into an extent of 0 has no index, and a gather's check of one
	 * stopped the kernel: a gather of no rows padded) */
	for (i = 0; i < off->n; i++)
		if (sz->ints[i] == 0)
			return load(kb, dst, ix);
	in = kx_new(k->c, KX_INRANGE, ty_int(k->c, 1, SIGNLESS), 0);
	in->rank = (int)off->n;
	in->ix = arena_alloc(k->c, sizeof *in->ix * (2 * off->n + 1));
	in->lo = arena_alloc(k->c, sizeof *in->lo * (2 * off->n + 1));
	in->hi = arena_alloc(k->c, sizeof *in->hi * (2 * off->n + 1));
	for (i = 0; i < off->n; i++) {
		int64_t o = off->ints[i], s = sz->ints[i], t = st->ints[i], lo, hi;
		IExpr *rel = ix_add(k, ix[i], ix_const(k, -o));

		if (t < 1)
			return kb_fail(kb, op, "insert_slice with a stride below 1 is not supported"), NULL;
		in->ix[i] = ix[i];
		in->lo[i] = o;
		in->hi[i] = o + (s - 1) * t + 1;
		if (t != 1 && s > 1) {
			in->ix[in->rank] = ix_mod(k, ix_add(k, ix[i], ix_const(k, (t - o % t) % t)), t);
			in->lo[in->rank] = 0;
			in->hi[in->rank++] = 1;
			rel = ix_floordiv(k, rel, t);
			unit = 0;
		}
		if (s == 1 && todrop > 0 && (r >= srct->rank || srct->dims[r] != 1))
			todrop--;
		else
			sx[r++] = ix_clamp(k, rel, 0, s - 1);
		if (!(ix_range(k, ix[i], &lo, &hi) && lo >= o && hi < in->hi[i]))
			unit = 0;
	}
	a = load(kb, src, sx);
	if (unit)
		return a;
	b = load(kb, dst, ix);
	if (!a || !b)
		return NULL;
	sel = kx_op(k->c, kop.select, a->type, 3);
	sel->a[0] = in;
	sel->a[1] = a;
	sel->a[2] = b;
	return sel;
}

static KExpr *load_slices(KB *kb, Op *op, Value *v, IExpr **ix)
{
	Attr *off = op_attr(op, "static_offsets"), *sz = op_attr(op, "static_sizes"),
		*st = op_attr(op, "static_strides");

	if (!off || !sz || !st || op->nopnds > (op_is(op, "tensor.insert_slice") ? 2 : 1))
		return kb_fail(kb, op, "dynamic slices are not supported"), NULL;
	if (op_is(op, "tensor.extract_slice"))
		return load_extract(kb, op, ix, off, sz, st);
	return load_insert(kb, op, ix, off, sz, st);
}

static KExpr *load(KB *kb, Value *v, IExpr **ix)
{
	Gen *g = kb->g;
	VInfo *vi = vinfo(g, v);
	Type *et = v->type->elem;
	KExpr *e;
	Op *op = v->def;

	if (kb->err)
		return NULL;
	if (v == kb->accval) {
		e = kx_new(g->c, KX_ACC, et, 0);
		e->buf = 0;
		return e;
	}
	if ((e = memo_get(kb, v, v->type->rank, ix)))
		return e;
	if (vi->mat) {
		e = kx_new(g->c, KX_LOAD, et, 0);
		e->buf = bind(kb, v, 0);
		e->rank = v->type->rank;
		e->ix = value_index(&kb->kc, g, v, ix);
	} else if (!op) {
		return kb_fail(kb, v->block ? block_parent_op(v->block) : NULL, "unexpected block argument"), NULL;
	} else if (is_view_op(op)) {
		IExpr **sx = is_same_index_view(op) ? ix : reshape_index(kb, op, ix);

		if (!sx)
			return kb_fail(kb, op, "malformed reshape"), NULL;
		e = load(kb, OPND(op, 0), sx);
	} else if (op_is(op, "tensor.extract_slice") || op_is(op, "tensor.insert_slice")) {
		e = load_slices(kb, op, v, ix);
	} else if (op_is(op, "tensor.empty")) {
		e = ty_isfloat(et) ? kx_const_f(g->c, et, 0) : kx_const_i(g->c, et, 0);
	} else if (op_is(op, "linalg.fill")) {
		Attr *a = scalar_const(OPND(op, 0));

		if (!a)
			return kb_fail(kb, op, "linalg.fill of a non-constant is not supported"), NULL;
		e = const_of(kb, a, et);
	} else if (op_is(op, "arith.constant")) {
		e = splat_const(kb, op_attr(op, "value"), et);
	} else if (op->info && (op->info->traits & TR_STRUCTURED)) {
		KExpr **r;
		int nres;

		if (!(r = inline_op(kb, op, ix, &nres)))
			return NULL;
		e = r[v->index];
	} else {
		return kb_fail(kb, op, "unsupported op"), NULL;
	}
	if (e)
		memo_put(kb, v, v->type->rank, ix, e);
	return e;
}

/* ---- op bodies ---- */

typedef struct Body {
	KB *kb;
	SOp *s;
	IExpr **sub;          /* loop dims of the op in kernel terms */
	KExpr **outargs;      /* value of each %out block argument */
	PMap vals;
} Body;

static KExpr *arg_value(Body *bd, int i)
{
	SOp *s = bd->s;
	Op *op = s->op;
	KB *kb = bd->kb;

	if (i >= s->nin)
		return bd->outargs[i - s->nin];
	{
		Value *v = OPND(op, i);
		AffMap *m = s->maps[i];
		IExpr **ix;
		int j;

		if (v->type->kind != TY_TENSOR) {
			Attr *a = scalar_const(v);

			if (!a)
				return kb_fail(kb, op, "scalar operands must be constants"), NULL;
			return const_of(kb, a, v->type);
		}
		ix = arena_alloc(kb->g->c, sizeof *ix * (size_t)(m->nres + 1));
		for (j = 0; j < m->nres; j++)
			if (!(ix[j] = ix_from_aff(&kb->kc, m->res[j], bd->sub)))
				return kb_fail(kb, op, "unsupported indexing map"), NULL;
		return load(kb, v, ix);
	}
}

static KExpr *body_value(Body *bd, Value *v)
{
	KExpr *e = pmap_get(&bd->vals, v);
	Block *entry = bd->s->op->regs[0].first;
	Attr *a;

	if (e)
		return e;
	if (!v->def && v->block == entry) {
		e = arg_value(bd, v->index);
		if (e)
			*pmap_slot(&bd->vals, v, 1) = e;
		return e;
	}
	if ((a = scalar_const(v)))
		return const_of(bd->kb, a, v->type);
	kb_fail(bd->kb, v->def ? v->def : bd->s->op, "unsupported value in a linalg body");
	return NULL;
}

/* wino.c's check: KX_FIX over the transform's value, the convolution's
 * input read from its buffer, or from its pad's source */
static KExpr *fix_op(Body *bd, Op *op)
{
	KB *kb = bd->kb;
	Gen *g = kb->g;
	Ctx *c = g->c;
	Op *pad;
	Value *src = wino_fix_input(g, op, &pad);
	KFix *f = arena_alloc(c, sizeof *f);
	KExpr *e = kx_new(c, KX_FIX, RES(op, 0)->type, 3), *ix;
	IExpr *zero[4], *at[4];
	Type *bt;
	int i, d;

	f->C = OPND(op, 1)->type->dims[1];
	if (pad) {
		Attr *off = op_attr(pad, "static_offsets"), *pv = pad_value(g, pad);

		for (i = 0; i < 4; i++)
			f->off[i] = off->ints[i];
		f->pad = ty_isfloat(pv->type) ? pv->f : (double)pv->i;
	}
	if (!vinfo(g, src)->mat)
		return kb_fail(kb, op, "a Winograd transform's input is not in a buffer"), NULL;
	memcpy(f->ext, src->type->dims, sizeof f->ext);
	/* the buffer's strides of src's dims, through its layout */
	bt = value_buftype(g, src);
	for (d = -1; d < 4; d++) {
		IExpr **px;
		int64_t lin = 0, st = 1;

		for (i = 0; i < 4; i++)
			at[i] = ix_const(&kb->kc, i == d);
		px = value_index(&kb->kc, g, src, at);
		for (i = 3; i >= 0; i--) {
			lin += ix_eval(px[i], NULL) * st;
			st *= bt->dims[i];
		}
		if (d < 0)
			f->x0 = lin;
		else
			f->xs[d] = lin - f->x0;
	}
	for (i = 0; i < 4; i++)
		zero[i] = ix_const(&kb->kc, 0);
	e->fix = f;
	if (!(e->a[0] = body_value(bd, OPND(op, 0))) || !(e->a[1] = load(kb, src, zero)) ||
			!(e->a[2] = load(kb, OPND(op, 2), zero)))
		return NULL;
	e->rank = 4;
	e->ix = arena_alloc(c, sizeof *e->ix * 4);
	for (i = 0; i < 4; i++) {
		if (!(ix = body_value(bd, OPND(op, 3 + i))) || ix->kind != KX_INDEX)
			return kb_fail(kb, op, "malformed Winograd check"), NULL;
		e->ix[i] = ix->ix[0];
	}
	return e;
}

static KExpr *body_op(Body *bd, Op *op)
{
	KB *kb = bd->kb;
	Ctx *c = kb->g->c;
	KExpr *e;
	int i;

	if (op_is(op, "linalg.index")) {
		Attr *d = op_attr(op, "dim");

		e = kx_new(c, KX_INDEX, RES(op, 0)->type, 0);
		e->rank = 1;
		e->ix = arena_alloc(c, sizeof *e->ix);
		e->ix[0] = bd->sub[d ? d->i : 0];
		return e;
	}
	if (op_is(op, "arith.constant"))
		return const_of(kb, op_attr(op, "value"), RES(op, 0)->type);
	if (wino_is_fix(op))
		return fix_op(bd, op);
	if (op_is(op, "tensor.extract")) {
		Value *t = OPND(op, 0);

		if (!vinfo(kb->g, t)->mat)
			return kb_fail(kb, op, "tensor.extract of a computed tensor"), NULL;
		e = kx_new(c, KX_XLOAD, RES(op, 0)->type, op->nopnds - 1);
		e->buf = bind(kb, t, 0);
		for (i = 1; i < op->nopnds; i++)
			if (!(e->a[i - 1] = body_value(bd, OPND(op, i))))
				return NULL;
		return e;
	}
	if (op->nres != 1 || op->nregs || !op->info || !kop_scalar(op->info->code))
		return kb_fail(kb, op, "unsupported op in a linalg body"), NULL;
	e = kx_op(c, op->info->code, RES(op, 0)->type, op->nopnds);
	e->attr = op_attr(op, "predicate");
	for (i = 0; i < op->nopnds; i++)
		if (!(e->a[i] = body_value(bd, OPND(op, i))))
			return NULL;
	return e;
}

static KExpr *binop(Ctx *c, int op, KExpr *a, KExpr *b)
{
	KExpr *e = kx_op(c, op, a->type, 2);

	e->a[0] = a;
	e->a[1] = b;
	return e;
}

static KExpr *convert(Ctx *c, KExpr *a, Type *t)
{
	KExpr *e;
	int n;

	if (a->type == t)
		return a;
	if (ty_isfloat(a->type) && ty_isfloat(t))
		n = ty_bitwidth(t) > ty_bitwidth(a->type) ? kop.extf : kop.truncf;
	else if (ty_isfloat(t))
		n = kop.sitofp;
	else if (ty_isfloat(a->type))
		n = kop.fptosi;
	else
		n = ty_bitwidth(t) > ty_bitwidth(a->type) ? kop.extsi : kop.trunci;
	e = kx_op(c, n, t, 1);
	e->a[0] = a;
	return e;
}

/* A padded length's masked sum, c ? acc + x : acc (seqpad.c's select,
 * either way round), as acc + (c ? x : 0): the same value (for floats
 * the 0 is -0, which adds nothing to any acc, -0 and NaN included), in
 * the form LLVM's loop vectorizer takes for a reduction and codegen
 * cascades (nest.c).  Any other v as it is. */
static KExpr *masked_sum(Ctx *c, KExpr *v)
{
	KExpr *sum, *x, *sel;
	int i;

	if (v->kind != KX_OP || v->op != kop.select || v->n != 3 || kx_has_acc(v->a[0]))
		return v;
	for (i = 1; i < 3; i++) {
		sum = v->a[i];
		if (v->a[3 - i]->kind != KX_ACC || !(x = kx_acc_other(sum)) ||
				(sum->op != kop.addf && sum->op != kop.addi) || sum->type != v->type ||
				sum->a[sum->a[0] == x]->buf != v->a[3 - i]->buf)
			continue;
		sel = kx_op(c, kop.select, v->type, 3);
		sel->a[0] = v->a[0];
		sel->a[i] = x;
		sel->a[3 - i] = kx_new(c, KX_CONST, v->type, 0);
		sel->a[3 - i]->cval = ty_isfloat(v->type) ? at_float(c, -0.0, v->type) : at_int(c, 0, v->type);
		return binop(c, sum->op, v->a[3 - i], sel);
	}
	return v;
}

/* The yielded values of op's body at loop dims sub. */
static KExpr **body_exprs(KB *kb, SOp *s, IExpr **sub, KExpr **outargs)
{
	Ctx *c = kb->g->c;
	KExpr **r = arena_alloc(c, sizeof *r * (size_t)(s->nout + 1));
	Body bd = { kb, s, sub, outargs, {0} };
	Op *op;

	if (s->body != BODY_REGION) {
		KExpr *a = arg_value(&bd, 0), *b = s->nin > 1 ? arg_value(&bd, 1) : NULL;
		Type *t = RES(s->op, 0)->type->elem;

		if (!a || (s->nin > 1 && !b))
			return NULL;
		a = convert(c, a, t);
		switch (s->body) {
		case BODY_COPY:
			r[0] = a;
			break;
		case BODY_MAC:
			b = convert(c, b, t);
			r[0] = binop(c, ty_isfloat(t) ? kop.addf : kop.addi, outargs[0],
				binop(c, ty_isfloat(t) ? kop.mulf : kop.muli, a, b));
			break;
		case BODY_SUM:
			r[0] = binop(c, ty_isfloat(t) ? kop.addf : kop.addi, outargs[0], a);
			break;
		case BODY_MAX:
			r[0] = binop(c, ty_isfloat(t) ? kop.maxf : kop.maxsi, outargs[0], a);
			break;
		default:
			break;
		}
		return r;
	}
	for (op = s->op->regs[0].first->first; op && !kb->err; op = op->next) {
		if (op_is(op, "linalg.yield")) {
			int i;

			for (i = 0; i < s->nout && i < op->nopnds; i++)
				if (!(r[i] = body_value(&bd, OPND(op, i))))
					break;
			pmap_free(&bd.vals);
			return kb->err ? NULL : r;
		}
		{
			/* translated lazily: only what the yield needs is built */
			KExpr *e;

			if (op->nres != 1)
				continue;
			e = body_op(&bd, op);
			if (!e)
				break;
			*pmap_slot(&bd.vals, RES(op, 0), 1) = e;
		}
	}
	pmap_free(&bd.vals);
	if (!kb->err)
		kb_fail(kb, s->op, "linalg body without linalg.yield");
	return NULL;
}

/* An elementwise op's results at index ix of its (permuted) output. */
static KExpr **inline_op(KB *kb, Op *op, IExpr **ix, int *nres)
{
	SOp s;
	IExpr **sub;
	KExpr **outargs, **r;
	AffMap *om;
	int i;

	if ((r = memo_get(kb, op, RES(op, 0)->type->rank, ix)))
		return *nres = op->nres, r;
	if (linalg_view(kb->g->c, op, &s))
		return kb->err = 1, NULL;
	if (!all_parallel(&s) || !is_perm(s.maps[s.nin]))
		return kb_fail(kb, op, "cannot fuse this op"), NULL;
	om = s.maps[s.nin];
	sub = arena_alloc(kb->g->c, sizeof *sub * (size_t)(s.nloops + 1));
	for (i = 0; i < om->nres; i++)
		sub[om->res[i]->v] = ix[i];
	outargs = arena_alloc(kb->g->c, sizeof *outargs * (size_t)(s.nout + 1));
	for (i = 0; i < s.nout; i++) {
		AffMap *m = s.maps[s.nin + i];
		IExpr **ox = arena_alloc(kb->g->c, sizeof *ox * (size_t)(m->nres + 1));
		int j;

		for (j = 0; j < m->nres; j++)
			ox[j] = ix_from_aff(&kb->kc, m->res[j], sub);
		outargs[i] = load(kb, OPND(op, s.nin + i), ox);
		if (!outargs[i])
			return NULL;
	}
	r = body_exprs(kb, &s, sub, outargs);
	if (r)
		memo_put(kb, op, RES(op, 0)->type->rank, ix, r);
	*nres = op->nres;
	return r;
}

/* ---- kernels of roots ---- */

/* The target's grid for a new loop nest, if it sets it this early. */
static void target_grid(Gen *g, Kernel *k)
{
	if (g->t->grid)
		g->t->grid(k);
}

/* Records in k which ops an inlined expression came from. */
typedef struct FusedWalk { Gen *g; Kernel *k; PMap seen; } FusedWalk;

static void note_fused_value(FusedWalk *w, Value *v, Value *own)
{
	Op *op = v->def;
	int i;

	if (!op || pmap_get(&w->seen, op))
		return;
	if (vinfo(w->g, v)->mat && v != own)
		return;
	if (op_is(op, "arith.constant") || op_is(op, "tensor.empty"))
		return;
	*pmap_slot(&w->seen, op, 1) = op;
	for (i = 0; i < op->nopnds; i++)
		if (OPND(op, i)->type->kind == TY_TENSOR)
			note_fused_value(w, OPND(op, i), NULL);
	if (!is_view_op(op) && !op_is(op, "linalg.fill"))
		kernel_add_fused(w->g, w->k, op);
}

static void note_fused(Gen *g, Kernel *k, Op *root, Op *end)
{
	FusedWalk w = { g, k, {0} };
	int i;

	*pmap_slot(&w.seen, root, 1) = root;
	for (i = 0; i < root->nopnds; i++)
		if (OPND(root, i)->type->kind == TY_TENSOR)
			note_fused_value(&w, OPND(root, i), NULL);
	kernel_add_fused(g, k, root);
	if (end != root)
		note_fused_value(&w, RES(end, 0), RES(end, 0));
	pmap_free(&w.seen);
}

/* The epilogue's index: the chain end's index from the root's. */
static IExpr **chain_index(KB *kb, Op *root, Op *end, IExpr **ix)
{
	Value *v = RES(root, 0);

	while (v->def != end) {
		Op *u = single_user(v);

		if (is_view_op(u)) {
			ix = reshape_index_fwd(kb, u, ix);
		} else {
			SOp s;
			IExpr **sub;
			AffMap *m, *om;
			int i, j;

			linalg_view(kb->g->c, u, &s);
			for (i = 0; OPND(u, i) != v; i++)
				;
			m = s.maps[i];
			om = s.maps[s.nin];
			sub = arena_alloc(kb->g->c, sizeof *sub * (size_t)(s.nloops + 1));
			for (j = 0; j < m->nres; j++)
				sub[m->res[j]->v] = ix[j];
			ix = arena_alloc(kb->g->c, sizeof *ix * (size_t)(om->nres + 1));
			for (j = 0; j < om->nres; j++)
				ix[j] = sub[om->res[j]->v];
		}
		if (!ix)
			return NULL;
		v = RES(u, 0);
	}
	return ix;
}

/* The index inside pad (an insert_slice, pad_value) of its source's
 * element at ix: ix plus the pad's offsets. */
static IExpr **inside_pad(KB *kb, Op *pad, IExpr **ix)
{
	Attr *off = op_attr(pad, "static_offsets");
	IExpr **px = arena_alloc(kb->g->c, sizeof *px * (off->n + 1));

	for (size_t i = 0; i < off->n; i++)
		px[i] = ix_add(&kb->kc, ix[i], ix_const(&kb->kc, off->ints[i]));
	return px;
}

int aff_uses_dim(const AffExpr *a, int d)
{
	if (a->kind == AFF_DIM)
		return a->v == d;
	return a->l && (aff_uses_dim(a->l, d) || aff_uses_dim(a->r, d));
}

int map_uses_dim(const AffMap *m, int d)
{
	int i;

	for (i = 0; i < m->nres; i++)
		if (aff_uses_dim(m->res[i], d))
			return 1;
	return 0;
}

/* Output i of root op: its store index, initial value and accumulator,
 * or with an epilogue chain ending at `end`, the chain's end stored at
 * its own index.  0, or -1 after an error. */
static int root_output(KB *kb, Op *op, SOp *s, int i, IExpr **dims, int red, Op *end,
	KExpr **acc)
{
	Gen *g = kb->g;
	KOut *o = &kb->k->out[i];
	AffMap *m = s->maps[s->nin + i];
	IExpr **ox = arena_alloc(g->c, sizeof *ox * (size_t)(m->nres + 1));
	Value *res = RES(op, i);
	int j;

	for (j = 0; j < m->nres; j++)
		if (!(ox[j] = ix_from_aff(&kb->kc, m->res[j], dims)))
			return op_error(op, "unsupported indexing map"), -1;
	o->acctype = res->type->elem;
	o->init = load(kb, OPND(op, s->nin + i), ox);
	acc[i] = kx_new(g->c, KX_ACC, o->acctype, 0);
	acc[i]->buf = i;
	if (!red)
		acc[i] = o->init;
	o->ix = ox;
	if (end != op && op_is(end, "tensor.insert_slice")) {
		/* a pad (epilogue_chain): the chain's value before it, stored
		 * inside the pad's buffer, which the host fills first */
		Value *sv = OPND(end, 0);
		IExpr **sx = sv == res ? ox : chain_index(kb, op, sv->def, ox);
		KExpr *ev;

		if (!sx)
			return op_error(op, "cannot fuse the epilogue"), -1;
		kb->accval = res;
		ev = load(kb, sv, sx);
		kb->accval = NULL;
		if (!ev)
			return -1;
		o->epi = sv == res ? NULL : ev;
		o->buf = bind(kb, RES(end, 0), 1);
		o->ix = value_index(&kb->kc, g, RES(end, 0), inside_pad(kb, end, sx));
		kb->k->prefill = pad_value(g, end);
		kb->k->inside = end;
	} else if (end != op) {
		/* the epilogue stores the chain's end, at its index */
		Value *ev = RES(end, 0);
		IExpr **ex = chain_index(kb, op, end, ox);
		KExpr **er;
		int nres;

		if (!ex)
			return op_error(op, "cannot fuse the epilogue"), -1;
		kb->accval = res;
		er = inline_op(kb, end, ex, &nres);
		kb->accval = NULL;
		if (!er)
			return -1;
		o->epi = er[0];
		o->buf = bind(kb, ev, 1);
		o->ix = value_index(&kb->kc, g, ev, ex);
	} else {
		o->buf = bind(kb, res, 1);
		o->ix = value_index(&kb->kc, g, res, ox);
	}
	return 0;
}

/* ---- loops bounded by a dynamic length ---- */

/* The (c, d) of dimension j of v's size at length n, c * n + d (seqpad.c's
 * LENGTH_SIZES on its op): 1, or 0 where it does not vary. */
static int varying_size(Value *v, int j, int64_t *c, int64_t *d)
{
	Attr *a = v->def ? op_attr(v->def, LENGTH_SIZES) : NULL, *e;

	if (!a || a->kind != AT_ARRAY || v->index >= (int)a->n)
		return 0;
	e = a->elts[v->index];
	if (e->kind != AT_DENSE_ARRAY || (int)e->n != 2 * v->type->rank || e->ints[2 * j] <= 0)
		return 0;
	*c = e->ints[2 * j], *d = e->ints[2 * j + 1];
	return 1;
}

/* The loops of a padded function's kernel that may stop at the call's
 * length: a parallel loop past whose bound every output element is
 * padding (no result reads it), a loop that is exactly dimension j of
 * each output, a dimension whose size varies alike in all of them; and a
 * reduction the root masks along the length (LENGTH_LOOPS; root_loops:
 * k's loops are root's).  Each stops at its extent at the call's length
 * (the kernel binds the length), so a call computes its own length, not
 * the padded function's. */
Value *length_arg(Op *fn)
{
	Block *b = fn ? fn->regs[0].first : NULL;
	Value *len = b && b->nargs ? b->args[b->nargs - 1] : NULL;
	Type *lt = len ? len->type : NULL;

	if (!lt || lt->kind != TY_TENSOR || lt->rank != 1 || lt->dims[0] != 1 ||
			lt->elem->kind != TY_INT || lt->elem->width != 64)
		return NULL;
	return len;
}

static void length_bounds(Gen *g, Kernel *k, Op *root, int root_loops)
{
	Value *len = length_arg(op_ancestor(root, "func.func"));
	Attr *ml = root_loops ? op_attr(root, LENGTH_LOOPS) : NULL;

	if (!len)
		return;
	if (ml && (ml->kind != AT_DENSE_ARRAY || (int)ml->n != 2 * k->ndims))
		ml = NULL;
	for (int p = 0; p < k->ndims; p++) {
		int64_t c = 0, d = 0, c1, d1;
		int ok = !k->red[p] && k->ext[p] > 1;

		if (k->red[p] && ml && ml->ints[2 * p] > 0) {
			/* a masked reduction (seqpad.c): its steps past the
			 * length keep the accumulator */
			c = ml->ints[2 * p], d = ml->ints[2 * p + 1];
			ok = 1;
		}

		for (int i = 0; i < k->nout && ok && !k->red[p]; i++) {
			KOut *o = &k->out[i];
			Value *v = k->bind[o->buf].val;
			int at = -1;

			for (int j = 0; j < v->type->rank && ok; j++) {
				if (!ix_uses_dim(o->ix[j], p))
					continue;
				ok = at < 0 && o->ix[j]->kind == IX_DIM;
				at = j;
			}
			ok = ok && at >= 0 && varying_size(v, at, &c1, &d1) && (i == 0 || (c1 == c && d1 == d));
			c = c1, d = d1;
		}
		if (!ok)
			continue;
		if (!k->bound)
			k->bound = arena_alloc(g->c, sizeof *k->bound * (size_t)k->ndims);
		k->bound[p] = (KBound){ c, d, 1 };
		k->len = len;
	}
}

/* An empty loop leaves a result it does not index at its initial value:
 * not a case the kernels handle. */
static int empty_loops(Op *op, const SOp *s)
{
	int i, j;

	for (i = 0; i < s->nloops; i++)
		for (j = 0; j < s->nout && !s->red[i] && s->ext[i] == 0; j++)
			if (!map_uses_dim(s->maps[s->nin + j], i))
				return op_error(op, "parallel loop %d of extent 0 does not index result %d",
					i, j), -1;
	return 0;
}

int build_root(Gen *g, Op *op, FnPlan *fp)
{
	VInfo *vi = vinfo(g, RES(op, 0));
	Op *end = vi->chain_end ? vi->chain_end : op;
	Kernel *k = kernel_new(g, op);
	KB kb;
	SOp s;
	IExpr **dims;
	KExpr **acc, **vals;
	int i, red = 0;

	memset(&kb, 0, sizeof kb);
	kb.g = g;
	kb.k = k;
	if (linalg_view(g->c, op, &s) || empty_loops(op, &s))
		return -1;
	k->kind = KK_LOOP;
	k->ndims = s.nloops;
	k->ext = s.ext;
	k->red = s.red;
	kb.kc = (KCtx){ g->c, s.nloops, s.ext };
	dims = arena_alloc(g->c, sizeof *dims * (size_t)(s.nloops + 1));
	/* a reduction over extent-1 dims is its one step: the body applied
	 * to the accumulator's initial value, with no loop and no acc */
	for (i = 0; i < s.nloops; i++) {
		dims[i] = ix_dim(&kb.kc, i);
		red |= s.red[i] && s.ext[i] != 1;
	}
	acc = arena_alloc(g->c, sizeof *acc * (size_t)(s.nout + 1));
	k->nout = s.nout;
	k->naccs = s.nout;
	k->out = arena_alloc(g->c, sizeof *k->out * (size_t)(s.nout + 1));
	for (i = 0; i < s.nout; i++)
		if (root_output(&kb, op, &s, i, dims, red, end, acc))
			return -1;
	vals = body_exprs(&kb, &s, dims, acc);
	if (!vals || kb.err)
		return -1;
	for (i = 0; i < s.nout; i++) {
		k->out[i].val = red ? masked_sum(g->c, vals[i]) : vals[i];
		if (!red)
			k->out[i].init = NULL;
		/* an epilogue without reduction reads the body through the acc */
	}
	free(kb.memo);
	note_fused(g, k, op, end);
	length_bounds(g, k, op, 1);
	target_grid(g, k);
	if (g->t->gemm && g->t->gemm(g, k, fp, op) < 0)
		return -1;
	plan_push(fp, k, op);
	return 0;
}

Attr *pad_value(Gen *g, Op *op)
{
	Attr *off = op_attr(op, "static_offsets"), *st = op_attr(op, "static_strides"), *a;
	Value *src, *dst;
	Op *d;
	Type *et;

	if (!op_is(op, "tensor.insert_slice") || op->nopnds != 2 || !off || !st)
		return NULL;
	src = OPND(op, 0), dst = OPND(op, 1);
	if (src->type->rank != (int)off->n || vinfo(g, dst)->mat || !(d = dst->def))
		return NULL;
	for (size_t i = 0; i < off->n; i++)
		if (st->ints[i] != 1)
			return NULL;
	et = dst->type->elem;
	if (op_is(d, "tensor.empty"))
		return ty_isfloat(et) ? at_float(g->c, 0, et) : at_int(g->c, 0, et);
	if (op_is(d, "linalg.fill") && (a = scalar_const(OPND(d, 0))) && a->type == et)
		return a;
	if (op_is(d, "arith.constant") && (a = op_attr(d, "value")) && a->kind == AT_DENSE &&
			a->splat)
		return ty_isfloat(et) ? at_float(g->c, dense_get_f(a, 0), et) :
			at_int(g->c, dense_get_i(a, 0), et);
	return NULL;
}

/* A kernel that materializes value v (an elementwise result, or any
 * expression) over its own shape; a pad (pad_value) over its source's,
 * into a buffer the host fills first. */
int build_value(Gen *g, Value *v, Op *op, FnPlan *fp)
{
	Kernel *k = kernel_new(g, op);
	Type *t = v->type;
	Attr *pad = v->def ? pad_value(g, v->def) : NULL;
	KB kb;
	IExpr **ix, **ox;
	int i;

	if (pad)
		t = OPND(v->def, 0)->type;
	memset(&kb, 0, sizeof kb);
	kb.g = g;
	kb.k = k;
	k->kind = KK_LOOP;
	k->ndims = t->rank;
	k->ext = (int64_t *)t->dims;
	k->red = arena_alloc(g->c, (size_t)t->rank + 1);
	kb.kc = (KCtx){ g->c, t->rank, t->dims };
	ix = arena_alloc(g->c, sizeof *ix * (size_t)(t->rank + 1));
	for (i = 0; i < t->rank; i++)
		ix[i] = ix_dim(&kb.kc, i);
	ox = pad ? inside_pad(&kb, v->def, ix) : ix;
	k->prefill = pad;
	k->inside = pad ? v->def : NULL;
	/* compute v itself, not its buffer */
	vinfo(g, v)->mat = 0;
	{
		KExpr *e = pad ? load(&kb, OPND(v->def, 0), ix) : load(&kb, v, ix);

		vinfo(g, v)->mat = 1;
		if (!e || kb.err)
			return -1;
		k->nout = 1;
		k->out = arena_alloc(g->c, sizeof *k->out);
		k->out[0].buf = bind(&kb, v, 1);
		k->out[0].ix = value_index(&kb.kc, g, v, ox);
		k->out[0].val = e;
		k->out[0].acctype = t->elem;
	}
	free(kb.memo);
	note_fused(g, k, op, op);
	length_bounds(g, k, op, 0);
	target_grid(g, k);
	plan_push(fp, k, op);
	return 0;
}
