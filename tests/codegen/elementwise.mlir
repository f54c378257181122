// RUN: codegen --dump-dispatches %s | FileCheck %s
// RUN: codegen %s | FileCheck %s --check-prefix=VM
// A chain of elementwise ops (add, mul by a broadcast row, tanh) through a
// reshape: one kernel, nothing in between reaches memory.
// CHECK: dispatch_0: loop nest
// CHECK: fused:
// CHECK-NEXT: linalg.generic {{.*}}elementwise.mlir:17
// CHECK-NEXT: linalg.generic {{.*}}elementwise.mlir:22
// CHECK-NEXT: linalg.generic {{.*}}elementwise.mlir:29
// CHECK-NOT: dispatch_1
// VM: fxvm.arena = 0 : i64
// VM-NOT: fxvm.alloc
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @main(%x: tensor<8x16xf32>, %y: tensor<8x16xf32>, %s: tensor<16xf32>) -> tensor<128xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %a = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %y : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %r = arith.addf %in, %in_0 : f32
    linalg.yield %r : f32
  } -> tensor<8x16xf32>
  %m = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%a, %s : tensor<8x16xf32>, tensor<16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %r = arith.mulf %in, %in_0 : f32
    linalg.yield %r : f32
  } -> tensor<8x16xf32>
  %c = tensor.collapse_shape %m [[0, 1]] : tensor<8x16xf32> into tensor<128xf32>
  %e1 = tensor.empty() : tensor<128xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%c : tensor<128xf32>) outs(%e1 : tensor<128xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = math.tanh %in : f32
    linalg.yield %r : f32
  } -> tensor<128xf32>
  return %t : tensor<128xf32>
}
