// RUN: torch-lower %s | FileCheck %s
// RUN: torch-lower %s | mlir-opt-16 > /dev/null
// The seed's LinearModule (shared/examples/seed-linear-torch.mlir) lowers to
// the IR of seed-linear-linalg.mlir: unsqueeze and squeeze as expand_shape
// and collapse_shape, mm as linalg.matmul into a zero-filled init, add as a
// linalg.generic.
// CHECK: #[[MAP:map[0-9]*]] = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @main(%arg0: tensor<4x3xf32>, %arg1: tensor<3xf32>, %arg2: tensor<4xf32>) -> (tensor<3xf32>, tensor<1x4xf32>) {
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG: %[[X:.*]] = tensor.expand_shape %arg2 {{\[\[}}0, 1]] : tensor<4xf32> into tensor<1x4xf32>
// CHECK: %[[E:.*]] = tensor.empty() : tensor<1x3xf32>
// CHECK-NEXT: %[[F:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[E]] : tensor<1x3xf32>) -> tensor<1x3xf32>
// CHECK-NEXT: %[[MM:.*]] = linalg.matmul ins(%[[X]], %arg0 : tensor<1x4xf32>, tensor<4x3xf32>) outs(%[[F]] : tensor<1x3xf32>) -> tensor<1x3xf32>
// CHECK-NEXT: %[[C:.*]] = tensor.collapse_shape %[[MM]] {{\[\[}}0, 1]] : tensor<1x3xf32> into tensor<3xf32>
// CHECK-NEXT: %[[E2:.*]] = tensor.empty() : tensor<3xf32>
// CHECK-NEXT: %[[R:.*]] = linalg.generic {indexing_maps = [#[[MAP]], #[[MAP]], #[[MAP]]], iterator_types = ["parallel"]} ins(%[[C]], %arg1 : tensor<3xf32>, tensor<3xf32>) outs(%[[E2]] : tensor<3xf32>) {
// CHECK-NEXT: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[A]], %[[B]] : f32
// CHECK-NEXT: linalg.yield %[[S]] : f32
// CHECK-NEXT: } -> tensor<3xf32>
// CHECK-NEXT: return %[[R]], %[[X]] : tensor<3xf32>, tensor<1x4xf32>
module {
  func.func @main(%arg0: !torch.vtensor<[4,3],f32>, %arg1: !torch.vtensor<[3],f32>, %arg2: !torch.vtensor<[4],f32>) -> (!torch.vtensor<[3],f32>, !torch.vtensor<[1,4],f32>) {
    %int0 = torch.constant.int 0
    %0 = torch.aten.unsqueeze %arg2, %int0 : !torch.vtensor<[4],f32>, !torch.int -> !torch.vtensor<[1,4],f32>
    %1 = torch.aten.mm %0, %arg0 : !torch.vtensor<[1,4],f32>, !torch.vtensor<[4,3],f32> -> !torch.vtensor<[1,3],f32>
    %int0_0 = torch.constant.int 0
    %2 = torch.aten.squeeze.dim %1, %int0_0 : !torch.vtensor<[1,3],f32>, !torch.int -> !torch.vtensor<[3],f32>
    %int1 = torch.constant.int 1
    %3 = torch.aten.add.Tensor %2, %arg1, %int1 : !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>, !torch.int -> !torch.vtensor<[3],f32>
    return %3, %0 : !torch.vtensor<[3],f32>, !torch.vtensor<[1,4],f32>
  }
}
