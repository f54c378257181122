// RUN: torch-opt -p torch-decompose,canonicalize{torch-mlir-forms=0},cse %s | FileCheck %s

// max_pool3d with indices (kernel 2, empty stride, padding 1, ceil): the
// 2-d pool over (H, W) of [L * D, H, W], then over (D, 1) of
// [L, D, oH * oW]; the flat index d * H * W + h * W + w gathered from both.
// CHECK-LABEL: func.func @max_pool3d(
// CHECK:         %[[V1:.*]] = torch.aten.view %arg0, {{.*}} -> !torch.vtensor<[30,6,7],f32>
// CHECK:         %[[P1_0:[^ ,]+]], %[[P1_1:[^ ,]+]] = torch.aten.max_pool2d_with_indices %[[V1]], {{.*}} -> !torch.vtensor<[30,4,4],f32>, !torch.vtensor<[30,4,4],si64>
// CHECK:         %[[V2:.*]] = torch.aten.view %[[P1_0]], {{.*}} -> !torch.vtensor<[6,5,16],f32>
// CHECK:         %[[P2_0:[^ ,]+]], %[[P2_1:[^ ,]+]] = torch.aten.max_pool2d_with_indices %[[V2]], {{.*}} -> !torch.vtensor<[6,3,16],f32>, !torch.vtensor<[6,3,16],si64>
// CHECK:         %[[VAL:.*]] = torch.aten.view %[[P2_0]], {{.*}} -> !torch.vtensor<[2,3,3,4,4],f32>
// CHECK:         %[[I1:.*]] = torch.aten.view %[[P1_1]], {{.*}} -> !torch.vtensor<[6,80],si64>
// CHECK:         %[[I2:.*]] = torch.aten.view %[[P2_1]], {{.*}} -> !torch.vtensor<[6,48],si64>
// CHECK-NEXT:    %[[HW:.*]] = torch.aten.gather %[[I1]], %int1, %[[I2]], %false
// CHECK-NEXT:    %[[D:.*]] = torch.aten.div.Scalar_mode %[[I2]], %int16, %str
// CHECK-NEXT:    %[[DHW:.*]] = torch.aten.mul.Scalar %[[D]], %int42
// CHECK-NEXT:    %[[IDX:.*]] = torch.aten.add.Tensor %[[DHW]], %[[HW]], %int1
// CHECK-NEXT:    %[[IV:.*]] = torch.aten.view %[[IDX]], {{.*}} -> !torch.vtensor<[2,3,3,4,4],si64>
// CHECK-NEXT:    return %[[VAL]], %[[IV]]
func.func @max_pool3d(%x: !torch.vtensor<[2,3,5,6,7],f32>) -> (!torch.vtensor<[2,3,3,4,4],f32>, !torch.vtensor<[2,3,3,4,4],si64>) {
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %true = torch.constant.bool true
  %k = torch.prim.ListConstruct %int2 : (!torch.int) -> !torch.list<int>
  %s = torch.prim.ListConstruct : () -> !torch.list<int>
  %p = torch.prim.ListConstruct %int1, %int1, %int1 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %d = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %0:2 = torch.aten.max_pool3d_with_indices %x, %k, %s, %p, %d, %true : !torch.vtensor<[2,3,5,6,7],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool -> !torch.vtensor<[2,3,3,4,4],f32>, !torch.vtensor<[2,3,3,4,4],si64>
  return %0#0, %0#1 : !torch.vtensor<[2,3,3,4,4],f32>, !torch.vtensor<[2,3,3,4,4],si64>
}

