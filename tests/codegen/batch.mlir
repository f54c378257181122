// RUN: codegen %s | FileCheck %s
// RUN: codegen %s | torch-opt -p '' | FileCheck %s --check-prefix=READ
// A function with a dynamic batch: each batch item computed on its own, so
// codegen compiles it at batch 8 (taking the items it computes: a bounded
// chunk) and 1 (static, as any function) and
// declares @main with fxvm.batch: the range from the check on the batch,
// the chunk sizes and functions (formats/fxvm.md, "Dynamic batch").
// CHECK: func.func @main(tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x2x2xf32> attributes {fxvm.batch = {bounded = true, functions = [@main.batch8, @main.batch1], max = 64 : i64, min = 1 : i64, sizes = array<i64: 8, 1>}}
// CHECK-NOT: cf.assert
// CHECK: func.func @main.batch8(%arg0: tensor<8x4xf32>, %arg1: tensor<4xf32>, %arg2: tensor<1xi64>) -> tensor<8x2x2xf32>
// CHECK: fxvm.dispatch @dispatch_0[1, 1, 1](%arg0, %arg1, %{{[0-9]+}}, %arg2)
// CHECK: func.func @main.batch1(%arg0: tensor<1x4xf32>, %arg1: tensor<4xf32>) -> tensor<1x2x2xf32>
// READ: func.func @main(tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x2x2xf32> attributes {fxvm.batch
func.func @main(%x: tensor<?x4xf32>, %b: tensor<4xf32>) -> tensor<?x2x2xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x4xf32>
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %lo = arith.cmpi sge, %n, %c1 : index
  %hi = arith.cmpi sle, %n, %c64 : index
  %ok = arith.andi %lo, %hi : i1
  cf.assert %ok, "input 0: dimension 0 (batch) must be in [1, 64]"
  %e = tensor.empty(%n) : tensor<?x4xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %b : tensor<?x4xf32>, tensor<4xf32>) outs(%e : tensor<?x4xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    linalg.yield %s : f32
  } -> tensor<?x4xf32>
  %r = tensor.expand_shape %y [[0], [1, 2]] : tensor<?x4xf32> into tensor<?x2x2xf32>
  return %r : tensor<?x2x2xf32>
}
