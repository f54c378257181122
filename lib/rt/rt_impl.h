/* rt_impl.h - the runtime's parts, shared between its files only. */
#ifndef FX_RT_IMPL_H
#define FX_RT_IMPL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "rt.h"

typedef void (*RtKernelFn)(void *const *bindings, int64_t wx, int64_t wy, int64_t wz,
	int64_t nx, int64_t ny, int64_t nz);

/* ---- elf.c: an x86-64 ELF relocatable object linked in process ---- */

typedef struct RtObject {
	uint8_t *mem;           /* one mapping: code pages, then data pages */
	size_t size;
	const uint8_t *img;     /* the object file (not owned) */
	size_t nimg;
	const void *syms;       /* its Elf64_Sym table, in img */
	size_t nsyms;
	const char *symstr;     /* its string table, in img */
	size_t nsymstr;
	uint64_t *symaddr;      /* resolved address per symbol, 0 when none */
} RtObject;

/* Loads, relocates and protects the object; 0, or -1 with a message. */
int rt_elf_load(RtObject *o, const void *img, size_t n, char *err, size_t errn);
/* A defined global function or object; NULL if none. */
void *rt_elf_sym(const RtObject *o, const char *name);
/* Its functions as lines of perf's JIT map (perf-PID.map). */
void rt_elf_perf_map(const RtObject *o, FILE *f);
void rt_elf_free(RtObject *o);

/* ---- pool.c: workers running the workgroups of one dispatch ---- */

typedef struct RtPool RtPool;

RtPool *rt_pool_new(int threads);   /* threads >= 1; 1 runs inline */
void rt_pool_free(RtPool *p);
int rt_pool_threads(const RtPool *p);
/* Tracing: each dispatch records per thread (0 the caller, then the
 * workers) the span of the workgroups it ran; -1: no memory. */
int rt_pool_trace(RtPool *p, int on);
const RtSpan *rt_pool_spans(const RtPool *p);   /* NULL when off */
/* Runs fn over the x*y*z grid and returns when every workgroup is done. */
void rt_pool_dispatch(RtPool *p, RtKernelFn fn, void *const *bindings,
	uint32_t x, uint32_t y, uint32_t z);

/* ---- cuda.c: the CUDA device, through libcuda.so.1 loaded at run time ---- */

struct Vmfb;
typedef struct RtCuda RtCuda;

/* Loads v's PTX and uploads its constants; NULL with a message. */
RtCuda *rt_cuda_open(const struct Vmfb *v, char *err, size_t errn);
void rt_cuda_close(RtCuda *c);
/* Runs function fi on checked inputs into allocated results; 0 or -1.
 * With secs and calls (one slot per instruction), times each launch on
 * the device (CUDA events) and adds to its slots. */
int rt_cuda_invoke(RtCuda *c, uint32_t fi, const RtTensor *in, RtTensor *out,
	double *secs, uint64_t *calls, char *err, size_t errn);

#endif
