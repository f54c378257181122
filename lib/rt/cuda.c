/*
 * cuda.c - running a CUDA module (--device=cuda) through the CUDA driver
 * API, loaded at run time with dlopen("libcuda.so.1"): the runtime builds
 * and runs everywhere, and without a driver --device=cuda is a clear error.
 *
 * Open: cuInit, the first device's primary context, one stream, each
 * executable's PTX through cuModuleLoadDataEx (the JIT's log on failure),
 * every kernel's CUfunction, and the constants uploaded once.
 * Invoke: device buffers for the arguments, results and the arena (kept
 * per function, reused), the inputs copied in, the host program run on
 * the stream (launches, device-to-device copies, memsets), the results
 * copied out, then one stream synchronize.  Profiled, each launch sits
 * between two events whose elapsed time is read after the synchronize.
 */
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_impl.h"
#include "vmfb.h"

/* The driver API's types, as cuda.h declares them. */
typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;
typedef int CUjit_option;

enum {
	CU_JIT_ERROR_LOG_BUFFER = 5,
	CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
	CU_STREAM_NON_BLOCKING = 1,
};

/* Each entry point: its variable, the symbol it resolves to. */
#define CU_FUNCS(X) \
	X(cuInit, "cuInit", CUresult, (unsigned)) \
	X(cuGetErrorString, "cuGetErrorString", CUresult, (CUresult, const char **)) \
	X(cuGetErrorName, "cuGetErrorName", CUresult, (CUresult, const char **)) \
	X(cuDeviceGetCount, "cuDeviceGetCount", CUresult, (int *)) \
	X(cuDeviceGet, "cuDeviceGet", CUresult, (CUdevice *, int)) \
	X(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain", CUresult, (CUcontext *, CUdevice)) \
	X(cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2", CUresult, (CUdevice)) \
	X(cuCtxSetCurrent, "cuCtxSetCurrent", CUresult, (CUcontext)) \
	X(cuStreamCreate, "cuStreamCreate", CUresult, (CUstream *, unsigned)) \
	X(cuStreamDestroy, "cuStreamDestroy_v2", CUresult, (CUstream)) \
	X(cuStreamSynchronize, "cuStreamSynchronize", CUresult, (CUstream)) \
	X(cuModuleLoadDataEx, "cuModuleLoadDataEx", CUresult, \
		(CUmodule *, const void *, unsigned, CUjit_option *, void **)) \
	X(cuModuleUnload, "cuModuleUnload", CUresult, (CUmodule)) \
	X(cuModuleGetFunction, "cuModuleGetFunction", CUresult, (CUfunction *, CUmodule, const char *)) \
	X(cuMemAlloc, "cuMemAlloc_v2", CUresult, (CUdeviceptr *, size_t)) \
	X(cuMemFree, "cuMemFree_v2", CUresult, (CUdeviceptr)) \
	X(cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2", CUresult, (CUdeviceptr, const void *, size_t, CUstream)) \
	X(cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2", CUresult, (void *, CUdeviceptr, size_t, CUstream)) \
	X(cuMemcpyDtoDAsync, "cuMemcpyDtoDAsync_v2", CUresult, (CUdeviceptr, CUdeviceptr, size_t, CUstream)) \
	X(cuMemsetD8Async, "cuMemsetD8Async", CUresult, (CUdeviceptr, unsigned char, size_t, CUstream)) \
	X(cuMemsetD16Async, "cuMemsetD16Async", CUresult, (CUdeviceptr, unsigned short, size_t, CUstream)) \
	X(cuMemsetD32Async, "cuMemsetD32Async", CUresult, (CUdeviceptr, unsigned, size_t, CUstream)) \
	X(cuLaunchKernel, "cuLaunchKernel", CUresult, (CUfunction, unsigned, unsigned, unsigned, \
		unsigned, unsigned, unsigned, unsigned, CUstream, void **, void **)) \
	X(cuEventCreate, "cuEventCreate", CUresult, (CUevent *, unsigned)) \
	X(cuEventDestroy, "cuEventDestroy_v2", CUresult, (CUevent)) \
	X(cuEventRecord, "cuEventRecord", CUresult, (CUevent, CUstream)) \
	X(cuEventElapsedTime, "cuEventElapsedTime", CUresult, (float *, CUevent, CUevent))

