/* weights.c - the safetensors file beside the JSON, mapped read-only and
 * checked up front: header length, JSON header, and for every weight the
 * JSON declares, its dtype and data_offsets against the file and its byte
 * size against its shape.  Each weight's dense_resource blob points into
 * the mapping, which stays until exit: the bytes are never copied, and the
 * printer reads them straight from the page cache. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fximport.h"

/* safetensors dtype names */
static const struct {
	const char *torch, *st;
} stnames[] = {
	{"float64", "F64"}, {"float32", "F32"}, {"float16", "F16"},
	{"bfloat16", "BF16"}, {"int64", "I64"}, {"int32", "I32"},
	{"int16", "I16"}, {"int8", "I8"}, {"uint8", "U8"}, {"bool", "BOOL"},
};

static const char *
st_dtype(const char *torch)
{
	size_t i;

	for (i = 0; i < sizeof stnames / sizeof *stnames; i++)
		if (!strcmp(stnames[i].torch, torch))
			return stnames[i].st;
	return NULL;
}

static const char *
weights_path(Imp *im, const char *file)
{
	const char *slash = strrchr(im->file, '/');
	size_t n;
	char *p;

	if (file[0] == '/' || !slash || !strcmp(im->file, "-"))
		return file;
	n = slash - im->file + 1 + strlen(file) + 1;
	p = arena_alloc(im->c, n);
	snprintf(p, n, "%.*s%s", (int)(slash - im->file + 1), im->file, file);
	return p;
}

