// RUN: torch-lower %s | FileCheck %s --check-prefixes=CHECK,V16
// RUN: torch-lower --mlir-dialect-version=20 %s | FileCheck %s --check-prefixes=CHECK,V20
// RUN: torch-lower %s | mlir-opt-16 > /dev/null
// RUN: torch-lower --mlir-dialect-version=upstream %s | FileCheck %s --check-prefixes=CHECK,V20
// linalg's named convolutions and pools where torch-mlir emits them, with
// strides and dilations as upstream prints them; the default (MLIR 16)
// pads by insert_slice into a filled tensor, 20 by tensor.pad, and only
// 20 has the 3-D, 1-D depthwise and grouped named convs.
// CHECK-LABEL: func.func @dilated
// V16: tensor.insert_slice %arg0 into %{{.*}}[0, 0, 1, 0] [1, 3, 9, 7] [1, 1, 1, 1] : tensor<1x3x9x7xf32> into tensor<1x3x11x7xf32>
// V20: tensor.pad %arg0 low[0, 0, 1, 0] high[0, 0, 1, 0] {
// V20: tensor.yield %{{.*}} : f32
// CHECK: linalg.conv_2d_nchw_fchw {dilations = dense<[2, 3]> : vector<2xi64>, strides = dense<[2, 1]> : vector<2xi64>} ins(%{{.*}}, %arg1 : tensor<1x3x11x7xf32>, tensor<4x3x3x2xf32>) outs(%{{.*}} : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
// CHECK: arith.addf
// CHECK-LABEL: func.func @size1
// CHECK-NOT: insert_slice
// CHECK-NOT: tensor.pad
// CHECK: linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%arg0, %arg1 : tensor<1x1x1x1xf32>, tensor<2x1x1x1xf32>) outs(%{{.*}} : tensor<1x2x1x1xf32>)
// CHECK-LABEL: func.func @conv1d
// CHECK: linalg.conv_1d_ncw_fcw {dilations = dense<1> : vector<1xi64>, strides = dense<2> : vector<1xi64>} ins(%{{.*}}, %arg1 : tensor<2x3x10xf32>, tensor<5x3x3xf32>) outs(%{{.*}} : tensor<2x5x4xf32>)
// CHECK-LABEL: func.func @depthwise
// CHECK: %[[W:.*]] = tensor.collapse_shape %arg1 {{\[\[}}0], [1, 2], [3]] : tensor<3x1x3x3xf32> into tensor<3x3x3xf32>
// CHECK: linalg.depthwise_conv_2d_nchw_chw {dilations = dense<[2, 1]> : vector<2xi64>, strides = dense<[2, 1]> : vector<2xi64>} ins(%{{.*}}, %[[W]] : tensor<1x3x13x9xf32>, tensor<3x3x3xf32>) outs(%{{.*}} : tensor<1x3x5x7xf32>)
// CHECK-LABEL: func.func @grouped
// V16: tensor.expand_shape %{{.*}} {{\[\[}}0], [1, 2], [3], [4]] : tensor<1x4x7x7xf32> into tensor<1x2x2x7x7xf32>
// V16: linalg.generic
// V20: tensor.expand_shape %{{.*}} {{\[\[}}0], [1, 2], [3], [4]] output_shape [1, 2, 2, 7, 7] : tensor<1x4x7x7xf32> into tensor<1x2x2x7x7xf32>
// V20: tensor.expand_shape %arg1 {{\[\[}}0], [1, 2], [3], [4]] output_shape [2, 1, 2, 3, 3] : tensor<2x2x3x3xf32> into tensor<2x1x2x3x3xf32>
// V20: linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%{{.*}}, %{{.*}} : tensor<1x2x2x7x7xf32>, tensor<2x1x2x3x3xf32>) outs(%{{.*}} : tensor<1x2x1x5x5xf32>)
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0], [1], [2, 3], [4]] : tensor<1x2x1x5x5xf32> into tensor<1x2x5x5xf32>
// CHECK-LABEL: func.func @conv3d
// V16: linalg.generic
// V20: linalg.conv_3d_ncdhw_fcdhw {dilations = dense<1> : vector<3xi64>, strides = dense<1> : vector<3xi64>} ins(%arg0, %arg1 : tensor<1x2x4x5x3xf32>, tensor<3x2x2x3x1xf32>) outs(%{{.*}} : tensor<1x3x3x3x3xf32>)
// CHECK-LABEL: func.func @depthwise1d
// V16: linalg.generic
// V20: tensor.collapse_shape %arg1 {{\[\[}}0], [1, 2]] : tensor<4x1x3xf32> into tensor<4x3xf32>
// V20: linalg.depthwise_conv_1d_ncw_cw {dilations = dense<2> : vector<1xi64>, strides = dense<2> : vector<1xi64>} ins(%{{.*}}, %{{.*}} : tensor<1x4x11xf32>, tensor<4x3xf32>) outs(%{{.*}} : tensor<1x4x4xf32>)
// CHECK-LABEL: func.func @transposed
// CHECK: linalg.generic
// CHECK: tensor.insert_slice %arg0 into %{{.*}}[0, 0, 1, 1] [1, 3, 4, 4] [1, 1, 2, 2]
// CHECK: linalg.generic
// CHECK-NOT: linalg.conv
// CHECK-LABEL: func.func @maxpool
// CHECK: %[[NEG:.*]] = arith.constant 0xFF800000 : f32
// V16: linalg.fill ins(%[[NEG]] : f32) outs(%{{.*}} : tensor<1x2x9x9xf32>)
// V16: tensor.insert_slice %arg0 into %{{.*}}[0, 0, 1, 1] [1, 2, 7, 6] [1, 1, 1, 1]
// V20: tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 1, 2] {
// V20: tensor.yield %[[NEG]] : f32
// CHECK: %[[WIN:.*]] = tensor.empty() : tensor<3x3xf32>
// CHECK: %[[NEG2:.*]] = arith.constant 0xFF800000 : f32
// CHECK: linalg.fill ins(%[[NEG2]] : f32) outs(%{{.*}} : tensor<1x2x4x4xf32>)
// CHECK: linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%{{.*}}, %[[WIN]] : tensor<1x2x9x9xf32>, tensor<3x3xf32>) outs(%{{.*}} : tensor<1x2x4x4xf32>)
// CHECK-LABEL: func.func @maxpool_i64
// CHECK: arith.constant -9223372036854775808 : i64
// CHECK: linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%{{.*}}, %{{.*}} : tensor<1x2x7x7xi64>, tensor<2x2xi64>) outs(%{{.*}} : tensor<1x2x6x6xi64>)
// CHECK-LABEL: func.func @maxpool_chw
// CHECK-NOT: pooling_nchw
// CHECK: linalg.generic
// CHECK-LABEL: func.func @avgpool
// CHECK: linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<[2, 3]> : vector<2xi64>} ins(%{{.*}}, %{{.*}} : tensor<1x3x11x9xf32>, tensor<3x2xf32>) outs(%{{.*}} : tensor<1x3x5x3xf32>)
// CHECK: arith.divf
func.func @dilated(%x: !torch.vtensor<[1,3,9,7],f32>, %w: !torch.vtensor<[4,3,3,2],f32>, %b: !torch.vtensor<[4],f32>) -> !torch.vtensor<[1,4,4,4],f32> {
  %s0 = torch.constant.int 2
  %s1 = torch.constant.int 1
  %s = torch.prim.ListConstruct %s0, %s1 : (!torch.int, !torch.int) -> !torch.list<int>
  %p0 = torch.constant.int 1
  %p1 = torch.constant.int 0
  %p = torch.prim.ListConstruct %p0, %p1 : (!torch.int, !torch.int) -> !torch.list<int>
  %d0 = torch.constant.int 2
  %d1 = torch.constant.int 3
  %d = torch.prim.ListConstruct %d0, %d1 : (!torch.int, !torch.int) -> !torch.list<int>
  %op0 = torch.constant.int 0
  %op1 = torch.constant.int 0
  %op = torch.prim.ListConstruct %op0, %op1 : (!torch.int, !torch.int) -> !torch.list<int>
  %tr = torch.constant.bool false
  %g = torch.constant.int 1
  %r = torch.aten.convolution %x, %w, %b, %s, %p, %d, %tr, %op, %g : !torch.vtensor<[1,3,9,7],f32>, !torch.vtensor<[4,3,3,2],f32>, !torch.vtensor<[4],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int -> !torch.vtensor<[1,4,4,4],f32>
  return %r : !torch.vtensor<[1,4,4,4],f32>
}

