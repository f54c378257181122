/* npy.c - NumPy .npy files (format versions 1.0, 2.0 and 3.0), little
 * endian, C order: f16 f32 f64 i8 i16 i32 i64 u8 u16 u32 u64 bool, and
 * complex64 / complex128 (c8 / c16: pairs of f32 / f64). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vmrun.h"

static const struct {
	const char *descr;
	RtDtype dt;
} descrs[] = {
	{"f2", RT_F16}, {"f4", RT_F32}, {"f8", RT_F64}, {"i1", RT_I8}, {"i2", RT_I16},
	{"i4", RT_I32}, {"i8", RT_I64}, {"u1", RT_U8}, {"u2", RT_U16}, {"u4", RT_U32},
	{"u8", RT_U64}, {"b1", RT_BOOL}, {"c8", RT_C64}, {"c16", RT_C128},
};

int
is_npy(const void *p, size_t n)
{
	return n >= 6 && !memcmp(p, "\x93NUMPY", 6);
}

static int
bad(char *err, size_t errn, const char *path, const char *why)
{
	snprintf(err, errn, "'%s': %s", path, why);
	return -1;
}

/* The value of 'key' in the header dict text, or NULL. */
static const char *
dict_val(const char *h, const char *key)
{
	char k[32];
	const char *p;

	snprintf(k, sizeof k, "'%s'", key);
	if (!(p = strstr(h, k)))
		return NULL;
	p += strlen(k);
	while (*p == ' ')
		p++;
	if (*p++ != ':')
		return NULL;
	while (*p == ' ')
		p++;
	return p;
}

static int
parse_header(const char *h, RtTensor *t, const char *path, char *err, size_t errn)
{
	const char *d = dict_val(h, "descr"), *fo = dict_val(h, "fortran_order"),
	    *sh = dict_val(h, "shape");
	size_t i;

	if (!d || !fo || !sh || *d != '\'' || *sh != '(')
		return bad(err, errn, path, "malformed .npy header");
	if (d[1] == '>' && d[2] && d[3] != '1')
		return bad(err, errn, path, "big-endian .npy data is not supported");
	if (d[1] != '<' && d[1] != '|' && d[1] != '=')
		return bad(err, errn, path, "malformed .npy dtype");
	for (i = 0; i < sizeof descrs / sizeof *descrs; i++) {
		size_t dl = strlen(descrs[i].descr);
		if (!strncmp(d + 2, descrs[i].descr, dl) && d[2 + dl] == '\'')
			break;
	}
	if (i == sizeof descrs / sizeof *descrs) {
		char msg[96];
		snprintf(msg, sizeof msg, "unsupported .npy dtype %.12s", d);
		return bad(err, errn, path, msg);
	}
	t->dtype = descrs[i].dt;
	if (strncmp(fo, "False", 5))
		return bad(err, errn, path, "Fortran-order .npy data is not supported");
	t->rank = 0;
	for (const char *p = sh + 1; *p != ')';) {
		char *end;
		long long v;
		while (*p == ' ' || *p == ',')
			p++;
		if (*p == ')')
			break;
		errno = 0;
		v = strtoll(p, &end, 10);
		if (end == p || v < 0 || errno)
			return bad(err, errn, path, "malformed .npy shape");
		if (t->rank == RT_MAX_RANK)
			return bad(err, errn, path, "more than 16 dimensions");
		t->dims[t->rank++] = v;
		p = end;
	}
	return 0;
}

