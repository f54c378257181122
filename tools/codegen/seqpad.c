/*
 * seqpad.c - a function with a dynamic length (`?` at a dimension of an
 * argument other than the batch's) compiled once for every length of its
 * range, as functions at fixed lengths: the range's top, and below it
 * shorter ones (codegen --length-ratio), so that a short call costs about
 * its own work.  The runtime runs the shortest that holds the call.
 *
 * In the function for length L every tensor is laid out at its sizes at L: element
 * (i, j, ...) of the tensor at length n sits at (i, j, ...) of the layout,
 * and what lies past its sizes at n is padding.  Kernels compute over the
 * whole layout; a reduction along a length-dependent loop stops at the
 * loop's extent at n (its body keeps the accumulator past it, a matmul's
 * operands are zero past it), and a size read as data inside a body is
 * computed from n, which the call passes as a last argument of its own
 * (tensor<1xi64>).  The runtime copies the arguments into such layouts
 * and the results out of them (formats/fxvm.md, "Dynamic length").
 *
 * The proof evaluates the function's integers and tensor sizes at every
 * length of the range (the range: the lengths its checks accept, at most
 * MAXLEN), at batch 1: a dynamic batch is then run in chunks of one item
 * (batch.c proves the items apart on the padded function).  Each size
 * that varies with the length must be c * n + d (c > 0) and each op must
 * keep elements where they are: loops read a varying dimension only at
 * their own index, slices start at a fixed offset, reshapes keep the
 * varying size first in its group, pads and inserted slices do not reach
 * past its end.  Anything else is refused at the op, never guessed.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "fold.h"
#include "dispatch.h"
#include "named_ops.h"
#include "pass.h"

enum { MAXLEN = 1 << 16, MAXPADS = SEQ_MAXPADS, MAXDIMS = 16 };

/* flags of one entry (an integer, a tensor's dimension) */
enum {
	F_VARIES = 1,    /* differs between lengths */
	F_NONAFF = 2,    /* not c * n + d */
	F_UNKNOWN = 4,   /* not known (data) */
	F_BATCH = 8,     /* differs between batches of 1, 2 and 3 */
	F_BTAINT = 16,   /* computed from the batch's size (a check on it) */
	F_LTAINT = 32,   /* computed from the length */
};

typedef struct SV {
	int n;              /* entries: 1, a tensor's rank, a from_elements' count */
	int64_t *cur;       /* at the length being evaluated */
	int64_t *top, *c, *d;   /* at L; the fit c * n + d */
	unsigned char *fl;
} SV;

/* what the padded function does differently at one structured op */
typedef struct Need {
	Op *op;
	uint64_t masked;    /* reduction loops whose extent varies */
	int64_t *mc, *md;   /* per loop: its extent c * n + d */
	int masked_operands;    /* a matmul: its operands zeroed past the extent */
	uint64_t guarded;   /* parallel loops whose extent varies, where the
	                       body has ops that may trap (a gather, an integer
	                       division): given safe operands in the padding */
	Value **cap;        /* integers captured by the body, varying: */
	int64_t *capc, *capd;   /* c * n + d */
	int ncap;
} Need;

typedef struct SP {
	Ctx *c;
	Op *fn;
	PMap m;             /* Value -> SV */
	PMap bad;           /* Op -> 1: a per-length condition failed */
	int larg[MAXDIMS], ldim[MAXDIMS], nl;   /* every dimension of the length, the
	                       first where the runtime reads n */
	int odd;            /* the one of them evaluated at n + 1 (-1: none) */
	int64_t n, lo, hi;
	int64_t b;          /* the batch evaluated: 1, but to tell what depends on it */
	int pass;           /* 0: at L, 1: at L - 1, 2: others, 3: another batch,
	                       4: only cur */
	int ok;             /* the checks on the length hold */
	Need *need;
	int nneed;
	Op *tied;           /* a check that relates the length to the batch */
	int final;          /* evaluating the range, not looking for it */
} SP;

static int refuse(Op *op, const char *why)
{
	op_error(op, "codegen: a dynamic length is compiled only where every tensor keeps its "
		"elements in place at every length: %s", why);
	return -1;
}

static SV *sv(SP *p, Value *v)
{
	return pmap_get(&p->m, v);
}

static SV *sv_new(SP *p, Value *v, int n)
{
	SV *s = pmap_get(&p->m, v);

	if (s) {
		if (s->n != n)
			abort();
		return s;
	}
	s = arena_alloc(p->c, sizeof *s);
	s->n = n;
	s->cur = arena_alloc(p->c, sizeof *s->cur * (size_t)(4 * n + 1));
	s->top = s->cur + n, s->c = s->top + n, s->d = s->c + n;
	s->fl = arena_alloc(p->c, (size_t)n + 1);
	*pmap_slot(&p->m, v, 1) = s;
	return s;
}

/* entry i of v at this length: 1, or 0 where unknown */
static int get_int(SP *p, Value *v, int i, int64_t *x, unsigned *fl)
{
	SV *s = sv(p, v);

	if (s && i < s->n) {
		*fl |= s->fl[i] & (F_BTAINT | F_LTAINT | F_UNKNOWN);
		*x = s->cur[i];
		return !(s->fl[i] & F_UNKNOWN);
	}
	if (ty_isintlike(v->type) && value_int(v, x))
		return 1;
	*fl |= F_UNKNOWN;
	return 0;
}

/* Records entry i's value at this length. */
static void set(SP *p, SV *s, int i, int64_t x, unsigned fl)
{
	s->fl[i] |= fl & (F_BTAINT | F_LTAINT | F_UNKNOWN);
	if (fl & F_UNKNOWN)
		x = 0;
	s->cur[i] = x;
	if (p->pass == 3) {
		if (x != s->top[i])
			s->fl[i] |= F_BATCH;
		return;
	}
	if (p->pass == 4)
		return;
	if (p->pass == 0) {
		s->top[i] = x;
		return;
	}
	if (x != s->top[i])
		s->fl[i] |= F_VARIES;
	if (p->pass == 1) {
		s->c[i] = s->top[i] - x;
		s->d[i] = s->top[i] - s->c[i] * p->hi;
	}
	if (x != s->c[i] * p->n + s->d[i])
		s->fl[i] |= F_NONAFF;
}

static void set_int(SP *p, Value *v, int64_t x, unsigned fl)
{
	set(p, sv_new(p, v, 1), 0, x, fl);
}

static void mark_bad(SP *p, Op *op)
{
	*pmap_slot(&p->bad, op, 1) = op;
}

/* ---- evaluation at one length ----------------------------------------- */

/* An integer op: 1 if it is one, its result set. */
static int eval_int(SP *p, Op *op)
{
	const char *n = op->name;
	int64_t x = 0, y = 0, z = 0, r;
	unsigned fl = 0;
	int k;

	if (op->nres != 1 || !ty_isintlike(RES(op, 0)->type) || strncmp(n, "arith.", 6))
		return 0;
	n += 6;
	for (k = 0; k < op->nopnds && k < 3; k++)
		get_int(p, OPND(op, k), 0, k == 0 ? &x : k == 1 ? &y : &z, &fl);
	if (fl & F_UNKNOWN)
		return set_int(p, RES(op, 0), 0, fl), 1;
	if (!strcmp(n, "constant"))
		return 0;
	if (!strcmp(n, "index_cast") || !strcmp(n, "index_castui") || !strcmp(n, "extsi") ||
			!strcmp(n, "extui"))
		r = x;
	else if (!strcmp(n, "trunci")) {
		int w = ty_bitwidth(RES(op, 0)->type);

		r = w == 1 ? x & 1 : (int64_t)((uint64_t)x << (64 - w)) >> (64 - w);
	}
	else if (!strcmp(n, "muli"))
		r = (int64_t)((uint64_t)x * (uint64_t)y);
	else if (!strcmp(n, "addi"))
		r = (int64_t)((uint64_t)x + (uint64_t)y);
	else if (!strcmp(n, "subi"))
		r = (int64_t)((uint64_t)x - (uint64_t)y);
	else if (!strcmp(n, "andi"))
		r = x & y;
	else if (!strcmp(n, "ori"))
		r = x | y;
	else if (!strcmp(n, "xori"))
		r = x ^ y;
	else if (!strcmp(n, "minsi"))
		r = x < y ? x : y;
	else if (!strcmp(n, "maxsi"))
		r = x > y ? x : y;
	else if (!strcmp(n, "cmpi"))
		r = cmp_const((int)op_attr(op, "predicate")->i, x, y);
	else if (!strcmp(n, "select"))
		r = x ? y : z;
	else if (y > 0 && (!strcmp(n, "divsi") || !strcmp(n, "divui")))
		r = x / y;
	else if (y > 0 && !strcmp(n, "floordivsi"))
		r = fdiv(x, y);
	else if (y > 0 && (!strcmp(n, "ceildivsi") || !strcmp(n, "ceildivui")))
		r = cdiv(x, y);
	else if (y > 0 && (!strcmp(n, "remsi") || !strcmp(n, "remui")))
		r = x % y;
	else
		return set_int(p, RES(op, 0), 0, fl | F_UNKNOWN), 1;
	set_int(p, RES(op, 0), r, fl);
	return 1;
}

