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
// of the sizes (constants as arith.constant); a constant -1 view is a
// flatten (collapse, cast) with no unflatten to one dim.
// CHECK-LABEL: func.func @view_strict_only(
// CHECK:         %[[X:.*]] = torch_c.to_builtin_tensor
// CHECK:         %[[C2:.*]] = arith.constant 2 : i64
// CHECK:         %[[C3:.*]] = arith.constant 3 : i64
// CHECK:         %[[S:.*]] = tensor.from_elements %[[C2]], %[[C3]] : tensor<2xi64>
// CHECK:         tensor.reshape %[[X]](%[[S]]) : (tensor<3x2xf32>, tensor<2xi64>) -> tensor<2x3xf32>
// CHECK:         %[[F:.*]] = tensor.collapse_shape %[[X]] {{\[\[}}0, 1]] : tensor<3x2xf32> into tensor<6xf32>
// CHECK-NEXT:    tensor.cast %[[F]] : tensor<6xf32> to tensor<6xf32>
// CHECK-NOT:     tensor.expand_shape
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

// -----

// Elementwise broadcasting in the pass: a dim iterated by two operands
// whose sizes are not both static gets torch-mlir's run-time check (a
// dynamic 1 does not broadcast); a static 1 broadcasts without one; the
// init tensor takes the first iterating operand's size.
// CHECK-LABEL: func.func @ew_broadcast_assert(
// CHECK-SAME:      %[[A:.*]]: !torch.vtensor<[?,?],f32>, %[[B:.*]]: !torch.vtensor<[?],f32>, %[[C:.*]]: !torch.vtensor<[1,4],f32>
// CHECK-DAG:     %[[BA:.*]] = torch_c.to_builtin_tensor %[[A]]
// CHECK-DAG:     %[[BB:.*]] = torch_c.to_builtin_tensor %[[B]]
// CHECK:         %[[D0:.*]] = tensor.dim %[[BA]], %{{.*}} : tensor<?x?xf32>
// CHECK:         %[[D1:.*]] = tensor.dim %[[BA]], %{{.*}} : tensor<?x?xf32>
// CHECK:         %[[E0:.*]] = tensor.dim %[[BB]], %{{.*}} : tensor<?xf32>
// CHECK:         %[[OK:.*]] = arith.cmpi eq, %[[D1]], %[[E0]] : index
// CHECK:         cf.assert %[[OK]], "mismatched size for broadcast"
// CHECK:         tensor.empty(%[[D0]], %[[D1]]) : tensor<?x?xf32>
// CHECK:         linalg.generic
// CHECK:         %[[F0:.*]] = tensor.dim %{{.*}}, %{{.*}} : tensor<?x?xf32>
// CHECK:         %[[F1:.*]] = tensor.dim %{{.*}}, %{{.*}} : tensor<?x?xf32>
// CHECK:         %[[C4:.*]] = arith.constant 4 : index
// CHECK:         %[[OK2:.*]] = arith.cmpi eq, %[[F1]], %[[C4]] : index
// CHECK:         cf.assert %[[OK2]], "mismatched size for broadcast"
// CHECK-NOT:     cf.assert
// CHECK:         tensor.empty(%[[F0]], %[[F1]])
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<?x?xf32>, tensor<1x4xf32>)
func.func @ew_broadcast_assert(%arg0: !torch.vtensor<[?,?],f32>, %arg1: !torch.vtensor<[?],f32>, %arg2: !torch.vtensor<[1,4],f32>) -> !torch.vtensor<[?,?],f32> {
  %0 = torch.aten.mul.Tensor %arg0, %arg1 : !torch.vtensor<[?,?],f32>, !torch.vtensor<[?],f32> -> !torch.vtensor<[?,?],f32>
  %1 = torch.aten.mul.Tensor %0, %arg2 : !torch.vtensor<[?,?],f32>, !torch.vtensor<[1,4],f32> -> !torch.vtensor<[?,?],f32>
  return %1 : !torch.vtensor<[?,?],f32>
}

// -----

