// mm 100x70 @ 70x90 in f16: tensor cores (mma.sync m16n8k16, f32
// accumulators), tiles cut at both edges
module {
  func.func @main(%a: !torch.vtensor<[100,70],f16>, %b: !torch.vtensor<[70,90],f16>) -> !torch.vtensor<[100,90],f16> {
    %r = torch.aten.mm %a, %b : !torch.vtensor<[100,70],f16>, !torch.vtensor<[70,90],f16> -> !torch.vtensor<[100,90],f16>
    return %r : !torch.vtensor<[100,90],f16>
  }
}
