// RUN: torch-opt %s -canonicalize -split-input-file | FileCheck %s

// select / index_select / cat of literals (lib/torch/canon_create.c) and
// cast cleanups (lib/torch/canon_cast.c).

// CHECK-LABEL: func.func @gather(
// CHECK-DAG:     %[[S:.*]] = torch.vtensor.literal(dense<[3, 6]> : tensor<2xsi64>)
// CHECK-DAG:     %[[I:.*]] = torch.vtensor.literal(dense<{{\[}}[2, 1], [5, 4]]> : tensor<2x2xsi64>)
// CHECK-DAG:     %[[C:.*]] = torch.vtensor.literal(dense<[1, 2, 3, 4, 5, 6, 9, 9, 9]> : tensor<9xsi64>)
// CHECK:         %[[NEG:.*]] = torch.aten.index_select
// CHECK:         %[[OOB:.*]] = torch.aten.select.int
// CHECK:         return %[[S]], %[[I]], %[[C]], %[[NEG]], %[[OOB]]
func.func @gather() -> (!torch.vtensor<[2],si64>, !torch.vtensor<[2,2],si64>, !torch.vtensor<[9],si64>, !torch.vtensor<[2,1],si64>, !torch.vtensor<[2],si64>) {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int-1 = torch.constant.int -1
  %int3 = torch.constant.int 3
  %x = torch.vtensor.literal(dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xsi64>) : !torch.vtensor<[2,3],si64>
  %f = torch.vtensor.literal(dense<[1, 2, 3, 4, 5, 6]> : tensor<6xsi64>) : !torch.vtensor<[6],si64>
  %n = torch.vtensor.literal(dense<9> : tensor<3xsi64>) : !torch.vtensor<[3],si64>
  %idx = torch.vtensor.literal(dense<[1, 0]> : tensor<2xsi64>) : !torch.vtensor<[2],si64>
  %neg = torch.vtensor.literal(dense<-1> : tensor<1xsi64>) : !torch.vtensor<[1],si64>
  // x[:, -1]
  %0 = torch.aten.select.int %x, %int1, %int-1 : !torch.vtensor<[2,3],si64>, !torch.int, !torch.int -> !torch.vtensor<[2],si64>
  // columns 1 then 0 of x[:, 1:]... of x: [[2, 1], [5, 4]]
  %1 = torch.aten.index_select %x, %int1, %idx : !torch.vtensor<[2,3],si64>, !torch.int, !torch.vtensor<[2],si64> -> !torch.vtensor<[2,2],si64>
  %l = torch.prim.ListConstruct %f, %n : (!torch.vtensor<[6],si64>, !torch.vtensor<[3],si64>) -> !torch.list<vtensor>
  %2 = torch.aten.cat %l, %int0 : !torch.list<vtensor>, !torch.int -> !torch.vtensor<[9],si64>
  // index_select refuses negative indices; select of 3 in a dim of 3 fails
  %3 = torch.aten.index_select %x, %int1, %neg : !torch.vtensor<[2,3],si64>, !torch.int, !torch.vtensor<[1],si64> -> !torch.vtensor<[2,1],si64>
  %4 = torch.aten.select.int %x, %int1, %int3 : !torch.vtensor<[2,3],si64>, !torch.int, !torch.int -> !torch.vtensor<[2],si64>
  return %0, %1, %2, %3, %4 : !torch.vtensor<[2],si64>, !torch.vtensor<[2,2],si64>, !torch.vtensor<[9],si64>, !torch.vtensor<[2,1],si64>, !torch.vtensor<[2],si64>
}

// -----

