// RUN: torch-opt -p 'func.func(torch-decompose)' --split-input-file %s | FileCheck %s

// Two batch dims: x1 [2,5,i] to [2,5,1,i,1], W [o,i,j] to [1,1,o,i,j], x2
// to [2,5,1,1,j]; summed over j (dim 4), then i (dim 3); plus the bias.
// CHECK-LABEL: func.func @bilinear_rank3(
// CHECK-SAME:      %[[A:.*]]: !torch.vtensor<[2,5,3],f32>, %[[B:.*]]: !torch.vtensor<[2,5,4],f32>, %[[W:.*]]: !torch.vtensor<[6,3,4],f32>, %[[BIAS:.*]]: !torch.vtensor<[6],f32>)
// CHECK:         torch.aten.unsqueeze %[[A]], {{.*}} -> !torch.vtensor<[2,5,1,3],f32>
// CHECK:         torch.aten.unsqueeze {{.*}} -> !torch.vtensor<[2,5,1,3,1],f32>
// CHECK:         torch.aten.unsqueeze %[[W]], {{.*}} -> !torch.vtensor<[1,6,3,4],f32>
// CHECK:         torch.aten.unsqueeze {{.*}} -> !torch.vtensor<[1,1,6,3,4],f32>
// CHECK:         torch.aten.unsqueeze %[[B]], {{.*}} -> !torch.vtensor<[2,5,1,4],f32>
// CHECK:         torch.aten.unsqueeze {{.*}} -> !torch.vtensor<[2,5,1,1,4],f32>
// CHECK:         torch.aten.mul.Tensor {{.*}} -> !torch.vtensor<[2,5,6,3,4],f32>
// CHECK:         %[[M:.*]] = torch.aten.mul.Tensor {{.*}} -> !torch.vtensor<[2,5,6,3,4],f32>
// CHECK:         %[[S1:.*]] = torch.aten.sum.dim_IntList %[[M]], {{.*}} -> !torch.vtensor<[2,5,6,3],f32>
// CHECK:         %[[S2:.*]] = torch.aten.sum.dim_IntList %[[S1]], {{.*}} -> !torch.vtensor<[2,5,6],f32>
// CHECK:         %[[R:.*]] = torch.aten.add.Tensor %[[S2]], %[[BIAS]], %{{.*}} -> !torch.vtensor<[2,5,6],f32>
// CHECK-NEXT:    return %[[R]]
func.func @bilinear_rank3(%a: !torch.vtensor<[2,5,3],f32>, %b: !torch.vtensor<[2,5,4],f32>, %w: !torch.vtensor<[6,3,4],f32>, %bias: !torch.vtensor<[6],f32>) -> !torch.vtensor<[2,5,6],f32> {
  %0 = torch.aten.bilinear %a, %b, %w, %bias : !torch.vtensor<[2,5,3],f32>, !torch.vtensor<[2,5,4],f32>, !torch.vtensor<[6,3,4],f32>, !torch.vtensor<[6],f32> -> !torch.vtensor<[2,5,6],f32>
  return %0 : !torch.vtensor<[2,5,6],f32>
}

// -----

// Shapes PyTorch refuses (W's in-features not the inputs', batches that
// differ) are left, not broadcast.
// CHECK-LABEL: func.func @bilinear_bad_features(
// CHECK:         torch.aten.bilinear
// CHECK-LABEL: func.func @bilinear_bad_batch(
// CHECK:         torch.aten.bilinear
func.func @bilinear_bad_features(%a: !torch.vtensor<[2,1],f32>, %b: !torch.vtensor<[2,4],f32>, %w: !torch.vtensor<[6,3,4],f32>) -> !torch.vtensor<[2,6],f32> {
  %none = torch.constant.none
  %0 = torch.aten.bilinear %a, %b, %w, %none : !torch.vtensor<[2,1],f32>, !torch.vtensor<[2,4],f32>, !torch.vtensor<[6,3,4],f32>, !torch.none -> !torch.vtensor<[2,6],f32>
  return %0 : !torch.vtensor<[2,6],f32>
}
func.func @bilinear_bad_batch(%a: !torch.vtensor<[1,3],f32>, %b: !torch.vtensor<[2,4],f32>, %w: !torch.vtensor<[6,3,4],f32>) -> !torch.vtensor<[2,6],f32> {
  %none = torch.constant.none
  %0 = torch.aten.bilinear %a, %b, %w, %none : !torch.vtensor<[1,3],f32>, !torch.vtensor<[2,4],f32>, !torch.vtensor<[6,3,4],f32>, !torch.none -> !torch.vtensor<[2,6],f32>
  return %0 : !torch.vtensor<[2,6],f32>
}