func.func @size1(%x: !torch.vtensor<[1,1,1,1],f32>, %w: !torch.vtensor<[2,1,1,1],f32>) -> !torch.vtensor<[1,2,1,1],f32> {
  %s0 = torch.constant.int 1
  %s1 = torch.constant.int 1
  %s = torch.prim.ListConstruct %s0, %s1 : (!torch.int, !torch.int) -> !torch.list<int>
  %p0 = torch.constant.int 0
  %p1 = torch.constant.int 0
  %p = torch.prim.ListConstruct %p0, %p1 : (!torch.int, !torch.int) -> !torch.list<int>
  %d0 = torch.constant.int 1
  %d1 = torch.constant.int 1
  %d = torch.prim.ListConstruct %d0, %d1 : (!torch.int, !torch.int) -> !torch.list<int>
  %op0 = torch.constant.int 0
  %op1 = torch.constant.int 0
  %op = torch.prim.ListConstruct %op0, %op1 : (!torch.int, !torch.int) -> !torch.list<int>
  %tr = torch.constant.bool false
  %g = torch.constant.int 1
  %none = torch.constant.none
  %r = torch.aten.convolution %x, %w, %none, %s, %p, %d, %tr, %op, %g : !torch.vtensor<[1,1,1,1],f32>, !torch.vtensor<[2,1,1,1],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int -> !torch.vtensor<[1,2,1,1],f32>
  return %r : !torch.vtensor<[1,2,1,1],f32>
}

