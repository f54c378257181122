// The default pipeline names an op it cannot bring to the contract, at
// its location, and writes nothing.
// CHECK: unsupported.mlir:[[@LINE+6]]:8: error: 'aten.foo.bar' is not supported by the backend contract
// CHECK-NOT: error
func.func @main(%arg0: !torch.vtensor<[2],f32>) -> !torch.vtensor<[2],f32> {
  %0 = torch.copy.to_tensor %arg0 : !torch.tensor<[2],f32>
  %1 = torch.aten.relu_ %0 : !torch.tensor<[2],f32> -> !torch.tensor<[2],f32>
  %v = torch.copy.to_vtensor %1 : !torch.vtensor<[2],f32>
  %2 = torch.operator "aten.foo.bar"(%v) : (!torch.vtensor<[2],f32>) -> !torch.vtensor<[2],f32>
  return %2 : !torch.vtensor<[2],f32>
}
