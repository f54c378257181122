/*
 * decompose_sort.c - sort, argsort, msort, topk and kthvalue as ranks:
 * elementwise compares and sums, the backend contract's ops, no sort op.
 *
 * Along dim (extent n, static), element i's place in the stable order is
 *   rank[i] = #{ j : x[j] precedes x[i], or x[j] ties x[i] and j < i }
 * (an [.., n, n, ..] compare summed over j), and the element at place p is
 *   idx[p]  = sum_i (rank[i] == p ? i : 0)
 * (exactly one i has rank p: the ranks are a permutation of 0..n-1), its
 * value gather(x, dim, idx).  Only the places [lo, hi) a result needs are
 * computed: topk's k, kthvalue's one.  O(n^2) compares per row, and the
 * [.., n, n, ..] operands of the sums are materialized where codegen does
 * not fuse them: meant for the short rows of models (a few thousand at
 * most), not for sorting large tensors.
 *
 * Order: ascending by <, descending by >; NaN after every number
 * ascending, before every number descending (PyTorch's order), NaNs tie
 * with each other, -0.0 ties with 0.0; ties keep their input order, i.e.
 * the result is the stable sort's, which is also one of the orders
 * PyTorch's unstable sort may give (its values are the same; its indices
 * of tied elements may differ).  topk's sorted=False gets the sorted
 * order (PyTorch leaves that order unspecified).  bool compares as uint8.
 */
#include "decompose.h"

static Value *
view_at(B *b, Value *x, int rank, int at, int64_t n)
{
	int64_t d[TORCH_MAXRANK + 1];
	int i;

	for (i = 0; i < rank; i++)
		d[i] = i == at ? n : 1;
	return b_op2(b, "aten.view", x, b_ints(b, rank, d));
}

static Value *
arange_at(B *b, int64_t lo, int64_t hi, int rank, int at)
{
	Value *v[7] = {b_int(b, lo), b_int(b, hi), b_int(b, 1),
		b_int(b, dt_code(dt_i64(b->c))), b_none(b), b_none(b), b_none(b)};

	return view_at(b, b_op(b, "aten.arange.start_step", 7, v), rank, at, hi - lo);
}

static Value *
and_(B *b, Value *x, Value *y)
{
	return b_op2(b, "aten.logical_and", x, y);
}

static Value *
or_(B *b, Value *x, Value *y)
{
	return b_op2(b, "aten.logical_or", x, y);
}

/* The places [lo, hi) of x's stable sort along dim: values (when vals)
 * and int64 indices; 0 when x's rank, dtype or extent do not allow it. */
static int
sorted_places(B *b, Value *x, int64_t dim, int desc, int64_t lo, int64_t hi,
	Value **vals, Value **idx)
{
	Type *t = x->type, *dt = tt_dtype(t);
	int r = tt_rank(t);
	int64_t n;
	Value *k, *a, *bv, *before, *tie, *ai, *aj, *rank, *m, *w, *v[4];

	if (r < 1 || r >= TORCH_MAXRANK || !dt || dt_code(dt) < 0
	    || (dim = tt_dim(dim, r)) < 0 || (n = t->dims[dim]) == DYN
	    || lo < 0 || lo > hi || hi > n)
		return 0;
	k = x;
	if (dt == dt_bool(b->c)) {   /* compare false < true as 0 < 1 */
		Value *c[5] = {x, b_int(b, 0) /* uint8 */, b_bool(b, 0), b_bool(b, 0), b_none(b)};
		k = b_op(b, "aten.to.dtype", 5, c);
	}
	/* a: x[j] with j at dim + 1; bv: x[i] with i at dim */
	a = b_op2(b, "aten.unsqueeze", k, b_int(b, dim));
	bv = b_op2(b, "aten.unsqueeze", k, b_int(b, dim + 1));
	before = b_op2(b, desc ? "aten.gt.Tensor" : "aten.lt.Tensor", a, bv);
	tie = b_op2(b, "aten.eq.Tensor", a, bv);
	if (dt_isfloat(dt)) {
		Value *na = b_op1(b, "aten.isnan", a), *nb = b_op1(b, "aten.isnan", bv);
		/* ascending: numbers before NaN; descending: NaN before numbers */
		Value *nan_first = desc ? and_(b, na, b_op1(b, "aten.logical_not", nb))
		    : and_(b, nb, b_op1(b, "aten.logical_not", na));
		before = or_(b, before, nan_first);
		tie = or_(b, tie, and_(b, na, nb));
	}
	ai = arange_at(b, 0, n, r + 1, dim);
	aj = arange_at(b, 0, n, r + 1, dim + 1);
	before = or_(b, before, and_(b, tie, b_op2(b, "aten.lt.Tensor", aj, ai)));
	v[0] = before, v[1] = b_ints(b, 1, (int64_t[]){dim + 1}), v[2] = b_bool(b, 0);
	v[3] = b_none(b);
	rank = b_op(b, "aten.sum.dim_IntList", 4, v);            /* int64, i at dim */
	/* m[p, i] = rank[i] == p, p at dim, i at dim + 1 */
	m = b_op2(b, "aten.eq.Tensor", b_op2(b, "aten.unsqueeze", rank, b_int(b, dim)),
	    arange_at(b, lo, hi, r + 1, dim));
	w = b_op3(b, "aten.where.ScalarOther", m, aj, b_int(b, 0));
	v[0] = w;
	*idx = b_op(b, "aten.sum.dim_IntList", 4, v);
	if (vals) {
		Value *g[4] = {x, b_int(b, dim), *idx, b_bool(b, 0)};
		*vals = b_op(b, "aten.gather", 4, g);
	}
	return 1;
}

