// RUN: torch-opt -p cse --split-input-file %s | FileCheck %s

// CHECK-LABEL: func.func @simple_constant
// CHECK-NEXT:    %[[C:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    return %[[C]], %[[C]]
func.func @simple_constant() -> (i32, i32) {
  %0 = arith.constant 1 : i32
  %1 = arith.constant 1 : i32
  return %0, %1 : i32, i32
}

// -----

// Different types or values are different ops.
// CHECK-LABEL: func.func @different_constants
// CHECK-NEXT:    %[[A:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    %[[B:.*]] = arith.constant 1 : i64
// CHECK-NEXT:    %[[C:.*]] = arith.constant 2 : i32
// CHECK-NEXT:    return %[[A]], %[[B]], %[[C]], %[[A]]
func.func @different_constants() -> (i32, i64, i32, i32) {
  %0 = arith.constant 1 : i32
  %1 = arith.constant 1 : i64
  %2 = arith.constant 2 : i32
  %3 = arith.constant 1 : i32
  return %0, %1, %2, %3 : i32, i64, i32, i32
}

// -----

// Chains merge: once the operands are merged, the users are equal too.
// Commutative ops match with their operands swapped; others do not.
// CHECK-LABEL: func.func @chain
// CHECK-SAME:    (%[[X:.*]]: f32, %[[Y:.*]]: f32)
// CHECK-NEXT:    %[[A:.*]] = arith.addf %[[X]], %[[Y]] : f32
// CHECK-NEXT:    %[[M:.*]] = arith.mulf %[[A]], %[[A]] : f32
// CHECK-NEXT:    %[[S1:.*]] = arith.subf %[[X]], %[[Y]] : f32
// CHECK-NEXT:    %[[S2:.*]] = arith.subf %[[Y]], %[[X]] : f32
// CHECK-NEXT:    return %[[M]], %[[M]], %[[A]], %[[S1]], %[[S2]]
func.func @chain(%x: f32, %y: f32) -> (f32, f32, f32, f32, f32) {
  %0 = arith.addf %x, %y : f32
  %1 = arith.mulf %0, %0 : f32
  %2 = arith.addf %x, %y : f32
  %3 = arith.mulf %2, %2 : f32
  %4 = arith.addf %y, %x : f32
  %5 = arith.subf %x, %y : f32
  %6 = arith.subf %y, %x : f32
  return %1, %3, %4, %5, %6 : f32, f32, f32, f32, f32
}

// -----

// Attributes must be equal: predicates differ here.
// CHECK-LABEL: func.func @attributes
// CHECK:         arith.cmpi slt
// CHECK-NEXT:    arith.cmpi sgt
// CHECK-NOT:     arith.cmpi
// CHECK:         return
func.func @attributes(%x: i32, %y: i32) -> (i1, i1, i1) {
  %0 = arith.cmpi slt, %x, %y : i32
  %1 = arith.cmpi sgt, %x, %y : i32
  %2 = arith.cmpi slt, %x, %y : i32
  return %0, %1, %2 : i1, i1, i1
}

// -----

// An op in a nested region reuses one from outside; the outer op must not
// reuse one from inside, which does not dominate it.  Dead ops go.
// CHECK-LABEL: func.func @nested
// CHECK-SAME:    (%[[T:.*]]: tensor<4xf32>, %[[F:.*]]: f32)
// CHECK-NEXT:    %[[OUT:.*]] = arith.mulf %[[F]], %[[F]] : f32
// CHECK:         linalg.generic
// CHECK-NEXT:    ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      %[[A:.*]] = arith.addf %[[IN]], %[[OUT]] : f32
// CHECK-NEXT:      %[[B:.*]] = arith.subf %[[IN]], %[[F]] : f32
// CHECK-NEXT:      %[[C:.*]] = arith.addf %[[A]], %[[B]] : f32
// CHECK-NEXT:      linalg.yield %[[C]] : f32
// CHECK:         %[[SUB:.*]] = arith.subf %[[F]], %[[F]] : f32
// CHECK-NEXT:    return %{{.*}}, %[[SUB]], %[[OUT]]
#map = affine_map<(d0) -> (d0)>
func.func @nested(%t: tensor<4xf32>, %f: f32) -> (tensor<4xf32>, f32, f32) {
  %out = arith.mulf %f, %f : f32
  %e = tensor.empty() : tensor<4xf32>
  %g = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%t : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%in: f32, %o: f32):
    %m = arith.mulf %f, %f : f32
    %a = arith.addf %in, %m : f32
    %b = arith.subf %in, %f : f32
    %s = arith.subf %f, %f : f32
    %c = arith.addf %a, %b : f32
    linalg.yield %c : f32
  } -> tensor<4xf32>
  %s2 = arith.subf %f, %f : f32
  return %g, %s2, %out : tensor<4xf32>, f32, f32
}

