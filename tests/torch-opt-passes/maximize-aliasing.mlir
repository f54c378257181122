// RUN: torch-opt -p torch-maximize-value-semantics --split-input-file -allow-unregistered-dialect %s | FileCheck %s

// A write through a view that maps each element to its own place leaves
// the view's value known: a read of the view is the value written.
// CHECK-LABEL: func.func @write_view_read_view(
// CHECK-SAME:      %{{.*}}: !torch.vtensor<[2,3],f32>, %[[W:.*]]: !torch.vtensor<[3,2],f32>)
// CHECK-NEXT:    %{{.*}} = torch.constant.int 0
// CHECK-NEXT:    %{{.*}} = torch.constant.int 1
// CHECK-NEXT:    return %[[W]] : !torch.vtensor<[3,2],f32>
func.func @write_view_read_view(%arg0: !torch.vtensor<[2,3],f32>, %w: !torch.vtensor<[3,2],f32>) -> !torch.vtensor<[3,2],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %0 = torch.copy.to_tensor %arg0 : !torch.tensor<[2,3],f32>
  %t = torch.aten.transpose.int %0, %int0, %int1 : !torch.tensor<[2,3],f32>, !torch.int, !torch.int -> !torch.tensor<[3,2],f32>
  torch.overwrite.tensor.contents %w overwrites %t : !torch.vtensor<[3,2],f32>, !torch.tensor<[3,2],f32>
  %1 = torch.copy.to_vtensor %t : !torch.vtensor<[3,2],f32>
  return %1 : !torch.vtensor<[3,2],f32>
}

// -----

// ... but the tensor it views is then unknown: returning it is refused.
// CHECK-LABEL: func.func @write_view_return_base(
// CHECK:         torch.copy.to_tensor
// CHECK:         torch.overwrite.tensor.contents
// CHECK:         return %{{.*}} : !torch.tensor<[2,3],f32>
func.func @write_view_return_base(%arg0: !torch.vtensor<[2,3],f32>, %w: !torch.vtensor<[3,2],f32>) -> !torch.tensor<[2,3],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %0 = torch.copy.to_tensor %arg0 : !torch.tensor<[2,3],f32>
  %t = torch.aten.transpose.int %0, %int0, %int1 : !torch.tensor<[2,3],f32>, !torch.int, !torch.int -> !torch.tensor<[3,2],f32>
  torch.overwrite.tensor.contents %w overwrites %t : !torch.vtensor<[3,2],f32>, !torch.tensor<[3,2],f32>
  return %0 : !torch.tensor<[2,3],f32>
}

// -----

// A write through expand (several elements, one place) is refused.
// CHECK-LABEL: func.func @write_expanded(
// CHECK:         torch.overwrite.tensor.contents
func.func @write_expanded(%arg0: !torch.vtensor<[1],f32>, %w: !torch.vtensor<[4],f32>, %size: !torch.list<int>) -> !torch.vtensor<[4],f32> {
  %false = torch.constant.bool false
  %0 = torch.copy.to_tensor %arg0 : !torch.tensor<[1],f32>
  %e = torch.aten.expand %0, %size, %false : !torch.tensor<[1],f32>, !torch.list<int>, !torch.bool -> !torch.tensor<[4],f32>
  torch.overwrite.tensor.contents %w overwrites %e : !torch.vtensor<[4],f32>, !torch.tensor<[4],f32>
  %1 = torch.copy.to_vtensor %e : !torch.vtensor<[4],f32>
  return %1 : !torch.vtensor<[4],f32>
}

// -----