func.func @conv1d(%x: !torch.vtensor<[2,3,8],f32>, %w: !torch.vtensor<[5,3,3],f32>, %b: !torch.vtensor<[5],f32>) -> !torch.vtensor<[2,5,4],f32> {
  %s0 = torch.constant.int 2
  %s = torch.prim.ListConstruct %s0 : (!torch.int) -> !torch.list<int>
  %p0 = torch.constant.int 1
  %p = torch.prim.ListConstruct %p0 : (!torch.int) -> !torch.list<int>
  %d0 = torch.constant.int 1
  %d = torch.prim.ListConstruct %d0 : (!torch.int) -> !torch.list<int>
  %op0 = torch.constant.int 0
  %op = torch.prim.ListConstruct %op0 : (!torch.int) -> !torch.list<int>
  %tr = torch.constant.bool false
  %g = torch.constant.int 1
  %r = torch.aten.convolution %x, %w, %b, %s, %p, %d, %tr, %op, %g : !torch.vtensor<[2,3,8],f32>, !torch.vtensor<[5,3,3],f32>, !torch.vtensor<[5],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int -> !torch.vtensor<[2,5,4],f32>
  return %r : !torch.vtensor<[2,5,4],f32>
}

func.func @depthwise(%x: !torch.vtensor<[1,3,9,7],f32>, %w: !torch.vtensor<[3,1,3,3],f32>) -> !torch.vtensor<[1,3,5,7],f32> {
  %s0 = torch.constant.int 2
  %s1 = torch.constant.int 1
  %s = torch.prim.ListConstruct %s0, %s1 : (!torch.int, !torch.int) -> !torch.list<int>
  %p0 = torch.constant.int 2
  %p1 = torch.constant.int 1
  %p = torch.prim.ListConstruct %p0, %p1 : (!torch.int, !torch.int) -> !torch.list<int>
  %d0 = torch.constant.int 2
  %d1 = torch.constant.int 1
  %d = torch.prim.ListConstruct %d0, %d1 : (!torch.int, !torch.int) -> !torch.list<int>
  %op0 = torch.constant.int 0
  %op1 = torch.constant.int 0
  %op = torch.prim.ListConstruct %op0, %op1 : (!torch.int, !torch.int) -> !torch.list<int>
  %tr = torch.constant.bool false
  %g = torch.constant.int 3
  %none = torch.constant.none
  %r = torch.aten.convolution %x, %w, %none, %s, %p, %d, %tr, %op, %g : !torch.vtensor<[1,3,9,7],f32>, !torch.vtensor<[3,1,3,3],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int -> !torch.vtensor<[1,3,5,7],f32>
  return %r : !torch.vtensor<[1,3,5,7],f32>
}

