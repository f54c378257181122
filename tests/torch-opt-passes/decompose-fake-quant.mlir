// RUN: torch-opt -p 'func.func(torch-decompose)' --split-input-file %s | FileCheck %s

// The per-channel cachemask op whose mask is unused is the op without it.
// CHECK-LABEL: func.func @mask_unused(
// CHECK-SAME:      %[[X:.*]]: !torch.vtensor<[2,3],f32>, %[[S:.*]]: !torch.vtensor<[3],f32>, %[[Z:.*]]: !torch.vtensor<[3],si32>)
// CHECK:         %[[R:.*]] = torch.aten.fake_quantize_per_channel_affine %[[X]], %[[S]], %[[Z]], %{{.*}}, %{{.*}}, %{{.*}} : !torch.vtensor<[2,3],f32>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],si32>, !torch.int, !torch.int, !torch.int -> !torch.vtensor<[2,3],f32>
// CHECK-NEXT:    return %[[R]]
func.func @mask_unused(%x: !torch.vtensor<[2,3],f32>, %s: !torch.vtensor<[3],f32>, %z: !torch.vtensor<[3],si32>) -> !torch.vtensor<[2,3],f32> {
  %int1 = torch.constant.int 1
  %int0 = torch.constant.int 0
  %int255 = torch.constant.int 255
  %0:2 = torch.aten.fake_quantize_per_channel_affine_cachemask %x, %s, %z, %int1, %int0, %int255 : !torch.vtensor<[2,3],f32>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],si32>, !torch.int, !torch.int, !torch.int -> !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],i1>
  return %0#0 : !torch.vtensor<[2,3],f32>
}

// -----

// Its mask used: left.
// CHECK-LABEL: func.func @mask_used(
// CHECK:         torch.aten.fake_quantize_per_channel_affine_cachemask
func.func @mask_used(%x: !torch.vtensor<[2,3],f32>, %s: !torch.vtensor<[3],f32>, %z: !torch.vtensor<[3],si32>) -> !torch.vtensor<[2,3],i1> {
  %int1 = torch.constant.int 1
  %int0 = torch.constant.int 0
  %int255 = torch.constant.int 255
  %0:2 = torch.aten.fake_quantize_per_channel_affine_cachemask %x, %s, %z, %int1, %int0, %int255 : !torch.vtensor<[2,3],f32>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],si32>, !torch.int, !torch.int, !torch.int -> !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],i1>
  return %0#1 : !torch.vtensor<[2,3],i1>
}
