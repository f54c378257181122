/*
 * fxvm-interp - a test-only interpreter of codegen's output, so codegen's
 * tests need neither vmpack nor vmrun: it runs one function's host
 * program (formats/fxvm.md) with the kernels from a shared object built
 * from the module's ELF object (cc -shared).
 *
 *   fxvm-interp MODULE.mlir KERNELS.so FUNC IN.bin... -- OUT.bin...
 *
 * Inputs and outputs are raw little-endian arrays of exactly the
 * argument's / result's size.  With THREADS=N the grid runs on N threads.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "asm.h"
#include "tool.h"

typedef void (*KernFn)(void *const *, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t);

static size_t size_of(Type *t)
{
	return (size_t)ty_numel(t) * elem_size(t->elem);
}

static void *read_file(const char *path, size_t want)
{
	FILE *f = fopen(path, "rb");
	void *p = aligned_alloc(64, (want + 63) & ~(size_t)63);

	if (!f || fread(p, 1, want, f) != want)
		tool_fail("cannot read %zu bytes from '%s'", want, path);
	fclose(f);
	return p;
}

typedef struct Job {
	KernFn fn;
	void **b;
	int64_t g[3];
	int64_t next, total;
	pthread_mutex_t mu;
} Job;

static void *worker(void *arg)
{
	Job *j = arg;

	for (;;) {
		int64_t i;

		pthread_mutex_lock(&j->mu);
		i = j->next++;
		pthread_mutex_unlock(&j->mu);
		if (i >= j->total)
			return NULL;
		j->fn((void *const *)j->b, i % j->g[0], i / j->g[0] % j->g[1],
			i / (j->g[0] * j->g[1]), j->g[0], j->g[1], j->g[2]);
	}
}

/* A test tool that exits right after one run: LeakSanitizer would only
 * report the context and buffers it keeps to the end. */
int __lsan_is_turned_off(void);

int __lsan_is_turned_off(void)
{
	return 1;
}

