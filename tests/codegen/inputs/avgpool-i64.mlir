// A 2x2 sum pooling of i64 divided (arith.divsi) by a table of window
// sizes: integer average pooling as torch-lower writes it, by hand.
#map = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 * 2 + d4, d3 * 2 + d5)>
#map1 = affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>
#map2 = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>
#map3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map4 = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
module {
  func.func @main(%arg0: tensor<1x2x4x4xi64>) -> tensor<1x2x2x2xi64> {
    %0 = tensor.empty() : tensor<2x2xi64>
    %cst = arith.constant 0 : i64
    %1 = tensor.empty() : tensor<1x2x2x2xi64>
    %2 = linalg.fill ins(%cst : i64) outs(%1 : tensor<1x2x2x2xi64>) -> tensor<1x2x2x2xi64>
    %3 = linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%arg0, %0 : tensor<1x2x4x4xi64>, tensor<2x2xi64>) outs(%2 : tensor<1x2x2x2xi64>) {
    ^bb0(%in: i64, %in_1: i64, %out: i64):
      %6 = linalg.index 2 : index
      %7 = linalg.index 4 : index
      %8 = linalg.index 3 : index
      %9 = linalg.index 5 : index
      %10 = arith.addi %out, %in : i64
      linalg.yield %10 : i64
    } -> tensor<1x2x2x2xi64>
    %cst_0 = arith.constant dense<[[4, 3], [2, 1]]> : tensor<2x2xi64>
    %4 = tensor.empty() : tensor<1x2x2x2xi64>
    %5 = linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%3, %cst_0 : tensor<1x2x2x2xi64>, tensor<2x2xi64>) outs(%4 : tensor<1x2x2x2xi64>) {
    ^bb0(%in: i64, %in_1: i64, %out: i64):
      %6 = arith.divsi %in, %in_1 : i64
      linalg.yield %6 : i64
    } -> tensor<1x2x2x2xi64>
    return %5 : tensor<1x2x2x2xi64>
  }
}
