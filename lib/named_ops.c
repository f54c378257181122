/*
 * named_ops.c - linalg's named ops as generics (named_ops.h), one table
 * row per op: loop count, iterator kinds, the body, and the indexing
 * maps written in a small notation:
 *
 *   "0 2"        results d0, d2
 *   "0 1 2+4"    ... and a window: d2 * strides[w] + d4 * dilations[w],
 *                w counting the map's windows from 0
 *   ""           no results (a scalar output)
 *
 * Ops whose maps depend on attributes (generic, copy, transpose,
 * broadcast) have a function of their own instead.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "named_ops.h"
#include "optable.h"

typedef struct NamedRow {
	const char *name;
	int nloops;
	const char *iters;    /* per loop: 'p' parallel, 'r' reduction */
	BodyKind body;
	const char *maps[3];  /* the inputs', then the output's */
	int (*view)(Ctx *c, Op *op, LinalgView *s);   /* or from attributes */
} NamedRow;

static int generic_view(Ctx *c, Op *op, LinalgView *s);
static int copy_view(Ctx *c, Op *op, LinalgView *s);

static const NamedRow rows[] = {
	{ "linalg.generic", .view = generic_view },
	{ "linalg.copy", .view = copy_view },
	{ "linalg.transpose", .view = copy_view },
	{ "linalg.broadcast", .view = copy_view },
	{ "linalg.matmul", 3, "ppr", BODY_MAC, { "0 2", "2 1", "0 1" } },
	{ "linalg.matmul_transpose_b", 3, "ppr", BODY_MAC, { "0 2", "1 2", "0 1" } },
	{ "linalg.batch_matmul", 4, "pppr", BODY_MAC, { "0 1 3", "0 3 2", "0 1 2" } },
	{ "linalg.batch_matmul_transpose_b", 4, "pppr", BODY_MAC, { "0 1 3", "0 2 3", "0 1 2" } },
	{ "linalg.matvec", 2, "pr", BODY_MAC, { "0 1", "1", "0" } },
	{ "linalg.vecmat", 2, "pr", BODY_MAC, { "1", "1 0", "0" } },
	{ "linalg.dot", 1, "r", BODY_MAC, { "0", "0", "" } },
	/* n f oh ow c kh kw */
	{ "linalg.conv_2d_nchw_fchw", 7, "pppprrr", BODY_MAC,
		{ "0 4 2+5 3+6", "1 4 5 6", "0 1 2 3" } },
	/* n c oh ow kh kw */
	{ "linalg.depthwise_conv_2d_nchw_chw", 6, "pppprr", BODY_MAC,
		{ "0 1 2+4 3+5", "1 4 5", "0 1 2 3" } },
	/* n f ow c kw */
	{ "linalg.conv_1d_ncw_fcw", 5, "ppprr", BODY_MAC, { "0 3 2+4", "1 3 4", "0 1 2" } },
	/* n f od oh ow c kd kh kw */
	{ "linalg.conv_3d_ncdhw_fcdhw", 9, "ppppprrrr", BODY_MAC,
		{ "0 5 2+6 3+7 4+8", "1 5 6 7 8", "0 1 2 3 4" } },
	/* n ow c kw */
	{ "linalg.depthwise_conv_1d_ncw_cw", 4, "pppr", BODY_MAC, { "0 2 1+3", "2 3", "0 2 1" } },
	/* n g f oh ow c kh kw */
	{ "linalg.conv_2d_ngchw_gfchw", 8, "ppppprrr", BODY_MAC,
		{ "0 1 5 3+6 4+7", "1 2 5 6 7", "0 1 2 3 4" } },
	{ "linalg.pooling_nchw_max", 6, "pppprr", BODY_MAX, { "0 1 2+4 3+5", "4 5", "0 1 2 3" } },
	{ "linalg.pooling_nchw_sum", 6, "pppprr", BODY_SUM, { "0 1 2+4 3+5", "4 5", "0 1 2 3" } },
};

static int num_ins(Op *op)
{
	Attr *seg = op_attr(op, "operand_segment_sizes");

	if (seg && seg->kind == AT_DENSE_ARRAY && seg->n == 2)
		return (int)seg->ints[0];
	return op->nopnds ? op->nopnds - 1 : 0;
}

