/* vmfb.c - crc32c and the .vmfb checker: nothing in a module is used
 * before every offset, size, count and cross reference in it is checked. */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "vmfb.h"

_Static_assert(sizeof(VmfbHeader) == 64, "header layout");
_Static_assert(sizeof(VmfbSection) == 32, "section layout");
_Static_assert(sizeof(VmfbTarget) == 16, "target layout");
_Static_assert(sizeof(VmfbType) == 24, "type layout");
_Static_assert(sizeof(VmfbFunc) == 48, "func layout");
_Static_assert(sizeof(VmfbBuf) == 24, "buf layout");
_Static_assert(sizeof(VmfbInst) == 40, "inst layout");
_Static_assert(sizeof(VmfbExec) == 16, "exec layout");
_Static_assert(sizeof(VmfbGrid) == 80, "grid layout");
_Static_assert(sizeof(VmfbKern) == 32, "kern layout");
_Static_assert(sizeof(VmfbGlobal) == 32, "global layout");
_Static_assert(sizeof(VmfbBatch) == 32, "batch layout");
_Static_assert(sizeof(VmfbChunk) == 16, "chunk layout");
_Static_assert(sizeof(VmfbLength) == 32, "length layout");
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the .vmfb reader assumes a little-endian host"
#endif

/* ---- crc32c (Castagnoli), hardware where the CPU has SSE4.2 ---------- */

static uint32_t crc_table[8][256];

static void
crc_init(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;
		for (int k = 0; k < 8; k++)
			c = c & 1 ? (c >> 1) ^ 0x82F63B78u : c >> 1;
		crc_table[0][i] = c;
	}
	for (uint32_t i = 0; i < 256; i++)
		for (int t = 1; t < 8; t++)
			crc_table[t][i] = (crc_table[t - 1][i] >> 8)
			    ^ crc_table[0][crc_table[t - 1][i] & 0xff];
}

static uint32_t
crc_soft(uint32_t c, const uint8_t *p, size_t n)
{
	while (n >= 8) {
		uint64_t w;
		memcpy(&w, p, 8);
		w ^= c;
		c = crc_table[7][w & 0xff] ^ crc_table[6][(w >> 8) & 0xff]
		    ^ crc_table[5][(w >> 16) & 0xff] ^ crc_table[4][(w >> 24) & 0xff]
		    ^ crc_table[3][(w >> 32) & 0xff] ^ crc_table[2][(w >> 40) & 0xff]
		    ^ crc_table[1][(w >> 48) & 0xff] ^ crc_table[0][w >> 56];
		p += 8;
		n -= 8;
	}
	while (n--)
		c = (c >> 8) ^ crc_table[0][(c ^ *p++) & 0xff];
	return c;
}

/* Appending n zero bytes multiplies a raw (unconditioned) crc by x^(8n)
 * modulo the polynomial; in the reflected order bit 31 is x^0.  Both
 * ways of computing the crc are linear in (state, data), so pieces
 * computed apart are joined by such a product: crc32c_combine, and the
 * three streams below. */
static uint32_t
gf_mul(uint32_t a, uint32_t b)
{
	uint32_t r = 0;

	for (uint32_t m = 1u << 31; m; m >>= 1) {
		if (a & m)
			r ^= b;
		b = b & 1 ? (b >> 1) ^ 0x82F63B78u : b >> 1;
	}
	return r;
}

/* x^(8n) mod P */
uint32_t
crc32c_x8n(uint64_t n)
{
	uint32_t r = 1u << 31, p = 1u << 23;   /* x^0, x^8 */

	for (; n; n >>= 1) {
		if (n & 1)
			r = gf_mul(r, p);
		p = gf_mul(p, p);
	}
	return r;
}

uint32_t
crc32c_combine(uint32_t crc1, uint32_t crc2, uint64_t len2)
{
	return gf_mul(crc1, crc32c_x8n(len2)) ^ crc2;
}

#if defined(__x86_64__)
/* The crc32 instruction takes three cycles and issues one a cycle:
 * three independent streams over consecutive thirds of a block keep it
 * busy, and the thirds are joined by constant products. */
enum { STREAM = 4096 };
/* x8n(STREAM) and x8n(2 * STREAM), checked by tests/unit/test_crc.c */
enum { K1 = 0x35D73A62u, K2 = 0x28461564u };

__attribute__((target("sse4.2"))) static uint32_t
crc_hard(uint32_t c, const uint8_t *p, size_t n)
{
	uint64_t c64 = c;

	while (n >= 3 * STREAM) {
		uint64_t a = c64, b = 0, d = 0;

		for (size_t i = 0; i < STREAM; i += 8) {
			uint64_t wa, wb, wd;
			memcpy(&wa, p + i, 8);
			memcpy(&wb, p + STREAM + i, 8);
			memcpy(&wd, p + 2 * STREAM + i, 8);
			a = __builtin_ia32_crc32di(a, wa);
			b = __builtin_ia32_crc32di(b, wb);
			d = __builtin_ia32_crc32di(d, wd);
		}
		c64 = gf_mul((uint32_t)a, K2) ^ gf_mul((uint32_t)b, K1) ^ (uint32_t)d;
		p += 3 * STREAM;
		n -= 3 * STREAM;
	}
	while (n >= 8) {
		uint64_t w;
		memcpy(&w, p, 8);
		c64 = __builtin_ia32_crc32di(c64, w);
		p += 8;
		n -= 8;
	}
	c = (uint32_t)c64;
	while (n--)
		c = __builtin_ia32_crc32qi(c, *p++);
	return c;
}
#endif

/* crc32c_soft: the table's, whatever the CPU (the tests' reference) */
uint32_t
crc32c_soft(uint32_t crc, const void *p, size_t n)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, crc_init);
	return ~crc_soft(~crc, p, n);
}

uint32_t
crc32c(uint32_t crc, const void *p, size_t n)
{
#if defined(__x86_64__)
	static int hard = -1;

	if (hard < 0) {
		__builtin_cpu_init();
		hard = __builtin_cpu_supports("sse4.2");
	}
	if (hard)
		return ~crc_hard(~crc, p, n);
#endif
	return crc32c_soft(crc, p, n);
}

/* ---- names ------------------------------------------------------------ */

