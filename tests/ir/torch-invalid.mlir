// RUN: torch-opt -p '' -split-input-file -verify-diagnostics %s
// What the torch dialect's parser and verifier refuse, and how they say so.

// expected-error @+1 {{invalid dtype 'index' for !torch.vtensor type}}
func.func private @dtype_none() -> !torch.vtensor<[2],index>

// -----

// expected-error @+1 {{invalid dtype '!torch.int' for !torch.tensor type}}
func.func private @dtype_torch_int() -> !torch.tensor<*,!torch.int>

// -----

// expected-error @+1 {{invalid element type for complex}}
func.func private @complex_of_int() -> !torch.tensor<*,complex<i32>>

// -----

func.func @derefine_narrows(%arg0: !torch.optional<int>) -> !torch.int {
  // expected-error @+1 {{'torch.derefine' op operand type '!torch.optional<int>' and result type '!torch.int' are cast incompatible}}
  %0 = torch.derefine %arg0 : !torch.optional<int> to !torch.int
  return %0 : !torch.int
}

// -----

func.func @unchecked_cast_widens(%arg0: !torch.int) -> !torch.union<int, float> {
  // expected-error @+1 {{'torch.prim.unchecked_cast' op operand type '!torch.int' and result type '!torch.union<int, float>' are cast incompatible}}
  %0 = torch.prim.unchecked_cast %arg0 : !torch.int -> !torch.union<int, float>
  return %0 : !torch.union<int, float>
}

// -----

func.func @static_info_cast_rank(%arg0: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[?],f32> {
  // expected-error @+1 {{'torch.tensor_static_info_cast' op operand type '!torch.vtensor<[2,3],f32>' and result type '!torch.vtensor<[?],f32>' are cast incompatible}}
  %0 = torch.tensor_static_info_cast %arg0 : !torch.vtensor<[2,3],f32> to !torch.vtensor<[?],f32>
  return %0 : !torch.vtensor<[?],f32>
}

// -----

func.func @static_info_cast_size(%arg0: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2,4],f32> {
  // expected-error @+1 {{are cast incompatible}}
  %0 = torch.tensor_static_info_cast %arg0 : !torch.vtensor<[2,3],f32> to !torch.vtensor<[2,4],f32>
  return %0 : !torch.vtensor<[2,4],f32>
}

// -----

func.func @list_of_wrong_elements(%arg0: !torch.vtensor<[2],f32>) -> !torch.list<vtensor<[3],f32>> {
  // expected-error @+1 {{operand types should have the same type as the list contained type}}
  %0 = torch.prim.ListConstruct %arg0 : (!torch.vtensor<[2],f32>) -> !torch.list<vtensor<[3],f32>>
  return %0 : !torch.list<vtensor<[3],f32>>
}

// -----

func.func @overwrite_other_dtype(%arg0: !torch.vtensor<[2],f64>, %arg1: !torch.tensor<[2],f32>) {
  // expected-error @+1 {{'torch.overwrite.tensor.contents' op failed to verify that overwritten tensor type is corresponding !torch.tensor of value tensor type}}
  torch.overwrite.tensor.contents %arg0 overwrites %arg1 : !torch.vtensor<[2],f64>, !torch.tensor<[2],f32>
  return
}

// -----

func.func @literal_shape() {
  // expected-error @+1 {{'torch.vtensor.literal' op result #0 must be Multi-dimensional array modeling Torch's Tensor type, but got '!torch.vtensor<[3],f32>' for a literal of type 'tensor<2xf32>'}}
  %0 = torch.vtensor.literal(dense<1.0> : tensor<2xf32>) : !torch.vtensor<[3],f32>
  return
}

// -----

func.func @literal_value_kind() {
  // expected-error @+1 {{'torch.tensor.literal' op result #0 must be}}
  %0 = torch.tensor.literal(dense<1.0> : tensor<2xf32>) : !torch.vtensor<[2],f32>
  return
}

// -----

func.func @permute_rank(%arg0: !torch.vtensor<[4,5],f32>) -> !torch.vtensor<[5,4,1],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %perm = torch.prim.ListConstruct %int1, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  // expected-error @+1 {{expected input and output tensors to have same rank, but 2 != 3}}
  %0 = torch.aten.permute %arg0, %perm : !torch.vtensor<[4,5],f32>, !torch.list<int> -> !torch.vtensor<[5,4,1],f32>
  return %0 : !torch.vtensor<[5,4,1],f32>
}

