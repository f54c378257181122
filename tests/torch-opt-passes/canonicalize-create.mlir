// RUN: torch-opt %s -canonicalize -split-input-file | FileCheck %s

// dtype conversions and reshapes of literals (lib/torch/canon_create.c).

// f32 -> si32 truncates toward zero; si64 -> si32 wraps; f64 -> f16 rounds
// through f32 as c10 does; anything -> bool is "!= 0" (NaN is true).
// CHECK-LABEL: func.func @convert(
// CHECK-DAG:     torch.vtensor.literal(dense<[-2, 2]> : tensor<2xsi32>)
// CHECK-DAG:     torch.vtensor.literal(dense<-2147483648> : tensor<2xsi32>)
// CHECK-DAG:     torch.vtensor.literal(dense<[true, false]> : tensor<2xi1>)
// CHECK:         %[[N:.*]] = torch.aten.to.dtype
// CHECK:         %[[B:.*]] = torch.aten.to.dtype
// CHECK:         return {{.*}}, %[[N]], %[[B]]
func.func @convert() -> (!torch.vtensor<[2],si32>, !torch.vtensor<[2],si32>, !torch.vtensor<[2],i1>, !torch.vtensor<[2],si32>, !torch.vtensor<[2],si32>) {
  %false = torch.constant.bool false
  %none = torch.constant.none
  %int3 = torch.constant.int 3
  %int11 = torch.constant.int 11
  %f = torch.vtensor.literal(dense<[-2.75, 2.5]> : tensor<2xf32>) : !torch.vtensor<[2],f32>
  %l = torch.vtensor.literal(dense<2147483648> : tensor<2xsi64>) : !torch.vtensor<[2],si64>
  %n = torch.vtensor.literal(dense<[0x7FC00000, 0.0]> : tensor<2xf32>) : !torch.vtensor<[2],f32>
  %big = torch.vtensor.literal(dense<[1.0e10, 1.0]> : tensor<2xf32>) : !torch.vtensor<[2],f32>
  %0 = torch.aten.to.dtype %f, %int3, %false, %false, %none : !torch.vtensor<[2],f32>, !torch.int, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor<[2],si32>
  %1 = torch.aten.to.dtype %l, %int3, %false, %false, %none : !torch.vtensor<[2],si64>, !torch.int, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor<[2],si32>
  %2 = torch.aten.to.dtype %n, %int11, %false, %false, %none : !torch.vtensor<[2],f32>, !torch.int, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor<[2],i1>
  // NaN and out-of-range floats to ints are undefined: left
  %3 = torch.aten.to.dtype %n, %int3, %false, %false, %none : !torch.vtensor<[2],f32>, !torch.int, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor<[2],si32>
  %4 = torch.aten.to.dtype %big, %int3, %false, %false, %none : !torch.vtensor<[2],f32>, !torch.int, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor<[2],si32>
  return %0, %1, %2, %3, %4 : !torch.vtensor<[2],si32>, !torch.vtensor<[2],si32>, !torch.vtensor<[2],i1>, !torch.vtensor<[2],si32>, !torch.vtensor<[2],si32>
}

// -----

// 1.2 (f64) -> f32 1.20000005 -> f16 1.2002
// CHECK-LABEL: func.func @to_half(
// CHECK:         torch.vtensor.literal(dense<1.200200e+00> : tensor<2xf16>)
func.func @to_half() -> !torch.vtensor<[2],f16> {
  %false = torch.constant.bool false
  %none = torch.constant.none
  %int5 = torch.constant.int 5
  %d = torch.vtensor.literal(dense<1.2> : tensor<2xf64>) : !torch.vtensor<[2],f64>
  %0 = torch.aten.to.dtype %d, %int5, %false, %false, %none : !torch.vtensor<[2],f64>, !torch.int, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor<[2],f16>
  return %0 : !torch.vtensor<[2],f16>
}

// -----

