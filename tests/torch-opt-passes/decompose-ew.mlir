// RUN: torch-opt -p torch-decompose,canonicalize{torch-mlir-forms=0},cse %s | FileCheck %s

// Elementwise ops the backend contract lacks (lib/torch/decompose_ew.c).

// xlogy: an int x converts to the float result first; 0 where x == 0,
// then y itself where y is NaN.
// CHECK-LABEL: func.func @xlogy(
// CHECK:         %[[X:.*]] = torch.aten.to.dtype %arg0, %int6, {{.*}} -> !torch.vtensor<[3,4],f32>
// CHECK:         %[[L:.*]] = torch.aten.log %arg1
// CHECK:         %[[M:.*]] = torch.aten.mul.Tensor %[[X]], %[[L]]
// CHECK:         %[[Z:.*]] = torch.aten.eq.Scalar %[[X]], %float0.000000e00
// CHECK:         %[[W:.*]] = torch.aten.where.ScalarSelf %[[Z]], %float0.000000e00, %[[M]]
// CHECK:         %[[N:.*]] = torch.aten.isnan %arg1
// CHECK:         torch.aten.where.self %[[N]], %arg1, %[[W]] : {{.*}} -> !torch.vtensor<[3,4],f32>
func.func @xlogy(%x: !torch.vtensor<[3,4],si64>, %y: !torch.vtensor<[4],f32>) -> !torch.vtensor<[3,4],f32> {
  %0 = torch.aten.xlogy.Tensor %x, %y : !torch.vtensor<[3,4],si64>, !torch.vtensor<[4],f32> -> !torch.vtensor<[3,4],f32>
  return %0 : !torch.vtensor<[3,4],f32>
}

// bitwise_and.Scalar: the Tensor form with a 0-d full of the result dtype.
// CHECK-LABEL: func.func @and_scalar(
// CHECK:         %[[F:.*]] = torch.aten.full %{{.*}}, %int5, %int1, {{.*}} -> !torch.vtensor<[],si8>
// CHECK:         torch.aten.bitwise_and.Tensor %arg0, %[[F]] : {{.*}} -> !torch.vtensor<[3],si8>
func.func @and_scalar(%x: !torch.vtensor<[3],si8>) -> !torch.vtensor<[3],si8> {
  %int5 = torch.constant.int 5
  %0 = torch.aten.bitwise_and.Scalar %x, %int5 : !torch.vtensor<[3],si8>, !torch.int -> !torch.vtensor<[3],si8>
  return %0 : !torch.vtensor<[3],si8>
}

