// RUN: torch-opt -p canonicalize --split-input-file %s | FileCheck %s
// RUN: torch-opt -p 'canonicalize{max-iterations=1}' --split-input-file %s | FileCheck %s

// Integer constant folding: chains fold in one run, constants end up at the
// top of the entry block in order of first appearance, division by zero
// stays, widths wrap.
// CHECK-LABEL: func.func @fold_int
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[C7:.*]] = arith.constant 7 : i32
// CHECK-NEXT:    %[[C21:.*]] = arith.constant 21 : i32
// CHECK-NEXT:    %[[CM1:.*]] = arith.constant -1 : i32
// CHECK-NEXT:    %[[CM128:.*]] = arith.constant -128 : i8
// CHECK-NEXT:    %[[CM3:.*]] = arith.constant -3 : i32
// CHECK-NEXT:    %[[C2:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %[[D:.*]] = arith.divsi %[[C21]], %[[C0]] : i32
// CHECK-NEXT:    return %[[C7]], %[[C21]], %[[D]], %[[CM1]], %[[CM128]], %[[CM3]], %[[C2]]
func.func @fold_int(%x: i32) -> (i32, i32, i32, i32, i8, i32, index) {
  %c3 = arith.constant 3 : i32
  %c4 = arith.constant 4 : i32
  %c0 = arith.constant 0 : i32
  %a = arith.addi %c3, %c4 : i32
  %b = arith.muli %a, %c3 : i32
  %d = arith.divsi %b, %c0 : i32
  %e = arith.subi %c3, %c4 : i32
  %c127 = arith.constant 127 : i8
  %c1_i8 = arith.constant 1 : i8
  %w = arith.addi %c127, %c1_i8 : i8
  %cm7 = arith.constant -7 : i32
  %r = arith.remsi %cm7, %c4 : i32
  %c5 = arith.constant 5 : index
  %c2 = arith.constant 2 : index
  %i = arith.divui %c5, %c2 : index
  return %a, %b, %d, %e, %w, %r, %i : i32, i32, i32, i32, i8, i32, index
}

// -----

// Unsigned ops see the bits, signed ops the sign; min / -1 overflows.
// CHECK-LABEL: func.func @signedness
// CHECK-DAG:     %[[C127:.*]] = arith.constant 127 : i8
// CHECK-DAG:     %[[CM2:.*]] = arith.constant -2 : i8
// CHECK-DAG:     %[[CM1:.*]] = arith.constant -1 : i8
// CHECK-DAG:     %[[MIN:.*]] = arith.constant -128 : i8
// CHECK:         %[[OV:.*]] = arith.divsi %[[MIN]], %[[CM1]] : i8
// CHECK-NEXT:    return %[[C127]], %[[CM2]], %[[OV]], %[[CM1]]
func.func @signedness() -> (i8, i8, i8, i8) {
  %m1 = arith.constant -1 : i8
  %c2 = arith.constant 2 : i8
  %min = arith.constant -128 : i8
  %0 = arith.divui %m1, %c2 : i8
  %1 = arith.muli %m1, %c2 : i8
  %2 = arith.divsi %min, %m1 : i8
  %3 = arith.maxui %m1, %c2 : i8
  return %0, %1, %2, %3 : i8, i8, i8, i8
}

// -----

