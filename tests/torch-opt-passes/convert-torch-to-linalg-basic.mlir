// RUN: torch-opt --convert-torch-to-linalg -split-input-file %s | FileCheck %s
// RUN: torch-opt --convert-torch-to-linalg -split-input-file %s | torch-opt -p '' -split-input-file | FileCheck %s

// matmul of two vectors: linalg.dot into a rank-0 f32 accumulator, the
// lengths asserted equal, one truncf to the result's f16.
// CHECK-LABEL: func.func @matmul_dot(
// CHECK:         cf.assert %{{.*}}, "mismatching contracting dimension"
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<f32>
// CHECK:         %[[Z:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E]] : tensor<f32>)
// CHECK:         linalg.dot ins(%{{.*}}, %{{.*}} : tensor<?xf16>, tensor<?xf16>) outs(%[[Z]] : tensor<f32>) -> tensor<f32>
// CHECK:         arith.truncf %{{.*}} : f32 to f16
func.func @matmul_dot(%arg0: !torch.vtensor<[?],f16>, %arg1: !torch.vtensor<[?],f16>) -> !torch.vtensor<[],f16> {
  %0 = torch.aten.matmul %arg0, %arg1 : !torch.vtensor<[?],f16>, !torch.vtensor<[?],f16> -> !torch.vtensor<[],f16>
  return %0 : !torch.vtensor<[],f16>
}

// -----

// vector by matrix: linalg.vecmat, sized by the matrix's unknown dim 1
// CHECK-LABEL: func.func @matmul_vecmat(
// CHECK:         %[[B:.*]] = torch_c.to_builtin_tensor %arg1
// CHECK:         %[[N:.*]] = tensor.dim %[[B]], %{{.*}} : tensor<4x?xf32>
// CHECK:         %[[E:.*]] = tensor.empty(%[[N]]) : tensor<?xf32>
// CHECK:         linalg.vecmat ins(%{{.*}}, %[[B]] : tensor<4xf32>, tensor<4x?xf32>) outs(%{{.*}} : tensor<?xf32>)
// CHECK-NOT:     arith.truncf
func.func @matmul_vecmat(%arg0: !torch.vtensor<[4],f32>, %arg1: !torch.vtensor<[4,?],f32>) -> !torch.vtensor<[?],f32> {
  %0 = torch.aten.matmul %arg0, %arg1 : !torch.vtensor<[4],f32>, !torch.vtensor<[4,?],f32> -> !torch.vtensor<[?],f32>
  return %0 : !torch.vtensor<[?],f32>
}

// -----

// matrix by vector of int8: linalg.matvec accumulating in i32, then
// truncated to the result's si8
// CHECK-LABEL: func.func @matmul_matvec_i8(
// CHECK:         linalg.matvec ins(%{{.*}}, %{{.*}} : tensor<8x4xi8>, tensor<4xi8>) outs(%{{.*}} : tensor<8xi32>)
// CHECK:         arith.trunci %{{.*}} : i32 to i8
func.func @matmul_matvec_i8(%arg0: !torch.vtensor<[8,4],si8>, %arg1: !torch.vtensor<[4],si8>) -> !torch.vtensor<[8],si8> {
  %0 = torch.aten.matmul %arg0, %arg1 : !torch.vtensor<[8,4],si8>, !torch.vtensor<[4],si8> -> !torch.vtensor<[8],si8>
  return %0 : !torch.vtensor<[8],si8>
}

// -----

// unsigned vectors have no named-op form here: left as they are
// CHECK-LABEL: func.func @matmul_dot_unsigned(
// CHECK:         torch.aten.matmul
func.func @matmul_dot_unsigned(%arg0: !torch.vtensor<[4],ui8>, %arg1: !torch.vtensor<[4],ui8>) -> !torch.vtensor<[],ui8> {
  %0 = torch.aten.matmul %arg0, %arg1 : !torch.vtensor<[4],ui8>, !torch.vtensor<[4],ui8> -> !torch.vtensor<[],ui8>
  return %0 : !torch.vtensor<[],ui8>
}

// -----

