// Corners of the format: slices, inf arguments, symbolic sizes, tensor
// constants, non-float weights, integer inputs, dtype arguments, nested
// outputs (a tuple holding a dict: flattened in order), unknown ops.
// RUN: fx-import --strip-debuginfo %S/inputs/corners-aten.json | FileCheck %s
// RUN: fx-import --strip-debuginfo %S/inputs/corners-torch.json | FileCheck %s --check-prefix=TORCH
// RUN: fx-import --strip-debuginfo %S/inputs/unknown-op.json | FileCheck %s --check-prefix=UNKNOWN
// RUN: fx-import %S/inputs/corners-aten.json | torch-opt -p '' > /dev/null
// RUN: fx-import %S/inputs/corners-torch.json | torch-opt -p '' > /dev/null
// RUN: fx-import %S/inputs/unknown-op.json | torch-opt -p '' > /dev/null

// CHECK-LABEL: func.func @main(%arg0: !torch.vtensor<[2,4],f32>, %arg1: !torch.vtensor<[2,3],si64>) -> (!torch.vtensor<[2,2],f32>, !torch.vtensor<[2,4],f32>, !torch.vtensor<[2,4],f32>)
// CHECK:      torch.constant.int 9223372036854775807
// CHECK:      torch.constant.float 0xFFF0000000000000
// CHECK:      torch.vtensor.literal(dense_resource<half_scale> : tensor<4xbf16>) : !torch.vtensor<[4],bf16>
// CHECK-NEXT: %[[F32:.*]] = torch.constant.int 6
// CHECK:      torch.aten._to_copy {{.*}}, %[[F32]], {{.*}} -> !torch.vtensor<[4],f32>
// CHECK:      torch.vtensor.literal(dense_resource<mask> : tensor<4xi1>) : !torch.vtensor<[4],i1>
// CHECK:      torch.aten.masked_fill.Scalar

// x[:, 1:3]: the full slice is dropped, 1:3 is slice.Tensor on dim 1.
// TORCH:      %[[D:.*]] = torch.constant.int 1
// TORCH-NEXT: %[[B:.*]] = torch.constant.int 1
// TORCH-NEXT: %[[E:.*]] = torch.constant.int 3
// TORCH-NEXT: %[[S:.*]] = torch.constant.int 1
// TORCH-NEXT: torch.aten.slice.Tensor %arg0, %[[D]], %[[B]], %[[E]], %[[S]] : {{.*}} -> !torch.vtensor<[2,2],f32>
// x.size(0) and x.reshape(n, -1)
// TORCH:      %[[N:.*]] = torch.aten.size.int %arg0, %{{.*}} : !torch.vtensor<[2,4],f32>, !torch.int -> !torch.int
// TORCH:      %[[L:.*]] = torch.prim.ListConstruct %[[N]], %{{.*}} : (!torch.int, !torch.int) -> !torch.list<int>
// TORCH-NEXT: torch.aten.reshape %arg0, %[[L]]
// TORCH:      torch.aten.sum.dim_IntList

// UNKNOWN: torch.operator "aten.my_mm"(%{{.*}}, %{{.*}}) : (!torch.vtensor<[1,4],f32>, !torch.vtensor<[4,3],f32>) -> !torch.vtensor<[1,3],f32>