// A signed right shift: floor(a / 2^s) for s clamped to [0, 6]; outside
// [0, 7) the sign, a floor-divided by 64 then 2.
// CHECK-LABEL: func.func @rshift(
// CHECK:         %[[C:.*]] = torch.aten.clamp %arg1, %int0, %int6
// CHECK:         %[[P:.*]] = torch.aten.pow.Scalar %int2, %[[C]]
// CHECK:         %[[HI:.*]] = torch.aten.ge.Scalar %arg1, %int7
// CHECK:         %[[LO:.*]] = torch.aten.lt.Scalar %arg1, %int0
// CHECK:         %[[OUT:.*]] = torch.aten.logical_or %[[LO]], %[[HI]]
// CHECK:         %[[Q:.*]] = torch.aten.div.Tensor_mode %arg0, %[[P]], %str
// CHECK:         %[[S1:.*]] = torch.aten.div.Scalar_mode %arg0, %int64, %str
// CHECK:         %[[S2:.*]] = torch.aten.div.Scalar_mode %[[S1]], %int2, %str
// CHECK:         torch.aten.where.self %[[OUT]], %[[S2]], %[[Q]]
// CHECK-LABEL: func.func @lshift(
// CHECK:         torch.aten.clamp %arg1, %int0, %int31
// CHECK:         torch.aten.ge.Scalar %arg1, %int32
// CHECK:         torch.aten.where.ScalarSelf %{{.*}}, %int0, %{{.*}} -> !torch.vtensor<[3],si32>
// CHECK-LABEL: func.func @rshift_scalar(
// CHECK:         %[[A:.*]] = torch.aten.div.Scalar_mode %arg0, %int64, %str
// CHECK-NEXT:    torch.aten.div.Scalar_mode %[[A]], %int2, %str
func.func @rshift(%a: !torch.vtensor<[3],si8>, %s: !torch.vtensor<[3],si8>) -> !torch.vtensor<[3],si8> {
  %0 = torch.aten.bitwise_right_shift.Tensor %a, %s : !torch.vtensor<[3],si8>, !torch.vtensor<[3],si8> -> !torch.vtensor<[3],si8>
  return %0 : !torch.vtensor<[3],si8>
}
func.func @lshift(%a: !torch.vtensor<[3],si32>, %s: !torch.vtensor<[3],si32>) -> !torch.vtensor<[3],si32> {
  %0 = torch.aten.bitwise_left_shift.Tensor %a, %s : !torch.vtensor<[3],si32>, !torch.vtensor<[3],si32> -> !torch.vtensor<[3],si32>
  return %0 : !torch.vtensor<[3],si32>
}
func.func @rshift_scalar(%a: !torch.vtensor<[3],si8>) -> !torch.vtensor<[3],si8> {
  %int9 = torch.constant.int 9
  %str = torch.constant.str "floor"
  %0 = torch.aten.__rshift__.Scalar %a, %int9 : !torch.vtensor<[3],si8>, !torch.int -> !torch.vtensor<[3],si8>
  return %0 : !torch.vtensor<[3],si8>
}

// rrelu in eval mode: leaky_relu by (lower + upper) / 2.  Training
// (decompose_rng.c): where(x <= 0, x * s, x), s a Philox uniform in
// [lower, upper) (f32: 0.2 u + 0.4, clamped below 0.6), the function's
// next stream.  %n is read by the eval op only, before the training op
// would write it.
// CHECK-LABEL: func.func @rrelu(
// CHECK-SAME:    attributes {torch.rng_stream = 1 : i64}
// CHECK:         torch.aten.leaky_relu %arg0, %float5.000000e-01
// CHECK:         %[[NEG:.*]] = torch.aten.le.Scalar %arg0, %float0.000000e00
// CHECK:         torch.aten.arange.start_step %int0, %int15
// CHECK:         %[[U:.*]] = torch.aten.mul.Scalar %{{.*}}, %float5.9604644775390625E-8
// CHECK:         %[[W:.*]] = torch.aten.mul.Scalar %[[U]], %float0.19999999999999996
// CHECK:         %[[S:.*]] = torch.aten.add.Scalar %[[W]], %float4.000000e-01, %int1
// CHECK:         %[[C:.*]] = torch.aten.clamp_max %[[S]], %float0.59999996423721313
// CHECK:         %[[XS:.*]] = torch.aten.mul.Tensor %arg0, %[[C]]
// CHECK:         %[[R:.*]] = torch.aten.where.self %[[NEG]], %[[XS]], %arg0
// CHECK:         return %{{.*}}, %[[R]]
func.func @rrelu(%x: !torch.vtensor<[5,3],f32>, %n: !torch.vtensor<[5,3],f32>) -> (!torch.vtensor<[5,3],f32>, !torch.vtensor<[5,3],f32>) {
  %none = torch.constant.none
  %lo = torch.constant.float 4.000000e-01
  %hi = torch.constant.float 6.000000e-01
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  %0 = torch.aten.rrelu_with_noise %x, %n, %lo, %hi, %false, %none : !torch.vtensor<[5,3],f32>, !torch.vtensor<[5,3],f32>, !torch.float, !torch.float, !torch.bool, !torch.none -> !torch.vtensor<[5,3],f32>
  %1 = torch.aten.rrelu_with_noise %x, %n, %lo, %hi, %true, %none : !torch.vtensor<[5,3],f32>, !torch.vtensor<[5,3],f32>, !torch.float, !torch.float, !torch.bool, !torch.none -> !torch.vtensor<[5,3],f32>
  return %0, %1 : !torch.vtensor<[5,3],f32>, !torch.vtensor<[5,3],f32>
}

