// RUN: torch-opt -canonicalize -split-input-file %s | FileCheck %s

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