typedef struct CuFuncBufs {
	CUdeviceptr *args, *res, arena;
	int ready;
} CuFuncBufs;

struct RtCuda {
	void *lib;
#define X(var, sym, ret, args) ret (*var) args;
	CU_FUNCS(X)
#undef X
	const Vmfb *v;
	CUdevice dev;
	CUcontext ctx;
	int have_ctx;
	CUstream stream;
	CUmodule *mods;
	CUfunction *kfns;
	CUdeviceptr consts;
	CuFuncBufs *fb;
	CUdeviceptr *bufptr;        /* per buffer of the running function */
	size_t nbufptr;
	uint8_t *fillbuf;           /* 8-byte fill patterns, built on the host */
	size_t nfill;
	CUevent *ev;                /* profiling: a pair per instruction */
	size_t nev;
};

static int
fail(char *err, size_t n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, n, fmt, ap);
	va_end(ap);
	return -1;
}

/* Checks a CUresult: 0, or -1 with "--device=cuda: WHAT: NAME (text)". */
static int
check(RtCuda *c, CUresult r, const char *what, char *err, size_t n)
{
	const char *name = NULL, *text = NULL;

	if (r == 0)
		return 0;
	if (c->cuGetErrorName)
		c->cuGetErrorName(r, &name);
	if (c->cuGetErrorString)
		c->cuGetErrorString(r, &text);
	return fail(err, n, "--device=cuda: %s failed: %s (%s)", what,
	    name ? name : "CUDA error", text ? text : "no description");
}

#define CK(call, what) do { if (check(c, (call), (what), err, n)) return -1; } while (0)

static int
resolve(RtCuda *c, char *err, size_t n)
{
	c->lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!c->lib)
		return fail(err, n, "--device=cuda: cannot load libcuda.so.1 (no NVIDIA driver)");
#define X(var, sym, ret, args) \
	if (!(*(void **)&c->var = dlsym(c->lib, sym))) \
		return fail(err, n, "--device=cuda: libcuda.so.1 has no '%s' (driver too old)", sym);
	CU_FUNCS(X)
#undef X
	return 0;
}

static int
load_modules(RtCuda *c, char *err, size_t n)
{
	const Vmfb *v = c->v;
	char what[300];

	c->mods = calloc(v->nexecs + 1, sizeof *c->mods);
	c->kfns = calloc(v->nkerns + 1, sizeof *c->kfns);
	if (!c->mods || !c->kfns)
		return fail(err, n, "out of memory");
	for (size_t i = 0; i < v->nexecs; i++) {
		const VmfbSection *s = &v->sec[v->execs[i].section];
		char log[4096] = "";
		CUjit_option opt[2] = { CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES };
		void *val[2] = { log, (void *)(uintptr_t)sizeof log };
		CUresult r = c->cuModuleLoadDataEx(&c->mods[i], v->base + s->offset, 2, opt, val);

		if (r) {
			snprintf(what, sizeof what, "loading the PTX of executable @%s%s%.200s",
			    vmfb_str(v, v->execs[i].name), log[0] ? ": " : "", log);
			return check(c, r, what, err, n);
		}
	}
	for (size_t i = 0; i < v->nkerns; i++) {
		const VmfbKern *k = &v->kerns[i];

		if (!k->block[0])
			return fail(err, n, "kernel @%s: no CUDA block size", vmfb_str(v, k->name));
		snprintf(what, sizeof what, "kernel @%s: looking up '%s'", vmfb_str(v, k->name),
		    vmfb_str(v, k->symbol));
		CK(c->cuModuleGetFunction(&c->kfns[i], c->mods[k->exec], vmfb_str(v, k->symbol)), what);
	}
	return 0;
}

