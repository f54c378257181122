/* literal.c - reading and making torch.vtensor.literal data as doubles,
 * for the folding passes. */
#include <string.h>
#include <stdlib.h>

#include "fold.h"
#include "torch.h"

/* A dense_resource read without its blob in the file is a handle only. */
static int
has_blob(const Attr *a, int64_t k)
{
	size_t nb, es = elem_size(a->type->elem);

	if (a->kind != AT_DENSE_RESOURCE)
		return 1;
	return dense_bytes(a, &nb) && es && nb / es >= (size_t)k;
}

double *
lit_load(Value *v, int64_t *n)
{
	Attr *a = value_const(v);
	double *out;
	int64_t i, k;
	size_t nb;
	const uint8_t *p;

	if (!a || (a->kind != AT_DENSE && a->kind != AT_DENSE_RESOURCE)
	    || !tt_is(v->type) || !ty_static(v->type) || !a->type || !a->type->elem)
		return NULL;
	k = ty_numel(v->type);
	p = dense_bytes(a, &nb);
	if (!has_blob(a, k))
		return NULL;
	out = xmalloc(mulsz(k ? k : 1, sizeof *out));
	if (a->type->elem->kind == TY_F32 && !(a->kind == AT_DENSE && a->splat)
	    && nb >= (size_t)k * 4) {
		for (i = 0; i < k; i++) {
			float f;
			memcpy(&f, p + 4 * i, 4);
			out[i] = f;
		}
	} else
		for (i = 0; i < k; i++)
			out[i] = dense_get_f(a, i);
	*n = k;
	return out;
}

const uint8_t *
lit_f32(Value *v, int64_t *n)
{
	Attr *a = value_const(v);
	size_t nb;
	const uint8_t *p;

	if (!lit_load_ok(v) || a->type->elem->kind != TY_F32
	    || (a->kind == AT_DENSE && a->splat))
		return NULL;
	*n = ty_numel(v->type);
	p = dense_bytes(a, &nb);
	return nb >= (size_t)*n * 4 ? p : NULL;
}

static void
put(uint8_t *p, const Type *d, double v)
{
	uint64_t bits;
	size_t i, n = elem_size(d);

	if (d->kind == TY_F32) {
		float f = (float)v;
		memcpy(p, &f, 4);
		return;
	}
	if (ty_isfloat(d))
		bits = fp_bits(v, d);
	else if (d->width == 1)
		bits = v != 0;
	else
		bits = (uint64_t)(int64_t)v;
	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(bits >> (8 * i));
}

Value *
lit_make(B *b, Type *vt, const double *vals, int64_t n, const char *name)
{
	size_t esz = elem_size(vt->elem), nb = mulsz(n, esz);
	uint8_t *buf = xmalloc(nb ? nb : 1);
	int64_t i;

	if (vt->elem->kind == TY_F32)
		for (i = 0; i < n; i++) {
			float f = (float)vals[i];
			memcpy(buf + 4 * i, &f, 4);
		}
	else
		for (i = 0; i < n; i++)
			put(buf + i * esz, vt->elem, vals[i]);
	return b_literal_take(b, vt, buf, nb, name);
}

const char *
lit_name(Value *v)
{
	Attr *a = value_const(v);

	return a && a->kind == AT_DENSE_RESOURCE ? a->res->name : NULL;
}

int
lit_load_ok(Value *v)
{
	Attr *a = value_const(v);

	return a && (a->kind == AT_DENSE || a->kind == AT_DENSE_RESOURCE)
	    && tt_is(v->type) && ty_static(v->type) && a->type && a->type->elem
	    && has_blob(a, ty_numel(v->type));
}