/* Entry i of a slice's or pad's mixed list `names[which]` (its dynamic
 * entries are operands after the first `prefix`, list after list); *src,
 * where src is not NULL, the operand it is (NULL: a static entry). */
static int mixed(SP *p, Op *op, int prefix, const char *const *names, int which, int i,
	int64_t *x, unsigned *fl, Value **src)
{
	int k = prefix;

	if (src)
		*src = NULL;

	for (int w = 0; w <= which; w++) {
		Attr *at = op_attr(op, names[w]);

		if (!at || at->kind != AT_DENSE_ARRAY)
			return *fl |= F_UNKNOWN, 0;
		for (size_t j = 0; j < at->n; j++) {
			if (w == which && (int)j == i) {
				if (at->ints[j] != INT64_MIN)
					return *x = at->ints[j], 1;
				if (k >= op->nopnds)
					return *fl |= F_UNKNOWN, 0;
				if (src)
					*src = OPND(op, k);
				return get_int(p, OPND(op, k), 0, x, fl);
			}
			k += at->ints[j] == INT64_MIN;
		}
	}
	return *fl |= F_UNKNOWN, 0;
}


/* Result 0's sizes: d (NULL: its type's), unknown where `?` and no d. */
static void set_dims(SP *p, Value *v, const int64_t *d, const unsigned *fl)
{
	Type *t = v->type;
	SV *s;

	if (t->kind != TY_TENSOR || !t->ranked)
		return;
	s = sv_new(p, v, t->rank);
	for (int i = 0; i < t->rank; i++) {
		if (d)
			set(p, s, i, d[i], fl[i]);
		else
			set(p, s, i, t->dims[i], t->dims[i] == DYN ? F_UNKNOWN : 0);
	}
}

static void copy_dims(SP *p, Value *to, Value *from)
{
	SV *s = sv(p, from);
	unsigned fl[64];

	if (!s || s->n != to->type->rank || s->n > 64)
		return set_dims(p, to, NULL, NULL);
	for (int i = 0; i < s->n; i++)
		fl[i] = s->fl[i];
	set_dims(p, to, s->cur, fl);
}

static void eval_tensor(SP *p, Op *op)
{
	Type *rt = op->nres == 1 ? RES(op, 0)->type : NULL;
	int64_t d[64], x;
	unsigned fl[64];
	int r, k;

	if (!rt || rt->kind != TY_TENSOR || !rt->ranked || rt->rank > 64) {
		if (op->info && (op->info->traits & TR_STRUCTURED))
			for (int i = 0; i < op->nres; i++)
				copy_dims(p, RES(op, i), OPND(op, op->nopnds - op->nres + i));
		return;
	}
	r = rt->rank;
	memset(fl, 0, sizeof fl);
	if (op_is(op, "tensor.empty")) {
		for (int i = 0, k = 0; i < r; i++) {
			d[i] = rt->dims[i];
			if (d[i] == DYN)
				get_int(p, k < op->nopnds ? OPND(op, k) : RES(op, 0), 0, &d[i], &fl[i]), k++;
		}
	} else if (op_is(op, "tensor.reshape")) {
		SV *s = sv(p, OPND(op, 1));

		for (int i = 0; i < r; i++) {
			d[i] = rt->dims[i];
			if (s && s->n == r)
				d[i] = s->cur[i], fl[i] = s->fl[i];
			else if (d[i] == DYN)
				fl[i] = F_UNKNOWN;
		}
	} else if (op_is(op, "tensor.expand_shape")) {
		SV *s = sv(p, OPND(op, 0));
		int f, n;

		/* a group's `?`: its source size over the others' product */
		for (int g = 0; g < OPND(op, 0)->type->rank; g++) {
			int64_t q = 1;
			int dyn = -1;

			if (group(op, g, &f, &n) || f + n > r || !s || g >= s->n) {
				for (int i = 0; i < r; i++)
					d[i] = rt->dims[i], fl[i] |= rt->dims[i] == DYN ? F_UNKNOWN : 0;
				break;
			}
			for (int i = f; i < f + n; i++) {
				d[i] = rt->dims[i];
				if (d[i] == DYN && dyn < 0)
					dyn = i;
				else if (d[i] == DYN)
					fl[i] |= F_UNKNOWN;
				else
					q *= d[i];
			}
			if (dyn >= 0) {
				d[dyn] = q > 0 ? s->cur[g] / q : 0;
				fl[dyn] = s->fl[g] | (q > 0 ? 0 : F_UNKNOWN);
			}
		}
	} else if (op_is(op, "tensor.collapse_shape")) {
		SV *s = sv(p, OPND(op, 0));
		int f, n;

		for (int g = 0; g < r; g++) {
			d[g] = 1;
			if (!s || group(op, g, &f, &n) || f + n > s->n) {
				fl[g] = F_UNKNOWN;
				continue;
			}
			for (int i = f; i < f + n; i++)
				d[g] *= s->cur[i], fl[g] |= s->fl[i];
		}
	} else if (op_is(op, "tensor.extract_slice")) {
		uint64_t dropped;

		/* as MLIR: a select of [1, n, 4] at the last dimension keeps
		 * [1, n], not [n, 1] */
		if (slice_dropped(op, OPND(op, 0)->type, rt, &dropped))
			return set_dims(p, RES(op, 0), NULL, NULL);
		for (int i = 0, k = 0; i < OPND(op, 0)->type->rank; i++) {
			unsigned f = 0;

			if (dropped >> i & 1)
				continue;
			mixed(p, op, 1, slice_lists, 1, i, &x, &f, NULL);
			d[k] = x, fl[k++] = f;
		}
	} else if (op_is(op, "tensor.insert_slice")) {
		return copy_dims(p, RES(op, 0), OPND(op, 1));
	} else if (op_is(op, "tensor.pad")) {
		SV *s = sv(p, OPND(op, 0));

		for (int i = 0; i < r; i++) {
			int64_t lo = 0, hi = 0;

			d[i] = s ? s->cur[i] : 0;
			fl[i] = s ? s->fl[i] : F_UNKNOWN;
			mixed(p, op, 1, pad_lists, 0, i, &lo, &fl[i], NULL);
			mixed(p, op, 1, pad_lists, 1, i, &hi, &fl[i], NULL);
			d[i] += lo + hi;
		}
	} else if (op_is(op, "tensor.cast")) {
		return copy_dims(p, RES(op, 0), OPND(op, 0));
	} else if (op->info && (op->info->traits & TR_STRUCTURED)) {
		for (int i = 0; i < op->nres; i++)
			copy_dims(p, RES(op, i), OPND(op, op->nopnds - op->nres + i));
		return;
	} else {
		return set_dims(p, RES(op, 0), NULL, NULL);
	}
	for (k = 0; k < r && p->pass != 3; k++)
		if (rt->dims[k] != DYN && !(fl[k] & F_UNKNOWN) && d[k] != rt->dims[k])
			mark_bad(p, op);
	set_dims(p, RES(op, 0), d, fl);
}

/* insert_slice: where a varying destination dimension gets a slice, the
 * slice reaches the destination's end at every length (else padding
 * would land on elements), or is fixed and lies before it */
static void eval_insert(SP *p, Op *op)
{
	SV *s = sv(p, OPND(op, 0)), *t = sv(p, OPND(op, 1));
	int64_t off, sz;
	unsigned fl = 0;

	if (!s || !t || s->n != t->n)
		return mark_bad(p, op);
	for (int i = 0; i < t->n; i++) {
		if (!mixed(p, op, 2, slice_lists, 0, i, &off, &fl, NULL) ||
				!mixed(p, op, 2, slice_lists, 1, i, &sz, &fl, NULL))
			return mark_bad(p, op);
		if (p->pass == 2 || p->pass == 1) {
			/* the per-length part of the rule; check_op does the rest */
			if ((t->fl[i] & F_VARIES) && (s->fl[i] & F_VARIES) && off + sz != t->cur[i])
				mark_bad(p, op);
			if ((t->fl[i] & F_VARIES) && !(s->fl[i] & F_VARIES) && off + sz > t->cur[i])
				mark_bad(p, op);
		}
	}
}

