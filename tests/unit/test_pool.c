/* test_pool.c - lib/rt/pool.c runs every workgroup of a dispatch exactly
 * once, with the (wx, wy, wz) of its number, on 1 to 5 threads, over
 * grids smaller than, equal to and larger than the threads (a thread that
 * finishes its own range takes the others'), back to back; and a worker
 * that sleeps through some dispatches still finds the next.  A dispatch
 * the caller runs whole returns without waiting for a worker asleep when
 * it began: that worker, waking into the next dispatch (another kernel,
 * another grid) or none, runs nothing of the old.  Prints "ok", or each
 * failure and exits 1. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "rt/rt_impl.h"

enum { MAXW = 4096 };

static _Atomic int hits[MAXW];
static _Atomic int slow;   /* workgroups sleep a while: uneven work */
static _Atomic int other[MAXW];

/* workgroup (wx, wy, wz)'s count in a; checks its number */
static void
count(_Atomic int *a, int64_t wx, int64_t wy, int64_t wz, int64_t nx, int64_t ny)
{
	int64_t i = (wz * ny + wy) * nx + wx;

	if (wx < 0 || wx >= nx || wy < 0 || wy >= ny || i < 0 || i >= MAXW)
		abort();
	atomic_fetch_add(&a[i], 1);
	if (a == hits && atomic_load(&slow) && i % 7 == 0) {
		struct timespec ts = {0, 20000};
		nanosleep(&ts, NULL);
	}
}

static void
kernel(void *const *bind, int64_t wx, int64_t wy, int64_t wz, int64_t nx, int64_t ny, int64_t nz)
{
	(void)bind, (void)nz;
	count(hits, wx, wy, wz, nx, ny);
}

/* the second kernel of the late-wake rounds: its own counts */
static void
kernel2(void *const *bind, int64_t wx, int64_t wy, int64_t wz, int64_t nx, int64_t ny, int64_t nz)
{
	(void)bind, (void)nz;
	count(other, wx, wy, wz, nx, ny);
}

int
main(void)
{
	static const uint32_t grids[][3] = {
		{1, 1, 1}, {2, 1, 1}, {3, 1, 1}, {5, 1, 1}, {7, 3, 1}, {64, 1, 1},
		{1, 13, 1}, {4, 4, 4}, {33, 1, 2}, {17, 5, 3}, {1000, 1, 1}, {4096, 1, 1},
	};
	int bad = 0;

	for (int threads = 1; threads <= 5; threads++) {
		RtPool *p = rt_pool_new(threads);

		if (!p || rt_pool_threads(p) != threads) {
			printf("rt_pool_new(%d) failed\n", threads);
			return 1;
		}
		for (int round = 0; round < 40; round++)
			for (size_t g = 0; g < sizeof grids / sizeof grids[0]; g++) {
				const uint32_t *x = grids[g];
				uint64_t total = (uint64_t)x[0] * x[1] * x[2];

				atomic_store(&slow, round % 10 == 3);
				for (uint64_t i = 0; i < total; i++)
					atomic_store(&hits[i], 0);
				rt_pool_dispatch(p, kernel, NULL, x[0], x[1], x[2]);
				for (uint64_t i = 0; i < total; i++)
					if (atomic_load(&hits[i]) != 1 && bad++ < 10)
						printf("%d threads, grid %ux%ux%u: workgroup %llu ran %d times\n",
						    threads, x[0], x[1], x[2], (unsigned long long)i,
						    atomic_load(&hits[i]));
			}
		/* idle long enough for the workers to sleep, then once more */
		struct timespec ts = {0, 5000000};
		nanosleep(&ts, NULL);
		for (int i = 0; i < 64; i++)
			atomic_store(&hits[i], 0);
		rt_pool_dispatch(p, kernel, NULL, 64, 1, 1);
		for (int i = 0; i < 64; i++)
			if (atomic_load(&hits[i]) != 1 && bad++ < 10)
				printf("%d threads, after a sleep: workgroup %d ran %d times\n", threads, i,
				    atomic_load(&hits[i]));
		/* late wakes: the workers asleep, two small dispatches of two
		 * kernels back to back, again and again */
		for (int round = 0; round < 300; round++) {
			struct timespec nap = {0, round % 3 ? 50000 : 300000};
			uint32_t n1 = 2 + round % 5, n2 = 3 + round % 11;

			nanosleep(&nap, NULL);
			for (uint32_t i = 0; i < 16; i++)
				atomic_store(&hits[i], 0), atomic_store(&other[i], 0);
			rt_pool_dispatch(p, kernel, NULL, n1, 1, 1);
			rt_pool_dispatch(p, kernel2, NULL, n2, 1, 1);
			for (uint32_t i = 0; i < 16; i++)
				if ((atomic_load(&hits[i]) != (i < n1) || atomic_load(&other[i]) != (i < n2)) &&
				    bad++ < 10)
					printf("%d threads, late wake round %d: workgroup %u ran %d and %d times\n",
					    threads, round, i, atomic_load(&hits[i]), atomic_load(&other[i]));
		}
		rt_pool_free(p);
	}
	if (bad)
		return 1;
	printf("ok\n");
	return 0;
}
