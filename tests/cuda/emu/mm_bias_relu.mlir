// mm 100x70 @ 70x90, + bias, relu: one tiled kernel with its epilogue (tiles cut at both edges)
module {
  func.func @main(%a: !torch.vtensor<[100,70],f32>, %b: !torch.vtensor<[70,90],f32>, %c: !torch.vtensor<[90],f32>) -> !torch.vtensor<[100,90],f32> {
    %r = torch.aten.mm %a, %b : !torch.vtensor<[100,70],f32>, !torch.vtensor<[70,90],f32> -> !torch.vtensor<[100,90],f32>
    %int1 = torch.constant.int 1
    %s = torch.aten.add.Tensor %r, %c, %int1 : !torch.vtensor<[100,90],f32>, !torch.vtensor<[90],f32>, !torch.int -> !torch.vtensor<[100,90],f32>
    %y = torch.aten.relu %s : !torch.vtensor<[100,90],f32> -> !torch.vtensor<[100,90],f32>
    return %y : !torch.vtensor<[100,90],f32>
  }
}
