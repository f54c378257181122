/*
 * wino.c - 3x3 convolutions of stride 1 by Winograd's F(2x2, 3x3).
 *
 * Each 2x2 block of a convolution's output is A^T [U . V] A, summed over
 * the input channels, where V = B^T d B for the 4x4 window d of the input
 * under it and U = G g G^T for the 3x3 filter g (Lavin and Gray, 2015):
 * 16 multiplications per block and channel pair where the direct sum has
 * 36.  Before the dispatches are formed, a convolution that gains by it
 * (f32, static, a 3x3 constant weight, stride and dilation 1, channels
 * that the target keeps last in and out, enough blocks) becomes linalg
 * ops of codegen's own:
 *   - the input transform: a linalg.generic over the blocks, the 16
 *     points p = 4 r + s of B^T d B and the input channels, V [R, 16, C]
 *     (R = N H W / 4 blocks, block (n, i, j) the row (n H / 2 + i) W / 2
 *     + j);
 *   - a batch of 16 contractions M[p] = V[p] x U[p]^T, M [16, R, K], U
 *     the transformed weight computed here, a constant [16, K, C];
 *   - the output transform: a linalg.generic over the output that reads
 *     its block's 16 sums and adds the convolution's init.
 * The contractions run as one batched GEMM on the micro-kernels
 * (gemm_plan.c), the transforms as loop nests in vectors along the
 * channels (nest.c's V1); layout.c keeps their input and output
 * channels last as it keeps a convolution's, so that both transforms run
 * their vectors along the channels.
 *
 * The transforms subtract: an infinite input gives NaN where the direct
 * sum gives an infinity, and a large one may overflow where the direct
 * sum does not.  A non-finite input inside an output's 3x3 window makes
 * that output's transform non-finite (every B^T and A^T coefficient that
 * joins them is +-1), and no input outside the window reaches it (the
 * coefficients that would join them are 0), so the output transform
 * checks each value: where one is not finite, fxpipe.winograd_fix
 * computes it again as the direct sum over its window (kbuild.c's
 * KX_FIX; a branch the finite vectors skip).
 */
#include <stdlib.h>
#include <string.h>

#include "dispatch.h"

enum { WINO_ROWS = 32 };

#define WINO_FIX "fxpipe.winograd_fix"
#define WINO_ATTR "fxpipe.winograd"

typedef struct W {
	Ctx *c;
	Op *at;         /* new ops go before it */
	Loc *loc;
	Block *blk;     /* or at the end of this body */
} W;

static Op *put(W *w, Op *op)
{
	if (w->blk)
		op_append(w->blk, op);
	else
		op_insert_before(w->at, op);
	return op;
}

static Value *op1(W *w, const char *name, int n, Value *const *v, Type *t)
{
	return RES(put(w, op_new(w->c, name, n, v, 1, &t, 0, w->loc)), 0);
}

static Value *bin(W *w, const char *name, Value *a, Value *b)
{
	Value *v[2] = { a, b };

	return op1(w, name, 2, v, a->type);
}

static Value *cst(W *w, Attr *a, Type *t)
{
	Op *op = put(w, op_new(w->c, "arith.constant", 0, NULL, 1, &t, 0, w->loc));

	op_set_attr(w->c, op, "value", a);
	return RES(op, 0);
}

static Value *lindex(W *w, int d)
{
	Type *t = ty_index(w->c);
	Op *op = put(w, op_new(w->c, "linalg.index", 0, NULL, 1, &t, 0, w->loc));

	op_set_attr(w->c, op, "dim", at_int(w->c, d, NULL));
	return RES(op, 0);
}

static Value *empty(W *w, int rank, const int64_t *dims)
{
	return op1(w, "tensor.empty", 0, NULL, ty_tensor(w->c, rank, dims, ty_float(w->c, TY_F32)));
}

static void segments(W *w, Op *op, int nin, int nout)
{
	int64_t s[2] = { nin, nout };

	op_set_attr(w->c, op, "operand_segment_sizes",
		at_dense_array(w->c, ty_int(w->c, 32, SIGNLESS), 2, s));
}

/* a tensor of f32 zeros: empty, filled */
static Value *zeros(W *w, int rank, const int64_t *dims)
{
	Type *f32 = ty_float(w->c, TY_F32);
	Value *v[2] = { cst(w, at_float(w->c, 0, f32), f32), empty(w, rank, dims) };
	Op *fill = put(w, op_new(w->c, "linalg.fill", 2, v, 1, &v[1]->type, 0, w->loc));

	segments(w, fill, 1, 1);
	return RES(fill, 0);
}