// Training whose noise is read afterwards (PyTorch writes the slopes into
// it; the value form has no such result): stays.  aten.rrelu in training,
// lower == upper: x * lower where x <= 0, no draw (f64).
// CHECK-LABEL: func.func @rrelu_noise_read(
// CHECK-NOT:     torch.rng_stream
// CHECK:         torch.aten.rrelu_with_noise %arg0, %arg1, %{{.*}}, %{{.*}}, %true
// CHECK:         %[[NEG:.*]] = torch.aten.le.Scalar %arg2, %float0.000000e00
// CHECK:         %[[XS:.*]] = torch.aten.mul.Scalar %arg2, %float2.500000e-01
// CHECK:         torch.aten.where.self %[[NEG]], %[[XS]], %arg2
// CHECK-NOT:     torch.aten.rrelu
func.func @rrelu_noise_read(%x: !torch.vtensor<[5,3],f32>, %n: !torch.vtensor<[5,3],f32>, %y: !torch.vtensor<[4],f64>) -> (!torch.vtensor<[5,3],f32>, !torch.vtensor<[5,3],f32>, !torch.vtensor<[4],f64>) {
  %none = torch.constant.none
  %lo = torch.constant.float 4.000000e-01
  %hi = torch.constant.float 6.000000e-01
  %q = torch.constant.float 2.500000e-01
  %int1 = torch.constant.int 1
  %true = torch.constant.bool true
  %0 = torch.aten.rrelu_with_noise %x, %n, %lo, %hi, %true, %none : !torch.vtensor<[5,3],f32>, !torch.vtensor<[5,3],f32>, !torch.float, !torch.float, !torch.bool, !torch.none -> !torch.vtensor<[5,3],f32>
  %1 = torch.aten.add.Scalar %n, %q, %int1 : !torch.vtensor<[5,3],f32>, !torch.float, !torch.int -> !torch.vtensor<[5,3],f32>
  %2 = torch.aten.rrelu %y, %q, %q, %true, %none : !torch.vtensor<[4],f64>, !torch.float, !torch.float, !torch.bool, !torch.none -> !torch.vtensor<[4],f64>
  return %0, %1, %2 : !torch.vtensor<[5,3],f32>, !torch.vtensor<[5,3],f32>, !torch.vtensor<[4],f64>
}

// asin of an int: f32, atan2(x, sqrt((1 - x)(1 + x))).
// CHECK-LABEL: func.func @asin(
// CHECK:         %[[X:.*]] = torch.aten.to.dtype %arg0, %int6
// CHECK-DAG:     %[[P:.*]] = torch.aten.add.Scalar %[[X]], %float1.000000e00, %int1
// CHECK-DAG:     %[[M:.*]] = torch.aten.rsub.Scalar %[[X]], %float1.000000e00, %int1
// CHECK:         %[[PM:.*]] = torch.aten.mul.Tensor %[[M]], %[[P]]
// CHECK:         %[[S:.*]] = torch.aten.sqrt %[[PM]]
// CHECK:         torch.aten.atan2 %[[X]], %[[S]] : {{.*}} -> !torch.vtensor<[4],f32>
func.func @asin(%x: !torch.vtensor<[4],si32>) -> !torch.vtensor<[4],f32> {
  %0 = torch.aten.asin %x : !torch.vtensor<[4],si32> -> !torch.vtensor<[4],f32>
  return %0 : !torch.vtensor<[4],f32>
}

