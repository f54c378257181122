/*
 * module.c - loading a .vmfb and invoking its functions (rt.h).
 *
 * Load: map the file read-only, vmfb_check() it whole, check the target
 * and CPU features, link each kernel object, and decode every function's
 * host program into RtInst[] with kernel entry points resolved and its
 * dispatch bindings gathered into one per-function array.
 * Invoke: check the inputs, point each buffer at its base (argument,
 * result, arena or constant) plus its offset, and run the instructions.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rt_impl.h"
#include "safetensors.h"
#include "vmfb.h"

_Static_assert((int)RT_F16 == DT_F16 && (int)RT_U64 == DT_U64 && (int)RT_C128 == DT_C128, "dtype numbers");
_Static_assert(RT_MAX_RANK == VMFB_MAX_RANK, "rank limit");

typedef struct RtInst {
	uint32_t op;
	uint32_t a, b, c;
	uint32_t x, y, z;
	uint64_t n;
	RtKernelFn fn;
	const VmfbGrid *grid;       /* a dispatch's grid at the call's length, or NULL */
	const int64_t *box;         /* a fill's shape, interior offsets and sizes
	                             * (x of each), or NULL: fill it all */
} RtInst;

struct RtFunction {
	RtModule *m;
	const char *name;
	const VmfbFunc *vf;
	const VmfbType *args, *res;
	uint8_t *arena;             /* allocated at the first invocation */
	const VmfbBuf *bufs;
	void **bufptr;              /* per buffer, set per invocation */
	uint32_t nbinds;
	uint32_t *bindbuf;          /* per binding: its buffer */
	void **bindptr;             /* per binding: its address */
	RtInst *insts;
	int profile;                /* rt_profile: time each dispatch */
	double *secs;               /* per instruction */
	uint64_t *calls;
	RtTraceFn trace;            /* rt_trace */
	void *trace_ctx;
	uint32_t trace_base;        /* added to its instruction numbers when traced */
	const VmfbBatch *batch;     /* a batched function (fxvm.batch), else NULL */
	int64_t *rows;              /* batched: rows per item of each argument, then
	                               result; 0 for an unbatched argument */
	int64_t *rowbytes;          /* batched: bytes of one row of each */
	RtTensor *views;            /* batched: a chunk's arguments, the item count
	                               (a bounded chunk's), then results */
	uint8_t *stage;             /* batched: aligned copies of unaligned chunks */
	size_t nstage;
	const VmfbLength *len;      /* of a dynamic length (fxvm.length), else NULL:
	                               its first record of nlen, ranges ascending
	                               (the whole range: len[0].min to
	                               len[nlen - 1].max) */
	uint32_t nlen;
	const int64_t *pairs;       /* length: (c, d) per dimension of each argument,
	                               then result */
	RtTensor *pad;              /* length: the padded function's arguments (the
	                               length last), then results; data kept */
	size_t *padcap;             /* length: the bytes each holds */
};

struct RtModule {
	uint8_t *mem;               /* the module's bytes, read-only */
	size_t size;
	size_t maplen;              /* mem is an mmap of maplen bytes */
	Vmfb v;
	RtPool *pool;
	RtObject *objs;
	RtKernelFn *kfns;
	RtFunction *funcs;
	RtCuda *cuda;               /* --device=cuda */
	const uint8_t **gdata;      /* per global: its bytes (module or parameters) */
	uint8_t *pmem;              /* the parameters file, mapped read-only */
	size_t pmaplen;
	void **copies;              /* parameters copied for alignment (rt_alloc) */
	size_t ncopies;
	pthread_mutex_t lock;
};

static int
err(RtError *e, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof e->msg, fmt, ap);
	va_end(ap);
	return -1;
}

/* ---- tensors ---- */

size_t
rt_dtype_size(RtDtype d)
{
	return vmfb_dtype_size(d);
}

const char *
rt_dtype_name(RtDtype d)
{
	const char *s = vmfb_dtype_name(d);
	return s ? s : "?";
}

int64_t
rt_numel(const RtTensor *t)
{
	int64_t n = 1;

	/* 0 when any dim is: (2^62, 4, 0) must not overflow on the way */
	for (int i = 0; i < t->rank; i++)
		if (t->dims[i] == 0)
			return 0;
	for (int i = 0; i < t->rank; i++)
		if (__builtin_mul_overflow(n, t->dims[i], &n))
			return INT64_MAX;
	return n;
}

void *
rt_alloc(size_t n)
{
	void *p = NULL;

	if (posix_memalign(&p, 64, n ? (n + 63) & ~(size_t)63 : 64))
		return NULL;
	return p;
}

void
rt_free(void *p)
{
	free(p);
}

void
rt_tensor_free(RtTensor *t)
{
	free(t->data);
	t->data = NULL;
}

int
rt_abi_version(void)
{
	return FXRT_ABI_VERSION;
}

void
rt_type_str(const RtTensor *t, char *buf, size_t n)
{
	size_t k = 0;

	buf[0] = 0;
	for (int i = 0; i < t->rank && k < n; i++)
		k += t->dims[i] < 0 ? snprintf(buf + k, n - k, "?x")
		    : snprintf(buf + k, n - k, "%lldx", (long long)t->dims[i]);
	if (k < n)
		snprintf(buf + k, n - k, "%s", rt_dtype_name(t->dtype));
}

static void
type_of(const RtModule *m, const VmfbType *vt, RtTensor *t)
{
	memset(t, 0, sizeof *t);
	t->dtype = vt->dtype;
	t->rank = vt->rank;
	for (uint32_t i = 0; i < vt->rank; i++)
		t->dims[i] = m->v.dims[vt->first_dim + i];
	t->nbytes = vt->nbytes;
}

/* vt with d0 rows when it is batched (VMFB_DYN at dimension 0); -1 if
 * its bytes overflow. */
static int
type_rows(const RtModule *m, const VmfbType *vt, int64_t d0, RtTensor *t)
{
	int64_t n;

	type_of(m, vt, t);
	if (!t->rank || t->dims[0] != VMFB_DYN)
		return 0;
	t->dims[0] = d0;
	n = rt_numel(t);
	return n == INT64_MAX || __builtin_mul_overflow((uint64_t)n, rt_dtype_size(t->dtype), &t->nbytes)
	    ? -1 : 0;
}

/* ---- loading ---- */

int
rt_cpu_count(void)
{
	cpu_set_t set;
	int n = 0;

	if (sched_getaffinity(0, sizeof set, &set) == 0)
		n = CPU_COUNT(&set);
	if (n <= 0)
		n = (int)sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > 256 ? 256 : n;
}

/* The driver is probed first, so that a machine without one gets the same
 * clear message whatever the module (cuda.c does the rest). */
static int
cuda_probe(RtError *e)
{
	void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);

	if (!h)
		return err(e, "--device=cuda: cannot load libcuda.so.1 (no NVIDIA driver)");
	dlclose(h);
	return 0;
}

/* FXRT_PERF_MAP=1: the kernels' addresses appended to /tmp/perf-PID.map,
 * where perf looks for the names of code it finds in no file.  A map
 * that cannot be written is not an error: the module runs unnamed. */
