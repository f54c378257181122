/* fxjson.c - libFuzzer target: fx-import's reader, the fxpipe-fx-json
 * document and the safetensors file beside it, imported into a torch
 * dialect module, verified (fx-import refuses one that does not), then printed.
 *
 * The input is the JSON text, a NUL byte, and the safetensors bytes (no
 * NUL: the JSON alone, no weights file).  fx-import is compiled in whole
 * (its main.c included here, its main renamed) and left as it is; two
 * functions are wrapped at link time (-Wl,--wrap=...):
 *   open       while importing, any path opens an in-memory file (memfd)
 *              holding the safetensors part, whatever the JSON names;
 *   tool_fail  fx-import's errors exit the process; while importing they
 *              jump back here instead.
 * An error leaves what the import had built to be freed (the context)
 * or, for the JSON values, leaked: fx-import turns LeakSanitizer off, and
 * so does this target (main.c's __lsan_is_turned_off). */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define main fx_import_main
#include "../../tools/fx-import/main.c"
#undef main

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int __real_open(const char *path, int flags, ...);
int __wrap_open(const char *path, int flags, ...);
_Noreturn void __real_tool_fail(const char *fmt, ...);
_Noreturn void __wrap_tool_fail(const char *fmt, ...);

static jmp_buf failed;
static int importing, wfd = -1;

int
__wrap_open(const char *path, int flags, ...)
{
	va_list ap;
	int mode = 0;

	if (importing)
		return dup(wfd);
	if (flags & (O_CREAT | O_TMPFILE)) {
		va_start(ap, flags);
		mode = va_arg(ap, int);
		va_end(ap);
	}
	return __real_open(path, flags, mode);
}

_Noreturn void
__wrap_tool_fail(const char *fmt, ...)
{
	va_list ap;

	if (importing)
		longjmp(failed, 1);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *null;
	static Imp im;
	const uint8_t *nul = memchr(data, 0, size);
	size_t jlen = nul ? (size_t)(nul - data) : size;
	size_t wlen = nul ? size - jlen - 1 : 0;
	json_error_t jerr;
	Op *module;

	if (wfd < 0 && ((wfd = memfd_create("fuzz.safetensors", 0)) < 0
	    || !(null = fopen("/dev/null", "w"))))
		abort();
	if (ftruncate(wfd, 0) || (wlen && pwrite(wfd, nul + 1, wlen, 0) != (ssize_t)wlen))
		abort();
	memset(&im, 0, sizeof im);
	if (!(im.root = json_loadb((const char *)data, jlen, 0, &jerr)))
		return 0;
	im.c = ctx_new();
	im.file = "fuzz/model.json";
	diag_errors = 0;
	importing = 1;
	if (!setjmp(failed)) {
		module = import_graph(&im);
		importing = 0;
		/* fx-import refuses a module that does not verify: the
		 * verifier is its check of the nodes' arguments against the
		 * ops' schemas (a None for a bool, a Device for a tensor) */
		if (verify(module) == 0)
			print_module(null, module, &(PrintOpts){0});
	}
	importing = 0;
	weights_close(&im);
	if (im.w.map && im.w.map != MAP_FAILED)
		munmap((void *)im.w.map, im.w.size);
	json_decref(im.byname);
	json_decref(im.root);
	ctx_free(im.c);
	return 0;
}
