// RUN: torch-opt -p torch-decompose{keep-contract=1},canonicalize,cse %s | FileCheck %s
// RUN: torch-opt -p torch-decompose{keep-contract=1},canonicalize,cse %s | torch-opt -p torch-verify-backend-contract > /dev/null

// Composite ops become the backend contract's ops, with inferred types.
// CHECK-NOT: aten.linear
// CHECK-NOT: aten.addmm
// CHECK-NOT: aten.matmul
// CHECK-NOT: batch_norm
// CHECK-NOT: layer_norm
// CHECK-NOT: group_norm
// CHECK-NOT: softmax
// CHECK-NOT: scaled_dot_product

// linear: the transposed weight, mm, the bias; higher ranks fold their
// rows into one dim and back.
// CHECK-LABEL: func.func @linear(
// CHECK:         %[[WT:.*]] = torch.aten.transpose.int %arg2, %int0, %int1 : !torch.vtensor<[3,4],f32>, !torch.int, !torch.int -> !torch.vtensor<[4,3],f32>
// CHECK-NEXT:    %[[MM:.*]] = torch.aten.mm %arg0, %[[WT]] : !torch.vtensor<[2,4],f32>, !torch.vtensor<[4,3],f32> -> !torch.vtensor<[2,3],f32>
// CHECK-NEXT:    %[[Y:.*]] = torch.aten.add.Tensor %[[MM]], %arg3, %int1
// CHECK:         torch.aten.view %arg1, %{{.*}} -> !torch.vtensor<[10,4],f32>
// CHECK-NEXT:    torch.aten.mm {{.*}} -> !torch.vtensor<[10,3],f32>
// CHECK:         torch.aten.view {{.*}} -> !torch.vtensor<[5,2,3],f32>

// addmm: beta scales the bias through add's alpha.
// CHECK-LABEL: func.func @addmm(
// CHECK:         %[[MM:.*]] = torch.aten.mm %arg1, %arg2
// CHECK-NEXT:    torch.aten.add.Tensor %[[MM]], %arg0, %float5.000000e-01

// matmul: 1-D x 1-D is mul + sum; 1-D x 2-D an unsqueezed mm; batches
// broadcast with expand and fold into bmm.
// CHECK-LABEL: func.func @matmul(
// CHECK:         torch.aten.mul.Tensor %arg0, %arg0
// CHECK-NEXT:    torch.aten.sum {{.*}} -> !torch.vtensor<[],f32>
// CHECK:         torch.aten.mm {{.*}} -> !torch.vtensor<[1,5],f32>
// CHECK-NEXT:    torch.aten.squeeze.dim {{.*}} -> !torch.vtensor<[5],f32>
// CHECK:         torch.aten.expand %arg2, {{.*}} -> !torch.vtensor<[7,2,3,4],f32>
// CHECK:         torch.aten.expand %arg3, {{.*}} -> !torch.vtensor<[7,2,4,5],f32>
// CHECK:         torch.aten.bmm {{.*}} -> !torch.vtensor<[14,3,5],f32>
// CHECK:         torch.aten.view {{.*}} -> !torch.vtensor<[7,2,3,5],f32>

// batch norm: (x - mean) * (w / sqrt(var + eps)) + b over [1,C,1,1]
// views; layer norm: mean, var (correction 0), rsqrt(var + eps) over the
// trailing dims; group norm the same over [N, G, rest].
// CHECK-LABEL: func.func @norms(
// CHECK:         %[[VE:.*]] = torch.aten.add.Scalar %arg1, %float1.000000e-05, %int1
// CHECK-NEXT:    %[[SQ:.*]] = torch.aten.sqrt %[[VE]]
// CHECK-NEXT:    %[[SC:.*]] = torch.aten.div.Tensor %arg1, %[[SQ]]
// CHECK:         %[[SCV:.*]] = torch.aten.view %[[SC]], {{.*}} -> !torch.vtensor<[1,3,1,1],f32>
// CHECK:         %[[XC:.*]] = torch.aten.sub.Tensor %arg0, %{{.*}}, %int1
// CHECK-NEXT:    %[[N:.*]] = torch.aten.mul.Tensor %[[XC]], %[[SCV]]
// CHECK:         torch.aten.add.Tensor %[[N]],
// CHECK:         %[[M:.*]] = torch.aten.mean.dim %arg0, %{{.*}}, %true, %none {{.*}} -> !torch.vtensor<[2,3,4,1],f32>
// CHECK-NEXT:    %[[V:.*]] = torch.aten.var.correction %arg0, %{{.*}}, %int0, %true
// CHECK-NEXT:    %[[E:.*]] = torch.aten.add.Scalar %[[V]], %float1.000000e-05
// CHECK-NEXT:    %[[R:.*]] = torch.aten.rsqrt %[[E]]
// CHECK-NEXT:    %[[D:.*]] = torch.aten.sub.Tensor %arg0, %[[M]]
// CHECK-NEXT:    torch.aten.mul.Tensor %[[D]], %[[R]]
// CHECK:         torch.aten.view %arg0, {{.*}} -> !torch.vtensor<[2,1,48],f32>
// CHECK:         torch.aten.var.correction {{.*}} -> !torch.vtensor<[2,1,1],f32>

