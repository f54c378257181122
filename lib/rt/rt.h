/*
 * rt.h - the fxpipe runtime as the tools see it: the public API (fxrt.h,
 * libfxrt.so's) and what only the statically linked tools use.  vmrun is a
 * thin shell over this API.
 */
#ifndef FX_RT_H
#define FX_RT_H

/* The public API is fxrt.h (installed, and libfxrt.so's); what follows is
 * for the tools linked statically only. */
#include "fxrt.h"

/* Loads and links an x86-64 ELF relocatable object as rt_load would, then
 * drops it (for a packer to check a kernel object): -1 with a message if
 * it does not load, 1 if it loads but sym (when not NULL) is no global
 * function of it, else 0. */
int rt_object_check(const void *img, size_t n, const char *sym, char *err, size_t errn);

#endif
