/* tensor.c - tensors as iree-run-module writes them: "2x3xf32=1,2,3,4,5,6"
 * in, "2x3xf32=[1 2 3][4 5 6]" out; @file.npy; SHAPExTYPE=@file.bin. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vmrun.h"

/* ---- f16 / bf16 ---- */

float
half_to_float(uint16_t h)
{
	uint32_t s = (uint32_t)(h >> 15) << 31, e = (h >> 10) & 0x1f, m = h & 0x3ff, bits;
	float f;

	if (e == 0x1f)
		bits = s | 0x7f800000u | m << 13;
	else if (e)
		bits = s | (e + 112) << 23 | m << 13;
	else if (m) {
		f = ldexpf((float)m, -24);
		return s ? -f : f;
	} else
		bits = s;
	memcpy(&f, &bits, 4);
	return f;
}

uint16_t
float_to_half(float f)
{
	uint32_t x, s, m;
	int e;

	memcpy(&x, &f, 4);
	s = (x >> 16) & 0x8000;
	e = (int)((x >> 23) & 0xff) - 127 + 15;
	m = x & 0x7fffff;
	if (((x >> 23) & 0xff) == 0xff)
		return s | 0x7c00 | (m ? 0x200 : 0);
	if (e >= 0x1f)
		return s | 0x7c00;
	if (e <= 0) {
		if (e < -10)
			return s;
		m |= 0x800000;
		uint32_t shift = 14 - e, r = m >> shift, rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
		if (rem > half || (rem == half && (r & 1)))
			r++;
		return s | r;
	}
	uint32_t r = (uint32_t)e << 10 | m >> 13, rem = m & 0x1fff;
	if (rem > 0x1000 || (rem == 0x1000 && (r & 1)))
		r++;   /* may carry into the exponent: correct, up to inf */
	return s | r;
}

float
bf16_to_float(uint16_t h)
{
	uint32_t bits = (uint32_t)h << 16;
	float f;

	memcpy(&f, &bits, 4);
	return f;
}

uint16_t
float_to_bf16(float f)
{
	uint32_t x;

	memcpy(&x, &f, 4);
	if ((x & 0x7fffffff) > 0x7f800000)
		return (x >> 16) | 0x40;
	return (x + 0x7fff + ((x >> 16) & 1)) >> 16;
}

/* ---- element access ---- */

int
is_float(RtDtype d)
{
	return d == RT_F16 || d == RT_BF16 || d == RT_F32 || d == RT_F64;
}

int
is_complex(RtDtype d)
{
	return d == RT_C64 || d == RT_C128;
}

int
is_unsigned(RtDtype d)
{
	return d == RT_U8 || d == RT_U16 || d == RT_U32 || d == RT_U64 || d == RT_BOOL;
}

double
elem_f(const RtTensor *t, int64_t i)
{
	const void *p = t->data;

	switch (t->dtype) {
	case RT_F16: return half_to_float(((const uint16_t *)p)[i]);
	case RT_BF16: return bf16_to_float(((const uint16_t *)p)[i]);
	case RT_F32: return ((const float *)p)[i];
	case RT_F64: return ((const double *)p)[i];
	/* complex: i counts the real and imaginary parts */
	case RT_C64: return ((const float *)p)[i];
	case RT_C128: return ((const double *)p)[i];
	default: return is_unsigned(t->dtype) ? (double)elem_u(t, i) : (double)elem_i(t, i);
	}
}

int64_t
elem_i(const RtTensor *t, int64_t i)
{
	const void *p = t->data;

	switch (t->dtype) {
	case RT_BOOL: return ((const uint8_t *)p)[i] != 0;
	case RT_I8: return ((const int8_t *)p)[i];
	case RT_I16: return ((const int16_t *)p)[i];
	case RT_I32: return ((const int32_t *)p)[i];
	case RT_I64: return ((const int64_t *)p)[i];
	case RT_U8: return ((const uint8_t *)p)[i];
	case RT_U16: return ((const uint16_t *)p)[i];
	case RT_U32: return ((const uint32_t *)p)[i];
	case RT_U64: return (int64_t)((const uint64_t *)p)[i];
	default: return (int64_t)elem_f(t, i);
	}
}

