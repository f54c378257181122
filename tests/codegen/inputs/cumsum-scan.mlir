// cumsum as torch-lower writes it: a triangular reduction, out[i, j] =
// sum over k <= j of x[i, k], accumulated in f64 as eager does, then
// truncated to f32.  codegen computes it as a scan along j (nest.c's
// scan_dim): a million steps a row, where the triangle takes 5e11.
#x = affine_map<(d0, d1, d2) -> (d0, d2)>
#o = affine_map<(d0, d1, d2) -> (d0, d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @main(%arg0: tensor<2x1000000xf32>) -> tensor<2x1000000xf32> {
  %cst = arith.constant 0.000000e+00 : f64
  %0 = tensor.empty() : tensor<2x1000000xf64>
  %1 = linalg.fill ins(%cst : f64) outs(%0 : tensor<2x1000000xf64>) -> tensor<2x1000000xf64>
  %2 = linalg.generic {indexing_maps = [#x, #o], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg0 : tensor<2x1000000xf32>) outs(%1 : tensor<2x1000000xf64>) {
  ^bb0(%in: f32, %out: f64):
    %5 = arith.extf %in : f32 to f64
    %6 = linalg.index 1 : index
    %7 = linalg.index 2 : index
    %8 = arith.cmpi ule, %7, %6 : index
    %9 = arith.addf %out, %5 : f64
    %10 = arith.select %8, %9, %out : f64
    linalg.yield %10 : f64
  } -> tensor<2x1000000xf64>
  %3 = tensor.empty() : tensor<2x1000000xf32>
  %4 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%2 : tensor<2x1000000xf64>) outs(%3 : tensor<2x1000000xf32>) {
  ^bb0(%in: f64, %out: f32):
    %5 = arith.truncf %in : f64 to f32
    linalg.yield %5 : f32
  } -> tensor<2x1000000xf32>
  return %4 : tensor<2x1000000xf32>
}
