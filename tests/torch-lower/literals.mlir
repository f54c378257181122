// RUN: torch-lower %s | FileCheck %s
// RUN: torch-lower %s | mlir-opt-16 > /dev/null
// Weights: torch.vtensor.literal becomes arith.constant with the same dense
// or dense_resource payload on the builtin type (si64 -> i64, ui8 -> i8);
// the resource blob is kept.
// CHECK-LABEL: func.func @weights() -> (tensor<2xf32>, tensor<2xi64>, tensor<3xi8> {fxpipe.unsigned})
// CHECK-DAG: arith.constant dense_resource<w0> : tensor<2xf32>
// CHECK-DAG: arith.constant dense<[7, -1]> : tensor<2xi64>
// CHECK-DAG: arith.constant dense<[1, 2, -1]> : tensor<3xi8>
// CHECK-NOT: torch
// CHECK: dialect_resources
// CHECK: w0: "0x040000000000803F00000040"
func.func @weights() -> (!torch.vtensor<[2],f32>, !torch.vtensor<[2],si64>, !torch.vtensor<[3],ui8>) {
  %0 = torch.vtensor.literal(dense_resource<w0> : tensor<2xf32>) : !torch.vtensor<[2],f32>
  %1 = torch.vtensor.literal(dense<[7, -1]> : tensor<2xsi64>) : !torch.vtensor<[2],si64>
  %2 = torch.vtensor.literal(dense<[1, 2, 255]> : tensor<3xui8>) : !torch.vtensor<[3],ui8>
  return %0, %1, %2 : !torch.vtensor<[2],f32>, !torch.vtensor<[2],si64>, !torch.vtensor<[3],ui8>
}
{-#
  dialect_resources: {
    builtin: {
      w0: "0x040000000000803F00000040"
    }
  }
#-}
