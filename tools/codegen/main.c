/*
 * codegen - linalg-on-tensors to the fxvm host program and its kernels
 * (formats/fxvm.md), compiled for the CPU (cpu/) or, with --target=cuda,
 * to PTX for NVIDIA GPUs (cuda/), through LLVM.
 *
 *   torch-lower m.mlir | codegen --target=cpu | vmpack -o m.vmfb
 *   torch-lower m.mlir | codegen --target=cuda --gpu-arch=sm_90 | vmpack -o m.vmfb
 *
 * Reads IR (a file or stdin), forms dispatch regions (dispatch.c), writes
 * the host program (host.c) and the kernels' objects (the target's emit)
 * to stdout or -o FILE.  Errors: FILE:LINE:COL at the op, exit 1, nothing
 * written.  The target is a Target (gen.h), picked by --target.
 */
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "tool.h"

static const char usage[] =
"usage: codegen [options] [FILE|-]\n"
"  --target=cpu|cuda       the target (default cpu)\n"
"  --gpu-arch=sm_NN        cuda: sm_80 (default), sm_86, sm_89 or sm_90\n"
"  --cpu=host|NAME         the CPU to compile for (default host)\n"
"  --features=+f,-g        LLVM target features (default: the host's with\n"
"                          --cpu=host, else the CPU's)\n"
"  --emit=fxvm|llvm|asm|ptx  what to print: the fxvm module (default), the\n"
"                          kernels' LLVM IR after optimization, or assembly\n"
"                          (for cuda: PTX, also as --emit=ptx)\n"
"  --dump-dispatches       print the dispatch regions: which ops each\n"
"                          kernel fused, its grid and bindings\n"
"  -O0                     do not run LLVM's optimization pipeline\n"
"  --llvm-passes=PIPELINE  LLVM passes for every kernel, in opt's -passes\n"
"                          syntax (default: a short one for the kernels\n"
"                          codegen vectorizes, default<O3> for the rest)\n"
"  --no-microkernel        compile contractions as plain loop nests\n"
"  --no-fused-pack         pack non-constant GEMM operands by kernels of\n"
"                          their own, not inside the GEMM kernel\n"
"  --no-winograd           compute 3x3 convolutions of stride 1 as direct\n"
"                          sums, not by Winograd's F(2x2, 3x3)\n"
"  --vdpbf16ps=auto|on|off  bf16 GEMMs by vdpbf16ps where the CPU has\n"
"                          AVX-512 BF16 and no AMX-BF16 (auto: on AMD's\n"
"                          Zen 4 and later, where it runs at twice the f32\n"
"                          FMA's rate; off on Intel's, where it does not)\n"
"  -j, --jobs=N            compile the kernels on N threads (default: one\n"
"                          per CPU; the output is the same for any N)\n"
"  --length-ratio=R        a dynamic length: a function padded to the\n"
"                          range's top, and below it one for lengths up to\n"
"                          about 1/R of the one above, down to 16 (default\n"
"                          4; 0: the top's alone)\n"
"  --timing                wall time of each phase on stderr\n"
"  --trace=FILE            append each phase as a Chrome trace event to\n"
"                          FILE (Perfetto; the stages of a pipe may share it)\n"
"  --dump-dispatch-graph=FILE  write the dispatches and the buffers between\n"
"                          them as a Graphviz DOT graph to FILE\n"
"  -o FILE                 write to FILE (atomically) instead of stdout\n"
"  --print-debuginfo       print locations\n"
"  --reproducer=FILE       on failure, save the input to FILE and print the\n"
"                          command that replays it\n"
"  --no-debuginfo          print none (default: those the input gave,\n"
"                          unless the output is a terminal)\n";

static int debuginfo;

static const Target *const targets[] = { &T_cpu, &T_cuda };

static const Target *target_named(const char *name)
{
	for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++)
		if (!strcmp(targets[i]->name, name))
			return targets[i];
	return NULL;
}