static void
perf_map(RtModule *m)
{
	const char *on = getenv("FXRT_PERF_MAP");
	char path[64];
	FILE *f;

	if (!on || strcmp(on, "1"))
		return;
	snprintf(path, sizeof path, "/tmp/perf-%ld.map", (long)getpid());
	if (!(f = fopen(path, "a")))
		return;
	for (size_t i = 0; i < m->v.nexecs; i++)
		rt_elf_perf_map(&m->objs[i], f);
	fclose(f);
}

static int
link_kernels(RtModule *m, RtError *e)
{
	Vmfb *v = &m->v;

	m->objs = calloc(v->nexecs + 1, sizeof *m->objs);
	m->kfns = calloc(v->nkerns + 1, sizeof *m->kfns);
	if (!m->objs || !m->kfns)
		return err(e, "out of memory");
	for (size_t i = 0; i < v->nexecs; i++) {
		const VmfbSection *s = &v->sec[v->execs[i].section];
		char msg[400];
		if (rt_elf_load(&m->objs[i], v->base + s->offset, s->size, msg, sizeof msg))
			return err(e, "executable @%s: %s", vmfb_str(v, v->execs[i].name), msg);
	}
	perf_map(m);
	for (size_t i = 0; i < v->nkerns; i++) {
		const VmfbKern *k = &v->kerns[i];
		void *fn = rt_elf_sym(&m->objs[k->exec], vmfb_str(v, k->symbol));
		if (!fn)
			return err(e, "kernel @%s: executable @%s has no function '%s'",
			    vmfb_str(v, k->name), vmfb_str(v, v->execs[k->exec].name),
			    vmfb_str(v, k->symbol));
		m->kfns[i] = (RtKernelFn)fn;
	}
	return 0;
}

static int
decode_function(RtModule *m, RtFunction *f, const VmfbFunc *vf, RtError *e)
{
	Vmfb *v = &m->v;
	uint64_t nb = 0;

	f->m = m;
	f->vf = vf;
	f->name = vmfb_str(v, vf->name);
	f->args = v->types + vf->first_arg;
	f->res = v->types + vf->first_result;
	f->bufs = v->bufs + vf->first_buf;
	/* vmfb_check bounds the sum by the bindings section; checked again,
	 * for the array below not to be allocated short */
	for (uint32_t i = 0; i < vf->ninsts; i++)
		if (v->insts[vf->first_inst + i].op == INST_DISPATCH
		    && (__builtin_add_overflow(nb, v->insts[vf->first_inst + i].c, &nb) || nb > v->nbinds))
			return err(e, "@%s: too many dispatch bindings", f->name);
	f->nbinds = (uint32_t)nb;
	f->bufptr = calloc((size_t)vf->nbufs + 1, sizeof *f->bufptr);
	f->bindbuf = calloc(nb + 1, sizeof *f->bindbuf);
	f->bindptr = calloc(nb + 1, sizeof *f->bindptr);
	f->insts = calloc((size_t)vf->ninsts + 1, sizeof *f->insts);
	if (!f->bufptr || !f->bindbuf || !f->bindptr || !f->insts)
		return err(e, "out of memory");
	nb = 0;
	for (uint32_t i = 0; i < vf->ninsts; i++) {
		const VmfbInst *vi = &v->insts[vf->first_inst + i];
		RtInst *in = &f->insts[i];
		*in = (RtInst){vi->op, vi->a, vi->b, vi->c, vi->x, vi->y, vi->z, vi->n, NULL, NULL, NULL};
		if (vi->op == INST_FILL && vi->x)
			in->box = v->dims + vi->y;
		if (vi->op == INST_DISPATCH) {
			in->fn = m->kfns ? m->kfns[vi->a] : NULL;
			in->grid = vi->grid ? &v->grids[vi->grid - 1] : NULL;
			memcpy(f->bindbuf + nb, v->binds + vi->b, (size_t)vi->c * sizeof *f->bindbuf);
			in->b = (uint32_t)nb;
			nb += vi->c;
		}
	}
	return 0;
}

/* Each batched function's rows per item, from its first chunk. */
static int
decode_batch(RtModule *m, RtError *e)
{
	const Vmfb *v = &m->v;

	for (size_t i = 0; i < v->nbatch; i++) {
		const VmfbBatch *b = &v->batch[i];
		const VmfbChunk *c = &v->chunks[b->first_chunk];
		const VmfbFunc *cf = &v->funcs[c->func];
		RtFunction *f = &m->funcs[b->func];
		uint32_t na = f->vf->nargs, n = na + f->vf->nresults;

		f->batch = b;
		f->rows = calloc((size_t)n + 1, sizeof *f->rows);
		f->rowbytes = calloc((size_t)n + 1, sizeof *f->rowbytes);
		f->views = calloc((size_t)n + 2, sizeof *f->views);
		if (!f->rows || !f->rowbytes || !f->views)
			return err(e, "out of memory");
		for (uint32_t j = 0; j < n; j++) {
			uint32_t ti = j < na ? f->vf->first_arg + j : f->vf->first_result + j - na;
			RtTensor t;
			f->rows[j] = vmfb_batch_rows(v, ti, j < na ? cf->first_arg + j : cf->first_result + j - na,
			    c->size);
			type_rows(m, &v->types[ti], 1, &t);   /* a chunk's type bounds it */
			f->rowbytes[j] = (int64_t)t.nbytes;
		}
	}
	return 0;
}

/* Each function of a dynamic length: its pairs and room for the padded
 * call's tensors. */
static int
decode_length(RtModule *m, RtError *e)
{
	const Vmfb *v = &m->v;

	for (size_t i = 0; i < v->nlength; i++) {
		const VmfbLength *l = &v->length[i];
		RtFunction *f = &m->funcs[l->func];
		uint32_t n = f->vf->nargs + 1 + f->vf->nresults;

		if (f->len) {   /* another piece of the range (vmfb_check: adjacent) */
			f->nlen++;
			continue;
		}
		f->len = l, f->nlen = 1;
		f->pairs = v->dims + l->first_pair;
		f->pad = calloc((size_t)n + 1, sizeof *f->pad);
		f->padcap = calloc((size_t)n + 1, sizeof *f->padcap);
		if (!f->pad || !f->padcap)
			return err(e, "out of memory");
	}
	return 0;
}

/* "NAME: " before e's message. */
static void
prefix(RtError *e, const char *name)
{
	size_t n = strlen(name), len = strlen(e->msg);

	if (n + 2 + len + 1 > sizeof e->msg)
		len = sizeof e->msg - n - 3 < len ? sizeof e->msg - n - 3 : len;
	if (n + 3 > sizeof e->msg)
		return;
	memmove(e->msg + n + 2, e->msg, len);
	memcpy(e->msg, name, n);
	memcpy(e->msg + n, ": ", 2);
	e->msg[n + 2 + len] = 0;
}

/* Maps the parameters file read-only and checks its header whole. */
static int
map_params(RtModule *m, const char *path, StFile *st, RtError *e)
{
	struct stat sb;
	char msg[400];
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return err(e, "parameters %s: cannot open: %s", path, strerror(errno));
	if (fstat(fd, &sb) || !S_ISREG(sb.st_mode)) {
		close(fd);
		return err(e, "parameters %s: not a regular file", path);
	}
	if (sb.st_size > 0) {
		void *p = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (p == MAP_FAILED) {
			close(fd);
			return err(e, "parameters %s: cannot map: %s", path, strerror(errno));
		}
		m->pmem = p, m->pmaplen = (size_t)sb.st_size;
	}
	close(fd);
	if (st_parse(st, m->pmem, m->pmaplen, msg, sizeof msg))
		return err(e, "parameters %s: %s", path, msg);
	return 0;
}

