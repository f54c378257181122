func.func @mm(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>, %c: tensor<3x6xf32>) -> tensor<3x6xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<3x4xf32>, tensor<4x5xf32>) outs(%c : tensor<3x6xf32>) -> tensor<3x6xf32>
  return %0 : tensor<3x6xf32>
}
