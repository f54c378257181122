/*
 * vmrun - runs a function of a .vmfb module (vmpack's output), like
 * iree-run-module; --benchmark=N times it like iree-benchmark-module.
 * A thin shell over the runtime library (lib/rt/rt.h).
 */
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "tool.h"
#include "vmrun.h"

typedef struct Opts {
	const char *module, *function, *params;
	const char **inputs, **outputs, **expected;
	int ninputs, noutputs, nexpected;
	int threads, benchmark, stats, profile;
	long long print_max;
	double rtol, atol;
	const char *rtol_s, *atol_s;    /* as given, for messages */
	const char *trace;
	RtDevice device;
} Opts;

static const char usage[] =
"usage: vmrun [options] MODULE.vmfb|-\n"
"  --function=NAME          the function to run (default: main, or the only one)\n"
"  --input=SPEC             an argument, in order: 2x3xf32=1,2,3,4,5,6 (one value\n"
"                           is a splat, none are zeros), @x.npy, or raw bytes as\n"
"                           2x3xbf16=@x.bin\n"
"  --output=DEST            where the next result goes: @y.npy (.npy), @y.bin\n"
"                           (raw), - (printed); results without one are printed\n"
"  --expected_output=SPEC   compare the next result (floats: |got - want| <=\n"
"                           atol + rtol |want|, others exactly); '(ignored)'\n"
"                           skips it\n"
"  --rtol=X, --atol=Y       the tolerances of float results (by dtype: 1e-3\n"
"                           and 1e-7; f16 2e-3, bf16 1.6e-2 and 1e-5)\n"
"  --threads=N              worker threads (default: one per core; 1 runs inline)\n"
"  --device=cpu|cuda        the device (default: the module's target)\n"
"  --parameters=FILE        the safetensors file of a module packed with\n"
"                           vmpack --params (mapped read-only)\n"
"  --benchmark=N            run N times after a warm-up run; print latencies\n"
"  --stats                  print memory use on stderr\n"
"  --profile                print each kernel's share of the time on stderr\n"
"                           (of the --benchmark runs, else of the one run)\n"
"  --trace=FILE             write every run's dispatches, per thread, as a Chrome\n"
"                           trace-event file (Perfetto, chrome://tracing)\n"
"  --print_max_element_count=N  print at most N elements per result (1024)\n";

static const char *
optval(const char *a, const char *name)
{
	size_t n = strlen(name);

	return !strncmp(a, name, n) && a[n] == '=' ? a + n + 1 : NULL;
}

static long long
number(const char *opt, const char *v, long long lo, long long hi)
{
	char *end;
	long long n = strtoll(v, &end, 10);

	if (!*v || *end || n < lo || n > hi)
		tool_fail("%s: '%s' is not a number from %lld to %lld", opt, v, lo, hi);
	return n;
}

/* a tolerance: a finite number >= 0 */
static double
tolerance(const char *opt, const char *v)
{
	char *end;
	double x = strtod(v, &end);

	if (!*v || *end || !(x >= 0) || isinf(x))
		tool_fail("%s: '%s' is not a number >= 0", opt, v);
	return x;
}

static void
push(const char ***list, int *n, const char *v)
{
	*list = realloc(*list, (*n + 1) * sizeof **list);
	if (!*list)
		tool_fail("out of memory");
	(*list)[(*n)++] = v;
}

static void
parse_args(int argc, char **argv, Opts *o)
{
	const char *v;

	o->print_max = 1024;
	o->rtol = -1, o->atol = -1;   /* the result's dtype's (tolerances) */
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs(usage, stdout);
			exit(0);
		} else if ((v = optval(a, "--function"))) {
			o->function = *v == '@' ? v + 1 : v;
		} else if ((v = optval(a, "--input"))) {
			push(&o->inputs, &o->ninputs, v);
		} else if ((v = optval(a, "--output"))) {
			push(&o->outputs, &o->noutputs, v);
		} else if ((v = optval(a, "--expected_output"))) {
			push(&o->expected, &o->nexpected, v);
		} else if ((v = optval(a, "--rtol"))) {
			o->rtol = tolerance("--rtol", v), o->rtol_s = v;
		} else if ((v = optval(a, "--atol"))) {
			o->atol = tolerance("--atol", v), o->atol_s = v;
		} else if ((v = optval(a, "--trace"))) {
			o->trace = v;
		} else if ((v = optval(a, "--threads"))) {
			o->threads = (int)number("--threads", v, 1, 1024);
		} else if ((v = optval(a, "--benchmark"))) {
			o->benchmark = (int)number("--benchmark", v, 1, 100000000);
		} else if ((v = optval(a, "--print_max_element_count"))) {
			o->print_max = number("--print_max_element_count", v, 0, (long long)1 << 62);
		} else if ((v = optval(a, "--device"))) {
			if (!strcmp(v, "cpu") || !strcmp(v, "local-task") || !strcmp(v, "local-sync"))
				o->device = RT_DEVICE_CPU;
			else if (!strcmp(v, "cuda"))
				o->device = RT_DEVICE_CUDA;
			else
				tool_fail("--device: unknown device '%s' (cpu or cuda)", v);
		} else if ((v = optval(a, "--parameters"))) {
			if (!*v)
				tool_fail("--parameters: no file given");
			o->params = v;
		} else if ((v = optval(a, "--module"))) {
			o->module = v;
		} else if (!strcmp(a, "--stats")) {
			o->stats = 1;
		} else if (!strcmp(a, "--profile")) {
			o->profile = 1;
		} else if (a[0] == '-' && a[1]) {
			tool_fail("unknown option '%s' (see --help)", a);
		} else if (o->module) {
			tool_fail("more than one module");
		} else {
			o->module = a;
		}
	}
	if (!o->module)
		tool_fail("no module given (see --help)");
}