/* One external global: its tensor, size and checksum; zero-copy when its
 * bytes are 64-byte aligned in the mapping, else an aligned copy. */
static int
bind_param(RtModule *m, const StFile *st, const VmfbGlobal *g, const char *path, RtError *e)
{
	const char *key = vmfb_str(&m->v, g->param);
	const StTensor *t = st_find(st, key);
	const uint8_t *p;
	uint32_t crc;

	if (!t)
		return err(e, "parameters %s: tensor '%s': not in the file (@%s needs it)", path, key,
		    vmfb_str(&m->v, g->name));
	if (t->end - t->begin != g->size)
		return err(e, "parameters %s: tensor '%s': %llu bytes, the module's @%s has %llu",
		    path, key, (unsigned long long)(t->end - t->begin), vmfb_str(&m->v, g->name),
		    (unsigned long long)g->size);
	p = st->data + t->begin;
	if ((crc = crc32c(0, p, g->size)) != g->crc)
		return err(e, "parameters %s: tensor '%s': checksum %08x, the module expects %08x "
		    "(other weights than the module was packed with)", path, key, crc, g->crc);
	if ((uintptr_t)p % VMFB_ALIGN) {
		void *q = rt_alloc(g->size ? g->size : 1), **c;
		if (!q || !(c = realloc(m->copies, (m->ncopies + 1) * sizeof *c))) {
			rt_free(q);
			return err(e, "out of memory");
		}
		memcpy(q, p, g->size);
		m->copies = c;
		m->copies[m->ncopies++] = q;
		p = q;
	}
	m->gdata[g - m->v.globals] = p;
	return 0;
}

/* Points every global at its bytes: the module's constants, or the
 * parameters file for the external ones. */
static int
bind_globals(RtModule *m, const char *params, RtError *e)
{
	const Vmfb *v = &m->v;
	StFile st = {0};
	int rc = 0;

	if (!(m->gdata = calloc(v->nglobals + 1, sizeof *m->gdata)))
		return err(e, "out of memory");
	for (size_t i = 0; i < v->nglobals; i++)
		if (!v->globals[i].param)
			m->gdata[i] = v->consts + v->globals[i].offset;
		else if (!params)
			return err(e, "parameter '%s' (@%s) is outside the module: run with its "
			    "parameters file (--parameters=FILE)", vmfb_str(v, v->globals[i].param),
			    vmfb_str(v, v->globals[i].name));
	if (!params || !(v->hdr->flags & VMFB_F_PARAMS))
		return 0;
	if (map_params(m, params, &st, e))
		return -1;
	for (size_t i = 0; i < v->nglobals && !rc; i++)
		if (v->globals[i].param)
			rc = bind_param(m, &st, &v->globals[i], params, e);
	st_free(&st);
	return rc;
}

static RtModule *
load(RtModule *m, const char *name, const char *params, const RtOptions *o, RtError *e)
{
	Vmfb *v = &m->v;
	RtDevice dev = o ? o->device : RT_DEVICE_AUTO;
	int threads = o && o->threads > 0 ? o->threads : rt_cpu_count();
	char msg[400];

	pthread_mutex_init(&m->lock, NULL);
	if (vmfb_check(v, m->mem, m->size, msg, sizeof msg)) {
		err(e, "%s: %s", name, msg);
		goto fail;
	}
	if (bind_globals(m, params, e)) {
		if (strncmp(e->msg, "parameters ", 11))
			prefix(e, name);
		goto fail;
	}
	if (dev == RT_DEVICE_AUTO)
		dev = v->target->target == TARGET_CUDA ? RT_DEVICE_CUDA : RT_DEVICE_CPU;
	if (dev == RT_DEVICE_CUDA && cuda_probe(e))
		goto fail;
	if ((dev == RT_DEVICE_CUDA) != (v->target->target == TARGET_CUDA)) {
		err(e, "%s: the module targets %s, not %s (use --device=%s)", name,
		    rt_module_target(m), dev == RT_DEVICE_CUDA ? "cuda" : "cpu", rt_module_target(m));
		goto fail;
	}
	if (dev == RT_DEVICE_CUDA && v->hdr->flags & VMFB_F_PARAMS) {
		err(e, "%s: external parameters are not supported on cuda yet (pack without --params)", name);
		goto fail;
	}
	if (dev == RT_DEVICE_CUDA) {
		if (!(m->cuda = rt_cuda_open(v, msg, sizeof msg))) {
			err(e, "%s", msg);
			goto fail;
		}
	} else if (rt_cpu_check(vmfb_str(v, v->target->features), e) || link_kernels(m, e)) {
		prefix(e, name);
		goto fail;
	}
	m->funcs = calloc(v->nfuncs + 1, sizeof *m->funcs);
	if (!m->funcs) {
		err(e, "out of memory");
		goto fail;
	}
	for (size_t i = 0; i < v->nfuncs; i++)
		if (decode_function(m, &m->funcs[i], &v->funcs[i], e))
			goto fail;
	if (decode_batch(m, e) || decode_length(m, e))
		goto fail;
	if (m->cuda)
		return m;
	if (!(m->pool = rt_pool_new(threads))) {
		err(e, "cannot start %d threads", threads);
		goto fail;
	}
	return m;
fail:
	rt_unload(m);
	return NULL;
}

/* Reads a stream (stdin, a pipe, a device) into page-aligned memory: the
 * header first, then at most the size it declares. */
static int
read_all(int fd, RtModule *m, const char *name, RtError *e)
{
	char msg[400];
	uint8_t *p;
	size_t n, cap;

	if (vmfb_read_fd(fd, name, &p, &n, &cap, msg, sizeof msg))
		return err(e, "%s%s%s", strncmp(msg, "cannot read", 11) ? name : "",
		    strncmp(msg, "cannot read", 11) ? ": " : "", msg);
	m->mem = p, m->size = n, m->maplen = cap;
	return 0;
}

RtModule *
rt_load_file(const char *path, const RtOptions *o, RtError *e)
{
	return rt_load_file_params(path, NULL, o, e);
}

RtModule *
rt_load_file_params(const char *path, const char *params, const RtOptions *o, RtError *e)
{
	RtModule *m = calloc(1, sizeof *m);
	const char *name = strcmp(path, "-") ? path : "<stdin>";
	struct stat st;
	int fd, rc;

	if (!m)
		return err(e, "out of memory"), NULL;
	fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : 0;
	if (fd < 0) {
		err(e, "cannot open '%s': %s", path, strerror(errno));
		free(m);
		return NULL;
	}
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		rc = err(e, "cannot read '%s': %s", path, strerror(EISDIR));
	} else if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
		void *p = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		rc = p == MAP_FAILED ? err(e, "cannot map '%s': %s", path, strerror(errno)) : 0;
		if (!rc)
			m->mem = p, m->size = m->maplen = st.st_size;
	} else {
		rc = read_all(fd, m, name, e);
	}
	if (fd > 0)
		close(fd);
	if (rc) {
		free(m);
		return NULL;
	}
	return load(m, name, params, o, e);
}

