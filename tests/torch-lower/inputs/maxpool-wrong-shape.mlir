module {
  func.func @main(%arg0: !torch.vtensor<[1,2,6,6],f32>) -> !torch.vtensor<[1,2,4,3],f32> {
    %int2 = torch.constant.int 2
    %int0 = torch.constant.int 0
    %int1 = torch.constant.int 1
    %false = torch.constant.bool false
    %0 = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
    %1 = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
    %2 = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
    %3 = torch.aten.max_pool2d %arg0, %0, %0, %1, %2, %false : !torch.vtensor<[1,2,6,6],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool -> !torch.vtensor<[1,2,4,3],f32>
    return %3 : !torch.vtensor<[1,2,4,3],f32>
  }
}
