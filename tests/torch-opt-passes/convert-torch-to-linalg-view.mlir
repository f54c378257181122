// RUN: torch-opt --convert-torch-to-linalg -split-input-file -verify-diagnostics %s | FileCheck %s
// RUN: torch-opt --convert-torch-to-linalg -split-input-file -verify-diagnostics %s | torch-opt -p '' -split-input-file | FileCheck %s
// RUN: not torch-lower %s 2>&1 | FileCheck %s --check-prefix=TOOL

// Pass-only elementwise rows (pass_view.c): the torch-lower tool still
// refuses these ops.
// TOOL: torch.aten.sinh

// CHECK-LABEL: func.func @sinh_cosh(
// CHECK:         linalg.generic
// CHECK:           math.sinh %{{.*}} : f32
// CHECK:         linalg.generic
// CHECK:           math.cosh %{{.*}} : f32
func.func @sinh_cosh(%arg0: !torch.vtensor<[3],f32>) -> !torch.vtensor<[3],f32> {
  %0 = torch.aten.sinh %arg0 : !torch.vtensor<[3],f32> -> !torch.vtensor<[3],f32>
  %1 = torch.aten.cosh %0 : !torch.vtensor<[3],f32> -> !torch.vtensor<[3],f32>
  return %1 : !torch.vtensor<[3],f32>
}

// -----

// >> on a signed type: arithmetic; a shift of the width or more, or a
// negative one, gives the sign fill (a >> 7), as PyTorch's kernel.
// CHECK-LABEL: func.func @rshift_signed(
// CHECK:         ^bb0(%[[A:.*]]: i8, %[[B:.*]]: i8, %{{.*}}: i8):
// CHECK:           %[[R:.*]] = arith.shrsi %[[A]], %[[B]] : i8
// CHECK:           %[[C7:.*]] = arith.constant 7 : i8
// CHECK:           %[[F:.*]] = arith.shrsi %[[A]], %[[C7]] : i8
// CHECK:           %[[C8:.*]] = arith.constant 8 : i8
// CHECK:           %[[OK:.*]] = arith.cmpi ult, %[[B]], %[[C8]] : i8
// CHECK:           %[[S:.*]] = arith.select %[[OK]], %[[R]], %[[F]] : i8
// CHECK:           linalg.yield %[[S]] : i8
func.func @rshift_signed(%arg0: !torch.vtensor<[?],si8>, %arg1: !torch.vtensor<[?],si8>) -> !torch.vtensor<[?],si8> {
  %0 = torch.aten.bitwise_right_shift.Tensor %arg0, %arg1 : !torch.vtensor<[?],si8>, !torch.vtensor<[?],si8> -> !torch.vtensor<[?],si8>
  return %0 : !torch.vtensor<[?],si8>
}

// -----

// unsigned: logical, 0 past the width
// CHECK-LABEL: func.func @rshift_unsigned_scalar(
// CHECK:         ^bb0(%[[A:.*]]: i8, %{{.*}}: i8):
// CHECK:           %[[C3:.*]] = arith.constant 3 : i8
// CHECK:           %[[R:.*]] = arith.shrui %[[A]], %[[C3]] : i8
// CHECK:           %[[Z:.*]] = arith.constant 0 : i8
// CHECK:           %[[C8:.*]] = arith.constant 8 : i8
// CHECK:           %[[OK:.*]] = arith.cmpi ult, %[[C3]], %[[C8]] : i8
// CHECK:           arith.select %[[OK]], %[[R]], %[[Z]] : i8
func.func @rshift_unsigned_scalar(%arg0: !torch.vtensor<[?],ui8>) -> !torch.vtensor<[?],ui8> {
  %int3 = torch.constant.int 3
  %0 = torch.aten.__rshift__.Scalar %arg0, %int3 : !torch.vtensor<[?],ui8>, !torch.int -> !torch.vtensor<[?],ui8>
  return %0 : !torch.vtensor<[?],ui8>
}

// -----

// floats have no >>: the op stays
// CHECK-LABEL: func.func @rshift_float(
// CHECK:         torch.aten.__rshift__.Scalar
// CHECK-NOT:     linalg.generic
func.func @rshift_float(%arg0: !torch.vtensor<[?],f32>) -> !torch.vtensor<[?],f32> {
  %int3 = torch.constant.int 3
  %0 = torch.aten.__rshift__.Scalar %arg0, %int3 : !torch.vtensor<[?],f32>, !torch.int -> !torch.vtensor<[?],f32>
  return %0 : !torch.vtensor<[?],f32>
}

// -----

