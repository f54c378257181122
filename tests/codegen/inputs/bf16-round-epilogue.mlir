#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @main(%a: tensor<8x64xbf16>, %r: tensor<8x48xf32>) -> tensor<8x48xbf16> {
  %w = arith.constant dense<0.5> : tensor<64x48xbf16>
  %ea = tensor.empty() : tensor<8x64xf32>
  %af = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<8x64xbf16>) outs(%ea : tensor<8x64xf32>) {
  ^bb0(%x: bf16, %o: f32):
    %t = arith.extf %x : bf16 to f32
    linalg.yield %t : f32
  } -> tensor<8x64xf32>
  %ew = tensor.empty() : tensor<64x48xf32>
  %wf = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%w : tensor<64x48xbf16>) outs(%ew : tensor<64x48xf32>) {
  ^bb0(%x: bf16, %o: f32):
    %t = arith.extf %x : bf16 to f32
    linalg.yield %t : f32
  } -> tensor<64x48xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x48xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<8x48xf32>) -> tensor<8x48xf32>
  %mm = linalg.matmul ins(%af, %wf : tensor<8x64xf32>, tensor<64x48xf32>) outs(%f : tensor<8x48xf32>) -> tensor<8x48xf32>
  %eo = tensor.empty() : tensor<8x48xbf16>
  %o = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%mm, %r : tensor<8x48xf32>, tensor<8x48xf32>) outs(%eo : tensor<8x48xbf16>) {
  ^bb0(%x: f32, %y: f32, %o: bf16):
    %s = arith.addf %x, %y : f32
    %t = arith.truncf %s : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<8x48xbf16>
  return %o : tensor<8x48xbf16>
}
