// RUN: torch-opt -p '' %s | FileCheck %s
// Round trip of builtin.module and the func dialect (checked against mlir-opt-16).
// RUN: torch-opt -p '' %s | torch-opt -p '' | FileCheck %s
// CHECK: module @m attributes {torch.debug_module_name = "Linear"} {
// CHECK-NEXT: func.func private @decl(i32, f32 {foo.arg}) -> (f32 {foo.res})
// CHECK-NEXT: func.func @callee(%arg0: f32 {foo.a = 1 : i64}) -> f32 {
// CHECK-NEXT: return %arg0 : f32
// CHECK-NEXT: }
// CHECK-NEXT: func.func @main(%arg0: f32, %arg1: i64) -> (f32, i64) attributes {llvm.emit_c_interface} {
// CHECK-NEXT: %0 = call @callee(%arg0) : (f32) -> f32
// CHECK-NEXT: %1:2 = call @pair(%arg0, %arg1) : (f32, i64) -> (f32, i64)
// CHECK-NEXT: return %1#0, %1#1 : f32, i64
// CHECK-NEXT: }
// CHECK-NEXT: func.func @pair(%arg0: f32, %arg1: i64) -> (f32, i64) {
// CHECK-NEXT: return %arg0, %arg1 : f32, i64
// CHECK-NEXT: }
// CHECK-NEXT: func.func @noresult() {
// CHECK-NEXT: return
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @fn_result() -> ((i32) -> i32)
// CHECK-NEXT: }

module @m attributes {torch.debug_module_name = "Linear"} {
  func.func private @decl(i32, f32 {foo.arg}) -> (f32 {foo.res})
  func.func @callee(%arg0: f32 {foo.a = 1 : i64}) -> f32 {
    return %arg0 : f32
  }
  func.func @main(%arg0: f32, %arg1: i64) -> (f32, i64) attributes {llvm.emit_c_interface} {
    %0 = call @callee(%arg0) : (f32) -> f32
    %1:2 = call @pair(%arg0, %arg1) : (f32, i64) -> (f32, i64)
    return %1#0, %1#1 : f32, i64
  }
  func.func @pair(%arg0: f32, %arg1: i64) -> (f32, i64) {
    return %arg0, %arg1 : f32, i64
  }
  func.func @noresult() {
    return
  }
  func.func private @fn_result() -> ((i32) -> i32)
}
