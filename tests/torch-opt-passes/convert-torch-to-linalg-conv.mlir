// RUN: torch-opt --convert-torch-to-linalg -split-input-file -verify-diagnostics %s | FileCheck %s
// RUN: torch-opt --convert-torch-to-linalg -split-input-file %s | torch-opt -p '' -split-input-file | FileCheck %s

// sym_constrain_range: min <= size <= max asserted, a missing bound being
// int64's extreme; one torch_c.to_i64 of the size, first in the block.
// CHECK-LABEL: func.func @sym_constrain_range(
// CHECK-SAME: %[[ARG:.*]]: !torch.int) -> !torch.int {
// CHECK-NEXT: %[[N:.*]] = torch_c.to_i64 %[[ARG]]
// CHECK: %[[LO:.*]] = arith.constant -9223372036854775808 : i64
// CHECK: %[[HI:.*]] = arith.constant 5 : i64
// CHECK: %[[GE:.*]] = arith.cmpi sle, %[[LO]], %[[N]] : i64
// CHECK: %[[LE:.*]] = arith.cmpi sle, %[[N]], %[[HI]] : i64
// CHECK: %[[OK:.*]] = arith.andi %[[GE]], %[[LE]] : i1
// CHECK: cf.assert %[[OK]], "Size constraint failed. Expected range: [-9223372036854775808, 5]"
// CHECK: arith.constant 2 : i64
// CHECK: arith.constant 9223372036854775807 : i64
// CHECK: cf.assert %{{.*}}, "Size constraint failed. Expected range: [2, 9223372036854775807]"
// CHECK-NOT: torch_c.to_i64
// CHECK-NOT: torch.aten.sym_constrain_range
// CHECK: return %[[ARG]] : !torch.int
func.func @sym_constrain_range(%arg0: !torch.int) -> !torch.int {
  %int2 = torch.constant.int 2
  %int5 = torch.constant.int 5
  %none = torch.constant.none
  torch.aten.sym_constrain_range %arg0, %none, %int5 : !torch.int, !torch.none, !torch.int
  torch.aten.sym_constrain_range %arg0, %int2, %none : !torch.int, !torch.int, !torch.none
  return %arg0 : !torch.int
}

// -----

// A bound that is not a constant, or max < min: the op stays.
// CHECK-LABEL: func.func @sym_constrain_range_left(
// CHECK-NOT: cf.assert
// CHECK: torch.aten.sym_constrain_range %arg0, %arg1, %none
// CHECK: torch.aten.sym_constrain_range %arg0, %int5, %int2
func.func @sym_constrain_range_left(%arg0: !torch.int, %arg1: !torch.int) -> !torch.int {
  %int2 = torch.constant.int 2
  %int5 = torch.constant.int 5
  %none = torch.constant.none
  torch.aten.sym_constrain_range %arg0, %arg1, %none : !torch.int, !torch.int, !torch.none
  torch.aten.sym_constrain_range %arg0, %int5, %int2 : !torch.int, !torch.int, !torch.int
  return %arg0 : !torch.int
}

// -----

// A dense_resource whose blob the file does not hold is read, as mlir
// reads it: a handle without data, printed without a blob, never folded.
// CHECK-LABEL: func.func @resource_without_blob(
// CHECK: torch.vtensor.literal(dense_resource<no_blob_here> : tensor<4xf32>) : !torch.vtensor<[4],f32>
// CHECK-NOT: dialect_resources
func.func @resource_without_blob() -> !torch.vtensor<[4],f32> {
  %0 = torch.vtensor.literal(dense_resource<no_blob_here> : tensor<4xf32>) : !torch.vtensor<[4],f32>
  return %0 : !torch.vtensor<[4],f32>
}
