// Python scalars returned by a graph (fx-import makes each a 0-dim
// aten.scalar_tensor with the Python value's dtype: si64, f64, i1) and
// x.shape unpacked (torch.prim.ListUnpack of aten.size): static sizes are
// constants; a dynamic size is left for a later stage to refuse.
// RUN: torch-opt -p torch-decompose,canonicalize{torch-mlir-forms=0},cse %s | FileCheck %s
// RUN: not torch-opt %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=ERR

// CHECK-LABEL: func.func @shape(
// CHECK-DAG:     %[[I5:.*]] = torch.constant.int 5
// CHECK-DAG:     %[[I3:.*]] = torch.constant.int 3
// CHECK-DAG:     %[[I4:.*]] = torch.constant.int 4
// CHECK-NOT:     torch.aten.size
// CHECK-NOT:     torch.prim.ListUnpack
// CHECK:         %[[A:.*]] = torch.aten.full %{{.*}}, %[[I5]], %[[I4]], {{.*}} -> !torch.vtensor<[],si64>
// CHECK-NEXT:    %[[B:.*]] = torch.aten.full %{{.*}}, %[[I3]], %[[I4]], {{.*}} -> !torch.vtensor<[],si64>
// CHECK-NEXT:    return %[[A]], %[[B]]
func.func @shape(%arg0: !torch.vtensor<[5,3],f32>) -> (!torch.vtensor<[],si64>, !torch.vtensor<[],si64>) {
  %0 = torch.aten.size %arg0 : !torch.vtensor<[5,3],f32> -> !torch.list<int>
  %1:2 = torch.prim.ListUnpack %0 : !torch.list<int> -> !torch.int, !torch.int
  %int4 = torch.constant.int 4
  %none = torch.constant.none
  %2 = torch.aten.scalar_tensor %1#0, %int4, %none, %none, %none : !torch.int, !torch.int, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[],si64>
  %3 = torch.aten.scalar_tensor %1#1, %int4, %none, %none, %none : !torch.int, !torch.int, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[],si64>
  return %2, %3 : !torch.vtensor<[],si64>, !torch.vtensor<[],si64>
}

// A dynamic dimension: the unpack stays, and the full pipeline refuses it.
// ERR-NOT:  error
// ERR:      :[[@LINE+7]]:8: error: 'aten.size' is not supported by the backend contract
// ERR-NEXT: :[[@LINE+7]]:10: error: 'torch.prim.ListUnpack' is not supported by the backend contract
// ERR-NOT:  error
// CHECK-LABEL: func.func @dynamic_shape(
// CHECK:         torch.aten.size %arg0
// CHECK:         torch.prim.ListUnpack
func.func @dynamic_shape(%arg0: !torch.vtensor<[?,3],f32>) -> (!torch.int, !torch.int) {
  %0 = torch.aten.size %arg0 : !torch.vtensor<[?,3],f32> -> !torch.list<int>
  %1:2 = torch.prim.ListUnpack %0 : !torch.list<int> -> !torch.int, !torch.int
  return %1#0, %1#1 : !torch.int, !torch.int
}

// A float keeps float64 (not the f32 of a wrapped number), a bool is i1.
// CHECK-LABEL: func.func @float_bool(
// CHECK:         torch.aten.full %{{.*}}, %float2.2360679774997898, %int7, {{.*}} -> !torch.vtensor<[],f64>
// CHECK:         torch.aten.full %{{.*}}, %true, %int11, {{.*}} -> !torch.vtensor<[],i1>
func.func @float_bool() -> (!torch.vtensor<[],f64>, !torch.vtensor<[],i1>) {
  %f = torch.constant.float 2.2360679774997898
  %t = torch.constant.bool true
  %int7 = torch.constant.int 7
  %int11 = torch.constant.int 11
  %none = torch.constant.none
  %0 = torch.aten.scalar_tensor %f, %int7, %none, %none, %none : !torch.float, !torch.int, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[],f64>
  %1 = torch.aten.scalar_tensor %t, %int11, %none, %none, %none : !torch.bool, !torch.int, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[],i1>
  return %0, %1 : !torch.vtensor<[],f64>, !torch.vtensor<[],i1>
}

// is_floating_point / is_complex of a known dtype are constants.
// CHECK-LABEL: func.func @dtype_tests(
// CHECK-DAG:     %[[T:.*]] = torch.constant.bool true
// CHECK-DAG:     %[[F:.*]] = torch.constant.bool false
// CHECK:         return %[[T]], %[[T]], %[[F]], %[[F]], %[[F]], %[[F]] :
func.func @dtype_tests(%a: !torch.vtensor<[2],f32>, %b: !torch.vtensor<[],f16>, %c: !torch.vtensor<[3],si64>, %d: !torch.vtensor<[3],i1>) -> (!torch.bool, !torch.bool, !torch.bool, !torch.bool, !torch.bool, !torch.bool) {
  %0 = torch.aten.is_floating_point %a : !torch.vtensor<[2],f32> -> !torch.bool
  %1 = torch.aten.is_floating_point %b : !torch.vtensor<[],f16> -> !torch.bool
  %2 = torch.aten.is_floating_point %c : !torch.vtensor<[3],si64> -> !torch.bool
  %3 = torch.aten.is_floating_point %d : !torch.vtensor<[3],i1> -> !torch.bool
  %4 = torch.aten.is_complex %a : !torch.vtensor<[2],f32> -> !torch.bool
  %5 = torch.aten.is_complex %c : !torch.vtensor<[3],si64> -> !torch.bool
  return %0, %1, %2, %3, %4, %5 : !torch.bool, !torch.bool, !torch.bool, !torch.bool, !torch.bool, !torch.bool
}