/* x inside zeros of the 4-d shape dims, at its origin */
static Value *pad_end(W *w, Value *x, const int64_t *dims)
{
	Type *i64 = ty_int(w->c, 64, SIGNLESS);
	int64_t z4[4] = { 0 }, one[4] = { 1, 1, 1, 1 }, seg[5] = { 1, 1, 0, 0, 0 };
	Value *v[2] = { x, zeros(w, 4, dims) };
	Op *op = put(w, op_new(w->c, "tensor.insert_slice", 2, v, 1, &v[1]->type, 0, w->loc));

	op_set_attr(w->c, op, "static_offsets", at_dense_array(w->c, i64, 4, z4));
	op_set_attr(w->c, op, "static_sizes", at_dense_array(w->c, i64, 4, x->type->dims));
	op_set_attr(w->c, op, "static_strides", at_dense_array(w->c, i64, 4, one));
	op_set_attr(w->c, op, "operand_segment_sizes",
		at_dense_array(w->c, ty_int(w->c, 32, SIGNLESS), 5, seg));
	return RES(op, 0);
}

/* A linalg.generic of nin ins and the out `out` over nloops loops
 * (iters: 'p' or 'r' each) */
static Op *generic(W *w, int nin, Value *const *ins, Value *out, AffMap *const *maps, int nloops,
	const char *iters)
{
	int n = nin + 1, i;
	Value **v = xmalloc(sizeof *v * (size_t)n);
	Attr **m = xmalloc(sizeof *m * (size_t)n), **it = xmalloc(sizeof *it * (size_t)nloops);
	Op *op;
	Block *b;

	memcpy(v, ins, sizeof *v * (size_t)nin);
	v[nin] = out;
	op = put(w, op_new(w->c, "linalg.generic", n, v, 1, &out->type, 1, w->loc));
	for (i = 0; i < n; i++)
		m[i] = at_affine_map(w->c, maps[i]);
	for (i = 0; i < nloops; i++)
		it[i] = at_str(w->c, iters[i] == 'r' ? "reduction" : "parallel");
	op_set_attr(w->c, op, "indexing_maps", at_array(w->c, n, m));
	op_set_attr(w->c, op, "iterator_types", at_array(w->c, nloops, it));
	segments(w, op, nin, 1);
	b = block_new(w->c);
	region_append(&op->regs[0], b);
	for (i = 0; i < n; i++)
		block_add_arg(w->c, b, v[i]->type->elem, w->loc);
	free(v), free(m), free(it);
	return op;
}

static void yield(W *w, Block *b, Value *v)
{
	op_append(b, op_new(w->c, "linalg.yield", 1, &v, 0, NULL, 0, w->loc));
}

static AffExpr *dim(W *w, int d) { return aff_dim(w->c, d); }
static AffExpr *num(W *w, int64_t v) { return aff_const(w->c, v); }
static AffExpr *add(W *w, AffExpr *a, AffExpr *b) { return aff_bin(w->c, AFF_ADD, a, b); }
static AffExpr *mul(W *w, AffExpr *a, int64_t k) { return aff_bin(w->c, AFF_MUL, a, num(w, k)); }
static AffExpr *fdiv2(W *w, AffExpr *a) { return aff_bin(w->c, AFF_FLOORDIV, a, num(w, 2)); }

static int f32_static(const Type *t, int rank)
{
	return t->kind == TY_TENSOR && t->rank == rank && ty_static(t) && t->elem->kind == TY_F32;
}

/* the weight's constant, when op is a convolution this file computes:
 * one whose input and output the target keeps channels last (64
 * channels or more on AVX-512), so that both transforms run along the
 * channels */
