/* call.c - one op from its schema: FX args and kwargs are bound to the
 * schema's parameters by position and name, missing ones get their
 * default, each becomes an operand of the parameter's torch type, and the
 * results take the shapes and dtypes the exporter recorded.  An op with no
 * row in lib/torch_ops.def becomes a generic torch.operator, as in
 * torch-mlir, so import never fails on an unknown op. */
#include <string.h>

#include "fximport.h"

/* Binds args and kwargs to sc's parameters; on a mismatch fails when
 * strict, else returns NULL. */
static Bound *
bind(Imp *im, Schema *sc, const char *opname, json_t *args, json_t *kwargs,
	const char *path, int strict)
{
	Bound *b = arena_alloc(im->c, (sc->n + 1) * sizeof *b);
	const char *key, *ap = pkey(im, path, "args"), *kp = pkey(im, path, "kwargs");
	json_t *v;
	size_t i;
	int k;

	if (json_array_size(args) > (size_t)sc->n) {
		if (!strict)
			return NULL;
		fail(im, pidx(im, ap, sc->n), "too many arguments for '%s' (it takes %d)",
		    opname, sc->n);
	}
	json_array_foreach(args, i, v)
		b[i] = (Bound){v, pidx(im, ap, i)};
	json_object_foreach(kwargs, key, v) {
		for (k = 0; k < sc->n && strcmp(sc->p[k].name, key); k++)
			;
		if (k == sc->n || b[k].arg) {
			if (!strict)
				return NULL;
			fail(im, pkey(im, kp, key), "'%s' has no argument '%s'%s", opname, key,
			    k < sc->n ? " left to bind" : "");
		}
		b[k] = (Bound){v, pkey(im, kp, key)};
	}
	for (k = 0; k < sc->n; k++) {
		if (b[k].arg)
			continue;
		if (!sc->p[k].dflt) {
			if (!strict)
				return NULL;
			fail(im, path, "missing argument '%s' of '%s'", sc->p[k].name, opname);
		}
		b[k] = (Bound){sc->p[k].dflt, path};
	}
	return b;
}

static Schema *
schema_for(Imp *im, const OpInfo *info, const char *opname, json_t *args,
	json_t *kwargs)
{
	json_t *ops = json_object_get(im->root, "operators");
	json_t *jop = json_object_get(ops, opname);
	char def[256];

	if (!jop) {   /* recorded under its full FX target */
		snprintf(def, sizeof def, "%s.default", opname);
		jop = json_object_get(ops, def);
	}
	if (info && info->sig)
		return schema_from_sig(im, info, jop);
	if (jop)
		return schema_from_json(im, jop, pkey(im, "operators", opname));
	return schema_any(im, json_array_size(args), kwargs);
}

static const OpInfo *
lookup(const char *opname)
{
	char full[256];

	snprintf(full, sizeof full, "torch.%s", opname);
	return opinfo_lookup(full);
}

int
call_fits(Imp *im, const char *opname, json_t *args, json_t *kwargs)
{
	const OpInfo *info = lookup(opname);
	Schema *sc;
	Bound *b;
	int k;

	if (!info || !info->sig)
		return 0;
	sc = schema_for(im, info, opname, args, kwargs);
	if (!(b = bind(im, sc, opname, args, kwargs, "", 0)))
		return 0;
	for (k = 0; k < sc->n; k++)
		if (!arg_fits(im, b[k].arg, sc->p[k].type))
			return 0;
	return 1;
}

/* Result types from the node's recorded value; the result that aliases a
 * mutated argument is a !torch.tensor. */
static int
result_types(Imp *im, Node *n, Schema *sc, int mut, Type ***out, const char *path)
{
	json_t *value = json_object_get(n->j, "value"), *items = list_items(value), *it;
	const char *vp = pkey(im, path, "value");
	int one_list = sc->nrets == 1 && sc->rets[0]->k == SK_LIST;
	size_t i, nres;

	if (items && !one_list && sc->nrets != 1) {
		nres = json_array_size(items);
		*out = arena_alloc(im->c, (nres + 1) * sizeof **out);
		json_array_foreach(items, i, it)
			(*out)[i] = value_type(im, it, mut && i == 0,
			    pidx(im, pkey(im, vp, "items"), i));
		return nres;
	}
	if (sc->nrets == 0 || (sc->nrets < 0 && jtag_is(value, "none")))
		return 0;
	*out = arena_alloc(im->c, sizeof **out);
	(*out)[0] = value_type(im, value, mut && !one_list, vp);
	return 1;
}

