func.func @conflict(%x: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[3,2],f32> {
  %0 = torch.aten.relu %x : !torch.vtensor<[2,3],f32> -> !torch.vtensor<[3,2],f32>
  return %0 : !torch.vtensor<[3,2],f32>
}
// CONFLICT: refine-conflict.mlir:2:8: error: 'torch.aten.relu' result #0 is '!torch.vtensor<[3,2],f32>' but its operands make it '!torch.vtensor<[2,3],f32>'
