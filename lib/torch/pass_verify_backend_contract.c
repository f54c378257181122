/*
 * pass_verify_backend_contract.c - torch-verify-backend-contract.
 *
 * needs:       a module.
 * guarantees:  nothing is changed; the pass fails, after listing every
 *              offender at its location with the reason, unless the
 *              module is at the backend contract: only ops torch-lower
 *              handles (contract.def, contract_allows()), value semantics
 *              only (!torch.vtensor, no !torch.tensor), every tensor with
 *              a rank and a dtype, and static sizes wherever the
 *              function's arguments are static.
 * invalidates: nothing.
 *
 * Each message ends with torch-mlir's words for the same offence in
 * parentheses, so that its -verify-diagnostics tests match.  Option
 * `notes` adds torch-mlir's note on the likely cause to each error and
 * reports only the first offender (its lower-to-backend-contract does).
 * A module initializer is reported before anything else, at its
 * terminator.  torch-verify-backend-contract-no-
 * decompositions is torch-mlir's check without decompositions: types only
 * (any op may stay), a torch.operator that names no known op reported
 * before anything else, and only the first offender, with its note.
 */
#include <string.h>

#include "contract.h"
#include "pass.h"
#include "torch.h"

typedef struct Check {
	int bad;
	int want_static;      /* the current function's arguments are static */
	int notes;            /* a note on the likely cause after each error */
	int types_only;       /* torch-mlir's no-decompositions check */
	int first;            /* only the first offender, as torch-mlir */
} Check;

static const char *
tystr(const Type *t, char *buf, size_t n)
{
	Buf b = {0};

	print_type(&b, t);
	snprintf(buf, n, "%.*s", (int)b.n, b.p);
	buf_free(&b);
	return buf;
}

/* The likely causes, as torch-mlir's notes put them. */
static const char note_value[] = "this is likely due to a missing case in the "
	"MaximizeValueSemantics pass (torch-maximize-value-semantics left it)";
static const char note_infer[] = "this is likely due to a missing transfer "
	"function (torch-refine-types could not infer it)";
static const char note_op[] = "this is likely due to no decomposition of the op "
	"into ops the backend takes";
static const char note_init[] = "this is likely due to a global slot that is "
	"not inlined (torch-opt inlines none)";

/* Is an integer element type one of torch's (i1, si8..si64, ui8)?  Other
 * element types are left to the rest of the checks. */
static int
torch_int_dtype(const Type *e)
{
	if (e->kind != TY_INT || e->width == 1)
		return 1;
	if (e->sign == UNSIGNED)
		return e->width == 8;
	return e->sign == SIGNED && (e->width == 8 || e->width == 16 || e->width == 32
	    || e->width == 64);
}

/* Why a value's type breaks the contract, or NULL; *note the cause. */
static const char *
type_problem(const Type *t, int want_static, const char **note)
{
	*note = NULL;
	if (t->kind == TY_TORCH_ANY)
		return "has type '!torch.any', which no backend takes "
		    "(unsupported by backend contract: type '!torch.any')";
	*note = note_infer;
	if (t->kind == TY_TORCH_LIST || t->kind == TY_TORCH_OPTIONAL) {
		const Type *e = t->elem;
		/* list<optional<vtensor>>: index_put's indices with None */
		if (e && e->kind == TY_TORCH_OPTIONAL)
			e = e->elem;
		*note = note_value;
		return e && e->kind != TY_TORCH_VTENSOR
		    && e->kind != TY_TORCH_INT && e->kind != TY_TORCH_FLOAT
		    && e->kind != TY_TORCH_BOOL ? "holds a non value-semantic type" : NULL;
	}
	if (t->kind != TY_TORCH_VTENSOR && t->kind != TY_TORCH_TENSOR)
		return NULL;
	if (t->elem && !torch_int_dtype(t->elem)) {
		static char why[96];
		char dt[32];
		*note = NULL;
		tystr(t->elem, dt, sizeof dt);
		snprintf(why, sizeof why, "has an element type no torch dtype is "
		    "(invalid dtype '%s')", dt);
		return why;
	}
	if (t->kind == TY_TORCH_TENSOR) {
		*note = note_value;
		return "is not value-semantic (unsupported by backend contract: "
		    "non-value tensor type)";
	}
	if (!t->ranked)
		return "has no known rank (unsupported by backend contract: "
		    "tensor with unknown rank)";
	if (!t->elem)
		return "has no known dtype (unsupported by backend contract: "
		    "tensor with unknown dtype)";
	/* f8, complex<>, quantized dtypes: parsed and printed, never lowered */
	if (t->elem->kind == TY_OPAQUE) {
		*note = NULL;
		return "has a dtype the backend has no kernels for";
	}
	if (want_static && !ty_static(t))
		return "has a dynamic size where the input is static";
	return NULL;
}