static const char *const dtype_names[DT_COUNT] = {
	[DT_F16] = "f16", [DT_BF16] = "bf16", [DT_F32] = "f32", [DT_F64] = "f64",
	[DT_BOOL] = "i1", [DT_I8] = "i8", [DT_I16] = "i16", [DT_I32] = "i32",
	[DT_I64] = "i64", [DT_U8] = "ui8", [DT_U16] = "ui16", [DT_U32] = "ui32",
	[DT_U64] = "ui64", [DT_C64] = "c64", [DT_C128] = "c128",
};
static const unsigned char dtype_sizes[DT_COUNT] = {
	[DT_F16] = 2, [DT_BF16] = 2, [DT_F32] = 4, [DT_F64] = 8, [DT_BOOL] = 1,
	[DT_I8] = 1, [DT_I16] = 2, [DT_I32] = 4, [DT_I64] = 8, [DT_U8] = 1,
	[DT_U16] = 2, [DT_U32] = 4, [DT_U64] = 8, [DT_C64] = 8, [DT_C128] = 16,
};
static const char *const section_names[SEC_NKINDS] = {
	[SEC_STRS] = "strings", [SEC_TARGET] = "target", [SEC_TYPES] = "types",
	[SEC_DIMS] = "dims", [SEC_FUNCS] = "functions", [SEC_BUFS] = "buffers",
	[SEC_INSTS] = "instructions", [SEC_BINDS] = "bindings",
	[SEC_EXECS] = "executables", [SEC_KERNS] = "kernels",
	[SEC_GLOBALS] = "globals", [SEC_CONSTS] = "constants",
	[SEC_OBJECT] = "object", [SEC_KINFO] = "kernel_info",
	[SEC_BATCH] = "batch", [SEC_CHUNKS] = "chunks", [SEC_LENGTH] = "length",
	[SEC_GRID] = "grid",
};

const char *
vmfb_dtype_name(uint32_t dt)
{
	return dt < DT_COUNT ? dtype_names[dt] : NULL;
}

size_t
vmfb_dtype_size(uint32_t dt)
{
	return dt < DT_COUNT ? dtype_sizes[dt] : 0;
}

const char *
vmfb_section_name(uint32_t kind)
{
	return kind < SEC_NKINDS && section_names[kind] ? section_names[kind] : "unknown";
}

const char *
vmfb_str(const Vmfb *v, uint32_t off)
{
	return v->strs + off;
}

/* ---- the checker ------------------------------------------------------ */

typedef struct Chk {
	Vmfb *v;
	char *err;
	size_t errn;
	uint8_t *gridused;  /* per grid record: a dispatch names it */
} Chk;

static int
bad(Chk *k, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(k->err, k->errn, "corrupt module: ");

	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < k->errn)
		vsnprintf(k->err + n, k->errn - n, fmt, ap);
	va_end(ap);
	return -1;
}

static int
str_ok(Chk *k, uint32_t off, const char *what, size_t i)
{
	if (off >= k->v->nstrs)
		return bad(k, "%s %zu: string offset %u is past the strings (%zu bytes)",
		    what, i, off, k->v->nstrs);
	return 0;
}

static int
zeros(const void *p, size_t n)
{
	const uint8_t *b = p;

	for (size_t i = 0; i < n; i++)
		if (b[i])
			return 0;
	return 1;
}

/* The records of one section kind: base pointer and count. */
static int
records(Chk *k, int kind, size_t recsz, const void **p, size_t *n)
{
	Vmfb *v = k->v;

	for (uint32_t i = 0; i < v->nsec; i++) {
		if (v->sec[i].kind != (uint32_t)kind)
			continue;
		if (v->sec[i].size % recsz)
			return bad(k, "section %u (%s): %llu bytes is not a whole number of %zu-byte records",
			    i, vmfb_section_name(kind), (unsigned long long)v->sec[i].size, recsz);
		*p = v->base + v->sec[i].offset;
		*n = v->sec[i].size / recsz;
		return 0;
	}
	return bad(k, "no %s section", vmfb_section_name(kind));
}

static int
cmp_off(const void *a, const void *b)
{
	const VmfbSection *x = *(const VmfbSection *const *)a, *y = *(const VmfbSection *const *)b;

	/* Empty sections first at an offset: they overlap nothing. */
	if (x->offset != y->offset)
		return x->offset < y->offset ? -1 : 1;
	return x->size < y->size ? -1 : x->size > y->size;
}

/* The header alone: magic, version, checksum, sizes.  1 if it is shorter
 * than a header but a prefix of one so far. */
static int
check_prefix(Chk *k, const uint8_t *p, size_t n)
{
	const VmfbHeader *h = (const VmfbHeader *)p;
	uint32_t version;

	if (n == 0)
		return snprintf(k->err, k->errn, "empty module (0 bytes)"), -1;
	if (n < 8 || memcmp(p, VMFB_MAGIC, 8)) {
		if (n < 8 && !memcmp(p, VMFB_MAGIC, n))
			return snprintf(k->err, k->errn, "truncated module: %zu bytes", n), -1;
		return snprintf(k->err, k->errn, "not a .vmfb module (bad magic)"), -1;
	}
	if (n < 12)
		return snprintf(k->err, k->errn, "truncated module: %zu bytes", n), -1;
	memcpy(&version, p + 8, 4);
	if (version != VMFB_VERSION)
		return snprintf(k->err, k->errn,
		    "unsupported .vmfb version %u (this build reads version %d)",
		    version, VMFB_VERSION), -1;
	if (n < sizeof *h)
		return snprintf(k->err, k->errn, "truncated module: %zu bytes, shorter than its header", n), -1;
	if (crc32c(0, h, offsetof(VmfbHeader, header_crc)) != h->header_crc)
		return bad(k, "header checksum mismatch");
	if (h->header_size != sizeof *h || h->entry_size != sizeof(VmfbSection) || h->flags & ~VMFB_F_PARAMS)
		return bad(k, "header sizes or flags are not version %d's", VMFB_VERSION);
	if (!zeros(h->reserved, sizeof h->reserved))
		return bad(k, "header bytes 48 to 59 are not zero");
	return 0;
}

