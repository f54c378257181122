// RUN: torch-opt -p torch-decompose,canonicalize,cse %s | FileCheck %s
// RUN: torch-opt -p torch-reduce-op-variants %S/inputs/rng-inplace.mlir | FileCheck %S/inputs/rng-inplace.mlir

// threshold_backward computes in the promoted dtype: the int64 input is
// converted to the f32 of the grad before the compare.
// CHECK-LABEL: func.func @threshold_backward_mixed(
// CHECK:         %[[X:.*]] = torch.aten.to.dtype %arg1, %int6, {{.*}} -> !torch.vtensor<[4],f32>
// CHECK-NEXT:    %[[C:.*]] = torch.aten.le.Scalar %[[X]], %float-5.000000e-01
// CHECK-NEXT:    %[[R:.*]] = torch.aten.where.ScalarSelf %[[C]], %int0, %arg0 {{.*}} -> !torch.vtensor<[4],f32>
// CHECK-NEXT:    return %[[R]]
func.func @threshold_backward_mixed(%g: !torch.vtensor<[4],f32>, %x: !torch.vtensor<[4],si64>) -> !torch.vtensor<[4],f32> {
  %float = torch.constant.float -5.000000e-01
  %0 = torch.aten.threshold_backward %g, %x, %float : !torch.vtensor<[4],f32>, !torch.vtensor<[4],si64>, !torch.float -> !torch.vtensor<[4],f32>
  return %0 : !torch.vtensor<[4],f32>
}

// all integers: the threshold is converted to the integer dtype toward
// zero as PyTorch's kernel does (-0.5 compares as 0).
// CHECK-LABEL: func.func @threshold_backward_int(
// CHECK:         %[[C:.*]] = torch.aten.le.Scalar %arg1, %int0 {{.*}} -> !torch.vtensor<[4],i1>
// CHECK-NEXT:    %[[R:.*]] = torch.aten.where.ScalarSelf %[[C]], %int0, %arg0 {{.*}} -> !torch.vtensor<[4],si64>
// CHECK-NEXT:    return %[[R]]
func.func @threshold_backward_int(%g: !torch.vtensor<[4],si64>, %x: !torch.vtensor<[4],si64>) -> !torch.vtensor<[4],si64> {
  %float = torch.constant.float -5.000000e-01
  %0 = torch.aten.threshold_backward %g, %x, %float : !torch.vtensor<[4],si64>, !torch.vtensor<[4],si64>, !torch.float -> !torch.vtensor<[4],si64>
  return %0 : !torch.vtensor<[4],si64>
}

// float16 computes in float32 (PyTorch's opmath) and narrows once.
// CHECK-LABEL: func.func @sigmoid_backward_f16(
// CHECK:         %[[G:.*]] = torch.aten.to.dtype %arg0, %int6, {{.*}} -> !torch.vtensor<[2,3],f32>
// CHECK-NEXT:    %[[Y:.*]] = torch.aten.to.dtype %arg1, %int6, {{.*}} -> !torch.vtensor<[2,3],f32>
// CHECK-NEXT:    %[[ONEMY:.*]] = torch.aten.rsub.Scalar %[[Y]], %float1.000000e00, %int1
// CHECK-NEXT:    %[[D:.*]] = torch.aten.mul.Tensor %[[Y]], %[[ONEMY]]
// CHECK-NEXT:    %[[M:.*]] = torch.aten.mul.Tensor %[[G]], %[[D]]
// CHECK-NEXT:    %[[R:.*]] = torch.aten.to.dtype %[[M]], %int5, {{.*}} -> !torch.vtensor<[2,3],f16>
// CHECK-NEXT:    return %[[R]]
func.func @sigmoid_backward_f16(%g: !torch.vtensor<[2,3],f16>, %y: !torch.vtensor<[2,3],f16>) -> !torch.vtensor<[2,3],f16> {
  %0 = torch.aten.sigmoid_backward %g, %y : !torch.vtensor<[2,3],f16>, !torch.vtensor<[2,3],f16> -> !torch.vtensor<[2,3],f16>
  return %0 : !torch.vtensor<[2,3],f16>
}

// g * y - y * sum(g * y, dim, keepdim)
// CHECK-LABEL: func.func @softmax_backward(
// CHECK:         %[[GY:.*]] = torch.aten.mul.Tensor %arg0, %arg1
// CHECK-NEXT:    %[[L:.*]] = torch.prim.ListConstruct %int1
// CHECK-NEXT:    %[[S:.*]] = torch.aten.sum.dim_IntList %[[GY]], %[[L]], %true, %none {{.*}} -> !torch.vtensor<[3,1,4],f32>
// CHECK-NEXT:    %[[YS:.*]] = torch.aten.mul.Tensor %arg1, %[[S]]
// CHECK-NEXT:    %[[R:.*]] = torch.aten.sub.Tensor %[[GY]], %[[YS]], %int1
// CHECK-NEXT:    return %[[R]]
func.func @softmax_backward(%g: !torch.vtensor<[3,2,4],f32>, %y: !torch.vtensor<[3,2,4],f32>) -> !torch.vtensor<[3,2,4],f32> {
  %int1 = torch.constant.int 1
  %int6 = torch.constant.int 6
  %0 = torch.aten._softmax_backward_data %g, %y, %int1, %int6 : !torch.vtensor<[3,2,4],f32>, !torch.vtensor<[3,2,4],f32>, !torch.int, !torch.int -> !torch.vtensor<[3,2,4],f32>
  return %0 : !torch.vtensor<[3,2,4],f32>
}

