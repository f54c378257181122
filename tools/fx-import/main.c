/*
 * fx-import - an FX graph (fxpipe-fx-json from fx-export, plus its
 * safetensors weights) to the torch dialect, as torch-mlir's FX importer
 * builds it: one func.func @main over !torch.vtensor values.  Its output
 * is torch-opt's input.
 */
#include <stdlib.h>
#include <string.h>

#include "fximport.h"
#include "tool.h"

typedef struct Opts {
	const char *input, *output;
	int verify, debuginfo;
} Opts;

static const char usage[] =
"usage: fx-import [options] FILE.json|-\n"
"  -o FILE              write to FILE (atomically) instead of stdout\n"
"  --strip-debuginfo    do not print locations\n"
"  --no-verify          do not verify the module before printing it\n"
"  --trace=FILE         append its run as a Chrome trace event to FILE\n"
"  -h, --help           show this help\n";

static void
parse_args(int argc, char **argv, Opts *o)
{
	int i;

	o->verify = o->debuginfo = 1;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs(usage, stdout);
			exit(0);
		} else if (!strcmp(a, "-o") && i + 1 < argc)
			o->output = argv[++i];
		else if (!strncmp(a, "-o", 2) && a[2])
			o->output = a + 2;
		else if (!strcmp(a, "--strip-debuginfo") || !strcmp(a, "--no-debuginfo"))
			o->debuginfo = 0;
		else if (!strcmp(a, "--no-verify"))
			o->verify = 0;
		else if (!strncmp(a, "--trace=", 8))
			ctrace_open(a + 8);
		else if (a[0] == '-' && a[1])
			tool_fail("unknown option '%s'\n%s", a, usage);
		else if (o->input)
			tool_fail("more than one input\n%s", usage);
		else
			o->input = a;
	}
	if (!o->input)
		tool_fail("no input\n%s", usage);
}

static json_t *
load(const char *path, const char *name)
{
	size_t len;
	char *text = tool_read(path, &len);
	json_error_t err;
	json_t *root = json_loadb(text, len, 0, &err);

	free(text);
	if (!root)
		tool_fail("%s:%d:%d: error: %s", name, err.line, err.column, err.text);
	return root;
}

static void
check_format(Imp *im)
{
	json_t *v;
	const char *g;

	if (!json_is_object(im->root))
		fail(im, NULL, "expected a JSON object");
	v = json_object_get(im->root, "format");
	if (!json_is_string(v) || strcmp(json_string_value(v), "fxpipe-fx-json"))
		fail(im, "format", "not an fxpipe-fx-json document");
	v = jreq(im, im->root, "version", JSON_INTEGER, "");
	if (json_integer_value(v) != 1)
		fail(im, "version", "unsupported format version %lld (fx-import reads version 1)",
		    (long long)json_integer_value(v));
	g = jstr(im, im->root, "graph", "");
	if (strcmp(g, "aten") && strcmp(g, "torch"))
		fail(im, "graph", "unknown graph level '%s' (expected aten or torch)", g);
	im->aten = !strcmp(g, "aten");
	if (!jopt(im, im->root, "operators", JSON_OBJECT, ""))
		json_object_set_new(im->root, "operators", json_object());
}

static void
index_nodes(Imp *im)
{
	json_t *nodes = jreq(im, im->root, "nodes", JSON_ARRAY, ""), *j;
	size_t i;

	im->nnodes = json_array_size(nodes);
	im->nodes = arena_alloc(im->c, (im->nnodes + 1) * sizeof *im->nodes);
	im->byname = json_object();
	json_array_foreach(nodes, i, j) {
		const char *p = pidx(im, "nodes", i);
		Node *n = &im->nodes[i];
		n->j = j;
		n->idx = i;
		n->name = jstr(im, j, "name", p);
		jstr(im, j, "op", p);
		jstr(im, j, "target", p);
		jreq(im, j, "args", JSON_ARRAY, p);
		jreq(im, j, "kwargs", JSON_OBJECT, p);
		if (json_object_get(im->byname, n->name))
			fail(im, pkey(im, p, "name"), "node '%s' is defined twice", n->name);
		json_object_set_new(im->byname, n->name, json_integer(i));
	}
}

/* The innermost frame of the model's code, as the exporter recorded it;
 * else the last frame of the stack trace; else the node's name. */
