/* torchfn.c - torch-level calls (graphs from torch.fx.symbolic_trace):
 * operator.*, torch.* and torch.nn.functional.* functions and Tensor
 * methods, each mapped to the aten op torch-mlir would give.  A row names
 * the aten overloads to try, in order; the first whose schema fits the
 * arguments wins.  A callee with no row is tried as aten.NAME with the
 * usual overload suffixes, and failing that imported as a generic
 * torch.operator, so import never fails on an unknown callee. */
#include <stddef.h>
#include <string.h>

#include "fximport.h"

enum {
	F_PACK = 1,     /* x.view(2, -1): the trailing ints are one list */
	F_SWAP = 2,     /* 2 * x is x * 2 */
	F_RSUB = 4,     /* 2 - x is rsub(x, 2) */
	F_SWAP01 = 8,   /* F.embedding(input, weight) is embedding(weight, input) */
};

typedef struct Fn {
	const char *target;   /* function, or ".name" for a Tensor method */
	const char *ops;
	int flags;
} Fn;

#define CMP(py, a) \
	{"operator." py, "aten." a ".Tensor|aten." a ".Scalar|aten." a ".int|aten." a ".float", 0}

static const Fn fns[] = {
	{"operator.add", "aten.add.Tensor|aten.add.Scalar|aten.add.int|aten.add.float|aten.add", F_SWAP},
	{"operator.mul", "aten.mul.Tensor|aten.mul.Scalar|aten.mul.int|aten.mul.float|aten.mul", F_SWAP},
	{"operator.sub", "aten.sub.Tensor|aten.sub.Scalar|aten.sub.int|aten.sub.float|aten.sub", F_RSUB},
	{"operator.iadd", "aten.add_.Tensor|aten.add_.Scalar|aten.add.int|aten.add.float", 0},
	{"operator.imul", "aten.mul_.Tensor|aten.mul_.Scalar|aten.mul.int|aten.mul.float", 0},
	{"operator.isub", "aten.sub_.Tensor|aten.sub_.Scalar|aten.sub.int|aten.sub.float", 0},
	{"operator.truediv", "aten.div.Tensor|aten.div.Scalar|aten.div.float|aten.div", 0},
	{"operator.floordiv", "aten.floor_divide|aten.floor_divide.Scalar|aten.floordiv.int", 0},
	{"operator.mod", "aten.remainder.Tensor|aten.remainder.Scalar|aten.remainder.int", 0},
	{"operator.pow", "aten.pow.Tensor_Tensor|aten.pow.Tensor_Scalar|aten.pow.int|aten.pow.float", 0},
	{"operator.matmul", "aten.matmul", 0},
	{"operator.neg", "aten.neg|aten.neg.int|aten.neg.float", 0},
	CMP("eq", "eq"), CMP("ne", "ne"), CMP("lt", "lt"), CMP("le", "le"),
	CMP("gt", "gt"), CMP("ge", "ge"),
	{"operator.and_", "aten.bitwise_and.Tensor|aten.bitwise_and.Scalar|aten.__and__.bool", 0},
	{"operator.or_", "aten.bitwise_or.Tensor|aten.bitwise_or.Scalar|aten.__or__.bool", 0},
	{"operator.invert", "aten.bitwise_not", 0},
	{"torch.add", "aten.add.Tensor|aten.add.Scalar", 0},
	{"torch.sub", "aten.sub.Tensor|aten.sub.Scalar", 0},
	{"torch.mul", "aten.mul.Tensor|aten.mul.Scalar", 0},
	{"torch.div", "aten.div.Tensor|aten.div.Scalar|aten.div.Tensor_mode", 0},
	{"torch.flatten", "aten.flatten.using_ints", 0},
	{"torch.squeeze", "aten.squeeze.dim|aten.squeeze", 0},
	{"torch.split", "aten.split.Tensor|aten.split_with_sizes", 0},
	{"torch.max", "aten.max|aten.max.dim|aten.maximum", 0},
	{"torch.min", "aten.min|aten.min.dim|aten.minimum", 0},
	{"torch.where", "aten.where.self|aten.where.ScalarOther|aten.where.ScalarSelf|aten.where.Scalar", 0},
	{"torch.clamp", "aten.clamp|aten.clamp.Tensor", 0},
	{"torch.nn.functional.relu6", "aten.hardtanh", 0},
	{"torch.nn.functional.embedding", "aten.embedding", F_SWAP01},
	{"torch.nn.functional.pad", "aten.pad|aten.constant_pad_nd", 0},
	{"torch.nn.functional.softmax", "aten.softmax.int", 0},
	{"torch.nn.functional.log_softmax", "aten.log_softmax.int", 0},
	{"torch.softmax", "aten.softmax.int", 0},
	{"torch.log_softmax", "aten.log_softmax.int", 0},
	{"torch.nn.functional.dropout", "aten.dropout", 0},
	{"torch.nn.functional.interpolate", "aten.upsample_nearest2d.vec|aten.upsample_bilinear2d.vec", 0},
	{".view", "aten.view", F_PACK},
	{".reshape", "aten.reshape", F_PACK},
	{".permute", "aten.permute", F_PACK},
	{".expand", "aten.expand", F_PACK},
	{".repeat", "aten.repeat", F_PACK},
	{".size", "aten.size.int|aten.size", 0},
	{".flatten", "aten.flatten.using_ints", 0},
	{".transpose", "aten.transpose.int", 0},
	{".squeeze", "aten.squeeze.dim|aten.squeeze", 0},
	{".mean", "aten.mean.dim|aten.mean", 0},
	{".sum", "aten.sum.dim_IntList|aten.sum", 0},
	{".to", "aten.to.dtype|aten.to.other|aten.to.prim_Device|aten.to.device", 0},
	{".type_as", "aten.type_as", 0},
	{".split", "aten.split.Tensor|aten.split_with_sizes", 0},
};

