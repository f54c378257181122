/*
 * batch.c - a function whose inputs have a dynamic batch (`?` at
 * dimension 0) compiled as static functions for chunks of the batch.
 *
 * Kernels and host programs are static.  A function is batch-separable
 * when item b of every result depends only on item b of the inputs; the
 * results of a batch of n are then those of chunks of 8 and of 1 items,
 * and the runtime runs the static chunk functions over the batch
 * (formats/fxvm.md, "Dynamic batch").  This file proves a function
 * separable on its linalg, or refuses it, and clones it at each size.
 *
 * The proof gives every value of the function's block one of:
 *   a tensor: its sizes and its batch axis, whose size is k * B (k rows
 *     per item; none: it does not depend on the batch);
 *   an integer: c * B^e, e 0 or 1;
 *   a condition: true exactly when lo <= B <= hi.
 * Every structured op maps one parallel loop to the batch axis of each
 * batched operand and nowhere else, reads unbatched operands not along
 * it and not its index; slices and pads keep the batch whole, reshapes
 * keep it first of its group (only sizes of 1 before it), and results
 * have it first, where the runtime slices them.  A check (cf.assert) on
 * sizes holds for every B or bounds B: the bounds are the function's
 * range, which the runtime checks on the whole batch, and a condition the
 * range decides is decided as the whole batch decides it.  A
 * batch-dependent integer used as data (a mean over the batch) is not
 * separable.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "dispatch.h"
#include "fold.h"
#include "named_ops.h"
#include "pass.h"

enum { B_TENSOR = 1, B_INT, B_COND, B_BAD };   /* BAD: of the batch, unknown how */

typedef struct BVal {
	int kind;
	int64_t c;      /* TENSOR: rows per item; INT: the coefficient */
	int e;          /* INT: the power of B, 0 or 1 */
	int64_t lo, hi; /* COND */
	int ax;         /* TENSOR: the batch's axis, -1 */
	int64_t *d;     /* TENSOR: its sizes, o * k at the batch's axis */
	int64_t o;      /* TENSOR: blocks of B * k items the batch's axis
	                   holds; 0 where every item is the same (a fill), any
	                   layout then */
} BVal;

typedef struct BA {
	Ctx *c;
	PMap m;         /* Value -> BVal */
	int64_t lo, hi; /* the batch's range */
} BA;

static const int64_t sizes_default[] = { 8, 1 };

static int refuse(Op *op, const char *why)
{
	op_error(op, "codegen: a dynamic batch is compiled only where every batch item is "
		"computed on its own: %s", why);
	return -1;
}

static BVal *get(BA *a, Value *v)
{
	return pmap_get(&a->m, v);
}

static BVal *put(BA *a, Value *v, int kind, int64_t c, int e)
{
	BVal *b = arena_alloc(a->c, sizeof *b);

	b->kind = kind, b->c = c, b->e = e;
	b->lo = INT64_MIN, b->hi = INT64_MAX;
	b->ax = -1;
	*pmap_slot(&a->m, v, 1) = b;
	return b;
}

static void put_cond(BA *a, Value *v, int64_t lo, int64_t hi)
{
	BVal *b = put(a, v, B_COND, 0, 0);

	b->lo = lo, b->hi = hi;
}

/* v as c * B^e: 1, or 0 where unknown (data). */
static int ival(BA *a, Value *v, int64_t *c, int *e)
{
	BVal *b = get(a, v);

	if (b && b->kind == B_INT)
		return *c = b->c, *e = b->e, 1;
	if (ty_isintlike(v->type) && value_int(v, c))
		return *e = 0, 1;
	return 0;
}

/* Whether v carries the batch: a batched tensor, an integer of B, a
 * condition on B. */
static int of_batch(BA *a, Value *v)
{
	BVal *b = get(a, v);

	return b && (b->kind == B_BAD || (b->kind == B_TENSOR && b->ax >= 0) || (b->kind == B_INT && b->e) ||
		(b->kind == B_COND && !(b->lo == INT64_MIN && b->hi == INT64_MAX) && b->lo <= b->hi));
}

/* An integer or condition op codegen cannot follow: of the batch if an
 * operand is (refused where it is used), else no size. */
static int unknown(BA *a, Op *op)
{
	for (int i = 0; i < op->nopnds; i++)
		if (of_batch(a, OPND(op, i))) {
			put(a, RES(op, 0), B_BAD, 0, 0);
			break;
		}
	return 0;
}

int64_t fdiv(int64_t a, int64_t b)
{
	int64_t q = a / b;

	return q - ((a % b) && ((a < 0) != (b < 0)));
}

int64_t cdiv(int64_t a, int64_t b)
{
	return -fdiv(-a, b);
}

/* ---- integers and conditions ----------------------------------------- */

/* cmpi's predicates: eq ne slt sle sgt sge ult ule ugt uge */
int cmp_const(int p, int64_t x, int64_t y)
{
	uint64_t u = (uint64_t)x, v = (uint64_t)y;

	switch (p) {
	case 0: return x == y;
	case 1: return x != y;
	case 2: return x < y;
	case 3: return x <= y;
	case 4: return x > y;
	case 5: return x >= y;
	case 6: return u < v;
	case 7: return u <= v;
	case 8: return u > v;
	default: return u >= v;
	}
}

/* k * B (k > 0) against q: the range of B where it holds; -1 where that
 * is no range. */
static int cmp_range(int p, int64_t k, int64_t q, int64_t *lo, int64_t *hi)
{
	*lo = INT64_MIN, *hi = INT64_MAX;
	if (p >= 6) {
		if (q < 0)
			return -1;   /* B >= 0: unsigned and signed agree from 0 up */
		p -= 4;
	}
	switch (p) {
	case 2: *hi = cdiv(q, k) - 1; return 0;
	case 3: *hi = fdiv(q, k); return 0;
	case 4: *lo = fdiv(q, k) + 1; return 0;
	case 5: *lo = cdiv(q, k); return 0;
	}
	return -1;
}

static int cmpi(BA *a, Op *op)
{
	/* the predicate with its operands swapped */
	static const int swapped[] = { 0, 1, 4, 5, 2, 3, 8, 9, 6, 7 };
	int64_t x, y, lo, hi;
	int ex, ey, p = (int)op_attr(op, "predicate")->i;

	if (!ival(a, OPND(op, 0), &x, &ex) || !ival(a, OPND(op, 1), &y, &ey))
		return unknown(a, op);
	if (!ex && !ey) {
		int t = cmp_const(p, x, y);

		put_cond(a, RES(op, 0), t ? INT64_MIN : 1, t ? INT64_MAX : 0);
		return 0;
	}
	if (ex && ey) {
		int t;

		if (x != y)
			return unknown(a, op);
		t = p == 0 || p == 3 || p == 5 || p == 7 || p == 9;
		put_cond(a, RES(op, 0), t ? INT64_MIN : 1, t ? INT64_MAX : 0);
		return 0;
	}
	if (ey) {
		int64_t t = x;

		x = y, y = t, p = swapped[p];
	}
	if (x <= 0 || cmp_range(p, x, y, &lo, &hi))
		return unknown(a, op);
	/* the batch's range so far (the checks before op hold here) decides
	 * it, or it bounds the batch */
	if (lo <= a->lo && hi >= a->hi)
		lo = INT64_MIN, hi = INT64_MAX;
	else if (hi < a->lo || lo > a->hi)
		lo = 1, hi = 0;
	put_cond(a, RES(op, 0), lo, hi);
	return 0;
}

