/* safetensors.c - libFuzzer target: the runtime's safetensors header
 * reader (lib/rt/safetensors.c, vmrun --parameters, vmpack --params).  The
 * input is a whole file: st_parse checks it; when it passes, every tensor
 * is found again by name and its first and last bytes are read, so that a
 * range the check let through outside the data faults here. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rt/safetensors.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* a copy of its own size: ASan sees a read past the end */
	uint8_t *p = malloc(size ? size : 1);
	char err[400];
	StFile f;
	volatile uint8_t sink = 0;

	if (!p)
		return 0;
	memcpy(p, data, size);
	if (st_parse(&f, p, size, err, sizeof err) == 0) {
		for (size_t i = 0; i < f.n; i++) {
			const StTensor *t = st_find(&f, f.t[i].name);
			if (t != &f.t[i] || !st_dtype_size(t->dtype) || t->end < t->begin || t->end > f.ndata)
				abort();
			if (t->end > t->begin)
				sink ^= f.data[t->begin] ^ f.data[t->end - 1];
		}
		st_free(&f);
	} else if (!err[0]) {
		abort();   /* every refusal says why */
	}
	(void)sink;
	free(p);
	return 0;
}