/* Element i of a strides or dilations attribute; 1 when absent. */
int64_t linalg_window_attr(Op *op, const char *name, int i)
{
	Attr *a = op_attr(op, name);

	if (!a)
		return 1;
	if (a->kind == AT_DENSE_ARRAY && (size_t)i < a->n)
		return a->ints[i];
	if (a->kind == AT_DENSE && i < dense_numel(a))
		return dense_get_i(a, a->splat ? 0 : i);
	return 1;
}

/* d * stride + dw * dilation, of window w */
static AffExpr *window(Ctx *c, Op *op, int d, int dw, int w)
{
	AffExpr *s = aff_const(c, linalg_window_attr(op, "strides", w));
	AffExpr *l = aff_bin(c, AFF_MUL, aff_dim(c, d), s);

	return aff_bin(c, AFF_ADD, l, aff_bin(c, AFF_MUL, aff_dim(c, dw),
		aff_const(c, linalg_window_attr(op, "dilations", w))));
}

/* A map in the notation above, over nd loops. */
static AffMap *map_of(Ctx *c, Op *op, int nd, const char *p)
{
	AffExpr **r = arena_alloc(c, sizeof *r * (strlen(p) + 1));
	int n = 0, w = 0;

	while (*p) {
		int d = (int)strtol(p, (char **)&p, 10);

		if (*p == '+') {
			r[n++] = window(c, op, d, (int)strtol(p + 1, (char **)&p, 10), w++);
		} else {
			r[n++] = aff_dim(c, d);
		}
		p += *p == ' ';
	}
	return affmap_new(c, nd, 0, n, r);
}

static int generic_view(Ctx *c, Op *op, LinalgView *s)
{
	Attr *m = op_attr(op, "indexing_maps"), *it = op_attr(op, "iterator_types");
	int i;

	if (!m || !it || m->kind != AT_ARRAY || (int)m->n != op->nopnds)
		return op_error(op, "malformed linalg.generic"), -1;
	for (i = 0; i < op->nopnds; i++)
		s->maps[i] = m->elts[i]->map;
	s->nloops = (int)it->n;
	s->red = arena_alloc(c, (size_t)s->nloops + 1);
	for (i = 0; i < s->nloops; i++)
		s->red[i] = it->elts[i]->kind == AT_STR && !strcmp(it->elts[i]->s, "reduction");
	s->body = BODY_REGION;
	return 0;
}

/* The input's map of a transpose: result dim i is input dim perm[i]. */
static AffMap *transpose_map(Ctx *c, Attr *perm, int r)
{
	AffExpr **res = arena_alloc(c, sizeof *res * (size_t)(r + 1));
	int i, j, nr = 0;

	for (j = 0; j < r; j++)
		for (i = 0; i < r; i++)
			if (perm && (size_t)i < perm->n && perm->ints[i] == j)
				res[nr++] = aff_dim(c, i);
	return affmap_new(c, r, 0, nr, res);
}

/* The input's map of a broadcast: the dims not in `dimensions`. */
static AffMap *broadcast_map(Ctx *c, Attr *dims, int r)
{
	AffExpr **res = arena_alloc(c, sizeof *res * (size_t)(r + 1));
	int i, j, nr = 0;

	for (i = 0; i < r; i++) {
		int added = 0;

		for (j = 0; dims && (size_t)j < dims->n; j++)
			added |= dims->ints[j] == i;
		if (!added)
			res[nr++] = aff_dim(c, i);
	}
	return affmap_new(c, r, 0, nr, res);
}

/* copy, transpose, broadcast: loops over the output */
static int copy_view(Ctx *c, Op *op, LinalgView *s)
{
	int r = OPND(op, op->nopnds - 1)->type->rank;

	s->nloops = r;
	s->red = arena_alloc(c, (size_t)r + 1);
	s->maps[1] = affmap_identity(c, r);
	if (op_is(op, "linalg.copy"))
		s->maps[0] = affmap_identity(c, r);
	else if (op_is(op, "linalg.transpose"))
		s->maps[0] = transpose_map(c, op_attr(op, "permutation"), r);
	else
		s->maps[0] = broadcast_map(c, op_attr(op, "dimensions"), r);
	s->body = BODY_COPY;
	return 0;
}

