/*
 * pass_fold_batchnorm.c - torch-fold-batchnorm: an inference batch norm
 * right after a convolution or a linear layer with literal weights folds
 * into that layer's weight and bias.
 *
 * needs:       value semantics; batch norms not yet decomposed (run it
 *              before torch-decompose).
 * guarantees:  for batch_norm / native_batch_norm (training false) /
 *              _native_batch_norm_legit_no_training whose input is the
 *              only use of a non-transposed convolution (or linear) with
 *              literal weight and bias (or none), and whose statistics,
 *              weight and bias are literals: the norm is gone and the
 *              layer has new literals
 *                W' = W * s,  b' = (b - mean) * s + beta,
 *                s  = gamma / sqrt(var + eps)     (per output channel),
 *              computed in double and rounded once (an f32 weight of
 *              more than 64 bytes in a resource is scaled only as it is
 *              printed or read, from the old resource's bytes: no copy
 *              of a network's weights is held).  Other norms stay.
 * invalidates: op identities; the old weight literal goes when the
 *              layer was its only user, the other old literals become
 *              dead.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fold.h"
#include "pass.h"
#include "torch.h"

typedef struct Norm {
	Value *x, *gamma, *beta, *mean, *var;
	double eps;
} Norm;

static int
norm_of(Op *op, Norm *n)
{
	int training = 1, ei;

	if (torch_is(op, "aten._native_batch_norm_legit_no_training"))
		ei = 6, training = 0;
	else if (torch_is(op, "aten.native_batch_norm") || torch_is(op, "aten.batch_norm"))
		ei = 7;
	else
		return 0;
	if (ei == 7 && !tv_bool(OPND(op, 5), &training))
		return 0;
	for (int i = 1; i < op->nres; i++)
		if (!value_use_empty(RES(op, i)))
			return 0;
	n->x = OPND(op, 0), n->gamma = OPND(op, 1), n->beta = OPND(op, 2);
	n->mean = OPND(op, 3), n->var = OPND(op, 4);
	return !training && tv_float(OPND(op, ei), &n->eps);
}

/* The per-channel vector behind v (none: fill), or NULL. */
static double *
channel(Value *v, int64_t c, double fill)
{
	int64_t n, i;
	double *d;

	if (tv_none(v)) {
		d = xmalloc(c * sizeof *d);
		for (i = 0; i < c; i++)
			d[i] = fill;
		return d;
	}
	if (!(d = lit_load(v, &n)) || n != c) {
		free(d);
		return NULL;
	}
	return d;
}

/* The uses of v but its torch.bind_symbolic_shape (a dynamic export's
 * note of its shape). */
static int
real_uses(Value *v)
{
	int n = 0;

	for (Use *u = v->uses; u; u = u->next)
		n += !op_is(u->owner, "torch.bind_symbolic_shape");
	return n;
}

/* A second torch.bind_symbolic_shape of v (the norm's, once v replaced
 * its result: the same shape) goes. */
static void
drop_second_binds(Value *v)
{
	Use *u, *next;
	int seen = 0;

	for (u = v->uses; u; u = next) {
		next = u->next;
		if (op_is(u->owner, "torch.bind_symbolic_shape") && seen++)
			op_erase(u->owner);
	}
}

/* The layer: weight operand 1, bias operand 2; 1 when it can fold. */
static int
layer_ok(Op *l)
{
	int tr = 0;

	if (!l || real_uses(RES(l, 0)) != 1)
		return 0;
	if (torch_is(l, "aten.convolution") || torch_is(l, "aten._convolution"))
		return tv_bool(OPND(l, 6), &tr) && !tr;
	if (torch_is(l, "aten.conv2d") || torch_is(l, "aten.conv1d"))
		return 1;
	return torch_is(l, "aten.linear") && tt_rank(RES(l, 0)->type) == 2;
}

/* "conv1.weight" -> "conv1.weight.bn"; the bias of a layer without one:
 * "conv1.weight.bias.bn". */
static char *
derived(Value *v, Value *w, const char *sfx)
{
	const char *n = lit_name(v), *wn = lit_name(w);
	char *s = xmalloc(256);

	if (n)
		snprintf(s, 256, "%s%s", n, sfx);
	else
		snprintf(s, 256, "%s.bias%s", wn ? wn : "folded", sfx);
	return s;
}

/* n f32 values from src to dst (which may be src), channel i of ch
 * scaled by s[i]; what is left after ch whole channels is copied. */
static void
scale_f32(uint8_t *dst, const uint8_t *src, int64_t n, const double *s, int64_t ch)
{
	int64_t per = n / ch, i, k;

	for (i = 0; i < ch; i++)
		for (k = i * per; k < (i + 1) * per; k++) {
			float f;

			memcpy(&f, src + 4 * k, 4);
			f = (float)(f * s[i]);
			memcpy(dst + 4 * k, &f, 4);
		}
	memmove(dst + 4 * ch * per, src + 4 * ch * per, 4 * (size_t)(n - ch * per));
}

