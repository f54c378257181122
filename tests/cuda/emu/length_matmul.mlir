// x @ w over a dynamic length (1..256) of rows: a contraction the CUDA
// target tiles through shared memory, whose tiles past the call's rows
// the padded functions' blocks skip.
#x = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#w = affine_map<(d0, d1, d2, d3) -> (d3, d2)>
#o = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
func.func @main(%x: tensor<1x?x32xf32>, %w: tensor<32x80xf32>) -> tensor<1x?x80xf32> {
  %c1 = arith.constant 1 : index
  %n = tensor.dim %x, %c1 : tensor<1x?x32xf32>
  %cmax = arith.constant 256 : index
  %lo = arith.cmpi sge, %n, %c1 : index
  %hi = arith.cmpi sle, %n, %cmax : index
  %ok = arith.andi %lo, %hi : i1
  cf.assert %ok, "input 0: dimension 1 (n) must be in [1, 256]"
  %z = arith.constant 0.0 : f32
  %e = tensor.empty(%n) : tensor<1x?x80xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x?x80xf32>) -> tensor<1x?x80xf32>
  %r = linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%x, %w : tensor<1x?x32xf32>, tensor<32x80xf32>) outs(%f : tensor<1x?x80xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x?x80xf32>
  return %r : tensor<1x?x80xf32>
}