// 4-D matmul with equal static batch dims: the batch dims collapsed into
// one, a batch_matmul, the result expanded back
// CHECK-LABEL: func.func @matmul_4d(
// CHECK:         %[[CA:.*]] = tensor.cast %{{.*}} : tensor<2x3x8x16xf16> to tensor<2x3x8x16xf16>
// CHECK:         %[[CB:.*]] = tensor.cast %{{.*}} : tensor<2x3x16x4xf16> to tensor<2x3x16x4xf16>
// CHECK:         %[[A:.*]] = tensor.collapse_shape %[[CA]] {{\[\[}}0, 1], [2], [3]] : tensor<2x3x8x16xf16> into tensor<6x8x16xf16>
// CHECK:         %[[B:.*]] = tensor.collapse_shape %[[CB]] {{\[\[}}0, 1], [2], [3]] : tensor<2x3x16x4xf16> into tensor<6x16x4xf16>
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<6x8x4xf32>
// CHECK:         linalg.batch_matmul ins(%[[A]], %[[B]] : tensor<6x8x16xf16>, tensor<6x16x4xf16>) outs(%{{.*}} : tensor<6x8x4xf32>)
// CHECK:         arith.truncf %{{.*}} : f32 to f16
// CHECK:         tensor.expand_shape %{{.*}} {{\[\[}}0, 1], [2], [3]] output_shape [2, 3, 8, 4] : tensor<6x8x4xf16> into tensor<2x3x8x4xf16>
func.func @matmul_4d(%arg0: !torch.vtensor<[2,3,8,16],f16>, %arg1: !torch.vtensor<[2,3,16,4],f16>) -> !torch.vtensor<[2,3,8,4],f16> {
  %0 = torch.aten.matmul %arg0, %arg1 : !torch.vtensor<[2,3,8,16],f16>, !torch.vtensor<[2,3,16,4],f16> -> !torch.vtensor<[2,3,8,4],f16>
  return %0 : !torch.vtensor<[2,3,8,4],f16>
}

// -----

// two unknown batch dims: asserted equal (no broadcast), one generic that
// extends each f16 element to the f32 accumulator
// CHECK-LABEL: func.func @matmul_4d_dynamic(
// CHECK:         cf.assert %{{.*}}, "mismatching batch dimension"
// CHECK:         cf.assert %{{.*}}, "mismatching batch dimension"
// CHECK:         cf.assert %{{.*}}, "mismatching contracting dimension"
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "reduction", "parallel"]} ins(%{{.*}}, %{{.*}} : tensor<?x?x8x16xf16>, tensor<?x?x16x8xf16>) outs(%{{.*}} : tensor<?x?x8x8xf32>)
// CHECK:           arith.extf
// CHECK:           arith.extf
// CHECK:           arith.mulf
// CHECK:           arith.addf
// CHECK:         arith.truncf %{{.*}} : f32 to f16
func.func @matmul_4d_dynamic(%arg0: !torch.vtensor<[?,?,8,16],f16>, %arg1: !torch.vtensor<[?,?,16,8],f16>) -> !torch.vtensor<[?,?,8,8],f16> {
  %0 = torch.aten.matmul %arg0, %arg1 : !torch.vtensor<[?,?,8,16],f16>, !torch.vtensor<[?,?,16,8],f16> -> !torch.vtensor<[?,?,8,8],f16>
  return %0 : !torch.vtensor<[?,?,8,8],f16>
}

// -----

// batch dims that broadcast (1 against 3) are left
// CHECK-LABEL: func.func @matmul_4d_broadcast(
// CHECK:         torch.aten.matmul
func.func @matmul_4d_broadcast(%arg0: !torch.vtensor<[1,3,8,16],f32>, %arg1: !torch.vtensor<[3,3,16,4],f32>) -> !torch.vtensor<[3,3,8,4],f32> {
  %0 = torch.aten.matmul %arg0, %arg1 : !torch.vtensor<[1,3,8,16],f32>, !torch.vtensor<[3,3,16,4],f32> -> !torch.vtensor<[3,3,8,4],f32>
  return %0 : !torch.vtensor<[3,3,8,4],f32>
}

// -----

