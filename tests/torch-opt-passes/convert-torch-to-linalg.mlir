// RUN: torch-opt --convert-torch-to-linalg -split-input-file -verify-diagnostics %s | FileCheck %s
// RUN: torch-opt --convert-torch-to-linalg -split-input-file -verify-diagnostics %s | torch-opt -p '' -split-input-file | FileCheck %s
// RUN: torch-opt --convert-torch-to-linalg=allow-non-finites=false -split-input-file -verify-diagnostics %s | FileCheck %s --check-prefix=FINITE
// RUN: not torch-opt --convert-torch-to-linalg=allow-non-finites=maybe %s 2>&1 | FileCheck %s --check-prefix=BADOPT

// BADOPT: allow-non-finites option: 'maybe' is invalid

// The signature stays torch; operands come in through to_builtin_tensor
// (one for a value used twice), a chain uses the builtin values, each
// result is cast to its type and leaves through from_builtin_tensor.
// CHECK-LABEL: func.func @chain(
// CHECK-SAME:      %[[A:.*]]: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2,3],f32> {
// CHECK:         %[[B:.*]] = torch_c.to_builtin_tensor %[[A]] : !torch.vtensor<[2,3],f32> -> tensor<2x3xf32>
// CHECK-NOT:     torch_c.to_builtin_tensor
// CHECK:         %[[T:.*]] = linalg.generic {{.*}} ins(%[[B]] : tensor<2x3xf32>)
// CHECK:           math.tanh
// CHECK:         %[[TC:.*]] = tensor.cast %[[T]] : tensor<2x3xf32> to tensor<2x3xf32>
// CHECK:         %[[S:.*]] = linalg.generic {{.*}} ins(%[[TC]], %[[B]] : tensor<2x3xf32>, tensor<2x3xf32>)
// CHECK:           arith.addf
// CHECK:         %[[SC:.*]] = tensor.cast %[[S]] : tensor<2x3xf32> to tensor<2x3xf32>
// CHECK:         %[[R:.*]] = torch_c.from_builtin_tensor %[[SC]] : tensor<2x3xf32> -> !torch.vtensor<[2,3],f32>
// CHECK:         return %[[R]] : !torch.vtensor<[2,3],f32>
// CHECK-NOT:     torch.aten
func.func @chain(%a: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2,3],f32> {
  %int1 = torch.constant.int 1
  %0 = torch.aten.tanh %a : !torch.vtensor<[2,3],f32> -> !torch.vtensor<[2,3],f32>
  %1 = torch.aten.add.Tensor %0, %a, %int1 : !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],f32>, !torch.int -> !torch.vtensor<[2,3],f32>
  return %1 : !torch.vtensor<[2,3],f32>
}

// -----

// A dynamic dim sizes the init with tensor.dim.
// CHECK-LABEL: func.func @dynamic(
// CHECK:         %[[B:.*]] = torch_c.to_builtin_tensor %arg0 : !torch.vtensor<[?,4],f32> -> tensor<?x4xf32>
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK:         %[[D:.*]] = tensor.dim %[[B]], %[[C0]] : tensor<?x4xf32>
// CHECK:         tensor.empty(%[[D]]) : tensor<?x4xf32>
// CHECK:         math.sin
// CHECK:         torch_c.from_builtin_tensor %{{.*}} : tensor<?x4xf32> -> !torch.vtensor<[?,4],f32>
func.func @dynamic(%arg0: !torch.vtensor<[?,4],f32>) -> !torch.vtensor<[?,4],f32> {
  %0 = torch.aten.sin %arg0 : !torch.vtensor<[?,4],f32> -> !torch.vtensor<[?,4],f32>
  return %0 : !torch.vtensor<[?,4],f32>
}

// -----

