// RUN: torch-opt -p 'func.func(torch-decompose{keep-contract=1})' --split-input-file %s | FileCheck %s

// With the input's stats, instance_norm is group_norm with a group per
// channel (then decomposed as group_norm is): no instance_norm, and the
// planes [2*3, 4*5] normalized.
// CHECK-LABEL: func.func @input_stats(
// CHECK-NOT:     torch.aten.instance_norm
// CHECK-NOT:     torch.aten.group_norm
// CHECK:         torch.aten.view %{{.*}} -> !torch.vtensor<[2,3,20],f32>
// CHECK:         torch.aten.mean.dim
// CHECK:         return
func.func @input_stats(%x: !torch.vtensor<[2,3,4,5],f32>, %w: !torch.vtensor<[3],f32>, %b: !torch.vtensor<[3],f32>) -> !torch.vtensor<[2,3,4,5],f32> {
  %none = torch.constant.none
  %true = torch.constant.bool true
  %false = torch.constant.bool false
  %m = torch.constant.float 1.000000e-01
  %eps = torch.constant.float 1.000000e-05
  %0 = torch.aten.instance_norm %x, %w, %b, %none, %none, %true, %m, %eps, %false : !torch.vtensor<[2,3,4,5],f32>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>, !torch.none, !torch.none, !torch.bool, !torch.float, !torch.float, !torch.bool -> !torch.vtensor<[2,3,4,5],f32>
  return %0 : !torch.vtensor<[2,3,4,5],f32>
}

// -----

// With the running stats (use_input_stats false), or in f16 (PyTorch
// accumulates in f32): left.
// CHECK-LABEL: func.func @running_stats(
// CHECK:         torch.aten.instance_norm
// CHECK-LABEL: func.func @half(
// CHECK:         torch.aten.instance_norm
func.func @running_stats(%x: !torch.vtensor<[2,3,4],f32>, %rm: !torch.vtensor<[3],f32>, %rv: !torch.vtensor<[3],f32>) -> !torch.vtensor<[2,3,4],f32> {
  %none = torch.constant.none
  %false = torch.constant.bool false
  %m = torch.constant.float 1.000000e-01
  %eps = torch.constant.float 1.000000e-05
  %0 = torch.aten.instance_norm %x, %none, %none, %rm, %rv, %false, %m, %eps, %false : !torch.vtensor<[2,3,4],f32>, !torch.none, !torch.none, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>, !torch.bool, !torch.float, !torch.float, !torch.bool -> !torch.vtensor<[2,3,4],f32>
  return %0 : !torch.vtensor<[2,3,4],f32>
}
func.func @half(%x: !torch.vtensor<[2,3,4],f16>) -> !torch.vtensor<[2,3,4],f16> {
  %none = torch.constant.none
  %true = torch.constant.bool true
  %false = torch.constant.bool false
  %m = torch.constant.float 1.000000e-01
  %eps = torch.constant.float 1.000000e-05
  %0 = torch.aten.instance_norm %x, %none, %none, %none, %none, %true, %m, %eps, %false : !torch.vtensor<[2,3,4],f16>, !torch.none, !torch.none, !torch.none, !torch.none, !torch.bool, !torch.float, !torch.float, !torch.bool -> !torch.vtensor<[2,3,4],f16>
  return %0 : !torch.vtensor<[2,3,4],f16>
}