/* --emit, after the target's options (cuda's ptx is its asm) */
static void check_emit(Opts *o)
{
	if (o->emit && strcmp(o->emit, "fxvm") && strcmp(o->emit, "llvm") &&
			strcmp(o->emit, "asm") && strcmp(o->emit, "obj") && strcmp(o->emit, "ptx"))
		tool_fail("unknown --emit '%s' (fxvm, llvm, asm, ptx)", o->emit);
	if (o->emit && !strcmp(o->emit, "ptx"))
		tool_fail("--emit=ptx is for --target=cuda");
	if (o->emit && !strcmp(o->emit, "fxvm"))
		o->emit = NULL;
}

static const Target *parse_args(int argc, char **argv, Opts *o)
{
	const Target *t;
	const char *v;
	int i;

	o->opt = 1;
	o->target = "cpu";
	o->vdpbf16ps = -1;
	o->length_ratio = 4;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs(usage, stdout);
			exit(0);
		} else if ((v = tool_optval(argc, argv, &i, "--target"))) {
			o->target = v;
		} else if ((v = tool_optval(argc, argv, &i, "--gpu-arch"))) {
			o->gpu_arch = v;
		} else if ((v = tool_optval(argc, argv, &i, "--cpu"))) {
			o->cpu = v;
		} else if ((v = tool_optval(argc, argv, &i, "--features"))) {
			o->features = v;
		} else if ((v = tool_optval(argc, argv, &i, "--emit"))) {
			o->emit = v;
		} else if ((v = tool_optval(argc, argv, &i, "--llvm-passes"))) {
			o->passes = v;
		} else if ((v = tool_optval(argc, argv, &i, "-o"))) {
			o->output = v;
		} else if (!strcmp(a, "--dump-dispatches")) {
			o->dump = 1;
		} else if (!strcmp(a, "-O0")) {
			o->opt = 0;
		} else if ((v = tool_optval(argc, argv, &i, "--jobs")) || (v = tool_optval(argc, argv, &i, "-j")) ||
				(!strncmp(a, "-j", 2) && a[2] >= '0' && a[2] <= '9' && (v = a + 2))) {
			o->jobs = atoi(v);
			if (o->jobs < 1)
				tool_fail("--jobs wants a positive count, not '%s'", v);
		} else if ((v = tool_optval(argc, argv, &i, "--length-ratio"))) {
			char *end;
			long r = strtol(v, &end, 10);

			if (*end || end == v || r < 0 || r == 1 || r > 1024)
				tool_fail("--length-ratio wants 0 or a ratio in [2, 1024], not '%s'", v);
			o->length_ratio = (int)r;
		} else if (!strcmp(a, "--timing") || !strcmp(a, "--mlir-timing")) {
			o->timing = 1;
		} else if (!strcmp(a, "--no-microkernel")) {
			o->no_micro = 1;
		} else if (!strcmp(a, "--no-fused-pack")) {
			o->no_fuse_pack = 1;
		} else if (!strcmp(a, "--no-winograd")) {
			o->no_winograd = 1;
		} else if ((v = tool_optval(argc, argv, &i, "--vdpbf16ps"))) {
			if (!strcmp(v, "auto"))
				o->vdpbf16ps = -1;
			else if (!strcmp(v, "on") || !strcmp(v, "off"))
				o->vdpbf16ps = !strcmp(v, "on");
			else
				tool_fail("--vdpbf16ps wants auto, on or off, not '%s'", v);
		} else if (!strcmp(a, "--print-debuginfo") || !strcmp(a, "--mlir-print-debuginfo")) {
			debuginfo = 1;
		} else if ((v = tool_optval(argc, argv, &i, "--reproducer"))) {
			tool_repro_file(v);
		} else if ((v = tool_optval(argc, argv, &i, "--trace"))) {
			ctrace_open(v);
		} else if ((v = tool_optval(argc, argv, &i, "--dump-dispatch-graph"))) {
			if (!*v || !strcmp(v, "-"))   /* stdout is the module's */
				tool_fail("--dump-dispatch-graph: needs a file name");
			o->graph = v;
		} else if (!strcmp(a, "--no-debuginfo")) {
			debuginfo = -1;
		} else if (a[0] == '-' && a[1]) {
			tool_fail("unknown option '%s' (see --help)", a);
		} else if (o->input) {
			tool_fail("more than one input file");
		} else {
			o->input = a;
		}
	}
	if (!o->input)
		o->input = "-";
	if (!(t = target_named(o->target)))
		tool_fail("unsupported target '%s' (cpu or cuda)", o->target);
	t->options(o);
	check_emit(o);
	return t;
}