// An op without a lowering stays, reading the lowered value back through
// from_builtin_tensor; an op with a scalar that is not a constant stays.
// CHECK-LABEL: func.func @left_alone(
// CHECK:         %[[N:.*]] = linalg.generic
// CHECK:           arith.negf
// CHECK:         %[[NC:.*]] = tensor.cast %[[N]]
// CHECK:         %[[T:.*]] = torch_c.from_builtin_tensor %[[NC]] : tensor<3xf32> -> !torch.vtensor<[3],f32>
// CHECK:         %[[S:.*]] = torch.aten.special_entr %[[T]]
// CHECK:         torch.aten.add.Scalar %[[S]], %arg1, %arg1
func.func @left_alone(%arg0: !torch.vtensor<[3],f32>, %arg1: !torch.int) -> !torch.vtensor<[3],f32> {
  %0 = torch.aten.neg %arg0 : !torch.vtensor<[3],f32> -> !torch.vtensor<[3],f32>
  %1 = torch.aten.special_entr %0 : !torch.vtensor<[3],f32> -> !torch.vtensor<[3],f32>
  %2 = torch.aten.add.Scalar %1, %arg1, %arg1 : !torch.vtensor<[3],f32>, !torch.int, !torch.int -> !torch.vtensor<[3],f32>
  return %2 : !torch.vtensor<[3],f32>
}

// -----

// A scalar result leaves through torch_c.from_i64; a dim not known to be
// 1 is asserted at run time; a static expand_shape prints output_shape.
// CHECK-LABEL: func.func @item(
// CHECK:         %[[B:.*]] = torch_c.to_builtin_tensor %arg0 : !torch.vtensor<[?],si64> -> tensor<?xi64>
// CHECK:         %[[D:.*]] = tensor.dim %[[B]]
// CHECK:         %[[DI:.*]] = arith.index_cast %[[D]] : index to i64
// CHECK:         %[[P:.*]] = arith.cmpi eq, %[[DI]], %{{.*}} : i64
// CHECK:         cf.assert %[[P]], "mismatching contracting dimension"
// CHECK:         %[[E:.*]] = tensor.extract %[[B]][%{{.*}}] : tensor<?xi64>
// CHECK:         %[[R:.*]] = torch_c.from_i64 %[[E]]
// CHECK:         tensor.expand_shape %{{.*}} {{\[\[}}0, 1]] output_shape [1, 3] : tensor<3xf32> into tensor<1x3xf32>
// CHECK:         return %[[R]], %{{.*}} : !torch.int, !torch.vtensor<[1,3],f32>
func.func @item(%arg0: !torch.vtensor<[?],si64>, %arg1: !torch.vtensor<[3],f32>) -> (!torch.int, !torch.vtensor<[1,3],f32>) {
  %int0 = torch.constant.int 0
  %0 = torch.aten.Int.Tensor %arg0 : !torch.vtensor<[?],si64> -> !torch.int
  %1 = torch.aten.unsqueeze %arg1, %int0 : !torch.vtensor<[3],f32>, !torch.int -> !torch.vtensor<[1,3],f32>
  return %0, %1 : !torch.int, !torch.vtensor<[1,3],f32>
}

// -----

// allow-non-finites=false: a max starts from the lowest finite value.
// CHECK-LABEL: func.func @amax(
// CHECK:         arith.constant 0xFF800000 : f32
// FINITE-LABEL:  func.func @amax(
// FINITE:        arith.constant -3.40282347E+38 : f32
// FINITE-NOT:    0xFF800000
func.func @amax(%arg0: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2],f32> {
  %int1 = torch.constant.int 1
  %false = torch.constant.bool false
  %dims = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %0 = torch.aten.amax %arg0, %dims, %false : !torch.vtensor<[2,3],f32>, !torch.list<int>, !torch.bool -> !torch.vtensor<[2],f32>
  return %0 : !torch.vtensor<[2],f32>
}

// -----