int main(int argc, char **argv)
{
	Ctx *c = ctx_new();
	size_t len;
	char *text;
	Op *m, *fn = NULL, *op;
	void *so;
	static PMap bufs;   /* static: the buffers stay reachable until exit */
	int i, nin = 0, nthreads = getenv("THREADS") ? atoi(getenv("THREADS")) : 1;
	char **outs = NULL;
	int reps = getenv("REPS") ? atoi(getenv("REPS")) : 1, rep;
	uint8_t *arena;
	Attr *ar;

	tool_name = "fxvm-interp";
	if (argc < 4)
		tool_fail("usage: fxvm-interp MODULE KERNELS.so FUNC IN... -- OUT...");
	text = tool_read(argv[1], &len);
	m = parse_module(c, argv[1], text, len);
	if (!m)
		return 1;
	so = dlopen(argv[2], RTLD_NOW);
	if (!so)
		tool_fail("%s", dlerror());
	for (op = m->regs[0].first->first; op; op = op->next)
		if (op_is(op, "func.func") && !strcmp(op_attr(op, "sym_name")->s, argv[3]))
			fn = op;
	if (!fn)
		tool_fail("no function '%s'", argv[3]);
	for (i = 4; i < argc && strcmp(argv[i], "--"); i++)
		nin++;
	if (i < argc)
		outs = argv + i + 1;
	{
		Block *b = fn->regs[0].first;

		if (nin != b->nargs)
			tool_fail("expected %d inputs", b->nargs);
		for (i = 0; i < b->nargs; i++)
			*pmap_slot(&bufs, b->args[i], 1) = read_file(argv[4 + i], size_of(b->args[i]->type));
	}
	ar = op_attr(fn, "fxvm.arena");
	arena = aligned_alloc(64, ar && ar->i ? (size_t)(ar->i + 63) & ~(size_t)63 : 64);
	memset(arena, 0xCD, ar && ar->i ? (size_t)ar->i : 1);   /* garbage, like a reused arena */
	for (rep = 0; rep < reps; rep++)
	for (op = fn->regs[0].first->first; op; op = op->next) {
		if (op_is(op, "fxvm.result")) {
			void **s = pmap_slot(&bufs, RES(op, 0), 1);

			if (!*s)
				*s = aligned_alloc(64, (size_of(RES(op, 0)->type) + 63) & ~(size_t)63);
			memset(*s, 0xAB, size_of(RES(op, 0)->type));
		} else if (op_is(op, "fxvm.alloc")) {
			*pmap_slot(&bufs, RES(op, 0), 1) = arena + op_attr(op, "offset")->i;
		} else if (op_is(op, "fxvm.constant")) {
			Op *g = symtab_lookup(m, op_attr(op, "global")->s);
			Attr *v = op_attr(g, "value");
			size_t n;
			const uint8_t *d = dense_bytes(v, &n);
			size_t want = size_of(RES(op, 0)->type);
			uint8_t *p = aligned_alloc(64, (want + 63) & ~(size_t)63);

			if (v->kind == AT_DENSE && v->splat) {
				size_t es = elem_size(RES(op, 0)->type->elem), k;

				for (k = 0; k < want; k += es)
					memcpy(p + k, d, es);
			} else {
				memcpy(p, d, n < want ? n : want);
			}
			*pmap_slot(&bufs, RES(op, 0), 1) = p;
		} else if (op_is(op, "fxvm.view")) {
			*pmap_slot(&bufs, RES(op, 0), 1) = (uint8_t *)pmap_get(&bufs, OPND(op, 0)) +
				op_attr(op, "offset")->i;
		} else if (op_is(op, "fxvm.copy")) {
			memcpy(pmap_get(&bufs, OPND(op, 1)), pmap_get(&bufs, OPND(op, 0)),
				size_of(OPND(op, 0)->type));
		} else if (op_is(op, "fxvm.fill")) {
			Attr *v = op_attr(op, "value");
			Type *t = OPND(op, 0)->type;
			uint8_t *p = pmap_get(&bufs, OPND(op, 0));
			size_t es = elem_size(t->elem), k;
			uint64_t bits = v->kind == AT_FLOAT ? fp_bits(v->f, t->elem) : (uint64_t)v->i;

			for (k = 0; k < size_of(t); k += es)
				memcpy(p + k, &bits, es);
		} else if (op_is(op, "fxvm.dispatch")) {
			Attr *g = op_attr(op, "grid");
			Job j;
			pthread_t th[64];
			int t;

			j.fn = (KernFn)dlsym(so, op_attr(op, "kernel")->s);
			if (!j.fn)
				tool_fail("no kernel %s", op_attr(op, "kernel")->s);
			j.b = xcalloc((size_t)op->nopnds + 1, sizeof *j.b);
			for (i = 0; i < op->nopnds; i++)
				j.b[i] = pmap_get(&bufs, OPND(op, i));
			memcpy(j.g, g->ints, sizeof j.g);
			j.next = 0;
			j.total = j.g[0] * j.g[1] * j.g[2];
			pthread_mutex_init(&j.mu, NULL);
			for (t = 0; t < nthreads - 1 && t < 64; t++)
				pthread_create(&th[t], NULL, worker, &j);
			worker(&j);
			for (t = 0; t < nthreads - 1 && t < 64; t++)
				pthread_join(th[t], NULL);
			free(j.b);
		} else if (op_is(op, "func.return")) {
			for (i = 0; outs && outs[i] && i < op->nopnds; i++) {
				FILE *f = fopen(outs[i], "wb");

				if (!f)
					tool_fail("cannot write '%s'", outs[i]);
				fwrite(pmap_get(&bufs, OPND(op, i)), 1, size_of(OPND(op, i)->type), f);
				fclose(f);
			}
		}
	}
	return 0;
}
