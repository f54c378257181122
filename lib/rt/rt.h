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

/* 1 where this machine's CPUID vendor is AMD's ("AuthenticAMD"), else 0
 * (codegen's --cpu=host on a CPU LLVM cannot name: a Zen 5 is "generic"
 * to LLVM 16). */
int rt_cpu_amd(void);

/* ---- what a host program does, and tracing it (vmrun --trace) ---- */

typedef struct RtInstInfo {
	int op;                 /* 1 dispatch, 2 copy, 3 fill (formats/vmfb.md) */
	const char *kernel;     /* dispatch: its display name, else the kernel's; else "" */
	const char *source;     /* dispatch: its root op's FILE:LINE:COL, or "" */
	uint64_t bytes;         /* moved: a dispatch's bindings, a copy's or fill's bytes */
	uint64_t flops;         /* a dispatch's, 0 when unknown */
} RtInstInfo;

uint32_t rt_function_ninsts(const RtFunction *f);
void rt_inst_info(const RtFunction *f, uint32_t i, RtInstInfo *info);

/* CLOCK_MONOTONIC seconds; t0 < 0: nothing ran */
typedef struct RtSpan {
	double t0, t1;
} RtSpan;

/* Called after each instruction i of an invocation with its span on the
 * host and, for a dispatch, each pool thread's span (nthreads of them,
 * the calling thread's first) and the grid it ran (at the call's length
 * where its workgroups depend on it); both NULL for a copy or fill. */
typedef void (*RtTraceFn)(void *ctx, uint32_t i, const RtSpan *host, const RtSpan *threads,
	int nthreads, const uint32_t *grid);
/* Traces f's later invocations (CPU only); fn NULL turns it off.  -1
 * with a message on CUDA or out of memory. */
int rt_trace(RtFunction *f, RtTraceFn fn, void *ctx, RtError *e);

#endif
