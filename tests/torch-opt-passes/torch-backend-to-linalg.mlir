// RUN: torch-opt -p 'builtin.module(torch-func-backend-type-conversion)' -split-input-file %s | FileCheck %s --check-prefix=SIG
// RUN: torch-opt -p 'builtin.module(torch-backend-to-linalg-on-tensors-backend-pipeline)' -split-input-file -verify-diagnostics %s | FileCheck %s
// RUN: torch-opt -p 'builtin.module(torch-backend-to-linalg-on-tensors-backend-pipeline{allow-non-finites=false})' -split-input-file -verify-diagnostics %s | FileCheck %s --check-prefix=FINITE
// RUN: not torch-opt -p 'builtin.module(torch-backend-to-linalg-on-tensors-backend-pipeline{allow-non-finites=maybe})' %s 2>&1 | FileCheck %s --check-prefix=BADOPT

// BADOPT: allow-non-finites option: 'maybe' is invalid

// The signature becomes builtin; arguments reach torch users through
// from_*, returns take to_*.
// SIG-LABEL: func.func @sig(
// SIG-SAME:      %[[A:.*]]: tensor<2x?xf32>, %[[N:.*]]: i64) -> (tensor<2x?xf32>, i64) {
// SIG:         %[[AT:.*]] = torch_c.from_builtin_tensor %[[A]] : tensor<2x?xf32> -> !torch.vtensor<[2,?],f32>
// SIG:         %[[NT:.*]] = torch_c.from_i64 %[[N]]
// SIG:         %[[R:.*]] = torch.aten.neg %[[AT]]
// SIG:         %[[RB:.*]] = torch_c.to_builtin_tensor %[[R]] : !torch.vtensor<[2,?],f32> -> tensor<2x?xf32>
// SIG:         %[[NB:.*]] = torch_c.to_i64 %[[NT]]
// SIG:         return %[[RB]], %[[NB]] : tensor<2x?xf32>, i64

// The pipeline: linalg on builtin tensors, no torch_c left.
// CHECK-LABEL: func.func @sig(
// CHECK-SAME:      %[[A:.*]]: tensor<2x?xf32>, %[[N:.*]]: i64) -> (tensor<2x?xf32>, i64) {
// CHECK-NOT:     torch
// CHECK:         %[[G:.*]] = linalg.generic {{.*}} ins(%[[A]] : tensor<2x?xf32>)
// CHECK:           arith.negf
// CHECK:         return %[[G]], %[[N]] : tensor<2x?xf32>, i64
func.func @sig(%a: !torch.vtensor<[2,?],f32>, %n: !torch.int) -> (!torch.vtensor<[2,?],f32>, !torch.int) {
  %0 = torch.aten.neg %a : !torch.vtensor<[2,?],f32> -> !torch.vtensor<[2,?],f32>
  return %0, %n : !torch.vtensor<[2,?],f32>, !torch.int
}

// -----

// A builtin function around torch ops (torch-mlir's own test form); the
// option reaches convert-torch-to-linalg.
// CHECK-LABEL: func.func @amin(
// CHECK:         arith.constant 0x7F800000 : f32
// CHECK-NOT:     torch
// FINITE-LABEL:  func.func @amin(
// FINITE:        arith.constant 3.40282347E+38 : f32
// FINITE-NOT:    0x7F800000
func.func @amin(%arg0: tensor<3x2xf32>) -> tensor<3xf32> {
  %0 = torch_c.from_builtin_tensor %arg0 : tensor<3x2xf32> -> !torch.vtensor<[3,2],f32>
  %int1 = torch.constant.int 1
  %false = torch.constant.bool false
  %dims = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %1 = torch.aten.amin %0, %dims, %false : !torch.vtensor<[3,2],f32>, !torch.list<int>, !torch.bool -> !torch.vtensor<[3],f32>
  %2 = torch_c.to_builtin_tensor %1 : !torch.vtensor<[3],f32> -> tensor<3xf32>
  return %2 : tensor<3xf32>
}

// -----

// A torch op no lowering takes is left, and the finalizing pass refuses
// the boundary it needs (at the argument).
// expected-error @+1 {{failed to legalize operation 'torch_c.from_builtin_tensor'}}
func.func @left(%arg0: !torch.vtensor<[3],f32>) -> !torch.vtensor<[3],f32> {
  %0 = torch.aten.special_entr %arg0 : !torch.vtensor<[3],f32> -> !torch.vtensor<[3],f32>
  return %0 : !torch.vtensor<[3],f32>
}