const OpTable torchfn_optables[] = {
	OPTABLE_AT("torch function row", fns, Fn, ops, "torch."),
	{NULL},
};

/* x.float() and friends: aten.to.dtype with PyTorch's dtype number */
static const struct {
	const char *method, *dtype;
} casts[] = {
	{"float", "float32"}, {"double", "float64"}, {"half", "float16"},
	{"bfloat16", "bfloat16"}, {"long", "int64"}, {"int", "int32"},
	{"short", "int16"}, {"char", "int8"}, {"byte", "uint8"}, {"bool", "bool"},
};

/* Overloads tried for a callee with no row, after the bare name. */
static const char *const suffixes[] = {
	"", ".Tensor", ".Scalar", ".int", ".dim", ".self", ".using_ints",
	".dim_IntList", ".default", ".float", ".input", NULL,
};

static const Fn *
find_fn(const char *target)
{
	size_t i;

	for (i = 0; i < sizeof fns / sizeof *fns; i++)
		if (!strcmp(fns[i].target, target))
			return &fns[i];
	return NULL;
}

/* "aten.add.Tensor" -> "aten.add_.Tensor" */
static const char *
inplace_name(Imp *im, const char *op)
{
	const char *dot = strchr(op + 5, '.');
	size_t n = dot ? (size_t)(dot - op) : strlen(op);
	char *s = arena_alloc(im->c, strlen(op) + 2);

	sprintf(s, "%.*s_%s", (int)n, op, dot ? dot : "");
	return s;
}

/* kwargs as the aten schema names them: `input` is `self` (rebound by
 * position), `inplace` picks the in-place op, `_stacklevel` is Python's. */
static json_t *
normalize(Imp *im, json_t *args, json_t *kwargs, int *inplace)
{
	json_t *kw = json_deep_copy(kwargs), *v;

	*inplace = json_is_true(json_object_get(json_object_get(kw, "inplace"), "value"));
	json_object_del(kw, "inplace");
	json_object_del(kw, "_stacklevel");
	if ((v = json_object_get(kw, "input")) && json_array_size(args) == 0) {
		json_array_append(args, v);
		json_object_del(kw, "input");
	}
	return kw;
}

static int
is_tensor_arg(json_t *a)
{
	return jtag_is(a, "tensor");
}

/* x.view(2, -1) -> x.view([2, -1]) */
static json_t *
pack(json_t *args)
{
	json_t *out = json_array(), *l;
	size_t i;

	if (json_array_size(args) < 2 || (json_array_size(args) == 2
	    && list_items(json_array_get(args, 1))))
		return json_copy(args);
	json_array_append(out, json_array_get(args, 0));
	l = tag_list();
	for (i = 1; i < json_array_size(args); i++)
		json_array_append(list_items(l), json_array_get(args, i));
	json_array_append_new(out, l);
	return out;
}

static json_t *
swap01(json_t *args)
{
	json_t *out = json_copy(args);

	if (json_array_size(out) >= 2) {
		json_t *a = json_incref(json_array_get(out, 0));
		json_array_set(out, 0, json_array_get(out, 1));
		json_array_set_new(out, 1, a);
	}
	return out;
}

