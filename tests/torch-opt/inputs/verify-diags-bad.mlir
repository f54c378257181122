func.func @wrong_line(%a: f32) -> f32 {
  // expected-error @+2 {{use of undeclared SSA value}}
  return %undefined : f32
}

// -----

func.func @unexpected(%a: f32) -> f32 {
  return %undefined : f32
}

// -----

func.func @wrong_text(%a: f32) -> f32 {
  // expected-error @below {{no such message}}
  return %undefined : f32
}

// -----

func.func @wrong_kind(%a: f32) -> f32 {
  // expected-warning @below {{undeclared}}
  return %undefined : f32
}

// -----

func.func @fine(%a: f32) -> f32 {
  return %a : f32
}
