/*
 * nest.c - loop-nest kernels for the CPU: the schedule (parallel dims
 * ordered by the first output's layout, the outermost split across
 * workgroups: loop_grid), then the loops written plainly for LLVM's loop
 * vectorizer (S1: a point's reduction innermost), or with the reduction
 * outside a vector of parallel points (S2), or packs in vectors of our
 * own.
 */
#include <stdlib.h>
#include <string.h>

#include "cpu.h"

typedef struct Sched {
	int order[64], n;     /* parallel dims, outermost first (extent > 1) */
	int red[64], nred;
	int split;            /* the dim split across workgroups, or -1 */
	int split2;           /* the next dim, split too where split's
	                       * extent is less than the workgroups wanted;
	                       * or -1 */
	int64_t g[2];         /* workgroups along split and split2 (the
	                       * grid: their product): workgroup w takes
	                       * the (w / g[1])-th and (w % g[1])-th of
	                       * their extents cut in as many near-equal
	                       * ranges */
	LLVMValueRef nx;      /* the workgroups (a bounded split: shared at run time) */
	int empty;            /* a parallel dim of extent 0: nothing to do */
	int scan, scanr;      /* a triangular sum (scan_dim): its output dim,
	                       * out of order, and its reduction dim, out of
	                       * red; or -1 */
} Sched;

/* e is a constant integer c */
static int const_int(const KExpr *e, int64_t c)
{
	return e->kind == KX_CONST && e->cval->kind == AT_INT && e->cval->i == c;
}

/* The dim whose index e is (linalg.index d, or an arange's value at it:
 * index_cast, times 1, plus 0), or -1 */
static int index_dim(const KExpr *e)
{
	while (e->kind == KX_OP) {
		if (e->op == kop.index_cast && e->n == 1)
			e = e->a[0];
		else if (e->op == kop.muli && e->n == 2 && const_int(e->a[1], 1))
			e = e->a[0];
		else if (e->op == kop.addi && e->n == 2 && const_int(e->a[1], 0))
			e = e->a[0];
		else
			return -1;
	}
	return e->kind == KX_INDEX && e->rank == 1 && e->ix[0]->kind == IX_DIM ? (int)e->ix[0]->v : -1;
}

/* e is the value that op (a sum's or a product's) leaves its other
 * operand as it is: -0 and 0 for a sum, 1 for a product */
static int identity_of(int op, const KExpr *e)
{
	uint64_t b;

	if (e->kind != KX_CONST)
		return 0;
	if (op == kop.muli)
		return const_int(e, 1);
	if (op == kop.addi)
		return const_int(e, 0);
	if (e->cval->kind != AT_FLOAT)
		return 0;
	if (op == kop.mulf)
		return e->cval->f == 1;
	memcpy(&b, &e->cval->f, sizeof b);
	return b == 1ull << 63;
}

/* A triangular sum or product, as torch-lower writes cumsum (and
 * torch-opt cumprod): out[.., j, ..] = init op x(k) op .. over k <= j,
 * the one reduction dim k as long as the output's dim j, the body acc op
 * (k <= j ? x : identity) (kbuild.c's masked_sum), x and init
 * independent of j.  Then each point's result is the last one's op x(j)
 * -- the same operations in the same order, k ascending -- so the kernel
 * is a scan along j (scan_point), n steps where the triangle took n^2:
 * j's dim, or -1. */
static int scan_dim(const Kernel *k, const Sched *s)
{
	const KOut *o = &k->out[0];
	const KExpr *v = o->val, *sel, *c;
	uint64_t set = 0;
	int r, p, i;

	if (k->nout != 1 || s->nred != 1 || !o->init || !v || v->kind != KX_OP ||
			(v->op != kop.addf && v->op != kop.addi && v->op != kop.mulf && v->op != kop.muli))
		return -1;
	r = s->red[0];
	if (!(sel = kx_acc_other(v)) || sel->kind != KX_OP || sel->op != kop.select || sel->n != 3 ||
			!identity_of(v->op, sel->a[2]))
		return -1;
	c = sel->a[0];
	/* k sle/ule j */
	if (c->kind != KX_OP || c->op != kop.cmpi || c->n != 2 || !c->attr ||
			(c->attr->i != 3 && c->attr->i != 7) || index_dim(c->a[0]) != r ||
			(p = index_dim(c->a[1])) < 0)
		return -1;
	if (p == r || k->red[p] || k->ext[p] != k->ext[r] ||
			(k->bound && (k->bound[p].c || k->bound[r].c)))
		return -1;
	kx_dims(sel->a[1], &set);
	kx_dims(o->init, &set);
	if (set >> p & 1)
		return -1;
	for (i = 0; i < s->n; i++)
		if (s->order[i] == p)
			return p;
	return -1;
}

