// linear: x [33,96] @ w[80,96]^T + b: the weight read transposed
module {
  func.func @main(%x: !torch.vtensor<[33,96],f32>, %w: !torch.vtensor<[80,96],f32>, %b: !torch.vtensor<[80],f32>) -> !torch.vtensor<[33,80],f32> {
    %r = torch.aten.linear %x, %w, %b : !torch.vtensor<[33,96],f32>, !torch.vtensor<[80,96],f32>, !torch.vtensor<[80],f32> -> !torch.vtensor<[33,80],f32>
    return %r : !torch.vtensor<[33,80],f32>
  }
}
