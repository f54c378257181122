// Long sums, one of each way codegen reduces: the whole of a tensor over
// three loops (S1, the innermost vectorized by LLVM), the rows of a long
// innermost dim (S1, strip-mined), the middle dim of a tall tensor in
// vectors of its innermost (S2 in vectors), and of a narrow f64 one (S1:
// S2 would keep its one accumulator in the output); and a masked sum of
// squares, c ? acc + x x : acc, as a padded length's reductions are
// (codegen takes it as acc + (c ? x x : -0); as it was, a multiply-add
// under a select, LLVM did not vectorize it and warned).
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#none3 = affine_map<(d0, d1, d2) -> ()>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#mid = affine_map<(d0, d1, d2) -> (d0, d2)>
func.func @main(%x: tensor<300x7x300xf32>, %r: tensor<3x200000xf32>, %t: tensor<4x20000x32xf32>,
    %n: tensor<4x30000x10xf64>) -> (tensor<f32>, tensor<3xf32>, tensor<4x32xf32>, tensor<4x10xf64>, tensor<3xf32>) {
  %z = arith.constant 0.000000e+00 : f32
  %e0 = tensor.empty() : tensor<f32>
  %a0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %a = linalg.generic {indexing_maps = [#id3, #none3], iterator_types = ["reduction", "reduction", "reduction"]} ins(%x : tensor<300x7x300xf32>) outs(%a0 : tensor<f32>) {
  ^bb0(%v: f32, %o: f32):
    %s = arith.mulf %v, %v : f32
    %y = arith.addf %o, %s : f32
    linalg.yield %y : f32
  } -> tensor<f32>
  %e1 = tensor.empty() : tensor<3xf32>
  %b0 = linalg.fill ins(%z : f32) outs(%e1 : tensor<3xf32>) -> tensor<3xf32>
  %b = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]} ins(%r : tensor<3x200000xf32>) outs(%b0 : tensor<3xf32>) {
  ^bb0(%v: f32, %o: f32):
    %y = arith.addf %o, %v : f32
    linalg.yield %y : f32
  } -> tensor<3xf32>
  %e2 = tensor.empty() : tensor<4x32xf32>
  %c0 = linalg.fill ins(%z : f32) outs(%e2 : tensor<4x32xf32>) -> tensor<4x32xf32>
  %c = linalg.generic {indexing_maps = [#id3, #mid], iterator_types = ["parallel", "reduction", "parallel"]} ins(%t : tensor<4x20000x32xf32>) outs(%c0 : tensor<4x32xf32>) {
  ^bb0(%v: f32, %o: f32):
    %y = arith.addf %o, %v : f32
    linalg.yield %y : f32
  } -> tensor<4x32xf32>
  %zd = arith.constant 0.000000e+00 : f64
  %e3 = tensor.empty() : tensor<4x10xf64>
  %d0 = linalg.fill ins(%zd : f64) outs(%e3 : tensor<4x10xf64>) -> tensor<4x10xf64>
  %d = linalg.generic {indexing_maps = [#id3, #mid], iterator_types = ["parallel", "reduction", "parallel"]} ins(%n : tensor<4x30000x10xf64>) outs(%d0 : tensor<4x10xf64>) {
  ^bb0(%v: f64, %o: f64):
    %y = arith.addf %o, %v : f64
    linalg.yield %y : f64
  } -> tensor<4x10xf64>
  %half = arith.constant 5.000000e-01 : f32
  %m = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]} ins(%r : tensor<3x200000xf32>) outs(%b0 : tensor<3xf32>) {
  ^bb0(%v: f32, %o: f32):
    %big = arith.cmpf ogt, %v, %half : f32
    %sq = arith.mulf %v, %v : f32
    %y = arith.addf %o, %sq : f32
    %k = arith.select %big, %y, %o : f32
    linalg.yield %k : f32
  } -> tensor<3xf32>
  return %a, %b, %c, %d, %m : tensor<f32>, tensor<3xf32>, tensor<4x32xf32>, tensor<4x10xf64>, tensor<3xf32>
}