// Padding above half the kernel: PyTorch refuses it, the op is left
// (canonicalize drops its unused indices: max_pool3d).
// CHECK-LABEL: func.func @max_pool3d_bad_padding(
// CHECK:         torch.aten.max_pool3d{{(_with_indices)?}} %arg0
func.func @max_pool3d_bad_padding(%x: !torch.vtensor<[2,3,5,6,7],f32>) -> !torch.vtensor<[2,3,6,7,8],f32> {
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %false = torch.constant.bool false
  %k = torch.prim.ListConstruct %int2 : (!torch.int) -> !torch.list<int>
  %s = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int2 : (!torch.int) -> !torch.list<int>
  %d = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %0:2 = torch.aten.max_pool3d_with_indices %x, %k, %s, %p, %d, %false : !torch.vtensor<[2,3,5,6,7],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool -> !torch.vtensor<[2,3,6,7,8],f32>, !torch.vtensor<[2,3,6,7,8],si64>
  return %0#0 : !torch.vtensor<[2,3,6,7,8],f32>
}

// avg_pool3d: both 2-d pools sum (divisor 1), one division by a table
// of PyTorch's divisors [oD, oH * oW].
// CHECK-LABEL: func.func @avg_pool3d(
// CHECK:         %[[TAB:.*]] = torch.vtensor.literal({{.*}}) : !torch.vtensor<[3,12],f32>
// CHECK:         %[[V1:.*]] = torch.aten.view %arg0, {{.*}} -> !torch.vtensor<[12,5,6],f32>
// CHECK:         %[[S1:.*]] = torch.aten.avg_pool2d %[[V1]], {{.*}}, %int1 {{.*}} -> !torch.vtensor<[12,3,4],f32>
// CHECK:         %[[V2:.*]] = torch.aten.view %[[S1]], {{.*}} -> !torch.vtensor<[3,4,12],f32>
// CHECK:         %[[S2:.*]] = torch.aten.avg_pool2d %[[V2]], {{.*}}, %int1 {{.*}} -> !torch.vtensor<[3,3,12],f32>
// CHECK-NEXT:    %[[Q:.*]] = torch.aten.div.Tensor %[[S2]], %[[TAB]]
// CHECK:         torch.aten.view %[[Q]], {{.*}} -> !torch.vtensor<[3,3,3,4],f32>
func.func @avg_pool3d(%x: !torch.vtensor<[3,4,5,6],f32>) -> !torch.vtensor<[3,3,3,4],f32> {
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %true = torch.constant.bool true
  %false = torch.constant.bool false
  %none = torch.constant.none
  %k = torch.prim.ListConstruct %int2 : (!torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %0 = torch.aten.avg_pool3d %x, %k, %k, %p, %false, %false, %none : !torch.vtensor<[3,4,5,6],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor<[3,3,3,4],f32>
  return %0 : !torch.vtensor<[3,3,3,4],f32>
}

// CHECK-LABEL: func.func @reflection_pad3d(
// CHECK:         %[[V1:.*]] = torch.aten.view %arg0, {{.*}} -> !torch.vtensor<[24,5,6],f32>
// CHECK:         %[[P1:.*]] = torch.aten.reflection_pad2d %[[V1]], {{.*}} -> !torch.vtensor<[24,8,9],f32>
// CHECK:         %[[V2:.*]] = torch.aten.view %[[P1]], {{.*}} -> !torch.vtensor<[6,4,72],f32>
// CHECK:         %[[P2:.*]] = torch.aten.reflection_pad2d %[[V2]], {{.*}} -> !torch.vtensor<[6,7,72],f32>
// CHECK:         torch.aten.view %[[P2]], {{.*}} -> !torch.vtensor<[2,3,7,8,9],f32>
func.func @reflection_pad3d(%x: !torch.vtensor<[2,3,4,5,6],f32>) -> !torch.vtensor<[2,3,7,8,9],f32> {
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %p = torch.prim.ListConstruct %int1, %int2, %int2, %int1, %int1, %int2 : (!torch.int, !torch.int, !torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.reflection_pad3d %x, %p : !torch.vtensor<[2,3,4,5,6],f32>, !torch.list<int> -> !torch.vtensor<[2,3,7,8,9],f32>
  return %0 : !torch.vtensor<[2,3,7,8,9],f32>
}

// A reflection as wide as the input: PyTorch refuses it, the op is left.
// CHECK-LABEL: func.func @reflection_pad3d_too_far(
// CHECK:         torch.aten.reflection_pad3d %arg0
func.func @reflection_pad3d_too_far(%x: !torch.vtensor<[2,3,4,5,6],f32>) -> !torch.vtensor<[2,3,4,5,12],f32> {
  %int0 = torch.constant.int 0
  %int6 = torch.constant.int 6
  %p = torch.prim.ListConstruct %int6, %int0, %int0, %int0, %int0, %int0 : (!torch.int, !torch.int, !torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.reflection_pad3d %x, %p : !torch.vtensor<[2,3,4,5,6],f32>, !torch.list<int> -> !torch.vtensor<[2,3,4,5,12],f32>
  return %0 : !torch.vtensor<[2,3,4,5,12],f32>
}

// CHECK-LABEL: func.func @replication_pad1d(
// CHECK:         %[[U:.*]] = torch.aten.unsqueeze %arg0, %int-2 {{.*}} -> !torch.vtensor<[7,1,12],f32>
// CHECK:         %[[P:.*]] = torch.aten.replication_pad2d %[[U]], {{.*}} -> !torch.vtensor<[7,1,16],f32>
// CHECK-NEXT:    torch.aten.squeeze.dim %[[P]], %int-2 {{.*}} -> !torch.vtensor<[7,16],f32>
func.func @replication_pad1d(%x: !torch.vtensor<[7,12],f32>) -> !torch.vtensor<[7,16],f32> {
  %int1 = torch.constant.int 1
  %int3 = torch.constant.int 3
  %p = torch.prim.ListConstruct %int3, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.replication_pad1d %x, %p : !torch.vtensor<[7,12],f32>, !torch.list<int> -> !torch.vtensor<[7,16],f32>
  return %0 : !torch.vtensor<[7,16],f32>
}

// unfold(0, 2, 2): the windows' rows gathered, viewed [3, 2, 4], the
// window dim moved last.
// CHECK-LABEL: func.func @unfold(
// CHECK:         %[[IX:.*]] = torch.vtensor.literal(dense<[0, 1, 2, 3, 4, 5]> : tensor<6xi64>)
// CHECK:         %[[G:.*]] = torch.aten.index_select %arg0, %int0, %[[IX]]
// CHECK:         %[[V:.*]] = torch.aten.view %[[G]], {{.*}} -> !torch.vtensor<[3,2,4],f32>
// CHECK:         torch.aten.permute %[[V]], {{.*}} -> !torch.vtensor<[3,4,2],f32>
func.func @unfold(%x: !torch.vtensor<[6,4],f32>) -> !torch.vtensor<[3,4,2],f32> {
  %int0 = torch.constant.int 0
  %int2 = torch.constant.int 2
  %0 = torch.aten.unfold %x, %int0, %int2, %int2 : !torch.vtensor<[6,4],f32>, !torch.int, !torch.int, !torch.int -> !torch.vtensor<[3,4,2],f32>
  return %0 : !torch.vtensor<[3,4,2],f32>
}

// CHECK-LABEL: func.func @unfold_dynamic(
// CHECK:         torch.aten.unfold %arg0
func.func @unfold_dynamic(%x: !torch.vtensor<[?,4],f32>) -> !torch.vtensor<[?,4,2],f32> {
  %int0 = torch.constant.int 0
  %int2 = torch.constant.int 2
  %0 = torch.aten.unfold %x, %int0, %int2, %int2 : !torch.vtensor<[?,4],f32>, !torch.int, !torch.int, !torch.int -> !torch.vtensor<[?,4,2],f32>
  return %0 : !torch.vtensor<[?,4,2],f32>
}

// CHECK-LABEL: func.func @im2col(
// CHECK:         %[[IX:.*]] = torch.vtensor.literal({{.*}}) : !torch.vtensor<[24],si64>
// CHECK:         %[[V:.*]] = torch.aten.view %arg0, {{.*}} -> !torch.vtensor<[2,5,12],f32>
// CHECK-NEXT:    %[[G:.*]] = torch.aten.index_select %[[V]], %int2, %[[IX]]
// CHECK:         torch.aten.view %[[G]], {{.*}} -> !torch.vtensor<[2,20,6],f32>
func.func @im2col(%x: !torch.vtensor<[2,5,3,4],f32>) -> !torch.vtensor<[2,20,6],f32> {
  %int1 = torch.constant.int 1
  %int0 = torch.constant.int 0
  %int2 = torch.constant.int 2
  %k = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %d = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %s = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.im2col %x, %k, %d, %p, %s : !torch.vtensor<[2,5,3,4],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int> -> !torch.vtensor<[2,20,6],f32>
  return %0 : !torch.vtensor<[2,20,6],f32>
}

// CHECK-LABEL: func.func @max_unpool2d(
// CHECK:         %[[Z:.*]] = torch.aten.full {{.*}} -> !torch.vtensor<[2,32],f32>
// CHECK:         %[[I:.*]] = torch.aten.view %arg1, {{.*}} -> !torch.vtensor<[2,8],si64>
// CHECK-NEXT:    %[[X:.*]] = torch.aten.view %arg0, {{.*}} -> !torch.vtensor<[2,8],f32>
// CHECK-NEXT:    %[[S:.*]] = torch.aten.scatter.src %[[Z]], %int1, %[[I]], %[[X]]
// CHECK:         torch.aten.view %[[S]], {{.*}} -> !torch.vtensor<[2,4,8],f32>
func.func @max_unpool2d(%x: !torch.vtensor<[2,2,4],f32>, %i: !torch.vtensor<[2,2,4],si64>) -> !torch.vtensor<[2,4,8],f32> {
  %int4 = torch.constant.int 4
  %int8 = torch.constant.int 8
  %o = torch.prim.ListConstruct %int4, %int8 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.max_unpool2d %x, %i, %o : !torch.vtensor<[2,2,4],f32>, !torch.vtensor<[2,2,4],si64>, !torch.list<int> -> !torch.vtensor<[2,4,8],f32>
  return %0 : !torch.vtensor<[2,4,8],f32>
}

// CHECK-LABEL: func.func @max_pool2d_backward(
// CHECK:         %[[Z:.*]] = torch.aten.full {{.*}} -> !torch.vtensor<[4,30],f32>
// CHECK:         %[[I:.*]] = torch.aten.view %arg2, {{.*}} -> !torch.vtensor<[4,42],si64>
// CHECK-NEXT:    %[[G:.*]] = torch.aten.view %arg0, {{.*}} -> !torch.vtensor<[4,42],f32>
// CHECK-NEXT:    %[[S:.*]] = torch.aten.scatter_add %[[Z]], %int1, %[[I]], %[[G]]
// CHECK:         torch.aten.view %[[S]], {{.*}} -> !torch.vtensor<[4,6,5],f32>
func.func @max_pool2d_backward(%g: !torch.vtensor<[4,7,6],f32>, %x: !torch.vtensor<[4,6,5],f32>, %i: !torch.vtensor<[4,7,6],si64>) -> !torch.vtensor<[4,6,5],f32> {
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %false = torch.constant.bool false
  %k = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %s = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.max_pool2d_with_indices_backward %g, %x, %k, %s, %s, %s, %false, %i : !torch.vtensor<[4,7,6],f32>, !torch.vtensor<[4,6,5],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.vtensor<[4,7,6],si64> -> !torch.vtensor<[4,6,5],f32>
  return %0 : !torch.vtensor<[4,6,5],f32>
}

// Twice the size: each input sums two outputs, per dim (W first).
// CHECK-LABEL: func.func @upsample_nearest2d_backward(
// CHECK-DAG:     %[[W0:.*]] = torch.vtensor.literal(dense<[0, 2, 4, 6]> : tensor<4xi64>)
// CHECK-DAG:     %[[W1:.*]] = torch.vtensor.literal(dense<[1, 3, 5, 7]> : tensor<4xi64>)
// CHECK-DAG:     %[[H0:.*]] = torch.vtensor.literal(dense<[0, 2]> : tensor<2xi64>)
// CHECK-DAG:     %[[H1:.*]] = torch.vtensor.literal(dense<[1, 3]> : tensor<2xi64>)
// CHECK:         %[[C:.*]] = torch.aten.cat {{.*}}, %int3 {{.*}} -> !torch.vtensor<[1,1,4,9],f32>
// CHECK-NEXT:    %[[A:.*]] = torch.aten.index_select %[[C]], %int3, %[[W0]]
// CHECK-NEXT:    %[[B:.*]] = torch.aten.index_select %[[C]], %int3, %[[W1]]
// CHECK-NEXT:    %[[S:.*]] = torch.aten.add.Tensor %[[A]], %[[B]], %int1 {{.*}} -> !torch.vtensor<[1,1,4,4],f32>
// CHECK:         %[[C2:.*]] = torch.aten.cat {{.*}}, %int2 {{.*}} -> !torch.vtensor<[1,1,5,4],f32>
// CHECK-NEXT:    %[[A2:.*]] = torch.aten.index_select %[[C2]], %int2, %[[H0]]
// CHECK-NEXT:    %[[B2:.*]] = torch.aten.index_select %[[C2]], %int2, %[[H1]]
// CHECK-NEXT:    %[[S2:.*]] = torch.aten.add.Tensor %[[A2]], %[[B2]], %int1 {{.*}} -> !torch.vtensor<[1,1,2,4],f32>
// CHECK-NEXT:    return %[[S2]]
func.func @upsample_nearest2d_backward(%g: !torch.vtensor<[1,1,4,8],f32>) -> !torch.vtensor<[1,1,2,4],f32> {
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int4 = torch.constant.int 4
  %int8 = torch.constant.int 8
  %none = torch.constant.none
  %o = torch.prim.ListConstruct %int4, %int8 : (!torch.int, !torch.int) -> !torch.list<int>
  %i = torch.prim.ListConstruct %int1, %int1, %int2, %int4 : (!torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.upsample_nearest2d_backward %g, %o, %i, %none, %none : !torch.vtensor<[1,1,4,8],f32>, !torch.list<int>, !torch.list<int>, !torch.none, !torch.none -> !torch.vtensor<[1,1,2,4],f32>
  return %0 : !torch.vtensor<[1,1,2,4],f32>
}

// Nearest, zeros, align_corners false: x = (gx + 1) * W / 2 - 0.5, rounded
// half to even, read where inside (0 outside).
// CHECK-LABEL: func.func @grid_sampler_nearest(
// CHECK:         %[[GX:.*]] = torch.aten.select.int %arg1, %int3, %int0
// CHECK-NEXT:    %[[A:.*]] = torch.aten.add.Scalar %[[GX]], %float1.000000e00, %int1
// CHECK-NEXT:    %[[M:.*]] = torch.aten.mul.Scalar %[[A]], %float2.000000e00
// CHECK-NEXT:    %[[X:.*]] = torch.aten.sub.Scalar %[[M]], %float5.000000e-01, %int1
// CHECK:         %[[XR:.*]] = torch.aten.round %[[X]]
// CHECK:         %[[INY:.*]] = torch.aten.logical_and
// CHECK:         %[[INX:.*]] = torch.aten.logical_and
// CHECK-NEXT:    %[[IN:.*]] = torch.aten.logical_and %[[INX]], %[[INY]]
// CHECK:         %[[FI:.*]] = torch.aten.where.ScalarOther %[[IN]], {{.*}}, %float0.000000e00
// CHECK-NEXT:    %[[I:.*]] = torch.aten.to.dtype %[[FI]], %int4
// CHECK:         %[[G:.*]] = torch.aten.gather {{.*}}, %int2, %[[I]], %false
// CHECK:         torch.aten.where.ScalarOther {{.*}}, %float0.000000e00 {{.*}} -> !torch.vtensor<[1,1,1,3],f32>
func.func @grid_sampler_nearest(%x: !torch.vtensor<[1,1,4,4],f32>, %g: !torch.vtensor<[1,1,3,2],f32>) -> !torch.vtensor<[1,1,1,3],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %false = torch.constant.bool false
  %0 = torch.aten.grid_sampler_2d %x, %g, %int1, %int0, %false : !torch.vtensor<[1,1,4,4],f32>, !torch.vtensor<[1,1,3,2],f32>, !torch.int, !torch.int, !torch.bool -> !torch.vtensor<[1,1,1,3],f32>
  return %0 : !torch.vtensor<[1,1,1,3],f32>
}

// Reflection padding is not decomposed: the op is left.
// CHECK-LABEL: func.func @grid_sampler_reflection(
// CHECK:         torch.aten.grid_sampler_2d %arg0
func.func @grid_sampler_reflection(%x: !torch.vtensor<[1,1,4,4],f32>, %g: !torch.vtensor<[1,1,3,2],f32>) -> !torch.vtensor<[1,1,1,3],f32> {
  %int0 = torch.constant.int 0
  %int2 = torch.constant.int 2
  %false = torch.constant.bool false
  %0 = torch.aten.grid_sampler_2d %x, %g, %int0, %int2, %false : !torch.vtensor<[1,1,4,4],f32>, !torch.vtensor<[1,1,3,2],f32>, !torch.int, !torch.int, !torch.bool -> !torch.vtensor<[1,1,1,3],f32>
  return %0 : !torch.vtensor<[1,1,1,3],f32>
}

// adaptive_max_pool3d with indices: the two adaptive 2-d pools, the
// indices combined as for max_pool3d.
// CHECK-LABEL: func.func @adaptive_max_pool3d(
// CHECK:         %[[P1_0:[^ ,]+]], %[[P1_1:[^ ,]+]] = torch.aten.adaptive_max_pool2d {{.*}} -> !torch.vtensor<[10,3,3],f32>, !torch.vtensor<[10,3,3],si64>
// CHECK:         %[[P2_0:[^ ,]+]], %[[P2_1:[^ ,]+]] = torch.aten.adaptive_max_pool2d {{.*}} -> !torch.vtensor<[2,2,9],f32>, !torch.vtensor<[2,2,9],si64>
// CHECK:         torch.aten.gather
// CHECK-NEXT:    torch.aten.div.Scalar_mode {{.*}}, %int9, %str
// CHECK-NEXT:    torch.aten.mul.Scalar {{.*}}, %int42
func.func @adaptive_max_pool3d(%x: !torch.vtensor<[1,2,5,6,7],f32>) -> (!torch.vtensor<[1,2,2,3,3],f32>, !torch.vtensor<[1,2,2,3,3],si64>) {
  %int2 = torch.constant.int 2
  %int3 = torch.constant.int 3
  %o = torch.prim.ListConstruct %int2, %int3, %int3 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %0:2 = torch.aten.adaptive_max_pool3d %x, %o : !torch.vtensor<[1,2,5,6,7],f32>, !torch.list<int> -> !torch.vtensor<[1,2,2,3,3],f32>, !torch.vtensor<[1,2,2,3,3],si64>
  return %0#0, %0#1 : !torch.vtensor<[1,2,2,3,3],f32>, !torch.vtensor<[1,2,2,3,3],si64>
}
