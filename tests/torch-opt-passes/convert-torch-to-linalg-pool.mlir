// RUN: torch-opt --convert-torch-to-linalg -split-input-file -verify-diagnostics %s | FileCheck %s
// RUN: torch-opt --convert-torch-to-linalg -split-input-file %s | torch-opt -p '' -split-input-file | FileCheck %s
// RUN: torch-opt --convert-torch-to-linalg=allow-non-finites=false -split-input-file %s | FileCheck %s --check-prefix=FINITE

// Dynamic max pooling: padded with -inf, output (H + 2p - d(k-1) - 1) floordiv s + 1.
// CHECK-LABEL: func.func @max_pool1d_dyn
// CHECK: %[[NEG:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[PAD:.*]] = tensor.pad %{{.*}} low[0, 0, 1] high[0, 0, 1]
// CHECK: tensor.yield %[[NEG]] : f32
// CHECK: %[[H:.*]] = tensor.dim %{{.*}}, %c2
// CHECK: %[[C:.*]] = arith.constant 1 : index
// CHECK: %[[S:.*]] = arith.subi %[[H]], %[[C]] : index
// CHECK: arith.floordivsi %[[S]], %{{.*}} : index
// CHECK: %[[FILL:.*]] = linalg.fill ins(%[[NEG]] : f32) outs(%{{.*}} : tensor<?x?x?xf32>)
// CHECK: %[[WIN:.*]] = tensor.empty() : tensor<3xf32>
// CHECK: linalg.pooling_ncw_max {dilations = dense<1> : vector<1xi64>, strides = dense<2> : vector<1xi64>} ins(%[[PAD]], %[[WIN]] : tensor<?x?x?xf32>, tensor<3xf32>) outs(%[[FILL]] : tensor<?x?x?xf32>)
// FINITE-LABEL: func.func @max_pool1d_dyn
// FINITE: %[[NEG:.*]] = arith.constant -3.40282347E+38 : f32
// FINITE: tensor.yield %[[NEG]] : f32
// FINITE: linalg.fill ins(%[[NEG]] : f32)
func.func @max_pool1d_dyn(%arg0: !torch.vtensor<[?,?,?],f32>) -> !torch.vtensor<[?,?,?],f32> {
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int3 = torch.constant.int 3
  %false = torch.constant.bool false
  %k = torch.prim.ListConstruct %int3 : (!torch.int) -> !torch.list<int>
  %s = torch.prim.ListConstruct %int2 : (!torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %d = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %0 = torch.aten.max_pool1d %arg0, %k, %s, %p, %d, %false : !torch.vtensor<[?,?,?],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool -> !torch.vtensor<[?,?,?],f32>
  return %0 : !torch.vtensor<[?,?,?],f32>
}

// -----

// Static dims are computed here: W = (8 + 0 - 1*(2-1) - 1) / 2 + 1 = 4; empty stride
// and padding lists as PyTorch's defaults (stride = kernel).
// CHECK-LABEL: func.func @max_pool2d_part
// CHECK: tensor.pad %{{.*}} low[0, 0, 0, 0] high[0, 0, 0, 0]
// CHECK: } : tensor<2x3x?x8xf16> to tensor<2x3x?x8xf16>
// CHECK: tensor.empty(%{{.*}}) : tensor<2x3x?x4xf16>
// CHECK: linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
// CHECK-SAME: outs(%{{.*}} : tensor<2x3x?x4xf16>)
// FINITE-LABEL: func.func @max_pool2d_part
// FINITE: arith.constant -6.550400e+04 : f16
func.func @max_pool2d_part(%arg0: !torch.vtensor<[2,3,?,8],f16>) -> !torch.vtensor<[2,3,?,4],f16> {
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %false = torch.constant.bool false
  %k = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %e = torch.prim.ListConstruct  : () -> !torch.list<int>
  %d = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.max_pool2d %arg0, %k, %e, %e, %d, %false : !torch.vtensor<[2,3,?,8],f16>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool -> !torch.vtensor<[2,3,?,4],f16>
  return %0 : !torch.vtensor<[2,3,?,4],f16>
}

// -----

// Left as they are: ceil_mode, integer elements.
// CHECK-LABEL: func.func @max_pool_left
// CHECK: torch.aten.max_pool2d
// CHECK: torch.aten.max_pool1d
// CHECK-NOT: linalg.pooling
func.func @max_pool_left(%arg0: !torch.vtensor<[?,?,?,?],f32>, %arg1: !torch.vtensor<[?,?,?],si32>) -> (!torch.vtensor<[?,?,?,?],f32>, !torch.vtensor<[?,?,?],si32>) {
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %true = torch.constant.bool true
  %false = torch.constant.bool false
  %k = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %d = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %z = torch.prim.ListConstruct  : () -> !torch.list<int>
  %0 = torch.aten.max_pool2d %arg0, %k, %k, %z, %d, %true : !torch.vtensor<[?,?,?,?],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool -> !torch.vtensor<[?,?,?,?],f32>
  %k1 = torch.prim.ListConstruct %int2 : (!torch.int) -> !torch.list<int>
  %d1 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %1 = torch.aten.max_pool1d %arg1, %k1, %k1, %z, %d1, %false : !torch.vtensor<[?,?,?],si32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool -> !torch.vtensor<[?,?,?],si32>
  return %0, %1 : !torch.vtensor<[?,?,?,?],f32>, !torch.vtensor<[?,?,?],si32>
}
