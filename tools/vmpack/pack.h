/* pack.h - vmpack's two halves: packing fxvm IR, dumping a .vmfb. */
#ifndef VMPACK_PACK_H
#define VMPACK_PACK_H

#include <stdint.h>
#include <stdio.h>

#include "ir.h"

/* Packs the fxvm module m into out; returns 0, or -1 after reporting
 * errors at the ops' locations (nothing is written then). */
int pack_module(Ctx *c, Op *m, const char *outpath, const char *params);

/* vmpack --params: a global's bytes and type, and (out) whether it goes
 * to the parameters file. */
typedef struct ParamGlobal {
	const char *sym;           /* its symbol */
	const char *resource;      /* dense_resource<NAME>'s NAME, or NULL */
	const void *p;
	uint64_t n;
	uint32_t dtype;            /* DT_* */
	int rank;
	const int64_t *dims;
	const char *key;           /* out: its tensor in the file; NULL: stays inside */
	uint32_t crc;              /* out: crc32c of its bytes */
	char *own;                 /* out: key's memory, when it is this one's to free */
} ParamGlobal;

/* Writes the globals to the safetensors file path, or finds them in it
 * when fx-export wrote it (params.c); exits with a message on failure. */
void params_place(const char *path, ParamGlobal *g, int n);

/* Prints the contents of the .vmfb in p[0..n) to f; 0, or -1 with a
 * message in err. */
int dump_module(FILE *f, const char *name, const void *p, size_t n, char *err, size_t errn);

#endif