// Bitwise ops, min/max and shifts on constants; a shift by the width stays.
// CHECK-LABEL: func.func @bits
// CHECK-DAG:     %[[C8:.*]] = arith.constant 8 : i32
// CHECK-DAG:     %[[C14:.*]] = arith.constant 14 : i32
// CHECK-DAG:     %[[C6:.*]] = arith.constant 6 : i32
// CHECK-DAG:     %[[C12:.*]] = arith.constant 12 : i32
// CHECK-DAG:     %[[C48:.*]] = arith.constant 48 : i32
// CHECK-DAG:     %[[CM4:.*]] = arith.constant -4 : i32
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : i32
// CHECK:         %[[SH:.*]] = arith.shli %[[C12]], %[[C32]] : i32
// CHECK-NEXT:    return %[[C8]], %[[C14]], %[[C6]], %[[C12]], %[[C48]], %[[CM4]], %[[SH]]
func.func @bits() -> (i32, i32, i32, i32, i32, i32, i32) {
  %a = arith.constant 12 : i32
  %b = arith.constant 10 : i32
  %c2 = arith.constant 2 : i32
  %m16 = arith.constant -16 : i32
  %c32 = arith.constant 32 : i32
  %0 = arith.andi %a, %b : i32
  %1 = arith.ori %a, %b : i32
  %2 = arith.xori %a, %b : i32
  %3 = arith.maxsi %a, %b : i32
  %4 = arith.shli %a, %c2 : i32
  %5 = arith.shrsi %m16, %c2 : i32
  %6 = arith.shli %a, %c32 : i32
  return %0, %1, %2, %3, %4, %5, %6 : i32, i32, i32, i32, i32, i32, i32
}

// -----

// Float folding rounds to the result type.
// CHECK-LABEL: func.func @fold_float
// CHECK-DAG:     arith.constant 3.500000e+00 : f32
// CHECK-DAG:     arith.constant 5.000000e-01 : f32
// CHECK-DAG:     arith.constant 3.750000e+00 : f64
// CHECK-DAG:     arith.constant 0.333333343 : f32
// CHECK-DAG:     arith.constant 2.000000e+00 : f32
// CHECK-NOT:     arith.addf
// CHECK-NOT:     arith.subf
// CHECK-NOT:     arith.mulf
// CHECK-NOT:     arith.divf
// CHECK-NOT:     arith.maxf
// CHECK:         return
func.func @fold_float() -> (f32, f32, f64, f32, f32) {
  %a = arith.constant 1.5 : f32
  %b = arith.constant 2.0 : f32
  %c = arith.constant 1.0 : f32
  %d = arith.constant 3.0 : f32
  %x = arith.constant 1.5 : f64
  %0 = arith.addf %a, %b : f32
  %1 = arith.subf %b, %a : f32
  %2 = arith.mulf %x, %x : f64
  %3 = arith.divf %c, %d : f32
  %4 = arith.maxf %a, %b : f32
  %5 = arith.addf %2, %x : f64
  return %0, %1, %5, %3, %4 : f32, f32, f64, f32, f32
}

// -----

// Identities replace the op by its other operand.  x + 0.0 is not x
// (-0.0 + 0.0 is 0.0), so it stays.
// CHECK-LABEL: func.func @identities
// CHECK-SAME:    (%[[X:.*]]: i32, %[[F:.*]]: f32)
// CHECK:         %[[Z:.*]] = arith.constant 0 : i32
// CHECK:         %[[PZ:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[ADD:.*]] = arith.addf %[[F]], %[[PZ]] : f32
// CHECK-NEXT:    return %[[X]], %[[X]], %[[X]], %[[Z]], %[[X]], %[[X]], %[[F]], %[[ADD]], %[[F]], %[[X]], %[[X]], %[[Z]], %[[F]]
func.func @identities(%x: i32, %f: f32) -> (i32, i32, i32, i32, i32, i32, f32, f32, f32, i32, i32, i32, f32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %cm1 = arith.constant -1 : i32
  %nz = arith.constant -0.0 : f32
  %pz = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %0 = arith.addi %x, %c0 : i32
  %1 = arith.muli %c1, %x : i32
  %2 = arith.subi %x, %c0 : i32
  %3 = arith.muli %x, %c0 : i32
  %4 = arith.andi %x, %cm1 : i32
  %5 = arith.ori %x, %c0 : i32
  %6 = arith.addf %f, %nz : f32
  %7 = arith.addf %f, %pz : f32
  %8 = arith.mulf %f, %one : f32
  %9 = arith.divsi %x, %c1 : i32
  %10 = arith.xori %c0, %x : i32
  %11 = arith.subi %x, %x : i32
  %12 = arith.subf %f, %pz : f32
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12 : i32, i32, i32, i32, i32, i32, f32, f32, f32, i32, i32, i32, f32
}