func.func @grouped(%x: !torch.vtensor<[1,4,5,5],f32>, %w: !torch.vtensor<[2,2,3,3],f32>, %b: !torch.vtensor<[2],f32>) -> !torch.vtensor<[1,2,5,5],f32> {
  %s0 = torch.constant.int 1
  %s1 = torch.constant.int 1
  %s = torch.prim.ListConstruct %s0, %s1 : (!torch.int, !torch.int) -> !torch.list<int>
  %p0 = torch.constant.int 1
  %p1 = torch.constant.int 1
  %p = torch.prim.ListConstruct %p0, %p1 : (!torch.int, !torch.int) -> !torch.list<int>
  %d0 = torch.constant.int 1
  %d1 = torch.constant.int 1
  %d = torch.prim.ListConstruct %d0, %d1 : (!torch.int, !torch.int) -> !torch.list<int>
  %op0 = torch.constant.int 0
  %op1 = torch.constant.int 0
  %op = torch.prim.ListConstruct %op0, %op1 : (!torch.int, !torch.int) -> !torch.list<int>
  %tr = torch.constant.bool false
  %g = torch.constant.int 2
  %r = torch.aten.convolution %x, %w, %b, %s, %p, %d, %tr, %op, %g : !torch.vtensor<[1,4,5,5],f32>, !torch.vtensor<[2,2,3,3],f32>, !torch.vtensor<[2],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int -> !torch.vtensor<[1,2,5,5],f32>
  return %r : !torch.vtensor<[1,2,5,5],f32>
}

func.func @conv3d(%x: !torch.vtensor<[1,2,4,5,3],f32>, %w: !torch.vtensor<[3,2,2,3,1],f32>) -> !torch.vtensor<[1,3,3,3,3],f32> {
  %s0 = torch.constant.int 1
  %s1 = torch.constant.int 1
  %s2 = torch.constant.int 1
  %s = torch.prim.ListConstruct %s0, %s1, %s2 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %p0 = torch.constant.int 0
  %p1 = torch.constant.int 0
  %p2 = torch.constant.int 0
  %p = torch.prim.ListConstruct %p0, %p1, %p2 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %d0 = torch.constant.int 1
  %d1 = torch.constant.int 1
  %d2 = torch.constant.int 1
  %d = torch.prim.ListConstruct %d0, %d1, %d2 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %op0 = torch.constant.int 0
  %op1 = torch.constant.int 0
  %op2 = torch.constant.int 0
  %op = torch.prim.ListConstruct %op0, %op1, %op2 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %tr = torch.constant.bool false
  %g = torch.constant.int 1
  %none = torch.constant.none
  %r = torch.aten.convolution %x, %w, %none, %s, %p, %d, %tr, %op, %g : !torch.vtensor<[1,2,4,5,3],f32>, !torch.vtensor<[3,2,2,3,1],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int -> !torch.vtensor<[1,3,3,3,3],f32>
  return %r : !torch.vtensor<[1,3,3,3,3],f32>
}