RtCuda *
rt_cuda_open(const Vmfb *v, char *err, size_t n)
{
	RtCuda *c = calloc(1, sizeof *c);
	int count = 0;

	if (!c)
		return fail(err, n, "out of memory"), NULL;
	c->v = v;
	if (resolve(c, err, n))
		goto bad;
	if (check(c, c->cuInit(0), "cuInit", err, n))
		goto bad;
	if (check(c, c->cuDeviceGetCount(&count), "cuDeviceGetCount", err, n))
		goto bad;
	if (count < 1) {
		fail(err, n, "--device=cuda: no CUDA device");
		goto bad;
	}
	if (check(c, c->cuDeviceGet(&c->dev, 0), "cuDeviceGet", err, n) ||
	    check(c, c->cuDevicePrimaryCtxRetain(&c->ctx, c->dev), "cuDevicePrimaryCtxRetain", err, n))
		goto bad;
	c->have_ctx = 1;
	if (check(c, c->cuCtxSetCurrent(c->ctx), "cuCtxSetCurrent", err, n) ||
	    check(c, c->cuStreamCreate(&c->stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate", err, n) ||
	    load_modules(c, err, n))
		goto bad;
	if (v->nconsts) {
		if (check(c, c->cuMemAlloc(&c->consts, v->nconsts), "allocating the constants", err, n) ||
		    check(c, c->cuMemcpyHtoDAsync(c->consts, v->consts, v->nconsts, c->stream),
			"uploading the constants", err, n) ||
		    check(c, c->cuStreamSynchronize(c->stream), "uploading the constants", err, n))
			goto bad;
	}
	c->fb = calloc(v->nfuncs + 1, sizeof *c->fb);
	if (!c->fb) {
		fail(err, n, "out of memory");
		goto bad;
	}
	return c;
bad:
	rt_cuda_close(c);
	return NULL;
}

void
rt_cuda_close(RtCuda *c)
{
	if (!c)
		return;
	if (c->have_ctx && c->cuCtxSetCurrent(c->ctx) == 0) {
		const Vmfb *v = c->v;

		if (c->fb)
			for (size_t i = 0; i < v->nfuncs; i++) {
				CuFuncBufs *b = &c->fb[i];

				for (uint32_t j = 0; b->args && j < v->funcs[i].nargs; j++)
					if (b->args[j])
						c->cuMemFree(b->args[j]);
				for (uint32_t j = 0; b->res && j < v->funcs[i].nresults; j++)
					if (b->res[j])
						c->cuMemFree(b->res[j]);
				if (b->arena)
					c->cuMemFree(b->arena);
				free(b->args);
				free(b->res);
			}
		if (c->consts)
			c->cuMemFree(c->consts);
		if (c->mods)
			for (size_t i = 0; i < v->nexecs; i++)
				if (c->mods[i])
					c->cuModuleUnload(c->mods[i]);
		for (size_t i = 0; i < c->nev; i++)
			if (c->ev[i])
				c->cuEventDestroy(c->ev[i]);
		if (c->stream)
			c->cuStreamDestroy(c->stream);
		c->cuDevicePrimaryCtxRelease(c->dev);
	}
	free(c->fb);
	free(c->mods);
	free(c->kfns);
	free(c->bufptr);
	free(c->fillbuf);
	free(c->ev);
	if (c->lib)
		dlclose(c->lib);
	free(c);
}

static int
alloc_dev(RtCuda *c, CUdeviceptr *p, uint64_t size, const char *what, char *err, size_t n)
{
	return check(c, c->cuMemAlloc(p, size ? size : 64), what, err, n);
}

/* The device buffers of function fi: allocated at its first invocation. */
static int
func_bufs(RtCuda *c, uint32_t fi, char *err, size_t n)
{
	const Vmfb *v = c->v;
	const VmfbFunc *f = &v->funcs[fi];
	CuFuncBufs *b = &c->fb[fi];
	char what[64];

	if (b->ready)
		return 0;
	b->args = calloc((size_t)f->nargs + 1, sizeof *b->args);
	b->res = calloc((size_t)f->nresults + 1, sizeof *b->res);
	if (!b->args || !b->res)
		return fail(err, n, "out of memory");
	for (uint32_t i = 0; i < f->nargs; i++) {
		snprintf(what, sizeof what, "allocating input %u", i);
		if (alloc_dev(c, &b->args[i], v->types[f->first_arg + i].nbytes, what, err, n))
			return -1;
	}
	for (uint32_t i = 0; i < f->nresults; i++) {
		snprintf(what, sizeof what, "allocating result %u", i);
		if (alloc_dev(c, &b->res[i], v->types[f->first_result + i].nbytes, what, err, n))
			return -1;
	}
	if (f->arena_size && alloc_dev(c, &b->arena, f->arena_size, "allocating the arena", err, n))
		return -1;
	b->ready = 1;
	return 0;
}

static int
run_fill(RtCuda *c, CUdeviceptr p, uint64_t size, uint32_t esz, uint64_t pat, char *err, size_t n)
{
	if (!size)
		return 0;
	if (esz == 8 && (pat & 0xffffffffu) == pat >> 32)
		esz = 4;
	if (esz == 4 && (pat & 0xffff) == ((pat >> 16) & 0xffff))
		esz = 2;
	if (esz == 2 && (pat & 0xff) == ((pat >> 8) & 0xff))
		esz = 1;
	switch (esz) {
	case 1: CK(c->cuMemsetD8Async(p, (unsigned char)pat, size, c->stream), "cuMemsetD8Async"); return 0;
	case 2: CK(c->cuMemsetD16Async(p, (unsigned short)pat, size / 2, c->stream), "cuMemsetD16Async"); return 0;
	case 4: CK(c->cuMemsetD32Async(p, (unsigned)pat, size / 4, c->stream), "cuMemsetD32Async"); return 0;
	}
	/* an 8-byte pattern: built on the host, copied (the stream is
	 * synchronized before the host buffer changes again) */
	CK(c->cuStreamSynchronize(c->stream), "cuStreamSynchronize");
	if (c->nfill < size) {
		uint8_t *q = realloc(c->fillbuf, size);

		if (!q)
			return fail(err, n, "out of memory");
		c->fillbuf = q, c->nfill = size;
	}
	for (uint64_t i = 0; i < size; i += 8)
		memcpy(c->fillbuf + i, &pat, 8);
	CK(c->cuMemcpyHtoDAsync(p, c->fillbuf, size, c->stream), "cuMemcpyHtoDAsync");
	CK(c->cuStreamSynchronize(c->stream), "cuStreamSynchronize");
	return 0;
}

/* Two events for each of f's instructions, made at the first profiled
 * run of the longest function. */
static int
events(RtCuda *c, const VmfbFunc *f, char *err, size_t n)
{
	size_t want = 2 * (size_t)f->ninsts;

	if (c->nev >= want)
		return 0;
	CUevent *q = realloc(c->ev, want * sizeof *q);

	if (!q)
		return fail(err, n, "out of memory");
	c->ev = q;
	for (; c->nev < want; c->nev++) {
		c->ev[c->nev] = NULL;
		CK(c->cuEventCreate(&c->ev[c->nev], 0), "cuEventCreate");
	}
	return 0;
}

/* A dispatch's grid: at the call's length where it has a Grid record and
 * the length is an argument, whose host copy gives n (the kernels read
 * it on the device and work with any grid: else the static one). */
static void
grid_of(const Vmfb *v, const VmfbFunc *f, const VmfbInst *in, const RtTensor *args, uint32_t grid[3])
{
	const VmfbGrid *g = in->grid ? &v->grids[in->grid - 1] : NULL;
	const VmfbBuf *b = g ? &v->bufs[f->first_buf + v->binds[in->b + g->binding]] : NULL;
	int64_t len = 0;

	if (b && b->base == BASE_ARG)
		memcpy(&len, (const uint8_t *)args[b->index].data + b->offset, sizeof len);
	else
		g = NULL;
	vmfb_grid_at(g, (const uint32_t[3]){ in->x, in->y, in->z }, len, grid);
}

static int
run_program(RtCuda *c, const VmfbFunc *f, const RtTensor *args_in, int timed, char *err, size_t n)
{
	const Vmfb *v = c->v;
	void *params[256], **pp = params;
	CUdeviceptr args[256], *ap = args;
	uint32_t grid[3];

	for (uint32_t i = 0; i < f->ninsts; i++) {
		const VmfbInst *in = &v->insts[f->first_inst + i];
		const VmfbKern *k;
		char what[300];

		switch (in->op) {
		case INST_DISPATCH:
			if (!in->x || !in->y || !in->z)
				break;
			k = &v->kerns[in->a];
			grid_of(v, f, in, args_in, grid);
			if (in->c > 256) {
				pp = malloc((size_t)in->c * sizeof *pp);
				ap = malloc((size_t)in->c * sizeof *ap);
				if (!pp || !ap) {
					free(pp == params ? NULL : pp), free(ap == args ? NULL : ap);
					return fail(err, n, "out of memory");
				}
			}
			for (uint32_t j = 0; j < in->c; j++) {
				ap[j] = c->bufptr[v->binds[in->b + j]];
				pp[j] = &ap[j];
			}
			if (timed)
				CK(c->cuEventRecord(c->ev[2 * i], c->stream), "cuEventRecord");
			CUresult r = c->cuLaunchKernel(c->kfns[in->a], grid[0], grid[1], grid[2],
			    k->block[0], k->block[1], k->block[2], k->shared, c->stream, pp, NULL);
			if (timed && !r)
				r = c->cuEventRecord(c->ev[2 * i + 1], c->stream);
			if (pp != params)
				free(pp), free(ap), pp = params, ap = args;
			snprintf(what, sizeof what, "launching kernel @%s", vmfb_str(v, k->name));
			if (check(c, r, what, err, n))
				return -1;
			break;
		case INST_COPY:
			if (in->n)
				CK(c->cuMemcpyDtoDAsync(c->bufptr[in->b], c->bufptr[in->a], in->n, c->stream),
				    "cuMemcpyDtoDAsync");
			break;
		case INST_FILL:
			if (run_fill(c, c->bufptr[in->a], v->bufs[f->first_buf + in->a].size, in->c, in->n, err, n))
				return -1;
			break;
		}
	}
	return 0;
}

int
rt_cuda_invoke(RtCuda *c, uint32_t fi, const RtTensor *in, RtTensor *out, double *secs,
    uint64_t *calls, char *err, size_t n)
{
	const Vmfb *v = c->v;
	const VmfbFunc *f = &v->funcs[fi];
	CuFuncBufs *b = &c->fb[fi];
	CUresult r;

	CK(c->cuCtxSetCurrent(c->ctx), "cuCtxSetCurrent");
	if (func_bufs(c, fi, err, n))
		return -1;
	if (c->nbufptr < f->nbufs + 1) {
		CUdeviceptr *q = realloc(c->bufptr, ((size_t)f->nbufs + 1) * sizeof *q);

		if (!q)
			return fail(err, n, "out of memory");
		c->bufptr = q, c->nbufptr = f->nbufs + 1;
	}
	for (uint32_t i = 0; i < f->nbufs; i++) {
		const VmfbBuf *vb = &v->bufs[f->first_buf + i];
		CUdeviceptr base = 0;

		switch (vb->base) {
		case BASE_ARG: base = b->args[vb->index]; break;
		case BASE_RESULT: base = b->res[vb->index]; break;
		case BASE_ARENA: base = b->arena; break;
		case BASE_CONST: base = c->consts + v->globals[vb->index].offset; break;
		}
		c->bufptr[i] = base + vb->offset;
	}
	for (uint32_t i = 0; i < f->nargs; i++) {
		uint64_t nb = v->types[f->first_arg + i].nbytes;

		if (nb)
			CK(c->cuMemcpyHtoDAsync(b->args[i], in[i].data, nb, c->stream), "copying an input to the device");
	}
	if (secs && events(c, f, err, n))
		return -1;
	if (run_program(c, f, in, secs != NULL, err, n))
		return -1;
	for (uint32_t i = 0; i < f->nresults; i++) {
		uint64_t nb = v->types[f->first_result + i].nbytes;

		if (nb)
			CK(c->cuMemcpyDtoHAsync(out[i].data, b->res[i], nb, c->stream), "copying a result from the device");
	}
	r = c->cuStreamSynchronize(c->stream);
	if (check(c, r, "running the function (cuStreamSynchronize)", err, n))
		return -1;
	for (uint32_t i = 0; secs && i < f->ninsts; i++) {
		const VmfbInst *vi = &v->insts[f->first_inst + i];
		float ms;

		if (vi->op != INST_DISPATCH || !vi->x || !vi->y || !vi->z)
			continue;
		CK(c->cuEventElapsedTime(&ms, c->ev[2 * i], c->ev[2 * i + 1]), "cuEventElapsedTime");
		secs[i] += ms * 1e-3;
		calls[i]++;
	}
	return 0;
}
