// Multi-result ops replace FX's getitem: native_batch_norm and
// max_pool2d_with_indices have several results; split returns a list,
// unpacked with torch.prim.ListUnpack.  At torch level the layers expand
// from their module config.
// RUN: fx-import --strip-debuginfo %S/inputs/small_cnn-aten.json | FileCheck %s
// RUN: fx-import --strip-debuginfo %S/inputs/small_cnn-torch.json | FileCheck %s --check-prefix=TORCH
// RUN: fx-import %S/inputs/small_cnn-aten.json | torch-opt -p '' > /dev/null
// RUN: fx-import %S/inputs/small_cnn-torch.json | torch-opt -p '' > /dev/null

// CHECK:      %[[C:.*]] = torch.aten.convolution %arg0, {{.*}} -> !torch.vtensor<[1,4,8,8],f32>
// CHECK:      %[[BN_0:[^ ,]+]], %[[BN_1:[^ ,]+]], %[[BN_2:[^ ,]+]] = torch.aten.native_batch_norm %[[C]], {{.*}} -> !torch.vtensor<[1,4,8,8],f32>, !torch.vtensor<[0],f32>, !torch.vtensor<[0],f32>
// CHECK-NEXT: %[[H:.*]] = torch.copy.to_tensor %[[BN_0]] : !torch.tensor<[1,4,8,8],f32>
// CHECK-NEXT: torch.aten.relu_ %[[H]]
// CHECK:      %[[P_0:[^ ,]+]], %[[P_1:[^ ,]+]] = torch.aten.max_pool2d_with_indices {{.*}} -> !torch.vtensor<[1,4,4,4],f32>, !torch.vtensor<[1,4,4,4],si64>
// CHECK:      %[[S:.*]] = torch.aten.split.Tensor %[[P_0]],
// CHECK-NEXT: %[[U:.*]]:2 = torch.prim.ListUnpack %[[S]] : {{.*}} -> !torch.vtensor<[1,2,4,4],f32>, !torch.vtensor<[1,2,4,4],f32>
// CHECK-NEXT: %[[INT1:.*]] = torch.constant.int 1
// CHECK-NEXT: torch.aten.add.Tensor %[[U]]#0, %[[U]]#1, %[[INT1]]

// TORCH:      %[[W:.*]] = torch.vtensor.literal(dense_resource<conv.weight> : tensor<4x3x3x3xf32>)
// TORCH-NEXT: %[[NONE:.*]] = torch.constant.none
// TORCH:      torch.aten.convolution %arg0, %[[W]], %[[NONE]],
// TORCH:      torch.aten.batch_norm {{.*}} -> !torch.vtensor<[1,4,8,8],f32>
// TORCH:      torch.aten.relu_ {{.*}} : !torch.tensor<[1,4,8,8],f32> -> !torch.tensor<[1,4,8,8],f32>
// TORCH:      torch.aten.max_pool2d {{.*}} -> !torch.vtensor<[1,4,4,4],f32>
// TORCH:      torch.prim.ListUnpack
// TORCH:      torch.aten.flatten.using_ints {{.*}} -> !torch.vtensor<[1,32],f32>
