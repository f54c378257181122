module {
  func.func @main(%arg0: !torch.vtensor<[3],f32>) -> !torch.vtensor<[3],f32> {
    %0 = torch.aten.bitwise_not %arg0 : !torch.vtensor<[3],f32> -> !torch.vtensor<[3],f32>
    return %0 : !torch.vtensor<[3],f32>
  }
}
