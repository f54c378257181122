// A module for the CUDA target: vmpack packs it; vmrun cannot run it yet.
module attributes {fxvm.target = "cuda"} {
  "fxvm.executable"() {sym_name = "kernels", format = "ptx", object = dense<[46, 118, 101, 114, 115, 105, 111, 110, 32, 55, 46, 48, 10, 0]> : tensor<14xui8>} : () -> ()
  "fxvm.kernel"() {sym_name = "k", executable = @kernels, symbol = "k", bindings = 2 : i64, block = array<i64: 128, 1, 1>, shared = 0 : i64} : () -> ()
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    %0 = "fxvm.result"() {index = 0 : i64} : () -> tensor<4xf32>
    "fxvm.dispatch"(%x, %0) {kernel = @k, grid = array<i64: 1, 1, 1>} : (tensor<4xf32>, tensor<4xf32>) -> ()
    return %0 : tensor<4xf32>
  }
}