// training with lower == upper: PyTorch releases disagree; left alone.
// CHECK-LABEL: func.func @rrelu_train_equal_bounds(
// CHECK:         torch.aten.rrelu_with_noise_backward
func.func @rrelu_train_equal_bounds(%g: !torch.vtensor<[3],f32>, %x: !torch.vtensor<[3],f32>, %n: !torch.vtensor<[3],f32>) -> !torch.vtensor<[3],f32> {
  %float = torch.constant.float 3.000000e-01
  %true = torch.constant.bool true
  %false = torch.constant.bool false
  %0 = torch.aten.rrelu_with_noise_backward %g, %x, %n, %float, %float, %true, %false : !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>, !torch.float, !torch.float, !torch.bool, !torch.bool -> !torch.vtensor<[3],f32>
  return %0 : !torch.vtensor<[3],f32>
}

// prims.sum in the input's dtype, dims normalized and descending.
// CHECK-LABEL: func.func @prims_sum(
// CHECK:         %[[L:.*]] = torch.prim.ListConstruct %int1, %int0
// CHECK-NEXT:    %[[R:.*]] = torch.aten.sum.dim_IntList %arg0, %[[L]], %false, %int6 {{.*}} -> !torch.vtensor<[5],f32>
// CHECK-NEXT:    return %[[R]]
func.func @prims_sum(%x: !torch.vtensor<[3,4,5],f32>) -> !torch.vtensor<[5],f32> {
  %int0 = torch.constant.int 0
  %int-2 = torch.constant.int -2
  %0 = torch.prim.ListConstruct %int0, %int-2 : (!torch.int, !torch.int) -> !torch.list<int>
  %none = torch.constant.none
  %1 = torch.operator "prims.sum"(%x, %0, %none) : (!torch.vtensor<[3,4,5],f32>, !torch.list<int>, !torch.none) -> !torch.vtensor<[5],f32>
  return %1 : !torch.vtensor<[5],f32>

// an int32 prims.sum: eager (aten.sum) gives int64, the prim int32; left alone.
// CHECK-LABEL: func.func @prims_sum_int32(
// CHECK:         torch.operator "prims.sum"
}
func.func @prims_sum_int32(%x: !torch.vtensor<[3,4],si32>) -> !torch.vtensor<[4],si32> {
  %int0 = torch.constant.int 0
  %0 = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %none = torch.constant.none
  %1 = torch.operator "prims.sum"(%x, %0, %none) : (!torch.vtensor<[3,4],si32>, !torch.list<int>, !torch.none) -> !torch.vtensor<[4],si32>

// prims.prod: one prod.dim_int a dim, the last dim first.
// CHECK-LABEL: func.func @prims_prod(
// CHECK:         %[[P:.*]] = torch.aten.prod.dim_int %arg0, %int1, %false, %int6 {{.*}} -> !torch.vtensor<[3,5],f32>
// CHECK-NEXT:    %[[R:.*]] = torch.aten.prod.dim_int %[[P]], %int0, %false, %int6 {{.*}} -> !torch.vtensor<[5],f32>
// CHECK-NEXT:    return %[[R]]
  return %1 : !torch.vtensor<[4],si32>
}
func.func @prims_prod(%x: !torch.vtensor<[3,4,5],f32>) -> !torch.vtensor<[5],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %0 = torch.prim.ListConstruct %int0, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %none = torch.constant.none

