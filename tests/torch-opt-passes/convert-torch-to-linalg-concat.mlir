// RUN: torch-opt --convert-torch-to-linalg -split-input-file %s | FileCheck %s
// RUN: torch-opt --convert-torch-to-linalg -split-input-file %s | torch-opt -p '' -split-input-file | FileCheck %s
// RUN: torch-opt -p 'func.func(decompose-tensor-concat)' -split-input-file %s | FileCheck %s --check-prefix=DEC
// RUN: torch-opt -p 'torch-backend-to-linalg-on-tensors-backend-pipeline' -split-input-file %s | FileCheck %s --check-prefix=PIPE
// RUN: torch-opt -p 'torch-backend-to-linalg-on-tensors-backend-pipeline' -split-input-file %s | mlir-opt-16 -split-input-file
// RUN: torch-opt -p 'func.func(canonicalize)' -split-input-file %s | FileCheck %s --check-prefix=CANON
// RUN: torch-opt --convert-torch-to-linalg %S/inputs/concat-left.mlir | FileCheck %S/inputs/concat-left.mlir --check-prefix=LEFT
// RUN: torch-opt -p '' -split-input-file -verify-diagnostics %S/inputs/tensor-concat-invalid.mlir
// RUN: not torch-opt -p '' -split-input-file %S/inputs/tensor-concat-invalid.mlir 2>&1 | FileCheck %S/inputs/tensor-concat-invalid.mlir --check-prefix=INVALID

// tensor.concat: MLIR's custom form reads and prints back, and the
// generic form carries dim as an i64 attribute.
// CHECK-LABEL: func.func @roundtrip(
// CHECK:         %[[C:.*]] = tensor.concat dim(1) %arg0, %arg1 : (tensor<?x4xf32>, tensor<2x?xf32>) -> tensor<2x?xf32>
// CHECK:         return %[[C]]
// DEC-LABEL:   func.func @roundtrip(
// DEC:           %[[C0:.*]] = arith.constant 0 : index
// DEC:           %[[D1:.*]] = tensor.dim %arg0, %{{.*}} : tensor<?x4xf32>
// DEC:           %[[D2:.*]] = tensor.dim %arg1, %{{.*}} : tensor<2x?xf32>
// DEC:           %[[SUM:.*]] = arith.addi %{{.*}}, %[[D2]] : index
// DEC:           %[[E:.*]] = tensor.empty(%[[SUM]]) : tensor<2x?xf32>
// DEC:           %[[I0:.*]] = tensor.insert_slice %arg0 into %[[E]][0, 0] [%[[D1]], 4] [1, 1] : tensor<?x4xf32> into tensor<2x?xf32>
// DEC:           %[[I1:.*]] = tensor.insert_slice %arg1 into %[[I0]][0, 4] [2, %[[D2]]] [1, 1] : tensor<2x?xf32> into tensor<2x?xf32>
// DEC:           return %[[I1]]
func.func @roundtrip(%a: tensor<?x4xf32>, %b: tensor<2x?xf32>) -> tensor<2x?xf32> {
  %0 = "tensor.concat"(%a, %b) {dim = 1 : i64} : (tensor<?x4xf32>, tensor<2x?xf32>) -> tensor<2x?xf32>
  return %0 : tensor<2x?xf32>
}

// -----

// static inputs: the empty and the slices are static, a result type less
// static than the inputs' gets a tensor.cast
// DEC-LABEL:   func.func @decompose_static(
// DEC:           %[[E:.*]] = tensor.empty() : tensor<5x3xi8>
// DEC:           %[[I0:.*]] = tensor.insert_slice %arg0 into %[[E]][0, 0] [2, 3] [1, 1] : tensor<2x3xi8> into tensor<5x3xi8>
// DEC:           %[[I1:.*]] = tensor.insert_slice %arg1 into %[[I0]][2, 0] [1, 3] [1, 1] : tensor<1x3xi8> into tensor<5x3xi8>
// DEC:           %[[I2:.*]] = tensor.insert_slice %arg2 into %[[I1]][3, 0] [2, 3] [1, 1] : tensor<2x3xi8> into tensor<5x3xi8>
// DEC:           %[[C:.*]] = tensor.cast %[[I2]] : tensor<5x3xi8> to tensor<?x?xi8>
// DEC:           return %[[C]]
// DEC-NOT:       tensor.concat
func.func @decompose_static(%a: tensor<2x3xi8>, %b: tensor<1x3xi8>, %c: tensor<2x3xi8>) -> tensor<?x?xi8> {
  %0 = tensor.concat dim(0) %a, %b, %c : (tensor<2x3xi8>, tensor<1x3xi8>, tensor<2x3xi8>) -> tensor<?x?xi8>
  return %0 : tensor<?x?xi8>
}

