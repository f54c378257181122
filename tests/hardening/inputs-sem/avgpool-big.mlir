func.func @f(%arg0: !torch.vtensor<[1,1,16384,8192],f32>) -> !torch.vtensor<[1,1,16384,8192],f32> {
  %int1 = torch.constant.int 1
  %int0 = torch.constant.int 0
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  %none = torch.constant.none
  %k = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.avg_pool2d %arg0, %k, %k, %p, %false, %true, %none : !torch.vtensor<[1,1,16384,8192],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor<[1,1,16384,8192],f32>
  return %0 : !torch.vtensor<[1,1,16384,8192],f32>
}
