// RUN: torch-opt -p '' --split-input-file -verify-diagnostics %s
// The attributes torch's module-structure and symbolic-shape forms print
// without their names are required (lib/verify_ops.c attr_needs).

torch.class_type @c {
  // expected-error @+1 {{'torch.attr' op requires attribute 'type' (a type)}}
  "torch.attr"() {name = "x"} : () -> ()
}

// -----

func.func private @f(!torch.nn.Module<"c">)
torch.class_type @c {
  // expected-error @+1 {{'torch.method' op requires attribute 'function' (a flat symbol reference)}}
  "torch.method"() {name = "m", function = "f"} : () -> ()
}

// -----

// expected-error @+1 {{'torch.global_slot' op requires attribute 'typeBound' (a type)}}
"torch.global_slot"() {sym_name = "g"} : () -> ()

// -----

func.func @f(%t: !torch.vtensor<[?],f32>) {
  // expected-error @+1 {{'torch.bind_symbolic_shape' op requires attribute 'shape_expressions' (an affine map)}}
  "torch.bind_symbolic_shape"(%t) : (!torch.vtensor<[?],f32>) -> ()
  return
}

// -----

// expected-error @+1 {{'torch.symbolic_int' op requires attribute 'symbol_name' (a string)}}
%0 = "torch.symbolic_int"() : () -> !torch.int