static void eval_op(SP *p, Op *op)
{
	if (eval_int(p, op))
		return;
	if (op_is(op, "arith.constant")) {
		Attr *a = op_attr(op, "value");

		if (a && a->kind == AT_INT && ty_isintlike(RES(op, 0)->type))
			set_int(p, RES(op, 0), a->i, 0);
		else
			set_dims(p, RES(op, 0), NULL, NULL);
		return;
	}
	if (op_is(op, "tensor.dim")) {
		SV *s = sv(p, OPND(op, 0));
		int64_t k, x = 0;
		unsigned fl = 0;

		if (!s || !value_int(OPND(op, 1), &k) || k < 0 || k >= s->n)
			return set_int(p, RES(op, 0), 0, F_UNKNOWN);
		get_int(p, OPND(op, 0), (int)k, &x, &fl);
		return set_int(p, RES(op, 0), x, fl);
	}
	if (op_is(op, "tensor.from_elements") && ty_isintlike(RES(op, 0)->type->elem)) {
		SV *s = sv_new(p, RES(op, 0), op->nopnds);

		for (int i = 0; i < op->nopnds; i++) {
			int64_t x = 0;
			unsigned fl = 0;

			get_int(p, OPND(op, i), 0, &x, &fl);
			set(p, s, i, x, fl);
		}
		return;
	}
	if (op_is(op, "cf.assert")) {
		int64_t x = 0;
		unsigned fl = 0;

		if (get_int(p, OPND(op, 0), 0, &x, &fl) && !(fl & F_BTAINT) && !x)
			p->ok = 0;
		/* a check of both that fails somewhere: a relation of the two
		 * (one symbol), which the padded function could not keep */
		if (p->final && (fl & F_BTAINT) && (fl & F_LTAINT) && !(fl & F_UNKNOWN) && !x)
			p->tied = op;
		return;
	}
	if (op_is(op, "tensor.insert_slice"))
		eval_insert(p, op);
	for (int i = 0; i < op->nres; i++)
		if (ty_isintlike(RES(op, i)->type)) {
			unsigned fl = F_UNKNOWN;

			for (int k = 0; k < op->nopnds; k++) {
				SV *s = sv(p, OPND(op, k));

				for (int j = 0; s && j < s->n; j++)
					fl |= s->fl[j] & (F_BTAINT | F_LTAINT);
			}
			set_int(p, RES(op, i), 0, fl);
		}
	eval_tensor(p, op);
}

/* The function at length n; p->ok whether its checks on the length hold. */
static void evaluate(SP *p, int64_t n)
{
	Block *b = p->fn->regs[0].first;

	p->n = n;
	p->ok = 1;
	for (int i = 0; i < b->nargs; i++) {
		Type *t = b->args[i]->type;
		SV *s;

		if (t->kind != TY_TENSOR || !t->ranked)
			continue;
		s = sv_new(p, b->args[i], t->rank);
		for (int j = 0; j < t->rank; j++)
			if (t->dims[j] == DYN && j)
				set(p, s, j, p->odd >= 0 && i == p->larg[p->odd] && j == p->ldim[p->odd]
					? n + 1 : n, F_LTAINT);
			else if (t->dims[j] == DYN)
				set(p, s, j, p->b, F_BTAINT);   /* the batch: run one item at a time */
			else
				set(p, s, j, t->dims[j], 0);
	}
	for (Op *op = b->first; op; op = op->next)
		eval_op(p, op);
}

/* ---- the rules --------------------------------------------------------- */

static int varies(SP *p, Value *v, int i)
{
	SV *s = sv(p, v);

	return s && i < s->n && (s->fl[i] & (F_VARIES | F_UNKNOWN));
}

/* Whether entry i of v is a known c * n + d with c >= 0 (no batch). */
static int affine(SP *p, Value *v, int i, int64_t *c, int64_t *d)
{
	SV *s = sv(p, v);

	if (!s || i >= s->n || (s->fl[i] & (F_NONAFF | F_UNKNOWN | F_BATCH)))
		return 0;
	*c = s->fl[i] & F_VARIES ? s->c[i] : 0;
	*d = s->fl[i] & F_VARIES ? s->d[i] : s->top[i];
	return *c >= 0;
}

/* A collapse or expand group [f, f + n) of v: at most one dimension
 * varies, sizes of 1 before it, fixed sizes after it. */
static int keeps_first(SP *p, Value *v, int f, int n)
{
	SV *s = sv(p, v);
	int k = -1;

	if (!s || f + n > s->n)
		return 0;
	for (int i = f; i < f + n; i++)
		if (s->fl[i] & (F_VARIES | F_UNKNOWN)) {
			if (k >= 0 || (s->fl[i] & F_UNKNOWN))
				return 0;
			k = i;
		}
	for (int i = f; k >= 0 && i < k; i++)
		if (s->top[i] != 1)
			return 0;
	return 1;
}

/* tensor.reshape from a to b as groups of dimensions whose sizes have
 * equal products (at L and at the range's bottom), each keeping the
 * varying size first on both sides */
static int reshape_groups(SP *p, Value *a, Value *b)
{
	SV *s = sv(p, a), *t = sv(p, b);
	int i = 0, j = 0;

	if (!s || !t)
		return 0;
	for (int k = 0; k < s->n; k++)
		if (s->top[k] <= 0 || (s->fl[k] & F_UNKNOWN))
			return 0;
	for (int k = 0; k < t->n; k++)
		if (t->top[k] <= 0 || (t->fl[k] & F_UNKNOWN))
			return 0;
	while (i < s->n || j < t->n) {
		int gi = i, gj = j;
		int64_t ps = 1, pr = 1, qs = 1, qr = 1;

		if (i < s->n)
			ps = s->top[i], qs = s->cur[i], i++;
		if (j < t->n)
			pr = t->top[j], qr = t->cur[j], j++;
		while (ps != pr) {
			if (ps < pr && i < s->n)
				ps *= s->top[i], qs *= s->cur[i], i++;
			else if (pr < ps && j < t->n)
				pr *= t->top[j], qr *= t->cur[j], j++;
			else
				return 0;
		}
		/* sizes of 1 that end the tensors join the last group */
		while (i < s->n && s->top[i] == 1 && !(s->fl[i] & F_VARIES) && j == t->n)
			i++;
		while (j < t->n && t->top[j] == 1 && !(t->fl[j] & F_VARIES) && i == s->n)
			j++;
		if (qs != qr || !keeps_first(p, a, gi, i - gi) || !keeps_first(p, b, gj, j - gj))
			return 0;
	}
	return 1;
}

/* Entry i of the list names[which] known and the same at every length */
static int list_fixed(SP *p, Op *op, int prefix, const char *const *names, int which, int i)
{
	int64_t x;
	unsigned fl = 0;
	Value *src;

	return mixed(p, op, prefix, names, which, i, &x, &fl, &src) && (!src || !varies(p, src, 0));
}

static Need *need_of(SP *p, Op *op, int nloops)
{
	for (int i = 0; i < p->nneed; i++)
		if (p->need[i].op == op)
			return &p->need[i];
	p->need = xrealloc(p->need, sizeof *p->need * (size_t)(p->nneed + 1));
	Need *n = &p->need[p->nneed++];
	memset(n, 0, sizeof *n);
	n->op = op;
	n->mc = arena_alloc(p->c, sizeof *n->mc * (size_t)(2 * nloops + 1));
	n->md = n->mc + nloops;
	return n;
}

/* Whether o (in top's region) reads operand i, a tensor of the length's
 * size from outside, where it stays in place: the source of a
 * tensor.extract whose index at each dimension of the length's size is
 * the index of top's loop over that size (vl, ext_c, ext_d: structured's
 * loops along the length and their extents). */
