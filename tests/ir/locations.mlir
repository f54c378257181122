// RUN: torch-opt -p '' --print-debuginfo %s | FileCheck %s
// Locations: file, name, fused (with metadata), callsite, unknown, and #loc
// aliases defined after their use (as MLIR prints them); ops and arguments
// without a loc get the position of their first token.
// RUN: torch-opt -p '' --print-debuginfo %s | torch-opt -p '' --print-debuginfo | FileCheck %s

module {
  func.func @f(%arg0: f32 loc("arg.py":1:2), %arg1: f32) -> f32 {
    %0 = arith.addf %arg0, %arg1 : f32 loc("model.py":12:4)
    %1 = arith.mulf %0, %0 : f32 loc("relu"("model.py":13:8))
    %2 = arith.subf %1, %0 : f32 loc(fused["a.py":1:1, "b.py":2:2])
    %3 = arith.divf %2, %0 : f32 loc(fused<"meta">["a.py":1:1])
    %4 = arith.negf %3 : f32 loc(callsite("callee.py":3:3 at "caller.py":4:4))
    %5 = arith.negf %4 : f32 loc(unknown)
    %6 = arith.negf %5 : f32 loc(#loc1)
    %7 = arith.negf %6 : f32 loc("name")
    return %7 : f32 loc(#loc2)
  }
}
#loc1 = loc("aliased.py":7:7)
#loc2 = loc(callsite(#loc1 at #loc3))
#loc3 = loc("late.py":9:9)

// CHECK: module {
// CHECK-NEXT: func.func @f(%arg0: f32 loc("arg.py":1:2), %arg1: f32 loc("{{.*}}locations.mlir":8:46)) -> f32 {
// CHECK-NEXT: %0 = arith.addf %arg0, %arg1 : f32 loc("model.py":12:4)
// CHECK-NEXT: %1 = arith.mulf %0, %0 : f32 loc("relu"("model.py":13:8))
// CHECK-NEXT: %2 = arith.subf %1, %0 : f32 loc(fused["a.py":1:1, "b.py":2:2])
// CHECK-NEXT: %3 = arith.divf %2, %0 : f32 loc(fused<"meta">["a.py":1:1])
// CHECK-NEXT: %4 = arith.negf %3 : f32 loc(callsite("callee.py":3:3 at "caller.py":4:4))
// CHECK-NEXT: %5 = arith.negf %4 : f32 loc(unknown)
// CHECK-NEXT: %6 = arith.negf %5 : f32 loc("aliased.py":7:7)
// CHECK-NEXT: %7 = arith.negf %6 : f32 loc("name")
// CHECK-NEXT: return %7 : f32 loc(callsite("aliased.py":7:7 at "late.py":9:9))
// CHECK-NEXT: } loc("{{.*}}locations.mlir":8:3)
// CHECK-NEXT: } loc("{{.*}}locations.mlir":7:1)