static Op *new_func(Gen *g, Op *fn)
{
	Attr *ft = op_attr(fn, "function_type");
	Op *nf = op_new(g->c, "func.func", 0, NULL, 0, NULL, 1, fn->loc);
	Block *ob = fn->regs[0].first, *nb = block_new(g->c);
	int i;

	op_set_attr(g->c, nf, "sym_name", op_attr(fn, "sym_name"));
	op_set_attr(g->c, nf, "function_type", ft);
	if (op_attr(fn, "sym_visibility"))
		op_set_attr(g->c, nf, "sym_visibility", op_attr(fn, "sym_visibility"));
	region_append(&nf->regs[0], nb);
	for (i = 0; i < ob->nargs; i++)
		block_add_arg(g->c, nb, ob->args[i]->type, ob->args[i]->loc);
	return nf;
}

static void dump_dispatches(Gen *g, FILE *out)
{
	int i, j;

	for (i = 0; i < g->nk; i++) {
		Kernel *k = g->k[i];

		fprintf(out, "%s: %s, grid [%lld, %lld, %lld], %d bindings\n", k->name,
			k->kind == KK_GEMM ? "gemm micro-kernel" : "loop nest",
			(long long)k->grid[0], (long long)k->grid[1], (long long)k->grid[2], k->nbind);
		if (!k->display)
			kernel_label(g, k);
		fprintf(out, "  name %s, %lld bytes, %lld flops%s%s\n", k->display, (long long)k->bytes,
			(long long)k->flops, *k->source ? ", at " : "", k->source);
		for (j = 0; j < k->nbind; j++) {
			Buf b = {0};

			print_type(&b, k->bind[j].type);
			buf_putc(&b, 0);
			fprintf(out, "  %s %d: %s\n", k->bind[j].out ? "out" : "in ", j, b.p);
			buf_free(&b);
		}
		for (j = 0; k->bound && j < k->ndims; j++)
			if (k->bound[j].c)
				fprintf(out, "  loop %d of %lld stops at ceil((%lld * n + %lld) / %lld), n the call's length or a bounded chunk's items\n",
					j, (long long)k->ext[j], (long long)k->bound[j].c, (long long)k->bound[j].d,
					(long long)k->bound[j].q);
		for (j = 0; j < 3; j++)
			if (k->glen[j].c)
				fprintf(out, "  its workgroups along %c: ceil((%lld * n + %lld) / %lld), at most %lld\n",
					"xyz"[j], (long long)k->glen[j].c, (long long)k->glen[j].d,
					(long long)k->glen[j].q, (long long)k->grid[j]);
		if (k->kind == KK_GEMM && k->g.kbound.c)
			fprintf(out, "  its %lld steps stop at ceil((%lld * n + %lld) / %lld)\n", (long long)k->g.K,
				(long long)k->g.kbound.c, (long long)k->g.kbound.d, (long long)k->g.kbound.q);
		if (k->prefill) {
			Buf b = {0};

			print_attr(&b, k->prefill);
			buf_putc(&b, 0);
			if (k->padh)
				fprintf(out, "  output filled with %s by the kernel: the %lld columns before and "
					"%lld after each row of %lld (along %s), the %lld rows above and %lld below "
					"each plane of %lld\n",
					b.p, (long long)k->padl, (long long)k->padr, (long long)k->padw,
					k->padd == 2 ? "N" : "M", (long long)k->padt, (long long)k->padb,
					(long long)k->padh);
			else if (k->padw)
				fprintf(out, "  output filled with %s: by the kernel in the %lld columns before and "
					"%lld after each row of %lld (along %s), by the host in the other rows first\n",
					b.p, (long long)k->padl, (long long)k->padr, (long long)k->padw,
					k->padd == 2 ? "N" : "M");
			else
				fprintf(out, "  output filled with %s by the host first\n", b.p);
			buf_free(&b);
		}
		fprintf(out, "  fused:\n%.*s", (int)k->fused.n, k->fused.p ? k->fused.p : "");
	}
}

