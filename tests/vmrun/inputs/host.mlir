// Host programs without kernels: views, copies, fills, constants, the
// arena, and one identity function per element type.  Hand-written.
module attributes {fxvm.target = "cpu"} {
  "fxvm.global"() {sym_name = "w", type = tensor<2x2xf32>, value = dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>} : () -> ()
  "fxvm.global"() {sym_name = "ones", type = tensor<3xi64>, value = dense<1> : tensor<3xi64>} : () -> ()
  "fxvm.global"() {sym_name = "blob", type = tensor<4xi16>, value = dense_resource<blob> : tensor<4xi16>} : () -> ()
  // The whole argument flattened, and its second row by a view at byte 12.
  func.func @views(%x: tensor<2x3xf32>) -> (tensor<6xf32>, tensor<3xf32>) {
    %flat = "fxvm.view"(%x) {offset = 0 : i64} : (tensor<2x3xf32>) -> tensor<6xf32>
    %row = "fxvm.view"(%x) {offset = 12 : i64} : (tensor<2x3xf32>) -> tensor<3xf32>
    %0 = "fxvm.result"() {index = 0 : i64} : () -> tensor<6xf32>
    %1 = "fxvm.result"() {index = 1 : i64} : () -> tensor<3xf32>
    "fxvm.copy"(%flat, %0) : (tensor<6xf32>, tensor<6xf32>) -> ()
    "fxvm.copy"(%row, %1) : (tensor<3xf32>, tensor<3xf32>) -> ()
    return %0, %1 : tensor<6xf32>, tensor<3xf32>
  }
  func.func @fills() -> (tensor<4xi32>, tensor<2xf16>, tensor<3xi1>, tensor<2xbf16>, tensor<2xf64>, tensor<2xi8>) {
    %0 = "fxvm.result"() {index = 0 : i64} : () -> tensor<4xi32>
    %1 = "fxvm.result"() {index = 1 : i64} : () -> tensor<2xf16>
    %2 = "fxvm.result"() {index = 2 : i64} : () -> tensor<3xi1>
    %3 = "fxvm.result"() {index = 3 : i64} : () -> tensor<2xbf16>
    %4 = "fxvm.result"() {index = 4 : i64} : () -> tensor<2xf64>
    %5 = "fxvm.result"() {index = 5 : i64} : () -> tensor<2xi8>
    "fxvm.fill"(%0) {value = -7 : i32} : (tensor<4xi32>) -> ()
    "fxvm.fill"(%1) {value = 1.5 : f16} : (tensor<2xf16>) -> ()
    "fxvm.fill"(%2) {value = true} : (tensor<3xi1>) -> ()
    "fxvm.fill"(%3) {value = -2.5 : bf16} : (tensor<2xbf16>) -> ()
    "fxvm.fill"(%4) {value = 0.1 : f64} : (tensor<2xf64>) -> ()
    "fxvm.fill"(%5) {value = -1 : i8} : (tensor<2xi8>) -> ()
    return %0, %1, %2, %3, %4, %5 : tensor<4xi32>, tensor<2xf16>, tensor<3xi1>, tensor<2xbf16>, tensor<2xf64>, tensor<2xi8>
  }
  // Fills of a megabyte or more run on the thread pool in 256 KB pieces:
  // sizes that are not a whole number of pieces, 8- and 2-byte patterns.
  func.func @bigfills() -> (tensor<327683xf64>, tensor<600001xi16>) {
    %0 = "fxvm.result"() {index = 0 : i64} : () -> tensor<327683xf64>
    %1 = "fxvm.result"() {index = 1 : i64} : () -> tensor<600001xi16>
    "fxvm.fill"(%0) {value = 0.1 : f64} : (tensor<327683xf64>) -> ()
    "fxvm.fill"(%1) {value = -2 : i16} : (tensor<600001xi16>) -> ()
    return %0, %1 : tensor<327683xf64>, tensor<600001xi16>
  }
  func.func @consts() -> (tensor<2x2xf32>, tensor<3xi64>, tensor<4xi16>) {
    %w = "fxvm.constant"() {global = @w} : () -> tensor<2x2xf32>
    %o = "fxvm.constant"() {global = @ones} : () -> tensor<3xi64>
    %b = "fxvm.constant"() {global = @blob} : () -> tensor<4xi16>
    %0 = "fxvm.result"() {index = 0 : i64} : () -> tensor<2x2xf32>
    %1 = "fxvm.result"() {index = 1 : i64} : () -> tensor<3xi64>
    %2 = "fxvm.result"() {index = 2 : i64} : () -> tensor<4xi16>
    "fxvm.copy"(%w, %0) : (tensor<2x2xf32>, tensor<2x2xf32>) -> ()
    "fxvm.copy"(%o, %1) : (tensor<3xi64>, tensor<3xi64>) -> ()
    "fxvm.copy"(%b, %2) : (tensor<4xi16>, tensor<4xi16>) -> ()
    return %0, %1, %2 : tensor<2x2xf32>, tensor<3xi64>, tensor<4xi16>
  }
  // The arena: %a and then %b live at offset 0 (the planner's reuse once
  // %a is dead); results: x, and x with elements 2 and 3 set to 9.
  func.func @arena(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) attributes {fxvm.arena = 64 : i64} {
    %a = "fxvm.alloc"() {offset = 0 : i64} : () -> tensor<4xf32>
    "fxvm.copy"(%x, %a) : (tensor<4xf32>, tensor<4xf32>) -> ()
    %0 = "fxvm.result"() {index = 0 : i64} : () -> tensor<4xf32>
    "fxvm.copy"(%a, %0) : (tensor<4xf32>, tensor<4xf32>) -> ()
    %b = "fxvm.alloc"() {offset = 0 : i64} : () -> tensor<2xf32>
    "fxvm.fill"(%b) {value = 9.0 : f32} : (tensor<2xf32>) -> ()
    %1 = "fxvm.result"() {index = 1 : i64} : () -> tensor<4xf32>
    "fxvm.copy"(%x, %1) : (tensor<4xf32>, tensor<4xf32>) -> ()
    %tail = "fxvm.view"(%1) {offset = 8 : i64} : (tensor<4xf32>) -> tensor<2xf32>
    "fxvm.copy"(%b, %tail) : (tensor<2xf32>, tensor<2xf32>) -> ()
    return %0, %1 : tensor<4xf32>, tensor<4xf32>
  }
  func.func @scalar(%x: tensor<f32>) -> tensor<f32> {
    %0 = "fxvm.result"() {index = 0 : i64} : () -> tensor<f32>
    "fxvm.copy"(%x, %0) : (tensor<f32>, tensor<f32>) -> ()
    return %0 : tensor<f32>
  }
  func.func @two(%x: tensor<4xf32>, %y: tensor<2x3xi32>) -> (tensor<2x3xi32>, tensor<4xf32>) {
    %0 = "fxvm.result"() {index = 0 : i64} : () -> tensor<2x3xi32>
    %1 = "fxvm.result"() {index = 1 : i64} : () -> tensor<4xf32>
    "fxvm.copy"(%y, %0) : (tensor<2x3xi32>, tensor<2x3xi32>) -> ()
    "fxvm.copy"(%x, %1) : (tensor<4xf32>, tensor<4xf32>) -> ()
    return %0, %1 : tensor<2x3xi32>, tensor<4xf32>
  }
  func.func @id_f32(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
    %0 = "fxvm.result"() {index = 0 : i64} : () -> tensor<2x3xf32>
    "fxvm.copy"(%x, %0) : (tensor<2x3xf32>, tensor<2x3xf32>) -> ()
    return %0 : tensor<2x3xf32>
  }
  func.func @id_f64(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
    %0 = "fxvm.result"() {index = 0 : i64} : () -> tensor<2x3xf64>
    "fxvm.copy"(%x, %0) : (tensor<2x3xf64>, tensor<2x3xf64>) -> ()
    return %0 : tensor<2x3xf64>
  }
  func.func @id_f16(%x: tensor<2x3xf16>) -> tensor<2x3xf16> {
    %0 = "fxvm.result"() {index = 0 : i64} : () -> tensor<2x3xf16>
    "fxvm.copy"(%x, %0) : (tensor<2x3xf16>, tensor<2x3xf16>) -> ()
    return %0 : tensor<2x3xf16>
  }
  func.func @id_bf16(%x: tensor<2x3xbf16>) -> tensor<2x3xbf16> {
    %0 = "fxvm.result"() {index = 0 : i64} : () -> tensor<2x3xbf16>
    "fxvm.copy"(%x, %0) : (tensor<2x3xbf16>, tensor<2x3xbf16>) -> ()
    return %0 : tensor<2x3xbf16>
  }
  func.func @id_i64(%x: tensor<2x3xi64>) -> tensor<2x3xi64> {
    %0 = "fxvm.result"() {index = 0 : i64} : () -> tensor<2x3xi64>
    "fxvm.copy"(%x, %0) : (tensor<2x3xi64>, tensor<2x3xi64>) -> ()
    return %0 : tensor<2x3xi64>
  }
  func.func @id_i32(%x: tensor<2x3xi32>) -> tensor<2x3xi32> {
    %0 = "fxvm.result"() {index = 0 : i64} : () -> tensor<2x3xi32>
    "fxvm.copy"(%x, %0) : (tensor<2x3xi32>, tensor<2x3xi32>) -> ()
    return %0 : tensor<2x3xi32>
  }
  func.func @id_i16(%x: tensor<2x3xi16>) -> tensor<2x3xi16> {
    %0 = "fxvm.result"() {index = 0 : i64} : () -> tensor<2x3xi16>
    "fxvm.copy"(%x, %0) : (tensor<2x3xi16>, tensor<2x3xi16>) -> ()
    return %0 : tensor<2x3xi16>
  }
  func.func @id_i8(%x: tensor<2x3xi8>) -> tensor<2x3xi8> {
    %0 = "fxvm.result"() {index = 0 : i64} : () -> tensor<2x3xi8>
    "fxvm.copy"(%x, %0) : (tensor<2x3xi8>, tensor<2x3xi8>) -> ()
    return %0 : tensor<2x3xi8>
  }
  func.func @id_ui8(%x: tensor<2x3xui8>) -> tensor<2x3xui8> {
    %0 = "fxvm.result"() {index = 0 : i64} : () -> tensor<2x3xui8>
    "fxvm.copy"(%x, %0) : (tensor<2x3xui8>, tensor<2x3xui8>) -> ()
    return %0 : tensor<2x3xui8>
  }
  func.func @id_i1(%x: tensor<2x3xi1>) -> tensor<2x3xi1> {
    %0 = "fxvm.result"() {index = 0 : i64} : () -> tensor<2x3xi1>
    "fxvm.copy"(%x, %0) : (tensor<2x3xi1>, tensor<2x3xi1>) -> ()
    return %0 : tensor<2x3xi1>
  }
  // Fills with an interior (a pad whose inside the next dispatch
  // writes): the runtime fills only the outside, so each result, filled
  // whole first, keeps its first value inside the box: rank 3 (the box
  // inside every dim), 1 (i8), 4 (f64, whole along one dim), an empty box
  // (all of it filled) and the whole tensor (nothing filled again).
  func.func @fill_outside() -> (tensor<2x3x4xf32>, tensor<5xi8>, tensor<2x2x3x4xf64>, tensor<3x4xi16>, tensor<2x2xf32>) {
    %0 = "fxvm.result"() {index = 0 : i64} : () -> tensor<2x3x4xf32>
    %1 = "fxvm.result"() {index = 1 : i64} : () -> tensor<5xi8>
    %2 = "fxvm.result"() {index = 2 : i64} : () -> tensor<2x2x3x4xf64>
    %3 = "fxvm.result"() {index = 3 : i64} : () -> tensor<3x4xi16>
    %4 = "fxvm.result"() {index = 4 : i64} : () -> tensor<2x2xf32>
    "fxvm.fill"(%0) {value = 7.0 : f32} : (tensor<2x3x4xf32>) -> ()
    "fxvm.fill"(%0) {value = 0.0 : f32, interior = array<i64: 1, 1, 1, 1, 2, 2>} : (tensor<2x3x4xf32>) -> ()
    "fxvm.fill"(%1) {value = 1 : i8} : (tensor<5xi8>) -> ()
    "fxvm.fill"(%1) {value = -3 : i8, interior = array<i64: 1, 3>} : (tensor<5xi8>) -> ()
    "fxvm.fill"(%2) {value = 2.0 : f64} : (tensor<2x2x3x4xf64>) -> ()
    "fxvm.fill"(%2) {value = 0.5 : f64, interior = array<i64: 1, 0, 1, 1, 1, 2, 1, 3>} : (tensor<2x2x3x4xf64>) -> ()
    "fxvm.fill"(%3) {value = 5 : i16} : (tensor<3x4xi16>) -> ()
    "fxvm.fill"(%3) {value = 9 : i16, interior = array<i64: 1, 2, 0, 2>} : (tensor<3x4xi16>) -> ()
    "fxvm.fill"(%4) {value = 1.0 : f32} : (tensor<2x2xf32>) -> ()
    "fxvm.fill"(%4) {value = 4.0 : f32, interior = array<i64: 0, 0, 2, 2>} : (tensor<2x2xf32>) -> ()
    return %0, %1, %2, %3, %4 : tensor<2x3x4xf32>, tensor<5xi8>, tensor<2x2x3x4xf64>, tensor<3x4xi16>, tensor<2x2xf32>
  }
}

{-#
  dialect_resources: {
    builtin: {
      blob: "0x020000000100feff0300fcff"
    }
  }
#-}