// reshape may copy: made before a write, it may hold the old contents, so
// a read of it after the write is refused; before the write it is the
// reshape of the value then.
// CHECK-LABEL: func.func @maybe_copy_stale(
// CHECK:         torch.aten.reshape %{{.*}} : !torch.tensor<[2,3],f32>
// CHECK:         torch.overwrite.tensor.contents
// CHECK-LABEL: func.func @maybe_copy_fresh(
// CHECK-SAME:      %[[A:.*]]: !torch.vtensor<[2,3],f32>, %[[W:.*]]: !torch.vtensor<[2,3],f32>
// CHECK:         %[[R:.*]] = torch.aten.reshape %[[A]], %{{.*}} : !torch.vtensor<[2,3],f32>, !torch.list<int> -> !torch.vtensor<[6],f32>
// CHECK-NEXT:    return %[[R]], %[[W]]
func.func @maybe_copy_stale(%arg0: !torch.vtensor<[2,3],f32>, %w: !torch.vtensor<[2,3],f32>, %shape: !torch.list<int>) -> !torch.vtensor<[6],f32> {
  %0 = torch.copy.to_tensor %arg0 : !torch.tensor<[2,3],f32>
  %r = torch.aten.reshape %0, %shape : !torch.tensor<[2,3],f32>, !torch.list<int> -> !torch.tensor<[6],f32>
  torch.overwrite.tensor.contents %w overwrites %0 : !torch.vtensor<[2,3],f32>, !torch.tensor<[2,3],f32>
  %1 = torch.copy.to_vtensor %r : !torch.vtensor<[6],f32>
  return %1 : !torch.vtensor<[6],f32>
}
func.func @maybe_copy_fresh(%arg0: !torch.vtensor<[2,3],f32>, %w: !torch.vtensor<[2,3],f32>, %shape: !torch.list<int>) -> (!torch.vtensor<[6],f32>, !torch.vtensor<[2,3],f32>) {
  %0 = torch.copy.to_tensor %arg0 : !torch.tensor<[2,3],f32>
  %r = torch.aten.reshape %0, %shape : !torch.tensor<[2,3],f32>, !torch.list<int> -> !torch.tensor<[6],f32>
  %1 = torch.copy.to_vtensor %r : !torch.vtensor<[6],f32>
  torch.overwrite.tensor.contents %w overwrites %0 : !torch.vtensor<[2,3],f32>, !torch.tensor<[2,3],f32>
  %2 = torch.copy.to_vtensor %0 : !torch.vtensor<[2,3],f32>
  return %1, %2 : !torch.vtensor<[6],f32>, !torch.vtensor<[2,3],f32>
}

// -----

// Returned once, a tensor becomes a fresh copy of its last value; returned
// twice, the caller would get two tensors for one: left.
// CHECK-LABEL: func.func @returned_once(
// CHECK-SAME:      %{{.*}}: !torch.vtensor, %[[W:.*]]: !torch.vtensor)
// CHECK-NEXT:    %[[T:.*]] = torch.copy.to_tensor %[[W]] : !torch.tensor
// CHECK-NEXT:    return %[[T]] : !torch.tensor
// CHECK-LABEL: func.func @returned_twice(
// CHECK:         torch.overwrite.tensor.contents
// CHECK:         return %[[T2:.*]], %[[T2]] :
func.func @returned_once(%arg0: !torch.vtensor, %w: !torch.vtensor) -> !torch.tensor {
  %0 = torch.copy.to_tensor %arg0 : !torch.tensor
  torch.overwrite.tensor.contents %w overwrites %0 : !torch.vtensor, !torch.tensor
  return %0 : !torch.tensor
}
func.func @returned_twice(%arg0: !torch.vtensor, %w: !torch.vtensor) -> (!torch.tensor, !torch.tensor) {
  %0 = torch.copy.to_tensor %arg0 : !torch.tensor
  torch.overwrite.tensor.contents %w overwrites %0 : !torch.vtensor, !torch.tensor
  return %0, %0 : !torch.tensor, !torch.tensor
}

// -----