static Attr *eligible(Gen *g, Op *op)
{
	const Type *x, *f, *y;
	int64_t rows;
	Op *d;
	Attr *a;

	if (!op_is(op, "linalg.conv_2d_nchw_fchw") || op->nopnds != 3 || op->nres != 1)
		return NULL;
	for (int i = 0; i < 2; i++)
		if (linalg_window_attr(op, "strides", i) != 1 || linalg_window_attr(op, "dilations", i) != 1)
			return NULL;
	x = OPND(op, 0)->type, f = OPND(op, 1)->type, y = RES(op, 0)->type;
	if (!f32_static(x, 4) || !f32_static(f, 4) || !f32_static(y, 4) ||
			f->dims[2] != 3 || f->dims[3] != 3 || f->dims[1] != x->dims[1] ||
			y->dims[1] != f->dims[0] || y->dims[0] != x->dims[0] ||
			y->dims[2] != x->dims[2] - 2 || y->dims[3] != x->dims[3] - 2 ||
			!y->dims[0] || !y->dims[2] || !y->dims[3] ||
			!g->t->channels_last(OPND(op, 0)) || !g->t->channels_last(RES(op, 0)))
		return NULL;
	/* an odd map's blocks compute outputs past its end: at most 40%;
	 * and the GEMMs have WINO_ROWS rows or more (blocks), each weight
	 * read for that many (resnet's 7x7 maps at batch 1, 16 blocks: the
	 * weight's transform, 16/9 its size, streamed for two row panels of
	 * 14 and 2, is slower than the direct sum) */
	rows = y->dims[0] * ((y->dims[2] + 1) / 2) * ((y->dims[3] + 1) / 2);
	if (10 * 4 * rows > 14 * y->dims[0] * y->dims[2] * y->dims[3] || rows < WINO_ROWS)
		return NULL;
	if (!(d = OPND(op, 1)->def) || !op_is(d, "arith.constant") || !(a = op_attr(d, "value")) ||
			(a->kind != AT_DENSE && a->kind != AT_DENSE_RESOURCE))
		return NULL;
	return a;
}

/* t = B^T e: t0 = e0 - e2, t1 = e1 + e2, t2 = e2 - e1, t3 = e1 - e3 */
static void bt_apply(W *w, Value *const *e, Value **t)
{
	t[0] = bin(w, "arith.subf", e[0], e[2]);
	t[1] = bin(w, "arith.addf", e[1], e[2]);
	t[2] = bin(w, "arith.subf", e[2], e[1]);
	t[3] = bin(w, "arith.subf", e[1], e[3]);
}

/* the input transform's body: 16 window elements in, point p (loop dim
 * 1) of V = B^T d B out: a select over p, which each of the kernel's
 * copies of the body (nest.c unrolls p) folds to its point's sum */
static void input_body(W *w, Block *b)
{
	Type *ix = ty_index(w->c), *i1 = ty_int(w->c, 1, SIGNLESS);
	Value *d[16], *r[16], *v[16], *col[4], *t[4], *p, *y;
	int i, j;

	w->blk = b;
	for (i = 0; i < 16; i++)
		d[i] = b->args[i];
	for (j = 0; j < 4; j++) {          /* r = B^T d, column by column */
		for (i = 0; i < 4; i++)
			col[i] = d[4 * i + j];
		bt_apply(w, col, t);
		for (i = 0; i < 4; i++)
			r[4 * i + j] = t[i];
	}
	for (i = 0; i < 4; i++)            /* v = r B, row by row */
		bt_apply(w, r + 4 * i, v + 4 * i);
	p = lindex(w, 1);
	y = v[15];
	for (i = 14; i >= 0; i--) {
		Value *a[2] = { p, cst(w, at_int(w->c, i, ix), ix) }, *sv[3];
		Op *op = put(w, op_new(w->c, "arith.cmpi", 2, a, 1, &i1, 0, w->loc));

		op_set_attr(w->c, op, "predicate", at_int(w->c, 0, NULL));   /* eq */
		sv[0] = RES(op, 0), sv[1] = v[i], sv[2] = y;
		y = op1(w, "arith.select", 3, sv, v[i]->type);
	}
	yield(w, b, y);
	w->blk = NULL;
}

/* U[p][k][c] = (G g_kc G^T)[p / 4][p % 4]: a GEMM's B panel of
 * output channels reads each one's run of input channels */
static float *weight_transform(const Attr *a, int64_t K, int64_t C)
{
	static const double gm[4][3] = { { 1, 0, 0 }, { .5, .5, .5 }, { .5, -.5, .5 }, { 0, 0, 1 } };
	size_t n;
	const uint8_t *raw = dense_bytes(a, &n);
	int splat = a->kind == AT_DENSE && a->splat;
	float *u = xmalloc(sizeof *u * (size_t)(16 * C * K));

	if (!splat && n < sizeof(float) * (size_t)(K * C * 9))
		die("codegen: a weight's constant holds fewer bytes than its type");
	for (int64_t k = 0; k < K; k++)
		for (int64_t c = 0; c < C; c++) {
			float g[9];
			double t[4][3];

			if (splat)
				for (int i = 0; i < 9; i++)
					g[i] = (float)dense_get_f(a, 0);
			else
				memcpy(g, raw + sizeof g * (size_t)(k * C + c), sizeof g);
			for (int r = 0; r < 4; r++)
				for (int j = 0; j < 3; j++)
					t[r][j] = gm[r][0] * g[j] + gm[r][1] * g[3 + j] + gm[r][2] * g[6 + j];
			for (int r = 0; r < 4; r++)
				for (int s = 0; s < 4; s++)
					u[((r * 4 + s) * K + k) * C + c] = (float)(t[r][0] * gm[s][0] +
						t[r][1] * gm[s][1] + t[r][2] * gm[s][2]);
		}
	return u;
}

