/* tool.c - input, atomic output and error exits shared by the tools. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "ir.h"
#include "tool.h"

const char *tool_name = "fxpipe";

const char *
tool_optval(int argc, char **argv, int *i, const char *name)
{
	size_t n = strlen(name);
	const char *a = argv[*i];

	if (strncmp(a, name, n))
		return NULL;
	if (a[n] == '=')
		return a + n + 1;
	if (a[n] == 0) {
		if (*i + 1 >= argc)
			tool_fail("option '%s' needs a value", name);
		return argv[++*i];
	}
	return NULL;
}

static char *outpath, *tmppath;
static FILE *outfile;
/* The temporary a signal handler removes: set while it exists. */
static char *volatile sig_tmppath;
static const int fatal_signals[] = {SIGINT, SIGTERM, SIGHUP};

/* SIGINT, SIGTERM or SIGHUP while -o FILE is being written: the temporary
 * is removed (unlink is async-signal-safe), then the signal kills us as
 * it would have, for the caller to see how we ended. */
static void
on_fatal_signal(int sig)
{
	char *p = sig_tmppath;

	if (p)
		unlink(p);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void
block_signals(sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	for (size_t i = 0; i < sizeof fatal_signals / sizeof *fatal_signals; i++)
		sigaddset(&set, fatal_signals[i]);
	sigprocmask(SIG_BLOCK, &set, old);
}

/* The temporary is gone (renamed or removed): nothing for a handler to do. */
static void
forget_tmp(void)
{
	sig_tmppath = NULL;
}

static void
watch_tmp(char *path)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_fatal_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof fatal_signals / sizeof *fatal_signals; i++)
		sigaddset(&sa.sa_mask, fatal_signals[i]);
	for (size_t i = 0; i < sizeof fatal_signals / sizeof *fatal_signals; i++) {
		struct sigaction old;
		/* a signal ignored from the start (nohup) stays ignored */
		if (sigaction(fatal_signals[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue;
		sigaction(fatal_signals[i], &sa, NULL);
	}
	sig_tmppath = path;
}

/* "TOOL: error: message", the one form every tool's errors take for
 * scripts to grep; a message that names its own FILE:LINE:COL: error:
 * keeps that form. */
static void
verr(const char *fmt, va_list ap)
{
	fflush(stdout);
	if (strstr(fmt, "error: ") && strncmp(fmt, "internal error: ", 16))
		fprintf(stderr, "%s: ", tool_name);
	else
		fprintf(stderr, "%s: error: ", tool_name);
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

/* Reads all of fd into a malloc'd buffer, sized by fstat for a regular
 * file (one allocation, no copies), grown by doubling for a pipe (large
 * blocks are mremap'd by glibc's realloc, not copied). */
static char *
read_fd(int fd, const char *path, size_t *len)
{
	struct stat st;
	size_t n = 0, cap = 1 << 20;
	ssize_t got;
	char *p;

	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
		cap = (size_t)st.st_size + 1;
	p = xmalloc(cap);
	for (;;) {
		char probe[4096];
		int full = cap - n - 1 == 0;

		/* a full buffer grows only if there is more to come */
		got = read(fd, full ? probe : p + n, full ? sizeof probe : cap - n - 1);
		if (got > 0 && full) {
			cap = mulsz(cap, 2);
			p = xrealloc(p, cap);
			memcpy(p + n, probe, (size_t)got);
		}
		if (got > 0) {
			/* text has no NUL: /dev/zero is refused at once, not
			 * read until memory runs out */
			const char *nul = memchr(p + n, 0, (size_t)got);

			if (nul)
				tool_fail("%s: a NUL byte at offset %zu: not a text file",
					path, n + (size_t)(nul - (p + n)));
			n += (size_t)got;
		} else if (got == 0)
			break;
		else if (errno != EINTR)
			tool_fail("cannot read '%s': %s", path, strerror(errno));
	}
	p[n] = 0;
	*len = n;
	return p;
}

/* A pipe between two tools carries hundreds of MB: the bigger its buffer,
 * the fewer the wakeups.  Best effort. */
static void
pipe_grow(int fd)
{
	static int max;
	struct stat st;

	if (fstat(fd, &st) != 0 || !S_ISFIFO(st.st_mode))
		return;
	if (!max) {
		FILE *f = fopen("/proc/sys/fs/pipe-max-size", "r");

		if (!f || fscanf(f, "%d", &max) != 1 || max <= 0)
			max = 1 << 20;
		if (f)
			fclose(f);
	}
	if (fcntl(fd, F_GETPIPE_SZ) < max)
		fcntl(fd, F_SETPIPE_SZ, max);
}

static int
open_in(const char *path)
{
	int fd = strcmp(path, "-") ? open(path, O_RDONLY) : 0;

	if (fd < 0)
		tool_fail("cannot open '%s': %s", path, strerror(errno));
	if (fd == 0)
		pipe_grow(fd);
	return fd;
}

char *
tool_read(const char *path, size_t *len)
{
	int fd = open_in(path);
	char *p = read_fd(fd, path, len);

	if (fd != 0)
		close(fd);
	tool_repro_input(path, p, *len);
	return p;
}

/* The one mapping tool_map has made, for tool_unmap to tell it apart;
 * and the one text it read as a stream. */
static const char *mapped;
static char *streamed;
static size_t mapped_len;

const char *
tool_map(const char *path, size_t *len)
{
	int fd = open_in(path);
	long page = sysconf(_SC_PAGESIZE);
	struct stat st;
	char *p;

	/* a regular file whose last page has room for the NUL (the kernel
	 * zeroes what follows the end); anything else is read */
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
		if (!mapped && st.st_size > 0 && page > 0 && st.st_size % page != 0) {
			p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE | MAP_POPULATE,
				fd, 0);
			if (p != MAP_FAILED) {
				if (fd != 0)
					close(fd);
				mapped = p;
				mapped_len = *len = (size_t)st.st_size;
				tool_repro_input(path, p, *len);
				return p;
			}
		}
		p = read_fd(fd, path, len);
	} else if (!streamed) {
		/* a pipe: its blobs are decoded as they come (textin.c) */
		p = streamed = text_read_stream(fd, path, len);
	} else {
		p = read_fd(fd, path, len);
	}
	if (fd != 0)
		close(fd);
	tool_repro_input(path, p, *len);
	return p;
}

void
tool_unmap(const char *text)
{
	if (tool_repro_holds(text))
		return;   /* a failing exit may still save it; exit frees it */
	if (text && text == mapped) {
		munmap((void *)mapped, mapped_len);
		mapped = NULL;
		return;
	}
	if (text && text == streamed) {
		text_release();
		streamed = NULL;
	}
	free((void *)text);
}

/* Once all is written, the reader of a pipe sees its end at once, not
 * only when this process has freed its memory and exited: the pipe is
 * swapped for /dev/null, for fd 1 to stay open. */
static void
close_stdout(void)
{
	struct stat st;
	int fd;

	if (fstat(1, &st) != 0 || !S_ISFIFO(st.st_mode))
		return;
	fd = open("/dev/null", O_WRONLY);
	if (fd >= 0 && fd != 1) {
		dup2(fd, 1);
		close(fd);
	}
}

FILE *
tool_open_out(const char *path)
{
	int fd;
	struct stat st;
	sigset_t old;

	if (!path || !strcmp(path, "-")) {
		pipe_grow(1);
		return stdout;
	}
	/* a second output (vmpack --params) after the first was committed:
	 * the first's names are done with */
	free(outpath);
	free(tmppath);
	outpath = tmppath = NULL;
	/* a device or a FIFO (-o /dev/null) is written in place: renaming a
	 * temporary over it would replace it with a regular file */
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
		if (!(outfile = fopen(path, "wb")))
			tool_fail("cannot write '%s': %s", path, strerror(errno));
		outpath = xstrdup(path);
		return outfile;
	}
	outpath = xstrdup(path);
	tmppath = xmalloc(strlen(path) + 16);
	sprintf(tmppath, "%s.tmpXXXXXX", path);
	/* a signal between mkstemp and watch_tmp would leave the temporary
	 * behind: it waits until the handler knows the path */
	block_signals(&old);
	fd = mkstemp(tmppath);
	if (fd >= 0) {
		mode_t um = umask(0);
		umask(um);
		fchmod(fd, 0666 & ~um);
	}
	if (fd >= 0)
		watch_tmp(tmppath);
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (fd < 0 || !(outfile = fdopen(fd, "wb")))
		tool_fail("cannot write '%s': %s", path, strerror(errno));
	return outfile;
}

