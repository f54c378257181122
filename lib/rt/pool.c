/*
 * pool.c - the thread pool: N-1 workers plus the calling thread share the
 * workgroups of one dispatch; the caller returns once all are done (the
 * barrier between dispatches).  Thread t owns the t-th of N contiguous
 * ranges of the workgroups and claims them from its own counter, then
 * takes what is left of the others' (a thread that finishes first helps
 * the rest): consecutive dispatches over the same grid give each thread
 * the same workgroups, so what a workgroup wrote is read by the next
 * dispatch from the cache of the core that wrote it.
 * Idle workers sleep on a condition variable; after a dispatch they poll
 * for the next one for a few microseconds first, because host programs
 * issue dispatches back to back.
 *
 * A dispatch is done when its workgroups are (completed), not when every
 * worker has woken to it: a worker asleep when a small dispatch is
 * published wakes only after the caller has run the whole grid (on a VM,
 * 100 us and more later), and the caller does not wait for it.  The
 * caller then closes the dispatch (closed) and waits only for the workers
 * inside it (inside), who are running and find nothing left.  A worker
 * enters (inside + 1) before it looks whether the dispatch it woke to is
 * closed, and the caller closes before it looks at inside: either the
 * caller sees the worker inside and waits, or the worker sees the
 * dispatch closed and touches none of its state, which the caller may
 * then be rewriting for the next.
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#include "rt_impl.h"

enum { SPIN = 4000 };   /* polls before sleeping: tens of microseconds */

/* A thread's workgroups: next unclaimed (any thread claims, by a
 * compare-and-swap: run_chunks) up to end; a cache line each. */
struct Range {
	_Alignas(64) _Atomic uint64_t next;
	uint64_t end;
};

struct RtPool {
	int n;                      /* threads, the caller included */
	pthread_t *th;
	pthread_mutex_t mu;
	pthread_cond_t work, done;
	/* the current dispatch */
	RtKernelFn fn;
	void *const *bind;
	uint32_t x, y, z;
	uint64_t total, chunk;
	struct Range *range;        /* per thread, the caller's first */
	_Atomic uint64_t completed; /* its workgroups finished */
	_Atomic int inside;         /* workers inside it */
	_Atomic uint64_t gen;       /* dispatches published */
	_Atomic uint64_t closed;    /* the last whose workgroups all finished */
	int quit;
	RtSpan *spans;              /* rt_pool_trace: per thread, the caller's first */
	struct Worker { RtPool *p; int id; } *wk;
};

static inline void
relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int run_chunks(RtPool *p, int id);

/* run_chunks, timed: the span from the thread's first claim to its last
 * workgroup's end; t0 < 0 when the others took every workgroup */
static void
run_chunks_traced(RtPool *p, int id)
{
	double t0 = now();
	int ran = run_chunks(p, id);

	p->spans[id].t0 = ran ? t0 : -1;
	p->spans[id].t1 = now();
}

static void
run_range(RtPool *p, uint64_t i, uint64_t end)
{
	uint64_t wx = i % p->x, rest = i / p->x, wy = rest % p->y, wz = rest / p->y;

	for (; i < end; i++) {
		p->fn(p->bind, wx, wy, wz, p->x, p->y, p->z);
		if (++wx == p->x) {
			wx = 0;
			if (++wy == p->y)
				wy = 0, wz++;
		}
	}
}

/* Thread id's own range, then the others' from the next thread on; 1 if
 * it ran any workgroup.  A claim takes chunk workgroups, or half of what
 * is left of the range where that is less (at least one): the last
 * claims are single workgroups, so the threads finish within one of
 * each other (a claim of a quarter of the range to the end left the
 * other thread idle up to a quarter's time: resnet50's 64 workgroups of
 * 18 us at two threads idled one thread 1.4-2.3 ms a run, 5-7%, now
 * 0.7) */
static int
run_chunks(RtPool *p, int id)
{
	int ran = 0;

	for (int j = 0; j < p->n; j++) {
		struct Range *r = &p->range[(id + j) % p->n];

		for (;;) {
			uint64_t i = atomic_load_explicit(&r->next, memory_order_relaxed), c;

			do {
				if (i >= r->end)
					break;
				c = (r->end - i) / 2;
				c = c > p->chunk ? p->chunk : c ? c : 1;
			} while (!atomic_compare_exchange_weak_explicit(&r->next, &i, i + c,
				memory_order_relaxed, memory_order_relaxed));
			if (i >= r->end)
				break;
			run_range(p, i, i + c);
			ran = 1;
			/* the caller waits only once it has run out of claims */
			if (atomic_fetch_add_explicit(&p->completed, c, memory_order_acq_rel) + c == p->total &&
			    id != 0) {
				pthread_mutex_lock(&p->mu);
				pthread_cond_signal(&p->done);
				pthread_mutex_unlock(&p->mu);
			}
		}
	}
	return ran;
}