/* torch-lower marks the i8 arguments and results that hold ui8 with
 * {fxpipe.unsigned}: the compiled function takes and gives ui8 there
 * (vmpack's dtype, vmrun's .npy '|u1'), a reinterpreting
 * builtin.unrealized_conversion_cast between it and the signless body. */
static Attr *unmark(Ctx *c, Attr *attrs, int i, int *marked)
{
	Attr *d = attrs && attrs->kind == AT_ARRAY && (size_t)i < attrs->n ? attrs->elts[i] : NULL;
	NamedAttr na[64];
	size_t k, n = 0;

	*marked = 0;
	if (!d || d->kind != AT_DICT || d->n > 64)
		return d;
	for (k = 0; k < d->n; k++)
		if (!strcmp(d->dict[k].name, "fxpipe.unsigned"))
			*marked = 1;
		else
			na[n++] = d->dict[k];
	return *marked ? at_dict(c, (int)n, na) : d;
}

static Type *as_unsigned(Ctx *c, Type *t)
{
	if (t->kind != TY_TENSOR || !t->elem || t->elem->kind != TY_INT || t->elem->width == 1)
		return NULL;
	return ty_tensor(c, t->rank, t->dims, ty_int(c, t->elem->width, UNSIGNED));
}

static Value *reinterpret(Ctx *c, Op *before, Value *v, Type *to)
{
	Op *op = op_new(c, "builtin.unrealized_conversion_cast", 1, &v, 1, &to, 0, before->loc);

	op_insert_before(before, op);
	return RES(op, 0);
}

static int unsigned_signature(Ctx *c, Op *fn)
{
	Attr *ft = op_attr(fn, "function_type"), *aa = op_attr(fn, "arg_attrs");
	Attr *ra = op_attr(fn, "res_attrs");
	Block *entry = fn->regs[0].first, *b;
	Type *t = ft ? ft->type : NULL;
	int i, n, marked, any = 0;

	if (!t || t->kind != TY_FUNC || !entry || (!aa && !ra))
		return 0;
	n = t->nsub;
	Type *sub[n + 1];
	Attr *na[n + 1];
	for (i = 0; i < n; i++) {
		Attr *src = i < t->nin ? aa : ra;
		int k = i < t->nin ? i : i - t->nin;

		sub[i] = t->sub[i];
		na[i] = unmark(c, src, k, &marked);
		if (!na[i])
			na[i] = at_dict(c, 0, NULL);
		if (!marked)
			continue;
		any = 1;
		if (!(sub[i] = as_unsigned(c, t->sub[i])))
			return op_error(fn, "codegen: {fxpipe.unsigned} on a non-integer tensor"), -1;
		if (i < t->nin) {
			Value *a = entry->args[i], *cv;

			value_set_type(a, sub[i]);
			cv = reinterpret(c, entry->first, a, t->sub[i]);
			value_replace_all_uses(a, cv);
			op_set_operand(cv->def, 0, a);
			continue;
		}
		for (b = entry; b; b = b->next)
			if (b->last && op_is(b->last, "func.return") && k < b->last->nopnds)
				op_set_operand(b->last, k, reinterpret(c, b->last, OPND(b->last, k), sub[i]));
	}
	if (!any)
		return 0;
	op_set_attr(c, fn, "function_type", at_type(c, ty_func(c, t->nin, sub, n - t->nin, sub + t->nin)));
	op_set_attr(c, fn, "arg_attrs", aa ? at_array(c, t->nin, na) : NULL);
	op_set_attr(c, fn, "res_attrs", ra ? at_array(c, n - t->nin, na + t->nin) : NULL);
	return 0;
}

/* Size limits (man/codegen.1): a tensor of at most 2^48 bytes (256 TiB,
 * the runtime's arena limit), a constant of at most 2^36 (64 GiB, which
 * vmpack writes into the module). */
#define MAX_TENSOR_BYTES ((uint64_t)1 << 48)
#define MAX_CONST_BYTES ((uint64_t)1 << 36)

