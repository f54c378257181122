module {
  func.func @main(%arg0: !torch.vtensor<[3,4],f32>, %arg1: !torch.vtensor<[4,5],f32>) -> !torch.vtensor<[3,6],f32> {
    %0 = torch.aten.mm %arg0, %arg1 : !torch.vtensor<[3,4],f32>, !torch.vtensor<[4,5],f32> -> !torch.vtensor<[3,6],f32>
    return %0 : !torch.vtensor<[3,6],f32>
  }
}