// -----

// cat: si32 converted to the result's f32 (sitofp), the legacy rank-1
// empty operand and the one of size 0 along the dim dropped, dim -1 is 1
// CHECK-LABEL: func.func @cat_mixed(
// CHECK-DAG:     %[[A:.*]] = torch_c.to_builtin_tensor %arg0 : !torch.vtensor<[2,3],f32> -> tensor<2x3xf32>
// CHECK-DAG:     %[[B:.*]] = torch_c.to_builtin_tensor %arg1 : !torch.vtensor<[2,?],si32> -> tensor<2x?xi32>
// CHECK:         %[[G:.*]] = linalg.generic {{.*}} ins(%[[B]] : tensor<2x?xi32>) outs(%{{.*}} : tensor<2x?xf32>)
// CHECK:           arith.sitofp %{{.*}} : i32 to f32
// CHECK:         %[[C:.*]] = tensor.concat dim(1) %[[A]], %[[G]] : (tensor<2x3xf32>, tensor<2x?xf32>) -> tensor<2x?xf32>
// CHECK:         %[[R:.*]] = torch_c.from_builtin_tensor %[[C]] : tensor<2x?xf32> -> !torch.vtensor<[2,?],f32>
// CHECK:         return %[[R]]
// PIPE-LABEL:  func.func @cat_mixed(
// PIPE-NOT:      tensor.concat
// PIPE:          arith.sitofp
// PIPE:          %[[E:.*]] = tensor.empty(%{{.*}}) : tensor<2x?xf32>
// PIPE:          tensor.insert_slice %arg0 into %[[E]][0, 0] [2, 3] [1, 1] : tensor<2x3xf32> into tensor<2x?xf32>
// PIPE:          tensor.insert_slice %{{.*}} into %{{.*}}[0, 3] [2, %{{.*}}] [1, 1] : tensor<2x?xf32> into tensor<2x?xf32>
// PIPE-NOT:      tensor.concat
func.func @cat_mixed(%arg0: !torch.vtensor<[2,3],f32>, %arg1: !torch.vtensor<[2,?],si32>, %arg2: !torch.vtensor<[0],f32>, %arg3: !torch.vtensor<[2,0],f32>) -> !torch.vtensor<[2,?],f32> {
  %int-1 = torch.constant.int -1
  %0 = torch.prim.ListConstruct %arg2, %arg0, %arg3, %arg1 : (!torch.vtensor<[0],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,0],f32>, !torch.vtensor<[2,?],si32>) -> !torch.list<vtensor>
  %1 = torch.aten.cat %0, %int-1 : !torch.list<vtensor>, !torch.int -> !torch.vtensor<[2,?],f32>
  return %1 : !torch.vtensor<[2,?],f32>
}

// -----

// every operand empty along the dim: no concat, the first of the
// result's rank is the result
// CHECK-LABEL: func.func @cat_all_empty(
// CHECK-NOT:     tensor.concat
// CHECK:         %[[B:.*]] = torch_c.to_builtin_tensor %arg1 : !torch.vtensor<[0,4],f32> -> tensor<0x4xf32>
// CHECK:         %[[R:.*]] = torch_c.from_builtin_tensor %[[B]] : tensor<0x4xf32> -> !torch.vtensor<[0,4],f32>
// CHECK:         return %[[R]]
func.func @cat_all_empty(%arg0: !torch.vtensor<[0],f32>, %arg1: !torch.vtensor<[0,4],f32>) -> !torch.vtensor<[0,4],f32> {
  %int0 = torch.constant.int 0
  %0 = torch.prim.ListConstruct %arg0, %arg1, %arg1 : (!torch.vtensor<[0],f32>, !torch.vtensor<[0,4],f32>, !torch.vtensor<[0,4],f32>) -> !torch.list<vtensor>
  %1 = torch.aten.cat %0, %int0 : !torch.list<vtensor>, !torch.int -> !torch.vtensor<[0,4],f32>
  return %1 : !torch.vtensor<[0,4],f32>
}