// -----

func.func @permute_long(%arg0: !torch.vtensor<[4,5],f32>) -> !torch.vtensor<[5,4],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %perm = torch.prim.ListConstruct %int1, %int0, %int0 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  // expected-error @+1 {{The permutation has 3 elements, the output has rank 2}}
  %0 = torch.aten.permute %arg0, %perm : !torch.vtensor<[4,5],f32>, !torch.list<int> -> !torch.vtensor<[5,4],f32>
  return %0 : !torch.vtensor<[5,4],f32>
}

// -----

func.func @permute_out_of_range(%arg0: !torch.vtensor<[4,5],f32>) -> !torch.vtensor<[5,4],f32> {
  %int0 = torch.constant.int 0
  %intm3 = torch.constant.int -3
  %perm = torch.prim.ListConstruct %intm3, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  // expected-error @+1 {{observed invalid index in permutation (-3) for input tensor of rank 2.}}
  %0 = torch.aten.permute %arg0, %perm : !torch.vtensor<[4,5],f32>, !torch.list<int> -> !torch.vtensor<[5,4],f32>
  return %0 : !torch.vtensor<[5,4],f32>
}

// -----

func.func @permute_twice(%arg0: !torch.vtensor<[4,4],f32>) -> !torch.vtensor<[4,4],f32> {
  %int0 = torch.constant.int 0
  %intm2 = torch.constant.int -2
  %perm = torch.prim.ListConstruct %int0, %intm2 : (!torch.int, !torch.int) -> !torch.list<int>
  // expected-error @+1 {{'torch.aten.permute' op has a duplicate dimension (0) in its permutation}}
  %0 = torch.aten.permute %arg0, %perm : !torch.vtensor<[4,4],f32>, !torch.list<int> -> !torch.vtensor<[4,4],f32>
  return %0 : !torch.vtensor<[4,4],f32>
}

// -----

func.func @permute_sizes(%arg0: !torch.vtensor<[4,5],f32>) -> !torch.vtensor<[4,5],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %perm = torch.prim.ListConstruct %int1, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  // expected-error @+1 {{The input shape in dimension 1 is 5, and the output shape in dimension 0 is 4}}
  %0 = torch.aten.permute %arg0, %perm : !torch.vtensor<[4,5],f32>, !torch.list<int> -> !torch.vtensor<[4,5],f32>
  return %0 : !torch.vtensor<[4,5],f32>
}

// -----

// expected-error @+1 {{'torch.type_bound' must be TypeAttr}}
func.func private @bound_not_type(%arg0: !torch.vtensor {torch.type_bound = "f32"})

// -----

// expected-error @+1 {{'torch.type_bound' must be of !torch.tensor/!torch.vtensor type}}
func.func private @bound_not_tensor(%arg0: !torch.vtensor {torch.type_bound = !torch.int})

// -----

// expected-error @+1 {{'torch.type_bound' must be attached to an argument of !torch.tensor/!torch.vtensor type}}
func.func @bound_on_int(%arg0: !torch.int {torch.type_bound = !torch.vtensor<[2],f32>}) {
  return
}

// -----

func.func @prims_schema(%arg0: !torch.vtensor<[3],f32>, %arg1: !torch.float) -> !torch.vtensor<[3],f32> {
  // expected-error @+1 {{'torch.prims.convert_element_type' op operand #1 must be 'int', but got '!torch.float'}}
  %0 = torch.prims.convert_element_type %arg0, %arg1 : !torch.vtensor<[3],f32>, !torch.float -> !torch.vtensor<[3],f32>
  return %0 : !torch.vtensor<[3],f32>
}

// -----

func.func @assert_metadata_newer_schema(%arg0: !torch.vtensor<[3],f32>, %none: !torch.none) {
  // expected-error @+1 {{'torch.aten._assert_tensor_metadata' op requires 6 operands but found 4}}
  torch.aten._assert_tensor_metadata %arg0, %none, %none, %none : !torch.vtensor<[3],f32>, !torch.none, !torch.none, !torch.none
  return
}

// -----

func.func @if_yields_other_type(%arg0: !torch.bool, %arg1: !torch.float) -> !torch.int {
  %0 = torch.prim.If %arg0 -> (!torch.int) {
    // expected-error @+1 {{'torch.prim.If.yield' op value #0 is '!torch.float' but 'torch.prim.If' result #0 is '!torch.int'}}
    torch.prim.If.yield %arg1 : !torch.float
  } else {
    torch.prim.If.yield %arg1 : !torch.float
  }
  return %0 : !torch.int
}

