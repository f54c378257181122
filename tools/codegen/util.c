/*
 * util.c - --timing: the wall time of each phase of codegen, on stderr
 * (and, with --trace, as a trace event each).  Any stage may mark the end
 * of a phase; only main starts the clock.
 */
#include <stdio.h>
#include <time.h>

#include "gen.h"
#include "tool.h"

static double t_start, t_last;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

void phase_start(void)
{
	t_start = t_last = now();
}

void phase_done(Gen *g, const char *name)
{
	double t = now();

	if (g->o->timing)
		fprintf(stderr, "  %8.4f s  %s\n", t - t_last, name);
	ctrace_span(name, "phase", t_last, t);
	t_last = t;
}

double phase_total(void)
{
	return now() - t_start;
}
