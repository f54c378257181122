// RUN: torch-opt %s -canonicalize -split-input-file | FileCheck %s

// Scalar folds on constants (lib/torch/canon_scalar.c), and what Python
// would raise on or compute otherwise, which must stay.

// CHECK-LABEL: func.func @range_length(
// CHECK-DAG:     %[[I0:.*]] = torch.constant.int 0
// CHECK-DAG:     %[[I3:.*]] = torch.constant.int 3
// CHECK-DAG:     %[[IM2:.*]] = torch.constant.int -2
// CHECK:         %[[NEG:.*]] = torch.aten.__range_length %{{.*}}, %{{.*}}, %[[IM2]]
// CHECK:         return %[[I3]], %[[I0]], %[[NEG]]
func.func @range_length() -> (!torch.int, !torch.int, !torch.int) {
  %int-5 = torch.constant.int -5
  %int2 = torch.constant.int 2
  %int1 = torch.constant.int 1
  %int9 = torch.constant.int 9
  %int-2 = torch.constant.int -2
  // len(range(-5, 1, 2)) = 3; len(range(9, 1, 2)) = 0
  %0 = torch.aten.__range_length %int-5, %int1, %int2 : !torch.int, !torch.int, !torch.int -> !torch.int
  %1 = torch.aten.__range_length %int9, %int1, %int2 : !torch.int, !torch.int, !torch.int -> !torch.int
  %2 = torch.aten.__range_length %int9, %int1, %int-2 : !torch.int, !torch.int, !torch.int -> !torch.int
  return %0, %1, %2 : !torch.int, !torch.int, !torch.int
}

// -----

// CHECK-LABEL: func.func @min_max(
// CHECK-DAG:     %[[IM7:.*]] = torch.constant.int -7
// CHECK-DAG:     %[[I4:.*]] = torch.constant.int 4
// CHECK:         %[[M:.*]] = torch.prim.max.int %arg0, %[[I4]]
// CHECK:         return %arg0, %[[IM7]], %[[I4]], %[[M]], %[[IM7]]
func.func @min_max(%arg0: !torch.int) -> (!torch.int, !torch.int, !torch.int, !torch.int, !torch.int) {
  %int-7 = torch.constant.int -7
  %int4 = torch.constant.int 4
  %0 = torch.prim.min.int %arg0, %arg0 : !torch.int, !torch.int -> !torch.int
  %1 = torch.prim.min.int %int4, %int-7 : !torch.int, !torch.int -> !torch.int
  %2 = torch.prim.max.int %int-7, %int4 : !torch.int, !torch.int -> !torch.int
  %3 = torch.prim.max.int %arg0, %int4 : !torch.int, !torch.int -> !torch.int
  %l = torch.prim.ListConstruct %int4, %int-7, %int4 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %4 = torch.prim.min.self_int %l : !torch.list<int> -> !torch.int
  return %0, %1, %2, %3, %4 : !torch.int, !torch.int, !torch.int, !torch.int, !torch.int
}

// -----

// A list that an append may have changed is not a list of constants.
// CHECK-LABEL: func.func @min_of_mutated_list(
// CHECK:         torch.prim.max.self_int
func.func @min_of_mutated_list() -> !torch.int {
  %int4 = torch.constant.int 4
  %int9 = torch.constant.int 9
  %l = torch.prim.ListConstruct %int4 : (!torch.int) -> !torch.list<int>
  %a = torch.aten.append.t %l, %int9 : !torch.list<int>, !torch.int -> !torch.list<int>
  %0 = torch.prim.max.self_int %l : !torch.list<int> -> !torch.int
  return %0 : !torch.int
}

// -----

// len counts code points: "héllo" is 5, not its 6 bytes.
// CHECK-LABEL: func.func @strings(
// CHECK-DAG:     %[[I5:.*]] = torch.constant.int 5
// CHECK-DAG:     %[[T:.*]] = torch.constant.bool true
// CHECK-DAG:     %[[F:.*]] = torch.constant.bool false
// CHECK:         %[[NE:.*]] = torch.aten.eq.str %arg0, %{{.*}}
// CHECK:         return %[[I5]], %[[T]], %[[F]], %[[F]], %[[NE]]
func.func @strings(%arg0: !torch.str) -> (!torch.int, !torch.bool, !torch.bool, !torch.bool, !torch.bool) {
  %s = torch.constant.str "héllo"
  %t = torch.constant.str "hello"
  %0 = torch.aten.len.str %s : !torch.str -> !torch.int
  %1 = torch.aten.eq.str %arg0, %arg0 : !torch.str, !torch.str -> !torch.bool
  %2 = torch.aten.ne.str %arg0, %arg0 : !torch.str, !torch.str -> !torch.bool
  %3 = torch.aten.eq.str %s, %t : !torch.str, !torch.str -> !torch.bool
  %4 = torch.aten.eq.str %arg0, %t : !torch.str, !torch.str -> !torch.bool
  return %0, %1, %2, %3, %4 : !torch.int, !torch.bool, !torch.bool, !torch.bool, !torch.bool
}