/* A static tensor's bytes, 0 if it is not one; UINT64_MAX past 2^64. */
static uint64_t tensor_bytes(const Type *t)
{
	uint64_t n = 1;

	if (!t || t->kind != TY_TENSOR || !t->ranked)
		return 0;
	for (int i = 0; i < t->rank; i++)
		if (t->dims[i] < 0)
			return 0;   /* dynamic: refused later */
	for (int i = 0; i < t->rank; i++)
		if (__builtin_mul_overflow(n, (uint64_t)t->dims[i], &n))
			return UINT64_MAX;
	if (__builtin_mul_overflow(n, (uint64_t)elem_size(t->elem), &n))
		return UINT64_MAX;
	return n;
}

static int size_error(Op *op, const char *what, const Type *t, uint64_t n, uint64_t limit)
{
	Buf b = {0};

	print_type(&b, t);
	buf_putc(&b, 0);
	if (n == UINT64_MAX)
		op_error(op, "%s %s of more than 2^64 bytes is larger than codegen's limit of %llu bytes",
			what, b.p, (unsigned long long)limit);
	else
		op_error(op, "%s %s of %llu bytes is larger than codegen's limit of %llu bytes",
			what, b.p, (unsigned long long)n, (unsigned long long)limit);
	buf_free(&b);
	return 1;
}

static int check_sizes_op(Op *op, void *env)
{
	int *bad = env;
	uint64_t n;

	if (op_attr(op, LENGTH_SIZES) || op_attr(op, LENGTH_LOOPS)) {
		op_error(op, "attribute '%s' is codegen's own (a dynamic length's padding): "
			"an input may not carry it", op_attr(op, LENGTH_SIZES) ? LENGTH_SIZES : LENGTH_LOOPS);
		return *bad = 1;
	}
	for (int i = 0; i < op->nres && !*bad; i++) {
		n = tensor_bytes(RES(op, i)->type);
		if (op_is(op, "arith.constant") && n > MAX_CONST_BYTES)
			*bad = size_error(op, "a constant", RES(op, i)->type, n, MAX_CONST_BYTES);
		else if (n > MAX_TENSOR_BYTES)
			*bad = size_error(op, "a tensor", RES(op, i)->type, n, MAX_TENSOR_BYTES);
	}
	for (int r = 0; r < op->nregs && !*bad; r++)
		for (Block *b = op->regs[r].first; b && !*bad; b = b->next)
			for (int i = 0; i < b->nargs && !*bad; i++)
				if ((n = tensor_bytes(b->args[i]->type)) > MAX_TENSOR_BYTES)
					*bad = size_error(op, "an argument", b->args[i]->type, n, MAX_TENSOR_BYTES);
	return *bad;
}

/* Sizes are checked before anything is planned: what the runtime could
 * never allocate, or vmpack write, is refused at the op; so is an
 * attribute that only codegen may set. */
static int check_sizes(Op *module)
{
	int bad = 0;

	op_walk(module, check_sizes_op, &bad);
	return bad ? -1 : 0;
}

/* tensor.pad with static sizes and a padding value from outside its
 * region (torch-mlir's and torch-lower --mlir-dialect-version=19's form)
 * as codegen reads padding: the value filled into an empty tensor, the
 * source inserted at the low offsets. */
