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

// -----

// Average pooling, every window inside the input and its padding
// (count_include_pad): zero padding, a sum pool, one divisor (3*2) for all.
// CHECK-LABEL: func.func @avg_pool2d_plain
// CHECK: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: tensor.pad %{{.*}} low[0, 0, 1, 0] high[0, 0, 1, 0]
// CHECK: tensor.yield %[[Z]] : f32
// CHECK: linalg.fill ins(%[[Z]] : f32) outs(%{{.*}} : tensor<2x3x4x4xf32>)
// CHECK: %[[W:.*]] = tensor.empty() : tensor<3x2xf32>
// CHECK: %[[SUM:.*]] = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<[2, 1]> : vector<2xi64>} ins(%{{.*}}, %[[W]] : tensor<2x3x10x5xf32>, tensor<3x2xf32>)
// CHECK: %[[N:.*]] = arith.constant 6 : i64
// CHECK: %[[D:.*]] = arith.sitofp %[[N]] : i64 to f32
// CHECK: linalg.generic {{.*}} ins(%[[SUM]] : tensor<2x3x4x4xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[Q:.*]] = arith.divf %[[IN]], %[[D]] : f32
// CHECK-NEXT: linalg.yield %[[Q]] : f32
func.func @avg_pool2d_plain(%arg0: !torch.vtensor<[2,3,8,5],f32>) -> !torch.vtensor<[2,3,4,4],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int3 = torch.constant.int 3
  %true = torch.constant.bool true
  %false = torch.constant.bool false
  %none = torch.constant.none
  %k = torch.prim.ListConstruct %int3, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %s = torch.prim.ListConstruct %int2, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int1, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.avg_pool2d %arg0, %k, %s, %p, %false, %true, %none : !torch.vtensor<[2,3,8,5],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor<[2,3,4,4],f32>
  return %0 : !torch.vtensor<[2,3,4,4],f32>
}

// -----

