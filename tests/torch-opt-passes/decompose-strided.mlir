// RUN: torch-opt -p torch-decompose,canonicalize,cse %s | FileCheck %s
// RUN: torch-opt -p torch-decompose,canonicalize,cse %s | torch-opt -p torch-verify-backend-contract > /dev/null
// RUN: not torch-opt %S/inputs/as-strided-refused.mlir 2>&1 | FileCheck %S/inputs/as-strided-refused.mlir

// as_strided over the flattened operand: row-major strides are a slice
// from the offset and a view; a stride-0 dim is an expand of a size-1 view.
// CHECK-LABEL: func.func @view_chain(
// CHECK:         %[[F:.*]] = torch.aten.view %arg0, {{.*}} -> !torch.vtensor<[24],f32>
// CHECK-NEXT:    %[[S:.*]] = torch.aten.slice.Tensor %[[F]], %int0, %int3, %int13, %int1 {{.*}} -> !torch.vtensor<[10],f32>
// CHECK:         %[[V:.*]] = torch.aten.view %[[S]], {{.*}} -> !torch.vtensor<[2,5],f32>
// CHECK-NEXT:    %[[S2:.*]] = torch.aten.slice.Tensor %[[F]], %int0, %int0, %int10, %int1
// CHECK:         %[[V2:.*]] = torch.aten.view %[[S2]], {{.*}} -> !torch.vtensor<[1,2,5],f32>
// CHECK:         %[[E:.*]] = torch.aten.expand %[[V2]], {{.*}} -> !torch.vtensor<[3,2,5],f32>
// CHECK-NEXT:    return %[[V]], %[[E]]

// strides that are row-major in another order: a permute (here of the
// whole operand, the views folded away).
// CHECK-LABEL: func.func @transpose(
// CHECK:         %[[T:.*]] = torch.aten.permute %arg0, {{.*}} -> !torch.vtensor<[3,2],f32>
// CHECK-NEXT:    return %[[T]]

// overlapping windows: index_select of the flat indices.
// CHECK-LABEL: func.func @windows(
// CHECK:         %[[I:.*]] = torch.vtensor.literal(dense_resource<torch_as_strided_index> : tensor<12xi64>)
// CHECK:         %[[G:.*]] = torch.aten.index_select %arg0, %int0, %[[I]]
// CHECK:         torch.aten.view %[[G]], {{.*}} -> !torch.vtensor<[4,3],f32>

// as_strided_scatter: index_put of the flat source at the same indices.
// CHECK-LABEL: func.func @scatter(
// CHECK:         %[[I:.*]] = torch.vtensor.literal(dense<[0, 3, 1, 4, 2, 5]> : tensor<6xi64>)
// CHECK:         %[[L:.*]] = torch.prim.ListConstruct %[[I]]
// CHECK:         %[[X:.*]] = torch.aten.view %arg0, {{.*}} -> !torch.vtensor<[6],f32>
// CHECK-NEXT:    %[[Y:.*]] = torch.aten.view %arg1, {{.*}} -> !torch.vtensor<[6],f32>
// CHECK-NEXT:    %[[P:.*]] = torch.aten.index_put %[[X]], %[[L]], %[[Y]], %false
// CHECK:         torch.aten.view %[[P]], {{.*}} -> !torch.vtensor<[2,3],f32>
func.func @view_chain(%arg0: !torch.vtensor<[2,3,4],f32>) -> (!torch.vtensor<[2,5],f32>, !torch.vtensor<[3,2,5],f32>) {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int3 = torch.constant.int 3
  %int5 = torch.constant.int 5
  %none = torch.constant.none
  %s = torch.prim.ListConstruct %int2, %int5 : (!torch.int, !torch.int) -> !torch.list<int>
  %t = torch.prim.ListConstruct %int5, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.as_strided %arg0, %s, %t, %int3 : !torch.vtensor<[2,3,4],f32>, !torch.list<int>, !torch.list<int>, !torch.int -> !torch.vtensor<[2,5],f32>
  %s2 = torch.prim.ListConstruct %int3, %int2, %int5 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %t2 = torch.prim.ListConstruct %int0, %int5, %int1 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %1 = torch.aten.as_strided_copy %arg0, %s2, %t2, %none : !torch.vtensor<[2,3,4],f32>, !torch.list<int>, !torch.list<int>, !torch.none -> !torch.vtensor<[3,2,5],f32>
  return %0, %1 : !torch.vtensor<[2,5],f32>, !torch.vtensor<[3,2,5],f32>
}

func.func @transpose(%arg0: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[3,2],f32> {
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int3 = torch.constant.int 3
  %none = torch.constant.none
  %s = torch.prim.ListConstruct %int3, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %t = torch.prim.ListConstruct %int1, %int3 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.as_strided %arg0, %s, %t, %none : !torch.vtensor<[2,3],f32>, !torch.list<int>, !torch.list<int>, !torch.none -> !torch.vtensor<[3,2],f32>
  return %0 : !torch.vtensor<[3,2],f32>
}

func.func @windows(%arg0: !torch.vtensor<[6],f32>) -> !torch.vtensor<[4,3],f32> {
  %int1 = torch.constant.int 1
  %int3 = torch.constant.int 3
  %int4 = torch.constant.int 4
  %none = torch.constant.none
  %s = torch.prim.ListConstruct %int4, %int3 : (!torch.int, !torch.int) -> !torch.list<int>
  %t = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.as_strided %arg0, %s, %t, %none : !torch.vtensor<[6],f32>, !torch.list<int>, !torch.list<int>, !torch.none -> !torch.vtensor<[4,3],f32>
  return %0 : !torch.vtensor<[4,3],f32>
}

func.func @scatter(%arg0: !torch.vtensor<[2,3],f32>, %arg1: !torch.vtensor<[3,2],f32>) -> !torch.vtensor<[2,3],f32> {
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int3 = torch.constant.int 3
  %none = torch.constant.none
  %s = torch.prim.ListConstruct %int3, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %t = torch.prim.ListConstruct %int1, %int3 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.as_strided_scatter %arg0, %arg1, %s, %t, %none : !torch.vtensor<[2,3],f32>, !torch.vtensor<[3,2],f32>, !torch.list<int>, !torch.list<int>, !torch.none -> !torch.vtensor<[2,3],f32>
  return %0 : !torch.vtensor<[2,3],f32>
}
