/*
 * conv.c - contractions: mm and bmm as linalg named ops into a zero-filled
 * init (f16/bf16 accumulate in f32); convolution as linalg's named
 * convolution where torch-mlir emits one and the --mlir-dialect-version has
 * it (conv_2d_nchw_fchw and conv_1d_ncw_fcw for groups 1, depthwise_conv_2d
 * _nchw_chw where each channel is its own group; from MLIR 19 also
 * conv_3d_ncdhw_fcdhw, depthwise_conv_1d_ncw_cw and conv_2d_ngchw_gfchw),
 * else (transposed convolution, the other groupings) as one linalg.generic
 * over (n, g, f, out..., c, k...) with groups split out by expand_shape;
 * embedding as a gather.  Padding is an insert_slice into a zero-filled
 * tensor, or from MLIR 19 torch-mlir's tensor.pad (build.c's pad_with).
 */
#include <string.h>

#include "lower.h"

/* [B,] M x K times [B,] K x N is [B,] M x N: the declared types must
 * agree, or linalg's would not */
static int
mm_shapes(L *l, Op *op)
{
	Type *a = ttype(l, OPND(op, 0)), *b = ttype(l, OPND(op, 1));
	Type *r = op->res[0].type;
	int n, i, bad;

	if (!ty_static(a) || !ty_static(b) || !ty_static(r)) {
		op_error(op, "torch-lower: '%s' needs static shapes", op->name);
		return -1;
	}
	n = r->rank;
	bad = n < 2 || a->rank != n || b->rank != n;
	for (i = 0; !bad && i < n - 2; i++)
		bad = a->dims[i] != r->dims[i] || b->dims[i] != r->dims[i];
	if (!bad)
		bad = a->dims[n - 2] != r->dims[n - 2] || b->dims[n - 1] != r->dims[n - 1] ||
			a->dims[n - 1] != b->dims[n - 2];
	if (bad) {
		op_error(op, "torch-lower: '%s' operand and result shapes do not agree", op->name);
		return -1;
	}
	return 0;
}

int
lower_mm(L *l, Op *op, const void *arg)
{
	Type *rt = op->res[0].type->elem, *bt = btensor(l->c, op->res[0].type);
	Type *acc = dt_opmath(l->c, rt);
	Value *v[3], *out;
	Op *mm;
	int i;

	if (!bt)
		return -1;
	if (mm_shapes(l, op))
		return -1;
	for (i = 0; i < 2; i++)
		v[i] = convert_tensor(l, get(l, OPND(op, i)), dtype_of(l, OPND(op, i)), acc);
	out = filled(l, tensor_of(l->c, bt->rank, bt->dims, acc), cst_d(l, 0, acc));
	if (!out)
		return -1;
	v[2] = out;
	mm = emit(l, arg, 3, v, 1, &out->type);
	int64_t seg[2] = { 2, 1 };
	op_set_attr(l->c, mm, "operand_segment_sizes",
		at_dense_array(l->c, ty_int(l->c, 32, SIGNLESS), 2, seg));
	set(l, RES(op, 0), convert_tensor(l, RES(mm, 0), acc, rt));
	return 0;
}

static int
ints_arg(L *l, Op *op, int i, int64_t *out, int n, int64_t dflt)
{
	int64_t v[8];
	int k, j;

	k = tv_ints(OPND(op, i), v, 8);
	if (k < 0) {
		op_error(op, "torch-lower: expected a constant int list");
		return -1;
	}
	for (j = 0; j < n; j++)
		out[j] = k == 0 ? dflt : k == 1 ? v[0] : v[j < k ? j : k - 1];
	return 0;
}

/* zero tensor of type bt with v inserted at off with strides st */
static Value *
place_in_zeros(L *l, Value *v, Type *bt, const int64_t *off, const int64_t *st, Type *d)
{
	Value *z = filled(l, bt, cst_d(l, 0, d));

	return z ? insert_slice(l, v, z, off, st) : NULL;
}

static Value *
crop(L *l, Value *v, const int64_t *off, const int64_t *sz)
{
	Ctx *c = l->c;
	Type *i64 = ty_int(c, 64, SIGNLESS);
	int r = v->type->rank, i;
	int64_t st[8], seg[4] = { 1, 0, 0, 0 };
	Type *bt = ty_tensor(c, r, sz, v->type->elem);
	Op *s;

	for (i = 0; i < r; i++)
		st[i] = 1;
	s = emit(l, "tensor.extract_slice", 1, &v, 1, &bt);
	op_set_attr(c, s, "static_offsets", at_dense_array(c, i64, r, off));
	op_set_attr(c, s, "static_sizes", at_dense_array(c, i64, r, sz));
	op_set_attr(c, s, "static_strides", at_dense_array(c, i64, r, st));
	op_set_attr(c, s, "operand_segment_sizes",
		at_dense_array(c, ty_int(c, 32, SIGNLESS), 4, seg));
	return RES(s, 0);
}