// ceil_mode with stride 2: the high end padded by one stride more, and each
// position counts the taps inside the input (PyTorch's divide_factor):
// i0 = o*2 - 0, i1 = min(i0 + 3, 5 + 0), taps = min(i1, 5) - max(i0, 0)
// (count_include_pad=false; with it, i1 - i0).
// si64 divides truncating.  O = ceil((5 - 3) / 2) + 1 = 2.
// CHECK-LABEL: func.func @avg_pool1d_ceil_int
// CHECK: tensor.pad %{{.*}} low[0, 0, 0] high[0, 0, 2]
// CHECK: } : tensor<1x2x5xi64> to tensor<1x2x7xi64>
// CHECK: %[[SUM:.*]] = linalg.pooling_ncw_sum {dilations = dense<1> : vector<1xi64>, strides = dense<2> : vector<1xi64>}
// CHECK-SAME: outs(%{{.*}} : tensor<1x2x2xi64>)
// CHECK: linalg.generic {{.*}} ins(%[[SUM]] : tensor<1x2x2xi64>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: i64, %{{.*}}: i64):
// CHECK-NEXT: %[[O:.*]] = linalg.index 2 : index
// CHECK-NEXT: %[[OI:.*]] = arith.index_cast %[[O]] : index to i64
// CHECK-NEXT: %[[C2:.*]] = arith.constant 2 : i64
// CHECK-NEXT: %[[I0:.*]] = arith.muli %[[OI]], %[[C2]] : i64
// CHECK-NEXT: %[[C3:.*]] = arith.constant 3 : i64
// CHECK-NEXT: %[[E:.*]] = arith.addi %[[I0]], %[[C3]] : i64
// CHECK-NEXT: %[[C5:.*]] = arith.constant 5 : i64
// CHECK-NEXT: %[[I1:.*]] = arith.minsi %[[E]], %[[C5]] : i64
// CHECK: %[[I1C:.*]] = arith.minsi %[[I1]], %{{.*}} : i64
// CHECK: %[[NEG:.*]] = arith.subi %{{.*}}, %[[I0]] : i64
// CHECK: %[[LOW:.*]] = arith.maxsi %[[NEG]], %{{.*}} : i64
// CHECK: %[[SPAN:.*]] = arith.subi %[[I1C]], %[[I0]] : i64
// CHECK: %[[T:.*]] = arith.subi %[[SPAN]], %[[LOW]] : i64
// CHECK: %[[N:.*]] = arith.maxsi %[[T]], %{{.*}} : i64
// CHECK-NEXT: %[[Q:.*]] = arith.divsi %[[IN]], %[[N]] : i64
// CHECK-NEXT: linalg.yield %[[Q]] : i64
func.func @avg_pool1d_ceil_int(%arg0: !torch.vtensor<[1,2,5],si64>) -> !torch.vtensor<[1,2,2],si64> {
  %int0 = torch.constant.int 0
  %int2 = torch.constant.int 2
  %int3 = torch.constant.int 3
  %true = torch.constant.bool true
  %false = torch.constant.bool false
  %k = torch.prim.ListConstruct %int3 : (!torch.int) -> !torch.list<int>
  %s = torch.prim.ListConstruct %int2 : (!torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %0 = torch.aten.avg_pool1d %arg0, %k, %s, %p, %true, %false : !torch.vtensor<[1,2,5],si64>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.bool -> !torch.vtensor<[1,2,2],si64>
  return %0 : !torch.vtensor<[1,2,2],si64>
}

// -----

// 3-D: the sum pool in NDHWC between two transposes; divisor_override is
// the divisor everywhere, count_include_pad or not.
// CHECK-LABEL: func.func @avg_pool3d_override
// CHECK: linalg.transpose ins(%{{.*}} : tensor<1x2x4x4x4xf64>) outs(%{{.*}} : tensor<1x4x4x4x2xf64>) permutation = [0, 2, 3, 4, 1]
// CHECK: linalg.transpose ins(%{{.*}} : tensor<1x2x2x2x2xf64>) outs(%{{.*}} : tensor<1x2x2x2x2xf64>) permutation = [0, 2, 3, 4, 1]
// CHECK: linalg.pooling_ndhwc_sum {dilations = dense<1> : vector<3xi64>, strides = dense<2> : vector<3xi64>}
// CHECK: %[[SUM:.*]] = linalg.transpose {{.*}} permutation = [0, 4, 1, 2, 3]
// CHECK: %[[N:.*]] = arith.constant 3 : i64
// CHECK: %[[D:.*]] = arith.sitofp %[[N]] : i64 to f64
// CHECK: linalg.generic {{.*}} ins(%[[SUM]] : tensor<1x2x2x2x2xf64>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f64, %{{.*}}: f64):
// CHECK-NEXT: arith.divf %[[IN]], %[[D]] : f64
func.func @avg_pool3d_override(%arg0: !torch.vtensor<[1,2,4,4,4],f64>) -> !torch.vtensor<[1,2,2,2,2],f64> {
  %int0 = torch.constant.int 0
  %int2 = torch.constant.int 2
  %int3 = torch.constant.int 3
  %false = torch.constant.bool false
  %k = torch.prim.ListConstruct %int2, %int2, %int2 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %0 = torch.aten.avg_pool3d %arg0, %k, %k, %p, %false, %false, %int3 : !torch.vtensor<[1,2,4,4,4],f64>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.bool, !torch.int -> !torch.vtensor<[1,2,2,2,2],f64>
  return %0 : !torch.vtensor<[1,2,2,2,2],f64>
}

// -----

// Left as they are: f16 (PyTorch sums in f32), dynamic pooled dims, a zero
// divisor_override.
// CHECK-LABEL: func.func @avg_pool_left
// CHECK: torch.aten.avg_pool1d
// CHECK: torch.aten.avg_pool1d
// CHECK: torch.aten.avg_pool3d
// CHECK-NOT: linalg.pooling
func.func @avg_pool_left(%arg0: !torch.vtensor<[1,2,4],f16>, %arg1: !torch.vtensor<[1,2,?],f32>, %arg2: !torch.vtensor<[1,2,4,4,4],f32>) -> (!torch.vtensor<[1,2,2],f16>, !torch.vtensor<[1,2,?],f32>, !torch.vtensor<[1,2,2,2,2],f32>) {
  %int0 = torch.constant.int 0
  %int2 = torch.constant.int 2
  %false = torch.constant.bool false
  %k = torch.prim.ListConstruct %int2 : (!torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %0 = torch.aten.avg_pool1d %arg0, %k, %k, %p, %false, %false : !torch.vtensor<[1,2,4],f16>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.bool -> !torch.vtensor<[1,2,2],f16>
  %1 = torch.aten.avg_pool1d %arg1, %k, %k, %p, %false, %false : !torch.vtensor<[1,2,?],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.bool -> !torch.vtensor<[1,2,?],f32>
  %2 = torch.aten.avg_pool3d %arg2, %k, %k, %p, %false, %false, %int0 : !torch.vtensor<[1,2,4,4,4],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.bool, !torch.int -> !torch.vtensor<[1,2,2,2,2],f32>
  return %0, %1, %2 : !torch.vtensor<[1,2,2],f16>, !torch.vtensor<[1,2,?],f32>, !torch.vtensor<[1,2,2,2,2],f32>
}

// -----

// embedding_bag, mode sum: one generic over (bag, index, column) adding the
// rows whose index j has offsets[b] <= j < next, next being offsets[b + 1]
// (read at 0 for the last bag, whose next is the indices' length).
// offset2bag empty, bag_size and max_indices zeros.
// CHECK-LABEL: func.func @embedding_bag_sum
// CHECK-DAG: %[[W:.*]] = torch_c.to_builtin_tensor %arg0
// CHECK-DAG: %[[OF:.*]] = torch_c.to_builtin_tensor %arg2
// CHECK: %[[NB:.*]] = tensor.dim %[[OF]], %{{.*}} : tensor<?xi64>
// CHECK: tensor.empty(%[[NB]]) : tensor<?x4xf32>
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}], iterator_types = ["parallel", "reduction", "parallel"]}
// CHECK-NEXT: ^bb0(%[[IX:.*]]: i64, %[[O:.*]]: i64, %[[ACC:.*]]: f32):
// CHECK: %[[B1:.*]] = arith.addi %{{.*}}, %{{.*}} : i64
// CHECK: %[[B1X:.*]] = arith.index_cast %[[B1]] : i64 to index
// CHECK: %[[NBI:.*]] = arith.index_cast %[[NB]] : index to i64
// CHECK: %[[LAST:.*]] = arith.cmpi eq, %[[NBI]], %[[B1]] : i64
// CHECK: %[[SAFE:.*]] = arith.select %[[LAST]], %{{.*}}, %[[B1X]] : index
// CHECK: %[[N:.*]] = arith.constant 5 : i64
// CHECK: %[[RAW:.*]] = tensor.extract %[[OF]][%[[SAFE]]] : tensor<?xi64>
// CHECK: %[[NEXT:.*]] = arith.select %[[LAST]], %[[N]], %[[RAW]] : i64
// CHECK: %[[J:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK: %[[LT:.*]] = arith.cmpi slt, %[[O]], %[[J]] : i64
// CHECK: %[[EQ:.*]] = arith.cmpi eq, %[[O]], %[[J]] : i64
// CHECK: %[[FROM:.*]] = arith.ori %[[LT]], %[[EQ]] : i1
// CHECK: %[[BEFORE:.*]] = arith.cmpi slt, %[[J]], %[[NEXT]] : i64
// CHECK: %[[IN:.*]] = arith.andi %[[FROM]], %[[BEFORE]] : i1
// CHECK: %[[ROW:.*]] = arith.index_cast %[[IX]] : i64 to index
// CHECK: %[[V:.*]] = tensor.extract %[[W]][%[[ROW]], %{{.*}}] : tensor<10x4xf32>
// CHECK: %[[S:.*]] = arith.addf %[[V]], %[[ACC]] : f32
// CHECK: %[[Y:.*]] = arith.select %[[IN]], %[[S]], %[[ACC]] : f32
// CHECK: linalg.yield %[[Y]] : f32
// CHECK: tensor.empty() : tensor<0xi64>
// CHECK: linalg.fill ins(%{{.*}} : i64) outs(%{{.*}} : tensor<?xi64>)
// CHECK: linalg.fill ins(%{{.*}} : i64) outs(%{{.*}} : tensor<?xi64>)
func.func @embedding_bag_sum(%arg0: !torch.vtensor<[10,4],f32>, %arg1: !torch.vtensor<[5],si64>, %arg2: !torch.vtensor<[?],si64>) -> (!torch.vtensor<[?,4],f32>, !torch.vtensor<[0],si64>, !torch.vtensor<[?],si64>, !torch.vtensor<[?],si64>) {
  %false = torch.constant.bool false
  %int0 = torch.constant.int 0
  %none = torch.constant.none
  %0:4 = torch.aten.embedding_bag.padding_idx %arg0, %arg1, %arg2, %false, %int0, %false, %none, %false, %none : !torch.vtensor<[10,4],f32>, !torch.vtensor<[5],si64>, !torch.vtensor<[?],si64>, !torch.bool, !torch.int, !torch.bool, !torch.none, !torch.bool, !torch.none -> !torch.vtensor<[?,4],f32>, !torch.vtensor<[0],si64>, !torch.vtensor<[?],si64>, !torch.vtensor<[?],si64>
  return %0#0, %0#1, %0#2, %0#3 : !torch.vtensor<[?,4],f32>, !torch.vtensor<[0],si64>, !torch.vtensor<[?],si64>, !torch.vtensor<[?],si64>
}

