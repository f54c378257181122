// RUN: torch-opt -p torch-refine-types %s | FileCheck %s

// fx-import wraps a Python scalar given for a Tensor argument in
// prim.NumToTensor.Scalar; PyTorch promotes it as the scalar it was (a
// wrapped number), not as a 0-dim tensor: si32 + 3 stays si32, f16 + 2.5
// stays f16, a 0-dim si32 + 2.5 is the default dtype.
// CHECK-LABEL: func.func @wrapped(
// CHECK:         torch.aten.add.Tensor {{.*}} -> !torch.vtensor<[],si32>
// CHECK:         torch.aten.mul.Tensor {{.*}} -> !torch.vtensor<[],f16>
// CHECK:         torch.aten.add.Tensor {{.*}} -> !torch.vtensor<[],f32>
func.func @wrapped(%i32: !torch.vtensor<[],si32>, %h: !torch.vtensor<[],f16>) -> () {
  %int1 = torch.constant.int 1
  %int3 = torch.constant.int 3
  %float = torch.constant.float 2.500000e+00
  %n3 = torch.prim.NumToTensor.Scalar %int3 : !torch.int -> !torch.vtensor<[],si64>
  %nf = torch.prim.NumToTensor.Scalar %float : !torch.float -> !torch.vtensor<[],f32>
  %0 = torch.aten.add.Tensor %i32, %n3, %int1 : !torch.vtensor<[],si32>, !torch.vtensor<[],si64>, !torch.int -> !torch.vtensor
  %1 = torch.aten.mul.Tensor %h, %nf : !torch.vtensor<[],f16>, !torch.vtensor<[],f32> -> !torch.vtensor
  %2 = torch.aten.add.Tensor %i32, %nf, %int1 : !torch.vtensor<[],si32>, !torch.vtensor<[],f32>, !torch.int -> !torch.vtensor
  return
}
