/*
 * torch-lower - backend-contract torch IR to linalg-on-tensors.
 *
 * Reads what torch-opt's default pipeline writes (value-semantic
 * !torch.vtensor with static shapes, scalars as torch.constant.*, lists as
 * torch.prim.ListConstruct, weights as torch.vtensor.literal) and writes
 * func, linalg, tensor, arith and math on builtin tensors, for codegen or
 * mlir-opt.  Each aten op goes through one row of the lowering table
 * (table.c); an op without a row is an error at its Python location.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lower.h"
#include "pass.h"
#include "tool.h"

static const char usage[] =
"usage: torch-lower [options] [FILE|-]\n"
"  -o FILE              write to FILE (atomically) instead of stdout\n"
"  --print-debuginfo    print locations\n"
"  --reproducer=FILE    on failure, save the input to FILE and print the\n"
"                       command that replays it\n"
"  --no-debuginfo       print none (default: those the input gave, unless\n"
"                       the output is a terminal)\n"
"  --mlir-dialect-version=V  the MLIR whose syntax and named ops to write:\n"
"                       16 (default, mlir-opt-16), 19 or later, or upstream\n"
"  --list-ops           list the torch ops that have a lowering\n"
"  --split-input-file   lower each '// -----' chunk on its own; the outputs\n"
"                       are joined by '// -----', a failing chunk's is empty\n"
"  --print-ir-before-all, --print-ir-after-all, --print-ir-after-failure\n"
"                       the module before / after the lowering (or after it\n"
"                       failed) on stderr\n"
"  --mlir-elide-elementsattrs-if-larger=N\n"
"                       in those dumps, literals of more than N elements\n"
"                       print as dense_resource<__elided__> (default 16;\n"
"                       0 prints them whole)\n"
"  --mlir-print-local-scope  print affine maps inline, not as #map aliases\n"
"  --timing             the time of each phase on stderr (-mlir-timing)\n"
"  --trace=FILE         append each phase as a Chrome trace event to FILE\n"
"                       (Perfetto; the stages of a pipe may share it)\n"
"Long options take one dash or two, and --mlir-print-ir-* are --print-ir-*,\n"
"as in mlir-opt.\n";

/* 16, an integer from MLIR_NEWER, or "upstream" */
static void
set_version(const char *v)
{
	char *end;
	long n = strtol(v, &end, 10);

	if (!strcmp(v, "upstream"))
		n = MLIR_UPSTREAM;
	else if (end == v || *end || (n != 16 && (n < MLIR_NEWER || n >= MLIR_UPSTREAM)))
		tool_fail("--mlir-dialect-version: '%s' is not 16, %d or later, or upstream",
			v, MLIR_NEWER);
	lower_mlir_version = (int)n;
}

typedef struct Opts {
	const char *input, *output;
	int list, split, timing;
	int dump_before, dump_after, dump_failure;
	long elide_larger;     /* the dumps' */
	int debuginfo;         /* --print-debuginfo 1, --no-debuginfo -1 */
	PrintOpts print;
} Opts;

