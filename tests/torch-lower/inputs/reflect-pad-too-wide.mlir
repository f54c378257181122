module {
  func.func @main(%arg0: !torch.vtensor<[1,2,3],f32>) -> !torch.vtensor<[1,2,6],f32> {
    %int3 = torch.constant.int 3
    %int0 = torch.constant.int 0
    %0 = torch.prim.ListConstruct %int3, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
    %1 = torch.aten.reflection_pad1d %arg0, %0 : !torch.vtensor<[1,2,3],f32>, !torch.list<int> -> !torch.vtensor<[1,2,6],f32>
    return %1 : !torch.vtensor<[1,2,6],f32>
  }
}