static int in_place_extract(SP *p, Op *top, Op *o, int i, const char *vl,
	const int64_t *ext_c, const int64_t *ext_d)
{
	Value *v = OPND(o, i);
	SV *s = sv(p, v);

	if (!vl || i != 0 || !op_is(o, "tensor.extract") || !s || o->nopnds != s->n + 1)
		return 0;
	for (int j = 0; j < s->n; j++) {
		Op *ix = OPND(o, j + 1)->def;
		Attr *dim;
		int64_t c, d;

		if (!(s->fl[j] & (F_VARIES | F_UNKNOWN)))
			continue;
		if (!ix || !op_is(ix, "linalg.index") || block_parent_op(ix->parent) != top ||
				!(dim = op_attr(ix, "dim")) || dim->kind != AT_INT || dim->i < 0 ||
				dim->i >= 64 || !vl[dim->i] || !affine(p, v, j, &c, &d) ||
				ext_c[dim->i] != c || ext_d[dim->i] != d)
			return 0;
	}
	return 1;
}

/* the integers a region reads from the function's block that vary */
static int captures(SP *p, Op *top, Op *in, Need **nd, int nloops, const char *vl,
	const int64_t *ext_c, const int64_t *ext_d)
{
	for (int r = 0; r < in->nregs; r++)
		for (Block *b = in->regs[r].first; b; b = b->next)
			for (Op *o = b->first; o; o = o->next) {
				for (int i = 0; i < o->nopnds; i++) {
					Value *v = OPND(o, i);
					int64_t c, d;

					if ((v->def ? v->def->parent : v->block) != top->parent)
						continue;
					if (v->type->kind == TY_TENSOR) {
						SV *s = sv(p, v);

						if (in_place_extract(p, top, o, i, vl, ext_c, ext_d))
							continue;
						for (int j = 0; s && j < s->n; j++)
							if (s->fl[j] & (F_VARIES | F_UNKNOWN))
								return refuse(o, "a body reads a tensor of "
									"the length's size from outside");
						continue;
					}
					if (!varies(p, v, 0))
						continue;
					if (!affine(p, v, 0, &c, &d) || !ty_isintlike(v->type))
						return refuse(o, "a body reads a size of the length "
							"that is not c * n + d");
					if (!*nd)
						*nd = need_of(p, top, nloops);
					int seen = 0;
					for (int k = 0; k < (*nd)->ncap; k++)
						seen |= (*nd)->cap[k] == v;
					if (!seen) {
						Need *e = *nd;
						size_t sz = (size_t)(e->ncap + 1);

						e->cap = xrealloc(e->cap, sizeof *e->cap * sz);
						e->capc = xrealloc(e->capc, sizeof *e->capc * sz);
						e->capd = xrealloc(e->capd, sizeof *e->capd * sz);
						e->capc[e->ncap] = c, e->capd[e->ncap] = d;
						e->cap[e->ncap++] = v;
					}
				}
				if (captures(p, top, o, nd, nloops, vl, ext_c, ext_d))
					return -1;
			}
	return 0;
}

/* An op that stops the kernel at some operands: a gather (its indices
 * checked), an integer division (by zero). */
static int trapping(Op *o)
{
	int64_t y;

	if (op_is(o, "tensor.extract"))
		return o->nopnds > 1;
	if (kop_int_div(kop_of(o)))
		return !value_int(OPND(o, 1), &y) || y == 0;
	return 0;
}

int traps(Op *op)
{
	for (int r = 0; r < op->nregs; r++)
		for (Block *b = op->regs[r].first; b; b = b->next)
			for (Op *o = b->first; o; o = o->next)
				if (trapping(o) || traps(o))
					return 1;
	return 0;
}

static int structured(SP *p, Op *op)
{
	LinalgView s;
	int64_t ext_c[64], ext_d[64];
	char vl[64] = { 0 };
	Need *nd = NULL;

	if (op_is(op, "linalg.fill"))
		return 0;
	if (!linalg_viewable(op))
		return refuse(op, "a structured op codegen does not know");
	if (linalg_maps(p->c, op, &s))
		return -1;
	if (s.nloops > 64)
		return refuse(op, "too many loops");
	for (int i = 0; i < op->nopnds; i++) {
		AffMap *m = s.maps[i];
		Value *v = OPND(op, i);

		if (v->type->kind != TY_TENSOR)
			continue;
		for (int j = 0; j < m->nres; j++) {
			int64_t c, d;

			if (!varies(p, v, j))
				continue;
			if (m->res[j]->kind != AFF_DIM)
				return refuse(op, "it reads a dimension of the length's size "
					"other than at a loop's index");
			int l = (int)m->res[j]->v;

			if (!affine(p, v, j, &c, &d)) {
				/* rows of the batch's items (batch x length, one item
				 * at a time): a parallel loop needs no extent */
				SV *sx = sv(p, v);

				if (!(sx->fl[j] & F_BATCH) || (sx->fl[j] & (F_UNKNOWN | F_NONAFF)) || s.red[l])
					return refuse(op, "a loop over a size that is not c * n + d");
				c = -1, d = 0;
			}
			if (vl[l] && (ext_c[l] != c || ext_d[l] != d))
				return refuse(op, "a loop over sizes that differ");
			vl[l] = 1, ext_c[l] = c, ext_d[l] = d;
		}
	}
	/* a varying loop indexes every operand plainly, and none at a fixed
	 * size */
	for (int i = 0; i < op->nopnds; i++) {
		AffMap *m = s.maps[i];

		if (OPND(op, i)->type->kind != TY_TENSOR)
			continue;
		for (int j = 0; j < m->nres; j++) {
			AffExpr *x = m->res[j];

			if (x->kind == AFF_DIM) {
				if (vl[x->v] && !varies(p, OPND(op, i), j))
					return refuse(op, "a loop of the length's size over a fixed size");
				continue;
			}
			for (int l = 0; l < s.nloops; l++)
				if (vl[l] && aff_uses_dim(x, l))
					return refuse(op, "it reads along the length other than at a "
						"loop's index (a window, an offset)");
		}
	}
	/* reductions along the length stop at its end; where the body may
	 * trap, the padding of the parallel loops along it gets safe operands */
	int trap = s.body == BODY_REGION && traps(op);

	for (int l = 0; l < s.nloops; l++) {
		if (!vl[l] || ext_c[l] == 0 || (!s.red[l] && !trap))
			continue;
		if (s.red[l] && s.body != BODY_REGION && !(s.body == BODY_MAC && s.nin == 2))
			return refuse(op, "a reduction along the length by an op other than "
				"linalg.generic or a matmul");
		if (!s.red[l] && ext_c[l] < 0)
			return refuse(op, "a gather or an integer division over rows of both the "
				"batch and the length");
		if (!nd)
			nd = need_of(p, op, s.nloops);
		if (s.red[l])
			nd->masked |= (uint64_t)1 << l, nd->masked_operands = s.body != BODY_REGION;
		else
			nd->guarded |= (uint64_t)1 << l;
		nd->mc[l] = ext_c[l], nd->md[l] = ext_d[l];
	}
	return captures(p, op, op, &nd, s.nloops, vl, ext_c, ext_d);
}

/* Which uses a varying integer may have: sizes of tensors, checks, the
 * integer ops that compute more sizes, bodies (captures). */
static int int_uses(SP *p, Value *v)
{
	for (Use *u = v->uses; u; u = u->next) {
		Op *o = u->owner;

		if (o->parent != p->fn->regs[0].first)
			continue;   /* a capture: structured() */
		if (op_is(o, "tensor.empty") || op_is(o, "cf.assert") || op_is(o, "tensor.dim") ||
				op_is(o, "tensor.extract_slice") || op_is(o, "tensor.insert_slice") ||
				op_is(o, "tensor.pad") || op_is(o, "tensor.expand_shape"))
			continue;
		if (op_is(o, "tensor.from_elements")) {
			for (Use *w = RES(o, 0)->uses; w; w = w->next)
				if (!op_is(w->owner, "tensor.reshape") || w - w->owner->opnds != 1)
					return refuse(w->owner, "a size of the length read as data");
			continue;
		}
		if (!strncmp(o->name, "arith.", 6) && o->nres == 1 && ty_isintlike(RES(o, 0)->type))
			continue;
		return refuse(o, "a size of the length read as data");
	}
	return 0;
}

/* Every tensor's sizes known, those that vary c * n + d with c > 0: its
 * layout at L holds it at every length. */
static int sizes_grow(SP *p, Op *op)
{
	for (int i = 0; i < op->nres; i++) {
		SV *s = RES(op, i)->type->kind == TY_TENSOR ? sv(p, RES(op, i)) : NULL;

		for (int j = 0; s && j < s->n; j++) {
			if (s->fl[j] & F_UNKNOWN)
				return refuse(op, "sizes codegen does not know");
			if (!(s->fl[j] & F_VARIES))
				continue;
			if ((s->fl[j] & F_NONAFF) || s->c[j] <= 0)
				return refuse(op, "a size that is not c * n + d with c > 0");
		}
	}
	return 0;
}