func.func @depthwise1d(%x: !torch.vtensor<[1,4,9],f32>, %w: !torch.vtensor<[4,1,3],f32>) -> !torch.vtensor<[1,4,4],f32> {
  %s0 = torch.constant.int 2
  %s = torch.prim.ListConstruct %s0 : (!torch.int) -> !torch.list<int>
  %p0 = torch.constant.int 1
  %p = torch.prim.ListConstruct %p0 : (!torch.int) -> !torch.list<int>
  %d0 = torch.constant.int 2
  %d = torch.prim.ListConstruct %d0 : (!torch.int) -> !torch.list<int>
  %op0 = torch.constant.int 0
  %op = torch.prim.ListConstruct %op0 : (!torch.int) -> !torch.list<int>
  %tr = torch.constant.bool false
  %g = torch.constant.int 4
  %none = torch.constant.none
  %r = torch.aten.convolution %x, %w, %none, %s, %p, %d, %tr, %op, %g : !torch.vtensor<[1,4,9],f32>, !torch.vtensor<[4,1,3],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int -> !torch.vtensor<[1,4,4],f32>
  return %r : !torch.vtensor<[1,4,4],f32>
}

func.func @transposed(%x: !torch.vtensor<[1,3,4,4],f32>, %w: !torch.vtensor<[3,2,3,3],f32>) -> !torch.vtensor<[1,2,8,8],f32> {
  %s0 = torch.constant.int 2
  %s1 = torch.constant.int 2
  %s = torch.prim.ListConstruct %s0, %s1 : (!torch.int, !torch.int) -> !torch.list<int>
  %p0 = torch.constant.int 1
  %p1 = torch.constant.int 1
  %p = torch.prim.ListConstruct %p0, %p1 : (!torch.int, !torch.int) -> !torch.list<int>
  %d0 = torch.constant.int 1
  %d1 = torch.constant.int 1
  %d = torch.prim.ListConstruct %d0, %d1 : (!torch.int, !torch.int) -> !torch.list<int>
  %op0 = torch.constant.int 1
  %op1 = torch.constant.int 1
  %op = torch.prim.ListConstruct %op0, %op1 : (!torch.int, !torch.int) -> !torch.list<int>
  %tr = torch.constant.bool true
  %g = torch.constant.int 1
  %none = torch.constant.none
  %r = torch.aten.convolution %x, %w, %none, %s, %p, %d, %tr, %op, %g : !torch.vtensor<[1,3,4,4],f32>, !torch.vtensor<[3,2,3,3],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int -> !torch.vtensor<[1,2,8,8],f32>
  return %r : !torch.vtensor<[1,2,8,8],f32>
}

func.func @maxpool(%x: !torch.vtensor<[1,2,7,6],f32>) -> !torch.vtensor<[1,2,4,4],f32> {
  %k0 = torch.constant.int 3
  %k1 = torch.constant.int 3
  %k = torch.prim.ListConstruct %k0, %k1 : (!torch.int, !torch.int) -> !torch.list<int>
  %s0 = torch.constant.int 2
  %s1 = torch.constant.int 2
  %s = torch.prim.ListConstruct %s0, %s1 : (!torch.int, !torch.int) -> !torch.list<int>
  %p0 = torch.constant.int 1
  %p1 = torch.constant.int 1
  %p = torch.prim.ListConstruct %p0, %p1 : (!torch.int, !torch.int) -> !torch.list<int>
  %d0 = torch.constant.int 1
  %d1 = torch.constant.int 1
  %d = torch.prim.ListConstruct %d0, %d1 : (!torch.int, !torch.int) -> !torch.list<int>
  %c = torch.constant.bool true
  %r = torch.aten.max_pool2d %x, %k, %s, %p, %d, %c : !torch.vtensor<[1,2,7,6],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool -> !torch.vtensor<[1,2,4,4],f32>
  return %r : !torch.vtensor<[1,2,4,4],f32>
}

