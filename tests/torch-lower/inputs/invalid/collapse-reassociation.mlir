func.func @e(%a: tensor<0x3xf32>) -> tensor<0xf32> {
  %0 = tensor.collapse_shape %a [[0], [1]] : tensor<0x3xf32> into tensor<0xf32>
  return %0 : tensor<0xf32>
}