/* select on a condition known for every batch: the operand it picks. */
static int select_int(BA *a, Op *op)
{
	BVal *b = get(a, OPND(op, 0));
	int64_t c;
	int e;

	if (!b || b->kind != B_COND || of_batch(a, OPND(op, 0)))
		return unknown(a, op);
	if (ival(a, OPND(op, b->lo <= b->hi ? 1 : 2), &c, &e))
		put(a, RES(op, 0), B_INT, c, e);
	else if (of_batch(a, OPND(op, b->lo <= b->hi ? 1 : 2)))
		put(a, RES(op, 0), B_BAD, 0, 0);
	return 0;
}

static int logic(BA *a, Op *op)
{
	BVal *x = get(a, OPND(op, 0)), *y = get(a, OPND(op, 1));

	if (!x || !y || x->kind != B_COND || y->kind != B_COND)
		return unknown(a, op);
	if (op_is(op, "arith.andi")) {
		put_cond(a, RES(op, 0), x->lo > y->lo ? x->lo : y->lo, x->hi < y->hi ? x->hi : y->hi);
		return 0;
	}
	if (!of_batch(a, OPND(op, 0)) && !of_batch(a, OPND(op, 1))) {
		int t = (x->lo <= x->hi) || (y->lo <= y->hi);

		put_cond(a, RES(op, 0), t ? INT64_MIN : 1, t ? INT64_MAX : 0);
		return 0;
	}
	return unknown(a, op);
}

/* An integer op of constants x and y, folded where it is one of sizes. */
static int const_int(BA *a, Op *op, const char *n, int64_t x, int64_t y)
{
	int64_t r;

	if (ty_bitwidth(RES(op, 0)->type) != 64)
		return 0;
	if (!strcmp(n, "muli"))
		r = (int64_t)((uint64_t)x * (uint64_t)y);
	else if (!strcmp(n, "addi"))
		r = (int64_t)((uint64_t)x + (uint64_t)y);
	else if (!strcmp(n, "subi"))
		r = (int64_t)((uint64_t)x - (uint64_t)y);
	else if (!strcmp(n, "minsi"))
		r = x < y ? x : y;
	else if (!strcmp(n, "maxsi"))
		r = x > y ? x : y;
	else if (y > 0 && !strcmp(n, "divsi"))
		r = x / y;
	else if (y > 0 && !strcmp(n, "floordivsi"))
		r = fdiv(x, y);
	else if (y > 0 && !strcmp(n, "ceildivsi"))
		r = cdiv(x, y);
	else
		return 0;   /* not one of sizes: codegen's kernels compute it */
	put(a, RES(op, 0), B_INT, r, 0);
	return 0;
}

/* The integer ops of sizes: the result as c * B^e. */
static int arith_int(BA *a, Op *op)
{
	const char *n = op->name + 6;
	int64_t x, y, r;
	int ex, ey;

	if (!ival(a, OPND(op, 0), &x, &ex))
		return unknown(a, op);
	if (op->nopnds == 1) {   /* casts */
		if (strcmp(n, "index_cast") && strcmp(n, "index_castui") && strcmp(n, "extsi") &&
				strcmp(n, "extui"))
			return unknown(a, op);
		put(a, RES(op, 0), B_INT, x, ex);
		return 0;
	}
	if (!ival(a, OPND(op, 1), &y, &ey))
		return unknown(a, op);
	if (!ex && !ey)
		return const_int(a, op, n, x, y);
	if (!strcmp(n, "muli")) {
		if (ex && ey)
			return unknown(a, op);
		if (__builtin_mul_overflow(x, y, &r))
			return unknown(a, op);
		put(a, RES(op, 0), B_INT, r, 1);
		return 0;
	}
	if (!strcmp(n, "addi") || !strcmp(n, "subi")) {
		int sub = n[0] == 's';

		if (ex != ey) {
			if ((ex ? y : x) != 0 || (sub && ey))
				return unknown(a, op);
			put(a, RES(op, 0), B_INT, ex ? x : y, 1);
			return 0;
		}
		r = sub ? x - y : x + y;
		put(a, RES(op, 0), B_INT, r, r != 0);
		return 0;
	}
	if (!strcmp(n, "divsi") || !strcmp(n, "divui") || !strcmp(n, "floordivsi") ||
			!strcmp(n, "ceildivsi") || !strcmp(n, "ceildivui")) {
		if (ey || y <= 0 || x % y)
			return unknown(a, op);
		put(a, RES(op, 0), B_INT, x / y, 1);
		return 0;
	}
	if (!strcmp(n, "remsi") || !strcmp(n, "remui")) {
		if (ey || y <= 0 || x % y)
			return unknown(a, op);
		put(a, RES(op, 0), B_INT, 0, 0);
		return 0;
	}
	if (!strcmp(n, "minsi") || !strcmp(n, "maxsi")) {
		/* min(k B, q) with q past k times the range's top: k B */
		int mn = n[1] == 'i';

		if (ex && ey)
			return x == y ? (put(a, RES(op, 0), B_INT, x, 1), 0) : unknown(a, op);
		if (ey) {
			int64_t t = x;

			x = y, y = t;
		}
		if (x > 0 && ((mn && y / x >= a->hi) || (!mn && y <= 0))) {
			put(a, RES(op, 0), B_INT, x, 1);
			return 0;
		}
		return unknown(a, op);
	}
	return unknown(a, op);
}

/* ---- tensors ---------------------------------------------------------- */

/* Tensor v's sizes, its rank of them, and its batch axis *ax (-1: none),
 * where the size is k, the rows per item (the dimension is k * B); NULL
 * where codegen does not know them. */
static const int64_t *dims(BA *a, Value *v, int *ax)
{
	BVal *b = get(a, v);
	Type *t = v->type;

	*ax = -1;
	if (b && b->kind == B_TENSOR)
		return *ax = b->ax, b->d;
	return t->kind == TY_TENSOR && t->ranked && ty_static(t) ? t->dims : NULL;
}