// softmax: exp(x - amax) / sum; log_softmax: (x - amax) - log(sum).
// CHECK-LABEL: func.func @softmax(
// CHECK:         %[[MX:.*]] = torch.aten.amax %arg0, %[[D:.*]], %true
// CHECK-NEXT:    %[[SH:.*]] = torch.aten.sub.Tensor %arg0, %[[MX]], %int1
// CHECK-NEXT:    %[[EX:.*]] = torch.aten.exp %[[SH]]
// CHECK-NEXT:    %[[SU:.*]] = torch.aten.sum.dim_IntList %[[EX]], %[[D]], %true, %none
// CHECK-NEXT:    %[[SM:.*]] = torch.aten.div.Tensor %[[EX]], %[[SU]]
// CHECK:         %[[LG:.*]] = torch.aten.log %[[SU]]
// CHECK-NEXT:    %[[LS:.*]] = torch.aten.sub.Tensor %[[SH]], %[[LG]], %int1
// CHECK-NEXT:    return %[[SM]], %[[LS]]

// attention: q @ k^T * 1/sqrt(E), a bool mask fills -inf where false.
// CHECK-LABEL: func.func @sdpa(
// CHECK:         torch.aten.transpose.int %arg0, %int-2, %int-1
// CHECK:         torch.aten.bmm {{.*}} -> !torch.vtensor<[8,8,8],f32>
// CHECK:         torch.aten.mul.Scalar {{.*}}, %float2.500000e-01
// CHECK:         %[[NOT:.*]] = torch.aten.logical_not %arg1
// CHECK-NEXT:    torch.aten.masked_fill.Scalar %{{.*}}, %[[NOT]], %float0xFFF0000000000000
// CHECK:         torch.aten.exp
// CHECK:         torch.aten.bmm {{.*}} -> !torch.vtensor<[8,8,16],f32>
// CHECK:         return {{.*}} : !torch.vtensor<[2,4,8,16],f32>

