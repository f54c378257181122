/*
 * schedule.c - how a kernel iterates on the GPU: tiled through shared
 * memory (a contraction), a thread per point, or a block per point (a
 * long reduction with an associative combiner); the launch's grid, block
 * and shared memory follow.
 */
#include <string.h>

#include "cuda.h"

/* The op combining two partials, if out's body is acc OP f(...) with an
 * associative, commutative OP and an accumulator we can shuffle. */
static int combiner(const Kernel *k)
{
	const int ok[] = { kop.addf, kop.mulf, kop.maxf, kop.minf, kop.addi, kop.muli,
		kop.maxsi, kop.minsi, kop.maxui, kop.minui, kop.andi, kop.ori, kop.xori, -1 };
	const KOut *o = &k->out[0];
	const KExpr *v = o->val;
	Type *t = o->acctype;
	int i;

	if (k->nout != 1 || !v || v->kind != KX_OP || v->n != 2 || v->type != t)
		return -1;
	if (t->kind == TY_BF16 || t->kind == TY_INDEX || (t->kind == TY_INT && t->width > 64))
		return -1;
	for (i = 0; ok[i] >= 0 && ok[i] != v->op; i++)
		;
	if (ok[i] < 0)
		return -1;
	for (i = 0; i < 2; i++)
		if (v->a[i]->kind == KX_ACC && v->a[i]->buf == 0 && !kx_has_acc(v->a[1 - i]))
			return v->op;
	return -1;
}

void cuda_schedule(const Kernel *k, CSched *s)
{
	int i;

	memset(s, 0, sizeof *s);
	/* the first output's layout orders the parallel dims, so that
	 * neighbouring threads store to neighbouring addresses */
	s->P = !kernel_loops(k, s->par, &s->npar, s->red, &s->nred);
	s->R = 1;
	for (i = 0; i < s->nred; i++)
		s->R *= k->ext[s->red[i]];
	for (i = 0; i < s->npar; i++)
		s->P *= k->ext[s->par[i]];
	s->block_red = s->nred && combiner(k) >= 0 &&
		(s->R >= 1024 || (s->R >= 64 && s->P <= 4096));
}

/* x = extf(h) of an f16 or bf16 h: h, its type in *k */
static KExpr *narrow(KExpr *x, TypeKind *k)
{
	if (x->kind != KX_OP || x->op != kop.extf || x->n != 1)
		return NULL;
	*k = x->a[0]->type->kind;
	return *k == TY_F16 || *k == TY_BF16 ? x->a[0] : NULL;
}

int cuda_tile_plan(const Opts *o, const Kernel *k, const CSched *s, CTile *t)
{
	const KOut *out = &k->out[0];
	uint64_t dx = 0, dy = 0;
	int i, d;

	memset(t, 0, sizeof *t);
	if (o->no_micro || k->nout != 1 || k->ndims > 63 || !s->nred || s->npar < 2 ||
			!kx_is_zero(out->init) || !gemm_mac(out->val, &t->x, &t->y))
		return 0;
	kx_dims(t->x, &dx);
	kx_dims(t->y, &dy);
	d = s->par[s->npar - 1];
	if ((dx >> d & 1) && !(dy >> d & 1)) {
		KExpr *x = t->x;
		uint64_t m = dx;

		t->x = t->y, t->y = x;
		dx = dy, dy = m;
	}
	t->M = t->N = t->B = 1;
	for (i = 0; i < s->npar; i++) {
		d = s->par[i];
		if ((dx >> d & 1) && !(dy >> d & 1))
			t->md[t->nm++] = d, t->M *= k->ext[d];
		else if ((dy >> d & 1) && !(dx >> d & 1))
			t->nd[t->nn++] = d, t->N *= k->ext[d];
		else
			t->bd[t->nb++] = d, t->B *= k->ext[d];
	}
	{
		TypeKind kx = TY_F32, ky = TY_F32;   /* set where narrow() succeeds */
		KExpr *hx = narrow(t->x, &kx), *hy = narrow(t->y, &ky);

		if (hx && hy && kx == ky) {
			t->mma = kx == TY_F16 ? 1 : 2;
			t->xh = hx;
			t->yh = hy;
		}
	}
	return t->nm && t->nn && t->M >= 16 && t->N >= 16 && s->R >= TK;
}

int cuda_points_bound(const Kernel *k, const CSched *s, KBound *b)
{
	*b = kernel_dims_bound(k, s->par, s->npar);
	return b->c != 0;
}

void cuda_launch(const Opts *o, Kernel *k, int64_t block[3], int64_t *shared)
{
	CSched s;
	CTile t;
	int64_t n;

	cuda_schedule(k, &s);
	if (cuda_tile_plan(o, k, &s, &t)) {
		int64_t tiles = ((t.M + TT - 1) / TT) * ((t.N + TT - 1) / TT);
		KBound b = kernel_dims_bound(k, t.bd, t.nb);

		n = t.B * tiles;
		k->grid[0] = n > CUDA_MAX_GRID ? CUDA_MAX_GRID : n;
		k->grid[1] = k->grid[2] = 1;
		/* the tiles run batch by batch: those of the batch at the
		 * call's length first */
		if (b.c && k->grid[0] > 1)
			k->glen[0] = (KBound){ b.c * tiles, b.d * tiles, 1 };
		block[0] = CUDA_BLOCK;
		block[1] = block[2] = 1;
		*shared = t.mma ? MMA_SHARED : TILE_SHARED;
		return;
	}
	n = s.block_red ? s.P : (s.P + CUDA_BLOCK - 1) / CUDA_BLOCK;
	k->grid[0] = n > CUDA_MAX_GRID ? CUDA_MAX_GRID : n < 1 ? 1 : n;
	k->grid[1] = k->grid[2] = 1;
	/* the blocks the points at the call's length need */
	if (k->grid[0] > 1 && cuda_points_bound(k, &s, &k->glen[0]))
		k->glen[0].q = s.block_red ? 1 : CUDA_BLOCK;
	block[0] = CUDA_BLOCK;
	block[1] = block[2] = 1;
	*shared = s.block_red ? CUDA_WARPS * SLOT : 0;
}