// sinh of f16 computes in f32 from |x| (expm1 below 20, exp(|x|/2)^2/2
// above), takes x's sign, is x itself below 2^-28, rounds once to f16.
// CHECK-LABEL: func.func @sinh(
// CHECK:         %[[X:.*]] = torch.aten.to.dtype %arg0, %int6
// CHECK:         %[[A:.*]] = torch.aten.abs %[[X]]
// CHECK:         torch.aten.expm1 %[[A]]
// CHECK:         torch.aten.gt.Scalar %[[A]], %float2.000000e01
// CHECK:         torch.aten.neg
// CHECK:         torch.aten.lt.Scalar %[[X]], %float0.000000e00
// CHECK:         %[[T:.*]] = torch.aten.lt.Scalar %[[A]], %float3.7252902984619141E-9
// CHECK:         %[[R:.*]] = torch.aten.where.self %[[T]], %[[X]],
// CHECK:         torch.aten.to.dtype %[[R]], %int5, {{.*}} -> !torch.vtensor<[4],f16>
func.func @sinh(%x: !torch.vtensor<[4],f16>) -> !torch.vtensor<[4],f16> {
  %0 = torch.aten.sinh %x : !torch.vtensor<[4],f16> -> !torch.vtensor<[4],f16>
  return %0 : !torch.vtensor<[4],f16>
}

// bf16's sinh and cosh are inf where exp(|x|) overflows f32 (|x| past
// 88.7228317, the largest f32 with a finite exp), as eager's vectorized
// loop: bf16's 89.0 gives inf, not 2.25e38.  sinh takes the sign after.
// CHECK-LABEL: func.func @sinh_cosh_bf16(
// CHECK:         %[[X:.*]] = torch.aten.to.dtype %arg0, %int6
// CHECK:         %[[A:.*]] = torch.aten.abs %[[X]]
// CHECK:         %[[S:.*]] = torch.aten.where.self {{.*}} -> !torch.vtensor<[4],f32>
// CHECK:         %[[O:.*]] = torch.aten.gt.Scalar %[[A]], %float88.722831726074219
// CHECK:         %[[SI:.*]] = torch.aten.where.ScalarSelf %[[O]], %float0x7FF0000000000000, %[[S]]
// CHECK:         torch.aten.neg %[[SI]]
// CHECK:         torch.aten.to.dtype %{{.*}}, %int15, {{.*}} -> !torch.vtensor<[4],bf16>
// CHECK:         %[[Y:.*]] = torch.aten.to.dtype %{{.*}}, %int6
// CHECK:         %[[B:.*]] = torch.aten.abs %[[Y]]
// CHECK:         torch.aten.exp %[[B]]
// CHECK:         %[[C:.*]] = torch.aten.where.self {{.*}} -> !torch.vtensor<[4],f32>
// CHECK:         %[[P:.*]] = torch.aten.gt.Scalar %[[B]], %float88.722831726074219
// CHECK:         %[[CO:.*]] = torch.aten.where.ScalarSelf %[[P]], %float0x7FF0000000000000, %[[C]]
// CHECK:         torch.aten.to.dtype %[[CO]], %int15, {{.*}} -> !torch.vtensor<[4],bf16>
func.func @sinh_cosh_bf16(%x: !torch.vtensor<[4],bf16>) -> !torch.vtensor<[4],bf16> {
  %0 = torch.aten.sinh %x : !torch.vtensor<[4],bf16> -> !torch.vtensor<[4],bf16>
  %1 = torch.aten.cosh %0 : !torch.vtensor<[4],bf16> -> !torch.vtensor<[4],bf16>
  return %1 : !torch.vtensor<[4],bf16>
}

// nan_to_num's defaults: 0 and f32's extremes.
// CHECK-LABEL: func.func @nan_to_num(
// CHECK:         torch.aten.eq.Scalar %arg0, %float0xFFF0000000000000
// CHECK:         torch.aten.where.ScalarSelf %{{.*}}, %float-3.4028234663852886E38, %arg0
// CHECK:         torch.aten.eq.Scalar %arg0, %float0x7FF0000000000000
// CHECK:         torch.aten.where.ScalarSelf %{{.*}}, %float3.4028234663852886E38,
// CHECK:         torch.aten.isnan %arg0
// CHECK:         torch.aten.where.ScalarSelf %{{.*}}, %float0.000000e00,
func.func @nan_to_num(%x: !torch.vtensor<[4],f32>) -> !torch.vtensor<[4],f32> {
  %none = torch.constant.none
  %0 = torch.aten.nan_to_num %x, %none, %none, %none : !torch.vtensor<[4],f32>, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[4],f32>
  return %0 : !torch.vtensor<[4],f32>
}

