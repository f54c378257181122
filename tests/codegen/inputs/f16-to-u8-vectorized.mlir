// f16 -> ui8 (fptosi to i32, trunci to i8) then uitofp, in a loop LLVM 16 vectorizes:
// its loop vectorizer narrowed the conversion into an invalid "trunc <N x half>"
// and the AVX-512 backend aborted (found by fuzz-diff)
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0, 0)>
module {
  func.func @main(%arg0: tensor<1x2xf16>, %arg1: tensor<1x1xbf16>) -> tensor<1x2xi1> {
    %0 = tensor.empty() : tensor<1x2xi8>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<1x2xf16>) outs(%0 : tensor<1x2xi8>) {
    ^bb0(%in: f16, %out: i8):
      %8 = arith.fptosi %in : f16 to i32
      %9 = arith.trunci %8 : i32 to i8
      linalg.yield %9 : i8
    } -> tensor<1x2xi8>
    %2 = tensor.empty() : tensor<1x2xi1>
    %3 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%1 : tensor<1x2xi8>) outs(%2 : tensor<1x2xi1>) {
    ^bb0(%in: i8, %out: i1):
      %c0_i8 = arith.constant 0 : i8
      %8 = arith.cmpi ugt, %in, %c0_i8 : i8
      linalg.yield %8 : i1
    } -> tensor<1x2xi1>
    %4 = tensor.empty() : tensor<1x2xbf16>
    %5 = linalg.generic {indexing_maps = [#map, #map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%3, %1, %arg1 : tensor<1x2xi1>, tensor<1x2xi8>, tensor<1x1xbf16>) outs(%4 : tensor<1x2xbf16>) {
    ^bb0(%in: i1, %in_0: i8, %in_1: bf16, %out: bf16):
      %8 = arith.uitofp %in_0 : i8 to f32
      %9 = arith.extf %in_1 : bf16 to f32
      %10 = arith.select %in, %8, %9 : f32
      %11 = arith.truncf %10 : f32 to bf16
      linalg.yield %11 : bf16
    } -> tensor<1x2xbf16>
    %6 = tensor.empty() : tensor<1x2xi1>
    %7 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%5, %5 : tensor<1x2xbf16>, tensor<1x2xbf16>) outs(%6 : tensor<1x2xi1>) {
    ^bb0(%in: bf16, %in_0: bf16, %out: i1):
      %8 = arith.extf %in : bf16 to f32
      %9 = arith.extf %in_0 : bf16 to f32
      %10 = arith.cmpf oge, %8, %9 : f32
      linalg.yield %10 : i1
    } -> tensor<1x2xi1>
    return %7 : tensor<1x2xi1>
  }
}
