// RUN: codegen --cpu=sapphirerapids --dump-dispatches %s | FileCheck %s
// RUN: codegen --cpu=sapphirerapids --no-winograd --dump-dispatches %s | FileCheck %s --check-prefix=DIRECT
// RUN: codegen --cpu=sapphirerapids --emit=llvm %s | FileCheck %s --check-prefix=LL
// A padded 3x3 convolution of stride 1 of a 4x6 map, 64 -> 64 channels,
// its relu padded again into a second: each by Winograd's F(2x2, 3x3)
// (wino.c).  The input transform writes the 16 points of B^T d B for the
// 6 blocks of 2x2 (rows: blocks, columns: channels), 16 contractions
// with the transformed weight read it in place, the output transform
// stores each output's value of its block with the bias and relu fused,
// channels last between the two convolutions.  Its check of non-finite
// values is a branch around the direct sums (LL).  A convolution of
// stride 2, one of an odd map and one of 32 channels (which the GEMMs
// keep NCHW) stay direct sums.
// CHECK: name dispatch_0_winograd_input
// CHECK-COUNT-16: out {{[0-9]+}}: tensor<6x64xf32>
// CHECK: in  16: tensor<1x64x4x6xf32>
// CHECK-COUNT-16: winograd_contraction
// CHECK: name dispatch_17_winograd_output_add
// CHECK: out 0: tensor<1x4x6x64xf32>
// CHECK: name dispatch_18_winograd_input
// CHECK-COUNT-16: out {{[0-9]+}}: tensor<6x64xf32>
// CHECK: in  16: tensor<1x4x6x64xf32>
// CHECK-COUNT-16: winograd_contraction
// CHECK: name dispatch_35_winograd_output
// CHECK-NOT: _winograd_
// CHECK: conv2d
// CHECK-NOT: _winograd_
// CHECK: conv2d
// CHECK-NOT: _winograd_
// CHECK: conv2d
// CHECK-NOT: _winograd_
// DIRECT-NOT: _winograd_
// LL: not_finite:
// LL: fmul float
// LL: checked:
module {
  func.func @main(%x: tensor<1x64x4x6xf32>, %s: tensor<1x64x5x1xf32>, %e: tensor<1x32x4x6xf32>) -> (tensor<1x64x4x6xf32>, tensor<1x64x2x3xf32>, tensor<1x64x5x1xf32>, tensor<1x32x4x6xf32>) {
    %z = arith.constant 0.0 : f32
    %wa = arith.constant dense<0.25> : tensor<64x64x3x3xf32>
    %ba = arith.constant dense<-1.0> : tensor<64xf32>
    %wb = arith.constant dense<0.125> : tensor<64x64x3x3xf32>
    %wc = arith.constant dense<0.5> : tensor<32x32x3x3xf32>
    %p0 = tensor.empty() : tensor<1x64x6x8xf32>
    %p1 = linalg.fill ins(%z : f32) outs(%p0 : tensor<1x64x6x8xf32>) -> tensor<1x64x6x8xf32>
    %xp = tensor.insert_slice %x into %p1[0, 0, 1, 1] [1, 64, 4, 6] [1, 1, 1, 1] : tensor<1x64x4x6xf32> into tensor<1x64x6x8xf32>
    %o0 = tensor.empty() : tensor<1x64x4x6xf32>
    %o1 = linalg.fill ins(%z : f32) outs(%o0 : tensor<1x64x4x6xf32>) -> tensor<1x64x4x6xf32>
    %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%xp, %wa : tensor<1x64x6x8xf32>, tensor<64x64x3x3xf32>) outs(%o1 : tensor<1x64x4x6xf32>) -> tensor<1x64x4x6xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(n, k, h, w) -> (n, k, h, w)>, affine_map<(n, k, h, w) -> (k)>, affine_map<(n, k, h, w) -> (n, k, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %ba : tensor<1x64x4x6xf32>, tensor<64xf32>) outs(%o0 : tensor<1x64x4x6xf32>) {
    ^bb0(%i: f32, %b: f32, %o: f32):
      %a = arith.addf %i, %b : f32
      %m = arith.maxf %a, %z : f32
      linalg.yield %m : f32
    } -> tensor<1x64x4x6xf32>
    %q0 = tensor.empty() : tensor<1x64x6x8xf32>
    %q1 = linalg.fill ins(%z : f32) outs(%q0 : tensor<1x64x6x8xf32>) -> tensor<1x64x6x8xf32>
    %rp = tensor.insert_slice %r into %q1[0, 0, 1, 1] [1, 64, 4, 6] [1, 1, 1, 1] : tensor<1x64x4x6xf32> into tensor<1x64x6x8xf32>
    %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%rp, %wb : tensor<1x64x6x8xf32>, tensor<64x64x3x3xf32>) outs(%o1 : tensor<1x64x4x6xf32>) -> tensor<1x64x4x6xf32>
    %t0 = tensor.empty() : tensor<1x64x2x3xf32>
    %t1 = linalg.fill ins(%z : f32) outs(%t0 : tensor<1x64x2x3xf32>) -> tensor<1x64x2x3xf32>
    %t = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%xp, %wb : tensor<1x64x6x8xf32>, tensor<64x64x3x3xf32>) outs(%t1 : tensor<1x64x2x3xf32>) -> tensor<1x64x2x3xf32>
    %u0 = tensor.empty() : tensor<1x64x5x1xf32>
    %u1 = linalg.fill ins(%z : f32) outs(%u0 : tensor<1x64x5x1xf32>) -> tensor<1x64x5x1xf32>
    %s0 = tensor.empty() : tensor<1x64x7x3xf32>
    %s1 = linalg.fill ins(%z : f32) outs(%s0 : tensor<1x64x7x3xf32>) -> tensor<1x64x7x3xf32>
    %sp = tensor.insert_slice %s into %s1[0, 0, 1, 1] [1, 64, 5, 1] [1, 1, 1, 1] : tensor<1x64x5x1xf32> into tensor<1x64x7x3xf32>
    %u = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%sp, %wa : tensor<1x64x7x3xf32>, tensor<64x64x3x3xf32>) outs(%u1 : tensor<1x64x5x1xf32>) -> tensor<1x64x5x1xf32>
    %e0 = tensor.empty() : tensor<1x32x6x8xf32>
    %e1 = linalg.fill ins(%z : f32) outs(%e0 : tensor<1x32x6x8xf32>) -> tensor<1x32x6x8xf32>
    %ep = tensor.insert_slice %e into %e1[0, 0, 1, 1] [1, 32, 4, 6] [1, 1, 1, 1] : tensor<1x32x4x6xf32> into tensor<1x32x6x8xf32>
    %v0 = tensor.empty() : tensor<1x32x4x6xf32>
    %v1 = linalg.fill ins(%z : f32) outs(%v0 : tensor<1x32x4x6xf32>) -> tensor<1x32x4x6xf32>
    %v = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%ep, %wc : tensor<1x32x6x8xf32>, tensor<32x32x3x3xf32>) outs(%v1 : tensor<1x32x4x6xf32>) -> tensor<1x32x4x6xf32>
    return %y, %t, %u, %v : tensor<1x64x4x6xf32>, tensor<1x64x2x3xf32>, tensor<1x64x5x1xf32>, tensor<1x32x4x6xf32>
  }
}
