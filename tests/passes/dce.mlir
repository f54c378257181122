// RUN: torch-opt -p dce --split-input-file %s | FileCheck %s

// Chains of dead pure ops die together; ops with effects and their
// operands stay; nothing is folded.
// CHECK-LABEL: func.func @chain
// CHECK-SAME:    (%[[X:.*]]: i32, %[[Y:.*]]: i32)
// CHECK-NEXT:    %[[C:.*]] = arith.constant 2 : i32
// CHECK-NEXT:    %[[K:.*]] = arith.addi %[[X]], %[[C]] : i32
// CHECK-NEXT:    %[[R:.*]] = call @g(%[[K]]) : (i32) -> i32
// CHECK-NEXT:    %[[S:.*]] = arith.addi %[[C]], %[[C]] : i32
// CHECK-NEXT:    return %[[S]]
func.func private @g(i32) -> i32
func.func @chain(%x: i32, %y: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %0 = arith.addi %x, %y : i32
  %1 = arith.muli %0, %c1 : i32
  %2 = arith.subi %1, %0 : i32
  %k = arith.addi %x, %c2 : i32
  %r = call @g(%k) : (i32) -> i32
  %s = arith.addi %c2, %c2 : i32
  return %s : i32
}

// -----

// Dead ops inside regions go; a pure op with a region goes when unused.
// Unused block arguments stay.
// CHECK-LABEL: func.func @regions
// CHECK-SAME:    (%[[N:.*]]: index, %[[UNUSED:.*]]: f32)
// CHECK-NEXT:    %[[G:.*]] = tensor.generate %[[N]]
// CHECK-NEXT:    ^bb0(%[[I:.*]]: index):
// CHECK-NEXT:      tensor.yield %[[I]] : index
// CHECK-NEXT:    } : tensor<?xindex>
// CHECK-NEXT:    return %[[G]] : tensor<?xindex>
func.func @regions(%n: index, %unused: f32) -> tensor<?xindex> {
  %dead = tensor.generate %n {
  ^bb0(%i: index):
    tensor.yield %i : index
  } : tensor<?xindex>
  %0 = tensor.generate %n {
  ^bb0(%i: index):
    %d = arith.muli %i, %i : index
    %e = arith.addi %d, %d : index
    tensor.yield %i : index
  } : tensor<?xindex>
  return %0 : tensor<?xindex>
}
