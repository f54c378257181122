// as_strided reads its operand's storage.  Of x[1:3].permute(1, 0, 2)
// with no storage_offset: x's storage from the slice's offset, 1 * 4 * 2
// = 8.  Of y.to(memory_format=torch.channels_last): the copy's storage,
// its NHWC permutation.  (The graph was exported from:
//   v = x[1:3].permute(1, 0, 2); a = as_strided(v, (2, 2), (12, 1))
//   b = as_strided(y.to(memory_format=torch.channels_last), (2, 3), (3, 1))
// with x [3,2,4], y [1,3,2,2].)
// RUN: fx-import --strip-debuginfo %S/inputs/strided-views-aten.json | FileCheck %s
// RUN: fx-import %S/inputs/strided-views-aten.json | torch-opt > /dev/null

// CHECK:      %[[O:.*]] = torch.constant.int 8
// CHECK-NEXT: %[[A:.*]] = torch.aten.as_strided %arg0, %{{.*}}, %{{.*}}, %[[O]] : !torch.vtensor<[3,2,4],f32>, !torch.list<int>, !torch.list<int>, !torch.int -> !torch.vtensor<[2,2],f32>
// CHECK:      %[[C:.*]] = torch.aten._to_copy %arg1
// CHECK:      %[[P0:.*]] = torch.constant.int 0
// CHECK-NEXT: %[[P1:.*]] = torch.constant.int 2
// CHECK-NEXT: %[[P2:.*]] = torch.constant.int 3
// CHECK-NEXT: %[[P3:.*]] = torch.constant.int 1
// CHECK-NEXT: %[[L:.*]] = torch.prim.ListConstruct %[[P0]], %[[P1]], %[[P2]], %[[P3]]
// CHECK-NEXT: %[[S:.*]] = torch.aten.permute %[[C]], %[[L]] : !torch.vtensor<[1,3,2,2],f32>, !torch.list<int> -> !torch.vtensor<[1,2,2,3],f32>
// CHECK:      %[[Z:.*]] = torch.constant.int 0
// CHECK-NEXT: torch.aten.as_strided %[[S]], %{{.*}}, %{{.*}}, %[[Z]] : !torch.vtensor<[1,2,2,3],f32>
