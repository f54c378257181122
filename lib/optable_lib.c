/* optable_lib.c - every name-keyed table list of lib, for the unit test
 * that checks them all (a tool checks each table at its first use; this
 * list would link every table into every tool, so it lives apart). */
#include <stddef.h>

#include "optable.h"

const OpTable *const optable_lib[] = {
	ops_optables,
	fold_optables,
	verify_optables,
	torch_fold_optables,
	infer_elementwise_optables,
	infer_shape_optables,
	infer_nn_optables,
	decomp_linalg_optables,
	decomp_nn_optables,
	decomp_misc_optables,
	decomp_idx_optables,
	contract_optables,
	rewrite_optables,
	fold_constants_optables,
	named_ops_optables,
	decomp_lin_optables,
	decomp_ew_optables,
	decomp_nnx_optables,
	decomp_cplx_optables,
	decomp_lit_optables,
	decomp_lit2_optables,
	decomp_pool_optables,
	decomp_bwd_optables,
	NULL,
};