void
set_results(Imp *im, Node *n, Op *op, Slot *mutated)
{
	int i;

	n->nres = op->nres;
	n->res = arena_alloc(im->c, (op->nres + 1) * sizeof *n->res);
	for (i = 0; i < op->nres; i++)
		n->res[i] = slot_new(im, RES(op, i));
	if (mutated && op->nres && RES(op, 0)->type->kind == TY_TORCH_TENSOR) {
		mutated->h = RES(op, 0);
		n->res[0] = mutated;
	}
}

/* Ops whose result aliases operand 0 (PyTorch's views): a write into
 * either is a write into both. */
int
is_view(const char *opname)
{
	static const char *const views[] = {
		"view", "_unsafe_view", "_reshape_alias", "reshape", "view_as", "slice", "select",
		"transpose", "t", "numpy_T", "permute", "expand", "expand_as", "squeeze",
		"unsqueeze", "as_strided", "diagonal", "unfold", "alias", "narrow", "detach",
		"flatten", "unflatten", "movedim", "moveaxis", "swapaxes", "swapdims",
		"view_as_real", "view_as_complex", "real", "imag", "indices", "values",
		"_indices", "_values", "split", "unbind", "chunk", "T", "mT", "mH", "H",
		"adjoint", "lift_fresh", NULL,
	};
	const char *b = opname, *e;
	int i;

	if (!strncmp(b, "aten.", 5))
		b += 5;
	else if (!strncmp(b, "aten::", 6))
		b += 6;
	e = b + strcspn(b, ".");
	for (i = 0; views[i]; i++)
		if ((size_t)(e - b) == strlen(views[i]) && !strncmp(b, views[i], e - b))
			return 1;
	return 0;
}

static Value *
operand(Imp *im, Param *p, Bound *b, const char *opname, Slot **mutated)
{
	Slot *s;

	if (p->mutable && (jtag_is(b->arg, "tensor") || jtag_is(b->arg, "node"))) {
		s = tensor_slot(im, b->arg, b->path);
		if (!*mutated)
			*mutated = s;
		/* other views of what s views, or s's own views, go stale */
		s->writes++;
		if (s->base) {
			s->base->written_via_view = 1;
			s->base->writes++;
			s->base_writes = s->base->writes;
		}
		return slot_handle(im, s);
	}
	return import_arg(im, b->arg, p->type, opname, b->path);
}

static Op *
make_op(Imp *im, const OpInfo *info, const char *opname, int n, Value **v,
	int nres, Type **types)
{
	Op *op;

	if (info)
		return emit(im, info->name, n, v, nres, types);
	op = emit(im, "torch.operator", n, v, nres, types);
	op_set_attr(im->c, op, "name", at_str(im->c, opname));
	return op;
}

/* A getitem of a list of views (split, unbind, chunk): its slot has no
 * base, but its storage is another tensor's. */
static int
piece_of_view(Imp *im, Node *nd)
{
	const char *t = json_string_value(json_object_get(nd->j, "target"));
	json_t *from = json_array_get(json_object_get(nd->j, "args"), 0);
	json_t *i = json_object_get(im->byname, json_string_value(json_object_get(from, "node")));

	if (!t || strcmp(t, "operator.getitem") || !i)
		return 0;
	t = json_string_value(json_object_get(im->nodes[json_integer_value(i)].j, "target"));
	if (t && !strncmp(t, "torch.", 6))
		t += 6;
	return t && is_view(t);
}

/* aten.as_strided and its copy and scatter forms address the operand's
 * storage, which a value tensor no longer has: torch-opt reads them over
 * the operand's elements in row-major order.  That is PyTorch's meaning
 * only when the operand was laid out so in eager (the strides fx-export
 * recorded are row-major ones; a size-1 dim's stride is irrelevant) and,
 * for an explicit storage_offset, when its storage begins at its first
 * element (it is no view of another tensor: a view's own offset was not
 * recorded).  Anything else is refused here. */