static int check_op(SP *p, Op *op)
{
	Value *src = op->nopnds ? OPND(op, 0) : NULL;
	int f, n;

	if (sizes_grow(p, op))
		return -1;

	if (pmap_get(&p->bad, op))
		return refuse(op, op_is(op, "tensor.insert_slice") ?
			"a slice inserted along the length that stops short of its end" :
			"sizes that differ from its type");
	for (int i = 0; i < op->nres; i++)
		if (ty_isintlike(RES(op, i)->type) && varies(p, RES(op, i), 0) && int_uses(p, RES(op, i)))
			return -1;
	if (op->info && (op->info->traits & TR_STRUCTURED)) {
		int any = 0;

		for (int i = 0; i < op->nopnds; i++)
			for (int j = 0; j < OPND(op, i)->type->rank && OPND(op, i)->type->kind == TY_TENSOR; j++)
				any |= varies(p, OPND(op, i), j);
		if (!any) {
			Need *nd = NULL;

			if (captures(p, op, op, &nd, 64, NULL, NULL, NULL))
				return -1;
			return 0;
		}
		return structured(p, op);
	}
	if (op_is(op, "tensor.collapse_shape")) {
		for (int g = 0; g < RES(op, 0)->type->rank; g++)
			if (group(op, g, &f, &n) || !keeps_first(p, src, f, n))
				return refuse(op, "a reshape that does not keep the length first in its group");
		return 0;
	}
	if (op_is(op, "tensor.expand_shape")) {
		for (int g = 0; g < src->type->rank; g++)
			if (group(op, g, &f, &n) || !keeps_first(p, RES(op, 0), f, n))
				return refuse(op, "a reshape that does not keep the length first in its group");
		return 0;
	}
	if (op_is(op, "tensor.reshape")) {
		if (!reshape_groups(p, src, RES(op, 0)))
			return refuse(op, "a reshape that does not keep the length first in its group");
		return 0;
	}
	if (op_is(op, "tensor.extract_slice") || op_is(op, "tensor.insert_slice")) {
		int prefix = op_is(op, "tensor.extract_slice") ? 1 : 2;
		Value *big = prefix == 1 ? src : OPND(op, 1);

		for (int i = 0; i < big->type->rank; i++) {
			if (!list_fixed(p, op, prefix, slice_lists, 0, i) ||
					!list_fixed(p, op, prefix, slice_lists, 2, i))
				return refuse(op, "a slice whose offset or stride depends on the length");
			if (prefix == 2 && varies(p, big, i)) {
				int64_t st;
				unsigned fl = 0;

				if (!mixed(p, op, 2, slice_lists, 2, i, &st, &fl, NULL) || st != 1)
					return refuse(op, "a strided slice inserted along the length");
			}
			if (prefix == 2 && !varies(p, big, i) && varies(p, src, i))
				return refuse(op, "a slice of the length's size inserted into a fixed size");
		}
		return 0;
	}
	if (op_is(op, "tensor.pad")) {
		for (int i = 0; i < src->type->rank; i++) {
			int64_t hi;
			unsigned fl = 0;

			if (!list_fixed(p, op, 1, pad_lists, 0, i) || !list_fixed(p, op, 1, pad_lists, 1, i))
				return refuse(op, "a pad whose sizes depend on the length");
			if (varies(p, src, i) && (!mixed(p, op, 1, pad_lists, 1, i, &hi, &fl, NULL) || hi))
				return refuse(op, "a pad after the end of the length");
		}
		return 0;
	}
	if (op_is(op, "func.return")) {
		for (int i = 0; i < op->nopnds; i++)
			for (int j = 0; j < OPND(op, i)->type->rank; j++) {
				SV *s = sv(p, OPND(op, i));
				int64_t c, d;

				if (!s || (s->fl[j] & F_UNKNOWN))
					return refuse(op, "a result of sizes codegen does not know");
				if (s->fl[j] & F_BATCH) {
					if (j)
						return refuse(op, "a result whose batch is not its first dimension");
					continue;
				}
				if (!affine(p, OPND(op, i), j, &c, &d))
					return refuse(op, "a result of a size that is not c * n + d");
			}
		return 0;
	}
	if (op_is(op, "tensor.cast") || op_is(op, "tensor.empty") || op_is(op, "tensor.dim") ||
			op_is(op, "cf.assert") || op_is(op, "tensor.from_elements") ||
			op_is(op, "arith.constant") || !strncmp(op->name, "arith.", 6))
		return 0;
	for (int i = 0; i < op->nopnds; i++)
		for (int j = 0; OPND(op, i)->type->kind == TY_TENSOR && j < OPND(op, i)->type->rank; j++)
			if (varies(p, OPND(op, i), j))
				return refuse(op, "an op codegen does not follow along the length");
	return 0;
}

/* The length's range from the function's checks, its sizes at every
 * length in it, and the rules; 0 or -1 after an error. */
static int analyze(SP *p)
{
	int64_t n;

	evaluate(p, MAXLEN);
	if (p->ok)
		return op_error(p->fn, "codegen: a dynamic length needs a range of at most %d "
			"(fx-export --dynamic %d:%d:NAME=MIN..MAX): argument %d, dimension %d",
			MAXLEN - 1, p->larg[0], p->ldim[0], p->larg[0], p->ldim[0]), -1;
	for (n = 0; n < MAXLEN; n++) {
		evaluate(p, n);
		if (p->ok)
			break;
	}
	if (n == MAXLEN)
		return op_error(p->fn, "codegen: the checks on the dynamic length accept no length"), -1;
	p->lo = n;
	while (n + 1 < MAXLEN) {
		evaluate(p, n + 1);
		if (!p->ok)
			break;
		n++;
	}
	p->hi = n;
	/* several dimensions: one length only where the checks refuse them
	 * apart (one at n + 1) at the range's bottom and middle; the runtime
	 * makes calls keep them equal */
	for (int k = 1; k < p->nl; k++)
		for (int q = 0; q < 2; q++) {
			n = q ? (p->lo + p->hi) / 2 : p->lo;
			if (n >= p->hi || (q && n == p->lo))
				continue;
			p->odd = k;
			evaluate(p, n);
			p->odd = -1;
			if (p->ok)
				return op_error(p->fn, "codegen: dimension %d of argument %d and dimension "
					"%d of argument %d are dynamic, of lengths the checks let differ "
					"(%lld and %lld): one dynamic length per function is supported yet "
					"(fx-export: one symbol for both)", p->ldim[0], p->larg[0], p->ldim[k],
					p->larg[k], (long long)n, (long long)n + 1), -1;
		}
	/* every length of the range: L, L - 1, then the rest */
	/* afresh: lengths outside the range leave sizes unknown (a division
	 * by 0) */
	pmap_free(&p->bad);
	pmap_free(&p->m);
	memset(&p->bad, 0, sizeof p->bad);
	memset(&p->m, 0, sizeof p->m);
	p->final = 1;
	p->pass = 0;
	evaluate(p, p->hi);
	for (n = p->hi - 1; n >= p->lo; n--) {
		p->pass = n == p->hi - 1 ? 1 : 2;
		evaluate(p, n);
	}
	/* what differs at batch 2 or 3 from batch 1 (at L) */
	p->pass = 3;
	for (p->b = 2; p->b <= 3; p->b++)
		evaluate(p, p->hi);
	/* and cur as at the shortest length, batch 1 */
	p->b = 1;
	p->pass = 4;
	evaluate(p, p->lo);
	if (p->tied)
		return refuse(p->tied, "a check ties the length to the batch (one symbol at two "
			"dimensions: not supported yet)");
	for (Op *op = p->fn->regs[0].first->first; op; op = op->next)
		if (check_op(p, op))
			return -1;
	return 0;
}

/* ---- the padded function ----------------------------------------------- */

/* v's type at the length last evaluated: the batch's sizes as they were */
static Type *padded_type(SP *p, Value *v)
{
	SV *s = sv(p, v);
	Type *t = v->type;
	int64_t *d;

	if (!s || t->kind != TY_TENSOR || !t->ranked || s->n != t->rank)
		return t;
	d = arena_alloc(p->c, sizeof *d * (size_t)(t->rank + 1));
	for (int i = 0; i < t->rank; i++)
		d[i] = s->fl[i] & (F_BATCH | F_UNKNOWN) ? t->dims[i] : s->cur[i];
	return ty_with_dims(p->c, t, t->rank, d);
}

