// RUN: torch-opt -p canonicalize --split-input-file %s | FileCheck %s

// Scalar arithmetic on torch constants folds to torch constants, with
// Python's rounding for // and %; division by zero stays.
// CHECK-LABEL: func.func @ints
// CHECK-NEXT:    %[[ZERO:.*]] = torch.constant.int 0
// CHECK-NEXT:    %[[I10:.*]] = torch.constant.int 10
// CHECK-NEXT:    %[[I4:.*]] = torch.constant.int 4
// CHECK-NEXT:    %[[I21:.*]] = torch.constant.int 21
// CHECK-NEXT:    %[[IM7:.*]] = torch.constant.int -7
// CHECK-NEXT:    %[[IM3:.*]] = torch.constant.int -3
// CHECK-NEXT:    %[[I2:.*]] = torch.constant.int 2
// CHECK-NEXT:    %[[DIV0:.*]] = torch.aten.floordiv.int %[[I21]], %[[ZERO]]
// CHECK-NEXT:    return %[[I10]], %[[I4]], %[[I21]], %[[IM3]], %[[I2]], %[[IM7]], %[[DIV0]]
func.func @ints() -> (!torch.int, !torch.int, !torch.int, !torch.int, !torch.int, !torch.int, !torch.int) {
  %int7 = torch.constant.int 7
  %int3 = torch.constant.int 3
  %int0 = torch.constant.int 0
  %0 = torch.aten.add.int %int7, %int3 : !torch.int, !torch.int -> !torch.int
  %1 = torch.aten.sub.int %int7, %int3 : !torch.int, !torch.int -> !torch.int
  %2 = torch.aten.mul.int %int7, %int3 : !torch.int, !torch.int -> !torch.int
  %m7 = torch.aten.neg.int %int7 : !torch.int -> !torch.int
  %3 = torch.aten.floordiv.int %m7, %int3 : !torch.int, !torch.int -> !torch.int
  %4 = torch.aten.remainder.int %m7, %int3 : !torch.int, !torch.int -> !torch.int
  %5 = torch.aten.floordiv.int %2, %int0 : !torch.int, !torch.int -> !torch.int
  return %0, %1, %2, %3, %4, %m7, %5 : !torch.int, !torch.int, !torch.int, !torch.int, !torch.int, !torch.int, !torch.int
}

// -----

// Comparisons give torch.constant.bool; ints and floats mix; Int(float)
// truncates.
// CHECK-LABEL: func.func @mixed
// CHECK-DAG:     %[[T:.*]] = torch.constant.bool true
// CHECK-DAG:     %[[F:.*]] = torch.constant.bool false
// CHECK-DAG:     %[[FL:.*]] = torch.constant.float 3.500000e+00
// CHECK-DAG:     %[[Q:.*]] = torch.constant.float 1.750000e+00
// CHECK-DAG:     %[[I3:.*]] = torch.constant.int 3
// CHECK-NOT:     torch.aten
// CHECK:         return %[[T]], %[[F]], %[[T]], %[[T]], %[[FL]], %[[Q]], %[[I3]]
func.func @mixed(%x: !torch.int) -> (!torch.bool, !torch.bool, !torch.bool, !torch.bool, !torch.float, !torch.float, !torch.int) {
  %int2 = torch.constant.int 2
  %int3 = torch.constant.int 3
  %int4 = torch.constant.int 4
  %int7 = torch.constant.int 7
  %float = torch.constant.float 1.5
  %0 = torch.aten.lt.int %int2, %int3 : !torch.int, !torch.int -> !torch.bool
  %1 = torch.aten.eq.int %int2, %int3 : !torch.int, !torch.int -> !torch.bool
  %2 = torch.aten.ge.int %x, %x : !torch.int, !torch.int -> !torch.bool
  %3 = torch.aten.lt.float_int %float, %int3 : !torch.float, !torch.int -> !torch.bool
  %4 = torch.aten.add.float_int %float, %int2 : !torch.float, !torch.int -> !torch.float
  %5 = torch.aten.div.int %int7, %int4 : !torch.int, !torch.int -> !torch.float
  %6 = torch.aten.Int.float %4 : !torch.float -> !torch.int
  return %0, %1, %2, %3, %4, %5, %6 : !torch.bool, !torch.bool, !torch.bool, !torch.bool, !torch.float, !torch.float, !torch.int
}

// -----