// -----

// CHECK-LABEL: func.func @cmp_select
// CHECK-SAME:    (%[[X:.*]]: i32, %[[Y:.*]]: i32, %[[C:.*]]: i1)
// CHECK-DAG:     %[[T:.*]] = arith.constant true
// CHECK-DAG:     %[[F:.*]] = arith.constant false
// CHECK-NOT:     arith.cmp
// CHECK-NOT:     arith.select
// CHECK:         return %[[T]], %[[F]], %[[X]], %[[Y]], %[[T]], %[[T]], %[[F]], %[[X]], %[[C]], %[[F]]
func.func @cmp_select(%x: i32, %y: i32, %c: i1) -> (i1, i1, i32, i32, i1, i1, i1, i32, i1, i1) {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %lt = arith.cmpi slt, %c1, %c2 : i32
  %ugt = arith.cmpi ugt, %c1, %c2 : i32
  %s = arith.select %lt, %x, %y : i32
  %s2 = arith.select %ugt, %x, %y : i32
  %f1 = arith.constant 1.0 : f32
  %f2 = arith.constant 2.0 : f32
  %cf = arith.cmpf olt, %f1, %f2 : f32
  %same = arith.cmpi sle, %x, %x : i32
  %nan = arith.constant 0x7FC00000 : f32
  %ord = arith.cmpf oeq, %nan, %nan : f32
  %eq = arith.select %c, %x, %x : i32
  %t = arith.constant true
  %f = arith.constant false
  %id = arith.select %c, %t, %f : i1
  %m1 = arith.constant -1 : i32
  %u = arith.cmpi ult, %m1, %c1 : i32
  return %lt, %ugt, %s, %s2, %cf, %same, %ord, %eq, %id, %u : i1, i1, i32, i32, i1, i1, i1, i32, i1, i1
}

// -----

// Casts of constants; fptosi out of range and an inexact truncf stay.
// CHECK-LABEL: func.func @casts
// CHECK-DAG:     %[[A:.*]] = arith.constant -3.000000e+00 : f32
// CHECK-DAG:     %[[B:.*]] = arith.constant 2 : i32
// CHECK-DAG:     %[[D:.*]] = arith.constant 2.500000e+00 : f64
// CHECK-DAG:     %[[E:.*]] = arith.constant 2.500000e+00 : f16
// CHECK-DAG:     %[[G:.*]] = arith.constant -3 : i64
// CHECK-DAG:     %[[H:.*]] = arith.constant 4294967293 : i64
// CHECK-DAG:     %[[I:.*]] = arith.constant -3 : i8
// CHECK-DAG:     %[[J:.*]] = arith.constant -3 : index
// CHECK-DAG:     %[[K:.*]] = arith.constant -2.500000e+00 : f32
// CHECK-DAG:     %[[L:.*]] = arith.constant 4.000000e+00 : f32
// CHECK-DAG:     %[[BIG:.*]] = arith.constant 1.000000e+10 : f32
// CHECK-DAG:     %[[TENTH:.*]] = arith.constant 1.000000e-01 : f32
// CHECK:         %[[OVF:.*]] = arith.fptosi %[[BIG]] : f32 to i32
// CHECK-NEXT:    %[[TR:.*]] = arith.truncf %[[TENTH]] : f32 to f16
// CHECK-NEXT:    return %[[A]], %[[B]], %[[D]], %[[E]], %[[G]], %[[H]], %[[I]], %[[J]], %[[K]], %[[L]], %[[OVF]], %[[TR]]
func.func @casts() -> (f32, i32, f64, f16, i64, i64, i8, index, f32, f32, i32, f16) {
  %c = arith.constant -3 : i32
  %f = arith.constant 2.5 : f32
  %a = arith.sitofp %c : i32 to f32
  %b = arith.fptosi %f : f32 to i32
  %d = arith.extf %f : f32 to f64
  %e = arith.truncf %f : f32 to f16
  %g = arith.extsi %c : i32 to i64
  %h = arith.extui %c : i32 to i64
  %i = arith.trunci %c : i32 to i8
  %j = arith.index_cast %c : i32 to index
  %k = arith.negf %f : f32
  %c4 = arith.constant 4 : index
  %i4 = arith.index_cast %c4 : index to i32
  %l = arith.uitofp %i4 : i32 to f32
  %big = arith.constant 1.0e10 : f32
  %ovf = arith.fptosi %big : f32 to i32
  %tenth = arith.constant 0.1 : f32
  %tr = arith.truncf %tenth : f32 to f16
  return %a, %b, %d, %e, %g, %h, %i, %j, %k, %l, %ovf, %tr : f32, i32, f64, f16, i64, i64, i8, index, f32, f32, i32, f16
}