RtModule *
rt_load_memory(const void *p, size_t n, const RtOptions *o, RtError *e)
{
	RtModule *m = calloc(1, sizeof *m);
	size_t len = n ? n : 1;
	void *q;

	if (!m)
		return err(e, "out of memory"), NULL;
	q = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (q == MAP_FAILED) {
		free(m);
		return err(e, "out of memory"), NULL;
	}
	memcpy(q, p, n);
	mprotect(q, len, PROT_READ);
	m->mem = q, m->size = n, m->maplen = len;
	return load(m, "<memory>", NULL, o, e);
}

void
rt_unload(RtModule *m)
{
	if (!m)
		return;
	rt_pool_free(m->pool);
	rt_cuda_close(m->cuda);
	if (m->funcs)
		for (size_t i = 0; i < m->v.nfuncs; i++) {
			RtFunction *f = &m->funcs[i];
			free(f->arena);
			free(f->bufptr);
			free(f->bindbuf);
			free(f->bindptr);
			free(f->insts);
			free(f->secs);
			free(f->calls);
			free(f->rows);
			free(f->rowbytes);
			free(f->views);
			rt_free(f->stage);
			for (uint32_t j = 0; f->pad && j < f->vf->nargs + 1 + f->vf->nresults; j++)
				rt_free(f->pad[j].data);
			free(f->pad);
			free(f->padcap);
		}
	free(m->funcs);
	if (m->objs)
		for (size_t i = 0; i < m->v.nexecs; i++)
			rt_elf_free(&m->objs[i]);
	free(m->objs);
	free(m->kfns);
	if (m->maplen)
		munmap(m->mem, m->maplen);
	for (size_t i = 0; i < m->ncopies; i++)
		rt_free(m->copies[i]);
	free(m->copies);
	free(m->gdata);
	if (m->pmaplen)
		munmap(m->pmem, m->pmaplen);
	pthread_mutex_destroy(&m->lock);
	free(m);
}

/* ---- lookup ---- */

const char *
rt_module_target(const RtModule *m)
{
	return m->v.target->target == TARGET_CUDA ? "cuda" : "cpu";
}

const char *
rt_module_features(const RtModule *m)
{
	return vmfb_str(&m->v, m->v.target->features);
}

int
rt_module_threads(const RtModule *m)
{
	return m->pool ? rt_pool_threads(m->pool) : 0;
}

int
rt_function_count(const RtModule *m)
{
	return (int)m->v.nfuncs;
}

RtFunction *
rt_function_at(RtModule *m, int i)
{
	return i >= 0 && (size_t)i < m->v.nfuncs ? &m->funcs[i] : NULL;
}

RtFunction *
rt_lookup(RtModule *m, const char *name)
{
	if (*name == '@')
		name++;
	for (size_t i = 0; i < m->v.nfuncs; i++)
		if (!strcmp(m->funcs[i].name, name))
			return &m->funcs[i];
	return NULL;
}

const char *rt_function_name(const RtFunction *f) { return f->name; }
int rt_function_nargs(const RtFunction *f) { return (int)f->vf->nargs; }
int rt_function_nresults(const RtFunction *f) { return (int)f->vf->nresults; }

/* Chunk c of batched function f. */
static RtFunction *
chunk_fn(const RtFunction *f, uint32_t c)
{
	return &f->m->funcs[f->m->v.chunks[f->batch->first_chunk + c].func];
}

/* The functions that run f: a batched one's chunk functions, the padded
 * function of one of a dynamic length; none for a function with a body. */
static uint32_t
nsubs(const RtFunction *f)
{
	return f->batch ? f->batch->nchunks : f->len ? f->nlen : 0;
}

static RtFunction *
sub_fn(const RtFunction *f, uint32_t c)
{
	return f->len ? &f->m->funcs[f->len[c].padded] : chunk_fn(f, c);
}

/* The arenas of f and its chunk functions, summed; their instructions
 * in *ninsts. */
static uint64_t
totals(const RtFunction *f, uint32_t *ninsts)
{
	uint64_t arena = f->vf->arena_size;
	uint32_t n = f->vf->ninsts;

	for (uint32_t c = 0; c < nsubs(f); c++) {
		uint32_t k;

		arena += totals(sub_fn(f, c), &k);
		n += k;
	}
	if (ninsts)
		*ninsts = n;
	return arena;
}

size_t
rt_function_arena(const RtFunction *f)
{
	return totals(f, NULL);
}

int
rt_function_batch(const RtFunction *f, int64_t *min, int64_t *max)
{
	if (!f->batch)
		return 0;
	if (min)
		*min = f->batch->min;
	if (max)
		*max = f->batch->max;
	return 1;
}

int
rt_function_length(const RtFunction *f, int64_t *min, int64_t *max)
{
	if (!f->len)
		return 0;
	if (min)
		*min = f->len[0].min;
	if (max)
		*max = f->len[f->nlen - 1].max;
	return 1;
}

void
rt_function_arg(const RtFunction *f, int i, RtTensor *t)
{
	type_of(f->m, &f->args[i], t);
}

void
rt_function_result(const RtFunction *f, int i, RtTensor *t)
{
	type_of(f->m, &f->res[i], t);
}

/* ---- invocation ---- */

/* Input i against its argument type; a batched one's dimension 0 is
 * batch_of's to check. */
static int
check_input(RtFunction *f, int i, const RtTensor *t, RtError *e)
{
	const VmfbType *vt = &f->args[i];
	const int64_t *dims = f->m->v.dims + vt->first_dim;
	RtTensor want;
	char ws[256];

	if (t->dtype != (RtDtype)vt->dtype) {
		return err(e, "input %d: element type is %s, the function expects %s",
		    i, rt_dtype_name(t->dtype), rt_dtype_name(vt->dtype));
	}
	if (t->rank != (int)vt->rank) {
		type_of(f->m, vt, &want);
		rt_type_str(&want, ws, sizeof ws);
		return err(e, "input %d: rank is %d, the function expects %u (%s)", i, t->rank, vt->rank, ws);
	}
	for (int d = 0; d < t->rank; d++)
		if (t->dims[d] != dims[d] && !(d == 0 && dims[0] == VMFB_DYN))
			return err(e, "input %d: dimension %d is %lld, the function expects %lld",
			    i, d, (long long)t->dims[d], (long long)dims[d]);
	if (t->rank && (t->dims[0] < 0 || type_rows(f->m, vt, t->dims[0], &want)))
		return err(e, "input %d: dimension 0 is %lld, too large", i, (long long)t->dims[0]);
	if (!t->rank)
		type_of(f->m, vt, &want);
	if (t->nbytes < want.nbytes || (want.nbytes && !t->data))
		return err(e, "input %d: %zu bytes of data, the function expects %llu",
		    i, t->data ? t->nbytes : 0, (unsigned long long)want.nbytes);
	if ((uintptr_t)t->data % 64)
		return err(e, "input %d: data is not 64-byte aligned", i);
	return 0;
}

static void
fill(uint8_t *p, uint64_t size, uint32_t esz, uint64_t pat)
{
	if (esz == 1 || pat == 0 || (esz == 2 && (pat & 0xff) == pat >> 8)) {
		memset(p, (int)(pat & 0xff), size);
		return;
	}
	for (uint64_t i = 0; i < size; i += esz)
		memcpy(p + i, &pat, esz);
}

/* The byte runs of a fill outside its interior, coalesced: a pad whose
 * rows the kernel writes whole (codegen's boxes) is, per channel, its
 * bottom rows and the next channel's top rows. */