func.func @maxpool_i64(%x: !torch.vtensor<[1,2,5,5],si64>) -> !torch.vtensor<[1,2,6,6],si64> {
  %k0 = torch.constant.int 2
  %k1 = torch.constant.int 2
  %k = torch.prim.ListConstruct %k0, %k1 : (!torch.int, !torch.int) -> !torch.list<int>
  %s0 = torch.constant.int 1
  %s1 = torch.constant.int 1
  %s = torch.prim.ListConstruct %s0, %s1 : (!torch.int, !torch.int) -> !torch.list<int>
  %p0 = torch.constant.int 1
  %p1 = torch.constant.int 1
  %p = torch.prim.ListConstruct %p0, %p1 : (!torch.int, !torch.int) -> !torch.list<int>
  %d0 = torch.constant.int 1
  %d1 = torch.constant.int 1
  %d = torch.prim.ListConstruct %d0, %d1 : (!torch.int, !torch.int) -> !torch.list<int>
  %c = torch.constant.bool false
  %r = torch.aten.max_pool2d %x, %k, %s, %p, %d, %c : !torch.vtensor<[1,2,5,5],si64>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool -> !torch.vtensor<[1,2,6,6],si64>
  return %r : !torch.vtensor<[1,2,6,6],si64>
}

func.func @maxpool_chw(%x: !torch.vtensor<[2,7,6],f32>) -> !torch.vtensor<[2,3,3],f32> {
  %k0 = torch.constant.int 2
  %k1 = torch.constant.int 2
  %k = torch.prim.ListConstruct %k0, %k1 : (!torch.int, !torch.int) -> !torch.list<int>
  %s0 = torch.constant.int 2
  %s1 = torch.constant.int 2
  %s = torch.prim.ListConstruct %s0, %s1 : (!torch.int, !torch.int) -> !torch.list<int>
  %p0 = torch.constant.int 0
  %p1 = torch.constant.int 0
  %p = torch.prim.ListConstruct %p0, %p1 : (!torch.int, !torch.int) -> !torch.list<int>
  %d0 = torch.constant.int 1
  %d1 = torch.constant.int 1
  %d = torch.prim.ListConstruct %d0, %d1 : (!torch.int, !torch.int) -> !torch.list<int>
  %c = torch.constant.bool false
  %r = torch.aten.max_pool2d %x, %k, %s, %p, %d, %c : !torch.vtensor<[2,7,6],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool -> !torch.vtensor<[2,3,3],f32>
  return %r : !torch.vtensor<[2,3,3],f32>
}

func.func @avgpool(%x: !torch.vtensor<[1,3,9,7],f32>) -> !torch.vtensor<[1,3,5,3],f32> {
  %k0 = torch.constant.int 3
  %k1 = torch.constant.int 2
  %k = torch.prim.ListConstruct %k0, %k1 : (!torch.int, !torch.int) -> !torch.list<int>
  %s0 = torch.constant.int 2
  %s1 = torch.constant.int 3
  %s = torch.prim.ListConstruct %s0, %s1 : (!torch.int, !torch.int) -> !torch.list<int>
  %p0 = torch.constant.int 1
  %p1 = torch.constant.int 1
  %p = torch.prim.ListConstruct %p0, %p1 : (!torch.int, !torch.int) -> !torch.list<int>
  %c = torch.constant.bool true
  %i = torch.constant.bool false
  %none = torch.constant.none
  %r = torch.aten.avg_pool2d %x, %k, %s, %p, %c, %i, %none : !torch.vtensor<[1,3,9,7],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor<[1,3,5,3],f32>
  return %r : !torch.vtensor<[1,3,5,3],f32>
}
