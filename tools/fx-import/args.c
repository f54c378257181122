/* args.c - FX arguments to torch values, typed by the op's schema:
 * tensors are node values, scalars become torch.constant.* right before
 * the op, lists become torch.prim.ListConstruct. */
#include <ctype.h>
#include <string.h>

#include "fximport.h"

Node *
node_ref(Imp *im, json_t *arg, const char *path)
{
	const char *name = jstr(im, arg, "node", path);
	json_t *i = json_object_get(im->byname, name);
	Node *n;

	if (!i)
		fail(im, path, "node '%s' is not defined", name);
	n = &im->nodes[json_integer_value(i)];
	if (!n->done)
		fail(im, path, "node '%s' is used before it is defined", name);
	if (n->nres == 0)
		fail(im, path, "node '%s' has no value", name);
	return n;
}

Slot *
tensor_slot(Imp *im, json_t *arg, const char *path)
{
	Node *n = node_ref(im, arg, path);

	if (n->nres != 1)
		fail(im, path, "node '%s' has %d results; expected one", n->name, n->nres);
	return n->res[0];
}

static int
is_ref(json_t *arg)
{
	return jtag_is(arg, "tensor") || jtag_is(arg, "node");
}

/* The type of a referenced node's single value. */
static Type *
ref_type(Imp *im, json_t *arg)
{
	json_t *i = json_object_get(im->byname,
	    json_string_value(json_object_get(arg, "node")));
	Node *n = i ? &im->nodes[json_integer_value(i)] : NULL;

	if (!n || !n->done || n->nres != 1)
		return NULL;
	return n->res[0]->h ? n->res[0]->h->type : n->res[0]->v->type;
}

/* The N of an op on N-d data ("max_pool2d" -> 2), for int[N] args that
 * were given a single int. */
static int
list_len(SType *t, const char *opname)
{
	const char *p;

	if (t->len)
		return t->len;
	for (p = opname; (p = strchr(p, 'd')); p++)
		if (p > opname && isdigit((unsigned char)p[-1])
		    && (!isalnum((unsigned char)p[1]) || p[1] == '_'))
			return p[-1] - '0';
	return 1;
}

static Value *
num_to_tensor(Imp *im, Value *v)
{
	static const struct { TypeKind k; int width; Signedness s; TypeKind f; } m[] = {
		{TY_TORCH_INT, 64, SIGNED, 0},
		{TY_TORCH_FLOAT, 0, 0, TY_F32},
		{TY_TORCH_BOOL, 1, SIGNLESS, 0},
	};
	size_t i;

	for (i = 0; i < sizeof m / sizeof *m; i++) {
		if (v->type->kind != m[i].k)
			continue;
		Type *dt = m[i].f ? ty_float(im->c, m[i].f) : ty_int(im->c, m[i].width, m[i].s);
		return emit1(im, "torch.prim.NumToTensor.Scalar", 1, &v, ty_vtensor(im->c, 0, NULL, dt));
	}
	return v;
}

/* The schema type of a list's items when the schema says nothing. */
static SType *
infer_elem(json_t *items)
{
	static SType tensor = {SK_TENSOR}, ints = {SK_INT}, floats = {SK_FLOAT}, any = {SK_ANY};
	json_t *it;
	size_t i;
	int nt = 0, ni = 0, nf = 0;

	json_array_foreach(items, i, it) {
		nt += jtag_is(it, "tensor");
		ni += jtag_is(it, "int") || jtag_is(it, "node");
		nf += jtag_is(it, "float");
	}
	if (nt && nt == (int)json_array_size(items))
		return &tensor;
	if (ni + nf == (int)json_array_size(items))
		return nf ? &floats : &ints;
	return &any;
}

static Value *
import_list(Imp *im, json_t *arg, SType *t, const char *opname, const char *path)
{
	json_t *items = list_items(arg), *it;
	SType *et = t->k == SK_LIST ? t->elem : infer_elem(items);
	Type *elem = torch_list_elem(im, et);
	size_t i, n;
	Value **v;

	if (!items) {   /* one int standing for int[N] */
		n = list_len(t, opname);
		v = arena_alloc(im->c, n * sizeof *v);
		for (i = 0; i < n; i++)
			v[i] = import_arg(im, arg, et, opname, path);
		return list_construct(im, n, v, elem);
	}
	n = json_array_size(items);
	v = arena_alloc(im->c, (n + 1) * sizeof *v);
	json_array_foreach(items, i, it) {
		v[i] = import_arg(im, it, et, opname, pidx(im, pkey(im, path, "items"), i));
		if (et->k == SK_OPTIONAL && ty_istorchtensor(v[i]->type))
			v[i] = emit1(im, "torch.derefine", 1, &v[i], elem);
	}
	return list_construct(im, n, v, elem);
}

static Value *
import_ref(Imp *im, json_t *arg, SType *t, const char *path)
{
	Node *n = node_ref(im, arg, path);
	Value *v;

	if (n->nres != 1)
		fail(im, path, "node '%s' has %d results; expected one", n->name, n->nres);
	v = slot_read(im, n->res[0]);
	if (t->k == SK_OPTIONAL)
		t = t->elem;
	if (t->k == SK_LIST && v->type->kind != TY_TORCH_LIST)
		return list_construct(im, 1, &v, torch_list_elem(im, t->elem));
	/* a run-time int where a float is wanted (x.size(1) * 0.5 at torch
	 * level picks mul.float): converted, as Python does */
	if (t->k == SK_FLOAT && v->type->kind == TY_TORCH_INT)
		return emit1(im, "torch.aten.Float.int", 1, &v, ty_torch(im->c, TY_TORCH_FLOAT));
	return t->k == SK_TENSOR ? num_to_tensor(im, v) : v;
}