// A value-semantic op reads the refined source of a cast; a tuple (which
// does not allow refinement) keeps the cast; a cast that refines stays.
// CHECK-LABEL: func.func @casts(
// CHECK:         %[[C:.*]] = torch.tensor_static_info_cast %arg0 : !torch.vtensor<[2],f32> to !torch.vtensor
// CHECK:         %[[R:.*]] = torch.aten.relu %arg0 : !torch.vtensor<[2],f32> -> !torch.vtensor
// CHECK:         %[[D:.*]] = torch.tensor_static_info_cast %arg1 : !torch.vtensor to !torch.vtensor<[3],f32>
// CHECK:         %[[N:.*]] = torch.aten.neg %[[D]]
// CHECK:         torch.prim.TupleConstruct %[[C]], %[[R]], %[[N]]
func.func @casts(%arg0: !torch.vtensor<[2],f32>, %arg1: !torch.vtensor) -> !torch.tuple<vtensor, vtensor, vtensor> {
  %0 = torch.tensor_static_info_cast %arg0 : !torch.vtensor<[2],f32> to !torch.vtensor
  %1 = torch.aten.relu %0 : !torch.vtensor -> !torch.vtensor
  %2 = torch.tensor_static_info_cast %arg1 : !torch.vtensor to !torch.vtensor<[3],f32>
  %3 = torch.aten.neg %2 : !torch.vtensor<[3],f32> -> !torch.vtensor
  %t = torch.prim.TupleConstruct %0, %1, %3 : !torch.vtensor, !torch.vtensor, !torch.vtensor -> !torch.tuple<vtensor, vtensor, vtensor>
  return %t : !torch.tuple<vtensor, vtensor, vtensor>
}

// -----

// CHECK-LABEL: func.func @round_trips(
// CHECK-NEXT:    return %arg0, %arg1
func.func @round_trips(%arg0: !torch.vtensor<[2],f32>, %arg1: !torch.optional<int>) -> (!torch.vtensor<[2],f32>, !torch.optional<int>) {
  %0 = torch.tensor_static_info_cast %arg0 : !torch.vtensor<[2],f32> to !torch.vtensor
  %1 = torch.tensor_static_info_cast %0 : !torch.vtensor to !torch.vtensor<[2],f32>
  %2 = torch.prim.unchecked_cast %arg1 : !torch.optional<int> -> !torch.int
  %3 = torch.derefine %2 : !torch.int to !torch.optional<int>
  return %1, %3 : !torch.vtensor<[2],f32>, !torch.optional<int>
}

// -----

