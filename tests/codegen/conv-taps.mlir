// RUN: codegen --cpu=sapphirerapids --dump-dispatches %s | FileCheck %s
// RUN: codegen --cpu=sapphirerapids --emit=llvm %s | FileCheck %s --check-prefix=LL
// RUN: codegen --cpu=haswell --dump-dispatches %s | FileCheck %s --check-prefix=AVX2
// A padded 3x3 convolution of a 7x7 map, 64 -> 128 channels: few pixels
// and many channels, so the pixels are the GEMM's rows (traded).  Its
// input is copied once, channels last and padded (9x9x64), and the
// micro-kernel reads A from that copy through the nine taps, k = (kh, kw,
// c), instead of from a packed im2col nine times its size (the weights,
// an argument here, are packed by a kernel of their own, in that k).  A tile is
// two output rows (14 pixels, 28 accumulators in zmm), the last tile one
// row by a micro-kernel of 7 rows.  In ymm (at most 6 rows on AVX2) no tile
// fits a row of 7: the im2col stays.
// CHECK: gemm: batch 1, M 49, N 128, K 576, tile 14x32, A read through its taps
// CHECK: pack A of dispatch_0: [1][9][9][64] channels last
// LL-DAG: define internal void @gemm.mk14x32.taps3x3x64.576.64.lda64.7.576.pf(
// LL-DAG: define internal void @gemm.mk7x32.taps3x3x64.576.64.lda64.7.576.pf(
// AVX2: gemm: batch 1, M 49, N 128, K 576, tile 6x16,
// AVX2-NOT: taps
// AVX2: pack A of dispatch_0: [1][9][576][6]{{$}}
module {
  func.func @main(%arg0: tensor<1x64x7x7xf32>, %cst: tensor<128x64x3x3xf32>) -> tensor<1x128x7x7xf32> {
    %cst_1 = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<1x64x9x9xf32>
    %1 = linalg.fill ins(%cst_1 : f32) outs(%0 : tensor<1x64x9x9xf32>) -> tensor<1x64x9x9xf32>
    %inserted_slice = tensor.insert_slice %arg0 into %1[0, 0, 1, 1] [1, 64, 7, 7] [1, 1, 1, 1] : tensor<1x64x7x7xf32> into tensor<1x64x9x9xf32>
    %2 = tensor.empty() : tensor<1x128x7x7xf32>
    %3 = linalg.fill ins(%cst_1 : f32) outs(%2 : tensor<1x128x7x7xf32>) -> tensor<1x128x7x7xf32>
    %4 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%inserted_slice, %cst : tensor<1x64x9x9xf32>, tensor<128x64x3x3xf32>) outs(%3 : tensor<1x128x7x7xf32>) -> tensor<1x128x7x7xf32>
    return %4 : tensor<1x128x7x7xf32>
  }
}
