/* types.c - PyTorch dtypes and enums, and the torch types of FX values. */
#include <stdint.h>
#include <string.h>

#include "fximport.h"

/* One row per dtype: torch name, torch-mlir element type, bytes, PyTorch's
 * ScalarType number (c10/core/ScalarType.h). */
static const struct {
	const char *name;
	TypeKind kind;
	int width;
	Signedness sign;
	int size, scalar_type;
} dtypes[] = {
	{"uint8", TY_INT, 8, UNSIGNED, 1, 0},
	{"int8", TY_INT, 8, SIGNED, 1, 1},
	{"int16", TY_INT, 16, SIGNED, 2, 2},
	{"int32", TY_INT, 32, SIGNED, 4, 3},
	{"int64", TY_INT, 64, SIGNED, 8, 4},
	{"float16", TY_F16, 0, 0, 2, 5},
	{"float32", TY_F32, 0, 0, 4, 6},
	{"float64", TY_F64, 0, 0, 8, 7},
	{"bool", TY_INT, 1, SIGNLESS, 1, 11},
	{"bfloat16", TY_BF16, 0, 0, 2, 15},
	/* complex: a pair of reals (complex.c); -1: no dtype argument */
	{"complex64", TY_F32, 0, 0, 8, -1},
	{"complex128", TY_F64, 0, 0, 16, -1},
	/* quantized: their integers (complex.c) */
	{"qint8", TY_INT, 8, SIGNED, 1, -1},
	{"quint8", TY_INT, 8, UNSIGNED, 1, -1},
	{"qint32", TY_INT, 32, SIGNED, 4, -1},
};
enum { NDTYPES = sizeof dtypes / sizeof *dtypes };

static int
dtype_row(const char *name)
{
	int i;

	for (i = 0; i < NDTYPES; i++)
		if (!strcmp(dtypes[i].name, name))
			return i;
	return -1;
}

Type *
dtype_type(Imp *im, const char *dtype, const char *path)
{
	int i = dtype_row(dtype);

	if (i < 0 || dtype_is_complex(dtype) || dtype_is_quant(dtype))
		fail(im, path, "unsupported dtype '%s'", dtype);
	if (dtypes[i].kind == TY_INT)
		return ty_int(im->c, dtypes[i].width, dtypes[i].sign);
	return ty_float(im->c, dtypes[i].kind);
}

int
dtype_is_complex(const char *dtype)
{
	return dtype && !strncmp(dtype, "complex", 7) && dtype_row(dtype) >= 0;
}

int
dtype_is_quant(const char *dtype)
{
	return dtype && (!strcmp(dtype, "qint8") || !strcmp(dtype, "quint8")
	    || !strcmp(dtype, "qint32"));
}

size_t
dtype_size(const char *dtype)
{
	int i = dtype_row(dtype);

	return i < 0 ? 0 : dtypes[i].size;
}

int
dtype_enum(const char *dtype)
{
	int i = dtype_row(dtype);

	return i < 0 ? -1 : dtypes[i].scalar_type;
}

/* layout and memory_format arguments: torch-mlir passes their enum value
 * as an int, like dtypes. */
static const struct {
	const char *tag, *name;
	int value;
} enums[] = {
	{"layout", "strided", 0},
	{"layout", "sparse_coo", 1},
	{"memory_format", "contiguous_format", 0},
	{"memory_format", "preserve_format", 1},
	{"memory_format", "channels_last", 2},
	{"memory_format", "channels_last_3d", 3},
};

int64_t
enum_value(Imp *im, json_t *arg, const char *path)
{
	const char *tag = jtag(im, arg, path);
	const char *v = jstr(im, arg, "value", path);
	size_t i;

	if (!strcmp(tag, "dtype")) {
		int e = dtype_enum(v);
		if (e < 0)
			fail(im, path, "unsupported dtype '%s'", v);
		return e;
	}
	for (i = 0; i < sizeof enums / sizeof *enums; i++)
		if (!strcmp(enums[i].tag, tag) && !strcmp(enums[i].name, v))
			return enums[i].value;
	fail(im, path, "unsupported %s '%s'", tag, v);
}

/* Every tensor the JSON describes goes through here: the rest of fxpipe
 * relies on at most TORCH_MAXRANK dimensions, and on sizes, strides and
 * byte counts that fit in int64_t.  A dimension of 0 counts as 1 in the
 * size limit, so that the strides of an empty tensor stay in range too. */