uint64_t
elem_u(const RtTensor *t, int64_t i)
{
	return (uint64_t)elem_i(t, i);
}

/* ---- parsing ---- */

static int
perr(char *err, size_t errn, const char *what, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(err, errn, "%s: ", what);

	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < errn)
		vsnprintf(err + n, errn - n, fmt, ap);
	va_end(ap);
	return -1;
}

static const struct {
	const char *name;
	RtDtype dt;
} dtypes[] = {
	{"f16", RT_F16}, {"bf16", RT_BF16}, {"f32", RT_F32}, {"f64", RT_F64},
	{"i1", RT_BOOL}, {"bool", RT_BOOL}, {"i8", RT_I8}, {"i16", RT_I16}, {"i32", RT_I32},
	{"i64", RT_I64}, {"si8", RT_I8}, {"si16", RT_I16}, {"si32", RT_I32}, {"si64", RT_I64},
	{"ui8", RT_U8}, {"ui16", RT_U16}, {"ui32", RT_U32}, {"ui64", RT_U64},
	{"u8", RT_U8}, {"u16", RT_U16}, {"u32", RT_U32}, {"u64", RT_U64},
	{"c64", RT_C64}, {"c128", RT_C128},
};

/* "2x3xf32" (up to '=' or the end) into t's dtype, rank and dims. */
static int
parse_type(const char *s, size_t n, RtTensor *t, const char *what, char *err, size_t errn)
{
	const char *p = s, *end = s + n, *last = s;

	for (const char *q = s; q < end; q++)
		if (*q == 'x')
			last = q + 1;
	t->rank = 0;
	while (p < last) {
		char *e;
		long long v;
		errno = 0;
		v = strtoll(p, &e, 10);
		if (e == p || *e != 'x' || v < 0 || errno || e >= last)
			return perr(err, errn, what, "malformed shape in '%.*s' (expected e.g. 2x3xf32)", (int)n, s);
		if (t->rank == RT_MAX_RANK)
			return perr(err, errn, what, "more than %d dimensions", RT_MAX_RANK);
		t->dims[t->rank++] = v;
		p = e + 1;
	}
	for (size_t i = 0; i < sizeof dtypes / sizeof *dtypes; i++)
		if (strlen(dtypes[i].name) == (size_t)(end - last) && !strncmp(last, dtypes[i].name, end - last)) {
			t->dtype = dtypes[i].dt;
			return 0;
		}
	return perr(err, errn, what, "unknown element type '%.*s' in '%.*s'", (int)(end - last), last, (int)n, s);
}

static int
alloc_data(RtTensor *t, const char *what, char *err, size_t errn)
{
	size_t numel = 1;

	for (int i = 0; i < t->rank; i++)
		if (__builtin_mul_overflow(numel, (size_t)t->dims[i], &numel))
			return perr(err, errn, what, "too many elements");
	if (__builtin_mul_overflow(numel, rt_dtype_size(t->dtype), &t->nbytes) || t->nbytes > ((size_t)1 << 40))
		return perr(err, errn, what, "too many elements");
	if (!(t->data = rt_alloc(t->nbytes)))
		return perr(err, errn, what, "out of memory");
	memset(t->data, 0, t->nbytes);
	return 0;
}