/* Tensor v's blocks (BVal.o); 1 for one without a BVal. */
static int64_t outer(BA *a, Value *v)
{
	BVal *b = get(a, v);

	return b && b->kind == B_TENSOR ? b->o : 1;
}

/* The blocks of two operands that meet: the same, or one of any layout;
 * -1 where they differ. */
static int64_t meet(int64_t o1, int64_t o2)
{
	return !o1 ? o2 : !o2 || o1 == o2 ? o1 : -1;
}

/* v's sizes d with the batch at axis ax, checked against its type: a
 * static size where the type has one, `?` at the batch. */
static int put_tensor(BA *a, Op *op, Value *v, int ax, const int64_t *d, int64_t o)
{
	Type *t = v->type;
	BVal *b;

	if (!d)
		return refuse(op, "sizes codegen does not know");
	for (int i = 0; i < t->rank; i++) {
		if (i == ax && t->dims[i] != DYN)
			return refuse(op, "a static size computed from the batch");
		if (i != ax && (d[i] < 0 || (t->dims[i] != DYN && t->dims[i] != d[i])))
			return refuse(op, "a size that differs from its type");
	}
	b = put(a, v, B_TENSOR, ax >= 0 ? d[ax] : 0, 0);
	b->ax = ax, b->o = o;
	b->d = arena_alloc(a->c, sizeof *b->d * (size_t)(t->rank + 1));
	memcpy(b->d, d, sizeof *d * (size_t)t->rank);
	return 0;
}

static int64_t prod(const int64_t *d, int from, int to)
{
	int64_t p = 1;

	for (int i = from; i < to; i++)
		p *= d[i];
	return p;
}

/* Entry i of the mixed list `name` (static_offsets...) of a slice or pad
 * whose operands after the first `prefix` are the lists' dynamic entries,
 * in the order of names[]. */
static int mixed(BA *a, Op *op, int prefix, const char *const *names, int which, int i,
	int64_t *c, int *e)
{
	int k = prefix, w;
	Attr *at;

	for (w = 0; w <= which; w++) {
		if (!(at = op_attr(op, names[w])) || at->kind != AT_DENSE_ARRAY)
			return 0;
		for (size_t j = 0; j < at->n; j++) {
			if (w == which && (int)j == i) {
				if (at->ints[j] != INT64_MIN)
					return *c = at->ints[j], *e = 0, 1;
				return k < op->nopnds && ival(a, OPND(op, k), c, e);
			}
			k += at->ints[j] == INT64_MIN;
		}
	}
	return 0;
}

const char *const slice_lists[3] = { "static_offsets", "static_sizes", "static_strides" };
const char *const pad_lists[2] = { "static_low", "static_high" };

int slice_dropped(Op *op, const Type *big, const Type *small, uint64_t *mask)
{
	Attr *st = op_attr(op, slice_lists[1]);
	int k = 0;

	*mask = 0;
	if (!st || st->kind != AT_DENSE_ARRAY || st->n != (size_t)big->rank || big->rank > 64)
		return -1;
	for (int i = 0; i < big->rank; i++) {
		int64_t want = k < small->rank ? (small->dims[k] == DYN ? INT64_MIN : small->dims[k]) : 0;

		if (k < small->rank && st->ints[i] == want) {
			k++;
			continue;
		}
		if (st->ints[i] != 1)
			return -1;
		*mask |= 1ull << i;
	}
	return k == small->rank ? 0 : -1;
}
static const char *const shape_list[] = { "static_output_shape" };

/* A slice (prefix 1: extract, 2: insert) over a tensor of rank r with the
 * batch at axis ax (k rows per item): the batch whole, every other entry
 * constant; its sizes into sz. */
static int slice_sizes(BA *a, Op *op, int prefix, int r, int ax, int64_t k, int64_t *sz)
{
	for (int which = 0; which < 3; which++)
		for (int i = 0; i < r; i++) {
			int64_t c;
			int e;

			if (!mixed(a, op, prefix, slice_lists, which, i, &c, &e))
				return refuse(op, "a slice whose bounds codegen does not know");
			if (i != ax ? e != 0 : which == 1 ? (e != 1 || c != k) : (e || c != which / 2))
				return refuse(op, "a slice that takes part of the batch");
			if (which == 1)
				sz[i] = i == ax ? k : c;
		}
	return 0;
}

static int extract_slice(BA *a, Op *op)
{
	int ax, r = OPND(op, 0)->type->rank, n = 0;
	uint64_t dropped;
	const int64_t *sd = dims(a, OPND(op, 0), &ax);
	int64_t *sz = arena_alloc(a->c, sizeof *sz * (size_t)(r + 1));
	int nax = -1;

	if (!sd)
		return refuse(op, "sizes codegen does not know");
	if (slice_sizes(a, op, 1, r, ax, ax >= 0 ? sd[ax] : 0, sz))
		return -1;
	/* a rank-reducing slice drops sizes of 1, as MLIR matches them (the
	 * batch's place among the rest depends on which) */
	if (slice_dropped(op, OPND(op, 0)->type, RES(op, 0)->type, &dropped) ||
			(ax >= 0 && (dropped >> ax & 1)))
		return refuse(op, "a rank-reducing slice codegen does not know");
	for (int i = 0; i < r; i++) {
		if (dropped >> i & 1)
			continue;
		if (i == ax)
			nax = n;
		sz[n++] = sz[i];
	}
	return put_tensor(a, op, RES(op, 0), nax, sz, outer(a, OPND(op, 0)));
}

static int insert_slice(BA *a, Op *op)
{
	int sax, ax, r = OPND(op, 1)->type->rank;
	const int64_t *sd = dims(a, OPND(op, 0), &sax), *dd = dims(a, OPND(op, 1), &ax);
	int64_t *sz = arena_alloc(a->c, sizeof *sz * (size_t)(r + 1));

	if (!sd || !dd)
		return refuse(op, "sizes codegen does not know");
	if (sax >= 0 && (ax < 0 || sd[sax] != dd[ax]))
		return refuse(op, "a slice inserted across batch items");
	if (ax >= 0 && sax < 0)
		return refuse(op, "the same slice inserted into every batch item");
	if (slice_sizes(a, op, 2, r, ax, ax >= 0 ? dd[ax] : 0, sz))
		return -1;
	if (meet(outer(a, OPND(op, 0)), outer(a, OPND(op, 1))) < 0)
		return refuse(op, "a slice inserted across batch items");
	return put_tensor(a, op, RES(op, 0), ax, dd, meet(outer(a, OPND(op, 0)), outer(a, OPND(op, 1))));
}

