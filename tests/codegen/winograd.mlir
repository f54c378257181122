// RUN: codegen --cpu=sapphirerapids --dump-dispatches %s | FileCheck %s
// RUN: codegen --cpu=sapphirerapids --no-winograd --dump-dispatches %s | FileCheck %s --check-prefix=DIRECT
// RUN: codegen --cpu=sapphirerapids --emit=llvm %s | FileCheck %s --check-prefix=LL
// A padded 3x3 convolution of stride 1 of an 8x16 map, 64 -> 64 channels,
// its relu padded again into a second: each by Winograd's F(2x2, 3x3)
// (wino.c).  The input transform writes the 16 points of B^T d B for the
// 32 blocks of 2x2, [blocks][points][channels]; one batched GEMM of the
// 16 points with the transformed weight reads it in place; the output
// transform stores each output's value of its block with the bias and
// relu fused, channels last between the two convolutions.  The second's
// output, the function's result, is NCHW: the output transform runs its
// vectors along the channels all the same and scatters them (LL).  A map
// of 7x16: its last blocks read a row of zeros past the input (a pad of
// 10x18).  The check of non-finite values (|v| >= inf, or NaN) is a
// branch around a loop over the vector's lanes, each lane not finite
// summed directly (LL).  A convolution of stride 2, one of 32 channels
// (which the GEMMs keep NCHW) and one of a 4x6 map (6 blocks: too few
// rows) stay direct sums.
// CHECK: name dispatch_0_winograd_input
// CHECK-NEXT: out 0: tensor<32x16x64xf32>
// CHECK-NEXT: in  1: tensor<1x64x8x16xf32>
// CHECK: name dispatch_1_winograd_contraction
// CHECK: gemm: batch 16, M 32, N 64, K 64, tile 8x32, A read in place
// CHECK: name dispatch_2_winograd_output_add
// CHECK-NEXT: out 0: tensor<1x8x16x64xf32>
// CHECK: name dispatch_3_winograd_input
// CHECK-NEXT: out 0: tensor<32x16x64xf32>
// CHECK-NEXT: in  1: tensor<1x8x16x64xf32>
// CHECK: name dispatch_4_winograd_contraction
// CHECK: name dispatch_5_winograd_output
// CHECK-NEXT: out 0: tensor<1x64x8x16xf32>
// CHECK-NOT: _winograd_
// CHECK: name dispatch_6_conv2d
// CHECK: name dispatch_8_winograd_input
// CHECK-NEXT: out 0: tensor<32x16x64xf32>
// CHECK: tensor.insert_slice
// CHECK-NEXT: tensor.insert_slice
// CHECK: name dispatch_9_winograd_contraction
// CHECK: name dispatch_10_winograd_output
// CHECK-NOT: _winograd_
// CHECK: name dispatch_11_conv2d
// CHECK-NOT: _winograd_
// CHECK: name dispatch_12_conv2d
// CHECK-NOT: _winograd_
// DIRECT-NOT: _winograd_
// LL-DAG: fcmp uge <16 x float> %{{[0-9]+}}, <float 0x7FF0000000000000
// LL-DAG: sum_lane:
// LL-DAG: next_lane:
// LL-DAG: call void @llvm.masked.scatter.v16f32
module {
  func.func @main(%x: tensor<1x64x8x16xf32>, %s: tensor<1x64x7x16xf32>, %e: tensor<1x32x8x16xf32>, %q: tensor<1x64x4x6xf32>) -> (tensor<1x64x8x16xf32>, tensor<1x64x4x8xf32>, tensor<1x64x7x16xf32>, tensor<1x32x8x16xf32>, tensor<1x64x4x6xf32>) {
    %z = arith.constant 0.0 : f32
    %wa = arith.constant dense<0.25> : tensor<64x64x3x3xf32>
    %ba = arith.constant dense<-1.0> : tensor<64xf32>
    %wb = arith.constant dense<0.125> : tensor<64x64x3x3xf32>
    %wc = arith.constant dense<0.5> : tensor<32x32x3x3xf32>
    %xp0 = tensor.empty() : tensor<1x64x10x18xf32>
    %xp1 = linalg.fill ins(%z : f32) outs(%xp0 : tensor<1x64x10x18xf32>) -> tensor<1x64x10x18xf32>
    %xp = tensor.insert_slice %x into %xp1[0, 0, 1, 1] [1, 64, 8, 16] [1, 1, 1, 1] : tensor<1x64x8x16xf32> into tensor<1x64x10x18xf32>
    %c0 = tensor.empty() : tensor<1x64x8x16xf32>
    %c1 = linalg.fill ins(%z : f32) outs(%c0 : tensor<1x64x8x16xf32>) -> tensor<1x64x8x16xf32>
    %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%xp, %wa : tensor<1x64x10x18xf32>, tensor<64x64x3x3xf32>) outs(%c1 : tensor<1x64x8x16xf32>) -> tensor<1x64x8x16xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(n, k, h, w) -> (n, k, h, w)>, affine_map<(n, k, h, w) -> (k)>, affine_map<(n, k, h, w) -> (n, k, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %ba : tensor<1x64x8x16xf32>, tensor<64xf32>) outs(%c0 : tensor<1x64x8x16xf32>) {
    ^bb0(%i: f32, %b: f32, %o: f32):
      %a = arith.addf %i, %b : f32
      %m = arith.maxf %a, %z : f32
      linalg.yield %m : f32
    } -> tensor<1x64x8x16xf32>
    %rp0 = tensor.empty() : tensor<1x64x10x18xf32>
    %rp1 = linalg.fill ins(%z : f32) outs(%rp0 : tensor<1x64x10x18xf32>) -> tensor<1x64x10x18xf32>
    %rp = tensor.insert_slice %r into %rp1[0, 0, 1, 1] [1, 64, 8, 16] [1, 1, 1, 1] : tensor<1x64x8x16xf32> into tensor<1x64x10x18xf32>
    %y0 = tensor.empty() : tensor<1x64x8x16xf32>
    %y1 = linalg.fill ins(%z : f32) outs(%y0 : tensor<1x64x8x16xf32>) -> tensor<1x64x8x16xf32>
    %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%rp, %wb : tensor<1x64x10x18xf32>, tensor<64x64x3x3xf32>) outs(%y1 : tensor<1x64x8x16xf32>) -> tensor<1x64x8x16xf32>
    %t0 = tensor.empty() : tensor<1x64x4x8xf32>
    %t1 = linalg.fill ins(%z : f32) outs(%t0 : tensor<1x64x4x8xf32>) -> tensor<1x64x4x8xf32>
    %t = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%xp, %wb : tensor<1x64x10x18xf32>, tensor<64x64x3x3xf32>) outs(%t1 : tensor<1x64x4x8xf32>) -> tensor<1x64x4x8xf32>
    %sp0 = tensor.empty() : tensor<1x64x9x18xf32>
    %sp1 = linalg.fill ins(%z : f32) outs(%sp0 : tensor<1x64x9x18xf32>) -> tensor<1x64x9x18xf32>
    %sp = tensor.insert_slice %s into %sp1[0, 0, 1, 1] [1, 64, 7, 16] [1, 1, 1, 1] : tensor<1x64x7x16xf32> into tensor<1x64x9x18xf32>
    %u0 = tensor.empty() : tensor<1x64x7x16xf32>
    %u1 = linalg.fill ins(%z : f32) outs(%u0 : tensor<1x64x7x16xf32>) -> tensor<1x64x7x16xf32>
    %u = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%sp, %wa : tensor<1x64x9x18xf32>, tensor<64x64x3x3xf32>) outs(%u1 : tensor<1x64x7x16xf32>) -> tensor<1x64x7x16xf32>
    %ep0 = tensor.empty() : tensor<1x32x10x18xf32>
    %ep1 = linalg.fill ins(%z : f32) outs(%ep0 : tensor<1x32x10x18xf32>) -> tensor<1x32x10x18xf32>
    %ep = tensor.insert_slice %e into %ep1[0, 0, 1, 1] [1, 32, 8, 16] [1, 1, 1, 1] : tensor<1x32x8x16xf32> into tensor<1x32x10x18xf32>
    %v0 = tensor.empty() : tensor<1x32x8x16xf32>
    %v1 = linalg.fill ins(%z : f32) outs(%v0 : tensor<1x32x8x16xf32>) -> tensor<1x32x8x16xf32>
    %v = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%ep, %wc : tensor<1x32x10x18xf32>, tensor<32x32x3x3xf32>) outs(%v1 : tensor<1x32x8x16xf32>) -> tensor<1x32x8x16xf32>
    %qp0 = tensor.empty() : tensor<1x64x6x8xf32>
    %qp1 = linalg.fill ins(%z : f32) outs(%qp0 : tensor<1x64x6x8xf32>) -> tensor<1x64x6x8xf32>
    %qp = tensor.insert_slice %q into %qp1[0, 0, 1, 1] [1, 64, 4, 6] [1, 1, 1, 1] : tensor<1x64x4x6xf32> into tensor<1x64x6x8xf32>
    %g0 = tensor.empty() : tensor<1x64x4x6xf32>
    %g1 = linalg.fill ins(%z : f32) outs(%g0 : tensor<1x64x4x6xf32>) -> tensor<1x64x4x6xf32>
    %g = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%qp, %wb : tensor<1x64x6x8xf32>, tensor<64x64x3x3xf32>) outs(%g1 : tensor<1x64x4x6xf32>) -> tensor<1x64x4x6xf32>
    return %y, %t, %u, %v, %g : tensor<1x64x8x16xf32>, tensor<1x64x4x8xf32>, tensor<1x64x7x16xf32>, tensor<1x32x8x16xf32>, tensor<1x64x4x6xf32>
  }
}
