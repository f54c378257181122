// RUN: torch-opt -p torch-decompose,canonicalize{torch-mlir-forms=0},cse %s | FileCheck %s
// RUN: torch-opt -p torch-decompose,canonicalize{torch-mlir-forms=0},cse %s | torch-opt -p torch-verify-backend-contract > /dev/null

// clone and inference dropout are their input; t is transpose.
// CHECK-LABEL: func.func @identities(
// CHECK:         %[[T:.*]] = torch.aten.transpose.int %arg0, %int0, %int1
// CHECK-NEXT:    return %arg0, %arg0, %[[T]]

// reshapes are views (the result shape, -1 kept); expand_as is expand.
// CHECK-LABEL: func.func @reshapes(
// CHECK:         torch.aten.view %arg0, {{.*}} -> !torch.vtensor<[6,4],f32>
// CHECK:         torch.aten.view %arg0, {{.*}} -> !torch.vtensor<[2,12],f32>
// CHECK:         torch.aten.view %arg0, {{.*}} -> !torch.vtensor<[24],f32>
// CHECK:         torch.aten.expand %arg0, {{.*}} -> !torch.vtensor<[5,2,3,4],f32>

// creation ops are full with an explicit dtype (6 float32, 4 int64);
// _to_copy to another dtype is to.dtype.
// CHECK-LABEL: func.func @creation(
// CHECK:         torch.aten.full %[[S:.*]], %float0.000000e00, %int6, %none, %none, %none {{.*}} -> !torch.vtensor<[2,3],f32>
// CHECK-NEXT:    torch.aten.full %[[S]], %int1, %int4, {{.*}} -> !torch.vtensor<[2,3],si64>
// CHECK:         torch.aten.full %{{.*}}, %float1.500000e00, %int6, {{.*}} -> !torch.vtensor<[4],f32>
// CHECK-NEXT:    torch.aten.full %[[S]], %float1.500000e00, %int6, {{.*}} -> !torch.vtensor<[2,3],f32>
// CHECK-NEXT:    torch.aten.to.dtype %arg0, %int7, %false, %false, %none {{.*}} -> !torch.vtensor<[2,3],f64>

// split, unbind: slices and selects; stack: unsqueeze + cat.
// CHECK-LABEL: func.func @lists(
// CHECK:         torch.aten.slice.Tensor %arg0, %int1, %int0, %int3, %int1 {{.*}} -> !torch.vtensor<[2,3],f32>
// CHECK-NEXT:    torch.aten.slice.Tensor %arg0, %int1, %int3, %int5, %int1 {{.*}} -> !torch.vtensor<[2,2],f32>
// CHECK-NEXT:    torch.aten.select.int %arg0, %int0, %int1 {{.*}} -> !torch.vtensor<[5],f32>
// CHECK-NEXT:    %[[U:.*]] = torch.aten.unsqueeze %arg0, %int1 {{.*}} -> !torch.vtensor<[2,1,5],f32>
// CHECK-NEXT:    %[[L:.*]] = torch.prim.ListConstruct %[[U]], %[[U]]
// CHECK-NEXT:    torch.aten.cat %[[L]], %int1 {{.*}} -> !torch.vtensor<[2,2,5],f32>

// A constant NumToTensor is a literal; max_pool2d_with_indices without
// used indices is max_pool2d; adaptive pooling with uniform windows is
// avg_pool2d; var.dim(unbiased) is var.correction(1).
// CHECK-LABEL: func.func @misc(
// CHECK:         torch.vtensor.literal(dense<8.000000e+00> : tensor<f32>) : !torch.vtensor<[],f32>
// CHECK:         torch.aten.max_pool2d %arg0, {{.*}} -> !torch.vtensor<[1,4,3,3],f32>
// CHECK:         %[[K:.*]] = torch.prim.ListConstruct %int3, %int2
// CHECK-NEXT:    torch.aten.avg_pool2d %arg0, %[[K]], %[[K]], {{.*}} -> !torch.vtensor<[1,4,2,3],f32>
// CHECK:         torch.aten.var.correction %arg1, %{{.*}}, %int1, %false

// The unsafe_ forms of split and chunk (nn.LSTM and nn.GRU make them) and
// split_with_sizes: slices too; a size 0 piece is an empty slice.
// CHECK-LABEL: func.func @unsafe_lists(
// CHECK:         torch.aten.slice.Tensor %arg0, %int0, %int0, %int1, %int1 {{.*}} -> !torch.vtensor<[1,5],f32>
// CHECK-NEXT:    torch.aten.slice.Tensor %arg0, %int0, %int1, %int2, %int1 {{.*}} -> !torch.vtensor<[1,5],f32>
// CHECK-NEXT:    torch.aten.slice.Tensor %arg0, %int1, %int0, %int3, %int1 {{.*}} -> !torch.vtensor<[2,3],f32>
// CHECK-NEXT:    torch.aten.slice.Tensor %arg0, %int1, %int3, %int5, %int1 {{.*}} -> !torch.vtensor<[2,2],f32>
// CHECK-NEXT:    torch.aten.slice.Tensor %arg0, %int1, %int0, %int4, %int1 {{.*}} -> !torch.vtensor<[2,4],f32>
// CHECK-NEXT:    torch.aten.slice.Tensor %arg0, %int1, %int4, %int4, %int1 {{.*}} -> !torch.vtensor<[2,0],f32>
// CHECK-NEXT:    torch.aten.slice.Tensor %arg0, %int1, %int4, %int5, %int1 {{.*}} -> !torch.vtensor<[2,1],f32>