static void schedule(Kernel *k, Sched *s)
{
	int d;
	int64_t work = 1;

	s->empty = kernel_loops(k, s->order, &s->n, s->red, &s->nred);
	s->scan = s->scanr = -1;
	if (!s->empty && (s->scan = scan_dim(k, s)) >= 0) {
		for (d = 0; s->order[d] != s->scan; d++)
			;
		memmove(s->order + d, s->order + d + 1, sizeof *s->order * (size_t)(s->n - d - 1));
		s->n--;
		s->scanr = s->red[0];
		s->nred = 0;
	}
	/* a Winograd output transform's vectors run along its channels
	 * (loop dim 1), where its sums lie beside each other, whatever the
	 * output's layout (V1 scatters them into NCHW) */
	if (wino_is(k->root, "output"))
		for (d = 0; d + 1 < s->n; d++)
			if (s->order[d] == 1) {
				memmove(s->order + d, s->order + d + 1, sizeof *s->order * (size_t)(s->n - d - 1));
				s->order[s->n - 1] = 1;
				break;
			}
	for (d = 0; d < k->ndims; d++)
		work *= k->ext[d];
	s->split = s->n ? s->order[0] : -1;
	s->split2 = -1;
	s->g[0] = s->g[1] = 1;
	k->grid[0] = 1;
	if (s->split >= 0) {
		int bounded = k->bound && k->bound[s->split].c;
		/* a bounded split's workgroups are as many as the call's
		 * length needs, each of 16384 points at the extents' top */
		int64_t ext = k->ext[s->split], want = work / (bounded ? 16384 : 2048);

		if (want > 64)
			want = 64;
		if (want < 1)
			want = 1;
		if (bounded) {
			/* chunks of the extent's top; the kernel shares the
			 * call's extent among the grid it is given (nest) */
			int64_t chunk;

			if (want > ext)
				want = ext;
			chunk = (ext + want - 1) / want;
			k->grid[0] = (ext + chunk - 1) / chunk;
			if (k->grid[0] > 1)
				k->glen[0] = (KBound){ k->bound[s->split].c, k->bound[s->split].d,
					k->bound[s->split].q * chunk };
			return;
		}
		/* an even number of workgroups, in ranges that differ by one
		 * index at most: two threads split them evenly (a pack of 14
		 * panels in chunks of 4 and 2 took 8 of them on one thread,
		 * 6 on the other) */
		want += want > 1 && want % 2;
		s->g[0] = ext < want ? ext : want;
		/* fewer indices than workgroups wanted (a pack of 5 panels):
		 * the next dim cut too, unless it is the innermost (the
		 * vectorized one), a pack's lanes, a Winograd input
		 * transform's points (V1 unrolls them) or bounded */
		if (s->g[0] < want && s->n >= 3 && !(k->bound && k->bound[s->order[1]].c) &&
				!(k->vpack && (s->order[1] == 3 || s->order[1] == 4)) &&
				!wino_is(k->root, "input")) {
			int64_t ext2 = k->ext[s->order[1]];

			s->split2 = s->order[1];
			s->g[1] = (want + ext - 1) / ext;
			s->g[1] += s->g[0] % 2 && s->g[1] % 2;
			if (s->g[1] > ext2)
				s->g[1] = ext2;
		}
		k->grid[0] = (uint32_t)(s->g[0] * s->g[1]);
	}
}

void loop_grid(Kernel *k)
{
	Sched s;

	schedule(k, &s);
}

static LLVMValueRef store_ptr(E *e, KOut *o)
{
	return e_addr(e, o->buf, o->ix);
}

/* Builds the loops over order[from..n), then calls f at the innermost. */
typedef void (*NestFn)(E *e, void *env);

/* S2 in vectors of our own: EVW lanes */
enum { EVW = 16 };

static void nest(E *e, const int *order, int n, Sched *s, LLVMValueRef wx,
	NestFn f, void *env, int vec_inner)
{
	ELoop l;
	int d;
	LLVMValueRef lo, hi;

	if (n == 0) {
		f(e, env);
		return;
	}
	d = order[0];
	lo = e_i64(e, 0);
	hi = e_extent(e, d);
	if (d == s->split && e->hi && e->hi[d]) {
		/* [wx * hi / nx, (wx + 1) * hi / nx): both cores busy at any length */
		lo = LLVMBuildSDiv(e->b, LLVMBuildMul(e->b, wx, hi, ""), s->nx, "lo");
		hi = LLVMBuildSDiv(e->b, LLVMBuildMul(e->b, LLVMBuildAdd(e->b, wx, e_i64(e, 1), ""),
			hi, ""), s->nx, "hi");
	} else if (d == s->split || d == s->split2) {
		/* [w * ext / g, (w + 1) * ext / g) */
		int j = d == s->split2;
		LLVMValueRef w = s->g[1] == 1 ? wx : j ? LLVMBuildURem(e->b, wx, e_i64(e, s->g[1]), "") :
			LLVMBuildUDiv(e->b, wx, e_i64(e, s->g[1]), "");

		lo = LLVMBuildUDiv(e->b, LLVMBuildMul(e->b, w, hi, ""), e_i64(e, s->g[j]), "lo");
		hi = LLVMBuildUDiv(e->b, LLVMBuildMul(e->b, LLVMBuildAdd(e->b, w, e_i64(e, 1), ""),
			hi, ""), e_i64(e, s->g[j]), "hi");
	}
	e->dimv[d] = e_loop_begin(e, &l, lo, hi, NULL);
	nest(e, order + 1, n - 1, s, wx, f, env, vec_inner);
	e_loop_end(e, &l, NULL, vec_inner && n == 1 ? LOOP_VECTORIZE : 0);
}

typedef struct LoopEnv {
	Sched *s;
	LLVMValueRef wx;
	int phase;            /* S2: 0 init, 1 body, 2 epilogue */
	int inner;            /* S2: the innermost parallel dim */
	int tail;             /* S2 in vectors: the row may end in a vector
	                       * masked to it (e_tail_ok) */
	int rdim;             /* S2 in vectors: the parallel dim outside the
	                       * row whose points go in blocks (s2_rows), or -1 */
	int rows;             /* the block's points of rdim, from e->dimv[rdim] */
	int unroll;           /* V1: the dim outside the vector's whose points
	                       * each vector computes, one by one, or -1 */
	int scatter;          /* V1: the vector's lanes not beside each other
	                       * in the output: stored by a scatter */
} LoopEnv;

static void store_out(E *e, KOut *o, LLVMValueRef v)
{
	e_store(e, v, store_ptr(e, o), e->k->bind[o->buf].type->elem);
}