// -----

func.func @loop_without_counter(%n: !torch.int, %c: !torch.bool) {
  // expected-error @+1 {{'torch.prim.Loop' op body must take the iteration number (!torch.int) and the 0 carried values}}
  torch.prim.Loop %n, %c, init() {
  ^bb0(%i: !torch.float):
    torch.prim.Loop.condition %c, iter()
  } : (!torch.int, !torch.bool) -> ()
  return
}

// -----

// expected-error @+1 {{invalid sparsity encoding attribute}}
func.func private @encoding_not_sparse() -> !torch.vtensor<[4],f32,"dense">

// -----

#M = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
// expected-error @+1 {{dimension-rank mismatch between encoding and tensor shape: 2 != 3}}
func.func private @encoding_rank() -> !torch.vtensor<[4,4,4],f32,#M>

// -----

torch.class_type @K {
  // expected-error @+1 {{'torch.slot' op is not allowed inside `torch.class_type`}}
  torch.slot "x", %x : !torch.int
}
%x = torch.constant.int 1

// -----

// expected-error @+1 {{'torch.class_type' op has duplicate attr/method with name 'x'}}
torch.class_type @K {
  // expected-note @+1 {{see first conflicting attr/method here}}
  torch.attr "x" : !torch.int
  // expected-note @+1 {{see second conflicting attr/method here}}
  torch.method "x", @m
}
func.func private @m(%arg0: !torch.nn.Module<"K">) {
  return
}

// -----

torch.class_type @K {
  // expected-error @+1 {{the referenced function 'm' must have a first argument of type '!torch.nn.Module<"K">'}}
  torch.method "m", @m
}
func.func private @m(%arg0: !torch.int) {
  return
}

// -----

torch.class_type @K {
  // expected-error @+1 {{'@m' must reference a private function}}
  torch.method "m", @m
}
func.func @m(%arg0: !torch.nn.Module<"K">) {
  return
}

// -----

torch.class_type @K {
  torch.attr "a" : !torch.int
  // expected-note @+1 {{see torch.attr at corresponding index 1 here}}
  torch.attr "b" : !torch.float
}
%i = torch.constant.int 1
%0 = torch.nn_module {
  torch.slot "a", %i : !torch.int
  // expected-error @+1 {{'torch.slot' op is expected to match type and name of '"torch.attr"() <{name = "b", type = !torch.float}> : () -> ()'}}
  torch.slot "b", %i : !torch.int
} : !torch.nn.Module<"K">

// -----

torch.class_type @K {
  torch.attr "a" : !torch.int
}
// expected-error @+1 {{number of 'torch.slot's in a 'torch.nn_module' must match number of 'torch.attr's in the corresponding 'torch.class_type'}}
%0 = torch.nn_module {
} : !torch.nn.Module<"K">

// -----

// expected-error @+1 {{'Nothing' does not reference a valid class type}}
%0 = torch.nn_module {
} : !torch.nn.Module<"Nothing">

// -----

torch.global_slot @a : !torch.int
// expected-note @+1 {{missing global slot initializer for @b}}
torch.global_slot @b : !torch.int
torch.global_slot.module_initializer {
  %0 = torch.constant.int 1
  // expected-error @below {{'torch.initialize.global_slots' op must have one initializer for each global slot in the module}}
  // expected-note @below {{unexpected global slot initializer for non-existent global slot @c}}
  torch.initialize.global_slots [
    @a(%0 : !torch.int)
    @c(%0 : !torch.int)
  ]
}

// -----

torch.global_slot @a : !torch.int
torch.global_slot.module_initializer {
  %0 = torch.constant.int 1
  // expected-error @+1 {{duplicate initialization of global slot: @a}}
  torch.initialize.global_slots [
    @a(%0 : !torch.int)
    @a(%0 : !torch.int)
  ]
}

// -----

torch.global_slot @t : !torch.tensor<[2],f32>
torch.global_slot.module_initializer {
  %0 = torch.tensor.literal(dense<0.0> : tensor<3xf32>) : !torch.tensor
  // expected-error @+1 {{'torch.initialize.global_slots' op initial value for global slot @t has type '!torch.tensor' which is not within the bound '!torch.tensor<[2],f32>'}}
  torch.initialize.global_slots [
    @t(%0 : !torch.tensor)
  ]
}

