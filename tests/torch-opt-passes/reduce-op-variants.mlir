// RUN: torch-opt -p torch-reduce-op-variants --split-input-file %s | FileCheck %s

// The seed slides, "ReduceOpVariants: value-semantic ops": the operand is
// read with copy.to_vtensor and the result handed back with to_tensor.
// CHECK-LABEL: func.func @value_semantic(
// CHECK-SAME:      %[[ARG:.*]]: !torch.tensor<[],f32>) -> !torch.tensor<[],f32> {
// CHECK-NEXT:    %[[V:.*]] = torch.copy.to_vtensor %[[ARG]] : !torch.vtensor<[],f32>
// CHECK-NEXT:    %[[T:.*]] = torch.aten.tanh %[[V]] : !torch.vtensor<[],f32> -> !torch.vtensor<[],f32>
// CHECK-NEXT:    %[[R:.*]] = torch.copy.to_tensor %[[T]] : !torch.tensor<[],f32>
// CHECK-NEXT:    return %[[R]] : !torch.tensor<[],f32>
func.func @value_semantic(%arg0: !torch.tensor<[],f32>) -> !torch.tensor<[],f32> {
  %0 = torch.aten.tanh %arg0 : !torch.tensor<[],f32> -> !torch.tensor<[],f32>
  return %0 : !torch.tensor<[],f32>
}

// -----

// The seed slides, "ReduceOpVariants: trailing _ inplace variants".
// CHECK-LABEL: func.func @inplace(
// CHECK-SAME:      %[[A0:.*]]: !torch.tensor<[2],f32>, %[[A1:.*]]: !torch.tensor<[2],f32>)
// CHECK-NEXT:    %[[I1:.*]] = torch.constant.int 1
// CHECK-NEXT:    %[[V0:.*]] = torch.copy.to_vtensor %[[A0]] : !torch.vtensor<[2],f32>
// CHECK-NEXT:    %[[V1:.*]] = torch.copy.to_vtensor %[[A1]] : !torch.vtensor<[2],f32>
// CHECK-NEXT:    %[[ADD:.*]] = torch.aten.add.Tensor %[[V0]], %[[V1]], %[[I1]] : !torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>, !torch.int -> !torch.vtensor<[2],f32>
// CHECK-NEXT:    %[[T:.*]] = torch.copy.to_tensor %[[ADD]] : !torch.tensor<[2],f32>
// CHECK-NEXT:    %[[V:.*]] = torch.copy.to_vtensor %[[T]] : !torch.vtensor<[2],f32>
// CHECK-NEXT:    torch.overwrite.tensor.contents %[[V]] overwrites %[[A0]] : !torch.vtensor<[2],f32>, !torch.tensor<[2],f32>
// CHECK-NEXT:    return %[[A0]], %[[A0]] : !torch.tensor<[2],f32>, !torch.tensor<[2],f32>
func.func @inplace(%arg0: !torch.tensor<[2],f32>, %arg1: !torch.tensor<[2],f32>) -> (!torch.tensor<[2],f32>, !torch.tensor<[2],f32>) {
  %int1 = torch.constant.int 1
  %0 = torch.aten.add_.Tensor %arg0, %arg1, %int1 : !torch.tensor<[2],f32>, !torch.tensor<[2],f32>, !torch.int -> !torch.tensor<[2],f32>
  return %0, %arg0 : !torch.tensor<[2],f32>, !torch.tensor<[2],f32>
}

// -----