// -----

// Splat tensor constants fold like scalars.
// CHECK-LABEL: func.func @splat
// CHECK-SAME:    (%[[T:.*]]: tensor<4xi32>)
// CHECK:         %[[S:.*]] = arith.constant dense<5> : tensor<4xi32>
// CHECK-NEXT:    return %[[S]], %[[T]]
func.func @splat(%t: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>) {
  %a = arith.constant dense<2> : tensor<4xi32>
  %b = arith.constant dense<3> : tensor<4xi32>
  %z = arith.constant dense<0> : tensor<4xi32>
  %0 = arith.addi %a, %b : tensor<4xi32>
  %1 = arith.addi %t, %z : tensor<4xi32>
  return %0, %1 : tensor<4xi32>, tensor<4xi32>
}

// -----

// tensor.dim of a static dimension, a cast to the same type, and a
// collapse_shape undoing an expand_shape.
// CHECK-LABEL: func.func @tensors
// CHECK-SAME:    (%[[T:.*]]: tensor<4x?xf32>, %[[U:.*]]: tensor<4xf32>)
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[DYN:.*]] = tensor.dim %[[T]], %[[C1]] : tensor<4x?xf32>
// CHECK-NEXT:    return %[[C4]], %[[T]], %[[U]], %[[DYN]]
func.func @tensors(%t: tensor<4x?xf32>, %u: tensor<4xf32>) -> (index, tensor<4x?xf32>, tensor<4xf32>, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d = tensor.dim %t, %c0 : tensor<4x?xf32>
  %c = tensor.cast %t : tensor<4x?xf32> to tensor<4x?xf32>
  %e = tensor.expand_shape %u [[0, 1]] : tensor<4xf32> into tensor<1x4xf32>
  %f = tensor.collapse_shape %e [[0, 1]] : tensor<1x4xf32> into tensor<4xf32>
  %g = tensor.dim %t, %c1 : tensor<4x?xf32>
  return %d, %c, %f, %g : index, tensor<4x?xf32>, tensor<4xf32>, index
}

// -----

// expand_shape(collapse_shape(x)) is x; a different reassociation stays.
// CHECK-LABEL: func.func @reshapes
// CHECK-SAME:    (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK-NEXT:    %[[C:.*]] = tensor.collapse_shape %[[X]] {{\[}}[0, 1], [2]]
// CHECK-NEXT:    %[[E:.*]] = tensor.expand_shape %[[C]] {{\[}}[0], [1, 2]]
// CHECK-NEXT:    return %[[X]], %[[E]]
func.func @reshapes(%x: tensor<2x3x4xf32>) -> (tensor<2x3x4xf32>, tensor<6x2x2xf32>) {
  %c = tensor.collapse_shape %x [[0, 1], [2]] : tensor<2x3x4xf32> into tensor<6x4xf32>
  %e = tensor.expand_shape %c [[0, 1], [2]] : tensor<6x4xf32> into tensor<2x3x4xf32>
  %f = tensor.expand_shape %c [[0], [1, 2]] : tensor<6x4xf32> into tensor<6x2x2xf32>
  return %e, %f : tensor<2x3x4xf32>, tensor<6x2x2xf32>
}