/* Long float sums in a cascade.  A sum of N terms added into one
 * accumulator in turn errs by up to N - 1 roundings (24276 terms of a
 * mean squared error: 1.3e-5 off where PyTorch's cascade sum is
 * 1e-7); PyTorch, oneDNN and NumPy add in blocks.  The reduction's loops
 * (one too long strip-mined into chunks of at most CASC_B points, or
 * CASC_VB for the loop LLVM vectorizes, whose 16 lanes each take a
 * sixteenth) are grouped from the innermost out, each group as many
 * loops as add at most CASC_B terms into one accumulator; each group
 * but the outermost sums into a fresh one, started at -0, which the
 * group outside it then adds.  A sum within CASC_B terms has one group:
 * its loops and code as before.  Other reductions (max, a product, an
 * integer sum) are exact or ordered and keep one accumulator. */
enum { CASC_B = 64, CASC_VB = 1024, CASC_LANES = 16, CASC_SAVE = 16 };

typedef struct RLoop {
	int d;                /* the dim */
	int64_t chunk;        /* > 1: a strip-mined dim's loop over chunks of
	                       * this many points; 1: over its points */
	int64_t trips;        /* at most this many (the extent's top) */
	int part;             /* the group's outermost loop: a fresh sum */
} RLoop;

typedef struct RNest {
	RLoop l[12 * 64];     /* a dim's chunk loops: 10 at most (64^10 >
	                       * 2^59), then its own */
	int n;
	int vec;              /* the innermost loop vectorized by LLVM */
	NestFn body;
	void *env;
	/* open (1): the cascaded sums' accumulators kept in save, fresh
	 * ones in their place, at -0; close (0): each fresh one added into
	 * the one kept, which is back in its place */
	void (*part)(E *e, void *env, LLVMValueRef *save, int open);
} RNest;

/* out's body is acc + x in f32 or f64 (x without the accumulator) */
static int casc_sum(const KOut *o)
{
	KExpr *v = o->val;

	return v && v->kind == KX_OP && v->op == kop.addf && v->type == o->acctype &&
		(o->acctype->kind == TY_F32 || o->acctype->kind == TY_F64) && kx_acc_other(v);
}

/* s's reduction loops, grouped where casc (else as they are) */
static void rnest_plan(E *e, Sched *s, RNest *rn, int casc)
{
	int r, i;
	int64_t run = 1;

	rn->n = 0;
	for (r = 0; r < s->nred; r++) {
		int d = s->red[r];
		int64_t ext = e->k->ext[d], pts = rn->vec && r == s->nred - 1 ? CASC_VB : CASC_B;
		int64_t c = 1, prev = ext;

		if (casc && ext > pts)
			for (c = pts; c < (ext + CASC_B - 1) / CASC_B; c *= CASC_B)
				;
		for (; c > 1; c = c == pts ? 1 : c / CASC_B) {
			rn->l[rn->n++] = (RLoop){ d, c, (prev + c - 1) / c, 0 };
			prev = c;
		}
		rn->l[rn->n++] = (RLoop){ d, 1, prev, 0 };
	}
	for (i = rn->n - 1; casc && i >= 0; i--) {
		int64_t t = rn->l[i].trips;

		if (rn->vec && i == rn->n - 1)
			t = (t + CASC_LANES - 1) / CASC_LANES;
		if (run * t > CASC_B) {
			rn->l[i + 1].part = 1;
			run = 1;
		}
		run *= t;
	}
}

static void rnest_emit(E *e, RNest *rn, int i, LLVMValueRef lo, LLVMValueRef hi)
{
	RLoop *L = &rn->l[i];
	LLVMValueRef save[CASC_SAVE], x;
	ELoop l;

	if (L->part)
		rn->part(e, rn->env, save, 1);
	x = e_loop_begin(e, &l, lo, hi, NULL);
	if (L->chunk > 1) {
		LLVMValueRef end = LLVMBuildAdd(e->b, x, e_i64(e, L->chunk), "");

		end = LLVMBuildSelect(e->b, LLVMBuildICmp(e->b, LLVMIntSLT, end, hi, ""), end, hi, "");
		rnest_emit(e, rn, i + 1, x, end);
	} else {
		e->dimv[L->d] = x;
		if (i + 1 < rn->n)
			rnest_emit(e, rn, i + 1, e_i64(e, 0), e_extent(e, rn->l[i + 1].d));
		else
			rn->body(e, rn->env);
	}
	e_loop_end(e, &l, L->chunk > 1 ? e_i64(e, L->chunk) : NULL,
		rn->vec && i == rn->n - 1 ? LOOP_VECTORIZE : 0);
	if (L->part)
		rn->part(e, rn->env, save, 0);
}

/* a fresh accumulator of type t at -0, in place of *slot (kept in *save),
 * or (open 0) its sum added into *save, back in place */
static void casc_slot(E *e, LLVMTypeRef t, LLVMValueRef *slot, LLVMValueRef *save, int open)
{
	LLVMValueRef z;

	if (open) {
		*save = *slot;
		*slot = e_alloca(e, t, "part");
		/* t: the scalar, or (S2) a vector of e->vw lanes */
		z = e_splat(e, LLVMConstReal(LLVMGetTypeKind(t) == LLVMVectorTypeKind ?
			LLVMGetElementType(t) : t, -0.0));
		LLVMBuildStore(e->b, z, *slot);
		return;
	}
	z = LLVMBuildFAdd(e->b, LLVMBuildLoad2(e->b, t, *save, ""), LLVMBuildLoad2(e->b, t, *slot, ""), "");
	LLVMBuildStore(e->b, z, *save);
	*slot = *save;
}

/* S1 innermost point of the parallel loops: init, reduce, epilogue. */
static void red_body(E *e, void *env)
{
	Kernel *k = e->k;
	int i;

	e_reset(e);
	for (i = 0; i < k->nout; i++) {
		LLVMValueRef v = e_expr(e, k->out[i].val);

		if (v)   /* else e_expr reported why */
			LLVMBuildStore(e->b, v, e->accp[i]);
	}
}

