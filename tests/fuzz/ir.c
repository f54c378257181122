/* ir.c - libFuzzer target: the IR text reader, as every tool reads its
 * input (torch-opt -p '' included): parse_module, verify, then the
 * printer; a module that verifies must print to text that reads back and
 * verifies again (torch-opt prints only what reads back).
 *
 * An input with a metadata section ("{-#") is read a second way too, as
 * the tools read a pipe: text_read_stream (lib/textin.c) takes the
 * dialect_resources blobs out while reading, in chunks of 1 to 16 bytes
 * (FX_TEST_READ_CHUNK, from the input's size), from an in-memory file.
 * Both ways must agree: both fail, or both print the same text.
 *
 * Like tool_read's, the buffer handed to the parser holds exactly the
 * input and a NUL. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ir.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Parses and verifies text; the printed module (malloc'd) or NULL. */
static char *
read_print(const char *text, size_t len, size_t *outlen)
{
	Ctx *c = ctx_new();
	char *out = NULL;
	Op *m;

	diag_errors = 0;
	m = parse_module(c, "<fuzz>", text, len);
	if (m && !diag_errors && verify(m) == 0) {
		FILE *f = open_memstream(&out, outlen);
		print_module(f, m, &(PrintOpts){0});
		fclose(f);
	}
	ctx_free(c);
	return out;
}

static void
differ(const char *what, const char *a, const char *b)
{
	fprintf(stderr, "fuzz-ir: %s\n--- first:\n%s\n--- second:\n%s\n", what,
	    a ? a : "(fails)", b ? b : "(fails)");
	abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	char *text = malloc(size + 1), *out, *again, *streamed, *sout;
	size_t outlen = 0, againlen = 0, slen = 0, soutlen = 0;

	memcpy(text, data, size);
	text[size] = 0;
	out = read_print(text, size, &outlen);
	if (out) {
		again = read_print(out, outlen, &againlen);
		if (!again)
			differ("the printed module does not read back", out, again);
		free(again);
	}
	/* a NUL in a stream is refused as it is read (tool_fail), in a file
	 * by the lexer: only inputs without one are read both ways */
	if (memmem(data, size, "{-#", 3) && !memchr(data, 0, size)) {
		char chunk[8];
		if (fd < 0 && (fd = memfd_create("fuzz.mlir", 0)) < 0)
			abort();
		if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size
		    || lseek(fd, 0, SEEK_SET) != 0)
			abort();
		snprintf(chunk, sizeof chunk, "%d", (int)(size % 16) + 1);
		setenv("FX_TEST_READ_CHUNK", chunk, 1);
		streamed = text_read_stream(fd, "<fuzz>", &slen);
		sout = read_print(streamed, slen, &soutlen);
		if (!out != !sout || (out && strcmp(out, sout)))
			differ("a file and a pipe read differently", out, sout);
		free(sout);
		free(streamed);
		text_release();
	}
	free(out);
	free(text);
	return 0;
}