static int pad(BA *a, Op *op)
{
	int ax, r = OPND(op, 0)->type->rank;
	const int64_t *sd = dims(a, OPND(op, 0), &ax);
	int64_t *d = arena_alloc(a->c, sizeof *d * (size_t)(r + 1)), c;
	int e;

	if (!sd)
		return refuse(op, "sizes codegen does not know");
	for (int i = 0; i < r; i++) {
		d[i] = sd[i];
		for (int w = 0; w < 2; w++) {
			if (!mixed(a, op, 1, pad_lists, w, i, &c, &e) || e || (i == ax && c))
				return refuse(op, "a pad of the batch");
			d[i] += c;
		}
	}
	return put_tensor(a, op, RES(op, 0), ax, d, outer(a, OPND(op, 0)));
}

/* Group g of a reshape's reassociation: its first dim and count. */
int group(Op *op, int g, int *first, int *n)
{
	Attr *re = op_attr(op, "reassociation");

	if (!re || re->kind != AT_ARRAY || (size_t)g >= re->n || re->elts[g]->kind != AT_ARRAY ||
			!re->elts[g]->n || re->elts[g]->elts[0]->kind != AT_INT)
		return -1;
	*first = (int)re->elts[g]->elts[0]->i, *n = (int)re->elts[g]->n;
	return 0;
}

/* collapse_shape: each group's product; the batch's group keeps it first
 * (only sizes of 1 before it), k times what follows it rows per item. */
static int collapse(BA *a, Op *op)
{
	int ax, nax = -1, rr = RES(op, 0)->type->rank, f, n;
	const int64_t *sd = dims(a, OPND(op, 0), &ax);
	int64_t *d = arena_alloc(a->c, sizeof *d * (size_t)(rr + 1)), o = outer(a, OPND(op, 0));

	if (!sd)
		return refuse(op, "sizes codegen does not know");
	for (int g = 0; g < rr; g++) {
		if (group(op, g, &f, &n))
			return refuse(op, "a reshape codegen does not know");
		d[g] = prod(sd, f, f + n);
		if (ax >= f && ax < f + n)
			nax = g, o *= prod(sd, f, ax);   /* the sizes before it: blocks */
	}
	return put_tensor(a, op, RES(op, 0), nax, d, o);
}

/* expand_shape: the batch's dimension to the `?` of its group, first but
 * for sizes of 1; another group's `?` the rest of its source size. */
static int expand(BA *a, Op *op)
{
	Type *rt = RES(op, 0)->type;
	int ax, nax = -1, sr = OPND(op, 0)->type->rank, f, n;
	const int64_t *sd = dims(a, OPND(op, 0), &ax);
	int64_t *d = arena_alloc(a->c, sizeof *d * (size_t)(rt->rank + 1)), c, o = outer(a, OPND(op, 0));
	int e;

	if (!sd)
		return refuse(op, "sizes codegen does not know");
	memcpy(d, rt->dims, sizeof *d * (size_t)rt->rank);
	for (int g = 0; g < sr; g++) {
		int64_t p = 1;
		int q = -1;

		if (group(op, g, &f, &n))
			return refuse(op, "a reshape codegen does not know");
		for (int i = f; i < f + n; i++)
			if (rt->dims[i] == DYN && q < 0)
				q = i;
			else if (rt->dims[i] == DYN)
				return refuse(op, "a reshape codegen does not know");
			else
				p *= rt->dims[i];
		if (g == ax) {
			/* the sizes before the `?` split the blocks, those after
			 * it the rows of an item */
			int64_t p1 = q < 0 ? 0 : prod(rt->dims, f, q), p2 = p1 ? p / p1 : 0;

			if (q < 0 || p <= 0 || (o && (o % p1 || (sd[g] / o) % p2)))
				return refuse(op, "a reshape that splits the batch's items");
			nax = q;
			o = o ? o / p1 : 0;
		}
		if (q >= 0) {
			if (p <= 0 || sd[g] % p)
				return refuse(op, "a reshape that splits the batch's items");
			d[q] = sd[g] / p;
		}
	}
	for (int i = 0; i < rt->rank && op->nopnds > 1; i++)
		if (!mixed(a, op, 1, shape_list, 0, i, &c, &e) || e != (i == nax) || c != d[i])
			return refuse(op, "a reshape to sizes codegen does not know");
	return put_tensor(a, op, RES(op, 0), nax, d, o);
}

/* tensor.reshape to the sizes of a from_elements: row-major, so the same
 * as collapsing to one dimension and expanding that. */
static int reshape(BA *a, Op *op)
{
	Type *rt = RES(op, 0)->type;
	Op *fe = OPND(op, 1)->def;
	int ax, nax = -1, sr = OPND(op, 0)->type->rank;
	const int64_t *sd = dims(a, OPND(op, 0), &ax);
	int64_t *d = arena_alloc(a->c, sizeof *d * (size_t)(rt->rank + 1)), c, o = outer(a, OPND(op, 0));
	int e;

	if (!sd || !fe || !op_is(fe, "tensor.from_elements") || fe->nopnds != rt->rank)
		return refuse(op, "a reshape to sizes codegen does not know");
	for (int i = 0; i < fe->nopnds; i++) {
		if (!ival(a, OPND(fe, i), &c, &e) || c < 0 || (e && nax >= 0))
			return refuse(op, "a reshape to sizes codegen does not know");
		d[i] = c;
		if (e)
			nax = i;
	}
	if ((ax >= 0) != (nax >= 0) || prod(sd, 0, sr) != prod(d, 0, rt->rank))
		return refuse(op, "a reshape that splits the batch's items");
	if (o && ax >= 0) {
		/* as one row: blocks o times the sizes before the batch, items
		 * of k times those after; the result's sizes before and after
		 * its batch split those */
		int64_t ob = o * prod(sd, 0, ax), k = sd[ax] / o * prod(sd, ax + 1, sr);
		int64_t p1 = prod(d, 0, nax), p2 = prod(d, nax + 1, rt->rank);

		if (!p1 || !p2 || ob % p1 || k % p2)
			return refuse(op, "a reshape that splits the batch's items");
		o = ob / p1;
	}
	return put_tensor(a, op, RES(op, 0), nax, d, o);
}

/* tensor.empty: its type's sizes, the `?` ones from its operands (the
 * batch's a multiple of B). */
static int empty(BA *a, Op *op)
{
	Type *t = RES(op, 0)->type;
	int64_t *d = arena_alloc(a->c, sizeof *d * (size_t)(t->rank + 1)), c;
	int ax = -1, k = 0, e;

	for (int i = 0; i < t->rank; i++) {
		d[i] = t->dims[i];
		if (d[i] != DYN)
			continue;
		if (k >= op->nopnds || !ival(a, OPND(op, k++), &c, &e) || c < 0 || (e && ax >= 0))
			return refuse(op, "a tensor sized other than by the batch");
		d[i] = c;
		if (e)
			ax = i;
	}
	return put_tensor(a, op, RES(op, 0), ax, d, 0);   /* uninitialized: any layout */
}

