// RUN: torch-opt %s -canonicalize -split-input-file | FileCheck %s

// Pool and convolution forms, device(type, index), list.sort and
// item(ones/zeros) (lib/torch/canon_nn.c, canon_tensor.c), and what
// must stay.

// CHECK-LABEL: func.func @pool_indices
// CHECK:         %[[P:.*]] = torch.aten.max_pool2d %arg0
// CHECK:         %[[Q_0:[^ ,]+]], %[[Q_1:[^ ,]+]] = torch.aten.max_pool2d_with_indices %arg0
// CHECK:         return %[[P]], %[[Q_1]] :
func.func @pool_indices(%x: !torch.vtensor<[1,1,4,4],f32>) -> (!torch.vtensor<[1,1,2,2],f32>, !torch.vtensor<[1,1,2,2],si64>) {
  %false = torch.constant.bool false
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int0 = torch.constant.int 0
  %k = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %d = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %0:2 = torch.aten.max_pool2d_with_indices %x, %k, %k, %p, %d, %false : !torch.vtensor<[1,1,4,4],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool -> !torch.vtensor<[1,1,2,2],f32>, !torch.vtensor<[1,1,2,2],si64>
  %1:2 = torch.aten.max_pool2d_with_indices %x, %k, %k, %p, %d, %false : !torch.vtensor<[1,1,4,4],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool -> !torch.vtensor<[1,1,2,2],f32>, !torch.vtensor<[1,1,2,2],si64>
  return %0#0, %1#1 : !torch.vtensor<[1,1,2,2],f32>, !torch.vtensor<[1,1,2,2],si64>
}

// -----

// One-int lists spelled out; an empty stride (the kernel) stays empty.
// CHECK-LABEL: func.func @avg_pool_ints
// CHECK-DAG:     %[[K:.*]] = torch.prim.ListConstruct %int3, %int3 :
// CHECK-DAG:     %[[E:.*]] = torch.prim.ListConstruct  : () -> !torch.list<int>
// CHECK-DAG:     %[[P:.*]] = torch.prim.ListConstruct %int1, %int1 :
// CHECK:         torch.aten.avg_pool2d %arg0, %[[K]], %[[E]], %[[P]],
func.func @avg_pool_ints(%x: !torch.vtensor<[1,1,6,6],f32>) -> !torch.vtensor<[1,1,2,2],f32> {
  %int3 = torch.constant.int 3
  %int1 = torch.constant.int 1
  %false = torch.constant.bool false
  %none = torch.constant.none
  %k = torch.prim.ListConstruct %int3 : (!torch.int) -> !torch.list<int>
  %s = torch.prim.ListConstruct : () -> !torch.list<int>
  %p = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %0 = torch.aten.avg_pool2d %x, %k, %s, %p, %false, %false, %none : !torch.vtensor<[1,1,6,6],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor<[1,1,2,2],f32>
  return %0 : !torch.vtensor<[1,1,2,2],f32>
}

// -----

// A 3-d convolution gets three copies; a 1-d one keeps its one int.
// CHECK-LABEL: func.func @conv_ints
// CHECK-DAG:     %[[S1:.*]] = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
// CHECK-DAG:     %[[S:.*]] = torch.prim.ListConstruct %int1, %int1, %int1 :
// CHECK:         torch.aten.convolution %arg0, %arg1, %none, %[[S]],
// CHECK:         torch.aten.convolution %arg2, %arg3, %none, %[[S1]], %[[S1]], %[[S1]], %false, %[[S1]],
func.func @conv_ints(%x: !torch.vtensor<[1,1,3,3,3],f32>, %w: !torch.vtensor<[1,1,1,1,1],f32>, %y: !torch.vtensor<[1,1,3],f32>, %v: !torch.vtensor<[1,1,1],f32>) -> (!torch.vtensor<[1,1,3,3,3],f32>, !torch.vtensor<[1,1,3],f32>) {
  %int1 = torch.constant.int 1
  %false = torch.constant.bool false
  %none = torch.constant.none
  %l = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %0 = torch.aten.convolution %x, %w, %none, %l, %l, %l, %false, %l, %int1 : !torch.vtensor<[1,1,3,3,3],f32>, !torch.vtensor<[1,1,1,1,1],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int -> !torch.vtensor<[1,1,3,3,3],f32>
  %1 = torch.aten.convolution %y, %v, %none, %l, %l, %l, %false, %l, %int1 : !torch.vtensor<[1,1,3],f32>, !torch.vtensor<[1,1,1],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int -> !torch.vtensor<[1,1,3],f32>
  return %0, %1 : !torch.vtensor<[1,1,3,3,3],f32>, !torch.vtensor<[1,1,3],f32>
}