// -----

torch.global_slot @i : !torch.int
torch.global_slot.module_initializer {
  %0 = torch.constant.int 1
  // expected-error @+1 {{'torch.aten.add.int' op is not allowed in a module initializer}}
  %1 = torch.aten.add.int %0, %0 : !torch.int, !torch.int -> !torch.int
  torch.initialize.global_slots [
    @i(%1 : !torch.int)
  ]
}

// -----

// expected-error @+1 {{there must be only one global slot initializer}}
torch.global_slot.module_initializer {
  torch.initialize.global_slots [
  ]
}
// expected-error @+1 {{there must be only one global slot initializer}}
torch.global_slot.module_initializer {
  torch.initialize.global_slots [
  ]
}

// -----

func.func @bind_two_symbols(%t: !torch.vtensor<[?,?],f32>) {
  %s0 = torch.symbolic_int "s0" {min_val = 1, max_val = 8} : !torch.int
  // expected-error @+1 {{op requires equal number of shape symbol args and symbol args to the attached affine map, since they are 1:1 mapped}}
  torch.bind_symbolic_shape %t, [%s0], affine_map<()[s0, s1] -> (s0, s1)> : !torch.vtensor<[?,?],f32>
  return
}

// -----

func.func @bind_constant(%t: !torch.vtensor<[?],f32>) {
  %int4 = torch.constant.int 4
  // expected-error @+1 {{shape symbol must be produced by a SymbolicIntOp}}
  torch.bind_symbolic_shape %t, [%int4], affine_map<()[s0] -> (s0)> : !torch.vtensor<[?],f32>
  return
}

// -----

func.func @dict_odd(%a: !torch.int) {
  %k = torch.constant.str "a"
  // expected-error @+1 {{expected as many values as keys}}
  %d = torch.prim.DictConstruct keys(%k, %k : !torch.str, !torch.str) values(%a : !torch.int) -> !torch.dict<str, int>
  return
}

// -----

func.func @none_result_without_mask(%a: !torch.vtensor<[2],f32>) {
  // expected-error @+1 {{'torch.aten.relu' op result #0 must be 'Tensor', but got '!torch.none'}}
  %0 = torch.aten.relu %a : !torch.vtensor<[2],f32> -> !torch.none
  return
}

// -----

func.func @scaled_mm_int8(%a: !torch.vtensor<[32,32],si8>, %b: !torch.vtensor<[32,32],f8E4M3FN>, %s: !torch.vtensor<[],f32>) -> !torch.vtensor<[32,32],bf16> {
  %none = torch.constant.none
  %int15 = torch.constant.int 15
  %false = torch.constant.bool false
  // expected-error @+1 {{'torch.aten._scaled_mm' op expected self to have an FP8 or FP4 dtype, but got 'si8'}}
  %0 = torch.aten._scaled_mm %a, %b, %s, %s, %none, %none, %int15, %false : !torch.vtensor<[32,32],si8>, !torch.vtensor<[32,32],f8E4M3FN>, !torch.vtensor<[],f32>, !torch.vtensor<[],f32>, !torch.none, !torch.none, !torch.int, !torch.bool -> !torch.vtensor<[32,32],bf16>
  return %0 : !torch.vtensor<[32,32],bf16>
}

// -----

func.func @scaled_mm_k(%a: !torch.vtensor<[32,48],f8E4M3FN>, %b: !torch.vtensor<[32,32],f8E4M3FN>, %s: !torch.vtensor<[],f32>) -> !torch.vtensor<[32,32],bf16> {
  %none = torch.constant.none
  %int15 = torch.constant.int 15
  %false = torch.constant.bool false
  // expected-error @+1 {{expected self and mat2 contracting dimensions to match, but got 48 and 32}}
  %0 = torch.aten._scaled_mm %a, %b, %s, %s, %none, %none, %int15, %false : !torch.vtensor<[32,48],f8E4M3FN>, !torch.vtensor<[32,32],f8E4M3FN>, !torch.vtensor<[],f32>, !torch.vtensor<[],f32>, !torch.none, !torch.none, !torch.int, !torch.bool -> !torch.vtensor<[32,32],bf16>
  return %0 : !torch.vtensor<[32,32],bf16>
}

// -----

