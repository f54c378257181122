// RUN: torch-opt -p torch-decompose,canonicalize,cse %s | FileCheck %s
// RUN: not torch-opt %S/inputs/sort-refused.mlir 2>&1 | FileCheck %S/inputs/sort-refused.mlir

// topk(k = 3, largest) of a float row: each element's rank (how many
// precede it: greater, NaN before numbers, or tied and earlier), the
// elements of ranks 0..2 found by index sums, their values by gather.
// CHECK-LABEL: func.func @topk(
// CHECK:         %[[A:.*]] = torch.aten.unsqueeze %arg0, %int1 {{.*}} -> !torch.vtensor<[2,1,5],f32>
// CHECK-NEXT:    %[[B:.*]] = torch.aten.unsqueeze %arg0, %int2 {{.*}} -> !torch.vtensor<[2,5,1],f32>
// CHECK-NEXT:    %[[GT:.*]] = torch.aten.gt.Tensor %[[A]], %[[B]] {{.*}} -> !torch.vtensor<[2,5,5],i1>
// CHECK-NEXT:    %[[EQ:.*]] = torch.aten.eq.Tensor %[[A]], %[[B]]
// CHECK-NEXT:    %[[NA:.*]] = torch.aten.isnan %[[A]]
// CHECK-NEXT:    %[[NB:.*]] = torch.aten.isnan %[[B]]
// CHECK-NEXT:    %[[NOTNB:.*]] = torch.aten.logical_not %[[NB]]
// CHECK-NEXT:    %[[NANFIRST:.*]] = torch.aten.logical_and %[[NA]], %[[NOTNB]]
// CHECK-NEXT:    %[[BEFORE:.*]] = torch.aten.logical_or %[[GT]], %[[NANFIRST]]
// CHECK-NEXT:    %[[BOTHNAN:.*]] = torch.aten.logical_and %[[NA]], %[[NB]]
// CHECK-NEXT:    %[[TIE:.*]] = torch.aten.logical_or %[[EQ]], %[[BOTHNAN]]
// CHECK-NEXT:    %[[AR:.*]] = torch.aten.arange.start_step %int0, %int5, %int1, %int4
// CHECK:         %[[I:.*]] = torch.aten.view %[[AR]], {{.*}} -> !torch.vtensor<[1,5,1],si64>
// CHECK:         %[[J:.*]] = torch.aten.view %[[AR]], {{.*}} -> !torch.vtensor<[1,1,5],si64>
// CHECK-NEXT:    %[[EARLIER:.*]] = torch.aten.lt.Tensor %[[J]], %[[I]]
// CHECK-NEXT:    %[[TIEBEFORE:.*]] = torch.aten.logical_and %[[TIE]], %[[EARLIER]]
// CHECK-NEXT:    %[[PREC:.*]] = torch.aten.logical_or %[[BEFORE]], %[[TIEBEFORE]]
// CHECK:         %[[RANK:.*]] = torch.aten.sum.dim_IntList %[[PREC]], {{.*}} -> !torch.vtensor<[2,5],si64>
// CHECK:         %[[P:.*]] = torch.aten.arange.start_step %int0, %int3, %int1, %int4
// CHECK:         %[[PV:.*]] = torch.aten.view %[[P]], {{.*}} -> !torch.vtensor<[1,3,1],si64>
// CHECK-NEXT:    %[[R:.*]] = torch.aten.unsqueeze %[[RANK]], %int1
// CHECK-NEXT:    %[[M:.*]] = torch.aten.eq.Tensor %[[R]], %[[PV]] {{.*}} -> !torch.vtensor<[2,3,5],i1>
// CHECK-NEXT:    %[[W:.*]] = torch.aten.where.ScalarOther %[[M]], %[[J]], %int0
// CHECK-NEXT:    %[[IDX:.*]] = torch.aten.sum.dim_IntList %[[W]], {{.*}} -> !torch.vtensor<[2,3],si64>
// CHECK-NEXT:    %[[V:.*]] = torch.aten.gather %arg0, %int1, %[[IDX]], %false {{.*}} -> !torch.vtensor<[2,3],f32>
// CHECK-NEXT:    return %[[V]], %[[IDX]]
func.func @topk(%x: !torch.vtensor<[2,5],f32>) -> (!torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],si64>) {
  %int3 = torch.constant.int 3
  %int-1 = torch.constant.int -1
  %true = torch.constant.bool true
  %0:2 = torch.aten.topk %x, %int3, %int-1, %true, %true : !torch.vtensor<[2,5],f32>, !torch.int, !torch.int, !torch.bool, !torch.bool -> !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],si64>
  return %0#0, %0#1 : !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],si64>
}