/* A float product reduction: acc * x.  Its order stays the order of the
 * loops: a product regrouped across vector lanes can overflow to inf
 * where the sequential one reaches a 0 first (inf * 0 = NaN, not 0). */
static int fp_product(Kernel *k)
{
	int i;

	for (i = 0; i < k->nout; i++) {
		KExpr *v = k->out[i].val;

		if (v && v->kind == KX_OP && v->op == kop.mulf &&
				(v->a[0]->kind == KX_ACC || v->a[1]->kind == KX_ACC))
			return 1;
	}
	return 0;
}

static void s1_part(E *e, void *env, LLVMValueRef *save, int open)
{
	Kernel *k = e->k;
	int i;

	(void)env;
	for (i = 0; i < k->nout; i++)
		if (casc_sum(&k->out[i]))
			casc_slot(e, e_type(e, k->out[i].acctype), &e->accp[i], &save[i], open);
}

static void s1_point(E *e, void *env)
{
	LoopEnv *le = env;
	Kernel *k = e->k;
	RNest rn = { .vec = !fp_product(k), .body = red_body, .part = s1_part };
	int i, casc = 0;

	if (e_point_start(e, le->s->nred, store_out))
		return;
	for (i = 0; i < k->nout; i++)
		casc |= casc_sum(&k->out[i]);
	rnest_plan(e, le->s, &rn, casc && k->nout <= CASC_SAVE);
	rnest_emit(e, &rn, 0, e_i64(e, 0), e_extent(e, rn.l[0].d));
	e_reset(e);
	for (i = 0; i < k->nout; i++) {
		LLVMValueRef v = k->out[i].epi ? e_expr(e, k->out[i].epi)
			: LLVMBuildLoad2(e->b, e_type(e, k->out[i].acctype), e->accp[i], "");

		if (v)
			store_out(e, &k->out[i], v);
	}
}

/* S2: the accumulator lives in the output; the innermost parallel dim is
 * the innermost loop of every phase, so each phase vectorizes. */
static void s2_phase(E *e, void *env)
{
	LoopEnv *le = env;
	KOut *o = &e->k->out[0];
	LLVMValueRef v;

	e_reset(e);
	e->accp[0] = store_ptr(e, o);
	if (le->phase == 0)
		v = e_expr(e, o->init);
	else if (le->phase == 1)
		v = e_expr(e, o->val);
	else
		v = e_expr(e, o->epi);
	if (v)
		store_out(e, o, v);
}

static void s2_point(E *e, void *env)
{
	LoopEnv *le = env;
	int in[1] = { le->inner };

	le->phase = 0;
	nest(e, in, 1, le->s, le->wx, s2_phase, le, 1);
	le->phase = 1;
	{
		/* reduction loops outside, the parallel dim inside */
		int order[65], i;

		for (i = 0; i < le->s->nred; i++)
			order[i] = le->s->red[i];
		order[i] = le->inner;
		nest(e, order, le->s->nred + 1, le->s, le->wx, s2_phase, le, 1);
	}
	if (e->k->out[0].epi) {
		le->phase = 2;
		nest(e, in, 1, le->s, le->wx, s2_phase, le, 1);
	}
}

/* S2 in vectors of our own keeps its accumulators in registers: a group
 * of up to S2_GROUP vectors of the row (independent chains for the FP
 * pipes) takes its initial values, every reduction point in the loops'
 * order, its epilogue, one store.  Reduction loops of at most S2_UNROLL
 * points in all are unrolled (a window's taps: constant offsets).  A
 * group may span up to S2_ROWS points of the next dim out (s2_rows),
 * S2_ACCS accumulators or fewer in all where it does (s2_blockable:
 * sixteen zmm accumulators spilled at mobilenet_v2's rows of 56). */
enum { S2_GROUP = 4, S2_UNROLL = 32, S2_ROWS = 4, S2_ACCS = 12 };

typedef struct S2Group {
	LoopEnv *le;
	LLVMValueRef base, row, slot[S2_GROUP * S2_ROWS];
	int w, u;
	int ntail;            /* > 0: the last vector's lanes in the row */
	LLVMTypeRef vt;       /* the accumulators' */
	int fail;             /* an expression not emitted (e_expr said why) */
} S2Group;

/* the group's i-th accumulator: the (i % u)-th vector of the (i / u)-th
 * row of the block -- its lanes' start in the row, its accumulator, its
 * lanes (the row's last vector may be a tail) */
static void s2_at(E *e, S2Group *g, int i)
{
	int v = i % g->u, r = i / g->u;

	e_reset(e);
	e->ntail = v == g->u - 1 ? g->ntail : 0;
	e->dimv[g->le->inner] = LLVMBuildAdd(e->b, g->base, e_i64(e, (int64_t)v * g->w), "");
	if (g->le->rows > 1) {
		e->dimv[g->le->rdim] = LLVMBuildAdd(e->b, g->row, e_i64(e, r), "");
		e->rdim = g->le->rdim, e->rbase = g->row, e->roff = r;
	}
	e->accp[0] = g->slot[i];
}

/* every accumulator's step at a point of the reduction loops */
static void s2_step(E *e, void *env)
{
	S2Group *g = env;
	int i;

	for (i = 0; i < g->u * g->le->rows && !g->fail; i++) {
		LLVMValueRef v;

		s2_at(e, g, i);
		if (!(v = e_expr(e, e->k->out[0].val)))
			g->fail = 1;
		else
			LLVMBuildStore(e->b, v, g->slot[i]);
	}
}

