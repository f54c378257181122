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
 */
#include <string.h>

#include "contract.h"
#include "pass.h"
#include "torch.h"

typedef struct Check {
	int bad;
	int want_static;      /* the current function's arguments are static */
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

/* Why a value's type breaks the contract, or NULL. */
static const char *
type_problem(const Type *t, int want_static)
{
	if (t->kind == TY_TORCH_TENSOR)
		return "is not value-semantic";
	if (t->kind == TY_TORCH_LIST || t->kind == TY_TORCH_OPTIONAL) {
		const Type *e = t->elem;
		/* list<optional<vtensor>>: index_put's indices with None */
		if (e && e->kind == TY_TORCH_OPTIONAL)
			e = e->elem;
		return e && e->kind != TY_TORCH_VTENSOR
		    && e->kind != TY_TORCH_INT && e->kind != TY_TORCH_FLOAT
		    && e->kind != TY_TORCH_BOOL ? "holds a non value-semantic type" : NULL;
	}
	if (t->kind != TY_TORCH_VTENSOR)
		return NULL;
	if (!t->ranked)
		return "has no known rank";
	if (!t->elem)
		return "has no known dtype";
	/* f8, complex<>, quantized dtypes: parsed and printed, never lowered */
	if (t->elem->kind == TY_OPAQUE)
		return "has a dtype the backend has no kernels for";
	if (want_static && !ty_static(t))
		return "has a dynamic size where the input is static";
	return NULL;
}

static void
check_value(Check *k, Op *op, Value *v, const char *what, int i)
{
	char buf[256];
	const char *why = type_problem(v->type, k->want_static);

	if (!why)
		return;
	op_error(op, "%s #%d of '%s' (%s) %s", what, i, op->name,
	    tystr(v->type, buf, sizeof buf), why);
	k->bad++;
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

static int
visit(Op *op, void *env)
{
	Check *k = env;
	int i;

	if (op_is(op, "func.func")) {
		k->want_static = args_static(op);
		Block *b = op->nregs ? op->regs[0].first : NULL;
		for (i = 0; b && i < b->nargs; i++)
			check_value(k, op, b->args[i], "argument", i);
	}
	if (!contract_allows(op->name)) {
		const char *n = torch_opname(op);
		op_error(op, "'%s' is not supported by the backend contract",
		    n ? n : op->name);
		k->bad++;
	}
	for (i = 0; i < op->nres; i++)
		check_value(k, op, RES(op, i), "result", i);
	return 0;
}

static int
run(Ctx *c, Op *m, PassArgs *a)
{
	Check k = {0, 1};

	op_walk(m, visit, &k);
	return k.bad ? -1 : 0;
}

const PassInfo pass_torch_verify_backend_contract = {
	.name = "torch-verify-backend-contract",
	.summary = "check that the module is at the backend contract; list what is not",
	.anchor = "builtin.module",
	.run = run,
};
