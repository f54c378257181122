// RUN: torch-opt -p torch-refine-types,torch-decompose{keep-contract=1},canonicalize,cse %s | FileCheck %s
// RUN: torch-opt -p torch-refine-types,torch-decompose{keep-contract=1},canonicalize,cse %s | torch-opt -p torch-verify-backend-contract > /dev/null

// Resizing ops, adaptive pools and native_group_norm (decompose_resize.c,
// decompose_nn.c): upsampling is index_select with constant source
// indices and, for the linear modes, weights PyTorch's kernels compute.
// CHECK-NOT: upsample
// CHECK-NOT: _adaptive
// CHECK-NOT: pool1d
// CHECK-NOT: pool3d
// CHECK-NOT: group_norm

// 2 -> 4 rows without align_corners: sources (o + 0.5) / 2 - 0.5 clamped
// at 0; the 3 columns are kept as they are.
// CHECK-LABEL: func.func @bilinear(
// CHECK-DAG:     %[[I0:.*]] = torch.vtensor.literal(dense<[0, 0, 0, 1]> : tensor<4xi64>)
// CHECK-DAG:     %[[L0:.*]] = torch.vtensor.literal(dense<{{\[}}[1.000000e+00], [7.500000e-01], [2.500000e-01], [7.500000e-01]]> : tensor<4x1xf32>)
// CHECK-DAG:     %[[L1:.*]] = torch.vtensor.literal(dense<{{\[}}[0.000000e+00], [2.500000e-01], [7.500000e-01], [2.500000e-01]]> : tensor<4x1xf32>)
// CHECK-DAG:     %[[I1:.*]] = torch.vtensor.literal(dense<1> : tensor<4xi64>)
// CHECK:         %[[A:.*]] = torch.aten.index_select %arg0, %int2, %[[I0]] : {{.*}} -> !torch.vtensor<[1,2,4,3],f32>
// CHECK-NEXT:    %[[AW:.*]] = torch.aten.mul.Tensor %[[A]], %[[L0]]
// CHECK-NEXT:    %[[B:.*]] = torch.aten.index_select %arg0, %int2, %[[I1]]
// CHECK-NEXT:    %[[BW:.*]] = torch.aten.mul.Tensor %[[B]], %[[L1]]
// CHECK-NEXT:    %[[Y:.*]] = torch.aten.add.Tensor %[[AW]], %[[BW]], %int1
// CHECK-NEXT:    return %[[Y]]

// scale factors: the output size is floor(in * scale), the sources
// floor(o / 1.75); scale 1 keeps the columns.  Any dtype.
// CHECK-LABEL: func.func @nearest_scales(
// CHECK:         %[[I:.*]] = torch.vtensor.literal(dense<[0, 0, 1, 1, 2, 2, 3]> : tensor<7xi64>)
// CHECK:         torch.aten.index_select %arg0, %int2, %[[I]] : {{.*}} -> !torch.vtensor<[1,1,7,5],si64>
// CHECK-NOT:     index_select

// _adaptive_avg_pool2d is adaptive_avg_pool2d; 1-d pools are 2-d pools
// of [.., 1, L]; 3-d average pools pool (H, W), then (D, 1).
// CHECK-LABEL: func.func @adaptive(
// CHECK:         torch.aten.adaptive_avg_pool2d %arg0, {{.*}} -> !torch.vtensor<[2,3,3,2],f32>
// CHECK:         torch.aten.unsqueeze %arg1, %int-2 {{.*}} -> !torch.vtensor<[2,3,1,7],f32>
// CHECK:         %[[M_0:[^ ,]+]], %[[M_1:[^ ,]+]] = torch.aten.adaptive_max_pool2d {{.*}} -> !torch.vtensor<[2,3,1,4],f32>, !torch.vtensor<[2,3,1,4],si64>
// CHECK-NEXT:    torch.aten.squeeze.dim %[[M_0]], %int-2 {{.*}} -> !torch.vtensor<[2,3,4],f32>
// CHECK-NEXT:    torch.aten.squeeze.dim %[[M_1]], %int-2 {{.*}} -> !torch.vtensor<[2,3,4],si64>
// CHECK:         torch.aten.view %arg2, {{.*}} -> !torch.vtensor<[24,5,6],f32>
// CHECK:         torch.aten.adaptive_avg_pool2d {{.*}} -> !torch.vtensor<[24,3,4],f32>
// CHECK:         torch.aten.view {{.*}} -> !torch.vtensor<[6,4,12],f32>
// CHECK:         torch.aten.avg_pool2d {{.*}} -> !torch.vtensor<[6,2,12],f32>
// CHECK:         torch.aten.view {{.*}} -> !torch.vtensor<[2,3,2,3,4],f32>

