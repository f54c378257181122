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

// -----

// convolution_backward: grad input of a strided, dilated, grouped conv
// (grad output inserted with the stride into zeros, the weight flipped
// along its non-unit spatial dims, one generic over n, g, c, o, f, k),
// grad bias a sum over all dims but 1; grad weight not asked for (none).
// CHECK: #[[$GI:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d5, d6 * 2 + d3, d4 + d7)>
// CHECK-NEXT: #[[$GW:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d1, d5, d2, d6, d7)>
// CHECK-NEXT: #[[$GO5:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2, d3, d4)>
// CHECK-NEXT: #[[$ID4:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-NEXT: #[[$CH:.*]] = affine_map<(d0, d1, d2, d3) -> (d1)>
// CHECK-LABEL: func.func @conv_bwd_input_strided_grouped(
// CHECK-DAG: %[[GO:.*]] = torch_c.to_builtin_tensor %arg0 : !torch.vtensor<[1,4,3,4],f32> -> tensor<1x4x3x4xf32>
// CHECK-DAG: %[[W:.*]] = torch_c.to_builtin_tensor %arg2 : !torch.vtensor<[4,1,2,1],f32> -> tensor<4x1x2x1xf32>
// CHECK: %[[GOE:.*]] = tensor.expand_shape %[[GO]] {{\[\[0\], \[1, 2\], \[3\], \[4\]\]}} output_shape [1, 2, 2, 3, 4] : tensor<1x4x3x4xf32> into tensor<1x2x2x3x4xf32>
// CHECK: %[[WE:.*]] = tensor.expand_shape %[[W]] {{\[\[0, 1\], \[2\], \[3\], \[4\]\]}} output_shape [2, 2, 1, 2, 1] : tensor<4x1x2x1xf32> into tensor<2x2x1x2x1xf32>
// CHECK: %[[WF:.*]] = linalg.generic {{.*}} ins(%[[WE]] : tensor<2x2x1x2x1xf32>)
// CHECK: linalg.index 1 : index
// CHECK: %[[I3:.*]] = linalg.index 3 : index
// CHECK: arith.subi %{{.*}}, %[[I3]] : index
// CHECK: tensor.extract %[[WE]]
// CHECK: %[[Z:.*]] = linalg.fill
// CHECK-SAME: -> tensor<1x2x2x7x4xf32>
// CHECK: %[[S:.*]] = tensor.insert_slice %[[GOE]] into %[[Z]][0, 0, 0, 1, 0] [1, 2, 2, 3, 4] [1, 1, 1, 2, 1] : tensor<1x2x2x3x4xf32> into tensor<1x2x2x7x4xf32>
// CHECK: %[[CV:.*]] = linalg.generic {indexing_maps = [#[[$GI]], #[[$GW]], #[[$GO5]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%[[S]], %[[WF]] : tensor<1x2x2x7x4xf32>, tensor<2x2x1x2x1xf32>)
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[0\], \[1, 2\], \[3\], \[4\]\]}} : tensor<1x2x1x5x4xf32> into tensor<1x2x5x4xf32>
// CHECK: torch_c.from_builtin_tensor
// CHECK: linalg.generic {indexing_maps = [#[[$ID4]], #[[$CH]]], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%[[GO]] : tensor<1x4x3x4xf32>)
// CHECK-NOT: torch.aten.convolution_backward
func.func @conv_bwd_input_strided_grouped(%arg0: !torch.vtensor<[1,4,3,4],f32>, %arg1: !torch.vtensor<[1,2,5,4],f32>, %arg2: !torch.vtensor<[4,1,2,1],f32>) -> (!torch.vtensor<[1,2,5,4],f32>, !torch.vtensor<[4],f32>) {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int4 = torch.constant.int 4
  %true = torch.constant.bool true
  %false = torch.constant.bool false
  %bs = torch.prim.ListConstruct %int4 : (!torch.int) -> !torch.list<int>
  %st = torch.prim.ListConstruct %int2, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %pa = torch.prim.ListConstruct %int1, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %di = torch.prim.ListConstruct %int2, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %op = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %m = torch.prim.ListConstruct %true, %false, %true : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r0, %r1, %r2 = torch.aten.convolution_backward %arg0, %arg1, %arg2, %bs, %st, %pa, %di, %false, %op, %int2, %m : !torch.vtensor<[1,4,3,4],f32>, !torch.vtensor<[1,2,5,4],f32>, !torch.vtensor<[4,1,2,1],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[1,2,5,4],f32>, !torch.none, !torch.vtensor<[4],f32>
  return %r0, %r2 : !torch.vtensor<[1,2,5,4],f32>, !torch.vtensor<[4],f32>
}

