// RUN: torch-opt --convert-torch-to-linalg -split-input-file %s | FileCheck %s
// RUN: torch-opt --convert-torch-to-linalg -split-input-file %s | torch-opt -p '' -split-input-file | FileCheck %s

// mm of dynamic matrices: sizes from tensor.dim, the contracting dims
// asserted equal, the init sized by the dims it does not know.
// CHECK-LABEL: func.func @mm_dynamic(
// CHECK-DAG:     %[[A:.*]] = torch_c.to_builtin_tensor %arg0 : !torch.vtensor<[?,?],f32> -> tensor<?x?xf32>
// CHECK-DAG:     %[[B:.*]] = torch_c.to_builtin_tensor %arg1 : !torch.vtensor<[?,?],f32> -> tensor<?x?xf32>
// CHECK:         %[[M:.*]] = tensor.dim %[[A]], %{{.*}} : tensor<?x?xf32>
// CHECK:         %[[N:.*]] = tensor.dim %[[B]], %{{.*}} : tensor<?x?xf32>
// CHECK:         %[[K1:.*]] = tensor.dim %[[A]], %{{.*}} : tensor<?x?xf32>
// CHECK:         %[[K2:.*]] = tensor.dim %[[B]], %{{.*}} : tensor<?x?xf32>
// CHECK:         %[[EQ:.*]] = arith.cmpi eq, %[[K1]], %[[K2]] : index
// CHECK:         cf.assert %[[EQ]], "mismatching contracting dimension for torch.aten.mm"
// CHECK:         %[[E:.*]] = tensor.empty(%[[M]], %[[N]]) : tensor<?x?xf32>
// CHECK:         %[[Z:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E]] : tensor<?x?xf32>) -> tensor<?x?xf32>
// CHECK:         %[[MM:.*]] = linalg.matmul ins(%[[A]], %[[B]] : tensor<?x?xf32>, tensor<?x?xf32>) outs(%[[Z]] : tensor<?x?xf32>) -> tensor<?x?xf32>
// CHECK:         tensor.cast %[[MM]] : tensor<?x?xf32> to tensor<?x2xf32>
func.func @mm_dynamic(%arg0: !torch.vtensor<[?,?],f32>, %arg1: !torch.vtensor<[?,?],f32>) -> !torch.vtensor<[?,2],f32> {
  %0 = torch.aten.mm %arg0, %arg1 : !torch.vtensor<[?,?],f32>, !torch.vtensor<[?,?],f32> -> !torch.vtensor<[?,2],f32>
  return %0 : !torch.vtensor<[?,2],f32>
}

// -----

// CHECK-LABEL: func.func @mm_strict(
// CHECK-NOT:     cf.assert
// CHECK:         linalg.matmul
func.func @mm_strict(%arg0: !torch.vtensor<[?,?],f32>, %arg1: !torch.vtensor<[?,?],f32>) -> !torch.vtensor<[?,?],f32>
  attributes {torch.assume_strict_symbolic_shapes} {
  %0 = torch.aten.mm %arg0, %arg1 : !torch.vtensor<[?,?],f32>, !torch.vtensor<[?,?],f32> -> !torch.vtensor<[?,?],f32>
  return %0 : !torch.vtensor<[?,?],f32>
}

// -----

// f16 operands go into the named op as they are; it accumulates in f32,
// then one truncf to the result's f16.
// CHECK-LABEL: func.func @matmul_f16(
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<8x8xf32>
// CHECK:         %[[MM:.*]] = linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<8x16xf16>, tensor<16x8xf16>) outs(%{{.*}} : tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%[[MM]] : tensor<8x8xf32>) outs(%{{.*}} : tensor<8x8xf16>)
// CHECK:           arith.truncf %{{.*}} : f32 to f16
func.func @matmul_f16(%arg0: !torch.vtensor<[8,16],f16>, %arg1: !torch.vtensor<[16,8],f16>) -> !torch.vtensor<[8,8],f16> {
  %0 = torch.aten.matmul %arg0, %arg1 : !torch.vtensor<[8,16],f16>, !torch.vtensor<[16,8],f16> -> !torch.vtensor<[8,8],f16>
  return %0 : !torch.vtensor<[8,8],f16>
}

