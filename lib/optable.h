/*
 * optable.h - side tables keyed by op name (fold rules, inference rules,
 * decompositions, lowerings...), checked against the op table.
 *
 * A table binds behaviour to an op by its name; a misspelt or undeclared
 * name would silently never match.  Every such table is described by an
 * OpTable and checked when it is first used (optable_require), so a bad
 * key fails the tool at start-up; tests/unit/test_optable.c walks every
 * table of lib (optable_lib, optable_lib.c).
 */
#ifndef FX_OPTABLE_H
#define FX_OPTABLE_H

#include <stddef.h>

typedef struct OpTable {
	const char *what;     /* "fold rule": names the table in messages */
	const void *rows;
	size_t n, size, off;  /* rows, row size, offset of the key (const char *) */
	const char *prefix;   /* prepended to each key: "torch." for "aten.relu" */
} OpTable;

/* Rows that start with their key, or an array of names. */
#define OPTABLE(what, rows, prefix) \
	{what, rows, sizeof rows / sizeof *rows, sizeof *rows, 0, prefix}
/* Rows of struct type whose key is field. */
#define OPTABLE_AT(what, rows, type, field, prefix) \
	{what, rows, sizeof rows / sizeof *rows, sizeof *rows, \
	 offsetof(type, field), prefix}

/*
 * Keys: a NULL key is skipped (a terminator row); "a|b" is a list of
 * names, each checked; a key ending in '*' names every op it prefixes and
 * must prefix one.  A name is good when prefix+name is a declared op
 * (opinfo_lookup) or names a documented torch.operator (torch_operator.def).
 */
int optable_check(const OpTable *t);        /* bad keys, each reported */
int optable_check_list(const OpTable *list); /* a list ended by what == NULL */
/* Before a table's first use: a bad key is an internal error, exit 1.
 * Cheap after the first call for a list, so callers need no flag. */
void optable_require(const OpTable *list);   /* a list, as above */
/* "aten.foo" is an op that reaches us only as torch.operator "aten.foo". */
int torch_operator_known(const char *name);

/* The table lists of lib, each beside its table; optable_lib (optable_lib.c)
 * lists them all, NULL-ended. */
extern const OpTable ops_optables[], verify_optables[], fold_optables[],
	torch_fold_optables[], infer_elementwise_optables[], infer_shape_optables[],
	infer_nn_optables[], decomp_linalg_optables[], decomp_nn_optables[],
	decomp_misc_optables[], decomp_idx_optables[], contract_optables[], rewrite_optables[],
	fold_constants_optables[], named_ops_optables[];
extern const OpTable decomp_lin_optables[];
extern const OpTable decomp_ew_optables[];
extern const OpTable decomp_nnx_optables[];   /* decompose_nnx.c */
extern const OpTable decomp_cplx_optables[];
extern const OpTable decomp_lit_optables[];
extern const OpTable decomp_lit2_optables[];
extern const OpTable decomp_pool_optables[];
extern const OpTable decomp_bwd_optables[];  /* lib/torch/decompose_bwd.c */
extern const OpTable *const optable_lib[];

#endif