// bmm of si4 and f16: the si4 operand converted to f16 (exact) first
// CHECK-LABEL: func.func @bmm_si4_f16(
// CHECK:         arith.sitofp %{{.*}} : i4 to f16
// CHECK:         linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<1x4x8xf16>, tensor<1x8x4xf16>) outs(%{{.*}} : tensor<1x4x4xf32>)
// CHECK:         arith.truncf %{{.*}} : f32 to f16
func.func @bmm_si4_f16(%arg0: !torch.vtensor<[1,4,8],si4>, %arg1: !torch.vtensor<[1,8,4],f16>) -> !torch.vtensor<[1,4,4],f16> {
  %0 = torch.aten.bmm %arg0, %arg1 : !torch.vtensor<[1,4,8],si4>, !torch.vtensor<[1,8,4],f16> -> !torch.vtensor<[1,4,4],f16>
  return %0 : !torch.vtensor<[1,4,4],f16>
}

// -----

// f32 into f16 would round: both converted to the f32 accumulator instead
// CHECK-LABEL: func.func @bmm_f32_f16(
// CHECK-NOT:     arith.truncf %{{.*}} : f32 to f16
// CHECK:         linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<1x4x8xf32>, tensor<1x8x4xf32>)
func.func @bmm_f32_f16(%arg0: !torch.vtensor<[1,4,8],f32>, %arg1: !torch.vtensor<[1,8,4],f16>) -> !torch.vtensor<[1,4,4],f16> {
  %0 = torch.aten.bmm %arg0, %arg1 : !torch.vtensor<[1,4,8],f32>, !torch.vtensor<[1,8,4],f16> -> !torch.vtensor<[1,4,4],f16>
  return %0 : !torch.vtensor<[1,4,4],f16>
}

// -----

// full with sizes and value known at run time: the value through
// torch_c.to_f64 and fptosi, each unknown size through to_i64
// CHECK-LABEL: func.func @full_dynamic(
// CHECK:         %[[F:.*]] = torch_c.to_f64 %arg1
// CHECK:         %[[N:.*]] = torch_c.to_i64 %arg0
// CHECK:         %[[I:.*]] = arith.index_cast %[[N]] : i64 to index
// CHECK:         %[[V:.*]] = arith.fptosi %[[F]] : f64 to i64
// CHECK:         %[[E:.*]] = tensor.empty(%[[I]]) : tensor<3x?xi64>
// CHECK:         linalg.fill ins(%[[V]] : i64) outs(%[[E]] : tensor<3x?xi64>)
func.func @full_dynamic(%arg0: !torch.int, %arg1: !torch.float) -> !torch.vtensor<[3,?],si64> {
  %none = torch.constant.none
  %int3 = torch.constant.int 3
  %0 = torch.prim.ListConstruct %int3, %arg0 : (!torch.int, !torch.int) -> !torch.list<int>
  %1 = torch.aten.full %0, %arg1, %none, %none, %none, %none : !torch.list<int>, !torch.float, !torch.none, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[3,?],si64>
  return %1 : !torch.vtensor<[3,?],si64>
}

// -----

// an int fill into bool tests it against 0
// CHECK-LABEL: func.func @full_bool(
// CHECK:         %[[V:.*]] = torch_c.to_i64
// CHECK:         %[[B:.*]] = arith.cmpi ne, %[[V]], %{{.*}} : i64
// CHECK:         linalg.fill ins(%[[B]] : i1) outs(%{{.*}} : tensor<2xi1>)
func.func @full_bool() -> !torch.vtensor<[2],i1> {
  %none = torch.constant.none
  %int2 = torch.constant.int 2
  %0 = torch.prim.ListConstruct %int2 : (!torch.int) -> !torch.list<int>
  %1 = torch.aten.full %0, %int2, %none, %none, %none, %none : !torch.list<int>, !torch.int, !torch.none, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[2],i1>
  return %1 : !torch.vtensor<[2],i1>
}

// -----