// -----

// si8 accumulates in i32, which is the result's type: nothing after.
// CHECK-LABEL: func.func @bmm_i8(
// CHECK:         cf.assert %{{.*}}, "mismatching contracting dimension for torch.aten.bmm"
// CHECK:         linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<2x8x16xi8>, tensor<2x16x8xi8>) outs(%{{.*}} : tensor<2x8x8xi32>) -> tensor<2x8x8xi32>
// CHECK-NOT:     arith.trunci
// CHECK:         return
func.func @bmm_i8(%arg0: !torch.vtensor<[2,8,16],si8>, %arg1: !torch.vtensor<[2,16,8],si8>) -> !torch.vtensor<[2,8,8],si32> {
  %0 = torch.aten.bmm %arg0, %arg1 : !torch.vtensor<[2,8,16],si8>, !torch.vtensor<[2,16,8],si8> -> !torch.vtensor<[2,8,8],si32>
  return %0 : !torch.vtensor<[2,8,8],si32>
}

// -----

// A result wider than the default i32 accumulator: accumulate in it.
// CHECK-LABEL: func.func @mm_i8_to_i64(
// CHECK:         linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<3x4xi8>, tensor<4x5xi8>) outs(%{{.*}} : tensor<3x5xi64>) -> tensor<3x5xi64>
// CHECK-NOT:     arith.trunci
// CHECK:         return
func.func @mm_i8_to_i64(%arg0: !torch.vtensor<[3,4],si8>, %arg1: !torch.vtensor<[4,5],si8>) -> !torch.vtensor<[3,5],si64> {
  %0 = torch.aten.mm %arg0, %arg1 : !torch.vtensor<[3,4],si8>, !torch.vtensor<[4,5],si8> -> !torch.vtensor<[3,5],si64>
  return %0 : !torch.vtensor<[3,5],si64>
}

// -----

// Mixed signedness: a generic extending each operand by its own dtype.
// CHECK-LABEL: func.func @mm_mixed(
// CHECK:         linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-SAME:      ins(%{{.*}}, %{{.*}} : tensor<3x4xi8>, tensor<4x3xi8>) outs(%{{.*}} : tensor<3x3xi32>)
// CHECK:         ^bb0(%[[L:.*]]: i8, %[[R:.*]]: i8, %[[ACC:.*]]: i32):
// CHECK:           %[[LE:.*]] = arith.extui %[[L]] : i8 to i32
// CHECK:           %[[RE:.*]] = arith.extsi %[[R]] : i8 to i32
// CHECK:           %[[P:.*]] = arith.muli %[[LE]], %[[RE]] : i32
// CHECK:           %[[S:.*]] = arith.addi %[[ACC]], %[[P]] : i32
// CHECK:           linalg.yield %[[S]] : i32
func.func @mm_mixed(%arg0: !torch.vtensor<[3,4],ui8>, %arg1: !torch.vtensor<[4,3],si8>) -> !torch.vtensor<[3,3],si32> {
  %0 = torch.aten.mm %arg0, %arg1 : !torch.vtensor<[3,4],ui8>, !torch.vtensor<[4,3],si8> -> !torch.vtensor<[3,3],si32>
  return %0 : !torch.vtensor<[3,3],si32>
}

// -----

// Both unsigned: torch-mlir's named op that extends them unsigned
// (cast_unsigned; codegen refuses it rather than extend signed), never one
// that would extend them signed.
// CHECK-LABEL: func.func @mm_unsigned(
// CHECK-NOT:     arith.extui
// CHECK:         linalg.matmul {cast = #linalg.type_fn<cast_unsigned>} ins(%{{.*}}, %{{.*}} : tensor<3x4xi8>, tensor<4x3xi8>) outs(%{{.*}} : tensor<3x3xi64>)
func.func @mm_unsigned(%arg0: !torch.vtensor<[3,4],ui8>, %arg1: !torch.vtensor<[4,3],ui8>) -> !torch.vtensor<[3,3],si64> {
  %0 = torch.aten.mm %arg0, %arg1 : !torch.vtensor<[3,4],ui8>, !torch.vtensor<[4,3],ui8> -> !torch.vtensor<[3,3],si64>
  return %0 : !torch.vtensor<[3,3],si64>
}

