// bmm [3,40,33] @ [3,33,70]: a tiled contraction with a batch dim
module {
  func.func @main(%a: !torch.vtensor<[3,40,33],f32>, %b: !torch.vtensor<[3,33,70],f32>) -> !torch.vtensor<[3,40,70],f32> {
    %r = torch.aten.bmm %a, %b : !torch.vtensor<[3,40,33],f32>, !torch.vtensor<[3,33,70],f32> -> !torch.vtensor<[3,40,70],f32>
    return %r : !torch.vtensor<[3,40,70],f32>
  }
}