/* [a, b*c, rest...] -> [a, b, c, rest...] at dim `at` */
static Value *
split_dim(L *l, Value *v, int at, int64_t b)
{
	Type *t = v->type;
	int64_t d[8];
	int i, n = 0;

	for (i = 0; i < t->rank; i++) {
		if (i == at) {
			d[n++] = b;
			d[n++] = t->dims[i] / b;
		} else {
			d[n++] = t->dims[i];
		}
	}
	return reshape_to(l, v, ty_tensor(l->c, n, d, t->elem));
}

/* w[a, b, K - 1 - k..]: transposed convolution runs the kernel backwards */
static Value *
flip_spatial(L *l, Value *w)
{
	Type *t = w->type;
	int r = t->rank, i;
	AffExpr *e[8];
	AffMap *maps[2];
	Value *out = empty(l, t, NULL);
	Gen g;

	for (i = 0; i < r; i++)
		e[i] = i < 2 ? d_(l, i) : add_(l, mul_(l, d_(l, i), -1), c_(l, t->dims[i] - 1));
	maps[0] = map_of(l, r, r, e);
	maps[1] = map_id(l, r);
	gen_begin(l, &g, 1, &w, 1, &out, maps, r, NULL);
	return gen_end(l, &g, 1, &g.arg[0]);
}

/* PyTorch's shape rules for convolution, so that a wrong declared type
 * is an error here rather than a read out of bounds */
static int
conv_shapes(L *l, Op *op, int64_t G, int tr, const int64_t *s, const int64_t *p,
	const int64_t *d, const int64_t *opad)
{
	Type *it = ttype(l, OPND(op, 0)), *wt = ttype(l, OPND(op, 1));
	Type *rtt = op->res[0].type;
	int ns = it->rank - 2, i;
	int64_t C = it->dims[1], F = rtt->dims[1];

	if (G <= 0) {
		op_error(op, "torch-lower: convolution needs groups > 0, not %lld", (long long)G);
		return -1;
	}
	/* all but the stride at most TY_MAXNUMEL, so that the padded input's
	 * sizes below stay in range once the result's size is checked */
	for (i = 0; i < ns; i++)
		if (s[i] <= 0 || d[i] <= 0 || p[i] < 0 || opad[i] < 0 ||
				d[i] > TY_MAXNUMEL || p[i] > TY_MAXNUMEL || opad[i] > TY_MAXNUMEL ||
				(tr && opad[i] >= s[i] && opad[i] >= d[i])) {
			op_error(op, "torch-lower: convolution has a bad stride, padding, "
				"dilation or output padding");
			return -1;
		}
	int64_t wg;
	int bad = rtt->rank != it->rank || rtt->dims[0] != it->dims[0] ||
		C % G || F % G || __builtin_mul_overflow(wt->dims[1], G, &wg) ||
		(tr ? wt->dims[0] != C || wg != F : wt->dims[0] != F || wg != C);
	for (i = 0; !bad && i < ns; i++) {
		/* the reach d * (K - 1) + 1 and the padded size H + 2 * p, in
		 * int64 or the shapes cannot agree */
		int64_t H = it->dims[2 + i], K = wt->dims[2 + i], O, dk, hp;
		bad = K <= 0 || __builtin_mul_overflow(d[i], K - 1, &dk) || ++dk > TY_MAXNUMEL * 4;
		hp = H + 2 * p[i];
		if (bad)
			break;
		if (tr)
			bad = __builtin_mul_overflow(H - 1, s[i], &O) ||
				__builtin_add_overflow(O, dk - 2 * p[i] + opad[i], &O);
		else if (!(bad = hp < dk))
			O = (hp - dk) / s[i] + 1;
		bad = bad || O != rtt->dims[2 + i];
	}
	if (!bad && !tv_none(OPND(op, 2))) {
		Type *bt = ttype(l, OPND(op, 2));
		bad = !ty_static(bt) || bt->rank != 1 || bt->dims[0] != F;
	}
	if (bad) {
		op_error(op, "torch-lower: convolution input, weight, bias and result shapes "
			"do not agree");
		return -1;
	}
	return 0;
}

/* The named op for a forward convolution of ns spatial dims, groups G, C
 * input and F output channels; NULL when linalg (of the version asked
 * for) has none */
