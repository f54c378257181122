/*
 * index.c - indexing.  Gathers (index_select, gather, index.Tensor) are a
 * linalg.generic over the result whose body reads the source with
 * tensor.extract.  Scatters (scatter, scatter_add, index_put) have no
 * parallel form on tensors, so they are written as a reduction: for every
 * output position p, fold over every update position q, taking the update
 * where q's target equals p (the last one wins; or they add up).  That is
 * O(|out| |updates|) (index_put: O(|out| |indices|), the dims it takes
 * whole being the output's own loops), pure linalg, and right for the
 * small index tensors models carry.
 */
#include <string.h>

#include "lower.h"

static Type *
static_result(L *l, Op *op)
{
	Type *bt = btensor(l->c, op->res[0].type);

	if (!bt || !ty_static(bt)) {
		op_error(op, "torch-lower: '%s' needs a static result shape", op->name);
		return NULL;
	}
	return bt;
}

/* an index value (any int type) as index, negative ones counted from
 * the size: dsize, an index value, or else size */
static Value *
wrap_index_v(L *l, Value *v, Value *dsize, int64_t size)
{
	Value *i = to_index(l, v), *z = cst_idx(l, 0);

	return sel(l, cmpi(l, "slt", i, z), bin(l, "arith.addi", i,
		dsize ? dsize : cst_idx(l, size)), i);
}

static Value *
wrap_index(L *l, Value *v, int64_t size)
{
	return wrap_index_v(l, v, NULL, size);
}

static Value *
extract(L *l, Value *src, Value **idx)
{
	Value *o[65];
	int r = src->type->rank, i;

	o[0] = src;
	for (i = 0; i < r; i++)
		o[i + 1] = idx[i];
	return emit1(l, "tensor.extract", r + 1, o, src->type->elem);
}

int
lower_index_select(L *l, Op *op, const void *arg)
{
	/* (self, dim, index) */
	Type *bt = btensor(l->c, op->res[0].type), *st = ttype(l, OPND(op, 0));
	Value *src = get(l, OPND(op, 0)), *ix = get(l, OPND(op, 2)), *out, *idx[64], *size;
	Value *from[TY_MAXRANK];
	AffMap *maps[2];
	Gen g;
	int d, i, r, dim[TY_MAXRANK];

	if (!bt || !st->ranked || bt->rank > TY_MAXRANK ||
			(d = norm_dim(l, tv_ival(OPND(op, 1)), st->rank)) < 0)
		return -1;
	/* self's sizes but along dim: the index's */
	for (i = 0; i < bt->rank; i++)
		from[i] = i == d ? ix : src, dim[i] = i == d ? 0 : i;
	if (!(out = empty_from(l, bt, from, dim)))
		return -1;
	r = bt->rank;
	if (r == 0 && st->rank == 0) {
		/* PyTorch gives self back, whatever the (in-range) index */
		set(l, RES(op, 0), src);
		return 0;
	}
	if (r != st->rank || ix->type->rank > 1) {
		op_error(op, "torch-lower: '%s' result and index shapes do not fit self", op->name);
		return -1;
	}
	/* a dynamic size along dim read before the body, a static one in it */
	size = st->dims[d] == DYN ? emit1(l, "tensor.dim", 2, (Value *[]){ src, cst_idx(l, d) },
		ty_index(l->c)) : NULL;
	maps[0] = map_sel(l, r, ix->type->rank, &d);
	maps[1] = map_id(l, r);
	gen_begin(l, &g, 1, &ix, 1, &out, maps, r, NULL);
	for (i = 0; i < r; i++)
		idx[i] = i == d ? wrap_index_v(l, g.arg[0], size, st->dims[d]) : lindex(l, i);
	Value *y = extract(l, src, idx);
	set(l, RES(op, 0), gen_end(l, &g, 1, &y));
	return 0;
}

