// RUN: torch-opt -p 'func.func(torch-decompose)' --split-input-file %s | FileCheck %s
// RUN: not torch-opt --split-input-file %s 2>&1 | FileCheck %s --check-prefix=ERR

// PT2E's quantize and dequantize ops (quantized_decomposed, as
// convert_pt2e leaves them) as PyTorch defines them in
// torch/ao/quantization/fx/_decomposed.py, op for op: x * (1.0 / scale)
// with 1.0 / scale taken in double, round half to even, + zero point,
// clamp, then the integer dtype.
// CHECK-LABEL: func.func @q_tensor(
// CHECK:         %[[INV:.*]] = torch.constant.float 43.694876850113161
// CHECK:         %[[M:.*]] = torch.aten.mul.Scalar %arg0, %[[INV]]
// CHECK:         %[[R:.*]] = torch.aten.round %[[M]]
// CHECK:         %[[A:.*]] = torch.aten.add.Scalar %[[R]], %{{.*}}, %{{.*}} : !torch.vtensor<[2,3],f32>, !torch.int, !torch.int
// CHECK:         %[[C:.*]] = torch.aten.clamp %[[A]], %{{.*}}, %{{.*}} : !torch.vtensor<[2,3],f32>, !torch.int, !torch.int
// CHECK:         %[[Q:.*]] = torch.aten.to.dtype %[[C]], {{.*}} -> !torch.vtensor<[2,3],ui8>
// CHECK:         return %[[Q]]
func.func @q_tensor(%x: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2,3],ui8> {
  %s = torch.constant.float 0.02288597822189331
  %z = torch.constant.int 3
  %lo = torch.constant.int 0
  %hi = torch.constant.int 255
  %dt = torch.constant.int 0
  %0 = torch.quantized_decomposed.quantize_per_tensor %x, %s, %z, %lo, %hi, %dt : !torch.vtensor<[2,3],f32>, !torch.float, !torch.int, !torch.int, !torch.int, !torch.int -> !torch.vtensor<[2,3],ui8>
  return %0 : !torch.vtensor<[2,3],ui8>
}

// -----

// (x.to(f32) - zero point) * scale
// CHECK-LABEL: func.func @dq_tensor(
// CHECK:         %[[F:.*]] = torch.aten.to.dtype %arg0, {{.*}} -> !torch.vtensor<[2,3],f32>
// CHECK:         %[[S:.*]] = torch.aten.sub.Scalar %[[F]], %{{.*}}, %{{.*}}
// CHECK:         %[[D:.*]] = torch.aten.mul.Scalar %[[S]], %{{.*}}
// CHECK:         return %[[D]]
func.func @dq_tensor(%x: !torch.vtensor<[2,3],si8>) -> !torch.vtensor<[2,3],f32> {
  %s = torch.constant.float 0.1
  %z = torch.constant.int -3
  %lo = torch.constant.int -128
  %hi = torch.constant.int 127
  %dt = torch.constant.int 1
  %none = torch.constant.none
  %0 = torch.quantized_decomposed.dequantize_per_tensor %x, %s, %z, %lo, %hi, %dt, %none : !torch.vtensor<[2,3],si8>, !torch.float, !torch.int, !torch.int, !torch.int, !torch.int, !torch.none -> !torch.vtensor<[2,3],f32>
  return %0 : !torch.vtensor<[2,3],f32>
}

// -----

// Per channel along axis -1: x - zero points is int64, then times the
// scales; both viewed along the axis.
// CHECK-LABEL: func.func @dq_channel(
// CHECK:         %[[S:.*]] = torch.aten.view %arg1, {{.*}} -> !torch.vtensor<[1,3],f32>
// CHECK:         %[[Z:.*]] = torch.aten.view %arg2, {{.*}} -> !torch.vtensor<[1,3],si64>
// CHECK:         %[[D:.*]] = torch.aten.sub.Tensor %arg0, %[[Z]], {{.*}} -> !torch.vtensor<[4,3],si64>
// CHECK:         %[[M:.*]] = torch.aten.mul.Tensor %[[D]], %[[S]] {{.*}} -> !torch.vtensor<[4,3],f32>
// CHECK:         return %[[M]]
func.func @dq_channel(%x: !torch.vtensor<[4,3],si8>, %s: !torch.vtensor<[3],f32>, %z: !torch.vtensor<[3],si64>) -> !torch.vtensor<[4,3],f32> {
  %axis = torch.constant.int -1
  %lo = torch.constant.int -128
  %hi = torch.constant.int 127
  %dt = torch.constant.int 1
  %none = torch.constant.none
  %0 = torch.quantized_decomposed.dequantize_per_channel %x, %s, %z, %axis, %lo, %hi, %dt, %none : !torch.vtensor<[4,3],si8>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],si64>, !torch.int, !torch.int, !torch.int, !torch.int, !torch.none -> !torch.vtensor<[4,3],f32>
  return %0 : !torch.vtensor<[4,3],f32>
}

// -----

