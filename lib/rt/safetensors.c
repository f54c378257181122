/* safetensors.c - the strict safetensors header reader (safetensors.h).
 * The JSON is parsed for the shapes a safetensors header has and nothing
 * else: anything unexpected is an error, never skipped. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "safetensors.h"

/* the header's JSON is at most this long (the safetensors package's limit) */
#define ST_MAX_HEADER (100u << 20)

typedef struct J {
	const char *p, *end;
	char *err;
	size_t errn;
	int failed;
} J;

static int
jfail(J *j, const char *fmt, ...)
{
	va_list ap;

	if (!j->failed) {
		va_start(ap, fmt);
		vsnprintf(j->err, j->errn, fmt, ap);
		va_end(ap);
	}
	j->failed = 1;
	return -1;
}

static void
ws(J *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r'))
		j->p++;
}

static int
eat(J *j, char c)
{
	ws(j);
	if (j->p < j->end && *j->p == c) {
		j->p++;
		return 1;
	}
	return 0;
}

static int
expect(J *j, char c, const char *what)
{
	if (!eat(j, c))
		return jfail(j, "header: expected '%c' %s", c, what);
	return 0;
}

static int
hexval(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
	    : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* A JSON string, malloc'd; \u escapes of the BMP become UTF-8. */
static char *
jstring(J *j)
{
	size_t cap = 16, n = 0;
	char *s;

	ws(j);
	if (j->p >= j->end || *j->p != '"')
		return jfail(j, "header: expected a string"), NULL;
	j->p++;
	if (!(s = malloc(cap)))
		return jfail(j, "out of memory"), NULL;
	for (;;) {
		unsigned c;
		int esc = 0;
		if (j->p >= j->end) {
			jfail(j, "header: unterminated string");
			break;
		}
		c = (unsigned char)*j->p++;
		if (c == '"') {
			s[n] = 0;
			return s;
		}
		if (c < 0x20) {
			jfail(j, "header: control character in a string");
			break;
		}
		if (c == '\\') {
			esc = 1;
			char e = j->p < j->end ? *j->p++ : 0;
			const char *map = "\"\"\\\\//b\bf\fn\nr\rt\t", *m;
			for (m = map; *m && *m != e; m += 2)
				;
			if (*m) {
				c = (unsigned char)m[1];
			} else if (e == 'u' && j->end - j->p >= 4) {
				int h[4];
				for (int i = 0; i < 4; i++)
					h[i] = hexval(j->p[i]);
				if (h[0] < 0 || h[1] < 0 || h[2] < 0 || h[3] < 0) {
					jfail(j, "header: bad \\u escape");
					break;
				}
				c = (unsigned)(h[0] << 12 | h[1] << 8 | h[2] << 4 | h[3]);
				j->p += 4;
				if (c >= 0xD800 && c < 0xE000) {
					jfail(j, "header: surrogate \\u escape");
					break;
				}
			} else {
				jfail(j, "header: bad escape in a string");
				break;
			}
		}
		if (n + 4 >= cap) {
			char *t = realloc(s, cap *= 2);
			if (!t) {
				jfail(j, "out of memory");
				break;
			}
			s = t;
		}
		if (c < 0x80 || !esc) {
			s[n++] = (char)c;   /* raw UTF-8 bytes pass through */
		} else if (c < 0x800) {
			s[n++] = (char)(0xC0 | c >> 6);
			s[n++] = (char)(0x80 | (c & 0x3F));
		} else {
			s[n++] = (char)(0xE0 | c >> 12);
			s[n++] = (char)(0x80 | (c >> 6 & 0x3F));
			s[n++] = (char)(0x80 | (c & 0x3F));
		}
	}
	free(s);
	return NULL;
}

/* A non-negative integer below 2^53 (what JSON numbers hold exactly). */
static int
juint(J *j, uint64_t *v, const char *what, const char *name)
{
	uint64_t x = 0;
	const char *start;

	ws(j);
	start = j->p;
	while (j->p < j->end && *j->p >= '0' && *j->p <= '9') {
		x = x * 10 + (uint64_t)(*j->p++ - '0');
		if (x >= (uint64_t)1 << 53)
			return jfail(j, "tensor '%s': %s: number too large", name, what);
	}
	if (j->p == start || (j->p - start > 1 && *start == '0')
	    || (j->p < j->end && (*j->p == '.' || *j->p == 'e' || *j->p == 'E')))
		return jfail(j, "tensor '%s': %s: not a non-negative integer", name, what);
	*v = x;
	return 0;
}

size_t
st_dtype_size(const char *d)
{
	static const struct { const char *name; size_t size; } t[] = {
		{"F64", 8}, {"F32", 4}, {"F16", 2}, {"BF16", 2}, {"I64", 8}, {"I32", 4},
		{"I16", 2}, {"I8", 1}, {"U64", 8}, {"U32", 4}, {"U16", 2}, {"U8", 1},
		{"BOOL", 1}, {"C64", 8},
	};
	for (size_t i = 0; i < sizeof t / sizeof *t; i++)
		if (!strcmp(d, t[i].name))
			return t[i].size;
	return 0;
}

/* {"dtype": ..., "shape": [...], "data_offsets": [b, e]}, each once. */
static int
jtensor(J *j, StTensor *t)
{
	int have = 0;

	if (expect(j, '{', "(a tensor)"))
		return -1;
	do {
		char *k = jstring(j);
		if (!k || expect(j, ':', "after a key")) {
			free(k);
			return -1;
		}
		int bit = !strcmp(k, "dtype") ? 1 : !strcmp(k, "shape") ? 2 : !strcmp(k, "data_offsets") ? 4 : 0;
		if (!bit || have & bit) {
			jfail(j, "tensor '%s': %s key '%s'", t->name, bit ? "duplicate" : "unknown", k);
			free(k);
			return -1;
		}
		free(k);
		have |= bit;
		if (bit == 1) {
			char *d = jstring(j);
			if (!d)
				return -1;
			if (!st_dtype_size(d)) {
				jfail(j, "tensor '%s': unknown dtype '%.20s'", t->name, d);
				free(d);
				return -1;
			}
			strcpy(t->dtype, d);
			free(d);
		} else if (bit == 2) {
			if (expect(j, '[', "(a shape)"))
				return -1;
			if (!eat(j, ']')) {
				do {
					uint64_t d;
					if (t->rank == 16)
						return jfail(j, "tensor '%s': more than 16 dimensions", t->name);
					if (juint(j, &d, "shape", t->name))
						return -1;
					t->shape[t->rank++] = (int64_t)d;
				} while (eat(j, ','));
				if (expect(j, ']', "after the shape"))
					return -1;
			}
		} else {
			if (expect(j, '[', "(data_offsets)") || juint(j, &t->begin, "data_offsets", t->name)
			    || expect(j, ',', "in data_offsets") || juint(j, &t->end, "data_offsets", t->name)
			    || expect(j, ']', "after data_offsets"))
				return -1;
		}
	} while (eat(j, ','));
	if (expect(j, '}', "after a tensor"))
		return -1;
	if (have != 7)
		return jfail(j, "tensor '%s': no %s", t->name,
		    !(have & 1) ? "dtype" : !(have & 2) ? "shape" : "data_offsets");
	return 0;
}

/* __metadata__: an object of strings; keeps "producer". */
static int
jmeta(J *j, StFile *f)
{
	if (expect(j, '{', "(__metadata__)"))
		return -1;
	if (eat(j, '}'))
		return 0;
	do {
		char *k = jstring(j), *v = NULL;
		if (!k || expect(j, ':', "after a key") || !(v = jstring(j))) {
			free(k);
			return j->failed ? -1 : jfail(j, "header: __metadata__ values must be strings");
		}
		if (!strcmp(k, "producer") && !f->producer)
			f->producer = v, v = NULL;
		free(k);
		free(v);
	} while (eat(j, ','));
	return expect(j, '}', "after __metadata__");
}

static int
by_name(const void *a, const void *b)
{
	return strcmp(((const StTensor *)a)->name, ((const StTensor *)b)->name);
}

static int
by_begin(const void *a, const void *b)
{
	const StTensor *x = *(StTensor *const *)a, *y = *(StTensor *const *)b;

	return x->begin < y->begin ? -1 : x->begin > y->begin ? 1
	    : x->end < y->end ? -1 : x->end > y->end;
}

static int
check_layout(StFile *f, char *err, size_t errn)
{
	StTensor **s = malloc((f->n + 1) * sizeof *s);
	uint64_t at = 0;
	int rc = 0;

	if (!s)
		return snprintf(err, errn, "out of memory"), -1;
	for (size_t i = 0; i < f->n; i++)
		s[i] = &f->t[i];
	qsort(s, f->n, sizeof *s, by_begin);
	for (size_t i = 0; i < f->n && !rc; i++) {
		if (s[i]->begin > at)
			rc = snprintf(err, errn, "tensor '%s': a hole of %llu bytes before it (data_offsets "
			    "must cover the data)", s[i]->name, (unsigned long long)(s[i]->begin - at));
		else if (s[i]->begin < at)
			rc = snprintf(err, errn, "tensor '%s': overlaps tensor '%s'", s[i]->name,
			    s[i - 1]->name);
		at = s[i]->end;
	}
	if (!rc && at != f->ndata)
		rc = snprintf(err, errn, "%llu bytes of data after the last tensor",
		    (unsigned long long)(f->ndata - at));
	free(s);
	return rc ? -1 : 0;
}

int
st_parse(StFile *f, const uint8_t *p, size_t n, char *err, size_t errn)
{
	uint64_t hn = 0;
	J j = {0};
	int meta = 0;
	size_t cap = 0;

	memset(f, 0, sizeof *f);
	if (n < 8)
		return snprintf(err, errn, "truncated: %zu bytes, shorter than the 8-byte header length", n), -1;
	for (int i = 7; i >= 0; i--)
		hn = hn << 8 | p[i];
	if (hn > n - 8)
		return snprintf(err, errn, "truncated: the header says %llu bytes, the file has %zu after "
		    "the length", (unsigned long long)hn, n - 8), -1;
	if (hn < 2 || hn > ST_MAX_HEADER)
		return snprintf(err, errn, "header length %llu out of range", (unsigned long long)hn), -1;
	f->data = p + 8 + hn;
	f->ndata = n - 8 - hn;
	j.p = (const char *)p + 8;
	j.end = j.p + hn;
	j.err = err, j.errn = errn;
	if (expect(&j, '{', "(the header)"))
		goto fail;
	if (!eat(&j, '}')) {
		do {
			char *k = jstring(&j);
			if (!k)
				goto fail;
			if (expect(&j, ':', "after a name")) {
				free(k);
				goto fail;
			}
			if (!strcmp(k, "__metadata__")) {
				free(k);
				if (meta++) {
					jfail(&j, "header: __metadata__ twice");
					goto fail;
				}
				if (jmeta(&j, f))
					goto fail;
				continue;
			}
			if (f->n == cap) {
				StTensor *t = realloc(f->t, (cap = cap ? 2 * cap : 16) * sizeof *t);
				if (!t) {
					free(k);
					jfail(&j, "out of memory");
					goto fail;
				}
				f->t = t;
			}
			StTensor *t = &f->t[f->n++];
			memset(t, 0, sizeof *t);
			t->name = k;
			if (jtensor(&j, t))
				goto fail;
		} while (eat(&j, ','));
		if (expect(&j, '}', "at the header's end"))
			goto fail;
	}
	ws(&j);
	if (j.p != j.end) {
		jfail(&j, "header: bytes after the JSON object");
		goto fail;
	}
	if (f->n)
		qsort(f->t, f->n, sizeof *f->t, by_name);
	for (size_t i = 0; i < f->n; i++) {
		StTensor *t = &f->t[i];
		uint64_t bytes = st_dtype_size(t->dtype);
		if (i && !strcmp(t->name, f->t[i - 1].name)) {
			snprintf(err, errn, "tensor '%s': named twice", t->name);
			goto fail;
		}
		for (int d = 0; d < t->rank; d++) {
			if (t->shape[d] && bytes > UINT64_MAX / (uint64_t)t->shape[d]) {
				snprintf(err, errn, "tensor '%s': shape too large", t->name);
				goto fail;
			}
			bytes *= (uint64_t)t->shape[d];
		}
		if (t->end < t->begin || t->end - t->begin != bytes) {
			snprintf(err, errn, "tensor '%s': data_offsets [%llu, %llu] are not the %llu bytes "
			    "of its %s shape", t->name, (unsigned long long)t->begin,
			    (unsigned long long)t->end, (unsigned long long)bytes, t->dtype);
			goto fail;
		}
		if (t->end > f->ndata) {
			snprintf(err, errn, "tensor '%s': data_offsets [%llu, %llu] outside the %llu bytes "
			    "of data (truncated?)", t->name, (unsigned long long)t->begin,
			    (unsigned long long)t->end, (unsigned long long)f->ndata);
			goto fail;
		}
	}
	if (check_layout(f, err, errn))
		goto fail;
	return 0;
fail:
	st_free(f);
	return -1;
}

const StTensor *
st_find(const StFile *f, const char *name)
{
	StTensor key = {.name = (char *)name};

	return f->n ? bsearch(&key, f->t, f->n, sizeof *f->t, by_name) : NULL;
}

void
st_free(StFile *f)
{
	for (size_t i = 0; i < f->n; i++)
		free(f->t[i].name);
	free(f->t);
	free(f->producer);
	memset(f, 0, sizeof *f);
}