int
lower_gather(L *l, Op *op, const void *arg)
{
	/* (self, dim, index, sparse_grad) */
	Type *bt = static_result(l, op), *st = ttype(l, OPND(op, 0));
	Value *src = get(l, OPND(op, 0)), *ix = get(l, OPND(op, 2)), *out, *idx[64];
	AffMap *maps[2];
	Gen g;
	int d, i, r;

	if (!bt || (d = norm_dim(l, tv_ival(OPND(op, 1)), st->rank)) < 0 ||
			!(out = empty(l, bt, NULL)))
		return -1;
	r = bt->rank;
	/* the result has the index's shape; off dim d it fits in self */
	int bad = ix->type->rank != r || (st->rank ? r != st->rank : r > 1);
	for (i = 0; i < r && !bad; i++)
		bad = ix->type->dims[i] != bt->dims[i] ||
			(st->rank && i != d && bt->dims[i] > st->dims[i]);
	if (bad) {
		op_error(op, "torch-lower: '%s' index shape does not fit self", op->name);
		return -1;
	}
	maps[0] = maps[1] = map_id(l, r);
	gen_begin(l, &g, 1, &ix, 1, &out, maps, r, NULL);
	/* a 0-d self has the one element every (in-range) index names */
	for (i = 0; i < r && st->rank; i++)
		idx[i] = i == d ? wrap_index(l, g.arg[0], st->dims[d]) : lindex(l, i);
	Value *y = extract(l, src, idx);
	set(l, RES(op, 0), gen_end(l, &g, 1, &y));
	return 0;
}

/* The advanced-indexing layout of self[indices]: which self dims are
 * indexed, the broadcast shape B of the index tensors, and where B sits in
 * the result (PyTorch puts it first unless the indexed dims are adjacent). */
typedef struct Adv {
	int r;                 /* self rank */
	int n;                 /* index tensors */
	Value *ix[64];         /* torch values, NULL for a None */
	int nb;
	int64_t B[64];
	int bpos;              /* first result dim of B */
	int rdim[64];          /* self dim -> result dim when not indexed */
} Adv;

static int
advanced(L *l, Op *op, Value *list, Adv *a)
{
	Type *st = ttype(l, OPND(op, 0));
	int i, k, first = -1, last = -1, adjacent = 1, nres;

	a->r = st->rank;
	a->n = list_vals(list, a->ix, 64);
	if (a->n < 0 || a->n > a->r) {
		op_error(op, "torch-lower: expected a list of index tensors");
		return -1;
	}
	a->nb = 0;
	for (i = 0; i < a->n; i++) {
		if (tv_none(a->ix[i])) {
			a->ix[i] = NULL;
			continue;
		}
		Type *t = ttype(l, a->ix[i]);
		if (!ty_static(t) || dt_isbool(t->elem) || dt_isfloat(t->elem)) {
			op_error(op, "torch-lower: only static integer index tensors are supported");
			return -1;
		}
		/* PyTorch takes uint8 indices as boolean masks */
		if (dt_isunsigned(t->elem)) {
			op_error(op, "torch-lower: a uint8 index tensor is a boolean mask, which is not supported");
			return -1;
		}
		if (first >= 0 && last != i - 1)
			adjacent = 0;
		if (first < 0)
			first = i;
		last = i;
		/* broadcast, right aligned */
		if (t->rank > a->nb) {
			int sh = t->rank - a->nb;
			memmove(a->B + sh, a->B, sizeof *a->B * a->nb);
			for (k = 0; k < sh; k++)
				a->B[k] = 1;
			a->nb = t->rank;
		}
		for (k = 0; k < t->rank; k++) {
			int64_t *b = &a->B[k + a->nb - t->rank];
			if (*b == 1)
				*b = t->dims[k];
		}
	}
	for (i = a->n; i < a->r; i++)
		a->ix[i] = NULL;
	a->bpos = adjacent ? first : 0;
	nres = 0;
	for (i = 0; i < a->r; i++) {
		if (a->ix[i]) {
			a->rdim[i] = -1;
			continue;
		}
		if (nres == a->bpos)
			nres += a->nb;
		a->rdim[i] = nres++;
	}
	return 0;
}