static void s2_part(E *e, void *env, LLVMValueRef *save, int open)
{
	S2Group *g = env;
	int i;

	for (i = 0; i < g->u * g->le->rows; i++)
		casc_slot(e, g->vt, &g->slot[i], &save[i], open);
}

/* the reduction loops from r on, unrolled (s2_few) */
static int s2_reduce(E *e, S2Group *g, int r)
{
	Sched *s = g->le->s;
	int d;
	int64_t c;

	if (r == s->nred) {
		s2_step(e, g);
		return -g->fail;
	}
	d = s->red[r];
	for (c = 0; c < e->k->ext[d]; c++) {
		e->dimv[d] = e_i64(e, c);
		if (s2_reduce(e, g, r + 1))
			return -1;
	}
	return 0;
}

/* the reduction loops are few points of constant extents */
static int s2_few(E *e, Sched *s)
{
	int64_t n = 1;
	int r;

	for (r = 0; r < s->nred; r++) {
		if (e->hi && e->hi[s->red[r]])
			return 0;
		n *= e->k->ext[s->red[r]];
		if (n > S2_UNROLL)
			return 0;
	}
	return 1;
}

/* u vectors of w lanes from base; ntail > 0: of the last, the first
 * ntail lanes are the row's */
static void s2_group(E *e, LoopEnv *le, LLVMValueRef base, int w, int u, int ntail)
{
	KOut *o = &e->k->out[0];
	S2Group g = { le, base, le->rows > 1 ? e->dimv[le->rdim] : NULL, { 0 }, w, u, ntail };
	LLVMTypeRef vt;
	LLVMValueRef v;
	int i, n = u * le->rows;

	e->vw = w;
	e->vdim = le->inner;
	/* a window's rows: mostly one affine piece */
	e->pieces = w > 1;
	vt = g.vt = e_vtype(e, e_type(e, o->acctype));
	for (i = 0; i < n; i++) {
		g.slot[i] = e_alloca(e, vt, "acc");
		s2_at(e, &g, i);
		if (!(v = e_expr(e, o->init)))
			goto out;
		LLVMBuildStore(e->b, v, g.slot[i]);
	}
	if (s2_few(e, le->s)) {
		if (s2_reduce(e, &g, 0))
			goto out;
	} else {
		RNest rn = { .vec = 0, .body = s2_step, .env = &g, .part = s2_part };

		rnest_plan(e, le->s, &rn, casc_sum(o));
		rnest_emit(e, &rn, 0, e_i64(e, 0), e_extent(e, rn.l[0].d));
		if (g.fail)
			goto out;
	}
	for (i = 0; i < n; i++) {
		s2_at(e, &g, i);
		v = o->epi ? e_expr(e, o->epi) : LLVMBuildLoad2(e->b, vt, g.slot[i], "");
		if (!v)
			break;
		store_out(e, o, v);
	}
out:
	if (le->rows > 1)
		e->dimv[le->rdim] = g.row;
	e->rdim = -1;
	e->vw = 1;
	e->pieces = 0;
	e->ntail = 0;
}

/* n vectors of w lanes of the row from at, in groups of up to S2_GROUP
 * (a loop over the whole groups where there are several), the last
 * group holding the last 1 to S2_GROUP vectors; ntail > 0: the last
 * vector's lanes in the row */
static void s2_run(E *e, LoopEnv *le, int64_t at, int64_t n, int w, int ntail)
{
	int64_t nloop = (n - 1) / S2_GROUP, end = at + nloop * S2_GROUP * w;
	ELoop l;

	if (n <= 0)
		return;
	if (nloop > 1) {
		LLVMValueRef b = e_loop_begin(e, &l, e_i64(e, at), e_i64(e, end), NULL);

		s2_group(e, le, b, w, S2_GROUP, 0);
		e_loop_end(e, &l, e_i64(e, (int64_t)S2_GROUP * w), 0);
	} else if (nloop == 1) {
		s2_group(e, le, e_i64(e, at), w, S2_GROUP, 0);
	}
	s2_group(e, le, e_i64(e, end), w, (int)(n - nloop * S2_GROUP), ntail);
}

/* The row of the innermost parallel dim in vectors of EVW lanes, the
 * last masked to the row's end (a row shorter than EVW: one vector of
 * 16, 8 or 4 lanes).  Where the kernel rules masks out, EVW lanes at a
 * time, then 8 and 4, the last few one at a time. */
static void s2_vec_point(E *e, void *env)
{
	LoopEnv *le = env;
	int64_t ext = e->k->ext[le->inner], at = 0, n;
	int w;

	if (le->tail && ext < EVW) {
		w = ext > 8 ? 16 : ext > 4 ? 8 : 4;
		s2_run(e, le, 0, 1, w, ext < w ? (int)ext : 0);
	} else if (le->tail) {
		s2_run(e, le, 0, (ext + EVW - 1) / EVW, EVW, (int)(ext % EVW));
	} else {
		for (w = EVW; w >= 1; w = w == 4 ? 1 : w / 2) {
			n = (ext - at) / w;
			s2_run(e, le, at, n, w, 0);
			at += n * w;
		}
	}
}

/* The points of rdim in blocks of le->rows, one group of accumulators
 * over the block's rows (a depthwise window's input rows loaded once for
 * the block, not once for each output row: LLVM's GVN sees the same
 * loads), the rest one at a time. */
static void s2_rows(E *e, void *env)
{
	LoopEnv *le = env;
	int64_t ext = e->k->ext[le->rdim], whole = ext / le->rows * le->rows;
	int rows = le->rows;
	ELoop l;

	if (whole) {
		e->dimv[le->rdim] = e_loop_begin(e, &l, e_i64(e, 0), e_i64(e, whole), NULL);
		s2_vec_point(e, le);
		e_loop_end(e, &l, e_i64(e, rows), 0);
	}
	if (whole < ext) {
		le->rows = 1;
		e->dimv[le->rdim] = e_loop_begin(e, &l, e_i64(e, whole), e_i64(e, ext), NULL);
		s2_vec_point(e, le);
		e_loop_end(e, &l, NULL, 0);
		le->rows = rows;
	}
}

