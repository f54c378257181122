func.func @f(%arg0: !torch.vtensor<[1,2,7,6],f32>) -> !torch.vtensor<[1,2,0,3],f32> {
  %int0 = torch.constant.int 0
  %int3 = torch.constant.int 3
  %o = torch.prim.ListConstruct %int0, %int3 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.adaptive_avg_pool2d %arg0, %o : !torch.vtensor<[1,2,7,6],f32>, !torch.list<int> -> !torch.vtensor<[1,2,0,3],f32>
  return %0 : !torch.vtensor<[1,2,0,3],f32>
}