// -----

// Left as they are: a padding index (its rows skipped), mode mean, the
// last offset included.
// CHECK-LABEL: func.func @embedding_bag_left
// CHECK-COUNT-3: torch.aten.embedding_bag.padding_idx
// CHECK-NOT: linalg.generic
func.func @embedding_bag_left(%arg0: !torch.vtensor<[10,4],f32>, %arg1: !torch.vtensor<[5],si64>, %arg2: !torch.vtensor<[2],si64>) -> (!torch.vtensor<[2,4],f32>, !torch.vtensor<[2,4],f32>, !torch.vtensor<[1,4],f32>) {
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %none = torch.constant.none
  %0:4 = torch.aten.embedding_bag.padding_idx %arg0, %arg1, %arg2, %false, %int0, %false, %none, %false, %int1 : !torch.vtensor<[10,4],f32>, !torch.vtensor<[5],si64>, !torch.vtensor<[2],si64>, !torch.bool, !torch.int, !torch.bool, !torch.none, !torch.bool, !torch.int -> !torch.vtensor<[2,4],f32>, !torch.vtensor<[0],si64>, !torch.vtensor<[2],si64>, !torch.vtensor<[2],si64>
  %1:4 = torch.aten.embedding_bag.padding_idx %arg0, %arg1, %arg2, %false, %int1, %false, %none, %false, %none : !torch.vtensor<[10,4],f32>, !torch.vtensor<[5],si64>, !torch.vtensor<[2],si64>, !torch.bool, !torch.int, !torch.bool, !torch.none, !torch.bool, !torch.none -> !torch.vtensor<[2,4],f32>, !torch.vtensor<[5],si64>, !torch.vtensor<[2],si64>, !torch.vtensor<[2],si64>
  %2:4 = torch.aten.embedding_bag.padding_idx %arg0, %arg1, %arg2, %false, %int0, %false, %none, %true, %none : !torch.vtensor<[10,4],f32>, !torch.vtensor<[5],si64>, !torch.vtensor<[2],si64>, !torch.bool, !torch.int, !torch.bool, !torch.none, !torch.bool, !torch.none -> !torch.vtensor<[1,4],f32>, !torch.vtensor<[0],si64>, !torch.vtensor<[1],si64>, !torch.vtensor<[1],si64>
  return %0#0, %1#0, %2#0 : !torch.vtensor<[2,4],f32>, !torch.vtensor<[2,4],f32>, !torch.vtensor<[1,4],f32>
}
