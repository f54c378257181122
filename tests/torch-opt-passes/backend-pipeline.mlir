// RUN: torch-opt %s | FileCheck %s
// RUN: torch-opt -p torch-backend-pipeline %s | FileCheck %s

// The default pipeline on torch IR: empty + fill_ is full, empty + copy_
// is the source broadcast to the destination; no copies are left.
// CHECK-LABEL: func.func @main(
// CHECK-NOT:     torch.copy
// CHECK:         %[[S:.*]] = torch.prim.ListConstruct %int2, %int3
// CHECK-NEXT:    %[[F:.*]] = torch.aten.full %[[S]], %float5.000000e-01, %int6, %none, %none, %none
// CHECK-NEXT:    %[[E:.*]] = torch.aten.expand %arg0, %[[S]], %false
// CHECK-NEXT:    return %[[F]], %[[E]]
func.func @main(%x: !torch.vtensor<[3],f32>) -> (!torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],f32>) {
  %int2 = torch.constant.int 2
  %int3 = torch.constant.int 3
  %none = torch.constant.none
  %false = torch.constant.bool false
  %float = torch.constant.float 5.000000e-01
  %s = torch.prim.ListConstruct %int2, %int3 : (!torch.int, !torch.int) -> !torch.list<int>
  %e = torch.aten.empty.memory_format %s, %none, %none, %none, %none, %none : !torch.list<int>, !torch.none, !torch.none, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[2,3],f32>
  %t = torch.copy.to_tensor %e : !torch.tensor<[2,3],f32>
  %0 = torch.aten.fill_.Scalar %t, %float : !torch.tensor<[2,3],f32>, !torch.float -> !torch.tensor<[2,3],f32>
  %1 = torch.copy.to_vtensor %t : !torch.vtensor<[2,3],f32>
  %e2 = torch.aten.empty.memory_format %s, %none, %none, %none, %none, %none : !torch.list<int>, !torch.none, !torch.none, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[2,3],f32>
  %t2 = torch.copy.to_tensor %e2 : !torch.tensor<[2,3],f32>
  %2 = torch.aten.copy_ %t2, %x, %false : !torch.tensor<[2,3],f32>, !torch.vtensor<[3],f32>, !torch.bool -> !torch.tensor<[2,3],f32>
  %3 = torch.copy.to_vtensor %t2 : !torch.vtensor<[2,3],f32>
  return %1, %3 : !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],f32>
}
