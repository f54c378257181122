// RUN: not torch-opt -p '' --split-input-file %s 2>&1 | FileCheck %s
// CHECK: {{.*}}int-range.mlir:19:23: error: integer constant out of range for attribute
// CHECK: {{.*}}int-range.mlir:26:24: error: integer constant out of range for attribute
// CHECK: {{.*}}int-range.mlir:33:23: error: integer constant out of range for attribute
// CHECK: {{.*}}int-range.mlir:40:24: error: integer constant out of range for attribute
// CHECK: {{.*}}int-range.mlir:47:23: error: integer constant out of range for attribute
// CHECK: {{.*}}int-range.mlir:54:23: error: integer constant out of range for attribute
// CHECK: {{.*}}int-range.mlir:61:24: error: integer constant out of range for attribute
// CHECK: {{.*}}int-range.mlir:68:23: error: integer constant out of range for attribute
// CHECK: {{.*}}int-range.mlir:75:33: error: integer constant out of range for type
// CHECK: {{.*}}int-range.mlir:82:33: error: integer constant out of range for type
// CHECK: {{.*}}int-range.mlir:89:29: error: integer constant out of range for type
// CHECK: {{.*}}int-range.mlir:96:29: error: integer constant out of range for type
// CHECK: {{.*}}int-range.mlir:103:30: error: expected unsigned integer elements, but parsed negative value
// CHECK: {{.*}}int-range.mlir:110:40: error: integer constant out of range for type
// Integer literals out of range for their type are errors (MLIR's
// messages), never silently truncated: 300 : i8 once read as 44.
func.func @f0() {
  %c = arith.constant 300 : i8
  return
}

// -----

func.func @f1() {
  %c = arith.constant -129 : i8
  return
}

// -----

func.func @f2() {
  %c = arith.constant 2 : i1
  return
}

// -----

func.func @f3() {
  %c = arith.constant -2 : i1
  return
}

// -----

func.func @f4() {
  %c = arith.constant 65536 : i16
  return
}

// -----

func.func @f5() {
  %c = arith.constant 4294967296 : i32
  return
}

// -----

func.func @f6() {
  %c = arith.constant -2147483649 : i32
  return
}

// -----

func.func @f7() {
  %c = arith.constant 18446744073709551616 : i64
  return
}

// -----

func.func @f8() {
  %c = arith.constant dense<[1, 256]> : tensor<2xi8>
  return
}

// -----

func.func @f9() {
  %c = arith.constant dense<[1, 2]> : tensor<2xi1>
  return
}

// -----

func.func @f10() {
  %c = arith.constant dense<128> : tensor<2xsi8>
  return
}

// -----

func.func @f11() {
  %c = arith.constant dense<256> : tensor<2xui8>
  return
}

// -----

func.func @f12() {
  %c = arith.constant dense<-1> : tensor<2xui8>
  return
}

// -----

func.func @f13() {
  %c = torch.vtensor.literal(dense<[0, 40000]> : tensor<2xsi16>) : !torch.vtensor<[2],si16>
  return
}
