#id = affine_map<(d0, d1) -> (d0, d1)>
#rd = affine_map<(d0, d1) -> (d0)>
module {
  func.func @main(%x: tensor<1x32x30x30xf32>, %w: tensor<32x3x3xf32>, %a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> (tensor<1x32x28x28xf32>, tensor<64x64xf32>, tensor<64xf32>) {
    %z = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x32x28x28xf32>
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x32x28x28xf32>) -> tensor<1x32x28x28xf32>
    %r = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x32x30x30xf32>, tensor<32x3x3xf32>) outs(%f : tensor<1x32x28x28xf32>) -> tensor<1x32x28x28xf32>
    %e2 = tensor.empty() : tensor<64x64xf32>
    %f2 = linalg.fill ins(%z : f32) outs(%e2 : tensor<64x64xf32>) -> tensor<64x64xf32>
    %m = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%f2 : tensor<64x64xf32>) -> tensor<64x64xf32>
    %e3 = tensor.empty() : tensor<64xf32>
    %f3 = linalg.fill ins(%z : f32) outs(%e3 : tensor<64xf32>) -> tensor<64xf32>
    %s = linalg.generic {indexing_maps = [#id, #rd], iterator_types = ["parallel", "reduction"]} ins(%a : tensor<64x64xf32>) outs(%f3 : tensor<64xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %t = math.exp %in : f32
      %u = arith.addf %t, %acc : f32
      linalg.yield %u : f32
    } -> tensor<64xf32>
    return %r, %m, %s : tensor<1x32x28x28xf32>, tensor<64x64xf32>, tensor<64xf32>
  }
}