// -----

// convolution_backward: grad weight of a bf16 1-d conv, the input padded,
// products in f32 (arith.extf) and truncated after; grad input and bias
// not asked for.
// CHECK: #[[$X:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d3, d1, d2 * 3 + d4 * 2)>
// CHECK-NEXT: #[[$G:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d3, d0, d4)>
// CHECK-NEXT: #[[$O:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @conv_bwd_weight_bf16(
// CHECK: %[[P:.*]] = tensor.pad %{{.*}} low[0, 0, 2] high[0, 0, 2]
// CHECK: } : tensor<2x3x10xbf16> to tensor<2x3x14xbf16>
// CHECK: %[[Z:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<2x3x3xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[$X]], #[[$G]], #[[$O]]], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%[[P]], %{{.*}} : tensor<2x3x14xbf16>, tensor<2x2x4xbf16>) outs(%[[Z]] : tensor<2x3x3xf32>)
// CHECK: arith.extf %{{.*}} : bf16 to f32
// CHECK: arith.extf %{{.*}} : bf16 to f32
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: arith.truncf %{{.*}} : f32 to bf16
// CHECK-NOT: torch.aten.convolution_backward
func.func @conv_bwd_weight_bf16(%arg0: !torch.vtensor<[2,2,4],bf16>, %arg1: !torch.vtensor<[2,3,10],bf16>, %arg2: !torch.vtensor<[2,3,3],bf16>) -> !torch.vtensor<[2,3,3],bf16> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int3 = torch.constant.int 3
  %true = torch.constant.bool true
  %false = torch.constant.bool false
  %bs = torch.prim.ListConstruct %int2 : (!torch.int) -> !torch.list<int>
  %st = torch.prim.ListConstruct %int2 : (!torch.int) -> !torch.list<int>
  %pa = torch.prim.ListConstruct %int2 : (!torch.int) -> !torch.list<int>
  %di = torch.prim.ListConstruct %int3 : (!torch.int) -> !torch.list<int>
  %op = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %m = torch.prim.ListConstruct %false, %true, %false : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r0, %r1, %r2 = torch.aten.convolution_backward %arg0, %arg1, %arg2, %bs, %st, %pa, %di, %false, %op, %int1, %m : !torch.vtensor<[2,2,4],bf16>, !torch.vtensor<[2,3,10],bf16>, !torch.vtensor<[2,3,3],bf16>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.none, !torch.vtensor<[2,3,3],bf16>, !torch.none
  return %r1 : !torch.vtensor<[2,3,3],bf16>
}

// -----

// convolution_backward left as it is: grad input would need a negative
// padding (padding 2 > dilation * (kernel - 1) = 1), as torch-mlir refuses.
// CHECK-LABEL: func.func @conv_bwd_negative_pad(
// CHECK: torch.aten.convolution_backward
func.func @conv_bwd_negative_pad(%arg0: !torch.vtensor<[1,1,7],f32>, %arg1: !torch.vtensor<[1,1,5],f32>, %arg2: !torch.vtensor<[1,1,2],f32>) -> !torch.vtensor<[1,1,5],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %true = torch.constant.bool true
  %false = torch.constant.bool false
  %bs = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %one = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %pa = torch.prim.ListConstruct %int2 : (!torch.int) -> !torch.list<int>
  %op = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %m = torch.prim.ListConstruct %true, %false, %false : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r0, %r1, %r2 = torch.aten.convolution_backward %arg0, %arg1, %arg2, %bs, %one, %pa, %one, %false, %op, %int1, %m : !torch.vtensor<[1,1,7],f32>, !torch.vtensor<[1,1,5],f32>, !torch.vtensor<[1,1,2],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[1,1,5],f32>, !torch.none, !torch.none
  return %r0 : !torch.vtensor<[1,1,5],f32>
}
