/* attr.c - attributes, affine maps, resources, locations, float bits. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"

static Attr *
mk(Ctx *c, AttrKind k)
{
	Attr *a = arena_alloc(c, sizeof *a);

	a->kind = k;
	return a;
}

Attr *at_unit(Ctx *c) { return mk(c, AT_UNIT); }

Attr *
at_int(Ctx *c, int64_t v, Type *t)
{
	Attr *a = mk(c, AT_INT);

	a->type = t ? t : ty_int(c, 64, SIGNLESS);
	/* keep the value in the type's range, sign-extended like APInt */
	if (a->type->kind == TY_INT && a->type->width < 64) {
		int w = a->type->width;
		uint64_t m = (1ull << w) - 1, u = (uint64_t)v & m;
		if (a->type->sign != UNSIGNED && w > 1 && (u >> (w - 1)))
			u |= ~m;
		v = (int64_t)u;
	}
	a->i = v;
	return a;
}

Attr *
at_bool(Ctx *c, int v)
{
	return at_int(c, v != 0, ty_int(c, 1, SIGNLESS));
}

Attr *
at_float(Ctx *c, double v, Type *t)
{
	Attr *a = mk(c, AT_FLOAT);

	a->type = t ? t : ty_float(c, TY_F64);
	a->f = fp_round(v, a->type);
	return a;
}

Attr *
at_strn(Ctx *c, const char *s, size_t n)
{
	Attr *a = mk(c, AT_STR);

	a->s = arena_strndup(c, s, n);
	a->n = n;
	return a;
}

Attr *at_str(Ctx *c, const char *s) { return at_strn(c, s, strlen(s)); }

Attr *
at_array(Ctx *c, int n, Attr **elts)
{
	Attr *a = mk(c, AT_ARRAY);

	a->n = n;
	a->elts = arena_alloc(c, n * sizeof *a->elts);
	if (n)
		memcpy(a->elts, elts, n * sizeof *elts);
	return a;
}

Attr *
at_i64_array(Ctx *c, int n, const int64_t *v)
{
	Attr *e[n + 1];
	int i;

	for (i = 0; i < n; i++)
		e[i] = at_int(c, v[i], NULL);
	return at_array(c, n, e);
}

Attr *
at_dict(Ctx *c, int n, const NamedAttr *d)
{
	Attr *a = mk(c, AT_DICT);

	a->n = n;
	a->dict = arena_alloc(c, n * sizeof *a->dict);
	if (n)
		memcpy(a->dict, d, n * sizeof *d);
	return a;
}

Attr *
at_dense(Ctx *c, Type *t, const void *data, size_t nbytes, int splat)
{
	Attr *a = mk(c, AT_DENSE);
	uint8_t *p;

	a->type = t;
	a->splat = splat;
	a->n = nbytes;
	if (nbytes > 1 << 20) {
		p = xmalloc(nbytes);
		ctx_own(c, p);
	} else
		p = arena_alloc(c, nbytes);
	if (nbytes)
		memcpy(p, data, nbytes);
	a->data = p;
	return a;
}

Attr *
at_dense_resource(Ctx *c, Type *t, Resource *r)
{
	Attr *a = mk(c, AT_DENSE_RESOURCE);

	a->type = t;
	a->res = r;
	return a;
}

Attr *
at_dense_array(Ctx *c, Type *elem, int n, const int64_t *v)
{
	Attr *a = mk(c, AT_DENSE_ARRAY);
	int64_t *p = arena_alloc(c, n * sizeof *p);

	if (n)
		memcpy(p, v, n * sizeof *p);
	a->type = elem;
	a->n = n;
	a->ints = p;
	return a;
}

Attr *
at_affine_map(Ctx *c, AffMap *m)
{
	Attr *a = mk(c, AT_AFFINE_MAP);

	a->map = m;
	return a;
}

Attr *
at_symref(Ctx *c, const char *name)
{
	Attr *a = mk(c, AT_SYMREF);

	a->s = intern(c, name);
	return a;
}

Attr *
at_type(Ctx *c, Type *t)
{
	Attr *a = mk(c, AT_TYPE);

	a->type = t;
	return a;
}

