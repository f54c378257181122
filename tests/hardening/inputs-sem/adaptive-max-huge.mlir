func.func @f(%arg0: !torch.vtensor<[1,1,2,1],f32>) -> !torch.vtensor<[1,1,1099511627776,1],f32> {
  %big = torch.constant.int 1099511627776
  %int1 = torch.constant.int 1
  %o = torch.prim.ListConstruct %big, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %0:2 = torch.aten.adaptive_max_pool2d %arg0, %o : !torch.vtensor<[1,1,2,1],f32>, !torch.list<int> -> !torch.vtensor<[1,1,1099511627776,1],f32>, !torch.vtensor<[1,1,1099511627776,1],si64>
  return %0#0 : !torch.vtensor<[1,1,1099511627776,1],f32>
}