/* S2 in vectors of our own (a pooling window's loads: runs, stride-2
 * pairs, gathers only at the padding, where LLVM's vectorizer gathers
 * every lane): f32 accumulators, EVW lanes or more of the parallel dim,
 * or 4 or more where the row may end in a masked vector */
static int s2_explicit(Kernel *k, Sched *s, int tail)
{
	int64_t ext = k->ext[s->order[s->n - 1]];

	return k->out[0].acctype->kind == TY_F32 && (ext >= EVW || (tail && ext >= 4));
}

/* a cascaded sum (casc_sum) of more than CASC_B terms: not S2 in the
 * output, whose one accumulator an element is its output */
static int long_sum(Kernel *k, Sched *s)
{
	int64_t n = 1;
	int r;

	for (r = 0; r < s->nred; r++)
		n *= k->ext[s->red[r]];
	return casc_sum(&k->out[0]) && n > CASC_B;
}

/* every load of the kernel's output is one a tail's masks cover */
static int s2_tail(E *e, Kernel *k)
{
	KOut *o = &k->out[0];

	return e_tail_ok(e, o->init) && e_tail_ok(e, o->val) && e_tail_ok(e, o->epi);
}

/* S2 applies: one output, stored along the innermost parallel dim d
 * (at least 8 points; 4 where the row is one masked vector of f32s) */
static int use_s2(Kernel *k, Sched *s, int tail)
{
	KOut *o = &k->out[0];
	Type *bt;
	int d;

	if (k->nout != 1 || !s->nred || s->n < 1)
		return 0;
	d = s->order[s->n - 1];
	if (d == s->split || d == s->split2 || k->ext[d] < (tail && o->acctype->kind == TY_F32 ? 4 : 8))
		return 0;
	bt = k->bind[o->buf].type;
	/* an output of another type than the accumulators' (a bf16 pool's,
	 * its epilogue rounding them) only in vectors of our own, which keep
	 * the accumulators in registers, not in the output */
	if ((bt->elem != o->acctype || (o->epi && o->epi->type != o->acctype)) &&
			(!o->epi || o->epi->type != bt->elem || !s2_explicit(k, s, tail)))
		return 0;
	/* unit stride in d */
	{
		int64_t c;
		KCtx kc = { NULL, k->ndims, k->ext };
		IExpr *lin;
		int i;

		(void)kc;
		lin = NULL;
		for (i = 0; i < bt->rank; i++)
			if (ix_uses_dim(o->ix[i], d) && i != bt->rank - 1)
				return 0;
		if (!(o->ix[bt->rank - 1]->kind == IX_DIM && o->ix[bt->rank - 1]->v == d))
			return 0;
		(void)lin;
		(void)c;
	}
	return 1;
}

/* q vectors of n lanes (q = 2 or 4) interleaved: lane j of v[i] at j q + i
 * (an int8 pack's four k of a column together, a bf16 pack's two) */
LLVMValueRef interleave(E *e, LLVMValueRef *v, int n, int q)
{
	LLVMValueRef m2[128], mq[256];
	int i, j;

	for (i = 0; i < 2 * n; i++)
		m2[i] = LLVMConstInt(e->i32, (unsigned long long)i, 0);
	for (j = 0; j < n; j++)
		for (i = 0; i < q; i++)
			mq[q * j + i] = LLVMConstInt(e->i32, (unsigned long long)(i * n + j), 0);
	if (q == 2)
		return LLVMBuildShuffleVector(e->b, v[0], v[1], LLVMConstVector(mq, (unsigned)(2 * n)), "");
	return LLVMBuildShuffleVector(e->b,
		LLVMBuildShuffleVector(e->b, v[0], v[1], LLVMConstVector(m2, (unsigned)(2 * n)), ""),
		LLVMBuildShuffleVector(e->b, v[2], v[3], LLVMConstVector(m2, (unsigned)(2 * n)), ""),
		LLVMConstVector(mq, (unsigned)(4 * n)), "");
}

/* The w lanes of a pack kernel's row from at, its value's vector */
static LLVMValueRef row_lanes(E *e, KOut *o, LLVMValueRef at, int w)
{
	LLVMValueRef v;

	e_reset(e);
	e->dimv[3] = at;
	e->vw = w;
	e->vdim = 3;
	v = e_expr(e, o->val);
	e->vw = 1;
	return v;
}

/* A pack kernel's point (batch, panel, k): the tile's lanes as one
 * vector -- contiguous loads, stride-2 pairs or a gather, by gather() --
 * stored as the row of the panel; a grouped pack's (vpack 2: batch,
 * panel, k / q, with q = 4 for int8 and 2 for bf16) the q k's vectors
 * interleaved.  Written vectorized, it needs
 * none of LLVM's loop vectorizer, the costliest part of compiling a
 * network. */
static void pack_point(E *e, void *env)
{
	Kernel *k = e->k;
	KOut *o = &k->out[0];
	LLVMValueRef v[4];
	int i, n = k->vpack != 2 ? 1 : k->ext[4] == 2 ? 2 : 4;

	(void)env;
	for (i = 0; i < n; i++) {
		if (n > 1)
			e->dimv[4] = e_i64(e, i);
		if (!(v[i] = row_lanes(e, o, e_i64(e, 0), (int)k->ext[3])))
			return;
	}
	if (n > 1) {
		e->dimv[4] = e_i64(e, 0);
		v[0] = interleave(e, v, (int)k->ext[3], n);
		e->vw = n * (int)k->ext[3];
	}
	e_store(e, v[0], store_ptr(e, o), k->bind[o->buf].type->elem);
	e->vw = 1;
}

