/* fuzz.c - mutates every byte of a .vmfb's sections (one at a time, three
 * ways), recomputes the checksums so that the mutation reaches the checks
 * behind them, and loads the result with the runtime; with "invoke" it
 * also runs every function that loads on zero inputs.  It must never
 * crash: every mutation either loads or is rejected with a message.
 * Prints "N mutations: L loaded, R rejected".  Built by corrupt.bats
 * against the runtime library:  cc -Ilib fuzz.c BUILD/libfx.a
 * (only modules without kernels may be invoked: a mutated dispatch may
 * hand a kernel buffers it does not expect, which no runtime can check). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt/rt.h"
#include "rt/vmfb.h"

static void
refix(uint8_t *p, size_t n)
{
	VmfbHeader *h = (VmfbHeader *)p;
	VmfbSection *s;

	if (n < sizeof *h || h->table_offset > n || h->table_offset % 8
	    || (n - h->table_offset) / sizeof *s < h->nsections)
		return;
	s = (VmfbSection *)(p + h->table_offset);
	for (uint32_t i = 0; i < h->nsections; i++)
		if (s[i].offset <= n && s[i].size <= n - s[i].offset)
			s[i].crc = crc32c(0, p + s[i].offset, s[i].size);
	h->table_crc = crc32c(0, s, h->nsections * sizeof *s);
	h->header_crc = crc32c(0, h, offsetof(VmfbHeader, header_crc));
}

static void
invoke_all(RtModule *m)
{
	for (int i = 0; i < rt_function_count(m); i++) {
		RtFunction *f = rt_function_at(m, i);
		int nin = rt_function_nargs(f), nout = rt_function_nresults(f);
		RtTensor *in = calloc(nin + 1, sizeof *in), *out = calloc(nout + 1, sizeof *out);
		RtError e;
		int ok = 1;
		for (int j = 0; j < nin; j++) {
			rt_function_arg(f, j, &in[j]);
			if (in[j].nbytes > (1 << 20) || !(in[j].data = rt_alloc(in[j].nbytes)))
				ok = 0;
			else
				memset(in[j].data, 0, in[j].nbytes);
		}
		if (rt_function_arena(f) > (1 << 30))
			ok = 0;   /* a valid request, but slow to refuse under ASan */
		if (ok && rt_invoke(f, in, nin, out, nout, &e) == 0)
			for (int j = 0; j < nout; j++)
				rt_tensor_free(&out[j]);
		for (int j = 0; j < nin; j++)
			rt_tensor_free(&in[j]);
		free(in);
		free(out);
	}
}

int
main(int argc, char **argv)
{
	static const uint8_t xors[] = {0x01, 0x80, 0xff};
	FILE *f = argc > 1 ? fopen(argv[1], "rb") : NULL;
	int invoke = argc > 2 && !strcmp(argv[2], "invoke");
	uint8_t *orig, *p;
	size_t n, total = 0, loaded = 0;
	RtOptions o = {.threads = 1};
	RtError e;
	Vmfb v;
	char err[512];

	if (!f)
		return fprintf(stderr, "usage: fuzz FILE.vmfb [invoke]\n"), 2;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	orig = malloc(n);
	p = malloc(n);
	if (fread(orig, 1, n, f) != n)
		return 2;
	fclose(f);
	if (vmfb_check(&v, orig, n, err, sizeof err))
		return fprintf(stderr, "%s\n", err), 2;
	/* The header and table, then every section but the constants (whose
	 * bytes are data, not structure). */
	for (size_t at = 0; at < n; at++) {
		int in_consts = 0;
		for (uint32_t i = 0; i < v.nsec; i++)
			if (v.sec[i].kind == SEC_CONSTS && at >= v.sec[i].offset
			    && at < v.sec[i].offset + v.sec[i].size)
				in_consts = 1;
		if (in_consts)
			continue;
		for (size_t x = 0; x < sizeof xors; x++) {
			memcpy(p, orig, n);
			p[at] ^= xors[x];
			refix(p, n);
			RtModule *m = rt_load_memory(p, n, &o, &e);
			total++;
			if (m) {
				loaded++;
				if (invoke)
					invoke_all(m);
				rt_unload(m);
			} else if (!e.msg[0]) {
				return fprintf(stderr, "byte %zu: rejected without a message\n", at), 1;
			}
		}
	}
	printf("%zu mutations: %zu loaded, %zu rejected\n", total, loaded, total - loaded);
	free(orig);
	free(p);
	return 0;
}
