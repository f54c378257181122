// RUN: codegen --cpu=x86-64-v3 --dump-dispatches %s | FileCheck %s
// attention's P @ V, its heads stored side by side ([tokens, heads *
// width]: a transpose and a reshape fused into the store, an
// elementwise op reading the [tokens, heads * width] view): the innermost
// output index reads the head and the column, and the column, of step
// 1, is N, so the contraction is a GEMM (it was a loop nest: 31 of the
// 101 ms of a BERT-base layer under autocast).  Where the head has step
// 1 (a batch dim, read by both operands) it stays a loop nest.
// CHECK: dispatch_0: gemm micro-kernel
// CHECK: linalg.batch_matmul
// CHECK-NEXT: linalg.transpose
// CHECK-NEXT: linalg.generic
// CHECK-NEXT: gemm: batch 4, M 13, N 16, K 40
// CHECK: dispatch_{{[0-9]+}}: loop nest
// CHECK-NOT: gemm
// CHECK: linalg.batch_matmul
// CHECK-NEXT: linalg.transpose
// CHECK-NEXT: linalg.generic
// CHECK-NOT: gemm
func.func @heads(%p: tensor<4x13x40xf32>, %v: tensor<4x40x16xf32>) -> tensor<13x64xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<4x13x16xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<4x13x16xf32>) -> tensor<4x13x16xf32>
  %2 = linalg.batch_matmul ins(%p, %v : tensor<4x13x40xf32>, tensor<4x40x16xf32>) outs(%1 : tensor<4x13x16xf32>) -> tensor<4x13x16xf32>
  %3 = tensor.empty() : tensor<13x4x16xf32>
  %t = linalg.transpose ins(%2 : tensor<4x13x16xf32>) outs(%3 : tensor<13x4x16xf32>) permutation = [1, 0, 2]
  %c = tensor.collapse_shape %t [[0], [1, 2]] : tensor<13x4x16xf32> into tensor<13x64xf32>
  %e = tensor.empty() : tensor<13x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<13x64xf32>) outs(%e : tensor<13x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.addf %in, %in : f32
    linalg.yield %y : f32
  } -> tensor<13x64xf32>
  return %r : tensor<13x64xf32>
}
func.func @head_innermost(%p: tensor<4x13x40xf32>, %v: tensor<4x40x16xf32>) -> tensor<13x64xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<4x13x16xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<4x13x16xf32>) -> tensor<4x13x16xf32>
  %2 = linalg.batch_matmul ins(%p, %v : tensor<4x13x40xf32>, tensor<4x40x16xf32>) outs(%1 : tensor<4x13x16xf32>) -> tensor<4x13x16xf32>
  %3 = tensor.empty() : tensor<13x16x4xf32>
  %t = linalg.transpose ins(%2 : tensor<4x13x16xf32>) outs(%3 : tensor<13x16x4xf32>) permutation = [1, 2, 0]
  %c = tensor.collapse_shape %t [[0], [1, 2]] : tensor<13x16x4xf32> into tensor<13x64xf32>
  %e = tensor.empty() : tensor<13x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<13x64xf32>) outs(%e : tensor<13x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.addf %in, %in : f32
    linalg.yield %y : f32
  } -> tensor<13x64xf32>
  return %r : tensor<13x64xf32>
}
