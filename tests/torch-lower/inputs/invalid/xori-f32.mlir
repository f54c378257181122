func.func @xori(%arg0: f32) -> f32 {
  %0 = arith.xori %arg0, %arg0 : f32
  return %0 : f32
}
