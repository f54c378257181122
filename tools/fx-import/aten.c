/* aten.c - aten-level nodes: torch.ops.aten.* calls, one op each, and
 * operator.getitem, which picks one result of a multi-result op or of a
 * list (unpacked with torch.prim.ListUnpack at the first getitem, as
 * torch-mlir does). */
#include <string.h>

#include "fximport.h"

/* "aten.unsqueeze.default" -> "aten.unsqueeze", as torch-mlir names ops */
static const char *
opname_of(Imp *im, const char *target)
{
	/* the symbolic-int queries are the plain ones, as torch-mlir's FX
	 * importer maps them */
	static const char *const sym[][2] = {
		{"aten.sym_size.int", "aten.size.int"}, {"aten.sym_size", "aten.size"},
		{"aten.sym_size.default", "aten.size"}, {"aten.sym_stride.int", "aten.stride.int"},
		{"aten.sym_stride.default", "aten.stride"}, {"aten.sym_numel.default", "aten.numel"},
		{"aten.sym_numel", "aten.numel"},
	};
	size_t n = strlen(target), i;

	for (i = 0; i < sizeof sym / sizeof *sym; i++)
		if (!strcmp(target, sym[i][0]))
			return sym[i][1];
	if (n > 8 && !strcmp(target + n - 8, ".default"))
		return arena_strndup(im->c, target, n - 8);
	return target;
}

/* aten.index.Tensor, index_put and kin: no more indices than self has
 * dimensions (a boolean or uint8 mask counts as its rank, as in PyTorch),
 * else torch-lower would index past the rank. */
static void
check_indices(Imp *im, const char *opname, json_t *args, const char *path)
{
	static const char *const ops[] = {
		"aten.index.Tensor", "aten.index_put", "aten._index_put_impl",
		"aten._unsafe_index", NULL,
	};
	json_t *items = list_items(json_array_get(args, 1)), *it;
	const char *ip = pidx(im, pkey(im, path, "args"), 1);
	Slot *s;
	Type *t;
	size_t i;
	int k, used = 0;

	for (k = 0; ops[k] && strncmp(opname, ops[k], strlen(ops[k])); k++)
		;
	if (!ops[k] || !items || !jtag_is(json_array_get(args, 0), "tensor"))
		return;
	s = tensor_slot(im, json_array_get(args, 0), pidx(im, pkey(im, path, "args"), 0));
	t = s->h ? s->h->type : s->v->type;
	if (!t->ranked)
		return;
	json_array_foreach(items, i, it) {
		Type *it_t = NULL;
		if (jtag_is(it, "tensor")) {
			Slot *is = tensor_slot(im, it, pidx(im, pkey(im, ip, "items"), i));
			it_t = is->h ? is->h->type : is->v->type;
		}
		used += it_t && it_t->ranked && it_t->elem && it_t->elem->kind == TY_INT
		    && (it_t->elem->width == 1 || (it_t->elem->width == 8
		    && it_t->elem->sign == UNSIGNED)) ? it_t->rank : 1;
	}
	if (used > t->rank)
		fail(im, ip, "too many indices for tensor of dimension %d", t->rank);
}

/* aten.squeeze.dims (PyTorch 2's squeeze of several dims) is not in
 * torch-mlir's op set.  Shapes are static, so it is the view to its
 * result's shape, which the node's value gives: the args become
 * [self, shape], kept in the node's JSON (which outlives the import). */
static json_t *
squeeze_dims_as_view(Imp *im, Node *n, json_t *args, const char *path)
{
	const char *vp = pkey(im, path, "value");
	json_t *value = jreq(im, n->j, "value", JSON_OBJECT, path);
	json_t *shape = jreq(im, value, "shape", JSON_ARRAY, vp);
	json_t *dims = tag_list(), *view = json_array(), *d;
	size_t i;

	json_array_foreach(shape, i, d) {
		if (!json_is_integer(d))
			fail(im, pidx(im, pkey(im, vp, "shape"), i), "expected a static size");
		json_array_append_new(list_items(dims), tag_int(json_integer_value(d)));
	}
	json_array_append(view, json_array_get(args, 0));
	json_array_append_new(view, dims);
	json_object_set_new(n->j, "fxpipe_view_args", view);
	return view;
}

/* aten.squeeze.dims with symbolic sizes: a torch.aten.squeeze.dim per
 * dimension it drops, the highest first (a view to the result's shape
 * would need its sizes as values).  A listed dimension of static size 1
 * goes, one of another static size stays; one of a symbolic size is an
 * error, as squeeze drops it where it is 1 at run time (torch.export lists
 * it for squeeze() of a batch).  1 when imported so, 0 when the shapes are
 * static (the view serves). */
