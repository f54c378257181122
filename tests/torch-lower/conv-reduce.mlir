// RUN: torch-lower %s | FileCheck %s
// RUN: torch-lower %s | mlir-opt-16 > /dev/null
// A strided, padded 2-D convolution with bias: the input is zero-padded by
// insert_slice, linalg.conv_2d_nchw_fchw reads in[o * s + k] (as
// torch-mlir emits it); then a keepdim sum and a NaN-propagating amax.
// CHECK-LABEL: func.func @conv
// CHECK: tensor.insert_slice %arg0 into %{{.*}}[0, 0, 1, 1] [1, 3, 6, 6] [1, 1, 1, 1] : tensor<1x3x6x6xf32> into tensor<1x3x8x8xf32>
// CHECK: linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%{{.*}}, %arg1 : tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) outs(%{{.*}} : tensor<1x4x3x3xf32>) -> tensor<1x4x3x3xf32>
// CHECK: arith.addf
// CHECK-LABEL: func.func @reduce
// CHECK: %[[NEG:.*]] = arith.constant 0xFF800000 : f32
// CHECK: linalg.fill ins(%[[NEG]] : f32)
// CHECK: iterator_types = ["parallel", "reduction", "parallel"]
// CHECK: arith.cmpf ogt
// CHECK: arith.cmpf uno
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0], [1, 2]] : tensor<2x5xf32> into tensor<2x1x5xf32>
func.func @conv(%x: !torch.vtensor<[1,3,6,6],f32>, %w: !torch.vtensor<[4,3,3,3],f32>, %b: !torch.vtensor<[4],f32>) -> !torch.vtensor<[1,4,3,3],f32> {
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int0 = torch.constant.int 0
  %false = torch.constant.bool false
  %s = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %d = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %op = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.convolution %x, %w, %b, %s, %p, %d, %false, %op, %int1 : !torch.vtensor<[1,3,6,6],f32>, !torch.vtensor<[4,3,3,3],f32>, !torch.vtensor<[4],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int -> !torch.vtensor<[1,4,3,3],f32>
  return %0 : !torch.vtensor<[1,4,3,3],f32>
}
func.func @reduce(%x: !torch.vtensor<[2,3,5],f32>) -> (!torch.vtensor<[2,1,5],f32>, !torch.vtensor<[2,1,5],f32>) {
  %int1 = torch.constant.int 1
  %true = torch.constant.bool true
  %none = torch.constant.none
  %dims = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %0 = torch.aten.sum.dim_IntList %x, %dims, %true, %none : !torch.vtensor<[2,3,5],f32>, !torch.list<int>, !torch.bool, !torch.none -> !torch.vtensor<[2,1,5],f32>
  %1 = torch.aten.amax %x, %dims, %true : !torch.vtensor<[2,3,5],f32>, !torch.list<int>, !torch.bool -> !torch.vtensor<[2,1,5],f32>
  return %0, %1 : !torch.vtensor<[2,1,5],f32>, !torch.vtensor<[2,1,5],f32>
}
