// RUN: codegen --dump-dispatches %S/inputs/seed-linear-linalg.mlir | FileCheck %s
// RUN: codegen %S/inputs/seed-linear-linalg.mlir | FileCheck %s --check-prefix=VM
// RUN: codegen %S/inputs/seed-linear-linalg.mlir | torch-opt -p '' | FileCheck %s --check-prefix=VM
// The seed LinearModule: the matmul and the bias add are one kernel; the
// returned expand_shape of an argument is a view, copied to its result.
// CHECK: dispatch_0: loop nest, grid [1, 1, 1], 4 bindings
// CHECK-NEXT: name dispatch_0_matmul_add, 88 bytes, 27 flops{{$}}
// CHECK: fused:
// CHECK-NEXT: linalg.matmul
// CHECK-NEXT: linalg.generic
// CHECK-NOT: dispatch_1
// VM: module attributes {fxvm.cpu = "{{.*}}", fxvm.features = "{{.*}}", fxvm.target = "cpu"}
// VM: fxvm.executable @kernels attributes {format = "elf-x86_64", object = dense_resource<kernels> : tensor<{{[0-9]+}}xui8>}
// VM: fxvm.kernel @dispatch_0 attributes {bindings = 4 : i64, bytes = 88 : i64, display_name = "dispatch_0_matmul_add", executable = @kernels, flops = 27 : i64, symbol = "dispatch_0"}
// VM: func.func @main(%arg0: tensor<4x3xf32>, %arg1: tensor<3xf32>, %arg2: tensor<4xf32>) -> (tensor<3xf32>, tensor<1x4xf32>) attributes {fxvm.arena = 0 : i64}
// VM-NEXT: %[[R0:.*]] = fxvm.result 0 : tensor<3xf32>
// VM-NEXT: %[[R1:.*]] = fxvm.result 1 : tensor<1x4xf32>
// VM-NEXT: fxvm.dispatch @dispatch_0[1, 1, 1](%arg1, %[[R0]], %arg2, %arg0) : tensor<3xf32>, tensor<3xf32>, tensor<4xf32>, tensor<4x3xf32>
// VM-NEXT: %[[V:.*]] = fxvm.view %arg2[0] : tensor<4xf32> -> tensor<1x4xf32>
// VM-NEXT: fxvm.copy %[[V]], %[[R1]] : tensor<1x4xf32>
// VM-NEXT: return %[[R0]], %[[R1]] : tensor<3xf32>, tensor<1x4xf32>
// VM: kernels: "0x40000000