static Loc *
node_loc(Imp *im, Node *n, const char *path)
{
	json_t *l = jopt(im, n->j, "loc", JSON_OBJECT, path), *col;
	const char *st = json_string_value(json_object_get(n->j, "stack_trace")), *f, *q;
	int line;

	if (l) {
		const char *lp = pkey(im, path, "loc");
		col = jopt(im, l, "col", JSON_INTEGER, lp);
		return loc_file(im->c, jstr(im, l, "file", lp), jint(im, l, "line", lp),
		    col ? json_integer_value(col) : 0);
	}
	for (f = NULL, q = st; q && (q = strstr(q, "File \"")); q++)
		f = q + 6;
	if (f && (q = strchr(f, '"')) && sscanf(q, "\", line %d", &line) == 1)
		return loc_file(im->c, arena_strndup(im->c, f, q - f), line, 0);
	return loc_name(im->c, n->name, NULL);
}

static void
import_placeholder(Imp *im, Node *n, const char *path)
{
	json_t *v = jreq(im, n->j, "value", JSON_OBJECT, path);
	const char *vp = pkey(im, path, "value");

	if (!jtag_is(v, "tensor"))
		fail(im, vp, "graph input '%s' is not a tensor", n->name);
	if (dtype_is_quant(json_string_value(json_object_get(v, "dtype"))))
		fail(im, pkey(im, vp, "dtype"), "graph input '%s' is a quantized tensor; not "
		    "supported (pass its int_repr and make it in the graph)", n->name);
	n->nres = 1;
	n->res = arena_alloc(im->c, sizeof *n->res);
	n->res[0] = slot_new(im, block_add_arg(im->c, im->body, vtensor_of(im, v, 0, vp), im->loc));
	n->res[0]->name = n->name;
	if ((n->res[0]->cplx = dtype_is_complex(json_string_value(json_object_get(v, "dtype"))))) {
		im->cx_args = xrealloc(im->cx_args, (im->ncx_args + 1) * sizeof *im->cx_args);
		im->cx_args[im->ncx_args++] = im->body->nargs - 1;
	}
}

static void
import_get_attr(Imp *im, Node *n, const char *path)
{
	n->nres = 1;
	n->res = arena_alloc(im->c, sizeof *n->res);
	n->res[0] = slot_new(im, import_literal(im, jstr(im, n->j, "target", path),
	    pkey(im, path, "target")));
	n->res[0]->name = n->name;
}

static int
is_op_target(Imp *im, const char *target)
{
	return !strncmp(target, "aten.", 5)
	    || json_object_get(json_object_get(im->root, "operators"), target);
}

static void
import_call_function(Imp *im, Node *n, const char *path)
{
	const char *target = jstr(im, n->j, "target", path);

	if (!strcmp(target, "operator.getitem"))
		import_getitem(im, n, path);
	else if (is_op_target(im, target))
		import_aten_node(im, n, path);
	else
		import_torch_function(im, n, path);
}

static void
import_nothing(Imp *im, Node *n, const char *path)
{
	(void)im, (void)n, (void)path;   /* output: handled after the walk */
}

static const struct {
	const char *op;
	void (*fn)(Imp *, Node *, const char *);
} node_kinds[] = {
	{"placeholder", import_placeholder},
	{"get_attr", import_get_attr},
	{"call_function", import_call_function},
	{"call_method", import_torch_method},
	{"call_module", import_module},
	{"output", import_nothing},
};

static void
import_node(Imp *im, Node *n, const char *path)
{
	const char *op = jstr(im, n->j, "op", path);
	size_t i;

	im->loc = node_loc(im, n, path);
	if (strcmp(op, "placeholder") && strcmp(op, "output") && complex_involved(im, n)) {
		const char *t = json_string_value(json_object_get(n->j, "target"));
		if (strcmp(op, "call_function") || !t || !is_op_target(im, t)
		    || !strcmp(t, "operator.getitem"))
			fail(im, path, "node '%s' (%s) involves complex or quantized tensors, "
			    "which fxpipe supports in aten graphs only", n->name, t ? t : op);
	}
	for (i = 0; i < sizeof node_kinds / sizeof *node_kinds; i++) {
		if (!strcmp(node_kinds[i].op, op)) {
			node_kinds[i].fn(im, n, path);
			n->done = 1;
			/* a single tensor result with symbolic sizes: bind them */
			if (n->nres == 1 && n->res && n->res[0] && !n->res[0]->h)
				bind_symbolic_shape(im, n->res[0]->v, json_object_get(n->j, "value"),
				    pkey(im, path, "value"));
			return;
		}
	}
	fail(im, pkey(im, path, "op"), "unknown node kind '%s'", op);
}