// What fx-import prints for x.relu_(): a value operand of an in-place op
// needs no copy; copy_ becomes aten.copy, whose value is self's dtype and
// shape.
// CHECK-LABEL: func.func @imported(
// CHECK:         %[[H:.*]] = torch.copy.to_tensor %arg0 : !torch.tensor<[2,3],f32>
// CHECK-NEXT:    %[[V:.*]] = torch.copy.to_vtensor %[[H]] : !torch.vtensor<[2,3],f32>
// CHECK-NEXT:    %[[R:.*]] = torch.aten.relu %[[V]] : !torch.vtensor<[2,3],f32> -> !torch.vtensor<[2,3],f32>
// CHECK-NEXT:    %[[T:.*]] = torch.copy.to_tensor %[[R]] : !torch.tensor<[2,3],f32>
// CHECK-NEXT:    %[[V2:.*]] = torch.copy.to_vtensor %[[T]] : !torch.vtensor<[2,3],f32>
// CHECK-NEXT:    torch.overwrite.tensor.contents %[[V2]] overwrites %[[H]]
// CHECK-NEXT:    %[[V3:.*]] = torch.copy.to_vtensor %[[H]] : !torch.vtensor<[2,3],f32>
// CHECK-NEXT:    %[[C:.*]] = torch.aten.copy %[[V3]], %arg1, %false : !torch.vtensor<[2,3],f32>, !torch.vtensor<[3],f32>, !torch.bool -> !torch.vtensor<[2,3],f32>
// CHECK:         torch.overwrite.tensor.contents %{{.*}} overwrites %[[H]]
// CHECK-NEXT:    %[[OUT:.*]] = torch.copy.to_vtensor %[[H]]
// CHECK-NEXT:    return %[[OUT]]
func.func @imported(%arg0: !torch.vtensor<[2,3],f32>, %arg1: !torch.vtensor<[3],f32>) -> !torch.vtensor<[2,3],f32> {
  %false = torch.constant.bool false
  %0 = torch.copy.to_tensor %arg0 : !torch.tensor<[2,3],f32>
  %1 = torch.aten.relu_ %0 : !torch.tensor<[2,3],f32> -> !torch.tensor<[2,3],f32>
  %2 = torch.aten.copy_ %1, %arg1, %false : !torch.tensor<[2,3],f32>, !torch.vtensor<[3],f32>, !torch.bool -> !torch.tensor<[2,3],f32>
  %3 = torch.copy.to_vtensor %2 : !torch.vtensor<[2,3],f32>
  return %3 : !torch.vtensor<[2,3],f32>
}

// -----

// In-place views change the handle's shape: they become the view op on
// the same (non-value) handle, aliasing kept.
// CHECK-LABEL: func.func @inplace_view(
// CHECK:         %[[S:.*]] = torch.aten.squeeze.dim %{{.*}}, %{{.*}} : !torch.tensor<[1,3],f32>, !torch.int -> !torch.tensor<[3],f32>
// CHECK-NEXT:    torch.copy.to_vtensor %[[S]] : !torch.vtensor<[3],f32>
func.func @inplace_view(%arg0: !torch.vtensor<[1,3],f32>) -> !torch.vtensor<[3],f32> {
  %int0 = torch.constant.int 0
  %0 = torch.copy.to_tensor %arg0 : !torch.tensor<[1,3],f32>
  %1 = torch.aten.squeeze_.dim %0, %int0 : !torch.tensor<[1,3],f32>, !torch.int -> !torch.tensor<[3],f32>
  %2 = torch.copy.to_vtensor %1 : !torch.vtensor<[3],f32>
  return %2 : !torch.vtensor<[3],f32>
}

// -----

// out= forms, as generic ops: the functional op, then an overwrite of
// `out`.  A generic op naming a registered op becomes that op.
// CHECK-LABEL: func.func @out_form(
// CHECK:         %[[ADD:.*]] = torch.aten.add.Tensor %arg0, %arg1, %{{.*}} : !torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>, !torch.int -> !torch.vtensor<[2],f32>
// CHECK-NEXT:    %[[T:.*]] = torch.copy.to_tensor %[[ADD]] : !torch.tensor<[2],f32>
// CHECK-NEXT:    %[[V:.*]] = torch.copy.to_vtensor %[[T]]
// CHECK-NEXT:    torch.overwrite.tensor.contents %[[V]] overwrites %arg2
// CHECK-NEXT:    %[[R:.*]] = torch.aten.relu %arg0 : !torch.vtensor<[2],f32> -> !torch.vtensor<[2],f32>
// CHECK-NEXT:    return %arg2, %[[R]]
func.func @out_form(%arg0: !torch.vtensor<[2],f32>, %arg1: !torch.vtensor<[2],f32>, %arg2: !torch.tensor<[2],f32>) -> (!torch.tensor<[2],f32>, !torch.vtensor<[2],f32>) {
  %int1 = torch.constant.int 1
  %0 = torch.operator "aten.add.out"(%arg0, %arg1, %int1, %arg2) : (!torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>, !torch.int, !torch.tensor<[2],f32>) -> !torch.tensor<[2],f32>
  %1 = torch.operator "aten.relu"(%arg0) : (!torch.vtensor<[2],f32>) -> !torch.vtensor<[2],f32>
  return %0, %1 : !torch.tensor<[2],f32>, !torch.vtensor<[2],f32>
}

