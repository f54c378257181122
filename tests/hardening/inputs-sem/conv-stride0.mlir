func.func @f(%arg0: !torch.vtensor<[1,1,4,4],f32>, %arg1: !torch.vtensor<[1,1,3,3],f32>) -> !torch.vtensor {
  %int1 = torch.constant.int 1
  %int0 = torch.constant.int 0
  %sv = torch.constant.int 0
  %false = torch.constant.bool false
  %none = torch.constant.none
  %s = torch.prim.ListConstruct %sv, %sv : (!torch.int, !torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %d = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.convolution %arg0, %arg1, %none, %s, %p, %d, %false, %p, %int1 : !torch.vtensor<[1,1,4,4],f32>, !torch.vtensor<[1,1,3,3],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int -> !torch.vtensor
  return %0 : !torch.vtensor
}
