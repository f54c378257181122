// A softmax over a dynamic length (1..64): a max and a sum along the
// length (masked reductions in the padded functions) and elementwise
// loops over it, for codegen --target=cuda's padded functions.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @main(%x: tensor<1x?xf32>) -> tensor<1x?xf32> {
  %c1 = arith.constant 1 : index
  %n = tensor.dim %x, %c1 : tensor<1x?xf32>
  %cmax = arith.constant 64 : index
  %lo = arith.cmpi sge, %n, %c1 : index
  %hi = arith.cmpi sle, %n, %cmax : index
  %ok = arith.andi %lo, %hi : i1
  cf.assert %ok, "input 0: dimension 1 (n) must be in [1, 64]"
  %c0f = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e1 = tensor.empty() : tensor<1xf32>
  %z = linalg.fill ins(%c0f : f32) outs(%e1 : tensor<1xf32>) -> tensor<1xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<1xf32>) -> tensor<1xf32>
  %mx = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<1x?xf32>) outs(%m0 : tensor<1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = arith.maxf %a, %o : f32
    linalg.yield %v : f32
  } -> tensor<1xf32>
  %en = tensor.empty(%n) : tensor<1x?xf32>
  %ex = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %mx : tensor<1x?xf32>, tensor<1xf32>) outs(%en : tensor<1x?xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %v = math.exp %d : f32
    linalg.yield %v : f32
  } -> tensor<1x?xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%ex : tensor<1x?xf32>) outs(%z : tensor<1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = arith.addf %a, %o : f32
    linalg.yield %v : f32
  } -> tensor<1xf32>
  %r = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%ex, %s : tensor<1x?xf32>, tensor<1xf32>) outs(%en : tensor<1x?xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.divf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<1x?xf32>
  return %r : tensor<1x?xf32>
}
