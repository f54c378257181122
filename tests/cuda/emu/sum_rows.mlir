// sum over a long last dim: a block per output, warp shuffles and shared
// memory (not a contraction: no tiles)
module {
  func.func @main(%a: !torch.vtensor<[6,3000],f32>) -> !torch.vtensor<[6],f32> {
    %int1 = torch.constant.int 1
    %dims = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
    %false = torch.constant.bool false
    %none = torch.constant.none
    %r = torch.aten.sum.dim_IntList %a, %dims, %false, %none : !torch.vtensor<[6,3000],f32>, !torch.list<int>, !torch.bool, !torch.none -> !torch.vtensor<[6],f32>
    return %r : !torch.vtensor<[6],f32>
  }
}
