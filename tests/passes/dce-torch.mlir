// RUN: torch-opt -p dce %s | FileCheck %s

// torch: value-semantic ops and constants die; in-place ops stay.
// CHECK-LABEL: func.func @torch
// CHECK-SAME:    (%[[T:.*]]: !torch.vtensor<[3],f32>, %[[M:.*]]: !torch.tensor<[3],f32>)
// CHECK-NEXT:    %[[ONE:.*]] = torch.constant.int 1
// CHECK-NEXT:    %{{.*}} = torch.aten.add_.Scalar %[[M]], %[[ONE]], %[[ONE]]
// CHECK-NEXT:    return %[[T]]
func.func @torch(%t: !torch.vtensor<[3],f32>, %m: !torch.tensor<[3],f32>) -> !torch.vtensor<[3],f32> {
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %0 = torch.aten.add.Tensor %t, %t, %int2 : !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>, !torch.int -> !torch.vtensor<[3],f32>
  %1 = torch.aten.add_.Scalar %m, %int1, %int1 : !torch.tensor<[3],f32>, !torch.int, !torch.int -> !torch.tensor<[3],f32>
  return %t : !torch.vtensor<[3],f32>
}