static void
parse_args(int argc, char **argv, Opts *o)
{
	int i;

	o->elide_larger = 16;   /* dumps elide weights unless told otherwise */
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		char *end;
		if (!strcmp(a, "-o")) {
			if (++i >= argc)
				tool_fail("option '-o' needs a value");
			o->output = argv[i];
			continue;
		}
		if (!strncmp(a, "-o", 2) && a[2] != '-') {   /* -oFILE */
			o->output = a + 2;
			continue;
		}
		a = argv[i] = tool_long_option(argv[i]);   /* reachable: no leak */
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs(usage, stdout);
			exit(0);
		} else if (!strncmp(a, "--mlir-dialect-version=", 23)) {
			set_version(a + 23);
		} else if (!strcmp(a, "--list-ops")) {
			o->list = 1;
		} else if (!strcmp(a, "--print-debuginfo") ||
				!strcmp(a, "--mlir-print-debuginfo")) {
			o->print.debuginfo = o->debuginfo = 1;
		} else if (!strncmp(a, "--reproducer=", 13)) {
			tool_repro_file(a + 13);
		} else if (!strncmp(a, "--trace=", 8)) {
			ctrace_open(a + 8);
		} else if (!strcmp(a, "--no-debuginfo")) {
			o->print.debuginfo = 0, o->debuginfo = -1;
		} else if (!strcmp(a, "--mlir-print-local-scope")) {
			o->print.local_scope = 1;
		} else if (!strcmp(a, "--split-input-file")) {
			o->split = 1;
		} else if (!strcmp(a, "--timing") || !strcmp(a, "--mlir-timing")) {
			o->timing = 1;
		} else if (!strcmp(a, "--print-ir-before-all")) {
			o->dump_before = 1;
		} else if (!strcmp(a, "--print-ir-after-all")) {
			o->dump_after = 1;
		} else if (!strcmp(a, "--print-ir-after-failure")) {
			o->dump_failure = 1;
		} else if (!strncmp(a, "--mlir-elide-elementsattrs-if-larger=", 37)) {
			o->elide_larger = strtol(a + 37, &end, 10);
			if (end == a + 37 || *end || o->elide_larger < 0)
				tool_fail("--mlir-elide-elementsattrs-if-larger: '%s' is not a count",
					a + 37);
		} else if (a[0] == '-' && a[1]) {
			tool_fail("unknown option '%s' (see --help)", argv[i]);
		} else if (o->input) {
			tool_fail("more than one input file");
		} else {
			o->input = a;
		}
	}
	if (!o->input)
		o->input = "-";
}

static int
is_torch_type(const Type *t)
{
	int i;

	if (!t)
		return 0;
	if (t->kind >= TY_TORCH_VTENSOR && t->kind <= TY_TORCH_UNION)
		return 1;
	if (t->kind == TY_FUNC || t->kind == TY_TUPLE)
		for (i = 0; i < t->nsub; i++)
			if (is_torch_type(t->sub[i]))
				return 1;
	return 0;
}

/* Structure that lowers to nothing: its values are read by the users. */
static int
is_structural(Op *op)
{
	return !strncmp(op->name, "torch.constant.", 15) ||
		op_is(op, "torch.prim.ListConstruct") || op_is(op, "torch.symbolic_int");
}

static int
lower_literal(L *l, Op *op)
{
	Attr *v = op_attr(op, "value"), *nv;
	Type *bt = btensor(l->c, op->res[0].type);

	if (!v || !bt || (v->kind != AT_DENSE && v->kind != AT_DENSE_RESOURCE)) {
		op_error(op, "torch-lower: unsupported literal");
		return -1;
	}
	nv = arena_alloc(l->c, sizeof *nv);
	*nv = *v;
	nv->type = bt;
	Op *k = emit(l, "arith.constant", 0, NULL, 1, &bt);
	op_set_attr(l->c, k, "value", nv);
	set(l, RES(op, 0), RES(k, 0));
	return 0;
}

/* Operands of ops we keep (return, call) move to the builtin values. */
static int
remap_operands(L *l, Op *op)
{
	int i;

	for (i = 0; i < op->nopnds; i++) {
		Value *v = OPND(op, i);
		if (!is_torch_type(v->type))
			continue;
		Value *b = get(l, v);
		if (!b) {
			op_error(op, "torch-lower: operand %d of '%s' has no builtin value",
				i, op->name);
			return -1;
		}
		op_set_operand(op, i, b);
	}
	return 0;
}

/* A ui8 tensor in a signature lowers to i8 like any other (linalg and
 * arith are signless), its argument or result marked {fxpipe.unsigned}:
 * codegen gives the compiled function ui8 there, so that vmrun reads and
 * writes it as unsigned. */
static int
is_ui8(const Type *t)
{
	Type *d = tt_dtype(t);

	return dt_isunsigned(d) && !dt_isbool(d);
}

/* arg_attrs or res_attrs of fn, with {fxpipe.unsigned} added to entry i
 * of n where ui8[i]. */
