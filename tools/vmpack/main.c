/*
 * vmpack - packs codegen's fxvm module (formats/fxvm.md) into one binary
 * .vmfb (formats/vmfb.md) for vmrun; --dump prints a .vmfb's contents.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ir.h"
#include "pack.h"
#include "tool.h"
#include "rt/vmfb.h"

static const char usage[] =
"usage: vmpack [FILE|-] -o OUT.vmfb    pack an fxvm module (codegen's output)\n"
"       vmpack --dump FILE.vmfb|-     print a module's contents\n"
"  -o FILE    write to FILE, atomically (nothing is left behind on error);\n"
"             without -o the module goes to stdout, if that is not a terminal\n"
"  --params=FILE  keep the constants out of the module, in the safetensors\n"
"             file FILE (written; or, if fx-export wrote it, found in it);\n"
"             run the module with vmrun --parameters=FILE\n"
"  --dump     check a .vmfb and print its target, sections, functions with\n"
"             their signatures and host programs, kernels and constants\n"
"  --reproducer=FILE  on failure, save the input to FILE and print the\n"
"             command that replays it\n";

/* Whether --dump's input is a regular file (mapped and read whole). */
static int
dump_regular(const char *in)
{
	struct stat st;

	return strcmp(in, "-") ? stat(in, &st) == 0 && S_ISREG(st.st_mode)
	    : fstat(0, &st) == 0 && S_ISREG(st.st_mode);
}

/* --dump of a pipe, FIFO or device: read no more than the header says. */
static int
dump_stream(const char *in, const char *name)
{
	int fd = strcmp(in, "-") ? open(in, O_RDONLY | O_CLOEXEC) : 0;
	char err[512];
	uint8_t *p;
	size_t n, cap;

	if (fd < 0)
		tool_fail("cannot open '%s': %s", in, strerror(errno));
	if (vmfb_read_fd(fd, name, &p, &n, &cap, err, sizeof err))
		tool_fail("%s%s%s", strncmp(err, "cannot read", 11) ? name : "",
		    strncmp(err, "cannot read", 11) ? ": " : "", err);
	if (n == 0)
		tool_fail("%s: empty module (0 bytes)", name);
	if (dump_module(stdout, name, p, n, err, sizeof err))
		tool_fail("%s: %s", name, err);
	munmap(p, cap);
	tool_commit(stdout);
	return 0;
}

int
main(int argc, char **argv)
{
	const char *in = NULL, *out = NULL, *params = NULL;
	int dump = 0;
	size_t len;
	const char *text;

	tool_name = "vmpack";
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs(usage, stdout);
			return 0;
		} else if (!strcmp(a, "-o")) {
			if (++i >= argc)
				tool_fail("option '-o' needs a value");
			out = argv[i];
		} else if (!strncmp(a, "-o", 2) && a[2]) {
			out = a + 2;
		} else if (!strncmp(a, "--output=", 9)) {
			out = a + 9;
		} else if (!strncmp(a, "--params=", 9)) {
			if (!a[9])
				tool_fail("--params: no file given");
			params = a + 9;
		} else if (!strcmp(a, "--dump")) {
			dump = 1;
		} else if (!strncmp(a, "--reproducer=", 13)) {
			tool_repro_file(a + 13);
		} else if (a[0] == '-' && a[1]) {
			tool_fail("unknown option '%s' (see --help)", a);
		} else if (in) {
			tool_fail("more than one input file");
		} else {
			in = a;
		}
	}
	if (!in)
		in = "-";
	if (!dump)
		tool_repro_init(argc, argv, ".mlir");
	const char *name = strcmp(in, "-") ? in : "<stdin>";
	if (dump && !dump_regular(in))
		return dump_stream(in, name);
	if (dump) {
		/* read whole as bytes (tool_map reads text: it refuses a NUL
		 * where the file's size is a multiple of the page's) */
		char err[512];
		void *p = NULL;
		struct stat st;
		int fd = open(in, O_RDONLY | O_CLOEXEC);
		if (fd < 0 || fstat(fd, &st))
			tool_fail("cannot open '%s': %s", in, strerror(errno));
		len = (size_t)st.st_size;
		if (posix_memalign(&p, 64, len ? len : 1))
			tool_fail("out of memory");
		for (size_t got = 0; got < len;) {
			ssize_t r = read(fd, (char *)p + got, len - got);
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0)
				tool_fail("cannot read '%s': %s", in, r ? strerror(errno) : "it got shorter");
			got += (size_t)r;
		}
		close(fd);
		if (dump_module(stdout, name, p, len, err, sizeof err))
			tool_fail("%s: %s", name, err);
		free(p);
		tool_commit(stdout);
		return 0;
	}
	text = tool_map(in, &len);
	if (len == 0)
		tool_fail("%s: empty input (expected an fxvm module from codegen)", name);
	if (!out && isatty(1))
		tool_fail("refusing to write a binary module to a terminal (use -o FILE)");
	Ctx *c = ctx_new();
	diag_fallback_file = name;
	Op *m = parse_module(c, name, text, len);
	int rc = !m || diag_errors || verify(m) != 0 || pack_module(c, m, out, params);
	ctx_free(c);
	tool_unmap(text);
	return rc;
}
