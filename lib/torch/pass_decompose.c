/*
 * pass_decompose.c - torch-decompose: composite aten ops into the ops of
 * the backend contract (lib/contract.def).
 *
 * needs:       value semantics (torch-maximize-value-semantics) and
 *              refined types: the decompositions read ranks, static
 *              sizes and dtypes.
 * guarantees:  every op with a rule in decompose_*.c whose operands allow
 *              it (constant dims, known ranks, inference mode) is
 *              replaced by simpler ops with inferred types, repeatedly
 *              until none applies (a decomposition may produce ops that
 *              decompose further).  Results are numerically PyTorch's.
 * invalidates: op identities.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "decompose.h"
#include "pass.h"

typedef struct Slot {
	const char *name;
	DecompFn fn;
} Slot;

static Slot *slots, *cslots, *fslots;
static int nrules;
enum { NSLOTS = 2048 };

static void
add_to(Slot *tab, const Decomp *d)
{
	size_t i;

	for (; d->name; d++) {
		i = hash_bytes(d->name, strlen(d->name), 0) & (NSLOTS - 1);
		for (; tab[i].name; i = (i + 1) & (NSLOTS - 1))
			if (!strcmp(tab[i].name, d->name))
				die("two decomposition rules for '%s'", d->name);
		if (++nrules > NSLOTS / 2)
			die("more than %d decomposition rules: raise NSLOTS", NSLOTS / 2);
		tab[i].name = d->name;
		tab[i].fn = d->fn;
	}
}

static void
add(const Decomp *d)
{
	add_to(slots, d);
}

static DecompFn
find(const Slot *tab, const char *name)
{
	size_t i = hash_bytes(name, strlen(name), 0) & (NSLOTS - 1);

	for (; tab[i].name; i = (i + 1) & (NSLOTS - 1))
		if (!strcmp(tab[i].name, name))
			return tab[i].fn;
	return NULL;
}

/* op's rule; those of contract ops (decomp_lit_contract) only when
 * keep_contract is 0; with forms (torch-decompose-complex-ops) those of
 * decomp_lit2 first: their 0 leaves the op, their -1 defers to the rest. */
static DecompFn
rule(const Op *op, int keep_contract, int forms)
{
	const char *name = torch_opname(op);
	DecompFn fn;

	if (!name) {
		if (op_is(op, "torch.prim.ListUnpack") || op_is(op, "torch.prim.NumToTensor.Scalar")
		    || op_is(op, "torch.derefine"))
			name = op->name + 6;
		else
			return NULL;
	}
	if (!slots) {
		optable_require(decomp_linalg_optables);
		optable_require(decomp_nn_optables);
		optable_require(decomp_misc_optables);
		optable_require(decomp_lin_optables);
		optable_require(decomp_idx_optables);
		optable_require(decomp_ew_optables);
		optable_require(decomp_nnx_optables);
		optable_require(decomp_cplx_optables);
		optable_require(decomp_pool_optables);
		optable_require(decomp_bwd_optables);
		optable_require(decomp_lit_optables);
		optable_require(decomp_lit2_optables);
		slots = xcalloc(NSLOTS, sizeof *slots);
		cslots = xcalloc(NSLOTS, sizeof *cslots);
		fslots = xcalloc(NSLOTS, sizeof *fslots);
		add(decomp_linalg);
		add(decomp_nn);
		add(decomp_misc);
		add(decomp_lin);
		add(decomp_idx);
		add(decomp_ew);
		add(decomp_nnx);
		add(decomp_cplx);
		add(decomp_pool);
		add(decomp_bwd);
		add(decomp_lit);
		add_to(cslots, decomp_lit_contract);
		add_to(fslots, decomp_lit2);
	}
	if (forms && (fn = find(fslots, name)))
		return fn;
	if ((fn = find(slots, name)))
		return fn;
	return keep_contract ? NULL : find(cslots, name);
}