/* Whether o, in the region of structured op top, reads operand i, a
 * batched tensor from outside, within the item it computes: the source
 * of a tensor.extract whose index at the batch's axis is the index of
 * the loop over the batch's axis of top's every result, at the same rows
 * per item, in blocks of one (a gather at data indices inside each
 * item's rows). */
static int item_extract(BA *a, Op *top, Op *o, int i)
{
	Value *v = OPND(o, i);
	const int64_t *ds, *dout;
	LinalgView s;
	Op *ix;
	Attr *dim;
	int axs, axo;

	if (i != 0 || !op_is(o, "tensor.extract") || !(ds = dims(a, v, &axs)) || axs < 0 ||
			o->nopnds != v->type->rank + 1 || outer(a, v) != 1 ||
			!top->info || !(top->info->traits & TR_STRUCTURED) || linalg_maps(a->c, top, &s))
		return 0;
	ix = OPND(o, axs + 1)->def;
	if (!ix || !op_is(ix, "linalg.index") || block_parent_op(ix->parent) != top ||
			!(dim = op_attr(ix, "dim")) || dim->kind != AT_INT)
		return 0;
	for (int q = 0; q < s.nout; q++) {
		Value *init = OPND(top, s.nin + q);
		AffExpr *x;

		if (!(dout = dims(a, init, &axo)) || axo < 0 || (outer(a, init) != 0 && outer(a, init) != 1) ||
				dout[axo] != ds[axs])
			return 0;
		x = s.maps[s.nin + q]->res[axo];
		if (x->kind != AFF_DIM || x->v != dim->i)
			return 0;
	}
	return s.nout > 0;
}

/* Whether a region of top reads a batched tensor by item_extract. */
static int item_extracts(BA *a, Op *top, Op *in)
{
	for (int r = 0; r < in->nregs; r++)
		for (Block *b = in->regs[r].first; b; b = b->next)
			for (Op *o = b->first; o; o = o->next) {
				if (o->nopnds && OPND(o, 0)->type->kind == TY_TENSOR &&
						(OPND(o, 0)->def ? OPND(o, 0)->def->parent : OPND(o, 0)->block) ==
						top->parent && item_extract(a, top, o, 0))
					return 1;
				if (item_extracts(a, top, o))
					return 1;
			}
	return 0;
}

/* Nothing of the batch read inside op's regions but what its operands
 * bring in: no batched tensor, size or condition captured, but a gather
 * within the item (item_extract). */
static int no_captures(BA *a, Op *top, Op *in)
{
	for (int r = 0; r < in->nregs; r++)
		for (Block *b = in->regs[r].first; b; b = b->next)
			for (Op *o = b->first; o; o = o->next) {
				for (int i = 0; i < o->nopnds; i++) {
					Value *v = OPND(o, i);

					if ((v->def ? v->def->parent : v->block) == top->parent && of_batch(a, v) &&
							!item_extract(a, top, o, i))
						return refuse(o, "a region reads the batch");
				}
				if (no_captures(a, top, o))
					return -1;
			}
	return 0;
}

static int same_sizes(BA *a, Op *op, Value *from, Value *to)
{
	int ax;
	const int64_t *d = dims(a, from, &ax);

	return put_tensor(a, op, to, ax, d, outer(a, from));
}

/* The value of one op of the function's block. */
static int analyze_op(BA *a, Op *op)
{
	const char *n = op->name;
	int i, ax;

	if (no_captures(a, op, op))
		return -1;
	if (op_is(op, "arith.constant") || op_is(op, "tensor.from_elements"))
		return 0;   /* from_elements: read by the reshape that uses it */
	if (op_is(op, "tensor.dim")) {
		Type *t = OPND(op, 0)->type;
		const int64_t *d = dims(a, OPND(op, 0), &ax);
		int64_t k;

		if (!value_int(OPND(op, 1), &k) || k < 0 || k >= t->rank)
			return refuse(op, "a size of an unknown dimension");
		if (d)
			put(a, RES(op, 0), B_INT, d[k], k == ax);
		return 0;
	}
	if (!strcmp(n, "arith.cmpi"))
		return cmpi(a, op);
	if (op_is(op, "arith.andi") || op_is(op, "arith.ori")) {
		if (RES(op, 0)->type->kind == TY_INT && RES(op, 0)->type->width == 1)
			return logic(a, op);
		return arith_int(a, op);
	}
	if (op_is(op, "arith.select") && ty_isintlike(RES(op, 0)->type))
		return select_int(a, op);
	if (!strncmp(n, "arith.", 6) && op->nres == 1 && ty_isintlike(RES(op, 0)->type) &&
			op->nopnds >= 1 && op->nopnds <= 2)
		return arith_int(a, op);
	if (op_is(op, "cf.assert")) {
		BVal *b = get(a, OPND(op, 0));

		if (of_batch(a, OPND(op, 0)) && b->kind != B_COND)
			return refuse(op, "a check on the batch other than its range");
		if (!b || b->kind != B_COND)
			return 0;
		if (b->lo > a->lo)
			a->lo = b->lo;
		if (b->hi < a->hi)
			a->hi = b->hi;
		if (a->lo > a->hi)
			return refuse(op, "this check fails for every batch");
		return 0;
	}
	if (op_is(op, "tensor.empty"))
		return empty(a, op);
	if (op->info && (op->info->traits & TR_STRUCTURED)) {
		for (i = 0; i < op->nopnds; i++)
			if (OPND(op, i)->type->kind != TY_TENSOR && of_batch(a, OPND(op, i)))
				return refuse(op, "a size of the batch read as data");
		/* the batched operands' blocks meet in the results */
		int64_t o = 0;

		for (i = 0; i < op->nopnds; i++)
			if (dims(a, OPND(op, i), &ax) && ax >= 0 && (o = meet(o, outer(a, OPND(op, i)))) < 0)
				return refuse(op, "its operands hold the batch's items in different layouts");
		if (item_extracts(a, op, op) && (o = meet(o, 1)) < 0)
			return refuse(op, "its operands hold the batch's items in different layouts");
		for (i = 0; i < op->nres; i++) {
			Value *init = OPND(op, op->nopnds - op->nres + i);
			const int64_t *d = dims(a, init, &ax);

			if (put_tensor(a, op, RES(op, i), ax, d, o))
				return -1;
		}
		return 0;
	}
	if (op_is(op, "tensor.cast") || is_same_index_view(op))
		return same_sizes(a, op, OPND(op, 0), RES(op, 0));
	if (op_is(op, "tensor.expand_shape"))
		return expand(a, op);
	if (op_is(op, "tensor.collapse_shape"))
		return collapse(a, op);
	if (op_is(op, "tensor.reshape"))
		return reshape(a, op);
	if (op_is(op, "tensor.pad"))
		return pad(a, op);
	if (op_is(op, "tensor.extract_slice"))
		return extract_slice(a, op);
	if (op_is(op, "tensor.insert_slice"))
		return insert_slice(a, op);
	if (op_is(op, "func.return")) {
		for (i = 0; i < op->nopnds; i++)
			if (!dims(a, OPND(op, i), &ax) || ax != 0 || outer(a, OPND(op, i)) > 1)
				return refuse(op, ax < 0 ? "a result that does not depend on the batch" :
					ax ? "a result whose batch is not its first dimension" :
					"a result whose batch items are interleaved with other rows");
		return 0;
	}
	for (i = 0; i < op->nopnds; i++)
		if (of_batch(a, OPND(op, i))) {
			op_error(op, "codegen: a dynamic batch is compiled only where every batch item "
				"is computed on its own: '%s' reads the batch", op->name);
			return -1;
		}
	for (i = 0; i < op->nres; i++)
		if (RES(op, i)->type->kind == TY_TENSOR && !ty_static(RES(op, i)->type))
			return refuse(op, "sizes codegen does not know");
	return 0;
}

