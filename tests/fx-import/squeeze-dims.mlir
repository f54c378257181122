// PyTorch 2's aten.squeeze.dims (torch.squeeze(x, (0, 1, -2)) * 2 on a
// [1,3,1,4] input; dim 1, of size 3, stays) is not in torch-mlir's op set:
// fx-import makes it the view to the node's static result shape.
// RUN: fx-import --strip-debuginfo %S/inputs/squeeze-dims-aten.json | FileCheck %s
// RUN: fx-import %S/inputs/squeeze-dims-aten.json | torch-opt > /dev/null

// CHECK:      %[[A:.*]] = torch.constant.int 3
// CHECK-NEXT: %[[B:.*]] = torch.constant.int 4
// CHECK-NEXT: %[[L:.*]] = torch.prim.ListConstruct %[[A]], %[[B]]
// CHECK-NEXT: torch.aten.view %arg0, %[[L]] : !torch.vtensor<[1,3,1,4],f32>, !torch.list<int> -> !torch.vtensor<[3,4],f32>
// CHECK-NOT:  squeeze
