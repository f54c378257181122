/*
 * pipeline.c - torch-backend-pipeline: torch-opt's default for torch IR,
 * from what fx-import prints to the backend contract.
 *
 * Order: value semantics first (the other passes need it), types, then
 * batch norms fold into the layers before they would be decomposed,
 * decompositions (which iterate to their own fixed point and infer the
 * types of what they make), literal folding and canonicalization (which
 * folding exposes to each other, so twice), CSE, and the contract check.
 */
#include "pass.h"

#define TO_CONTRACT "func.func(torch-reduce-op-variants,torch-maximize-value-semantics," \
	"torch-refine-types,torch-fold-batchnorm,torch-decompose{keep-contract=1},canonicalize{torch-mlir-forms=0}," \
	"torch-fold-constants,canonicalize{torch-mlir-forms=0},torch-decompose{keep-contract=1},torch-refine-types,cse),"

const PassInfo pass_torch_backend_pipeline = {
	.name = "torch-backend-pipeline",
	.summary = "torch IR as imported to the backend contract (torch-opt's default)",
	.pipeline = TO_CONTRACT "torch-verify-backend-contract",
};

/* torch-mlir's name: the same, each error with its note on the likely
 * cause, as torch-mlir's pass gives. */
const PassInfo pass_torch_lower_to_backend_contract = {
	.name = "torch-lower-to-backend-contract",
	.summary = "torch-backend-pipeline, with a note on each error's likely cause",
	.pipeline = TO_CONTRACT "torch-verify-backend-contract{notes=1}",
};
