// The seed LinearModule at aten level: the ops and types of
// /work/shared/examples/seed-linear-torch.mlir (torch-mlir's import), with
// squeeze_ in place of squeeze.dim: make_fx records the in-place op.
// RUN: fx-import --strip-debuginfo %S/inputs/linear-aten.json | FileCheck %s
// RUN: fx-import %S/inputs/linear-aten.json | FileCheck %s --check-prefix=LOC
// RUN: fx-import %S/inputs/linear-aten.json | torch-opt -p '' > /dev/null

// CHECK-LABEL: func.func @main(%arg0: !torch.vtensor<[4],f32>) -> !torch.vtensor<[3],f32> {
// CHECK-NEXT:    %[[INT0:.*]] = torch.constant.int 0
// CHECK-NEXT:    %[[U:.*]] = torch.aten.unsqueeze %arg0, %[[INT0]] : !torch.vtensor<[4],f32>, !torch.int -> !torch.vtensor<[1,4],f32>
// CHECK-NEXT:    %[[W:.*]] = torch.vtensor.literal(dense_resource<weight> : tensor<4x3xf32>) : !torch.vtensor<[4,3],f32>
// CHECK-NEXT:    %[[MM:.*]] = torch.aten.mm %[[U]], %[[W]] : !torch.vtensor<[1,4],f32>, !torch.vtensor<[4,3],f32> -> !torch.vtensor<[1,3],f32>
// CHECK-NEXT:    %[[H:.*]] = torch.copy.to_tensor %[[MM]] : !torch.tensor<[1,3],f32>
// CHECK-NEXT:    %[[INT0B:.*]] = torch.constant.int 0
// CHECK-NEXT:    %[[SQ:.*]] = torch.aten.squeeze_.dim %[[H]], %[[INT0B]] : !torch.tensor<[1,3],f32>, !torch.int -> !torch.tensor<[3],f32>
// CHECK-NEXT:    %[[B:.*]] = torch.vtensor.literal(dense_resource<bias> : tensor<3xf32>) : !torch.vtensor<[3],f32>
// CHECK-NEXT:    %[[V:.*]] = torch.copy.to_vtensor %[[SQ]] : !torch.vtensor<[3],f32>
// CHECK-NEXT:    %[[INT1:.*]] = torch.constant.int 1
// CHECK-NEXT:    %[[ADD:.*]] = torch.aten.add.Tensor %[[V]], %[[B]], %[[INT1]] : !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>, !torch.int -> !torch.vtensor<[3],f32>
// CHECK-NEXT:    return %[[ADD]] : !torch.vtensor<[3],f32>
// CHECK:       dialect_resources
// CHECK:         weight: "0x04000000
// CHECK:         bias: "0x04000000

// Every op carries the node's source line, constants too; weights their
// node's name.
// LOC: torch.constant.int 0 loc("tests/fx-export/models.py":23:9)
// LOC: torch.aten.unsqueeze {{.*}} loc("tests/fx-export/models.py":23:9)
// LOC: torch.vtensor.literal{{.*}} loc("_param_constant0")
