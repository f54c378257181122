/*
 * trace.c - vmrun --trace=FILE: the runs as a Chrome trace-event file
 * (the JSON that Perfetto and chrome://tracing read).  Track 0 is the
 * host program, one event per instruction per run; tracks 1..N are the
 * pool's threads, one event per dispatch each ran workgroups of.  Events
 * are kept in memory while the function runs and written once at the end,
 * through a temporary renamed into place (tool_open_out).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tool.h"
#include "util.h"
#include "vmrun.h"

struct Trace {
	FILE *f;
	RtFunction *fn;
	double origin;          /* seconds: ts 0 */
	int run;
	Buf ev;                 /* the events so far, each ",\n{...}" */
	uint32_t ninsts;
	RtInstInfo *info;       /* per instruction */
};

/* s as a JSON string's contents */
static void
put_str(Trace *t, const char *s)
{
	for (; *s; s++) {
		unsigned char c = *s;
		if (c == '"' || c == '\\')
			buf_printf(&t->ev, "\\%c", c);
		else if (c < 0x20)
			buf_printf(&t->ev, "\\u%04x", c);
		else
			buf_putc(&t->ev, c);
	}
}

static double
us(const Trace *t, double s)
{
	return (s - t->origin) * 1e6;
}

static void
event(Trace *t, const char *name, const char *cat, int tid, const RtSpan *s)
{
	buf_printf(&t->ev, ",\n{\"ph\":\"X\",\"pid\":1,\"tid\":%d,\"name\":\"", tid);
	put_str(t, name);
	buf_printf(&t->ev, "\",\"cat\":\"%s\",\"ts\":%.3f,\"dur\":%.3f", cat, us(t, s->t0), (s->t1 - s->t0) * 1e6);
}

static void
on_inst(void *ctx, uint32_t i, const RtSpan *host, const RtSpan *th, int nth, const uint32_t *grid)
{
	static const char *const cats[] = {"", "dispatch", "copy", "fill"};
	Trace *t = ctx;
	const RtInstInfo *in = &t->info[i];
	const char *name = in->op == 1 ? in->kernel : cats[in->op];

	event(t, name, cats[in->op], 0, host);
	buf_printf(&t->ev, ",\"args\":{\"run\":%d,\"instruction\":%u,\"bytes\":%llu", t->run, i,
	    (unsigned long long)in->bytes);
	if (in->op == 1) {
		buf_printf(&t->ev, ",\"flops\":%llu,\"grid\":[%u,%u,%u],\"source\":\"", (unsigned long long)in->flops,
		    grid[0], grid[1], grid[2]);
		put_str(t, in->source);
		buf_putc(&t->ev, '"');
	}
	buf_puts(&t->ev, "}}");
	for (int k = 0; th && k < nth; k++)
		if (th[k].t0 >= 0) {
			event(t, name, "workgroups", k + 1, &th[k]);
			buf_printf(&t->ev, ",\"args\":{\"run\":%d,\"instruction\":%u}}", t->run, i);
		}
}

Trace *
trace_open(const char *path)
{
	Trace *t = calloc(1, sizeof *t);
	struct stat st;

	if (!t)
		tool_fail("out of memory");
	if (!*path || !strcmp(path, "-"))
		tool_fail("--trace: needs a file name");
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		tool_fail("--trace: cannot write '%s': %s", path, strerror(EISDIR));
	t->f = tool_open_out(path);
	return t;
}

void
trace_start(Trace *t, RtFunction *f)
{
	RtError e;

	t->fn = f;
	t->ninsts = rt_function_ninsts(f);
	if (!(t->info = calloc(t->ninsts + 1, sizeof *t->info)))
		tool_fail("out of memory");
	for (uint32_t i = 0; i < t->ninsts; i++)
		rt_inst_info(f, i, &t->info[i]);
	if (rt_trace(f, on_inst, t, &e))
		tool_fail("--trace: %s", e.msg);
	t->origin = tool_now();
}

/* After each invocation, with its span. */
void
trace_run(Trace *t, double t0, double t1)
{
	char name[300];

	snprintf(name, sizeof name, "@%s run %d", rt_function_name(t->fn), t->run);
	event(t, name, "run", 0, &(RtSpan){t0, t1});
	buf_printf(&t->ev, ",\"args\":{\"run\":%d}}", t->run);
	t->run++;
}

void
trace_close(Trace *t, int threads)
{
	FILE *f = t->f;

	fputs("{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n", f);
	fputs("{\"ph\":\"M\",\"pid\":1,\"name\":\"process_name\",\"args\":{\"name\":\"vmrun\"}},\n", f);
	fputs("{\"ph\":\"M\",\"pid\":1,\"tid\":0,\"name\":\"thread_name\",\"args\":{\"name\":\"host program\"}}", f);
	for (int k = 0; k < threads; k++)
		fprintf(f, ",\n{\"ph\":\"M\",\"pid\":1,\"tid\":%d,\"name\":\"thread_name\","
		    "\"args\":{\"name\":\"pool thread %d%s\"}}", k + 1, k, k ? "" : " (the caller)");
	fwrite(t->ev.p, 1, t->ev.n, f);
	fputs("\n]}\n", f);
	tool_commit(f);
	rt_trace(t->fn, NULL, NULL, &(RtError){0});
	buf_free(&t->ev);
	free(t->info);
	free(t);
}