void
tool_abort(FILE *f)
{
	if (f == outfile && outfile) {
		sigset_t old;

		fclose(outfile);
		block_signals(&old);
		if (tmppath)
			unlink(tmppath);
		forget_tmp();
		sigprocmask(SIG_SETMASK, &old, NULL);
		outfile = NULL;
	}
}

void
tool_drop_tmp(void)
{
	char *p = sig_tmppath;

	if (p)
		unlink(p);
}

void
tool_commit(FILE *f)
{
	sigset_t old;

	if (fflush(f) != 0 || ferror(f)) {
		int e = errno;
		if (f == stdout)
			tool_fail("error writing output: %s", strerror(e));
		tool_fail("error writing '%s': %s", outpath, strerror(e));
	}
	if (f == stdout)
		close_stdout();
	if (f != outfile)
		return;
	if (fclose(f) != 0) {
		int e = errno;
		outfile = NULL;
		block_signals(&old);
		if (tmppath)
			unlink(tmppath);
		forget_tmp();
		sigprocmask(SIG_SETMASK, &old, NULL);
		tool_fail("error writing '%s': %s", outpath, strerror(e));
	}
	outfile = NULL;
	/* no signal between the rename and forgetting the temporary */
	block_signals(&old);
	if (tmppath && rename(tmppath, outpath) != 0) {
		int e = errno;
		unlink(tmppath);
		forget_tmp();
		sigprocmask(SIG_SETMASK, &old, NULL);
		tool_fail("cannot write '%s': %s", outpath, strerror(e));
	}
	forget_tmp();
	sigprocmask(SIG_SETMASK, &old, NULL);
}

