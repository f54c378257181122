// a sum over a dim of extent 1: one step from the accumulator's zero
module {
  func.func @main(%a: !torch.vtensor<[1,300],f32>) -> !torch.vtensor<[300],f32> {
    %int0 = torch.constant.int 0
    %dims = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
    %false = torch.constant.bool false
    %none = torch.constant.none
    %r = torch.aten.sum.dim_IntList %a, %dims, %false, %none : !torch.vtensor<[1,300],f32>, !torch.list<int>, !torch.bool, !torch.none -> !torch.vtensor<[300],f32>
    return %r : !torch.vtensor<[300],f32>
  }
}
