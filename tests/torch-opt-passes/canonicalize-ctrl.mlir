// RUN: torch-opt %s -canonicalize -split-input-file | FileCheck %s

// Identity tests, same-operand comparisons, literal membership and
// prim.If (lib/torch/canon_ctrl.c), and what must stay.

// CHECK-LABEL: func.func @is_none
// CHECK-DAG:     %[[T:.*]] = torch.constant.bool true
// CHECK-DAG:     %[[F:.*]] = torch.constant.bool false
// CHECK:         return %[[F]], %[[T]], %[[T]], %[[F]] :
func.func @is_none(%t: !torch.vtensor, %n: !torch.none) -> (!torch.bool, !torch.bool, !torch.bool, !torch.bool) {
  %none = torch.constant.none
  %d = torch.derefine %t : !torch.vtensor to !torch.optional<vtensor>
  %0 = torch.aten.__is__ %d, %none : !torch.optional<vtensor>, !torch.none -> !torch.bool
  %1 = torch.aten.__is__ %n, %none : !torch.none, !torch.none -> !torch.bool
  %2 = torch.aten.__isnot__ %t, %n : !torch.vtensor, !torch.none -> !torch.bool
  %3 = torch.aten.__isnot__ %none, %n : !torch.none, !torch.none -> !torch.bool
  return %0, %1, %2, %3 : !torch.bool, !torch.bool, !torch.bool, !torch.bool
}

// An optional argument may be None; two non-None values may or may not
// be the same object.
// CHECK-LABEL: func.func @is_unknown
// CHECK:         torch.aten.__is__ %arg0
// CHECK:         torch.aten.__is__ %arg1
// CHECK:         torch.aten.__isnot__ %arg1
func.func @is_unknown(%o: !torch.optional<int>, %a: !torch.list<int>, %b: !torch.list<int>) -> (!torch.bool, !torch.bool, !torch.bool) {
  %none = torch.constant.none
  %0 = torch.aten.__is__ %o, %none : !torch.optional<int>, !torch.none -> !torch.bool
  %1 = torch.aten.__is__ %a, %b : !torch.list<int>, !torch.list<int> -> !torch.bool
  %2 = torch.aten.__isnot__ %a, %b : !torch.list<int>, !torch.list<int> -> !torch.bool
  return %0, %1, %2 : !torch.bool, !torch.bool, !torch.bool
}

// -----

// CHECK-LABEL: func.func @same_operand
// CHECK-DAG:     %[[T:.*]] = torch.constant.bool true
// CHECK-DAG:     %[[F:.*]] = torch.constant.bool false
// x <= x, x >= x and x == x are false for a NaN: they stay.
// CHECK-DAG:     %[[LE:.*]] = torch.aten.le.float %arg1, %arg1
// CHECK-DAG:     %[[GE:.*]] = torch.aten.ge.float %arg1, %arg1
// CHECK-DAG:     %[[EQ:.*]] = torch.aten.eq.float %arg1, %arg1
// CHECK:         return %[[T]], %[[F]], %[[F]], %[[F]], %[[LE]], %[[GE]], %[[EQ]] :
func.func @same_operand(%b: !torch.bool, %x: !torch.float) -> (!torch.bool, !torch.bool, !torch.bool, !torch.bool, !torch.bool, !torch.bool, !torch.bool) {
  %0 = torch.aten.eq.bool %b, %b : !torch.bool, !torch.bool -> !torch.bool
  %1 = torch.aten.ne.bool %b, %b : !torch.bool, !torch.bool -> !torch.bool
  %2 = torch.aten.lt.float %x, %x : !torch.float, !torch.float -> !torch.bool
  %3 = torch.aten.gt.float %x, %x : !torch.float, !torch.float -> !torch.bool
  %4 = torch.aten.le.float %x, %x : !torch.float, !torch.float -> !torch.bool
  %5 = torch.aten.ge.float %x, %x : !torch.float, !torch.float -> !torch.bool
  %6 = torch.aten.eq.float %x, %x : !torch.float, !torch.float -> !torch.bool
  return %0, %1, %2, %3, %4, %5, %6 : !torch.bool, !torch.bool, !torch.bool, !torch.bool, !torch.bool, !torch.bool, !torch.bool
}

// -----

