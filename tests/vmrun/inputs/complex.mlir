// Complex arguments and results (fxpipe.complex_args / complex_results):
// [..., 2] pairs of f32 (f64) in the host program, c64 (c128) of the
// leading dims in the module's signature.
module attributes {fxvm.target = "cpu"} {
  func.func @id_c64(%x: tensor<2x3x2xf32>) -> tensor<2x3x2xf32> attributes {fxpipe.complex_args = array<i64: 0>, fxpipe.complex_results = array<i64: 0>} {
    %0 = "fxvm.result"() {index = 0 : i64} : () -> tensor<2x3x2xf32>
    "fxvm.copy"(%x, %0) : (tensor<2x3x2xf32>, tensor<2x3x2xf32>) -> ()
    return %0 : tensor<2x3x2xf32>
  }
  func.func @parts_c128(%x: tensor<3x2xf64>) -> tensor<3x2xf64> attributes {fxpipe.complex_args = array<i64: 0>} {
    %0 = "fxvm.result"() {index = 0 : i64} : () -> tensor<3x2xf64>
    "fxvm.copy"(%x, %0) : (tensor<3x2xf64>, tensor<3x2xf64>) -> ()
    return %0 : tensor<3x2xf64>
  }
}
