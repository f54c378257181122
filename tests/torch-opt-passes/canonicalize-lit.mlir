// RUN: torch-opt -canonicalize -split-input-file %s | FileCheck %s
// RUN: torch-opt -p 'func.func(canonicalize{torch-mlir-forms=0})' -split-input-file %s | FileCheck %s --check-prefix=KEEP

// pow.Tensor_Tensor with a 0-d literal exponent of x's float dtype is
// pow.Tensor_Scalar; not for exponents PyTorch's scalar kernel treats
// specially (integral, +-0.5), nor another dtype, nor rank > 0.
// CHECK-LABEL: func.func @pow_tt(
// CHECK-SAME: %[[X:.*]]: !torch.vtensor<[?,?],f32>, %[[Y:.*]]: !torch.vtensor<[?,?],f64>
// CHECK-DAG: %[[E:.*]] = torch.constant.float 3.500000e+00
// CHECK-DAG: %[[E2:.*]] = torch.constant.float -1.250000e+00
// CHECK-DAG: %[[A:.*]] = torch.aten.pow.Tensor_Scalar %[[X]], %[[E]] : !torch.vtensor<[?,?],f32>, !torch.float -> !torch.vtensor<[?,?],f32>
// CHECK-DAG: %[[F:.*]] = torch.aten.pow.Tensor_Scalar %[[Y]], %[[E2]] : !torch.vtensor<[?,?],f64>, !torch.float -> !torch.vtensor<[?,?],f64>
// CHECK-COUNT-4: torch.aten.pow.Tensor_Tensor
// CHECK-NOT: torch.aten.pow.Tensor_Tensor
// CHECK: return %[[A]], %[[F]],
func.func @pow_tt(%x: !torch.vtensor<[?,?],f32>, %y: !torch.vtensor<[?,?],f64>) -> (!torch.vtensor<[?,?],f32>, !torch.vtensor<[?,?],f64>, !torch.vtensor<[?,?],f32>, !torch.vtensor<[?,?],f32>, !torch.vtensor<[?,?],f32>, !torch.vtensor<[?,?],f32>) {
  %e = torch.vtensor.literal(dense<3.500000e+00> : tensor<f32>) : !torch.vtensor<[],f32>
  %e2 = torch.vtensor.literal(dense<-1.250000e+00> : tensor<f64>) : !torch.vtensor<[],f64>
  %three = torch.vtensor.literal(dense<3.000000e+00> : tensor<f32>) : !torch.vtensor<[],f32>
  %half = torch.vtensor.literal(dense<5.000000e-01> : tensor<f32>) : !torch.vtensor<[],f32>
  %d64 = torch.vtensor.literal(dense<3.500000e+00> : tensor<f64>) : !torch.vtensor<[],f64>
  %r1 = torch.vtensor.literal(dense<3.500000e+00> : tensor<1xf32>) : !torch.vtensor<[1],f32>
  %0 = torch.aten.pow.Tensor_Tensor %x, %e : !torch.vtensor<[?,?],f32>, !torch.vtensor<[],f32> -> !torch.vtensor<[?,?],f32>
  %1 = torch.aten.pow.Tensor_Tensor %y, %e2 : !torch.vtensor<[?,?],f64>, !torch.vtensor<[],f64> -> !torch.vtensor<[?,?],f64>
  %2 = torch.aten.pow.Tensor_Tensor %x, %three : !torch.vtensor<[?,?],f32>, !torch.vtensor<[],f32> -> !torch.vtensor<[?,?],f32>
  %3 = torch.aten.pow.Tensor_Tensor %x, %half : !torch.vtensor<[?,?],f32>, !torch.vtensor<[],f32> -> !torch.vtensor<[?,?],f32>
  %4 = torch.aten.pow.Tensor_Tensor %x, %d64 : !torch.vtensor<[?,?],f32>, !torch.vtensor<[],f64> -> !torch.vtensor<[?,?],f32>
  %5 = torch.aten.pow.Tensor_Tensor %x, %r1 : !torch.vtensor<[?,?],f32>, !torch.vtensor<[1],f32> -> !torch.vtensor<[?,?],f32>
  return %0, %1, %2, %3, %4, %5 : !torch.vtensor<[?,?],f32>, !torch.vtensor<[?,?],f64>, !torch.vtensor<[?,?],f32>, !torch.vtensor<[?,?],f32>, !torch.vtensor<[?,?],f32>, !torch.vtensor<[?,?],f32>
}

// -----