// Integers have no NaN: ascending is lt alone.  kthvalue is place k - 1,
// squeezed unless keepdim; argsort the indices of the whole sort.
// CHECK-LABEL: func.func @ints(
// CHECK-NOT:     isnan
// CHECK:         torch.aten.lt.Tensor {{.*}} -> !torch.vtensor<[4,4,3],i1>
// CHECK:         torch.aten.arange.start_step %int1, %int2, %int1, %int4
// CHECK:         %[[KI:.*]] = torch.aten.sum.dim_IntList {{.*}} -> !torch.vtensor<[1,3],si64>
// CHECK-NEXT:    %[[KV:.*]] = torch.aten.gather %arg0, %int0, %[[KI]], %false
// CHECK-NEXT:    %[[SV:.*]] = torch.aten.squeeze.dim %[[KV]], %int0 {{.*}} -> !torch.vtensor<[3],si32>
// CHECK-NEXT:    %[[SI:.*]] = torch.aten.squeeze.dim %[[KI]], %int0 {{.*}} -> !torch.vtensor<[3],si64>
// CHECK:         torch.aten.gt.Tensor {{.*}} -> !torch.vtensor<[4,3,3],i1>
// CHECK:         torch.aten.sum.dim_IntList {{.*}} : !torch.vtensor<[4,3,3],i1>, {{.*}} -> !torch.vtensor<[4,3],si64>
// CHECK:         %[[AI:.*]] = torch.aten.sum.dim_IntList {{.*}} : !torch.vtensor<[4,3,3],si64>, {{.*}} -> !torch.vtensor<[4,3],si64>
// CHECK-NEXT:    return %[[SV]], %[[SI]], %[[AI]]
func.func @ints(%x: !torch.vtensor<[4,3],si32>) -> (!torch.vtensor<[3],si32>, !torch.vtensor<[3],si64>, !torch.vtensor<[4,3],si64>) {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  %0:2 = torch.aten.kthvalue %x, %int2, %int0, %false : !torch.vtensor<[4,3],si32>, !torch.int, !torch.int, !torch.bool -> !torch.vtensor<[3],si32>, !torch.vtensor<[3],si64>
  %1 = torch.aten.argsort %x, %int1, %true : !torch.vtensor<[4,3],si32>, !torch.int, !torch.bool -> !torch.vtensor<[4,3],si64>
  return %0#0, %0#1, %1 : !torch.vtensor<[3],si32>, !torch.vtensor<[3],si64>, !torch.vtensor<[4,3],si64>
}

// bool compares as uint8.
// CHECK-LABEL: func.func @bools(
// CHECK:         %[[U:.*]] = torch.aten.to.dtype %arg0, %int0, %false, %false, %none {{.*}} -> !torch.vtensor<[3],ui8>
// CHECK:         torch.aten.unsqueeze %[[U]], %int0
// CHECK:         torch.aten.gather %arg0, {{.*}} -> !torch.vtensor<[3],i1>
func.func @bools(%x: !torch.vtensor<[3],i1>) -> (!torch.vtensor<[3],i1>, !torch.vtensor<[3],si64>) {
  %int0 = torch.constant.int 0
  %false = torch.constant.bool false
  %0:2 = torch.aten.sort %x, %int0, %false : !torch.vtensor<[3],i1>, !torch.int, !torch.bool -> !torch.vtensor<[3],i1>, !torch.vtensor<[3],si64>
  return %0#0, %0#1 : !torch.vtensor<[3],i1>, !torch.vtensor<[3],si64>
}