static int
check_header(Chk *k, const uint8_t *p, size_t n)
{
	Vmfb *v = k->v;
	const VmfbHeader *h = (const VmfbHeader *)p;

	if (check_prefix(k, p, n))
		return -1;
	if (h->file_size > n)
		return snprintf(k->err, k->errn,
		    "truncated module: the header says %llu bytes, there are %zu",
		    (unsigned long long)h->file_size, n), -1;
	if (h->file_size < n)
		return bad(k, "%zu bytes, the header says %llu", n, (unsigned long long)h->file_size);
	if (h->table_offset < sizeof *h || h->table_offset % 8 || h->nsections > 65536
	    || h->table_offset > n || (n - h->table_offset) / sizeof(VmfbSection) < h->nsections)
		return bad(k, "section table (%u entries at %llu) is not inside the file",
		    h->nsections, (unsigned long long)h->table_offset);
	v->hdr = h;
	v->sec = (const VmfbSection *)(p + h->table_offset);
	v->nsec = h->nsections;
	if (crc32c(0, v->sec, (size_t)v->nsec * sizeof(VmfbSection)) != h->table_crc)
		return bad(k, "section table checksum mismatch");
	return 0;
}

static int
check_sections(Chk *k)
{
	Vmfb *v = k->v;
	size_t tend = v->hdr->table_offset + (size_t)v->nsec * sizeof(VmfbSection);
	const VmfbSection **order;
	int seen[SEC_NKINDS] = {0};
	int rc = 0;

	for (uint32_t i = 0; i < v->nsec; i++) {
		const VmfbSection *s = &v->sec[i];
		if (s->kind == 0 || s->kind >= SEC_NKINDS || s->flags)
			return bad(k, "section %u has unknown kind %u", i, s->kind);
		if (s->reserved)
			return bad(k, "section %u: reserved field is %u, not 0", i, s->reserved);
		if (s->kind != SEC_OBJECT && seen[s->kind]++)
			return bad(k, "two %s sections", vmfb_section_name(s->kind));
		if (s->offset % VMFB_ALIGN || s->offset < tend || s->offset > v->size
		    || s->size > v->size - s->offset)
			return bad(k, "section %u (%s) at %llu, %llu bytes, is not inside the file",
			    i, vmfb_section_name(s->kind), (unsigned long long)s->offset,
			    (unsigned long long)s->size);
	}
	for (int kind = 1; kind < SEC_OBJECT; kind++)
		if (!seen[kind])
			return bad(k, "no %s section", vmfb_section_name(kind));
	order = malloc((v->nsec + 1) * sizeof *order);
	if (!order)
		return bad(k, "out of memory");
	for (uint32_t i = 0; i < v->nsec; i++)
		order[i] = &v->sec[i];
	qsort(order, v->nsec, sizeof *order, cmp_off);
	for (uint32_t i = 1; i < v->nsec && !rc; i++)
		if (order[i]->offset < order[i - 1]->offset + order[i - 1]->size)
			rc = bad(k, "sections %td and %td overlap", order[i - 1] - v->sec, order[i] - v->sec);
	if (!rc && !zeros(v->base + sizeof *v->hdr, v->hdr->table_offset - sizeof *v->hdr))
		rc = bad(k, "nonzero bytes between the header and the section table");
	/* the gaps: after the table, between sections, after the last */
	for (uint32_t i = 0; i <= v->nsec && !rc; i++) {
		size_t from = i ? order[i - 1]->offset + order[i - 1]->size : tend;
		size_t to = i < v->nsec ? order[i]->offset : v->size;
		if (from < to && !zeros(v->base + from, to - from))
			rc = bad(k, "nonzero bytes in the gap at %zu to %zu", from, to);
	}
	free(order);
	if (rc)
		return rc;
	for (uint32_t i = 0; i < v->nsec; i++) {
		const VmfbSection *s = &v->sec[i];
		if (crc32c(0, v->base + s->offset, s->size) != s->crc)
			return bad(k, "section %u (%s) checksum mismatch", i, vmfb_section_name(s->kind));
	}
	return 0;
}

static int
load_tables(Chk *k)
{
	Vmfb *v = k->v;
	const void *p;
	size_t n;

	if (records(k, SEC_STRS, 1, &p, &n))
		return -1;
	v->strs = p, v->nstrs = n;
	if (n == 0 || v->strs[0] || v->strs[n - 1])
		return bad(k, "the strings section does not start and end with NUL");
	if (records(k, SEC_TARGET, sizeof(VmfbTarget), &p, &n))
		return -1;
	if (n != 1)
		return bad(k, "the target section holds %zu records, not 1", n);
	v->target = p;
#define TAB(kind, field, count) \
	if (records(k, kind, sizeof *v->field, &p, &n)) return -1; \
	if (n > UINT32_MAX) return bad(k, "too many records"); \
	v->field = p, v->count = n;
	TAB(SEC_TYPES, types, ntypes)
	TAB(SEC_DIMS, dims, ndims)
	TAB(SEC_FUNCS, funcs, nfuncs)
	TAB(SEC_BUFS, bufs, nbufs)
	TAB(SEC_INSTS, insts, ninsts)
	TAB(SEC_BINDS, binds, nbinds)
	TAB(SEC_EXECS, execs, nexecs)
	TAB(SEC_KERNS, kerns, nkerns)
	TAB(SEC_GLOBALS, globals, nglobals)
#undef TAB
	/* optional: modules packed before them have none */
	for (uint32_t i = 0; i < v->nsec; i++)
		if (v->sec[i].kind == SEC_KINFO) {
			if (records(k, SEC_KINFO, sizeof *v->kinfo, &p, &n))
				return -1;
			if (n != v->nkerns)
				return bad(k, "%zu kernel_info records for %zu kernels", n, v->nkerns);
			v->kinfo = p;
		} else if (v->sec[i].kind == SEC_BATCH) {
			if (records(k, SEC_BATCH, sizeof *v->batch, &p, &n))
				return -1;
			v->batch = p, v->nbatch = n;
			if (records(k, SEC_CHUNKS, sizeof *v->chunks, &p, &n))
				return -1;
			v->chunks = p, v->nchunks = n;
		} else if (v->sec[i].kind == SEC_LENGTH) {
			if (records(k, SEC_LENGTH, sizeof *v->length, &p, &n))
				return -1;
			v->length = p, v->nlength = n;
		} else if (v->sec[i].kind == SEC_GRID) {
			if (records(k, SEC_GRID, sizeof *v->grids, &p, &n))
				return -1;
			v->grids = p, v->ngrids = n;
		}
	for (uint32_t i = 0; i < v->nsec; i++)
		if (v->sec[i].kind == SEC_CHUNKS && !v->batch)
			return bad(k, "a chunks section without a batch section");
	if (records(k, SEC_CONSTS, 1, &p, &n))
		return -1;
	v->consts = p, v->nconsts = n;
	return 0;
}

