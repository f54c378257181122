// RUN: torch-lower %s | FileCheck %s
// RUN: torch-lower %s | mlir-opt-16 > /dev/null
// Dynamic dims where cheap: elementwise ops size their init from the
// operand with tensor.dim.
// CHECK-LABEL: func.func @f(%arg0: tensor<?x4xf32>, %arg1: tensor<4xf32>) -> tensor<?x4xf32>
// CHECK: %[[D:.*]] = tensor.dim %arg0, %{{.*}} : tensor<?x4xf32>
// CHECK-NEXT: tensor.empty(%[[D]]) : tensor<?x4xf32>
// CHECK: } -> tensor<?x4xf32>
func.func @f(%a: !torch.vtensor<[?,4],f32>, %b: !torch.vtensor<[4],f32>) -> !torch.vtensor<[?,4],f32> {
  %int1 = torch.constant.int 1
  %0 = torch.aten.add.Tensor %a, %b, %int1 : !torch.vtensor<[?,4],f32>, !torch.vtensor<[4],f32>, !torch.int -> !torch.vtensor<[?,4],f32>
  %1 = torch.aten.relu %0 : !torch.vtensor<[?,4],f32> -> !torch.vtensor<[?,4],f32>
  return %1 : !torch.vtensor<[?,4],f32>
}
