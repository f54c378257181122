// RUN: torch-opt %s | FileCheck %s --check-prefix=OPT
// RUN: torch-opt %s | torch-lower | FileCheck %s
// RUN: torch-opt %s | torch-lower | mlir-opt-16 > /dev/null
// torch.export's symbolic shapes: torch-opt's default pipeline keeps
// torch.symbolic_int and torch.bind_symbolic_shape (the backend contract
// allows them, as torch-mlir's), and the int arithmetic of sizes;
// torch-lower checks each argument against them at the function's entry
// (the symbol's range where its first dimension sizes it, the relation
// everywhere else) and drops the binds of other values.

// OPT-LABEL: func.func @f(
// OPT: torch.symbolic_int "s0" {min_val = 2, max_val = 64} : !torch.int
// OPT: torch.bind_symbolic_shape %arg0, [%{{.*}}], affine_map<()[s0] -> (s0, 4)>
// OPT: torch.bind_symbolic_shape %arg1, [%{{.*}}], affine_map<()[s0] -> (s0 * 2, 4)>

// CHECK-LABEL: func.func @f(%arg0: tensor<?x4xf32>, %arg1: tensor<?x4xf32>) -> tensor<?x4xf32>
// CHECK: %[[S0:.*]] = tensor.dim %arg0, %c0{{.*}} : tensor<?x4xf32>
// CHECK: %[[LO:.*]] = arith.cmpi sge, %[[S0]], %c2
// CHECK: %[[HI:.*]] = arith.cmpi sle, %[[S0]], %c64
// CHECK: %[[OK:.*]] = arith.andi %[[LO]], %[[HI]] : i1
// CHECK: cf.assert %[[OK]], "input 0: dimension 0 (s0) must be in [2, 64]"
// CHECK: %[[TWICE:.*]] = arith.muli %[[S0]], %c2
// CHECK: %[[D1:.*]] = tensor.dim %arg1, %c0
// CHECK: %[[EQ:.*]] = arith.cmpi eq, %[[D1]], %[[TWICE]] : index
// CHECK: cf.assert %[[EQ]], "input 1: dimension 0 must equal (s0 * 2)"
// CHECK-NOT: torch.
func.func @f(%arg0: !torch.vtensor<[?,4],f32>, %arg1: !torch.vtensor<[?,4],f32>) -> !torch.vtensor<[?,4],f32> attributes {torch.assume_strict_symbolic_shapes} {
  %0 = torch.symbolic_int "s0" {min_val = 2, max_val = 64} : !torch.int
  torch.bind_symbolic_shape %arg0, [%0], affine_map<()[s0] -> (s0, 4)> : !torch.vtensor<[?,4],f32>
  torch.bind_symbolic_shape %arg1, [%0], affine_map<()[s0] -> (s0 * 2, 4)> : !torch.vtensor<[?,4],f32>
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %n = torch.aten.size.int %arg0, %int0 : !torch.vtensor<[?,4],f32>, !torch.int -> !torch.int
  %none = torch.constant.none
  %end = torch.aten.mul.int %n, %int1 : !torch.int, !torch.int -> !torch.int
  %s = torch.aten.slice.Tensor %arg1, %int0, %int0, %end, %int1 : !torch.vtensor<[?,4],f32>, !torch.int, !torch.int, !torch.int, !torch.int -> !torch.vtensor<[?,4],f32>
  torch.bind_symbolic_shape %s, [%0], affine_map<()[s0] -> (s0, 4)> : !torch.vtensor<[?,4],f32>
  %1 = torch.aten.add.Tensor %arg0, %s, %int1 : !torch.vtensor<[?,4],f32>, !torch.vtensor<[?,4],f32>, !torch.int -> !torch.vtensor<[?,4],f32>
  return %1 : !torch.vtensor<[?,4],f32>
}

// Under strict symbolic shapes torch-mlir elides the asserts that sizes
// agree; torch-lower keeps them: without binds nothing else would check
// that %a and %b have the same batch, and a wrong size must abort, not
// read past a buffer.
// CHECK-LABEL: func.func @no_binds(
// CHECK: %[[DA:.*]] = tensor.dim %arg0, %c0
// CHECK: %[[DB:.*]] = tensor.dim %arg1, %c0
// CHECK: %[[EQ:.*]] = arith.cmpi eq, %[[DA]], %[[DB]] : index
// CHECK: cf.assert %[[EQ]], "mismatched size for broadcast"
func.func @no_binds(%a: !torch.vtensor<[?,4],f32>, %b: !torch.vtensor<[?,4],f32>) -> !torch.vtensor<[?,4],f32> attributes {torch.assume_strict_symbolic_shapes} {
  %int1 = torch.constant.int 1
  %0 = torch.aten.add.Tensor %a, %b, %int1 : !torch.vtensor<[?,4],f32>, !torch.vtensor<[?,4],f32>, !torch.int -> !torch.vtensor<[?,4],f32>
  return %0 : !torch.vtensor<[?,4],f32>
}
