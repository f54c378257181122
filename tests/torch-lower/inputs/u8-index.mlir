// PyTorch takes a uint8 index tensor as a boolean mask: it was lowered as
// integer indices, a silent wrong result.
func.func @main(%x: !torch.vtensor<[4],f32>, %m: !torch.vtensor<[4],ui8>) -> !torch.vtensor<[4],f32> {
  %0 = torch.prim.ListConstruct %m : (!torch.vtensor<[4],ui8>) -> !torch.list<optional<vtensor>>
  %1 = torch.aten.index.Tensor %x, %0 : !torch.vtensor<[4],f32>, !torch.list<optional<vtensor>> -> !torch.vtensor<[4],f32>
  return %1 : !torch.vtensor<[4],f32>
}