/* legal-ops=aten.foo,torch.aten.bar: ops the pass leaves alone. */
static int
legal(const char *legal_ops, const char *name)
{
	const char *p = legal_ops;
	size_t n;

	if (!p)
		return 0;
	if (!strncmp(name, "torch.", 6))
		name += 6;
	while (*p) {
		if (!strncmp(p, "torch.", 6))
			p += 6;
		n = strcspn(p, ",");
		if (n == strlen(name) && !strncmp(p, name, n))
			return 1;
		p += n;
		if (*p == ',')
			p++;
	}
	return 0;
}

/* A list unpacking none of whose results is used: decompositions of list
 * ops (broadcast_tensors) leave them so, as they may not erase an op
 * after their own. */
static int
dead_unpack(Op *op)
{
	int i;

	if (!op_is(op, "torch.prim.ListUnpack"))
		return 0;
	for (i = 0; i < op->nres; i++)
		if (!value_use_empty(RES(op, i)))
			return 0;
	return 1;
}

static int
sweep(Ctx *c, Block *blk, const char *legal_ops, int keep_contract, int forms)
{
	Op *op, *next;
	DecompFn fn;
	int changed = 0;

	for (op = blk->first; op; op = next) {
		next = op->next;
		if (dead_unpack(op)) {
			op_erase(op);
			changed = 1;
			continue;
		}
		if (!(fn = rule(op, keep_contract, forms)) || legal(legal_ops, op->name))
			continue;
		B b = b_at(c, op);
		int r = fn(&b, op);
		/* a decomp_lit2 rule's -1: the op's rule of the other tables */
		if (r < 0 && (fn = rule(op, keep_contract, 0)))
			r = fn(&b, op);
		if (r > 0)
			changed = 1;
	}
	return changed;
}

static int
run_forms(Ctx *c, Op *fn, PassArgs *a, int forms)
{
	Block *b = fn->nregs ? fn->regs[0].first : NULL;
	int i, errors = diag_errors;
	const char *legal_ops = pass_opt(a, "legal-ops", NULL);
	const char *kc = pass_opt(a, "keep-contract", "0");
	int keep_contract = !strcmp(kc, "1") || !strcmp(kc, "true");

	if (!keep_contract && strcmp(kc, "0") && strcmp(kc, "false")) {
		fprintf(stderr, "error: torch-decompose: bad value '%s' for option 'keep-contract' (0, 1, false or true)\n",
		    kc);
		return -1;
	}

	if (legal_ops) {
		/* op names, comma-separated: aten.foo or torch.aten.foo */
		const char *p = legal_ops;
		int ok = *p != 0;
		for (; *p && ok; p++)
			ok = isalnum((unsigned char)*p) || strchr("._,", *p);
		if (!ok || strstr(legal_ops, ",,") || *legal_ops == ','
		    || legal_ops[strlen(legal_ops) - 1] == ',') {
			fprintf(stderr, "error: torch-decompose: bad value '%s' for option 'legal-ops' (op names, comma-separated)\n",
			    legal_ops);
			return -1;
		}
	}

	for (; b; b = b->next)
		for (i = 0; i < 16 && sweep(c, b, legal_ops, keep_contract, forms); i++)
			a->changed = 1;
	/* a decomposition that refused its op with an error (as_strided past
	 * its operand) stops the pipeline there */
	return diag_errors > errors ? -1 : 0;
}

static int run(Ctx *c, Op *fn, PassArgs *a) { return run_forms(c, fn, a, 0); }
static int run_lit(Ctx *c, Op *fn, PassArgs *a) { return run_forms(c, fn, a, 1); }

static const char *const decompose_options[] = {"legal-ops", "keep-contract", NULL};

const PassInfo pass_torch_decompose = {
	.name = "torch-decompose",
	.summary = "decompose composite torch ops into the backend contract's ops",
	.anchor = "func.func",
	.options = decompose_options,
	.run = run,
};

/* torch-mlir's name: torch-decompose whose decompositions stop where
 * torch-mlir's pass stops (decompose_lit2.c) */
const PassInfo pass_torch_decompose_complex_ops = {
	.name = "torch-decompose-complex-ops",
	.summary = "torch-decompose in torch-mlir's forms: stops at the ops torch-mlir's pass leaves",
	.anchor = "func.func",
	.options = decompose_options,
	.run = run_lit,
};
