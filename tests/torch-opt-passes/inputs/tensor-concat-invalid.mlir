// tensor.concat's verifier (lib/verify_concat.c), MLIR's messages
// INVALID: requires at least one input
func.func @none() -> tensor<2xf32> {
  // expected-error @+1 {{requires at least one input}}
  %0 = "tensor.concat"() {dim = 0 : i64} : () -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// INVALID: rank of concatenated inputs must match result rank
func.func @rank(%a: tensor<2xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{rank of concatenated inputs must match result rank}}
  %0 = tensor.concat dim(0) %a, %b : (tensor<2xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// INVALID: inputs and result element type must match
func.func @elem(%a: tensor<2xf32>, %b: tensor<2xi32>) -> tensor<4xf32> {
  // expected-error @+1 {{inputs and result element type must match}}
  %0 = tensor.concat dim(0) %a, %b : (tensor<2xf32>, tensor<2xi32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// INVALID: concatenation dim must be less than the tensor rank
func.func @dim(%a: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{concatenation dim must be less than the tensor rank}}
  %0 = tensor.concat dim(1) %a : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// INVALID: static concatenation size mismatch along non-concatenated dimension 1
func.func @other(%a: tensor<2x3xf32>, %b: tensor<2x4xf32>) -> tensor<4x?xf32> {
  // expected-error @+1 {{static concatenation size mismatch along non-concatenated dimension 1}}
  %0 = tensor.concat dim(0) %a, %b : (tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<4x?xf32>
  return %0 : tensor<4x?xf32>
}

// -----

// INVALID: result type tensor<5x3xf32> does not match inferred shape tensor<4x3xf32> static sizes
func.func @sum(%a: tensor<2x3xf32>, %b: tensor<2x?xf32>) -> tensor<5x3xf32> {
  // expected-error @+1 {{does not match inferred shape}}
  %0 = tensor.concat dim(0) %a, %b : (tensor<2x3xf32>, tensor<2x?xf32>) -> tensor<5x3xf32>
  return %0 : tensor<5x3xf32>
}

// -----

// a dynamic size on either side is not checked
func.func @dynamic(%a: tensor<2x?xf32>, %b: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %0 = tensor.concat dim(0) %a, %b : (tensor<2x?xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}
