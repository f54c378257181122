module attributes {fxvm.target = "cpu"} {
  func.func @bad(%x: tensor<2x3xf32>) -> tensor<2x3xf32> attributes {fxpipe.complex_args = array<i64: 0>} {
    %0 = "fxvm.result"() {index = 0 : i64} : () -> tensor<2x3xf32>
    "fxvm.copy"(%x, %0) : (tensor<2x3xf32>, tensor<2x3xf32>) -> ()
    return %0 : tensor<2x3xf32>
  }
}
