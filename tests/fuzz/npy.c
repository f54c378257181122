/* npy.c - libFuzzer target: vmrun's .npy reader (tools/vmrun/npy.c).
 * The input is an .npy file, put in an in-memory file (memfd) since the
 * reader takes a path; it is read as --input=@FILE reads it
 * (tensor_parse), and what it held printed as vmrun prints a result. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../../tools/vmrun/vmrun.h"
#include "alloc_cap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *null;
	static int fd = -1;
	static char spec[64];
	char err[512];
	RtTensor t;

	if (fd < 0) {
		if ((fd = memfd_create("fuzz.npy", 0)) < 0 || !(null = fopen("/dev/null", "w")))
			abort();
		snprintf(spec, sizeof spec, "@/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();
	if (tensor_parse(spec, &t, "input 0", err, sizeof err) == 0) {
		tensor_print(null, &t, 1024);
		rt_tensor_free(&t);
	}
	return 0;
}