/* Has type ti a batch dimension (VMFB_DYN at dimension 0)? */
static int
dynamic(const Vmfb *v, size_t ti)
{
	const VmfbType *t = &v->types[ti];

	return t->rank && v->dims[t->first_dim] == VMFB_DYN;
}

/* Has type ti a dynamic dimension anywhere (a length's declaration)? */
static int
any_dynamic(const Vmfb *v, size_t ti)
{
	const VmfbType *t = &v->types[ti];

	for (uint32_t d = 0; d < t->rank; d++)
		if (v->dims[t->first_dim + d] == VMFB_DYN)
			return 1;
	return 0;
}

static int
check_types(Chk *k)
{
	Vmfb *v = k->v;

	for (size_t i = 0; i < v->ntypes; i++) {
		const VmfbType *t = &v->types[i];
		uint64_t numel = 1;
		if (!vmfb_dtype_size(t->dtype))
			return bad(k, "type %zu: unknown element type %u", i, t->dtype);
		if (t->reserved)
			return bad(k, "type %zu: reserved field is %u, not 0", i, t->reserved);
		if (t->rank > VMFB_MAX_RANK || t->first_dim > v->ndims || t->rank > v->ndims - t->first_dim)
			return bad(k, "type %zu: rank %u at dimension %u is out of range", i, t->rank, t->first_dim);
		for (uint32_t d = 0; d < t->rank; d++) {
			int64_t e = v->dims[t->first_dim + d];
			if (e == VMFB_DYN)
				continue;   /* a declaration's: 0 bytes */
			if (e < 0 || __builtin_mul_overflow(numel, (uint64_t)e, &numel))
				return bad(k, "type %zu: dimension %u is %lld", i, d, (long long)e);
		}
		if (any_dynamic(v, i))
			numel = 0;
		if (__builtin_mul_overflow(numel, vmfb_dtype_size(t->dtype), &numel)
		    || numel != t->nbytes || numel > ((uint64_t)1 << 56))
			return bad(k, "type %zu: %llu bytes does not match its shape",
			    i, (unsigned long long)t->nbytes);
	}
	return 0;
}

static int
range_ok(uint64_t first, uint64_t count, size_t total)
{
	return first <= total && count <= total - first;
}

/* The byte size of a buffer's base. */
static int
base_size(Chk *k, const VmfbFunc *f, const VmfbBuf *b, uint64_t *size)
{
	Vmfb *v = k->v;

	switch (b->base) {
	case BASE_ARG:
		if (b->index >= f->nargs)
			return -1;
		*size = v->types[f->first_arg + b->index].nbytes;
		return 0;
	case BASE_RESULT:
		if (b->index >= f->nresults)
			return -1;
		*size = v->types[f->first_result + b->index].nbytes;
		return 0;
	case BASE_ARENA:
		if (b->index)
			return -1;
		*size = f->arena_size;
		return 0;
	case BASE_CONST:
		if (b->index >= v->nglobals)
			return -1;
		*size = v->globals[b->index].size;
		return 0;
	}
	return -1;
}

/* A dispatch's grid at the call's length: its own record, n in one of
 * its bindings (8 bytes), each axis static or ceil((c n + d) / q). */
static int
check_grid(Chk *k, const VmfbFunc *f, const char *fn, size_t j, const VmfbInst *in)
{
	Vmfb *v = k->v;
	const VmfbGrid *g;

	if (in->grid > v->ngrids || k->gridused[in->grid - 1]++)
		return bad(k, "@%s: instruction %zu: grid record %u is out of range or another dispatch's",
		    fn, j, in->grid - 1);
	g = &v->grids[in->grid - 1];
	if (g->reserved || g->binding >= in->c || v->bufs[f->first_buf + v->binds[in->b + g->binding]].size != 8)
		return bad(k, "@%s: instruction %zu: grid record %u: binding %u is not the dispatch's "
		    "8-byte length", fn, j, in->grid - 1, g->binding);
	for (int a = 0; a < 3; a++)
		if (g->c[a] < 0 || (g->c[a] == 0 && (g->d[a] || g->q[a])) || (g->c[a] > 0 && g->q[a] < 1))
			return bad(k, "@%s: instruction %zu: grid record %u: axis %d is (%lld, %lld, %lld), "
			    "not static (0, 0, 0) or c > 0 and q > 0", fn, j, in->grid - 1, a,
			    (long long)g->c[a], (long long)g->d[a], (long long)g->q[a]);
	return 0;
}

/* A fill's interior box (formats/vmfb.md): x dims from DIMS[y] (the
 * buffer's shape, whole elements of it), then as many offsets and sizes,
 * the box inside the shape. */
static int
check_box(Chk *k, const char *fn, size_t j, const VmfbInst *in, uint64_t size)
{
	const int64_t *d = k->v->dims + in->y;
	uint64_t n = 1;

	if (in->x > VMFB_MAX_RANK || in->y > k->v->ndims || k->v->ndims - in->y < 3 * (uint64_t)in->x)
		return bad(k, "@%s: instruction %zu: fill's interior of rank %u at dims %u is out of range",
		    fn, j, in->x, in->y);
	for (uint32_t i = 0; i < in->x; i++) {
		int64_t o = d[in->x + i], s = d[2 * in->x + i];

		if (d[i] < 0 || o < 0 || s < 0 || o > d[i] - s)
			return bad(k, "@%s: instruction %zu: fill's interior, dimension %u: offset %lld and "
			    "size %lld are not inside %lld", fn, j, i, (long long)o, (long long)s, (long long)d[i]);
		if (d[i] && n > UINT64_MAX / (uint64_t)d[i])
			return bad(k, "@%s: instruction %zu: fill's shape overflows", fn, j);
		n *= (uint64_t)d[i];
	}
	if (n > UINT64_MAX / in->c || n * in->c != size)
		return bad(k, "@%s: instruction %zu: fill's shape is not its buffer's %llu bytes", fn, j,
		    (unsigned long long)size);
	return 0;
}