// slice.Tensor of a literal (bounds clamped as PyTorch does), a slice
// that takes everything (whatever the dim), a zero step stays; cat with
// empty operands; the shape of a static tensor as a tensor.
// CHECK-LABEL: func.func @slices(
// CHECK-DAG:     %[[A:.*]] = torch.vtensor.literal(dense<{{\[}}[2], [5]]> : tensor<2x1xsi64>)
// CHECK-DAG:     %[[B:.*]] = torch.vtensor.literal(dense<{{\[}}[1, 3], [4, 6]]> : tensor<2x2xsi64>)
// CHECK-DAG:     %[[S:.*]] = torch.vtensor.literal(dense<[2, 3]> : tensor<2xsi32>)
// CHECK:         %[[Z:.*]] = torch.aten.slice.Tensor
// CHECK:         %[[P:.*]] = torch.aten.cat
// CHECK:         return %[[A]], %[[B]], %arg0, %[[Z]], %arg0, %[[P]], %[[S]]
func.func @slices(%arg0: !torch.vtensor<[?],f32>, %arg1: !torch.int, %arg2: !torch.vtensor<[0],f64>, %arg3: !torch.vtensor<[0],f32>) -> (!torch.vtensor<[2,1],si64>, !torch.vtensor<[2,2],si64>, !torch.vtensor<[?],f32>, !torch.vtensor<[2,3],si64>, !torch.vtensor<[?],f32>, !torch.vtensor<[?],f64>, !torch.vtensor<[2],si32>) {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int-2 = torch.constant.int -2
  %int-100 = torch.constant.int -100
  %int100 = torch.constant.int 100
  %none = torch.constant.none
  %x = torch.vtensor.literal(dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xsi64>) : !torch.vtensor<[2,3],si64>
  // x[:, -2:-1]
  %0 = torch.aten.slice.Tensor %x, %int1, %int-2, %int2, %int1 : !torch.vtensor<[2,3],si64>, !torch.int, !torch.int, !torch.int, !torch.int -> !torch.vtensor<[2,1],si64>
  // x[:, -100:100:2]
  %1 = torch.aten.slice.Tensor %x, %int1, %int-100, %int100, %int2 : !torch.vtensor<[2,3],si64>, !torch.int, !torch.int, !torch.int, !torch.int -> !torch.vtensor<[2,2],si64>
  %2 = torch.aten.slice.Tensor %arg0, %arg1, %int0, %none, %int1 : !torch.vtensor<[?],f32>, !torch.int, !torch.int, !torch.none, !torch.int -> !torch.vtensor<[?],f32>
  %3 = torch.aten.slice.Tensor %x, %int0, %int0, %int2, %int0 : !torch.vtensor<[2,3],si64>, !torch.int, !torch.int, !torch.int, !torch.int -> !torch.vtensor<[2,3],si64>
  %l = torch.prim.ListConstruct %arg3, %arg0 : (!torch.vtensor<[0],f32>, !torch.vtensor<[?],f32>) -> !torch.list<vtensor>
  %4 = torch.aten.cat %l, %int0 : !torch.list<vtensor>, !torch.int -> !torch.vtensor<[?],f32>
  // an empty f64 operand promotes the result: kept
  %p = torch.prim.ListConstruct %arg2, %arg0 : (!torch.vtensor<[0],f64>, !torch.vtensor<[?],f32>) -> !torch.list<vtensor>
  %5 = torch.aten.cat %p, %int0 : !torch.list<vtensor>, !torch.int -> !torch.vtensor<[?],f64>
  %y = torch.vtensor.literal(dense<0.0> : tensor<2x3xf32>) : !torch.vtensor<[2,3],f32>
  %6 = torch.aten._shape_as_tensor %y : !torch.vtensor<[2,3],f32> -> !torch.vtensor<[2],si32>
  return %0, %1, %2, %3, %4, %5, %6 : !torch.vtensor<[2,1],si64>, !torch.vtensor<[2,2],si64>, !torch.vtensor<[?],f32>, !torch.vtensor<[2,3],si64>, !torch.vtensor<[?],f32>, !torch.vtensor<[?],f64>, !torch.vtensor<[2],si32>
}

// -----

// What select picks out of a literal keeps the literal's attribute type
// (signless i64 data of an si64 tensor stays signless), as in torch-mlir.
// CHECK-LABEL: func.func @select_signless(
// CHECK-DAG:     %[[S:.*]] = torch.vtensor.literal(dense<4> : tensor<2xi64>) : !torch.vtensor<[2],si64>
// CHECK-DAG:     %[[G:.*]] = torch.vtensor.literal(dense<[2, 3]> : tensor<2xi64>) : !torch.vtensor<[2],si64>
// CHECK:         return %[[S]], %[[G]]
func.func @select_signless(%d: !torch.int, %i: !torch.int) -> (!torch.vtensor<[2],si64>, !torch.vtensor<[2],si64>) {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %splat = torch.vtensor.literal(dense<4> : tensor<2x2xi64>) : !torch.vtensor<[2,2],si64>
  %0 = torch.aten.select.int %splat, %d, %i : !torch.vtensor<[2,2],si64>, !torch.int, !torch.int -> !torch.vtensor<[2],si64>
  %m = torch.vtensor.literal(dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>) : !torch.vtensor<[2,2],si64>
  %1 = torch.aten.select.int %m, %int0, %int1 : !torch.vtensor<[2,2],si64>, !torch.int, !torch.int -> !torch.vtensor<[2],si64>
  return %0, %1 : !torch.vtensor<[2],si64>, !torch.vtensor<[2],si64>
}
