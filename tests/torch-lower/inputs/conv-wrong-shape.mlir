module {
  func.func @main(%arg0: !torch.vtensor<[1,4,6,6],f32>, %arg1: !torch.vtensor<[4,2,3,3],f32>) -> !torch.vtensor<[1,4,5,4],f32> {
    %none = torch.constant.none
    %int0 = torch.constant.int 0
    %int1 = torch.constant.int 1
    %int2 = torch.constant.int 2
    %false = torch.constant.bool false
    %0 = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
    %1 = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
    %2 = torch.aten.convolution %arg0, %arg1, %none, %0, %1, %0, %false, %1, %int2 : !torch.vtensor<[1,4,6,6],f32>, !torch.vtensor<[4,2,3,3],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int -> !torch.vtensor<[1,4,5,4],f32>
    return %2 : !torch.vtensor<[1,4,5,4],f32>
  }
}
