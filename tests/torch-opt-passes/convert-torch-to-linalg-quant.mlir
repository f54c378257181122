// RUN: torch-opt --convert-torch-to-linalg -split-input-file %s | FileCheck %s
// RUN: torch-opt --convert-torch-to-linalg -split-input-file %s | torch-opt -p '' -split-input-file | FileCheck %s
// RUN: not torch-opt -p 'builtin.module(torch-backend-to-linalg-on-tensors-backend-pipeline)' -split-input-file %s | FileCheck %s --check-prefix=BACKEND

// Per channel quantize, unsigned result and zero point, f16 scales,
// negative axis, a dynamic channel dim: the scale extended to the input's
// type, the zero point as unsigned, clamp then fptoui.
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[CH:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @quant_channel_unsigned(
// CHECK: %[[DIM:.*]] = tensor.dim
// CHECK: %[[E:.*]] = tensor.empty(%[[DIM]]) : tensor<4x?xi8>
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[CH]], #[[CH]], #[[ID]]]
// CHECK: ^bb0(%[[X:.*]]: f32, %[[S:.*]]: f16, %[[Z:.*]]: i8, %{{.*}}: i8):
// CHECK:   %[[LO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:   %[[HI:.*]] = arith.constant 2.550000e+02 : f32
// CHECK:   %[[SF:.*]] = arith.extf %[[S]] : f16 to f32
// CHECK:   %[[ZF:.*]] = arith.uitofp %[[Z]] : i8 to f32
// CHECK:   %[[D:.*]] = arith.divf %[[X]], %[[SF]] : f32
// CHECK:   %[[R:.*]] = math.roundeven %[[D]] : f32
// CHECK:   %[[A:.*]] = arith.addf %[[R]], %[[ZF]] : f32
// CHECK:   %[[M:.*]] = arith.maximumf %[[A]], %[[LO]] : f32
// CHECK:   %[[N:.*]] = arith.minimumf %[[M]], %[[HI]] : f32
// CHECK:   %[[Q:.*]] = arith.fptoui %[[N]] : f32 to i8
// CHECK:   linalg.yield %[[Q]] : i8
// CHECK-NOT: tensor.cast
// BACKEND-LABEL: func.func @quant_channel_unsigned(
// BACKEND: arith.maxf
// BACKEND: arith.minf
func.func @quant_channel_unsigned(%x: !torch.vtensor<[4,?],f32>, %s: !torch.vtensor<[?],f16>, %z: !torch.vtensor<[?],ui8>) -> !torch.vtensor<[4,?],ui8> {
  %axis = torch.constant.int -1
  %qmin = torch.constant.int 0
  %qmax = torch.constant.int 255
  %dtype = torch.constant.int 0
  %0 = torch.quantized_decomposed.quantize_per_channel %x, %s, %z, %axis, %qmin, %qmax, %dtype : !torch.vtensor<[4,?],f32>, !torch.vtensor<[?],f16>, !torch.vtensor<[?],ui8>, !torch.int, !torch.int, !torch.int, !torch.int -> !torch.vtensor<[4,?],ui8>
  return %0 : !torch.vtensor<[4,?],ui8>
}

// -----

// Per tensor dequantize of si16 to f64: the subtraction in i64 (the zero
// point's width), the product in f32 (a float scalar's default dtype),
// then extended to the result's f64.
// CHECK-LABEL: func.func @dequant_tensor_f64(
// CHECK: %[[SC:.*]] = torch.constant.float 2.500000e+00
// CHECK: ^bb0(%[[X:.*]]: i16, %{{.*}}: f64):
// CHECK:   %[[Z:.*]] = arith.constant 3 : i64
// CHECK:   %[[E:.*]] = arith.extsi %[[X]] : i16 to i64
// CHECK:   %[[S:.*]] = arith.subi %[[E]], %[[Z]] : i64
// CHECK:   %[[D:.*]] = torch_c.to_f64 %[[SC]]
// CHECK:   %[[F:.*]] = arith.truncf %[[D]] : f64 to f32
// CHECK:   %[[V:.*]] = arith.sitofp %[[S]] : i64 to f32
// CHECK:   %[[M:.*]] = arith.mulf %[[V]], %[[F]] : f32
// CHECK:   %[[R:.*]] = arith.extf %[[M]] : f32 to f64
// CHECK:   linalg.yield %[[R]] : f64
// CHECK: tensor.cast
// BACKEND-LABEL: func.func @dequant_tensor_f64(
// BACKEND-DAG: arith.constant 3 : i64
// BACKEND-DAG: arith.constant 2.500000e+00 : f32
// BACKEND-NOT: torch_c
func.func @dequant_tensor_f64(%x: !torch.vtensor<[4,8],si16>) -> !torch.vtensor<[4,8],f64> {
  %scale = torch.constant.float 2.5
  %zp = torch.constant.int 3
  %qmin = torch.constant.int -100
  %qmax = torch.constant.int 100
  %dtype = torch.constant.int 2
  %od = torch.constant.int 7
  %0 = torch.quantized_decomposed.dequantize_per_tensor %x, %scale, %zp, %qmin, %qmax, %dtype, %od : !torch.vtensor<[4,8],si16>, !torch.float, !torch.int, !torch.int, !torch.int, !torch.int, !torch.int -> !torch.vtensor<[4,8],f64>
  return %0 : !torch.vtensor<[4,8],f64>
}

// -----

// Unsigned q and zero point of the same width: both zero-extended to i16.
// CHECK-LABEL: func.func @dequant_channel_ui8_zp(
// CHECK: ^bb0(%[[X:.*]]: i8, %[[S:.*]]: f32, %[[Z:.*]]: i8, %{{.*}}: f32):
// CHECK-DAG: arith.extui %[[Z]] : i8 to i16
// CHECK-DAG: arith.extui %[[X]] : i8 to i16
// CHECK: arith.sitofp %{{.*}} : i16 to f32
func.func @dequant_channel_ui8_zp(%x: !torch.vtensor<[4,8],ui8>, %s: !torch.vtensor<[8],f32>, %z: !torch.vtensor<[8],ui8>) -> !torch.vtensor<[4,8],f32> {
  %axis = torch.constant.int 1
  %qmin = torch.constant.int 0
  %qmax = torch.constant.int 255
  %dtype = torch.constant.int 0
  %none = torch.constant.none
  %0 = torch.quantized_decomposed.dequantize_per_channel %x, %s, %z, %axis, %qmin, %qmax, %dtype, %none : !torch.vtensor<[4,8],ui8>, !torch.vtensor<[8],f32>, !torch.vtensor<[8],ui8>, !torch.int, !torch.int, !torch.int, !torch.int, !torch.none -> !torch.vtensor<[4,8],f32>
  return %0 : !torch.vtensor<[4,8],f32>
}

// -----

// Left as it was (the backend pipeline fails here): 64-bit q (no exact subtraction width), an axis out of
// range, scales whose length is not the channel dim's.
// CHECK-LABEL: func.func @left(
// CHECK-NOT: linalg.generic
// CHECK-COUNT-3: torch.quantized_decomposed.dequantize_per_channel
func.func @left(%x: !torch.vtensor<[4,8],si64>, %y: !torch.vtensor<[4,8],si8>, %s: !torch.vtensor<[8],f32>, %s4: !torch.vtensor<[4],f32>) -> (!torch.vtensor<[4,8],f32>, !torch.vtensor<[4,8],f32>, !torch.vtensor<[4,8],f32>) {
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %qmin = torch.constant.int -128
  %qmax = torch.constant.int 127
  %dtype = torch.constant.int 2
  %none = torch.constant.none
  %zp = torch.vtensor.literal(dense<0> : tensor<8xsi64>) : !torch.vtensor<[8],si64>
  %0 = torch.quantized_decomposed.dequantize_per_channel %x, %s, %zp, %int1, %qmin, %qmax, %dtype, %none : !torch.vtensor<[4,8],si64>, !torch.vtensor<[8],f32>, !torch.vtensor<[8],si64>, !torch.int, !torch.int, !torch.int, !torch.int, !torch.none -> !torch.vtensor<[4,8],f32>
  %1 = torch.quantized_decomposed.dequantize_per_channel %y, %s, %none, %int2, %qmin, %qmax, %dtype, %none : !torch.vtensor<[4,8],si8>, !torch.vtensor<[8],f32>, !torch.none, !torch.int, !torch.int, !torch.int, !torch.int, !torch.none -> !torch.vtensor<[4,8],f32>
  %2 = torch.quantized_decomposed.dequantize_per_channel %y, %s4, %none, %int1, %qmin, %qmax, %dtype, %none : !torch.vtensor<[4,8],si8>, !torch.vtensor<[4],f32>, !torch.none, !torch.int, !torch.int, !torch.int, !torch.int, !torch.none -> !torch.vtensor<[4,8],f32>
  return %0, %1, %2 : !torch.vtensor<[4,8],f32>, !torch.vtensor<[4,8],f32>, !torch.vtensor<[4,8],f32>
}
