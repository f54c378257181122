// RUN: not torch-opt -p '' --split-input-file %s 2>&1 | FileCheck %s
// CHECK: {{.*}}int-range.mlir:24:23: error: integer constant out of range for attribute
// CHECK: {{.*}}int-range.mlir:31:24: error: integer constant out of range for attribute
// CHECK: {{.*}}int-range.mlir:38:23: error: integer constant out of range for attribute
// CHECK: {{.*}}int-range.mlir:45:24: error: integer constant out of range for attribute
// CHECK: {{.*}}int-range.mlir:52:23: error: integer constant out of range for attribute
// CHECK: {{.*}}int-range.mlir:59:23: error: integer constant out of range for attribute
// CHECK: {{.*}}int-range.mlir:66:24: error: integer constant out of range for attribute
// CHECK: {{.*}}int-range.mlir:73:23: error: integer constant out of range for attribute
// CHECK: {{.*}}int-range.mlir:80:33: error: integer constant out of range for type
// CHECK: {{.*}}int-range.mlir:87:33: error: integer constant out of range for type
// CHECK: {{.*}}int-range.mlir:94:29: error: integer constant out of range for type
// CHECK: {{.*}}int-range.mlir:101:29: error: integer constant out of range for type
// CHECK: {{.*}}int-range.mlir:108:30: error: expected unsigned integer elements, but parsed negative value
// CHECK: {{.*}}int-range.mlir:115:40: error: integer constant out of range for type
// CHECK: {{.*}}int-range.mlir:122:23: error: hexadecimal float constant out of range for type
// CHECK: {{.*}}int-range.mlir:129:23: error: hexadecimal float constant out of range for type
// CHECK: {{.*}}int-range.mlir:136:23: error: hexadecimal float constant out of range for type
// CHECK: {{.*}}int-range.mlir:143:29: error: hexadecimal float constant out of range for type
// Integer literals out of range for their type are errors (MLIR's
// messages), never silently truncated: 300 : i8 once read as 44.  So are
// hexadecimal float literals with more bits than their type.
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

// -----

func.func @h() {
  %c = arith.constant 0x123456789 : f32
  return
}

// -----

func.func @h() {
  %c = arith.constant 0x10000 : f16
  return
}

// -----

func.func @h() {
  %c = arith.constant 0x1FFFF : bf16
  return
}

// -----

func.func @h() {
  %c = arith.constant dense<0x10000> : tensor<2xf16>
  return
}