/* map from `loops` dims onto index tensor t, broadcast into B at off */
static AffMap *
bmap(L *l, int loops, Type *t, const Adv *a, int off)
{
	AffExpr *e[64];
	int k;

	for (k = 0; k < t->rank; k++) {
		int bi = k + a->nb - t->rank;
		e[k] = t->dims[k] == 1 && a->B[bi] != 1 ? c_(l, 0) : d_(l, off + bi);
	}
	return map_of(l, loops, t->rank, e);
}

int
lower_index(L *l, Op *op, const void *arg)
{
	/* (self, indices) */
	Type *bt = btensor(l->c, op->res[0].type), *st = ttype(l, OPND(op, 0));
	Value *src = get(l, OPND(op, 0)), *ins[64], *out, *idx[64], *from[TY_MAXRANK], *size[64];
	AffMap *maps[65];
	Adv a;
	Gen g;
	int i, n = 0, r, dim[TY_MAXRANK];

	if (!bt || !st->ranked || bt->rank > TY_MAXRANK || advanced(l, op, OPND(op, 1), &a))
		return -1;
	r = bt->rank;
	/* a dynamic size of the result is self's (the index tensors are
	 * static), one along an indexed dim read before the body */
	for (i = 0; i < r; i++)
		from[i] = NULL, dim[i] = 0;
	for (i = 0; i < a.r; i++)
		if (!a.ix[i] && a.rdim[i] < r)
			from[a.rdim[i]] = src, dim[a.rdim[i]] = i;
	if (!(out = empty_from(l, bt, from, dim)))
		return -1;
	for (i = 0; i < a.r; i++)
		size[i] = a.ix[i] && st->dims[i] == DYN ? emit1(l, "tensor.dim", 2,
			(Value *[]){ src, cst_idx(l, i) }, ty_index(l->c)) : NULL;
	for (i = 0; i < a.r; i++)
		if (a.ix[i]) {
			ins[n] = get(l, a.ix[i]);
			maps[n++] = bmap(l, r, ttype(l, a.ix[i]), &a, a.bpos);
		}
	maps[n] = map_id(l, r);
	gen_begin(l, &g, n, ins, 1, &out, maps, r, NULL);
	for (i = 0, n = 0; i < a.r; i++)
		idx[i] = a.ix[i] ? wrap_index_v(l, g.arg[n++], size[i], st->dims[i]) : lindex(l, a.rdim[i]);
	Value *y = extract(l, src, idx);
	set(l, RES(op, 0), gen_end(l, &g, 1, &y));
	return 0;
}

/* The fold for scatters: loops are p (out dims, parallel) then q (update
 * dims, reduction).  ins are read at q; tgt[k] (filled by the caller in
 * the body through the callback) is the target of q in dim k. */
typedef void (*Targets)(L *l, Gen *g, const void *env, Value **tgt);

static Value *
scatter_fold(L *l, Value *self, Type *vd, int nq, const int64_t *qdims, int nin,
	Value **ins, AffMap **inmaps, int upd, Type *ud, const char *mode,
	Value *scalar, Targets tf, const void *env)
{
	int r = self->type->rank, nl = r + nq, i;
	AffMap *maps[66];
	char it[130];
	Gen g;
	Value *tgt[64];
	Type *cd = dt_opmath(l->c, vd);

	(void)qdims;
	for (i = 0; i < nl; i++)
		it[i] = i < r ? 'p' : 'r';
	it[nl] = 0;
	for (i = 0; i < nin; i++)
		maps[i] = inmaps[i];
	int ids[64];
	for (i = 0; i < r; i++)
		ids[i] = i;
	maps[nin] = map_sel(l, nl, r, ids);
	gen_begin(l, &g, nin, ins, 1, &self, maps, nl, it);
	tf(l, &g, env, tgt);
	Value *match = NULL;
	for (i = 0; i < r; i++) {
		Value *m = cmpi(l, "eq", tgt[i], lindex(l, i));
		match = match ? bin(l, "arith.andi", match, m) : m;
	}
	Value *u = upd >= 0 ? g.arg[upd] : scalar;
	u = cv(l, u, upd >= 0 ? ud : vd, cd);
	Value *acc = cv(l, g.arg[nin], vd, cd);
	Value *nv = !strcmp(mode, "add") ? ar(l, "add", cd, acc, u) : u;
	Value *y = cv(l, match ? sel(l, match, nv, acc) : nv, cd, vd);
	return gen_end(l, &g, 1, &y);
}