static int
check_inst(Chk *k, const VmfbFunc *f, const char *fn, size_t j, uint64_t *nbinds)
{
	Vmfb *v = k->v;
	const VmfbInst *in = &v->insts[f->first_inst + j];
	const VmfbBuf *fb = v->bufs + f->first_buf;
	uint64_t t;

	if (in->grid && in->op != INST_DISPATCH)
		return bad(k, "@%s: instruction %zu: reserved field is %u, not 0", fn, j, in->grid);
	switch (in->op) {
	case INST_DISPATCH:
		if (in->a >= v->nkerns)
			return bad(k, "@%s: instruction %zu: kernel %u is out of range", fn, j, in->a);
		if (!range_ok(in->b, in->c, v->nbinds) || in->c != v->kerns[in->a].nbindings)
			return bad(k, "@%s: instruction %zu: bindings %u+%u do not fit the kernel", fn, j, in->b, in->c);
		for (uint32_t i = 0; i < in->c; i++)
			if (v->binds[in->b + i] >= f->nbufs)
				return bad(k, "@%s: instruction %zu: binding %u names buffer %u of %u",
				    fn, j, i, v->binds[in->b + i], f->nbufs);
		if (__builtin_mul_overflow((uint64_t)in->x, (uint64_t)in->y, &t)
		    || __builtin_mul_overflow(t, (uint64_t)in->z, &t) || t > ((uint64_t)1 << 48)
		    || in->n)
			return bad(k, "@%s: instruction %zu: grid %ux%ux%u is too large", fn, j, in->x, in->y, in->z);
		/* a dispatch runs at least once: one that never ran would leave
		 * its outputs unwritten */
		if (!in->x || !in->y || !in->z)
			return bad(k, "@%s: instruction %zu: grid %ux%ux%u has a zero dimension", fn, j, in->x, in->y, in->z);
		if (in->grid && check_grid(k, f, fn, j, in))
			return -1;
		/* the runtime gathers a function's bindings into one array */
		if (__builtin_add_overflow(*nbinds, (uint64_t)in->c, nbinds) || *nbinds > v->nbinds)
			return bad(k, "@%s: its dispatches bind more than the %zu entries of the bindings section",
			    fn, v->nbinds);
		return 0;
	case INST_COPY:
		if (in->a >= f->nbufs || in->b >= f->nbufs || in->n > fb[in->a].size || in->n > fb[in->b].size)
			return bad(k, "@%s: instruction %zu: copy of %llu bytes between buffers %u and %u is out of range",
			    fn, j, (unsigned long long)in->n, in->a, in->b);
		if (fb[in->b].base != BASE_ARENA && fb[in->b].base != BASE_RESULT)
			return bad(k, "@%s: instruction %zu: copy into a read-only buffer", fn, j);
		return 0;
	case INST_FILL:
		if (in->a >= f->nbufs || !(in->c == 1 || in->c == 2 || in->c == 4 || in->c == 8)
		    || fb[in->a].size % in->c || (in->c < 8 && in->n >> (8 * in->c)))
			return bad(k, "@%s: instruction %zu: fill of buffer %u with %u-byte elements is malformed",
			    fn, j, in->a, in->c);
		if (fb[in->a].base != BASE_ARENA && fb[in->a].base != BASE_RESULT)
			return bad(k, "@%s: instruction %zu: fill of a read-only buffer", fn, j);
		return in->b || in->z || in->grid || (!in->x && in->y) ? bad(k, "@%s: instruction %zu: "
		    "fill with unused fields set", fn, j) : in->x ? check_box(k, fn, j, in, fb[in->a].size) : 0;
	}
	return bad(k, "@%s: instruction %zu has unknown opcode %u", fn, j, in->op);
}

static int
check_funcs(Chk *k)
{
	Vmfb *v = k->v;

	for (size_t i = 0; i < v->nfuncs; i++) {
		const VmfbFunc *f = &v->funcs[i];
		const char *fn;
		if (str_ok(k, f->name, "function", i))
			return -1;
		fn = vmfb_str(v, f->name);
		if (!*fn)
			return bad(k, "function %zu has no name", i);
		for (size_t j = 0; j < i; j++)
			if (!strcmp(fn, vmfb_str(v, v->funcs[j].name)))
				return bad(k, "two functions named @%s", fn);
		if (!range_ok(f->first_arg, f->nargs, v->ntypes)
		    || !range_ok(f->first_result, f->nresults, v->ntypes)
		    || !range_ok(f->first_buf, f->nbufs, v->nbufs)
		    || !range_ok(f->first_inst, f->ninsts, v->ninsts)
		    || f->arena_size > ((uint64_t)1 << 48))
			return bad(k, "@%s: argument, result, buffer or instruction ranges are out of bounds", fn);
		for (uint32_t j = 0; j < f->nbufs; j++) {
			const VmfbBuf *b = &v->bufs[f->first_buf + j];
			uint64_t size;
			if (base_size(k, f, b, &size))
				return bad(k, "@%s: buffer %u has a bad base (%u, %u)", fn, j, b->base, b->index);
			if (b->offset > size || b->size > size - b->offset)
				return bad(k, "@%s: buffer %u (bytes %llu+%llu) is outside its base of %llu bytes",
				    fn, j, (unsigned long long)b->offset, (unsigned long long)b->size,
				    (unsigned long long)size);
		}
		uint64_t nbinds = 0;
		if (f->reserved)
			return bad(k, "@%s: reserved field is %u, not 0", fn, f->reserved);
		for (uint32_t j = 0; j < f->ninsts; j++)
			if (check_inst(k, f, fn, j, &nbinds))
				return -1;
	}
	return 0;
}