// -----

// replication_pad1d: the first column once, the last one twice; sizes
// read as arith.constant pairs (index, size), the end at size - 1
// CHECK-LABEL: func.func @pad1d(
// CHECK:         %[[T:.*]] = torch_c.to_builtin_tensor %arg0 : !torch.vtensor<[3,5],f32> -> tensor<3x5xf32>
// CHECK:         %[[L:.*]] = tensor.extract_slice %[[T]][0, 0] [3, 1] [1, 1] : tensor<3x5xf32> to tensor<3x1xf32>
// CHECK:         %[[C5:.*]] = arith.constant 5 : index
// CHECK:         %[[C1:.*]] = arith.constant 1 : index
// CHECK:         %[[END:.*]] = arith.subi %[[C5]], %[[C1]] : index
// CHECK:         %[[R:.*]] = tensor.extract_slice %[[T]][0, %[[END]]] [3, 1] [1, 1] : tensor<3x5xf32> to tensor<3x1xf32>
// CHECK:         %[[RR:.*]] = tensor.concat dim(1) %[[R]], %[[R]] : (tensor<3x1xf32>, tensor<3x1xf32>) -> tensor<3x2xf32>
// CHECK:         %[[P:.*]] = tensor.concat dim(1) %[[L]], %[[T]], %[[RR]] : (tensor<3x1xf32>, tensor<3x5xf32>, tensor<3x2xf32>) -> tensor<3x8xf32>
// CHECK:         %[[CAST:.*]] = tensor.cast %[[P]] : tensor<3x8xf32> to tensor<3x8xf32>
// CHECK:         torch_c.from_builtin_tensor %[[CAST]]
func.func @pad1d(%arg0: !torch.vtensor<[3,5],f32>) -> !torch.vtensor<[3,8],f32> {
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %0 = torch.prim.ListConstruct %int1, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %1 = torch.aten.replication_pad1d %arg0, %0 : !torch.vtensor<[3,5],f32>, !torch.list<int> -> !torch.vtensor<[3,8],f32>
  return %1 : !torch.vtensor<[3,8],f32>
}

// -----

// replication_pad2d of a dynamic height: the width first (no left pad,
// one right), then the height, whose end is tensor.dim - 1; a pad of 0 adds nothing
// CHECK-LABEL: func.func @pad2d_dynamic(
// CHECK:         %[[T:.*]] = torch_c.to_builtin_tensor %arg0 : !torch.vtensor<[2,?,4],si64> -> tensor<2x?x4xi64>
// CHECK:         %[[D:.*]] = tensor.dim %[[T]], %{{.*}} : tensor<2x?x4xi64>
// CHECK:         %[[R:.*]] = tensor.extract_slice %[[T]][0, 0, %{{.*}}] [2, %{{.*}}, 1] [1, 1, 1] : tensor<2x?x4xi64> to tensor<2x?x1xi64>
// CHECK:         %[[W:.*]] = tensor.concat dim(2) %[[T]], %[[R]] : (tensor<2x?x4xi64>, tensor<2x?x1xi64>) -> tensor<2x?x5xi64>
// CHECK:         %[[TOP:.*]] = tensor.extract_slice %[[W]][0, 0, 0] [2, 1, 5] [1, 1, 1] : tensor<2x?x5xi64> to tensor<2x1x5xi64>
// CHECK:         %[[TT:.*]] = tensor.concat dim(1) %[[TOP]], %[[TOP]], %[[TOP]] : (tensor<2x1x5xi64>, tensor<2x1x5xi64>, tensor<2x1x5xi64>) -> tensor<2x3x5xi64>
// CHECK:         %[[DH:.*]] = tensor.dim %[[W]], %{{.*}} : tensor<2x?x5xi64>
// CHECK:         %[[END:.*]] = arith.subi %[[DH]], %{{.*}} : index
// CHECK:         %[[BOT:.*]] = tensor.extract_slice %[[W]][0, %[[END]], 0] [2, 1, 5] [1, 1, 1] : tensor<2x?x5xi64> to tensor<2x1x5xi64>
// CHECK:         %[[H:.*]] = tensor.concat dim(1) %[[TT]], %[[W]], %[[BOT]] : (tensor<2x3x5xi64>, tensor<2x?x5xi64>, tensor<2x1x5xi64>) -> tensor<2x?x5xi64>
// CHECK:         tensor.cast %[[H]] : tensor<2x?x5xi64> to tensor<2x?x5xi64>
// PIPE-LABEL:  func.func @pad2d_dynamic(
// PIPE-NOT:      tensor.concat
// PIPE:          return
func.func @pad2d_dynamic(%arg0: !torch.vtensor<[2,?,4],si64>) -> !torch.vtensor<[2,?,5],si64> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int3 = torch.constant.int 3
  %0 = torch.prim.ListConstruct %int0, %int1, %int3, %int1 : (!torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %1 = torch.aten.replication_pad2d %arg0, %0 : !torch.vtensor<[2,?,4],si64>, !torch.list<int> -> !torch.vtensor<[2,?,5],si64>
  return %1 : !torch.vtensor<[2,?,5],si64>
}

