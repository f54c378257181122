// RUN: torch-opt -p '' %s | FileCheck %s
// tensor dialect custom forms, as mlir-opt-16 prints them.
// RUN: torch-opt -p '' --mlir-print-op-generic %s | torch-opt -p '' | FileCheck %s
// CHECK: module {
// CHECK-NEXT: func.func @tensor(%arg0: tensor<4x3xf32>, %arg1: tensor<4xf32>, %arg2: index, %arg3: f32) -> tensor<4x3xf32> {
// CHECK-NEXT: %c0 = arith.constant 0 : index
// CHECK-NEXT: %0 = tensor.empty() : tensor<1x3xf32>
// CHECK-NEXT: %1 = tensor.empty(%arg2) : tensor<?x3xf32>
// CHECK-NEXT: %expanded = tensor.expand_shape %arg1 {{\[\[}}0, 1{{\]\]}} : tensor<4xf32> into tensor<1x4xf32>
// CHECK-NEXT: %collapsed = tensor.collapse_shape %arg0 {{\[\[}}0, 1{{\]\]}} : tensor<4x3xf32> into tensor<12xf32>
// CHECK-NEXT: %extracted_slice = tensor.extract_slice %arg0[0, %arg2] [1, 3] [1, 1] : tensor<4x3xf32> to tensor<1x3xf32>
// CHECK-NEXT: %inserted_slice = tensor.insert_slice %extracted_slice into %arg0[%arg2, 0] [1, 3] [1, 1] : tensor<1x3xf32> into tensor<4x3xf32>
// CHECK-NEXT: %padded = tensor.pad %arg0 low[0, %arg2] high[1, 2] {
// CHECK-NEXT: ^bb0(%arg4: index, %arg5: index):
// CHECK-NEXT: tensor.yield %arg3 : f32
// CHECK-NEXT: } : tensor<4x3xf32> to tensor<5x?xf32>
// CHECK-NEXT: %padded_0 = tensor.pad %arg0 nofold low[1, 1] high[1, 1] {
// CHECK-NEXT: ^bb0(%arg4: index, %arg5: index):
// CHECK-NEXT: tensor.yield %arg3 : f32
// CHECK-NEXT: } : tensor<4x3xf32> to tensor<6x5xf32>
// CHECK-NEXT: %generated = tensor.generate %arg2 {
// CHECK-NEXT: ^bb0(%arg4: index):
// CHECK-NEXT: tensor.yield %arg3 : f32
// CHECK-NEXT: } : tensor<?xf32>
// CHECK-NEXT: %dim = tensor.dim %arg0, %c0 : tensor<4x3xf32>
// CHECK-NEXT: %extracted = tensor.extract %arg0[%c0, %c0] : tensor<4x3xf32>
// CHECK-NEXT: %inserted = tensor.insert %arg3 into %arg0[%c0, %c0] : tensor<4x3xf32>
// CHECK-NEXT: %from_elements = tensor.from_elements %arg3, %arg3 : tensor<2xf32>
// CHECK-NEXT: %splat = tensor.splat %arg3 : tensor<2xf32>
// CHECK-NEXT: %cast = tensor.cast %arg0 : tensor<4x3xf32> to tensor<?x3xf32>
// CHECK-NEXT: %cst = arith.constant dense<12> : tensor<1xi64>
// CHECK-NEXT: %reshape = tensor.reshape %arg0(%cst) : (tensor<4x3xf32>, tensor<1xi64>) -> tensor<12xf32>
// CHECK-NEXT: return %inserted_slice : tensor<4x3xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }

func.func @tensor(%arg0: tensor<4x3xf32>, %arg1: tensor<4xf32>, %arg2: index, %arg3: f32) -> tensor<4x3xf32> {
  %c0 = arith.constant 0 : index
  %0 = tensor.empty() : tensor<1x3xf32>
  %1 = tensor.empty(%arg2) : tensor<?x3xf32>
  %expanded = tensor.expand_shape %arg1 [[0, 1]] : tensor<4xf32> into tensor<1x4xf32>
  %collapsed = tensor.collapse_shape %arg0 [[0, 1]] : tensor<4x3xf32> into tensor<12xf32>
  %extracted_slice = tensor.extract_slice %arg0[0, %arg2] [1, 3] [1, 1] : tensor<4x3xf32> to tensor<1x3xf32>
  %inserted_slice = tensor.insert_slice %extracted_slice into %arg0[%arg2, 0] [1, 3] [1, 1] : tensor<1x3xf32> into tensor<4x3xf32>
  %padded = tensor.pad %arg0 low[0, %arg2] high[1, 2] {
  ^bb0(%arg4: index, %arg5: index):
    tensor.yield %arg3 : f32
  } : tensor<4x3xf32> to tensor<5x?xf32>
  %padded_0 = tensor.pad %arg0 nofold low[1, 1] high[1, 1] {
  ^bb0(%arg4: index, %arg5: index):
    tensor.yield %arg3 : f32
  } : tensor<4x3xf32> to tensor<6x5xf32>
  %generated = tensor.generate %arg2 {
  ^bb0(%arg4: index):
    tensor.yield %arg3 : f32
  } : tensor<?xf32>
  %dim = tensor.dim %arg0, %c0 : tensor<4x3xf32>
  %extracted = tensor.extract %arg0[%c0, %c0] : tensor<4x3xf32>
  %inserted = tensor.insert %arg3 into %arg0[%c0, %c0] : tensor<4x3xf32>
  %from_elements = tensor.from_elements %arg3, %arg3 : tensor<2xf32>
  %splat = tensor.splat %arg3 : tensor<2xf32>
  %cast = tensor.cast %arg0 : tensor<4x3xf32> to tensor<?x3xf32>
  %cst = arith.constant dense<12> : tensor<1xi64>
  %reshape = tensor.reshape %arg0(%cst) : (tensor<4x3xf32>, tensor<1xi64>) -> tensor<12xf32>
  return %inserted_slice : tensor<4x3xf32>
}
