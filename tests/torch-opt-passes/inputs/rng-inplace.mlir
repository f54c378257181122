// The in-place random ops whose value form is not their name less '_':
// bernoulli_.float is bernoulli.p, normal_ is normal_functional.
// CHECK-LABEL: func.func @inplace_rng(
// CHECK:         %[[V:.*]] = torch.copy.to_vtensor %arg0
// CHECK-NEXT:    %[[B:.*]] = torch.aten.bernoulli.p %[[V]], %float4.000000e-01, %none
// CHECK:         torch.overwrite.tensor.contents
// CHECK:         torch.aten.normal_functional %{{.*}}, %float0.000000e00, %float2.000000e00, %none
// CHECK-NOT:     bernoulli_
// CHECK-NOT:     aten.normal_ 
func.func @inplace_rng(%x: !torch.tensor<[4],f32>) -> !torch.tensor<[4],f32> {
  %p = torch.constant.float 4.000000e-01
  %m = torch.constant.float 0.000000e+00
  %s = torch.constant.float 2.000000e+00
  %none = torch.constant.none
  %0 = torch.aten.bernoulli_.float %x, %p, %none : !torch.tensor<[4],f32>, !torch.float, !torch.none -> !torch.tensor<[4],f32>
  %1 = torch.aten.normal_ %0, %m, %s, %none : !torch.tensor<[4],f32>, !torch.float, !torch.float, !torch.none -> !torch.tensor<[4],f32>
  return %1 : !torch.tensor<[4],f32>
}
