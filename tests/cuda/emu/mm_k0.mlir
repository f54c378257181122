// mm with K = 0, then a residual add: the reduction is empty, its result 0
module {
  func.func @main(%a: !torch.vtensor<[5,0],f32>, %b: !torch.vtensor<[0,9],f32>, %c: !torch.vtensor<[5,9],f32>) -> !torch.vtensor<[5,9],f32> {
    %int1 = torch.constant.int 1
    %m = torch.aten.mm %a, %b : !torch.vtensor<[5,0],f32>, !torch.vtensor<[0,9],f32> -> !torch.vtensor<[5,9],f32>
    %r = torch.aten.add.Tensor %m, %c, %int1 : !torch.vtensor<[5,9],f32>, !torch.vtensor<[5,9],f32>, !torch.int -> !torch.vtensor<[5,9],f32>
    return %r : !torch.vtensor<[5,9],f32>
  }
}
