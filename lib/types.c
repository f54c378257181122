/* types.c - uniqued types: equal types are equal pointers. */
#include <stdlib.h>
#include <string.h>

#include "ctx.h"

static uint64_t
typehash(const Type *t)
{
	uint64_t h = hash_bytes(&t->kind, sizeof t->kind, 0);
	int v[4] = {t->width, t->sign, t->ranked, t->rank};

	h = hash_bytes(v, sizeof v, h);
	if (t->rank > 0)
		h = hash_bytes(t->dims, t->rank * sizeof *t->dims, h);
	h = hash_bytes(&t->elem, sizeof t->elem, h);
	h = hash_bytes(&t->nin, sizeof t->nin, h);
	if (t->nsub)
		h = hash_bytes(t->sub, t->nsub * sizeof *t->sub, h);
	if (t->text)
		h = hash_bytes(&t->text, sizeof t->text, h);
	return h;
}

static int
typeeq(const Type *a, const Type *b)
{
	return a->kind == b->kind && a->width == b->width && a->sign == b->sign
	    && a->ranked == b->ranked && a->rank == b->rank
	    && a->elem == b->elem && a->nin == b->nin && a->nsub == b->nsub
	    && a->text == b->text
	    && (a->rank <= 0 || !memcmp(a->dims, b->dims, a->rank * sizeof *a->dims))
	    && (!a->nsub || !memcmp(a->sub, b->sub, a->nsub * sizeof *a->sub));
}

static void
rehash(Ctx *c)
{
	Type **old = c->types;
	size_t oldcap = c->typecap, i;

	c->typecap = oldcap ? oldcap * 2 : 256;
	c->types = xcalloc(c->typecap, sizeof *c->types);
	for (i = 0; i < oldcap; i++) {
		if (!old[i])
			continue;
		size_t j = typehash(old[i]) & (c->typecap - 1);
		while (c->types[j])
			j = (j + 1) & (c->typecap - 1);
		c->types[j] = old[i];
	}
	free(old);
}

/* Returns the unique copy of *t, copying dims and sub into the arena. */
static Type *
unique(Ctx *c, const Type *t)
{
	size_t i, mask;
	Type *e;

	if (c->ntype * 2 >= c->typecap)
		rehash(c);
	mask = c->typecap - 1;
	for (i = typehash(t) & mask; (e = c->types[i]); i = (i + 1) & mask)
		if (typeeq(e, t))
			return e;
	e = arena_alloc(c, sizeof *e);
	*e = *t;
	if (t->rank > 0) {
		int64_t *d = arena_alloc(c, t->rank * sizeof *d);
		memcpy(d, t->dims, t->rank * sizeof *d);
		e->dims = d;
	} else
		e->dims = NULL;
	if (t->nsub) {
		Type **s = arena_alloc(c, t->nsub * sizeof *s);
		memcpy(s, t->sub, t->nsub * sizeof *s);
		e->sub = s;
	}
	c->types[i] = e;
	c->ntype++;
	return e;
}

static Type *
simple(Ctx *c, TypeKind k)
{
	Type t = {.kind = k};

	return unique(c, &t);
}

Type *
ty_int(Ctx *c, int width, Signedness s)
{
	Type t = {.kind = TY_INT, .width = width, .sign = s};

	return unique(c, &t);
}

Type *ty_index(Ctx *c) { return simple(c, TY_INDEX); }
Type *ty_none(Ctx *c) { return simple(c, TY_NONE); }

Type *
ty_float(Ctx *c, TypeKind k)
{
	if (k < TY_F16 || k > TY_F64)
		die("ty_float: not a float kind");
	return simple(c, k);
}

Type *
ty_func(Ctx *c, int nin, Type *const *in, int nout, Type *const *out)
{
	Type *sub[nin + nout + 1];
	Type t = {.kind = TY_FUNC, .nin = nin, .nsub = nin + nout, .sub = sub};

	if (nin)
		memcpy(sub, in, nin * sizeof *sub);
	if (nout)
		memcpy(sub + nin, out, nout * sizeof *sub);
	return unique(c, &t);
}

static Type *
shaped(Ctx *c, TypeKind k, int rank, const int64_t *dims, Type *elem)
{
	Type t = {.kind = k, .ranked = rank >= 0, .rank = rank < 0 ? 0 : rank,
		.dims = dims, .elem = elem};

	return unique(c, &t);
}

Type *
ty_tensor(Ctx *c, int rank, const int64_t *dims, Type *elem)
{
	return shaped(c, TY_TENSOR, rank, dims, elem);
}

Type *
ty_unranked_tensor(Ctx *c, Type *elem)
{
	return shaped(c, TY_TENSOR, -1, NULL, elem);
}

Type *
ty_vector(Ctx *c, int rank, const int64_t *dims, Type *elem)
{
	return shaped(c, TY_VECTOR, rank, dims, elem);
}

static Type *
multi(Ctx *c, TypeKind k, int n, Type *const *elems)
{
	Type t = {.kind = k, .nsub = n, .sub = elems};

	return unique(c, &t);
}

Type *ty_tuple(Ctx *c, int n, Type *const *e) { return multi(c, TY_TUPLE, n, e); }
Type *ty_torch_tuple(Ctx *c, int n, Type *const *e) { return multi(c, TY_TORCH_TUPLE, n, e); }
Type *ty_torch_union(Ctx *c, int n, Type *const *e) { return multi(c, TY_TORCH_UNION, n, e); }

Type *
ty_vtensor(Ctx *c, int rank, const int64_t *dims, Type *dtype)
{
	return shaped(c, TY_TORCH_VTENSOR, rank, dims, dtype);
}

