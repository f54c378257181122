// RUN: codegen --cpu=sapphirerapids --dump-dispatches %s | FileCheck %s
// Convolutions with a window whose output channels fill the panels
// untraded (a 16x16 map, 64 -> 64 channels: neither way pads) trade
// places anyway where A can then be read through its taps, from one
// channels-last copy instead of an im2col per panel of pixels: the 3x3
// (K 576) and the 7x7 stride-2 stem of three channels (K 147).  Not a
// short K (3 channels through a 3x3: 27), nor where the channels would
// pad the panels (8 of 32: the untraded tiles pad nothing).
// CHECK-LABEL: dispatch_0:
// CHECK: gemm: batch 1, M 256, N 64, K 576, tile 8x32, A read through its taps
// CHECK: pack A of dispatch_0: [1][18][18][64] channels last
// CHECK-LABEL: dispatch_3:
// CHECK: gemm: batch 1, M 64, N 64, K 147, tile 8x32, A read through its taps
// CHECK: pack A of dispatch_3: [1][21][21][3] channels last
// CHECK-LABEL: dispatch_6:
// CHECK: gemm: batch 1, M 64, N 256, K 27, tile 8x32, A read in place, B packed per panel in the kernel
// CHECK-LABEL: dispatch_7:
// CHECK: gemm: batch 1, M 8, N 256, K 576, tile 8x32, A read in place, B packed per panel in the kernel
module {
  func.func @main(%x: tensor<1x64x16x16xf32>, %w: tensor<64x64x3x3xf32>, %s: tensor<1x3x16x16xf32>,
                  %ws: tensor<64x3x7x7xf32>, %w3: tensor<64x3x3x3xf32>, %w8: tensor<8x64x3x3xf32>)
      -> (tensor<1x64x16x16xf32>, tensor<1x64x8x8xf32>, tensor<1x64x16x16xf32>, tensor<1x8x16x16xf32>) {
    %z = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<1x64x18x18xf32>
    %1 = linalg.fill ins(%z : f32) outs(%0 : tensor<1x64x18x18xf32>) -> tensor<1x64x18x18xf32>
    %xp = tensor.insert_slice %x into %1[0, 0, 1, 1] [1, 64, 16, 16] [1, 1, 1, 1] : tensor<1x64x16x16xf32> into tensor<1x64x18x18xf32>
    %2 = tensor.empty() : tensor<1x64x16x16xf32>
    %3 = linalg.fill ins(%z : f32) outs(%2 : tensor<1x64x16x16xf32>) -> tensor<1x64x16x16xf32>
    %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%xp, %w : tensor<1x64x18x18xf32>, tensor<64x64x3x3xf32>) outs(%3 : tensor<1x64x16x16xf32>) -> tensor<1x64x16x16xf32>
    %4 = tensor.empty() : tensor<1x3x22x22xf32>
    %5 = linalg.fill ins(%z : f32) outs(%4 : tensor<1x3x22x22xf32>) -> tensor<1x3x22x22xf32>
    %sp = tensor.insert_slice %s into %5[0, 0, 3, 3] [1, 3, 16, 16] [1, 1, 1, 1] : tensor<1x3x16x16xf32> into tensor<1x3x22x22xf32>
    %6 = tensor.empty() : tensor<1x64x8x8xf32>
    %7 = linalg.fill ins(%z : f32) outs(%6 : tensor<1x64x8x8xf32>) -> tensor<1x64x8x8xf32>
    %b = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%sp, %ws : tensor<1x3x22x22xf32>, tensor<64x3x7x7xf32>) outs(%7 : tensor<1x64x8x8xf32>) -> tensor<1x64x8x8xf32>
    %8 = tensor.empty() : tensor<1x3x18x18xf32>
    %9 = linalg.fill ins(%z : f32) outs(%8 : tensor<1x3x18x18xf32>) -> tensor<1x3x18x18xf32>
    %sq = tensor.insert_slice %s into %9[0, 0, 1, 1] [1, 3, 16, 16] [1, 1, 1, 1] : tensor<1x3x16x16xf32> into tensor<1x3x18x18xf32>
    %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%sq, %w3 : tensor<1x3x18x18xf32>, tensor<64x3x3x3xf32>) outs(%3 : tensor<1x64x16x16xf32>) -> tensor<1x64x16x16xf32>
    %10 = tensor.empty() : tensor<1x8x16x16xf32>
    %11 = linalg.fill ins(%z : f32) outs(%10 : tensor<1x8x16x16xf32>) -> tensor<1x8x16x16xf32>
    %d = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%xp, %w8 : tensor<1x64x18x18xf32>, tensor<8x64x3x3xf32>) outs(%11 : tensor<1x8x16x16xf32>) -> tensor<1x8x16x16xf32>
    return %a, %b, %c, %d : tensor<1x64x16x16xf32>, tensor<1x64x8x8xf32>, tensor<1x64x16x16xf32>, tensor<1x8x16x16xf32>
  }
}
