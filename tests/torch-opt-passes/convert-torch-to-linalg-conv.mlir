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

// -----

// f16 convolution: padded with tensor.pad, the f16 operands into the named
// op accumulating in f32 over the broadcast bias (extended first), then
// truncated to f16.
// CHECK-LABEL: func.func @conv2d_bias_f16(
// (block arguments converted last operand first, as torch-mlir's
// conversion driver inserts each at the block's start)
// CHECK: %[[B:.*]] = torch_c.to_builtin_tensor %arg2
// CHECK: %[[W:.*]] = torch_c.to_builtin_tensor %arg1
// CHECK: %[[X:.*]] = torch_c.to_builtin_tensor %arg0
// CHECK: %[[Z:.*]] = arith.constant 0.000000e+00 : f16
// CHECK: %[[PAD:.*]] = tensor.pad %[[X]] low[0, 0, 1, 2] high[0, 0, 1, 2]
// CHECK: tensor.yield %[[Z]] : f16
// CHECK: } : tensor<2x4x7x9xf16> to tensor<2x4x9x13xf16>
// CHECK: %[[INIT:.*]] = tensor.empty() : tensor<2x6x4x9xf32>
// CHECK: %[[BF:.*]] = linalg.generic {{.*}} ins(%[[B]] : tensor<6xf16>) outs(%{{.*}} : tensor<6xf32>)
// CHECK: arith.extf
// CHECK: %[[BB:.*]] = linalg.broadcast ins(%[[BF]] : tensor<6xf32>) outs(%[[INIT]] : tensor<2x6x4x9xf32>) dimensions = [0, 2, 3]
// CHECK: %[[CONV:.*]] = linalg.conv_2d_nchw_fchw {dilations = dense<[1, 2]> : vector<2xi64>, strides = dense<[2, 1]> : vector<2xi64>} ins(%[[PAD]], %[[W]] : tensor<2x4x9x13xf16>, tensor<6x4x3x3xf16>) outs(%[[BB]] : tensor<2x6x4x9xf32>) -> tensor<2x6x4x9xf32>
// CHECK: linalg.generic {{.*}} ins(%[[CONV]] : tensor<2x6x4x9xf32>) outs(%{{.*}} : tensor<2x6x4x9xf16>)
// CHECK: arith.truncf
func.func @conv2d_bias_f16(%arg0: !torch.vtensor<[2,4,7,9],f16>, %arg1: !torch.vtensor<[6,4,3,3],f16>, %arg2: !torch.vtensor<[6],f16>) -> !torch.vtensor<[2,6,4,9],f16> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %false = torch.constant.bool false
  %s = torch.prim.ListConstruct %int2, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int1, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %d = torch.prim.ListConstruct %int1, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %op = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.convolution %arg0, %arg1, %arg2, %s, %p, %d, %false, %op, %int1 : !torch.vtensor<[2,4,7,9],f16>, !torch.vtensor<[6,4,3,3],f16>, !torch.vtensor<[6],f16>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int -> !torch.vtensor<[2,6,4,9],f16>
  return %0 : !torch.vtensor<[2,6,4,9],f16>
}

// -----

// Groups over 2 spatial dims: the group split off the input's channels,
// the weight's filters and the output's channels, conv_2d_ngchw_gfchw,
// collapsed back; no padding, no tensor.pad; no bias, a fill of 0.
// CHECK-LABEL: func.func @conv2d_groups(
// CHECK: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NOT: tensor.pad
// CHECK: %[[F:.*]] = linalg.fill ins(%[[Z]] : f32) outs(%{{.*}} : tensor<2x6x5x8xf32>)
// CHECK: %[[XE:.*]] = tensor.expand_shape %{{.*}} {{\[}}[0], [1, 2], [3], [4]] output_shape [2, 2, 2, 7, 9] : tensor<2x4x7x9xf32> into tensor<2x2x2x7x9xf32>
// CHECK: %[[WE:.*]] = tensor.expand_shape %{{.*}} {{\[}}[0, 1], [2], [3], [4]] output_shape [2, 3, 2, 3, 2] : tensor<6x2x3x2xf32> into tensor<2x3x2x3x2xf32>
// CHECK: %[[OE:.*]] = tensor.expand_shape %[[F]] {{\[}}[0], [1, 2], [3], [4]] output_shape [2, 2, 3, 5, 8] : tensor<2x6x5x8xf32> into tensor<2x2x3x5x8xf32>
// CHECK: %[[C:.*]] = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%[[XE]], %[[WE]] : tensor<2x2x2x7x9xf32>, tensor<2x3x2x3x2xf32>) outs(%[[OE]] : tensor<2x2x3x5x8xf32>)
// CHECK: tensor.collapse_shape %[[C]] {{\[}}[0], [1, 2], [3], [4]] : tensor<2x2x3x5x8xf32> into tensor<2x6x5x8xf32>
func.func @conv2d_groups(%arg0: !torch.vtensor<[2,4,7,9],f32>, %arg1: !torch.vtensor<[6,2,3,2],f32>) -> !torch.vtensor<[2,6,5,8],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %false = torch.constant.bool false
  %none = torch.constant.none
  %s = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.convolution %arg0, %arg1, %none, %s, %p, %s, %false, %p, %int2 : !torch.vtensor<[2,4,7,9],f32>, !torch.vtensor<[6,2,3,2],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int -> !torch.vtensor<[2,6,5,8],f32>
  return %0 : !torch.vtensor<[2,6,5,8],f32>
}

// -----

// Depthwise (groups = channels) keeps torch-lower's lowering.
// CHECK-LABEL: func.func @conv2d_depthwise(
// CHECK-NOT: linalg.conv_2d_ngchw_gfchw
// CHECK: linalg.depthwise_conv_2d_nchw_chw
func.func @conv2d_depthwise(%arg0: !torch.vtensor<[1,4,5,5],f32>, %arg1: !torch.vtensor<[4,1,3,3],f32>) -> !torch.vtensor<[1,4,3,3],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int4 = torch.constant.int 4
  %false = torch.constant.bool false
  %none = torch.constant.none
  %s = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.convolution %arg0, %arg1, %none, %s, %p, %s, %false, %p, %int4 : !torch.vtensor<[1,4,5,5],f32>, !torch.vtensor<[4,1,3,3],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int -> !torch.vtensor<[1,4,3,3],f32>
  return %0 : !torch.vtensor<[1,4,3,3],f32>
}