static void
mark_unsigned(Ctx *c, Op *fn, const char *key, int n, const int *ui8)
{
	Attr *old = op_attr(fn, key), *e[n + 1];
	int i, any = 0;

	for (i = 0; i < n; i++) {
		Attr *d = old && old->kind == AT_ARRAY && (size_t)i < old->n
		    ? old->elts[i] : at_dict(c, 0, NULL);
		if (ui8[i] && d->kind == AT_DICT && !dict_get(d, "fxpipe.unsigned")) {
			NamedAttr na[d->n + 1];
			if (d->n)
				memcpy(na, d->dict, sizeof *na * d->n);
			na[d->n].name = intern(c, "fxpipe.unsigned");
			na[d->n].val = at_unit(c);
			d = at_dict(c, (int)d->n + 1, na);
			any = 1;
		}
		e[i] = d;
	}
	if (any)
		op_set_attr(c, fn, key, at_array(c, n, e));
}

/* Whether a tensor operand or result of op has a dynamic dimension. */
static int
is_dynamic(L *l, Op *op)
{
	int i;

	for (i = 0; i < op->nopnds + op->nres; i++) {
		Value *v = i < op->nopnds ? OPND(op, i) : RES(op, i - op->nopnds);
		Type *t = i < op->nopnds ? ttype(l, v) : v->type;
		if (t && ty_istorchtensor(t) && t->ranked && !ty_static(t))
			return 1;
	}
	return 0;
}

/* An op with dynamic shapes: the convert-torch-to-linalg pass's row,
 * whose sizes come from tensor.dim and whose broadcasts and contractions
 * assert at run time that the sizes agree (torch-mlir's forms); each
 * result cast to its own type where the row's is less static. */
static int
lower_dynamic(L *l, Op *op, const Row *row)
{
	int errs = diag_errors, rc, i;

	l->pass = l->dyn = 1;
	rc = row->fn(l, op, row->arg);
	l->pass = l->dyn = 0;
	for (i = 0; !rc && i < op->nres; i++) {
		Value *b = get(l, RES(op, i));
		Type *bt = btensor(l->c, op->res[i].type);
		if (!b) {
			if (op->res[i].type->kind != TY_TORCH_NONE)
				rc = -1;
			continue;
		}
		if (bt && b->type != bt)
			set(l, RES(op, i), emit1(l, "tensor.cast", 1, &b, bt));
	}
	if (rc && diag_errors == errs)
		op_error(op, "torch-lower: cannot lower '%s' with dynamic shapes", op->name);
	return rc ? -1 : 0;
}

static int
lower_op(L *l, Op *op)
{
	const Row *row;
	int i;

	l->op = op;
	l->before = op;
	l->blk = NULL;
	if (is_structural(op))
		return 0;
	if (op_is(op, "torch.vtensor.literal"))
		return lower_literal(l, op);
	if (op_is(op, "func.return"))
		return remap_operands(l, op);
	if (op_is(op, "func.call")) {
		if (remap_operands(l, op))
			return -1;
		for (i = 0; i < op->nres; i++) {
			Type *t = op->res[i].type, *bt = btensor(l->c, t);
			if (!is_torch_type(t))
				continue;
			if (!bt) {
				op_error(op, "torch-lower: unsupported result type");
				return -1;
			}
			*pmap_slot(&l->ttype, RES(op, i), 1) = t;
			value_set_type(RES(op, i), bt);
			set(l, RES(op, i), RES(op, i));
		}
		return 0;
	}
	if (op_is(op, "torch.bind_symbolic_shape"))
		return lower_bind_symbolic_shape(l, op);
	if ((i = lower_int_op(l, op)) <= 0)
		return i;
	if ((row = lower_lookup(op->name))) {
		int errs = diag_errors;
		const Row *dyn = is_dynamic(l, op) ? lower_dynamic_row(op->name) : NULL;
		if (dyn)
			return lower_dynamic(l, op, dyn);
		if (check_constants(l, op))
			return -1;
		if (row->fn(l, op, row->arg) == 0)
			return 0;
		/* every refusal says why, at the op */
		if (diag_errors == errs)
			op_error(op, "torch-lower: cannot lower '%s' with these operand and "
				"result types", op->name);
		return -1;
	}
	if (op_is(op, "torch.operator")) {
		Attr *n = op_attr(op, "name");
		op_error(op, "torch-lower: no lowering for 'torch.%s'",
			n && n->kind == AT_STR ? n->s : "operator");
		return -1;
	}
	if (!strncmp(op->name, "torch.", 6) || !strncmp(op->name, "torch_c.", 8)) {
		op_error(op, "torch-lower: no lowering for '%s'", op->name);
		return -1;
	}
	return 0;
}