/* The first of ops ('|'-separated) whose schema fits, or NULL. */
static const char *
pick(Imp *im, const char *ops, json_t *args, json_t *kwargs, int inplace)
{
	const char *p, *e;

	for (p = ops; *p; p = *e ? e + 1 : e) {
		e = strchr(p, '|');
		if (!e)
			e = p + strlen(p);
		const char *op = arena_strndup(im->c, p, e - p);
		if (inplace)
			op = inplace_name(im, op);
		if (call_fits(im, op, args, kwargs))
			return op;
	}
	return NULL;
}

static const char *
pick_flagged(Imp *im, const Fn *f, json_t **args, json_t *kwargs, int inplace)
{
	const char *op = pick(im, f->ops, *args, kwargs, inplace);

	if (op || json_array_size(*args) != 2 || !is_tensor_arg(json_array_get(*args, 1))
	    || is_tensor_arg(json_array_get(*args, 0)))
		return op;
	if (f->flags & F_SWAP) {
		*args = swap01(*args);
		return pick(im, f->ops, *args, kwargs, inplace);
	}
	if (f->flags & F_RSUB) {
		*args = swap01(*args);
		return pick(im, "aten.rsub.Scalar", *args, kwargs, 0);
	}
	return NULL;
}

/* aten.NAME and its usual overloads, for a callee without a row. */
static const char *
guess(Imp *im, const char *name, json_t *args, json_t *kwargs, int inplace)
{
	char buf[256];
	int i;

	for (i = 0; suffixes[i]; i++) {
		snprintf(buf, sizeof buf, "aten.%s%s", name, suffixes[i]);
		const char *op = pick(im, buf, args, kwargs, inplace);
		if (op)
			return op;
	}
	return NULL;
}

static void
call_named(Imp *im, Node *n, const char *target, const char *name, json_t *args,
	json_t *kwargs, const char *path)
{
	const Fn *f = find_fn(target);
	const char *op = NULL;
	int inplace;

	kwargs = normalize(im, args, kwargs, &inplace);
	if (f && (f->flags & F_PACK))
		args = pack(args);
	if (f && (f->flags & F_SWAP01))
		args = swap01(args);
	if (f)
		op = pick_flagged(im, f, &args, kwargs, inplace);
	if (!op)
		op = guess(im, name, args, kwargs, inplace);
	if (!op) {   /* torch-mlir's fallback: the generic form */
		char *g = arena_alloc(im->c, strlen(target) + 8);
		sprintf(g, "%s%s", target[0] == '.' ? "Tensor" : "", target);
		op = g;
	}
	import_call(im, n, op, args, kwargs, path);
}

/* "torch.nn.functional.relu" -> "relu" */
static const char *
base_name(const char *target)
{
	const char *dot = strrchr(target, '.');

	return dot ? dot + 1 : target;
}

void
import_torch_function(Imp *im, Node *n, const char *path)
{
	const char *target = jstr(im, n->j, "target", path);
	json_t *args = json_copy(jreq(im, n->j, "args", JSON_ARRAY, path));
	json_t *kwargs = jreq(im, n->j, "kwargs", JSON_OBJECT, path);

	if (!strcmp(target, "builtins.getattr") && json_array_size(args) == 2
	    && jtag_is(json_array_get(args, 1), "str")
	    && !strcmp(json_string_value(json_object_get(json_array_get(args, 1), "value")), "shape")) {
		json_array_remove(args, 1);
		target = ".size";
	}
	call_named(im, n, target, base_name(target), args, kwargs, path);
}

void
import_torch_method(Imp *im, Node *n, const char *path)
{
	const char *m = jstr(im, n->j, "target", path);
	json_t *args = json_copy(jreq(im, n->j, "args", JSON_ARRAY, path));
	json_t *kwargs = jreq(im, n->j, "kwargs", JSON_OBJECT, path);
	char *target = arena_alloc(im->c, strlen(m) + 2);
	size_t i;

	for (i = 0; i < sizeof casts / sizeof *casts; i++) {
		if (strcmp(casts[i].method, m) || json_array_size(args) != 1)
			continue;
		json_t *d = json_object();
		json_object_set_new(d, "type", json_string("dtype"));
		json_object_set_new(d, "value", json_string(casts[i].dtype));
		json_array_append_new(args, d);
		import_call(im, n, "aten.to.dtype", args, json_object(), path);
		return;
	}
	sprintf(target, ".%s", m);
	call_named(im, n, target, m, args, kwargs, path);
}
