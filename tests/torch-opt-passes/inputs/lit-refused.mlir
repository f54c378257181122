// sym_constrain_range_for_size with a constant max <= 2 is an error, as in eager
// CHECK: error: max value to constrain_range_for_size must be greater than 2, got: 2
func.func @constrain_small_max(%arg0: !torch.int) {
  %none = torch.constant.none
  %int2 = torch.constant.int 2
  torch.aten.sym_constrain_range_for_size %arg0, %none, %int2 : !torch.int, !torch.none, !torch.int
  return
}