// Types no lowering takes fail the pass, as torch-mlir's illegal ops do.
func.func @no_dtype(%arg0: !torch.vtensor, %arg1: !torch.vtensor) -> !torch.vtensor {
  // expected-error @+1 {{failed to legalize operation 'torch.aten.mm' that was explicitly marked illegal}}
  %0 = torch.aten.mm %arg0, %arg1 : !torch.vtensor, !torch.vtensor -> !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// A view to rank 0 collapses whatever shape, its unknown dims cast to 1
// first (MLIR 16 wants unit dims; no cast after it, as torch-mlir's); the
// identity permute is its operand.
// Arguments enter first in the block, in order, as torch-mlir places
// them.
// CHECK-LABEL: func.func @views(
// CHECK-NEXT:    %[[B:.*]] = torch_c.to_builtin_tensor %arg0 : !torch.vtensor<[?,1],f32> -> tensor<?x1xf32>
// CHECK-NEXT:    %[[P:.*]] = torch_c.to_builtin_tensor %arg1
// CHECK:         %[[K:.*]] = tensor.cast %[[B]] : tensor<?x1xf32> to tensor<1x1xf32>
// CHECK:         %[[C:.*]] = tensor.collapse_shape %[[K]] [] : tensor<1x1xf32> into tensor<f32>
// CHECK:         %[[R:.*]] = torch_c.from_builtin_tensor %[[C]] : tensor<f32> -> !torch.vtensor<[],f32>
// CHECK-NOT:     linalg.transpose
// CHECK:         %[[Q:.*]] = torch_c.from_builtin_tensor %[[P]] : tensor<2x3xf32> -> !torch.vtensor<[2,3],f32>
// CHECK:         return %[[R]], %[[Q]]
func.func @views(%arg0: !torch.vtensor<[?,1],f32>, %arg1: !torch.vtensor<[2,3],f32>) -> (!torch.vtensor<[],f32>, !torch.vtensor<[2,3],f32>) {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %empty = torch.prim.ListConstruct : () -> !torch.list<int>
  %0 = torch.aten.view %arg0, %empty : !torch.vtensor<[?,1],f32>, !torch.list<int> -> !torch.vtensor<[],f32>
  %perm = torch.prim.ListConstruct %int0, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %1 = torch.aten.permute %arg1, %perm : !torch.vtensor<[2,3],f32>, !torch.list<int> -> !torch.vtensor<[2,3],f32>
  return %0, %1 : !torch.vtensor<[],f32>, !torch.vtensor<[2,3],f32>
}

// -----

// squeeze.dim of an unknown size: asserted 1, collapsed into the next
// dim (the previous one when last); the cast makes the static result.
// CHECK-LABEL: func.func @squeeze_dynamic(
// CHECK:         %[[D:.*]] = tensor.dim %{{.*}}, %{{.*}} : tensor<3x?x4xf32>
// CHECK:         %[[P:.*]] = arith.cmpi eq, %[[D]], %{{.*}} : index
// CHECK:         cf.assert %[[P]], "Expected dynamic squeeze dim size to be statically 1"
// CHECK:         %[[C:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0], [1, 2]] : tensor<3x?x4xf32> into tensor<3x?xf32>
// CHECK:         tensor.cast %[[C]] : tensor<3x?xf32> to tensor<3x4xf32>
// CHECK:         tensor.collapse_shape %{{.*}} {{\[\[}}0, 1]] : tensor<3x?xf32> into tensor<?xf32>
func.func @squeeze_dynamic(%arg0: !torch.vtensor<[3,?,4],f32>, %arg1: !torch.vtensor<[3,?],f32>) -> (!torch.vtensor<[3,4],f32>, !torch.vtensor<[3],f32>) {
  %int-2 = torch.constant.int -2
  %int1 = torch.constant.int 1
  %0 = torch.aten.squeeze.dim %arg0, %int-2 : !torch.vtensor<[3,?,4],f32>, !torch.int -> !torch.vtensor<[3,4],f32>
  %1 = torch.aten.squeeze.dim %arg1, %int1 : !torch.vtensor<[3,?],f32>, !torch.int -> !torch.vtensor<[3],f32>
  return %0, %1 : !torch.vtensor<[3,4],f32>, !torch.vtensor<[3],f32>
}