// A size is never negative; against 0 or a positive constant it stays.
// CHECK-LABEL: func.func @size_vs_negative
// CHECK-DAG:     %[[T:.*]] = torch.constant.bool true
// CHECK-DAG:     %[[F:.*]] = torch.constant.bool false
// CHECK:         %[[S:.*]] = torch.aten.size.int
// CHECK:         %[[E:.*]] = torch.aten.eq.int %[[S]]
// CHECK:         return %[[F]], %[[T]], %[[E]] :
func.func @size_vs_negative(%t: !torch.tensor) -> (!torch.bool, !torch.bool, !torch.bool) {
  %m = torch.constant.int -3
  %z = torch.constant.int 0
  %s = torch.aten.size.int %t, %z : !torch.tensor, !torch.int -> !torch.int
  %0 = torch.aten.eq.int %s, %m : !torch.int, !torch.int -> !torch.bool
  %1 = torch.aten.ne.int %m, %s : !torch.int, !torch.int -> !torch.bool
  %2 = torch.aten.eq.int %s, %z : !torch.int, !torch.int -> !torch.bool
  return %0, %1, %2 : !torch.bool, !torch.bool, !torch.bool
}

// -----

// CHECK-LABEL: func.func @contains_str_list
// CHECK-DAG:     %[[T:.*]] = torch.constant.bool true
// CHECK-DAG:     %[[F:.*]] = torch.constant.bool false
// CHECK:         %[[U:.*]] = torch.aten.__contains__.str_list
// CHECK:         return %[[T]], %[[F]], %[[U]] :
func.func @contains_str_list(%s: !torch.str) -> (!torch.bool, !torch.bool, !torch.bool) {
  %a = torch.constant.str "a"
  %b = torch.constant.str "b"
  %ab = torch.constant.str "ab"
  %l = torch.prim.ListConstruct %a, %b : (!torch.str, !torch.str) -> !torch.list<str>
  %0 = torch.aten.__contains__.str_list %l, %b : !torch.list<str>, !torch.str -> !torch.bool
  %1 = torch.aten.__contains__.str_list %l, %ab : !torch.list<str>, !torch.str -> !torch.bool
  %2 = torch.aten.__contains__.str_list %l, %s : !torch.list<str>, !torch.str -> !torch.bool
  return %0, %1, %2 : !torch.bool, !torch.bool, !torch.bool
}

// -----

// CHECK-LABEL: func.func @eq_int_list
// CHECK-DAG:     %[[T:.*]] = torch.constant.bool true
// CHECK-DAG:     %[[F:.*]] = torch.constant.bool false
// CHECK:         %[[U:.*]] = torch.aten.eq.int_list
// CHECK:         return %[[T]], %[[F]], %[[U]] :
func.func @eq_int_list(%x: !torch.int, %y: !torch.int) -> (!torch.bool, !torch.bool, !torch.bool) {
  %a = torch.prim.ListConstruct %x, %y : (!torch.int, !torch.int) -> !torch.list<int>
  %b = torch.prim.ListConstruct %x, %y : (!torch.int, !torch.int) -> !torch.list<int>
  %c = torch.prim.ListConstruct %x : (!torch.int) -> !torch.list<int>
  %d = torch.prim.ListConstruct %y, %x : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.eq.int_list %a, %b : !torch.list<int>, !torch.list<int> -> !torch.bool
  %1 = torch.aten.eq.int_list %a, %c : !torch.list<int>, !torch.list<int> -> !torch.bool
  %2 = torch.aten.eq.int_list %a, %d : !torch.list<int>, !torch.list<int> -> !torch.bool
  return %0, %1, %2 : !torch.bool, !torch.bool, !torch.bool
}

// -----

// A list that is written to is not a literal any more.
// CHECK-LABEL: func.func @eq_int_list_mutated
// CHECK:         torch.aten.append.t
// CHECK:         %[[U:.*]] = torch.aten.eq.int_list
// CHECK:         return %[[U]]
func.func @eq_int_list_mutated(%x: !torch.int) -> !torch.bool {
  %a = torch.prim.ListConstruct %x : (!torch.int) -> !torch.list<int>
  %b = torch.prim.ListConstruct %x, %x : (!torch.int, !torch.int) -> !torch.list<int>
  %n = torch.aten.append.t %a, %x : !torch.list<int>, !torch.int -> !torch.list<int>
  %0 = torch.aten.eq.int_list %a, %b : !torch.list<int>, !torch.list<int> -> !torch.bool
  return %0 : !torch.bool
}

// -----

// k in a literal dict with key k; not once the dict may be written.
// CHECK-LABEL: func.func @contains_dict
// CHECK:         %[[T:.*]] = torch.constant.bool true
// CHECK:         return %[[T]]
func.func @contains_dict(%k0: !torch.str, %v0: !torch.tensor, %k1: !torch.str, %v1: !torch.tensor) -> !torch.bool {
  %d = torch.prim.DictConstruct keys(%k0, %k1 : !torch.str, !torch.str) values(%v0, %v1 : !torch.tensor, !torch.tensor) -> !torch.dict<str, tensor>
  %0 = torch.aten.__contains__.str %d, %k1 : !torch.dict<str, tensor>, !torch.str -> !torch.bool
  return %0 : !torch.bool
}