// log of a splat 1 is 0 and of a splat 0 is -inf (bool, int, float);
// other values stay (log is not correctly rounded in PyTorch).
// CHECK-LABEL: func.func @log_splat(
// CHECK-DAG: %[[Z:.*]] = torch.vtensor.literal(dense<0.000000e+00> : tensor<4xf32>) : !torch.vtensor<[4],f32>
// CHECK-DAG: %[[N:.*]] = torch.vtensor.literal(dense<0xFFF0000000000000> : tensor<2xf64>) : !torch.vtensor<[2],f64>
// CHECK-DAG: %[[Z2:.*]] = torch.vtensor.literal(dense<0.000000e+00> : tensor<3xf32>) : !torch.vtensor<[3],f32>
// CHECK: %[[L:.*]] = torch.aten.log %{{.*}} : !torch.vtensor<[4],f32> -> !torch.vtensor<[4],f32>
// CHECK: return %[[Z]], %[[N]], %[[Z2]], %[[L]]
func.func @log_splat() -> (!torch.vtensor<[4],f32>, !torch.vtensor<[2],f64>, !torch.vtensor<[3],f32>, !torch.vtensor<[4],f32>) {
  %t = torch.vtensor.literal(dense<true> : tensor<4xi1>) : !torch.vtensor<[4],i1>
  %z = torch.vtensor.literal(dense<0> : tensor<2xsi64>) : !torch.vtensor<[2],si64>
  %o = torch.vtensor.literal(dense<1.000000e+00> : tensor<3xf32>) : !torch.vtensor<[3],f32>
  %three = torch.vtensor.literal(dense<3.000000e+00> : tensor<4xf32>) : !torch.vtensor<[4],f32>
  %0 = torch.aten.log %t : !torch.vtensor<[4],i1> -> !torch.vtensor<[4],f32>
  %1 = torch.aten.log %z : !torch.vtensor<[2],si64> -> !torch.vtensor<[2],f64>
  %2 = torch.aten.log %o : !torch.vtensor<[3],f32> -> !torch.vtensor<[3],f32>
  %3 = torch.aten.log %three : !torch.vtensor<[4],f32> -> !torch.vtensor<[4],f32>
  return %0, %1, %2, %3 : !torch.vtensor<[4],f32>, !torch.vtensor<[2],f64>, !torch.vtensor<[3],f32>, !torch.vtensor<[4],f32>
}

// -----

