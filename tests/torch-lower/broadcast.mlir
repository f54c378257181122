// RUN: torch-lower %s | FileCheck %s
// RUN: torch-lower %s | mlir-opt-16 > /dev/null
// Broadcasting through indexing maps (size-1 dims read index 0, missing
// leading dims are dropped), type promotion inside the body, a Scalar
// operand as a constant, a comparison producing i1.
// CHECK-DAG: #[[ID:map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:map[0-9]*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[COL:map[0-9]*]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-LABEL: func.func @f(%arg0: tensor<3x4xf32>, %arg1: tensor<4xi32>, %arg2: tensor<3x1xf32>) -> tensor<3x4xf32>
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg1 : tensor<3x4xf32>, tensor<4xi32>)
// CHECK: arith.sitofp %{{.*}} : i32 to f32
// CHECK-NEXT: arith.addf
// CHECK: indexing_maps = [#[[ID]], #[[COL]], #[[ID]]]
// CHECK: arith.mulf
// CHECK: arith.constant 2.500000e+00 : f32
// CHECK-NEXT: arith.subf
// CHECK: arith.cmpf ogt
// CHECK: } -> tensor<3x4xi1>
// CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK-NOT: torch
func.func @f(%arg0: !torch.vtensor<[3,4],f32>, %arg1: !torch.vtensor<[4],si32>, %arg2: !torch.vtensor<[3,1],f32>) -> !torch.vtensor<[3,4],f32> {
  %int1 = torch.constant.int 1
  %float = torch.constant.float 2.500000e+00
  %0 = torch.aten.add.Tensor %arg0, %arg1, %int1 : !torch.vtensor<[3,4],f32>, !torch.vtensor<[4],si32>, !torch.int -> !torch.vtensor<[3,4],f32>
  %1 = torch.aten.mul.Tensor %0, %arg2 : !torch.vtensor<[3,4],f32>, !torch.vtensor<[3,1],f32> -> !torch.vtensor<[3,4],f32>
  %2 = torch.aten.sub.Scalar %1, %float, %int1 : !torch.vtensor<[3,4],f32>, !torch.float, !torch.int -> !torch.vtensor<[3,4],f32>
  %3 = torch.aten.gt.Scalar %2, %int1 : !torch.vtensor<[3,4],f32>, !torch.int -> !torch.vtensor<[3,4],i1>
  %4 = torch.aten.where.self %3, %2, %arg0 : !torch.vtensor<[3,4],i1>, !torch.vtensor<[3,4],f32>, !torch.vtensor<[3,4],f32> -> !torch.vtensor<[3,4],f32>
  return %4 : !torch.vtensor<[3,4],f32>
}