static int
store(RtTensor *t, int64_t i, const char *tok, size_t n, const char *what, char *err, size_t errn)
{
	char buf[64], *end;
	void *p = t->data;

	if (n >= sizeof buf)
		return perr(err, errn, what, "'%.20s...' is not a number", tok);
	memcpy(buf, tok, n);
	buf[n] = 0;
	errno = 0;
	if (is_float(t->dtype)) {
		double v = strtod(buf, &end);
		if (*end || end == buf)
			return perr(err, errn, what, "'%s' is not a number", buf);
		/* a finite number too large for the type (1e999, 1e39 for f32,
		 * 70000 for f16) is an error, not an infinity; "inf" is one */
		int big = isinf(v) && errno == ERANGE;
		if (!big && !isinf(v) && !isnan(v) && t->dtype != RT_F64) {
			big = isinf((float)v);
			if (!big && t->dtype == RT_F16)
				big = (float_to_half((float)v) & 0x7fff) == 0x7c00;
			if (!big && t->dtype == RT_BF16)
				big = (float_to_bf16((float)v) & 0x7fff) == 0x7f80;
		}
		if (big)
			return perr(err, errn, what, "element %lld: '%s' is out of range for %s",
			    (long long)i, buf, rt_dtype_name(t->dtype));
		switch (t->dtype) {
		case RT_F16: ((uint16_t *)p)[i] = float_to_half((float)v); break;
		case RT_BF16: ((uint16_t *)p)[i] = float_to_bf16((float)v); break;
		case RT_F32: ((float *)p)[i] = (float)v; break;
		default: ((double *)p)[i] = v; break;
		}
		return 0;
	}
	if (t->dtype == RT_BOOL) {
		int v = !strcmp(buf, "true") || !strcmp(buf, "1") ? 1 : !strcmp(buf, "false") || !strcmp(buf, "0") ? 0 : -1;
		if (v < 0)
			return perr(err, errn, what, "'%s' is not a boolean (true, false, 1, 0)", buf);
		((uint8_t *)p)[i] = v;
		return 0;
	}
	int bits = (int)rt_dtype_size(t->dtype) * 8;
	if (is_unsigned(t->dtype)) {
		unsigned long long v = strtoull(buf, &end, 10);
		if (*end || end == buf)
			return perr(err, errn, what, "'%s' is not a %s", buf, rt_dtype_name(t->dtype));
		if (buf[0] == '-' || errno || (bits < 64 && v >> bits))
			return perr(err, errn, what, "element %lld: '%s' is out of range for %s",
			    (long long)i, buf, rt_dtype_name(t->dtype));
		memcpy((uint8_t *)p + i * (bits / 8), &v, bits / 8);
	} else {
		long long v = strtoll(buf, &end, 10);
		if (*end || end == buf)
			return perr(err, errn, what, "'%s' is not an %s", buf, rt_dtype_name(t->dtype));
		if (errno || (bits < 64 && (v < -(1LL << (bits - 1)) || v >= (1LL << (bits - 1)))))
			return perr(err, errn, what, "element %lld: '%s' is out of range for %s",
			    (long long)i, buf, rt_dtype_name(t->dtype));
		memcpy((uint8_t *)p + i * (bits / 8), &v, bits / 8);   /* little-endian */
	}
	return 0;
}

static int
parse_values(const char *s, RtTensor *t, const char *what, char *err, size_t errn)
{
	int64_t numel = rt_numel(t), n = 0;
	const char *p = s;
	const char *seps = ", []\t\n";

	for (;;) {
		p += strspn(p, seps);
		if (!*p)
			break;
		size_t len = strcspn(p, seps);
		if (n < numel && store(t, n, p, len, what, err, errn))
			return -1;
		n++;
		p += len;
	}
	if (n == 1 && numel > 1) {   /* a splat */
		size_t es = rt_dtype_size(t->dtype);
		for (int64_t i = 1; i < numel; i++)
			memcpy((uint8_t *)t->data + i * es, t->data, es);
		return 0;
	}
	if (n != numel)
		return perr(err, errn, what, "%lld value%s for %lld element%s", (long long)n, n == 1 ? "" : "s",
		    (long long)numel, numel == 1 ? "" : "s");
	return 0;
}

