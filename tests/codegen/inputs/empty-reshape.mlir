// Reshapes of empty tensors: a collapse's delinearization divides by the
// size of an empty dim (codegen died of SIGFPE).
#map = affine_map<(d0) -> (d0)>
#map2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @main(%arg0: tensor<0x4xf32>, %arg1: tensor<3x0xf32>) -> (tensor<0xf32>, tensor<4x0xf32>, tensor<0x3xf32>) {
    %collapsed = tensor.collapse_shape %arg0 [[0, 1]] : tensor<0x4xf32> into tensor<0xf32>
    %0 = tensor.empty() : tensor<0xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%collapsed : tensor<0xf32>) outs(%0 : tensor<0xf32>) {
    ^bb0(%in: f32, %out: f32):
      %2 = arith.addf %in, %in : f32
      linalg.yield %2 : f32
    } -> tensor<0xf32>
    %expanded = tensor.expand_shape %collapsed [[0, 1]] : tensor<0xf32> into tensor<4x0xf32>
    %c = tensor.collapse_shape %arg1 [[0, 1]] : tensor<3x0xf32> into tensor<0xf32>
    %e = tensor.expand_shape %c [[0, 1]] : tensor<0xf32> into tensor<0x3xf32>
    %3 = tensor.empty() : tensor<0x3xf32>
    %4 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel"]} ins(%e : tensor<0x3xf32>) outs(%3 : tensor<0x3xf32>) {
    ^bb0(%in: f32, %out: f32):
      %5 = arith.mulf %in, %in : f32
      linalg.yield %5 : f32
    } -> tensor<0x3xf32>
    return %1, %expanded, %4 : tensor<0xf32>, tensor<4x0xf32>, tensor<0x3xf32>
  }
}