static int analyze(BA *a, Op *fn)
{
	Block *b = fn->regs[0].first;

	a->lo = 0, a->hi = INT64_MAX;
	for (int i = 0; i < b->nargs; i++) {
		Type *t = b->args[i]->type;
		int64_t *d;

		if (t->kind != TY_TENSOR || !t->ranked)
			return op_error(fn, "function arguments must be tensors"), -1;
		for (int j = 1; j < t->rank; j++)
			if (t->dims[j] == DYN)
				return op_error(fn, "codegen: dynamic dimensions other than a batch "
					"(dimension 0) are not supported yet: dimension %d of argument %d",
					j, i), -1;
		if (!t->rank || t->dims[0] != DYN)
			continue;
		d = arena_alloc(a->c, sizeof *d * (size_t)t->rank);
		memcpy(d, t->dims, sizeof *d * (size_t)t->rank);
		d[0] = 1;
		if (put_tensor(a, fn, b->args[i], 0, d, 1))
			return -1;
	}
	for (Op *op = b->first; op; op = op->next)
		if (analyze_op(a, op))
			return -1;
	return 0;
}

/* ---- the chunk functions ---------------------------------------------- */

/* Whether linalg.index op idx, in top's region, is read only as the
 * batch's index of gathers within the item (item_extract): in a chunk, the
 * index of the item in the chunk, of a source that is the chunk's too. */
static int item_index(BA *a, Op *top, Op *idx)
{
	for (Use *u = RES(idx, 0)->uses; u; u = u->next) {
		Op *x = u->owner;
		int ax;

		if (!op_is(x, "tensor.extract") || !item_extract(a, top, x, 0) ||
				!dims(a, OPND(x, 0), &ax) || (int)(u - x->opnds) != ax + 1)
			return 0;
	}
	return 1;
}

/* A structured op of the clone: the batch one parallel loop, mapped to
 * the batch's axis of each batched operand (axs, -1 for none; ks their
 * rows per item) and nowhere else, not read by its body's linalg.index
 * but as item_index (orig: the op it is a clone of, a's). */
static int separable(BA *a, Ctx *c, Op *orig, Op *op, const int *axs, const int64_t *ks,
	int64_t size)
{
	LinalgView s;
	int d = -1, i, j;

	if (op_is(op, "linalg.fill"))
		return 0;   /* every element the same scalar */
	if (!linalg_viewable(op))
		return refuse(op, "a structured op codegen does not know");
	if (linalg_view(c, op, &s))
		return -1;
	for (i = 0; i < op->nopnds; i++) {
		AffMap *m = s.maps[i];
		AffExpr *x;

		if (axs[i] < 0)
			continue;
		x = m->res[axs[i]];
		if (x->kind != AFF_DIM || (d >= 0 && x->v != d))
			return refuse(op, "its loops do not keep the batch's items apart");
		d = (int)x->v;
		if (s.red[d] || s.ext[d] != ks[i] * size)
			return refuse(op, "it reduces over the batch");
		for (j = 0; j < m->nres; j++)
			if (j != axs[i] && aff_uses_dim(m->res[j], d))
				return refuse(op, "it reads the batch along another dimension");
	}
	if (d < 0)
		return 0;
	for (i = 0; i < op->nopnds; i++)
		if (axs[i] < 0 && (i >= s.nin || map_uses_dim(s.maps[i], d)))
			return refuse(op, "its loops do not keep the batch's items apart");
	if (s.body == BODY_REGION && orig->nregs)
		for (Op *o = orig->regs[0].first->first; o; o = o->next)
			if (op_is(o, "linalg.index") && op_attr(o, "dim")->i == d && !item_index(a, orig, o))
				return refuse(op, "its body reads the batch's index");
	return 0;
}

/* Dynamic entries of a slice's or pad's lists (of a reshape's output
 * shape) replaced by their operands where those are constants; the
 * others stay operands. */
void fold_lists(Ctx *c, Op *op, int prefix, const char *const *names, int nnames)
{
	Value **keep = arena_alloc(c, sizeof *keep * (size_t)(op->nopnds + 1));
	int64_t segs[5];
	int k = prefix, nk = 0, i;

	for (i = 0; i < prefix; i++)
		keep[nk++] = OPND(op, i), segs[i] = 1;
	for (i = 0; i < nnames; i++) {
		Attr *at = op_attr(op, names[i]);
		int64_t *v;

		segs[prefix + i] = 0;
		if (!at)
			continue;
		v = arena_alloc(c, sizeof *v * (at->n + 1));
		for (size_t j = 0; j < at->n; j++)
			if ((v[j] = at->ints[j]) == INT64_MIN) {
				Value *x = OPND(op, k++);

				if (!value_int(x, &v[j])) {
					v[j] = INT64_MIN;
					keep[nk++] = x;
					segs[prefix + i]++;
				}
			}
		op_set_attr(c, op, names[i], at_dense_array(c, ty_int(c, 64, SIGNLESS), (int)at->n, v));
	}
	if (op_attr(op, "operand_segment_sizes"))
		op_set_attr(c, op, "operand_segment_sizes",
			at_dense_array(c, ty_int(c, 32, SIGNLESS), prefix + nnames, segs));
	op_set_operands(c, op, nk, keep);
}

/* Reassociation [[f[0], f[1]), [f[1], f[2]), ...] of n groups. */
static Attr *groups_attr(Ctx *c, const int *f, int n)
{
	Attr **g = arena_alloc(c, sizeof *g * (size_t)(n + 1));

	for (int k = 0; k < n; k++) {
		Attr **e = arena_alloc(c, sizeof *e * (size_t)(f[k + 1] - f[k] + 1));

		for (int i = f[k]; i < f[k + 1]; i++)
			e[i - f[k]] = at_int(c, i, NULL);
		g[k] = at_array(c, f[k + 1] - f[k], e);
	}
	return at_array(c, n, g);
}

