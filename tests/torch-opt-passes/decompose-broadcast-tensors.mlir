// RUN: torch-opt -p 'func.func(torch-decompose)' --split-input-file %s | FileCheck %s

// Each tensor expanded to the common shape (one already of it is kept);
// the unpacking's users take the tensors, the unpacking goes.
// CHECK-LABEL: func.func @unpacked(
// CHECK-SAME:      %[[A:.*]]: !torch.vtensor<[1,3],f32>, %[[B:.*]]: !torch.vtensor<[2,1],si32>, %[[C:.*]]: !torch.vtensor<[2,3],f32>)
// CHECK:         %[[EA:.*]] = torch.aten.expand %[[A]], %[[S:.*]], %{{.*}} : !torch.vtensor<[1,3],f32>, !torch.list<int>, !torch.bool -> !torch.vtensor<[2,3],f32>
// CHECK:         %[[EB:.*]] = torch.aten.expand %[[B]], %[[S]], %{{.*}} : !torch.vtensor<[2,1],si32>, !torch.list<int>, !torch.bool -> !torch.vtensor<[2,3],si32>
// CHECK-NOT:     torch.prim.ListUnpack
// CHECK-NOT:     torch.aten.broadcast_tensors
// CHECK:         return %[[EA]], %[[EB]], %[[C]]
func.func @unpacked(%a: !torch.vtensor<[1,3],f32>, %b: !torch.vtensor<[2,1],si32>, %c: !torch.vtensor<[2,3],f32>) -> (!torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],si32>, !torch.vtensor<[2,3],f32>) {
  %0 = torch.prim.ListConstruct %a, %b, %c : (!torch.vtensor<[1,3],f32>, !torch.vtensor<[2,1],si32>, !torch.vtensor<[2,3],f32>) -> !torch.list<vtensor>
  %1 = torch.aten.broadcast_tensors %0 : !torch.list<vtensor> -> !torch.list<vtensor>
  %2:3 = torch.prim.ListUnpack %1 : !torch.list<vtensor> -> !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],si32>, !torch.vtensor<[2,3],f32>
  return %2#0, %2#1, %2#2 : !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],si32>, !torch.vtensor<[2,3],f32>
}

// -----

// Returned as a list: a list of the expanded tensors.
// CHECK-LABEL: func.func @as_list(
// CHECK:         %[[E0:.*]] = torch.aten.expand
// CHECK:         %[[E1:.*]] = torch.aten.expand
// CHECK:         %[[L:.*]] = torch.prim.ListConstruct %[[E0]], %[[E1]] : (!torch.vtensor<[4,2],f32>, !torch.vtensor<[4,2],f32>) -> !torch.list<vtensor<[4,2],f32>>
// CHECK-NEXT:    return %[[L]]
func.func @as_list(%a: !torch.vtensor<[4,1],f32>, %b: !torch.vtensor<[2],f32>) -> !torch.list<vtensor<[4,2],f32>> {
  %0 = torch.prim.ListConstruct %a, %b : (!torch.vtensor<[4,1],f32>, !torch.vtensor<[2],f32>) -> !torch.list<vtensor>
  %1 = torch.aten.broadcast_tensors %0 : !torch.list<vtensor> -> !torch.list<vtensor<[4,2],f32>>
  return %1 : !torch.list<vtensor<[4,2],f32>>
}

// -----

// A dynamic size against 1 could go either way; sizes that do not
// broadcast raise in PyTorch: both left.
// CHECK-LABEL: func.func @dynamic(
// CHECK:         torch.aten.broadcast_tensors
// CHECK-LABEL: func.func @incompatible(
// CHECK:         torch.aten.broadcast_tensors
func.func @dynamic(%a: !torch.vtensor<[?,3],f32>, %b: !torch.vtensor<[1,3],f32>) -> !torch.list<vtensor> {
  %0 = torch.prim.ListConstruct %a, %b : (!torch.vtensor<[?,3],f32>, !torch.vtensor<[1,3],f32>) -> !torch.list<vtensor>
  %1 = torch.aten.broadcast_tensors %0 : !torch.list<vtensor> -> !torch.list<vtensor>
  return %1 : !torch.list<vtensor>
}
func.func @incompatible(%a: !torch.vtensor<[2,3],f32>, %b: !torch.vtensor<[4,3],f32>) -> !torch.list<vtensor> {
  %0 = torch.prim.ListConstruct %a, %b : (!torch.vtensor<[2,3],f32>, !torch.vtensor<[4,3],f32>) -> !torch.list<vtensor>
  %1 = torch.aten.broadcast_tensors %0 : !torch.list<vtensor> -> !torch.list<vtensor>
  return %1 : !torch.list<vtensor>
}