typedef struct Runs {
	uint8_t *p;
	uint64_t at, len;           /* the pending run */
	uint32_t esz;
	uint64_t pat;
} Runs;

static void
run_add(Runs *r, uint64_t at, uint64_t len)
{
	if (!len)
		return;
	if (r->len && r->at + r->len == at) {
		r->len += len;
		return;
	}
	if (r->len)
		fill(r->p + r->at, r->len, r->esz, r->pat);
	r->at = at, r->len = len;
}

/* the bytes from `at` of a block of dims d[0..n) outside the box of
 * offsets o and sizes s: whole slices of dimension 0 before and after the
 * box, and within it each slice's outside, one dimension down -- none
 * where the box holds the slices whole */
static void
outside(Runs *r, uint64_t at, int n, const int64_t *d, const int64_t *o, const int64_t *s)
{
	uint64_t slice = r->esz;
	int whole = 1;

	for (int i = 1; i < n; i++) {
		slice *= (uint64_t)d[i];
		whole &= o[i] == 0 && s[i] == d[i];
	}
	run_add(r, at, (uint64_t)o[0] * slice);
	for (int64_t i = o[0]; !whole && i < o[0] + s[0]; i++)
		outside(r, at + (uint64_t)i * slice, n - 1, d + 1, o + 1, s + 1);
	run_add(r, at + (uint64_t)(o[0] + s[0]) * slice, (uint64_t)(d[0] - o[0] - s[0]) * slice);
}

/* A fill of at least FILL_SPLIT bytes runs on the pool, a piece of
 * FILL_PIECE bytes (whole elements) a workgroup: mobilenet_v2's pads of
 * its early layers are up to 5 MB, written at one core's pace otherwise */
enum { FILL_SPLIT = 1 << 20, FILL_PIECE = 256 << 10 };

typedef struct FillJob {
	uint8_t *p;
	uint64_t size, pat;
	uint32_t esz;
} FillJob;

static void
fill_piece(void *const *bind, int64_t wx, int64_t wy, int64_t wz, int64_t nx, int64_t ny, int64_t nz)
{
	const FillJob *j = bind[0];
	uint64_t lo = (uint64_t)wx * FILL_PIECE, n = j->size - lo < FILL_PIECE ? j->size - lo : FILL_PIECE;

	(void)wy, (void)wz, (void)nx, (void)ny, (void)nz;
	fill(j->p + lo, n, j->esz, j->pat);
}

/* The counts of inputs and results, and each input. */
static int
check_inputs(RtFunction *f, const RtTensor *in, int nin, int nout, RtError *e)
{
	const VmfbFunc *vf = f->vf;

	if (nin != (int)vf->nargs)
		return err(e, "@%s takes %u input%s, got %d", f->name, vf->nargs, vf->nargs == 1 ? "" : "s", nin);
	if (nout != (int)vf->nresults)
		return err(e, "@%s returns %u result%s, got room for %d", f->name, vf->nresults,
		    vf->nresults == 1 ? "" : "s", nout);
	for (int i = 0; i < nin; i++)
		if (check_input(f, i, &in[i], e))
			return -1;
	return 0;
}

/* Result i's type for a batch of n (n unused when f is not batched). */
static int
result_type(RtFunction *f, int i, int64_t n, RtTensor *t)
{
	int64_t d0 = 0;

	if (f->rows && __builtin_mul_overflow(f->rows[f->vf->nargs + i], n, &d0))
		return -1;
	return type_rows(f->m, &f->res[i], d0, t);
}

/* Each result's type, and its data where the caller gave none. */
static int
alloc_results(RtFunction *f, RtTensor *out, int nout, int64_t n, RtError *e)
{
	RtTensor t;

	for (int i = 0; i < nout; i++) {
		if (result_type(f, i, n, &t))
			return err(e, "result %d: too large for a batch of %lld", i, (long long)n);
		if (out[i].data && (out[i].nbytes < t.nbytes || (uintptr_t)out[i].data % 64))
			return err(e, "result %d: the buffer provided is too small or not 64-byte aligned", i);
	}
	for (int i = 0; i < nout; i++) {
		void *data = out[i].data;
		result_type(f, i, n, &t);
		if (!data && !(data = rt_alloc(t.nbytes))) {
			/* Free what this call allocated: those still marked. */
			for (int j = 0; j < i; j++)
				if (out[j].rank < 0)
					out[j].rank = 0, rt_tensor_free(&out[j]);
			return err(e, "result %d: cannot allocate %llu bytes", i, (unsigned long long)t.nbytes);
		}
		int own = !out[i].data;
		out[i] = t;
		out[i].data = data;
		if (own)
			out[i].rank = -1 - out[i].rank;   /* marked as ours until all succeed */
	}
	for (int i = 0; i < nout; i++)
		if (out[i].rank < 0)
			out[i].rank = -1 - out[i].rank;
	return 0;
}

static int
prepare(RtFunction *f, const RtTensor *in, int nin, RtTensor *out, int nout, RtError *e)
{
	const VmfbFunc *vf = f->vf;

	if (check_inputs(f, in, nin, nout, e))
		return -1;
	if (vf->arena_size && !f->m->cuda && !f->arena && !(f->arena = rt_alloc(vf->arena_size)))
		return err(e, "@%s: cannot allocate its arena of %llu bytes", f->name,
		    (unsigned long long)vf->arena_size);
	return alloc_results(f, out, nout, 0, e);
}

/* The dispatches of f's host program. */
static int
ndispatches(const RtFunction *f)
{
	int n = 0;

	for (uint32_t i = 0; i < f->vf->ninsts; i++)
		n += f->insts[i].op == INST_DISPATCH;
	for (uint32_t c = 0; c < nsubs(f); c++)
		n += ndispatches(sub_fn(f, c));
	return n;
}

/* A batched function profiles, traces and lists the instructions of its
 * chunk functions, in chunk order. */
int
rt_profile(RtFunction *f, int on)
{
	for (uint32_t c = 0; c < nsubs(f); c++)
		if (rt_profile(sub_fn(f, c), on))
			return -1;
	if (on && !f->secs) {
		f->secs = calloc((size_t)f->vf->ninsts + 1, sizeof *f->secs);
		f->calls = calloc((size_t)f->vf->ninsts + 1, sizeof *f->calls);
		if (!f->secs || !f->calls)
			return -1;
	}
	f->profile = on;
	return 0;
}

int
rt_profile_entry(const RtFunction *f, int i, const char **kernel, uint64_t *calls, double *secs)
{
	const Vmfb *v = &f->m->v;
	uint32_t k;

	for (uint32_t c = 0; c < nsubs(f); c++) {
		const RtFunction *cf = sub_fn(f, c);
		if (rt_profile_entry(cf, i, kernel, calls, secs))
			return 1;
		i -= ndispatches(cf);
	}
	for (k = 0; k < f->vf->ninsts; k++) {
		const VmfbInst *vi = &v->insts[f->vf->first_inst + k];

		if (vi->op != INST_DISPATCH || i-- > 0)
			continue;
		*kernel = vmfb_str(v, v->kinfo && v->kinfo[vi->a].display ? v->kinfo[vi->a].display
		    : v->kerns[vi->a].name);
		*calls = f->calls ? f->calls[k] : 0;
		*secs = f->secs ? f->secs[k] : 0;
		return 1;
	}
	return 0;
}

