// Ops whose result size depends on the data stay, and the contract check
// names them: bincount, nonzero, repeat_interleave without output_size of
// repeats not constant, a scatter_reduce of an unknown reduction.
// CHECK: idx-refused.mlir:[[@LINE+9]]:8: error: 'aten.bincount' is not supported by the backend contract
// CHECK: idx-refused.mlir:[[@LINE+9]]:8: error: 'aten.nonzero' is not supported by the backend contract
// CHECK: idx-refused.mlir:[[@LINE+9]]:8: error: 'aten.repeat_interleave.Tensor' is not supported by the backend contract
// CHECK: idx-refused.mlir:[[@LINE+9]]:8: error: 'aten.scatter_reduce.two' is not supported by the backend contract
func.func @refused(%x: !torch.vtensor<[5],si64>, %s: !torch.vtensor<[5],f32>) -> (!torch.vtensor<[?],si64>, !torch.vtensor<[?,1],si64>, !torch.vtensor<[?],si64>, !torch.vtensor<[5],f32>) {
  %none = torch.constant.none
  %int0 = torch.constant.int 0
  %str = torch.constant.str "median"
  %true = torch.constant.bool true
  %0 = torch.aten.bincount %x, %none, %int0 : !torch.vtensor<[5],si64>, !torch.none, !torch.int -> !torch.vtensor<[?],si64>
  %1 = torch.aten.nonzero %x : !torch.vtensor<[5],si64> -> !torch.vtensor<[?,1],si64>
  %2 = torch.aten.repeat_interleave.Tensor %x, %none : !torch.vtensor<[5],si64>, !torch.none -> !torch.vtensor<[?],si64>
  %3 = torch.aten.scatter_reduce.two %s, %int0, %x, %s, %str, %true : !torch.vtensor<[5],f32>, !torch.int, !torch.vtensor<[5],si64>, !torch.vtensor<[5],f32>, !torch.str, !torch.bool -> !torch.vtensor<[5],f32>
  return %0, %1, %2, %3 : !torch.vtensor<[?],si64>, !torch.vtensor<[?,1],si64>, !torch.vtensor<[?],si64>, !torch.vtensor<[5],f32>
}