// max.dim of si32: maxsi of the values from INT32_MIN, the index of the
// first strictly greater one
// CHECK-LABEL: func.func @max_dim_si32(
// CHECK:         %[[MIN:.*]] = arith.constant -2147483648 : i32
// CHECK:         linalg.fill ins(%[[MIN]] : i32)
// CHECK:         ^bb0(%[[IN:.*]]: i32, %[[OUT:.*]]: i32, %[[IDX:.*]]: i64):
// CHECK:           arith.maxsi %[[IN]], %[[OUT]] : i32
// CHECK:           arith.cmpi sgt, %[[IN]], %[[OUT]] : i32
func.func @max_dim_si32(%arg0: !torch.vtensor<[3,4],si32>) -> (!torch.vtensor<[4],si32>, !torch.vtensor<[4],si64>) {
  %false = torch.constant.bool false
  %int0 = torch.constant.int 0
  %values, %indices = torch.aten.max.dim %arg0, %int0, %false : !torch.vtensor<[3,4],si32>, !torch.int, !torch.bool -> !torch.vtensor<[4],si32>, !torch.vtensor<[4],si64>
  return %values, %indices : !torch.vtensor<[4],si32>, !torch.vtensor<[4],si64>
}

// -----

// min.dim of ui8: minui from 255
// CHECK-LABEL: func.func @min_dim_ui8(
// CHECK:         %[[MAX:.*]] = arith.constant -1 : i8
// CHECK:         linalg.fill ins(%[[MAX]] : i8)
// CHECK:           arith.minui
// CHECK:           arith.cmpi ult
func.func @min_dim_ui8(%arg0: !torch.vtensor<[3,4],ui8>) -> !torch.vtensor<[3],ui8> {
  %false = torch.constant.bool false
  %int-1 = torch.constant.int -1
  %values, %indices = torch.aten.min.dim %arg0, %int-1, %false : !torch.vtensor<[3,4],ui8>, !torch.int, !torch.bool -> !torch.vtensor<[3],ui8>, !torch.vtensor<[3],si64>
  return %values : !torch.vtensor<[3],ui8>
}

// -----

// rotary embedding, halves rotated: element h and its partner
// (h + 3) % 6 with the cache row at the position id; the sign is + from
// the second half on
// CHECK-LABEL: func.func @rotary(
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x2x2x6xf32>, tensor<1x2xi64>) outs(%{{.*}} : tensor<1x2x2x6xf32>)
// CHECK:           %[[H:.*]] = linalg.index 3 : index
// CHECK:           arith.remsi %[[H]], %{{.*}} : index
// CHECK:           arith.cmpi sge, %[[H]], %{{.*}} : index
// CHECK:           tensor.extract %{{.*}} : tensor<4x3xf32>
// CHECK:           tensor.extract %{{.*}} : tensor<4x3xf32>
// CHECK:           tensor.extract %{{.*}} : tensor<1x2x2x6xf32>
// CHECK-NOT:     arith.constant 1.000000e+00 : f32
// CHECK:         tensor.cast
func.func @rotary(%arg0: !torch.vtensor<[1,2,2,6],f32>, %arg1: !torch.vtensor<[1,2],si64>, %arg2: !torch.vtensor<[4,3],f32>, %arg3: !torch.vtensor<[4,3],f32>) -> !torch.vtensor<[1,2,2,6],f32> {
  %int0 = torch.constant.int 0
  %float1 = torch.constant.float 1.000000e+00
  %0 = torch.onnx.rotary_embedding %arg0, %arg1, %arg2, %arg3, %int0, %int0, %int0, %int0, %float1 : !torch.vtensor<[1,2,2,6],f32>, !torch.vtensor<[1,2],si64>, !torch.vtensor<[4,3],f32>, !torch.vtensor<[4,3],f32>, !torch.int, !torch.int, !torch.int, !torch.int, !torch.float -> !torch.vtensor<[1,2,2,6],f32>
  return %0 : !torch.vtensor<[1,2,2,6],f32>
}

// -----

