/* ir.c - libFuzzer target: the IR text reader, as every tool reads its
 * input (torch-opt -p '' included): parse_module, verify, then the
 * printer; a module that verifies must print to text that reads back and
 * verifies again (torch-opt prints only what reads back).
 *
 * The input is the text itself; like tool_read's, the buffer handed to
 * the parser holds exactly the input and a NUL. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static Op *
read_module(Ctx *c, const char *text, size_t len)
{
	Op *m;

	diag_errors = 0;
	m = parse_module(c, "<fuzz>", text, len);
	if (!m || diag_errors || verify(m) != 0)
		return NULL;
	return m;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), *out = NULL;
	size_t outlen = 0;
	Ctx *c = ctx_new();
	Op *m;

	memcpy(text, data, size);
	text[size] = 0;
	if ((m = read_module(c, text, size))) {
		FILE *f = open_memstream(&out, &outlen);
		PrintOpts po = {0};
		print_module(f, m, &po);
		fclose(f);
		Ctx *c2 = ctx_new();
		if (!read_module(c2, out, outlen)) {
			fprintf(stderr, "fuzz-ir: the printed module does not read back:\n%s\n", out);
			abort();
		}
		ctx_free(c2);
		free(out);
	}
	ctx_free(c);
	free(text);
	return 0;
}
