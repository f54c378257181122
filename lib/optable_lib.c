/* optable_lib.c - every name-keyed table list of lib, for the unit test
 * that checks them all (a tool checks each table at its first use; this
 * list would link every table into every tool, so it lives apart). */
#include <stddef.h>

#include "optable.h"

extern const OpTable ops_optables[], fold_optables[], verify_optables[],
	torch_fold_optables[], infer_elementwise_optable[], infer_shape_optable[],
	infer_nn_optable[], decomp_linalg_optable[], decomp_nn_optable[],
	decomp_misc_optable[], contract_optable[], rewrite_optable[],
	fold_constants_optable[];

const OpTable *const optable_lib[] = {
	ops_optables, fold_optables, verify_optables, torch_fold_optables,
	infer_elementwise_optable, infer_shape_optable, infer_nn_optable,
	decomp_linalg_optable, decomp_nn_optable, decomp_misc_optable,
	contract_optable, rewrite_optable, fold_constants_optable, NULL,
};