// split_dim is a view, squeeze a squeeze.dim a dim, view_of its input.
// CHECK-LABEL: func.func @prims_split_squeeze_view(
// CHECK:         %[[L:.*]] = torch.prim.ListConstruct %int3, %int2, %int1, %int5
// CHECK-NEXT:    %[[V:.*]] = torch.aten.view %arg0, %[[L]] {{.*}} -> !torch.vtensor<[3,2,1,5],f32>
// CHECK-NEXT:    %[[S:.*]] = torch.aten.squeeze.dim %arg0, %int1 {{.*}} -> !torch.vtensor<[6,5],f32>
// CHECK-NEXT:    return %[[V]], %[[S]], %arg0
  %1 = torch.operator "prims.prod"(%x, %0, %none) : (!torch.vtensor<[3,4,5],f32>, !torch.list<int>, !torch.none) -> !torch.vtensor<[5],f32>
  return %1 : !torch.vtensor<[5],f32>
}
func.func @prims_split_squeeze_view(%x: !torch.vtensor<[6,1,5],f32>) -> (!torch.vtensor<[3,2,1,5],f32>, !torch.vtensor<[6,5],f32>, !torch.vtensor<[6,1,5],f32>) {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int3 = torch.constant.int 3
  %0 = torch.operator "prims.split_dim"(%x, %int0, %int3) : (!torch.vtensor<[6,1,5],f32>, !torch.int, !torch.int) -> !torch.vtensor<[3,2,1,5],f32>
  %l = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %1 = torch.operator "prims.squeeze"(%x, %l) : (!torch.vtensor<[6,1,5],f32>, !torch.list<int>) -> !torch.vtensor<[6,5],f32>
  %2 = torch.operator "prims.view_of"(%x) : (!torch.vtensor<[6,1,5],f32>) -> !torch.vtensor<[6,1,5],f32>
  return %0, %1, %2 : !torch.vtensor<[3,2,1,5],f32>, !torch.vtensor<[6,5],f32>, !torch.vtensor<[6,1,5],f32>
}

// Random ops: Philox4x32-10 on the element index in int64 ops.  The key
// is the function's torch.rng_seed (42: the first round's xor with
// 42 + 0x9E3779B9 = 2654435811); each op takes the next stream, counted in
// torch.rng_stream; the second op's stream 1 makes its first round's low
// word M1 * 1 = 3449720151 a constant.
// CHECK-LABEL: func.func @rand_seeded(
// CHECK-SAME:    attributes {torch.rng_seed = 42 : i64, torch.rng_stream = 2 : i64}
// CHECK-DAG:     torch.vtensor.literal(dense<2654435811> : tensor<i64>)
// CHECK-DAG:     torch.vtensor.literal(dense<3449720151> : tensor<i64>)
// CHECK:         %[[I:.*]] = torch.aten.arange.start_step %int0, %int4, %int1, %int4
// CHECK-NEXT:    %[[P:.*]] = torch.aten.mul.Scalar %[[I]], %int3528531795
// CHECK-NEXT:    %[[LO:.*]] = torch.aten.remainder.Scalar %[[P]], %int4294967296
// CHECK-NEXT:    %[[Q:.*]] = torch.aten.div.Scalar_mode %[[P]], %int4294967296, %str
// CHECK-NEXT:    %[[HI:.*]] = torch.aten.remainder.Scalar %[[Q]], %int4294967296
// CHECK:         torch.aten.bitwise_xor.Tensor
// CHECK:         %[[W:.*]] = torch.aten.div.Scalar_mode %{{.*}}, %int256, %str
// CHECK-NEXT:    %[[F:.*]] = torch.aten.to.dtype %[[W]], %int6, {{.*}} -> !torch.vtensor<[4],f32>
// CHECK-NEXT:    %[[U:.*]] = torch.aten.mul.Scalar %[[F]], %float5.9604644775390625E-8
// CHECK:         return %[[U]], %{{.*}} : !torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>
func.func @rand_seeded() -> (!torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>) attributes {torch.rng_seed = 42 : i64} {
  %int4 = torch.constant.int 4
  %none = torch.constant.none
  %0 = torch.prim.ListConstruct %int4 : (!torch.int) -> !torch.list<int>
  %1 = torch.aten.rand %0, %none, %none, %none, %none : !torch.list<int>, !torch.none, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[4],f32>
  %2 = torch.aten.rand %0, %none, %none, %none, %none : !torch.list<int>, !torch.none, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[4],f32>
  return %1, %2 : !torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>
}

// float16 and a generator are refused: the ops stay.
// CHECK-LABEL: func.func @rand_refused(
// CHECK:         torch.aten.rand
// CHECK:         torch.aten.uniform
func.func @rand_refused(%x: !torch.vtensor<[4],f32>, %g: !torch.Generator) -> (!torch.vtensor<[4],f16>, !torch.vtensor<[4],f32>) {
  %int4 = torch.constant.int 4
  %int5 = torch.constant.int 5
  %none = torch.constant.none
  %f0 = torch.constant.float 0.000000e+00
  %f1 = torch.constant.float 1.000000e+00
  %0 = torch.prim.ListConstruct %int4 : (!torch.int) -> !torch.list<int>
  %1 = torch.aten.rand %0, %int5, %none, %none, %none : !torch.list<int>, !torch.int, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[4],f16>
  %2 = torch.aten.uniform %x, %f0, %f1, %g : !torch.vtensor<[4],f32>, !torch.float, !torch.float, !torch.Generator -> !torch.vtensor<[4],f32>
  return %1, %2 : !torch.vtensor<[4],f16>, !torch.vtensor<[4],f32>
}
