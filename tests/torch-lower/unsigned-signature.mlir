// RUN: torch-lower %s | FileCheck %s
// RUN: torch-lower %s | mlir-opt-16 > /dev/null
// RUN: torch-lower %s | codegen --target=cpu | FileCheck %s --check-prefix=VM
// A ui8 argument or result is i8 marked {fxpipe.unsigned} in linalg, and
// ui8 again in the compiled signature (it was i8: vmrun wrote int8).
// CHECK: func.func @main(%arg0: tensor<3x4xi8> {fxpipe.unsigned}, %arg1: tensor<3x4xf32>) -> (tensor<3x4xi8> {fxpipe.unsigned}, tensor<3x4xf32>)
// CHECK: arith.divui
// CHECK: arith.uitofp
// VM: func.func @main(%arg0: tensor<3x4xui8>, %arg1: tensor<3x4xf32>) -> (tensor<3x4xui8>, tensor<3x4xf32>)
func.func @main(%x: !torch.vtensor<[3,4],ui8>, %f: !torch.vtensor<[3,4],f32>) -> (!torch.vtensor<[3,4],ui8>, !torch.vtensor<[3,4],f32>) {
  %str = torch.constant.str "floor"
  %int3 = torch.constant.int 3
  %0 = torch.aten.div.Scalar_mode %x, %int3, %str : !torch.vtensor<[3,4],ui8>, !torch.int, !torch.str -> !torch.vtensor<[3,4],ui8>
  %1 = torch.aten.add.Tensor %f, %x, %int3 : !torch.vtensor<[3,4],f32>, !torch.vtensor<[3,4],ui8>, !torch.int -> !torch.vtensor<[3,4],f32>
  return %0, %1 : !torch.vtensor<[3,4],ui8>, !torch.vtensor<[3,4],f32>
}