int
tool_split_input(const char *text, size_t len, ToolChunkFn fn, void *env, const char *path)
{
	const char *p = text, *end = text + len, *chunk = text;
	size_t line = 0, line0 = 0, olen = 0;
	int failed = 0, first = 1;
	char *obuf = NULL;
	FILE *out = open_memstream(&obuf, &olen);

	for (;;) {
		const char *eol = p < end ? memchr(p, '\n', end - p) : NULL;
		const char *next = eol ? eol + 1 : end;
		int sep = end - p >= 8 && !strncmp(p, "// -----", 8);
		if (sep || p >= end) {
			size_t n = p - chunk;
			char *buf = xmalloc(line0 + n + 1);
			memset(buf, '\n', line0);
			memcpy(buf + line0, chunk, n);
			buf[line0 + n] = 0;
			if (!first)
				fputs("// -----\n", out);
			first = 0;
			if (fn(env, buf, line0 + n, out) != 0)
				failed = 1;
			free(buf);
			if (p >= end)
				break;
			chunk = next;
			line0 = line + 1;
		}
		line++;
		p = next;
	}
	fclose(out);
	/* a failing chunk's place stays empty; -o FILE appears only when
	 * the whole run succeeded */
	if (!failed || !path || !strcmp(path, "-")) {
		out = tool_open_out(path);
		fwrite(obuf, 1, olen, out);
		tool_commit(out);
	}
	free(obuf);
	return failed ? -1 : 0;
}

char *
tool_long_option(char *a)
{
	size_t n;
	char *s;

	if (a[0] != '-' || !a[1])
		return a;
	if (a[1] != '-') {
		n = strcspn(a + 1, "={");
		if (n < 2)
			return a;
		s = xmalloc(strlen(a) + 2);
		s[0] = '-';
		strcpy(s + 1, a);
		a = s;
	}
	if (!strncmp(a, "--mlir-print-ir-", 16))
		memmove(a + 2, a + 7, strlen(a + 7) + 1);
	return a;
}

int
tool_debuginfo(int asked, const char *output)
{
	if (asked)
		return asked > 0;
	if (output && strcmp(output, "-"))
		return DEBUGINFO_CARRY;
	return isatty(1) ? 0 : DEBUGINFO_CARRY;
}

double
tool_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}
