// RUN: codegen --dump-dispatches %s | FileCheck %s --allow-empty --check-prefix=DUMP
// RUN: codegen %s | FileCheck %s
// Reshapes only relabel memory: no kernel, views and a copy to the result.
// DUMP-NOT: dispatch
// CHECK-NOT: fxvm.kernel
// CHECK: func.func @main(%arg0: tensor<2x3x4xf32>) -> tensor<6x4xf32> attributes {fxvm.arena = 0 : i64}
// CHECK-NEXT: %[[R:.*]] = fxvm.result 0 : tensor<6x4xf32>
// CHECK-NEXT: %[[V:.*]] = fxvm.view %arg0[0] : tensor<2x3x4xf32> -> tensor<24xf32>
// CHECK-NEXT: %[[W:.*]] = fxvm.view %[[V]][0] : tensor<24xf32> -> tensor<6x4xf32>
// CHECK-NEXT: fxvm.copy %[[W]], %[[R]] : tensor<6x4xf32>
// CHECK-NOT: fxvm.dispatch
func.func @main(%x: tensor<2x3x4xf32>) -> tensor<6x4xf32> {
  %a = tensor.collapse_shape %x [[0, 1, 2]] : tensor<2x3x4xf32> into tensor<24xf32>
  %b = tensor.expand_shape %a [[0, 1]] : tensor<24xf32> into tensor<6x4xf32>
  return %b : tensor<6x4xf32>
}