// Views keep the row-major order; a broadcast only of a splat.
// CHECK-LABEL: func.func @reshape(
// CHECK-DAG:     %[[V:.*]] = torch.vtensor.literal(dense<{{\[}}[1, 2, 3], [4, 5, 6]]> : tensor<2x3xsi64>)
// CHECK-DAG:     %[[S:.*]] = torch.vtensor.literal(dense<7> : tensor<2x3xsi64>)
// CHECK:         %[[E:.*]] = torch.aten.broadcast_to
// CHECK:         return %[[V]], %[[S]], %[[E]]
func.func @reshape() -> (!torch.vtensor<[2,3],si64>, !torch.vtensor<[2,3],si64>, !torch.vtensor<[2,3],si64>) {
  %int2 = torch.constant.int 2
  %int3 = torch.constant.int 3
  %a = torch.vtensor.literal(dense<[1, 2, 3, 4, 5, 6]> : tensor<6xsi64>) : !torch.vtensor<[6],si64>
  %s = torch.vtensor.literal(dense<7> : tensor<3xsi64>) : !torch.vtensor<[3],si64>
  %r = torch.vtensor.literal(dense<[1, 2, 3]> : tensor<3xsi64>) : !torch.vtensor<[3],si64>
  %shape = torch.prim.ListConstruct %int2, %int3 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.view %a, %shape : !torch.vtensor<[6],si64>, !torch.list<int> -> !torch.vtensor<[2,3],si64>
  %1 = torch.aten.broadcast_to %s, %shape : !torch.vtensor<[3],si64>, !torch.list<int> -> !torch.vtensor<[2,3],si64>
  %2 = torch.aten.broadcast_to %r, %shape : !torch.vtensor<[3],si64>, !torch.list<int> -> !torch.vtensor<[2,3],si64>
  return %0, %1, %2 : !torch.vtensor<[2,3],si64>, !torch.vtensor<[2,3],si64>, !torch.vtensor<[2,3],si64>
}

// -----

// floor of ints is the identity, not of floats; torch.tensor of values
// the dtype holds exactly (0.1 is not an f32); Python's 1.5 + 2.
// CHECK-LABEL: func.func @misc(
// CHECK-DAG:     %[[F:.*]] = torch.constant.float 3.500000e+00
// CHECK-DAG:     %[[T:.*]] = torch.vtensor.literal(dense<[3, -1]> : tensor<2xsi32>)
// CHECK:         %[[FL:.*]] = torch.aten.floor %arg1
// CHECK:         %[[P:.*]] = torch.aten.tensor.float
// CHECK:         %[[W:.*]] = torch.aten.tensor
// CHECK:         return %arg0, %[[FL]], %[[T]], %[[P]], %[[W]], %[[F]]
func.func @misc(%arg0: !torch.vtensor<[?],si64>, %arg1: !torch.vtensor<[?],f32>) -> (!torch.vtensor<[?],si64>, !torch.vtensor<[?],f32>, !torch.vtensor<[2],si32>, !torch.vtensor<[],f32>, !torch.vtensor<[1],si8>, !torch.float) {
  %none = torch.constant.none
  %false = torch.constant.bool false
  %int3 = torch.constant.int 3
  %int-1 = torch.constant.int -1
  %int300 = torch.constant.int 300
  %int2 = torch.constant.int 2
  %f01 = torch.constant.float 0.1
  %f15 = torch.constant.float 1.5
  %0 = torch.aten.floor %arg0 : !torch.vtensor<[?],si64> -> !torch.vtensor<[?],si64>
  %1 = torch.aten.floor %arg1 : !torch.vtensor<[?],f32> -> !torch.vtensor<[?],f32>
  %l = torch.prim.ListConstruct %int3, %int-1 : (!torch.int, !torch.int) -> !torch.list<int>
  %2 = torch.aten.tensor %l, %none, %none, %false : !torch.list<int>, !torch.none, !torch.none, !torch.bool -> !torch.vtensor<[2],si32>
  %3 = torch.aten.tensor.float %f01, %none, %none, %false : !torch.float, !torch.none, !torch.none, !torch.bool -> !torch.vtensor<[],f32>
  %w = torch.prim.ListConstruct %int300 : (!torch.int) -> !torch.list<int>
  %4 = torch.aten.tensor %w, %none, %none, %false : !torch.list<int>, !torch.none, !torch.none, !torch.bool -> !torch.vtensor<[1],si8>
  %5 = torch.aten.add %f15, %int2 : !torch.float, !torch.int -> !torch.float
  return %0, %1, %2, %3, %4, %5 : !torch.vtensor<[?],si64>, !torch.vtensor<[?],f32>, !torch.vtensor<[2],si32>, !torch.vtensor<[],f32>, !torch.vtensor<[1],si8>, !torch.float
}

