module {
  func.func @main(%arg0: !torch.vtensor<[3,4],f32>) -> !torch.vtensor<[4],f32> {
    %int0 = torch.constant.int 0
    %int5 = torch.constant.int 5
    %0 = torch.aten.select.int %arg0, %int0, %int5 : !torch.vtensor<[3,4],f32>, !torch.int, !torch.int -> !torch.vtensor<[4],f32>
    return %0 : !torch.vtensor<[4],f32>
  }
}