Attr *
at_opaque(Ctx *c, const char *text)
{
	Attr *a = mk(c, AT_OPAQUE);

	a->s = intern(c, text);
	return a;
}

int
attr_eq(const Attr *a, const Attr *b)
{
	size_t i;

	if (a == b)
		return 1;
	if (!a || !b || a->kind != b->kind || a->type != b->type)
		return 0;
	switch (a->kind) {
	case AT_UNIT:
	case AT_TYPE:
		return 1;
	case AT_INT:
		return a->i == b->i;
	case AT_FLOAT:
		/* bitwise: -0.0 differs from 0.0, NaN equals NaN */
		return fp_bits(a->f, a->type) == fp_bits(b->f, b->type);
	case AT_STR:
		return a->n == b->n && !memcmp(a->s, b->s, a->n);
	case AT_SYMREF:
		if (a->s != b->s || a->n != b->n)
			return 0;
		/* fallthrough */
	case AT_ARRAY:
		if (a->n != b->n)
			return 0;
		for (i = 0; i < a->n; i++)
			if (!attr_eq(a->elts[i], b->elts[i]))
				return 0;
		return 1;
	case AT_DICT:
		if (a->n != b->n)
			return 0;
		for (i = 0; i < a->n; i++)
			if (a->dict[i].name != b->dict[i].name
			    || !attr_eq(a->dict[i].val, b->dict[i].val))
				return 0;
		return 1;
	case AT_DENSE:
		return a->splat == b->splat && a->n == b->n
		    && !memcmp(a->data, b->data, a->n);
	case AT_DENSE_RESOURCE:
		return a->res == b->res;
	case AT_DENSE_ARRAY:
		return a->n == b->n && !memcmp(a->ints, b->ints, a->n * sizeof *a->ints);
	case AT_AFFINE_MAP:
		return affmap_eq(a->map, b->map);
	case AT_OPAQUE:
		return a->s == b->s;
	}
	return 0;
}

Attr *
dict_get(const Attr *d, const char *name)
{
	size_t i;

	if (!d || d->kind != AT_DICT)
		return NULL;
	for (i = 0; i < d->n; i++)
		if (!strcmp(d->dict[i].name, name))
			return d->dict[i].val;
	return NULL;
}

/* ---- dense element access ---- */

const uint8_t *
dense_bytes(const Attr *a, size_t *n)
{
	if (a->kind == AT_DENSE_RESOURCE) {
		Resource *r = a->res;

		if (!r->data && r->fill) {
			r->data = ctx_big_alloc(r->ctx, r->size, r->align);
			r->mut = 1;
			r->fill(r->fill_arg, r->data);
		}
		*n = r->size;
		return r->data;
	}
	*n = a->n;
	return a->data;
}

int64_t
dense_numel(const Attr *a)
{
	return ty_numel(a->type);
}

static const uint8_t *
elem_ptr(const Attr *a, int64_t i, const Type **et)
{
	size_t n, es;
	const uint8_t *p = dense_bytes(a, &n);

	*et = a->type->elem;
	es = elem_size(*et);
	if (a->kind == AT_DENSE && a->splat)
		i = 0;
	if ((size_t)i >= n / (es ? es : 1))
		die("dense element %lld out of range", (long long)i);
	return p + (size_t)i * es;
}

