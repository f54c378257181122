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

// -----

// A module initializer: reported first, at its terminator, and alone (the
// first offender only, like torch-mlir).
torch.global_slot.module_initializer {
  %0 = torch.constant.int 1
  // expected-error @below {{unsupported by backend contract: module initializers}}
  // expected-note @below {{this is likely due to}}
  torch.initialize.global_slots [
    @slot0(%0 : !torch.int)
  ]
}
torch.global_slot @slot0 : !torch.int
func.func @after_initializer(%arg0: !torch.tensor) {
  return
}

// -----

// Only the first offender, its result types before whether the backend
// takes it: a prim.If of unknown rank, not the If itself nor the casts of
// unknown rank inside it nor the arguments of the next function.
func.func @first_only(%arg0: !torch.bool, %arg1: !torch.vtensor<[],f32>, %arg2: !torch.vtensor<[7],f32>) -> !torch.vtensor<*,f32> {
  // expected-error @below {{unsupported by backend contract: tensor with unknown rank}}
  // expected-note @below {{this is likely due to}}
  %0 = torch.prim.If %arg0 -> (!torch.vtensor<*,f32>) {
    %1 = torch.tensor_static_info_cast %arg1 : !torch.vtensor<[],f32> to !torch.vtensor<*,f32>
    torch.prim.If.yield %1 : !torch.vtensor<*,f32>
  } else {
    %2 = torch.tensor_static_info_cast %arg2 : !torch.vtensor<[7],f32> to !torch.vtensor<*,f32>
    torch.prim.If.yield %2 : !torch.vtensor<*,f32>
  }
  return %0 : !torch.vtensor<*,f32>
}
func.func @second(%arg0: !torch.tensor) {
  return
}
