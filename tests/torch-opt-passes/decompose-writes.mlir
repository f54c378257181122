// RUN: torch-opt -p torch-decompose %s | FileCheck %s
// RUN: torch-opt -p torch-decompose %s | torch-opt -p '' > /dev/null

// NumToTensor of an unranked result is a 0-dim literal: a literal of
// tensor<*xi64> (as it once printed) does not read back.
// CHECK-LABEL: func.func @num_to_tensor_unranked(
// CHECK: torch.vtensor.literal(dense<5> : tensor<i64>) : !torch.vtensor<[],si64>
func.func @num_to_tensor_unranked() -> !torch.vtensor<*,si64> {
  %int5 = torch.constant.int 5
  %0 = torch.prim.NumToTensor.Scalar %int5 : !torch.int -> !torch.vtensor<*,si64>
  return %0 : !torch.vtensor<*,si64>
}

// slice_scatter is index_put of the clamped arange; select_scatter puts
// one row of the unsqueezed source; a whole-dim slice_scatter is its source.
// CHECK-LABEL: func.func @scatters(
// CHECK: torch.constant.int 9223372036854775807
// CHECK-NEXT: %[[S1:.*]] = torch.constant.int 1
// CHECK-NEXT: %[[S4:.*]] = torch.constant.int 4
// CHECK-NEXT: %[[S2:.*]] = torch.constant.int 2
// CHECK: %[[R:.*]] = torch.aten.arange.start_step %[[S1]], %[[S4]], %[[S2]]
// CHECK: %[[L:.*]] = torch.prim.ListConstruct %{{.*}}, %[[R]] : (!torch.none, !torch.vtensor<[2],si64>) -> !torch.list<optional<vtensor>>
// CHECK: %[[P:.*]] = torch.aten.index_put %arg0, %[[L]], %arg1
// CHECK: torch.aten.unsqueeze %arg2
// CHECK: torch.aten.arange.start_step
// CHECK: torch.aten.index_put %[[P]]
// CHECK-NOT: slice_scatter
// CHECK: return
func.func @scatters(%x: !torch.vtensor<[3,5],f32>, %z: !torch.vtensor<[3,2],f32>, %r: !torch.vtensor<[5],f32>, %w: !torch.vtensor<[3,5],f32>) -> (!torch.vtensor<[3,5],f32>, !torch.vtensor<[3,5],f32>) {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %intm1 = torch.constant.int -1
  %none = torch.constant.none
  %big = torch.constant.int 9223372036854775807
  %0 = torch.aten.slice_scatter %x, %z, %int1, %int1, %intm1, %int2 : !torch.vtensor<[3,5],f32>, !torch.vtensor<[3,2],f32>, !torch.int, !torch.int, !torch.int, !torch.int -> !torch.vtensor<[3,5],f32>
  %1 = torch.aten.select_scatter %0, %r, %int0, %intm1 : !torch.vtensor<[3,5],f32>, !torch.vtensor<[5],f32>, !torch.int, !torch.int -> !torch.vtensor<[3,5],f32>
  %2 = torch.aten.slice_scatter %x, %w, %int0, %none, %big, %int1 : !torch.vtensor<[3,5],f32>, !torch.vtensor<[3,5],f32>, !torch.int, !torch.none, !torch.int, !torch.int -> !torch.vtensor<[3,5],f32>
  return %1, %2 : !torch.vtensor<[3,5],f32>, !torch.vtensor<[3,5],f32>
}

// index_put with one boolean mask over the leading dims and one value
// is a where.
// CHECK-LABEL: func.func @masked_put(
// CHECK: %[[M:.*]] = torch.aten.unsqueeze %arg1
// CHECK: torch.aten.where.self %[[M]], %arg2, %arg0
func.func @masked_put(%x: !torch.vtensor<[3,4],f32>, %m: !torch.vtensor<[3],i1>, %v: !torch.vtensor<[],f32>) -> !torch.vtensor<[3,4],f32> {
  %false = torch.constant.bool false
  %0 = torch.derefine %m : !torch.vtensor<[3],i1> to !torch.optional<vtensor>
  %1 = torch.prim.ListConstruct %0 : (!torch.optional<vtensor>) -> !torch.list<optional<vtensor>>
  %2 = torch.aten.index_put %x, %1, %v, %false : !torch.vtensor<[3,4],f32>, !torch.list<optional<vtensor>>, !torch.vtensor<[],f32>, !torch.bool -> !torch.vtensor<[3,4],f32>
  return %2 : !torch.vtensor<[3,4],f32>
}
