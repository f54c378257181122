// RUN: torch-opt -p torch-decompose{keep-contract=1},canonicalize,cse %s | FileCheck %s
// RUN: not torch-opt %S/inputs/lin-refused.mlir 2>&1 | FileCheck %S/inputs/lin-refused.mlir

// diagonal(x, -1, dim1 = 1, dim2 = 0): dims 1, 0 moved last, the offset
// sliced off dim1, the [3, 3] corner viewed as [9] and sliced with step 4.
// CHECK-LABEL: func.func @diagonal(
// CHECK:         %[[P:.*]] = torch.aten.permute %arg0, {{.*}} -> !torch.vtensor<[5,4,3],f32>
// CHECK-NEXT:    %[[S:.*]] = torch.aten.slice.Tensor %[[P]], %int1, %int1, %int4, %int1 {{.*}} -> !torch.vtensor<[5,3,3],f32>
// CHECK:         %[[V:.*]] = torch.aten.view %[[S]], {{.*}} -> !torch.vtensor<[5,9],f32>
// CHECK-NEXT:    %[[D:.*]] = torch.aten.slice.Tensor %[[V]], %int1, %int0, %int9, %int4 {{.*}} -> !torch.vtensor<[5,3],f32>
// CHECK-NEXT:    return %[[D]]
func.func @diagonal(%x: !torch.vtensor<[3,4,5],f32>) -> !torch.vtensor<[5,3],f32> {
  %int-1 = torch.constant.int -1
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %0 = torch.aten.diagonal %x, %int-1, %int1, %int0 : !torch.vtensor<[3,4,5],f32>, !torch.int, !torch.int, !torch.int -> !torch.vtensor<[5,3],f32>
  return %0 : !torch.vtensor<[5,3],f32>
}

// diag_embed(x, 1, dim1 = 2, dim2 = 0): where(j - i == 1, x padded by one
// and broadcast along the columns, 0), the plane permuted into place.
// CHECK-LABEL: func.func @diag_embed(
// CHECK:         %[[AR:.*]] = torch.aten.arange.start_step %int0, %int4, %int1, %int4
// CHECK:         %[[I:.*]] = torch.aten.view %[[AR]], {{.*}} -> !torch.vtensor<[4,1],si64>
// CHECK:         %[[J:.*]] = torch.aten.view %[[AR]], {{.*}} -> !torch.vtensor<[1,4],si64>
// CHECK-NEXT:    %[[JI:.*]] = torch.aten.sub.Tensor %[[J]], %[[I]], %int1 {{.*}} -> !torch.vtensor<[4,4],si64>
// CHECK-NEXT:    %[[M:.*]] = torch.aten.eq.Scalar %[[JI]], %int1
// CHECK:         %[[PAD:.*]] = torch.aten.constant_pad_nd %arg0, {{.*}} -> !torch.vtensor<[2,4],si64>
// CHECK-NEXT:    %[[U:.*]] = torch.aten.unsqueeze %[[PAD]], %int2 {{.*}} -> !torch.vtensor<[2,4,1],si64>
// CHECK-NEXT:    %[[W:.*]] = torch.aten.where.ScalarOther %[[M]], %[[U]], %int0 {{.*}} -> !torch.vtensor<[2,4,4],si64>
// CHECK:         %[[R:.*]] = torch.aten.permute %[[W]], {{.*}} -> !torch.vtensor<[4,2,4],si64>
// CHECK-NEXT:    return %[[R]]
func.func @diag_embed(%x: !torch.vtensor<[2,3],si64>) -> !torch.vtensor<[4,2,4],si64> {
  %int1 = torch.constant.int 1
  %int0 = torch.constant.int 0
  %int2 = torch.constant.int 2
  %0 = torch.aten.diag_embed %x, %int1, %int2, %int0 : !torch.vtensor<[2,3],si64>, !torch.int, !torch.int, !torch.int -> !torch.vtensor<[4,2,4],si64>
  return %0 : !torch.vtensor<[4,2,4],si64>
}

