// torch-decompose-complex-ops' own forms (decompose_lit2.c): its rules come
// first and stop where torch-mlir's pass stops; torch-decompose (DECOMP)
// never reads them.
// RUN: torch-opt -p 'func.func(torch-decompose-complex-ops)' %s | FileCheck %s
// RUN: torch-opt -p 'func.func(torch-decompose)' %s | FileCheck --check-prefix=DECOMP %s
// RUN: torch-opt -p 'func.func(torch-decompose-complex-ops)' %s | torch-opt -p '' > /dev/null

// CHECK-LABEL: func.func @diag_1d(
// CHECK:         %[[M2:.*]] = torch.constant.int -2
// CHECK:         %[[M1:.*]] = torch.constant.int -1
// CHECK:         %[[R:.*]] = torch.aten.diag_embed %arg0, %int1, %[[M2]], %[[M1]] : !torch.vtensor<[3],f32>, !torch.int, !torch.int, !torch.int -> !torch.vtensor<[4,4],f32>
// CHECK-NEXT:    return %[[R]]
// DECOMP-LABEL: func.func @diag_1d(
// DECOMP-NOT:     torch.aten.diag
// DECOMP:         return
func.func @diag_1d(%arg0: !torch.vtensor<[3],f32>) -> !torch.vtensor<[4,4],f32> {
  %int1 = torch.constant.int 1
  %0 = torch.aten.diag %arg0, %int1 : !torch.vtensor<[3],f32>, !torch.int -> !torch.vtensor<[4,4],f32>
  return %0 : !torch.vtensor<[4,4],f32>
}

// the input's 0 serves as offset and dim1
// CHECK-LABEL: func.func @diag_2d(
// CHECK:         %[[ONE:.*]] = torch.constant.int 1
// CHECK:         %[[R:.*]] = torch.aten.diagonal %arg0, %int0, %int0, %[[ONE]] : !torch.vtensor<[3,4],f32>, !torch.int, !torch.int, !torch.int -> !torch.vtensor<[3],f32>
// CHECK-NEXT:    return %[[R]]
func.func @diag_2d(%arg0: !torch.vtensor<[3,4],f32>) -> !torch.vtensor<[3],f32> {
  %int0 = torch.constant.int 0
  %0 = torch.aten.diag %arg0, %int0 : !torch.vtensor<[3,4],f32>, !torch.int -> !torch.vtensor<[3],f32>
  return %0 : !torch.vtensor<[3],f32>
}

// rank 3: no rule here, and ours is not tried
// CHECK-LABEL: func.func @diagonal_kept(
// CHECK:         torch.aten.diagonal %arg0
// DECOMP-LABEL: func.func @diagonal_kept(
// DECOMP-NOT:     torch.aten.diagonal
func.func @diagonal_kept(%arg0: !torch.vtensor<[2,3,3],f32>) -> !torch.vtensor<[2,3],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %0 = torch.aten.diagonal %arg0, %int0, %int1, %int2 : !torch.vtensor<[2,3,3],f32>, !torch.int, !torch.int, !torch.int -> !torch.vtensor<[2,3],f32>
  return %0 : !torch.vtensor<[2,3],f32>
}

// CHECK-LABEL: func.func @addbmm(
// CHECK:         %[[P:.*]] = torch.aten.permute %arg1, {{.*}} -> !torch.vtensor<[2,5,9],f32>
// CHECK:         %[[L:.*]] = torch.prims.collapse %[[P]], %int1, %int2 : !torch.vtensor<[2,5,9],f32>, !torch.int, !torch.int -> !torch.vtensor<[2,45],f32>
// CHECK:         %[[R:.*]] = torch.prims.collapse %arg2, %int0, %int1 : !torch.vtensor<[5,9,?],f32>, !torch.int, !torch.int -> !torch.vtensor<[45,?],f32>
// CHECK:         %[[MM:.*]] = torch.aten.mm %[[L]], %[[R]] : {{.*}} -> !torch.vtensor<[2,?],f32>
// CHECK:         %[[S:.*]] = torch.aten.mul.Scalar %arg0, %float5.000000e-01
// CHECK:         %[[A:.*]] = torch.aten.add.Tensor %[[S]], %[[MM]], %float2.000000e00
// CHECK-NEXT:    return %[[A]]
func.func @addbmm(%arg0: !torch.vtensor<[2,?],f32>, %arg1: !torch.vtensor<[5,2,9],f32>, %arg2: !torch.vtensor<[5,9,?],f32>) -> !torch.vtensor<[2,?],f32> {
  %float0_5 = torch.constant.float 5.000000e-01
  %float2 = torch.constant.float 2.000000e+00
  %0 = torch.aten.addbmm %arg0, %arg1, %arg2, %float0_5, %float2 : !torch.vtensor<[2,?],f32>, !torch.vtensor<[5,2,9],f32>, !torch.vtensor<[5,9,?],f32>, !torch.float, !torch.float -> !torch.vtensor<[2,?],f32>
  return %0 : !torch.vtensor<[2,?],f32>
}

// beta 0 (an int): the input is not read, NaN or not
// CHECK-LABEL: func.func @addbmm_beta_zero(
// CHECK-NOT:     %arg0,
// CHECK:         %[[MM:.*]] = torch.aten.mm
// CHECK:         %[[R:.*]] = torch.aten.mul.Scalar %[[MM]], %float2.000000e00
// CHECK-NEXT:    return %[[R]]
func.func @addbmm_beta_zero(%arg0: !torch.vtensor<[2,7],f32>, %arg1: !torch.vtensor<[5,2,9],f32>, %arg2: !torch.vtensor<[5,9,7],f32>) -> !torch.vtensor<[2,7],f32> {
  %int0 = torch.constant.int 0
  %float2 = torch.constant.float 2.000000e+00
  %0 = torch.aten.addbmm %arg0, %arg1, %arg2, %int0, %float2 : !torch.vtensor<[2,7],f32>, !torch.vtensor<[5,2,9],f32>, !torch.vtensor<[5,9,7],f32>, !torch.int, !torch.float -> !torch.vtensor<[2,7],f32>
  return %0 : !torch.vtensor<[2,7],f32>
}

// f16 stays (torch-decompose's rule decomposes it)
// CHECK-LABEL: func.func @addbmm_f16(
// CHECK:         torch.aten.addbmm
// DECOMP-LABEL: func.func @addbmm_f16(
// DECOMP-NOT:     torch.aten.addbmm
// DECOMP:         torch.aten.mm
func.func @addbmm_f16(%arg0: !torch.vtensor<[2,7],f16>, %arg1: !torch.vtensor<[5,2,9],f16>, %arg2: !torch.vtensor<[5,9,7],f16>) -> !torch.vtensor<[2,7],f16> {
  %float0_5 = torch.constant.float 5.000000e-01
  %float2 = torch.constant.float 2.000000e+00
  %0 = torch.aten.addbmm %arg0, %arg1, %arg2, %float0_5, %float2 : !torch.vtensor<[2,7],f16>, !torch.vtensor<[5,2,9],f16>, !torch.vtensor<[5,9,7],f16>, !torch.float, !torch.float -> !torch.vtensor<[2,7],f16>
  return %0 : !torch.vtensor<[2,7],f16>
}