static int
check_code(Chk *k)
{
	Vmfb *v = k->v;
	int *used = calloc(v->nsec + 1, sizeof *used);

	if (!used)
		return bad(k, "out of memory");
	for (size_t i = 0; i < v->nexecs; i++) {
		const VmfbExec *e = &v->execs[i];
		const VmfbSection *s;
		if (str_ok(k, e->name, "executable", i))
			goto fail;
		if (e->section >= v->nsec || v->sec[e->section].kind != SEC_OBJECT || used[e->section]++) {
			bad(k, "executable %zu: section %u is not an object of its own", i, e->section);
			goto fail;
		}
		s = &v->sec[e->section];
		if (e->reserved) {
			bad(k, "executable %zu: reserved field is %u, not 0", i, e->reserved);
			goto fail;
		}
		if (e->format != (v->target->target == TARGET_CPU ? FMT_ELF_X86_64 : FMT_PTX)) {
			bad(k, "executable %zu: format %u does not fit the target", i, e->format);
			goto fail;
		}
		if (e->format == FMT_PTX && (s->size == 0 || v->base[s->offset + s->size - 1])) {
			bad(k, "executable %zu: PTX text is not NUL-terminated", i);
			goto fail;
		}
	}
	for (uint32_t i = 0; i < v->nsec; i++)
		if (v->sec[i].kind == SEC_OBJECT && !used[i]) {
			bad(k, "section %u: object of no executable", i);
			goto fail;
		}
	free(used);
	for (size_t i = 0; i < v->nkerns; i++) {
		const VmfbKern *kn = &v->kerns[i];
		if (str_ok(k, kn->name, "kernel", i) || str_ok(k, kn->symbol, "kernel", i))
			return -1;
		if (kn->exec >= v->nexecs || !v->strs[kn->symbol] || kn->nbindings > 65536)
			return bad(k, "kernel %zu: executable %u, symbol or %u bindings out of range",
			    i, kn->exec, kn->nbindings);
		if (v->kinfo && (str_ok(k, v->kinfo[i].display, "kernel_info", i) ||
		    str_ok(k, v->kinfo[i].source, "kernel_info", i)))
			return -1;
		if (v->kinfo && v->kinfo[i].reserved)
			return bad(k, "kernel_info %zu: reserved field is not 0", i);
	}
	for (size_t i = 0; i < v->nglobals; i++) {
		const VmfbGlobal *g = &v->globals[i];
		if (str_ok(k, g->name, "global", i))
			return -1;
		if (g->param) {
			if (str_ok(k, g->param, "global", i))
				return -1;
			if (!(v->hdr->flags & VMFB_F_PARAMS) || !v->strs[g->param] || g->offset)
				return bad(k, "global %zu (@%s): an external parameter, but %s", i,
				    vmfb_str(v, g->name), g->offset ? "with an offset"
				    : v->strs[g->param] ? "the header's flag is not set" : "unnamed");
			if (g->type >= v->ntypes || g->size != v->types[g->type].nbytes || dynamic(v, g->type))
				return bad(k, "global %zu (@%s): %llu bytes, not its type's", i,
				    vmfb_str(v, g->name), (unsigned long long)g->size);
			continue;
		}
		if (g->crc)
			return bad(k, "global %zu: crc of a constant inside the module", i);
		if (g->type < v->ntypes && any_dynamic(v, g->type))
			return bad(k, "global %zu (@%s): a type with a dynamic dimension", i, vmfb_str(v, g->name));
		if (g->type >= v->ntypes || g->size != v->types[g->type].nbytes
		    || g->offset % VMFB_ALIGN || !range_ok(g->offset, g->size, v->nconsts))
			return bad(k, "global %zu (@%s): %llu bytes at %llu do not fit the constants",
			    i, vmfb_str(v, g->name), (unsigned long long)g->size,
			    (unsigned long long)g->offset);
	}
	return 0;
fail:
	free(used);
	return -1;
}

void
vmfb_grid_at(const VmfbGrid *g, const uint32_t in[3], int64_t n, uint32_t grid[3])
{
	int64_t t;

	for (int a = 0; a < 3; a++) {
		grid[a] = in[a];
		if (!g || !g->c[a] || __builtin_mul_overflow(g->c[a], n, &t) || __builtin_add_overflow(t, g->d[a], &t))
			continue;
		t = t <= 0 ? 1 : (t - 1) / g->q[a] + 1;
		if (t < grid[a])
			grid[a] = (uint32_t)t;
	}
}

int64_t
vmfb_batch_rows(const Vmfb *v, uint32_t decl, uint32_t chunk, uint64_t size)
{
	const VmfbType *d = &v->types[decl], *c = &v->types[chunk];
	const int64_t *dd = v->dims + d->first_dim, *cd = v->dims + c->first_dim;
	int batched = dynamic(v, decl);

	if (d->dtype != c->dtype || d->rank != c->rank || dynamic(v, chunk))
		return -1;
	for (uint32_t i = batched; i < d->rank; i++)
		if (dd[i] != cd[i])
			return -1;
	if (!batched)
		return 0;
	return size && cd[0] % (int64_t)size == 0 && cd[0] >= (int64_t)size ? cd[0] / (int64_t)size : -1;
}

/* One chunk of batched function f: its function's signature is f's with
 * dimension 0 of each batched type k * size, k that of every chunk. */
static int
check_chunk(Chk *k, const VmfbBatch *b, uint32_t j, const char *fn)
{
	Vmfb *v = k->v;
	const VmfbChunk *c = &v->chunks[b->first_chunk + j], *c0 = &v->chunks[b->first_chunk];
	const VmfbFunc *f = &v->funcs[b->func], *cf, *f0;

	uint32_t bounded = c->flags & VMFB_CHUNK_BOUNDED;

	if (c->func >= v->nfuncs || !c->size || c->size > INT64_MAX
	    || (j && c->size >= v->chunks[b->first_chunk + j - 1].size)
	    || (j == b->nchunks - 1 && c->size != 1))
		return bad(k, "@%s: chunk %u (function %u, size %llu) is out of range or order", fn, j,
		    c->func, (unsigned long long)c->size);
	if (c->flags & ~VMFB_CHUNK_BOUNDED || (bounded && (j || b->nchunks < 2)))
		return bad(k, "@%s: chunk %u has flags %u (bounded: only the first of several)", fn, j, c->flags);
	cf = &v->funcs[c->func], f0 = &v->funcs[c0->func];
	if (cf->nargs != f->nargs + bounded || cf->nresults != f->nresults)
		return bad(k, "@%s: chunk function @%s does not take and return as many values%s", fn,
		    vmfb_str(v, cf->name), bounded ? " (and the item count)" : "");
	if (bounded) {
		const VmfbType *t = &v->types[cf->first_arg + f->nargs];
		if (t->dtype != DT_I64 || t->rank != 1 || v->dims[t->first_dim] != 1)
			return bad(k, "@%s: the last argument of bounded chunk function @%s is not the item "
			    "count, an i64 [1]", fn, vmfb_str(v, cf->name));
	}
	for (uint32_t i = 0; i < f->nargs + f->nresults; i++) {
		uint32_t ti = i < f->nargs ? f->first_arg + i : f->first_result + i - f->nargs;
		uint32_t ci = i < f->nargs ? cf->first_arg + i : cf->first_result + i - f->nargs;
		uint32_t i0 = i < f->nargs ? f0->first_arg + i : f0->first_result + i - f->nargs;
		int64_t rows = vmfb_batch_rows(v, ti, ci, c->size);
		if (rows < 0 || rows != vmfb_batch_rows(v, ti, i0, c0->size) || (i >= f->nargs && !rows))
			return bad(k, "@%s: %s %u of chunk function @%s does not fit the batch", fn,
			    i < f->nargs ? "argument" : "result", i < f->nargs ? i : i - f->nargs,
			    vmfb_str(v, cf->name));
	}
	return 0;
}

