/*
 * params.c - vmpack --params=FILE: which constants leave the module, and
 * the safetensors file that holds them (formats/vmfb.md, "External
 * parameters").
 *
 * A FILE written by fx-export is a source only: a global whose value is
 * dense_resource<NAME> goes out when FILE's tensor NAME has the same
 * bytes; the others stay in the module.  Any other FILE (absent, or
 * written by vmpack before) is written anew with every global, each
 * tensor 64-byte aligned in the file so that the runtime uses it in place.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pack.h"
#include "rt/safetensors.h"
#include "rt/vmfb.h"
#include "tool.h"
#include "util.h"

static const char *const st_dtypes[DT_COUNT] = {
	[DT_F16] = "F16", [DT_BF16] = "BF16", [DT_F32] = "F32", [DT_F64] = "F64",
	[DT_BOOL] = "BOOL", [DT_I8] = "I8", [DT_I16] = "I16", [DT_I32] = "I32",
	[DT_I64] = "I64", [DT_U8] = "U8", [DT_U16] = "U16", [DT_U32] = "U32",
	[DT_U64] = "U64",
};

/* FILE's globals found by name and bytes. */
static void
from_source(const StFile *st, ParamGlobal *g, int n)
{
	for (int i = 0; i < n; i++) {
		const StTensor *t = g[i].resource ? st_find(st, g[i].resource) : NULL;
		if (t && t->end - t->begin == g[i].n && !memcmp(st->data + t->begin, g[i].p, g[i].n)) {
			g[i].key = g[i].resource;
			g[i].crc = crc32c(0, g[i].p, g[i].n);
		}
	}
}

static void
json_str(Buf *b, const char *s)
{
	buf_putc(b, '"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\') {
			buf_putc(b, '\\');
			buf_putc(b, (char)c);
		} else if (c < 0x20) {
			buf_printf(b, "\\u%04x", c);
		} else {
			buf_putc(b, (char)c);
		}
	}
	buf_putc(b, '"');
}

static void
json_entry(Buf *b, const char *key, const char *dtype, int rank, const int64_t *dims,
	uint64_t begin, uint64_t end)
{
	buf_putc(b, ',');
	json_str(b, key);
	buf_printf(b, ":{\"dtype\":\"%s\",\"shape\":[", dtype);
	for (int d = 0; d < rank; d++)
		buf_printf(b, "%s%lld", d ? "," : "", (long long)dims[d]);
	buf_printf(b, "],\"data_offsets\":[%llu,%llu]}", (unsigned long long)begin,
	    (unsigned long long)end);
}

/* Whether a tensor of g[0..n) already has the name key. */
static int
taken(const ParamGlobal *g, int n, const char *key)
{
	for (int k = 0; k < n; k++)
		if (g[k].key && !strcmp(g[k].key, key))
			return 1;
	return 0;
}

/* A name of its own for each global's tensor: its resource's, else its
 * symbol's; globals of the same bytes share one. */
static void
name_tensors(ParamGlobal *g, int n)
{
	for (int i = 0; i < n; i++) {
		int k;
		for (k = 0; k < i && !(g[k].p == g[i].p && g[k].n == g[i].n); k++)
			;
		if (k < i) {
			g[i].key = g[k].key;
			continue;
		}
		const char *key = g[i].resource && !taken(g, i, g[i].resource) ? g[i].resource : g[i].sym;
		char *alt = xstrdup(key);
		for (int j = 1; taken(g, i, alt); j++) {
			free(alt);
			alt = xmalloc(strlen(g[i].sym) + 24);
			sprintf(alt, "%s.%d", g[i].sym, j);
		}
		g[i].key = g[i].own = alt;
	}
}

/* The first global of g[i]'s tensor (globals of the same bytes share one). */
static int
first_of(const ParamGlobal *g, int i)
{
	for (int k = 0; k < i; k++)
		if (g[k].key == g[i].key)
			return k;
	return i;
}