int
npy_read(const char *path, RtTensor *t, char *err, size_t errn)
{
	FILE *f = fopen(path, "rb");
	unsigned char pre[12];
	size_t hlen, pre_n, numel = 1;
	char *h = NULL;
	int rc = -1;

	memset(t, 0, sizeof *t);
	if (!f) {
		snprintf(err, errn, "cannot open '%s': %s", path, strerror(errno));
		return -1;
	}
	if (fread(pre, 1, 10, f) != 10 || !is_npy(pre, 10)) {
		bad(err, errn, path, "not an .npy file");
		goto done;
	}
	if (pre[6] == 1) {
		hlen = pre[8] | pre[9] << 8;
		pre_n = 10;
	} else if (pre[6] == 2 || pre[6] == 3) {
		if (fread(pre + 10, 1, 2, f) != 2) {
			bad(err, errn, path, "truncated .npy header");
			goto done;
		}
		hlen = pre[8] | pre[9] << 8 | (size_t)pre[10] << 16 | (size_t)pre[11] << 24;
		pre_n = 12;
	} else {
		bad(err, errn, path, "unsupported .npy version");
		goto done;
	}
	(void)pre_n;
	if (hlen > (1 << 20) || !(h = malloc(hlen + 1)) || fread(h, 1, hlen, f) != hlen) {
		bad(err, errn, path, "truncated .npy header");
		goto done;
	}
	h[hlen] = 0;
	if (parse_header(h, t, path, err, errn))
		goto done;
	int ovf = 0;

	/* a product of dims that overflows is too large even when a later
	 * dim is 0: a wrapped count must not be kept */
	for (int i = 0; i < t->rank && !ovf; i++)
		ovf = __builtin_mul_overflow(numel, (size_t)t->dims[i], &numel);
	if (ovf || __builtin_mul_overflow(numel, rt_dtype_size(t->dtype), &t->nbytes)
	    || t->nbytes > ((size_t)1 << 48)) {
		bad(err, errn, path, "the .npy array is too large");
		goto done;
	}
	if (!(t->data = rt_alloc(t->nbytes))) {
		bad(err, errn, path, "out of memory");
		goto done;
	}
	if (fread(t->data, 1, t->nbytes, f) != t->nbytes) {
		char msg[96];
		snprintf(msg, sizeof msg, "truncated .npy data (expected %zu bytes)", t->nbytes);
		bad(err, errn, path, msg);
		goto done;
	}
	if (fgetc(f) != EOF) {
		bad(err, errn, path, "trailing bytes after the .npy data");
		goto done;
	}
	rc = 0;
done:
	if (rc)
		rt_tensor_free(t);
	free(h);
	fclose(f);
	return rc;
}

int
npy_write(const char *path, const RtTensor *t, char *err, size_t errn)
{
	const char *descr = NULL;
	char dict[1024];
	size_t k, total;
	FILE *f;

	for (size_t i = 0; i < sizeof descrs / sizeof *descrs; i++)
		if (descrs[i].dt == t->dtype)
			descr = descrs[i].descr;
	if (!descr) {
		snprintf(err, errn, "'%s': %s has no .npy dtype (write it raw, to a .bin file)",
		    path, rt_dtype_name(t->dtype));
		return -1;
	}
	k = snprintf(dict, sizeof dict, "{'descr': '%c%s', 'fortran_order': False, 'shape': (",
	    descr[1] == '1' && !descr[2] ? '|' : '<', descr);
	for (int i = 0; i < t->rank; i++)
		k += snprintf(dict + k, sizeof dict - k, "%lld,%s", (long long)t->dims[i],
		    t->rank > 1 && i < t->rank - 1 ? " " : "");
	if (t->rank > 1)
		k--;   /* numpy writes (2, 3) but (3,) */
	k += snprintf(dict + k, sizeof dict - k, "), }");
	total = (10 + k + 1 + 63) / 64 * 64;   /* header padded to 64 bytes */
	memset(dict + k, ' ', total - 10 - k - 1);
	dict[total - 10 - 1] = '\n';
	if (!(f = fopen(path, "wb"))) {
		snprintf(err, errn, "cannot write '%s': %s", path, strerror(errno));
		return -1;
	}
	unsigned char pre[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0,
	    (unsigned char)((total - 10) & 0xff), (unsigned char)((total - 10) >> 8)};
	fwrite(pre, 1, 10, f);
	fwrite(dict, 1, total - 10, f);
	fwrite(t->data, 1, t->nbytes, f);
	if (fclose(f) != 0) {
		snprintf(err, errn, "error writing '%s': %s", path, strerror(errno));
		return -1;
	}
	return 0;
}