static Value *
import_number(Imp *im, json_t *arg, const char *tag, SType *t, const char *path)
{
	json_t *val = json_object_get(arg, "value");
	int isint = !strcmp(tag, "int"), isbool = !strcmp(tag, "bool");
	SKind k = t->k;

	if (!val)
		fail(im, path, "missing 'value'");
	if (isint && !json_is_integer(val))
		fail(im, pkey(im, path, "value"), "expected an integer");
	if (isbool && !json_is_boolean(val))
		fail(im, pkey(im, path, "value"), "expected a boolean");
	if (k == SK_FLOAT)
		return c_float(im, jfloatval(im, val, pkey(im, path, "value")));
	if (k == SK_BOOL && (isint || isbool))
		return c_bool(im, isbool ? json_is_true(val) : json_integer_value(val) != 0);
	if (k == SK_INT && isbool)
		return c_int(im, json_is_true(val));
	if (isint)
		return c_int(im, json_integer_value(val));
	if (isbool)
		return c_bool(im, json_is_true(val));
	if (k == SK_INT)
		fail(im, path, "expected an int, not a float");
	return c_float(im, jfloatval(im, val, pkey(im, path, "value")));
}

Value *
import_arg(Imp *im, json_t *arg, SType *t, const char *opname, const char *path)
{
	const char *tag = jtag(im, arg, path);
	SType *bt = t->k == SK_OPTIONAL ? t->elem : t;

	if (is_ref(arg))
		return import_ref(im, arg, t, path);
	if (!strcmp(tag, "weight"))
		return import_literal(im, jstr(im, arg, "name", path), path);
	if (!strcmp(tag, "none"))
		return c_none(im);
	if (bt->k == SK_LIST || ((!strcmp(tag, "list") || !strcmp(tag, "tuple"))
	    && (bt->k == SK_ANY || bt->k == SK_SCALAR)))
		return import_list(im, arg, bt, opname, path);
	if (!strcmp(tag, "int") || !strcmp(tag, "float") || !strcmp(tag, "bool")) {
		if (bt->k == SK_TENSOR)
			return num_to_tensor(im, import_number(im, arg, tag, &(SType){SK_SCALAR}, path));
		return import_number(im, arg, tag, bt, path);
	}
	if (!strcmp(tag, "dtype") || !strcmp(tag, "layout") || !strcmp(tag, "memory_format"))
		return c_int(im, enum_value(im, arg, path));
	if (!strcmp(tag, "device"))
		return c_device(im, jstr(im, arg, "value", path));
	if (!strcmp(tag, "str"))
		return c_str(im, jstr(im, arg, "value", path));
	fail(im, path, "cannot import a '%s' argument", tag);
}

/* Could arg be passed for a parameter of type t?  (overload choice) */
int
arg_fits(Imp *im, json_t *arg, SType *t)
{
	const char *tag = json_string_value(json_object_get(arg, "type"));
	Type *rt;

	if (!tag)
		return 0;
	if (t->k == SK_ANY)
		return 1;
	if (t->k == SK_OPTIONAL)
		return !strcmp(tag, "none") || arg_fits(im, arg, t->elem);
	if (!strcmp(tag, "tensor") || !strcmp(tag, "weight"))
		return t->k == SK_TENSOR;
	if (!strcmp(tag, "node")) {
		rt = ref_type(im, arg);
		if (!rt)
			return 0;
		if (rt->kind == TY_TORCH_LIST)
			return t->k == SK_LIST;
		if (rt->kind == TY_TORCH_INT)
			return t->k == SK_INT || t->k == SK_SCALAR || t->k == SK_FLOAT;
		if (rt->kind == TY_TORCH_FLOAT)
			return t->k == SK_FLOAT || t->k == SK_SCALAR;
		if (rt->kind == TY_TORCH_BOOL)
			return t->k == SK_BOOL || t->k == SK_SCALAR;
		return ty_istorchtensor(rt) && t->k == SK_TENSOR;
	}
	if (!strcmp(tag, "int"))
		return t->k == SK_INT || t->k == SK_SCALAR || t->k == SK_FLOAT
		    || (t->k == SK_LIST && t->elem->k == SK_INT);
	if (!strcmp(tag, "float"))
		return t->k == SK_FLOAT || t->k == SK_SCALAR;
	if (!strcmp(tag, "bool"))
		return t->k == SK_BOOL || t->k == SK_SCALAR;
	if (!strcmp(tag, "str"))
		return t->k == SK_STR;
	if (!strcmp(tag, "none"))
		return t->k == SK_GENERATOR;
	if (!strcmp(tag, "device"))
		return t->k == SK_DEVICE;
	if (!strcmp(tag, "dtype") || !strcmp(tag, "layout") || !strcmp(tag, "memory_format"))
		return t->k == SK_INT;
	if (list_items(arg)) {
		json_t *it;
		size_t i;
		if (t->k != SK_LIST)
			return 0;
		json_array_foreach(list_items(arg), i, it)
			if (!arg_fits(im, it, t->elem))
				return 0;
		return 1;
	}
	return 0;
}
