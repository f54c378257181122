func.func @t(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = linalg.transpose ins(%a : tensor<f32>) outs(%b : tensor<f32>) permutation = []
  return %0 : tensor<f32>
}
