/*
 * emu.c - runs one kernel of codegen --target=cuda on the CPU, in CUDA's
 * execution model, for tests on machines without a GPU.
 *
 * The kernel is codegen's NVPTX LLVM IR rewritten for x86-64 by emu.py:
 * the special registers, bar.sync, shfl.sync and mma.sync are calls of
 * the emu_* functions below, and the dynamic shared memory is __fx_shared.  Blocks
 * run one after another; a block's threads run at once, each a pthread,
 * so that bar.sync is a real barrier (threads are made once and run
 * every block).  Shared memory is filled with NaNs
 * before each block: a read of a word no thread wrote shows in the result.
 *
 *	emu GRID BLOCK SHARED FILE...
 *
 * Each FILE holds one binding's bytes, in order; the kernel's writes go
 * back to the files.  Build: cc -DKERNEL=name -DNBIND=n emu.c kernel.o
 * -lpthread (emu.py does), n from 1 to MAXBIND.
 */
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef KERNEL
#error "build with -DKERNEL=name -DNBIND=n"
#endif

enum { MAXBIND = 12, MAXTHREADS = 1024, WARP = 32, SHARED = 48 << 10 };

void KERNEL();   /* NBIND pointers */

unsigned char __fx_shared[SHARED] __attribute__((aligned(64)));

static unsigned grid, nthreads;
static pthread_barrier_t bar;
static pthread_barrier_t warpbar[MAXTHREADS / WARP];
static uint32_t lanes[MAXTHREADS];
static void *args[MAXBIND];
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

#define ARGS1 args[0]
#define ARGS2 ARGS1, args[1]
#define ARGS3 ARGS2, args[2]
#define ARGS4 ARGS3, args[3]
#define ARGS5 ARGS4, args[4]
#define ARGS6 ARGS5, args[5]
#define ARGS7 ARGS6, args[6]
#define ARGS8 ARGS7, args[7]
#define ARGS9 ARGS8, args[8]
#define ARGS10 ARGS9, args[9]
#define ARGS11 ARGS10, args[10]
#define ARGS12 ARGS11, args[11]
#define CAT(a, b) a##b
#define XCAT(a, b) CAT(a, b)

/* GPU thread tid of every block in turn: all threads run the same block
 * at once, and meet at its end while thread 0 poisons shared memory */
static void *thread(void *arg)
{
	tid = (unsigned)(uintptr_t)arg;
	for (block_id = 0; block_id < grid; block_id++) {
		KERNEL(XCAT(ARGS, NBIND));
		pthread_barrier_wait(&bar);
		if (tid == 0)
			poison();
		pthread_barrier_wait(&bar);
	}
	return NULL;
}

static void *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	void *p;

	if (!f || fseek(f, 0, SEEK_END) || (long)(*n = (size_t)ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		perror(path);
		exit(1);
	}
	p = malloc(*n ? *n : 1);
	if (!p || fread(p, 1, *n, f) != *n) {
		perror(path);
		exit(1);
	}
	fclose(f);
	return p;
}

int main(int argc, char **argv)
{
	pthread_t th[MAXTHREADS];
	size_t len[MAXBIND];
	unsigned shared, i;

	if (argc != 4 + NBIND) {
		fprintf(stderr, "usage: emu GRID BLOCK SHARED FILE... (%d files)\n", NBIND);
		return 2;
	}
	grid = (unsigned)atoi(argv[1]);
	nthreads = (unsigned)atoi(argv[2]);
	shared = (unsigned)atoi(argv[3]);
	if (!nthreads || nthreads > MAXTHREADS || nthreads % WARP || shared > SHARED) {
		fprintf(stderr, "emu: a block of %u threads with %u bytes of shared memory\n", nthreads, shared);
		return 2;
	}
	for (i = 0; i < NBIND; i++)
		args[i] = slurp(argv[4 + i], &len[i]);
	pthread_barrier_init(&bar, NULL, nthreads);
	for (i = 0; i < nthreads / WARP; i++)
		pthread_barrier_init(&warpbar[i], NULL, WARP);
	poison();
	for (i = 0; i < nthreads; i++)
		if (pthread_create(&th[i], NULL, thread, (void *)(uintptr_t)i)) {
			perror("pthread_create");
			return 1;
		}
	for (i = 0; i < nthreads; i++)
		pthread_join(th[i], NULL);
	for (i = 0; i < NBIND; i++) {
		FILE *f = fopen(argv[4 + i], "wb");

		if (!f || fwrite(args[i], 1, len[i], f) != len[i] || fclose(f)) {
			perror(argv[4 + i]);
			return 1;
		}
	}
	return 0;
}
