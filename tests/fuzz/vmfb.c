/* vmfb.c - libFuzzer target: the .vmfb readers.  The input is a module
 * file.  Its checksums are set right first (else nearly every mutation
 * stops at the first crc32c): each section's that lies inside the input,
 * the section table's and the header's.  Then vmpack --dump's reader and
 * printer (tools/vmpack/dump.c: vmfb_check, then every record printed),
 * then the runtime's loader (rt_load_memory: the check again, the ELF
 * loader linking each kernel object in process, the decoding of every
 * function's program) with one thread, the function signatures read,
 * and rt_unload.  No kernel runs. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt/rt.h"
#include "rt/vmfb.h"
#include "../../tools/vmpack/pack.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
fix_checksums(uint8_t *p, size_t n)
{
	VmfbHeader h;
	VmfbSection s;

	if (n < sizeof h)
		return;
	memcpy(&h, p, sizeof h);
	if (h.entry_size == sizeof s && h.table_offset <= n
	    && h.nsections <= (n - h.table_offset) / sizeof s) {
		for (uint32_t i = 0; i < h.nsections; i++) {
			uint8_t *e = p + h.table_offset + i * sizeof s;
			memcpy(&s, e, sizeof s);
			if (s.offset <= n && s.size <= n - s.offset) {
				s.crc = crc32c(0, p + s.offset, s.size);
				memcpy(e, &s, sizeof s);
			}
		}
		h.table_crc = crc32c(0, p + h.table_offset, (size_t)h.nsections * sizeof s);
	}
	h.header_crc = crc32c(0, &h, offsetof(VmfbHeader, header_crc));
	memcpy(p, &h, sizeof h);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *null;
	uint8_t *p;
	char err[400];
	RtError e;
	RtModule *m;

	if (!null && !(null = fopen("/dev/null", "w")))
		abort();
	/* the checker wants its bytes 64-byte aligned, as a mapping is;
	 * exactly size of them, for reads past the end to be caught */
	if (posix_memalign((void **)&p, 64, size ? size : 1))
		abort();
	memcpy(p, data, size);
	fix_checksums(p, size);
	dump_module(null, "<fuzz>", p, size, err, sizeof err);
	if ((m = rt_load_memory(p, size, &(RtOptions){.threads = 1, .device = RT_DEVICE_CPU}, &e))) {
		for (int i = 0; i < rt_function_count(m); i++) {
			RtFunction *f = rt_function_at(m, i);
			RtTensor t;
			for (int j = 0; j < rt_function_nargs(f); j++)
				rt_function_arg(f, j, &t);
			for (int j = 0; j < rt_function_nresults(f); j++)
				rt_function_result(f, j, &t);
			(void)rt_function_name(f);
		}
		rt_unload(m);
	}
	free(p);
	return 0;
}