// CHECK-LABEL: func.func @contains_dict_written
// CHECK:         torch.aten._set_item.str
// CHECK:         %[[R:.*]] = torch.aten.__contains__.str
// CHECK:         return %[[R]]
func.func @contains_dict_written(%k0: !torch.str, %v0: !torch.tensor, %k1: !torch.str) -> !torch.bool {
  %d = torch.prim.DictConstruct keys(%k0 : !torch.str) values(%v0 : !torch.tensor) -> !torch.dict<str, tensor>
  torch.aten._set_item.str %d, %k1, %v0 : !torch.dict<str, tensor>, !torch.str, !torch.tensor
  %0 = torch.aten.__contains__.str %d, %k1 : !torch.dict<str, tensor>, !torch.str -> !torch.bool
  return %0 : !torch.bool
}

// -----

// A constant condition keeps the live branch, side effects included.
// CHECK-LABEL: func.func @if_const
// CHECK-NOT:     torch.prim.If
// CHECK:         torch.prim.RaiseException
// CHECK:         %[[R:.*]] = torch.aten.mul.int %arg0, %arg0
// CHECK-NOT:     torch.aten.add.int
// CHECK:         return %[[R]]
func.func @if_const(%x: !torch.int) -> !torch.int {
  %false = torch.constant.bool false
  %str = torch.constant.str "boom"
  %0 = torch.prim.If %false -> (!torch.int) {
    %1 = torch.aten.add.int %x, %x : !torch.int, !torch.int -> !torch.int
    torch.prim.If.yield %1 : !torch.int
  } else {
    torch.prim.RaiseException %str, %str : !torch.str, !torch.str
    %1 = torch.aten.mul.int %x, %x : !torch.int, !torch.int -> !torch.int
    torch.prim.If.yield %1 : !torch.int
  }
  return %0 : !torch.int
}

// -----

// The same outside value from both branches is that value; a value made
// inside a branch is not; an If with an effect stays though unused.
// CHECK-LABEL: func.func @if_same
// CHECK:         %[[R:.*]]:2 = torch.prim.If %arg0 -> (!torch.int, !torch.int)
// CHECK:           torch.aten.add.int
// CHECK:           torch.prim.If.yield %arg2, %{{.*}} : !torch.int, !torch.int
// CHECK:         } else {
// CHECK:           torch.prim.If.yield %arg1, %{{.*}} : !torch.int, !torch.int
// CHECK:         return %arg1, %[[R]]#0, %[[R]]#1 :
func.func @if_same(%c: !torch.bool, %x: !torch.int, %y: !torch.int) -> (!torch.int, !torch.int, !torch.int) {
  %0:3 = torch.prim.If %c -> (!torch.int, !torch.int, !torch.int) {
    %s = torch.aten.add.int %x, %y : !torch.int, !torch.int -> !torch.int
    torch.prim.If.yield %x, %y, %s : !torch.int, !torch.int, !torch.int
  } else {
    %s = torch.aten.add.int %x, %y : !torch.int, !torch.int -> !torch.int
    torch.prim.If.yield %x, %x, %s : !torch.int, !torch.int, !torch.int
  }
  return %0#0, %0#1, %0#2 : !torch.int, !torch.int, !torch.int
}

// CHECK-LABEL: func.func @if_effect_unused
// CHECK:         torch.prim.If %arg0 -> () {
// CHECK:           torch.prim.RaiseException
// CHECK:         return %arg1
func.func @if_effect_unused(%c: !torch.bool, %x: !torch.int) -> !torch.int {
  %str = torch.constant.str "boom"
  %0 = torch.prim.If %c -> (!torch.int) {
    torch.prim.RaiseException %str, %str : !torch.str, !torch.str
    torch.prim.If.yield %x : !torch.int
  } else {
    torch.prim.If.yield %x : !torch.int
  }
  return %0 : !torch.int
}

// -----

// CHECK-LABEL: func.func @unchecked_view_of
// CHECK:         %[[C:.*]] = torch.prim.unchecked_cast %arg2
// CHECK:         %[[V:.*]] = torch.prims.view_of %arg3
// CHECK:         return %arg0, %arg1, %[[C]], %[[V]] :
func.func @unchecked_view_of(%x: !torch.int, %t: !torch.vtensor<[2],f32>, %o: !torch.optional<int>, %u: !torch.tensor<[2],f32>) -> (!torch.int, !torch.vtensor<[2],f32>, !torch.int, !torch.tensor<[2],f32>) {
  %d = torch.derefine %x : !torch.int to !torch.optional<int>
  %0 = torch.prim.unchecked_cast %d : !torch.optional<int> -> !torch.int
  %1 = torch.prims.view_of %t : !torch.vtensor<[2],f32> -> !torch.vtensor<[2],f32>
  %2 = torch.prim.unchecked_cast %o : !torch.optional<int> -> !torch.int
  %3 = torch.prims.view_of %u : !torch.tensor<[2],f32> -> !torch.tensor<[2],f32>
  return %0, %1, %2, %3 : !torch.int, !torch.vtensor<[2],f32>, !torch.int, !torch.tensor<[2],f32>
}