func.func @linear(%x: !torch.vtensor<[2,4],f32>, %x3: !torch.vtensor<[5,2,4],f32>, %w: !torch.vtensor<[3,4],f32>, %b: !torch.vtensor<[3],f32>) -> (!torch.vtensor<[2,3],f32>, !torch.vtensor<[5,2,3],f32>) {
  %none = torch.constant.none
  %0 = torch.aten.linear %x, %w, %b : !torch.vtensor<[2,4],f32>, !torch.vtensor<[3,4],f32>, !torch.vtensor<[3],f32> -> !torch.vtensor<[2,3],f32>
  %1 = torch.aten.linear %x3, %w, %none : !torch.vtensor<[5,2,4],f32>, !torch.vtensor<[3,4],f32>, !torch.none -> !torch.vtensor<[5,2,3],f32>
  return %0, %1 : !torch.vtensor<[2,3],f32>, !torch.vtensor<[5,2,3],f32>
}
func.func @addmm(%b: !torch.vtensor<[3],f32>, %x: !torch.vtensor<[2,4],f32>, %w: !torch.vtensor<[4,3],f32>) -> !torch.vtensor<[2,3],f32> {
  %int1 = torch.constant.int 1
  %float = torch.constant.float 5.000000e-01
  %0 = torch.aten.addmm %b, %x, %w, %float, %int1 : !torch.vtensor<[3],f32>, !torch.vtensor<[2,4],f32>, !torch.vtensor<[4,3],f32>, !torch.float, !torch.int -> !torch.vtensor<[2,3],f32>
  return %0 : !torch.vtensor<[2,3],f32>
}
func.func @matmul(%v: !torch.vtensor<[4],f32>, %m: !torch.vtensor<[4,5],f32>, %a: !torch.vtensor<[7,1,3,4],f32>, %bb: !torch.vtensor<[2,4,5],f32>, %x: !torch.vtensor<[2,3,4],f32>) -> (!torch.vtensor<[],f32>, !torch.vtensor<[5],f32>, !torch.vtensor<[7,2,3,5],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3,5],f32>) {
  %0 = torch.aten.matmul %v, %v : !torch.vtensor<[4],f32>, !torch.vtensor<[4],f32> -> !torch.vtensor<[],f32>
  %1 = torch.aten.matmul %v, %m : !torch.vtensor<[4],f32>, !torch.vtensor<[4,5],f32> -> !torch.vtensor<[5],f32>
  %2 = torch.aten.matmul %a, %bb : !torch.vtensor<[7,1,3,4],f32>, !torch.vtensor<[2,4,5],f32> -> !torch.vtensor<[7,2,3,5],f32>
  %3 = torch.aten.matmul %x, %v : !torch.vtensor<[2,3,4],f32>, !torch.vtensor<[4],f32> -> !torch.vtensor<[2,3],f32>
  %4 = torch.aten.matmul %x, %m : !torch.vtensor<[2,3,4],f32>, !torch.vtensor<[4,5],f32> -> !torch.vtensor<[2,3,5],f32>
  return %0, %1, %2, %3, %4 : !torch.vtensor<[],f32>, !torch.vtensor<[5],f32>, !torch.vtensor<[7,2,3,5],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3,5],f32>
}
func.func @norms(%x: !torch.vtensor<[2,3,4,4],f32>, %c: !torch.vtensor<[3],f32>) -> (!torch.vtensor<[2,3,4,4],f32>, !torch.vtensor<[2,3,4,4],f32>, !torch.vtensor<[2,3,4,4],f32>) {
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  %int4 = torch.constant.int 4
  %int3 = torch.constant.int 3
  %f1 = torch.constant.float 1.000000e-01
  %eps = torch.constant.float 1.000000e-05
  %0:3 = torch.aten.native_batch_norm %x, %c, %c, %c, %c, %false, %f1, %eps : !torch.vtensor<[2,3,4,4],f32>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>, !torch.bool, !torch.float, !torch.float -> !torch.vtensor<[2,3,4,4],f32>, !torch.vtensor<[0],f32>, !torch.vtensor<[0],f32>
  %ns = torch.prim.ListConstruct %int4 : (!torch.int) -> !torch.list<int>
  %w = torch.vtensor.literal(dense<2.000000e+00> : tensor<4xf32>) : !torch.vtensor<[4],f32>
  %1:3 = torch.aten.native_layer_norm %x, %ns, %w, %w, %eps : !torch.vtensor<[2,3,4,4],f32>, !torch.list<int>, !torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>, !torch.float -> !torch.vtensor<[2,3,4,4],f32>, !torch.vtensor<[2,3,4,1],f32>, !torch.vtensor<[2,3,4,1],f32>
  %int1 = torch.constant.int 1
  %2 = torch.aten.group_norm %x, %int1, %c, %c, %eps, %true : !torch.vtensor<[2,3,4,4],f32>, !torch.int, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>, !torch.float, !torch.bool -> !torch.vtensor<[2,3,4,4],f32>
  return %0#0, %1#0, %2 : !torch.vtensor<[2,3,4,4],f32>, !torch.vtensor<[2,3,4,4],f32>, !torch.vtensor<[2,3,4,4],f32>
}
func.func @softmax(%x: !torch.vtensor<[2,5],f32>) -> (!torch.vtensor<[2,5],f32>, !torch.vtensor<[2,5],f32>) {
  %int-1 = torch.constant.int -1
  %false = torch.constant.bool false
  %none = torch.constant.none
  %0 = torch.aten._softmax %x, %int-1, %false : !torch.vtensor<[2,5],f32>, !torch.int, !torch.bool -> !torch.vtensor<[2,5],f32>
  %1 = torch.aten.log_softmax.int %x, %int-1, %none : !torch.vtensor<[2,5],f32>, !torch.int, !torch.none -> !torch.vtensor<[2,5],f32>
  return %0, %1 : !torch.vtensor<[2,5],f32>, !torch.vtensor<[2,5],f32>
}
func.func @sdpa(%q: !torch.vtensor<[2,4,8,16],f32>, %m: !torch.vtensor<[8,8],i1>) -> !torch.vtensor<[2,4,8,16],f32> {
  %none = torch.constant.none
  %f0 = torch.constant.float 0.000000e+00
  %false = torch.constant.bool false
  %0 = torch.operator "aten.scaled_dot_product_attention"(%q, %q, %q, %m, %f0, %false, %none) : (!torch.vtensor<[2,4,8,16],f32>, !torch.vtensor<[2,4,8,16],f32>, !torch.vtensor<[2,4,8,16],f32>, !torch.vtensor<[8,8],i1>, !torch.float, !torch.bool, !torch.none) -> !torch.vtensor<[2,4,8,16],f32>
  return %0 : !torch.vtensor<[2,4,8,16],f32>
}