// -----

// Dead pure ops go, chains included; duplicate constants merge and are
// hoisted out of nested regions to the function's entry block.
// CHECK-LABEL: func.func @dead_and_hoist
// CHECK-SAME:    (%[[T:.*]]: tensor<4xf32>)
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<4xf32>
// CHECK-NEXT:    %[[G:.*]] = linalg.generic
// CHECK-NEXT:    ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      %[[A:.*]] = arith.addf %[[IN]], %[[ONE]] : f32
// CHECK-NEXT:      linalg.yield %[[A]] : f32
// CHECK:         return %[[G]], %[[ONE]]
// CHECK-NOT:     arith.constant
#map = affine_map<(d0) -> (d0)>
func.func @dead_and_hoist(%t: tensor<4xf32>) -> (tensor<4xf32>, f32) {
  %unused = arith.constant 7.0 : f32
  %d0 = arith.addf %unused, %unused : f32
  %d1 = arith.mulf %d0, %d0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %g = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%t : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %one = arith.constant 1.0 : f32
    %a = arith.addf %in, %one : f32
    linalg.yield %a : f32
  } -> tensor<4xf32>
  %one2 = arith.constant 1.0 : f32
  return %g, %one2 : tensor<4xf32>, f32
}

// -----

// max-iterations bounds the sweeps but every sweep still folds a whole
// chain, so one is enough here.
// CHECK-LABEL: func.func @chain
// CHECK-NEXT:    %[[C:.*]] = arith.constant 10 : i64
// CHECK-NEXT:    return %[[C]]
func.func @chain() -> i64 {
  %c1 = arith.constant 1 : i64
  %0 = arith.addi %c1, %c1 : i64
  %1 = arith.addi %0, %c1 : i64
  %2 = arith.addi %1, %c1 : i64
  %3 = arith.muli %2, %0 : i64
  %4 = arith.addi %3, %0 : i64
  return %4 : i64
}

// -----

// Constants go last in commutative ops and in cmpi (which mirrors its
// predicate); select of its own equality test, add/sub inverses and an
// idempotent op applied twice fold to existing values.
// CHECK-LABEL: func.func @canonical_forms
// CHECK-SAME:    (%[[X:.*]]: i32, %[[Y:.*]]: i32)
// CHECK-NEXT:    %[[C3:.*]] = arith.constant 3 : i32
// CHECK-NEXT:    %[[A:.*]] = arith.addi %[[X]], %[[C3]] : i32
// CHECK-NEXT:    %[[C:.*]] = arith.cmpi sgt, %[[X]], %[[C3]] : i32
// CHECK-NEXT:    %[[M:.*]] = arith.andi %[[X]], %[[Y]] : i32
// CHECK-NEXT:    return %[[A]], %[[C]], %[[Y]], %[[X]], %[[X]], %[[M]]
func.func @canonical_forms(%x: i32, %y: i32) -> (i32, i1, i32, i32, i32, i32) {
  %c3 = arith.constant 3 : i32
  %0 = arith.addi %c3, %x : i32
  %1 = arith.cmpi slt, %c3, %x : i32
  %e = arith.cmpi eq, %x, %y : i32
  %2 = arith.select %e, %x, %y : i32
  %s = arith.subi %x, %y : i32
  %3 = arith.addi %s, %y : i32
  %a = arith.addi %x, %y : i32
  %4 = arith.subi %a, %y : i32
  %m = arith.andi %x, %y : i32
  %5 = arith.andi %m, %x : i32
  return %0, %1, %2, %3, %4, %5 : i32, i1, i32, i32, i32, i32
}
