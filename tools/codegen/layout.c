/*
 * layout.c - convolutions' activations kept channels last between them.
 *
 * linalg's convolutions read and write NCHW.  A GEMM that computes one
 * with its pixels as rows and its channels as columns (gemm_plan.c's
 * traded orientation) reads its input's channels as k and stores its
 * output's channels as vectors: both contiguous where the buffer is NHWC,
 * strided by a whole plane where it is NCHW (a 1x1 convolution's A then
 * steps 12 KB a k at 56x56; its tile stored a column at a time).  So a
 * value that one convolution's kernel writes and only convolutions read
 * -- as their input, directly or through a pad fused into them, or in an
 * elementwise epilogue fused into some kernel (a residual sum) -- lives in
 * its buffer channels last: the kernels that touch it index it in the
 * order (n, h, w, c), under a binding of that shape, and the host's
 * buffer has that type too.  Pools count as convolutions here (a max
 * pool's loop nest, ordered by its output's layout, then runs its vectors
 * along the channels), and so do Winograd's transforms (wino.c: the
 * output transform writes, the input transform and the check's direct
 * sums read).  The values around it keep linalg's layout: a
 * function's arguments and results, depthwise convolutions, reshapes,
 * anything the host copies or fills.  Nothing else changes:
 * each element is the same sum, stored elsewhere.
 *
 * A pad that a GEMM writes inside gets a layout of its own (align_pads):
 * its rows a whole number of lines long, each inside row starting one.
 *
 * Only on a target that asks for it (T_cpu: its GEMMs trade places for a
 * channels-last operand), for static f32 NCHW tensors, and not in a
 * function of a dynamic length (kbuild.c's length bounds read a value's
 * dims in its own order).
 */
#include <string.h>

#include "dispatch.h"

/* the physical order of a channels-last value's dims: (n, h, w, c) */
static const int cl_order[4] = { 0, 2, 3, 1 };

Type *value_buftype(Gen *g, Value *v)
{
	VInfo *vi = vinfo(g, v);

	return vi->phys ? vi->phys : v->type;
}

IExpr **value_index(KCtx *kc, Gen *g, Value *v, IExpr **ix)
{
	VInfo *vi = vinfo(g, v);
	IExpr **px;
	int i, r = v->type->rank;

	if (!vi->phys)
		return ix;
	px = arena_alloc(g->c, sizeof *px * (size_t)r);
	for (i = 0; i < r; i++)
		px[i] = ix[vi->perm ? cl_order[i] : i];
	for (i = 0; i < r; i++)
		if (vi->shift[i])
			px[i] = ix_add(kc, px[i], ix_const(kc, vi->shift[i]));
	return px;
}

static int is_conv(const Op *op)
{
	return op && op_is(op, "linalg.conv_2d_nchw_fchw") && op->nopnds == 3;
}

/* a pool's window runs over a plane of each channel: channels last, its
 * loop nest's vectors run along the channels (nest.c orders the loops by
 * the output's layout), its loads beside each other */
static int is_pool(const Op *op)
{
	return op && (op_is(op, "linalg.pooling_nchw_max") || op_is(op, "linalg.pooling_nchw_sum")) &&
		op->nopnds == 3;
}

static int nchw_f32(const Value *v)
{
	const Type *t = v->type;

	return t->kind == TY_TENSOR && t->rank == 4 && ty_static(t) && t->elem->kind == TY_F32;
}

/* op's operand i indexed by the loops in order (an elementwise op reads
 * that element of it) */
static int identity_operand(Gen *g, Op *op, int i)
{
	SOp s;
	AffMap *m;
	int j;

	if (!op_is(op, "linalg.generic") || op->nres != 1 || linalg_maps(g->c, op, &s) ||
			i >= s.nin || !all_parallel(&s))
		return 0;
	m = s.maps[i];
	if (m->nres != s.nloops || !is_perm(s.maps[s.nin]))
		return 0;
	for (j = 0; j < m->nres; j++)
		if (m->res[j]->kind != AFF_DIM || m->res[j]->v != j)
			return 0;
	return 1;
}

/* Whether every use of v is a convolution's or pool's input, a pad
 * fused into them (not a buffer of its own) or an elementwise op fused
 * into some kernel's epilogue */
static int conv_reads(Gen *g, Value *v, int depth)
{
	Use *u;

	if (!v->uses || depth > 2)
		return 0;
	for (u = v->uses; u; u = u->next) {
		Op *op = u->owner;
		int i = (int)(u - op->opnds);

		/* a Winograd transform's loads, and its check's direct sums */
		if ((wino_is_fix(op) && i == 1) || (wino_is(op, "input") && op->parent == v->def->parent &&
				i < op->nopnds - op->nres))
			continue;
		if (op->parent != v->def->parent || op->nres < 1)
			return 0;
		if ((is_conv(op) || is_pool(op)) && i == 0)
			continue;
		if (op_is(op, "tensor.insert_slice") && i == 0 && !vinfo(g, RES(op, 0))->mat &&
				pad_value(g, op) && conv_reads(g, RES(op, 0), depth + 1))
			continue;
		if (vinfo(g, RES(op, 0))->claimed && identity_operand(g, op, i))
			continue;
		return 0;
	}
	return 1;
}