/* The coarsest shape both s and r refine, as group bounds fs into s and
 * fr into r (each group's sizes of the same product, none empty); its
 * rank, or 1 (one group) where a size is 0. */
static int common_groups(const Type *s, const Type *r, int *fs, int *fr)
{
	int i = 0, j = 0, n = 0;

	for (int k = 0; k < s->rank; k++)
		if (!s->dims[k])
			goto one;
	fs[0] = fr[0] = 0;
	while (i < s->rank || j < r->rank) {
		int64_t ps = i < s->rank ? s->dims[i++] : 1, pr = j < r->rank ? r->dims[j++] : 1;

		while (ps != pr) {
			if (ps < pr && i < s->rank)
				ps *= s->dims[i++];
			else if (pr < ps && j < r->rank)
				pr *= r->dims[j++];
			else
				goto one;
		}
		if ((i == fs[n] || j == fr[n]) && n) {
			fs[n] = i, fr[n] = j;   /* sizes of 1 left on one side: into the last group */
			continue;
		}
		n++;
		fs[n] = i, fr[n] = j;
	}
	if (n && fs[1] && fr[1])
		return n;
one:
	fs[0] = fr[0] = 0, fs[1] = s->rank, fr[1] = r->rank;
	return 1;
}

/* A static tensor.reshape as codegen's views: collapsed to the coarsest
 * shape both refine, expanded to the result's, so that the dimensions it
 * keeps stay dimensions (through one flat dimension the kernels' indices
 * would divide and take remainders, and a broadcast would no longer show). */
void reshape_views(Ctx *c, Op *op)
{
	Value *v = OPND(op, 0);
	Type *st = v->type, *rt = RES(op, 0)->type, *mt;
	size_t m = (size_t)(st->rank + rt->rank + 2);
	int *fs = arena_alloc(c, sizeof *fs * m), *fr = arena_alloc(c, sizeof *fr * m), n;
	int64_t *d = arena_alloc(c, sizeof *d * m);

	n = common_groups(st, rt, fs, fr);
	for (int k = 0; k < n; k++)
		d[k] = prod(st->dims, fs[k], fs[k + 1]);
	mt = ty_tensor(c, n, d, st->elem);
	if (n != st->rank) {
		Op *col = op_new(c, "tensor.collapse_shape", 1, &v, 1, &mt, 0, op->loc);

		op_set_attr(c, col, "reassociation", groups_attr(c, fs, n));
		op_insert_before(op, col);
		v = RES(col, 0);
	}
	if (n != rt->rank) {
		Op *exp = op_new(c, "tensor.expand_shape", 1, &v, 1, &rt, 0, op->loc);

		op_set_attr(c, exp, "reassociation", groups_attr(c, fr, n));
		op_insert_before(op, exp);
		v = RES(exp, 0);
	}
	op_replace(op, &v);
}

/* Value vn of the clone as the value vo of the function has at batch
 * `size`: a batched tensor's static type; an integer of B replaced by a
 * constant. */
static void specialize_value(BA *a, Value *vo, Value *vn, int64_t size, Op *first)
{
	BVal *b = get(a, vo);

	if (!b)
		return;
	if (b->kind == B_TENSOR && (b->ax >= 0 || !ty_static(vn->type))) {
		Type *t = vn->type;
		int64_t *d = arena_alloc(a->c, sizeof *d * (size_t)(t->rank + 1));

		memcpy(d, b->d, sizeof *d * (size_t)t->rank);
		if (b->ax >= 0)
			d[b->ax] *= size;
		value_set_type(vn, ty_with_dims(a->c, t, t->rank, d));
	} else if (b->kind == B_INT && vn->uses) {
		int64_t v = b->e ? b->c * size : b->c;
		Value *k = materialize_constant(a->c, first, at_int(a->c, v, vn->type),
			vn->type, vn->def ? vn->def->loc : first->loc);

		value_replace_all_uses(vn, k);
	}
}

void set_function_type(Ctx *c, Op *fn)
{
	Block *b = fn->regs[0].first;
	Op *ret = b->last;
	Type **in = arena_alloc(c, sizeof *in * (size_t)(b->nargs + ret->nopnds + 1));
	Type **out = in + b->nargs;

	for (int i = 0; i < b->nargs; i++)
		in[i] = b->args[i]->type;
	for (int i = 0; i < ret->nopnds; i++)
		out[i] = OPND(ret, i)->type;
	op_set_attr(c, fn, "function_type", at_type(c, ty_func(c, b->nargs, in, ret->nopnds, out)));
}

/* The sizes of op's results at a bounded chunk's item count n, for its
 * kernels (LENGTH_SIZES, kbuild.c's length_bounds): k * n at the batch
 * axis of a result that holds each item's k rows once, in order, so that
 * the first n items are its first k * n rows; NULL where none does. */
static Attr *item_sizes(BA *a, Op *op)
{
	Attr **rs = arena_alloc(a->c, sizeof *rs * (size_t)(op->nres + 1));
	int any = 0;

	for (int i = 0; i < op->nres; i++) {
		BVal *b = get(a, RES(op, i));
		Type *t = RES(op, i)->type;
		int r = t->kind == TY_TENSOR && t->ranked ? t->rank : 0;
		int64_t *e = arena_alloc(a->c, sizeof *e * (size_t)(2 * r + 1));

		if (b && b->kind == B_TENSOR && b->ax >= 0 && b->ax < r && b->o == 1 && b->d[b->ax] > 0) {
			e[2 * b->ax] = b->d[b->ax];
			any = 1;
		}
		rs[i] = at_dense_array(a->c, ty_int(a->c, 64, SIGNLESS), 2 * r, e);
	}
	return any ? at_array(a->c, op->nres, rs) : NULL;
}

/* fn cloned at batch `size`, static, named NAME.batchSIZE; bounded, with
 * one argument more, last: the items a call computes (tensor<1xi64>, 1
 * to size), its kernels stopping their loops over the batch there. */