/* A module result for one returned value: a tensor as it is; a Python
 * int, float or bool (a literal, or a node's run-time scalar such as a
 * size) as a 0-dim tensor of the dtype the Python value has: si64 for
 * int, f64 for float, i1 for bool.  aten.scalar_tensor with an explicit
 * dtype, not prim.NumToTensor.Scalar: a wrapped float number is f32 in
 * torch-opt's inference, which would round a returned float. */
static Value *
result_value(Imp *im, Value *v, const char *path)
{
	Value *o[5];
	Type *dt;
	int code;

	switch (v->type->kind) {
	case TY_TORCH_VTENSOR:
		return v;
	case TY_TORCH_INT:
		dt = ty_int(im->c, 64, SIGNED), code = 4;       /* torch.int64 */
		break;
	case TY_TORCH_FLOAT:
		dt = ty_float(im->c, TY_F64), code = 7;         /* torch.float64 */
		break;
	case TY_TORCH_BOOL:
		dt = ty_int(im->c, 1, SIGNLESS), code = 11;     /* torch.bool */
		break;
	default:
		fail(im, path, "the graph returns a value that is neither a tensor "
		    "nor an int, float or bool; a module result cannot carry it");
	}
	o[0] = v;
	o[1] = c_int(im, code);
	o[2] = o[3] = o[4] = c_none(im);
	return emit1(im, "torch.aten.scalar_tensor", 5, o, ty_vtensor(im->c, 0, NULL, dt));
}

/* A complex result: its index, for fxpipe.complex_results. */
static void
note_complex_result(Imp *im, Slot *s, int n)
{
	if (s->quant)
		fail(im, "outputs", "the graph returns a quantized tensor; a module result "
		    "cannot carry its scale and zero point (return its int_repr or dequantize it)");
	if (!s->cplx)
		return;
	im->cx_res = xrealloc(im->cx_res, (im->ncx_res + 1) * sizeof *im->cx_res);
	im->cx_res[im->ncx_res++] = n - 1;
}

static void
push_output(Value ***v, int *n, Value *x)
{
	*v = xrealloc(*v, (*n + 1) * sizeof **v);
	(*v)[(*n)++] = x;
}

/* The graph's outputs, flattened in order: tensors, and Python scalars as
 * 0-dim tensors.  Anything else (None, str, dtype, ...) is refused rather
 * than dropped, which would shift every later result. */
static void
collect_outputs(Imp *im, json_t *arg, const char *path, Value ***v, int *n)
{
	json_t *items = list_items(arg), *it;
	size_t i;

	if (jtag_is(arg, "tensor") || jtag_is(arg, "node")) {
		Node *nd = node_ref(im, arg, path);
		int k;
		if (nd->nres == 1 && !nd->res[0]->h
		    && nd->res[0]->v->type->kind == TY_TORCH_LIST) {
			/* a returned list (torch.split at torch level, x.shape):
			 * its items, as the module returns them flattened */
			if (!nd->unpacked)
				list_unpack(im, nd, path);
			for (k = 0; k < nd->nunpacked; k++) {
				push_output(v, n, result_value(im,
				    slot_read(im, nd->unpacked[k]), path));
				note_complex_result(im, nd->unpacked[k], *n);
			}
			return;
		}
		for (k = 0; k < nd->nres; k++) {
			push_output(v, n, result_value(im, slot_read(im, nd->res[k]), path));
			note_complex_result(im, nd->res[k], *n);
		}
	} else if (jtag_is(arg, "int") || jtag_is(arg, "float") || jtag_is(arg, "bool")) {
		push_output(v, n, result_value(im, import_arg(im, arg,
		    &(SType){SK_SCALAR}, "output", path), path));
	} else if (items) {
		json_array_foreach(items, i, it)
			collect_outputs(im, it, pidx(im, pkey(im, path, "items"), i), v, n);
	} else if (jtag_is(arg, "dict")) {
		items = jreq(im, arg, "items", JSON_ARRAY, path);
		json_array_foreach(items, i, it)
			collect_outputs(im, jreq(im, it, "value", JSON_OBJECT, pidx(im,
			    pkey(im, path, "items"), i)), pkey(im, pidx(im, pkey(im, path,
			    "items"), i), "value"), v, n);
	} else {
		fail(im, path, "the graph returns a '%s'; a module result can only be "
		    "a tensor or an int, float or bool", jtag(im, arg, path));
	}
}

