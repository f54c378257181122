/*
 * util.h - the generic helpers under the IR (util.c): checked allocation,
 * the context's arena and string interning, growable byte buffers and
 * arrays, and a pointer-keyed hash map.  ir.h includes it; a tool that
 * needs only these may include it alone.
 */
#ifndef FX_UTIL_H
#define FX_UTIL_H

#include <stddef.h>
#include <stdint.h>

typedef struct Ctx Ctx;

/* Internal bug: prints "fxpipe: internal error: ..." and aborts. */
_Noreturn void die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- memory: these abort rather than return NULL ---- */

void *xmalloc(size_t n);
void *xrealloc(void *p, size_t n);
void *xcalloc(size_t n, size_t m);
char *xstrdup(const char *s);
size_t mulsz(size_t a, size_t b);        /* aborts on overflow */
void *arena_alloc(Ctx *c, size_t n);      /* zeroed, 16-byte aligned */
char *arena_strdup(Ctx *c, const char *s);
char *arena_strndup(Ctx *c, const char *s, size_t n);
const char *intern(Ctx *c, const char *s); /* equal strings, equal pointers */
const char *internn(Ctx *c, const char *s, size_t n);

/* Growable buffer of bytes, for printers and readers. */
typedef struct Buf {
	char *p;
	size_t n, cap;
} Buf;
void buf_put(Buf *b, const void *p, size_t n);
void buf_puts(Buf *b, const char *s);
void buf_putc(Buf *b, int ch);
void buf_printf(Buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void buf_free(Buf *b);

/* Growable arrays as three fields (v, n, cap): vec_grow returns v
 * reallocated (doubling, from 8) to hold n+1 elements of size sz;
 * PUSH appends x. */
void *vec_grow(void *v, int n, int *cap, size_t sz);
#define PUSH(v, n, cap, x) do { \
	(v) = vec_grow((v), (n), &(cap), sizeof *(v)); \
	(v)[(n)++] = (x); \
} while (0)

/* Pointer-keyed hash map (interned strings, IR objects); values are
 * pointers.  pmap_slot with add creates the slot (NULL value); without,
 * it returns NULL for a key not there.  A zeroed PMap is empty. */
typedef struct PMap {
	const void **keys;
	void **vals;
	size_t cap, n;
} PMap;
void **pmap_slot(PMap *m, const void *k, int add);
void *pmap_get(PMap *m, const void *k);
void pmap_free(PMap *m);

#endif
