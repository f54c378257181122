// RUN: not torch-opt %s -canonicalize 2>&1 | FileCheck %s
// RUN: torch-opt %s -canonicalize -verify-diagnostics

// An _assert_tensor_metadata sure to fail (eager raises there) is an error
// of canonicalize (lib/torch/canon_ctrl.c), reported once each, and the
// pass fails.  Its static size/dtype against a constant one: another dtype
// code, another rank, another static extent.

// CHECK-COUNT-1: error: 'torch.aten._assert_tensor_metadata' op Failed to canonicalize the _assert_tensor_metadata op since the dtype does not match
// CHECK-COUNT-2: error: 'torch.aten._assert_tensor_metadata' op Failed to canonicalize the _assert_tensor_metadata op since the sizes do not match
// CHECK-NOT: error

func.func @dtype(%a: !torch.vtensor<[2,3],f32>) {
  %none = torch.constant.none
  %int7 = torch.constant.int 7
  // expected-error @+1 {{'torch.aten._assert_tensor_metadata' op Failed to canonicalize the _assert_tensor_metadata op since the dtype does not match}}
  torch.aten._assert_tensor_metadata %a, %none, %none, %int7, %none, %none : !torch.vtensor<[2,3],f32>, !torch.none, !torch.none, !torch.int, !torch.none, !torch.none
  return
}

func.func @rank(%a: !torch.vtensor<[2,3],f32>) {
  %none = torch.constant.none
  %int2 = torch.constant.int 2
  %l = torch.prim.ListConstruct %int2 : (!torch.int) -> !torch.list<int>
  // expected-error @+1 {{'torch.aten._assert_tensor_metadata' op Failed to canonicalize the _assert_tensor_metadata op since the sizes do not match}}
  torch.aten._assert_tensor_metadata %a, %l, %none, %none, %none, %none : !torch.vtensor<[2,3],f32>, !torch.list<int>, !torch.none, !torch.none, !torch.none, !torch.none
  return
}

func.func @extent(%a: !torch.vtensor<[?,3],f32>) {
  %none = torch.constant.none
  %int2 = torch.constant.int 2
  %int4 = torch.constant.int 4
  %int6 = torch.constant.int 6
  %l = torch.prim.ListConstruct %int2, %int4 : (!torch.int, !torch.int) -> !torch.list<int>
  // expected-error @+1 {{'torch.aten._assert_tensor_metadata' op Failed to canonicalize the _assert_tensor_metadata op since the sizes do not match}}
  torch.aten._assert_tensor_metadata %a, %l, %none, %int6, %none, %none : !torch.vtensor<[?,3],f32>, !torch.list<int>, !torch.none, !torch.int, !torch.none, !torch.none
  return
}
