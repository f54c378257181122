// RUN: torch-opt -torch-verify-backend-contract-no-decompositions -split-input-file -verify-diagnostics %S/inputs/contract-no-decompositions.mlir
// RUN: torch-opt -torch-lower-to-backend-contract -split-input-file -verify-diagnostics %s

// torch-mlir's lower-to-backend-contract: each error with a note on its
// likely cause; an expectation @below skips the expectation lines between.

// expected-error @below {{unsupported by backend contract: non-value tensor type}}
// expected-note @below {{this is likely due to a missing case in the MaximizeValueSemantics pass}}
func.func @arg_non_value(%arg0: !torch.tensor<[2],f32>) {
  return
}

// -----

// !torch.any: the error alone.
// expected-error @below {{unsupported by backend contract: type '!torch.any'}}
func.func @arg_any(%arg0: !torch.any) {
  return
}

// -----

// t() of a rank-3 tensor raises in PyTorch: not decomposed (it was once
// taken for the identity, as was numpy_T, which reverses the dims), so
// the contract check names it.
func.func @t_rank3(%arg0: !torch.vtensor<[?,4,?],f32>) -> !torch.vtensor<[?,4,?],f32> {
  // expected-error @below {{'aten.t' is not supported by the backend contract (found an op that was marked as backend illegal)}}
  // expected-note @below {{this is likely due to}}
  %t = torch.aten.t %arg0 : !torch.vtensor<[?,4,?],f32> -> !torch.vtensor<[?,4,?],f32>
  return %t : !torch.vtensor<[?,4,?],f32>
}
