func.func @ok(%a: f32) -> f32 {
  return %a : f32
}
// -----
func.func @bad(%a: f32) -> f32 {
  return %undefined : f32
}
