// Ops decompose_nnx.c leaves, and the contract check names them:
// native_batch_norm in training with running stats (eager updates them in
// place, no value of ours), nll_loss_forward of a dynamic batch.
// CHECK: nnx-refused.mlir:[[@LINE+7]]:{{[0-9]+}}: error: 'aten.native_batch_norm' is not supported by the backend contract
// CHECK: nnx-refused.mlir:[[@LINE+13]]:{{[0-9]+}}: error: 'aten.nll_loss_forward' is not supported by the backend contract
func.func @batch_norm_running_stats(%x: !torch.vtensor<[2,3,4],f32>, %rm: !torch.vtensor<[3],f32>, %rv: !torch.vtensor<[3],f32>) -> !torch.vtensor<[2,3,4],f32> {
  %none = torch.constant.none
  %true = torch.constant.bool true
  %m = torch.constant.float 1.000000e-01
  %eps = torch.constant.float 1.000000e-05
  %0:3 = torch.aten.native_batch_norm %x, %none, %none, %rm, %rv, %true, %m, %eps : !torch.vtensor<[2,3,4],f32>, !torch.none, !torch.none, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>, !torch.bool, !torch.float, !torch.float -> !torch.vtensor<[2,3,4],f32>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>
  return %0#0 : !torch.vtensor<[2,3,4],f32>
}
func.func @nll_dynamic(%x: !torch.vtensor<[?,4],f32>, %t: !torch.vtensor<[?],si64>) -> (!torch.vtensor<[],f32>, !torch.vtensor<[],f32>) {
  %none = torch.constant.none
  %int2 = torch.constant.int 2
  %int-100 = torch.constant.int -100
  %0:2 = torch.aten.nll_loss_forward %x, %t, %none, %int2, %int-100 : !torch.vtensor<[?,4],f32>, !torch.vtensor<[?],si64>, !torch.none, !torch.int, !torch.int -> !torch.vtensor<[],f32>, !torch.vtensor<[],f32>
  return %0#0, %0#1 : !torch.vtensor<[],f32>, !torch.vtensor<[],f32>
}