// -----

// (-8) ** 0.5 is complex in Python and 0 ** -1.0 raises: neither folds.
// CHECK-LABEL: func.func @float_math(
// CHECK-DAG:     %[[P:.*]] = torch.constant.float 1.250000e-01
// CHECK-DAG:     %[[S:.*]] = torch.constant.float 3.000000e+00
// CHECK-DAG:     %[[C:.*]] = torch.constant.int -2
// CHECK:         %[[N1:.*]] = torch.aten.pow.int_float
// CHECK:         %[[N2:.*]] = torch.aten.pow.int_float
// CHECK:         %[[N3:.*]] = torch.aten.sqrt.int
// CHECK:         %[[N4:.*]] = torch.aten.ceil.float
// CHECK:         return %[[P]], %[[N1]], %[[N2]], %[[S]], %[[N3]], %[[C]], %[[N4]]
func.func @float_math() -> (!torch.float, !torch.float, !torch.float, !torch.float, !torch.float, !torch.int, !torch.int) {
  %int2 = torch.constant.int 2
  %int-8 = torch.constant.int -8
  %int0 = torch.constant.int 0
  %int9 = torch.constant.int 9
  %float-3 = torch.constant.float -3.0
  %float0.5 = torch.constant.float 0.5
  %float-1 = torch.constant.float -1.0
  %float-2.5 = torch.constant.float -2.5
  %inf = torch.constant.float 0x7FF0000000000000
  %0 = torch.aten.pow.int_float %int2, %float-3 : !torch.int, !torch.float -> !torch.float
  %1 = torch.aten.pow.int_float %int-8, %float0.5 : !torch.int, !torch.float -> !torch.float
  %2 = torch.aten.pow.int_float %int0, %float-1 : !torch.int, !torch.float -> !torch.float
  %3 = torch.aten.sqrt.int %int9 : !torch.int -> !torch.float
  %4 = torch.aten.sqrt.int %int-8 : !torch.int -> !torch.float
  %5 = torch.aten.ceil.float %float-2.5 : !torch.float -> !torch.int
  %6 = torch.aten.ceil.float %inf : !torch.float -> !torch.int
  return %0, %1, %2, %3, %4, %5, %6 : !torch.float, !torch.float, !torch.float, !torch.float, !torch.float, !torch.int, !torch.int
}

// -----

// (x * 3) * 5 is x * 15 even when the products wrap around int64.
// CHECK-LABEL: func.func @misc(
// CHECK-DAG:     %[[I15:.*]] = torch.constant.int 15
// CHECK-DAG:     %[[D:.*]] = torch.constant.int 6
// CHECK-DAG:     %[[T:.*]] = torch.constant.bool true
// CHECK-DAG:     %[[F:.*]] = torch.constant.bool false
// CHECK:         %[[M:.*]] = torch.aten.mul.int %arg0, %[[I15]]
// CHECK-NOT:     torch.runtime.assert
// CHECK:         return %[[M]], %[[D]], %[[T]], %[[F]], %[[F]]
func.func @misc(%arg0: !torch.int, %t: !torch.vtensor<[?],f32>) -> (!torch.int, !torch.int, !torch.bool, !torch.bool, !torch.bool) {
  %int3 = torch.constant.int 3
  %int5 = torch.constant.int 5
  %int0 = torch.constant.int 0
  %true = torch.constant.bool true
  %false = torch.constant.bool false
  torch.runtime.assert %true, "never"
  %0 = torch.aten.mul.int %arg0, %int3 : !torch.int, !torch.int -> !torch.int
  %1 = torch.aten.mul.int %0, %int5 : !torch.int, !torch.int -> !torch.int
  %2 = torch.prim.dtype %t : !torch.vtensor<[?],f32> -> !torch.int
  %s = torch.aten.size.int %t, %int0 : !torch.vtensor<[?],f32>, !torch.int -> !torch.int
  %3 = torch.aten.ge.int %s, %int0 : !torch.int, !torch.int -> !torch.bool
  %4 = torch.aten.lt.int %s, %int0 : !torch.int, !torch.int -> !torch.bool
  %l = torch.prim.ListConstruct %true, %false : (!torch.bool, !torch.bool) -> !torch.list<bool>
  %5 = torch.aten.all.bool %l : !torch.list<bool> -> !torch.bool
  return %1, %2, %3, %4, %5 : !torch.int, !torch.int, !torch.bool, !torch.bool, !torch.bool
}

// -----

// An assert of false stays (it fails at run time).
// CHECK-LABEL: func.func @assert_false(
// CHECK:         torch.runtime.assert
func.func @assert_false() {
  %false = torch.constant.bool false
  torch.runtime.assert %false, "fails"
  return
}