static uint64_t
shape_walk(Imp *im, json_t *shape, size_t elsize, const char *path, int symbolic)
{
	uint64_t n = 1, bytes = elsize ? elsize : 1;
	size_t i, rank = json_array_size(shape);
	json_t *d;

	if (rank > TORCH_MAXRANK)
		fail(im, path, "%zu dimensions; fxpipe supports at most %d", rank, TORCH_MAXRANK);
	json_array_foreach(shape, i, d) {
		int64_t v = json_integer_value(d);
		if (symbolic && shape_dim_symbolic(im, d, pidx(im, path, i)))
			continue;
		if (!json_is_integer(d) || v < 0)
			fail(im, pidx(im, path, i), "expected a dimension size");
		if (v > 1 && bytes > (uint64_t)INT64_MAX / v)
			fail(im, path, "shape too large: its size in bytes does not fit in 64 bits");
		bytes *= v ? v : 1;
		n *= v;
	}
	return n;
}

uint64_t
shape_numel(Imp *im, json_t *shape, size_t elsize, const char *path)
{
	return shape_walk(im, shape, elsize, path, 0);
}

void
shape_check(Imp *im, json_t *shape, size_t elsize, const char *path)
{
	shape_walk(im, shape, elsize, path, 1);
}

/* The torch type of a tensor value {"type": "tensor", "shape", "dtype"};
 * handle: the non-value-semantic !torch.tensor.  A complex tensor is its
 * real and imaginary parts on a trailing dimension of 2 (view_as_real),
 * of f32 for complex64 and f64 for complex128; a quantized tensor is its
 * integers, si8 for qint8, ui8 for quint8, si32 for qint32 (complex.c). */
Type *
vtensor_of(Imp *im, json_t *value, int handle, const char *path)
{
	json_t *shape = jreq(im, value, "shape", JSON_ARRAY, path);
	const char *dtype = jstr(im, value, "dtype", path);
	int cx = dtype_is_complex(dtype), r = dtype_row(dtype);
	Type *dt = cx ? ty_float(im->c, dtypes[r].kind)
	    : dtype_is_quant(dtype) ? ty_int(im->c, dtypes[r].width, dtypes[r].sign)
	    : dtype_type(im, dtype, pkey(im, path, "dtype"));
	size_t i, n = json_array_size(shape);
	int64_t *dims = arena_alloc(im->c, (n + 2) * sizeof *dims);

	shape_check(im, shape, dtype_size(dtype), pkey(im, path, "shape"));
	for (i = 0; i < n; i++)
		if ((cx || dtype_is_quant(dtype)) && json_is_string(json_array_get(shape, i)))
			fail(im, pidx(im, pkey(im, path, "shape"), i), "a %s tensor with a symbolic "
			    "size; not supported", cx ? "complex" : "quantized");
	if (cx && n + 1 > TORCH_MAXRANK)
		fail(im, pkey(im, path, "shape"), "a complex tensor of %zu dimensions; fxpipe "
		    "supports at most %d (one more holds the real and imaginary parts)", n,
		    TORCH_MAXRANK - 1);
	for (i = 0; i < n; i++) {
		json_t *d = json_array_get(shape, i);
		dims[i] = json_is_string(d) ? DYN : json_integer_value(d);
	}
	if (cx)
		dims[n++] = 2;
	return handle ? ty_torch_tensor(im->c, n, dims, dt) : ty_vtensor(im->c, n, dims, dt);
}

/* The torch type of a node's recorded value (not a tuple). */
Type *
value_type(Imp *im, json_t *value, int handle, const char *path)
{
	const char *t;
	json_t *items;

	if (!value || jtag_is(value, "unknown"))
		return handle ? ty_torch_tensor(im->c, -1, NULL, NULL)
		    : ty_vtensor(im->c, -1, NULL, NULL);
	t = jtag(im, value, path);
	if (!strcmp(t, "tensor"))
		return vtensor_of(im, value, handle, path);
	if (!strcmp(t, "int"))
		return ty_torch(im->c, TY_TORCH_INT);
	if (!strcmp(t, "float"))
		return ty_torch(im->c, TY_TORCH_FLOAT);
	if (!strcmp(t, "bool"))
		return ty_torch(im->c, TY_TORCH_BOOL);
	if (!strcmp(t, "none"))
		return ty_torch(im->c, TY_TORCH_NONE);
	if (!strcmp(t, "str"))
		return ty_torch(im->c, TY_TORCH_STR);
	if (!strcmp(t, "device"))
		return ty_torch(im->c, TY_TORCH_DEVICE);
	if ((items = list_items(value))) {
		/* a list result: its element type from the first item */
		json_t *first = json_array_get(items, 0);
		Type *e = first ? value_type(im, first, 0, pidx(im, pkey(im, path, "items"), 0))
		    : ty_vtensor(im->c, -1, NULL, NULL);
		if (ty_istorchtensor(e))
			e = ty_vtensor(im->c, -1, NULL, NULL);
		return ty_torch_list(im->c, e);
	}
	return ty_torch(im->c, TY_TORCH_ANY);
}