static const char *
conv_named(int ns, int64_t G, int64_t C, int64_t F)
{
	int newer = lower_mlir_version >= MLIR_NEWER;

	if (G == 1)
		return ns == 1 ? "linalg.conv_1d_ncw_fcw" : ns == 2 ? "linalg.conv_2d_nchw_fchw" :
			newer ? "linalg.conv_3d_ncdhw_fcdhw" : NULL;
	if (G == C && F == C)
		return ns == 2 ? "linalg.depthwise_conv_2d_nchw_chw" :
			ns == 1 && newer ? "linalg.depthwise_conv_1d_ncw_cw" : NULL;
	return ns == 2 && newer ? "linalg.conv_2d_ngchw_gfchw" : NULL;
}

/* the (padded) input in, weight w into the named op nm: the result, [N,
 * F, O..] in the accumulator type acc */
static Value *
conv_by_name(L *l, const char *nm, Value *in, Value *w, const int64_t *rdims, int ns,
	int64_t G, const int64_t *s, const int64_t *d, Type *acc)
{
	int grouped = strstr(nm, "_ngc") != NULL, i;
	int64_t od[8], kd[8];
	Value *v[3], *out;
	Op *cv;

	if (grouped) {
		/* input [N, G, Cg, H..], weight [G, FG, Cg, K..], out [N, G, FG, O..] */
		in = split_dim(l, in, 1, G);
		w = split_dim(l, w, 0, G);
		od[0] = rdims[0];
		od[1] = G;
		od[2] = rdims[1] / G;
		for (i = 0; i < ns; i++)
			od[3 + i] = rdims[2 + i];
	} else {
		memcpy(od, rdims, sizeof *od * (size_t)(2 + ns));
	}
	if (strstr(nm, "depthwise")) {
		/* weight [C, 1, K..] -> [C, K..] */
		kd[0] = w->type->dims[0];
		for (i = 0; i < ns; i++)
			kd[1 + i] = w->type->dims[2 + i];
		w = reshape_to(l, w, ty_tensor(l->c, 1 + ns, kd, w->type->elem));
	}
	if (!in || !w)
		return NULL;
	/* a dynamic batch is the input's */
	out = fill(l, cst_d(l, 0, acc), empty(l, tensor_of(l->c, 2 + ns + grouped, od, acc), in));
	v[0] = in;
	v[1] = w;
	v[2] = out;
	cv = emit(l, nm, 3, v, 1, &out->type);
	op_set_attr(l->c, cv, "dilations", window_attr(l->c, ns, d));
	op_set_attr(l->c, cv, "strides", window_attr(l->c, ns, s));
	int64_t seg[2] = { 2, 1 };
	op_set_attr(l->c, cv, "operand_segment_sizes",
		at_dense_array(l->c, ty_int(l->c, 32, SIGNLESS), 2, seg));
	out = RES(cv, 0);
	if (grouped)
		out = reshape_to(l, out, tensor_of(l->c, 2 + ns, rdims, acc));
	return out;
}

/* the convolutions linalg has no named op for, transposed ones included
 * (their input dilated by the stride already, their weight flipped) */
static Value *
conv_generic(L *l, Value *in, Value *w, const int64_t *rdims, int ns, int64_t G, int tr,
	const int64_t *s, const int64_t *d, Type *acc)
{
	Value *out, *ins[2];
	int i;

	/* groups: input [N, G, Cg, H..], weight [G, FG, Cg, K..] or, for
	 * transposed convolution, [G, Cg, FG, K..]; out [N, G, FG, O..] */
	in = split_dim(l, in, 1, G);
	w = split_dim(l, w, 0, G);
	int64_t od[8] = { rdims[0], G, rdims[1] / G };
	for (i = 0; i < ns; i++)
		od[3 + i] = rdims[2 + i];
	out = filled(l, ty_tensor(l->c, 3 + ns, od, belem(l->c, acc)), cst_d(l, 0, acc));
	if (!out || !in || !w)
		return NULL;

	/* loops: n g f o.. c k.. */
	int nl = 4 + 2 * ns, ci = 3 + ns;
	AffExpr *ie[8], *we[8], *oe[8];
	char iters[16];
	for (i = 0; i < nl; i++)
		iters[i] = i < 3 + ns ? 'p' : 'r';
	iters[nl] = 0;
	ie[0] = d_(l, 0);
	ie[1] = d_(l, 1);
	ie[2] = d_(l, ci);
	we[0] = d_(l, 1);
	we[1] = d_(l, tr ? ci : 2);
	we[2] = d_(l, tr ? 2 : ci);
	for (i = 0; i < 3 + ns; i++)
		oe[i] = d_(l, i);
	for (i = 0; i < ns; i++) {
		AffExpr *o = d_(l, 3 + i), *k = d_(l, ci + 1 + i);
		ie[3 + i] = add_(l, mul_(l, o, tr ? 1 : s[i]), mul_(l, k, d[i]));
		we[3 + i] = k;
	}
	AffMap *maps[3] = {
		map_of(l, nl, 3 + ns, ie), map_of(l, nl, 3 + ns, we), map_of(l, nl, 3 + ns, oe),
	};
	Gen g;
	ins[0] = in;
	ins[1] = w;
	gen_begin(l, &g, 2, ins, 1, &out, maps, nl, iters);
	Value *y = ar(l, "add", acc, g.arg[2], ar(l, "mul", acc, g.arg[0], g.arg[1]));
	out = gen_end(l, &g, 1, &y);
	return reshape_to(l, out, tensor_of(l->c, 2 + ns, rdims, acc));
}