// trace of int32: the diagonal summed in int64.
// CHECK-LABEL: func.func @trace(
// CHECK:         %[[S:.*]] = torch.aten.slice.Tensor %arg0, %int1, %int0, %int3, %int1 {{.*}} -> !torch.vtensor<[3,3],si32>
// CHECK:         %[[V:.*]] = torch.aten.view %[[S]], {{.*}} -> !torch.vtensor<[9],si32>
// CHECK-NEXT:    %[[D:.*]] = torch.aten.slice.Tensor %[[V]], %int0, %int0, %int9, %int4 {{.*}} -> !torch.vtensor<[3],si32>
// CHECK-NEXT:    %[[T:.*]] = torch.aten.sum %[[D]], %none {{.*}} -> !torch.vtensor<[],si64>
// CHECK-NEXT:    return %[[T]]
func.func @trace(%x: !torch.vtensor<[3,4],si32>) -> !torch.vtensor<[],si64> {
  %0 = torch.aten.trace %x : !torch.vtensor<[3,4],si32> -> !torch.vtensor<[],si64>
  return %0 : !torch.vtensor<[],si64>
}

// eye.m(2, 3), default dtype: rows == columns, converted to f32.
// CHECK-LABEL: func.func @eye(
// CHECK:         %[[C:.*]] = torch.aten.view {{.*}} -> !torch.vtensor<[1,3],si64>
// CHECK:         %[[R:.*]] = torch.aten.view {{.*}} -> !torch.vtensor<[2,1],si64>
// CHECK-NEXT:    %[[E:.*]] = torch.aten.eq.Tensor %[[R]], %[[C]] {{.*}} -> !torch.vtensor<[2,3],i1>
// CHECK-NEXT:    %[[F:.*]] = torch.aten.to.dtype %[[E]], %int6, {{.*}} -> !torch.vtensor<[2,3],f32>
// CHECK-NEXT:    return %[[F]]
func.func @eye() -> !torch.vtensor<[2,3],f32> {
  %int2 = torch.constant.int 2
  %int3 = torch.constant.int 3
  %none = torch.constant.none
  %0 = torch.aten.eye.m %int2, %int3, %none, %none, %none, %none : !torch.int, !torch.int, !torch.none, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[2,3],f32>
  return %0 : !torch.vtensor<[2,3],f32>
}

// linspace(0, 10, 12, int64): eager's values, 5 and 6 missing (the
// vector block from index 4 steps from its base 3 without rounding back),
// i.e. 0 0 1 2 3 3 4 5 7 8 9 10.
// CHECK-LABEL: func.func @linspace(
// CHECK:         torch.vtensor.literal(dense_resource<torch_linspace> : tensor<12xi64>)
// (its bytes are checked at the end of the file, where they print)
func.func @linspace() -> !torch.vtensor<[12],si64> {
  %float0 = torch.constant.float 0.0
  %float10 = torch.constant.float 10.0
  %int12 = torch.constant.int 12
  %int4 = torch.constant.int 4
  %none = torch.constant.none
  %0 = torch.aten.linspace %float0, %float10, %int12, %int4, %none, %none, %none : !torch.float, !torch.float, !torch.int, !torch.int, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[12],si64>
  return %0 : !torch.vtensor<[12],si64>
}

// linalg_cross(a [1, 3], b [2, 3]): a expanded, both rolled by -1 and -2,
// a[k+1] b[k+2] - a[k+2] b[k+1].
// CHECK-LABEL: func.func @cross(
// CHECK:         %[[A:.*]] = torch.aten.expand %arg0, {{.*}} -> !torch.vtensor<[2,3],f32>
// CHECK:         %[[A1:.*]] = torch.aten.roll %[[A]], %[[M1:.*]], %[[DIM:.*]] :
// CHECK:         %[[A2:.*]] = torch.aten.roll %[[A]], %[[M2:.*]], %[[DIM]] :
// CHECK-NEXT:    %[[B1:.*]] = torch.aten.roll %arg1, %[[M1]], %[[DIM]] :
// CHECK-NEXT:    %[[B2:.*]] = torch.aten.roll %arg1, %[[M2]], %[[DIM]] :
// CHECK-NEXT:    %[[Y:.*]] = torch.aten.mul.Tensor %[[A2]], %[[B1]]
// CHECK-NEXT:    %[[X:.*]] = torch.aten.mul.Tensor %[[A1]], %[[B2]]
// CHECK-NEXT:    %[[C:.*]] = torch.aten.sub.Tensor %[[X]], %[[Y]], %int1
// CHECK-NEXT:    return %[[C]]
func.func @cross(%a: !torch.vtensor<[1,3],f32>, %b: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2,3],f32> {
  %int-1 = torch.constant.int -1
  %0 = torch.aten.linalg_cross %a, %b, %int-1 : !torch.vtensor<[1,3],f32>, !torch.vtensor<[2,3],f32>, !torch.int -> !torch.vtensor<[2,3],f32>
  return %0 : !torch.vtensor<[2,3],f32>
}