static int
lower_signature(L *l, Op *fn, Block *entry)
{
	Attr *ft = op_attr(fn, "function_type");
	Type *t = ft ? ft->type : NULL;
	int i, n;

	if (!t || t->kind != TY_FUNC)
		return 0;
	n = t->nsub;
	Type *sub[n + 1];
	int ui8[n + 1];
	for (i = 0; i < n; i++) {
		sub[i] = t->sub[i];
		ui8[i] = is_ui8(t->sub[i]);
		if (!is_torch_type(sub[i]))
			continue;
		if (!(sub[i] = btensor(l->c, t->sub[i]))) {
			l->op = fn;
			op_error(fn, "torch-lower: unsupported %s type in the signature",
				i < t->nin ? "argument" : "result");
			return -1;
		}
	}
	op_set_attr(l->c, fn, "function_type", at_type(l->c,
		ty_func(l->c, t->nin, sub, n - t->nin, sub + t->nin)));
	mark_unsigned(l->c, fn, "arg_attrs", t->nin, ui8);
	mark_unsigned(l->c, fn, "res_attrs", n - t->nin, ui8 + t->nin);
	for (i = 0; entry && i < entry->nargs; i++) {
		Value *a = entry->args[i];
		Type *bt = btensor(l->c, a->type);
		if (!is_torch_type(a->type))
			continue;
		if (!bt) {
			op_error(fn, "torch-lower: unsupported argument type");
			return -1;
		}
		*pmap_slot(&l->ttype, a, 1) = a->type;
		value_set_type(a, bt);
		set(l, a, a);
	}
	return 0;
}

static int
lower_func(Ctx *c, Op *fn)
{
	L l = {0};
	Block *b = fn->regs[0].first;
	Op *op, **ops = NULL;
	size_t n = 0, cap = 0, i;
	int rc = 0;

	l.c = c;
	l.op = fn;
	if (lower_signature(&l, fn, b))
		return -1;
	for (; b; b = b->next) {
		for (op = b->first; op; op = op->next) {
			if (n == cap)
				ops = xrealloc(ops, sizeof *ops * (cap = cap ? 2 * cap : 64));
			ops[n++] = op;
		}
	}
	for (i = 0; i < n && !rc; i++)
		rc = lower_op(&l, ops[i]);
	if (!rc)
		rc = lower_resolve_scalars(&l, fn);
	/* the torch ops go, users first */
	for (i = n; !rc && i-- > 0;) {
		op = ops[i];
		if (strncmp(op->name, "torch.", 6))
			continue;
		for (int k = 0; k < op->nres; k++)
			if (!value_use_empty(RES(op, k))) {
				op_error(op, "torch-lower: a result of '%s' is still used",
					op->name);
				rc = -1;
			}
		if (!rc)
			op_erase(op);
	}
	free(ops);
	pmap_free(&l.vmap);
	pmap_free(&l.ttype);
	return rc;
}

static int
check_op(Op *op, void *env)
{
	int *bad = env, i;

	if (*bad)
		return 1;
	for (i = 0; i < op->nres; i++)
		if (is_torch_type(op->res[i].type))
			*bad = 1;
	if (!strncmp(op->name, "torch.", 6) || !strncmp(op->name, "torch_c.", 8))
		*bad = 1;
	if (*bad)
		op_error(op, "torch-lower: '%s' is left with torch types", op->name);
	return *bad;
}