static Op *chunk_function(BA *a, Op *fn, int64_t size, int bounded)
{
	Ctx *c = a->c;
	Op *nf = op_clone(c, fn, NULL, NULL), *o, *n, *next;
	Block *bo = fn->regs[0].first, *bn = nf->regs[0].first;
	char name[512];
	Attr *sizes;
	int i;

	snprintf(name, sizeof name, "%s.batch%lld", op_sym_name(fn), (long long)size);
	op_set_attr(c, nf, "sym_name", at_str(c, name));
	if (bounded)
		block_add_arg(c, bn, ty_tensor(c, 1, (int64_t[]){ 1 }, ty_int(c, 64, SIGNLESS)),
			fn->loc)->hint = "items";
	for (i = 0; i < bo->nargs; i++)
		specialize_value(a, bo->args[i], bn->args[i], size, bn->first);
	for (o = bo->first, n = bn->first; o; o = o->next, n = next) {
		next = n->next;
		if (bounded && o->nres && (sizes = item_sizes(a, o)))
			op_set_attr(c, n, LENGTH_SIZES, sizes);
		for (i = 0; i < o->nres; i++)
			specialize_value(a, RES(o, i), RES(n, i), size, bn->first);
		if (n->info && (n->info->traits & TR_STRUCTURED)) {
			int64_t *ks = arena_alloc(c, sizeof *ks * (size_t)(o->nopnds + 1));
			int *axs = arena_alloc(c, sizeof *axs * (size_t)(o->nopnds + 1));

			for (i = 0; i < o->nopnds; i++) {
				const int64_t *d = dims(a, OPND(o, i), &axs[i]);

				ks[i] = axs[i] >= 0 ? d[axs[i]] : 0;
			}
			if (separable(a, c, o, n, axs, ks, size))
				return NULL;
		}
	}
	for (n = bn->first; n; n = next) {
		next = n->next;
		if (op_is(n, "cf.assert"))
			op_erase(n);
		else if (op_is(n, "tensor.empty") && n->nopnds)
			op_set_operands(c, n, 0, NULL);
		else if (op_is(n, "tensor.extract_slice"))
			fold_lists(c, n, 1, slice_lists, 3);
		else if (op_is(n, "tensor.insert_slice"))
			fold_lists(c, n, 2, slice_lists, 3);
		else if (op_is(n, "tensor.pad"))
			fold_lists(c, n, 1, pad_lists, 2);
		else if (op_is(n, "tensor.expand_shape") && n->nopnds > 1)
			fold_lists(c, n, 1, (const char *const[]){ "static_output_shape" }, 1);
		else if (op_is(n, "tensor.reshape"))
			reshape_views(c, n);
	}
	/* scalars of sizes, constants now, folded into what uses them (a
	 * fill's value) */
	for (n = bn->first; n; n = next) {
		next = n->next;
		if (n->nres == 1 && RES(n, 0)->type->kind != TY_TENSOR && !n->nregs)
			fold_op(c, n);
	}
	for (n = bn->last; n; n = next) {
		next = n->prev;
		if (op_is_trivially_dead(n))
			op_erase(n);
	}
	set_function_type(c, nf);
	return nf;
}

/* The declaration that stands for fn: its signature with `?` where
 * batched, and fxvm.batch naming the chunk functions. */
static Op *declaration(BA *a, Op *fn, Op **chunks, const int64_t *sizes, int n, int bounded)
{
	Ctx *c = a->c;
	Op *d = op_new(c, "func.func", 0, NULL, 0, NULL, 1, fn->loc);
	Attr **fns = arena_alloc(c, sizeof *fns * (size_t)n);
	NamedAttr e[5];
	int ne = 0;

	for (int i = 0; i < n; i++)
		fns[i] = at_symref(c, op_sym_name(chunks[i]));
	if (bounded)
		e[ne++] = (NamedAttr){ "bounded", at_bool(c, 1) };
	e[ne++] = (NamedAttr){ "functions", at_array(c, n, fns) };
	e[ne++] = (NamedAttr){ "max", at_int(c, a->hi, NULL) };
	e[ne++] = (NamedAttr){ "min", at_int(c, a->lo, NULL) };
	e[ne++] = (NamedAttr){ "sizes", at_dense_array(c, ty_int(c, 64, SIGNLESS), n, sizes) };
	op_set_attr(c, d, "sym_name", op_attr(fn, "sym_name"));
	op_set_attr(c, d, "function_type", op_attr(fn, "function_type"));
	op_set_attr(c, d, "fxvm.batch", at_dict(c, ne, e));
	return d;
}

/* Does a body of fn's ops stop a kernel at some operands, or fn read an
 * element at an index (a gather on the host)? */
static int kernels_trap(Op *fn)
{
	for (Op *o = fn->regs[0].first->first; o; o = o->next)
		if (traps(o) || (op_is(o, "tensor.extract") && o->nopnds > 1))
			return 1;
	return 0;
}

int batch_split(Ctx *c, Op *fn, Op **decl, int only1)
{
	BA a = { c, { 0 }, 0, 0 };
	int64_t sizes[2];
	Op *chunks[2], *at = fn;
	int n = 0, rc = -1, bounded;

	if (analyze(&a, fn))
		goto out;
	for (size_t i = 0; i < sizeof sizes_default / sizeof *sizes_default; i++)
		if ((!only1 && sizes_default[i] <= a.hi) || sizes_default[i] == 1)
			sizes[n++] = sizes_default[i];
	/* the first chunk also runs a remainder, bounded, where its padding
	 * items (whatever the staging holds) cannot stop a kernel */
	bounded = n > 1 && !kernels_trap(fn);
	for (int i = 0; i < n; i++) {
		if (!(chunks[i] = chunk_function(&a, fn, sizes[i], bounded && i == 0)))
			goto out;
		op_insert_after(at, chunks[i]);
		at = chunks[i];
	}
	*decl = declaration(&a, fn, chunks, sizes, n, bounded);
	op_insert_before(fn, *decl);
	op_drop_uses(fn);
	op_unlink(fn);
	rc = 0;
out:
	pmap_free(&a.m);
	return rc;
}

/* The declaration's signature from its first chunk function's, as codegen
 * left it (ui8 where marked), `?` at dimension 0 where it has it. */
void batch_signature(Ctx *c, Op *decl, Op *chunk)
{
	Type *dt = op_attr(decl, "function_type")->type, *ct = op_attr(chunk, "function_type")->type;
	int n = dt->nsub, extra = ct->nin - dt->nin;   /* a bounded chunk's item count */
	Type **ts = arena_alloc(c, sizeof *ts * (size_t)(n + 1));

	for (int i = 0; i < n; i++) {
		Type *d = dt->sub[i], *t = ct->sub[i < dt->nin ? i : i + extra];

		if (d->kind == TY_TENSOR && d->rank && d->dims[0] == DYN) {
			int64_t *dims = arena_alloc(c, sizeof *dims * (size_t)t->rank);

			memcpy(dims, t->dims, sizeof *dims * (size_t)t->rank);
			dims[0] = DYN;
			t = ty_with_dims(c, t, t->rank, dims);
		}
		ts[i] = t;
	}
	op_set_attr(c, decl, "function_type", at_type(c, ty_func(c, dt->nin, ts, n - dt->nin, ts + dt->nin)));
}
