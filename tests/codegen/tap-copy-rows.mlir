// RUN: codegen --cpu=sapphirerapids --dump-dispatches %s | FileCheck %s
// RUN: codegen --cpu=sapphirerapids --emit=llvm %s | FileCheck %s --check-prefix=LL
// The taps' channels-last copy of a 100-channel input (conv-taps.mlir
// with 100 channels for 64): rows longer than one vector are copied in
// vectors of our own, 16 lanes in a loop and the 4 left, gathered across
// the NCHW planes, and compiled with the short pipeline, not LLVM's loop
// vectorizer (which took a network's tap copies as long to compile as
// all its GEMMs' bodies).
// CHECK: gemm: batch 1, M 49, N 128, K 900, tile 14x32, A read through its taps
// CHECK: pack A of dispatch_0: [1][9][9][100] channels last
// LL-LABEL: define internal void @dispatch_1.body(
// LL:         call <16 x float> @llvm.masked.gather.v16f32.v16p0(
// LL:         store <16 x float>
// LL:         call <4 x float> @llvm.masked.gather.v4f32.v4p0(
// LL:         store <4 x float>
// LL-NOT:     <8 x float>
// LL:       define void @dispatch_1(
module {
  func.func @main(%arg0: tensor<1x100x7x7xf32>, %cst: tensor<128x100x3x3xf32>) -> tensor<1x128x7x7xf32> {
    %cst_1 = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<1x100x9x9xf32>
    %1 = linalg.fill ins(%cst_1 : f32) outs(%0 : tensor<1x100x9x9xf32>) -> tensor<1x100x9x9xf32>
    %inserted_slice = tensor.insert_slice %arg0 into %1[0, 0, 1, 1] [1, 100, 7, 7] [1, 1, 1, 1] : tensor<1x100x7x7xf32> into tensor<1x100x9x9xf32>
    %2 = tensor.empty() : tensor<1x128x7x7xf32>
    %3 = linalg.fill ins(%cst_1 : f32) outs(%2 : tensor<1x128x7x7xf32>) -> tensor<1x128x7x7xf32>
    %4 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%inserted_slice, %cst : tensor<1x100x9x9xf32>, tensor<128x100x3x3xf32>) outs(%3 : tensor<1x128x7x7xf32>) -> tensor<1x128x7x7xf32>
    return %4 : tensor<1x128x7x7xf32>
  }
}