// view to sizes known only at run time: tensor.reshape to a shape from
// tensor.from_elements; a -1 is numel over the other sizes' product,
// and outside strict symbolic shapes at most one -1 is asserted.
// CHECK-LABEL: func.func @view_runtime_sizes(
// CHECK:         %[[X:.*]] = torch_c.to_builtin_tensor
// CHECK:         %[[A:.*]] = torch_c.to_i64 %{{.*}}
// CHECK:         %[[B:.*]] = torch_c.to_i64 %{{.*}}
// CHECK:         %[[OK:.*]] = arith.cmpi sle, %{{.*}}, %{{.*}} : i64
// CHECK:         cf.assert %[[OK]], "must have at most one inferred (negative) dimension"
// CHECK:         tensor.dim %[[X]]
// CHECK:         %[[INF:.*]] = arith.divsi
// CHECK:         %[[A2:.*]] = arith.select %{{.*}}, %[[INF]], %[[A]] : i64
// CHECK:         %[[B2:.*]] = arith.select %{{.*}}, %[[INF]], %[[B]] : i64
// CHECK:         %[[S:.*]] = tensor.from_elements %[[A2]], %[[B2]] : tensor<2xi64>
// CHECK:         %[[R:.*]] = tensor.reshape %[[X]](%[[S]]) : (tensor<?x?xf32>, tensor<2xi64>) -> tensor<?x?xf32>
// CHECK:         torch_c.from_builtin_tensor %[[R]]
func.func @view_runtime_sizes(%arg0: !torch.vtensor<[?,?],f32>, %arg1: !torch.int) -> !torch.vtensor<[?,?],f32> {
  %int-1 = torch.constant.int -1
  %0 = torch.prim.ListConstruct %arg1, %int-1 : (!torch.int, !torch.int) -> !torch.list<int>
  %1 = torch.aten.view %arg0, %0 : !torch.vtensor<[?,?],f32>, !torch.list<int> -> !torch.vtensor<[?,?],f32>
  return %1 : !torch.vtensor<[?,?],f32>
}

// -----

// CHECK-LABEL: func.func @view_runtime_sizes_strict(
// CHECK-NOT:     cf.assert
// CHECK:         tensor.reshape
func.func @view_runtime_sizes_strict(%arg0: !torch.vtensor<[?,?],f32>, %arg1: !torch.int) -> !torch.vtensor<[?,?],f32> attributes {torch.assume_strict_symbolic_shapes} {
  %int-1 = torch.constant.int -1
  %0 = torch.prim.ListConstruct %arg1, %int-1 : (!torch.int, !torch.int) -> !torch.list<int>
  %1 = torch.aten.view %arg0, %0 : !torch.vtensor<[?,?],f32>, !torch.list<int> -> !torch.vtensor<[?,?],f32>
  return %1 : !torch.vtensor<[?,?],f32>
}

// -----

// torch.disable_legacy_view: only the strict pattern, a tensor.reshape
// of the sizes (constants as arith.constant); a -1 is left to it.
// CHECK-LABEL: func.func @view_strict_only(
// CHECK:         %[[X:.*]] = torch_c.to_builtin_tensor
// CHECK:         %[[C2:.*]] = arith.constant 2 : i64
// CHECK:         %[[C3:.*]] = arith.constant 3 : i64
// CHECK:         %[[S:.*]] = tensor.from_elements %[[C2]], %[[C3]] : tensor<2xi64>
// CHECK:         tensor.reshape %[[X]](%[[S]]) : (tensor<3x2xf32>, tensor<2xi64>) -> tensor<2x3xf32>
// CHECK-NOT:     tensor.collapse_shape
// CHECK:         torch.aten.view %arg0, %{{.*}} : !torch.vtensor<[3,2],f32>, !torch.list<int> -> !torch.vtensor<[6],f32>
func.func @view_strict_only(%arg0: !torch.vtensor<[3,2],f32>) -> (!torch.vtensor<[2,3],f32>, !torch.vtensor<[6],f32>) attributes {torch.assume_strict_symbolic_shapes, torch.disable_legacy_view} {
  %int3 = torch.constant.int 3
  %int2 = torch.constant.int 2
  %int-1 = torch.constant.int -1
  %0 = torch.prim.ListConstruct %int2, %int3 : (!torch.int, !torch.int) -> !torch.list<int>
  %1 = torch.aten.view %arg0, %0 : !torch.vtensor<[3,2],f32>, !torch.list<int> -> !torch.vtensor<[2,3],f32>
  %2 = torch.prim.ListConstruct %int-1 : (!torch.int) -> !torch.list<int>
  %3 = torch.aten.view %arg0, %2 : !torch.vtensor<[3,2],f32>, !torch.list<int> -> !torch.vtensor<[6],f32>
  return %1, %3 : !torch.vtensor<[2,3],f32>, !torch.vtensor<[6],f32>
}