func.func @scaled_mm_half_tensorwise(%a: !torch.vtensor<[32,32],f8E4M3FN>, %b: !torch.vtensor<[32,32],f8E4M3FN>, %s: !torch.vtensor<[],f32>, %r: !torch.vtensor<[32,1],f32>) -> !torch.vtensor<[32,32],bf16> {
  %none = torch.constant.none
  %int15 = torch.constant.int 15
  %false = torch.constant.bool false
  // expected-error @+1 {{expected scale_a and scale_b to both be scalar for tensorwise scaling}}
  %0 = torch.aten._scaled_mm %a, %b, %s, %r, %none, %none, %int15, %false : !torch.vtensor<[32,32],f8E4M3FN>, !torch.vtensor<[32,32],f8E4M3FN>, !torch.vtensor<[],f32>, !torch.vtensor<[32,1],f32>, !torch.none, !torch.none, !torch.int, !torch.bool -> !torch.vtensor<[32,32],bf16>
  return %0 : !torch.vtensor<[32,32],bf16>
}

// -----

func.func @scaled_mm_mx_blocks(%a: !torch.vtensor<[128,64],f8E4M3FN>, %b: !torch.vtensor<[64,128],f8E4M3FN>, %s: !torch.vtensor<[128],f8E8M0FNU>) -> !torch.vtensor<[128,128],bf16> {
  %none = torch.constant.none
  %int15 = torch.constant.int 15
  %false = torch.constant.bool false
  // expected-error @+1 {{invalid blockwise scaling configuration: expected scale_a to have 512 elements and scale_b to have 512 elements, but got 128 and 128}}
  %0 = torch.aten._scaled_mm %a, %b, %s, %s, %none, %none, %int15, %false : !torch.vtensor<[128,64],f8E4M3FN>, !torch.vtensor<[64,128],f8E4M3FN>, !torch.vtensor<[128],f8E8M0FNU>, !torch.vtensor<[128],f8E8M0FNU>, !torch.none, !torch.none, !torch.int, !torch.bool -> !torch.vtensor<[128,128],bf16>
  return %0 : !torch.vtensor<[128,128],bf16>
}

// -----

func.func @v2_mixed_recipes(%a: !torch.vtensor<[128,64],f8E4M3FN>, %b: !torch.vtensor<[64,128],f8E4M3FN>, %sa0: !torch.vtensor<[],f32>, %sb0: !torch.vtensor<[128,1],f32>) {
  %i0 = torch.constant.int 0
  %i1 = torch.constant.int 1
  %i15 = torch.constant.int 15
  %none = torch.constant.none
  %false = torch.constant.bool false
  %sa = torch.prim.ListConstruct %sa0 : (!torch.vtensor<[],f32>) -> !torch.list<vtensor>
  %ra = torch.prim.ListConstruct %i0 : (!torch.int) -> !torch.list<int>
  %wa = torch.prim.ListConstruct %i0 : (!torch.int) -> !torch.list<int>
  %sb = torch.prim.ListConstruct %sb0 : (!torch.vtensor<[128,1],f32>) -> !torch.list<vtensor>
  %rb = torch.prim.ListConstruct %i1 : (!torch.int) -> !torch.list<int>
  %wb = torch.prim.ListConstruct %i0 : (!torch.int) -> !torch.list<int>
  %cd = torch.prim.ListConstruct : () -> !torch.list<int>
  // expected-error @+1 {{invalid scaling configuration for recipe_a and recipe_b}}
  %0 = torch.aten._scaled_mm_v2 %a, %b, %sa, %ra, %wa, %sb, %rb, %wb, %none, %i15, %cd, %false : !torch.vtensor<[128,64],f8E4M3FN>, !torch.vtensor<[64,128],f8E4M3FN>, !torch.list<vtensor>, !torch.list<int>, !torch.list<int>, !torch.list<vtensor>, !torch.list<int>, !torch.list<int>, !torch.none, !torch.int, !torch.list<int>, !torch.bool -> !torch.vtensor<[128,128],bf16>
  return
}

// -----

