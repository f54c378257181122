func.func @loop_extent(%arg0: tensor<5xf32>, %e: tensor<5xf32>) -> tensor<5xf32> {
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<5xf32>) outs(%e : tensor<5xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<5xf32>
  return %1 : tensor<5xf32>
}
