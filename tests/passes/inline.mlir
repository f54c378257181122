// RUN: torch-opt -p inline --split-input-file %s | FileCheck %s

// A call is replaced by the callee's body, arguments mapped to the call's
// operands and results to the returned values; the private callee, now
// unused, is erased.  Callees are inlined into each other first.
// CHECK-LABEL: module
// CHECK-NOT:     @add
// CHECK-NOT:     @twice
// CHECK:         func.func @main(%[[X:.*]]: i32, %[[Y:.*]]: i32) -> i32 {
// CHECK-NEXT:      %[[A:.*]] = arith.addi %[[X]], %[[Y]] : i32
// CHECK-NEXT:      %[[B:.*]] = arith.addi %[[A]], %[[A]] : i32
// CHECK-NEXT:      %[[C:.*]] = arith.muli %[[B]], %[[Y]] : i32
// CHECK-NEXT:      return %[[C]] : i32
// CHECK-NOT:     func.call
module {
  func.func private @add(%a: i32, %b: i32) -> i32 {
    %0 = arith.addi %a, %b : i32
    return %0 : i32
  }
  func.func private @twice(%a: i32) -> i32 {
    %0 = func.call @add(%a, %a) : (i32, i32) -> i32
    return %0 : i32
  }
  func.func @main(%x: i32, %y: i32) -> i32 {
    %0 = func.call @add(%x, %y) : (i32, i32) -> i32
    %1 = func.call @twice(%0) : (i32) -> i32
    %2 = arith.muli %1, %y : i32
    return %2 : i32
  }
}

// -----

// Public callees stay after inlining; declarations are not inlined; calls
// inside nested regions are inlined too; multiple results map in order.
// CHECK-LABEL: module
// CHECK:         func.func private @ext(i32) -> i32
// CHECK:         func.func @swap(%{{.*}}: i32, %{{.*}}: i32) -> (i32, i32)
// CHECK:         func.func @caller(%[[X:.*]]: i32, %[[Y:.*]]: i32, %[[N:.*]]: index)
// CHECK-NEXT:      %[[E:.*]] = call @ext(%[[X]]) : (i32) -> i32
// CHECK-NEXT:      %[[G:.*]] = tensor.generate %[[N]] {
// CHECK-NEXT:      ^bb0(%[[I:.*]]: index):
// CHECK-NEXT:        %[[C:.*]] = arith.index_cast %[[I]] : index to i32
// CHECK-NEXT:        tensor.yield %[[C]] : i32
// CHECK:           return %[[Y]], %[[E]], %[[G]]
module {
  func.func private @ext(i32) -> i32
  func.func @swap(%a: i32, %b: i32) -> (i32, i32) {
    return %b, %a : i32, i32
  }
  func.func private @cast(%i: index) -> i32 {
    %0 = arith.index_cast %i : index to i32
    return %0 : i32
  }
  func.func @caller(%x: i32, %y: i32, %n: index) -> (i32, i32, tensor<?xi32>) {
    %0:2 = func.call @swap(%x, %y) : (i32, i32) -> (i32, i32)
    %1 = func.call @ext(%0#1) : (i32) -> i32
    %2 = tensor.generate %n {
    ^bb0(%i: index):
      %3 = func.call @cast(%i) : (index) -> i32
      tensor.yield %3 : i32
    } : tensor<?xi32>
    return %0#0, %1, %2 : i32, i32, tensor<?xi32>
  }
}

// -----

// Recursion stays: a function is never inlined into itself, and in a
// cycle the call that closes it is kept.
// CHECK-LABEL: module
// CHECK:         func.func @self(%[[A:.*]]: i32) -> i32 {
// CHECK-NEXT:      %[[R:.*]] = call @self(%[[A]]) : (i32) -> i32
// CHECK-NEXT:      return %[[R]]
// CHECK:         func.func @ping(%[[P:.*]]: i32) -> i32 {
// CHECK-NEXT:      %[[Q:.*]] = arith.addi %[[P]], %[[P]] : i32
// CHECK-NEXT:      %[[S:.*]] = call @ping(%[[Q]]) : (i32) -> i32
// CHECK-NEXT:      return %[[S]]
// CHECK:         func.func @pong(
// CHECK-NEXT:      arith.addi
// CHECK-NEXT:      call @ping
module {
  func.func @self(%a: i32) -> i32 {
    %0 = func.call @self(%a) : (i32) -> i32
    return %0 : i32
  }
  func.func @ping(%a: i32) -> i32 {
    %0 = func.call @pong(%a) : (i32) -> i32
    return %0 : i32
  }
  func.func @pong(%a: i32) -> i32 {
    %0 = arith.addi %a, %a : i32
    %1 = func.call @ping(%0) : (i32) -> i32
    return %1 : i32
  }
}

// -----

// Unused private functions with a body are erased even when nothing was
// inlined.
// CHECK-LABEL: module
// CHECK-NOT:     @unused
// CHECK:         func.func @keep
module {
  func.func private @unused() {
    return
  }
  func.func @keep() {
    return
  }
}

// -----

// Unused private declarations stay, as upstream.
// CHECK-LABEL: module
// CHECK:         func.func private @decl()
// CHECK-NOT:     @body
module {
  func.func private @decl()
  func.func private @body() {
    return
  }
}