/* Reports an offence of op: one more error, and its note if asked. */
static void
offence(Check *k, Op *op, const char *note)
{
	if (k->notes && note)
		op_note(op, "%s", note);
	k->bad++;
}

static void
check_value(Check *k, Op *op, Value *v, const char *what, int i)
{
	char buf[256];
	const char *note, *why = type_problem(v->type, k->want_static, &note);

	if (!why || (k->first && k->bad))
		return;
	op_error(op, "%s #%d of '%s' (%s) %s", what, i, op->name,
	    tystr(v->type, buf, sizeof buf), why);
	offence(k, op, note);
}

static int
args_static(Op *fn)
{
	Block *b = fn->nregs ? fn->regs[0].first : NULL;
	int i;

	for (i = 0; b && i < b->nargs; i++)
		if (tt_is(b->args[i]->type) && !ty_static(b->args[i]->type))
			return 0;
	return 1;
}

/* A module initializer (torch.global_slot.module_initializer): reported
 * at its terminator (not the whole initializer), before anything else,
 * as torch-mlir does. */
static int
visit_initializer(Op *op, void *env)
{
	Check *k = env;
	Op *t;

	if (!op_is(op, "torch.global_slot.module_initializer"))
		return 0;
	if (k->first && k->bad)
		return 1;
	t = op->nregs && op->regs[0].first && op->regs[0].first->last
	    ? op->regs[0].first->last : op;
	op_error(t, "global slots and their initializer are not supported by the backend "
	    "contract "
	    "(unsupported by backend contract: module initializers)");
	offence(k, t, note_init);
	return 1;
}

static void
check_op(Check *k, Op *op)
{
	const char *n;

	if (k->types_only || contract_allows(op->name) || (k->first && k->bad))
		return;
	n = torch_opname(op);
	op_error(op, "'%s' is not supported by the backend contract "
	    "(found an op that was marked as backend illegal)", n ? n : op->name);
	offence(k, op, note_op);
}

/* Each op: whether it is one the backend takes, and the types of its
 * results; with only the first offender, the types first (a wrong type is
 * the likelier cause of an op left over). */
static int
visit(Op *op, void *env)
{
	Check *k = env;
	int i;

	if (k->first && k->bad)
		return 1;
	if (op_is(op, "torch.global_slot.module_initializer"))
		return 1;   /* visit_initializer's */
	if (op_is(op, "func.func")) {
		k->want_static = args_static(op);
		Block *b = op->nregs ? op->regs[0].first : NULL;
		for (i = 0; b && i < b->nargs; i++)
			check_value(k, op, b->args[i], "argument", i);
	}
	if (!k->first)
		check_op(k, op);
	for (i = 0; i < op->nres; i++)
		check_value(k, op, RES(op, i), "result", i);
	if (k->first)
		check_op(k, op);
	return 0;
}

/* A torch.operator: an op torch-mlir has no op of its own for, its first
 * complaint. */
static int
visit_operator(Op *op, void *env)
{
	Check *k = env;
	const char *n = torch_opname(op);

	if (!op_is(op, "torch.operator") || !n)
		return 0;
	op_error(op, "'%s' is not supported by the backend contract "
	    "(unsupported by backend contract: Unimplemented operator '%s')", n, n);
	k->bad++;
	return 0;
}

static int
run(Ctx *c, Op *m, PassArgs *a)
{
	int notes = !!pass_opt_int(a, "notes", 0);
	Check k = {0, 1, notes, 0, notes};

	op_walk(m, visit_initializer, &k);
	op_walk(m, visit, &k);
	return k.bad ? -1 : 0;
}

static int
run_types(Ctx *c, Op *m, PassArgs *a)
{
	Check k = {0, 1, 1, 1, 1};

	op_walk(m, visit_initializer, &k);
	if (!k.bad)
		op_walk(m, visit_operator, &k);
	if (!k.bad)
		op_walk(m, visit, &k);
	return k.bad ? -1 : 0;
}

static const char *const verify_options[] = {"notes", NULL};

const PassInfo pass_torch_verify_backend_contract = {
	.name = "torch-verify-backend-contract",
	.summary = "check that the module is at the backend contract; list what is not",
	.anchor = "builtin.module",
	.options = verify_options,
	.run = run,
};

const PassInfo pass_torch_verify_backend_contract_no_decompositions = {
	.name = "torch-verify-backend-contract-no-decompositions",
	.summary = "torch-mlir's check without decompositions: types only, the first offender",
	.anchor = "builtin.module",
	.run = run_types,
};