static int
read_raw(const char *path, RtTensor *t, const char *what, char *err, size_t errn)
{
	FILE *f = fopen(path, "rb");
	size_t got;

	if (!f)
		return perr(err, errn, what, "cannot open '%s': %s", path, strerror(errno));
	got = fread(t->data, 1, t->nbytes, f);
	if (got != t->nbytes || fgetc(f) != EOF) {
		fclose(f);
		return perr(err, errn, what, "'%s' does not hold exactly %zu bytes", path, t->nbytes);
	}
	fclose(f);
	return 0;
}

int
tensor_parse(const char *spec, RtTensor *t, const char *what, char *err, size_t errn)
{
	const char *eq = strchr(spec, '=');
	char msg[400];

	memset(t, 0, sizeof *t);
	if (spec[0] == '@') {
		FILE *f = fopen(spec + 1, "rb");
		unsigned char magic[6];
		size_t n;
		if (!f)
			return perr(err, errn, what, "cannot open '%s': %s", spec + 1, strerror(errno));
		n = fread(magic, 1, 6, f);
		fclose(f);
		if (!is_npy(magic, n))
			return perr(err, errn, what, "'%s' is not an .npy file (give raw data as SHAPExTYPE=@%s)",
			    spec + 1, spec + 1);
		if (npy_read(spec + 1, t, msg, sizeof msg))
			return perr(err, errn, what, "%s", msg);
		return 0;
	}
	if (parse_type(spec, eq ? (size_t)(eq - spec) : strlen(spec), t, what, err, errn)
	    || alloc_data(t, what, err, errn))
		return -1;
	if (!eq)
		return 0;   /* zeros */
	if (is_complex(t->dtype) && eq[1] != '@') {
		rt_tensor_free(t);
		return perr(err, errn, what, "complex values are read from .npy or raw files only "
		    "(@FILE.npy, SHAPExc64=@FILE)");
	}
	if ((eq[1] == '@' ? read_raw(eq + 2, t, what, err, errn) : parse_values(eq + 1, t, what, err, errn))) {
		rt_tensor_free(t);
		return -1;
	}
	return 0;
}

/* ---- printing ---- */

static void
print_elem(FILE *f, const RtTensor *t, int64_t i)
{
	if (is_complex(t->dtype))
		fprintf(f, "%g%+gj", elem_f(t, 2 * i), elem_f(t, 2 * i + 1));
	else if (is_float(t->dtype))
		fprintf(f, "%g", elem_f(t, i));
	else if (is_unsigned(t->dtype))
		fprintf(f, "%llu", (unsigned long long)elem_u(t, i));
	else
		fprintf(f, "%lld", (long long)elem_i(t, i));
}

void
tensor_print(FILE *f, const RtTensor *t, int64_t max)
{
	char ts[400];
	int64_t numel = rt_numel(t), stride[RT_MAX_RANK];

	rt_type_str(t, ts, sizeof ts);
	fprintf(f, "%s=", ts);
	if (t->rank > 0 && numel > 0) {   /* no strides of huge dims around a 0 */
		stride[t->rank - 1] = t->dims[t->rank - 1];
		for (int d = t->rank - 2; d >= 0; d--)
			stride[d] = stride[d + 1] * t->dims[d];
	}
	for (int64_t i = 0; i < numel; i++) {
		if (i == max) {
			fputs("...", f);
			break;
		}
		int open = 0, close = 0;
		for (int d = 0; d < t->rank - 1; d++) {
			if (i % stride[d + 1] == 0)
				open++;
			if ((i + 1) % stride[d + 1] == 0)
				close++;
		}
		if (!open && i)
			fputc(' ', f);
		for (int k = 0; k < open; k++)
			fputc('[', f);
		print_elem(f, t, i);
		for (int k = 0; k < close; k++)
			fputc(']', f);
	}
	fputc('\n', f);
}