func.func @v2_rowwise_dtype(%a: !torch.vtensor<[128,64],f8E4M3FN>, %b: !torch.vtensor<[64,128],f8E4M3FN>, %sa0: !torch.vtensor<[128],bf16>, %sb0: !torch.vtensor<[128],f32>) {
  %i0 = torch.constant.int 0
  %i1 = torch.constant.int 1
  %i15 = torch.constant.int 15
  %none = torch.constant.none
  %false = torch.constant.bool false
  %sa = torch.prim.ListConstruct %sa0 : (!torch.vtensor<[128],bf16>) -> !torch.list<vtensor>
  %ra = torch.prim.ListConstruct %i1 : (!torch.int) -> !torch.list<int>
  %wa = torch.prim.ListConstruct %i0 : (!torch.int) -> !torch.list<int>
  %sb = torch.prim.ListConstruct %sb0 : (!torch.vtensor<[128],f32>) -> !torch.list<vtensor>
  %rb = torch.prim.ListConstruct %i1 : (!torch.int) -> !torch.list<int>
  %wb = torch.prim.ListConstruct %i0 : (!torch.int) -> !torch.list<int>
  %cd = torch.prim.ListConstruct : () -> !torch.list<int>
  // expected-error @+1 {{expected rowwise scale_a and scale_b to have f32 dtype}}
  %0 = torch.aten._scaled_mm_v2 %a, %b, %sa, %ra, %wa, %sb, %rb, %wb, %none, %i15, %cd, %false : !torch.vtensor<[128,64],f8E4M3FN>, !torch.vtensor<[64,128],f8E4M3FN>, !torch.list<vtensor>, !torch.list<int>, !torch.list<int>, !torch.list<vtensor>, !torch.list<int>, !torch.list<int>, !torch.none, !torch.int, !torch.list<int>, !torch.bool -> !torch.vtensor<[128,128],bf16>
  return
}

// -----

func.func @v2_rowwise_count(%a: !torch.vtensor<[128,64],f8E4M3FN>, %b: !torch.vtensor<[64,128],f8E4M3FN>, %sa0: !torch.vtensor<[64],f32>, %sb0: !torch.vtensor<[128],f32>) {
  %i0 = torch.constant.int 0
  %i1 = torch.constant.int 1
  %i15 = torch.constant.int 15
  %none = torch.constant.none
  %false = torch.constant.bool false
  %sa = torch.prim.ListConstruct %sa0 : (!torch.vtensor<[64],f32>) -> !torch.list<vtensor>
  %ra = torch.prim.ListConstruct %i1 : (!torch.int) -> !torch.list<int>
  %wa = torch.prim.ListConstruct %i0 : (!torch.int) -> !torch.list<int>
  %sb = torch.prim.ListConstruct %sb0 : (!torch.vtensor<[128],f32>) -> !torch.list<vtensor>
  %rb = torch.prim.ListConstruct %i1 : (!torch.int) -> !torch.list<int>
  %wb = torch.prim.ListConstruct %i0 : (!torch.int) -> !torch.list<int>
  %cd = torch.prim.ListConstruct : () -> !torch.list<int>
  // expected-error @+1 {{invalid rowwise scaling configuration: expected scale_a to have 128 elements and scale_b to have 128 elements, but got 64 and 128}}
  %0 = torch.aten._scaled_mm_v2 %a, %b, %sa, %ra, %wa, %sb, %rb, %wb, %none, %i15, %cd, %false : !torch.vtensor<[128,64],f8E4M3FN>, !torch.vtensor<[64,128],f8E4M3FN>, !torch.list<vtensor>, !torch.list<int>, !torch.list<int>, !torch.list<vtensor>, !torch.list<int>, !torch.list<int>, !torch.none, !torch.int, !torch.list<int>, !torch.bool -> !torch.vtensor<[128,128],bf16>
  return
}

// -----

