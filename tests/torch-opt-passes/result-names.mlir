// RUN: torch-opt -p '' %s | FileCheck %s
// RUN: torch-opt -p '' %s | torch-opt -p '' | FileCheck %s
// A torch.aten op with a fixed number of results names each one, by the
// PyTorch schema's return names or result0, result1, ... (as MLIR prints
// torch-mlir's ops from their ODS result names); ops with a variable
// number of results keep the %0:N group.

// CHECK-LABEL: func.func @names(
// CHECK:         %values, %indices = torch.aten.max.dim %arg0, %int0, %false : !torch.vtensor<[3,4],f32>, !torch.int, !torch.bool -> !torch.vtensor<[4],f32>, !torch.vtensor<[4],si64>
// CHECK-NEXT:    %values_0, %indices_1 = torch.aten.min.dim %values, %int0, %false :
// CHECK-NEXT:    %result0, %result1 = torch.aten.var_mean.correction %arg0, %none, %none, %false :
// CHECK-NEXT:    %[[L:.*]] = torch.prim.ListConstruct %indices, %indices_1 :
// CHECK-NEXT:    %[[U:.*]]:2 = torch.prim.ListUnpack %[[L]] :
// CHECK-NEXT:    return %indices_1, %result1, %[[U]]#0 :
func.func @names(%arg0: !torch.vtensor<[3,4],f32>) -> (!torch.vtensor<[],si64>, !torch.vtensor<[],f32>, !torch.vtensor<[4],si64>) {
  %int0 = torch.constant.int 0
  %false = torch.constant.bool false
  %none = torch.constant.none
  %0:2 = torch.aten.max.dim %arg0, %int0, %false : !torch.vtensor<[3,4],f32>, !torch.int, !torch.bool -> !torch.vtensor<[4],f32>, !torch.vtensor<[4],si64>
  %1:2 = torch.aten.min.dim %0#0, %int0, %false : !torch.vtensor<[4],f32>, !torch.int, !torch.bool -> !torch.vtensor<[],f32>, !torch.vtensor<[],si64>
  %2:2 = torch.aten.var_mean.correction %arg0, %none, %none, %false : !torch.vtensor<[3,4],f32>, !torch.none, !torch.none, !torch.bool -> !torch.vtensor<[],f32>, !torch.vtensor<[],f32>
  %3 = torch.prim.ListConstruct %0#1, %1#1 : (!torch.vtensor<[4],si64>, !torch.vtensor<[],si64>) -> !torch.list<vtensor>
  %4:2 = torch.prim.ListUnpack %3 : !torch.list<vtensor> -> !torch.vtensor<[4],si64>, !torch.vtensor<[],si64>
  return %1#1, %2#1, %4#0 : !torch.vtensor<[],si64>, !torch.vtensor<[],f32>, !torch.vtensor<[4],si64>
}