// A write through a cast writes the whole tensor: the value cast back.
// CHECK-LABEL: func.func @write_through_cast(
// CHECK-SAME:      %{{.*}}: !torch.vtensor, %[[W:.*]]: !torch.vtensor<[2],f32>)
// CHECK-NEXT:    %[[C:.*]] = torch.tensor_static_info_cast %[[W]] : !torch.vtensor<[2],f32> to !torch.vtensor
// CHECK-NEXT:    return %[[C]] : !torch.vtensor
func.func @write_through_cast(%arg0: !torch.vtensor, %w: !torch.vtensor<[2],f32>) -> !torch.vtensor {
  %0 = torch.copy.to_tensor %arg0 : !torch.tensor
  %1 = torch.tensor_static_info_cast %0 : !torch.tensor to !torch.tensor<[2],f32>
  torch.overwrite.tensor.contents %w overwrites %1 : !torch.vtensor<[2],f32>, !torch.tensor<[2],f32>
  %2 = torch.copy.to_vtensor %0 : !torch.vtensor
  return %2 : !torch.vtensor
}

// -----

// expand_as reads only the shape of its second operand: both tensors go.
// CHECK-LABEL: func.func @expand_as_two(
// CHECK-SAME:      %[[A:.*]]: !torch.vtensor, %[[B:.*]]: !torch.vtensor)
// CHECK-NEXT:    %[[E:.*]] = torch.aten.expand_as %[[A]], %[[B]] : !torch.vtensor, !torch.vtensor -> !torch.vtensor
// CHECK-NEXT:    return %[[E]]
func.func @expand_as_two(%a: !torch.vtensor, %b: !torch.vtensor) -> !torch.vtensor {
  %0 = torch.copy.to_tensor %a : !torch.tensor
  %1 = torch.copy.to_tensor %b : !torch.tensor
  %2 = torch.aten.expand_as %0, %1 : !torch.tensor, !torch.tensor -> !torch.tensor
  %3 = torch.copy.to_vtensor %2 : !torch.vtensor
  return %3 : !torch.vtensor
}

// -----

// A read inside the region of an op we do not know: the op may run it
// later, after a write; left.
// CHECK-LABEL: func.func @unknown_region(
// CHECK:         torch.copy.to_tensor
// CHECK:         torch.copy.to_vtensor
func.func @unknown_region(%arg0: !torch.vtensor, %w: !torch.vtensor) -> !torch.vtensor {
  %0 = torch.copy.to_tensor %arg0 : !torch.tensor
  "some.region"() ({
    %1 = torch.copy.to_vtensor %0 : !torch.vtensor
    "some.yield"(%1) : (!torch.vtensor) -> ()
  }) : () -> ()
  torch.overwrite.tensor.contents %w overwrites %0 : !torch.vtensor, !torch.tensor
  %2 = torch.copy.to_vtensor %0 : !torch.vtensor
  return %2 : !torch.vtensor
}

// -----

// The value written has more static info than the tensor (a cast to the
// tensor's, as the overwrite's verifier wants): the copy returned reads
// the cast.
// CHECK-LABEL: func.func @returned_cast(
// CHECK-SAME:      %{{.*}}: !torch.vtensor, %[[W:.*]]: !torch.vtensor<[2],f32>)
// CHECK-NEXT:    %[[C:.*]] = torch.tensor_static_info_cast %[[W]] : !torch.vtensor<[2],f32> to !torch.vtensor
// CHECK-NEXT:    %[[T:.*]] = torch.copy.to_tensor %[[C]] : !torch.tensor
// CHECK-NEXT:    return %[[T]] : !torch.tensor
func.func @returned_cast(%arg0: !torch.vtensor, %w: !torch.vtensor<[2],f32>) -> !torch.tensor {
  %0 = torch.copy.to_tensor %arg0 : !torch.tensor
  %c = torch.tensor_static_info_cast %w : !torch.vtensor<[2],f32> to !torch.vtensor
  torch.overwrite.tensor.contents %c overwrites %0 : !torch.vtensor, !torch.tensor
  return %0 : !torch.tensor
}
