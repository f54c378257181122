/*
 * bigmem.c - memory for the blobs of hundreds of MB that travel through
 * the pipe: the text read from a pipe and the decoded resources.
 *
 * They are mapped straight from the kernel, 2 MB aligned and with
 * transparent huge pages asked for (madvise mode), so that filling them
 * takes one page fault per 2 MB instead of one per 4 KB; a reservation
 * costs only address space (MAP_NORESERVE) until it is touched, grows
 * in place or by moving its page tables (mremap), and is given back
 * whole (munmap) rather than page by page through malloc.
 */
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "ctx.h"

enum { HUGE = 2 << 20 };

static size_t
round_huge(size_t n)
{
	return n > SIZE_MAX - (HUGE - 1) ? 0 : (n + HUGE - 1) & ~(size_t)(HUGE - 1);
}

void *
big_reserve(size_t *len)
{
	size_t n = round_huge(*len), lead;
	char *p;

	if (!n || n > SIZE_MAX - HUGE)
		return NULL;
	p = mmap(NULL, n + HUGE, PROT_READ | PROT_WRITE,
		MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	/* trim to a 2 MB boundary at both ends */
	lead = (HUGE - (uintptr_t)p % HUGE) % HUGE;
	if (lead)
		munmap(p, lead);
	munmap(p + lead + n, HUGE - lead);
	p += lead;
	madvise(p, n, MADV_HUGEPAGE);
	*len = n;
	return p;
}

void *
big_grow(void *p, size_t old, size_t *len)
{
	size_t n = round_huge(*len);
	char *q;

	if (!n)
		return NULL;
	q = mremap(p, old, n, MREMAP_MAYMOVE);
	if (q == MAP_FAILED)
		return NULL;
	madvise(q, n, MADV_HUGEPAGE);
	*len = n;
	return q;
}

void
big_release(void *p, size_t len)
{
	if (p)
		munmap(p, len);
}

/* ---- resource data ---- */

/* A reservation that resource data is carved from, freed with the context. */
struct BigRegion {
	BigRegion *next;
	char *base;
	size_t used, cap;
};

/* Under AddressSanitizer everything is malloc'd, for it to watch. */
#if defined(__SANITIZE_ADDRESS__)
#define SANITIZING 1
#else
#define SANITIZING 0
#endif

enum {
	BIG_MIN = 64 << 10,          /* smaller blocks come from malloc */
	REGION = 1 << 30,            /* address space per reservation */
};

void *
ctx_big_alloc(Ctx *c, size_t n, size_t align)
{
	BigRegion *r = c->big;
	size_t at;

	if (SANITIZING || n < BIG_MIN || !align || align & (align - 1) || align > HUGE)
		goto small;
	if (align < 64)
		align = 64;
	at = r ? (r->used + align - 1) & ~(align - 1) : 0;
	if (!r || at > r->cap || r->cap - at < n) {
		size_t cap = n > REGION ? n : REGION;
		char *base = big_reserve(&cap);

		if (!base)
			goto small;
		r = xmalloc(sizeof *r);
		r->base = base;
		r->used = at = 0;
		r->cap = cap;
		r->next = c->big;
		c->big = r;
	}
	r->used = at + n;
	return r->base + at;
small:
	{
		void *p = xmalloc(n ? n : 1);

		ctx_own(c, p);
		return p;
	}
}

void
ctx_big_free(Ctx *c)
{
	BigRegion *r, *next;

	for (r = c->big; r; r = next) {
		next = r->next;
		big_release(r->base, r->cap);
		free(r);
	}
	c->big = NULL;
}