// pixel_shuffle(x, 2): [N, C, 2, 2, H, W] -> [N, C, H, 2, W, 2].
// CHECK-LABEL: func.func @pixel_shuffle(
// CHECK:         %[[V:.*]] = torch.aten.view %arg0, {{.*}} -> !torch.vtensor<[2,2,2,2,3,5],f32>
// CHECK:         %[[P:.*]] = torch.aten.permute %[[V]], {{.*}} -> !torch.vtensor<[2,2,3,2,5,2],f32>
// CHECK:         %[[R:.*]] = torch.aten.view %[[P]], {{.*}} -> !torch.vtensor<[2,2,6,10],f32>
// CHECK-NEXT:    return %[[R]]
func.func @pixel_shuffle(%x: !torch.vtensor<[2,8,3,5],f32>) -> !torch.vtensor<[2,2,6,10],f32> {
  %int2 = torch.constant.int 2
  %0 = torch.aten.pixel_shuffle %x, %int2 : !torch.vtensor<[2,8,3,5],f32>, !torch.int -> !torch.vtensor<[2,2,6,10],f32>
  return %0 : !torch.vtensor<[2,2,6,10],f32>
}

// rot90(x, -5, [0, 1]): k = 3, dims[0] flipped, then transposed.
// CHECK-LABEL: func.func @rot90(
// CHECK:         %[[L:.*]] = torch.prim.ListConstruct %int0 :
// CHECK-NEXT:    %[[F:.*]] = torch.aten.flip %arg0, %[[L]]
// CHECK-NEXT:    %[[T:.*]] = torch.aten.transpose.int %[[F]], %int0, %int1 {{.*}} -> !torch.vtensor<[5,4],f32>
// CHECK-NEXT:    return %[[T]]
func.func @rot90(%x: !torch.vtensor<[4,5],f32>) -> !torch.vtensor<[5,4],f32> {
  %int-5 = torch.constant.int -5
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %d = torch.prim.ListConstruct %int0, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.rot90 %x, %int-5, %d : !torch.vtensor<[4,5],f32>, !torch.int, !torch.list<int> -> !torch.vtensor<[5,4],f32>
  return %0 : !torch.vtensor<[5,4],f32>
}

// addbmm with beta 0: one mm over the batch folded into the contraction,
// scaled by alpha; self is not read (its NaN do not propagate).
// CHECK-LABEL: func.func @addbmm(
// CHECK:         %[[T:.*]] = torch.aten.transpose.int %arg1, %int0, %int1 {{.*}} -> !torch.vtensor<[2,5,9],f32>
// CHECK:         %[[X:.*]] = torch.aten.view %[[T]], {{.*}} -> !torch.vtensor<[2,45],f32>
// CHECK:         %[[Y:.*]] = torch.aten.view %arg2, {{.*}} -> !torch.vtensor<[45,7],f32>
// CHECK-NEXT:    %[[M:.*]] = torch.aten.mm %[[X]], %[[Y]]
// CHECK-NEXT:    %[[R:.*]] = torch.aten.mul.Scalar %[[M]], %float2.000000e00
// CHECK-NOT:     %arg0
// CHECK:         return %[[R]]
func.func @addbmm(%s: !torch.vtensor<[2,7],f32>, %x: !torch.vtensor<[5,2,9],f32>, %y: !torch.vtensor<[5,9,7],f32>) -> !torch.vtensor<[2,7],f32> {
  %float0 = torch.constant.float 0.0
  %float2 = torch.constant.float 2.0
  %0 = torch.aten.addbmm %s, %x, %y, %float0, %float2 : !torch.vtensor<[2,7],f32>, !torch.vtensor<[5,2,9],f32>, !torch.vtensor<[5,9,7],f32>, !torch.float, !torch.float -> !torch.vtensor<[2,7],f32>
  return %0 : !torch.vtensor<[2,7],f32>
}

