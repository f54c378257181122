// RUN: torch-opt -p torch-decompose{keep-contract=1},canonicalize,cse %s | FileCheck %s
// RUN: torch-opt %s | torch-opt -p torch-verify-backend-contract > /dev/null
// RUN: not torch-opt %S/inputs/nnx-refused.mlir 2>&1 | FileCheck %S/inputs/nnx-refused.mlir

// decompose_nnx.c: losses, convolution variants, training batch norm,
// scans into the contract's ops.

// nll_loss_forward, mean with weights: the ignored targets read as class
// 0, their weight and loss 0; the mean divides by the summed weights,
// which are the second result.
// CHECK-LABEL: func.func @nll_mean(
// CHECK:         %[[V:.*]] = torch.aten.ne.Scalar %arg1, %int-100
// CHECK:         %[[T:.*]] = torch.aten.where.ScalarOther %[[V]], %arg1, %int0
// CHECK:         %[[WT:.*]] = torch.aten.index_select %arg2, %int0, %[[T]]
// CHECK:         %[[W:.*]] = torch.aten.where.ScalarOther %[[V]], %[[WT]], %float0
// CHECK:         %[[I:.*]] = torch.aten.unsqueeze %[[T]], %int1
// CHECK:         %[[G:.*]] = torch.aten.gather %arg0, %int1, %[[I]], %false
// CHECK:         %[[GV:.*]] = torch.aten.view %[[G]]
// CHECK:         %[[M:.*]] = torch.aten.mul.Tensor %[[GV]], %[[W]]
// CHECK:         %[[N:.*]] = torch.aten.neg %[[M]]
// CHECK:         %[[L:.*]] = torch.aten.where.ScalarOther %[[V]], %[[N]], %float0
// CHECK:         %[[TW:.*]] = torch.aten.sum %[[W]], %none
// CHECK:         %[[S:.*]] = torch.aten.sum %[[L]], %none
// CHECK:         %[[R:.*]] = torch.aten.div.Tensor %[[S]], %[[TW]]
// CHECK:         return %[[R]], %[[TW]]

// _convolution: convolution with the first nine operands; the backend
// flags (benchmark, deterministic, cudnn, tf32) drop.
// CHECK-LABEL: func.func @convolution_flags(
// CHECK:         torch.aten.convolution %arg0, %arg1, %none, %[[S:.*]], %[[P:.*]], %[[S]], %false, %[[P]], %int1 : {{.*}} -> !torch.vtensor<[1,4,6,6],f32>
// CHECK-NOT:     aten._convolution

// var_mean.correction: var.correction with the same operands, mean.dim,
// plus eager's Welford NaN: the sum of x * 0 where the reduced index is
// before the last (NaN where such an element is not finite, else 0).
// CHECK-LABEL: func.func @var_mean(
// CHECK:         %[[V:.*]] = torch.aten.var.correction %arg0, %[[D:.*]], %int1, %false
// CHECK:         %[[M:.*]] = torch.aten.mean.dim %arg0, %[[D]], %false, %none
// CHECK:         %[[BEFORE:.*]] = torch.aten.lt.Scalar {{.*}}, %int3 : !torch.vtensor<[1,4],si64>
// CHECK:         %[[Z:.*]] = torch.aten.mul.Scalar %arg0, %float0
// CHECK:         %[[W:.*]] = torch.aten.where.ScalarOther %[[BEFORE]], %[[Z]], %float0
// CHECK:         %[[S:.*]] = torch.aten.sum.dim_IntList %[[W]], %[[D]], %false, %none
// CHECK:         %[[MW:.*]] = torch.aten.add.Tensor %[[M]], %[[S]], %int1
// CHECK:         return %[[V]], %[[MW]]

// cumprod of si32 along -1: converted to si64 (the result dtype), then
// out[i] = prod over j of (j <= i ? x[j] : 1) on a [2, 5(i), 5(j)] operand.
// CHECK-LABEL: func.func @cumprod(
// CHECK:         %[[X:.*]] = torch.aten.to.dtype %arg0, %int4
// CHECK:         %[[XJ:.*]] = torch.aten.unsqueeze %[[X]], %int1 : {{.*}} -> !torch.vtensor<[2,1,5],si64>
// CHECK:         %[[I:.*]] = torch.aten.view {{.*}} -> !torch.vtensor<[1,5,1],si64>
// CHECK:         %[[J:.*]] = torch.aten.view {{.*}} -> !torch.vtensor<[1,1,5],si64>
// CHECK:         %[[MASK:.*]] = torch.aten.le.Tensor %[[J]], %[[I]]
// CHECK:         %[[W:.*]] = torch.aten.where.ScalarOther %[[MASK]], %[[XJ]], %int1 : {{.*}} -> !torch.vtensor<[2,5,5],si64>
// CHECK:         torch.aten.prod.dim_int %[[W]], %int2, %false, %none : {{.*}} -> !torch.vtensor<[2,5],si64>

