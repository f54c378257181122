/*
 * fakecuda.c - a libcuda.so.1 for tests on machines without a GPU: the
 * CUDA driver API that vmrun --device=cuda calls (lib/rt/cuda.c), over
 * host memory, running one module's kernels on the CPU in CUDA's
 * execution model.
 *
 * The kernels are codegen's NVPTX LLVM IR rewritten for x86-64 by emu.py
 * and linked into this library: the special registers, bar.sync,
 * shfl.sync, mma.sync and the NVVM intrinsics of libdevice's math are
 * calls of the emu_* functions below, the
 * dynamic shared memory is __fx_shared.  cuModuleLoadDataEx reads the
 * PTX only for its entries and their parameter counts; a launch runs the
 * entry's compiled twin.  Blocks run one after another; a block's threads
 * run at once, each a pthread, so that bar.sync is a real barrier (the
 * threads are made once a launch and run every block).  Device memory
 * and shared memory start as NaNs (0xFF bytes): a read of a word nobody
 * wrote shows in the result.  Everything is synchronous; streams are
 * names.
 *
 * Build: cc -shared -fPIC fakecuda.c kernels.o -lpthread -lm -o libcuda.so.1
 */
#include <dlfcn.h>
#include <fenv.h>
#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { MAXARGS = 16, MAXTHREADS = 1024, WARP = 32, SHARED = 48 << 10 };
enum { OK = 0, ERR_VALUE = 1, ERR_MEMORY = 2, ERR_NOT_FOUND = 500 };

typedef void (*Kernel)();   /* nargs pointers */

unsigned char __fx_shared[SHARED] __attribute__((aligned(64)));

static unsigned grid, nthreads;
static pthread_barrier_t bar;
static pthread_barrier_t warpbar[MAXTHREADS / WARP];
static uint32_t lanes[MAXTHREADS];
static Kernel kfn;
static int kargs;
static void *args[MAXARGS];
static _Thread_local unsigned tid, block_id;

unsigned emu_tid_x(void) { return tid; }
unsigned emu_ntid_x(void) { return nthreads; }
unsigned emu_ctaid_x(void) { return block_id; }
unsigned emu_nctaid_x(void) { return grid; }
void emu_barrier(void) { pthread_barrier_wait(&bar); }

/* shfl.sync.bfly over the thread's warp, every lane taking part */
uint32_t emu_shfl_bfly(uint32_t mask, uint32_t v, uint32_t lanemask, uint32_t clamp)
{
	pthread_barrier_t *b = &warpbar[tid / WARP];
	uint32_t r;

	(void)mask, (void)clamp;
	lanes[tid] = v;
	pthread_barrier_wait(b);
	r = lanes[(tid & ~(uint32_t)(WARP - 1)) | ((tid % WARP) ^ lanemask)];
	pthread_barrier_wait(b);
	return r;
}

/* the NVVM intrinsics libdevice's math functions use */
int32_t emu_d2i_hi(double x) { uint64_t u; memcpy(&u, &x, 8); return (int32_t)(u >> 32); }
int32_t emu_d2i_lo(double x) { uint64_t u; memcpy(&u, &x, 8); return (int32_t)u; }
double emu_lohi_i2d(int32_t lo, int32_t hi)
{
	uint64_t u = (uint64_t)(uint32_t)hi << 32 | (uint32_t)lo;
	double x;

	memcpy(&x, &u, 8);
	return x;
}
/* cvt.rni.s32: to nearest even, saturated, NaN to 0 */
int32_t emu_d2i_rn(double x)
{
	return x != x ? 0 : x >= 2147483647.0 ? INT32_MAX : x <= -2147483648.0 ? INT32_MIN : (int32_t)nearbyint(x);
}
int32_t emu_f2i_rn(float x) { return emu_d2i_rn(x); }
static float ftz(float x) { return fabsf(x) < FLT_MIN ? copysignf(0, x) : x; }
float emu_ex2_approx_f(float x) { return exp2f(x); }
float emu_ex2_approx_ftz_f(float x) { return ftz(exp2f(ftz(x))); }
double emu_rcp_approx_ftz_d(double x) { return 1 / x; }
float emu_rcp_approx_ftz_f(float x) { return ftz(1 / ftz(x)); }
/* add.rz.f32: rounded toward zero (the thread's own rounding mode) */
float emu_add_rz_f(float a, float b)
{
	volatile float r;

	fesetround(FE_TOWARDZERO);
	r = a + b;
	fesetround(FE_TONEAREST);
	return r;
}

