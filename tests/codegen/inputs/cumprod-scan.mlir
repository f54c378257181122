// cumprod as torch-opt writes it (lib/torch/decompose_nnx.c's scan): an
// [.., n, n, ..] product of x where k <= j, else 1, in f64 as eager
// accumulates; fused into one kernel, codegen runs it as a scan along j.
#map = affine_map<(d0) -> (d0)>
#map1 = affine_map<(d0, d1, d2) -> (d0, 0, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map4 = affine_map<(d0, d1, d2) -> (0, d1, d2)>
#map5 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map6 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @main(%arg0: tensor<2x400000xf32>) -> tensor<2x400000xf32> {
    %expanded = tensor.expand_shape %arg0 [[0], [1, 2]] : tensor<2x400000xf32> into tensor<2x1x400000xf32>
    %0 = tensor.empty() : tensor<400000xi64>
    %1 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel"]} outs(%0 : tensor<400000xi64>) {
    ^bb0(%out: i64):
      %13 = linalg.index 0 : index
      %14 = arith.index_cast %13 : index to i64
      %c0_i64 = arith.constant 0 : i64
      %c1_i64 = arith.constant 1 : i64
      %15 = arith.muli %14, %c1_i64 : i64
      %16 = arith.addi %15, %c0_i64 : i64
      linalg.yield %16 : i64
    } -> tensor<400000xi64>
    %expanded_0 = tensor.expand_shape %1 [[0, 1, 2]] : tensor<400000xi64> into tensor<1x400000x1xi64>
    %expanded_1 = tensor.expand_shape %1 [[0, 1, 2]] : tensor<400000xi64> into tensor<1x1x400000xi64>
    %2 = tensor.empty() : tensor<1x400000x400000xi1>
    %3 = linalg.generic {indexing_maps = [#map1, #map2, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_1, %expanded_0 : tensor<1x1x400000xi64>, tensor<1x400000x1xi64>) outs(%2 : tensor<1x400000x400000xi1>) {
    ^bb0(%in: i64, %in_2: i64, %out: i1):
      %13 = arith.cmpi sle, %in, %in_2 : i64
      linalg.yield %13 : i1
    } -> tensor<1x400000x400000xi1>
    %4 = tensor.empty() : tensor<2x1x400000xf64>
    %5 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded : tensor<2x1x400000xf32>) outs(%4 : tensor<2x1x400000xf64>) {
    ^bb0(%in: f32, %out: f64):
      %13 = arith.extf %in : f32 to f64
      linalg.yield %13 : f64
    } -> tensor<2x1x400000xf64>
    %6 = tensor.empty() : tensor<2x400000x400000xf64>
    %7 = linalg.generic {indexing_maps = [#map4, #map1, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%3, %5 : tensor<1x400000x400000xi1>, tensor<2x1x400000xf64>) outs(%6 : tensor<2x400000x400000xf64>) {
    ^bb0(%in: i1, %in_2: f64, %out: f64):
      %cst_3 = arith.constant 1.000000e+00 : f64
      %13 = arith.select %in, %in_2, %cst_3 : f64
      linalg.yield %13 : f64
    } -> tensor<2x400000x400000xf64>
    %8 = tensor.empty() : tensor<2x400000xf64>
    %cst = arith.constant 1.000000e+00 : f64
    %9 = linalg.fill ins(%cst : f64) outs(%8 : tensor<2x400000xf64>) -> tensor<2x400000xf64>
    %10 = linalg.generic {indexing_maps = [#map3, #map5], iterator_types = ["parallel", "parallel", "reduction"]} ins(%7 : tensor<2x400000x400000xf64>) outs(%9 : tensor<2x400000xf64>) {
    ^bb0(%in: f64, %out: f64):
      %13 = arith.mulf %out, %in : f64
      linalg.yield %13 : f64
    } -> tensor<2x400000xf64>
    %11 = tensor.empty() : tensor<2x400000xf32>
    %12 = linalg.generic {indexing_maps = [#map6, #map6], iterator_types = ["parallel", "parallel"]} ins(%10 : tensor<2x400000xf64>) outs(%11 : tensor<2x400000xf32>) {
    ^bb0(%in: f64, %out: f32):
      %13 = arith.truncf %in : f64 to f32
      linalg.yield %13 : f32
    } -> tensor<2x400000xf32>
    return %12 : tensor<2x400000xf32>
  }
}