/* A weight scaled as it is printed (resource_lazy): its source and the
 * scale per channel. */
typedef struct Scaled {
	const uint8_t *src;
	int64_t n, ch;
	double *s;
} Scaled;

static void
scaled_fill(void *arg, uint8_t *dst)
{
	Scaled *a = arg;

	scale_f32(dst, a->src, a->n, a->s, a->ch);
}

/* Are the n f32 values of p, scaled, all alike (a literal keeps them as a
 * splat)? */
static int
scaled_alike(const uint8_t *p, int64_t n, const double *s, int64_t ch)
{
	int64_t per = n / ch, k;
	float f0, f;

	for (k = 0; k < n; k++) {
		memcpy(&f, p + 4 * k, 4);
		if (k < ch * per)
			f = (float)(f * s[k / per]);
		if (!k)
			f0 = f;
		else if (memcmp(&f, &f0, 4))
			return 0;
	}
	return 1;
}

/* The weight scaled per output channel, as a new literal: an f32 weight
 * in a resource (a network's: all its weights pass through here) scaled
 * only as it is printed, straight from the source's bytes, so that no
 * copy of them is held; a small one or a splat at once; any other type
 * through doubles. */
static Value *
scaled_weight(B *b, Value *wv, const double *s, int64_t ch, const char *name)
{
	int64_t n, per, i, k;
	const uint8_t *p = lit_f32(wv, &n);
	Attr *a = value_const(wv);
	double *w;
	Value *v;

	if (p && a && a->kind == AT_DENSE_RESOURCE && (size_t)n * 4 > 64 && !scaled_alike(p, n, s, ch)) {
		Scaled *sc = arena_alloc(b->c, sizeof *sc);

		sc->src = p;
		sc->n = n;
		sc->ch = ch;
		sc->s = arena_alloc(b->c, (size_t)ch * sizeof *sc->s);
		memcpy(sc->s, s, (size_t)ch * sizeof *s);
		return b_literal_lazy(b, wv->type, (size_t)n * 4, name, scaled_fill, sc, a->res);
	}
	if (p) {
		uint8_t *out = xmalloc(mulsz(n ? n : 1, 4));

		scale_f32(out, p, n, s, ch);
		return b_literal_take(b, wv->type, out, (size_t)n * 4, name);
	}
	if (!(w = lit_load(wv, &n)))
		return NULL;
	per = n / ch;
	for (i = 0; i < ch; i++)
		for (k = i * per; k < (i + 1) * per; k++)
			w[k] *= s[i];
	v = lit_make(b, wv->type, w, n, name);
	free(w);
	return v;
}

static int
fold(Ctx *c, Op *bn)
{
	Norm n;
	Op *l;
	Value *wv, *bv, *nw, *nb;
	double *s = NULL, *bias = NULL, *g = NULL, *be = NULL, *m = NULL, *var = NULL;
	int64_t ch, i;
	int ok = 0;

	if (!norm_of(bn, &n) || !layer_ok(l = n.x->def))
		return 0;
	wv = OPND(l, 1), bv = OPND(l, 2);
	if (tt_rank(wv->type) < 1 || (ch = wv->type->dims[0]) <= 0
	    || !lit_load_ok(wv) || !(bias = channel(bv, ch, 0))
	    || !(g = channel(n.gamma, ch, 1)) || !(be = channel(n.beta, ch, 0))
	    || !(m = channel(n.mean, ch, 0)) || !(var = channel(n.var, ch, 0)))
		goto out;
	s = xmalloc(ch * sizeof *s);
	for (i = 0; i < ch; i++) {
		s[i] = g[i] / sqrt(var[i] + n.eps);
		bias[i] = (bias[i] - m[i]) * s[i] + be[i];
	}
	B b = b_at(c, l);
	char *wn = derived(wv, wv, ".bn"), *bn_ = derived(bv, wv, ".bn");
	int64_t cdim = ch;
	nw = scaled_weight(&b, wv, s, ch, wn);
	nb = lit_make(&b, tt_vt(c, 1, &cdim, tt_dtype(wv->type)), bias, ch, bn_);
	free(wn), free(bn_);
	op_set_operand(l, 1, nw);
	op_set_operand(l, 2, nb);
	/* the old weight goes if nothing else reads it */
	if (!wv->uses && wv->def && op_is(wv->def, "torch.vtensor.literal"))
		op_erase(wv->def);
	Value *vals[3] = {RES(l, 0), NULL, NULL};
	torch_replace(c, bn, vals);
	drop_second_binds(RES(l, 0));
	ok = 1;
out:
	free(s), free(bias), free(g), free(be), free(m), free(var);
	return ok;
}

static int
run(Ctx *c, Op *fn, PassArgs *a)
{
	if (torch_rewrite_each(c, fn, fold))
		a->changed = 1;
	return 0;
}

const PassInfo pass_torch_fold_batchnorm = {
	.name = "torch-fold-batchnorm",
	.summary = "fold inference batch norms into the preceding convolution or linear",
	.anchor = "func.func",
	.run = run,
};