// -----

// Ops of sibling regions do not see each other.
// CHECK-LABEL: func.func @siblings
// CHECK-COUNT-2: arith.constant 5 : index
// CHECK-NOT:     arith.constant
#map = affine_map<(d0) -> (d0)>
func.func @siblings(%t: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %e = tensor.empty() : tensor<4xf32>
  %0 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%t : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%in: f32, %o: f32):
    %c = arith.constant 5 : index
    %i = arith.index_cast %c : index to i32
    %f = arith.sitofp %i : i32 to f32
    %a = arith.addf %in, %f : f32
    linalg.yield %a : f32
  } -> tensor<4xf32>
  %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%t : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%in: f32, %o: f32):
    %c = arith.constant 5 : index
    %i = arith.index_cast %c : index to i32
    %f = arith.sitofp %i : i32 to f32
    %a = arith.mulf %in, %f : f32
    linalg.yield %a : f32
  } -> tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// Ops with side effects are not merged; dead pure ops are erased.
// CHECK-LABEL: func.func @effects
// CHECK-NEXT:    %[[C1:.*]] = call @g() : () -> i32
// CHECK-NEXT:    %[[C2:.*]] = call @g() : () -> i32
// CHECK-NEXT:    return %[[C1]], %[[C2]]
func.func private @g() -> i32
func.func @effects(%x: i32) -> (i32, i32) {
  %0 = call @g() : () -> i32
  %1 = call @g() : () -> i32
  %dead = arith.addi %x, %x : i32
  return %0, %1 : i32, i32
}

// -----

// Each function is isolated from above: nothing is shared across them.
// CHECK-LABEL: func.func @f1
// CHECK-NEXT:    %[[A:.*]] = arith.constant 3 : i64
// CHECK-NEXT:    return %[[A]], %[[A]]
// CHECK-LABEL: func.func @f2
// CHECK-NEXT:    %[[B:.*]] = arith.constant 3 : i64
// CHECK-NEXT:    return %[[B]], %[[B]]
func.func @f1() -> (i64, i64) {
  %0 = arith.constant 3 : i64
  %1 = arith.constant 3 : i64
  return %0, %1 : i64, i64
}
func.func @f2() -> (i64, i64) {
  %0 = arith.constant 3 : i64
  %1 = arith.constant 3 : i64
  return %0, %1 : i64, i64
}

// -----

// A pure op with a region is not merged; inside, ops reuse outer ones.
// CHECK-LABEL: func.func @regions
// CHECK-SAME:    (%[[N:.*]]: index)
// CHECK-NEXT:    %[[C:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[G1:.*]] = tensor.generate %[[N]]
// CHECK-NEXT:    ^bb0(%[[I:.*]]: index):
// CHECK-NEXT:      %[[A:.*]] = arith.addi %[[I]], %[[C]] : index
// CHECK-NEXT:      tensor.yield %[[A]] : index
// CHECK:         %[[G2:.*]] = tensor.generate %[[N]]
// CHECK:         return %[[G1]], %[[G2]]
func.func @regions(%n: index) -> (tensor<?xindex>, tensor<?xindex>) {
  %c1 = arith.constant 1 : index
  %0 = tensor.generate %n {
  ^bb0(%i: index):
    %c1b = arith.constant 1 : index
    %a = arith.addi %i, %c1b : index
    tensor.yield %a : index
  } : tensor<?xindex>
  %1 = tensor.generate %n {
  ^bb0(%i: index):
    %a = arith.addi %i, %c1 : index
    tensor.yield %a : index
  } : tensor<?xindex>
  return %0, %1 : tensor<?xindex>, tensor<?xindex>
}
