// RUN: torch-opt -p torch-reduce-op-variants --split-input-file %s | FileCheck %s
// RUN: torch-opt -p torch-reduce-op-variants --split-input-file -verify-diagnostics %S/inputs/reduce-op-lists-refused.mlir

// A list of non-value tensors is read element by element where the op
// reads it: the copies come after the in-place write to %a, so the stack
// sees the doubled %a, as PyTorch's does.
// CHECK-LABEL: func.func @list_read_at_op(
// CHECK-SAME:      %[[A:.*]]: !torch.tensor<[3],f32>, %[[B:.*]]: !torch.tensor<[3],f32>)
// CHECK:         %[[L:.*]] = torch.prim.ListConstruct %[[A]], %[[B]] : (!torch.tensor<[3],f32>, !torch.tensor<[3],f32>) -> !torch.list<tensor<[3],f32>>
// CHECK:         torch.overwrite.tensor.contents %{{.*}} overwrites %[[A]]
// CHECK-NEXT:    %[[VA:.*]] = torch.copy.to_vtensor %[[A]] : !torch.vtensor<[3],f32>
// CHECK-NEXT:    %[[VB:.*]] = torch.copy.to_vtensor %[[B]] : !torch.vtensor<[3],f32>
// CHECK-NEXT:    %[[VL:.*]] = torch.prim.ListConstruct %[[VA]], %[[VB]] : (!torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>) -> !torch.list<vtensor<[3],f32>>
// CHECK-NEXT:    %[[S:.*]] = torch.aten.stack %[[VL]], %{{.*}} : !torch.list<vtensor<[3],f32>>, !torch.int -> !torch.vtensor<[2,3],f32>
// CHECK-NEXT:    torch.copy.to_tensor %[[S]] : !torch.tensor<[2,3],f32>
// CHECK-NOT:     !torch.list<tensor
func.func @list_read_at_op(%a: !torch.tensor<[3],f32>, %b: !torch.tensor<[3],f32>) -> !torch.tensor<[2,3],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %list = torch.prim.ListConstruct %a, %b : (!torch.tensor<[3],f32>, !torch.tensor<[3],f32>) -> !torch.list<tensor<[3],f32>>
  %0 = torch.aten.add_.Tensor %a, %a, %int1 : !torch.tensor<[3],f32>, !torch.tensor<[3],f32>, !torch.int -> !torch.tensor<[3],f32>
  %1 = torch.aten.stack %list, %int0 : !torch.list<tensor<[3],f32>>, !torch.int -> !torch.tensor<[2,3],f32>
  return %1 : !torch.tensor<[2,3],f32>
}

// -----

// Optional tensors and lists of optional tensors: Nones stay, tensors are
// read; the list type follows.
// CHECK-LABEL: func.func @optionals(
// CHECK-SAME:      %[[X:.*]]: !torch.tensor<[5],f32>, %[[I:.*]]: !torch.tensor<[2],si64>, %[[W:.*]]: !torch.tensor<[5],f32>)
// CHECK:         %[[NONE:.*]] = torch.constant.none
// CHECK:         %[[VX:.*]] = torch.copy.to_vtensor %[[X]] : !torch.vtensor<[5],f32>
// CHECK-NEXT:    %[[VI:.*]] = torch.copy.to_vtensor %[[I]] : !torch.vtensor<[2],si64>
// CHECK-NEXT:    %[[VL:.*]] = torch.prim.ListConstruct %[[NONE]], %[[VI]] : (!torch.none, !torch.vtensor<[2],si64>) -> !torch.list<optional<vtensor>>
// CHECK-NEXT:    torch.aten.index.Tensor %[[VX]], %[[VL]] : !torch.vtensor<[5],f32>, !torch.list<optional<vtensor>> -> !torch.vtensor
// CHECK:         %[[VW:.*]] = torch.copy.to_vtensor %[[W]] : !torch.vtensor<[5],f32>
// CHECK-NEXT:    %[[OW:.*]] = torch.derefine %[[VW]] : !torch.vtensor<[5],f32> to !torch.optional<vtensor<[5],f32>>
// CHECK-NEXT:    torch.aten.layer_norm %{{.*}}, %{{.*}}, %[[OW]], %[[ONONE:.*]], %{{.*}}, %{{.*}} : !torch.vtensor<[5],f32>, !torch.list<int>, !torch.optional<vtensor<[5],f32>>, !torch.optional<tensor>,
func.func @optionals(%x: !torch.tensor<[5],f32>, %i: !torch.tensor<[2],si64>, %w: !torch.tensor<[5],f32>) -> (!torch.tensor, !torch.tensor<[5],f32>) {
  %none = torch.constant.none
  %list = torch.prim.ListConstruct %none, %i : (!torch.none, !torch.tensor<[2],si64>) -> !torch.list<optional<tensor>>
  %0 = torch.aten.index.Tensor %x, %list : !torch.tensor<[5],f32>, !torch.list<optional<tensor>> -> !torch.tensor
  %int5 = torch.constant.int 5
  %shape = torch.prim.ListConstruct %int5 : (!torch.int) -> !torch.list<int>
  %ow = torch.derefine %w : !torch.tensor<[5],f32> to !torch.optional<tensor>
  %onone = torch.derefine %none : !torch.none to !torch.optional<tensor>
  %eps = torch.constant.float 1.0e-05
  %false = torch.constant.bool false
  %1 = torch.aten.layer_norm %x, %shape, %ow, %onone, %eps, %false : !torch.tensor<[5],f32>, !torch.list<int>, !torch.optional<tensor>, !torch.optional<tensor>, !torch.float, !torch.bool -> !torch.tensor<[5],f32>
  return %0, %1 : !torch.tensor, !torch.tensor<[5],f32>
}

