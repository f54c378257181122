// The seed LinearModule at torch level (symbolic_trace): operator.matmul
// and operator.add map to aten.matmul and aten.add.Tensor with alpha 1.
// RUN: fx-import --strip-debuginfo %S/inputs/linear-torch.json | FileCheck %s
// RUN: fx-import %S/inputs/linear-torch.json | torch-opt -p '' > /dev/null

// CHECK-LABEL: func.func @main(%arg0: !torch.vtensor<[4],f32>) -> !torch.vtensor<[3],f32> {
// CHECK-NEXT:    %[[W:.*]] = torch.vtensor.literal(dense_resource<weight> : tensor<4x3xf32>) : !torch.vtensor<[4,3],f32>
// CHECK-NEXT:    %[[MM:.*]] = torch.aten.matmul %arg0, %[[W]] : !torch.vtensor<[4],f32>, !torch.vtensor<[4,3],f32> -> !torch.vtensor<[3],f32>
// CHECK-NEXT:    %[[B:.*]] = torch.vtensor.literal(dense_resource<bias> : tensor<3xf32>) : !torch.vtensor<[3],f32>
// CHECK-NEXT:    %[[INT1:.*]] = torch.constant.int 1
// CHECK-NEXT:    %[[ADD:.*]] = torch.aten.add.Tensor %[[MM]], %[[B]], %[[INT1]] : !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>, !torch.int -> !torch.vtensor<[3],f32>
// CHECK-NEXT:    return %[[ADD]] : !torch.vtensor<[3],f32>