// -----

// A negative index raises in PyTorch; an unknown type stays.
// CHECK-LABEL: func.func @device
// CHECK:         %[[D:.*]] = torch.constant.device "cpu:1"
// CHECK:         %[[N:.*]] = torch.aten.device.with_index %{{.*}}, %int-1
// CHECK:         %[[U:.*]] = torch.aten.device.with_index %arg0, %int1
// CHECK:         return %[[D]], %[[N]], %[[U]] :
func.func @device(%s: !torch.str) -> (!torch.Device, !torch.Device, !torch.Device) {
  %cpu = torch.constant.str "cpu"
  %int1 = torch.constant.int 1
  %int-1 = torch.constant.int -1
  %0 = torch.aten.device.with_index %cpu, %int1 : !torch.str, !torch.int -> !torch.Device
  %1 = torch.aten.device.with_index %cpu, %int-1 : !torch.str, !torch.int -> !torch.Device
  %2 = torch.aten.device.with_index %s, %int1 : !torch.str, !torch.int -> !torch.Device
  return %0, %1, %2 : !torch.Device, !torch.Device, !torch.Device
}

// -----

// CHECK-LABEL: func.func @sort_int
// CHECK:         %[[L:.*]] = torch.prim.ListConstruct %int-2, %int1, %int5 :
// CHECK-NOT:     torch.aten.sort.int
// CHECK:         return %[[L]]
func.func @sort_int() -> !torch.list<int> {
  %false = torch.constant.bool false
  %int5 = torch.constant.int 5
  %int-2 = torch.constant.int -2
  %int1 = torch.constant.int 1
  %0 = torch.prim.ListConstruct %int5, %int-2, %int1 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  torch.aten.sort.int %0, %false : !torch.list<int>, !torch.bool
  return %0 : !torch.list<int>
}

// A read before the sort sees the unsorted list: nothing changes.
// CHECK-LABEL: func.func @sort_int_read_before
// CHECK:         torch.aten.__getitem__.t
// CHECK:         torch.aten.sort.int
func.func @sort_int_read_before() -> (!torch.list<int>, !torch.int) {
  %true = torch.constant.bool true
  %int5 = torch.constant.int 5
  %int7 = torch.constant.int 7
  %int0 = torch.constant.int 0
  %0 = torch.prim.ListConstruct %int5, %int7 : (!torch.int, !torch.int) -> !torch.list<int>
  %1 = torch.aten.__getitem__.t %0, %int0 : !torch.list<int>, !torch.int -> !torch.int
  torch.aten.sort.int %0, %true : !torch.list<int>, !torch.bool
  return %0, %1 : !torch.list<int>, !torch.int
}

// -----

// item of a one-element ones/zeros; of two elements it raises: stays (the
// zeros a literal, as torch-mlir folds it).
// CHECK-LABEL: func.func @ones_zeros_item
// CHECK-DAG:     %[[ONE:.*]] = torch.constant.float 1.000000e+00
// CHECK-DAG:     %[[ZERO:.*]] = torch.constant.int 0
// CHECK:         %[[Z2:.*]] = torch.vtensor.literal(dense<0> : tensor<2xsi64>)
// CHECK:         %[[I:.*]] = torch.aten.item %[[Z2]]
// CHECK:         return %[[ONE]], %[[ZERO]], %[[I]] :
func.func @ones_zeros_item() -> (!torch.float, !torch.int, !torch.int) {
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %none = torch.constant.none
  %s1 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %s2 = torch.prim.ListConstruct %int2 : (!torch.int) -> !torch.list<int>
  %0 = torch.aten.ones %s1, %none, %none, %none, %none : !torch.list<int>, !torch.none, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[1],f32>
  %1 = torch.aten.item %0 : !torch.vtensor<[1],f32> -> !torch.float
  %2 = torch.aten.zeros %s1, %none, %none, %none, %none : !torch.list<int>, !torch.none, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[1],si64>
  %3 = torch.aten.item %2 : !torch.vtensor<[1],si64> -> !torch.int
  %4 = torch.aten.zeros %s2, %none, %none, %none, %none : !torch.list<int>, !torch.none, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[2],si64>
  %5 = torch.aten.item %4 : !torch.vtensor<[2],si64> -> !torch.int
  return %1, %3, %5 : !torch.float, !torch.int, !torch.int
}

