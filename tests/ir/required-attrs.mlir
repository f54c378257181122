// RUN: not torch-opt -p '' --split-input-file %s 2>&1 | FileCheck %s
// Attributes a custom form prints without their names are required
// (lib/verify_ops.c attr_needs): missing, or of another kind, the op
// is refused instead of printing as something that does not read back
// or means another thing (a cmpf without a predicate as `false`).
// CHECK: {{.*}}required-attrs.mlir:23:8: error: 'arith.constant' op requires attribute 'value' (an attribute)
// CHECK: {{.*}}required-attrs.mlir:30:8: error: 'arith.cmpf' op requires attribute 'predicate' (an integer)
// CHECK: {{.*}}required-attrs.mlir:37:8: error: 'arith.cmpi' op requires attribute 'predicate' (an integer)
// CHECK: {{.*}}required-attrs.mlir:44:3: error: 'func.call' op requires attribute 'callee' (a flat symbol reference)
// CHECK: {{.*}}required-attrs.mlir:51:8: error: 'linalg.index' op requires attribute 'dim' (an integer)
// CHECK: {{.*}}required-attrs.mlir:58:8: error: 'tensor.expand_shape' op requires attribute 'reassociation' (an array)
// CHECK: {{.*}}required-attrs.mlir:65:8: error: 'tensor.collapse_shape' op requires attribute 'reassociation' (an array)
// CHECK: {{.*}}required-attrs.mlir:72:3: error: 'torch.operator' op requires attribute 'name' (a string)
// CHECK: {{.*}}required-attrs.mlir:79:3: error: 'fxvm.global' op requires attribute 'value' (an attribute)
// CHECK: {{.*}}required-attrs.mlir:86:8: error: 'fxvm.result' op requires attribute 'index' (an integer)
// CHECK: {{.*}}required-attrs.mlir:93:8: error: 'fxvm.alloc' op requires attribute 'offset' (an integer)
// CHECK: {{.*}}required-attrs.mlir:100:8: error: 'fxvm.view' op requires attribute 'offset' (an integer)
// CHECK: {{.*}}required-attrs.mlir:107:8: error: 'fxvm.constant' op requires attribute 'global' (a flat symbol reference)
// CHECK: {{.*}}required-attrs.mlir:114:3: error: 'fxvm.dispatch' op requires attribute 'grid' (an array of 3 integers)
// CHECK: {{.*}}required-attrs.mlir:121:3: error: 'fxvm.fill' op requires attribute 'value' (an attribute)

func.func @f(%f: f32, %i: i32, %t: tensor<4xf32>) {
  %0 = "arith.constant"() : () -> i32
  return
}

// -----

func.func @f(%f: f32, %i: i32, %t: tensor<4xf32>) {
  %0 = "arith.cmpf"(%f, %f) : (f32, f32) -> i1
  return
}

// -----

func.func @f(%f: f32, %i: i32, %t: tensor<4xf32>) {
  %0 = "arith.cmpi"(%i, %i) {predicate = "eq"} : (i32, i32) -> i1
  return
}

// -----

func.func @f(%f: f32, %i: i32, %t: tensor<4xf32>) {
  "func.call"(%f) {callee = "g"} : (f32) -> ()
  return
}

// -----

func.func @f(%f: f32, %i: i32, %t: tensor<4xf32>) {
  %0 = "linalg.index"() : () -> index
  return
}

// -----

func.func @f(%f: f32, %i: i32, %t: tensor<4xf32>) {
  %0 = "tensor.expand_shape"(%t) : (tensor<4xf32>) -> tensor<4x1xf32>
  return
}

// -----

func.func @f(%f: f32, %i: i32, %t: tensor<4xf32>) {
  %0 = "tensor.collapse_shape"(%t) {reassociation = 1} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @f(%f: f32, %i: i32, %t: tensor<4xf32>) {
  "torch.operator"(%f) : (f32) -> ()
  return
}

// -----

func.func @f(%f: f32, %i: i32, %t: tensor<4xf32>) {
  "fxvm.global"() {sym_name = "g", type = f32} : () -> ()
  return
}

// -----

func.func @f(%f: f32, %i: i32, %t: tensor<4xf32>) {
  %0 = "fxvm.result"() {index = 1.0} : () -> tensor<4xf32>
  return
}

// -----

func.func @f(%f: f32, %i: i32, %t: tensor<4xf32>) {
  %0 = "fxvm.alloc"() : () -> tensor<4xf32>
  return
}

// -----

func.func @f(%f: f32, %i: i32, %t: tensor<4xf32>) {
  %0 = "fxvm.view"(%t) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @f(%f: f32, %i: i32, %t: tensor<4xf32>) {
  %0 = "fxvm.constant"() {global = @a::@b} : () -> tensor<4xf32>
  return
}

// -----

func.func @f(%f: f32, %i: i32, %t: tensor<4xf32>) {
  "fxvm.dispatch"(%t) {kernel = @k, grid = array<i64: 1, 1>} : (tensor<4xf32>) -> ()
  return
}

// -----

func.func @f(%f: f32, %i: i32, %t: tensor<4xf32>) {
  "fxvm.fill"(%t) : (tensor<4xf32>) -> ()
  return
}