// No zero points: x times the scales.
// CHECK-LABEL: func.func @dq_channel_no_zp(
// CHECK-NOT:     torch.aten.sub
// CHECK:         torch.aten.mul.Tensor %arg0, {{.*}} -> !torch.vtensor<[3,2],f32>
func.func @dq_channel_no_zp(%x: !torch.vtensor<[3,2],si8>, %s: !torch.vtensor<[3],f32>) -> !torch.vtensor<[3,2],f32> {
  %axis = torch.constant.int 0
  %lo = torch.constant.int -128
  %hi = torch.constant.int 127
  %dt = torch.constant.int 1
  %none = torch.constant.none
  %0 = torch.quantized_decomposed.dequantize_per_channel %x, %s, %none, %axis, %lo, %hi, %dt, %none : !torch.vtensor<[3,2],si8>, !torch.vtensor<[3],f32>, !torch.none, !torch.int, !torch.int, !torch.int, !torch.int, !torch.none -> !torch.vtensor<[3,2],f32>
  return %0 : !torch.vtensor<[3,2],f32>
}

// -----

// Per channel quantize: 1 / scales in f32 (PyTorch's reciprocal of the
// tensor), then as per tensor.
// CHECK-LABEL: func.func @q_channel(
// CHECK:         %[[S:.*]] = torch.aten.view %arg1, {{.*}} -> !torch.vtensor<[4,1],f32>
// CHECK:         %[[Z:.*]] = torch.aten.view %arg2, {{.*}} -> !torch.vtensor<[4,1],si64>
// CHECK:         %[[I:.*]] = torch.aten.reciprocal %[[S]]
// CHECK:         %[[M:.*]] = torch.aten.mul.Tensor %arg0, %[[I]]
// CHECK:         %[[R:.*]] = torch.aten.round %[[M]]
// CHECK:         %[[A:.*]] = torch.aten.add.Tensor %[[R]], %[[Z]], {{.*}} -> !torch.vtensor<[4,3],f32>
// CHECK:         %[[C:.*]] = torch.aten.clamp %[[A]]
// CHECK:         torch.aten.to.dtype %[[C]], {{.*}} -> !torch.vtensor<[4,3],si8>
func.func @q_channel(%x: !torch.vtensor<[4,3],f32>, %s: !torch.vtensor<[4],f32>, %z: !torch.vtensor<[4],si64>) -> !torch.vtensor<[4,3],si8> {
  %axis = torch.constant.int 0
  %lo = torch.constant.int -127
  %hi = torch.constant.int 127
  %dt = torch.constant.int 1
  %0 = torch.quantized_decomposed.quantize_per_channel %x, %s, %z, %axis, %lo, %hi, %dt : !torch.vtensor<[4,3],f32>, !torch.vtensor<[4],f32>, !torch.vtensor<[4],si64>, !torch.int, !torch.int, !torch.int, !torch.int -> !torch.vtensor<[4,3],si8>
  return %0 : !torch.vtensor<[4,3],si8>
}

// -----

// An axis out of range: left as it is, for the backend contract to refuse.
// CHECK-LABEL: func.func @bad_axis(
// CHECK:         torch.quantized_decomposed.dequantize_per_channel
// ERR: decompose-quantized.mlir:[[@LINE+7]]:8: error: 'quantized_decomposed.dequantize_per_channel' is not supported by the backend contract
func.func @bad_axis(%x: !torch.vtensor<[3,2],si8>, %s: !torch.vtensor<[3],f32>) -> !torch.vtensor<[3,2],f32> {
  %axis = torch.constant.int 2
  %lo = torch.constant.int -128
  %hi = torch.constant.int 127
  %dt = torch.constant.int 1
  %none = torch.constant.none
  %0 = torch.quantized_decomposed.dequantize_per_channel %x, %s, %none, %axis, %lo, %hi, %dt, %none : !torch.vtensor<[3,2],si8>, !torch.vtensor<[3],f32>, !torch.none, !torch.int, !torch.int, !torch.int, !torch.int, !torch.none -> !torch.vtensor<[3,2],f32>
  return %0 : !torch.vtensor<[3,2],f32>
}

// -----

// Bounds outside the dtype's range (PyTorch refuses them): left as it is.
// CHECK-LABEL: func.func @bad_bounds(
// CHECK:         torch.quantized_decomposed.quantize_per_tensor
// ERR: decompose-quantized.mlir:[[@LINE+8]]:8: error: 'quantized_decomposed.quantize_per_tensor' is not supported by the backend contract
// ERR-NOT: error
func.func @bad_bounds(%x: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2,3],ui8> {
  %s = torch.constant.float 0.5
  %z = torch.constant.int 3
  %lo = torch.constant.int 0
  %hi = torch.constant.int 256
  %dt = torch.constant.int 0
  %0 = torch.quantized_decomposed.quantize_per_tensor %x, %s, %z, %lo, %hi, %dt : !torch.vtensor<[2,3],f32>, !torch.float, !torch.int, !torch.int, !torch.int, !torch.int -> !torch.vtensor<[2,3],ui8>
  return %0 : !torch.vtensor<[2,3],ui8>
}