/* Whether every use of v is a structured op's input in v's block (read
 * by kernels at v's own indices, never by the host) */
static int kernel_reads(Value *v)
{
	Use *u;

	if (!v->uses)
		return 0;
	for (u = v->uses; u; u = u->next) {
		Op *op = u->owner;
		int i = (int)(u - op->opnds);

		if (op->parent != v->def->parent || !op->info || !(op->info->traits & TR_STRUCTURED) ||
				op->nres < 1 || i >= op->nopnds - op->nres)
			return 0;
	}
	return 1;
}

/* A pad that a GEMM writes inside (a convolution's chain ending in the
 * insert_slice of the next depthwise convolution's pad: mobilenet_v2's
 * expansions) stores its rows as vectors from the first inside column,
 * one element past a line where the pad is one column wide: every store
 * then splits across two lines (a 112x112 map's expansion 20% slower).
 * Its buffer's rows are a whole number of lines, pitch >= the pad's
 * width, each inside row starting one: the pl columns of the left pad
 * lie at the end of the buffer's row before (its unused elements), and
 * an extra row at the top of each plane holds the first row's.  What the
 * pads read is the same elements (a kernel writes a row's left pad just
 * before its start, as it did). */
enum { LINE_F32 = 16 };

static void align_pads(Gen *g, Op *fn)
{
	Block *b = fn->regs[0].first;
	Op *op;

	for (op = b->first; op; op = op->next) {
		VInfo *ri = vinfo(g, RES(op, 0)), *vi;
		Op *end = ri->chain_end;
		Attr *off;
		Value *v;
		int64_t d[4], w, pl;

		if (!is_conv(op) || !ri->root || !end || !op_is(end, "tensor.insert_slice") ||
				!pad_value(g, end))
			continue;
		v = RES(end, 0);
		vi = vinfo(g, v);
		off = op_attr(end, "static_offsets");
		if (!nchw_f32(v) || !nchw_f32(OPND(end, 0)) || !vi->mat || vi->result >= 0 || vi->phys ||
				!kernel_reads(v))
			continue;
		w = OPND(end, 0)->type->dims[3], pl = off->ints[3];
		/* a row shorter than a vector is stored a part at a time anyway */
		if (pl < 1 || pl >= LINE_F32 || w < LINE_F32)
			continue;
		memcpy(d, v->type->dims, sizeof d);
		d[2] += 1;
		d[3] = (d[3] + LINE_F32 - 1) / LINE_F32 * LINE_F32;
		vi->phys = ty_tensor(g->c, 4, d, v->type->elem);
		vi->shift[2] = 1, vi->shift[3] = -pl;
	}
}

int value_bf16_widened(const Value *v)
{
	Op *op = v->def, *y;
	Value *x;

	if (!op || !op_is(op, "linalg.generic") || op->nregs < 1 || !op->regs[0].first ||
			!(y = op->regs[0].first->last) || !op_is(y, "linalg.yield") || v->index >= y->nopnds)
		return 0;
	x = OPND(y, v->index);
	return x->def && op_is(x->def, "arith.extf") && OPND(x->def, 0)->type->kind == TY_BF16;
}

void plan_layouts(Gen *g, Op *fn)
{
	Block *b = fn->regs[0].first;
	Op *op;

	if (!g->t->channels_last || g->o->no_micro || length_arg(fn))
		return;
	for (op = b->first; op; op = op->next) {
		VInfo *ri = vinfo(g, RES(op, 0));
		Op *end;
		Value *v;
		VInfo *vi;
		int64_t d[4];
		int i;

		if (!(is_conv(op) || is_pool(op) || wino_is(op, "output")) || !ri->root)
			continue;
		end = ri->chain_end ? ri->chain_end : op;
		v = RES(end, 0);
		vi = vinfo(g, v);
		if (end->nres != 1 || !(end->info && (end->info->traits & TR_STRUCTURED)) ||
				!nchw_f32(v) || (!wino_is(op, "output") && !nchw_f32(OPND(op, 0))) ||
				!vi->mat || vi->result >= 0 ||
				!g->t->channels_last(v) || !conv_reads(g, v, 0))
			continue;
		for (i = 0; i < 4; i++)
			d[i] = v->type->dims[cl_order[i]];
		vi->phys = ty_tensor(g->c, 4, d, v->type->elem);
		vi->perm = 1;
	}
	align_pads(g, fn);
}