static int
dynamic_args(const Vmfb *v, const VmfbFunc *f)
{
	for (uint32_t i = 0; i < f->nargs; i++)
		if (dynamic(v, f->first_arg + i))
			return 1;
	return 0;
}

/* The batched functions: each a declaration run as chunks of static
 * functions; batch dimensions only in declarations' types. */
static int
check_batch(Chk *k)
{
	Vmfb *v = k->v;
	uint8_t *decl = calloc(v->nfuncs + 1, 1);
	int rc = 0;

	if (!decl)
		return bad(k, "out of memory");
	for (size_t i = 0; i < v->nbatch && !rc; i++) {
		const VmfbBatch *b = &v->batch[i];
		if (b->reserved || b->func >= v->nfuncs || decl[b->func]++)
			rc = bad(k, "batch %zu: function %u is out of range or batched twice", i, b->func);
	}
	for (size_t i = 0; i < v->nbatch && !rc; i++) {
		const VmfbBatch *b = &v->batch[i];
		const VmfbFunc *f = &v->funcs[b->func];
		const char *fn = vmfb_str(v, f->name);
		if (f->nbufs || f->ninsts || f->arena_size || b->min < 0 || b->max < b->min)
			rc = bad(k, "@%s: a batched function with a host program, or batch range [%lld, %lld]",
			    fn, (long long)b->min, (long long)b->max);
		else if (!b->nchunks || !range_ok(b->first_chunk, b->nchunks, v->nchunks))
			rc = bad(k, "@%s: chunks %u+%u are out of range", fn, b->first_chunk, b->nchunks);
		else if (!dynamic_args(v, f))
			rc = bad(k, "@%s: no argument is batched", fn);
		for (uint32_t j = 0; j < b->nchunks && !rc; j++)
			if (!(rc = check_chunk(k, b, j, fn)) && decl[v->chunks[b->first_chunk + j].func])
				rc = bad(k, "@%s: chunk %u is a batched function", fn, j);
	}
	for (size_t i = 0; i < v->nlength; i++)
		if (v->length[i].func < v->nfuncs)
			decl[v->length[i].func] |= 2;
	for (size_t i = 0; i < v->nfuncs && !rc; i++) {
		const VmfbFunc *f = &v->funcs[i];
		for (uint32_t j = 0; j < f->nargs + f->nresults && !decl[i] && !rc; j++)
			if (any_dynamic(v, j < f->nargs ? f->first_arg + j : f->first_result + j - f->nargs))
				rc = bad(k, "@%s: a dynamic dimension in a function that is neither batched "
				    "nor of a dynamic length", vmfb_str(v, f->name));
		for (uint32_t j = 0; j < f->nargs + f->nresults && decl[i] == 1 && !rc; j++) {
			const VmfbType *t = &v->types[j < f->nargs ? f->first_arg + j : f->first_result + j - f->nargs];
			for (uint32_t d = 1; d < t->rank && !rc; d++)
				if (v->dims[t->first_dim + d] == VMFB_DYN)
					rc = bad(k, "@%s: a batched function with a dynamic dimension other "
					    "than its first", vmfb_str(v, f->name));
		}
	}
	free(decl);
	return rc;
}

/* One value (argument or result) of length function fn: decl type ti,
 * the padded function's pi, pairs pr. */
static int
check_length_value(Chk *k, const VmfbLength *l, uint32_t ti, uint32_t pi, const int64_t *pr,
	const char *fn, const char *what, uint32_t j, int *reads)
{
	Vmfb *v = k->v;
	const VmfbType *t = &v->types[ti], *p = &v->types[pi];
	const int64_t *td = v->dims + t->first_dim, *pd = v->dims + p->first_dim;

	if (t->dtype != p->dtype || t->rank != p->rank)
		return bad(k, "@%s: %s %u: the padded function's type differs", fn, what, j);
	for (uint32_t d = 0; d < t->rank; d++) {
		int64_t c = pr[2 * d], e = pr[2 * d + 1], top;
		int ok;
		if (c == -1)
			ok = e == 0 && td[d] == VMFB_DYN && pd[d] == VMFB_DYN;
		else if (c == 0)
			ok = e >= 0 && td[d] == e && pd[d] == e;
		else
			ok = c > 0 && td[d] == VMFB_DYN && !__builtin_mul_overflow(c, l->max, &top)
			    && !__builtin_add_overflow(top, e, &top) && pd[d] == top
			    && c * l->min + e >= 0;
		if (!ok)
			return bad(k, "@%s: %s %u, dimension %u: (%lld, %lld) does not fit its types", fn,
			    what, j, d, (long long)c, (long long)e);
		*reads |= c > 0;
	}
	return 0;
}

/* The functions of a dynamic length: declarations run by a function of
 * their arguments laid out at the longest length, plus the length. */
