// RUN: torch-opt %s -canonicalize -split-input-file | FileCheck %s

// List and tuple canonicalizations (lib/torch/canon_list.c): only lists
// that nothing may mutate are read as their elements.

// CHECK-LABEL: func.func @slices(
// CHECK-DAG:     %[[I0:.*]] = torch.constant.int 0
// CHECK-DAG:     %[[I1:.*]] = torch.constant.int 1
// CHECK-DAG:     %[[I2:.*]] = torch.constant.int 2
// CHECK-DAG:     %[[I3:.*]] = torch.constant.int 3
// CHECK:         %[[A:.*]] = torch.prim.ListConstruct %[[I3]], %[[I1]] :
// CHECK:         %[[B:.*]] = torch.prim.ListConstruct %[[I2]], %[[I1]], %[[I0]] :
// CHECK:         %[[Z:.*]] = torch.aten.slice.t
// CHECK:         return %[[A]], %[[B]], %[[Z]]
func.func @slices() -> (!torch.list<int>, !torch.list<int>, !torch.list<int>) {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int3 = torch.constant.int 3
  %int-2 = torch.constant.int -2
  %int-1 = torch.constant.int -1
  %int-9 = torch.constant.int -9
  %none = torch.constant.none
  %l = torch.prim.ListConstruct %int0, %int1, %int2, %int3 : (!torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
  // [0,1,2,3][::-2] = [3, 1]
  %0 = torch.aten.slice.t %l, %none, %none, %int-2 : !torch.list<int>, !torch.none, !torch.none, !torch.int -> !torch.list<int>
  // [0,1,2,3][2:-9:-1] = [2, 1, 0]
  %1 = torch.aten.slice.t %l, %int2, %int-9, %int-1 : !torch.list<int>, !torch.int, !torch.int, !torch.int -> !torch.list<int>
  // a step of 0 raises
  %2 = torch.aten.slice.t %l, %int0, %int2, %int0 : !torch.list<int>, !torch.int, !torch.int, !torch.int -> !torch.list<int>
  return %0, %1, %2 : !torch.list<int>, !torch.list<int>, !torch.list<int>
}

// -----

// CHECK-LABEL: func.func @arith(
// CHECK:         %[[E:.*]] = torch.prim.ListConstruct  : () -> !torch.list<int>
// CHECK:         %[[C:.*]] = torch.prim.ListConstruct %arg0, %arg1, %arg0 :
// CHECK:         %[[M:.*]] = torch.aten.add.t
// CHECK:         return %[[E]], %[[C]], %[[M]]
func.func @arith(%arg0: !torch.int, %arg1: !torch.int) -> (!torch.list<int>, !torch.list<int>, !torch.list<int>) {
  %int-3 = torch.constant.int -3
  %a = torch.prim.ListConstruct %arg0 : (!torch.int) -> !torch.list<int>
  %b = torch.prim.ListConstruct %arg1, %arg0 : (!torch.int, !torch.int) -> !torch.list<int>
  %m = torch.prim.ListConstruct %arg1 : (!torch.int) -> !torch.list<int>
  %0 = torch.aten.mul.left_t %a, %int-3 : !torch.list<int>, !torch.int -> !torch.list<int>
  %1 = torch.aten.add.t %a, %b : !torch.list<int>, !torch.list<int> -> !torch.list<int>
  %x = torch.aten.append.t %m, %arg0 : !torch.list<int>, !torch.int -> !torch.list<int>
  %2 = torch.aten.add.t %a, %m : !torch.list<int>, !torch.list<int> -> !torch.list<int>
  return %0, %1, %2 : !torch.list<int>, !torch.list<int>, !torch.list<int>
}

// -----

// CHECK-LABEL: func.func @sizes(
// CHECK-DAG:     %[[I4:.*]] = torch.constant.int 4
// CHECK-DAG:     %[[I5:.*]] = torch.constant.int 5
// CHECK:         %[[L:.*]] = torch.prim.ListConstruct %[[I4]], %[[I5]] :
// CHECK:         %[[S:.*]] = torch.aten.size %arg1
// CHECK:         %[[D:.*]] = torch.aten.dim %arg2
// CHECK:         %[[G:.*]] = torch.aten.size.int %arg1, %arg3
// CHECK:         return %[[L]], %[[S]], %[[D]], %[[G]]
func.func @sizes(%arg0: !torch.vtensor<[4,5],f32>, %arg1: !torch.vtensor<[?,5],f32>, %arg2: !torch.vtensor<*,f32>, %arg3: !torch.int) -> (!torch.list<int>, !torch.list<int>, !torch.int, !torch.int) {
  %0 = torch.aten.size %arg0 : !torch.vtensor<[4,5],f32> -> !torch.list<int>
  %1 = torch.aten.size %arg1 : !torch.vtensor<[?,5],f32> -> !torch.list<int>
  %s = torch.aten.size %arg2 : !torch.vtensor<*,f32> -> !torch.list<int>
  %2 = torch.aten.len.t %s : !torch.list<int> -> !torch.int
  %3 = torch.aten.__getitem__.t %1, %arg3 : !torch.list<int>, !torch.int -> !torch.int
  return %0, %1, %2, %3 : !torch.list<int>, !torch.list<int>, !torch.int, !torch.int
}

// -----

// CHECK-LABEL: func.func @unpack(
// CHECK:         %[[C:.*]] = torch.tensor_static_info_cast %arg0 : !torch.vtensor<[2],f32> to !torch.vtensor<[?],f32>
// CHECK:         %[[N:.*]]:3 = torch.prim.ListUnpack
// CHECK:         %[[T:.*]] = torch.prim.TupleIndex
// CHECK:         return %[[C]], %arg1, %arg1, %[[N]]#0, %[[T]]
func.func @unpack(%arg0: !torch.vtensor<[2],f32>, %arg1: !torch.int) -> (!torch.vtensor<[?],f32>, !torch.int, !torch.int, !torch.vtensor, !torch.int) {
  %int-1 = torch.constant.int -1
  %int2 = torch.constant.int 2
  %l = torch.prim.ListConstruct %arg0, %arg0 : (!torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>) -> !torch.list<vtensor>
  %0:2 = torch.prim.ListUnpack %l : !torch.list<vtensor> -> !torch.vtensor<[?],f32>, !torch.vtensor<[?],f32>
  %t = torch.prim.TupleConstruct %arg0, %arg1 : !torch.vtensor<[2],f32>, !torch.int -> !torch.tuple<vtensor<[2],f32>, int>
  %1:2 = torch.prim.TupleUnpack %t : !torch.tuple<vtensor<[2],f32>, int> -> !torch.vtensor<[2],f32>, !torch.int
  %2 = torch.prim.TupleIndex %t, %int-1 : !torch.tuple<vtensor<[2],f32>, int>, !torch.int -> !torch.int
  // three out of two elements: it fails at run time
  %3:3 = torch.prim.ListUnpack %l : !torch.list<vtensor> -> !torch.vtensor, !torch.vtensor, !torch.vtensor
  %4 = torch.prim.TupleIndex %t, %int2 : !torch.tuple<vtensor<[2],f32>, int>, !torch.int -> !torch.int
  return %0#0, %1#1, %2, %3#0, %4 : !torch.vtensor<[?],f32>, !torch.int, !torch.int, !torch.vtensor, !torch.int
}
