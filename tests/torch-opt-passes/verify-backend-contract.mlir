// RUN: not torch-opt -p torch-verify-backend-contract %s 2>&1 | FileCheck %s
// RUN: not torch-opt %S/inputs/unsupported.mlir 2>&1 | FileCheck %S/inputs/unsupported.mlir
// RUN: torch-opt -p torch-verify-backend-contract %S/inputs/contract-ok.mlir | FileCheck %S/inputs/contract-ok.mlir

// Every offender is listed at its location with the reason.
// CHECK: verify-backend-contract.mlir:[[@LINE+6]]:1: error: argument #0 of 'func.func' (!torch.tensor<[2],f32>) is not value-semantic
// CHECK: verify-backend-contract.mlir:[[@LINE+6]]:8: error: 'torch.copy.to_vtensor' is not supported by the backend contract
// CHECK: verify-backend-contract.mlir:[[@LINE+6]]:8: error: 'aten.foo.bar' is not supported by the backend contract
// CHECK: verify-backend-contract.mlir:[[@LINE+5]]:8: error: result #0 of 'torch.operator' (!torch.vtensor<*,f32>) has no known rank
// CHECK: verify-backend-contract.mlir:[[@LINE+5]]:10: error: 'aten.native_batch_norm' is not supported by the backend contract
// CHECK: verify-backend-contract.mlir:[[@LINE+5]]:8: error: result #0 of 'torch.aten.relu' (!torch.vtensor<[2],unk>) has no known dtype
func.func @bad(%arg0: !torch.tensor<[2],f32>, %arg1: !torch.vtensor<[1,3,2,2],f32>, %none: !torch.none, %b: !torch.bool, %f: !torch.float) -> () {
  %0 = torch.copy.to_vtensor %arg0 : !torch.vtensor<[2],f32>
  %1 = torch.operator "aten.foo.bar"(%0) : (!torch.vtensor<[2],f32>) -> !torch.vtensor<*,f32>
  %2:3 = torch.aten.native_batch_norm %arg1, %none, %none, %none, %none, %b, %f, %f : !torch.vtensor<[1,3,2,2],f32>, !torch.none, !torch.none, !torch.none, !torch.none, !torch.bool, !torch.float, !torch.float -> !torch.vtensor<[1,3,2,2],f32>, !torch.vtensor<[0],f32>, !torch.vtensor<[0],f32>
  %3 = torch.aten.relu %0 : !torch.vtensor<[2],f32> -> !torch.vtensor<[2],unk>
  return
}


// f8 and complex dtypes parse and print, but have no kernels: refused at
// the contract, not left to fail later in torch-lower.
// RUN: not torch-opt %S/inputs/f8-complex.mlir 2>&1 | FileCheck %s --check-prefix=F8
// F8: f8-complex.mlir:1:1: error: argument #0 of 'func.func' (!torch.vtensor<[2],f8E4M3FN>) has a dtype the backend has no kernels for
// F8: f8-complex.mlir:2:8: error: result #0 of 'torch.aten.relu' (!torch.vtensor<[2],f8E4M3FN>) has a dtype the backend has no kernels for
// F8: f8-complex.mlir:5:1: error: argument #0 of 'func.func' (!torch.vtensor<[3],complex<f32>>) has a dtype the backend has no kernels for