static void
map_file(Imp *im, const char *path, const char *jpath)
{
	Weights *w = &im->w;
	struct stat st;
	int fd = open(path, O_RDONLY);

	if (fd < 0 || fstat(fd, &st) < 0)
		fail(im, jpath, "cannot open '%s': %s", path, strerror(errno));
	w->size = st.st_size;
	if (w->size == 0)
		fail(im, jpath, "'%s' is truncated: it is empty", path);
	w->map = mmap(NULL, w->size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (w->map == MAP_FAILED)
		fail(im, jpath, "cannot map '%s': %s", path, strerror(errno));
}

static void
read_header(Imp *im, const char *path, const char *jpath)
{
	Weights *w = &im->w;
	json_error_t err;
	uint64_t n = 0;
	int i;

	if (w->size < 8)
		fail(im, jpath, "'%s' is truncated: %zu bytes, no header", path, w->size);
	for (i = 7; i >= 0; i--)
		n = n << 8 | w->map[i];
	if (n > w->size - 8)
		fail(im, jpath, "'%s' is truncated: its header needs %llu bytes, %zu are left",
		    path, (unsigned long long)n, w->size - 8);
	w->header = json_loadb((const char *)w->map + 8, n, JSON_REJECT_DUPLICATES, &err);
	if (!w->header)
		fail(im, jpath, "'%s': bad header at byte %d: %s", path, err.position + 8, err.text);
	if (!json_is_object(w->header))
		fail(im, jpath, "'%s': the header is not a JSON object", path);
	w->data = w->map + 8 + n;
	w->datasize = w->size - 8 - n;
}

/* "[4, 3]" for a JSON array of integers */
static const char *
shape_str(Imp *im, json_t *shape)
{
	size_t i, n = 3 + 22 * json_array_size(shape), k = 0;
	char *s = arena_alloc(im->c, n);
	json_t *d;

	s[k++] = '[';
	json_array_foreach(shape, i, d)
		k += snprintf(s + k, n - k, "%s%lld", i ? ", " : "",
		    (long long)json_integer_value(d));
	snprintf(s + k, n - k, "]");
	return s;
}

static int
same_shape(json_t *a, json_t *b)
{
	size_t i;

	if (!json_is_array(a) || json_array_size(a) != json_array_size(b))
		return 0;
	for (i = 0; i < json_array_size(a); i++)
		if (!json_is_integer(json_array_get(a, i)) || json_integer_value(json_array_get(a, i))
		    != json_integer_value(json_array_get(b, i)))
			return 0;
	return 1;
}

/* One declared weight against the file's header: the same dtype and
 * shape, and data_offsets inside the data section spanning exactly the
 * bytes that shape and dtype need. */
static void
check_weight(Imp *im, json_t *t, const char *path)
{
	const char *name = jstr(im, t, "name", path), *dtype = jstr(im, t, "dtype", path);
	json_t *shape = jreq(im, t, "shape", JSON_ARRAY, path);
	json_t *h = json_object_get(im->w.header, name), *off, *b, *e, *hshape;
	const char *have;
	uint64_t want, lo, hi;

	dtype_type(im, dtype, pkey(im, path, "dtype"));
	/* cannot overflow: shape_numel bounds the size in bytes */
	want = shape_numel(im, shape, dtype_size(dtype), pkey(im, path, "shape"))
	    * dtype_size(dtype);
	if (!json_is_object(h) || !strcmp(name, "__metadata__"))
		fail(im, path, "'%s' has no tensor '%s'", im->w.path, name);
	have = json_string_value(json_object_get(h, "dtype"));
	if (!have || strcmp(have, st_dtype(dtype)))
		fail(im, path, "weight '%s' is %s in '%s', not %s", name,
		    have ? have : "untyped", im->w.path, dtype);
	off = json_object_get(h, "data_offsets");
	b = json_array_get(off, 0);
	e = json_array_get(off, 1);
	if (json_array_size(off) != 2 || !json_is_integer(b) || !json_is_integer(e)
	    || json_integer_value(b) < 0 || json_integer_value(e) < json_integer_value(b))
		fail(im, path, "weight '%s' has bad data_offsets in '%s'", name, im->w.path);
	lo = json_integer_value(b);
	hi = json_integer_value(e);
	if (hi > im->w.datasize)
		fail(im, path, "'%s' is truncated or corrupt: weight '%s' has data_offsets "
		    "[%llu, %llu], the data section has %zu bytes", im->w.path, name,
		    (unsigned long long)lo, (unsigned long long)hi, im->w.datasize);
	if (hi - lo != want)
		fail(im, path, "weight '%s' has %llu bytes, but its shape and dtype %s need %llu",
		    name, (unsigned long long)(hi - lo), dtype, (unsigned long long)want);
	hshape = json_object_get(h, "shape");
	if (!same_shape(hshape, shape))
		fail(im, path, "weight '%s' has shape %s in '%s', not %s", name,
		    json_is_array(hshape) && same_shape(hshape, hshape) ? shape_str(im, hshape)
		    : "(none)", im->w.path, shape_str(im, shape));
}

typedef struct Span {
	uint64_t lo, hi;
	size_t i;              /* index into weights.tensors */
	const char *name;
} Span;

static int
span_cmp(const void *a, const void *b)
{
	const Span *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	if (x->hi != y->hi)
		return x->hi < y->hi ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/* The file as a whole (after check_weight on every declared weight): the
 * header holds exactly the declared tensors (and __metadata__, a map of
 * strings), and their data tiles the data section, with no overlap (one
 * tensor's bytes read as another's) and no bytes that belong to none. */
static void
check_layout(Imp *im, json_t *ts)
{
	Weights *w = &im->w;
	size_t i, n = json_array_size(ts);
	Span *s = arena_alloc(im->c, (n + 1) * sizeof *s);
	uint64_t pos = 0;
	const char *key;
	json_t *v, *m;

	json_object_foreach(w->header, key, v) {
		if (!strcmp(key, "__metadata__")) {
			const char *mk;
			if (!json_is_object(v))
				fail(im, "weights.file", "'%s': __metadata__ is not an object", w->path);
			json_object_foreach(v, mk, m)
				if (!json_is_string(m))
					fail(im, "weights.file", "'%s': __metadata__ entry '%s' is not "
					    "a string", w->path, mk);
		} else if (!json_object_get(w->decl, key))
			fail(im, "weights.file", "'%s' has tensor '%s', which weights.tensors "
			    "does not declare", w->path, key);
	}
	for (i = 0; i < n; i++) {
		json_t *off = json_object_get(json_object_get(w->header,
		    json_string_value(json_object_get(json_array_get(ts, i), "name"))), "data_offsets");
		s[i].lo = json_integer_value(json_array_get(off, 0));
		s[i].hi = json_integer_value(json_array_get(off, 1));
		s[i].i = i;
		s[i].name = json_string_value(json_object_get(json_array_get(ts, i), "name"));
	}
	qsort(s, n, sizeof *s, span_cmp);
	for (i = 0; i < n; i++) {
		if (s[i].lo < pos)
			fail(im, pidx(im, "weights.tensors", s[i].i), "'%s' is corrupt: weight '%s' "
			    "has data_offsets [%llu, %llu], which overlap weight '%s' at [%llu, %llu]",
			    w->path, s[i].name, (unsigned long long)s[i].lo,
			    (unsigned long long)s[i].hi, s[i - 1].name,
			    (unsigned long long)s[i - 1].lo, (unsigned long long)s[i - 1].hi);
		if (s[i].lo > pos)
			fail(im, "weights.file", "'%s' is corrupt: bytes [%llu, %llu] of its data "
			    "section belong to no tensor", w->path, (unsigned long long)pos,
			    (unsigned long long)s[i].lo);
		pos = s[i].hi;
	}
	if (pos < w->datasize)
		fail(im, "weights.file", "'%s' is corrupt: bytes [%llu, %zu] of its data "
		    "section belong to no tensor", w->path, (unsigned long long)pos, w->datasize);
}

void
weights_open(Imp *im)
{
	json_t *ws = jreq(im, im->root, "weights", JSON_OBJECT, "");
	json_t *ts = jreq(im, ws, "tensors", JSON_ARRAY, "weights"), *t;
	const char *file = jstr(im, ws, "file", "weights");
	size_t i;

	im->w.decl = json_object();
	im->w.res = json_object();
	json_array_foreach(ts, i, t) {
		const char *p = pidx(im, "weights.tensors", i);
		if (json_object_get(im->w.decl, jstr(im, t, "name", p)))
			fail(im, p, "weight '%s' is declared twice", jstr(im, t, "name", p));
		json_object_set_new(im->w.decl, jstr(im, t, "name", p), json_integer(i));
	}
	if (!json_array_size(ts))
		return;
	im->w.path = weights_path(im, file);
	map_file(im, im->w.path, "weights.file");
	read_header(im, im->w.path, "weights.file");
	json_array_foreach(ts, i, t)
		check_weight(im, t, pidx(im, "weights.tensors", i));
	check_layout(im, ts);
}

void
weights_close(Imp *im)
{
	/* the mapping stays: the resources point into it */
	json_decref(im->w.header);
	json_decref(im->w.decl);
	json_decref(im->w.res);
	im->w.header = im->w.decl = im->w.res = NULL;
}

/* A resource key: the weight's name where it is a bare identifier. */
static const char *
resource_key(Imp *im, const char *name)
{
	char *k = arena_alloc(im->c, strlen(name) + 2), *q = k;
	const char *p;

	if (!((*name >= 'a' && *name <= 'z') || (*name >= 'A' && *name <= 'Z') || *name == '_'))
		*q++ = '_';
	for (p = name; *p; p++) {
		int ok = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')
		    || (*p >= '0' && *p <= '9') || *p == '_' || *p == '.' || *p == '$';
		*q++ = ok ? *p : '_';
	}
	*q = 0;
	return k;
}

static Resource *
weight_resource(Imp *im, const char *name, json_t *t)
{
	json_t *cached = json_object_get(im->w.res, name);
	json_t *off = json_object_get(json_object_get(im->w.header, name), "data_offsets");
	size_t lo, hi;
	Resource *r;

	if (cached)
		return (Resource *)(intptr_t)json_integer_value(cached);
	lo = json_integer_value(json_array_get(off, 0));
	hi = json_integer_value(json_array_get(off, 1));
	r = resource_borrow(im->c, "builtin", resource_key(im, name), im->w.data + lo,
	    hi - lo, dtype_size(json_string_value(json_object_get(t, "dtype"))));
	json_object_set_new(im->w.res, name, json_integer((intptr_t)r));
	return r;
}

/* torch.vtensor.literal(dense_resource<KEY> : tensor<...>) for a weight. */
Value *
import_literal(Imp *im, const char *name, const char *path)
{
	json_t *i = json_object_get(im->w.decl, name), *t;
	const char *tp;
	Type *vt;
	Op *op;

	if (!i)
		fail(im, path, "weight '%s' is not declared in weights.tensors", name);
	tp = pidx(im, "weights.tensors", json_integer_value(i));
	t = json_array_get(json_object_get(json_object_get(im->root, "weights"), "tensors"),
	    json_integer_value(i));
	vt = vtensor_of(im, t, 0, tp);
	op = emit(im, "torch.vtensor.literal", 0, NULL, 1, &vt);
	op_set_attr(im->c, op, "value",
	    at_dense_resource(im->c, ty_to_builtin(im->c, vt), weight_resource(im, name, t)));
	return RES(op, 0);
}

/* The value of a one-element weight (a get_attr node's target) of a float
 * or integer dtype, as a double: 1, else 0 (not a weight, not one element,
 * or another dtype).  For parameters the importer needs as numbers, such
 * as a quantizer's scale and zero point held in 0-d buffers. */
int
weight_scalar(Imp *im, const char *name, double *out)
{
	json_t *h = json_object_get(im->w.header, name);
	json_t *off = json_object_get(h, "data_offsets"), *shape = json_object_get(h, "shape");
	const char *dt = json_string_value(json_object_get(h, "dtype"));
	const unsigned char *p;
	size_t i, n = 1;

	if (!h || !dt || !json_is_array(shape))
		return 0;
	for (i = 0; i < json_array_size(shape); i++)
		n *= (size_t)json_integer_value(json_array_get(shape, i));
	if (n != 1)
		return 0;
	p = im->w.data + json_integer_value(json_array_get(off, 0));
	if (!strcmp(dt, "F32")) {
		float f;
		memcpy(&f, p, sizeof f);
		*out = f;
	} else if (!strcmp(dt, "F64")) {
		memcpy(out, p, sizeof *out);
	} else if (!strcmp(dt, "I64")) {
		int64_t v;
		memcpy(&v, p, sizeof v);
		*out = (double)v;
	} else if (!strcmp(dt, "I32")) {
		int32_t v;
		memcpy(&v, p, sizeof v);
		*out = v;
	} else {
		return 0;
	}
	return 1;
}