/* M[p] = V[p] U[p]^T for the 16 points p, a batch: [R, C] x [C, K] each,
 * V [R, 16, C], U [16, K, C], M [16, R, K] */
static Value *contraction(W *w, Value *v, Value *u, Value *zero)
{
	Value *ins[2] = { v, u }, *m;
	AffMap *maps[3];
	Op *op;
	Block *b;

	maps[0] = affmap_new(w->c, 4, 0, 3, (AffExpr *[]){ dim(w, 1), dim(w, 0), dim(w, 3) });
	maps[1] = affmap_new(w->c, 4, 0, 3, (AffExpr *[]){ dim(w, 0), dim(w, 2), dim(w, 3) });
	maps[2] = affmap_new(w->c, 4, 0, 3, (AffExpr *[]){ dim(w, 0), dim(w, 1), dim(w, 2) });
	op = generic(w, 2, ins, zero, maps, 4, "pppr");
	op_set_attr(w->c, op, WINO_ATTR, at_str(w->c, "contraction"));
	b = op->regs[0].first;
	w->blk = b;
	m = bin(w, "arith.mulf", b->args[0], b->args[1]);
	m = bin(w, "arith.addf", b->args[2], m);
	yield(w, b, m);
	w->blk = NULL;
	return RES(op, 0);
}

/* i1: index v is odd */
static Value *odd(W *w, Value *v)
{
	Type *ix = ty_index(w->c), *i1 = ty_int(w->c, 1, SIGNLESS);
	Value *a[2] = { bin(w, "arith.remui", v, cst(w, at_int(w->c, 2, ix), ix)), cst(w, at_int(w->c, 0, ix), ix) };
	Op *op = put(w, op_new(w->c, "arith.cmpi", 2, a, 1, &i1, 0, w->loc));

	op_set_attr(w->c, op, "predicate", at_int(w->c, 1, NULL));   /* ne */
	return RES(op, 0);
}

/* the output transform's body: y = A^T M A at the output's place in its
 * block, checked (WINO_FIX), plus the init */
static void output_body(W *w, Block *b, Value *x, Value *f)
{
	Value *q[16], *k[4], *ix[4], *ph, *pw, *y0, *y1, *y, *fv[7];
	Type *f32 = ty_float(w->c, TY_F32);
	int i;

	w->blk = b;
	for (i = 0; i < 16; i++)
		q[i] = b->args[i];
	for (i = 0; i < 4; i++)
		ix[i] = lindex(w, i);
	ph = odd(w, ix[2]);
	pw = odd(w, ix[3]);
	/* each row of M times A: column 0 (m0 + m1 + m2) or 1 (m1 - m2 - m3) */
	for (i = 0; i < 4; i++) {
		Value *s = bin(w, "arith.addf", bin(w, "arith.addf", q[4 * i], q[4 * i + 1]), q[4 * i + 2]);
		Value *t = bin(w, "arith.subf", bin(w, "arith.subf", q[4 * i + 1], q[4 * i + 2]), q[4 * i + 3]);
		Value *v[3] = { pw, t, s };

		k[i] = op1(w, "arith.select", 3, v, f32);
	}
	y0 = bin(w, "arith.addf", bin(w, "arith.addf", k[0], k[1]), k[2]);
	y1 = bin(w, "arith.subf", bin(w, "arith.subf", k[1], k[2]), k[3]);
	{
		Value *v[3] = { ph, y1, y0 };

		y = op1(w, "arith.select", 3, v, f32);
	}
	fv[0] = y, fv[1] = x, fv[2] = f;
	for (i = 0; i < 4; i++)
		fv[3 + i] = ix[i];
	y = op1(w, WINO_FIX, 7, fv, f32);
	y = bin(w, "arith.addf", b->args[16], y);
	yield(w, b, y);
	w->blk = NULL;
}

