// The 3-layer MLP: aten level (t + addmm) and torch level (nn.Linear
// expands to aten.linear with the module's weights as literals).
// RUN: fx-import --strip-debuginfo %S/inputs/mlp-aten.json | FileCheck %s --check-prefix=ATEN
// RUN: fx-import --strip-debuginfo %S/inputs/mlp-torch.json | FileCheck %s --check-prefix=TORCH
// RUN: fx-import %S/inputs/mlp-aten.json | torch-opt -p '' > /dev/null
// RUN: fx-import %S/inputs/mlp-torch.json | torch-opt -p '' > /dev/null

// ATEN-LABEL: func.func @main(%arg0: !torch.vtensor<[2,16],f32>) -> !torch.vtensor<[2,8],f32>
// ATEN:         %[[W:.*]] = torch.vtensor.literal(dense_resource<fc1.weight> : tensor<32x16xf32>) : !torch.vtensor<[32,16],f32>
// ATEN:         %[[T:.*]] = torch.aten.t %[[W]] : !torch.vtensor<[32,16],f32> -> !torch.vtensor<[16,32],f32>
// ATEN:         torch.aten.addmm {{.*}}, %arg0, %[[T]], {{.*}} : !torch.vtensor<[32],f32>, !torch.vtensor<[2,16],f32>, !torch.vtensor<[16,32],f32>, !torch.int, !torch.int -> !torch.vtensor<[2,32],f32>
// ATEN:         torch.aten.relu {{.*}} -> !torch.vtensor<[2,32],f32>
// ATEN-COUNT-2: torch.aten.addmm
// ATEN:         return {{.*}} : !torch.vtensor<[2,8],f32>

// TORCH-LABEL: func.func @main(%arg0: !torch.vtensor<[2,16],f32>) -> !torch.vtensor<[2,8],f32>
// TORCH-NEXT:    %[[W1:.*]] = torch.vtensor.literal(dense_resource<fc1.weight> : tensor<32x16xf32>)
// TORCH-NEXT:    %[[B1:.*]] = torch.vtensor.literal(dense_resource<fc1.bias> : tensor<32xf32>)
// TORCH-NEXT:    %[[L1:.*]] = torch.aten.linear %arg0, %[[W1]], %[[B1]] : !torch.vtensor<[2,16],f32>, !torch.vtensor<[32,16],f32>, !torch.vtensor<[32],f32> -> !torch.vtensor<[2,32],f32>
// TORCH-NEXT:    torch.aten.relu %[[L1]] : !torch.vtensor<[2,32],f32> -> !torch.vtensor<[2,32],f32>
// TORCH-COUNT-2: torch.aten.linear
// TORCH:         return {{.*}} : !torch.vtensor<[2,8],f32>