uint32_t
rt_function_ninsts(const RtFunction *f)
{
	uint32_t n;

	totals(f, &n);
	return n;
}

void
rt_inst_info(const RtFunction *f, uint32_t i, RtInstInfo *info)
{
	const Vmfb *v = &f->m->v;
	const VmfbInst *vi;

	for (uint32_t c = 0; c < nsubs(f); c++) {
		const RtFunction *cf = sub_fn(f, c);
		uint32_t k = rt_function_ninsts(cf);
		if (i < k)
			return rt_inst_info(cf, i, info);
		i -= k;
	}
	vi = &v->insts[f->vf->first_inst + i];

	memset(info, 0, sizeof *info);
	info->op = vi->op;
	info->kernel = info->source = "";
	if (vi->op == INST_COPY) {
		info->bytes = vi->n;
	} else if (vi->op == INST_FILL) {
		info->bytes = f->bufs[vi->a].size;
	} else if (vi->op == INST_DISPATCH) {
		const VmfbKernInfo *ki = v->kinfo ? &v->kinfo[vi->a] : NULL;

		info->kernel = vmfb_str(v, ki && ki->display ? ki->display : v->kerns[vi->a].name);
		info->source = ki ? vmfb_str(v, ki->source) : "";
		info->flops = ki ? ki->flops : 0;
		for (uint32_t j = 0; j < vi->c; j++)
			info->bytes += f->bufs[v->binds[vi->b + j]].size;
		if (ki && ki->bytes)
			info->bytes = ki->bytes;
	}
}

static int
trace_from(RtFunction *f, RtTraceFn fn, void *ctx, uint32_t base, RtError *e)
{
	f->trace_base = base;
	if (f->m->cuda)
		return err(e, "tracing runs on the CPU only (not --device=cuda)");
	if (rt_pool_trace(f->m->pool, fn != NULL))
		return err(e, "out of memory");
	for (uint32_t c = 0; c < nsubs(f); c++) {
		RtFunction *cf = sub_fn(f, c);
		if (trace_from(cf, fn, ctx, base, e))
			return -1;
		base += rt_function_ninsts(cf);
	}
	f->trace = fn;
	f->trace_ctx = ctx;
	return 0;
}

int
rt_trace(RtFunction *f, RtTraceFn fn, void *ctx, RtError *e)
{
	return trace_from(f, fn, ctx, 0, e);
}