static RtFunction *
find_function(RtModule *m, const Opts *o)
{
	RtFunction *f;
	char list[400];
	size_t k = 0;

	if (o->function ? (f = rt_lookup(m, o->function)) != NULL
	    : (f = rt_lookup(m, "main")) != NULL || (rt_function_count(m) == 1 && (f = rt_function_at(m, 0))))
		return f;
	list[0] = 0;
	for (int i = 0; i < rt_function_count(m) && k < sizeof list; i++)
		k += snprintf(list + k, sizeof list - k, "%s@%s", i ? ", " : "",
		    rt_function_name(rt_function_at(m, i)));
	if (o->function)
		tool_fail("%s has no function @%s (it has %s)", o->module, o->function, list);
	tool_fail("%s has no @main; choose one with --function (it has %s)", o->module, list);
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void
benchmark(RtFunction *f, RtTensor *in, int nin, RtTensor *out, int nout, int n, Trace *tr)
{
	double *t = malloc(n * sizeof *t), total = 0;
	RtError e;

	if (!t)
		tool_fail("out of memory");
	/* The warm-up run allocated the results; the timed runs reuse them. */
	for (int i = 0; i < n; i++) {
		double t0 = now();
		if (rt_invoke(f, in, nin, out, nout, &e))
			tool_fail("%s", e.msg);
		t[i] = now() - t0;
		if (tr)
			trace_run(tr, t0, t0 + t[i]);
		total += t[i];
	}
	qsort(t, n, sizeof *t, cmp_double);
	printf("@%s: %d runs after 1 warm-up, latency min %.3f us, median %.3f us, mean %.3f us, max %.3f us\n",
	    rt_function_name(f), n, t[0] * 1e6, (n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2) * 1e6,
	    total / n * 1e6, t[n - 1] * 1e6);
	free(t);
}

typedef struct Prof {
	const char *kernel;
	uint64_t calls;
	double secs;
} Prof;

static int
cmp_prof(const void *a, const void *b)
{
	double x = ((const Prof *)a)->secs, y = ((const Prof *)b)->secs;

	return x < y ? 1 : x > y ? -1 : strcmp(((const Prof *)a)->kernel, ((const Prof *)b)->kernel);
}

/* --profile: the kernels by time, dispatches of one kernel summed */
static void
profile(const RtFunction *f, int runs)
{
	Prof *p = NULL, q;
	int n = 0, i, j;
	double total = 0;

	for (i = 0; rt_profile_entry(f, i, &q.kernel, &q.calls, &q.secs); i++) {
		for (j = 0; j < n && strcmp(p[j].kernel, q.kernel); j++)
			;
		if (j == n) {
			if (!(p = realloc(p, (n + 1) * sizeof *p)))
				tool_fail("out of memory");
			p[n++] = (Prof){q.kernel, 0, 0};
		}
		p[j].calls += q.calls;
		p[j].secs += q.secs;
		total += q.secs;
	}
	qsort(p, n, sizeof *p, cmp_prof);
	fprintf(stderr, "@%s: %d kernels, %.3f ms of dispatches per run\n", rt_function_name(f), n,
	    total / runs * 1e3);
	fprintf(stderr, "  %10s %6s %6s  %s\n", "ms/run", "%", "calls", "kernel");
	for (i = 0; i < n; i++)
		fprintf(stderr, "  %10.4f %5.1f%% %6llu  %s\n", p[i].secs / runs * 1e3,
		    total > 0 ? 100 * p[i].secs / total : 0.0, (unsigned long long)(p[i].calls / runs),
		    p[i].kernel);
	free(p);
}

/* The tolerances of a float result of dtype dt: --rtol and --atol where
 * given, else the dtype's: about two units in the last place of a
 * half-precision value (2^-9 for f16, 2^-6 for bf16), 1e-3 for f32 and
 * f64 and complex; atol 1e-7 (1e-5 for the half-precision types). */
static void
tolerances(const Opts *o, RtDtype dt, double *rtol, double *atol, const char **rs,
	const char **as)
{
	int half = dt == RT_F16 || dt == RT_BF16;

	*rtol = dt == RT_F16 ? 2e-3 : dt == RT_BF16 ? 1.6e-2 : 1e-3;
	*rs = dt == RT_F16 ? "2e-3" : dt == RT_BF16 ? "1.6e-2" : "1e-3";
	*atol = half ? 1e-5 : 1e-7;
	*as = half ? "1e-5" : "1e-7";
	if (o->rtol >= 0)
		*rtol = o->rtol, *rs = o->rtol_s;
	if (o->atol >= 0)
		*atol = o->atol, *as = o->atol_s;
}

/* 1 if equal within tolerance; else fills msg with the first mismatch. */
static int
compare(const RtTensor *got, const RtTensor *want, int idx, const Opts *o, char *msg, size_t n)
{
	char gs[200], ws[200];
	int64_t numel = rt_numel(got) * (is_complex(got->dtype) ? 2 : 1);
	double rtol, atol;
	const char *rs, *as;

	tolerances(o, got->dtype, &rtol, &atol, &rs, &as);

	rt_type_str(got, gs, sizeof gs);
	rt_type_str(want, ws, sizeof ws);
	if (strcmp(gs, ws)) {
		snprintf(msg, n, "result %d: is %s, expected %s", idx, gs, ws);
		return 0;
	}
	for (int64_t i = 0; i < numel; i++) {
		int ok;
		if (is_float(got->dtype) || is_complex(got->dtype)) {
			double g = elem_f(got, i), w = elem_f(want, i);
			ok = (isnan(g) && isnan(w)) || g == w || fabs(g - w) <= atol + rtol * fabs(w);
			if (!ok) {
				snprintf(msg, n, "result %d: element %lld is %g, expected %g (rtol %s, atol %s)",
				    idx, (long long)i, g, w, rs, as);
				return 0;
			}
		} else if (elem_i(got, i) != elem_i(want, i)) {
			if (is_unsigned(got->dtype))
				snprintf(msg, n, "result %d: element %lld is %llu, expected %llu", idx, (long long)i,
				    (unsigned long long)elem_u(got, i), (unsigned long long)elem_u(want, i));
			else
				snprintf(msg, n, "result %d: element %lld is %lld, expected %lld", idx, (long long)i,
				    (long long)elem_i(got, i), (long long)elem_i(want, i));
			return 0;
		}
	}
	return 1;
}

/* Writes or prints each result; returns the bytes of the results. */
static void
emit(const Opts *o, RtTensor *out, int nout)
{
	char err[512];

	for (int i = 0; i < nout; i++) {
		const char *d = i < o->noutputs ? o->outputs[i] : o->nexpected || o->benchmark ? "" : "-";
		if (!strcmp(d, "-"))
			tensor_print(stdout, &out[i], o->print_max);
		else if (d[0] == '@') {
			size_t len = strlen(d);
			if (len > 4 && !strcmp(d + len - 4, ".npy")) {
				if (npy_write(d + 1, &out[i], err, sizeof err))
					tool_fail("result %d: %s", i, err);
			} else {
				FILE *f = fopen(d + 1, "wb");
				if (!f || fwrite(out[i].data, 1, out[i].nbytes, f) != out[i].nbytes || fclose(f))
					tool_fail("result %d: cannot write '%s'", i, d + 1);
			}
		} else if (*d) {
			tool_fail("--output=%s: expected @FILE.npy, @FILE.bin, - or nothing", d);
		}
	}
}

static void
stats(RtFunction *f, const RtTensor *in, int nin, const RtTensor *out, int nout)
{
	size_t arena = rt_function_arena(f), ins = 0, outs = 0;
	struct rusage ru;

	for (int i = 0; i < nin; i++)
		ins += in[i].nbytes;
	for (int i = 0; i < nout; i++)
		outs += out[i].nbytes;
	getrusage(RUSAGE_SELF, &ru);
	fprintf(stderr, "vmrun: @%s: peak %zu bytes (arena %zu + inputs %zu + results %zu); "
	    "max RSS %ld KiB (getrusage)\n", rt_function_name(f), arena + ins + outs, arena, ins, outs,
	    ru.ru_maxrss);
}

/* codegen's kernels trap (ud2: SIGILL) where an index they read from a
 * tensor is out of range: say so and fail, on whichever thread it is.
 * Any other illegal instruction is one this CPU lacks, in a module whose
 * recorded features did not say so (vmrun checks those at load). */
static void
on_trap(int sig, siginfo_t *si, void *uc)
{
	static const char bounds[] = "vmrun: error: a kernel stopped at a bounds check: an index "
	    "read from a tensor (a gather's, an embedding's) is out of range\n";
	static const char isa[] = "vmrun: error: a kernel ran an instruction this CPU does not "
	    "have: the module was compiled for another CPU (codegen --cpu, --features)\n";
	const unsigned char *pc = si ? si->si_addr : NULL;
	int ud2 = pc && pc[0] == 0x0f && pc[1] == 0x0b;

	(void)sig, (void)uc;
	tool_drop_tmp();     /* --trace's */
	if (write(2, ud2 ? bounds : isa, ud2 ? sizeof bounds - 1 : sizeof isa - 1) < 0)
		_exit(1);
	_exit(1);
}

int
main(int argc, char **argv)
{
	Opts o = {0};
	RtOptions ro = {0};
	RtError e;
	RtModule *m;
	RtFunction *f;
	RtTensor *in, *out, want;
	Trace *tr = NULL;
	int nres, rc = 0;
	double t0;
	char err[1024], what[32];

	tool_name = "vmrun";
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_trap;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGILL, &sa, NULL);
	parse_args(argc, argv, &o);
	if (o.trace)
		tr = trace_open(o.trace);
	ro.threads = o.threads;
	ro.device = o.device;
	if (!(m = rt_load_file_params(o.module, o.params, &ro, &e)))
		tool_fail("%s", e.msg);
	f = find_function(m, &o);
	nres = rt_function_nresults(f);
	in = calloc(o.ninputs + 1, sizeof *in);
	out = calloc(nres + 1, sizeof *out);
	if (!in || !out)
		tool_fail("out of memory");
	for (int i = 0; i < o.ninputs; i++) {
		snprintf(what, sizeof what, "input %d", i);
		if (tensor_parse(o.inputs[i], &in[i], what, err, sizeof err))
			tool_fail("%s", err);
	}
	if (o.noutputs > nres)
		tool_fail("%d --output flags, but @%s returns %d result%s", o.noutputs,
		    rt_function_name(f), nres, nres == 1 ? "" : "s");
	if (o.nexpected && o.nexpected != nres)
		tool_fail("%d --expected_output flags, but @%s returns %d result%s", o.nexpected,
		    rt_function_name(f), nres, nres == 1 ? "" : "s");
	if (o.profile && !o.benchmark && rt_profile(f, 1))
		tool_fail("out of memory");
	if (tr)
		trace_start(tr, f);
	t0 = now();
	if (rt_invoke(f, in, o.ninputs, out, nres, &e))
		tool_fail("%s", e.msg);
	if (tr)
		trace_run(tr, t0, now());
	if (o.profile && o.benchmark && rt_profile(f, 1))
		tool_fail("out of memory");
	if (o.benchmark)
		benchmark(f, in, o.ninputs, out, nres, o.benchmark, tr);
	if (o.profile)
		profile(f, o.benchmark ? o.benchmark : 1);
	emit(&o, out, nres);
	for (int i = 0; i < o.nexpected; i++) {
		if (!strcmp(o.expected[i], "(ignored)"))
			continue;
		snprintf(what, sizeof what, "expected output %d", i);
		if (tensor_parse(o.expected[i], &want, what, err, sizeof err))
			tool_fail("%s", err);
		if (!compare(&out[i], &want, i, &o, err, sizeof err)) {
			tool_err("%s", err);
			rc = 1;
		}
		rt_tensor_free(&want);
		if (rc)
			break;
	}
	if (o.nexpected && !rc)
		printf("[SUCCESS] all function outputs matched their expected values\n");
	if (o.stats)
		stats(f, in, o.ninputs, out, nres);
	if (tr)
		trace_close(tr, rt_module_threads(m));
	for (int i = 0; i < o.ninputs; i++)
		rt_tensor_free(&in[i]);
	for (int i = 0; i < nres; i++)
		rt_tensor_free(&out[i]);
	free(in);
	free(out);
	free(o.inputs);
	free(o.outputs);
	free(o.expected);
	rt_unload(m);
	tool_commit(stdout);
	return rc;
}