func.func @identities(%x: !torch.vtensor<[2,3],f32>) -> (!torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[3,2],f32>) {
  %none = torch.constant.none
  %false = torch.constant.bool false
  %p = torch.constant.float 1.000000e-01
  %0 = torch.aten.clone %x, %none : !torch.vtensor<[2,3],f32>, !torch.none -> !torch.vtensor<[2,3],f32>
  %1 = torch.aten.dropout %0, %p, %false : !torch.vtensor<[2,3],f32>, !torch.float, !torch.bool -> !torch.vtensor<[2,3],f32>
  %2 = torch.aten.t %x : !torch.vtensor<[2,3],f32> -> !torch.vtensor<[3,2],f32>
  return %0, %1, %2 : !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[3,2],f32>
}
func.func @reshapes(%x: !torch.vtensor<[2,3,4],f32>, %o: !torch.vtensor<[5,2,3,4],f32>) -> (!torch.vtensor<[6,4],f32>, !torch.vtensor<[2,12],f32>, !torch.vtensor<[24],f32>, !torch.vtensor<[5,2,3,4],f32>) {
  %int-1 = torch.constant.int -1
  %int1 = torch.constant.int 1
  %int4 = torch.constant.int 4
  %int24 = torch.constant.int 24
  %l = torch.prim.ListConstruct %int-1, %int4 : (!torch.int, !torch.int) -> !torch.list<int>
  %st = torch.prim.ListConstruct %int4, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten._reshape_alias %x, %l, %st : !torch.vtensor<[2,3,4],f32>, !torch.list<int>, !torch.list<int> -> !torch.vtensor<[6,4],f32>
  %1 = torch.aten.flatten.using_ints %x, %int1, %int-1 : !torch.vtensor<[2,3,4],f32>, !torch.int, !torch.int -> !torch.vtensor<[2,12],f32>
  %l2 = torch.prim.ListConstruct %int24 : (!torch.int) -> !torch.list<int>
  %2 = torch.aten._unsafe_view %x, %l2 : !torch.vtensor<[2,3,4],f32>, !torch.list<int> -> !torch.vtensor<[24],f32>
  %3 = torch.aten.expand_as %x, %o : !torch.vtensor<[2,3,4],f32>, !torch.vtensor<[5,2,3,4],f32> -> !torch.vtensor<[5,2,3,4],f32>
  return %0, %1, %2, %3 : !torch.vtensor<[6,4],f32>, !torch.vtensor<[2,12],f32>, !torch.vtensor<[24],f32>, !torch.vtensor<[5,2,3,4],f32>
}
func.func @creation(%x: !torch.vtensor<[2,3],f32>) -> (!torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],si64>, !torch.vtensor<[4],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],f64>) {
  %none = torch.constant.none
  %int2 = torch.constant.int 2
  %int3 = torch.constant.int 3
  %int4 = torch.constant.int 4
  %int7 = torch.constant.int 7
  %float = torch.constant.float 1.500000e+00
  %false = torch.constant.bool false
  %s = torch.prim.ListConstruct %int2, %int3 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.zeros %s, %none, %none, %none, %none : !torch.list<int>, !torch.none, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[2,3],f32>
  %1 = torch.aten.ones_like %0, %int4, %none, %none, %none, %none : !torch.vtensor<[2,3],f32>, !torch.int, !torch.none, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[2,3],si64>
  %s4 = torch.prim.ListConstruct %int4 : (!torch.int) -> !torch.list<int>
  %2 = torch.aten.new_full %x, %s4, %float, %none, %none, %none, %none : !torch.vtensor<[2,3],f32>, !torch.list<int>, !torch.float, !torch.none, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[4],f32>
  %3 = torch.aten.fill.Scalar %x, %float : !torch.vtensor<[2,3],f32>, !torch.float -> !torch.vtensor<[2,3],f32>
  %4 = torch.aten._to_copy %x, %int7, %none, %none, %none, %false, %none : !torch.vtensor<[2,3],f32>, !torch.int, !torch.none, !torch.none, !torch.none, !torch.bool, !torch.none -> !torch.vtensor<[2,3],f64>
  return %0, %1, %2, %3, %4 : !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],si64>, !torch.vtensor<[4],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],f64>
}
func.func @lists(%x: !torch.vtensor<[2,5],f32>) -> (!torch.vtensor<[2,3],f32>, !torch.vtensor<[2,2],f32>, !torch.vtensor<[5],f32>, !torch.vtensor<[2,2,5],f32>) {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int3 = torch.constant.int 3
  %0 = torch.aten.split.Tensor %x, %int3, %int1 : !torch.vtensor<[2,5],f32>, !torch.int, !torch.int -> !torch.list<vtensor>
  %1:2 = torch.prim.ListUnpack %0 : !torch.list<vtensor> -> !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,2],f32>
  %2 = torch.aten.unbind.int %x, %int0 : !torch.vtensor<[2,5],f32>, !torch.int -> !torch.list<vtensor>
  %3:2 = torch.prim.ListUnpack %2 : !torch.list<vtensor> -> !torch.vtensor<[5],f32>, !torch.vtensor<[5],f32>
  %l = torch.prim.ListConstruct %x, %x : (!torch.vtensor<[2,5],f32>, !torch.vtensor<[2,5],f32>) -> !torch.list<vtensor>
  %4 = torch.aten.stack %l, %int1 : !torch.list<vtensor>, !torch.int -> !torch.vtensor<[2,2,5],f32>
  return %1#0, %1#1, %3#1, %4 : !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,2],f32>, !torch.vtensor<[5],f32>, !torch.vtensor<[2,2,5],f32>
}
func.func @misc(%x: !torch.vtensor<[1,4,6,6],f32>, %v: !torch.vtensor<[3,4],f32>) -> (!torch.vtensor<[],f32>, !torch.vtensor<[1,4,3,3],f32>, !torch.vtensor<[1,4,2,3],f32>, !torch.vtensor<[3],f32>) {
  %float = torch.constant.float 8.000000e+00
  %int2 = torch.constant.int 2
  %int3 = torch.constant.int 3
  %int1 = torch.constant.int 1
  %int0 = torch.constant.int 0
  %true = torch.constant.bool true
  %false = torch.constant.bool false
  %0 = torch.prim.NumToTensor.Scalar %float : !torch.float -> !torch.vtensor<[],f32>
  %k = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %d = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %1:2 = torch.aten.max_pool2d_with_indices %x, %k, %k, %p, %d, %false : !torch.vtensor<[1,4,6,6],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool -> !torch.vtensor<[1,4,3,3],f32>, !torch.vtensor<[1,4,3,3],si64>
  %o = torch.prim.ListConstruct %int2, %int3 : (!torch.int, !torch.int) -> !torch.list<int>
  %2 = torch.aten.adaptive_avg_pool2d %x, %o : !torch.vtensor<[1,4,6,6],f32>, !torch.list<int> -> !torch.vtensor<[1,4,2,3],f32>
  %dl = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %3 = torch.aten.var.dim %v, %dl, %true, %false : !torch.vtensor<[3,4],f32>, !torch.list<int>, !torch.bool, !torch.bool -> !torch.vtensor<[3],f32>
  return %0, %1#0, %2, %3 : !torch.vtensor<[],f32>, !torch.vtensor<[1,4,3,3],f32>, !torch.vtensor<[1,4,2,3],f32>, !torch.vtensor<[3],f32>
}
func.func @unsafe_lists(%x: !torch.vtensor<[2,5],f32>) -> (!torch.vtensor<[1,5],f32>, !torch.vtensor<[1,5],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,2],f32>, !torch.vtensor<[2,4],f32>, !torch.vtensor<[2,0],f32>, !torch.vtensor<[2,1],f32>) {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int-1 = torch.constant.int -1
  %int4 = torch.constant.int 4
  %0 = torch.aten.unsafe_split.Tensor %x, %int1, %int0 : !torch.vtensor<[2,5],f32>, !torch.int, !torch.int -> !torch.list<vtensor>
  %1:2 = torch.prim.ListUnpack %0 : !torch.list<vtensor> -> !torch.vtensor<[1,5],f32>, !torch.vtensor<[1,5],f32>
  %2 = torch.aten.unsafe_chunk %x, %int2, %int-1 : !torch.vtensor<[2,5],f32>, !torch.int, !torch.int -> !torch.list<vtensor>
  %3:2 = torch.prim.ListUnpack %2 : !torch.list<vtensor> -> !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,2],f32>
  %int0_1 = torch.constant.int 0
  %s = torch.prim.ListConstruct %int4, %int0_1, %int1 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %4 = torch.aten.unsafe_split_with_sizes %x, %s, %int1 : !torch.vtensor<[2,5],f32>, !torch.list<int>, !torch.int -> !torch.list<vtensor>
  %5:3 = torch.prim.ListUnpack %4 : !torch.list<vtensor> -> !torch.vtensor<[2,4],f32>, !torch.vtensor<[2,0],f32>, !torch.vtensor<[2,1],f32>
  return %1#0, %1#1, %3#0, %3#1, %5#0, %5#1, %5#2 : !torch.vtensor<[1,5],f32>, !torch.vtensor<[1,5],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,2],f32>, !torch.vtensor<[2,4],f32>, !torch.vtensor<[2,0],f32>, !torch.vtensor<[2,1],f32>
}
