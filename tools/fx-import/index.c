/* index.c - x[...] at the torch level: operator.getitem on a tensor, as
 * the chain of aten ops PyTorch's indexing runs: an int is select.int, a
 * slice is slice.Tensor, None is unsqueeze, `...` skips dimensions, and
 * tensors index with index.Tensor.  The intermediate shapes are computed
 * here; the last op takes the shape the exporter recorded. */
#include <string.h>

#include "fximport.h"

typedef struct Cur {
	Value *v;
	int rank;
	int64_t dims[TORCH_MAXRANK];
	Type *dtype;
} Cur;

static Type *
cur_type(Imp *im, Cur *c)
{
	return ty_vtensor(im->c, c->rank, c->dims, c->dtype);
}

static void
step(Imp *im, Cur *c, const char *op, int n, Value **opnds)
{
	opnds[0] = c->v;
	c->v = emit1(im, op, n, opnds, cur_type(im, c));
}

static int64_t
const_int(json_t *a, int64_t dflt, int *known)
{
	if (jtag_is(a, "none"))
		return dflt;
	if (jtag_is(a, "int"))
		return json_integer_value(json_object_get(a, "value"));
	*known = 0;
	return dflt;
}

static int64_t
clampi(int64_t v, int64_t size)
{
	if (v < 0)
		v += size;
	return v < 0 ? 0 : v > size ? size : v;
}

static const SType optint = {SK_OPTIONAL, &(SType){SK_INT}};

static void
do_slice(Imp *im, Cur *c, int dim, json_t *sl, const char *path)
{
	json_t *start = jreq(im, sl, "start", JSON_OBJECT, path);
	json_t *stop = jreq(im, sl, "stop", JSON_OBJECT, path);
	json_t *stp = jreq(im, sl, "step", JSON_OBJECT, path);
	int known = c->dims[dim] != DYN;
	int64_t size = c->dims[dim];
	int64_t b = const_int(start, 0, &known), e = const_int(stop, size, &known);
	int64_t s = const_int(stp, 1, &known);
	Value *o[5];

	if (jtag_is(start, "none") && jtag_is(stop, "none") && jtag_is(stp, "none"))
		return;
	if (s <= 0)
		fail(im, path, "slice step must be positive");
	o[1] = c_int(im, dim);
	o[2] = import_arg(im, start, (SType *)&optint, "slice", pkey(im, path, "start"));
	o[3] = import_arg(im, stop, (SType *)&optint, "slice", pkey(im, path, "stop"));
	o[4] = jtag_is(stp, "none") ? c_int(im, 1)
	    : import_arg(im, stp, (SType *)optint.elem, "slice", pkey(im, path, "step"));
	b = clampi(b, size);
	e = clampi(e, size);
	c->dims[dim] = !known ? DYN : e > b ? (e - b + s - 1) / s : 0;
	step(im, c, "torch.aten.slice.Tensor", 5, o);
}

static void
do_select(Imp *im, Cur *c, int dim, json_t *idx, const char *path)
{
	Value *o[3];

	o[1] = c_int(im, dim);
	o[2] = import_arg(im, idx, (SType *)optint.elem, "select", path);
	memmove(&c->dims[dim], &c->dims[dim + 1], (c->rank - dim - 1) * sizeof *c->dims);
	c->rank--;
	step(im, c, "torch.aten.select.int", 3, o);
}

static void
do_unsqueeze(Imp *im, Cur *c, int dim, const char *path)
{
	Value *o[2];

	if (c->rank >= TORCH_MAXRANK)
		fail(im, path, "indexing gives more than %d dimensions (fxpipe's limit)",
		    TORCH_MAXRANK);
	o[1] = c_int(im, dim);
	memmove(&c->dims[dim + 1], &c->dims[dim], (c->rank - dim) * sizeof *c->dims);
	c->dims[dim] = 1;
	c->rank++;
	step(im, c, "torch.aten.unsqueeze", 2, o);
}

/* Advanced indexing: tensors at dims, none elsewhere. */
static void
do_index(Imp *im, Cur *c, int n, Value **ix)
{
	Type *ot = ty_torch_optional(im->c, ty_vtensor(im->c, -1, NULL, NULL));
	Value *o[2];
	int i;

	for (i = 0; i < n; i++)
		ix[i] = ix[i] ? emit1(im, "torch.derefine", 1, &ix[i], ot) : c_none(im);
	o[1] = list_construct(im, n, ix, ot);
	c->rank = 0;   /* the recorded type replaces it */
	step(im, c, "torch.aten.index.Tensor", 2, o);
}

/* The dimensions an index item uses up, as PyTorch counts them for "too
 * many indices" and for what `...` stands for: a boolean (or uint8) mask
 * its rank, an int, a slice or another tensor one, None and `...` none. */
