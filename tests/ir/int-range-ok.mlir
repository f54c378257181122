// RUN: torch-opt -p '' %s | FileCheck %s
// Literals at the edges of their types' ranges read back (255 : i8 is -1).
// CHECK-LABEL: func.func @edges
// CHECK: arith.constant -1 : i8
// CHECK: arith.constant -128 : i8
// CHECK: arith.constant true
// CHECK: arith.constant -1 : i64
// CHECK: dense<255> : tensor<2xui8>
// CHECK: dense<-128> : tensor<2xsi8>
// CHECK: arith.constant 0x7C00 : f16
func.func @edges() {
  %a = arith.constant 255 : i8
  %b = arith.constant -128 : i8
  %c = arith.constant -1 : i1
  %d = arith.constant 18446744073709551615 : i64
  %e = arith.constant dense<255> : tensor<2xui8>
  %f = arith.constant dense<-128> : tensor<2xsi8>
  %g = arith.constant 70000.0 : f16
  return
}
