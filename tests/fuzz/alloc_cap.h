/* alloc_cap.h - for the vmrun targets: rt_alloc, wrapped at link time
 * (-Wl,--wrap=rt_alloc), fails for more than FUZZ_ALLOC_CAP bytes as if
 * memory had run out.  A shape like 100000x100000xf32 is valid and the
 * tools allocate it; the fuzzer should explore the readers, not the
 * machine's memory (libFuzzer reports any malloc over -malloc_limit_mb). */
#include <stddef.h>

#define FUZZ_ALLOC_CAP ((size_t)64 << 20)

void *__real_rt_alloc(size_t n);
void *__wrap_rt_alloc(size_t n);

void *
__wrap_rt_alloc(size_t n)
{
	return n > FUZZ_ALLOC_CAP ? NULL : __real_rt_alloc(n);
}
