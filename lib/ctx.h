/* ctx.h - the context's insides, for lib/ only. */
#ifndef FX_CTX_H
#define FX_CTX_H

#include "ir.h"

typedef struct Chunk {
	struct Chunk *next;
	size_t size, used;
	_Alignas(16) unsigned char mem[];
} Chunk;

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
	void **owned;        /* malloc'd blocks freed with the context */
	size_t nowned, ownedcap;
};

uint64_t hash_bytes(const void *p, size_t n, uint64_t h);
void ctx_own(Ctx *c, void *p);

#endif