/* A pack kernel's point whose row is longer than pack_point's vector (a
 * channels-last tap copy of more than 64 channels): the row in vectors
 * of EVW lanes, a loop over them, then one of what is left. */
static void pack_row_point(E *e, void *env)
{
	Kernel *k = e->k;
	KOut *o = &k->out[0];
	int64_t whole = k->ext[3] / EVW * EVW;
	Type *el = k->bind[o->buf].type->elem;
	LLVMValueRef v;
	ELoop l;

	(void)env;
	v = row_lanes(e, o, e_loop_begin(e, &l, e_i64(e, 0), e_i64(e, whole), NULL), EVW);
	if (v)
		e_store(e, v, store_ptr(e, o), el);
	e_loop_end(e, &l, e_i64(e, EVW), 0);
	if (v && whole < k->ext[3] && (v = row_lanes(e, o, e_i64(e, whole), (int)(k->ext[3] - whole))))
		e_store(e, v, store_ptr(e, o), el);
}

/* Whether x holds a KX_FIX (wino.c's check, a branch that LLVM's loop
 * vectorizer does not take) */
static int has_fix(KExpr *x, PMap *seen)
{
	int i;

	if (!x || pmap_get(seen, x))
		return 0;
	*pmap_slot(seen, x, 1) = x;
	if (x->kind == KX_FIX)
		return 1;
	for (i = 0; i < x->n; i++)
		if (has_fix(x->a[i], seen))
			return 1;
	return 0;
}

/* V1: a kernel without reductions whose value holds a KX_FIX, or a
 * Winograd transform, in vectors of our own along its innermost parallel
 * dim (not split), compiled by the light pipeline, not O3.  Its one
 * output is stored along that dim, or, by an output transform that
 * writes NCHW (schedule puts its channels innermost, where its sums lie
 * beside each other), by a scatter (*scatter).  An input transform's
 * next dim out, its 16 points, is unrolled inside each vector (*unroll):
 * the window's loads are the same for every point, and the select of the
 * point's sum folds.  0 where V1 does not apply. */
static int use_v1(Kernel *k, Sched *s, int *unroll, int *scatter)
{
	KOut *o = &k->out[0];
	PMap seen = {0};
	int d, r, along, fix;

	*unroll = -1;
	*scatter = 0;
	if (k->nout != 1 || s->nred || s->n < 1)
		return 0;
	d = s->order[s->n - 1];
	if (d == s->split || d == s->split2)
		return 0;
	if (wino_is(k->root, "input")) {
		if (s->n < 2 || s->order[s->n - 2] == s->split || s->order[s->n - 2] == s->split2)
			return 0;
		*unroll = s->order[s->n - 2];
	}
	r = k->bind[o->buf].type->rank;
	along = o->ix[r - 1]->kind == IX_DIM && o->ix[r - 1]->v == d;
	for (int i = 0; i < r - 1; i++)
		along = along && !ix_uses_dim(o->ix[i], d);
	if (!along && !wino_is(k->root, "output"))
		return 0;
	*scatter = !along;
	fix = has_fix(o->val, &seen) || has_fix(o->epi, &seen);
	pmap_free(&seen);
	return fix || wino_kind(k->root);
}

/* Whether x depends on dim d; if so, its value is dropped from the memo
 * (seen: the nodes visited, each mapped to itself where it depends) */
static int forget_dim(E *e, KExpr *x, int d, PMap *seen)
{
	void **slot;
	int dep = 0, i;

	if (!x)
		return 0;
	if ((slot = pmap_slot(seen, x, 0)))
		return *slot == x;
	for (i = 0; i < x->n; i++)
		dep |= forget_dim(e, x->a[i], d, seen);
	for (i = 0; i < x->rank; i++)
		dep |= ix_uses_dim(x->ix[i], d);
	*pmap_slot(seen, x, 1) = dep ? (void *)x : (void *)seen;
	if (dep && (slot = pmap_slot(&e->memo, x, 0)))
		*slot = NULL;
	return dep;
}

/* w lanes of the row from base (ntail > 0: its first ntail), at each
 * point of the unrolled dim: what does not depend on that dim (the
 * window's loads) emitted once for them all */
static void v1_vector(E *e, LoopEnv *le, LLVMValueRef base, int w, int ntail)
{
	Kernel *k = e->k;
	KOut *o = &k->out[0];
	Type *bt = k->bind[o->buf].type;
	int64_t nu = le->unroll >= 0 ? k->ext[le->unroll] : 1;
	LLVMValueRef v;

	e->vw = w;
	e->vdim = le->inner;
	e->ntail = ntail;
	e_reset(e);
	e->dimv[le->inner] = base;
	for (int64_t u = 0; u < nu; u++) {
		if (le->unroll >= 0) {
			PMap seen = {0};

			forget_dim(e, o->val, le->unroll, &seen);
			forget_dim(e, o->epi, le->unroll, &seen);
			pmap_free(&seen);
			e->dimv[le->unroll] = e_i64(e, u);
		}
		if ((v = e_expr(e, o->val)) && o->epi) {
			e->accp[0] = e_alloca(e, LLVMTypeOf(v), "acc");
			LLVMBuildStore(e->b, v, e->accp[0]);
			v = e_expr(e, o->epi);
		}
		if (!v)
			break;
		if (le->scatter && w > 1)
			e_scatter(e, v, o->buf, e_linear(e, bt, o->ix), bt->elem);
		else
			store_out(e, o, v);
	}
	e->vw = 1;
	e->ntail = 0;
}

/* The row in vectors of EVW lanes; its end in a masked vector where the
 * kernel's loads allow, else a point at a time */