// -----

// A tensor literal is a fresh tensor holding the value literal.
// CHECK-LABEL: func.func @literal(
// CHECK-NEXT:    %[[L:.*]] = torch.vtensor.literal(dense<[1, 2]> : tensor<2xsi64>) : !torch.vtensor<[2],si64>
// CHECK-NEXT:    %[[C:.*]] = torch.tensor_static_info_cast %[[L]] : !torch.vtensor<[2],si64> to !torch.vtensor
// CHECK-NEXT:    %[[T:.*]] = torch.copy.to_tensor %[[C]] : !torch.tensor
// CHECK-NEXT:    return %[[T]]
func.func @literal() -> !torch.tensor {
  %0 = torch.tensor.literal(dense<[1, 2]> : tensor<2xsi64>) : !torch.tensor
  return %0 : !torch.tensor
}

// -----

// add_ of f32 by f64 adds in f64 and rounds once into the f32 tensor, as
// PyTorch does: the value op keeps its f64 result, a to.dtype follows.
// CHECK-LABEL: func.func @inplace_promotes(
// CHECK:         %[[ADD:.*]] = torch.aten.add.Tensor %{{.*}}, %{{.*}}, %{{.*}} : !torch.vtensor<[3],f32>, !torch.vtensor<[3],f64>, !torch.int -> !torch.vtensor<[3],f64>
// CHECK-NEXT:    %[[I6:.*]] = torch.constant.int 6
// CHECK-NEXT:    %[[F:.*]] = torch.constant.bool false
// CHECK-NEXT:    %[[N:.*]] = torch.constant.none
// CHECK-NEXT:    %[[TO:.*]] = torch.aten.to.dtype %[[ADD]], %[[I6]], %[[F]], %[[F]], %[[N]] : !torch.vtensor<[3],f64>, !torch.int, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor<[3],f32>
// CHECK-NEXT:    %[[T:.*]] = torch.copy.to_tensor %[[TO]] : !torch.tensor<[3],f32>
func.func @inplace_promotes(%a: !torch.tensor<[3],f32>, %b: !torch.tensor<[3],f64>) -> !torch.tensor<[3],f32> {
  %int1 = torch.constant.int 1
  %0 = torch.aten.add_.Tensor %a, %b, %int1 : !torch.tensor<[3],f32>, !torch.tensor<[3],f64>, !torch.int -> !torch.tensor<[3],f32>
  return %0 : !torch.tensor<[3],f32>
}

// -----

// In inference batch_norm only reads its running statistics.
// CHECK-LABEL: func.func @batch_norm_inference(
// CHECK:         torch.aten.batch_norm %{{.*}} : !torch.vtensor<[2,3],f32>, !torch.optional<tensor>, !torch.optional<tensor>, !torch.optional<vtensor<[3],f32>>, !torch.optional<vtensor<[3],f32>>,
func.func @batch_norm_inference(%x: !torch.tensor<[2,3],f32>, %rm: !torch.tensor<[3],f32>, %rv: !torch.tensor<[3],f32>) -> !torch.tensor<[2,3],f32> {
  %none = torch.constant.none
  %w = torch.derefine %none : !torch.none to !torch.optional<tensor>
  %m = torch.derefine %rm : !torch.tensor<[3],f32> to !torch.optional<tensor>
  %v = torch.derefine %rv : !torch.tensor<[3],f32> to !torch.optional<tensor>
  %f = torch.constant.float 1.0e-01
  %false = torch.constant.bool false
  %0 = torch.aten.batch_norm %x, %w, %w, %m, %v, %false, %f, %f, %false : !torch.tensor<[2,3],f32>, !torch.optional<tensor>, !torch.optional<tensor>, !torch.optional<tensor>, !torch.optional<tensor>, !torch.bool, !torch.float, !torch.float, !torch.bool -> !torch.tensor<[2,3],f32>
  return %0 : !torch.tensor<[2,3],f32>
}
