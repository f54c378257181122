// RUN: codegen --cpu=sapphirerapids --dump-dispatches %s | FileCheck %s
// How kernels are cut into workgroups, for two threads (or more) to share
// evenly.  A classifier's matrix-vector product streams its 8 MB of
// weights from memory: one workgroup per 256 KB of them (32), not per
// MFLOP (3, of which one thread ran two).  A small GEMM: an even number of
// workgroups, about one per half MFLOP.  A 1x1 convolution of stride 2 to
// a 14x14 map, its pixels the GEMM's rows, more of them than channels,
// and its 221 KB of weights small enough to stay in cache: workgroups
// over M's 14 panels alone, each across all 3 of N's (they were 3 x 14),
// and
// its pack kernels cut along the panels and, where there are fewer panels
// than workgroups wanted, along k too (the 14 panels of A in 56 pieces,
// the 3 of B in 30; they were 5 and 3 workgroups).
// CHECK: dispatch_0: gemm micro-kernel, grid [32, 1, 1]
// CHECK-NEXT: name dispatch_0_matmul
// CHECK: gemm: batch 1, M 1, N 1000, K 2048, tile 1x32, A read in place
// CHECK: dispatch_1: gemm micro-kernel, grid [6, 1, 1]
// CHECK: gemm: batch 1, M 64, N 384, K 64, tile 8x32
// CHECK: dispatch_2: gemm micro-kernel, grid [1, 14, 1]
// CHECK: gemm: batch 1, M 196, N 96, K 576, tile 14x32
// CHECK: dispatch_3: loop nest, grid [56, 1, 1]
// CHECK: pack A of dispatch_2: [1][14][576][14]
// CHECK: dispatch_4: loop nest, grid [30, 1, 1]
// CHECK: pack B of dispatch_2: [1][3][576][32]
module {
  func.func @main(%x: tensor<1x2048xf32>, %cst: tensor<2048x1000xf32>, %a: tensor<64x64xf32>, %b: tensor<64x384xf32>, %y: tensor<1x576x28x28xf32>, %w: tensor<96x576x1x1xf32>) -> (tensor<1x1000xf32>, tensor<64x384xf32>, tensor<1x96x14x14xf32>) {
    %zero = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<1x1000xf32>
    %1 = linalg.fill ins(%zero : f32) outs(%0 : tensor<1x1000xf32>) -> tensor<1x1000xf32>
    %2 = linalg.matmul ins(%x, %cst : tensor<1x2048xf32>, tensor<2048x1000xf32>) outs(%1 : tensor<1x1000xf32>) -> tensor<1x1000xf32>
    %3 = tensor.empty() : tensor<64x384xf32>
    %4 = linalg.fill ins(%zero : f32) outs(%3 : tensor<64x384xf32>) -> tensor<64x384xf32>
    %5 = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x384xf32>) outs(%4 : tensor<64x384xf32>) -> tensor<64x384xf32>
    %6 = tensor.empty() : tensor<1x96x14x14xf32>
    %7 = linalg.fill ins(%zero : f32) outs(%6 : tensor<1x96x14x14xf32>) -> tensor<1x96x14x14xf32>
    %8 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%y, %w : tensor<1x576x28x28xf32>, tensor<96x576x1x1xf32>) outs(%7 : tensor<1x96x14x14xf32>) -> tensor<1x96x14x14xf32>
    return %2, %5, %8 : tensor<1x1000xf32>, tensor<64x384xf32>, tensor<1x96x14x14xf32>
  }
}
