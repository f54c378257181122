/*
 * run.c - a program over libfxrt (fxrt.h): loads a .vmfb module, lists its
 * functions and their signatures, runs one on inputs it makes and prints
 * the results.
 *
 *   cc -o run run.c $(pkg-config --cflags --libs fxrt)
 *   ./run [-t THREADS] [-m] MODULE.vmfb [FUNCTION]
 *
 * -m reads the file itself and loads it from memory.  FUNCTION defaults to
 * main, else the module's first.  Element k of input i is
 * ((k + 2i) mod 7) - 3: exact in every element type (unsigned types add 3,
 * bool is the value > 0).  The function runs twice, into buffers the
 * runtime allocates and into buffers this program allocates; the two must
 * agree bit for bit.  Exit status 1 on any error, with the runtime's
 * message.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fxrt.h"

/* what: the subject of msg; NULL when msg names it (the runtime's load
 * messages start with the module's name). */
static void
die(const char *what, const char *msg)
{
	fflush(stdout);
	if (what)
		fprintf(stderr, "run: %s: %s\n", what, msg);
	else
		fprintf(stderr, "run: %s\n", msg);
	exit(1);
}

/* Small integers in f16 and bf16, -3..3. */
static const uint16_t f16_int[7] = {0xc200, 0xc000, 0xbc00, 0, 0x3c00, 0x4000, 0x4200};
static const uint16_t bf16_int[7] = {0xc040, 0xc000, 0xbf80, 0, 0x3f80, 0x4000, 0x4040};

static void
set_element(RtDtype d, void *p, int64_t k, int v)
{
	switch (d) {
	case RT_F16: ((uint16_t *)p)[k] = f16_int[v + 3]; break;
	case RT_BF16: ((uint16_t *)p)[k] = bf16_int[v + 3]; break;
	case RT_F32: ((float *)p)[k] = (float)v; break;
	case RT_F64: ((double *)p)[k] = v; break;
	case RT_BOOL: ((uint8_t *)p)[k] = v > 0; break;
	case RT_I8: ((int8_t *)p)[k] = (int8_t)v; break;
	case RT_I16: ((int16_t *)p)[k] = (int16_t)v; break;
	case RT_I32: ((int32_t *)p)[k] = v; break;
	case RT_I64: ((int64_t *)p)[k] = v; break;
	case RT_U8: ((uint8_t *)p)[k] = (uint8_t)(v + 3); break;
	case RT_U16: ((uint16_t *)p)[k] = (uint16_t)(v + 3); break;
	case RT_U32: ((uint32_t *)p)[k] = (uint32_t)(v + 3); break;
	case RT_U64: ((uint64_t *)p)[k] = (uint64_t)(v + 3); break;
	/* complex: v + 0i */
	case RT_C64: ((float *)p)[2 * k] = (float)v, ((float *)p)[2 * k + 1] = 0; break;
	case RT_C128: ((double *)p)[2 * k] = v, ((double *)p)[2 * k + 1] = 0; break;
	}
}

static float
from_bits(uint32_t bits)
{
	float f;

	memcpy(&f, &bits, 4);
	return f;
}

static double
f16_value(uint16_t h)
{
	int e = (h >> 10) & 0x1f, m = h & 0x3ff;
	double v = e == 0x1f ? (m ? 0.0 / 0.0 : 1.0 / 0.0)
	    : e ? (1 + m / 1024.0) * (double)(1 << e) / (1 << 15)
	    : m / 1024.0 / (1 << 14);

	return h >> 15 ? -v : v;
}

static void
print_element(RtDtype d, const void *p, int64_t k)
{
	switch (d) {
	case RT_F16: printf("%.9g", f16_value(((const uint16_t *)p)[k])); break;
	case RT_BF16: printf("%.9g", from_bits((uint32_t)((const uint16_t *)p)[k] << 16)); break;
	case RT_F32: printf("%.9g", ((const float *)p)[k]); break;
	case RT_F64: printf("%.17g", ((const double *)p)[k]); break;
	case RT_BOOL: printf("%s", ((const uint8_t *)p)[k] ? "true" : "false"); break;
	case RT_I8: printf("%d", ((const int8_t *)p)[k]); break;
	case RT_I16: printf("%d", ((const int16_t *)p)[k]); break;
	case RT_I32: printf("%d", ((const int32_t *)p)[k]); break;
	case RT_I64: printf("%lld", (long long)((const int64_t *)p)[k]); break;
	case RT_U8: printf("%u", ((const uint8_t *)p)[k]); break;
	case RT_U16: printf("%u", ((const uint16_t *)p)[k]); break;
	case RT_U32: printf("%u", ((const uint32_t *)p)[k]); break;
	case RT_U64: printf("%llu", (unsigned long long)((const uint64_t *)p)[k]); break;
	case RT_C64: printf("%.9g%+.9gj", ((const float *)p)[2 * k], ((const float *)p)[2 * k + 1]); break;
	case RT_C128: printf("%.17g%+.17gj", ((const double *)p)[2 * k], ((const double *)p)[2 * k + 1]); break;
	}
}

