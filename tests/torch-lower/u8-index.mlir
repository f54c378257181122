// RUN: not torch-lower %s 2>&1 | FileCheck %s
// PyTorch takes a uint8 index tensor as a boolean mask: it was lowered as
// integer indices, a silent wrong result.
// CHECK: u8-index.mlir:7:8: error: torch-lower: a uint8 index tensor is a boolean mask, which is not supported
func.func @main(%x: !torch.vtensor<[4],f32>, %m: !torch.vtensor<[4],ui8>) -> !torch.vtensor<[4],f32> {
  %0 = torch.prim.ListConstruct %m : (!torch.vtensor<[4],ui8>) -> !torch.list<optional<vtensor>>
  %1 = torch.aten.index.Tensor %x, %0 : !torch.vtensor<[4],f32>, !torch.list<optional<vtensor>> -> !torch.vtensor<[4],f32>
  return %1 : !torch.vtensor<[4],f32>
}