/* t is static, or with dynbatch, all but its dim 0 */
static int
static_from(Type *t, int dynbatch)
{
	int i;

	if (!dynbatch || !t->ranked)
		return ty_static(t);
	for (i = 1; i < t->rank; i++)
		if (t->dims[i] == DYN)
			return 0;
	return 1;
}

int
lower_conv(L *l, Op *op, const void *arg)
{
	/* (input, weight, bias, stride, padding, dilation, transposed,
	 *  output_padding, groups) */
	Type *it = ttype(l, OPND(op, 0)), *wt = ttype(l, OPND(op, 1));
	Type *rtt = op->res[0].type, *rt = rtt->elem, *acc;
	Value *in, *w, *out;
	int64_t s[3], p[3], d[3], opad[3], G, N, C, F;
	int64_t off[8], st[8], dims[8], K[3], O[3];
	int ns, i, tr;

	int dynbatch = l->dyn && it->ranked && rtt->ranked && it->rank >= 3 &&
		it->dims[0] == DYN && rtt->dims[0] == DYN;
	if (!static_from(it, dynbatch) || !ty_static(wt) || !static_from(rtt, dynbatch) ||
			it->rank < 3 || it->rank > 5 || wt->rank != it->rank) {
		op_error(op, "torch-lower: convolution needs static NC... shapes (or, with "
			"dynamic shapes, a dynamic batch only)");
		return -1;
	}
	ns = it->rank - 2;
	if (ints_arg(l, op, 3, s, ns, 1) || ints_arg(l, op, 4, p, ns, 0) ||
			ints_arg(l, op, 5, d, ns, 1) || ints_arg(l, op, 7, opad, ns, 0))
		return -1;
	tr = tv_ival(OPND(op, 6)) != 0;
	G = tv_ival(OPND(op, 8));
	acc = dt_opmath(l->c, rt);
	N = it->dims[0];
	C = it->dims[1];
	F = rtt->dims[1];
	for (i = 0; i < ns; i++) {
		K[i] = wt->dims[2 + i];
		O[i] = rtt->dims[2 + i];
	}
	if (conv_shapes(l, op, G, tr, s, p, d, opad))
		return -1;
	in = convert_tensor(l, get(l, OPND(op, 0)), it->elem, acc);
	w = convert_tensor(l, get(l, OPND(op, 1)), wt->elem, acc);
	if (tr)
		w = flip_spatial(l, w);

	/* the input, padded (and for transposed convolution dilated by the
	 * stride), so that out[o] reads in[o * s + k * d] */
	dims[0] = N;
	dims[1] = C;
	off[0] = off[1] = 0;
	st[0] = st[1] = 1;
	int64_t lo[3], hi[3];
	int need_crop = 0;
	for (i = 0; i < ns; i++) {
		int64_t H = it->dims[2 + i];
		if (tr) {
			int64_t q = d[i] * (K[i] - 1) - p[i];
			lo[i] = q;
			hi[i] = q + opad[i];
			st[2 + i] = s[i];
			H = (H - 1) * s[i] + 1;
		} else {
			lo[i] = hi[i] = p[i];
			st[2 + i] = 1;
		}
		int64_t reach = (O[i] - 1) * (tr ? 1 : s[i]) + d[i] * (K[i] - 1) + 1;
		if (lo[i] < 0 || hi[i] < 0)
			need_crop = 1;
		off[2 + i] = lo[i] > 0 ? lo[i] : 0;
		dims[2 + i] = off[2 + i] + H + (hi[i] > 0 ? hi[i] : 0);
		if (!need_crop && dims[2 + i] < reach)
			dims[2 + i] = reach;
	}
	int padded = need_crop || tr;
	for (i = 0; i < ns; i++)
		if (off[2 + i] || dims[2 + i] != it->dims[2 + i])
			padded = 1;
	if (dynbatch) {
		/* the named forms only, the input padded by tensor.pad (which
		 * keeps the batch dynamic) */
		const char *nm = tr || need_crop ? NULL : conv_named(ns, G, C, F);
		if (!nm || strstr(nm, "_ngc")) {
			op_error(op, "torch-lower: this convolution (transposed, grouped or "
				"cropping) takes no dynamic batch yet");
			return -1;
		}
		for (i = 0; i < ns; i++)
			if (dims[2 + i] != it->dims[2 + i] + 2 * p[i]) {
				op_error(op, "torch-lower: this convolution's padding takes no "
					"dynamic batch yet");
				return -1;
			}
		if (!(in = pass_bwd_zero_pad(l, in, 2, p)))
			return -1;
		padded = need_crop = 0;
	}
	if (padded && !tr)
		in = pad_with(l, in, ty_tensor(l->c, 2 + ns, dims, in->type->elem), off,
			cst_d(l, 0, acc));
	else if (padded)
		in = place_in_zeros(l, in, ty_tensor(l->c, 2 + ns, dims, in->type->elem), off, st, acc);
	if (need_crop) {
		int64_t co[8] = {0}, cs[8] = { N, C };
		for (i = 0; i < ns; i++) {
			co[2 + i] = lo[i] < 0 ? -lo[i] : 0;
			cs[2 + i] = dims[2 + i] - co[2 + i] - (hi[i] < 0 ? -hi[i] : 0);
		}
		in = crop(l, in, co, cs);
	}
	if (!in)
		return -1;

	const char *nm = tr ? NULL : conv_named(ns, G, C, F);
	out = nm ? conv_by_name(l, nm, in, w, rtt->dims, ns, G, s, d, acc) :
		conv_generic(l, in, w, rtt->dims, ns, G, tr, s, d, acc);
	if (!out)
		return -1;

	/* bias, broadcast over dim 1 */
	if (!tv_none(OPND(op, 2))) {
		Gen g;
		Value *y, *b = get(l, OPND(op, 2)), *o2[2];
		Type *bd = dtype_of(l, OPND(op, 2));
		Value *e = empty(l, out->type, out);
		int one = 1;
		AffMap *bm[3] = { map_id(l, 2 + ns), map_sel(l, 2 + ns, 1, &one), map_id(l, 2 + ns) };
		o2[0] = out;
		o2[1] = b;
		gen_begin(l, &g, 2, o2, 1, &e, bm, 2 + ns, NULL);
		y = ar(l, "add", acc, g.arg[0], cv(l, g.arg[1], bd, acc));
		out = gen_end(l, &g, 1, &y);
	}
	set(l, RES(op, 0), convert_tensor(l, out, acc, rt));
	return 0;
}