// -----

// An integral float exponent on a float tensor becomes an int; 2.5, or
// an int tensor (whose result would turn float), stays.
// CHECK-LABEL: func.func @pow_exponent
// CHECK:         torch.aten.pow.Tensor_Scalar %arg0, %int3 :
// CHECK:         torch.aten.pow.Tensor_Scalar %arg0, %float2.500000e00 :
// CHECK:         torch.aten.pow.Tensor_Scalar %arg1, %float3.000000e00 :
func.func @pow_exponent(%x: !torch.vtensor<[?],f32>, %i: !torch.vtensor<[?],si64>) -> (!torch.vtensor<[?],f32>, !torch.vtensor<[?],f32>, !torch.vtensor<[?],f32>) {
  %three = torch.constant.float 3.0
  %half = torch.constant.float 2.5
  %0 = torch.aten.pow.Tensor_Scalar %x, %three : !torch.vtensor<[?],f32>, !torch.float -> !torch.vtensor<[?],f32>
  %1 = torch.aten.pow.Tensor_Scalar %x, %half : !torch.vtensor<[?],f32>, !torch.float -> !torch.vtensor<[?],f32>
  %2 = torch.aten.pow.Tensor_Scalar %i, %three : !torch.vtensor<[?],si64>, !torch.float -> !torch.vtensor<[?],f32>
  return %0, %1, %2 : !torch.vtensor<[?],f32>, !torch.vtensor<[?],f32>, !torch.vtensor<[?],f32>
}

// -----

// to.dtype_layout with a device and no layout or pinning: to.device;
// with a layout it stays.
// CHECK-LABEL: func.func @dtype_layout_device
// CHECK:         torch.aten.to.device %arg0, %arg1, %int5, %false, %false, %none :
// CHECK:         torch.aten.to.dtype_layout %arg0, %int5, %int0, %arg1,
func.func @dtype_layout_device(%x: !torch.tensor<[?],f32>, %d: !torch.Device) -> (!torch.tensor<[?],f16>, !torch.tensor<[?],f16>) {
  %none = torch.constant.none
  %false = torch.constant.bool false
  %int5 = torch.constant.int 5
  %int0 = torch.constant.int 0
  %0 = torch.aten.to.dtype_layout %x, %int5, %none, %d, %none, %false, %false, %none : !torch.tensor<[?],f32>, !torch.int, !torch.none, !torch.Device, !torch.none, !torch.bool, !torch.bool, !torch.none -> !torch.tensor<[?],f16>
  %1 = torch.aten.to.dtype_layout %x, %int5, %int0, %d, %none, %false, %false, %none : !torch.tensor<[?],f32>, !torch.int, !torch.int, !torch.Device, !torch.none, !torch.bool, !torch.bool, !torch.none -> !torch.tensor<[?],f16>
  return %0, %1 : !torch.tensor<[?],f16>, !torch.tensor<[?],f16>
}

// -----

