/* pack.h - vmpack's two halves: packing fxvm IR, dumping a .vmfb. */
#ifndef VMPACK_PACK_H
#define VMPACK_PACK_H

#include <stdio.h>

#include "ir.h"

/* Packs the fxvm module m into out; returns 0, or -1 after reporting
 * errors at the ops' locations (nothing is written then). */
int pack_module(Ctx *c, Op *m, const char *outpath);

/* Prints the contents of the .vmfb in p[0..n) to f; 0, or -1 with a
 * message in err. */
int dump_module(FILE *f, const char *name, const void *p, size_t n, char *err, size_t errn);

#endif
