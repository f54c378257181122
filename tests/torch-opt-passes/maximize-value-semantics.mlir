// RUN: torch-opt -p torch-maximize-value-semantics --split-input-file %s | FileCheck %s

// The seed slides, "MaximizeValueSemantics: trivial example".
// CHECK-LABEL: func.func @trivial(
// CHECK-SAME:      %[[A0:.*]]: !torch.vtensor, %[[A1:.*]]: !torch.vtensor) -> (!torch.vtensor, !torch.vtensor) {
// CHECK-NEXT:    return %[[A0]], %[[A1]] : !torch.vtensor, !torch.vtensor
// CHECK-NEXT:  }
func.func @trivial(%arg0: !torch.vtensor, %arg1: !torch.vtensor) -> (!torch.vtensor, !torch.vtensor) {
  %0 = torch.copy.to_tensor %arg0 : !torch.tensor
  %equal_to_arg0 = torch.copy.to_vtensor %0 : !torch.vtensor
  torch.overwrite.tensor.contents %arg1 overwrites %0 : !torch.vtensor, !torch.tensor
  %equal_to_arg1 = torch.copy.to_vtensor %0 : !torch.vtensor
  return %equal_to_arg0, %equal_to_arg1 : !torch.vtensor, !torch.vtensor
}

// -----

// The seed slides, "Maximize Value Semantics: view-like ops".
// CHECK-LABEL: func.func @views(
// CHECK-SAME:      %[[A:.*]]: !torch.vtensor) -> !torch.vtensor {
// CHECK-NEXT:    %[[I0:.*]] = torch.constant.int 0
// CHECK-NEXT:    %[[U0:.*]] = torch.aten.unsqueeze %[[A]], %[[I0]] : !torch.vtensor, !torch.int -> !torch.vtensor
// CHECK-NEXT:    %[[U1:.*]] = torch.aten.unsqueeze %[[U0]], %[[I0]] : !torch.vtensor, !torch.int -> !torch.vtensor
// CHECK-NEXT:    return %[[U1]] : !torch.vtensor
func.func @views(%arg0: !torch.vtensor) -> !torch.vtensor {
  %int0 = torch.constant.int 0
  %0 = torch.copy.to_tensor %arg0 : !torch.tensor
  %1 = torch.aten.unsqueeze %0, %int0 : !torch.tensor, !torch.int -> !torch.tensor
  %2 = torch.aten.unsqueeze %1, %int0 : !torch.tensor, !torch.int -> !torch.tensor
  %3 = torch.copy.to_vtensor %2 : !torch.vtensor
  return %3 : !torch.vtensor
}

// -----

// After torch-reduce-op-variants: each read sees the latest overwrite,
// and a view read after an overwrite is replayed on the new value.
// CHECK-LABEL: func.func @mutations(
// CHECK:         %[[R:.*]] = torch.aten.relu %arg0 : !torch.vtensor<[2,3],f32> -> !torch.vtensor<[2,3],f32>
// CHECK-NEXT:    %[[A:.*]] = torch.aten.add.Tensor %[[R]], %arg0, %{{.*}} : !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],f32>, !torch.int -> !torch.vtensor<[2,3],f32>
// CHECK-NEXT:    %[[T:.*]] = torch.aten.transpose.int %[[A]], %{{.*}}, %{{.*}} : !torch.vtensor<[2,3],f32>, !torch.int, !torch.int -> !torch.vtensor<[3,2],f32>
// CHECK-NEXT:    return %[[R]], %[[T]]
func.func @mutations(%arg0: !torch.vtensor<[2,3],f32>) -> (!torch.vtensor<[2,3],f32>, !torch.vtensor<[3,2],f32>) {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %0 = torch.copy.to_tensor %arg0 : !torch.tensor<[2,3],f32>
  %t = torch.aten.transpose.int %0, %int0, %int1 : !torch.tensor<[2,3],f32>, !torch.int, !torch.int -> !torch.tensor<[3,2],f32>
  %1 = torch.copy.to_vtensor %0 : !torch.vtensor<[2,3],f32>
  %2 = torch.aten.relu %1 : !torch.vtensor<[2,3],f32> -> !torch.vtensor<[2,3],f32>
  torch.overwrite.tensor.contents %2 overwrites %0 : !torch.vtensor<[2,3],f32>, !torch.tensor<[2,3],f32>
  %3 = torch.copy.to_vtensor %0 : !torch.vtensor<[2,3],f32>
  %4 = torch.aten.add.Tensor %3, %arg0, %int1 : !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],f32>, !torch.int -> !torch.vtensor<[2,3],f32>
  torch.overwrite.tensor.contents %4 overwrites %0 : !torch.vtensor<[2,3],f32>, !torch.tensor<[2,3],f32>
  %5 = torch.copy.to_vtensor %t : !torch.vtensor<[3,2],f32>
  return %3, %5 : !torch.vtensor<[2,3],f32>, !torch.vtensor<[3,2],f32>
}

// -----

// Writing through a view is not modeled: the tensor is left as it is.
// CHECK-LABEL: func.func @write_through_view(
// CHECK:         torch.copy.to_tensor
// CHECK:         torch.overwrite.tensor.contents
func.func @write_through_view(%arg0: !torch.vtensor<[2,3],f32>, %arg1: !torch.vtensor<[3,2],f32>) -> !torch.vtensor<[2,3],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %0 = torch.copy.to_tensor %arg0 : !torch.tensor<[2,3],f32>
  %t = torch.aten.transpose.int %0, %int0, %int1 : !torch.tensor<[2,3],f32>, !torch.int, !torch.int -> !torch.tensor<[3,2],f32>
  torch.overwrite.tensor.contents %arg1 overwrites %t : !torch.vtensor<[3,2],f32>, !torch.tensor<[3,2],f32>
  %1 = torch.copy.to_vtensor %0 : !torch.vtensor<[2,3],f32>
  return %1 : !torch.vtensor<[2,3],f32>
}
