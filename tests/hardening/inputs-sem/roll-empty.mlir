func.func @f(%arg0: !torch.vtensor<[0,3],f32>) -> !torch.vtensor<[0,3],f32> {
  %int1 = torch.constant.int 1
  %int0 = torch.constant.int 0
  %s = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %d = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %0 = torch.aten.roll %arg0, %s, %d : !torch.vtensor<[0,3],f32>, !torch.list<int>, !torch.list<int> -> !torch.vtensor<[0,3],f32>
  %e = torch.prim.ListConstruct  : () -> !torch.list<int>
  %1 = torch.aten.roll %0, %s, %e : !torch.vtensor<[0,3],f32>, !torch.list<int>, !torch.list<int> -> !torch.vtensor<[0,3],f32>
  return %1 : !torch.vtensor<[0,3],f32>
}