// interleaved pairs (2i, 2i+1), rank 3 reshaped to 2 heads and back, and
// a scale
// CHECK-LABEL: func.func @rotary_interleaved_rank3(
// CHECK:         %[[S:.*]] = tensor.from_elements %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<4xi64>
// CHECK:         tensor.reshape %{{.*}}(%[[S]]) : (tensor<1x3x8xf16>, tensor<4xi64>) -> tensor<1x2x3x4xf16>
// CHECK:         linalg.generic
// CHECK:           arith.divsi
// CHECK:           arith.andi
// CHECK:           arith.trunci %{{.*}} : index to i1
// CHECK:         arith.constant 5.000000e-01 : f16
// CHECK:         linalg.generic
// CHECK:           arith.mulf
// CHECK:         tensor.reshape %{{.*}}(%{{.*}}) : (tensor<1x2x3x4xf16>, tensor<3xi64>) -> tensor<1x3x8xf16>
func.func @rotary_interleaved_rank3(%arg0: !torch.vtensor<[1,3,8],f16>, %arg1: !torch.vtensor<[1,3],si64>, %arg2: !torch.vtensor<[5,2],f16>, %arg3: !torch.vtensor<[5,2],f16>) -> !torch.vtensor<[1,3,8],f16> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %float = torch.constant.float 5.000000e-01
  %0 = torch.onnx.rotary_embedding %arg0, %arg1, %arg2, %arg3, %int1, %int0, %int0, %int0, %float : !torch.vtensor<[1,3,8],f16>, !torch.vtensor<[1,3],si64>, !torch.vtensor<[5,2],f16>, !torch.vtensor<[5,2],f16>, !torch.int, !torch.int, !torch.int, !torch.int, !torch.float -> !torch.vtensor<[1,3,8],f16>
  return %0 : !torch.vtensor<[1,3,8],f16>
}

// -----

// position ids of unknown shape are asserted to be (batch, seq)
// CHECK-LABEL: func.func @rotary_dynamic(
// CHECK:         cf.assert %{{.*}}, "position_ids must have the input's batch and sequence sizes"
// CHECK:         cf.assert %{{.*}}, "position_ids must have the input's batch and sequence sizes"
// CHECK:         linalg.generic
func.func @rotary_dynamic(%arg0: !torch.vtensor<[?,1,?,6],f32>, %arg1: !torch.vtensor<[?,?],si64>, %arg2: !torch.vtensor<[4,3],f32>, %arg3: !torch.vtensor<[4,3],f32>) -> !torch.vtensor<[?,1,?,6],f32> {
  %int0 = torch.constant.int 0
  %float1 = torch.constant.float 1.000000e+00
  %0 = torch.onnx.rotary_embedding %arg0, %arg1, %arg2, %arg3, %int0, %int0, %int0, %int0, %float1 : !torch.vtensor<[?,1,?,6],f32>, !torch.vtensor<[?,?],si64>, !torch.vtensor<[4,3],f32>, !torch.vtensor<[4,3],f32>, !torch.int, !torch.int, !torch.int, !torch.int, !torch.float -> !torch.vtensor<[?,1,?,6],f32>
  return %0 : !torch.vtensor<[?,1,?,6],f32>
}

// -----

// a rotary dim short of the head (its tail would pass through) and packed
// batching are left
// CHECK-LABEL: func.func @rotary_partial(
// CHECK:         torch.onnx.rotary_embedding
// CHECK:         torch.onnx.rotary_embedding
func.func @rotary_partial(%arg0: !torch.vtensor<[1,2,2,8],f32>, %arg1: !torch.vtensor<[1,2],si64>, %arg2: !torch.vtensor<[4,2],f32>, %arg3: !torch.vtensor<[4,2],f32>, %arg4: !torch.vtensor<[4,4],f32>) -> (!torch.vtensor<[1,2,2,8],f32>, !torch.vtensor<[1,2,2,8],f32>) {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int4 = torch.constant.int 4
  %float1 = torch.constant.float 1.000000e+00
  %0 = torch.onnx.rotary_embedding %arg0, %arg1, %arg2, %arg3, %int0, %int0, %int2, %int4, %float1 : !torch.vtensor<[1,2,2,8],f32>, !torch.vtensor<[1,2],si64>, !torch.vtensor<[4,2],f32>, !torch.vtensor<[4,2],f32>, !torch.int, !torch.int, !torch.int, !torch.int, !torch.float -> !torch.vtensor<[1,2,2,8],f32>
  %1 = torch.onnx.rotary_embedding %arg0, %arg1, %arg4, %arg4, %int0, %int1, %int0, %int0, %float1 : !torch.vtensor<[1,2,2,8],f32>, !torch.vtensor<[1,2],si64>, !torch.vtensor<[4,4],f32>, !torch.vtensor<[4,4],f32>, !torch.int, !torch.int, !torch.int, !torch.int, !torch.float -> !torch.vtensor<[1,2,2,8],f32>
  return %0, %1 : !torch.vtensor<[1,2,2,8],f32>, !torch.vtensor<[1,2,2,8],f32>
}

