/* textin.c - libFuzzer target: vmrun's text tensors, the value of
 * --input= and --expected_output= (SHAPExTYPE=v,v,..., tools/vmrun/
 * tensor.c), then printed as vmrun prints a result.  The input is the
 * value; one naming a file (an '@' in it) is skipped: the files are the
 * npy target's. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../tools/vmrun/vmrun.h"
#include "alloc_cap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *null;
	char err[512], *spec;
	RtTensor t;

	if (memchr(data, '@', size) || memchr(data, 0, size))
		return 0;
	if (!null && !(null = fopen("/dev/null", "w")))
		abort();
	spec = malloc(size + 1);
	memcpy(spec, data, size);
	spec[size] = 0;
	if (tensor_parse(spec, &t, "input 0", err, sizeof err) == 0) {
		tensor_print(null, &t, 1024);
		rt_tensor_free(&t);
	}
	free(spec);
	return 0;
}