typedef struct ScatterEnv {
	int d, r, ixarg;
	int64_t size;
} ScatterEnv;

static void
scatter_targets(L *l, Gen *g, const void *env, Value **tgt)
{
	const ScatterEnv *e = env;
	int i;

	for (i = 0; i < e->r; i++)
		tgt[i] = i == e->d ? wrap_index(l, g->arg[e->ixarg], e->size) :
			lindex(l, e->r + i);
}

int
lower_scatter(L *l, Op *op, const void *arg)
{
	/* (self, dim, index, src | value) */
	Type *st = ttype(l, OPND(op, 0)), *xt = ttype(l, OPND(op, 2));
	Value *self = get(l, OPND(op, 0)), *ins[2];
	AffMap *maps[2];
	ScatterEnv e;
	int r = st->rank, i, nin = 1, upd = -1;
	int ids[64];
	Type *ud = NULL;
	Value *scalar = NULL;

	if (!ty_static(st) || !ty_static(xt) || (e.d = norm_dim(l, tv_ival(OPND(op, 1)), r)) < 0)
		return -1;
	int bad = xt->rank != r;
	for (i = 0; i < r && !bad; i++)
		bad = i != e.d && xt->dims[i] > st->dims[i];
	if (!strcmp(arg, "value") ? 0 : !ty_static(ttype(l, OPND(op, 3))) ||
			ttype(l, OPND(op, 3))->rank != r)
		bad = 1;
	for (i = 0; i < r && !bad && strcmp(arg, "value"); i++)
		bad = xt->dims[i] > ttype(l, OPND(op, 3))->dims[i];
	if (bad) {
		op_error(op, "torch-lower: '%s' index shape does not fit self and src", op->name);
		return -1;
	}
	e.r = r;
	e.ixarg = 0;
	e.size = r ? st->dims[e.d] : 1;   /* a 0-d self has one place */
	for (i = 0; i < r; i++)
		ids[i] = r + i;
	ins[0] = get(l, OPND(op, 2));
	maps[0] = map_sel(l, 2 * r, r, ids);
	if (!strcmp(arg, "value")) {
		scalar = cst_of(l, OPND(op, 3), st->elem);
	} else {
		/* src may be larger than index: its first index-shaped part */
		Type *srt = ttype(l, OPND(op, 3));
		if (!ty_static(srt))
			return -1;
		ins[1] = get(l, OPND(op, 3));
		if (r && memcmp(srt->dims, xt->dims, sizeof *xt->dims * r)) {
			int64_t z[64] = {0}, one[64];
			for (i = 0; i < r; i++)
				one[i] = 1;
			Type *st2 = tensor_of(l->c, r, xt->dims, srt->elem);
			Op *s = emit(l, "tensor.extract_slice", 1, &ins[1], 1, &st2);
			Type *i64 = ty_int(l->c, 64, SIGNLESS);
			int64_t seg[4] = { 1, 0, 0, 0 };
			op_set_attr(l->c, s, "static_offsets", at_dense_array(l->c, i64, r, z));
			op_set_attr(l->c, s, "static_sizes", at_dense_array(l->c, i64, r, xt->dims));
			op_set_attr(l->c, s, "static_strides", at_dense_array(l->c, i64, r, one));
			op_set_attr(l->c, s, "operand_segment_sizes",
				at_dense_array(l->c, ty_int(l->c, 32, SIGNLESS), 4, seg));
			ins[1] = RES(s, 0);
		}
		maps[1] = maps[0];
		ud = dtype_of(l, OPND(op, 3));
		upd = 1;
		nin = 2;
	}
	set(l, RES(op, 0), scatter_fold(l, self, st->elem, r, xt->dims, nin, ins, maps,
		upd, ud, !strcmp(arg, "add") ? "add" : "set", scalar, scatter_targets, &e));
	return 0;
}