// -----

// replication_pad3d: depth, height and width from the last dim back
// CHECK-LABEL: func.func @pad3d(
// CHECK:         tensor.concat dim(3) %{{.*}}, %{{.*}} : (tensor<1x2x2x1xf32>, tensor<1x2x2x2xf32>) -> tensor<1x2x2x3xf32>
// CHECK:         tensor.concat dim(2) %{{.*}}, %{{.*}} : (tensor<1x2x2x3xf32>, tensor<1x2x1x3xf32>) -> tensor<1x2x3x3xf32>
// CHECK:         tensor.concat dim(1) %{{.*}}, %{{.*}} : (tensor<1x1x3x3xf32>, tensor<1x2x3x3xf32>) -> tensor<1x3x3x3xf32>
func.func @pad3d(%arg0: !torch.vtensor<[1,2,2,2],f32>) -> !torch.vtensor<[1,3,3,3],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %0 = torch.prim.ListConstruct %int1, %int0, %int0, %int1, %int1, %int0 : (!torch.int, !torch.int, !torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %1 = torch.aten.replication_pad3d %arg0, %0 : !torch.vtensor<[1,2,2,2],f32>, !torch.list<int> -> !torch.vtensor<[1,3,3,3],f32>
  return %1 : !torch.vtensor<[1,3,3,3],f32>
}

// -----

// canonicalize folds a concat of one input of the result's type (MLIR's
// fold) and keeps one that changes the type
// CANON-LABEL: func.func @single(
// CANON-NOT:     tensor.concat
// CANON:         return %arg0 : tensor<2x?xf32>
// CANON-LABEL: func.func @single_refined(
// CANON:         tensor.concat dim(0) %arg0 : (tensor<2x?xf32>) -> tensor<2x3xf32>
// DEC-LABEL:   func.func @single_refined(
// DEC:           %[[D:.*]] = tensor.dim %arg0, %{{.*}} : tensor<2x?xf32>
// DEC:           %[[E:.*]] = tensor.empty() : tensor<2x3xf32>
// DEC:           tensor.insert_slice %arg0 into %[[E]][0, 0] [2, %[[D]]] [1, 1] : tensor<2x?xf32> into tensor<2x3xf32>
func.func @single(%a: tensor<2x?xf32>) -> tensor<2x?xf32> {
  %0 = tensor.concat dim(1) %a : (tensor<2x?xf32>) -> tensor<2x?xf32>
  return %0 : tensor<2x?xf32>
}
func.func @single_refined(%a: tensor<2x?xf32>) -> tensor<2x3xf32> {
  %0 = tensor.concat dim(0) %a : (tensor<2x?xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