func.func @v2_mx_unswizzled(%a: !torch.vtensor<[128,64],f8E4M3FN>, %b: !torch.vtensor<[64,128],f8E4M3FN>, %sa0: !torch.vtensor<[256],f8E8M0FNU>, %sb0: !torch.vtensor<[256],f8E8M0FNU>) {
  %i0 = torch.constant.int 0
  %i3 = torch.constant.int 3
  %i15 = torch.constant.int 15
  %none = torch.constant.none
  %false = torch.constant.bool false
  %sa = torch.prim.ListConstruct %sa0 : (!torch.vtensor<[256],f8E8M0FNU>) -> !torch.list<vtensor>
  %ra = torch.prim.ListConstruct %i3 : (!torch.int) -> !torch.list<int>
  %wa = torch.prim.ListConstruct %i0 : (!torch.int) -> !torch.list<int>
  %sb = torch.prim.ListConstruct %sb0 : (!torch.vtensor<[256],f8E8M0FNU>) -> !torch.list<vtensor>
  %rb = torch.prim.ListConstruct %i3 : (!torch.int) -> !torch.list<int>
  %wb = torch.prim.ListConstruct %i0 : (!torch.int) -> !torch.list<int>
  %cd = torch.prim.ListConstruct : () -> !torch.list<int>
  // expected-error @+1 {{expected blockwise swizzle_a and swizzle_b to be SWIZZLE_32_4_4}}
  %0 = torch.aten._scaled_mm_v2 %a, %b, %sa, %ra, %wa, %sb, %rb, %wb, %none, %i15, %cd, %false : !torch.vtensor<[128,64],f8E4M3FN>, !torch.vtensor<[64,128],f8E4M3FN>, !torch.list<vtensor>, !torch.list<int>, !torch.list<int>, !torch.list<vtensor>, !torch.list<int>, !torch.list<int>, !torch.none, !torch.int, !torch.list<int>, !torch.bool -> !torch.vtensor<[128,128],bf16>
  return
}

// -----

func.func @v2_recipe_lengths(%a: !torch.vtensor<[128,64],f8E4M3FN>, %b: !torch.vtensor<[64,128],f8E4M3FN>, %sa0: !torch.vtensor<[],f32>, %sb0: !torch.vtensor<[],f32>) {
  %i0 = torch.constant.int 0
  %i15 = torch.constant.int 15
  %none = torch.constant.none
  %false = torch.constant.bool false
  %sa = torch.prim.ListConstruct %sa0 : (!torch.vtensor<[],f32>) -> !torch.list<vtensor>
  %ra = torch.prim.ListConstruct %i0, %i0 : (!torch.int, !torch.int) -> !torch.list<int>
  %wa = torch.prim.ListConstruct %i0 : (!torch.int) -> !torch.list<int>
  %sb = torch.prim.ListConstruct %sb0 : (!torch.vtensor<[],f32>) -> !torch.list<vtensor>
  %rb = torch.prim.ListConstruct %i0 : (!torch.int) -> !torch.list<int>
  %wb = torch.prim.ListConstruct %i0 : (!torch.int) -> !torch.list<int>
  %cd = torch.prim.ListConstruct : () -> !torch.list<int>
  // expected-error @+1 {{expected scale_a and recipe_a lists to have the same length}}
  %0 = torch.aten._scaled_mm_v2 %a, %b, %sa, %ra, %wa, %sb, %rb, %wb, %none, %i15, %cd, %false : !torch.vtensor<[128,64],f8E4M3FN>, !torch.vtensor<[64,128],f8E4M3FN>, !torch.list<vtensor>, !torch.list<int>, !torch.list<int>, !torch.list<vtensor>, !torch.list<int>, !torch.list<int>, !torch.none, !torch.int, !torch.list<int>, !torch.bool -> !torch.vtensor<[128,128],bf16>
  return
}

// -----

func.func @v2_empty(%a: !torch.vtensor<[128,64],f8E4M3FN>, %b: !torch.vtensor<[64,128],f8E4M3FN>, %sb0: !torch.vtensor<[],f32>) {
  %i0 = torch.constant.int 0
  %i15 = torch.constant.int 15
  %none = torch.constant.none
  %false = torch.constant.bool false
  %sa = torch.prim.ListConstruct : () -> !torch.list<vtensor>
  %ra = torch.prim.ListConstruct %i0 : (!torch.int) -> !torch.list<int>
  %wa = torch.prim.ListConstruct %i0 : (!torch.int) -> !torch.list<int>
  %sb = torch.prim.ListConstruct %sb0 : (!torch.vtensor<[],f32>) -> !torch.list<vtensor>
  %rb = torch.prim.ListConstruct %i0 : (!torch.int) -> !torch.list<int>
  %wb = torch.prim.ListConstruct %i0 : (!torch.int) -> !torch.list<int>
  %cd = torch.prim.ListConstruct : () -> !torch.list<int>
  // expected-error @+1 {{expected scale_a, recipe_a, scale_b and recipe_b lists to be non-empty}}
  %0 = torch.aten._scaled_mm_v2 %a, %b, %sa, %ra, %wa, %sb, %rb, %wb, %none, %i15, %cd, %false : !torch.vtensor<[128,64],f8E4M3FN>, !torch.vtensor<[64,128],f8E4M3FN>, !torch.list<vtensor>, !torch.list<int>, !torch.list<int>, !torch.list<vtensor>, !torch.list<int>, !torch.list<int>, !torch.none, !torch.int, !torch.list<int>, !torch.bool -> !torch.vtensor<[128,128],bf16>
  return
}