// Under strict symbolic shapes the check is left out.
// CHECK-LABEL: func.func @ew_broadcast_strict(
// CHECK-NOT:     cf.assert
// CHECK:         linalg.generic
func.func @ew_broadcast_strict(%arg0: !torch.vtensor<[?,?],f32>, %arg1: !torch.vtensor<[?],f32>) -> !torch.vtensor<[?,?],f32> attributes {torch.assume_strict_symbolic_shapes} {
  %0 = torch.aten.mul.Tensor %arg0, %arg1 : !torch.vtensor<[?,?],f32>, !torch.vtensor<[?],f32> -> !torch.vtensor<[?,?],f32>
  return %0 : !torch.vtensor<[?,?],f32>
}

// -----

// alpha is captured as torch-mlir's: an i64 (f64) constant after the torch
// constant, converted and multiplied in the body, 1 included (exact).
// CHECK-LABEL: func.func @ew_alpha(
// CHECK:         torch.constant.int 1
// CHECK-NEXT:    %[[K:.*]] = arith.constant 1 : i64
// CHECK:         ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32, %{{.*}}: f32):
// CHECK:           %[[KF:.*]] = arith.sitofp %[[K]] : i64 to f32
// CHECK:           %[[S:.*]] = arith.mulf %[[Y]], %[[KF]] : f32
// CHECK:           arith.addf %[[X]], %[[S]] : f32
// CHECK:         torch.constant.float 2.5
// CHECK-NEXT:    %[[F:.*]] = arith.constant 2.500000e+00 : f64
// CHECK:         ^bb0(%[[X2:.*]]: f32, %[[Y2:.*]]: f32, %{{.*}}: f32):
// CHECK:           %[[FF:.*]] = arith.truncf %[[F]] : f64 to f32
// CHECK:           %[[S2:.*]] = arith.mulf %[[Y2]], %[[FF]] : f32
// CHECK:           arith.subf %[[X2]], %[[S2]] : f32
func.func @ew_alpha(%arg0: !torch.vtensor<[3],f32>, %arg1: !torch.vtensor<[3],f32>) -> !torch.vtensor<[3],f32> {
  %int1 = torch.constant.int 1
  %0 = torch.aten.add.Tensor %arg0, %arg1, %int1 : !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>, !torch.int -> !torch.vtensor<[3],f32>
  %float = torch.constant.float 2.5
  %1 = torch.aten.sub.Tensor %0, %arg1, %float : !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>, !torch.float -> !torch.vtensor<[3],f32>
  return %1 : !torch.vtensor<[3],f32>
}

// -----

// flatten of rank 0: the expand_shape is the result, with no cast.
// CHECK-LABEL: func.func @flatten_rank0(
// CHECK:         %[[E:.*]] = tensor.expand_shape %{{.*}} [] output_shape [1] : tensor<f32> into tensor<1xf32>
// CHECK-NEXT:    torch_c.from_builtin_tensor %[[E]]
func.func @flatten_rank0(%arg0: !torch.vtensor<[],f32>) -> !torch.vtensor<[1],f32> {
  %int0 = torch.constant.int 0
  %0 = torch.aten.flatten.using_ints %arg0, %int0, %int0 : !torch.vtensor<[],f32>, !torch.int, !torch.int -> !torch.vtensor<[1],f32>
  return %0 : !torch.vtensor<[1],f32>
}

// -----

// view with constant sizes and one unknown inferred from the element
// count (torch-mlir's legacy grouping: the shortest runs of equal product
// from the left, trailing 1s in the last group).
// CHECK-LABEL: func.func @view_inferred_dyn_input(
// CHECK:         %[[C:.*]] = tensor.cast %{{.*}} : tensor<1x?x128xf32> to tensor<1x16x128xf32>
// CHECK:         %[[L:.*]] = tensor.collapse_shape %[[C]] {{\[\[}}0, 1], [2]] : tensor<1x16x128xf32> into tensor<16x128xf32>
// CHECK:         %[[E:.*]] = tensor.expand_shape %[[L]] {{\[\[}}0], [1, 2]] output_shape [16, 1, 128] : tensor<16x128xf32> into tensor<16x1x128xf32>
// CHECK-NEXT:    torch_c.from_builtin_tensor %[[E]]
func.func @view_inferred_dyn_input(%arg0: !torch.vtensor<[1,?,128],f32>) -> !torch.vtensor<[16,1,128],f32> {
  %int128 = torch.constant.int 128
  %int1 = torch.constant.int 1
  %int16 = torch.constant.int 16
  %0 = torch.prim.ListConstruct %int16, %int1, %int128 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %1 = torch.aten.view %arg0, %0 : !torch.vtensor<[1,?,128],f32>, !torch.list<int> -> !torch.vtensor<[16,1,128],f32>
  return %1 : !torch.vtensor<[16,1,128],f32>
}

