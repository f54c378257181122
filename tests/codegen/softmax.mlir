// RUN: codegen --dump-dispatches %s | FileCheck %s
// Softmax over the last dim: the max, then x - max and exp in one kernel
// (exp has two readers and is stored once rather than computed twice),
// the sum, and the division.
// CHECK: dispatch_0: loop nest
// CHECK: out 0: tensor<4xf32>
// CHECK: dispatch_1: loop nest
// CHECK: out 2: tensor<4x64xf32>
// CHECK: fused:
// CHECK-NEXT: linalg.generic {{.*}}softmax.mlir:30
// CHECK-NEXT: linalg.generic {{.*}}softmax.mlir:35
// CHECK: dispatch_2: loop nest
// CHECK: out 0: tensor<4xf32>
// CHECK: dispatch_3: loop nest
// CHECK: out 2: tensor<4x64xf32>
// CHECK-NOT: dispatch_4
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @main(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<4xf32>
  %f1 = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x64xf32>) outs(%f1 : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maxf %in, %out : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  %e2 = tensor.empty() : tensor<4x64xf32>
  %sub = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %max : tensor<4x64xf32>, tensor<4xf32>) outs(%e2 : tensor<4x64xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %s = arith.subf %in, %in_0 : f32
    linalg.yield %s : f32
  } -> tensor<4x64xf32>
  %exp = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%sub : tensor<4x64xf32>) outs(%e2 : tensor<4x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = math.exp %in : f32
    linalg.yield %s : f32
  } -> tensor<4x64xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%exp : tensor<4x64xf32>) outs(%f2 : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %div = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%exp, %sum : tensor<4x64xf32>, tensor<4xf32>) outs(%e2 : tensor<4x64xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %s = arith.divf %in, %in_0 : f32
    linalg.yield %s : f32
  } -> tensor<4x64xf32>
  return %div : tensor<4x64xf32>
}