// -----

func.func @v2_contraction_dims(%a: !torch.vtensor<[128,64],f8E4M3FN>, %b: !torch.vtensor<[32,128],f8E4M3FN>, %sa0: !torch.vtensor<[],f32>, %sb0: !torch.vtensor<[],f32>) {
  %i0 = torch.constant.int 0
  %i15 = torch.constant.int 15
  %none = torch.constant.none
  %false = torch.constant.bool false
  %sa = torch.prim.ListConstruct %sa0 : (!torch.vtensor<[],f32>) -> !torch.list<vtensor>
  %ra = torch.prim.ListConstruct %i0 : (!torch.int) -> !torch.list<int>
  %wa = torch.prim.ListConstruct %i0 : (!torch.int) -> !torch.list<int>
  %sb = torch.prim.ListConstruct %sb0 : (!torch.vtensor<[],f32>) -> !torch.list<vtensor>
  %rb = torch.prim.ListConstruct %i0 : (!torch.int) -> !torch.list<int>
  %wb = torch.prim.ListConstruct %i0 : (!torch.int) -> !torch.list<int>
  %i1 = torch.constant.int 1
  %cd = torch.prim.ListConstruct %i1, %i0 : (!torch.int, !torch.int) -> !torch.list<int>
  // expected-error @+1 {{expected self and mat2 contraction_dim-selected dimensions to match, but got 64 and 32}}
  %0 = torch.aten._scaled_mm_v2 %a, %b, %sa, %ra, %wa, %sb, %rb, %wb, %none, %i15, %cd, %false : !torch.vtensor<[128,64],f8E4M3FN>, !torch.vtensor<[32,128],f8E4M3FN>, !torch.list<vtensor>, !torch.list<int>, !torch.list<int>, !torch.list<vtensor>, !torch.list<int>, !torch.list<int>, !torch.none, !torch.int, !torch.list<int>, !torch.bool -> !torch.vtensor<[128,128],bf16>
  return
}

// -----

func.func @v2_f32_blocks(%a: !torch.vtensor<[128,256],f8E4M3FN>, %b: !torch.vtensor<[256,128],f8E4M3FN>, %sa0: !torch.vtensor<[128,1],f32>, %sb0: !torch.vtensor<[128,2],f32>) {
  %i0 = torch.constant.int 0
  %i4 = torch.constant.int 4
  %i15 = torch.constant.int 15
  %none = torch.constant.none
  %false = torch.constant.bool false
  %sa = torch.prim.ListConstruct %sa0 : (!torch.vtensor<[128,1],f32>) -> !torch.list<vtensor>
  %ra = torch.prim.ListConstruct %i4 : (!torch.int) -> !torch.list<int>
  %wa = torch.prim.ListConstruct %i0 : (!torch.int) -> !torch.list<int>
  %sb = torch.prim.ListConstruct %sb0 : (!torch.vtensor<[128,2],f32>) -> !torch.list<vtensor>
  %rb = torch.prim.ListConstruct %i4 : (!torch.int) -> !torch.list<int>
  %wb = torch.prim.ListConstruct %i0 : (!torch.int) -> !torch.list<int>
  %cd = torch.prim.ListConstruct : () -> !torch.list<int>
  // expected-error @+1 {{invalid 1x128 x 1x128 blockwise scaling configuration: expected scale_a shape [128, 2] and scale_b shape [128, 2]}}
  %0 = torch.aten._scaled_mm_v2 %a, %b, %sa, %ra, %wa, %sb, %rb, %wb, %none, %i15, %cd, %false : !torch.vtensor<[128,256],f8E4M3FN>, !torch.vtensor<[256,128],f8E4M3FN>, !torch.list<vtensor>, !torch.list<int>, !torch.list<int>, !torch.list<vtensor>, !torch.list<int>, !torch.list<int>, !torch.none, !torch.int, !torch.list<int>, !torch.bool -> !torch.vtensor<[128,128],bf16>
  return
}

// -----

// expected-error @+1 {{invalid dtype '!torch.nn.Module<"qint8">' for !torch.vtensor type}}
func.func private @dtype_module() -> !torch.vtensor<[2],!torch.nn.Module<"qint8">>
