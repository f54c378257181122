/* weights.c - the safetensors file beside the JSON, mapped read-only and
 * checked up front: header length, JSON header, and for every weight the
 * JSON declares, its dtype and data_offsets against the file and its byte
 * size against its shape.  Each weight's dense_resource blob points into
 * the mapping, which stays until exit: the bytes are never copied, and the
 * printer reads them straight from the page cache. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
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
	w->header = json_loadb((const char *)w->map + 8, n, 0, &err);
	if (!w->header)
		fail(im, jpath, "'%s': bad header at byte %d: %s", path, err.position + 8, err.text);
	if (!json_is_object(w->header))
		fail(im, jpath, "'%s': the header is not a JSON object", path);
	w->data = w->map + 8 + n;
	w->datasize = w->size - 8 - n;
}

static uint64_t
numel(Imp *im, json_t *shape, const char *path)
{
	uint64_t n = 1;
	json_t *d;
	size_t i;

	json_array_foreach(shape, i, d) {
		if (!json_is_integer(d) || json_integer_value(d) < 0)
			fail(im, pidx(im, path, i), "expected a dimension size");
		if (json_integer_value(d) && n > UINT64_MAX / json_integer_value(d))
			fail(im, path, "shape too large");
		n *= json_integer_value(d);
	}
	return n;
}

/* One declared weight against the file's header. */
static void
check_weight(Imp *im, json_t *t, const char *path)
{
	const char *name = jstr(im, t, "name", path), *dtype = jstr(im, t, "dtype", path);
	json_t *shape = jreq(im, t, "shape", JSON_ARRAY, path);
	json_t *h = json_object_get(im->w.header, name), *off, *b, *e;
	const char *have;
	uint64_t want, lo, hi;

	dtype_type(im, dtype, pkey(im, path, "dtype"));
	want = numel(im, shape, pkey(im, path, "shape"));
	if (want > UINT64_MAX / dtype_size(dtype))
		fail(im, path, "shape too large");
	want *= dtype_size(dtype);
	if (!json_is_object(h))
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
