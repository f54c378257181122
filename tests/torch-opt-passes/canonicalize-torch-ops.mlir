// RUN: torch-opt -p canonicalize %s | FileCheck %s

// Tensor-level folds: x * 1, x + 0, x / 1, transpose of transpose, t of
// t, squeeze of unsqueeze, a view back to the input's shape, no-op views,
// expands, slices and _to_copy, size.int of a static dim, len and items
// of a list of constants, dim of a ranked tensor.
// CHECK-LABEL: func.func @folds(
// CHECK-NEXT:    %[[I3:.*]] = torch.constant.int 3
// CHECK-NEXT:    %[[I2:.*]] = torch.constant.int 2
// CHECK-NEXT:    return %arg0, %arg0, %arg0, %arg0, %arg0, %arg0, %arg0, %arg0, %arg0, %arg0, %arg0, %[[I3]], %[[I2]], %[[I3]], %[[I2]]
func.func @folds(%x: !torch.vtensor<[2,3],f32>) -> (!torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],f32>, !torch.int, !torch.int, !torch.int, !torch.int) {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int3 = torch.constant.int 3
  %int-1 = torch.constant.int -1
  %float1 = torch.constant.float 1.000000e+00
  %false = torch.constant.bool false
  %none = torch.constant.none
  %zeros = torch.vtensor.literal(dense<0.000000e+00> : tensor<3xf32>) : !torch.vtensor<[3],f32>
  %0 = torch.aten.mul.Scalar %x, %int1 : !torch.vtensor<[2,3],f32>, !torch.int -> !torch.vtensor<[2,3],f32>
  %1 = torch.aten.add.Tensor %x, %zeros, %int3 : !torch.vtensor<[2,3],f32>, !torch.vtensor<[3],f32>, !torch.int -> !torch.vtensor<[2,3],f32>
  %2 = torch.aten.div.Scalar %x, %float1 : !torch.vtensor<[2,3],f32>, !torch.float -> !torch.vtensor<[2,3],f32>
  %t0 = torch.aten.transpose.int %x, %int0, %int1 : !torch.vtensor<[2,3],f32>, !torch.int, !torch.int -> !torch.vtensor<[3,2],f32>
  %3 = torch.aten.transpose.int %t0, %int1, %int0 : !torch.vtensor<[3,2],f32>, !torch.int, !torch.int -> !torch.vtensor<[2,3],f32>
  %t1 = torch.aten.t %x : !torch.vtensor<[2,3],f32> -> !torch.vtensor<[3,2],f32>
  %4 = torch.aten.t %t1 : !torch.vtensor<[3,2],f32> -> !torch.vtensor<[2,3],f32>
  %u = torch.aten.unsqueeze %x, %int1 : !torch.vtensor<[2,3],f32>, !torch.int -> !torch.vtensor<[2,1,3],f32>
  %5 = torch.aten.squeeze.dim %u, %int1 : !torch.vtensor<[2,1,3],f32>, !torch.int -> !torch.vtensor<[2,3],f32>
  %l6 = torch.prim.ListConstruct %int-1 : (!torch.int) -> !torch.list<int>
  %v = torch.aten.view %x, %l6 : !torch.vtensor<[2,3],f32>, !torch.list<int> -> !torch.vtensor<[6],f32>
  %l23 = torch.prim.ListConstruct %int2, %int3 : (!torch.int, !torch.int) -> !torch.list<int>
  %6 = torch.aten.view %v, %l23 : !torch.vtensor<[6],f32>, !torch.list<int> -> !torch.vtensor<[2,3],f32>
  %7 = torch.aten.view %x, %l23 : !torch.vtensor<[2,3],f32>, !torch.list<int> -> !torch.vtensor<[2,3],f32>
  %8 = torch.aten.expand %x, %l23, %false : !torch.vtensor<[2,3],f32>, !torch.list<int>, !torch.bool -> !torch.vtensor<[2,3],f32>
  %9 = torch.aten.slice.Tensor %x, %int1, %int0, %int3, %int1 : !torch.vtensor<[2,3],f32>, !torch.int, !torch.int, !torch.int, !torch.int -> !torch.vtensor<[2,3],f32>
  %10 = torch.aten._to_copy %x, %none, %none, %none, %none, %false, %none : !torch.vtensor<[2,3],f32>, !torch.none, !torch.none, !torch.none, !torch.none, !torch.bool, !torch.none -> !torch.vtensor<[2,3],f32>
  %11 = torch.aten.size.int %x, %int-1 : !torch.vtensor<[2,3],f32>, !torch.int -> !torch.int
  %12 = torch.aten.len.t %l23 : !torch.list<int> -> !torch.int
  %13 = torch.aten.__getitem__.t %l23, %int-1 : !torch.list<int>, !torch.int -> !torch.int
  %14 = torch.aten.dim %x : !torch.vtensor<[2,3],f32> -> !torch.int
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14 : !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],f32>, !torch.int, !torch.int, !torch.int, !torch.int
}

// A fold that would change the result type does not apply: x + 0 that
// broadcasts stays.
// CHECK-LABEL: func.func @keeps(
// CHECK:         torch.aten.add.Tensor
func.func @keeps(%x: !torch.vtensor<[3],f32>) -> !torch.vtensor<[2,3],f32> {
  %int1 = torch.constant.int 1
  %zeros = torch.vtensor.literal(dense<0.000000e+00> : tensor<2x3xf32>) : !torch.vtensor<[2,3],f32>
  %0 = torch.aten.add.Tensor %x, %zeros, %int1 : !torch.vtensor<[3],f32>, !torch.vtensor<[2,3],f32>, !torch.int -> !torch.vtensor<[2,3],f32>
  return %0 : !torch.vtensor<[2,3],f32>
}
