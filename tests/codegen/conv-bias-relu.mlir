// RUN: codegen --cpu=sapphirerapids --dump-dispatches %s | FileCheck %s
// RUN: codegen --cpu=sapphirerapids %s | FileCheck %s --check-prefix=VM
// A padded 3x3 convolution with bias and relu, as torch-lower writes it:
// one kernel, the padding read in place, the weights pre-packed.
// CHECK: dispatch_0: gemm micro-kernel
// CHECK: fused:
// CHECK-NEXT: tensor.insert_slice
// CHECK-NEXT: linalg.generic {{.*}}conv-bias-relu.mlir:34
// CHECK-NEXT: linalg.generic {{.*}}conv-bias-relu.mlir:42
// CHECK-NEXT: linalg.generic {{.*}}conv-bias-relu.mlir:47
// CHECK-NEXT: gemm: batch 1, M 8, N 64, K 36
// CHECK: pack B of dispatch_0
// CHECK-NOT: dispatch_2
// VM: fxvm.global @[[W:cst[0-9]+]] : tensor<288xf32> = dense_resource<dispatch_0_packed_a> : tensor<288xf32>
// VM: %[[PW:.*]] = fxvm.constant @[[W]]
// VM: fxvm.dispatch @dispatch_1[{{.*}}](%arg0, %[[P:.*]]) :
// VM: fxvm.dispatch @dispatch_0[{{.*}}](%{{.*}}, %{{.*}}, %[[PW]], %[[P]]) :
#in = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d5, d3 + d6, d4 + d7)>
#w = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d1, d2, d5, d6, d7)>
#out = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2, d3, d4)>
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d1)>
func.func @main(%x: tensor<1x4x8x8xf32>) -> tensor<1x8x8x8xf32> {
  %w0 = arith.constant dense<[-0.75, 0.12, -0.62, 0.25, -0.50, 0.38, -0.38, 0.50, -0.25, 0.62, -0.12, 0.75, 0.00, -0.75, 0.12, -0.62, 0.25, -0.50, 0.38, -0.38, 0.50, -0.25, 0.62, -0.12, 0.75, 0.00, -0.75, 0.12, -0.62, 0.25, -0.50, 0.38, -0.38, 0.50, -0.25, 0.62, -0.12, 0.75, 0.00, -0.75, 0.12, -0.62, 0.25, -0.50, 0.38, -0.38, 0.50, -0.25, 0.62, -0.12, 0.75, 0.00, -0.75, 0.12, -0.62, 0.25, -0.50, 0.38, -0.38, 0.50, -0.25, 0.62, -0.12, 0.75, 0.00, -0.75, 0.12, -0.62, 0.25, -0.50, 0.38, -0.38, 0.50, -0.25, 0.62, -0.12, 0.75, 0.00, -0.75, 0.12, -0.62, 0.25, -0.50, 0.38, -0.38, 0.50, -0.25, 0.62, -0.12, 0.75, 0.00, -0.75, 0.12, -0.62, 0.25, -0.50, 0.38, -0.38, 0.50, -0.25, 0.62, -0.12, 0.75, 0.00, -0.75, 0.12, -0.62, 0.25, -0.50, 0.38, -0.38, 0.50, -0.25, 0.62, -0.12, 0.75, 0.00, -0.75, 0.12, -0.62, 0.25, -0.50, 0.38, -0.38, 0.50, -0.25, 0.62, -0.12, 0.75, 0.00, -0.75, 0.12, -0.62, 0.25, -0.50, 0.38, -0.38, 0.50, -0.25, 0.62, -0.12, 0.75, 0.00, -0.75, 0.12, -0.62, 0.25, -0.50, 0.38, -0.38, 0.50, -0.25, 0.62, -0.12, 0.75, 0.00, -0.75, 0.12, -0.62, 0.25, -0.50, 0.38, -0.38, 0.50, -0.25, 0.62, -0.12, 0.75, 0.00, -0.75, 0.12, -0.62, 0.25, -0.50, 0.38, -0.38, 0.50, -0.25, 0.62, -0.12, 0.75, 0.00, -0.75, 0.12, -0.62, 0.25, -0.50, 0.38, -0.38, 0.50, -0.25, 0.62, -0.12, 0.75, 0.00, -0.75, 0.12, -0.62, 0.25, -0.50, 0.38, -0.38, 0.50, -0.25, 0.62, -0.12, 0.75, 0.00, -0.75, 0.12, -0.62, 0.25, -0.50, 0.38, -0.38, 0.50, -0.25, 0.62, -0.12, 0.75, 0.00, -0.75, 0.12, -0.62, 0.25, -0.50, 0.38, -0.38, 0.50, -0.25, 0.62, -0.12, 0.75, 0.00, -0.75, 0.12, -0.62, 0.25, -0.50, 0.38, -0.38, 0.50, -0.25, 0.62, -0.12, 0.75, 0.00, -0.75, 0.12, -0.62, 0.25, -0.50, 0.38, -0.38, 0.50, -0.25, 0.62, -0.12, 0.75, 0.00, -0.75, 0.12, -0.62, 0.25, -0.50, 0.38, -0.38, 0.50, -0.25, 0.62, -0.12, 0.75, 0.00, -0.75, 0.12, -0.62, 0.25, -0.50, 0.38, -0.38, 0.50, -0.25, 0.62, -0.12, 0.75, 0.00, -0.75, 0.12]> : tensor<288xf32>
  %w = tensor.expand_shape %w0 [[0, 1, 2, 3, 4]] : tensor<288xf32> into tensor<1x8x4x3x3xf32>
  %b = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x10x10xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x10x10xf32>) -> tensor<1x4x10x10xf32>
  %p = tensor.insert_slice %x into %f[0, 0, 1, 1] [1, 4, 8, 8] [1, 1, 1, 1] : tensor<1x4x8x8xf32> into tensor<1x4x10x10xf32>
  %px = tensor.expand_shape %p [[0], [1, 2], [3], [4]] : tensor<1x4x10x10xf32> into tensor<1x1x4x10x10xf32>
  %e1 = tensor.empty() : tensor<1x1x8x8x8xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x1x8x8x8xf32>) -> tensor<1x1x8x8x8xf32>
  %c = linalg.generic {indexing_maps = [#in, #w, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%px, %w : tensor<1x1x4x10x10xf32>, tensor<1x8x4x3x3xf32>) outs(%f1 : tensor<1x1x8x8x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %m = arith.mulf %in, %in_0 : f32
    %a = arith.addf %out, %m : f32
    linalg.yield %a : f32
  } -> tensor<1x1x8x8x8xf32>
  %cc = tensor.collapse_shape %c [[0], [1, 2], [3], [4]] : tensor<1x1x8x8x8xf32> into tensor<1x8x8x8xf32>
  %e2 = tensor.empty() : tensor<1x8x8x8xf32>
  %bias = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cc, %b : tensor<1x8x8x8xf32>, tensor<8xf32>) outs(%e2 : tensor<1x8x8x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %s = arith.addf %in, %in_0 : f32
    linalg.yield %s : f32
  } -> tensor<1x8x8x8xf32>
  %relu = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%bias : tensor<1x8x8x8xf32>) outs(%e2 : tensor<1x8x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %z = arith.constant 0.0 : f32
    %r = arith.maxf %in, %z : f32
    linalg.yield %r : f32
  } -> tensor<1x8x8x8xf32>
  return %relu : tensor<1x8x8x8xf32>
}