// native_batch_norm in training: the batch mean and biased variance over
// dims 0 and 2; the results are y, the mean and rsqrt(var + eps).
// CHECK-LABEL: func.func @batch_norm_training(
// CHECK:         %[[D:.*]] = torch.prim.ListConstruct %int0, %int2
// CHECK:         %[[M:.*]] = torch.aten.mean.dim %arg0, %[[D]], %false, %none
// CHECK:         %[[V:.*]] = torch.aten.var.correction %arg0, %[[D]], %int0, %false
// CHECK:         %[[A:.*]] = torch.aten.add.Scalar %[[V]], %float1.000000e-05, %int1
// CHECK:         %[[R:.*]] = torch.aten.rsqrt %[[A]]
// CHECK:         %[[C:.*]] = torch.aten.sub.Tensor %arg0
// CHECK:         %[[N:.*]] = torch.aten.mul.Tensor %[[C]]
// CHECK:         %[[Y:.*]] = torch.aten.mul.Tensor %[[N]], {{.*}} -> !torch.vtensor<[2,3,4],f32>
// CHECK:         return %[[Y]], %[[M]], %[[R]]
// CHECK-NOT:     native_batch_norm

// _trilinear: each input unsqueezed at its expand dims, multiplied, summed
// over sumdim.
// CHECK-LABEL: func.func @trilinear(
// CHECK:         torch.aten.unsqueeze %arg0, %int1
// CHECK:         %[[A:.*]] = torch.aten.unsqueeze {{.*}} -> !torch.vtensor<[2,1,3,1],f32>
// CHECK:         %[[B:.*]] = torch.aten.unsqueeze {{.*}} -> !torch.vtensor<[2,1,1,4],f32>
// CHECK:         %[[C:.*]] = torch.aten.unsqueeze %arg2, %int0 : {{.*}} -> !torch.vtensor<[1,5,3,4],f32>
// CHECK:         %[[AB:.*]] = torch.aten.mul.Tensor %[[A]], %[[B]]
// CHECK:         %[[P:.*]] = torch.aten.mul.Tensor %[[AB]], %[[C]]
// CHECK:         torch.aten.sum.dim_IntList %[[P]], {{.*}} -> !torch.vtensor<[2,5],f32>

func.func @nll_mean(%x: !torch.vtensor<[3,4],f32>, %t: !torch.vtensor<[3],si64>, %w: !torch.vtensor<[4],f32>) -> (!torch.vtensor<[],f32>, !torch.vtensor<[],f32>) {
  %int1 = torch.constant.int 1
  %int-100 = torch.constant.int -100
  %0:2 = torch.aten.nll_loss_forward %x, %t, %w, %int1, %int-100 : !torch.vtensor<[3,4],f32>, !torch.vtensor<[3],si64>, !torch.vtensor<[4],f32>, !torch.int, !torch.int -> !torch.vtensor<[],f32>, !torch.vtensor<[],f32>
  return %0#0, %0#1 : !torch.vtensor<[],f32>, !torch.vtensor<[],f32>
}
func.func @convolution_flags(%x: !torch.vtensor<[1,3,8,8],f32>, %w: !torch.vtensor<[4,3,3,3],f32>) -> !torch.vtensor<[1,4,6,6],f32> {
  %none = torch.constant.none
  %int1 = torch.constant.int 1
  %int0 = torch.constant.int 0
  %true = torch.constant.bool true
  %false = torch.constant.bool false
  %s = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten._convolution %x, %w, %none, %s, %p, %s, %false, %p, %int1, %true, %false, %true, %true : !torch.vtensor<[1,3,8,8],f32>, !torch.vtensor<[4,3,3,3],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.bool, !torch.bool, !torch.bool, !torch.bool -> !torch.vtensor<[1,4,6,6],f32>
  return %0 : !torch.vtensor<[1,4,6,6],f32>
}
func.func @var_mean(%x: !torch.vtensor<[3,4],f32>) -> (!torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>) {
  %int1 = torch.constant.int 1
  %false = torch.constant.bool false
  %d = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %0:2 = torch.aten.var_mean.correction %x, %d, %int1, %false : !torch.vtensor<[3,4],f32>, !torch.list<int>, !torch.int, !torch.bool -> !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>
  return %0#0, %0#1 : !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>
}
func.func @cumprod(%x: !torch.vtensor<[2,5],si32>) -> !torch.vtensor<[2,5],si64> {
  %int-1 = torch.constant.int -1
  %none = torch.constant.none
  %0 = torch.aten.cumprod %x, %int-1, %none : !torch.vtensor<[2,5],si32>, !torch.int, !torch.none -> !torch.vtensor<[2,5],si64>
  return %0 : !torch.vtensor<[2,5],si64>
}
func.func @batch_norm_training(%x: !torch.vtensor<[2,3,4],f32>, %w: !torch.vtensor<[3],f32>) -> (!torch.vtensor<[2,3,4],f32>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>) {
  %none = torch.constant.none
  %true = torch.constant.bool true
  %m = torch.constant.float 1.000000e-01
  %eps = torch.constant.float 1.000000e-05
  %0:3 = torch.aten.native_batch_norm %x, %w, %none, %none, %none, %true, %m, %eps : !torch.vtensor<[2,3,4],f32>, !torch.vtensor<[3],f32>, !torch.none, !torch.none, !torch.none, !torch.bool, !torch.float, !torch.float -> !torch.vtensor<[2,3,4],f32>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>
  return %0#0, %0#1, %0#2 : !torch.vtensor<[2,3,4],f32>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>
}
func.func @trilinear(%a: !torch.vtensor<[2,3],f32>, %b: !torch.vtensor<[2,4],f32>, %c: !torch.vtensor<[5,3,4],f32>) -> !torch.vtensor<[2,5],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int3 = torch.constant.int 3
  %e1 = torch.prim.ListConstruct %int1, %int3 : (!torch.int, !torch.int) -> !torch.list<int>
  %e2 = torch.prim.ListConstruct %int1, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %e3 = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %sd = torch.prim.ListConstruct %int2, %int3 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten._trilinear %a, %b, %c, %e1, %e2, %e3, %sd, %int1 : !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,4],f32>, !torch.vtensor<[5,3,4],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.int -> !torch.vtensor<[2,5],f32>
  return %0 : !torch.vtensor<[2,5],f32>
}

