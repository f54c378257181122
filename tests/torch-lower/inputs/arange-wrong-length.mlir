module {
  func.func @main() -> !torch.vtensor<[5],si64> {
    %int0 = torch.constant.int 0
    %int1 = torch.constant.int 1
    %int3 = torch.constant.int 3
    %none = torch.constant.none
    %0 = torch.aten.arange.start_step %int0, %int3, %int1, %none, %none, %none, %none : !torch.int, !torch.int, !torch.int, !torch.none, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[5],si64>
    return %0 : !torch.vtensor<[5],si64>
  }
}