static int
extent(Value *x, int64_t dim, int64_t *n)
{
	int r = tt_rank(x->type);

	if (r < 1 || (dim = tt_dim(dim, r)) < 0 || x->type->dims[dim] == DYN)
		return 0;
	*n = x->type->dims[dim];
	return 1;
}

/* sort(x, dim, descending), sort.stable(x, stable, dim, descending) */
static int
sort_at(B *b, Op *op, int di)
{
	Value *x = OPND(op, 0), *res[2];
	int64_t dim, n;
	int desc;

	if (!tv_int(OPND(op, di), &dim) || !tv_bool(OPND(op, di + 1), &desc)
	    || !extent(x, dim, &n) || !sorted_places(b, x, dim, desc, 0, n, &res[0], &res[1]))
		return 0;
	torch_replace(b->c, op, res);
	return 1;
}

int d_sort(B *b, Op *op) { return sort_at(b, op, 1); }
int d_sort_stable(B *b, Op *op) { return sort_at(b, op, 2); }

/* argsort(x, dim, descending), argsort.stable(x, stable, dim, descending) */
static int
argsort_at(B *b, Op *op, int di)
{
	Value *x = OPND(op, 0), *idx;
	int64_t dim, n;
	int desc;

	if (!tv_int(OPND(op, di), &dim) || !tv_bool(OPND(op, di + 1), &desc)
	    || !extent(x, dim, &n) || !sorted_places(b, x, dim, desc, 0, n, NULL, &idx))
		return 0;
	d_done(b, op, idx);
	return 1;
}

int d_argsort(B *b, Op *op) { return argsort_at(b, op, 1); }
int d_argsort_stable(B *b, Op *op) { return argsort_at(b, op, 2); }

/* msort(x): sort along dim 0, the values */
int
d_msort(B *b, Op *op)
{
	Value *x = OPND(op, 0), *vals, *idx;
	int64_t n;

	if (!extent(x, 0, &n) || !sorted_places(b, x, 0, 0, 0, n, &vals, &idx))
		return 0;
	d_done(b, op, vals);
	return 1;
}

/* topk(x, k, dim, largest, sorted): places [0, k) of the sort, descending
 * when largest */
int
d_topk(B *b, Op *op)
{
	Value *x = OPND(op, 0), *res[2];
	int64_t k, dim, n;
	int largest, sorted;

	if (!tv_int(OPND(op, 1), &k) || !tv_int(OPND(op, 2), &dim)
	    || !tv_bool(OPND(op, 3), &largest) || !tv_bool(OPND(op, 4), &sorted)
	    || !extent(x, dim, &n) || k < 0 || k > n
	    || !sorted_places(b, x, dim, largest, 0, k, &res[0], &res[1]))
		return 0;
	torch_replace(b->c, op, res);
	return 1;
}

/* kthvalue(x, k, dim, keepdim): place k - 1 of the ascending sort */
int
d_kthvalue(B *b, Op *op)
{
	Value *x = OPND(op, 0), *res[2];
	int64_t k, dim, n;
	int keep, i;

	if (!tv_int(OPND(op, 1), &k) || !tv_int(OPND(op, 2), &dim)
	    || !tv_bool(OPND(op, 3), &keep) || !extent(x, dim, &n) || k < 1 || k > n
	    || !sorted_places(b, x, dim, 0, k - 1, k, &res[0], &res[1]))
		return 0;
	dim = tt_dim(dim, tt_rank(x->type));
	for (i = 0; i < 2 && !keep; i++)
		res[i] = b_op2(b, "aten.squeeze.dim", res[i], b_int(b, dim));
	torch_replace(b->c, op, res);
	return 1;
}
