// fx-export --dynamic 0:0:n=1..64 --dynamic 1:0:m (tests/fx-import/models.py
// dynamic_cat, PyTorch 2): `?` dimensions, one torch.symbolic_int per symbol
// at the top of @main, and after each tensor with symbolic sizes a
// torch.bind_symbolic_shape whose affine map has the symbols it uses,
// sorted by name, as torch-mlir's FX importer prints them.
// RUN: fx-import --strip-debuginfo %S/inputs/dynamic-aten.json | FileCheck %s
// RUN: fx-import %S/inputs/dynamic-aten.json | torch-opt -p '' | FileCheck %s --check-prefix=ROUND
// RUN: fx-import %S/inputs/dynamic-aten.json | torch-opt -p '' | torch-opt -p '' | FileCheck %s --check-prefix=ROUND

// The maps are printed in place, never as #map aliases.
// CHECK-NOT:  #map
// CHECK:      func.func @main(%arg0: !torch.vtensor<[?,4],f32>, %arg1: !torch.vtensor<[?,4],f32>) -> (!torch.vtensor<[?,3],f32>, !torch.vtensor<[?],f32>, !torch.vtensor<[],si64>) attributes {torch.assume_strict_symbolic_shapes} {
// CHECK-NEXT: %[[N:.*]] = torch.symbolic_int "n" {min_val = 1, max_val = 64} : !torch.int
// CHECK-NEXT: %[[M:.*]] = torch.symbolic_int "m" {min_val = {{[0-9]+}}, max_val = 9223372036854775807} : !torch.int
// CHECK:      torch.bind_symbolic_shape %arg0, [%[[N]]], affine_map<()[s0] -> (s0, 4)> : !torch.vtensor<[?,4],f32>
// CHECK-NEXT: torch.bind_symbolic_shape %arg1, [%[[M]]], affine_map<()[s0] -> (s0, 4)> : !torch.vtensor<[?,4],f32>
// aten.sym_size.int is torch.aten.size.int, as torch-mlir's importer maps it.
// CHECK:      torch.aten.size.int %arg0, %{{.*}} : !torch.vtensor<[?,4],f32>, !torch.int -> !torch.int
// CHECK:      %[[C:.*]] = torch.aten.cat {{.*}} -> !torch.vtensor<[?,4],f32>
// CHECK-NEXT: torch.bind_symbolic_shape %[[C]], [%[[M]], %[[N]]], affine_map<()[s0, s1] -> (s0 + s1, 4)> : !torch.vtensor<[?,4],f32>
// CHECK:      %[[A:.*]] = torch.aten.addmm {{.*}} -> !torch.vtensor<[?,3],f32>
// CHECK-NEXT: torch.bind_symbolic_shape %[[A]], [%[[M]], %[[N]]], affine_map<()[s0, s1] -> (s0 + s1, 3)>
// CHECK:      %[[S:.*]] = torch.aten.slice.Tensor {{.*}} -> !torch.vtensor<[?,4],f32>
// CHECK-NEXT: torch.bind_symbolic_shape %[[S]], [%[[M]], %[[N]]], affine_map<()[s0, s1] -> (s0 + s1 - 1, 4)>
// CHECK:      %[[V:.*]] = torch.aten.view %[[S]], {{.*}} -> !torch.vtensor<[?],f32>
// CHECK-NEXT: torch.bind_symbolic_shape %[[V]], [%[[M]], %[[N]]], affine_map<()[s0, s1] -> (s0 * 4 + s1 * 4 - 4)>
// weights are static: no bind
// CHECK-NOT:  bind_symbolic_shape {{.*}}tensor<[3
// CHECK:      return

// ROUND: torch.symbolic_int "n" {min_val = 1, max_val = 64} : !torch.int
// ROUND: torch.bind_symbolic_shape %arg0, [%0], affine_map<()[s0] -> (s0, 4)> : !torch.vtensor<[?,4],f32>
// ROUND: torch.aten.view {{.*}} -> !torch.vtensor<[?],f32>