static int
consumes(Imp *im, json_t *it, const char *path)
{
	Slot *s;
	Type *t;

	if (jtag_is(it, "none") || jtag_is(it, "ellipsis"))
		return 0;
	if (!jtag_is(it, "tensor"))
		return 1;
	s = tensor_slot(im, it, path);
	t = s->h ? s->h->type : s->v->type;
	if (t->ranked && t->elem && t->elem->kind == TY_INT
	    && (t->elem->width == 1 || (t->elem->width == 8 && t->elem->sign == UNSIGNED)))
		return t->rank;
	return 1;
}

static int
same_dims(Type *t, Cur *c)
{
	int i;

	if (t->rank != c->rank)
		return 0;
	for (i = 0; i < c->rank; i++)
		if (t->dims[i] != c->dims[i] && t->dims[i] != DYN && c->dims[i] != DYN)
			return 0;
	return 1;
}

/* "[2, ?, 3]" */
static const char *
dims_str(Imp *im, int rank, const int64_t *dims)
{
	size_t n = 3 + 22 * rank, k = 0;
	char *s = arena_alloc(im->c, n);
	int i;

	s[k++] = '[';
	for (i = 0; i < rank; i++)
		k += dims[i] == DYN ? snprintf(s + k, n - k, "%s?", i ? ", " : "")
		    : snprintf(s + k, n - k, "%s%lld", i ? ", " : "", (long long)dims[i]);
	snprintf(s + k, n - k, "]");
	return s;
}

void
import_tensor_index(Imp *im, Node *n, const char *path)
{
	json_t *args = json_object_get(n->j, "args"), *idx = json_array_get(args, 1), *it;
	json_t *items = jtag_is(idx, "tuple") ? list_items(idx) : NULL;
	const char *ip = pidx(im, pkey(im, path, "args"), 1);
	Slot *src = tensor_slot(im, json_array_get(args, 0), pidx(im, pkey(im, path, "args"), 0));
	Value *first = slot_read(im, src), *ix[TORCH_MAXRANK] = {0};
	Cur c = {first, 0, {0}, first->type->elem};
	int dim = 0, used = 0, nix = 0, ellipses = 0;
	Type *rt;
	size_t i;

	if (!first->type->ranked)
		fail(im, path, "indexing needs a tensor of known rank");
	if (first->type->rank > TORCH_MAXRANK)
		fail(im, path, "indexing a tensor of %d dimensions; fxpipe supports at most %d",
		    first->type->rank, TORCH_MAXRANK);
	c.rank = first->type->rank;
	memcpy(c.dims, first->type->dims, c.rank * sizeof *c.dims);
	if (!items) {
		items = json_array();
		json_array_append(items, idx);
	}
	/* PyTorch's checks, before anything is emitted: every dimension
	 * below is then within c.rank */
	json_array_foreach(items, i, it) {
		const char *p = items == list_items(idx) ? pidx(im, pkey(im, ip, "items"), i) : ip;
		used += consumes(im, it, p);
		if (jtag_is(it, "ellipsis") && ellipses++)
			fail(im, p, "an index can only have a single ellipsis ('...')");
	}
	if (used > c.rank)
		fail(im, ip, "too many indices for tensor of dimension %d", c.rank);
	json_array_foreach(items, i, it) {
		const char *p = items == list_items(idx) ? pidx(im, pkey(im, ip, "items"), i) : ip;
		if (consumes(im, it, p) && dim >= c.rank)
			fail(im, p, "index past the tensor's %d dimensions", c.rank);
		if (jtag_is(it, "slice"))
			do_slice(im, &c, dim++, it, p);
		else if (jtag_is(it, "int") || jtag_is(it, "node"))
			do_select(im, &c, dim, it, p);
		else if (jtag_is(it, "none"))
			do_unsqueeze(im, &c, dim++, p);
		else if (jtag_is(it, "ellipsis"))
			dim += first->type->rank - used;
		else if (jtag_is(it, "tensor")) {
			/* like PyTorch, a mask moves on by one dimension too */
			ix[dim] = slot_read(im, tensor_slot(im, it, p));
			nix = ++dim;
		} else
			fail(im, p, "unsupported index");
	}
	if (nix)
		do_index(im, &c, nix, ix);
	n->nres = 1;
	n->res = arena_alloc(im->c, sizeof *n->res);
	if (c.v == first) {   /* x[:] is x */
		n->res[0] = src;
		return;
	}
	rt = value_type(im, json_object_get(n->j, "value"), 0, pkey(im, path, "value"));
	if (!nix && rt->ranked && !same_dims(rt, &c))
		fail(im, pkey(im, path, "value"), "the recorded value has shape %s, "
		    "but indexing gives %s", dims_str(im, rt->rank, rt->dims),
		    dims_str(im, c.rank, c.dims));
	value_set_type(c.v, rt);
	n->res[0] = slot_new(im, c.v);
	n->res[0]->name = n->name;
	if (!nix) {   /* basic indexing is a view of src */
		n->res[0]->base = src->base ? src->base : src;
		n->res[0]->base_writes = n->res[0]->base->writes;
	}
}