static Value *emit(Ctx *c, Block *b, Op *before, const char *name, int n, Value *const *in,
	Type *t, Loc *loc)
{
	Op *o = op_new(c, name, n, in, t ? 1 : 0, &t, 0, loc);

	if (before)
		op_insert_before(before, o);
	else
		op_append(b, o);
	return t ? RES(o, 0) : NULL;
}

static Value *cst(Ctx *c, Op *before, int64_t x, Type *t, Loc *loc)
{
	Op *o = op_new(c, "arith.constant", 0, NULL, 1, &t, 0, loc);

	op_set_attr(c, o, "value", at_int(c, x, t));
	op_insert_before(before, o);
	return RES(o, 0);
}

/* c * n + d as type t, before `at` */
static Value *affine_of(Ctx *c, Op *at, Value *n, int64_t k, int64_t d, Type *t, Loc *loc)
{
	Type *i64 = ty_int(c, 64, SIGNLESS);
	Value *v = emit(c, NULL, at, "arith.muli", 2, (Value *[]){ n, cst(c, at, k, i64, loc) }, i64, loc);

	v = emit(c, NULL, at, "arith.addi", 2, (Value *[]){ v, cst(c, at, d, i64, loc) }, i64, loc);
	if (t->kind == TY_INDEX)
		return emit(c, NULL, at, "arith.index_cast", 1, &v, t, loc);
	if (ty_bitwidth(t) < 64)
		return emit(c, NULL, at, "arith.trunci", 1, &v, t, loc);
	return v;
}

/* i1: the index of loop l below k * n + d, before `at` */
static Value *below(Ctx *c, Op *at, int l, Value *n, int64_t k, int64_t d, Loc *loc)
{
	Op *io = op_new(c, "linalg.index", 0, NULL, 1, (Type *[]){ ty_index(c) }, 0, loc);
	Value *in;

	op_set_attr(c, io, "dim", at_int(c, l, NULL));
	op_insert_before(at, io);
	in = emit(c, NULL, at, "arith.cmpi", 2, (Value *[]){ RES(io, 0),
		affine_of(c, at, n, k, d, ty_index(c), loc) }, ty_int(c, 1, SIGNLESS), loc);
	op_set_attr(c, in->def, "predicate", at_int(c, 2, NULL));   /* slt */
	return in;
}

/* below() of every loop in the mask, and-ed; NULL for none */
static Value *all_below(Ctx *c, Op *at, uint64_t mask, const Need *nd, Value *n, Loc *loc)
{
	Value *all = NULL;

	for (int l = 0; l < 64; l++) {
		Value *in;

		if (!(mask >> l & 1))
			continue;
		in = below(c, at, l, n, nd->mc[l], nd->md[l], loc);
		all = all ? emit(c, NULL, at, "arith.andi", 2, (Value *[]){ all, in },
			ty_int(c, 1, SIGNLESS), loc) : in;
	}
	return all;
}

static int inside(Op *o, Op *top)
{
	for (; o; o = o->parent ? block_parent_op(o->parent) : NULL)
		if (o == top)
			return 1;
	return 0;
}

static int num_ins_of(Op *op)
{
	Attr *seg = op_attr(op, "operand_segment_sizes");

	if (seg && seg->kind == AT_DENSE_ARRAY && seg->n >= 1)
		return (int)seg->ints[0];
	return op->nopnds - op->nres;
}

/* (d0 .. dn-1) -> (0): the length, read by every point of a loop nest */
static Attr *len_map(Ctx *c, int nloops)
{
	AffExpr *z = aff_const(c, 0);

	return at_affine_map(c, affmap_new(c, nloops, 0, 1, &z));
}

/* generic op with the length as one more input (before its outputs);
 * its body's argument for it in *arg */
static Op *with_length(Ctx *c, Op *op, Value *len, Value **arg)
{
	int nin = num_ins_of(op), nout = op->nopnds - nin, n = op->nopnds + 1;
	Value **v = arena_alloc(c, sizeof *v * (size_t)(n + 1));
	Type **rt = arena_alloc(c, sizeof *rt * (size_t)(op->nres + 1));
	Attr *maps = op_attr(op, "indexing_maps"), **m = arena_alloc(c, sizeof *m * (size_t)(n + 1));
	Attr *iters = op_attr(op, "iterator_types");
	Block *ob = op->regs[0].first, *nb = block_new(c);
	Op *g;

	for (int i = 0; i < n; i++)
		v[i] = i < nin ? OPND(op, i) : i == nin ? len : OPND(op, i - 1);
	for (int i = 0; i < op->nres; i++)
		rt[i] = RES(op, i)->type;
	for (int i = 0; i < n; i++)
		m[i] = i < nin ? maps->elts[i] : i == nin ? len_map(c, (int)iters->n) : maps->elts[i - 1];
	g = op_new(c, "linalg.generic", n, v, op->nres, rt, 1, op->loc);
	for (int i = 0; i < op->nattrs; i++)
		op_set_attr(c, g, op->attrs[i].name, op->attrs[i].val);
	op_set_attr(c, g, "indexing_maps", at_array(c, n, m));
	op_set_attr(c, g, "operand_segment_sizes",
		at_dense_array(c, ty_int(c, 32, SIGNLESS), 2, (int64_t[]){ nin + 1, nout }));
	region_append(&g->regs[0], nb);
	for (int i = 0; i < ob->nargs + 1; i++) {
		Value *a = block_add_arg(c, nb, i == nin ? ty_int(c, 64, SIGNLESS) :
			ob->args[i < nin ? i : i - 1]->type, op->loc);

		if (i == nin)
			*arg = a;
		else
			value_replace_all_uses(ob->args[i < nin ? i : i - 1], a);
	}
	while (ob->first) {
		Op *o = ob->first;

		op_unlink(o);
		op_append(nb, o);
	}
	op_insert_before(op, g);
	for (int i = 0; i < op->nres; i++)
		value_replace_all_uses(RES(op, i), RES(g, i));
	op_erase(op);
	return g;
}

/* matmul operand i with its elements past the extent along dim j zero */
static Value *zero_past(Ctx *c, Op *op, int i, int j, Value *len, int64_t k, int64_t d)
{
	Value *a = OPND(op, i), **dyn, *arg, *x;
	Type *t = a->type, *el = t->elem;
	int r = t->rank, nd = 0;
	Op *e, *g, *y;
	Block *b;
	Loc *loc = op->loc;
	Attr *it[64], *m[3];

	dyn = arena_alloc(c, sizeof *dyn * (size_t)(r + 1));
	for (int q = 0; q < r; q++)
		if (t->dims[q] == DYN)
			dyn[nd++] = emit(c, NULL, op, "tensor.dim", 2, (Value *[]){ a,
				cst(c, op, q, ty_index(c), loc) }, ty_index(c), loc);
	e = op_new(c, "tensor.empty", nd, dyn, 1, &t, 0, loc);
	op_insert_before(op, e);
	g = op_new(c, "linalg.generic", 3, (Value *[]){ a, len, RES(e, 0) }, 1, &t, 1, loc);
	for (int q = 0; q < r; q++)
		it[q] = at_str(c, "parallel");
	m[0] = m[2] = at_affine_map(c, affmap_identity(c, r));
	m[1] = len_map(c, r);
	op_set_attr(c, g, "indexing_maps", at_array(c, 3, m));
	op_set_attr(c, g, "iterator_types", at_array(c, r, it));
	op_set_attr(c, g, "operand_segment_sizes",
		at_dense_array(c, ty_int(c, 32, SIGNLESS), 2, (int64_t[]){ 2, 1 }));
	b = block_new(c);
	region_append(&g->regs[0], b);
	x = block_add_arg(c, b, el, loc);
	arg = block_add_arg(c, b, ty_int(c, 64, SIGNLESS), loc);
	block_add_arg(c, b, el, loc);
	op_insert_before(op, g);
	y = op_new(c, "linalg.yield", 0, NULL, 0, NULL, 0, loc);
	op_append(b, y);
	{
		Value *in = below(c, y, j, arg, k, d, loc), *sel;
		Op *zo = op_new(c, "arith.constant", 0, NULL, 1, &el, 0, loc);

		op_set_attr(c, zo, "value", ty_isfloat(el) ? at_float(c, 0.0, el) : at_int(c, 0, el));
		op_insert_before(y, zo);
		sel = emit(c, NULL, y, "arith.select", 3, (Value *[]){ in, x, RES(zo, 0) }, el, loc);
		op_set_operands(c, y, 1, &sel);
	}
	return RES(g, 0);
}