static void *
worker(void *arg)
{
	struct Worker *w = arg;
	RtPool *p = w->p;
	uint64_t seen = 0;

	for (;;) {
		int spins = 0;
		while (atomic_load_explicit(&p->gen, memory_order_acquire) == seen && spins++ < SPIN)
			relax();
		pthread_mutex_lock(&p->mu);
		while (!p->quit && atomic_load(&p->gen) == seen)
			pthread_cond_wait(&p->work, &p->mu);
		if (p->quit) {
			pthread_mutex_unlock(&p->mu);
			return NULL;
		}
		pthread_mutex_unlock(&p->mu);
		seen = atomic_load(&p->gen);
		atomic_fetch_add(&p->inside, 1);
		if (atomic_load(&p->closed) < seen) {
			if (p->spans)
				run_chunks_traced(p, w->id);
			else
				run_chunks(p, w->id);
		}
		atomic_fetch_sub(&p->inside, 1);
	}
}

RtPool *
rt_pool_new(int threads)
{
	RtPool *p = calloc(1, sizeof *p);

	if (!p)
		return NULL;
	p->n = 1;
	if (!(p->range = aligned_alloc(64, sizeof *p->range * (size_t)(threads > 1 ? threads : 1)))) {
		free(p);
		return NULL;
	}
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->work, NULL);
	pthread_cond_init(&p->done, NULL);
	if (threads > 1 && (!(p->th = calloc(threads - 1, sizeof *p->th)) ||
	    !(p->wk = calloc(threads - 1, sizeof *p->wk)))) {
		free(p->th);
		free(p->range);
		free(p);
		return NULL;
	}
	for (int i = 0; i < threads - 1; i++) {
		p->wk[i] = (struct Worker){p, i + 1};
		if (pthread_create(&p->th[i], NULL, worker, &p->wk[i]))
			break;
		p->n++;
	}
	return p;
}

void
rt_pool_free(RtPool *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->mu);
	p->quit = 1;
	pthread_cond_broadcast(&p->work);
	pthread_mutex_unlock(&p->mu);
	for (int i = 0; i < p->n - 1; i++)
		pthread_join(p->th[i], NULL);
	pthread_mutex_destroy(&p->mu);
	pthread_cond_destroy(&p->work);
	pthread_cond_destroy(&p->done);
	free(p->th);
	free(p->wk);
	free(p->spans);
	free(p->range);
	free(p);
}

int
rt_pool_threads(const RtPool *p)
{
	return p->n;
}

int
rt_pool_trace(RtPool *p, int on)
{
	if (!on) {
		free(p->spans);
		p->spans = NULL;
		return 0;
	}
	if (!p->spans && !(p->spans = calloc(p->n, sizeof *p->spans)))
		return -1;
	return 0;
}

const RtSpan *
rt_pool_spans(const RtPool *p)
{
	return p->spans;
}

/* The workgroups as the ranges of the first k threads, thread t's
 * [t total / k, (t + 1) total / k); the others' empty. */
static void
share(RtPool *p, uint64_t total, int k)
{
	for (int t = 0; t < p->n; t++) {
		uint64_t lo = t < k ? total * (uint64_t)t / (uint64_t)k : 0;

		atomic_store_explicit(&p->range[t].next, lo, memory_order_relaxed);
		p->range[t].end = t < k ? total * (uint64_t)(t + 1) / (uint64_t)k : 0;
	}
}

void
rt_pool_dispatch(RtPool *p, RtKernelFn fn, void *const *bind, uint32_t x, uint32_t y, uint32_t z)
{
	uint64_t total = (uint64_t)x * y * z, g;

	if (total == 0)
		return;
	p->fn = fn;
	p->bind = bind;
	p->x = x, p->y = y, p->z = z;
	p->total = total;
	if (p->spans)
		for (int i = 0; i < p->n; i++)
			p->spans[i].t0 = -1;
	if (p->n == 1 || total == 1) {
		p->chunk = total;
		share(p, total, 1);
		if (p->spans)
			run_chunks_traced(p, 0);
		else
			run_chunks(p, 0);
		return;
	}
	/* each thread's range claimed a quarter at a time, then less
	 * (run_chunks) */
	p->chunk = total / ((uint64_t)p->n * 4);
	if (p->chunk == 0)
		p->chunk = 1;
	share(p, total, p->n);
	atomic_store_explicit(&p->completed, 0, memory_order_relaxed);
	pthread_mutex_lock(&p->mu);
	g = atomic_fetch_add_explicit(&p->gen, 1, memory_order_release) + 1;
	pthread_cond_broadcast(&p->work);
	pthread_mutex_unlock(&p->mu);
	if (p->spans)
		run_chunks_traced(p, 0);
	else
		run_chunks(p, 0);
	for (int spins = 0; atomic_load_explicit(&p->completed, memory_order_acquire) < total &&
	    spins < SPIN; spins++)
		relax();
	if (atomic_load_explicit(&p->completed, memory_order_acquire) < total) {
		pthread_mutex_lock(&p->mu);
		while (atomic_load(&p->completed) < total)
			pthread_cond_wait(&p->done, &p->mu);
		pthread_mutex_unlock(&p->mu);
	}
	atomic_store(&p->closed, g);
	for (int spins = 0; atomic_load(&p->inside); spins++)
		if (spins < SPIN)
			relax();
		else
			sched_yield();
}