// glu: the halves along dim as slices; an odd extent stays.
// CHECK-LABEL: func.func @glu(
// CHECK:         %[[A:.*]] = torch.aten.slice.Tensor %arg0, %int1, %int0, %int3, %int1
// CHECK:         %[[B:.*]] = torch.aten.slice.Tensor %arg0, %int1, %int3, %int6, %int1
// CHECK:         %[[S:.*]] = torch.aten.sigmoid %[[B]]
// CHECK:         torch.aten.mul.Tensor %[[A]], %[[S]] : {{.*}} -> !torch.vtensor<[3,3],f32>
// CHECK-LABEL: func.func @glu_odd(
// CHECK:         torch.aten.glu
func.func @glu(%x: !torch.vtensor<[3,6],f32>) -> !torch.vtensor<[3,3],f32> {
  %int-1 = torch.constant.int -1
  %0 = torch.aten.glu %x, %int-1 : !torch.vtensor<[3,6],f32>, !torch.int -> !torch.vtensor<[3,3],f32>
  return %0 : !torch.vtensor<[3,3],f32>
}
func.func @glu_odd(%x: !torch.vtensor<[3,5],f32>) -> !torch.vtensor<[3,2],f32> {
  %int-1 = torch.constant.int -1
  %0 = torch.aten.glu %x, %int-1 : !torch.vtensor<[3,5],f32>, !torch.int -> !torch.vtensor<[3,2],f32>
  return %0 : !torch.vtensor<[3,2],f32>
}

// prelu: the weight viewed as [1, C, 1].
// CHECK-LABEL: func.func @prelu(
// CHECK:         %[[W:.*]] = torch.aten.view %arg1, %{{.*}} -> !torch.vtensor<[1,3,1],f32>
// CHECK:         %[[M:.*]] = torch.aten.mul.Tensor %arg0, %[[W]]
// CHECK:         %[[P:.*]] = torch.aten.gt.Scalar %arg0, %int0
// CHECK:         torch.aten.where.self %[[P]], %arg0, %[[M]]
func.func @prelu(%x: !torch.vtensor<[2,3,4],f32>, %w: !torch.vtensor<[3],f32>) -> !torch.vtensor<[2,3,4],f32> {
  %0 = torch.aten.prelu %x, %w : !torch.vtensor<[2,3,4],f32>, !torch.vtensor<[3],f32> -> !torch.vtensor<[2,3,4],f32>
  return %0 : !torch.vtensor<[2,3,4],f32>
}

// round.decimals: round(x * 100) / 100.
// CHECK-LABEL: func.func @round_dec(
// CHECK:         %[[M:.*]] = torch.aten.mul.Scalar %arg0, %float1.000000e02
// CHECK:         %[[R:.*]] = torch.aten.round %[[M]]
// CHECK:         torch.aten.div.Scalar %[[R]], %float1.000000e02
func.func @round_dec(%x: !torch.vtensor<[4],f32>) -> !torch.vtensor<[4],f32> {
  %int2 = torch.constant.int 2
  %0 = torch.aten.round.decimals %x, %int2 : !torch.vtensor<[4],f32>, !torch.int -> !torch.vtensor<[4],f32>
  return %0 : !torch.vtensor<[4],f32>
}