// -----

// to.dtype_layout with no layout, device or pinning is to.dtype; with a
// device, to.device (canon_nn.c).  An op with rules in two families
// (to.dtype_layout of a non-literal) still reaches the second.
// CHECK-LABEL: func.func @dtype_layout(
// CHECK:         %[[A:.*]] = torch.aten.to.dtype %arg0, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : !torch.vtensor<[?],f32>, !torch.int, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor<[?],f16>
// CHECK:         %[[B:.*]] = torch.aten.to.device %arg0, %cpu, %int5, %false, %false, %none :
// CHECK:         return %[[A]], %[[B]], %arg1
func.func @dtype_layout(%arg0: !torch.vtensor<[?],f32>, %arg1: !torch.tensor) -> (!torch.vtensor<[?],f16>, !torch.vtensor<[?],f16>, !torch.tensor) {
  %none = torch.constant.none
  %false = torch.constant.bool false
  %int5 = torch.constant.int 5
  %cpu = torch.constant.device "cpu"
  %0 = torch.aten.to.dtype_layout %arg0, %int5, %none, %none, %none, %false, %false, %none : !torch.vtensor<[?],f32>, !torch.int, !torch.none, !torch.none, !torch.none, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor<[?],f16>
  %1 = torch.aten.to.dtype_layout %arg0, %int5, %none, %cpu, %none, %false, %false, %none : !torch.vtensor<[?],f32>, !torch.int, !torch.none, !torch.Device, !torch.none, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor<[?],f16>
  %2 = torch.aten.cuda %arg1 : !torch.tensor -> !torch.tensor
  return %0, %1, %2 : !torch.vtensor<[?],f16>, !torch.vtensor<[?],f16>, !torch.tensor
}

// -----

// cat of a tensor and empties: an empty of size 0 along the dim (or a 1-d
// empty) adds nothing and goes; one of no element but of size 2 along the
// dim adds 2 ([0, ?] and [0, 2] are [0, ? + 2], a type like [0, ?]'s) and
// stays.
// CHECK-LABEL: func.func @cat_empties(
// CHECK:         %[[C:.*]] = torch.aten.cat %{{.*}}, %int-1 : !torch.list<vtensor>, !torch.int -> !torch.vtensor<[0,?],f32>
// CHECK:         return %arg0, %[[C]]
func.func @cat_empties(%arg0: !torch.vtensor<[0,?],f32>, %arg1: !torch.vtensor<[0,2],f32>, %arg2: !torch.vtensor<[0],f32>) -> (!torch.vtensor<[0,?],f32>, !torch.vtensor<[0,?],f32>) {
  %int-1 = torch.constant.int -1
  %0 = torch.prim.ListConstruct %arg0, %arg2 : (!torch.vtensor<[0,?],f32>, !torch.vtensor<[0],f32>) -> !torch.list<vtensor>
  %1 = torch.aten.cat %0, %int-1 : !torch.list<vtensor>, !torch.int -> !torch.vtensor<[0,?],f32>
  %2 = torch.prim.ListConstruct %arg0, %arg1 : (!torch.vtensor<[0,?],f32>, !torch.vtensor<[0,2],f32>) -> !torch.list<vtensor>
  %3 = torch.aten.cat %2, %int-1 : !torch.list<vtensor>, !torch.int -> !torch.vtensor<[0,?],f32>
  return %1, %3 : !torch.vtensor<[0,?],f32>, !torch.vtensor<[0,?],f32>
}