/* The trapping ops in op's regions given operands that cannot trap where
 * valid is false, but for a gather's indices that are the index of a loop
 * not along the length (loops): those take the values they take at the
 * valid points (a gather within the batch's item keeps its item). */
static void guard(Ctx *c, Op *op, Value *valid, uint64_t loops)
{
	for (int r = 0; r < op->nregs; r++)
		for (Block *b = op->regs[r].first; b; b = b->next)
			for (Op *o = b->first; o; o = o->next) {
				guard(c, o, valid, loops);
				if (!trapping(o))
					continue;
				for (int i = 1; i < (op_is(o, "tensor.extract") ? o->nopnds : 2); i++) {
					Value *x = OPND(o, i);
					Value *safe = cst(c, o, op_is(o, "tensor.extract") ? 0 : 1, x->type, o->loc);
					Attr *dim = x->def && op_is(x->def, "linalg.index") ? op_attr(x->def, "dim") : NULL;

					if (op_is(o, "tensor.extract") && dim && dim->kind == AT_INT && dim->i >= 0 &&
							dim->i < 64 && !(loops >> dim->i & 1))
						continue;

					op_set_operand(o, i, emit(c, NULL, o, "arith.select", 3,
						(Value *[]){ valid, x, safe }, x->type, o->loc));
				}
			}
}

/* The body of generic g rewritten as Need nd says: captured sizes from
 * the length, reductions along it stopping at its end. */
static void rewrite_body(Ctx *c, Op *g, const Need *nd, Value *arg, PMap *vmap)
{
	Block *b = g->regs[0].first;
	Op *first = b->first, *y = b->last;
	int nin = num_ins_of(g), nout = g->nopnds - nin;
	Value *cond;

	for (int i = 0; i < nd->ncap; i++) {
		Value *v = pmap_get(vmap, nd->cap[i]), *r = NULL;

		for (Use *u = v->uses, *next; u; u = next) {
			next = u->next;
			if (!inside(u->owner, g))
				continue;
			if (!r)
				r = affine_of(c, first, arg, nd->capc[i], nd->capd[i], v->type, g->loc);
			op_set_operand(u->owner, (int)(u - u->owner->opnds), r);
		}
	}
	cond = all_below(c, first, nd->masked, nd, arg, g->loc);
	if (nd->guarded)   /* in the padding, indices 0 and divisors 1 */
		guard(c, g, all_below(c, first, nd->guarded, nd, arg, g->loc), nd->guarded);
	if (cond)
		for (int i = 0; i < nout && i < y->nopnds; i++) {
			Value *acc = b->args[nin + i], *yv = OPND(y, i);
			Value *sel = emit(c, NULL, y, "arith.select", 3, (Value *[]){ cond, yv, acc },
				yv->type, g->loc);

			op_set_operand(y, i, sel);
		}
}

/* Entry pairs (c, d) of v's sizes for fxvm.length: c * n + d, the batch
 * (-1, 0). */
static Attr *sizes_attr(SP *p, Value *v)
{
	int r = v->type->rank;
	int64_t *e = arena_alloc(p->c, sizeof *e * (size_t)(2 * r + 1)), c, d;

	SV *s = sv(p, v);

	for (int i = 0; i < r; i++) {
		if (s && (s->fl[i] & F_BATCH))
			c = -1, d = 0;
		else if (!affine(p, v, i, &c, &d))
			abort();   /* check_op refused it */
		e[2 * i] = c, e[2 * i + 1] = d;
	}
	return at_dense_array(p->c, ty_int(p->c, 64, SIGNLESS), 2 * r, e);
}

/* pads[k] runs the lengths up to tops[k] (ascending, the last the
 * range's top) */
static Op *declaration(SP *p, Op *fn, Op *const *pads, const int64_t *tops, int npads)
{
	Ctx *c = p->c;
	Block *b = fn->regs[0].first;
	Op *ret = b->last, *d = op_new(c, "func.func", 0, NULL, 0, NULL, 1, fn->loc);
	Attr **as = arena_alloc(c, sizeof *as * (size_t)(b->nargs + 1));
	Attr **rs = arena_alloc(c, sizeof *rs * (size_t)(ret->nopnds + 1));
	Attr **fs = arena_alloc(c, sizeof *fs * (size_t)npads);
	NamedAttr e[6];
	int ne = 0;

	for (int i = 0; i < b->nargs; i++)
		as[i] = sizes_attr(p, b->args[i]);
	for (int i = 0; i < ret->nopnds; i++)
		rs[i] = sizes_attr(p, OPND(ret, i));
	for (int k = 0; k < npads; k++)
		fs[k] = at_symref(c, op_sym_name(pads[k]));
	e[ne++] = (NamedAttr){ "arguments", at_array(c, b->nargs, as) };
	e[ne++] = (NamedAttr){ "function", npads == 1 ? fs[0] : at_array(c, npads, fs) };
	e[ne++] = (NamedAttr){ "max", at_int(c, p->hi, NULL) };
	e[ne++] = (NamedAttr){ "min", at_int(c, p->lo, NULL) };
	e[ne++] = (NamedAttr){ "results", at_array(c, ret->nopnds, rs) };
	if (npads > 1)
		e[ne++] = (NamedAttr){ "tops", at_dense_array(c, ty_int(c, 64, SIGNLESS), npads, tops) };
	op_set_attr(c, d, "sym_name", op_attr(fn, "sym_name"));
	op_set_attr(c, d, "function_type", op_attr(fn, "function_type"));
	op_set_attr(c, d, "fxvm.length", at_dict(c, ne, e));
	return d;
}

/* The sizes of op's results that vary with the length, for the
 * kernels (kbuild.c's length_bounds): per result its (c, d) pairs, c = 0
 * where the size does not vary; NULL when none does. */
static Attr *length_sizes(SP *p, Op *op)
{
	Attr **rs = arena_alloc(p->c, sizeof *rs * (size_t)(op->nres + 1));
	int any = 0;

	for (int i = 0; i < op->nres; i++) {
		Value *v = RES(op, i);
		SV *s = sv(p, v);
		int r = v->type->kind == TY_TENSOR && v->type->ranked ? v->type->rank : 0;
		int64_t *e = arena_alloc(p->c, sizeof *e * (size_t)(2 * r + 1)), c, d;

		for (int j = 0; j < r; j++) {
			c = 0, d = 0;
			if (s && s->n == r && (s->fl[j] & F_VARIES) && affine(p, v, j, &c, &d) && c > 0)
				any = 1;
			else
				c = 0, d = 0;
			e[2 * j] = c, e[2 * j + 1] = d;
		}
		rs[i] = at_dense_array(p->c, ty_int(p->c, 64, SIGNLESS), 2 * r, e);
	}
	return any ? at_array(p->c, op->nres, rs) : NULL;
}

/* The extents of g's masked reductions for the kernels (LENGTH_LOOPS):
 * a step past them keeps the accumulator, or adds a product with a zero
 * operand. */
static void masked_loops(Ctx *c, Op *g, const Need *nd, int nl)
{
	int64_t *e = arena_alloc(c, sizeof *e * (size_t)(2 * nl + 1));

	if (!nd->masked)
		return;
	for (int l = 0; l < nl && l < 64; l++)
		if (nd->masked >> l & 1)
			e[2 * l] = nd->mc[l], e[2 * l + 1] = nd->md[l];
	op_set_attr(c, g, LENGTH_LOOPS, at_dense_array(c, ty_int(c, 64, SIGNLESS), 2 * nl, e));
}

/* fn cloned at length L (NAME.seq at the range's top, else NAME.seqL),
 * the length its last argument */
