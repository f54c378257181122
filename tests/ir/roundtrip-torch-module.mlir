// RUN: torch-opt -p '' %s | torch-opt -p '' | FileCheck %s
// TorchScript module structure (class types, objects, global slots),
// symbolic shapes and sparse tensor types: read, verified, printed back.

// bind_symbolic_shape's map is printed in place (torch-mlir's form): no #map.
// CHECK-NOT: #map
// CHECK: #sparse = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed) }>
// CHECK-NEXT: #sparse1 = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
#V = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed) }>

// CHECK: func.func private @vec() -> !torch.vtensor<[8],f32,#sparse>
func.func private @vec() -> !torch.vtensor<[8],f32,#V>
// CHECK: func.func private @mat() -> !torch.tensor<[4,?],si64,#sparse1>
func.func private @mat() -> !torch.tensor<[4,?],si64,#sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>>

// CHECK: func.func private @forward(%arg0: !torch.nn.Module<"Net">, %arg1: !torch.int) -> !torch.int {
func.func private @forward(%self: !torch.nn.Module<"Net">, %x: !torch.int) -> !torch.int {
  return %x : !torch.int
}

// CHECK:      torch.class_type @Empty {
// CHECK-NEXT: }
torch.class_type @Empty {}
// CHECK:      torch.class_type @Net {
// CHECK-NEXT:   torch.attr "n" : !torch.int
// CHECK-NEXT:   torch.attr private "child" : !torch.nn.Module<"Empty">
// CHECK-NEXT:   torch.method "forward", @forward
// CHECK-NEXT:   torch.method private "helper", @forward
// CHECK-NEXT: }
torch.class_type @Net {
  torch.attr "n" : !torch.int
  torch.attr private "child" : !torch.nn.Module<"Empty">
  torch.method "forward", @forward
  torch.method private "helper", @forward
}
// CHECK:      %[[N:.*]] = torch.constant.int 7
// CHECK-NEXT: %[[E:.*]] = torch.nn_module {
// CHECK-NEXT: } : !torch.nn.Module<"Empty">
// CHECK-NEXT: %{{.*}} = torch.nn_module {
// CHECK-NEXT:   torch.slot "n", %[[N]] : !torch.int
// CHECK-NEXT:   torch.slot "child", %[[E]] : !torch.nn.Module<"Empty">
// CHECK-NEXT: } : !torch.nn.Module<"Net">
%n = torch.constant.int 7
%empty = torch.nn_module {} : !torch.nn.Module<"Empty">
%net = torch.nn_module {
  torch.slot "n", %n : !torch.int
  torch.slot "child", %empty : !torch.nn.Module<"Empty">
} : !torch.nn.Module<"Net">

// CHECK:      torch.global_slot @counter : !torch.int
// CHECK-NEXT: torch.global_slot private @weight : !torch.tensor
// CHECK-NEXT: torch.global_slot.module_initializer {
// CHECK-NEXT:   %[[I:.*]] = torch.constant.int 0
// CHECK-NEXT:   %[[T:.*]] = torch.tensor.literal(dense<1.000000e+00> : tensor<2xf32>) : !torch.tensor<[2],f32>
// CHECK-NEXT:   torch.initialize.global_slots [
// CHECK-NEXT:     @counter(%[[I]] : !torch.int)
// CHECK-NEXT:     @weight(%[[T]] : !torch.tensor<[2],f32>)
// CHECK-NEXT:   ]
// CHECK-NEXT: }
torch.global_slot @counter : !torch.int
torch.global_slot private @weight : !torch.tensor
torch.global_slot.module_initializer {
  %0 = torch.constant.int 0
  %1 = torch.tensor.literal(dense<1.0> : tensor<2xf32>) : !torch.tensor<[2],f32>
  torch.initialize.global_slots [
    @counter(%0 : !torch.int)
    @weight(%1 : !torch.tensor<[2],f32>)
  ]
}

// CHECK-LABEL: func.func @values(
func.func @values(%w: !torch.tensor, %b: !torch.tensor, %t: !torch.vtensor<[?,4],f32>) -> (!torch.LinearParams, !torch.int) {
  // CHECK: torch.linear_params.create %arg0, %arg1 : !torch.tensor, !torch.tensor
  %0 = torch.linear_params.create %w, %b : !torch.tensor, !torch.tensor
  // torch-mlir's forms: the bounds in order without their type, the map
  // written out.
  // CHECK: %[[S:.*]] = torch.symbolic_int "s0" {min_val = 2, max_val = 9} : !torch.int
  %s0 = torch.symbolic_int "s0" {min_val = 2, max_val = 9} : !torch.int
  // CHECK: torch.bind_symbolic_shape %arg2, [%[[S]]], affine_map<()[s0] -> (s0, 4)> : !torch.vtensor<[?,4],f32>
  torch.bind_symbolic_shape %t, [%s0], affine_map<()[s0] -> (s0, 4)> : !torch.vtensor<[?,4],f32>
  return %0, %s0 : !torch.LinearParams, !torch.int
}

// Dicts: built from as many values as keys, read by TorchScript's dict ops.
// CHECK-LABEL: func.func @dicts(
// CHECK: %[[D:.*]] = torch.prim.DictConstruct keys(%{{.*}}, %{{.*}} : !torch.str, !torch.str) values(%arg0, %arg1 : !torch.int, !torch.int) -> !torch.dict<str, int>
// CHECK: torch.aten.__contains__.str %[[D]], %{{.*}} : !torch.dict<str, int>, !torch.str -> !torch.bool
// CHECK: torch.prim.DictConstruct keys() values() -> !torch.dict<str, int>
func.func @dicts(%a: !torch.int, %b: !torch.int) -> !torch.bool {
  %ka = torch.constant.str "a"
  %kb = torch.constant.str "b"
  %d = torch.prim.DictConstruct keys(%ka, %kb : !torch.str, !torch.str) values(%a, %b : !torch.int, !torch.int) -> !torch.dict<str, int>
  %0 = torch.aten.__contains__.str %d, %ka : !torch.dict<str, int>, !torch.str -> !torch.bool
  %e = torch.prim.DictConstruct keys() values() -> !torch.dict<str, int>
  return %0 : !torch.bool
}

// Gradients that output_mask leaves uncomputed are none.
// CHECK-LABEL: func.func @conv_bwd_mask(
// CHECK: torch.aten.convolution_backward {{.*}} -> !torch.none, !torch.vtensor<[4,2,3,3],f32>, !torch.none
func.func @conv_bwd_mask(%g: !torch.vtensor<[1,4,6,6],f32>, %x: !torch.vtensor<[1,2,8,8],f32>, %w: !torch.vtensor<[4,2,3,3],f32>) -> !torch.vtensor<[4,2,3,3],f32> {
  %none = torch.constant.none
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  %ones = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %zeros = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %mask = torch.prim.ListConstruct %false, %true, %false : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %0:3 = torch.aten.convolution_backward %g, %x, %w, %none, %ones, %zeros, %ones, %false, %zeros, %int1, %mask : !torch.vtensor<[1,4,6,6],f32>, !torch.vtensor<[1,2,8,8],f32>, !torch.vtensor<[4,2,3,3],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.none, !torch.vtensor<[4,2,3,3],f32>, !torch.none
  return %0#1 : !torch.vtensor<[4,2,3,3],f32>
}