// A slice whose constant bounds take part of the dim is not the operand,
// whatever its result type says; one taking all of it is.
// CHECK-LABEL: func.func @slice_whole
// CHECK:         %[[S:.*]] = torch.aten.slice.Tensor %arg0, %int0, %int-10, %int-1, %int1
// CHECK:         return %[[S]], %arg0 :
func.func @slice_whole(%x: !torch.vtensor<[4],f32>) -> (!torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>) {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int-1 = torch.constant.int -1
  %int-10 = torch.constant.int -10
  %int9 = torch.constant.int 9
  %0 = torch.aten.slice.Tensor %x, %int0, %int-10, %int-1, %int1 : !torch.vtensor<[4],f32>, !torch.int, !torch.int, !torch.int, !torch.int -> !torch.vtensor<[4],f32>
  %1 = torch.aten.slice.Tensor %x, %int0, %int-10, %int9, %int1 : !torch.vtensor<[4],f32>, !torch.int, !torch.int, !torch.int, !torch.int -> !torch.vtensor<[4],f32>
  return %0, %1 : !torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>
}

// -----

// A dense_resource literal folds as a dense one; item of two elements
// raises and stays.
// CHECK-LABEL: func.func @resource_item
// CHECK:         %[[K:.*]] = torch.constant.int -7
// CHECK:         %[[I:.*]] = torch.aten.item %{{.*}} : !torch.vtensor<[2],si32>
// CHECK:         return %[[K]], %[[I]] :
func.func @resource_item() -> (!torch.int, !torch.int) {
  %0 = torch.vtensor.literal(dense_resource<one> : tensor<si64>) : !torch.vtensor<[],si64>
  %1 = torch.aten.item %0 : !torch.vtensor<[],si64> -> !torch.int
  %2 = torch.vtensor.literal(dense_resource<two> : tensor<2xsi32>) : !torch.vtensor<[2],si32>
  %3 = torch.aten.item %2 : !torch.vtensor<[2],si32> -> !torch.int
  return %1, %3 : !torch.int, !torch.int
}

{-#
  dialect_resources: {
    builtin: {
      one: "0x08000000f9ffffffffffffff",
      two: "0x040000000100000002000000"
    }
  }
#-}

// -----

// to.other: to.device to the CPU in other's dtype (prim.dtype, a constant
// where other's dtype is known).
// CHECK-LABEL: func.func @to_other(
// CHECK-SAME:      %[[X:.*]]: !torch.tensor, %[[O:.*]]: !torch.tensor, %[[Y:.*]]: !torch.vtensor<[2],f32>, %[[H:.*]]: !torch.vtensor<[3],f16>)
// CHECK-DAG:     %[[NONE:.*]] = torch.constant.none
// CHECK-DAG:     %[[F:.*]] = torch.constant.bool false
// CHECK-DAG:     %[[T:.*]] = torch.constant.bool true
// CHECK-DAG:     %[[CPU:.*]] = torch.constant.device "cpu"
// CHECK-DAG:     %[[I5:.*]] = torch.constant.int 5
// CHECK:         %[[D:.*]] = torch.prim.dtype %[[O]] : !torch.tensor -> !torch.int
// CHECK:         %[[A:.*]] = torch.aten.to.device %[[X]], %[[CPU]], %[[D]], %[[F]], %[[T]], %[[NONE]] : !torch.tensor, !torch.Device, !torch.int, !torch.bool, !torch.bool, !torch.none -> !torch.tensor
// CHECK:         %[[B:.*]] = torch.aten.to.device %[[Y]], %[[CPU]], %[[I5]], %[[F]], %[[F]], %[[NONE]] : !torch.vtensor<[2],f32>, !torch.Device, !torch.int, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor<[2],f16>
// CHECK:         return %[[A]], %[[B]]
func.func @to_other(%x: !torch.tensor, %o: !torch.tensor, %y: !torch.vtensor<[2],f32>, %h: !torch.vtensor<[3],f16>) -> (!torch.tensor, !torch.vtensor<[2],f16>) {
  %none = torch.constant.none
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  %0 = torch.aten.to.other %x, %o, %false, %true, %none : !torch.tensor, !torch.tensor, !torch.bool, !torch.bool, !torch.none -> !torch.tensor
  %1 = torch.aten.to.other %y, %h, %false, %false, %none : !torch.vtensor<[2],f32>, !torch.vtensor<[3],f16>, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor<[2],f16>
  return %0, %1 : !torch.tensor, !torch.vtensor<[2],f16>
}