Type *
ty_torch_tensor(Ctx *c, int rank, const int64_t *dims, Type *dtype)
{
	return shaped(c, TY_TORCH_TENSOR, rank, dims, dtype);
}

Type *
ty_torch(Ctx *c, TypeKind k)
{
	if (k < TY_TORCH_INT || k > TY_TORCH_ANY)
		die("ty_torch: not a scalar torch type");
	return simple(c, k);
}

Type *
ty_torch_list(Ctx *c, Type *elem)
{
	Type t = {.kind = TY_TORCH_LIST, .elem = elem};

	return unique(c, &t);
}

Type *
ty_torch_optional(Ctx *c, Type *elem)
{
	Type t = {.kind = TY_TORCH_OPTIONAL, .elem = elem};

	return unique(c, &t);
}

Type *
ty_torch_encoded(Ctx *c, const Type *t, const char *enc)
{
	Type e = *t;

	e.text = enc ? intern(c, enc) : NULL;
	return unique(c, &e);
}

Type *
ty_opaque(Ctx *c, const char *text)
{
	Type t = {.kind = TY_OPAQUE, .text = intern(c, text)};

	return unique(c, &t);
}

int ty_isfloat(const Type *t) { return t && t->kind >= TY_F16 && t->kind <= TY_F64; }
int ty_isint(const Type *t) { return t && t->kind == TY_INT; }
int ty_isintlike(const Type *t) { return t && (t->kind == TY_INT || t->kind == TY_INDEX); }

int
ty_isshaped(const Type *t)
{
	return t && (t->kind == TY_TENSOR || t->kind == TY_VECTOR
	    || t->kind == TY_TORCH_VTENSOR || t->kind == TY_TORCH_TENSOR);
}

int
ty_istorchtensor(const Type *t)
{
	return t && (t->kind == TY_TORCH_VTENSOR || t->kind == TY_TORCH_TENSOR);
}

int
ty_bitwidth(const Type *t)
{
	switch (t->kind) {
	case TY_INT: return t->width;
	case TY_INDEX: return 64;
	case TY_F16: case TY_BF16: return 16;
	case TY_F32: return 32;
	case TY_F64: return 64;
	default: return 0;
	}
}

size_t
elem_size(const Type *t)
{
	int w = ty_bitwidth(t);

	return w <= 8 ? 1 : (size_t)w / 8;
}

int64_t
ty_numel(const Type *t)
{
	int64_t n = 1;
	int i;

	if (!ty_isshaped(t) || !t->ranked)
		return -1;
	for (i = 0; i < t->rank; i++) {
		if (t->dims[i] < 0)
			return -1;
		if (t->dims[i] && n > INT64_MAX / t->dims[i])
			return -1;
		n *= t->dims[i];
	}
	return n;
}

int
ty_static(const Type *t)
{
	return ty_numel(t) >= 0;
}

Type *
ty_to_vtensor(Ctx *c, Type *t)
{
	if (t->kind != TY_TENSOR)
		return t;
	Type *e = t->elem;
	/* torch spells signless integers as signed (si64), bool as i1 */
	if (e->kind == TY_INT && e->sign == SIGNLESS && e->width != 1)
		e = ty_int(c, e->width, SIGNED);
	return ty_vtensor(c, t->ranked ? t->rank : -1, t->dims, e);
}

Type *
ty_to_builtin(Ctx *c, Type *t)
{
	if (!ty_istorchtensor(t) || !t->elem)
		return NULL;
	Type *e = t->elem;
	if (e->kind == TY_INT && e->sign == SIGNED)
		e = ty_int(c, e->width, SIGNLESS);
	return ty_tensor(c, t->ranked ? t->rank : -1, t->dims, e);
}

Type *
ty_with_elem(Ctx *c, Type *t, Type *elem)
{
	return shaped(c, t->kind, t->ranked ? t->rank : -1, t->dims, elem);
}

Type *
ty_with_dims(Ctx *c, Type *t, int rank, const int64_t *dims)
{
	return shaped(c, t->kind, rank, dims, t->elem);
}

/* The limits every tensor type is held to where it enters a tool (the
 * parser) or is made by inference: at most TY_MAXRANK dims and at most
 * TY_MAXNUMEL elements, so that element counts, strides and byte sizes
 * are far from int64 overflow.  Zero dims count as 1 (the other dims
 * still make strides) and dynamic ones as 1 (unknown).  0 when t is
 * within them, else -1 with why in msg. */
int
ty_check_limits(const Type *t, Buf *msg)
{
	int64_t n = 1, d;
	double f = 1;
	int i, big = 0, zero = 0;

	msg->n = 0;
	if (!ty_isshaped(t) || !t->ranked)
		return 0;
	if (t->rank > TY_MAXRANK) {
		buf_printf(msg, "rank %d exceeds the maximum of %d", t->rank, TY_MAXRANK);
		buf_putc(msg, 0);
		return -1;
	}
	for (i = 0; i < t->rank; i++) {
		zero |= t->dims[i] == 0;
		d = t->dims[i] > 1 ? t->dims[i] : 1;
		f *= (double)d;
		if (__builtin_mul_overflow(n, d, &n) || n > TY_MAXNUMEL)
			big = 1;
	}
	if (!big)
		return 0;
	buf_putc(msg, '\'');
	print_type(msg, t);
	buf_printf(msg, zero ? "' has dims whose nonzero product is %.3g, more than the "
	    "2^%d elements supported" : "' has %.3g elements, more than the 2^%d supported",
	    f, TY_MAXNUMEL_LOG2);
	buf_putc(msg, 0);
	return -1;
}