// -----

// CPU flash attention whose logsumexp is unused (the name with or without
// torch.): scaled_dot_product_attention(q, k, v, attn_mask, dropout_p,
// is_causal, scale, enable_gqa=false).  One whose logsumexp is used stays.
// CHECK-LABEL: func.func @flash_cpu(
// CHECK-SAME:      %[[Q:.*]]: !torch.vtensor<[1,2,5,4],f32>, %[[K:.*]]: !torch.vtensor<[1,2,5,4],f32>, %[[V:.*]]: !torch.vtensor<[1,2,5,4],f32>, %[[M:.*]]: !torch.vtensor<[5,5],f32>
// CHECK-DAG:     %[[P:.*]] = torch.constant.float 0.000000e+00
// CHECK-DAG:     %[[C:.*]] = torch.constant.bool true
// CHECK-DAG:     %[[S:.*]] = torch.constant.float 5.000000e-01
// CHECK-DAG:     %[[G:.*]] = torch.constant.bool false
// CHECK:         %[[A:.*]] = torch.aten.scaled_dot_product_attention %[[Q]], %[[K]], %[[V]], %[[M]], %[[P]], %[[C]], %[[S]], %[[G]] : !torch.vtensor<[1,2,5,4],f32>, !torch.vtensor<[1,2,5,4],f32>, !torch.vtensor<[1,2,5,4],f32>, !torch.vtensor<[5,5],f32>, !torch.float, !torch.bool, !torch.float, !torch.bool -> !torch.vtensor<[1,2,5,4],f32>
// CHECK:         %[[B:.*]] = torch.aten.scaled_dot_product_attention %[[Q]], %[[K]], %[[V]], %[[M]], %[[P]], %[[C]], %[[S]], %{{.*}} :
// CHECK:         %[[L:.*]]:2 = torch.operator "aten._scaled_dot_product_flash_attention_for_cpu"
// CHECK:         return %[[A]], %[[B]], %[[L]]#1
func.func @flash_cpu(%q: !torch.vtensor<[1,2,5,4],f32>, %k: !torch.vtensor<[1,2,5,4],f32>, %v: !torch.vtensor<[1,2,5,4],f32>, %m: !torch.vtensor<[5,5],f32>) -> (!torch.vtensor<[1,2,5,4],f32>, !torch.vtensor<[1,2,5,4],f32>, !torch.vtensor<[1,2,5],f32>) {
  %p = torch.constant.float 0.0
  %causal = torch.constant.bool true
  %scale = torch.constant.float 0.5
  %0:2 = torch.operator "aten._scaled_dot_product_flash_attention_for_cpu"(%q, %k, %v, %p, %causal, %m, %scale) : (!torch.vtensor<[1,2,5,4],f32>, !torch.vtensor<[1,2,5,4],f32>, !torch.vtensor<[1,2,5,4],f32>, !torch.float, !torch.bool, !torch.vtensor<[5,5],f32>, !torch.float) -> (!torch.vtensor<[1,2,5,4],f32>, !torch.vtensor<[1,2,5],f32>)
  %1:2 = torch.operator "torch.aten._scaled_dot_product_flash_attention_for_cpu"(%q, %k, %v, %p, %causal, %m, %scale) : (!torch.vtensor<[1,2,5,4],f32>, !torch.vtensor<[1,2,5,4],f32>, !torch.vtensor<[1,2,5,4],f32>, !torch.float, !torch.bool, !torch.vtensor<[5,5],f32>, !torch.float) -> (!torch.vtensor<[1,2,5,4],f32>, !torch.vtensor<[1,2,5],f32>)
  %2:2 = torch.operator "aten._scaled_dot_product_flash_attention_for_cpu"(%q, %k, %v, %p, %causal, %m, %scale) : (!torch.vtensor<[1,2,5,4],f32>, !torch.vtensor<[1,2,5,4],f32>, !torch.vtensor<[1,2,5,4],f32>, !torch.float, !torch.bool, !torch.vtensor<[5,5],f32>, !torch.float) -> (!torch.vtensor<[1,2,5,4],f32>, !torch.vtensor<[1,2,5],f32>)
  return %0#0, %1#0, %2#1 : !torch.vtensor<[1,2,5,4],f32>, !torch.vtensor<[1,2,5,4],f32>, !torch.vtensor<[1,2,5],f32>
}