static Op *padded_function(SP *p, Op *fn, int64_t L)
{
	Ctx *c = p->c;
	Op *nf = op_clone(c, fn, NULL, NULL), *o, *n, *next;
	Block *bo = fn->regs[0].first, *bn = nf->regs[0].first;
	Value *len;
	Type *lt = ty_tensor(c, 1, (int64_t[]){ 1 }, ty_int(c, 64, SIGNLESS));
	char name[512];
	PMap map = { 0 }, vmap = { 0 };   /* fn's ops and values -> the clone's */
	Attr *sizes;
	int i;

	/* every size at L: cur (the rules hold at every length, so at L) */
	p->pass = 4;
	evaluate(p, L);
	if (L == p->hi)
		snprintf(name, sizeof name, "%s.seq", op_sym_name(fn));
	else
		snprintf(name, sizeof name, "%s.seq%lld", op_sym_name(fn), (long long)L);
	op_set_attr(c, nf, "sym_name", at_str(c, name));
	len = block_add_arg(c, bn, lt, fn->loc);
	len->hint = "length";
	for (i = 0; i < bo->nargs; i++)
		value_set_type(bn->args[i], padded_type(p, bo->args[i]));
	for (i = 0; i < bo->nargs; i++)
		*pmap_slot(&vmap, bo->args[i], 1) = bn->args[i];
	for (o = bo->first, n = bn->first; o; o = o->next, n = n->next) {
		*pmap_slot(&map, o, 1) = n;
		for (i = 0; i < o->nres; i++)
			*pmap_slot(&vmap, RES(o, i), 1) = RES(n, i);
		for (i = 0; i < o->nres; i++)
			value_set_type(RES(n, i), padded_type(p, RES(o, i)));
		if (o->nres && (sizes = length_sizes(p, o)))
			op_set_attr(c, n, LENGTH_SIZES, sizes);
		if (op_is(n, "tensor.empty") && n->nopnds) {
			/* operands: the `?` sizes of the type, in order; those
			 * now static are dropped */
			Type *ot = RES(o, 0)->type, *nt = RES(n, 0)->type;
			Value **keep = arena_alloc(c, sizeof *keep * (size_t)(n->nopnds + 1));
			int k = 0, nk = 0;

			for (i = 0; i < ot->rank && k < n->nopnds; i++)
				if (ot->dims[i] == DYN) {
					if (nt->dims[i] == DYN)
						keep[nk++] = OPND(n, k);
					k++;
				}
			op_set_operands(c, n, nk, keep);
		}
	}
	/* bodies and matmuls as the rules asked */
	for (int k = 0; k < p->nneed; k++) {
		Need *nd = &p->need[k];
		Op *g = pmap_get(&map, nd->op);
		Value *arg = NULL;

		if (nd->masked_operands) {
			LinalgView s;

			if (linalg_maps(c, g, &s))
				return pmap_free(&map), pmap_free(&vmap), NULL;
			for (int l = 0; l < s.nloops; l++) {
				if (!(nd->masked >> l & 1))
					continue;
				for (int q = 0; q < s.nin; q++)
					for (int j = 0; j < s.maps[q]->nres; j++)
						if (s.maps[q]->res[j]->kind == AFF_DIM && s.maps[q]->res[j]->v == l)
							op_set_operand(g, q, zero_past(c, g, q, j, len, nd->mc[l], nd->md[l]));
			}
			masked_loops(c, g, nd, s.nloops);
			continue;
		}
		g = with_length(c, g, len, &arg);
		rewrite_body(c, g, nd, arg, &vmap);
		masked_loops(c, g, nd, (int)op_attr(g, "iterator_types")->n);
	}
	/* sizes of the length: constants at L (those of the batch stay) */
	for (o = bo->first; o; o = o->next) {
		Op *q = pmap_get(&map, o);

		if (!q)
			continue;
		for (i = 0; i < o->nres; i++) {
			SV *s = sv(p, RES(o, i));

			if (!s || s->n != 1 || !ty_isintlike(RES(o, i)->type) || !q->parent ||
					(s->fl[0] & (F_BATCH | F_UNKNOWN)) || value_use_empty(RES(q, i)))
				continue;
			value_replace_all_uses(RES(q, i), materialize_constant(c, bn->first,
				at_int(c, s->cur[0], RES(q, i)->type), RES(q, i)->type, q->loc));
		}
	}
	pmap_free(&map);
	pmap_free(&vmap);
	for (n = bn->first; n; n = next) {
		next = n->next;
		if (op_is(n, "cf.assert")) {
			int64_t x;

			if (value_int(OPND(n, 0), &x) && x)
				op_erase(n);
		} else if (op_is(n, "tensor.extract_slice")) {
			fold_lists(c, n, 1, slice_lists, 3);
		} else if (op_is(n, "tensor.insert_slice")) {
			fold_lists(c, n, 2, slice_lists, 3);
		} else if (op_is(n, "tensor.pad")) {
			fold_lists(c, n, 1, pad_lists, 2);
		} else if (op_is(n, "tensor.expand_shape") && n->nopnds > 1) {
			fold_lists(c, n, 1, (const char *const[]){ "static_output_shape" }, 1);
		}
	}
	for (n = bn->first; n; n = next) {
		next = n->next;
		if (n->nres == 1 && RES(n, 0)->type->kind != TY_TENSOR && !n->nregs)
			fold_op(c, n);
	}
	for (n = bn->first; n; n = next) {
		next = n->next;
		if (op_is(n, "tensor.reshape") && ty_static(RES(n, 0)->type) && ty_static(OPND(n, 0)->type))
			reshape_views(c, n);
	}
	for (n = bn->last; n; n = next) {
		next = n->prev;
		if (op_is_trivially_dead(n))
			op_erase(n);
	}
	set_function_type(c, nf);
	return nf;
}

int has_dynamic_length(Op *fn)
{
	Block *b = fn->regs[0].first;

	for (int i = 0; i < b->nargs; i++) {
		Type *t = b->args[i]->type;

		for (int j = 1; t->kind == TY_TENSOR && t->ranked && j < t->rank; j++)
			if (t->dims[j] == DYN)
				return 1;
	}
	return 0;
}

/* The tops of the padded functions, ascending, into t: the range's top,
 * then each the one above divided by ratio (rounded up to a multiple of
 * 8) while at least 16 and above the range's bottom; their count. */
static int tops_of(SP *p, int ratio, int64_t *t)
{
	int64_t x = p->hi, y;
	int n = 0;

	t[n++] = x;
	while (ratio > 1 && n < MAXPADS) {
		y = (x + ratio - 1) / ratio;
		y = (y + 7) / 8 * 8;
		if (y < 16 || y >= x || y <= p->lo)
			break;
		t[n++] = x = y;
	}
	for (int i = 0; i < n / 2; i++)
		y = t[i], t[i] = t[n - 1 - i], t[n - 1 - i] = y;
	return n;
}

int seq_split(Ctx *c, Op *fn, int ratio, Op **decl, Op **pads)
{
	SP p = { .c = c, .fn = fn, .b = 1, .odd = -1 };
	Block *b = fn->regs[0].first;
	int64_t tops[MAXPADS];
	int rc = -1, npads = 0;

	for (int i = 0; i < b->nargs; i++) {
		Type *t = b->args[i]->type;

		if (t->kind != TY_TENSOR || !t->ranked)
			return op_error(fn, "function arguments must be tensors"), -1;
		for (int j = 1; j < t->rank; j++) {
			if (t->dims[j] != DYN)
				continue;
			if (p.nl == MAXDIMS)
				return op_error(fn, "codegen: more than %d dynamic dimensions besides "
					"the batch", MAXDIMS), -1;
			p.larg[p.nl] = i, p.ldim[p.nl++] = j;
		}
	}
	if (analyze(&p))
		goto out;
	npads = tops_of(&p, ratio, tops);
	for (int k = 0; k < npads; k++)
		if (!(pads[k] = padded_function(&p, fn, tops[k])))
			goto out;
	*decl = declaration(&p, fn, pads, tops, npads);
	op_insert_before(fn, *decl);
	for (int k = npads - 1; k >= 0; k--)
		op_insert_after(*decl, pads[k]);
	op_drop_uses(fn);
	op_unlink(fn);
	rc = npads;
out:
	for (int i = 0; i < p.nneed; i++)
		free(p.need[i].cap), free(p.need[i].capc), free(p.need[i].capd);
	free(p.need);
	pmap_free(&p.m);
	pmap_free(&p.bad);
	return rc;
}

/* The declaration's signature from the padded function's as codegen
 * left it (ui8 where marked), its own sizes, without the length. */
void seq_signature(Ctx *c, Op *decl, Op *padded)
{
	Type *dt = op_attr(decl, "function_type")->type, *pt = op_attr(padded, "function_type")->type;
	int n = dt->nsub, nin = dt->nin;
	Type **ts = arena_alloc(c, sizeof *ts * (size_t)(n + 1));

	for (int i = 0; i < n; i++) {
		Type *p = pt->sub[i < nin ? i : i + 1];

		ts[i] = dt->sub[i]->kind == TY_TENSOR ? ty_with_elem(c, dt->sub[i], p->elem) : p;
	}
	op_set_attr(c, decl, "function_type", at_type(c, ty_func(c, nin, ts, n - nin, ts + nin)));
}
