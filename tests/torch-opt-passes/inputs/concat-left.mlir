// convert-torch-to-linalg-concat.mlir's ops the pass leaves in torch:
// a negative replication pad (PyTorch's rule for it is not torch-mlir's
// form), a pad over a static size 0 (PyTorch's error).
// LEFT-LABEL: func.func @pad_negative(
// LEFT:         torch.aten.replication_pad1d
// LEFT-NOT:     tensor.concat
func.func @pad_negative(%arg0: !torch.vtensor<[3,5],f32>) -> !torch.vtensor<[3,5],f32> {
  %int-1 = torch.constant.int -1
  %int1 = torch.constant.int 1
  %0 = torch.prim.ListConstruct %int-1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %1 = torch.aten.replication_pad1d %arg0, %0 : !torch.vtensor<[3,5],f32>, !torch.list<int> -> !torch.vtensor<[3,5],f32>
  return %1 : !torch.vtensor<[3,5],f32>
}
// LEFT-LABEL: func.func @pad_of_empty(
// LEFT:         torch.aten.replication_pad1d
func.func @pad_of_empty(%arg0: !torch.vtensor<[3,0],f32>) -> !torch.vtensor<[3,2],f32> {
  %int1 = torch.constant.int 1
  %0 = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %1 = torch.aten.replication_pad1d %arg0, %0 : !torch.vtensor<[3,0],f32>, !torch.list<int> -> !torch.vtensor<[3,2],f32>
  return %1 : !torch.vtensor<[3,2],f32>
}
