// x @ y per item over a dynamic batch (a batch matmul, both operands
// batched): codegen's bounded chunk of 8 launches the tiles of the call's
// items only, for codegen --target=cuda.
#x = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#y = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
#o = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
func.func @main(%x: tensor<?x16x32xf32>, %y: tensor<?x32x80xf32>) -> tensor<?x16x80xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x16x32xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty(%n) : tensor<?x16x80xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<?x16x80xf32>) -> tensor<?x16x80xf32>
  %r = linalg.generic {indexing_maps = [#x, #y, #o], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%x, %y : tensor<?x16x32xf32>, tensor<?x32x80xf32>) outs(%f : tensor<?x16x80xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<?x16x80xf32>
  return %r : tensor<?x16x80xf32>
}