static void
list(RtModule *m)
{
	char s[256];
	RtTensor t;

	printf("target %s, features \"%s\", %d threads\n", rt_module_target(m),
	    rt_module_features(m), rt_module_threads(m));
	for (int i = 0; i < rt_function_count(m); i++) {
		RtFunction *f = rt_function_at(m, i);

		printf("@%s(", rt_function_name(f));
		for (int a = 0; a < rt_function_nargs(f); a++) {
			rt_function_arg(f, a, &t);
			rt_type_str(&t, s, sizeof s);
			printf("%s%s", a ? ", " : "", s);
		}
		printf(") -> (");
		for (int r = 0; r < rt_function_nresults(f); r++) {
			rt_function_result(f, r, &t);
			rt_type_str(&t, s, sizeof s);
			printf("%s%s", r ? ", " : "", s);
		}
		printf(")\n");
	}
}

/* The inputs: each 64-byte aligned, as rt_invoke requires. */
static RtTensor *
make_inputs(RtFunction *f)
{
	int n = rt_function_nargs(f);
	RtTensor *in = calloc(n ? n : 1, sizeof *in);

	if (rt_function_batch(f, NULL, NULL))
		die(rt_function_name(f), "has a dynamic batch: this example makes inputs of "
			"static signatures only (call a chunk function, NAME.batch1)");
	for (int i = 0; in && i < n; i++) {
		rt_function_arg(f, i, &in[i]);
		if (!(in[i].data = rt_alloc(in[i].nbytes)))
			die("inputs", "out of memory");
		for (int64_t k = 0; k < rt_numel(&in[i]); k++)
			set_element(in[i].dtype, in[i].data, k, (int)((k + 2 * i) % 7) - 3);
	}
	if (!in)
		die("inputs", "out of memory");
	return in;
}

static void
print_result(int i, const RtTensor *t)
{
	char s[256];

	rt_type_str(t, s, sizeof s);
	printf("result %d: %s =", i, s);
	for (int64_t k = 0; k < rt_numel(t); k++)
		putchar(' '), print_element(t->dtype, t->data, k);
	putchar('\n');
}

/* Runs f into runtime-owned results, then into caller-owned ones. */
static void
run(RtFunction *f)
{
	int nin = rt_function_nargs(f), nout = rt_function_nresults(f);
	RtTensor *in = make_inputs(f), *out = calloc(nout ? nout : 1, sizeof *out),
	    *mine = calloc(nout ? nout : 1, sizeof *mine);
	RtError e;

	if (!out || !mine)
		die("results", "out of memory");
	if (rt_invoke(f, in, nin, out, nout, &e))
		die(rt_function_name(f), e.msg);
	for (int i = 0; i < nout; i++) {
		rt_function_result(f, i, &mine[i]);
		if (!(mine[i].data = rt_alloc(mine[i].nbytes)))
			die("results", "out of memory");
	}
	if (rt_invoke(f, in, nin, mine, nout, &e))
		die(rt_function_name(f), e.msg);
	for (int i = 0; i < nout; i++) {
		if (memcmp(out[i].data, mine[i].data, out[i].nbytes))
			die(rt_function_name(f), "results differ between runtime-owned and caller-owned buffers");
		print_result(i, &out[i]);
		rt_tensor_free(&out[i]);
		rt_free(mine[i].data);
	}
	for (int i = 0; i < nin; i++)
		rt_tensor_free(&in[i]);
	free(in);
	free(out);
	free(mine);
}

static RtModule *
load_memory(const char *path, const RtOptions *o, RtError *e)
{
	FILE *fp = fopen(path, "rb");
	char *buf = NULL;
	size_t n = 0, cap = 0, got;
	RtModule *m;

	if (!fp)
		die(path, "cannot open");
	do {
		if (n == cap && !(buf = realloc(buf, cap = cap ? 2 * cap : 1 << 16)))
			die(path, "out of memory");
		n += got = fread(buf + n, 1, cap - n, fp);
	} while (got);
	if (ferror(fp))
		die(path, "read error");
	fclose(fp);
	m = rt_load_memory(buf, n, o, e);   /* copies: buf may go */
	free(buf);
	return m;
}

int
main(int argc, char **argv)
{
	RtOptions o = {.threads = 0};
	int mem = 0, i = 1;
	RtModule *m;
	RtFunction *f;
	RtError e;

	for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++)
		if (!strcmp(argv[i], "-m"))
			mem = 1;
		else if (!strcmp(argv[i], "-t") && i + 1 < argc)
			o.threads = atoi(argv[++i]);
		else
			die("usage", "run [-t THREADS] [-m] MODULE.vmfb [FUNCTION]");
	if (i >= argc || argc - i > 2)
		die("usage", "run [-t THREADS] [-m] MODULE.vmfb [FUNCTION]");
	if (rt_abi_version() != FXRT_ABI_VERSION)
		die("libfxrt", "its ABI version differs from fxrt.h's");
	m = mem ? load_memory(argv[i], &o, &e) : rt_load_file(argv[i], &o, &e);
	if (!m)
		die(NULL, e.msg);
	list(m);
	f = i + 1 < argc ? rt_lookup(m, argv[i + 1]) : rt_lookup(m, "main");
	if (!f && !(f = i + 1 < argc ? NULL : rt_function_at(m, 0)))
		die(argv[i], "no such function");
	printf("running @%s\n", rt_function_name(f));
	run(f);
	rt_unload(m);
	return ferror(stdout) || fflush(stdout) ? 1 : 0;
}