static int
lower_module(Ctx *c, Op *m)
{
	Op *op;
	int bad = 0;

	for (op = m->regs[0].first ? m->regs[0].first->first : NULL; op; op = op->next)
		if (op_is(op, "func.func") && lower_func(c, op))
			return -1;
	op_walk(m, check_op, &bad);
	return bad ? -1 : 0;
}

/* --print-ir-*: the whole module on stderr, as torch-opt's dumps. */
static void
dump(const Opts *o, const char *when, Op *m)
{
	PrintOpts po = o->print;

	po.elide_larger = o->elide_larger;
	fprintf(stderr, "// -----// IR Dump %s torch-lower (builtin.module) //----- //\n", when);
	print_module(stderr, m, &po);
	fflush(stderr);
}

/* Parses, lowers, verifies and prints into out, or into the output (-o
 * FILE or stdout) when out is NULL; 0 on success.  Output begins only
 * once nothing is left that can fail, so on an error nothing is written. */
static const char *const phase[] = {
	"Parser", "Verifier", "torch-lower", "Verifier", "Output",
};

/* Ends phase *k, begun at t: its --timing and --trace; returns the time. */
static double
lap(int *k, double *secs, double t)
{
	double t1 = tool_now();

	secs[*k] = t1 - t;
	ctrace_span(phase[*k], "phase", t, t1);
	++*k;
	return t1;
}

static int
process(const Opts *o, const char *name, const char *text, size_t len, FILE *out)
{
	double secs[5] = {0}, t = tool_now(), t0 = t;
	Ctx *c = ctx_new();
	Op *m;
	int rc = 1, k = 0;

	diag_errors = 0;
	m = parse_module(c, name, text, len);
	if (!m || diag_errors)
		goto done;
	t = lap(&k, secs, t);
	if (verify(m) != 0 || verify_resource_data(m, name) != 0)
		goto done;
	t = lap(&k, secs, t);
	if (o->dump_before)
		dump(o, "Before", m);
	t = tool_now();
	if (lower_module(c, m) != 0 || diag_errors) {
		if (o->dump_failure)
			dump(o, "After Failed", m);
		goto done;
	}
	t = lap(&k, secs, t);
	if (o->dump_after)
		dump(o, "After", m);
	t = tool_now();
	if (verify(m) != 0 || lower_check(m) != 0) {
		tool_err("internal error: the lowered module does not verify");
		goto done;
	}
	t = lap(&k, secs, t);
	FILE *f = out ? out : tool_open_out(o->output);
	PrintOpts po = o->print;
	po.debuginfo = tool_debuginfo(o->debuginfo, o->output);
	po.release = 1;   /* the last print of this context */
	po.mlir_version = lower_mlir_version;
	print_module(f, m, &po);
	if (!out)
		tool_commit(f);
	lap(&k, secs, t);
	rc = 0;
done:
	ctx_free(c);
	if (o->timing)
		timing_report(stderr, tool_now() - t0, k, phase, secs);
	return rc;
}

/* A chunk of --split-input-file's input. */
static int
process_chunk(void *env, const char *text, size_t len, FILE *out)
{
	return process(env, diag_fallback_file, text, len, out);
}

int
main(int argc, char **argv)
{
	Opts o = {0};
	size_t len;
	const char *text;
	int rc;

	tool_name = "torch-lower";
	tool_repro_init(argc, argv, ".mlir");
	optable_require(lower_optables);
	optable_require(ew_optables);
	optable_require(check_optables);
	parse_args(argc, argv, &o);
	if (o.list) {
		lower_list(stdout);
		tool_commit(stdout);
		return 0;
	}
	/* chunks are copies of the text: their blobs must be in them */
	text = o.split ? tool_read(o.input, &len) : tool_map(o.input, &len);
	diag_fallback_file = strcmp(o.input, "-") ? o.input : "<stdin>";
	if (!o.split) {
		rc = process(&o, diag_fallback_file, text, len, NULL);
	} else {
		rc = tool_split_input(text, len, process_chunk, &o, o.output);
	}
	tool_unmap(text);
	return rc ? 1 : 0;
}