static Op *
new_func(Imp *im)
{
	Op *m = op_new(im->c, "builtin.module", 0, NULL, 0, NULL, 1, loc_unknown(im->c));
	Op *f = op_new(im->c, "func.func", 0, NULL, 0, NULL, 1, loc_unknown(im->c));
	Block *mb = block_new(im->c);

	region_append(&m->regs[0], mb);
	op_append(mb, f);
	im->body = block_new(im->c);
	region_append(&f->regs[0], im->body);
	op_set_attr(im->c, f, "sym_name", at_str(im->c, "main"));
	return m;
}

static void
finish_func(Imp *im, Op *module, json_t *outputs)
{
	Op *f = module->regs[0].first->first, *ret;
	Value **v = NULL;
	Type **in, **out;
	int i, n = 0;

	collect_outputs(im, outputs, "outputs", &v, &n);
	ret = emit(im, "func.return", n, v, 0, NULL);
	(void)ret;
	in = arena_alloc(im->c, (im->body->nargs + 1) * sizeof *in);
	out = arena_alloc(im->c, (n + 1) * sizeof *out);
	for (i = 0; i < im->body->nargs; i++)
		in[i] = im->body->args[i]->type;
	for (i = 0; i < n; i++)
		out[i] = v[i]->type;
	op_set_attr(im->c, f, "function_type",
	    at_type(im->c, ty_func(im->c, im->body->nargs, in, n, out)));
	/* as torch-mlir marks what it imports from torch.export: a `?` size
	 * is what the symbols say, so not a size-1 dimension broadcast
	 * implicitly (the lowerings may rely on it).  Only where sizes are
	 * symbolic: with static shapes it says nothing. */
	if (im->nsyms)
		op_set_attr(im->c, f, "torch.assume_strict_symbolic_shapes", at_unit(im->c));
	/* which arguments and results are complex tensors (as [..., 2] reals):
	 * kept by every tool down to the module's signature (formats/vmfb.md) */
	if (im->ncx_args)
		op_set_attr(im->c, f, "fxpipe.complex_args",
		    at_dense_array(im->c, ty_int(im->c, 64, SIGNLESS), im->ncx_args, im->cx_args));
	if (im->ncx_res)
		op_set_attr(im->c, f, "fxpipe.complex_results",
		    at_dense_array(im->c, ty_int(im->c, 64, SIGNLESS), im->ncx_res, im->cx_res));
	free(v);
}

static Op *
import_graph(Imp *im)
{
	Op *module;
	json_t *outputs;
	int i;

	check_format(im);
	symbols_read(im);
	index_nodes(im);
	outputs = jreq(im, im->root, "outputs", JSON_OBJECT, "");
	weights_open(im);
	module = new_func(im);
	symbols_emit(im);
	for (i = 0; i < im->nnodes; i++)
		import_node(im, &im->nodes[i], pidx(im, "nodes", i));
	im->loc = loc_name(im->c, "output", NULL);
	for (i = 0; i < im->nnodes; i++)
		if (!strcmp(json_string_value(json_object_get(im->nodes[i].j, "op")), "output"))
			im->loc = node_loc(im, &im->nodes[i], pidx(im, "nodes", i));
	finish_func(im, module, outputs);
	weights_close(im);
	return module;
}

/*
 * LeakSanitizer: the torch-level mappings build short-lived JSON argument
 * lists whose ownership is not tracked (a few hundred bytes per node, all
 * released at exit).  Until they are, leak checking is off for this tool
 * only; ASan's and UBSan's other checks stay on.
 */
int __lsan_is_turned_off(void);

int
__lsan_is_turned_off(void)
{
	return 1;
}

int
main(int argc, char **argv)
{
	Opts o = {0};
	/* static, and not freed at exit: the JSON document and the tagged
	 * values built from it live as long as the process */
	static Imp im;
	PrintOpts po = {0};
	FILE *out;
	Op *module;

	tool_name = "fx-import";
	optable_require(torchfn_optables);
	optable_require(modules_optables);
	parse_args(argc, argv, &o);
	im.c = ctx_new();
	im.file = strcmp(o.input, "-") ? o.input : "<stdin>";
	im.root = load(o.input, im.file);
	module = import_graph(&im);
	diag_fallback_file = im.file;
	if (o.verify && verify(module) != 0)
		tool_fail("%s: error: the graph's nodes do not fit their ops' "
		    "schemas (the errors above; --no-verify prints the module anyway)", im.file);
	out = tool_open_out(o.output);
	po.debuginfo = o.debuginfo;
	print_module(out, module, &po);
	tool_commit(out);
	return 0;
}