// x + 0, 1 * x and x - 0 are x; x * 0 is 0.
// CHECK-LABEL: func.func @identities
// CHECK-SAME:    (%[[X:.*]]: !torch.int)
// CHECK-NEXT:    %[[Z:.*]] = torch.constant.int 0
// CHECK-NEXT:    return %[[X]], %[[X]], %[[X]], %[[Z]]
func.func @identities(%x: !torch.int) -> (!torch.int, !torch.int, !torch.int, !torch.int) {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %0 = torch.aten.add.int %x, %int0 : !torch.int, !torch.int -> !torch.int
  %1 = torch.aten.mul.int %int1, %x : !torch.int, !torch.int -> !torch.int
  %2 = torch.aten.sub.int %x, %int0 : !torch.int, !torch.int -> !torch.int
  %3 = torch.aten.mul.int %x, %int0 : !torch.int, !torch.int -> !torch.int
  return %0, %1, %2, %3 : !torch.int, !torch.int, !torch.int, !torch.int
}

// -----

// size.int of a static dimension (negative counts from the end) folds;
// a dynamic one stays.  A static-info cast to the same type is its operand.
// CHECK-LABEL: func.func @shapes
// CHECK-SAME:    (%[[T:.*]]: !torch.vtensor<[4,?,6],f32>)
// CHECK-NEXT:    %[[I1:.*]] = torch.constant.int 1
// CHECK-NEXT:    %[[I4:.*]] = torch.constant.int 4
// CHECK-NEXT:    %[[I6:.*]] = torch.constant.int 6
// CHECK-NEXT:    %[[D:.*]] = torch.aten.size.int %[[T]], %[[I1]]
// CHECK-NEXT:    %[[C:.*]] = torch.tensor_static_info_cast %[[T]] : !torch.vtensor<[4,?,6],f32> to !torch.vtensor<*,f32>
// CHECK-NEXT:    return %[[I4]], %[[D]], %[[I6]], %[[T]], %[[C]]
func.func @shapes(%t: !torch.vtensor<[4,?,6],f32>) -> (!torch.int, !torch.int, !torch.int, !torch.vtensor<[4,?,6],f32>, !torch.vtensor<*,f32>) {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %intm1 = torch.constant.int -1
  %0 = torch.aten.size.int %t, %int0 : !torch.vtensor<[4,?,6],f32>, !torch.int -> !torch.int
  %1 = torch.aten.size.int %t, %int1 : !torch.vtensor<[4,?,6],f32>, !torch.int -> !torch.int
  %2 = torch.aten.size.int %t, %intm1 : !torch.vtensor<[4,?,6],f32>, !torch.int -> !torch.int
  %3 = torch.tensor_static_info_cast %t : !torch.vtensor<[4,?,6],f32> to !torch.vtensor<[4,?,6],f32>
  %4 = torch.tensor_static_info_cast %t : !torch.vtensor<[4,?,6],f32> to !torch.vtensor<*,f32>
  %5 = torch.aten.add.int %0, %int0 : !torch.int, !torch.int -> !torch.int
  return %5, %1, %2, %3, %4 : !torch.int, !torch.int, !torch.int, !torch.vtensor<[4,?,6],f32>, !torch.vtensor<*,f32>
}

// -----

// Equal constants merge into the first, literals included; the unused
// ones go.
// CHECK-LABEL: func.func @constants
// CHECK-NEXT:    %[[L:.*]] = torch.vtensor.literal(dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>) : !torch.vtensor<[2],f32>
// CHECK-NEXT:    %[[I:.*]] = torch.constant.int 5
// CHECK-NEXT:    %[[N:.*]] = torch.constant.none
// CHECK-NEXT:    %[[S:.*]] = torch.constant.str "x"
// CHECK-NEXT:    return %[[L]], %[[L]], %[[I]], %[[I]], %[[N]], %[[N]], %[[S]]
func.func @constants() -> (!torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>, !torch.int, !torch.int, !torch.none, !torch.none, !torch.str) {
  %0 = torch.vtensor.literal(dense<[1.0, 2.0]> : tensor<2xf32>) : !torch.vtensor<[2],f32>
  %1 = torch.constant.int 5
  %unused = torch.constant.int 6
  %2 = torch.vtensor.literal(dense<[1.0, 2.0]> : tensor<2xf32>) : !torch.vtensor<[2],f32>
  %3 = torch.constant.int 5
  %4 = torch.constant.none
  %5 = torch.constant.none
  %6 = torch.constant.str "x"
  return %0, %2, %1, %3, %4, %5, %6 : !torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>, !torch.int, !torch.int, !torch.none, !torch.none, !torch.str
}
