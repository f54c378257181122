// RUN: codegen --cpu=sapphirerapids --dump-dispatches %s | FileCheck %s
// RUN: codegen --cpu=sapphirerapids %s | FileCheck %s --check-prefix=HOST
// RUN: codegen --cpu=haswell --dump-dispatches %s | FileCheck %s --check-prefix=AVX2
// A 1x1 convolution's output that only a 3x3 convolution reads (through
// its pad) lives channels last: the first GEMM stores it NHWC with its
// pixels as rows (the channels a row of vectors), the second's copy
// reads it NHWC, and the host allocates it so.  The result keeps NCHW.
// 64 channels are two panels of 32 (AVX-512), four of 16 (AVX2).
// CHECK-LABEL: dispatch_0:
// CHECK: out 0: tensor<1x9x8x64xf32>
// CHECK: gemm: batch 1, M 72, N 64, K 64, tile 12x32, A read in place
// CHECK-LABEL: dispatch_2:
// CHECK: out 0: tensor<1x64x9x8xf32>
// CHECK: gemm: batch 1, M 72, N 64, K 576, tile 8x32, A read through its taps
// CHECK-LABEL: dispatch_3:
// CHECK: in  0: tensor<1x9x8x64xf32>
// CHECK: pack A of dispatch_2: [1][11][10][64] channels last
// HOST: %[[B:[0-9]+]] = fxvm.alloc {{[0-9]+}} : tensor<1x9x8x64xf32>
// HOST: fxvm.dispatch @dispatch_0[{{.*}}](%[[B]], %arg0,
// AVX2: out 0: tensor<1x9x8x64xf32>
module {
  func.func @main(%x: tensor<1x64x9x8xf32>, %w1: tensor<64x64x1x1xf32>, %w2: tensor<64x64x3x3xf32>) -> tensor<1x64x9x8xf32> {
    %z = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<1x64x9x8xf32>
    %1 = linalg.fill ins(%z : f32) outs(%0 : tensor<1x64x9x8xf32>) -> tensor<1x64x9x8xf32>
    %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w1 : tensor<1x64x9x8xf32>, tensor<64x64x1x1xf32>) outs(%1 : tensor<1x64x9x8xf32>) -> tensor<1x64x9x8xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a : tensor<1x64x9x8xf32>) outs(%0 : tensor<1x64x9x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %m = arith.maxf %in, %z : f32
      linalg.yield %m : f32
    } -> tensor<1x64x9x8xf32>
    %2 = tensor.empty() : tensor<1x64x11x10xf32>
    %3 = linalg.fill ins(%z : f32) outs(%2 : tensor<1x64x11x10xf32>) -> tensor<1x64x11x10xf32>
    %p = tensor.insert_slice %r into %3[0, 0, 1, 1] [1, 64, 9, 8] [1, 1, 1, 1] : tensor<1x64x9x8xf32> into tensor<1x64x11x10xf32>
    %b = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %w2 : tensor<1x64x11x10xf32>, tensor<64x64x3x3xf32>) outs(%1 : tensor<1x64x9x8xf32>) -> tensor<1x64x9x8xf32>
    return %b : tensor<1x64x9x8xf32>
  }
}