static float half_to_float(uint16_t h)
{
	int e = h >> 10 & 31, m = h & 1023;
	float v = e == 0 ? ldexpf((float)m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexpf((float)(m | 1024), e - 25);

	return h >> 15 ? -v : v;
}

static float bf16_to_float(uint16_t h)
{
	uint32_t u = (uint32_t)h << 16;
	float v;

	memcpy(&v, &u, sizeof v);
	return v;
}

static uint32_t frag[MAXTHREADS][6];

/* mma.sync m16n8k16 row.col, f16 or bf16 multiplicands and f32
 * accumulators, over the thread's warp: each lane's fragments in c on
 * the way in, its part of the result on the way out.  The fragments lie
 * as the PTX ISA's "Matrix Fragments for mma.m16n8k16 with floating
 * point type" has them: lane l = 4 g + q holds A's rows g and g + 8 at
 * columns 2q, 2q + 1 (registers 0, 1) and those + 8 (2, 3), B's rows 2q,
 * 2q + 1 and those + 8 at column g, and the result's rows g, g + 8 at
 * columns 2q, 2q + 1; the lower half of a register is the lower column
 * (row of B). */
void emu_mma(uint32_t bf16, uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3, uint32_t b0,
	uint32_t b1, float *c)
{
	unsigned base = tid & ~(unsigned)(WARP - 1), g = tid % WARP / 4, q = tid % 4, i, k;
	float (*cvt)(uint16_t) = bf16 ? bf16_to_float : half_to_float;
	float d[4];

	frag[tid][0] = a0, frag[tid][1] = a1, frag[tid][2] = a2, frag[tid][3] = a3;
	frag[tid][4] = b0, frag[tid][5] = b1;
	pthread_barrier_wait(&warpbar[tid / WARP]);
	for (i = 0; i < 4; i++) {
		unsigned row = g + (i >= 2 ? 8 : 0), col = 2 * q + (i & 1);
		float sum = 0;

		for (k = 0; k < 16; k++) {
			unsigned la = base + row % 8 * 4 + k % 8 / 2, lb = base + col * 4 + k % 8 / 2;
			uint32_t ra = frag[la][(row >= 8) + 2 * (k >= 8)], rb = frag[lb][4 + (k >= 8)];

			sum += cvt((uint16_t)(ra >> 16 * (k & 1))) * cvt((uint16_t)(rb >> 16 * (k & 1)));
		}
		d[i] = c[i] + sum;
	}
	pthread_barrier_wait(&warpbar[tid / WARP]);
	memcpy(c, d, sizeof d);
}

static void poison(void)
{
	float nan = NAN;

	for (size_t i = 0; i < SHARED / sizeof nan; i++)
		memcpy(__fx_shared + i * sizeof nan, &nan, sizeof nan);
}

#define A1 args[0]
#define A2 A1, args[1]
#define A3 A2, args[2]
#define A4 A3, args[3]
#define A5 A4, args[4]
#define A6 A5, args[5]
#define A7 A6, args[6]
#define A8 A7, args[7]
#define A9 A8, args[8]
#define A10 A9, args[9]
#define A11 A10, args[10]
#define A12 A11, args[11]
#define A13 A12, args[12]
#define A14 A13, args[13]
#define A15 A14, args[14]
#define A16 A15, args[15]

static void call(void)
{
	switch (kargs) {
	case 0: kfn(); break;
	case 1: kfn(A1); break;
	case 2: kfn(A2); break;
	case 3: kfn(A3); break;
	case 4: kfn(A4); break;
	case 5: kfn(A5); break;
	case 6: kfn(A6); break;
	case 7: kfn(A7); break;
	case 8: kfn(A8); break;
	case 9: kfn(A9); break;
	case 10: kfn(A10); break;
	case 11: kfn(A11); break;
	case 12: kfn(A12); break;
	case 13: kfn(A13); break;
	case 14: kfn(A14); break;
	case 15: kfn(A15); break;
	case 16: kfn(A16); break;
	}
}

/* GPU thread tid of every block in turn: all threads run the same block
 * at once, and meet at its end while thread 0 poisons shared memory */
static void *thread(void *arg)
{
	tid = (unsigned)(uintptr_t)arg;
	for (block_id = 0; block_id < grid; block_id++) {
		call();
		pthread_barrier_wait(&bar);
		if (tid == 0)
			poison();
		pthread_barrier_wait(&bar);
	}
	return NULL;
}

/* ---- the driver API (the part lib/rt/cuda.c calls) ---- */

typedef struct Entry {
	char name[128];
	int nparams;
	Kernel fn;
} Entry;

typedef struct Module {
	Entry *e;
	int n;
} Module;

static const char *const errnames[][2] = {
	{ "CUDA_ERROR_INVALID_VALUE", "invalid argument" },
	{ "CUDA_ERROR_OUT_OF_MEMORY", "out of memory" },
	{ "CUDA_ERROR_NOT_FOUND", "no such kernel in the emulator" },
};

static int errindex(int r)
{
	return r == ERR_VALUE ? 0 : r == ERR_MEMORY ? 1 : 2;
}

int cuInit(unsigned flags) { (void)flags; return OK; }
int cuGetErrorName(int r, const char **s) { *s = errnames[errindex(r)][0]; return OK; }
int cuGetErrorString(int r, const char **s) { *s = errnames[errindex(r)][1]; return OK; }
int cuDeviceGetCount(int *n) { *n = 1; return OK; }
int cuDeviceGet(int *d, int i) { *d = i; return i == 0 ? OK : ERR_VALUE; }
int cuDevicePrimaryCtxRetain(void **ctx, int d) { (void)d; *ctx = (void *)&grid; return OK; }
int cuDevicePrimaryCtxRelease_v2(int d) { (void)d; return OK; }
int cuCtxSetCurrent(void *ctx) { (void)ctx; return OK; }
int cuStreamCreate(void **s, unsigned flags) { (void)flags; *s = (void *)&nthreads; return OK; }
int cuStreamDestroy_v2(void *s) { (void)s; return OK; }
int cuStreamSynchronize(void *s) { (void)s; return OK; }

/* The PTX's entries and their parameter counts; each entry's function
 * from this library. */
int cuModuleLoadDataEx(Module **mod, const void *image, unsigned nopt, int *opt, void **val)
{
	const char *p = image, *q;
	void *self = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
	Module *m = calloc(1, sizeof *m);

	(void)nopt, (void)opt, (void)val;
	if (!m || !self)
		return ERR_MEMORY;
	while ((p = strstr(p, ".entry "))) {
		Entry *e;
		size_t n;

		p += 7;
		n = strcspn(p, "( \n");
		if (!(m->e = realloc(m->e, (m->n + 1) * sizeof *m->e)) || n >= sizeof e->name)
			return ERR_MEMORY;
		e = &m->e[m->n++];
		memcpy(e->name, p, n);
		e->name[n] = 0;
		e->nparams = 0;
		q = strchr(p, ')');
		for (const char *r = p; q && (r = strstr(r, ".param")) && r < q; r += 6)
			e->nparams++;
		*(void **)&e->fn = dlsym(self, e->name);
		if (!e->fn || e->nparams > MAXARGS)
			return ERR_NOT_FOUND;
	}
	dlclose(self);
	*mod = m;
	return OK;
}

int cuModuleUnload(Module *m)
{
	free(m->e);
	free(m);
	return OK;
}

int cuModuleGetFunction(Entry **f, Module *m, const char *name)
{
	for (int i = 0; i < m->n; i++)
		if (!strcmp(m->e[i].name, name)) {
			*f = &m->e[i];
			return OK;
		}
	return ERR_NOT_FOUND;
}

int cuMemAlloc_v2(unsigned long long *p, size_t n)
{
	void *q = aligned_alloc(256, (n + 255) / 256 * 256);

	if (!q)
		return ERR_MEMORY;
	memset(q, 0xFF, n);
	*p = (uintptr_t)q;
	return OK;
}

int cuMemFree_v2(unsigned long long p) { free((void *)(uintptr_t)p); return OK; }

int cuMemcpyHtoDAsync_v2(unsigned long long d, const void *s, size_t n, void *st)
{
	(void)st;
	memcpy((void *)(uintptr_t)d, s, n);
	return OK;
}

int cuMemcpyDtoHAsync_v2(void *d, unsigned long long s, size_t n, void *st)
{
	(void)st;
	memcpy(d, (const void *)(uintptr_t)s, n);
	return OK;
}

int cuMemcpyDtoDAsync_v2(unsigned long long d, unsigned long long s, size_t n, void *st)
{
	(void)st;
	memmove((void *)(uintptr_t)d, (const void *)(uintptr_t)s, n);
	return OK;
}

int cuMemsetD8Async(unsigned long long d, unsigned char v, size_t n, void *st)
{
	(void)st;
	memset((void *)(uintptr_t)d, v, n);
	return OK;
}

int cuMemsetD16Async(unsigned long long d, unsigned short v, size_t n, void *st)
{
	(void)st;
	for (size_t i = 0; i < n; i++)
		((unsigned short *)(uintptr_t)d)[i] = v;
	return OK;
}

int cuMemsetD32Async(unsigned long long d, unsigned v, size_t n, void *st)
{
	(void)st;
	for (size_t i = 0; i < n; i++)
		((unsigned *)(uintptr_t)d)[i] = v;
	return OK;
}

/* events: the time they are recorded at (everything is synchronous) */
int cuEventCreate(double **ev, unsigned flags)
{
	(void)flags;
	return (*ev = calloc(1, sizeof **ev)) ? OK : ERR_MEMORY;
}

int cuEventDestroy_v2(double *ev) { free(ev); return OK; }

int cuEventRecord(double *ev, void *st)
{
	struct timespec t;

	(void)st;
	clock_gettime(CLOCK_MONOTONIC, &t);
	*ev = t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
	return OK;
}

int cuEventElapsedTime(float *ms, double *a, double *b)
{
	*ms = (float)(*b - *a);
	return OK;
}

int cuLaunchKernel(Entry *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
	unsigned bz, unsigned shared, void *st, void **params, void **extra)
{
	pthread_t th[MAXTHREADS];
	unsigned i;

	(void)st;
	if (gy != 1 || gz != 1 || by != 1 || bz != 1 || !bx || bx > MAXTHREADS || bx % WARP ||
			shared > SHARED || extra)
		return ERR_VALUE;
	/* FAKECUDA_LAUNCHES=FILE: each launch's grid appended, one a line */
	if (getenv("FAKECUDA_LAUNCHES")) {
		FILE *log = fopen(getenv("FAKECUDA_LAUNCHES"), "a");

		if (!log)
			return ERR_VALUE;
		fprintf(log, "%s %u\n", f->name, gx);
		fclose(log);
	}
	kfn = f->fn;
	kargs = f->nparams;
	for (i = 0; i < (unsigned)kargs; i++)
		args[i] = (void *)(uintptr_t)*(unsigned long long *)params[i];
	grid = gx;
	nthreads = bx;
	pthread_barrier_init(&bar, NULL, nthreads);
	for (i = 0; i < nthreads / WARP; i++)
		pthread_barrier_init(&warpbar[i], NULL, WARP);
	poison();
	for (i = 0; i < nthreads; i++)
		if (pthread_create(&th[i], NULL, thread, (void *)(uintptr_t)i))
			return ERR_MEMORY;
	for (i = 0; i < nthreads; i++)
		pthread_join(th[i], NULL);
	pthread_barrier_destroy(&bar);
	for (i = 0; i < nthreads / WARP; i++)
		pthread_barrier_destroy(&warpbar[i]);
	return OK;
}