typedef struct PutEnv {
	const Adv *a;
	int r;
	const int64_t *sdims;
} PutEnv;

static void
put_targets(L *l, Gen *g, const void *env, Value **tgt)
{
	const PutEnv *e = env;
	const Adv *a = e->a;
	int i, n = 0;

	/* a dim taken whole is the output's own: its loop is shared */
	for (i = 0; i < a->r; i++)
		tgt[i] = a->ix[i] ? wrap_index(l, g->arg[n++], e->sdims[i]) : lindex(l, i);
}

int
lower_index_put(L *l, Op *op, const void *arg)
{
	/* (self, indices, values, accumulate) */
	Type *st = ttype(l, OPND(op, 0)), *vt = ttype(l, OPND(op, 2));
	Value *self = get(l, OPND(op, 0)), *ins[66];
	AffMap *maps[66];
	int64_t V[64];
	int i, n = 0, nv, r = st->rank;
	Adv a;
	PutEnv e;

	if (!ty_static(st) || !ty_static(vt) || advanced(l, op, OPND(op, 1), &a))
		return -1;
	/* the shape self[indices] would have */
	nv = 0;
	for (i = 0; i < a.r; i++)
		if (!a.ix[i] && a.rdim[i] + 1 > nv)
			nv = a.rdim[i] + 1;
	if (a.bpos + a.nb > nv)
		nv = a.bpos + a.nb;
	for (i = 0; i < a.nb; i++)
		V[a.bpos + i] = a.B[i];
	for (i = 0; i < a.r; i++)
		if (!a.ix[i])
			V[a.rdim[i]] = st->dims[i];
	/* the loops: the output's dims (parallel), then the indices'
	 * broadcast dims (the updates folded in).  A dim of self taken whole
	 * (x[idx, :, :] = v) is not looped over twice: the update's slice
	 * position there is the output's own index, which keeps the fold
	 * O(|out| |indices|), not O(|out| |updates|) */
	int nl = r + a.nb;
	for (i = 0; i < a.r; i++)
		if (a.ix[i]) {
			ins[n] = get(l, a.ix[i]);
			maps[n++] = bmap(l, nl, ttype(l, a.ix[i]), &a, r);
		}
	/* values broadcast into V, right aligned.  Where they broadcast, no
	 * operand would give an update loop its extent (the op would not
	 * verify): they are expanded to V first. */
	{
		AffExpr *ex[64];
		Value *v = get(l, OPND(op, 2));
		int k, whole = vt->rank == nv;

		for (k = 0; k < vt->rank && whole; k++)
			whole = vt->dims[k] == V[k];
		if (!whole) {
			Type *vb = ty_tensor(l->c, nv, V, v->type->elem);

			if (!(v = gather_map(l, v, vb, map_bcast(l, nv, v->type, vb))))
				return -1;
		}
		for (k = 0; k < nv; k++) {
			ex[k] = NULL;
			if (k >= a.bpos && k < a.bpos + a.nb)
				ex[k] = d_(l, r + k - a.bpos);
			else
				for (i = 0; i < a.r; i++)
					if (!a.ix[i] && a.rdim[i] == k)
						ex[k] = d_(l, i);
			if (!ex[k])
				die("torch-lower: index_put: update dim %d is neither an index's nor self's", k);
		}
		ins[n] = v;
		maps[n] = map_of(l, nl, nv, ex);
	}
	e.a = &a;
	e.r = r;
	e.sdims = st->dims;
	set(l, RES(op, 0), scatter_fold(l, self, st->elem, a.nb, a.B, n + 1, ins, maps, n,
		vt->elem, tv_ival(OPND(op, 3)) ? "add" : "set", NULL, put_targets, &e));
	return 0;
}
