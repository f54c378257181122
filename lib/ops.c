/*
 * ops.c - the op table.  Every known op is one row: lib/ops.def for the
 * builtin, func, arith, math, tensor, linalg, scf and torch structural ops,
 * lib/torch_ops.def (generated from PyTorch's registry) for torch.aten.*,
 * lib/torch_ops_newer.def for aten schemas newer than that registry.
 */
#include <stdlib.h>
#include <string.h>

#include "asm.h"
#include "ctx.h"
#include "fold.h"
#include "optable.h"
#include "verify.h"

#define asm_parse_generic NULL
#define asm_print_generic NULL

static OpInfo table[] = {
#define OP(name, no, nr, ng, tr, syn) \
	{name, no, nr, ng, tr, asm_parse_##syn, asm_print_##syn, NULL, NULL, NULL, 0},
#include "ops.def"
#undef OP
};

static const TorchSig sigs[] = {
#define ATEN(name, no, nr, tr, args, rets) {args, rets},
#include "torch_ops.def"
#include "torch_ops_newer.def"
#undef ATEN
};

static OpInfo aten[] = {
#define ATEN(name, no, nr, tr, args, rets) \
	{name, no, nr, 0, tr, asm_parse_torch, asm_print_torch, NULL, NULL, NULL, 0},
#include "torch_ops.def"
#include "torch_ops_newer.def"
#undef ATEN
};

/* the rows of torch_ops_newer.def, which come last in aten[] */
static const char *const newer[] = {
#define ATEN(name, no, nr, tr, args, rets) name,
#include "torch_ops_newer.def"
#undef ATEN
};

enum { NTABLE = sizeof table / sizeof *table, NATEN = sizeof aten / sizeof *aten,
	NNEWER = sizeof newer / sizeof *newer };

static const OpInfo **index_;
static size_t indexcap;

static uint64_t
strhash(const char *s)
{
	return hash_bytes(s, strlen(s), 0);
}

/* Ops that draw random numbers must not be merged or folded, and
 * assertions (which raise in PyTorch) must not be erased as unused. */
static int
is_random(const char *name)
{
	static const char *const words[] = {"rand", "dropout", "bernoulli",
		"normal", "uniform", "multinomial", "exponential", "cauchy",
		"geometric", "log_normal", "poisson", "_assert", "sym_constrain_range",
		NULL};
	int i;

	for (i = 0; words[i]; i++)
		if (strstr(name, words[i]))
			return 1;
	return 0;
}

/* replace: a row of torch_ops_newer.def takes the place of the generated
 * row of the same name (a schema PyTorch has grown since). */
static void
insert(const OpInfo *info, int replace)
{
	size_t i = strhash(info->name) & (indexcap - 1);

	while (index_[i]) {
		if (!strcmp(index_[i]->name, info->name)) {
			if (!replace)
				die("op '%s' declared twice", info->name);
			break;
		}
		i = (i + 1) & (indexcap - 1);
	}
	index_[i] = info;
}

/* A key ending in '*' binds every op it prefixes.  check_tables has made
 * sure that every key matches some op. */
static void
attach(const OpHook *hooks, int fold)
{
	size_t i, n;

	for (; hooks->op; hooks++) {
		n = strlen(hooks->op);
		int prefix = n && hooks->op[n - 1] == '*';
		for (i = 0; i < NTABLE + NATEN; i++) {
			OpInfo *in = i < NTABLE ? &table[i] : &aten[i - NTABLE];
			if (prefix ? strncmp(in->name, hooks->op, n - 1)
			    : strcmp(in->name, hooks->op))
				continue;
			if (fold)
				in->fold = (FoldFn)hooks->fn;
			else
				in->verify = (VerifyFn)hooks->fn;
		}
	}
}

/* Each op's required attributes: its first row of attr_needs; the rows
 * of one op must be consecutive, or verify_needs would miss some. */
static void
attach_needs(void)
{
	const AttrNeed *r;

	for (r = attr_needs; r->op; r++) {
		OpInfo *in = (OpInfo *)opinfo_lookup(r->op);
		if (in->needs && strcmp(r[-1].op, r->op) != 0)
			die("internal: required attributes of '%s' are not consecutive", r->op);
		if (!in->needs)
			in->needs = r;
	}
}

/* The hooks and the tables that ops.c and the folds read by name: a key
 * that names no op would match nothing, silently. */
static void
check_tables(void)
{
	optable_require(ops_optables);
	optable_require(verify_optables);
	optable_require(fold_optables);
	optable_require(torch_fold_optables);
}

static void
build_index(void)
{
	size_t i;

	for (indexcap = 1; indexcap < 2 * (NTABLE + NATEN); indexcap *= 2)
		;
	index_ = xcalloc(indexcap, sizeof *index_);
	for (i = 0; i < NTABLE + NATEN; i++)
		(i < NTABLE ? &table[i] : &aten[i - NTABLE])->code = (int)i;
	for (i = 0; i < NATEN; i++) {
		aten[i].sig = &sigs[i];
		if ((aten[i].traits & TR_VALUESEM) && !is_random(aten[i].name))
			aten[i].traits |= TR_PURE;
		if (aten[i].traits & TR_VIEW)
			aten[i].traits |= TR_PURE;
		insert(&aten[i], i >= NATEN - NNEWER);
	}
	for (i = 0; i < NTABLE; i++)
		insert(&table[i], 0);
	for (i = 0; i < NATEN; i++)
		aten[i].verify = verify_torch_op;
	check_tables();
	attach(verify_hooks, 0);
	attach_needs();
	attach(fold_hooks, 1);
	attach(torch_fold_hooks, 1);
}

int
opinfo_count(void)
{
	return NTABLE + NATEN;
}

const OpInfo *
opinfo_at(int code)
{
	if (!index_)
		build_index();
	if (code < 0 || code >= NTABLE + NATEN)
		return NULL;
	return code < NTABLE ? &table[code] : &aten[code - NTABLE];
}

const OpInfo *
opinfo_lookup(const char *name)
{
	size_t i;

	if (!index_)
		build_index();
	for (i = strhash(name) & (indexcap - 1); index_[i]; i = (i + 1) & (indexcap - 1))
		if (!strcmp(index_[i]->name, name))
			return index_[i];
	return NULL;
}

/* ---- SSA name hints, as MLIR's and torch-mlir's getAsmResultNames ---- */

static void
int_type_suffix(char *buf, size_t n, const Type *t)
{
	const char *p = t->sign == SIGNED ? "si" : t->sign == UNSIGNED ? "ui" : "i";

	snprintf(buf, n, "_%s%d", p, t->width);
}

static const char *
arith_constant_hint(Op *op, char *buf, size_t n)
{
	Attr *v = op_attr(op, "value");
	char sfx[16] = "";

	if (!v || v->kind != AT_INT)
		return "cst";
	if (v->type->kind == TY_INT && v->type->width == 1)
		return v->i ? "true" : "false";
	if (v->type->kind == TY_INT)
		int_type_suffix(sfx, sizeof sfx, v->type);
	snprintf(buf, n, "c%lld%s", (long long)v->i, sfx);
	return buf;
}

static const char *
torch_float_hint(Op *op, char *buf, size_t n)
{
	Attr *v = op_attr(op, "value");
	Buf b = {0};
	size_t i, j = 0;

	if (!v || v->kind != AT_FLOAT)
		return "float";
	print_float(&b, v->f, v->type);
	/* torch-mlir: "float" + the printed value without '+' */
	j = snprintf(buf, n, "float");
	for (i = 0; i < b.n && j + 1 < n; i++)
		if (b.p[i] != '+' && b.p[i] != ' ')
			buf[j++] = b.p[i];
	buf[j] = 0;
	buf_free(&b);
	return buf;
}

static const struct {
	const char *op, *hint;
} fixed_hints[] = {
	{"torch.constant.none", "none"},
	{"torch.constant.str", "str"},
	{"torch.constant.number", "number"},
	{"tensor.expand_shape", "expanded"},
	{"tensor.collapse_shape", "collapsed"},
	{"tensor.extract_slice", "extracted_slice"},
	{"tensor.insert_slice", "inserted_slice"},
	{"tensor.concat", "concat"},
	{"tensor.extract", "extracted"},
	{"tensor.insert", "inserted"},
	{"tensor.pad", "padded"},
	{"tensor.dim", "dim"},
	{"tensor.cast", "cast"},
	{"tensor.from_elements", "from_elements"},
	{"tensor.splat", "splat"},
	{"tensor.generate", "generated"},
	{"tensor.reshape", "reshape"},
	{"linalg.transpose", "transposed"},
	{"linalg.broadcast", "broadcasted"},
};

const OpTable ops_optables[] = {
	OPTABLE("result name hint", fixed_hints, ""),
	{NULL},
};

const char *
op_result_hint(Op *op, int i, char *buf, size_t n)
{
	Attr *v;
	size_t k;

	if (i != 0)
		return NULL;
	if (op_is(op, "arith.constant"))
		return arith_constant_hint(op, buf, n);
	if (op_is(op, "torch.constant.int")) {
		v = op_attr(op, "value");
		if (!v || v->kind != AT_INT)
			return "int";
		snprintf(buf, n, "int%lld", (long long)v->i);
		return buf;
	}
	if (op_is(op, "torch.constant.float"))
		return torch_float_hint(op, buf, n);
	if (op_is(op, "torch.constant.bool")) {
		v = op_attr(op, "value");
		return v && v->kind == AT_INT && v->i ? "true" : "false";
	}
	if (op_is(op, "torch.constant.device")) {
		v = op_attr(op, "value");
		if (!v || v->kind != AT_STR)
			return "device";
		snprintf(buf, n, "%s", v->s);
		for (k = 0; buf[k]; k++)
			if (buf[k] == ':')
				buf[k] = '_';
		return buf;
	}
	for (k = 0; k < sizeof fixed_hints / sizeof *fixed_hints; k++)
		if (op_is(op, fixed_hints[k].op))
			return fixed_hints[k].hint;
	return NULL;
}

const char *
op_blockarg_hint(Op *op, Block *b, int i)
{
	Attr *seg;

	if (!op || !op_is(op, "linalg.generic") || b != op->regs[0].first)
		return NULL;
	seg = op_attr(op, "operand_segment_sizes");
	if (seg && seg->kind == AT_DENSE_ARRAY && seg->n >= 1)
		return i < seg->ints[0] ? "in" : "out";
	return i < b->nargs - 1 ? "in" : "out";
}
