// x * x over a dynamic length (1..65535): one loop of points, which the
// padded functions' kernels stop at the call's length, their launches
// sized to it (a dispatch's grid_length) for codegen --target=cuda.
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @main(%x: tensor<1x?xf32>) -> tensor<1x?xf32> {
  %c1 = arith.constant 1 : index
  %n = tensor.dim %x, %c1 : tensor<1x?xf32>
  %cmax = arith.constant 65535 : index
  %lo = arith.cmpi sge, %n, %c1 : index
  %hi = arith.cmpi sle, %n, %cmax : index
  %ok = arith.andi %lo, %hi : i1
  cf.assert %ok, "input 0: dimension 1 (n) must be in [1, 65535]"
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<1x?xf32>) outs(%x : tensor<1x?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = arith.mulf %a, %a : f32
    linalg.yield %v : f32
  } -> tensor<1x?xf32>
  return %r : tensor<1x?xf32>
}
