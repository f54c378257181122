func.func @s(%a: tensor<3x4xf32>) -> tensor<1x4xf32> {
  %0 = tensor.extract_slice %a[5, 0] [1, 4] [1, 1] : tensor<3x4xf32> to tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}