// det of [3, 2, 2]: the pivot row (argmax of |column 0|) gathered to the
// top, a zero pivot divided as 1, the trailing 1x1 block's entry the
// second pivot; det = d0 * d1 * (-1 where rows swapped).
// CHECK-LABEL: func.func @det(
// CHECK:         %[[C:.*]] = torch.aten.select.int %arg0, %int2, %int0
// CHECK-NEXT:    %[[A:.*]] = torch.aten.abs %[[C]]
// CHECK-NEXT:    %[[P:.*]] = torch.aten.argmax %[[A]], %int1, %true {{.*}} -> !torch.vtensor<[3,1],si64>
// CHECK:         %[[G:.*]] = torch.aten.gather %arg0, %int1, {{.*}} -> !torch.vtensor<[3,2,2],f32>
// CHECK-NEXT:    %[[SW:.*]] = torch.aten.ne.Scalar %[[P]], %int0
// CHECK:         %[[D0:.*]] = torch.aten.select.int {{.*}} -> !torch.vtensor<[3],f32>
// CHECK-NEXT:    %[[Z:.*]] = torch.aten.eq.Scalar %[[D0]], %int0
// CHECK-NEXT:    %[[SAFE:.*]] = torch.aten.masked_fill.Scalar %[[D0]], %[[Z]], %int1
// CHECK:         torch.aten.div.Tensor
// CHECK:         %[[S:.*]] = torch.aten.sub.Tensor
// CHECK:         %[[D1:.*]] = torch.aten.select.int {{.*}} -> !torch.vtensor<[3],f32>
// CHECK:         %[[SG:.*]] = torch.aten.where.Scalar {{.*}}, %float-1.000000e00, %float1.000000e00
// CHECK-NEXT:    %[[M:.*]] = torch.aten.mul.Tensor %[[D0]], %[[D1]]
// CHECK-NEXT:    %[[R:.*]] = torch.aten.mul.Tensor %[[M]], %[[SG]]
// CHECK-NEXT:    return %[[R]]
func.func @det(%x: !torch.vtensor<[3,2,2],f32>) -> !torch.vtensor<[3],f32> {
  %0:3 = torch.aten._linalg_det %x : !torch.vtensor<[3,2,2],f32> -> !torch.vtensor<[3],f32>, !torch.vtensor<[3,2,2],f32>, !torch.vtensor<[3,2],si32>
  return %0#0 : !torch.vtensor<[3],f32>
}

// aminmax(x, -1): amin and amax over the normalized dim.
// CHECK-LABEL: func.func @aminmax(
// CHECK:         %[[L:.*]] = torch.prim.ListConstruct %int1 :
// CHECK-NEXT:    %[[MN:.*]] = torch.aten.amin %arg0, %[[L]], %false
// CHECK-NEXT:    %[[MX:.*]] = torch.aten.amax %arg0, %[[L]], %false
// CHECK-NEXT:    return %[[MN]], %[[MX]]
func.func @aminmax(%x: !torch.vtensor<[3,4],f32>) -> (!torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>) {
  %int-1 = torch.constant.int -1
  %false = torch.constant.bool false
  %0:2 = torch.aten.aminmax %x, %int-1, %false : !torch.vtensor<[3,4],f32>, !torch.int, !torch.bool -> !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>
  return %0#0, %0#1 : !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>
}

// The linspace literal's bytes (after an alignment word): 0 0 1 2 3 3 4 5 7 8 9 10.
// CHECK:         torch_linspace: "0x40000000000000000000000000000000000000000100000000000000020000000000000003000000000000000300000000000000040000000000000005000000000000000700000000000000080000000000000009000000000000000A00000000000000"
