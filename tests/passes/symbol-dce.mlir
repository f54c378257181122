// RUN: torch-opt -p symbol-dce --split-input-file %s | FileCheck %s

// Public symbols stay; private ones that nothing references go, as do
// private ones only dead code references (a cycle of them included).
// CHECK-LABEL: module
// CHECK-NOT:     @dead
// CHECK:         func.func @public
// CHECK-NOT:     @dead
// CHECK:         func.func private @used
// CHECK-NOT:     @dead
// CHECK:         func.func private @used_by_used
// CHECK-NOT:     @dead
module {
  func.func @public() -> i32 {
    %0 = func.call @used() : () -> i32
    return %0 : i32
  }
  func.func private @used() -> i32 {
    %0 = func.call @used_by_used() : () -> i32
    return %0 : i32
  }
  func.func private @used_by_used() -> i32 {
    %c = arith.constant 1 : i32
    return %c : i32
  }
  func.func private @dead_decl() -> i32
  func.func private @dead_chain() -> i32 {
    %0 = func.call @dead_leaf() : () -> i32
    return %0 : i32
  }
  func.func private @dead_leaf() -> i32
  func.func private @dead_cycle_a() {
    func.call @dead_cycle_b() : () -> ()
    return
  }
  func.func private @dead_cycle_b() {
    func.call @dead_cycle_a() : () -> ()
    return
  }
}

// -----

// References in attributes count, nested in arrays and dictionaries too.
// CHECK-LABEL: module
// CHECK:         func.func private @in_array
// CHECK:         func.func private @in_dict
// CHECK-NOT:     @unused
// CHECK:         func.func @root
module {
  func.func private @in_array()
  func.func private @in_dict()
  func.func private @unused()
  func.func @root() attributes {refs = [1 : i32, @in_array], more = {key = {inner = @in_dict}}} {
    return
  }
}

// -----

// Without public symbols nothing private survives.
// CHECK-LABEL: module
// CHECK-NOT:     func.func
module {
  func.func private @a() {
    func.call @a() : () -> ()
    return
  }
}