// native_group_norm_backward: sums over [N, G, D, HxW] views with the
// given mean and rstd; dgamma and dbeta summed over the batch.
// CHECK-LABEL: func.func @group_norm_backward(
// CHECK:         %[[X:.*]] = torch.aten.view %arg1, {{.*}} -> !torch.vtensor<[2,2,2,3],f32>
// CHECK:         %[[DY:.*]] = torch.aten.view %arg0, {{.*}} -> !torch.vtensor<[2,2,2,3],f32>
// CHECK:         %[[P:.*]] = torch.aten.mul.Tensor %[[DY]], %[[X]]
// CHECK:         torch.aten.sum.dim_IntList %[[P]], {{.*}} -> !torch.vtensor<[2,2,2,1],f32>
// CHECK:         torch.aten.sum.dim_IntList %[[DY]], {{.*}} -> !torch.vtensor<[2,2,2,1],f32>
// CHECK:         torch.aten.mul.Scalar {{.*}}, %float0.16666666666666666
// CHECK:         %[[DX:.*]] = torch.aten.view {{.*}} -> !torch.vtensor<[2,4,3],f32>
// CHECK:         %[[DW:.*]] = torch.aten.view {{.*}} -> !torch.vtensor<[4],f32>
// CHECK:         %[[DB:.*]] = torch.aten.view {{.*}} -> !torch.vtensor<[4],f32>
// CHECK:         return %[[DX]], %[[DW]], %[[DB]]
func.func @group_norm_backward(%dy: !torch.vtensor<[2,4,3],f32>, %x: !torch.vtensor<[2,4,3],f32>, %m: !torch.vtensor<[2,2],f32>, %r: !torch.vtensor<[2,2],f32>, %w: !torch.vtensor<[4],f32>) -> (!torch.vtensor<[2,4,3],f32>, !torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>) {
  %int2 = torch.constant.int 2
  %int4 = torch.constant.int 4
  %int3 = torch.constant.int 3
  %true = torch.constant.bool true
  %mask = torch.prim.ListConstruct %true, %true, %true : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %0:3 = torch.aten.native_group_norm_backward %dy, %x, %m, %r, %w, %int2, %int4, %int3, %int2, %mask : !torch.vtensor<[2,4,3],f32>, !torch.vtensor<[2,4,3],f32>, !torch.vtensor<[2,2],f32>, !torch.vtensor<[2,2],f32>, !torch.vtensor<[4],f32>, !torch.int, !torch.int, !torch.int, !torch.int, !torch.list<bool> -> !torch.vtensor<[2,4,3],f32>, !torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>
  return %0#0, %0#1, %0#2 : !torch.vtensor<[2,4,3],f32>, !torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>
}
