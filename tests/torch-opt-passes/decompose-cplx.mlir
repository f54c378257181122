// RUN: torch-opt -p torch-decompose,canonicalize,cse %s | FileCheck %s

// torch.norm's aten.norm forms become linalg_vector_norm (decompose_cplx.c):
// norm.Scalar over every dim; norm.ScalarOpt_dim with its dims and keepdim,
// p None as 2, an empty dim list as None (every dim, as in PyTorch).
// CHECK-LABEL: func.func @norm_scalar(
// CHECK:         %[[N:.*]] = torch.aten.linalg_vector_norm %arg0, %int3, %none, %false, %none : !torch.vtensor<[3,4],f32>, !torch.int, !torch.none, !torch.bool, !torch.none -> !torch.vtensor<[],f32>
// CHECK-NEXT:    return %[[N]]
func.func @norm_scalar(%x: !torch.vtensor<[3,4],f32>) -> !torch.vtensor<[],f32> {
  %int3 = torch.constant.int 3
  %0 = torch.aten.norm.Scalar %x, %int3 : !torch.vtensor<[3,4],f32>, !torch.int -> !torch.vtensor<[],f32>
  return %0 : !torch.vtensor<[],f32>
}

// CHECK-LABEL: func.func @norm_dim_keepdim(
// CHECK:         %[[D:.*]] = torch.prim.ListConstruct %int-1, %int0
// CHECK:         %[[N:.*]] = torch.aten.linalg_vector_norm %arg0, %float1.500000e00, %[[D]], %true, %none : !torch.vtensor<[2,3,5],f64>, !torch.float, !torch.list<int>, !torch.bool, !torch.none -> !torch.vtensor<[1,3,1],f64>
// CHECK-NEXT:    return %[[N]]
func.func @norm_dim_keepdim(%x: !torch.vtensor<[2,3,5],f64>) -> !torch.vtensor<[1,3,1],f64> {
  %p = torch.constant.float 1.5
  %int-1 = torch.constant.int -1
  %int0 = torch.constant.int 0
  %true = torch.constant.bool true
  %d = torch.prim.ListConstruct %int-1, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.norm.ScalarOpt_dim %x, %p, %d, %true : !torch.vtensor<[2,3,5],f64>, !torch.float, !torch.list<int>, !torch.bool -> !torch.vtensor<[1,3,1],f64>
  return %0 : !torch.vtensor<[1,3,1],f64>
}

// CHECK-LABEL: func.func @norm_p_none_empty_dims(
// CHECK:         %[[N:.*]] = torch.aten.linalg_vector_norm %arg0, %int2, %none, %false, %none : !torch.vtensor<[2,3],f32>, !torch.int, !torch.none, !torch.bool, !torch.none -> !torch.vtensor<[],f32>
// CHECK-NEXT:    return %[[N]]
func.func @norm_p_none_empty_dims(%x: !torch.vtensor<[2,3],f32>) -> !torch.vtensor {
  %none = torch.constant.none
  %false = torch.constant.bool false
  %d = torch.prim.ListConstruct : () -> !torch.list<int>
  %0 = torch.aten.norm.ScalarOpt_dim %x, %none, %d, %false : !torch.vtensor<[2,3],f32>, !torch.none, !torch.list<int>, !torch.bool -> !torch.vtensor
  return %0 : !torch.vtensor
}

// An integer input (PyTorch refuses its norm) is left alone.
// CHECK-LABEL: func.func @norm_int_left(
// CHECK:         torch.aten.norm.Scalar
func.func @norm_int_left(%x: !torch.vtensor<[3],si64>) -> !torch.vtensor<[],f32> {
  %int2 = torch.constant.int 2
  %0 = torch.aten.norm.Scalar %x, %int2 : !torch.vtensor<[3],si64>, !torch.int -> !torch.vtensor<[],f32>
  return %0 : !torch.vtensor<[],f32>
}