static int
check_length(Chk *k)
{
	Vmfb *v = k->v;
	uint8_t *seen = calloc(v->nfuncs + 1, 1);
	int rc = 0;

	if (!seen)
		return bad(k, "out of memory");
	/* a function's records are consecutive, their ranges adjacent */
	for (size_t i = 0; i < v->nlength && !rc; i++) {
		const VmfbLength *l = &v->length[i], *q = i ? l - 1 : NULL;
		if (l->reserved || l->func >= v->nfuncs)
			rc = bad(k, "length %zu: function %u is out of range", i, l->func);
		else if (q && q->func == l->func ? (q->max >= INT32_MAX || l->min != q->max + 1) : seen[l->func]++)
			rc = bad(k, "length %zu: function %u is listed twice, or its ranges are not "
			    "adjacent", i, l->func);
	}
	for (size_t i = 0; i < v->nbatch && !rc; i++)
		if (seen[v->batch[i].func])
			rc = bad(k, "length: function %u is also batched", v->batch[i].func);
	for (size_t i = 0; i < v->nlength && !rc; i++) {
		const VmfbLength *l = &v->length[i];
		const VmfbFunc *f = &v->funcs[l->func], *pf;
		const char *fn = vmfb_str(v, f->name);
		uint64_t npairs = 0;
		int reads = 0;
		if (f->nbufs || f->ninsts || f->arena_size || l->min < 0 || l->max < l->min
		    || l->max > INT32_MAX) {
			rc = bad(k, "@%s: a function of a dynamic length with a host program, or length "
			    "range [%lld, %lld]", fn, (long long)l->min, (long long)l->max);
			break;
		}
		if (l->padded >= v->nfuncs || seen[l->padded]) {
			rc = bad(k, "@%s: padded function %u is out of range or of a dynamic length", fn,
			    l->padded);
			break;
		}
		pf = &v->funcs[l->padded];
		if (pf->nargs != f->nargs + 1 || pf->nresults != f->nresults) {
			rc = bad(k, "@%s: the padded function @%s does not take one more value and return "
			    "as many", fn, vmfb_str(v, pf->name));
			break;
		}
		const VmfbType *lt = &v->types[pf->first_arg + f->nargs];
		if (lt->dtype != DT_I64 || lt->rank != 1 || v->dims[lt->first_dim] != 1) {
			rc = bad(k, "@%s: the padded function's last argument is not the length (i64 [1])", fn);
			break;
		}
		for (uint32_t j = 0; j < f->nargs + f->nresults; j++)
			npairs += 2 * v->types[j < f->nargs ? f->first_arg + j : f->first_result + j - f->nargs].rank;
		if (!range_ok(l->first_pair, npairs, v->ndims)) {
			rc = bad(k, "@%s: its %llu size pairs are out of range", fn, (unsigned long long)npairs);
			break;
		}
		const int64_t *pr = v->dims + l->first_pair;
		for (uint32_t j = 0; j < f->nargs + f->nresults && !rc; j++) {
			int arg = j < f->nargs;
			uint32_t jj = arg ? j : j - f->nargs;
			uint32_t ti = arg ? f->first_arg + jj : f->first_result + jj;
			uint32_t pi = arg ? pf->first_arg + jj : pf->first_result + jj;
			int r = 0;
			rc = check_length_value(k, l, ti, pi, pr, fn, arg ? "argument" : "result", jj,
			    arg ? &reads : &r);
			pr += 2 * v->types[ti].rank;
		}
		if (!rc && !reads)
			rc = bad(k, "@%s: no argument has a dimension of the length", fn);
	}
	free(seen);
	return rc;
}

int
vmfb_check_header(const void *p, size_t n, uint64_t *size, char *err, size_t errn)
{
	Vmfb v;
	Chk k = {&v, err, errn};

	if (check_prefix(&k, p, n))
		return -1;
	*size = ((const VmfbHeader *)p)->file_size;
	return 0;
}

/* Reads a module from a stream (a pipe, a FIFO, a device): its header
 * first, then no more than the size it declares, in memory that grows
 * only as bytes arrive. */
int
vmfb_read_fd(int fd, const char *name, uint8_t **pp, size_t *np, size_t *capp, char *err, size_t errn)
{
	size_t cap = 1 << 16, n = 0;
	uint64_t want = sizeof(VmfbHeader);
	int have_size = 0;
	uint8_t *p = mmap(NULL, cap, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return snprintf(err, errn, "out of memory"), -1;
	for (;;) {
		if (n == want && !have_size) {
			/* the header is in: it bounds the rest */
			if (vmfb_check_header(p, n, &want, err, errn))
				goto fail;
			have_size = 1;
			if (want <= n)
				break;   /* vmfb_check says what is wrong */
		}
		if (n == want)
			break;
		if (n == cap) {
			size_t ncap = cap * 2 < cap || cap * 2 > want ? (size_t)want : cap * 2;
			uint8_t *q = mremap(p, cap, ncap, MREMAP_MAYMOVE);
			if (q == MAP_FAILED) {
				snprintf(err, errn, "out of memory (the header says %llu bytes)",
				    (unsigned long long)want);
				goto fail;
			}
			p = q, cap = ncap;
		}
		size_t room = cap - n;
		if (room > want - n)
			room = (size_t)(want - n);
		ssize_t got = read(fd, p + n, room);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			snprintf(err, errn, "cannot read '%s': %s", name, strerror(errno));
			goto fail;
		}
		if (got == 0)
			break;   /* short: vmfb_check says truncated */
		n += (size_t)got;
	}
	if (have_size && n == want) {
		/* more after the declared end is an error, found without reading it all */
		uint8_t extra;
		ssize_t got;
		while ((got = read(fd, &extra, 1)) < 0 && errno == EINTR)
			;
		if (got > 0) {
			snprintf(err, errn, "corrupt module: more than the %llu bytes the header says",
			    (unsigned long long)want);
			goto fail;
		}
	}
	mprotect(p, cap, PROT_READ);
	*pp = p, *np = n, *capp = cap;
	return 0;
fail:
	munmap(p, cap);
	return -1;
}

int
vmfb_check(Vmfb *v, const void *p, size_t n, char *err, size_t errn)
{
	Chk k = {v, err, errn};

	memset(v, 0, sizeof *v);
	v->base = p;
	v->size = n;
	if (check_header(&k, p, n) || check_sections(&k) || load_tables(&k))
		return -1;
	if (v->target->target != TARGET_CPU && v->target->target != TARGET_CUDA)
		return bad(&k, "unknown target %u", v->target->target);
	if (v->target->reserved)
		return bad(&k, "target: reserved field is %u, not 0", v->target->reserved);
	if (str_ok(&k, v->target->cpu, "target", 0) || str_ok(&k, v->target->features, "target", 0))
		return -1;
	if (check_types(&k) || check_code(&k))
		return -1;
	if (!(k.gridused = calloc(v->ngrids + 1, 1)))
		return bad(&k, "out of memory");
	int rc = check_funcs(&k);
	for (size_t i = 0; i < v->ngrids && !rc; i++)
		if (!k.gridused[i])
			rc = bad(&k, "grid record %zu: no dispatch names it", i);
	free(k.gridused);
	if (rc || check_batch(&k) || check_length(&k))
		return -1;
	return 0;
}
