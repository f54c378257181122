// RUN: torch-opt -p '' --mlir-print-op-generic %s | FileCheck %s
// The generic op form (named linalg ops print without a region); it parses
// back to the custom form.
// RUN: torch-opt -p '' --mlir-print-op-generic %s | torch-opt -p '' | FileCheck %s --check-prefix=CUSTOM

// CHECK: #map = affine_map<(d0) -> (d0)>
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() ({
// CHECK-NEXT: ^bb0(%arg0: tensor<4x3xf32>, %arg1: tensor<3xf32>, %arg2: tensor<4xf32>):
// CHECK-NEXT: %0 = "arith.constant"() {value = 0.000000e+00 : f32} : () -> f32
// CHECK-NEXT: %1 = "tensor.expand_shape"(%arg2) {reassociation = {{\[\[}}0, 1{{\]\]}}} : (tensor<4xf32>) -> tensor<1x4xf32>
// CHECK-NEXT: %2 = "tensor.empty"() : () -> tensor<1x3xf32>
// CHECK-NEXT: %3 = "linalg.fill"(%0, %2) {operand_segment_sizes = array<i32: 1, 1>} : (f32, tensor<1x3xf32>) -> tensor<1x3xf32>
// CHECK-NEXT: %4 = "linalg.matmul"(%1, %arg0, %3) {operand_segment_sizes = array<i32: 2, 1>} : (tensor<1x4xf32>, tensor<4x3xf32>, tensor<1x3xf32>) -> tensor<1x3xf32>
// CHECK-NEXT: %5 = "tensor.collapse_shape"(%4) {reassociation = {{\[\[}}0, 1{{\]\]}}} : (tensor<1x3xf32>) -> tensor<3xf32>
// CHECK-NEXT: %6 = "tensor.empty"() : () -> tensor<3xf32>
// CHECK-NEXT: %7 = "linalg.generic"(%5, %arg1, %6) ({
// CHECK-NEXT: ^bb0(%arg3: f32, %arg4: f32, %arg5: f32):
// CHECK-NEXT: %8 = "arith.addf"(%arg3, %arg4) : (f32, f32) -> f32
// CHECK-NEXT: "linalg.yield"(%8) : (f32) -> ()
// CHECK-NEXT: }) {indexing_maps = [#map, #map, #map], iterator_types = [#linalg.iterator_type<parallel>], operand_segment_sizes = array<i32: 2, 1>} : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT: "func.return"(%7, %1) : (tensor<3xf32>, tensor<1x4xf32>) -> ()
// CHECK-NEXT: }) {function_type = (tensor<4x3xf32>, tensor<3xf32>, tensor<4xf32>) -> (tensor<3xf32>, tensor<1x4xf32>), sym_name = "main"} : () -> ()
// CHECK-NEXT: }) : () -> ()

// CUSTOM: #map = affine_map<(d0) -> (d0)>
// CUSTOM-NEXT: module {
// CUSTOM-NEXT: func.func @main(%arg0: tensor<4x3xf32>, %arg1: tensor<3xf32>, %arg2: tensor<4xf32>) -> (tensor<3xf32>, tensor<1x4xf32>) {
// CUSTOM-NEXT: %cst = arith.constant 0.000000e+00 : f32
// CUSTOM-NEXT: %expanded = tensor.expand_shape %arg2 {{\[\[}}0, 1{{\]\]}} : tensor<4xf32> into tensor<1x4xf32>
// CUSTOM-NEXT: %0 = tensor.empty() : tensor<1x3xf32>
// CUSTOM-NEXT: %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<1x3xf32>) -> tensor<1x3xf32>
// CUSTOM-NEXT: %2 = linalg.matmul ins(%expanded, %arg0 : tensor<1x4xf32>, tensor<4x3xf32>) outs(%1 : tensor<1x3xf32>) -> tensor<1x3xf32>
// CUSTOM-NEXT: %collapsed = tensor.collapse_shape %2 {{\[\[}}0, 1{{\]\]}} : tensor<1x3xf32> into tensor<3xf32>
// CUSTOM-NEXT: %3 = tensor.empty() : tensor<3xf32>
// CUSTOM-NEXT: %4 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]} ins(%collapsed, %arg1 : tensor<3xf32>, tensor<3xf32>) outs(%3 : tensor<3xf32>) {
// CUSTOM-NEXT: ^bb0(%in: f32, %in_0: f32, %out: f32):
// CUSTOM-NEXT: %5 = arith.addf %in, %in_0 : f32
// CUSTOM-NEXT: linalg.yield %5 : f32
// CUSTOM-NEXT: } -> tensor<3xf32>
// CUSTOM-NEXT: return %4, %expanded : tensor<3xf32>, tensor<1x4xf32>
// CUSTOM-NEXT: }
// CUSTOM-NEXT: }

#map = affine_map<(d0) -> (d0)>
module {
  func.func @main(%arg0: tensor<4x3xf32>, %arg1: tensor<3xf32>, %arg2: tensor<4xf32>) -> (tensor<3xf32>, tensor<1x4xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    %expanded = tensor.expand_shape %arg2 [[0, 1]] : tensor<4xf32> into tensor<1x4xf32>
    %0 = tensor.empty() : tensor<1x3xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<1x3xf32>) -> tensor<1x3xf32>
    %2 = linalg.matmul ins(%expanded, %arg0 : tensor<1x4xf32>, tensor<4x3xf32>) outs(%1 : tensor<1x3xf32>) -> tensor<1x3xf32>
    %collapsed = tensor.collapse_shape %2 [[0, 1]] : tensor<1x3xf32> into tensor<3xf32>
    %3 = tensor.empty() : tensor<3xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]} ins(%collapsed, %arg1 : tensor<3xf32>, tensor<3xf32>) outs(%3 : tensor<3xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %5 = arith.addf %in, %in_0 : f32
      linalg.yield %5 : f32
    } -> tensor<3xf32>
    return %4, %expanded : tensor<3xf32>, tensor<1x4xf32>
  }
}