// -----

// any.dim of bool: ori into false, the reduced dim kept as 1 by a constant
// 0 in the output map; all.dim without keepdim: andi into true
// CHECK-LABEL: func.func @any_all_dim(
// CHECK:         %[[F:.*]] = arith.constant false
// CHECK:         %[[E:.*]] = tensor.empty(%{{.*}}) : tensor<?x1xi1>
// CHECK:         linalg.fill ins(%[[F]] : i1) outs(%[[E]] : tensor<?x1xi1>)
// CHECK:         linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}], iterator_types = ["parallel", "reduction"]}
// CHECK:           arith.ori
// CHECK:         %[[T:.*]] = arith.constant true
// CHECK:         %[[E2:.*]] = tensor.empty(%{{.*}}) : tensor<?xi1>
// CHECK:         linalg.fill ins(%[[T]] : i1) outs(%[[E2]] : tensor<?xi1>)
// CHECK:           arith.andi
func.func @any_all_dim(%arg0: !torch.vtensor<[3,4],i1>) -> (!torch.vtensor<[3,1],i1>, !torch.vtensor<[3],i1>) {
  %int1 = torch.constant.int 1
  %true = torch.constant.bool true
  %false = torch.constant.bool false
  %0 = torch.aten.any.dim %arg0, %int1, %true : !torch.vtensor<[3,4],i1>, !torch.int, !torch.bool -> !torch.vtensor<[3,1],i1>
  %1 = torch.aten.all.dim %arg0, %int1, %false : !torch.vtensor<[3,4],i1>, !torch.int, !torch.bool -> !torch.vtensor<[3],i1>
  return %0, %1 : !torch.vtensor<[3,1],i1>, !torch.vtensor<[3],i1>
}

// -----

// any.dim of a float tensor keeps torch-lower's lowering (it tests each
// element against 0 first)
// CHECK-LABEL: func.func @any_dim_float(
// CHECK:         arith.cmpf une
func.func @any_dim_float(%arg0: !torch.vtensor<[3,4],f32>) -> !torch.vtensor<[3],i1> {
  %int1 = torch.constant.int 1
  %false = torch.constant.bool false
  %0 = torch.aten.any.dim %arg0, %int1, %false : !torch.vtensor<[3,4],f32>, !torch.int, !torch.bool -> !torch.vtensor<[3],i1>
  return %0 : !torch.vtensor<[3],i1>
}

// -----

// static batch dims, unknown rows, a result type that knows less: the
// expand gives the operands' batch dims, the tensor.cast the result's
// CHECK-LABEL: func.func @matmul_4d_rows_dynamic(
// CHECK:         linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<6x?x16xf32>, tensor<6x16x4xf32>) outs(%{{.*}} : tensor<6x?x4xf32>)
// CHECK:         %[[X:.*]] = tensor.expand_shape %{{.*}} {{\[\[}}0, 1], [2], [3]] : tensor<6x?x4xf32> into tensor<2x3x?x4xf32>
// CHECK:         tensor.cast %[[X]] : tensor<2x3x?x4xf32> to tensor<?x?x?x4xf32>
func.func @matmul_4d_rows_dynamic(%arg0: !torch.vtensor<[2,3,?,16],f32>, %arg1: !torch.vtensor<[2,3,16,4],f32>) -> !torch.vtensor<[?,?,?,4],f32> {
  %0 = torch.aten.matmul %arg0, %arg1 : !torch.vtensor<[2,3,?,16],f32>, !torch.vtensor<[2,3,16,4],f32> -> !torch.vtensor<[?,?,?,4],f32>
  return %0 : !torch.vtensor<[?,?,?,4],f32>
}