static int
squeeze_dims_dynamic(Imp *im, Node *n, json_t *args, const char *path)
{
	json_t *shape = json_object_get(json_object_get(n->j, "value"), "shape"), *d;
	json_t *self = json_array_get(args, 0), *dims = list_items(json_array_get(args, 1));
	const char *ap = pkey(im, path, "args");
	Slot *s;
	Type *t;
	Value *v;
	size_t i;
	int drop[64] = {0}, ndrop = 0, k, last = -1;

	json_array_foreach(shape, i, d)
		if (!json_is_integer(d))
			break;
	if (!shape || i == json_array_size(shape) || !dims)
		return 0;
	s = tensor_slot(im, self, pidx(im, ap, 0));
	t = s->h ? s->h->type : s->v->type;
	if (!t->ranked || t->rank > 64)
		fail(im, pidx(im, ap, 0), "squeeze of a tensor of unknown or over 64 dimensions");
	json_array_foreach(dims, i, d) {
		int64_t x = json_integer_value(json_object_get(d, "value"));
		if (!json_is_integer(json_object_get(d, "value")) || x < -t->rank || x >= t->rank)
			fail(im, pidx(im, ap, 1), "expected dimensions in [-%d, %d)", t->rank, t->rank);
		x = x < 0 ? x + t->rank : x;
		if (t->dims[x] == DYN)
			fail(im, pidx(im, ap, 1), "squeeze of dimension %lld, of a symbolic size: "
			    "it goes where the size is 1 at run time, and fxpipe cannot give the "
			    "result a rank that depends on that (squeeze dimensions of static size)",
			    (long long)x);
		if (t->dims[x] == 1 && !drop[x])
			drop[x] = 1, ndrop++;
	}
	if (t->rank - ndrop != (int)json_array_size(shape))
		fail(im, pkey(im, path, "value"), "the result has %d dimensions; squeezing the "
		    "dimensions of static size 1 leaves %d", (int)json_array_size(shape),
		    t->rank - ndrop);
	v = slot_read(im, s);
	for (k = t->rank - 1; k >= 0; k--) {
		if (!drop[k])
			continue;
		if (last >= 0) {
			int64_t nd[64];
			int j, r = 0;
			for (j = 0; j < v->type->rank; j++)
				if (j != last)
					nd[r++] = v->type->dims[j];
			v = emit1(im, "torch.aten.squeeze.dim", 2, (Value *[]){v, c_int(im, last)},
			    ty_with_dims(im->c, v->type, r, nd));
		}
		last = k;
	}
	json_t *a = json_array();
	json_array_append(a, self);
	json_array_append_new(a, tag_int(last < 0 ? 0 : last));
	json_object_set_new(n->j, "fxpipe_squeeze_args", a);
	import_call_self(im, n, "aten.squeeze.dim", a, json_object(), path, v);
	return 1;
}

void
import_aten_node(Imp *im, Node *n, const char *path)
{
	json_t *args = jreq(im, n->j, "args", JSON_ARRAY, path);
	json_t *kwargs = jreq(im, n->j, "kwargs", JSON_OBJECT, path);
	const char *opname = opname_of(im, jstr(im, n->j, "target", path));

	if (complex_involved(im, n)) {
		import_complex(im, n, opname, args, kwargs, path);
		return;
	}
	check_indices(im, opname, args, path);
	if (!strcmp(opname, "aten.squeeze.dims") && squeeze_dims_dynamic(im, n, args, path))
		return;
	if (!strcmp(opname, "aten.squeeze.dims")) {
		args = squeeze_dims_as_view(im, n, args, path);
		opname = "aten.view";
	}
	import_call(im, n, opname, args, kwargs, path);
}

void
list_unpack(Imp *im, Node *s, const char *path)
{
	json_t *items = list_items(json_object_get(s->j, "value")), *it;
	Type **types;
	Value *list;
	size_t i, n;
	Op *op;

	if (!items)
		fail(im, path, "the length of list '%s' is not known", s->name);
	n = json_array_size(items);
	types = arena_alloc(im->c, (n + 1) * sizeof *types);
	json_array_foreach(items, i, it)
		types[i] = value_type(im, it, 0, path);
	list = slot_read(im, s->res[0]);
	op = emit(im, "torch.prim.ListUnpack", 1, &list, n, types);
	s->unpacked = arena_alloc(im->c, (n + 1) * sizeof *s->unpacked);
	for (i = 0; i < n; i++)
		s->unpacked[i] = slot_new(im, RES(op, i));
	s->nunpacked = n;
}

static int64_t
item_index(Imp *im, json_t *idx, int64_t count, const char *name, const char *path)
{
	int64_t i;

	if (!jtag_is(idx, "int"))
		fail(im, path, "expected an int index into '%s'", name);
	i = jint(im, idx, "value", path);
	if (i < 0)
		i += count;
	if (i < 0 || i >= count)
		fail(im, path, "index %lld is out of range for '%s' (%lld items)",
		    (long long)jint(im, idx, "value", path), name, (long long)count);
	return i;
}

void
import_getitem(Imp *im, Node *n, const char *path)
{
	json_t *args = jreq(im, n->j, "args", JSON_ARRAY, path);
	const char *ap = pkey(im, path, "args");
	Node *s;
	int64_t i;

	if (json_array_size(args) != 2)
		fail(im, ap, "getitem takes 2 arguments");
	s = node_ref(im, json_array_get(args, 0), pidx(im, ap, 0));
	n->nres = 1;
	if (s->nres > 1) {
		i = item_index(im, json_array_get(args, 1), s->nres, s->name, pidx(im, ap, 1));
		n->res = &s->res[i];
		return;
	}
	if (s->res[0]->v->type->kind == TY_TORCH_LIST) {
		if (!s->unpacked)
			list_unpack(im, s, path);
		i = item_index(im, json_array_get(args, 1), s->nunpacked, s->name,
		    pidx(im, ap, 1));
		n->res = &s->unpacked[i];
		return;
	}
	n->nres = 0;
	import_tensor_index(im, n, path);
}