// ones, zeros and full of constant sizes are splat literals of the
// result's dtype; full only with a value the dtype holds as PyTorch fills
// it (f16 0.1 would round twice, 300 overflows si8, an int into a float
// tensor, 2 into bool).  torch-mlir-forms=0 (the default pipeline's)
// leaves them all.
// CHECK-LABEL: func.func @fills(
// CHECK-DAG: torch.vtensor.literal(dense<1.000000e+00> : tensor<2x3xf32>) : !torch.vtensor<[2,3],f32>
// CHECK-DAG: torch.vtensor.literal(dense<0> : tensor<2x3xsi64>) : !torch.vtensor<[2,3],si64>
// CHECK-DAG: torch.vtensor.literal(dense<true> : tensor<4xi1>) : !torch.vtensor<[4],i1>
// CHECK-DAG: torch.vtensor.literal(dense<0xFF800000> : tensor<1024x1024xf32>) : !torch.vtensor<[1024,1024],f32>
// CHECK-DAG: torch.vtensor.literal(dense<5.000000e-01> : tensor<4xbf16>) : !torch.vtensor<[4],bf16>
// CHECK-DAG: torch.vtensor.literal(dense<1.000000e-01> : tensor<4xf64>) : !torch.vtensor<[4],f64>
// CHECK-DAG: torch.vtensor.literal(dense<-9223372036854775808> : tensor<4xsi64>) : !torch.vtensor<[4],si64>
// CHECK-DAG: torch.vtensor.literal(dense<-128> : tensor<4xsi8>) : !torch.vtensor<[4],si8>
// CHECK-COUNT-5: torch.aten.full
// CHECK-NOT: torch.aten.full
// CHECK: torch.aten.zeros %{{.*}} -> !torch.vtensor<[?],f32>
// CHECK: return
// KEEP-LABEL: func.func @fills(
// KEEP-NOT: torch.vtensor.literal
// KEEP: return
func.func @fills(%n: !torch.int) -> (!torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],si64>, !torch.vtensor<[4],i1>, !torch.vtensor<[1024,1024],f32>, !torch.vtensor<[4],bf16>, !torch.vtensor<[4],f64>, !torch.vtensor<[4],si64>, !torch.vtensor<[4],si8>, !torch.vtensor<[4],f16>, !torch.vtensor<[4],si8>, !torch.vtensor<[4],f32>, !torch.vtensor<[4],i1>, !torch.vtensor<[4],f32>, !torch.vtensor<[?],f32>) {
  %none = torch.constant.none
  %int2 = torch.constant.int 2
  %int3 = torch.constant.int 3
  %int4 = torch.constant.int 4
  %int1024 = torch.constant.int 1024
  %ninf = torch.constant.float 0xFFF0000000000000
  %half = torch.constant.float 5.000000e-01
  %tenth = torch.constant.float 1.000000e-01
  %big = torch.constant.float 1.000000e+300
  %min64 = torch.constant.int -9223372036854775808
  %m128 = torch.constant.int -128
  %i300 = torch.constant.int 300
  %s23 = torch.prim.ListConstruct %int2, %int3 : (!torch.int, !torch.int) -> !torch.list<int>
  %s4 = torch.prim.ListConstruct %int4 : (!torch.int) -> !torch.list<int>
  %sk = torch.prim.ListConstruct %int1024, %int1024 : (!torch.int, !torch.int) -> !torch.list<int>
  %sn = torch.prim.ListConstruct %n : (!torch.int) -> !torch.list<int>
  %0 = torch.aten.ones %s23, %none, %none, %none, %none : !torch.list<int>, !torch.none, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[2,3],f32>
  %1 = torch.aten.zeros %s23, %none, %none, %none, %none : !torch.list<int>, !torch.none, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[2,3],si64>
  %2 = torch.aten.ones %s4, %none, %none, %none, %none : !torch.list<int>, !torch.none, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[4],i1>
  %3 = torch.aten.full %sk, %ninf, %none, %none, %none, %none : !torch.list<int>, !torch.float, !torch.none, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[1024,1024],f32>
  %4 = torch.aten.full %s4, %half, %none, %none, %none, %none : !torch.list<int>, !torch.float, !torch.none, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[4],bf16>
  %5 = torch.aten.full %s4, %tenth, %none, %none, %none, %none : !torch.list<int>, !torch.float, !torch.none, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[4],f64>
  %6 = torch.aten.full %s4, %min64, %none, %none, %none, %none : !torch.list<int>, !torch.int, !torch.none, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[4],si64>
  %7 = torch.aten.full %s4, %m128, %none, %none, %none, %none : !torch.list<int>, !torch.int, !torch.none, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[4],si8>
  %8 = torch.aten.full %s4, %tenth, %none, %none, %none, %none : !torch.list<int>, !torch.float, !torch.none, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[4],f16>
  %9 = torch.aten.full %s4, %i300, %none, %none, %none, %none : !torch.list<int>, !torch.int, !torch.none, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[4],si8>
  %10 = torch.aten.full %s4, %int3, %none, %none, %none, %none : !torch.list<int>, !torch.int, !torch.none, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[4],f32>
  %11 = torch.aten.full %s4, %int2, %none, %none, %none, %none : !torch.list<int>, !torch.int, !torch.none, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[4],i1>
  %12 = torch.aten.full %s4, %big, %none, %none, %none, %none : !torch.list<int>, !torch.float, !torch.none, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[4],f32>
  %13 = torch.aten.zeros %sn, %none, %none, %none, %none : !torch.list<int>, !torch.none, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[?],f32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13 : !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],si64>, !torch.vtensor<[4],i1>, !torch.vtensor<[1024,1024],f32>, !torch.vtensor<[4],bf16>, !torch.vtensor<[4],f64>, !torch.vtensor<[4],si64>, !torch.vtensor<[4],si8>, !torch.vtensor<[4],f16>, !torch.vtensor<[4],si8>, !torch.vtensor<[4],f32>, !torch.vtensor<[4],i1>, !torch.vtensor<[4],f32>, !torch.vtensor<[?],f32>
}

// -----

// _int_mm of si8 operands is mm of the same si32 result type (linalg's
// matmul widens the operands to the result's element type).
// CHECK-LABEL: func.func @int_mm(
// CHECK: torch.aten.mm %arg0, %arg1 : !torch.vtensor<[3,4],si8>, !torch.vtensor<[4,3],si8> -> !torch.vtensor<[3,3],si32>
// CHECK-NOT: _int_mm
// KEEP-LABEL: func.func @int_mm(
// KEEP: torch.aten._int_mm
func.func @int_mm(%arg0: !torch.vtensor<[3,4],si8>, %arg1: !torch.vtensor<[4,3],si8>) -> !torch.vtensor<[3,3],si32> {
  %0 = torch.aten._int_mm %arg0, %arg1 : !torch.vtensor<[3,4],si8>, !torch.vtensor<[4,3],si8> -> !torch.vtensor<[3,3],si32>
  return %0 : !torch.vtensor<[3,3],si32>
}
