// mm 5x7 @ 7x300: too few rows for tiles, a thread per output
module {
  func.func @main(%a: !torch.vtensor<[5,7],f32>, %b: !torch.vtensor<[7,300],f32>) -> !torch.vtensor<[5,300],f32> {
    %r = torch.aten.mm %a, %b : !torch.vtensor<[5,7],f32>, !torch.vtensor<[7,300],f32> -> !torch.vtensor<[5,300],f32>
    return %r : !torch.vtensor<[5,300],f32>
  }
}
