// In-place ops are imported faithfully, as torch-mlir's non-value-semantic
// form: the mutated tensor gets a !torch.tensor handle, the in-place op
// takes and returns !torch.tensor, and each later use of the tensor reads
// it with torch.copy.to_vtensor right before the use.
// RUN: fx-import --strip-debuginfo %S/inputs/inplace-aten.json | FileCheck %s
// RUN: fx-import --strip-debuginfo %S/inputs/inplace-torch.json | FileCheck %s --check-prefix=TORCH
// RUN: fx-import %S/inputs/inplace-aten.json | torch-opt -p '' > /dev/null

// A Python scalar where the schema wants a Tensor: NumToTensor, as torch-mlir.
// CHECK:      %[[TWO:.*]] = torch.constant.int 2
// CHECK-NEXT: %[[T2:.*]] = torch.prim.NumToTensor.Scalar %[[TWO]] : !torch.int -> !torch.vtensor<[],si64>
// CHECK-NEXT: %[[Y:.*]] = torch.aten.mul.Tensor %arg0, %[[T2]]
// CHECK-NEXT: %[[H:.*]] = torch.copy.to_tensor %[[Y]] : !torch.tensor<[2,3],f32>
// CHECK-NEXT: %[[R:.*]] = torch.aten.relu_ %[[H]] : !torch.tensor<[2,3],f32> -> !torch.tensor<[2,3],f32>
// CHECK-NEXT: %[[Y1:.*]] = torch.copy.to_vtensor %[[R]] : !torch.vtensor<[2,3],f32>
// CHECK:      %[[Z:.*]] = torch.aten.add.Tensor %[[Y1]],
// CHECK:      %[[A:.*]] = torch.aten.add_.Tensor %[[R]], %[[Z]], {{.*}} : !torch.tensor<[2,3],f32>, !torch.vtensor<[2,3],f32>, !torch.int -> !torch.tensor<[2,3],f32>
// CHECK-NEXT: %[[Y2:.*]] = torch.copy.to_vtensor %[[A]] : !torch.vtensor<[2,3],f32>
// CHECK-NEXT: return %[[Y2]], %[[Z]]

// TORCH:      torch.aten.mul.Scalar %arg0, %{{.*}} : !torch.vtensor<[2,3],f32>, !torch.int -> !torch.vtensor<[2,3],f32>
// TORCH:      torch.aten.relu_ {{.*}} : !torch.tensor<[2,3],f32> -> !torch.tensor<[2,3],f32>
// TORCH:      torch.aten.add.Scalar
// TORCH:      torch.aten.add_.Tensor
