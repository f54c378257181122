/* ctx.h - the context's insides, for lib/ only. */
#ifndef FX_CTX_H
#define FX_CTX_H

#include "ir.h"

typedef struct Chunk {
	struct Chunk *next;
	size_t size, used;
	_Alignas(16) unsigned char mem[];
} Chunk;

typedef struct BigRegion BigRegion;

typedef struct Str {
	uint64_t hash;
	size_t len;
	char *s;
} Str;

struct Ctx {
	Chunk *chunks;
	Str **strs;          /* open-addressed intern table */
	size_t nstr, strcap;
	Type **types;        /* open-addressed uniquing table */
	size_t ntype, typecap;
	Resource *res, *reslast;
	Resource **rtab;     /* open-addressed by name; a renamed one's old
	                        slot stays, matching no name */
	size_t nrtab, rtabcap;
	void **owned;        /* malloc'd blocks freed with the context */
	size_t nowned, ownedcap;
	BigRegion *big;      /* big blocks' reservations (bigmem.c) */
};

uint64_t hash_bytes(const void *p, size_t n, uint64_t h);
void ctx_own(Ctx *c, void *p);
/* n bytes freed with the context, aligned to align (at least 64 for big
 * blocks): huge-page memory for big ones, malloc's for the rest. */
void *ctx_big_alloc(Ctx *c, size_t n, size_t align);
void ctx_big_free(Ctx *c);

#endif
