// RUN: torch-opt -p '' %s | FileCheck %s
// linalg structured ops (named ops carry no region), as mlir-opt-16 prints them.
// RUN: torch-opt -p '' --mlir-print-op-generic %s | torch-opt -p '' | FileCheck %s
// CHECK: #map = affine_map<(d0, d1) -> (d1)>
// CHECK-NEXT: #map1 = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-NEXT: #map2 = affine_map<(d0) -> (d0)>
// CHECK-NEXT: module {
// CHECK-NEXT: func.func @linalg(%arg0: tensor<4x3xf32>, %arg1: tensor<3x4xf32>, %arg2: tensor<1x3x8x8xf32>, %arg3: tensor<2x3x3x3xf32>, %arg4: tensor<1x2x6x6xf32>, %arg5: tensor<3xf32>, %arg6: tensor<3x3xf32>) -> tensor<3x4xf32> {
// CHECK-NEXT: %cst = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %0 = linalg.fill ins(%cst : f32) outs(%arg0 : tensor<4x3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT: %1 = linalg.matmul ins(%arg1, %arg0 : tensor<3x4xf32>, tensor<4x3xf32>) outs(%arg6 : tensor<3x3xf32>) -> tensor<3x3xf32>
// CHECK-NEXT: %transposed = linalg.transpose ins(%arg0 : tensor<4x3xf32>) outs(%arg1 : tensor<3x4xf32>) permutation = [1, 0]
// CHECK-NEXT: %2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%arg2, %arg3 : tensor<1x3x8x8xf32>, tensor<2x3x3x3xf32>) outs(%arg4 : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
// CHECK-NEXT: %broadcasted = linalg.broadcast ins(%arg5 : tensor<3xf32>) outs(%arg0 : tensor<4x3xf32>) dimensions = [0]
// CHECK-NEXT: %3 = linalg.generic {doc = "x", indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%arg5 : tensor<3xf32>) outs(%arg0 : tensor<4x3xf32>) attrs =  {foo = 1 : i64} {
// CHECK-NEXT: ^bb0(%in: f32, %out: f32):
// CHECK-NEXT: %6 = linalg.index 0 : index
// CHECK-NEXT: %7 = arith.addf %in, %out : f32
// CHECK-NEXT: linalg.yield %7 : f32
// CHECK-NEXT: } -> tensor<4x3xf32>
// CHECK-NEXT: %4 = linalg.copy ins(%arg0 : tensor<4x3xf32>) outs(%arg0 : tensor<4x3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT: %5 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel"]} ins(%arg5, %arg5 : tensor<3xf32>, tensor<3xf32>) outs(%arg5 : tensor<3xf32>) {
// CHECK-NEXT: ^bb0(%in: f32, %in_0: f32, %out: f32):
// CHECK-NEXT: %6 = arith.mulf %in, %in_0 : f32
// CHECK-NEXT: linalg.yield %6 : f32
// CHECK-NEXT: } -> tensor<3xf32>
// CHECK-NEXT: return %arg1 : tensor<3x4xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }

#map = affine_map<(d0, d1) -> (d1)>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
#map2 = affine_map<(d0) -> (d0)>
module {
  func.func @linalg(%arg0: tensor<4x3xf32>, %arg1: tensor<3x4xf32>, %arg2: tensor<1x3x8x8xf32>, %arg3: tensor<2x3x3x3xf32>, %arg4: tensor<1x2x6x6xf32>, %arg5: tensor<3xf32>, %arg6: tensor<3x3xf32>) -> tensor<3x4xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = linalg.fill ins(%cst : f32) outs(%arg0 : tensor<4x3xf32>) -> tensor<4x3xf32>
    %1 = linalg.matmul ins(%arg1, %arg0 : tensor<3x4xf32>, tensor<4x3xf32>) outs(%arg6 : tensor<3x3xf32>) -> tensor<3x3xf32>
    %transposed = linalg.transpose ins(%arg0 : tensor<4x3xf32>) outs(%arg1 : tensor<3x4xf32>) permutation = [1, 0] 
    %2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%arg2, %arg3 : tensor<1x3x8x8xf32>, tensor<2x3x3x3xf32>) outs(%arg4 : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
    %broadcasted = linalg.broadcast ins(%arg5 : tensor<3xf32>) outs(%arg0 : tensor<4x3xf32>) dimensions = [0] 
    %3 = linalg.generic {doc = "x", indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%arg5 : tensor<3xf32>) outs(%arg0 : tensor<4x3xf32>) attrs =  {foo = 1 : i64} {
    ^bb0(%in: f32, %out: f32):
      %6 = linalg.index 0 : index
      %7 = arith.addf %in, %out : f32
      linalg.yield %7 : f32
    } -> tensor<4x3xf32>
    %4 = linalg.copy ins(%arg0 : tensor<4x3xf32>) outs(%arg0 : tensor<4x3xf32>) -> tensor<4x3xf32>
    %5 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel"]} ins(%arg5, %arg5 : tensor<3xf32>, tensor<3xf32>) outs(%arg5 : tensor<3xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %6 = arith.mulf %in, %in_0 : f32
      linalg.yield %6 : f32
    } -> tensor<3xf32>
    return %arg1 : tensor<3x4xf32>
  }
}
