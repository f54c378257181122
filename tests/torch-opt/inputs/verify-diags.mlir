// Every form of expectation mlir-opt's -verify-diagnostics takes.
func.func @plus(%a: f32) -> f32 {
  // expected-error @+1 {{use of undeclared SSA value}}
  return %undefined : f32
}

// -----

func.func @ok(%a: f32) -> f32 {
  return %a : f32
}

// -----

func.func @below(%a: f32) -> f32 {
  // expected-error @below {{undeclared SSA {{v[a-z]+}} name}}
  return %undefined : f32
}

// -----

func.func @above(%a: f32) -> f32 {
  return %undefined : f32
  // expected-error @above {{{{^use of}} undeclared}}
}

// -----

func.func @minus(%a: f32) -> f32 {
  return %undefined : f32

  // expected-error @-2 {{SSA value}}
}

// -----

func.func @same_line(%a: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2,3],f32> {
  %int1 = torch.constant.int 1
  %none = torch.constant.none
  %0 = torch.aten.softmax.int %a, %int1, %none : !torch.vtensor<[2,3],f32>, !torch.int, !torch.none -> !torch.vtensor<[2,3],f32> // expected-error {{'aten.softmax.int' is not supported by the backend contract}}
  return %0 : !torch.vtensor<[2,3],f32>
}