// -----

// CHECK-LABEL: func.func @view_inferred_neg(
// CHECK:         %[[L:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0], [1, 2]] : tensor<4x5x6xf32> into tensor<4x30xf32>
// CHECK:         %[[E:.*]] = tensor.expand_shape %[[L]] {{\[\[}}0, 1, 2], [3, 4, 5]] output_shape [2, 1, 2, 3, 10, 1] : tensor<4x30xf32> into tensor<2x1x2x3x10x1xf32>
// CHECK:         tensor.cast %[[E]] : tensor<2x1x2x3x10x1xf32> to tensor<2x1x2x3x?x1xf32>
func.func @view_inferred_neg(%arg0: !torch.vtensor<[4,5,6],f32>) -> !torch.vtensor<[2,1,2,3,?,1],f32> {
  %int2 = torch.constant.int 2
  %int1 = torch.constant.int 1
  %int3 = torch.constant.int 3
  %int-1 = torch.constant.int -1
  %0 = torch.prim.ListConstruct %int2, %int1, %int2, %int3, %int-1, %int1 : (!torch.int, !torch.int, !torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %1 = torch.aten.view %arg0, %0 : !torch.vtensor<[4,5,6],f32>, !torch.list<int> -> !torch.vtensor<[2,1,2,3,?,1],f32>
  return %1 : !torch.vtensor<[2,1,2,3,?,1],f32>
}

// -----

// An unknown dim and a -1 size together infer nothing: the run-time
// tensor.reshape.
// CHECK-LABEL: func.func @view_inferred_not(
// CHECK-NOT:     tensor.collapse_shape
// CHECK:         tensor.reshape
func.func @view_inferred_not(%arg0: !torch.vtensor<[?,6],f32>) -> !torch.vtensor<[?,3],f32> {
  %int3 = torch.constant.int 3
  %int-1 = torch.constant.int -1
  %0 = torch.prim.ListConstruct %int-1, %int3 : (!torch.int, !torch.int) -> !torch.list<int>
  %1 = torch.aten.view %arg0, %0 : !torch.vtensor<[?,6],f32>, !torch.list<int> -> !torch.vtensor<[?,3],f32>
  return %1 : !torch.vtensor<[?,3],f32>
}

// -----

// broadcast_to between static shapes, as torch-mlir: broadcast dims are
// collapsed into the kept dim before them (leading ones into the first),
// all of them away when every dim broadcasts.
// CHECK-LABEL: func.func @broadcast_to_static(
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<1x4x2xf32>
// CHECK:         %[[C:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2]] : tensor<1x1x2xf32> into tensor<1x2xf32>
// CHECK:         linalg.generic {{.*}} ins(%[[C]] : tensor<1x2xf32>) outs(%[[E]] : tensor<1x4x2xf32>)
// CHECK:         %[[E2:.*]] = tensor.empty() : tensor<5x3xf32>
// CHECK:         %[[C2:.*]] = tensor.collapse_shape %{{.*}} [] : tensor<1x1xf32> into tensor<f32>
// CHECK:         linalg.generic {{.*}} ins(%[[C2]] : tensor<f32>) outs(%[[E2]] : tensor<5x3xf32>)
func.func @broadcast_to_static(%arg0: !torch.vtensor<[1,1,2],f32>, %arg1: !torch.vtensor<[1,1],f32>) -> (!torch.vtensor<[1,4,2],f32>, !torch.vtensor<[5,3],f32>) {
  %int1 = torch.constant.int 1
  %int4 = torch.constant.int 4
  %int2 = torch.constant.int 2
  %int5 = torch.constant.int 5
  %int3 = torch.constant.int 3
  %list = torch.prim.ListConstruct %int1, %int4, %int2 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.broadcast_to %arg0, %list : !torch.vtensor<[1,1,2],f32>, !torch.list<int> -> !torch.vtensor<[1,4,2],f32>
  %list2 = torch.prim.ListConstruct %int5, %int3 : (!torch.int, !torch.int) -> !torch.list<int>
  %1 = torch.aten.broadcast_to %arg1, %list2 : !torch.vtensor<[1,1],f32>, !torch.list<int> -> !torch.vtensor<[5,3],f32>
  return %0, %1 : !torch.vtensor<[1,4,2],f32>, !torch.vtensor<[5,3],f32>
}

// -----

// slice.Tensor along a dynamic dim: start and end normalized and clamped
// to the dim at run time (end INT64_MAX is the dim itself, no sentinel),
// length ceil((end - start) / step) clamped at 0.
// CHECK-LABEL: func.func @slice_dynamic(
// CHECK:         %[[T:.*]] = torch_c.to_builtin_tensor %{{.*}} : !torch.vtensor<[?,4],f32> -> tensor<?x4xf32>
// CHECK:         torch.constant.int 9223372036854775807
// CHECK-NOT:     9223372036854775807
// CHECK:         %[[D:.*]] = tensor.dim %[[T]], %{{.*}} : tensor<?x4xf32>
// CHECK:         %[[CM1:.*]] = arith.constant -1 : index
// CHECK:         %[[S0:.*]] = arith.addi %[[CM1]], %[[D]] : index
// CHECK:         %[[NEG:.*]] = arith.cmpi slt, %[[S0]], %{{.*}} : index
// CHECK:         %[[S1:.*]] = arith.select %[[NEG]], %{{.*}}, %[[S0]] : index
// CHECK:         %[[BIG:.*]] = arith.cmpi sgt, %[[S1]], %[[D]] : index
// CHECK:         %[[S:.*]] = arith.select %[[BIG]], %[[D]], %[[S1]] : index
// CHECK:         %[[LEN:.*]] = arith.subi %[[D]], %[[S]] : index
// CHECK:         %[[C2:.*]] = arith.constant 2 : index
// CHECK:         %[[Q:.*]] = arith.floordivsi %{{.*}}, %[[C2]] : index
// CHECK:         %[[N:.*]] = arith.select %{{.*}}, %{{.*}}, %[[Q]] : index
// CHECK:         tensor.extract_slice %[[T]][%[[S]], 0] [%[[N]], 4] [2, 1] : tensor<?x4xf32> to tensor<?x4xf32>
func.func @slice_dynamic(%arg0: !torch.vtensor<[?,4],f32>) -> !torch.vtensor<[?,4],f32> {
  %int0 = torch.constant.int 0
  %int-1 = torch.constant.int -1
  %int2 = torch.constant.int 2
  %intmax = torch.constant.int 9223372036854775807
  %0 = torch.aten.slice.Tensor %arg0, %int0, %int-1, %intmax, %int2 : !torch.vtensor<[?,4],f32>, !torch.int, !torch.int, !torch.int, !torch.int -> !torch.vtensor<[?,4],f32>
  return %0 : !torch.vtensor<[?,4],f32>
}

// -----

// unflatten.int: an expand_shape of the dim's group; a dynamic dim is cast
// to the sizes' product first, a -1 size of a static dim is inferred.
// CHECK-LABEL: func.func @unflatten(
// CHECK:         %[[C:.*]] = tensor.cast %{{.*}} : tensor<1x?x96xf32> to tensor<1x3136x96xf32>
// CHECK:         tensor.expand_shape %[[C]] {{\[\[}}0], [1, 2], [3]] output_shape [1, 56, 56, 96] : tensor<1x3136x96xf32> into tensor<1x56x56x96xf32>
// CHECK:         tensor.expand_shape %{{.*}} {{\[\[}}0, 1], [2]] output_shape [2, 3, 4] : tensor<6x4xf32> into tensor<2x3x4xf32>
func.func @unflatten(%arg0: !torch.vtensor<[1,?,96],f32>, %arg1: !torch.vtensor<[6,4],f32>) -> (!torch.vtensor<[1,56,56,96],f32>, !torch.vtensor<[2,3,4],f32>) {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int-1 = torch.constant.int -1
  %int56 = torch.constant.int 56
  %0 = torch.prim.ListConstruct %int56, %int56 : (!torch.int, !torch.int) -> !torch.list<int>
  %1 = torch.aten.unflatten.int %arg0, %int1, %0 : !torch.vtensor<[1,?,96],f32>, !torch.int, !torch.list<int> -> !torch.vtensor<[1,56,56,96],f32>
  %2 = torch.prim.ListConstruct %int2, %int-1 : (!torch.int, !torch.int) -> !torch.list<int>
  %3 = torch.aten.unflatten.int %arg1, %int0, %2 : !torch.vtensor<[6,4],f32>, !torch.int, !torch.list<int> -> !torch.vtensor<[2,3,4],f32>
  return %1, %3 : !torch.vtensor<[1,56,56,96],f32>, !torch.vtensor<[2,3,4],f32>
}

// -----

// Strict view (legacy views off), no sizes: a collapse to rank 0.
// CHECK-LABEL: func.func @strict_zerod(
// CHECK:         tensor.collapse_shape %{{.*}} [] : tensor<?x1xf32> into tensor<f32>
func.func @strict_zerod(%arg0: !torch.vtensor<[?,1],f32>) -> !torch.vtensor<[],f32> attributes {torch.assume_strict_symbolic_shapes, torch.disable_legacy_view} {
  %0 = torch.prim.ListConstruct : () -> !torch.list<int>
  %1 = torch.aten.view %arg0, %0 : !torch.vtensor<[?,1],f32>, !torch.list<int> -> !torch.vtensor<[],f32>
  return %1 : !torch.vtensor<[],f32>
}

// -----

// Strict view, constant sizes with a -1: flatten (collapse, cast), then
// unflatten (a dynamic flat dim cast to the product, expand).
// CHECK-LABEL: func.func @strict_inferred_dyn(
// CHECK:         %[[C:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1]] : tensor<?x6xf32> into tensor<?xf32>
// CHECK:         %[[F:.*]] = tensor.cast %[[C]] : tensor<?xf32> to tensor<?xf32>
// CHECK:         %[[S:.*]] = tensor.cast %[[F]] : tensor<?xf32> to tensor<12xf32>
// CHECK:         tensor.expand_shape %[[S]] {{\[\[}}0, 1, 2]] output_shape [3, 2, 2] : tensor<12xf32> into tensor<3x2x2xf32>
func.func @strict_inferred_dyn(%arg0: !torch.vtensor<[?,6],f32>) -> !torch.vtensor<[3,2,2],f32> attributes {torch.assume_strict_symbolic_shapes, torch.disable_legacy_view} {
  %int2 = torch.constant.int 2
  %int3 = torch.constant.int 3
  %int-1 = torch.constant.int -1
  %0 = torch.prim.ListConstruct %int3, %int-1, %int2 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %1 = torch.aten.view %arg0, %0 : !torch.vtensor<[?,6],f32>, !torch.list<int> -> !torch.vtensor<[3,2,2],f32>
  return %1 : !torch.vtensor<[3,2,2],f32>
}

// -----

// Strict view, a -1 among run-time sizes: numel over the others' product
// (divui, no assert), a reshape.
// CHECK-LABEL: func.func @strict_value_inferred(
// CHECK:         %[[ONE:.*]] = arith.constant 1 : i64
// CHECK:         %[[TWO:.*]] = arith.constant 2 : i64
// CHECK:         %[[P1:.*]] = arith.muli %[[ONE]], %[[TWO]] : i64
// CHECK:         %[[A:.*]] = torch_c.to_i64 %arg1
// CHECK:         %[[P2:.*]] = arith.muli %[[P1]], %[[A]] : i64
// CHECK:         %[[D0:.*]] = tensor.dim
// CHECK:         %[[D1:.*]] = tensor.dim
// CHECK:         %[[T:.*]] = arith.muli
// CHECK:         %[[INF:.*]] = arith.divui %[[T]], %[[P2]] : i64
// CHECK-NOT:     cf.assert
// CHECK:         %[[S:.*]] = tensor.from_elements %[[INF]], %{{.*}}, %{{.*}} : tensor<3xi64>
// CHECK:         tensor.reshape %{{.*}}(%[[S]]) : (tensor<?x4xf32>, tensor<3xi64>) -> tensor<?x2x?xf32>
func.func @strict_value_inferred(%arg0: !torch.vtensor<[?,4],f32>, %arg1: !torch.int) -> !torch.vtensor<[?,2,?],f32> attributes {torch.assume_strict_symbolic_shapes, torch.disable_legacy_view} {
  %int2 = torch.constant.int 2
  %int-1 = torch.constant.int -1
  %0 = torch.prim.ListConstruct %int-1, %int2, %arg1 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %1 = torch.aten.view %arg0, %0 : !torch.vtensor<[?,4],f32>, !torch.list<int> -> !torch.vtensor<[?,2,?],f32>
  return %1 : !torch.vtensor<[?,2,?],f32>
}

// -----

// broadcast_to of a rank-0 tensor to a run-time size: the new dim's size
// asserted >= 0, a generic reading the scalar (pass_view2.c).
// CHECK-LABEL: func.func @bc_empty_input(
// CHECK:         %[[S:.*]] = torch_c.to_i64 %arg1
// CHECK:         %[[OK:.*]] = arith.cmpi sge, %[[S]], %{{.*}} : i64
// CHECK:         cf.assert %[[OK]], "negative values not allowed in new dimensions"
// CHECK:         %[[N:.*]] = arith.index_cast %[[S]] : i64 to index
// CHECK:         %[[E:.*]] = tensor.empty(%[[N]]) : tensor<?xf32>
// CHECK:         linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}], iterator_types = ["parallel"]} ins(%{{.*}} : tensor<f32>) outs(%[[E]] : tensor<?xf32>)
func.func @bc_empty_input(%arg0: !torch.vtensor<[],f32>, %arg1: !torch.int) -> !torch.vtensor<[?],f32> {
  %list = torch.prim.ListConstruct %arg1 : (!torch.int) -> !torch.list<int>
  %0 = torch.aten.broadcast_to %arg0, %list : !torch.vtensor<[],f32>, !torch.list<int> -> !torch.vtensor<[?],f32>
  return %0 : !torch.vtensor<[?],f32>
}

// -----

// Strict symbolic shapes: no asserts, a dynamic dim is not broadcast, a
// static 1 is (collapsed away; a negative size keeps 1).
// CHECK-LABEL: func.func @bc_strict(
// CHECK-NOT:     cf.assert
// CHECK:         %[[C:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : i64
// CHECK:         arith.select %[[C]], %{{.*}}, %{{.*}} : index
// CHECK:         %[[E:.*]] = tensor.empty(%{{.*}}, %{{.*}}, %{{.*}}) : tensor<?x?x?xf32>
// CHECK:         %[[X:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1]] : tensor<?x1xf32> into tensor<?xf32>
// CHECK:         linalg.generic {{.*}} ins(%[[X]] : tensor<?xf32>) outs(%[[E]] : tensor<?x?x?xf32>)
func.func @bc_strict(%arg0: !torch.vtensor<[?,1],f32>, %arg1: !torch.int, %arg2: !torch.int, %arg3: !torch.int) -> !torch.vtensor<[?,?,?],f32> attributes {torch.assume_strict_symbolic_shapes} {
  %list = torch.prim.ListConstruct %arg1, %arg2, %arg3 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.broadcast_to %arg0, %list : !torch.vtensor<[?,1],f32>, !torch.list<int> -> !torch.vtensor<[?,?,?],f32>
  return %0 : !torch.vtensor<[?,?,?],f32>
}

// -----

// A dynamic input dim to a run-time size: asserted >= 0 and equal to the
// dim or the dim 1 (PyTorch's rule); one generic over the output that
// extracts, index 0 where the run-time dim is 1; a constant -1 keeps 3.
// CHECK-LABEL: func.func @bc_dynamic(
// CHECK:         cf.assert %{{.*}}, "unimplemented: dynamic negative broadcast sizes"
// CHECK:         %[[D:.*]] = tensor.dim %{{.*}}, %{{.*}} : tensor<?x1x3xf32>
// CHECK:         %[[EQ:.*]] = arith.cmpi eq, %{{.*}}, %[[D]] : index
// CHECK:         %[[ONE:.*]] = arith.cmpi eq, %[[D]], %{{.*}} : index
// CHECK:         %[[OK:.*]] = arith.ori %[[EQ]], %[[ONE]] : i1
// CHECK:         cf.assert %[[OK]], "mismatched size for broadcast"
// CHECK:         %[[E:.*]] = tensor.empty(%{{.*}}, %{{.*}}) : tensor<?x?x3xf32>
// CHECK:         linalg.generic {{.*}} outs(%[[E]] : tensor<?x?x3xf32>)
// CHECK:           %[[I:.*]] = linalg.index 0 : index
// CHECK:           arith.select %{{.*}}, %{{.*}}, %[[I]] : index
// CHECK:           tensor.extract
func.func @bc_dynamic(%arg0: !torch.vtensor<[?,1,3],f32>, %arg1: !torch.int, %arg2: !torch.int) -> !torch.vtensor<[?,?,3],f32> {
  %int-1 = torch.constant.int -1
  %list = torch.prim.ListConstruct %arg1, %arg2, %int-1 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.broadcast_to %arg0, %list : !torch.vtensor<[?,1,3],f32>, !torch.list<int> -> !torch.vtensor<[?,?,3],f32>
  return %0 : !torch.vtensor<[?,?,3],f32>
}

// -----

// transpose.int with dynamic dims: the empty sized by the input's dims.
// CHECK-LABEL: func.func @tr_dyn(
// CHECK:         %[[D0:.*]] = tensor.dim %[[X:.*]], %{{.*}} : tensor<?x4x?xf32>
// CHECK:         %[[D2:.*]] = tensor.dim %[[X]], %{{.*}} : tensor<?x4x?xf32>
// CHECK:         %[[E:.*]] = tensor.empty(%[[D0]], %[[D2]]) : tensor<?x?x4xf32>
// CHECK:         linalg.transpose ins(%[[X]] : tensor<?x4x?xf32>) outs(%[[E]] : tensor<?x?x4xf32>) permutation = [0, 2, 1]
func.func @tr_dyn(%arg0: !torch.vtensor<[?,4,?],f32>) -> !torch.vtensor<[?,?,4],f32> {
  %int1 = torch.constant.int 1
  %int-1 = torch.constant.int -1
  %0 = torch.aten.transpose.int %arg0, %int1, %int-1 : !torch.vtensor<[?,4,?],f32>, !torch.int, !torch.int -> !torch.vtensor<[?,?,4],f32>
  return %0 : !torch.vtensor<[?,?,4],f32>
}

// -----

// view(-1) of a tensor with dynamic dims: one collapse of all its dims,
// cast to the count the result type knows.
// CHECK-LABEL: func.func @view_flat(
// CHECK:         %[[C:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1, 2]] : tensor<?x2x3xf32> into tensor<?xf32>
// CHECK:         tensor.cast %[[C]] : tensor<?xf32> to tensor<6xf32>
// CHECK-NOT:     tensor.reshape
func.func @view_flat(%arg0: !torch.vtensor<[?,2,3],f32>) -> !torch.vtensor<[6],f32> {
  %int-1 = torch.constant.int -1
  %0 = torch.prim.ListConstruct %int-1 : (!torch.int) -> !torch.list<int>
  %1 = torch.aten.view %arg0, %0 : !torch.vtensor<[?,2,3],f32>, !torch.list<int> -> !torch.vtensor<[6],f32>
  return %1 : !torch.vtensor<[6],f32>
}