static uint64_t
load_le(const uint8_t *p, size_t n)
{
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

int64_t
dense_get_i(const Attr *a, int64_t i)
{
	const Type *t;
	const uint8_t *p = elem_ptr(a, i, &t);
	size_t es = elem_size(t);
	uint64_t v = load_le(p, es);

	if (ty_isfloat(t))
		return (int64_t)fp_from_bits(v, t);
	if (t->kind == TY_INT && t->width == 1)
		return v & 1;
	if (es < 8 && !(t->kind == TY_INT && t->sign == UNSIGNED)
	    && (v >> (es * 8 - 1)) & 1)
		v |= ~0ull << (es * 8);
	return (int64_t)v;
}

double
dense_get_f(const Attr *a, int64_t i)
{
	const Type *t;
	const uint8_t *p = elem_ptr(a, i, &t);

	if (ty_isfloat(t))
		return fp_from_bits(load_le(p, elem_size(t)), t);
	if (t->kind == TY_INT && t->sign == UNSIGNED)
		return (double)(uint64_t)dense_get_i(a, i);
	return (double)dense_get_i(a, i);
}

/* ---- resources ---- */

static uint64_t
res_hash(const char *name)
{
	return hash_bytes(name, strlen(name), 0);
}

Resource *
resource_get(Ctx *c, const char *name)
{
	Resource *r;
	size_t i, mask = c->rtabcap - 1;

	if (!c->rtabcap)
		return NULL;
	for (i = res_hash(name) & mask; (r = c->rtab[i]); i = (i + 1) & mask)
		if (!strcmp(r->name, name))
			return r;
	return NULL;
}

static void
res_insert(Ctx *c, Resource *r)
{
	size_t i, mask;

	if (c->nrtab * 2 >= c->rtabcap) {
		Resource **old = c->rtab;
		size_t oldcap = c->rtabcap, j;

		c->rtabcap = oldcap ? oldcap * 2 : 64;
		c->rtab = xcalloc(c->rtabcap, sizeof *c->rtab);
		c->nrtab = 0;
		mask = c->rtabcap - 1;
		for (j = 0; j < oldcap; j++) {
			/* drop the slots of renamed ones */
			if (!old[j] || resource_get(c, old[j]->name))
				continue;
			for (i = res_hash(old[j]->name) & mask; c->rtab[i]; i = (i + 1) & mask)
				;
			c->rtab[i] = old[j];
			c->nrtab++;
		}
		free(old);
	}
	mask = c->rtabcap - 1;
	for (i = res_hash(r->name) & mask; c->rtab[i]; i = (i + 1) & mask)
		;
	c->rtab[i] = r;
	c->nrtab++;
}

Resource *
resource_list(Ctx *c)
{
	return c->res;
}

/* Gives r the key name, uniqued the way MLIR does: name, name_1, ... */
static void
resource_key(Ctx *c, Resource *r, const char *name)
{
	char buf[512];
	int k;

	snprintf(buf, sizeof buf, "%s", name);
	for (k = 1; resource_get(c, buf); k++)
		snprintf(buf, sizeof buf, "%s_%d", name, k);
	r->name = intern(c, buf);
	res_insert(c, r);
}

/* Adds a resource holding data: malloc'd and now the context's if own,
 * else the caller's. */
static Resource *
resource_add(Ctx *c, const char *dialect, const char *name, uint8_t *data,
	size_t size, uint32_t align, int own)
{
	Resource *r = arena_alloc(c, sizeof *r);

	resource_key(c, r, name);
	r->dialect = intern(c, dialect);
	r->size = size;
	r->align = align ? align : 8;
	r->data = data;
	r->mut = own != 0;
	if (own)
		ctx_own(c, r->data);
	if (c->reslast)
		c->reslast->next = r;
	else
		c->res = r;
	c->reslast = r;
	return r;
}

Resource *
resource_new(Ctx *c, const char *dialect, const char *name,
	const void *data, size_t size, uint32_t align)
{
	Resource *r = resource_alloc(c, dialect, name, size, align);

	if (size)
		memcpy(r->data, data, size);
	return r;
}

Resource *
resource_alloc(Ctx *c, const char *dialect, const char *name, size_t size,
	uint32_t align)
{
	Resource *r = resource_add(c, dialect, name,
		ctx_big_alloc(c, size, align ? align : 8), size, align, 0);

	r->mut = 1;   /* the context's memory */
	return r;
}

Resource *
resource_lazy(Ctx *c, const char *dialect, const char *name, size_t size,
	uint32_t align, void (*fill)(void *arg, uint8_t *dst), void *arg)
{
	Resource *r = resource_add(c, dialect, name, NULL, size, align, 0);

	r->fill = fill;
	r->fill_arg = arg;
	r->ctx = c;
	return r;
}

Resource *
resource_adopt(Ctx *c, const char *dialect, const char *name, void *data,
	size_t size, uint32_t align)
{
	return resource_add(c, dialect, name, data, size, align, 1);
}

Resource *
resource_borrow(Ctx *c, const char *dialect, const char *name,
	const void *data, size_t size, uint32_t align)
{
	return resource_add(c, dialect, name, (uint8_t *)data, size, align, 0);
}

/* ---- floats ---- */

static uint16_t
f32_to_f16(float f)
{
	uint32_t x;
	memcpy(&x, &f, 4);
	uint32_t sign = (x >> 16) & 0x8000;
	int32_t exp = ((x >> 23) & 0xff) - 127 + 15;
	uint32_t man = x & 0x7fffff;

	if (((x >> 23) & 0xff) == 0xff)  /* inf or nan */
		return sign | 0x7c00 | (man ? 0x200 | (man >> 13) : 0);
	if (exp >= 31)
		return sign | 0x7c00;
	if (exp <= 0) {
		if (exp < -10)
			return sign;
		man |= 0x800000;
		int shift = 14 - exp;
		uint32_t h = man >> shift, rem = man & ((1u << shift) - 1);
		uint32_t half = 1u << (shift - 1);
		if (rem > half || (rem == half && (h & 1)))
			h++;
		return sign | h;
	}
	uint32_t h = sign | (exp << 10) | (man >> 13), rem = man & 0x1fff;
	if (rem > 0x1000 || (rem == 0x1000 && (h & 1)))
		h++;
	return h;
}

static float
f16_to_f32(uint16_t h)
{
	uint32_t sign = (uint32_t)(h & 0x8000) << 16, exp = (h >> 10) & 0x1f,
		 man = h & 0x3ff, x;
	float f;

	if (exp == 0x1f)
		x = sign | 0x7f800000 | (man << 13);
	else if (exp)
		x = sign | ((exp - 15 + 127) << 23) | (man << 13);
	else if (!man)
		x = sign;
	else {
		/* subnormal: value = man * 2^-24 */
		f = ldexpf((float)man, -24);
		return sign ? -f : f;
	}
	memcpy(&f, &x, 4);
	return f;
}

static uint16_t
f32_to_bf16(float f)
{
	uint32_t x;

	memcpy(&x, &f, 4);
	if ((x & 0x7fffffff) > 0x7f800000)
		return (x >> 16) | 0x40;
	x += 0x7fff + ((x >> 16) & 1);
	return x >> 16;
}

static float
bf16_to_f32(uint16_t h)
{
	uint32_t x = (uint32_t)h << 16;
	float f;

	memcpy(&f, &x, 4);
	return f;
}

uint64_t
fp_bits(double v, const Type *t)
{
	float f = (float)v;
	uint32_t x;
	uint64_t d;

	switch (t->kind) {
	case TY_F16: return f32_to_f16(f);
	case TY_BF16: return f32_to_bf16(f);
	case TY_F32: memcpy(&x, &f, 4); return x;
	default: memcpy(&d, &v, 8); return d;
	}
}

double
fp_from_bits(uint64_t bits, const Type *t)
{
	uint32_t x = (uint32_t)bits;
	float f;
	double d;

	switch (t->kind) {
	case TY_F16: return f16_to_f32(bits);
	case TY_BF16: return bf16_to_f32(bits);
	case TY_F32: memcpy(&f, &x, 4); return f;
	default: memcpy(&d, &bits, 8); return d;
	}
}

double
fp_round(double v, const Type *t)
{
	if (!ty_isfloat(t) || t->kind == TY_F64)
		return v;
	/* f16/bf16 round from f32, as a double-rounding-free path for the
	 * values we see; f32 rounds directly */
	return fp_from_bits(fp_bits(v, t), t);
}

/* ---- affine maps ---- */

static AffExpr *
aff(Ctx *c, AffKind k, int64_t v, AffExpr *l, AffExpr *r)
{
	AffExpr *e = arena_alloc(c, sizeof *e);

	e->kind = k;
	e->v = v;
	e->l = l;
	e->r = r;
	return e;
}

AffExpr *aff_dim(Ctx *c, int i) { return aff(c, AFF_DIM, i, NULL, NULL); }
AffExpr *aff_sym(Ctx *c, int i) { return aff(c, AFF_SYM, i, NULL, NULL); }
AffExpr *aff_const(Ctx *c, int64_t v) { return aff(c, AFF_CONST, v, NULL, NULL); }
AffExpr *aff_bin(Ctx *c, AffKind k, AffExpr *l, AffExpr *r) { return aff(c, k, 0, l, r); }

AffMap *
affmap_new(Ctx *c, int ndims, int nsyms, int nres, AffExpr **res)
{
	AffMap *m = arena_alloc(c, sizeof *m);

	m->ndims = ndims;
	m->nsyms = nsyms;
	m->nres = nres;
	m->res = arena_alloc(c, nres * sizeof *m->res);
	if (nres)
		memcpy(m->res, res, nres * sizeof *res);
	return m;
}

AffMap *
affmap_select(Ctx *c, int ndims, int nres, const int *perm)
{
	AffExpr *r[nres + 1];
	int i;

	for (i = 0; i < nres; i++)
		r[i] = aff_dim(c, perm[i]);
	return affmap_new(c, ndims, 0, nres, r);
}

AffMap *
affmap_identity(Ctx *c, int n)
{
	int p[n + 1], i;

	for (i = 0; i < n; i++)
		p[i] = i;
	return affmap_select(c, n, n, p);
}

int
aff_eq(const AffExpr *a, const AffExpr *b)
{
	if (a == b)
		return 1;
	if (!a || !b || a->kind != b->kind || a->v != b->v)
		return 0;
	return aff_eq(a->l, b->l) && aff_eq(a->r, b->r);
}

int
affmap_eq(const AffMap *a, const AffMap *b)
{
	int i;

	if (a->ndims != b->ndims || a->nsyms != b->nsyms || a->nres != b->nres)
		return 0;
	for (i = 0; i < a->nres; i++)
		if (!aff_eq(a->res[i], b->res[i]))
			return 0;
	return 1;
}

int
affmap_is_identity(const AffMap *m)
{
	int i;

	if (m->nres != m->ndims || m->nsyms)
		return 0;
	for (i = 0; i < m->nres; i++)
		if (m->res[i]->kind != AFF_DIM || m->res[i]->v != i)
			return 0;
	return 1;
}

/* ---- locations ---- */

static Loc *
mkloc(Ctx *c, LocKind k)
{
	Loc *l = arena_alloc(c, sizeof *l);

	l->kind = k;
	return l;
}

Loc *
loc_unknown(Ctx *c)
{
	return mkloc(c, LOC_UNKNOWN);
}

Loc *
loc_file(Ctx *c, const char *file, int line, int col)
{
	Loc *l = mkloc(c, LOC_FILE);

	l->file = intern(c, file);
	l->line = line;
	l->col = col;
	return l;
}

Loc *
loc_name(Ctx *c, const char *name, Loc *child)
{
	Loc *l = mkloc(c, LOC_NAME);

	l->file = intern(c, name);
	l->child = child;
	return l;
}

Loc *
loc_fused(Ctx *c, int n, Loc **locs, Attr *meta)
{
	Loc *l = mkloc(c, LOC_FUSED);

	l->n = n;
	l->locs = arena_alloc(c, n * sizeof *l->locs);
	if (n)
		memcpy(l->locs, locs, n * sizeof *locs);
	l->meta = meta;
	return l;
}

Loc *
loc_callsite(Ctx *c, Loc *callee, Loc *caller)
{
	Loc *l = mkloc(c, LOC_CALLSITE);

	l->child = callee;
	l->caller = caller;
	return l;
}

const Loc *
loc_filepos(const Loc *l)
{
	const Loc *r;
	int i;

	if (!l)
		return NULL;
	switch (l->kind) {
	case LOC_FILE:
		return l;
	case LOC_NAME:
	case LOC_CALLSITE:
		return loc_filepos(l->child);
	case LOC_FUSED:
		for (i = 0; i < l->n; i++)
			if ((r = loc_filepos(l->locs[i])))
				return r;
		return NULL;
	default:
		return NULL;
	}
}