/* Writes every global to path: a standard safetensors file whose tensors
 * start at multiples of 64 in the file (gaps are U8 tensors "__pad.N",
 * for the file to have no holes). */
static void
write_params(const char *path, ParamGlobal *g, int n)
{
	Buf h = {0};
	uint64_t at = 0, *off = xcalloc(n + 1, sizeof *off);
	int npad = 0;
	FILE *f;
	uint8_t len[8];
	static const uint8_t zero[VMFB_ALIGN];

	name_tensors(g, n);
	buf_put(&h, "{\"__metadata__\":{\"format\":\"pt\",\"producer\":\"vmpack\"}", 51);
	for (int i = 0; i < n; i++) {
		int k = first_of(g, i);
		if (k < i) {
			off[i] = off[k], g[i].crc = g[k].crc;
			continue;
		}
		uint64_t a = (at + VMFB_ALIGN - 1) & ~(uint64_t)(VMFB_ALIGN - 1);
		if (a > at) {
			char pad[32];
			int64_t gap = (int64_t)(a - at);
			snprintf(pad, sizeof pad, "__pad.%d", npad++);
			json_entry(&h, pad, "U8", 1, &gap, at, a);
		}
		const char *dt = g[i].dtype < DT_COUNT ? st_dtypes[g[i].dtype] : NULL;
		int64_t bytes = (int64_t)g[i].n;
		json_entry(&h, g[i].key, dt ? dt : "U8", dt ? g[i].rank : 1, dt ? g[i].dims : &bytes,
		    a, a + g[i].n);
		off[i] = a;
		at = a + g[i].n;
		g[i].crc = crc32c(0, g[i].p, g[i].n);
	}
	buf_putc(&h, '}');
	/* spaces after the JSON: the data starts at a multiple of 64 */
	while ((8 + h.n) % VMFB_ALIGN)
		buf_putc(&h, ' ');
	for (int i = 0; i < 8; i++)
		len[i] = (uint8_t)((uint64_t)h.n >> (8 * i));
	f = tool_open_out(path);
	fwrite(len, 1, 8, f);
	fwrite(h.p, 1, h.n, f);
	at = 0;
	for (int i = 0; i < n; i++) {
		if (first_of(g, i) < i)
			continue;
		while (at < off[i]) {
			size_t z = off[i] - at < sizeof zero ? off[i] - at : sizeof zero;
			fwrite(zero, 1, z, f);
			at += z;
		}
		fwrite(g[i].p, 1, g[i].n, f);
		at += g[i].n;
	}
	tool_commit(f);
	buf_free(&h);
	free(off);
}

void
params_place(const char *path, ParamGlobal *g, int n)
{
	struct stat sb;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 && errno != ENOENT)
		tool_fail("--params: cannot open '%s': %s", path, strerror(errno));
	if (fd >= 0) {
		StFile st;
		char err[400];
		void *p = NULL;
		int source;
		if (fstat(fd, &sb) || !S_ISREG(sb.st_mode))
			tool_fail("--params: '%s' is not a regular file", path);
		if (sb.st_size > 0 && (p = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0)) == MAP_FAILED)
			tool_fail("--params: cannot map '%s': %s", path, strerror(errno));
		close(fd);
		if (st_parse(&st, p, (size_t)sb.st_size, err, sizeof err))
			tool_fail("--params: '%s' exists and is not a safetensors file vmpack can use "
			    "(%s); remove it or name another", path, err);
		source = st.producer && !strcmp(st.producer, "fx-export");
		if (!source && !(st.producer && !strcmp(st.producer, "vmpack")))
			tool_fail("--params: '%s' exists and was written by neither vmpack nor fx-export; "
			    "remove it or name another", path);
		if (source)
			from_source(&st, g, n);
		st_free(&st);
		if (p)
			munmap(p, (size_t)sb.st_size);
		if (source)
			return;
	}
	write_params(path, g, n);
}
