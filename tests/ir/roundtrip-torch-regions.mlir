// RUN: torch-opt -p '' %s | torch-opt -p '' | FileCheck %s
// RUN: not torch-opt %s 2>&1 | FileCheck %s --check-prefix=CONTRACT
// torch's control flow and shape/dtype functions: read, verified, printed
// back; the default pipeline refuses them, by name.
// CONTRACT: error: 'torch.prim.If' is not supported by the backend contract

// CHECK-LABEL: func.func @if(
func.func @if(%arg0: !torch.bool, %arg1: !torch.int) -> !torch.int {
  // CHECK:      %0 = torch.prim.If %arg0 -> (!torch.int) {
  // CHECK-NEXT:   %1 = torch.aten.add.int %arg1, %arg1 : !torch.int, !torch.int -> !torch.int
  // CHECK-NEXT:   torch.prim.If.yield %1 : !torch.int
  // CHECK-NEXT: } else {
  // CHECK-NEXT:   torch.prim.If.yield %arg1 : !torch.int
  // CHECK-NEXT: }
  %0 = torch.prim.If %arg0 -> (!torch.int) {
    %1 = torch.aten.add.int %arg1, %arg1 : !torch.int, !torch.int -> !torch.int
    torch.prim.If.yield %1 : !torch.int
  } else {
    torch.prim.If.yield %arg1 : !torch.int
  }
  // CHECK:      torch.prim.If %arg0 -> () {
  // CHECK-NEXT:   torch.prim.If.yield{{$}}
  torch.prim.If %arg0 -> () {
    torch.prim.If.yield
  } else {
    torch.prim.If.yield
  }
  return %0 : !torch.int
}
// CHECK-LABEL: func.func @loop(
// CHECK:      %0 = torch.prim.Loop %arg0, %arg1, init(%int0) {
// CHECK-NEXT: ^bb0(%arg2: !torch.int, %arg3: !torch.int):
// CHECK-NEXT:   %1 = torch.aten.add.int %arg3, %arg2
// CHECK-NEXT:   torch.prim.Loop.condition %arg1, iter(%1 : !torch.int)
// CHECK-NEXT: } : (!torch.int, !torch.bool, !torch.int) -> !torch.int
// CHECK:      torch.prim.Loop.condition %arg1, iter()
// CHECK-NEXT: } : (!torch.int, !torch.bool) -> ()
func.func @loop(%n: !torch.int, %t: !torch.bool) -> !torch.int {
  %int0 = torch.constant.int 0
  %0 = torch.prim.Loop %n, %t, init(%int0) {
  ^bb0(%i: !torch.int, %acc: !torch.int):
    %1 = torch.aten.add.int %acc, %i : !torch.int, !torch.int -> !torch.int
    torch.prim.Loop.condition %t, iter(%1 : !torch.int)
  } : (!torch.int, !torch.bool, !torch.int) -> !torch.int
  torch.prim.Loop %n, %t, init() {
  ^bb0(%i: !torch.int):
    torch.prim.Loop.condition %t, iter()
  } : (!torch.int, !torch.bool) -> ()
  return %0 : !torch.int
}
// CHECK-LABEL: func.func @shape_calculations(
// CHECK:      %0 = torch.shape.calculate {
// CHECK-NEXT:   %1 = torch.aten.tanh %arg0
// CHECK-NEXT:   torch.shape.calculate.yield %1 : !torch.vtensor
// CHECK-NEXT: } shapes {
// CHECK-NEXT:   %1 = torch.aten.size %arg0
// CHECK-NEXT:   torch.shape.calculate.yield.shapes %1 : !torch.list<int>
// CHECK-NEXT: } : !torch.vtensor
func.func @shape_calculations(%arg0: !torch.vtensor) -> !torch.vtensor {
  %0 = torch.shape.calculate {
    %0 = torch.aten.tanh %arg0 : !torch.vtensor -> !torch.vtensor
    torch.shape.calculate.yield %0 : !torch.vtensor
  } shapes {
    %0 = torch.aten.size %arg0 : !torch.vtensor -> !torch.list<int>
    torch.shape.calculate.yield.shapes %0 : !torch.list<int>
  } : !torch.vtensor
  return %0 : !torch.vtensor
}

// CHECK-LABEL: func.func @dtype_calculations(
// CHECK:      } dtypes {
// CHECK-NEXT:   %1 = torch.prim.dtype %arg0 : !torch.vtensor -> !torch.int
// CHECK-NEXT:   torch.dtype.calculate.yield.dtypes %1 : !torch.int
// CHECK-NEXT: } : !torch.vtensor
func.func @dtype_calculations(%arg0: !torch.vtensor) -> !torch.vtensor {
  %0 = torch.dtype.calculate {
    %1 = torch.aten.tanh %arg0 : !torch.vtensor -> !torch.vtensor
    torch.dtype.calculate.yield %1 : !torch.vtensor
  } dtypes {
    %2 = torch.prim.dtype %arg0 : !torch.vtensor -> !torch.int
    torch.dtype.calculate.yield.dtypes %2 : !torch.int
  } : !torch.vtensor
  return %0 : !torch.vtensor
}

// 0 and 1 are booleans too, as torch-mlir reads them.
// CHECK-LABEL: func.func @bool_ints(
// CHECK: %false = torch.constant.bool false
// CHECK: %true = torch.constant.bool true
func.func @bool_ints() -> (!torch.bool, !torch.bool) {
  %0 = torch.constant.bool 0
  %1 = torch.constant.bool 1
  return %0, %1 : !torch.bool, !torch.bool
}