static void rewrite(Ctx *c, Op *conv, const Attr *wa)
{
	W w = { c, conv, conv->loc, NULL };
	Value *x = OPND(conv, 0), *f = OPND(conv, 1), *init = OPND(conv, 2), *ins[16];
	const int64_t *xd = x->type->dims, *yd = RES(conv, 0)->type->dims;
	int64_t N = xd[0], C = xd[1], K = yd[1], TH = (yd[2] + 1) / 2, TW = (yd[3] + 1) / 2;
	int64_t R = N * TH * TW, ud[3] = { 16, K, C }, md[3] = { 16, R, K }, vd[3] = { R, 16, C };
	AffMap *maps[17];
	Value *ve, *u, *m, *xb = x;
	Op *in, *out;
	float *uw;
	int i;

	/* an odd map's last blocks read a row or column of zeros past the
	 * input's end (only into the outputs past the map's, not stored) */
	if (yd[2] % 2 || yd[3] % 2)
		xb = pad_end(&w, x, (int64_t[]){ N, C, 2 * TH + 2, 2 * TW + 2 });

	/* V[r][p][c] = (B^T d B)[p] of block r = (n, i, j): the window at
	 * (2i, 2j) of image n */
	ve = empty(&w, 3, vd);
	for (i = 0; i < 16; i++) {
		AffExpr *r = dim(&w, 0);

		ins[i] = xb;
		maps[i] = affmap_new(c, 3, 0, 4, (AffExpr *[]){
			aff_bin(c, AFF_FLOORDIV, r, num(&w, TH * TW)), dim(&w, 2),
			add(&w, mul(&w, aff_bin(c, AFF_FLOORDIV, aff_bin(c, AFF_MOD, r, num(&w, TH * TW)),
				num(&w, TW)), 2), num(&w, i / 4)),
			add(&w, mul(&w, aff_bin(c, AFF_MOD, r, num(&w, TW)), 2), num(&w, i % 4)) });
	}
	maps[16] = affmap_identity(c, 3);
	in = generic(&w, 16, ins, ve, maps, 3, "ppp");
	op_set_attr(c, in, WINO_ATTR, at_str(c, "input"));
	input_body(&w, in->regs[0].first);

	uw = weight_transform(wa, K, C);
	u = cst(&w, at_dense(c, ty_tensor(c, 3, ud, ty_float(c, TY_F32)), uw,
		sizeof *uw * (size_t)(16 * C * K), 0), ty_tensor(c, 3, ud, ty_float(c, TY_F32)));
	free(uw);
	m = contraction(&w, RES(in, 0), u, zeros(&w, 3, md));

	/* y[n][k][h][w] = init + (A^T M A)[h % 2][w % 2] of block (h / 2, w / 2) */
	for (i = 0; i < 16; i++) {
		ins[i] = m;
		maps[i] = affmap_new(c, 4, 0, 3, (AffExpr *[]){ num(&w, i),
			add(&w, add(&w, mul(&w, dim(&w, 0), TH * TW), mul(&w, fdiv2(&w, dim(&w, 2)), TW)),
				fdiv2(&w, dim(&w, 3))),
			dim(&w, 1) });
	}
	maps[16] = affmap_identity(c, 4);
	out = generic(&w, 16, ins, init, maps, 4, "pppp");
	op_set_attr(c, out, WINO_ATTR, at_str(c, "output"));
	output_body(&w, out->regs[0].first, x, f);
	op_replace(conv, (Value *[]){ RES(out, 0) });
}

const char *wino_kind(const Op *op)
{
	const Attr *a = op ? op_attr(op, WINO_ATTR) : NULL;

	return a && a->kind == AT_STR ? a->s : NULL;
}

int wino_is(const Op *op, const char *which)
{
	const char *k = wino_kind(op);

	return k && !strcmp(k, which);
}

int wino_is_fix(const Op *op)
{
	return op && op_is(op, WINO_FIX);
}

Value *wino_fix_input(Gen *g, Op *fix, Op **pad)
{
	Value *x = OPND(fix, 1);

	*pad = x->def && pad_value(g, x->def) ? x->def : NULL;
	return *pad ? OPND(x->def, 0) : x;
}

void wino_fix_buffers(Gen *g, Op *fix)
{
	Op *pad;

	vinfo(g, OPND(fix, 2))->mat = 1;   /* the weight, even a splat */
	vinfo(g, wino_fix_input(g, fix, &pad))->mat = 1;
}

void wino_rewrite(Gen *g, Op *fn)
{
	Block *b = fn->regs[0].first;
	Op *op, *next;
	Attr *wa;

	if (!g->t->channels_last || g->o->no_micro || g->o->no_winograd || length_arg(fn))
		return;
	for (op = b->first; op; op = next) {
		next = op->next;
		if ((wa = eligible(g, op)))
			rewrite(g->c, op, wa);
	}
}
