/*
 * ctrace.c - --trace=FILE of the compile stages: their passes and phases
 * as Chrome trace events (the JSON that Perfetto and chrome://tracing
 * read), so that a whole pipe or make of a model shows on one timeline.
 *
 * Several stages of one pipe run at once and may name the same file, so
 * it is the JSON Array Format, appended to: the first writer creates it
 * holding "[\n" (written to a temporary and linked into place, so no one
 * appends before the bracket), then every event is one line, an object
 * and a comma, written by one write() on an O_APPEND descriptor, which
 * POSIX keeps whole among concurrent appenders.  The array is never
 * closed; the trace viewers accept it so.  pid is the process's, ts the
 * monotonic clock in microseconds, which all processes of one machine
 * share.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tool.h"
#include "util.h"

static int fd = -1;
static double t_open;

/* Creates path holding "[\n" unless it exists. */
static void
create(const char *path)
{
	Buf tmp = {0};
	int t;

	buf_printf(&tmp, "%s.%ld.tmp", path, (long)getpid());
	buf_putc(&tmp, 0);
	if ((t = open(tmp.p, O_WRONLY | O_CREAT | O_EXCL, 0666)) < 0)
		tool_fail("--trace: cannot write '%s': %s", tmp.p, strerror(errno));
	if (write(t, "[\n", 2) != 2 || close(t) != 0) {
		unlink(tmp.p);
		tool_fail("--trace: cannot write '%s': %s", tmp.p, strerror(errno));
	}
	if (link(tmp.p, path) != 0 && errno != EEXIST) {
		int e = errno;
		unlink(tmp.p);
		tool_fail("--trace: cannot write '%s': %s", path, strerror(e));
	}
	unlink(tmp.p);
	buf_free(&tmp);
}

/* One event, one write. */
static void
put(Buf *b)
{
	buf_puts(b, "},\n");
	if (write(fd, b->p, b->n) != (ssize_t)b->n)
		tool_err("--trace: cannot write: %s", strerror(errno));
	buf_free(b);
}

static void
put_str(Buf *b, const char *s)
{
	buf_putc(b, '"');
	for (; *s; s++) {
		unsigned char c = *s;
		if (c == '"' || c == '\\')
			buf_printf(b, "\\%c", c);
		else if (c < 0x20)
			buf_printf(b, "\\u%04x", c);
		else
			buf_putc(b, c);
	}
	buf_putc(b, '"');
}

/* The whole run of the tool, around its passes and phases. */
static void
at_exit(void)
{
	ctrace_span(tool_name, "tool", t_open, tool_now());
}

void
ctrace_open(const char *path)
{
	Buf b = {0};

	if (!*path || !strcmp(path, "-"))
		tool_fail("--trace: needs a file name");
	if (fd >= 0)
		return;
	create(path);
	if ((fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC)) < 0)
		tool_fail("--trace: cannot write '%s': %s", path, strerror(errno));
	buf_printf(&b, "{\"ph\":\"M\",\"pid\":%ld,\"tid\":%ld,\"name\":\"process_name\",\"args\":{\"name\":",
	    (long)getpid(), (long)getpid());
	put_str(&b, tool_name);
	buf_putc(&b, '}');
	put(&b);
	t_open = tool_now();
	atexit(at_exit);
}

void
ctrace_span(const char *name, const char *cat, double t0, double t1)
{
	Buf b = {0};

	if (fd < 0)
		return;
	buf_printf(&b, "{\"ph\":\"X\",\"pid\":%ld,\"tid\":%ld,\"name\":", (long)getpid(), (long)getpid());
	put_str(&b, name);
	buf_puts(&b, ",\"cat\":");
	put_str(&b, cat);
	buf_printf(&b, ",\"ts\":%.3f,\"dur\":%.3f", t0 * 1e6, (t1 - t0) * 1e6);
	put(&b);
}
