/* tool.c - input, atomic output and error exits shared by the tools. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "ir.h"
#include "tool.h"

const char *tool_name = "fxpipe";

static char *outpath, *tmppath;
static FILE *outfile;

static void
verr(const char *fmt, va_list ap)
{
	fflush(stdout);
	fprintf(stderr, "%s: ", tool_name);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void
tool_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verr(fmt, ap);
	va_end(ap);
}

_Noreturn void
tool_fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verr(fmt, ap);
	va_end(ap);
	if (outfile)
		tool_abort(outfile);
	exit(1);
}

char *
tool_read(const char *path, size_t *len)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	size_t n = 0, cap = 1 << 16, got;
	char *p;

	if (!f)
		tool_fail("cannot open '%s': %s", path, strerror(errno));
	p = xmalloc(cap);
	while ((got = fread(p + n, 1, cap - n - 1, f)) > 0) {
		n += got;
		if (cap - n - 1 == 0) {
			cap = mulsz(cap, 2);
			p = xrealloc(p, cap);
		}
	}
	if (ferror(f))
		tool_fail("cannot read '%s': %s", path, strerror(errno));
	if (f != stdin)
		fclose(f);
	p[n] = 0;
	*len = n;
	return p;
}

FILE *
tool_open_out(const char *path)
{
	int fd;

	if (!path || !strcmp(path, "-"))
		return stdout;
	outpath = xstrdup(path);
	tmppath = xmalloc(strlen(path) + 16);
	sprintf(tmppath, "%s.tmpXXXXXX", path);
	fd = mkstemp(tmppath);
	if (fd >= 0) {
		mode_t um = umask(0);
		umask(um);
		fchmod(fd, 0666 & ~um);
	}
	if (fd < 0 || !(outfile = fdopen(fd, "wb")))
		tool_fail("cannot write '%s': %s", path, strerror(errno));
	return outfile;
}

void
tool_abort(FILE *f)
{
	if (f == outfile && outfile) {
		fclose(outfile);
		unlink(tmppath);
		outfile = NULL;
	}
}

void
tool_commit(FILE *f)
{
	if (fflush(f) != 0 || ferror(f)) {
		int e = errno;
		if (f == stdout)
			tool_fail("error writing output: %s", strerror(e));
		tool_fail("error writing '%s': %s", outpath, strerror(e));
	}
	if (f != outfile)
		return;
	if (fclose(f) != 0) {
		outfile = NULL;
		unlink(tmppath);
		tool_fail("error writing '%s': %s", outpath, strerror(errno));
	}
	outfile = NULL;
	if (rename(tmppath, outpath) != 0) {
		unlink(tmppath);
		tool_fail("cannot write '%s': %s", outpath, strerror(errno));
	}
}
