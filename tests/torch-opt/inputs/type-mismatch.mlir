// A use whose type differs from its definition; the error points at the use.
func.func @f(%a: f32, %b: f64) -> f32 {
  %0 = arith.addf %a, %a : f32
  %1 = arith.mulf %0, %0 : f32
  return %b : f32
}
