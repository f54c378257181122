// sort and topk that the rank formulation cannot take stay, and the
// contract check names them: a dynamic extent along dim, k beyond the
// extent (PyTorch refuses it), a 0-dim input.
// CHECK: sort-refused.mlir:[[@LINE+8]]:10: error: 'aten.sort' is not supported by the backend contract
// CHECK: sort-refused.mlir:[[@LINE+8]]:10: error: 'aten.topk' is not supported by the backend contract
// CHECK: sort-refused.mlir:[[@LINE+8]]:10: error: 'aten.sort' is not supported by the backend contract
func.func @refused(%x: !torch.vtensor<[2,?],f32>, %y: !torch.vtensor<[2,4],f32>, %z: !torch.vtensor<[],f32>) -> (!torch.vtensor<[2,?],f32>, !torch.vtensor<[2,?],f32>, !torch.vtensor<[],f32>) {
  %int1 = torch.constant.int 1
  %int0 = torch.constant.int 0
  %int5 = torch.constant.int 5
  %true = torch.constant.bool true
  %0:2 = torch.aten.sort %x, %int1, %true : !torch.vtensor<[2,?],f32>, !torch.int, !torch.bool -> !torch.vtensor<[2,?],f32>, !torch.vtensor<[2,?],si64>
  %1:2 = torch.aten.topk %y, %int5, %int1, %true, %true : !torch.vtensor<[2,4],f32>, !torch.int, !torch.int, !torch.bool, !torch.bool -> !torch.vtensor<[2,?],f32>, !torch.vtensor<[2,?],si64>
  %2:2 = torch.aten.sort %z, %int0, %true : !torch.vtensor<[],f32>, !torch.int, !torch.bool -> !torch.vtensor<[],f32>, !torch.vtensor<[],si64>
  return %0#0, %1#0, %2#0 : !torch.vtensor<[2,?],f32>, !torch.vtensor<[2,?],f32>, !torch.vtensor<[],f32>
}
