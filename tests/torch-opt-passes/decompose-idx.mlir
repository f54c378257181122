// RUN: torch-opt -p torch-decompose,canonicalize,cse %s | FileCheck %s
// RUN: not torch-opt %S/inputs/idx-refused.mlir 2>&1 | FileCheck %S/inputs/idx-refused.mlir

// scatter_reduce amax, include_self: E[p, q, k] = index[q, k] == p, the
// updates (src's index-shaped corner) where E, else -inf, reduced over q;
// padded to self's extent off dim; taken where some update landed.
// CHECK-LABEL: func.func @scatter_amax(
// CHECK:         %[[SRC:.*]] = torch.aten.slice.Tensor %arg2, %int1, %int0, %int2, %int1 {{.*}} -> !torch.vtensor<[2,2],f32>
// CHECK:         %[[AR:.*]] = torch.aten.arange.start_step %int0, %int4
// CHECK-NEXT:    %[[P:.*]] = torch.aten.view %[[AR]], {{.*}} -> !torch.vtensor<[4,1,1],si64>
// CHECK-NEXT:    %[[IX:.*]] = torch.aten.unsqueeze %arg1, %int0
// CHECK-NEXT:    %[[E:.*]] = torch.aten.eq.Tensor %[[IX]], %[[P]] {{.*}} -> !torch.vtensor<[4,2,2],i1>
// CHECK-NEXT:    %[[SU:.*]] = torch.aten.unsqueeze %[[SRC]], %int0
// CHECK:         %[[CNT:.*]] = torch.aten.sum.dim_IntList %[[E]], {{.*}} -> !torch.vtensor<[4,2],si64>
// CHECK-NEXT:    %[[W:.*]] = torch.aten.where.ScalarOther %[[E]], %[[SU]], %float0xFFF0000000000000
// CHECK-NEXT:    %[[MAX:.*]] = torch.aten.amax %[[W]], {{.*}} -> !torch.vtensor<[4,2],f32>
// CHECK:         %[[PMAX:.*]] = torch.aten.constant_pad_nd %[[MAX]], {{.*}} -> !torch.vtensor<[4,3],f32>
// CHECK-NEXT:    %[[PCNT:.*]] = torch.aten.constant_pad_nd %[[CNT]], {{.*}} -> !torch.vtensor<[4,3],si64>
// CHECK-NEXT:    %[[HAS:.*]] = torch.aten.gt.Scalar %[[PCNT]], %int0
// CHECK-NEXT:    %[[M:.*]] = torch.aten.maximum %arg0, %[[PMAX]]
// CHECK-NEXT:    %[[R:.*]] = torch.aten.where.self %[[HAS]], %[[M]], %arg0
// CHECK-NEXT:    return %[[R]]
func.func @scatter_amax(%x: !torch.vtensor<[4,3],f32>, %i: !torch.vtensor<[2,2],si64>, %s: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[4,3],f32> {
  %int0 = torch.constant.int 0
  %str = torch.constant.str "amax"
  %true = torch.constant.bool true
  %0 = torch.aten.scatter_reduce.two %x, %int0, %i, %s, %str, %true : !torch.vtensor<[4,3],f32>, !torch.int, !torch.vtensor<[2,2],si64>, !torch.vtensor<[2,3],f32>, !torch.str, !torch.bool -> !torch.vtensor<[4,3],f32>
  return %0 : !torch.vtensor<[4,3],f32>

// mean of ints without self: the sum over the count, floored; a count of 0
// (self kept) divides by 1, never by 0.
// CHECK-LABEL: func.func @scatter_mean_int(
// CHECK:         %[[CNT:.*]] = torch.aten.sum.dim_IntList %{{.*}}, %{{.*}}, %false, %int4 {{.*}} -> !torch.vtensor<[4],si64>
// CHECK:         %[[SUM:.*]] = torch.aten.sum.dim_IntList %{{.*}}, %{{.*}}, %false, %int3 {{.*}} -> !torch.vtensor<[4],si32>
// CHECK-NEXT:    %[[HAS:.*]] = torch.aten.gt.Scalar %[[CNT]], %int0
// CHECK-NEXT:    %[[C1:.*]] = torch.aten.where.ScalarOther %[[HAS]], %[[CNT]], %int1
// CHECK-NEXT:    %[[C:.*]] = torch.aten.to.dtype %[[C1]], %int3
// CHECK-NEXT:    %[[D:.*]] = torch.aten.div.Tensor_mode %[[SUM]], %[[C]], %str
// CHECK-NEXT:    %[[R:.*]] = torch.aten.where.self %[[HAS]], %[[D]], %arg0
// CHECK-NEXT:    return %[[R]]
}
func.func @scatter_mean_int(%x: !torch.vtensor<[4],si32>, %i: !torch.vtensor<[3],si64>, %s: !torch.vtensor<[3],si32>) -> !torch.vtensor<[4],si32> {
  %int0 = torch.constant.int 0
  %str = torch.constant.str "mean"
  %false = torch.constant.bool false
  %0 = torch.aten.scatter_reduce.two %x, %int0, %i, %s, %str, %false : !torch.vtensor<[4],si32>, !torch.int, !torch.vtensor<[3],si64>, !torch.vtensor<[3],si32>, !torch.str, !torch.bool -> !torch.vtensor<[4],si32>

// x[mask] = v with a row per selected element: each element's place among
// the selected (cumsum - 1) picks its row.
// CHECK-LABEL: func.func @put_mask(
// CHECK:         %[[CS:.*]] = torch.aten.cumsum %arg1, %int0, %int4
// CHECK-NEXT:    %[[PL:.*]] = torch.aten.sub.Scalar %[[CS]], %int1, %int1
// CHECK-NEXT:    %[[PL0:.*]] = torch.aten.where.ScalarOther %arg1, %[[PL]], %int0
// CHECK-NEXT:    %[[G:.*]] = torch.aten.index_select %arg2, %int0, %[[PL0]] {{.*}} -> !torch.vtensor<[5,4],f32>
// CHECK-NEXT:    %[[M:.*]] = torch.aten.unsqueeze %arg1, %int1
// CHECK-NEXT:    %[[R:.*]] = torch.aten.where.self %[[M]], %[[G]], %arg0
// CHECK-NEXT:    return %[[R]]
  return %0 : !torch.vtensor<[4],si32>
}
func.func @put_mask(%x: !torch.vtensor<[5,4],f32>, %m: !torch.vtensor<[5],i1>, %v: !torch.vtensor<[3,4],f32>) -> !torch.vtensor<[5,4],f32> {
  %false = torch.constant.bool false
  %0 = torch.prim.ListConstruct %m : (!torch.vtensor<[5],i1>) -> !torch.list<optional<vtensor>>

// CHECK-LABEL: func.func @put_impl(
// CHECK:         %[[R:.*]] = torch.aten.index_put %arg0, %{{.*}}, %arg2, %true
// CHECK-NEXT:    return %[[R]]
  %1 = torch.aten.index_put %x, %0, %v, %false : !torch.vtensor<[5,4],f32>, !torch.list<optional<vtensor>>, !torch.vtensor<[3,4],f32>, !torch.bool -> !torch.vtensor<[5,4],f32>
  return %1 : !torch.vtensor<[5,4],f32>
}
func.func @put_impl(%x: !torch.vtensor<[6],f32>, %i: !torch.vtensor<[3],si64>, %v: !torch.vtensor<[3],f32>) -> !torch.vtensor<[6],f32> {
  %true = torch.constant.bool true
  %false = torch.constant.bool false

// bucketize: the boundaries b with !(b >= x), counted in int32
// CHECK-LABEL: func.func @bucketize(
// CHECK:         %[[X:.*]] = torch.aten.unsqueeze %arg0, %int2
// CHECK-NEXT:    %[[GE:.*]] = torch.aten.ge.Tensor %arg1, %[[X]] {{.*}} -> !torch.vtensor<[2,3,4],i1>
// CHECK-NEXT:    %[[LT:.*]] = torch.aten.logical_not %[[GE]]
// CHECK:         %[[R:.*]] = torch.aten.sum.dim_IntList %[[LT]], %{{.*}}, %false, %int3 {{.*}} -> !torch.vtensor<[2,3],si32>
// CHECK-NEXT:    return %[[R]]
  %0 = torch.prim.ListConstruct %i : (!torch.vtensor<[3],si64>) -> !torch.list<optional<vtensor>>
  %1 = torch.aten._index_put_impl %x, %0, %v, %true, %false : !torch.vtensor<[6],f32>, !torch.list<optional<vtensor>>, !torch.vtensor<[3],f32>, !torch.bool, !torch.bool -> !torch.vtensor<[6],f32>
  return %1 : !torch.vtensor<[6],f32>
}
func.func @bucketize(%x: !torch.vtensor<[2,3],f32>, %b: !torch.vtensor<[4],f32>) -> !torch.vtensor<[2,3],si32> {
  %true = torch.constant.bool true

// CHECK-LABEL: func.func @count(
// CHECK:         %[[NZ:.*]] = torch.aten.ne.Scalar %arg0, %int0
// CHECK:         %[[R:.*]] = torch.aten.sum.dim_IntList %[[NZ]], %{{.*}}, %false, %int4 {{.*}} -> !torch.vtensor<[2],si64>
// CHECK-NEXT:    return %[[R]]
  %false = torch.constant.bool false
  %0 = torch.aten.bucketize.Tensor %x, %b, %true, %false : !torch.vtensor<[2,3],f32>, !torch.vtensor<[4],f32>, !torch.bool, !torch.bool -> !torch.vtensor<[2,3],si32>
  return %0 : !torch.vtensor<[2,3],si32>
}
func.func @count(%x: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2],si64> {

// CHECK-LABEL: func.func @triu(
// CHECK:         torch.vtensor.literal(dense<{{\[}}[0, 0, 1], [1, 2, 2]]> : tensor<2x3xi64>)
  %int1 = torch.constant.int 1
  %0 = torch.aten.count_nonzero %x, %int1 : !torch.vtensor<[2,3],f32>, !torch.int -> !torch.vtensor<[2],si64>
  return %0 : !torch.vtensor<[2],si64>
}
func.func @triu() -> !torch.vtensor<[2,3],si64> {
  %int3 = torch.constant.int 3
  %int1 = torch.constant.int 1

// repeat_interleave with output_size: out[j] = #{i : j >= cumsum(r)[i]},
// cumsum a column, positions a row (torch-mlir's form)
// CHECK-LABEL: func.func @repeat(
// CHECK:         %[[CS:.*]] = torch.aten.cumsum %arg0, %int0, %int4
// CHECK-NEXT:    %[[J:.*]] = torch.aten.arange.start_step {{.*}} -> !torch.vtensor<[7],si64>
// CHECK-NEXT:    %[[C:.*]] = torch.aten.unsqueeze %[[CS]], %int1 {{.*}} -> !torch.vtensor<[3,1],si64>
// CHECK-NEXT:    %[[JR:.*]] = torch.aten.unsqueeze %[[J]], %int0 {{.*}} -> !torch.vtensor<[1,7],si64>
// CHECK-NEXT:    %[[GE:.*]] = torch.aten.ge.Tensor %[[JR]], %[[C]] {{.*}} -> !torch.vtensor<[3,7],i1>
// CHECK-NEXT:    %[[GI:.*]] = torch.aten.to.dtype %[[GE]], %int4, {{.*}} -> !torch.vtensor<[3,7],si64>
// CHECK:         %[[R:.*]] = torch.aten.sum.dim_IntList %[[GI]], {{.*}} -> !torch.vtensor<[7],si64>
// CHECK-NEXT:    return %[[R]]
  %none = torch.constant.none
  %0 = torch.aten.triu_indices %int3, %int3, %int1, %none, %none, %none, %none : !torch.int, !torch.int, !torch.int, !torch.none, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[2,3],si64>
  return %0 : !torch.vtensor<[2,3],si64>
}
func.func @repeat(%r: !torch.vtensor<[3],si64>) -> !torch.vtensor<[7],si64> {
  %int7 = torch.constant.int 7
  %0 = torch.aten.repeat_interleave.Tensor %r, %int7 : !torch.vtensor<[3],si64>, !torch.int -> !torch.vtensor<[7],si64>
  return %0 : !torch.vtensor<[7],si64>
}
