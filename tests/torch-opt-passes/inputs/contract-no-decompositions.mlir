// torch-mlir's verify-backend-contract-no-decompositions: types only.

// Any op may stay: tuples, composite ops.
func.func @ops_stay(%arg0: !torch.vtensor<[2,3],f32>) -> !torch.tuple<vtensor<[2,3],f32>> {
  %int1 = torch.constant.int 1
  %none = torch.constant.none
  %0 = torch.aten.softmax.int %arg0, %int1, %none : !torch.vtensor<[2,3],f32>, !torch.int, !torch.none -> !torch.vtensor<[2,3],f32>
  %1 = torch.prim.TupleConstruct %0 : !torch.vtensor<[2,3],f32> -> !torch.tuple<vtensor<[2,3],f32>>
  return %1 : !torch.tuple<vtensor<[2,3],f32>>
}

// -----

// Only the first offender is reported: the unranked result, not the
// non-value tensor after it.
func.func @first_only(%arg0: !torch.vtensor<[2],f32>) -> !torch.tensor<*,f32> {
  // expected-error @below {{result #0 of 'torch.tensor_static_info_cast' (!torch.vtensor<*,f32>) has no known rank (unsupported by backend contract: tensor with unknown rank)}}
  // expected-note @below {{this is likely due to a missing transfer function}}
  %0 = torch.tensor_static_info_cast %arg0 : !torch.vtensor<[2],f32> to !torch.vtensor<*,f32>
  %1 = torch.copy.to_tensor %0 : !torch.tensor<*,f32>
  return %1 : !torch.tensor<*,f32>
}

// -----

// A torch.operator comes first, before any type.
func.func @operator_first(%arg0: !torch.vtensor<[2],f32>) -> !torch.vtensor {
  %0 = torch.tensor_static_info_cast %arg0 : !torch.vtensor<[2],f32> to !torch.vtensor<*,f32>
  // expected-error @+1 {{unsupported by backend contract: Unimplemented operator 'my.op'}}
  %1 = torch.operator "my.op"(%0) : (!torch.vtensor<*,f32>) -> !torch.vtensor
  return %1 : !torch.vtensor
}

// -----

// An integer element type that is no torch dtype (signless 32 bits: torch
// spells it si32).
// expected-error @below {{argument #0 of 'func.func' (!torch.vtensor<[2],i32>) has an element type no torch dtype is (invalid dtype 'i32')}}
func.func @not_a_dtype(%arg0: !torch.vtensor<[2],i32>) {
  return
}