// copysign: |a| or -|a| by signbit(b), a contract op (-0.0 and -NaN count);
// an int a converts to the float result first.
// CHECK-LABEL: func.func @copysign(
// CHECK:         %[[X:.*]] = torch.aten.to.dtype %arg0, %int6
// CHECK:         %[[A:.*]] = torch.aten.abs %[[X]]
// CHECK:         %[[S:.*]] = torch.aten.signbit %arg1 : !torch.vtensor<[4],f32> -> !torch.vtensor<[4],i1>
// CHECK:         %[[N:.*]] = torch.aten.neg %[[A]]
// CHECK:         torch.aten.where.self %[[S]], %[[N]], %[[A]] : {{.*}} -> !torch.vtensor<[2,4],f32>
func.func @copysign(%a: !torch.vtensor<[2,4],si32>, %b: !torch.vtensor<[4],f32>) -> !torch.vtensor<[2,4],f32> {
  %0 = torch.aten.copysign.Tensor %a, %b : !torch.vtensor<[2,4],si32>, !torch.vtensor<[4],f32> -> !torch.vtensor<[2,4],f32>
  return %0 : !torch.vtensor<[2,4],f32>
}

// logaddexp: max + log1p(exp(-|a - b|)); equal infinities give a.
// CHECK-LABEL: func.func @logaddexp(
// CHECK:         %[[D:.*]] = torch.aten.sub.Tensor %arg0, %arg1, %int1
// CHECK:         %[[AB:.*]] = torch.aten.abs %[[D]]
// CHECK:         %[[NG:.*]] = torch.aten.neg %[[AB]]
// CHECK:         %[[E:.*]] = torch.aten.exp %[[NG]]
// CHECK:         %[[L:.*]] = torch.aten.log1p %[[E]]
// CHECK:         %[[M:.*]] = torch.aten.maximum %arg0, %arg1
// CHECK:         %[[R:.*]] = torch.aten.add.Tensor %[[M]], %[[L]], %int1
// CHECK-DAG:     %[[I:.*]] = torch.aten.isinf %arg0
// CHECK-DAG:     %[[EQ:.*]] = torch.aten.eq.Tensor %arg0, %arg1
// CHECK:         %[[C:.*]] = torch.aten.logical_and %[[I]], %[[EQ]]
// CHECK:         torch.aten.where.self %[[C]], %arg0, %[[R]]
func.func @logaddexp(%a: !torch.vtensor<[3],f32>, %b: !torch.vtensor<[3],f32>) -> !torch.vtensor<[3],f32> {
  %0 = torch.aten.logaddexp %a, %b : !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32> -> !torch.vtensor<[3],f32>
  return %0 : !torch.vtensor<[3],f32>
}

// hardshrink of f64: 0.0 on [-l, l]; fmax: a NaN operand gives the other.
// CHECK-LABEL: func.func @hardshrink_fmax(
// CHECK-DAG:     %[[GE:.*]] = torch.aten.ge.Scalar %arg0, %float-5.000000e-01
// CHECK-DAG:     %[[LE:.*]] = torch.aten.le.Scalar %arg0, %float5.000000e-01
// CHECK:         %[[IN:.*]] = torch.aten.logical_and %[[GE]], %[[LE]]
// CHECK:         %[[H:.*]] = torch.aten.where.ScalarSelf %[[IN]], %float0.000000e00, %arg0 : {{.*}} -> !torch.vtensor<[3],f64>
// CHECK:         %[[MX:.*]] = torch.aten.maximum %[[H]], %arg0
// CHECK-DAG:     %[[NX:.*]] = torch.aten.isnan %[[H]]
// CHECK-DAG:     %[[NY:.*]] = torch.aten.isnan %arg0
// CHECK-DAG:     %[[W:.*]] = torch.aten.where.self %[[NY]], %[[H]], %[[MX]]
// CHECK:         torch.aten.where.self %[[NX]], %arg0, %[[W]]
func.func @hardshrink_fmax(%x: !torch.vtensor<[3],f64>) -> !torch.vtensor<[3],f64> {
  %float5 = torch.constant.float 5.000000e-01
  %0 = torch.aten.hardshrink %x, %float5 : !torch.vtensor<[3],f64>, !torch.float -> !torch.vtensor<[3],f64>
  %1 = torch.aten.fmax %0, %x : !torch.vtensor<[3],f64>, !torch.vtensor<[3],f64> -> !torch.vtensor<[3],f64>
  return %1 : !torch.vtensor<[3],f64>
}