static int lower_pads(Ctx *c, Op *fn)
{
	Block *b;
	Op *op, *next;

	for (b = fn->regs[0].first; b; b = b->next)
		for (op = b->first; op; op = next) {
			next = op->next;
			if (!op_is(op, "tensor.pad"))
				continue;
			Value *src = OPND(op, 0), *pv;
			Type *rt = RES(op, 0)->type, *i64 = ty_int(c, 64, SIGNLESS);
			Attr *lo = op_attr(op, "static_low");
			Block *body = op->regs[0].first;
			Op *y = body ? body->last : NULL;
			int r = rt->rank, i;

			if (op->nopnds != 1 || !ty_static(rt) || !ty_static(src->type) || !lo ||
					lo->kind != AT_DENSE_ARRAY || (int)lo->n != r || !y ||
					!op_is(y, "tensor.yield") || y->nopnds != 1 ||
					(OPND(y, 0)->def ? OPND(y, 0)->def->parent == body :
					 OPND(y, 0)->block == body))
				return op_error(op, "codegen: tensor.pad needs static sizes and a "
					"padding value defined outside its region"), -1;
			pv = OPND(y, 0);
			int64_t st[r + 1], seg[5] = { 1, 1, 0, 0, 0 };
			for (i = 0; i < r; i++)
				st[i] = 1;
			Op *e = op_new(c, "tensor.empty", 0, NULL, 1, &rt, 0, op->loc);
			op_insert_before(op, e);
			Value *fv[2] = { pv, RES(e, 0) };
			Op *f = op_new(c, "linalg.fill", 2, fv, 1, &rt, 0, op->loc);
			op_set_attr(c, f, "operand_segment_sizes",
				at_dense_array(c, ty_int(c, 32, SIGNLESS), 2, seg));
			op_insert_before(op, f);
			Value *iv[2] = { src, RES(f, 0) };
			Op *ins = op_new(c, "tensor.insert_slice", 2, iv, 1, &rt, 0, op->loc);
			op_set_attr(c, ins, "static_offsets", at_dense_array(c, i64, r, lo->ints));
			op_set_attr(c, ins, "static_sizes", at_dense_array(c, i64, r, src->type->dims));
			op_set_attr(c, ins, "static_strides", at_dense_array(c, i64, r, st));
			op_set_attr(c, ins, "operand_segment_sizes",
				at_dense_array(c, ty_int(c, 32, SIGNLESS), 5, seg));
			op_insert_before(op, ins);
			value_replace_all_uses(RES(op, 0), RES(ins, 0));
			op_erase(op);
		}
	return 0;
}

/* Whether fn has an argument of a dynamic batch (`?` at dimension 0). */
static int dynamic_batch(Op *fn)
{
	Block *b = fn->regs[0].first;

	for (int i = 0; i < b->nargs; i++) {
		Type *t = b->args[i]->type;

		if (t->kind == TY_TENSOR && !ty_static(t))
			return 1;
	}
	return 0;
}

/* The functions with bodies, their signatures made ui8 where marked
 * (a function with a dynamic batch first split into chunk functions);
 * their count, or -1 after an error. */
static int functions(Gen *g, Op ***fns)
{
	Op *op;
	int nf = 0;

	Op **decls = NULL, **sdecls = NULL, *pads[SEQ_MAXPADS];
	int nd = 0, ns = 0, npads = 0, i;

	for (op = g->module->regs[0].first->first; op; op = op->next) {
		int padded = 0;

		if (!op_is(op, "func.func"))
			continue;
		if (!op->regs[0].first)
			continue;   /* a declaration */
		if (has_dynamic_length(op)) {
			sdecls = xrealloc(sdecls, sizeof *sdecls * (size_t)(ns + 1));
			if ((npads = seq_split(g->c, op, g->o->length_ratio, &sdecls[ns], pads)) < 0)
				goto fail;
			op = sdecls[ns++]->next;   /* the padded functions; a batch next */
		}
		for (i = 0; i < npads; i++)
			padded |= op == pads[i];
		if (dynamic_batch(op)) {
			decls = xrealloc(decls, sizeof *decls * (size_t)(nd + 1));
			if (batch_split(g->c, op, &decls[nd], padded))
				goto fail;
			op = decls[nd++];   /* its chunk functions come next */
			continue;
		}
		if (unsigned_signature(g->c, op) || lower_pads(g->c, op))
			goto fail;
		*fns = xrealloc(*fns, sizeof **fns * (size_t)(nf + 1));
		(*fns)[nf++] = op;
	}
	for (i = 0; i < nd; i++)
		batch_signature(g->c, decls[i], decls[i]->next);
	for (i = 0; i < ns; i++)
		seq_signature(g->c, sdecls[i], sdecls[i]->next);
	free(decls);
	free(sdecls);
	return nf;
fail:
	free(decls);
	free(sdecls);
	return -1;
}

static void exe_name(char *name, size_t n, int nobj, int i)
{
	if (nobj == 1)
		snprintf(name, n, "kernels");
	else
		snprintf(name, n, "kernels_%d", i);
}