static double
seconds(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

static void run_inst(RtFunction *f, const RtInst *in, uint32_t grid[3]);

/* The host program, each instruction timed (rt_profile, rt_trace). */
static void
run_timed(RtFunction *f)
{
	RtPool *pool = f->m->pool;

	for (uint32_t i = 0; i < f->vf->ninsts; i++) {
		const RtInst *in = &f->insts[i];
		uint32_t grid[3];
		RtSpan host;

		host.t0 = seconds();
		run_inst(f, in, grid);
		host.t1 = seconds();
		if (f->profile && in->op == INST_DISPATCH) {
			f->secs[i] += host.t1 - host.t0;
			f->calls[i]++;
		}
		if (f->trace)
			f->trace(f->trace_ctx, f->trace_base + i, &host, in->op == INST_DISPATCH ? rt_pool_spans(pool) : NULL,
			    rt_pool_threads(pool), in->op == INST_DISPATCH ? grid : NULL);
	}
}

/* A dispatch's workgroups: its grid, or along each axis with a length
 * ceil((c n + d) / q) of them at the call's length n (read from its
 * binding), at least 1 and at most the grid's. */
static void
grid_of(const RtInst *in, void *const *bind, uint32_t grid[3])
{
	int64_t n = 0;

	if (in->grid)
		memcpy(&n, bind[in->grid->binding], sizeof n);
	vmfb_grid_at(in->grid, (const uint32_t[3]){ in->x, in->y, in->z }, n, grid);
}

static void
run_inst(RtFunction *f, const RtInst *in, uint32_t grid[3])
{
	switch (in->op) {
	case INST_DISPATCH:
		grid_of(in, f->bindptr + in->b, grid);
		rt_pool_dispatch(f->m->pool, in->fn, f->bindptr + in->b, grid[0], grid[1], grid[2]);
		break;
	case INST_COPY:
		if (in->n)
			memmove(f->bufptr[in->b], f->bufptr[in->a], in->n);
		break;
	case INST_FILL: {
		uint64_t size = f->bufs[in->a].size, inside = in->box ? in->c : 0;

		/* a pad whose inside the next dispatch writes: only its outside,
		 * unless that is as large as a fill the pool would share */
		for (uint32_t d = 0; in->box && d < in->x; d++)
			inside *= (uint64_t)in->box[2 * in->x + d];
		if (in->box && size - inside < FILL_SPLIT) {
			Runs r = {f->bufptr[in->a], 0, 0, in->c, in->n};

			outside(&r, 0, (int)in->x, in->box, in->box + in->x, in->box + 2 * in->x);
			if (r.len)
				fill(r.p + r.at, r.len, r.esz, r.pat);
		} else if (size >= FILL_SPLIT && rt_pool_threads(f->m->pool) > 1) {
			FillJob j = {f->bufptr[in->a], size, in->n, in->c};
			void *bind[1] = {&j};

			rt_pool_dispatch(f->m->pool, fill_piece, bind,
			    (uint32_t)((size + FILL_PIECE - 1) / FILL_PIECE), 1, 1);
		} else if (size) {
			fill(f->bufptr[in->a], size, in->c, in->n);
		}
		break;
	}
	}
}

/* ---- batched functions: static chunks ---- */

/* The batch of a call: that of the first batched input, the others
 * agreeing with it. */
static int
batch_of(RtFunction *f, const RtTensor *in, int64_t *n, RtError *e)
{
	const VmfbBatch *b = f->batch;
	char range[80];
	int first = -1;

	if (b->max == INT64_MAX)
		snprintf(range, sizeof range, "at least %lld", (long long)b->min);
	else
		snprintf(range, sizeof range, "in [%lld, %lld]", (long long)b->min, (long long)b->max);
	for (int i = 0; i < (int)f->vf->nargs; i++) {
		int64_t k = f->rows[i], d0 = in[i].dims[0], want;
		if (!k)
			continue;
		if (first < 0 && (d0 % k || d0 / k < b->min || d0 / k > b->max))
			return k == 1 ? err(e, "input %d: dimension 0 is %lld, must be %s", i, (long long)d0, range)
			    : err(e, "input %d: dimension 0 is %lld, must be %lld × a batch %s", i,
			    (long long)d0, (long long)k, range);
		if (first < 0) {
			*n = d0 / k, first = i;
			continue;
		}
		if (__builtin_mul_overflow(k, *n, &want) || d0 != want)
			return k == 1 ? err(e, "input %d: dimension 0 is %lld, must equal %lld (the batch of "
			    "input %d)", i, (long long)d0, (long long)*n, first)
			    : err(e, "input %d: dimension 0 is %lld, must be %lld × %lld (the batch of input %d)",
			    i, (long long)d0, (long long)k, (long long)*n, first);
	}
	return 0;
}

/* The chunk [b0, b0 + size) of f's values in f->views (value j at j,
 * results after the item count's place), unaligned ones in the staging
 * (inputs copied in).  A bounded chunk of fewer items than its size
 * (items < size) is all in the staging, the inputs' items copied in, and
 * takes the item count.  -1 when the staging cannot grow. */
static int
chunk_views(RtFunction *f, const RtTensor *in, RtTensor *out, int64_t b0, int64_t size, int64_t items)
{
	uint32_t na = f->vf->nargs, n = na + f->vf->nresults;
	size_t need = 64, at = 64;   /* the item count first */

	for (uint32_t j = 0; j < n; j++) {
		RtTensor *w = &f->views[j < na ? j : j + 1];
		*w = j < na ? in[j] : out[j - na];
		if (!f->rows[j])
			continue;
		w->dims[0] = f->rows[j] * size;
		w->nbytes = (size_t)(w->dims[0] * f->rowbytes[j]);
		w->data = (uint8_t *)w->data + f->rows[j] * b0 * f->rowbytes[j];
		if ((uintptr_t)w->data % 64 || items < size)
			need += w->nbytes > 64 ? (w->nbytes + 63) & ~(size_t)63 : 64;
	}
	if (need > f->nstage) {
		rt_free(f->stage);
		f->nstage = 0;
		if (!(f->stage = rt_alloc(need)))
			return -1;
		f->nstage = need;
	}
	memcpy(f->stage, &items, sizeof items);
	f->views[na] = (RtTensor){.data = f->stage, .dtype = RT_I64, .rank = 1, .dims = {1}, .nbytes = 8};
	for (uint32_t j = 0; j < n; j++) {
		RtTensor *w = &f->views[j < na ? j : j + 1];
		if (!f->rows[j] || ((uintptr_t)w->data % 64 == 0 && items == size))
			continue;
		if (j < na && w->nbytes)
			memcpy(f->stage + at, w->data, (size_t)(f->rows[j] * items * f->rowbytes[j]));
		w->data = f->stage + at;
		at += w->nbytes > 64 ? (w->nbytes + 63) & ~(size_t)63 : 64;
	}
	return 0;
}

static int invoke(RtFunction *f, const RtTensor *in, int nin, RtTensor *out, int nout, RtError *e);

/* Runs chunk c's function on items [b0, b0 + items) of a batched call,
 * items < its size only where it is bounded. */
static int
run_chunk(RtFunction *f, uint32_t c, const RtTensor *in, RtTensor *out, int64_t b0, int64_t items,
	RtError *e)
{
	const VmfbChunk *ch = &f->m->v.chunks[f->batch->first_chunk + c];
	uint32_t na = f->vf->nargs, nr = f->vf->nresults, bounded = ch->flags & VMFB_CHUNK_BOUNDED;
	RtTensor *res = f->views + na + 1;

	if (chunk_views(f, in, out, b0, (int64_t)ch->size, items))
		return err(e, "@%s: cannot allocate a staging buffer", f->name);
	if (invoke(chunk_fn(f, c), f->views, (int)(na + bounded), res, (int)nr, e))
		return -1;
	for (uint32_t j = 0; j < nr; j++) {
		uint8_t *dst = (uint8_t *)out[j].data + f->rows[na + j] * b0 * f->rowbytes[na + j];
		size_t nb = (size_t)(f->rows[na + j] * items * f->rowbytes[na + j]);
		if (dst != res[j].data && nb)
			memcpy(dst, res[j].data, nb);
	}
	return 0;
}

/* A batched call: greedily as many chunks of each size as fit; a bounded
 * first chunk also runs a remainder of more items than the next size. */
static int
invoke_batch(RtFunction *f, const RtTensor *in, int nin, RtTensor *out, int nout, RtError *e)
{
	const VmfbChunk *ch = &f->m->v.chunks[f->batch->first_chunk];
	int64_t n = 0, done = 0;

	if (check_inputs(f, in, nin, nout, e) || batch_of(f, in, &n, e) || alloc_results(f, out, nout, n, e))
		return -1;
	for (uint32_t c = 0; c < f->batch->nchunks; c++) {
		int64_t size = (int64_t)ch[c].size;
		for (; n - done >= size; done += size)
			if (run_chunk(f, c, in, out, done, size, e))
				return -1;
		if ((ch[c].flags & VMFB_CHUNK_BOUNDED) && n - done > (int64_t)ch[c + 1].size) {
			if (run_chunk(f, c, in, out, done, n - done, e))
				return -1;
			done = n;
		}
	}
	return 0;
}

/* ---- functions of a dynamic length: padded to the longest ---- */

/* Copies the box [0, box) of a dense tensor of dims sd at src into one of
 * dims dd at dst (row-major, elements of esz bytes). */
static void
copy_box(uint8_t *dst, const int64_t *dd, const uint8_t *src, const int64_t *sd, const int64_t *box,
	int rank, size_t esz)
{
	int64_t idx[RT_MAX_RANK] = {0};
	size_t row;

	if (!rank) {
		memcpy(dst, src, esz);
		return;
	}
	for (int d = 0; d < rank; d++)
		if (box[d] <= 0)
			return;
	row = (size_t)box[rank - 1] * esz;
	for (;;) {
		int64_t so = 0, dof = 0;
		int d;

		for (d = 0; d < rank - 1; d++)
			so = so * sd[d] + idx[d], dof = dof * dd[d] + idx[d];
		so = so * sd[rank - 1], dof = dof * dd[rank - 1];
		memcpy(dst + (size_t)dof * esz, src + (size_t)so * esz, row);
		for (d = rank - 2; d >= 0; d--) {
			if (++idx[d] < box[d])
				break;
			idx[d] = 0;
		}
		if (d < 0)
			return;
	}
}

/* The length of a call, from its inputs' dimensions (each c × n + d with
 * c > 0 gives n; static ones as declared); 0 or -1 after err(). */
static int
length_of(RtFunction *f, const RtTensor *in, int nin, int64_t *n, RtError *e)
{
	const int64_t *pr = f->pairs;
	int64_t lmin = f->len[0].min, lmax = f->len[f->nlen - 1].max;
	int fi = -1, fd = -1;

	*n = -1;
	for (int i = 0; i < nin; i++) {
		const VmfbType *vt = &f->args[i];
		const RtTensor *t = &in[i];

		if (t->dtype != (RtDtype)vt->dtype)
			return err(e, "input %d: element type is %s, the function expects %s",
			    i, rt_dtype_name(t->dtype), rt_dtype_name(vt->dtype));
		if (t->rank != (int)vt->rank)
			return err(e, "input %d: rank is %d, the function expects %u", i, t->rank, vt->rank);
		for (int d = 0; d < t->rank; d++, pr += 2) {
			int64_t c = pr[0], k = pr[1], x = t->dims[d] - k;

			if (t->dims[d] < 0)
				return err(e, "input %d: dimension %d is %lld", i, d, (long long)t->dims[d]);
			if (c == 0 && t->dims[d] != k)
				return err(e, "input %d: dimension %d is %lld, the function expects %lld",
				    i, d, (long long)t->dims[d], (long long)k);
			if (c <= 0)
				continue;
			if (fi < 0) {
				if (x < 0 || x % c || x / c < lmin || x / c > lmax) {
					if (c == 1 && k == 0)
						return err(e, "input %d: dimension %d is %lld, must be in [%lld, %lld]",
						    i, d, (long long)t->dims[d], (long long)lmin,
						    (long long)lmax);
					return err(e, "input %d: dimension %d is %lld, must be %lld × a length in "
					    "[%lld, %lld] + %lld", i, d, (long long)t->dims[d], (long long)c,
					    (long long)lmin, (long long)lmax, (long long)k);
				}
				*n = x / c, fi = i, fd = d;
			} else if (t->dims[d] != c * *n + k) {
				return err(e, "input %d: dimension %d is %lld, must be %lld (the length %lld of "
				    "input %d, dimension %d)", i, d, (long long)t->dims[d],
				    (long long)(c * *n + k), (long long)*n, fi, fd);
			}
		}
		if (t->nbytes < rt_numel(t) * rt_dtype_size(t->dtype) || (rt_numel(t) && !t->data))
			return err(e, "input %d: %zu bytes of data, the function expects %llu", i,
			    t->data ? t->nbytes : 0, (unsigned long long)(rt_numel(t) * rt_dtype_size(t->dtype)));
	}
	return 0;
}

/* Tensor j of the padded call with dims d: its buffer grown as needed. */
static int
pad_buffer(RtFunction *f, uint32_t j, RtDtype dt, int rank, const int64_t *d)
{
	RtTensor *t = &f->pad[j];
	int64_t numel;

	t->dtype = dt, t->rank = rank;
	memcpy(t->dims, d, sizeof *d * (size_t)rank);
	numel = rt_numel(t);
	if (numel == INT64_MAX || __builtin_mul_overflow((uint64_t)numel, rt_dtype_size(dt), &t->nbytes))
		return -1;
	if (t->nbytes > f->padcap[j]) {
		rt_free(t->data);
		f->padcap[j] = 0;
		if (!(t->data = rt_alloc(t->nbytes)))
			return -1;
		f->padcap[j] = t->nbytes;
	}
	return 0;
}

/* The padded call's results given back, their tensors empty again. */
static void
drop_results(RtFunction *f)
{
	uint32_t na = f->vf->nargs;

	for (uint32_t j = 0; j < f->vf->nresults; j++) {
		rt_free(f->pad[na + 1 + j].data);
		memset(&f->pad[na + 1 + j], 0, sizeof f->pad[na + 1 + j]);
	}
}

/* A call of a dynamic length n: the inputs copied into layouts for the
 * top of the piece of the range that holds n (padding zero), its padded
 * function run with n, the results copied out of its layouts. */
static int
invoke_length(RtFunction *f, const RtTensor *in, int nin, RtTensor *out, int nout, RtError *e)
{
	uint32_t na = f->vf->nargs, nr = f->vf->nresults;
	const VmfbLength *l = f->len;
	RtFunction *pf;
	const int64_t *pr = f->pairs;
	int64_t n, d[RT_MAX_RANK];

	if (nin != (int)na)
		return err(e, "@%s takes %u input%s, got %d", f->name, na, na == 1 ? "" : "s", nin);
	if (nout != (int)nr)
		return err(e, "@%s returns %u result%s, got room for %d", f->name, nr, nr == 1 ? "" : "s", nout);
	if (length_of(f, in, nin, &n, e))
		return -1;
	while (n > l->max)
		l++;
	pf = &f->m->funcs[l->padded];
	for (uint32_t i = 0; i < na; i++) {
		const RtTensor *t = &in[i];

		for (int k = 0; k < t->rank; k++, pr += 2)
			d[k] = pr[0] < 0 ? t->dims[k] : pr[0] * l->max + pr[1];
		if (pad_buffer(f, i, t->dtype, t->rank, d))
			return err(e, "input %d: cannot allocate its padded copy", (int)i);
		memset(f->pad[i].data, 0, f->pad[i].nbytes);
		copy_box(f->pad[i].data, d, t->data, t->dims, t->dims, t->rank, rt_dtype_size(t->dtype));
	}
	if (pad_buffer(f, na, RT_I64, 1, (int64_t[]){ 1 }))
		return err(e, "out of memory");
	*(int64_t *)f->pad[na].data = n;
	/* the padded results: allocated by the call (no data here), given
	 * back on every way out */
	if (invoke(pf, f->pad, (int)na + 1, f->pad + na + 1, (int)nr, e))
		return drop_results(f), -1;
	/* the results' sizes at n, their buffers */
	for (uint32_t j = 0; j < nr; j++) {
		RtTensor *p = &f->pad[na + 1 + j], t = *p;

		for (int k = 0; k < p->rank; k++, pr += 2)
			t.dims[k] = pr[0] < 0 ? p->dims[k] : pr[0] * n + pr[1];
		t.nbytes = (size_t)rt_numel(&t) * rt_dtype_size(t.dtype);
		if (out[j].data && (out[j].nbytes < t.nbytes || (uintptr_t)out[j].data % 64))
			return drop_results(f), err(e, "result %u: the buffer provided is too small or not "
			    "64-byte aligned", j);
		t.data = out[j].data;
		if (!t.data && !(t.data = rt_alloc(t.nbytes ? t.nbytes : 1))) {
			for (uint32_t q = 0; q < j; q++)
				rt_tensor_free(&out[q]);
			return drop_results(f), err(e, "result %u: cannot allocate %zu bytes", j, t.nbytes);
		}
		copy_box(t.data, t.dims, p->data, p->dims, t.dims, t.rank, rt_dtype_size(t.dtype));
		out[j] = t;
	}
	drop_results(f);
	return 0;
}

/* ---- invoking, under the module's lock ---- */

static int
invoke(RtFunction *f, const RtTensor *in, int nin, RtTensor *out, int nout, RtError *e)
{
	RtModule *m = f->m;
	const VmfbFunc *vf = f->vf;
	const Vmfb *v = &m->v;

	if (f->batch)
		return invoke_batch(f, in, nin, out, nout, e);
	if (f->len)
		return invoke_length(f, in, nin, out, nout, e);
	if (prepare(f, in, nin, out, nout, e))
		return -1;
	if (m->cuda)
		return rt_cuda_invoke(m->cuda, (uint32_t)(vf - v->funcs), in, out,
		    f->profile ? f->secs : NULL, f->profile ? f->calls : NULL, e->msg, sizeof e->msg);
	for (uint32_t i = 0; i < vf->nbufs; i++) {
		const VmfbBuf *b = &f->bufs[i];
		uint8_t *base = NULL;
		switch (b->base) {
		case BASE_ARG: base = in[b->index].data; break;
		case BASE_RESULT: base = out[b->index].data; break;
		case BASE_ARENA: base = f->arena; break;
		case BASE_CONST: base = (uint8_t *)m->gdata[b->index]; break;
		}
		f->bufptr[i] = base ? base + b->offset : NULL;
	}
	for (uint32_t i = 0; i < f->nbinds; i++)
		f->bindptr[i] = f->bufptr[f->bindbuf[i]];
	if (f->profile || f->trace)
		run_timed(f);
	else
		for (uint32_t i = 0; i < vf->ninsts; i++)
			run_inst(f, &f->insts[i], (uint32_t[3]){0});
	return 0;
}

int
rt_invoke(RtFunction *f, const RtTensor *in, int nin, RtTensor *out, int nout, RtError *e)
{
	int rc;

	pthread_mutex_lock(&f->m->lock);
	rc = invoke(f, in, nin, out, nout, e);
	pthread_mutex_unlock(&f->m->lock);
	return rc;
}
