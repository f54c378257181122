// Python int/float/bool results (tests/fx-import/models.py:scalar_results:
// x.numel(), x * 2, x.size(0), x.dim() > 1, 2.5, [x.size(1) - 4, True],
// x.shape, torch.split(x, 2) on a [5,3] input) are results of @main, each a
// 0-dim tensor made by aten.scalar_tensor with the Python value's dtype
// (int64 = 4 -> si64, float64 = 7 -> f64, bool = 11 -> i1), in the graph's
// flattened order.  make_fx folds the aten graph's scalars to literals; the
// torch graph computes them (numel, size.int, dim, gt.int, sub.int, size).
// A returned list (split, x.shape) is unpacked.
// RUN: fx-import --strip-debuginfo %S/inputs/scalar_results-aten.json | FileCheck %s --check-prefixes=CHECK,ATEN
// RUN: fx-import --strip-debuginfo %S/inputs/scalar_results-torch.json | FileCheck %s --check-prefixes=CHECK,TORCH
// RUN: fx-import %S/inputs/scalar_results-aten.json | torch-opt | torch-lower | codegen --target=cpu | vmpack -o %t.a.vmfb
// RUN: vmrun %t.a.vmfb --input=5x3xf32=1 | FileCheck %s --check-prefix=OUT
// RUN: fx-import %S/inputs/scalar_results-torch.json | torch-opt | torch-lower | codegen --target=cpu | vmpack -o %t.t.vmfb
// RUN: vmrun %t.t.vmfb --input=5x3xf32=1 | FileCheck %s --check-prefix=OUT

// CHECK:       func.func @main(%arg0: !torch.vtensor<[5,3],f32>) -> (!torch.vtensor<[],si64>, !torch.vtensor<[5,3],f32>, !torch.vtensor<[],si64>, !torch.vtensor<[],i1>, !torch.vtensor<[],f64>, !torch.vtensor<[],si64>, !torch.vtensor<[],i1>, !torch.vtensor<[],si64>, !torch.vtensor<[],si64>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[1,3],f32>)
// ATEN:        %[[MUL:.*]] = torch.aten.mul.Tensor %arg0
// ATEN:        %[[SPLIT:.*]]:3 = torch.prim.ListUnpack
// ATEN:        %[[I15:.*]] = torch.constant.int 15
// ATEN-NEXT:   %[[INT4:.*]] = torch.constant.int 4
// ATEN-NEXT:   %[[NONE:.*]] = torch.constant.none
// ATEN-NEXT:   %[[NUMEL:.*]] = torch.aten.scalar_tensor %[[I15]], %[[INT4]], %[[NONE]], %[[NONE]], %[[NONE]] : !torch.int, !torch.int, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[],si64>
// ATEN:        torch.aten.scalar_tensor %int5, {{.*}} -> !torch.vtensor<[],si64>
// ATEN:        torch.aten.scalar_tensor %true, %int11, {{.*}} -> !torch.vtensor<[],i1>
// ATEN:        torch.aten.scalar_tensor %float2.500000e00, %int7, {{.*}} -> !torch.vtensor<[],f64>
// ATEN:        torch.aten.scalar_tensor %int-1, {{.*}} -> !torch.vtensor<[],si64>
// ATEN:        return %[[NUMEL]], %[[MUL]], {{.*}}, %[[SPLIT]]#0, %[[SPLIT]]#1, %[[SPLIT]]#2 :

// TORCH:       %[[N:.*]] = torch.aten.numel %arg0 : !torch.vtensor<[5,3],f32> -> !torch.int
// TORCH:       %[[GT:.*]] = torch.aten.gt.int
// TORCH:       %[[SUB:.*]] = torch.aten.sub.int
// TORCH:       %[[SHAPE:.*]] = torch.aten.size %arg0 : !torch.vtensor<[5,3],f32> -> !torch.list<int>
// TORCH:       torch.aten.scalar_tensor %[[N]], %int4{{.*}} -> !torch.vtensor<[],si64>
// TORCH:       torch.aten.scalar_tensor %[[GT]], %int11{{.*}} -> !torch.vtensor<[],i1>
// TORCH:       torch.aten.scalar_tensor %[[SUB]], %int4{{.*}} -> !torch.vtensor<[],si64>
// TORCH:       %[[DIMS:.*]]:2 = torch.prim.ListUnpack %[[SHAPE]] : !torch.list<int> -> !torch.int, !torch.int
// TORCH:       torch.aten.scalar_tensor %[[DIMS]]#0, {{.*}} -> !torch.vtensor<[],si64>
// TORCH:       torch.aten.scalar_tensor %[[DIMS]]#1, {{.*}} -> !torch.vtensor<[],si64>
// TORCH:       torch.prim.ListUnpack {{.*}} : !torch.list<vtensor> -> !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[1,3],f32>

// OUT:      i64=15
// OUT-NEXT: 5x3xf32=[2 2 2][2 2 2][2 2 2][2 2 2][2 2 2]
// OUT-NEXT: i64=5
// OUT-NEXT: i1=1
// OUT-NEXT: f64=2.5
// OUT-NEXT: i64=-1
// OUT-NEXT: i1=1
// OUT-NEXT: i64=5
// OUT-NEXT: i64=3
// OUT-NEXT: 2x3xf32=[1 1 1][1 1 1]
// OUT-NEXT: 2x3xf32=[1 1 1][1 1 1]
// OUT-NEXT: 1x3xf32=[1 1 1]
// OUT-NOT:  {{.}}