static void row_view(Ctx *c, Op *op, const NamedRow *row, LinalgView *s)
{
	int i;

	s->nloops = row->nloops;
	s->red = arena_alloc(c, (size_t)row->nloops + 1);
	for (i = 0; i < row->nloops; i++)
		s->red[i] = row->iters[i] == 'r';
	for (i = 0; i < 3; i++)
		s->maps[i] = map_of(c, op, row->nloops, row->maps[i]);
	s->body = row->body;
}

const OpTable named_ops_optables[] = {
	OPTABLE_AT("named op", rows, NamedRow, name, ""),
	{NULL},
};

static const NamedRow **by_code;

/* Once per process (codegen's threads may be the first callers): the
 * rows' keys are checked against the op table, then indexed by code. */
static void fill_by_code(void)
{
	size_t i;

	optable_require(named_ops_optables);
	by_code = xcalloc((size_t)opinfo_count(), sizeof *by_code);
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++)
		by_code[opinfo_lookup(rows[i].name)->code] = &rows[i];
}

/* The row of op, by op code. */
static const NamedRow *row_of(const Op *op)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, fill_by_code);
	return op->info ? by_code[op->info->code] : NULL;
}

/* Each loop's extent, from the operands its maps index with it alone. */
static int extents(Ctx *c, Op *op, LinalgView *s)
{
	int i, j;

	s->ext = arena_alloc(c, sizeof *s->ext * (size_t)(s->nloops + 1));
	for (i = 0; i < s->nloops; i++)
		s->ext[i] = -1;
	for (i = 0; i < op->nopnds; i++) {
		Type *t = OPND(op, i)->type;
		AffMap *m = s->maps[i];

		if (t->kind != TY_TENSOR)
			continue;
		if (!ty_static(t))
			return op_error(op, "dynamic shapes are not supported"), -1;
		if (m->nres != t->rank || m->ndims != s->nloops)
			return op_error(op, "indexing map %d does not match its operand", i), -1;
		for (j = 0; j < m->nres; j++)
			if (m->res[j]->kind == AFF_DIM)
				s->ext[m->res[j]->v] = t->dims[j];
	}
	for (i = 0; i < s->nloops; i++)
		if (s->ext[i] < 0)
			return op_error(op, "cannot infer the extent of loop %d", i), -1;
	return 0;
}

/* A named op's `cast` (how its operands widen to the accumulator):
 * the bodies here extend signed, as the default cast_signed does, so an
 * op that asks for another is refused rather than computed wrongly. */
static int cast_unsupported(Op *op)
{
	Attr *a = op_attr(op, "cast");
	Buf b = {0};
	int bad;

	if (!a)
		return 0;
	print_attr(&b, a);
	buf_putc(&b, 0);
	bad = !strstr(b.p, "<cast_signed>");
	if (bad)
		op_error(op, "'%s' with cast = %s is not supported (operands are extended as signed)",
		    op->name, b.p);
	buf_free(&b);
	return bad;
}

int linalg_viewable(Op *op)
{
	return row_of(op) != NULL;
}

int linalg_view(Ctx *c, Op *op, LinalgView *s)
{
	return linalg_maps(c, op, s) ? -1 : extents(c, op, s);
}

int linalg_maps(Ctx *c, Op *op, LinalgView *s)
{
	const NamedRow *row = row_of(op);

	memset(s, 0, sizeof *s);
	s->op = op;
	s->nin = num_ins(op);
	s->nout = op->nopnds - s->nin;
	s->maps = arena_alloc(c, sizeof *s->maps * (size_t)(op->nopnds + 1));
	if (!row)
		return op_error(op, "unsupported op '%s'", op->name), -1;
	if (!row->view && cast_unsupported(op))
		return -1;
	if (row->view ? row->view(c, op, s) : (row_view(c, op, row, s), 0))
		return -1;
	return 0;
}
