// RUN: torch-opt -p 'func.func(torch-decompose)' --split-input-file %s | FileCheck %s

// "bij,bjk->bki": batch b, kept i (lhs) and k (rhs), contracted j: [2,3,4]
// @ [2,4,5] as one bmm, viewed [2,3,5], permuted to b, k, i.
// CHECK-LABEL: func.func @batched(
// CHECK-SAME:      %[[A:.*]]: !torch.vtensor<[2,3,4],f32>, %[[B:.*]]: !torch.vtensor<[2,4,5],f32>)
// CHECK:         %[[PA:.*]] = torch.aten.permute %[[A]], {{.*}} -> !torch.vtensor<[2,3,4],f32>
// CHECK:         %[[PB:.*]] = torch.aten.permute %[[B]], {{.*}} -> !torch.vtensor<[2,4,5],f32>
// CHECK:         %[[VA:.*]] = torch.aten.view %[[PA]], {{.*}} -> !torch.vtensor<[2,3,4],f32>
// CHECK:         %[[VB:.*]] = torch.aten.view %[[PB]], {{.*}} -> !torch.vtensor<[2,4,5],f32>
// CHECK:         %[[M:.*]] = torch.aten.bmm %[[VA]], %[[VB]] : {{.*}} -> !torch.vtensor<[2,3,5],f32>
// CHECK:         %[[V:.*]] = torch.aten.view %[[M]], {{.*}} -> !torch.vtensor<[2,3,5],f32>
// CHECK:         %[[R:.*]] = torch.aten.permute %[[V]], {{.*}} -> !torch.vtensor<[2,5,3],f32>
// CHECK-NEXT:    return %[[R]]
func.func @batched(%a: !torch.vtensor<[2,3,4],f32>, %b: !torch.vtensor<[2,4,5],f32>) -> !torch.vtensor<[2,5,3],f32> {
  %eq = torch.constant.str "bij,bjk->bki"
  %none = torch.constant.none
  %0 = torch.prim.ListConstruct %a, %b : (!torch.vtensor<[2,3,4],f32>, !torch.vtensor<[2,4,5],f32>) -> !torch.list<vtensor>
  %1 = torch.aten.einsum %eq, %0, %none : !torch.str, !torch.list<vtensor>, !torch.none -> !torch.vtensor<[2,5,3],f32>
  return %1 : !torch.vtensor<[2,5,3],f32>
}

// -----

// A label of one operand alone, not in the output, is summed out first.
// CHECK-LABEL: func.func @summed_label(
// CHECK:         torch.aten.sum.dim_IntList %{{.*}} : !torch.vtensor<[4,2,3],f32>, !torch.list<int>, !torch.bool, !torch.none -> !torch.vtensor<[4,2],f32>
// CHECK:         torch.aten.bmm {{.*}} -> !torch.vtensor<[1,3,2],f32>
func.func @summed_label(%a: !torch.vtensor<[3,4],f32>, %c: !torch.vtensor<[4,2,3],f32>) -> !torch.vtensor<[3,2],f32> {
  %eq = torch.constant.str "ij,jkl->ik"
  %none = torch.constant.none
  %0 = torch.prim.ListConstruct %a, %c : (!torch.vtensor<[3,4],f32>, !torch.vtensor<[4,2,3],f32>) -> !torch.list<vtensor>
  %1 = torch.aten.einsum %eq, %0, %none : !torch.str, !torch.list<vtensor>, !torch.none -> !torch.vtensor<[3,2],f32>
  return %1 : !torch.vtensor<[3,2],f32>
}

// -----

// Left: an ellipsis, a label twice in one operand (a diagonal), sizes
// that differ for one label, integers (bmm of integers).
// CHECK-LABEL: func.func @ellipsis(
// CHECK:         torch.aten.einsum
// CHECK-LABEL: func.func @diagonal(
// CHECK:         torch.aten.einsum
// CHECK-LABEL: func.func @sizes_differ(
// CHECK:         torch.aten.einsum
// CHECK-LABEL: func.func @ints(
// CHECK:         torch.aten.einsum
func.func @ellipsis(%a: !torch.vtensor<[3,4],f32>) -> !torch.vtensor<[4,3],f32> {
  %eq = torch.constant.str "...ij->...ji"
  %none = torch.constant.none
  %0 = torch.prim.ListConstruct %a : (!torch.vtensor<[3,4],f32>) -> !torch.list<vtensor>
  %1 = torch.aten.einsum %eq, %0, %none : !torch.str, !torch.list<vtensor>, !torch.none -> !torch.vtensor<[4,3],f32>
  return %1 : !torch.vtensor<[4,3],f32>
}
func.func @diagonal(%a: !torch.vtensor<[3,3],f32>) -> !torch.vtensor<[3],f32> {
  %eq = torch.constant.str "ii->i"
  %none = torch.constant.none
  %0 = torch.prim.ListConstruct %a : (!torch.vtensor<[3,3],f32>) -> !torch.list<vtensor>
  %1 = torch.aten.einsum %eq, %0, %none : !torch.str, !torch.list<vtensor>, !torch.none -> !torch.vtensor<[3],f32>
  return %1 : !torch.vtensor<[3],f32>
}
func.func @sizes_differ(%a: !torch.vtensor<[3,4],f32>, %b: !torch.vtensor<[1,5],f32>) -> !torch.vtensor<[3,5],f32> {
  %eq = torch.constant.str "ij,jk->ik"
  %none = torch.constant.none
  %0 = torch.prim.ListConstruct %a, %b : (!torch.vtensor<[3,4],f32>, !torch.vtensor<[1,5],f32>) -> !torch.list<vtensor>
  %1 = torch.aten.einsum %eq, %0, %none : !torch.str, !torch.list<vtensor>, !torch.none -> !torch.vtensor<[3,5],f32>
  return %1 : !torch.vtensor<[3,5],f32>
}
func.func @ints(%a: !torch.vtensor<[3],si64>, %b: !torch.vtensor<[3],si64>) -> !torch.vtensor<[],si64> {
  %eq = torch.constant.str "i,i"
  %none = torch.constant.none
  %0 = torch.prim.ListConstruct %a, %b : (!torch.vtensor<[3],si64>, !torch.vtensor<[3],si64>) -> !torch.list<vtensor>
  %1 = torch.aten.einsum %eq, %0, %none : !torch.str, !torch.list<vtensor>, !torch.none -> !torch.vtensor<[],si64>
  return %1 : !torch.vtensor<[],si64>
}