/* An fxvm.executable per object, before `first`. */
static void add_executables(Gen *g, KObj *objs, int nobj, Op *first)
{
	Block *mb = g->module->regs[0].first;

	for (int i = 0; i < nobj; i++) {
		char name[32];
		Resource *r;
		Type *t = ty_tensor(g->c, 1, (int64_t[]){ (int64_t)objs[i].n }, ty_int(g->c, 8, UNSIGNED));
		Op *exe;

		exe_name(name, sizeof name, nobj, i);
		r = resource_new(g->c, "builtin", name, objs[i].p, objs[i].n, 64);
		exe = op_new(g->c, "fxvm.executable", 0, NULL, 0, NULL, 0, g->module->loc);
		op_set_attr(g->c, exe, "sym_name", at_str(g->c, name));
		op_set_attr(g->c, exe, "format", at_str(g->c, g->t->format));
		op_set_attr(g->c, exe, "object", at_dense_resource(g->c, t, r));
		if (first)
			op_insert_before(first, exe);
		else
			op_append(mb, exe);
	}
}

/* An fxvm.kernel per kernel, with the target's launch, before `first`. */
static void add_kernels(Gen *g, int nobj, Op *first)
{
	int64_t block[3], shared;

	for (int i = 0; i < g->nk; i++) {
		Kernel *k = g->k[i];
		Op *ko = op_new(g->c, "fxvm.kernel", 0, NULL, 0, NULL, 0, k->root->loc);
		char name[32];

		op_set_attr(g->c, ko, "sym_name", at_str(g->c, k->name));
		exe_name(name, sizeof name, nobj, k->exe);
		op_set_attr(g->c, ko, "executable", at_symref(g->c, name));
		op_set_attr(g->c, ko, "symbol", at_str(g->c, k->name));
		op_set_attr(g->c, ko, "bindings", at_int(g->c, k->nbind, NULL));
		if (!k->display)
			kernel_label(g, k);
		op_set_attr(g->c, ko, "display_name", at_str(g->c, k->display));
		if (*k->source)
			op_set_attr(g->c, ko, "source", at_str(g->c, k->source));
		op_set_attr(g->c, ko, "bytes", at_int(g->c, k->bytes, NULL));
		op_set_attr(g->c, ko, "flops", at_int(g->c, k->flops, NULL));
		if (g->t->launch) {
			g->t->launch(g->o, k, block, &shared);
			op_set_attr(g->c, ko, "block", at_dense_array(g->c, ty_int(g->c, 64, SIGNLESS), 3, block));
			op_set_attr(g->c, ko, "shared", at_int(g->c, shared, NULL));
		}
		op_insert_before(first ? first : NULL, ko);
	}
}

/* The input's functions and anything else at its top level dropped, the
 * target recorded; what is printed must verify: else a bug here, not the
 * input's. */
static int finish_module(Gen *g, Op **fns, int nf, const char *cpu, const char *feat)
{
	Block *mb = g->module->regs[0].first;
	Op *op, *next;
	int i;

	for (i = 0; i < nf; i++) {
		op_drop_uses(fns[i]);
		op_unlink(fns[i]);
	}
	for (op = mb->first; op; op = next) {
		next = op->next;
		if (!strncmp(op->name, "fxvm.", 5) || op_is(op, "func.func"))
			continue;
		op_drop_uses(op);
		op_unlink(op);
	}
	op_set_attr(g->c, g->module, "fxvm.target", at_str(g->c, g->o->target));
	op_set_attr(g->c, g->module, "fxvm.cpu", at_str(g->c, cpu));
	op_set_attr(g->c, g->module, "fxvm.features", at_str(g->c, feat));
	if (verify(g->module)) {
		tool_err("internal error: the fxvm module does not verify");
		return -1;
	}
	return check_module(g);
}

/* --emit: the objects' text (PTX without the format's NUL) */
static void print_objects(Gen *g, KObj *objs, int nobj, FILE *out)
{
	for (int i = 0; i < nobj; i++)
		fwrite(objs[i].p, 1, g->t->text_nul && objs[i].n && !objs[i].p[objs[i].n - 1] ?
			objs[i].n - 1 : objs[i].n, out);
}

/* The host programs, a new function beside each input function. */
static int host_programs(Gen *g, Op **fns, FnPlan *plans, int nf)
{
	for (int i = 0; i < nf; i++) {
		Op *nf_ = new_func(g, fns[i]);

		op_insert_after(fns[i], nf_);
		if (host_build(g, fns[i], &plans[i], nf_))
			return -1;
	}
	phase_done(g, "host program");
	return 0;
}