static void v1_point(E *e, void *env)
{
	LoopEnv *le = env;
	int64_t ext = e->k->ext[le->inner], whole = ext / EVW * EVW;
	ELoop l;

	if (whole) {
		LLVMValueRef b = e_loop_begin(e, &l, e_i64(e, 0), e_i64(e, whole), NULL);

		v1_vector(e, le, b, EVW, 0);
		e_loop_end(e, &l, e_i64(e, EVW), 0);
	}
	if (whole < ext && le->tail) {
		v1_vector(e, le, e_i64(e, whole), EVW, (int)(ext - whole));
	} else if (whole < ext) {
		LLVMValueRef b = e_loop_begin(e, &l, e_i64(e, whole), e_i64(e, ext), NULL);

		v1_vector(e, le, b, 1, 0);
		e_loop_end(e, &l, NULL, 0);
	}
}

/* A triangular sum's row (scan_dim): the sum from its initial value,
 * at each j of the scan's dim the body at k = j (its one new term; the
 * mask k <= j folds) and the point's epilogue and store */
static void scan_point(E *e, void *env)
{
	LoopEnv *le = env;
	KOut *o = &e->k->out[0];
	LLVMValueRef v, j;
	ELoop l;

	e_reset(e);
	e->dimv[le->s->scan] = e->dimv[le->s->scanr] = e_i64(e, 0);
	if (!(v = e_expr(e, o->init)))
		return;
	LLVMBuildStore(e->b, v, e->accp[0]);
	j = e_loop_begin(e, &l, e_i64(e, 0), e_extent(e, le->s->scan), NULL);
	e_reset(e);
	e->dimv[le->s->scan] = e->dimv[le->s->scanr] = j;
	if ((v = e_expr(e, o->val))) {
		LLVMBuildStore(e->b, v, e->accp[0]);
		v = o->epi ? e_expr(e, o->epi) : LLVMBuildLoad2(e->b, e_type(e, o->acctype), e->accp[0], "");
		if (v)
			store_out(e, o, v);
	}
	e_loop_end(e, &l, NULL, 0);
}

/* the pack path applies: one output, stored row-major over the four
 * dims (an int8 pack's five: its bytes in groups of four k), the tile
 * within a vector's lanes (a plain pack's longer rows by pack_row_point),
 * and some dim besides the tile to split across workgroups */
static int vpack_ok(Kernel *k, Sched *s)
{
	int nd = k->vpack == 2 ? 5 : 4;

	return k->vpack && k->ndims == nd && k->nout == 1 && !k->out[0].epi && k->ext[3] > 1 &&
		(k->ext[3] <= 64 || k->vpack == 1) && s->split >= 0 && s->split != 3 &&
		s->split != 4 && !k->red[3];
}

/* S2 in vectors may take blocks of the next parallel dim out (s2_rows):
 * a window of a few taps (unrolled) whose input the block's rows share,
 * a dim of constant extent at least two not split across workgroups;
 * as many rows as keep the accumulators in registers */
static int s2_blockable(E *e, Kernel *k, Sched *s, LoopEnv *le)
{
	int64_t ext = k->ext[le->inner], u;
	int d;

	if (s->n < 2 || !s2_few(e, s))
		return 0;
	d = s->order[s->n - 2];
	if (d == s->split || d == s->split2 || k->ext[d] < 2 || (e->hi && e->hi[d]) ||
			(k->bound && k->bound[d].c))
		return 0;
	u = (ext + EVW - 1) / EVW;
	if (u > S2_GROUP)
		u = S2_GROUP;
	le->rdim = d;
	le->rows = S2_ACCS / (int)u < S2_ROWS ? S2_ACCS / (int)u : S2_ROWS;
	if (le->rows > k->ext[d])
		le->rows = (int)k->ext[d];
	return le->rows > 1;
}

void nest_emit(E *e, Kernel *k, LLVMValueRef wx, LLVMValueRef nx)
{
	Sched s;
	LoopEnv le = { 0 };
	int i;

	schedule(k, &s);
	s.nx = nx;
	if (s.empty)
		return;
	if (vpack_ok(k, &s)) {
		int order[4], n = 0;

		for (i = 0; i < s.n; i++)
			if (s.order[i] != 3 && s.order[i] != 4)
				order[n++] = s.order[i];
		nest(e, order, n, &s, wx, k->ext[3] <= 64 ? pack_point : pack_row_point, NULL, 0);
		k->light = 1;
		return;
	}
	le.s = &s;
	le.wx = wx;
	for (i = 0; i < k->nout; i++)
		e->accp[i] = e_alloca(e, e_type(e, k->out[i].acctype), "acc");
	if (s.scan >= 0) {
		nest(e, s.order, s.n, &s, wx, scan_point, &le, 0);
		return;
	}
	le.tail = k->nout == 1 && s2_tail(e, k);
	if (use_v1(k, &s, &le.unroll, &le.scatter)) {
		le.inner = s.order[s.n - 1];
		k->light = 1;
		nest(e, s.order, s.n - (le.unroll >= 0 ? 2 : 1), &s, wx, v1_point, &le, 0);
	} else if (use_s2(k, &s, le.tail) && (s2_explicit(k, &s, le.tail) || !long_sum(k, &s))) {
		le.inner = s.order[s.n - 1];
		k->light = s2_explicit(k, &s, le.tail);
		le.rows = 1;
		le.rdim = -1;
		if (k->light && s2_blockable(e, k, &s, &le))
			nest(e, s.order, s.n - 2, &s, wx, s2_rows, &le, 0);
		else
			nest(e, s.order, s.n - 1, &s, wx, k->light ? s2_vec_point : s2_point, &le, 0);
	} else {
		nest(e, s.order, s.n, &s, wx, s1_point, &le, !s.nred);
	}
}