// native_group_norm: normalized over [N, G, C/G * HxW]; its mean and rstd
// are [N, G]; no bias.
// CHECK-LABEL: func.func @native_group_norm(
// CHECK:         %[[X:.*]] = torch.aten.view %arg0, {{.*}} -> !torch.vtensor<[2,3,30],f32>
// CHECK-NEXT:    %[[MEAN:.*]] = torch.aten.mean.dim %[[X]], {{.*}} -> !torch.vtensor<[2,3,1],f32>
// CHECK-NEXT:    %[[VAR:.*]] = torch.aten.var.correction %[[X]], %{{.*}}, %int0, %true
// CHECK-NEXT:    %[[VE:.*]] = torch.aten.add.Scalar %[[VAR]], %float1.000000e-05
// CHECK-NEXT:    %[[R:.*]] = torch.aten.rsqrt %[[VE]]
// CHECK:         torch.aten.mul.Tensor {{.*}} -> !torch.vtensor<[2,6,3,5],f32>
// CHECK-NOT:     torch.aten.add.Tensor
// CHECK:         %[[M2:.*]] = torch.aten.view %[[MEAN]], {{.*}} -> !torch.vtensor<[2,3],f32>
// CHECK-NEXT:    %[[R2:.*]] = torch.aten.view %[[R]], {{.*}} -> !torch.vtensor<[2,3],f32>
// CHECK-NEXT:    return %{{.*}}, %[[M2]], %[[R2]]

func.func @bilinear(%x: !torch.vtensor<[1,2,2,3],f32>) -> !torch.vtensor<[1,2,4,3],f32> {
  %none = torch.constant.none
  %false = torch.constant.bool false
  %int4 = torch.constant.int 4
  %int3 = torch.constant.int 3
  %s = torch.prim.ListConstruct %int4, %int3 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.upsample_bilinear2d.vec %x, %s, %false, %none : !torch.vtensor<[1,2,2,3],f32>, !torch.list<int>, !torch.bool, !torch.none -> !torch.vtensor<[1,2,4,3],f32>
  return %0 : !torch.vtensor<[1,2,4,3],f32>
}
func.func @nearest_scales(%x: !torch.vtensor<[1,1,4,5],si64>) -> !torch.vtensor<*,si64> {
  %none = torch.constant.none
  %f = torch.constant.float 1.750000e+00
  %g = torch.constant.float 1.000000e+00
  %s = torch.prim.ListConstruct %f, %g : (!torch.float, !torch.float) -> !torch.list<float>
  %0 = torch.aten.upsample_nearest2d.vec %x, %none, %s : !torch.vtensor<[1,1,4,5],si64>, !torch.none, !torch.list<float> -> !torch.vtensor<*,si64>
  return %0 : !torch.vtensor<*,si64>
}
func.func @adaptive(%x: !torch.vtensor<[2,3,7,6],f32>, %y: !torch.vtensor<[2,3,7],f32>, %v: !torch.vtensor<[2,3,4,5,6],f32>) -> (!torch.vtensor<*,f32>, !torch.vtensor<*,f32>, !torch.vtensor<*,si64>, !torch.vtensor<*,f32>) {
  %int3 = torch.constant.int 3
  %int2 = torch.constant.int 2
  %int4 = torch.constant.int 4
  %o2 = torch.prim.ListConstruct %int3, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %o1 = torch.prim.ListConstruct %int4 : (!torch.int) -> !torch.list<int>
  %o3 = torch.prim.ListConstruct %int2, %int3, %int4 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten._adaptive_avg_pool2d %x, %o2 : !torch.vtensor<[2,3,7,6],f32>, !torch.list<int> -> !torch.vtensor<*,f32>
  %1:2 = torch.aten.adaptive_max_pool1d %y, %o1 : !torch.vtensor<[2,3,7],f32>, !torch.list<int> -> !torch.vtensor<*,f32>, !torch.vtensor<*,si64>
  %2 = torch.aten.adaptive_avg_pool3d %v, %o3 : !torch.vtensor<[2,3,4,5,6],f32>, !torch.list<int> -> !torch.vtensor<*,f32>
  return %0, %1#0, %1#1, %2 : !torch.vtensor<*,f32>, !torch.vtensor<*,f32>, !torch.vtensor<*,si64>, !torch.vtensor<*,f32>
}
func.func @native_group_norm(%x: !torch.vtensor<[2,6,3,5],f32>, %w: !torch.vtensor<[6],f32>) -> (!torch.vtensor<[2,6,3,5],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],f32>) {
  %none = torch.constant.none
  %int2 = torch.constant.int 2
  %int6 = torch.constant.int 6
  %int15 = torch.constant.int 15
  %int3 = torch.constant.int 3
  %eps = torch.constant.float 1.000000e-05
  %0:3 = torch.aten.native_group_norm %x, %w, %none, %int2, %int6, %int15, %int3, %eps : !torch.vtensor<[2,6,3,5],f32>, !torch.vtensor<[6],f32>, !torch.none, !torch.int, !torch.int, !torch.int, !torch.int, !torch.float -> !torch.vtensor<[2,6,3,5],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],f32>
  return %0#0, %0#1, %0#2 : !torch.vtensor<[2,6,3,5],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],f32>
}