static int run(Gen *g, Opts *o, FILE *out)
{
	Op *first;
	FnPlan *plans = NULL;
	Op **fns = NULL;
	int nf = 0, i, rc = -1;
	KObj *objs = NULL;
	int nobj = 0;
	const char *cpu = NULL, *feat = NULL;
	int64_t block[3], shared;

	if (check_sizes(g->module) || (nf = functions(g, &fns)) < 0)
		goto out;
	first = g->module->regs[0].first->first;   /* after functions() split any */
	if (!nf) {
		/* an empty module would pack into a program that runs nothing */
		tool_repro_skip();   /* a stage before failed: nothing to replay */
		tool_err("%s: no functions to compile", diag_fallback_file);
		goto out;
	}
	plans = xcalloc((size_t)nf, sizeof *plans);
	for (i = 0; i < nf; i++)
		if (plan_function(g, fns[i], &plans[i]))
			goto out;
	phase_done(g, "dispatch regions (and weight packing)");
	if (g->t->launch)
		for (i = 0; i < g->nk; i++)
			g->t->launch(o, g->k[i], block, &shared);
	if (o->graph)
		dispatch_graph(g, o->graph, fns, plans, nf);
	if (o->dump) {
		dump_dispatches(g, out);
		rc = 0;
		goto out;
	}
	if (g->t->emit(g, &objs, &nobj, &cpu, &feat))
		goto out;
	if (o->emit) {
		print_objects(g, objs, nobj, out);
		rc = 0;
		goto out;
	}
	/* the new module: executables, kernels, globals, then the functions */
	add_executables(g, objs, nobj, first);
	add_kernels(g, nobj, first);
	if (host_programs(g, fns, plans, nf) || finish_module(g, fns, nf, cpu, feat))
		goto out;
	rc = 0;
out:
	for (i = 0; i < nf && plans; i++)
		free(plans[i].st);
	for (i = 0; i < nobj; i++)
		free(objs[i].p);
	free(objs);
	free(plans);
	free(fns);
	free((void *)cpu);
	free((void *)feat);
	return rc;
}

int main(int argc, char **argv)
{
	Opts o;
	Gen g;
	size_t len, olen = 0;
	const char *text;
	char *obuf = NULL;
	FILE *mem;
	int rc = -1;

	memset(&o, 0, sizeof o);
	memset(&g, 0, sizeof g);
	tool_name = "codegen";
	tool_repro_init(argc, argv, ".mlir");
	g.t = parse_args(argc, argv, &o);
	kops_init();
	g.t->init();
	phase_start();
	text = tool_map(o.input, &len);
	diag_fallback_file = strcmp(o.input, "-") ? o.input : "<stdin>";
	g.c = ctx_new();
	g.o = &o;
	mem = open_memstream(&obuf, &olen);
	g.module = parse_module(g.c, diag_fallback_file, text, len);
	phase_done(&g, "read and parse");
	if (g.module && !diag_errors && verify(g.module) == 0 &&
	    verify_resource_data(g.module, diag_fallback_file) == 0)
		rc = run(&g, &o, mem);
	fclose(mem);
	if (rc || diag_errors) {
		free(obuf);
		rc = -1;
		goto done;
	}
	{
		FILE *out = tool_open_out(o.output);

		if (o.emit || o.dump) {
			fwrite(obuf, 1, olen, out);
		} else {
			/* the module, printed once everything has succeeded */
			PrintOpts po = { tool_debuginfo(debuginfo, o.output), 0, 1, 1 };

			print_module(out, g.module, &po);
		}
		free(obuf);
		tool_commit(out);
		phase_done(&g, "print and write");
		if (o.timing)
			fprintf(stderr, "  %8.4f s  total\n", phase_total());
	}
	rc = 0;
done:
	for (int i = 0; i < g.nk; i++) {
		free(g.k[i]->bind);
		buf_free(&g.k[i]->fused);
	}
	free(g.k);
	free(g.globals);
	pmap_free(&g.vi);
	ctx_free(g.c);
	tool_unmap(text);
	return rc ? 1 : 0;
}
