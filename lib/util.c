/* util.c - allocation, the context arena, string interning, buffers,
 * growable arrays and the pointer map (util.h). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"

_Noreturn void
die(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("fxpipe: internal error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

void *
xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		die("out of memory (%zu bytes)", n);
	return p;
}

void *
xcalloc(size_t n, size_t m)
{
	void *p = calloc(n ? n : 1, m ? m : 1);

	if (!p)
		die("out of memory");
	return p;
}

void *
xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die("out of memory (%zu bytes)", n);
	return p;
}

char *
xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(xmalloc(n), s, n);
}

size_t
mulsz(size_t a, size_t b)
{
	if (b && a > SIZE_MAX / b)
		die("size overflow");
	return a * b;
}

/* Arena: a list of chunks; big requests get their own chunk. */
enum { CHUNK = 1 << 16 };

void *
arena_alloc(Ctx *c, size_t n)
{
	Chunk *ch;
	size_t sz;

	n = (n + 15) & ~(size_t)15;
	ch = c->chunks;
	if (!ch || ch->size - ch->used < n) {
		sz = n > CHUNK / 4 ? n : CHUNK;
		ch = xmalloc(sizeof *ch + sz);
		ch->size = sz;
		ch->used = 0;
		if (n > CHUNK / 4 && c->chunks) {
			/* keep filling the current chunk */
			ch->next = c->chunks->next;
			c->chunks->next = ch;
		} else {
			ch->next = c->chunks;
			c->chunks = ch;
		}
	}
	void *p = ch->mem + ch->used;
	ch->used += n;
	memset(p, 0, n);
	return p;
}

char *
arena_strndup(Ctx *c, const char *s, size_t n)
{
	char *p = arena_alloc(c, n + 1);

	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

char *
arena_strdup(Ctx *c, const char *s)
{
	return arena_strndup(c, s, strlen(s));
}

uint64_t
hash_bytes(const void *p, size_t n, uint64_t h)
{
	const unsigned char *s = p;

	/* FNV-1a */
	if (!h)
		h = 1469598103934665603ull;
	while (n--)
		h = (h ^ *s++) * 1099511628211ull;
	return h;
}

const char *
internn(Ctx *c, const char *s, size_t n)
{
	uint64_t h = hash_bytes(s, n, 0);
	size_t i, mask;
	Str *e;

	if (c->nstr * 2 >= c->strcap) {
		Str **old = c->strs;
		size_t oldcap = c->strcap;

		c->strcap = oldcap ? oldcap * 2 : 1024;
		c->strs = xcalloc(c->strcap, sizeof *c->strs);
		for (i = 0; i < oldcap; i++) {
			if (!old[i])
				continue;
			size_t j = old[i]->hash & (c->strcap - 1);
			while (c->strs[j])
				j = (j + 1) & (c->strcap - 1);
			c->strs[j] = old[i];
		}
		free(old);
	}
	mask = c->strcap - 1;
	for (i = h & mask; (e = c->strs[i]); i = (i + 1) & mask)
		if (e->hash == h && e->len == n && !memcmp(e->s, s, n))
			return e->s;
	e = arena_alloc(c, sizeof *e);
	e->hash = h;
	e->len = n;
	e->s = arena_strndup(c, s, n);
	c->strs[i] = e;
	c->nstr++;
	return e->s;
}

const char *
intern(Ctx *c, const char *s)
{
	return internn(c, s, strlen(s));
}

void
buf_put(Buf *b, const void *p, size_t n)
{
	if (b->cap - b->n <= n) {
		size_t cap = b->cap ? b->cap : 256;
		while (cap - b->n <= n)
			cap = mulsz(cap, 2);
		b->p = xrealloc(b->p, cap);
		b->cap = cap;
	}
	if (n)
		memcpy(b->p + b->n, p, n);
	b->n += n;
	b->p[b->n] = 0;
}

void
buf_puts(Buf *b, const char *s)
{
	buf_put(b, s, strlen(s));
}

void
buf_putc(Buf *b, int ch)
{
	char c = ch;

	buf_put(b, &c, 1);
}

void
buf_printf(Buf *b, const char *fmt, ...)
{
	char small[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(small, sizeof small, fmt, ap);
	va_end(ap);
	if (n < 0)
		die("bad format");
	if ((size_t)n < sizeof small) {
		buf_put(b, small, n);
		return;
	}
	char *big = xmalloc(n + 1);
	va_start(ap, fmt);
	vsnprintf(big, n + 1, fmt, ap);
	va_end(ap);
	buf_put(b, big, n);
	free(big);
}

void
buf_free(Buf *b)
{
	free(b->p);
	b->p = NULL;
	b->n = b->cap = 0;
}

void *
vec_grow(void *v, int n, int *cap, size_t sz)
{
	if (n < *cap)
		return v;
	*cap = *cap ? *cap * 2 : 8;
	return xrealloc(v, mulsz((size_t)*cap, sz));
}

/* Pointers are aligned, so their low bits say little: mixed before
 * masking to the table's size. */
static size_t
phash(const void *k)
{
	uintptr_t x = (uintptr_t)k;

	x ^= x >> 17;
	x *= 0x9E3779B97F4A7C15ull;
	return (size_t)(x ^ (x >> 29));
}

/* Open addressing, at most half full. */
static void
pmap_grow(PMap *m)
{
	PMap old = *m;
	size_t i;

	m->cap = old.cap ? old.cap * 2 : 64;
	m->keys = xcalloc(m->cap, sizeof *m->keys);
	m->vals = xcalloc(m->cap, sizeof *m->vals);
	m->n = 0;
	for (i = 0; i < old.cap; i++)
		if (old.keys[i])
			*pmap_slot(m, old.keys[i], 1) = old.vals[i];
	free(old.keys);
	free(old.vals);
}

void **
pmap_slot(PMap *m, const void *k, int add)
{
	size_t i;

	if (add && (m->n + 1) * 2 > m->cap)
		pmap_grow(m);
	if (!m->cap)
		return NULL;
	for (i = phash(k) & (m->cap - 1); m->keys[i]; i = (i + 1) & (m->cap - 1))
		if (m->keys[i] == k)
			return &m->vals[i];
	if (!add)
		return NULL;
	m->keys[i] = k;
	m->n++;
	return &m->vals[i];
}

void *
pmap_get(PMap *m, const void *k)
{
	void **s = pmap_slot(m, k, 0);

	return s ? *s : NULL;
}

void
pmap_free(PMap *m)
{
	free(m->keys);
	free(m->vals);
}
