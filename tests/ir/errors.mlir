// RUN: not torch-opt -p '' --split-input-file %s 2>&1 | FileCheck %s
// RUN: not torch-opt -p '' --split-input-file --allow-unregistered-dialect %s 2>&1 | FileCheck %s --check-prefix=UNREG
// CHECK: {{.*}}errors.mlir:20:26: error: use of undeclared SSA value name
// CHECK: {{.*}}errors.mlir:28:3: error: redefinition of SSA value '%0'
// CHECK: {{.*}}errors.mlir:35:8: error: unregistered operation 'foo.bar' found in dialect ('foo') that does not allow unknown operations
// CHECK: {{.*}}errors.mlir:42:8: error: custom op 'foo.bar' is unknown
// CHECK: {{.*}}errors.mlir:49:19: error: use of value '%0' expects different type than prior uses: 'f64' vs 'f32'
// CHECK: {{.*}}errors.mlir:57:3: error: definition of SSA value '%x#0' has type 'f64' but was used with type 'f32'
// CHECK: {{.*}}errors.mlir:62:37: error: expected non-function type
// CHECK: {{.*}}errors.mlir:68:50: error: expected ','
// CHECK: {{.*}}errors.mlir:75:23: error: inferred shape of elements literal does not match type
// CHECK: {{.*}}errors.mlir:81:40: error: undefined symbol alias id 'nosuch'
// CHECK: {{.*}}errors.mlir:87:57: error: expected '"' in string literal
// CHECK: {{.*}}errors.mlir:94:3: error: unregistered operation 'foo.br' found in dialect ('foo') that does not allow unknown operations
// CHECK: {{.*}}errors.mlir:101:1: error: expected '}' to end region
// UNREG: {{.*}}errors.mlir:94:15: error: reference to an undefined block
// Parse errors: FILE:LINE:COL: error: message, one chunk per error.

func.func @undefined(%arg0: f32) -> f32 {
  %0 = arith.addf %arg0, %b : f32
  return %0 : f32
}

// -----

func.func @redefinition(%arg0: f32) -> f32 {
  %0 = arith.addf %arg0, %arg0 : f32
  %0 = arith.addf %arg0, %arg0 : f32
  return %0 : f32
}

// -----

func.func @unknown_generic(%arg0: f32) -> f32 {
  %0 = "foo.bar"(%arg0) : (f32) -> f32
  return %0 : f32
}

// -----

func.func @unknown_custom() {
  %0 = foo.bar
}

// -----

func.func @use_type_mismatch(%arg0: f32) -> f32 {
  %0 = arith.addf %arg0, %arg0 : f32
  %1 = arith.addf %0, %0 : f64
  return %0 : f32
}

// -----

func.func @forward_type_mismatch() {
  "func.return"(%x) : (f32) -> ()
  %x = arith.constant 1.000000e+00 : f64
}

// -----

func.func @bad_type(%arg0: tensor<4xfoo>) {
  return
}

// -----

func.func @bad_attr() attributes {a = dense<[1, 2> : tensor<2xi32>} {
  return
}

// -----

func.func @bad_shape() {
  %0 = arith.constant dense<[1, 2, 3]> : tensor<2xi32>
  return
}

// -----

func.func @bad_alias() attributes {a = #nosuch} {
  return
}

// -----

func.func @bad_string() attributes {a = "unterminated} {
  return
}

// -----

func.func @bad_block() {
  "foo.br"() [^bb9] : () -> ()
}

// -----

func.func @truncated(%arg0: f32) -> f32 {
  %0 = arith.addf %arg0, %arg0 : f32