static void
check_as_strided(Imp *im, const char *opname, Bound *b, int n)
{
	const char *e = strchr(opname, '.') ? strchr(opname, '.') + 1 : opname;
	size_t len = strcspn(e, ".");
	json_t *val, *shape, *strides;
	Node *src;
	int64_t want = 1;
	int k, r, off;

	if (!((len == 10 && !strncmp(e, "as_strided", 10))
	    || (len == 11 && !strncmp(e, "as_strided_", 11))
	    || (len == 15 && !strncmp(e, "as_strided_copy", 15))
	    || (len == 18 && !strncmp(e, "as_strided_scatter", 18))))
		return;
	off = len == 18 ? 4 : 3;
	if (n < 1 || !(jtag_is(b[0].arg, "tensor") || jtag_is(b[0].arg, "node")))
		return;
	src = node_ref(im, b[0].arg, b[0].path);
	val = json_object_get(src->j, "value");
	shape = json_object_get(val, "shape");
	strides = json_object_get(val, "strides");
	if (!json_is_array(shape) || !json_is_array(strides)
	    || json_array_size(shape) != json_array_size(strides))
		fail(im, b[0].path, "'%s' reads the storage of '%s', whose strides were not "
		    "recorded; it cannot be read over a value tensor", opname, src->name);
	r = (int)json_array_size(shape);
	for (k = 0; k < r; k++)
		if (!json_is_integer(json_array_get(shape, k))
		    || !json_is_integer(json_array_get(strides, k)))
			fail(im, b[0].path, "'%s' reads the storage of '%s', whose shape or strides "
			    "are symbolic; not supported", opname, src->name);
	for (k = r - 1; k >= 0; k--) {
		int64_t d = json_integer_value(json_array_get(shape, k));
		if (d != 1 && json_integer_value(json_array_get(strides, k)) != want)
			fail(im, b[0].path, "'%s' reads the storage of '%s', which is not laid out "
			    "row-major in PyTorch (its strides are not those of its shape); not "
			    "supported", opname, src->name);
		want *= d > 1 ? d : 1;   /* PyTorch's: an extent of 0 steps as 1 */
	}
	if (n > off && b[off].arg && !jtag_is(b[off].arg, "none")
	    && src->nres == 1 && (src->res[0]->base || piece_of_view(im, src)))
		fail(im, b[off].path, "'%s' with a storage_offset on '%s', a view of another "
		    "tensor whose own storage offset is unknown; not supported", opname, src->name);
}

json_t *
bound_args(Imp *im, const char *opname, json_t *args, json_t *kwargs,
	const char *path, int *n)
{
	const OpInfo *info = lookup(opname);
	Schema *sc = schema_for(im, info, opname, args, kwargs);
	Bound *b = bind(im, sc, opname, args, kwargs, path, 1);
	json_t *a = json_array();
	int k;

	for (k = 0; k < sc->n; k++)
		json_array_append(a, b[k].arg);
	*n = sc->n;
	return a;
}

void
import_call(Imp *im, Node *n, const char *opname, json_t *args, json_t *kwargs,
	const char *path)
{
	import_call_self(im, n, opname, args, kwargs, path, NULL);
}

void
import_call_self(Imp *im, Node *n, const char *opname, json_t *args, json_t *kwargs,
	const char *path, Value *self)
{
	const OpInfo *info = lookup(opname);
	Schema *sc = schema_for(im, info, opname, args, kwargs);
	Bound *b = bind(im, sc, opname, args, kwargs, path, 1);
	Value **v = arena_alloc(im->c, (sc->n + 1) * sizeof *v);
	Slot *mutated = NULL;
	Type **types = NULL;
	int64_t off = 0;
	/* a complex operand replaced by self (its magnitudes) has no layout */
	const Layout *lsrc = self ? NULL : as_strided_source(im, opname, b, sc->n, &off);
	int k, nres;

	/* as_strided of a tensor whose storage strided.c knows reads that
	 * storage, from the absolute offset; else the row-major check */
	if (!lsrc)
		check_as_strided(im, opname, b, sc->n);
	for (k = 0; k < sc->n; k++)
		v[k] = k == 0 && self ? self : lsrc && k == 0 ? storage_of(im, lsrc)
		    : lsrc && k == 3 ? c_int(im, off) : operand(im, &sc->p[k], &b[k], opname, &mutated);
	nres = result_types(im, n, sc, mutated != NULL, &types, path);
	set_results(im, n, make_op(im, info, opname, sc->n, v, nres, types), mutated);
	for (k = 0; k < n->nres; k++)
		if (!n->res[k]->name)
			n->res[k]->name = n->name;
	if (sc->n && n->nres == 1 && n->res[0] != mutated && is_view(opname)
	    && (jtag_is(b[0].arg, "tensor") || jtag_is(b[0].arg, "node"))) {
		Slot *src = tensor_slot(im, b[0].arg, b[0].path), *r = n->res[0];
		r->base = src->base ? src->base : src;
		r->base_writes = r->base->writes;
	}
	layout_note(im, n, opname, b, sc->n);
}
