// RUN: torch-opt -p torch-reduce-op-variants --split-input-file %s | FileCheck %s

// arange(start, end, step, out=x) of int constants, x of as many
// elements: the arange in x's dtype, viewed to x's shape, overwrites x
// (torch-mlir's ArangeStartOutViewModule; PyTorch keeps out's shape).
// CHECK-LABEL: func.func @arange_start_out
// CHECK:       %[[A:.*]] = torch.aten.arange.start_step %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : !torch.int, !torch.int, !torch.int, !torch.int, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[12],si64>
// CHECK:       %[[V:.*]] = torch.aten.view %[[A]], %{{.*}} : !torch.vtensor<[12],si64>, !torch.list<int> -> !torch.vtensor<[3,4],si64>
// CHECK:       torch.overwrite.tensor.contents %{{.*}} overwrites %arg0
// CHECK-NOT:   torch.operator
// CHECK:       return %arg0
func.func @arange_start_out(%arg0: !torch.tensor<[3,4],si64>) -> !torch.tensor<[3,4],si64> {
  %int1 = torch.constant.int 1
  %int13 = torch.constant.int 13
  %0 = torch.operator "aten.arange.start_out"(%int1, %int13, %int1, %arg0) : (!torch.int, !torch.int, !torch.int, !torch.tensor<[3,4],si64>) -> !torch.tensor<[3,4],si64>
  return %0 : !torch.tensor<[3,4],si64>
}

// -----

// arange(end, out=x) into float64.
// CHECK-LABEL: func.func @arange_out_f64
// CHECK:       torch.aten.arange.start_step {{.*}} -> !torch.vtensor<[5],f64>
// CHECK:       torch.aten.view {{.*}} -> !torch.vtensor<[5,1],f64>
func.func @arange_out_f64(%arg0: !torch.tensor<[5,1],f64>) -> !torch.tensor<[5,1],f64> {
  %int5 = torch.constant.int 5
  %0 = torch.operator "aten.arange.out"(%int5, %arg0) : (!torch.int, !torch.tensor<[5,1],f64>) -> !torch.tensor<[5,1],f64>
  return %0 : !torch.tensor<[5,1],f64>
}

// -----

// A count other than out's element count resizes out in PyTorch: left.
// CHECK-LABEL: func.func @arange_out_resizes
// CHECK:       torch.operator "aten.arange.start_out"
func.func @arange_out_resizes(%arg0: !torch.tensor<[3,4],si64>) -> !torch.tensor<[3,4],si64> {
  %int0 = torch.constant.int 0
  %int10 = torch.constant.int 10
  %int1 = torch.constant.int 1
  %0 = torch.operator "aten.arange.start_out"(%int0, %int10, %int1, %arg0) : (!torch.int, !torch.int, !torch.int, !torch.tensor<[3,4],si64>) -> !torch.tensor<[3,4],si64>
  return %0 : !torch.tensor<[3,4],si64>
}