// -----

// d[k] of a literal dict: the last equal key's value; a later key that
// may equal k at run time (a dict keeps the last) leaves it.
// CHECK-LABEL: func.func @getitem_dict
// CHECK:         %[[G:.*]] = torch.aten.__getitem__.Dict_str %{{.*}}, %arg0
// CHECK:         return %arg3, %arg2, %[[G]] :
func.func @getitem_dict(%k0: !torch.str, %v0: !torch.tensor, %v1: !torch.tensor, %v2: !torch.tensor) -> (!torch.tensor, !torch.tensor, !torch.tensor) {
  %a = torch.constant.str "a"
  %b = torch.constant.str "b"
  %a2 = torch.constant.str "a"
  %d = torch.prim.DictConstruct keys(%a, %b, %a2 : !torch.str, !torch.str, !torch.str) values(%v0, %v1, %v2 : !torch.tensor, !torch.tensor, !torch.tensor) -> !torch.dict<str, tensor>
  %0 = torch.aten.__getitem__.Dict_str %d, %a : !torch.dict<str, tensor>, !torch.str -> !torch.tensor
  %1 = torch.aten.__getitem__.Dict_str %d, %b : !torch.dict<str, tensor>, !torch.str -> !torch.tensor
  %e = torch.prim.DictConstruct keys(%k0, %b : !torch.str, !torch.str) values(%v0, %v1 : !torch.tensor, !torch.tensor) -> !torch.dict<str, tensor>
  %2 = torch.aten.__getitem__.Dict_str %e, %k0 : !torch.dict<str, tensor>, !torch.str -> !torch.tensor
  return %0, %1, %2 : !torch.tensor, !torch.tensor, !torch.tensor
}

// -----

// _assert_tensor_metadata is an assertion: erased only where its size and
// dtype are the operand's static ones; one that may fail stays (it is not
// dead code although it has no result): an unknown dtype, a dynamic extent,
// a size not known.  (One sure to fail: canonicalize-invalid.mlir.)
// CHECK-LABEL: func.func @assert_metadata(
// CHECK-NOT:     _assert_tensor_metadata %arg0, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : !torch.vtensor<[2,3],f32>, !torch.list<int>, !torch.none, !torch.int
// CHECK:         torch.aten._assert_tensor_metadata %arg1, %{{.*}}, %{{.*}}, %[[I7:.*]],
// CHECK:         torch.aten._assert_tensor_metadata %arg2, %[[L:.*]], %{{.*}}, %{{.*}},
// CHECK:         torch.aten._assert_tensor_metadata %arg0, %[[M:.*]], %{{.*}}, %{{.*}},
// CHECK:         return
func.func @assert_metadata(%a: !torch.vtensor<[2,3],f32>, %b: !torch.vtensor<[2],unk>, %c: !torch.vtensor<[?,3],f32>, %n: !torch.int) -> !torch.vtensor<[2,3],f32> {
  %none = torch.constant.none
  %int2 = torch.constant.int 2
  %int3 = torch.constant.int 3
  %int6 = torch.constant.int 6
  %int7 = torch.constant.int 7
  %l = torch.prim.ListConstruct %int2, %int3 : (!torch.int, !torch.int) -> !torch.list<int>
  %m = torch.prim.ListConstruct %int2, %n : (!torch.int, !torch.int) -> !torch.list<int>
  torch.aten._assert_tensor_metadata %a, %l, %none, %int6, %none, %none : !torch.vtensor<[2,3],f32>, !torch.list<int>, !torch.none, !torch.int, !torch.none, !torch.none
  torch.aten._assert_tensor_metadata %a, %none, %none, %none, %none, %none : !torch.vtensor<[2,3],f32>, !torch.none, !torch.none, !torch.none, !torch.none, !torch.none
  torch.aten._assert_tensor_metadata %b, %none, %none, %int7, %none, %none : !torch.vtensor<[2],unk>, !torch.none, !torch.none, !torch.int, !torch.none, !torch.none
  torch.aten._assert_tensor_metadata %c, %l, %none, %none, %none, %none : !torch.vtensor<[?,3],f32>, !torch.list<int>, !torch.none, !torch.none, !torch.none, !torch.none
  torch.aten._assert_tensor_metadata %a, %m, %none, %none, %none, %none : !torch.vtensor<[2,3],f32>, !torch.list<int>, !torch.none, !torch.none, !torch.none, !torch.none
  return %a : !torch.vtensor<[2,3],f32>
}
