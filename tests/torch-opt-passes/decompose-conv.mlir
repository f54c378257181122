// RUN: torch-opt -p torch-decompose,canonicalize,cse %s | FileCheck %s
// RUN: torch-opt %s | torch-opt -p torch-verify-backend-contract > /dev/null

// conv1d/conv2d: the convolution they name, not transposed, no output
// padding, the other operands as they were (torch-mlir's decomposition).
// CHECK-NOT: aten.conv1d
// CHECK-NOT: aten.conv2d
// CHECK-LABEL: func.func @conv2d(
// CHECK-DAG:     %[[F:.*]] = torch.constant.bool false
// CHECK-DAG:     %[[Z:.*]] = torch.prim.ListConstruct %int0, %int0 :
// CHECK:         torch.aten.convolution %arg0, %arg1, %arg2, %[[S:.*]], %[[P:.*]], %[[D:.*]], %[[F]], %[[Z]], %int1 : {{.*}} -> !torch.vtensor<[1,4,4,4],f32>
// CHECK-LABEL: func.func @conv1d(
// CHECK:         %[[Z1:.*]] = torch.prim.ListConstruct %int0 :
// CHECK:         torch.aten.convolution %arg0, %arg1, %none, {{.*}}, %false, %[[Z1]], %int2 : {{.*}} -> !torch.vtensor<[2,4,6],f32>

func.func @conv2d(%x: !torch.vtensor<[1,3,8,8],f32>, %w: !torch.vtensor<[4,3,3,3],f32>, %b: !torch.vtensor<[4],f32>) -> !torch.vtensor<[1,4,4,4],f32> {
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %s = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %d = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.conv2d %x, %w, %b, %s, %p, %d, %int1 : !torch.vtensor<[1,3,8,8],f32>, !torch.vtensor<[4,3,3,3],f32>, !torch.vtensor<[4],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.int -> !torch.vtensor<[1,4,4,4],f32>
  return %0 : !torch.vtensor<[1,4,4,4],f32>
}
func.func @conv1d(%x: !torch.vtensor<[2,4,8],f32>, %w: !torch.vtensor<[4,2,3],f32>) -> !torch.vtensor<[2,4,6],f32> {
  %none = torch.constant.none
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int0 = torch.constant.int 0
  %s = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %0 = torch.aten.conv1d %x, %w, %none, %s, %p, %s, %int2 : !torch.vtensor<[2,4,8],f32>, !torch.vtensor<[4,2,3],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.int -> !torch.vtensor<[2,4,6],f32>
  return %0 : !torch.vtensor<[2,4,6],f32>
}
