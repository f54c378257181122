module {
  func.func @main(%arg0: !torch.vtensor<[3,4],si64>) -> !torch.vtensor<[3],si64> {
    %int1 = torch.constant.int 1
    %int2 = torch.constant.int 2
    %false = torch.constant.bool false
    %none = torch.constant.none
    %0 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
    %1 = torch.aten.linalg_vector_norm %arg0, %int2, %0, %false, %none : !torch.vtensor<[3,4],si64>, !torch.int, !torch.list<int>, !torch.bool, !torch.none -> !torch.vtensor<[3],si64>
    return %1 : !torch.vtensor<[3],si64>
  }
}