int
lower_embedding(L *l, Op *op, const void *arg)
{
	/* (weight, indices, padding_idx, scale_grad_by_freq, sparse) */
	Type *bt = btensor(l->c, op->res[0].type), *xt = ttype(l, OPND(op, 1));
	Value *wv = get(l, OPND(op, 0)), *ix = get(l, OPND(op, 1)), *out;
	AffMap *maps[2];
	Value *from[TY_MAXRANK];
	int r, i, dim[TY_MAXRANK];
	Gen g;

	if (!bt || bt->rank < 1 || bt->rank > TY_MAXRANK || ix->type->rank != bt->rank - 1)
		return -1;
	/* the indices' sizes, then the weight's row */
	for (i = 0; i < bt->rank; i++)
		from[i] = i < bt->rank - 1 ? ix : wv, dim[i] = i < bt->rank - 1 ? i : 1;
	if (!(out = empty_from(l, bt, from, dim)))
		return -1;
	r = bt->rank;
	int sel_[64];
	for (i = 0; i < r - 1; i++)
		sel_[i] = i;
	maps[0] = map_sel(l, r, r - 1, sel_);
	maps[1] = map_id(l, r);
	gen_begin(l, &g, 1, &ix, 1, &out, maps, r, NULL);
	Value *o[3] = { wv, to_index(l, g.arg[0]), lindex(l, r - 1) };
	(void)xt;
	Value *y = emit1(l, "tensor.extract", 3, o, bt->elem);
	set(l, RES(op, 0), gen_end(l, &g, 1, &y));
	return 0;
}
