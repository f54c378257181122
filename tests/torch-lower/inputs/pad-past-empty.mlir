module {
  func.func @main(%arg0: !torch.vtensor<[1,2,3],f32>) -> !torch.vtensor<[1,2,0],f32> {
    %int-2 = torch.constant.int -2
    %float0 = torch.constant.float 0.000000e+00
    %0 = torch.prim.ListConstruct %int-2, %int-2 : (!torch.int, !torch.int) -> !torch.list<int>
    %1 = torch.aten.constant_pad_nd %arg0, %0, %float0 : !torch.vtensor<[1,2,3],f32>, !torch.list<int>, !torch.float -> !torch.vtensor<[1,2,0],f32>
    return %1 : !torch.vtensor<[1,2,0],f32>
  }
}