// -----

// neg of bf16: negf in bf16 itself (exact), not through f32.
// CHECK-LABEL: func.func @neg_bf16(
// CHECK:         ^bb0(%[[X:.*]]: bf16, %{{.*}}: bf16):
// CHECK-NEXT:      %[[N:.*]] = arith.negf %[[X]] : bf16
// CHECK-NEXT:      linalg.yield %[[N]] : bf16
func.func @neg_bf16(%arg0: !torch.vtensor<[?,?],bf16>) -> !torch.vtensor<[?,?],bf16> {
  %0 = torch.aten.neg %arg0 : !torch.vtensor<[?,?],bf16> -> !torch.vtensor<[?,?],bf16>
  return %0 : !torch.vtensor<[?,?],bf16>
}

// -----

// neg of an int is still 0 - x.
// CHECK-LABEL: func.func @neg_si32(
// CHECK:           arith.subi %{{.*}}, %{{.*}} : i32
func.func @neg_si32(%arg0: !torch.vtensor<[4],si32>) -> !torch.vtensor<[4],si32> {
  %0 = torch.aten.neg %arg0 : !torch.vtensor<[4],si32> -> !torch.vtensor<[4],si32>
  return %0 : !torch.vtensor<[4],si32>
}

// -----

// max/min of a bool tensor: maxui/minui from false/true.
// CHECK-LABEL: func.func @max_bool(
// CHECK:         %[[F:.*]] = arith.constant false
// CHECK:         linalg.fill ins(%[[F]] : i1)
// CHECK:         ^bb0(%[[IN:.*]]: i1, %[[OUT:.*]]: i1):
// CHECK-NEXT:      arith.maxui %[[IN]], %[[OUT]] : i1
// CHECK-LABEL: func.func @min_bool(
// CHECK:         %[[T:.*]] = arith.constant true
// CHECK:         linalg.fill ins(%[[T]] : i1)
// CHECK:         ^bb0(%[[IN:.*]]: i1, %[[OUT:.*]]: i1):
// CHECK-NEXT:      arith.minui %[[IN]], %[[OUT]] : i1
func.func @max_bool(%arg0: !torch.vtensor<[2,3],i1>) -> !torch.vtensor<[],i1> {
  %0 = torch.aten.max %arg0 : !torch.vtensor<[2,3],i1> -> !torch.vtensor<[],i1>
  return %0 : !torch.vtensor<[],i1>
}
func.func @min_bool(%arg0: !torch.vtensor<[2,3],i1>) -> !torch.vtensor<[],i1> {
  %0 = torch.aten.min %arg0 : !torch.vtensor<[2,3],i1> -> !torch.vtensor<[],i1>
  return %0 : !torch.vtensor<[],i1>
}

// -----

// CHECK-LABEL: func.func @static_info_cast(
// CHECK:         %[[T:.*]] = torch_c.to_builtin_tensor %arg0 : !torch.vtensor<[?],f32> -> tensor<?xf32>
// CHECK:         %[[C:.*]] = tensor.cast %[[T]] : tensor<?xf32> to tensor<4xf32>
// CHECK:         torch_c.from_builtin_tensor %[[C]] : tensor<4xf32> -> !torch.vtensor<[4],f32>
func.func @static_info_cast(%arg0: !torch.vtensor<[?],f32>) -> !torch.vtensor<[4],f32> {
  %0 = torch.tensor_static_info_cast %arg0 : !torch.vtensor<[?],f32> to !torch.vtensor<[4],f32>
  return %0 : !torch.vtensor<[4],f32>
}
