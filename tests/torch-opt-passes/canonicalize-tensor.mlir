// RUN: torch-opt %s -canonicalize -split-input-file | FileCheck %s

// Elementwise folds of constant tensors (lib/torch/canon_tensor.c), and
// the cases whose value PyTorch would compute otherwise, which stay.

// Integers wrap: 127 + 1 in si8 is -128; ints broadcast against [3].
// CHECK-LABEL: func.func @int_arith(
// CHECK-DAG:     torch.vtensor.literal(dense<[-128, 0, 1]> : tensor<3xsi8>)
// CHECK-DAG:     torch.vtensor.literal(dense<[-2, -2, -1]> : tensor<3xsi64>)
// CHECK-DAG:     torch.vtensor.literal(dense<[-3, 1, -1]> : tensor<3xsi64>)
// CHECK-DAG:     torch.vtensor.literal(dense<[-2, 1, 0]> : tensor<3xsi64>)
// CHECK:         %[[Z:.*]] = torch.aten.remainder.Scalar
// CHECK:         return
func.func @int_arith() -> (!torch.vtensor<[3],si8>, !torch.vtensor<[3],si64>, !torch.vtensor<[3],si64>, !torch.vtensor<[3],si64>, !torch.vtensor<[3],si64>) {
  %int1 = torch.constant.int 1
  %int0 = torch.constant.int 0
  %int-3 = torch.constant.int -3
  %str = torch.constant.str "floor"
  %str_t = torch.constant.str "trunc"
  %a = torch.vtensor.literal(dense<[127, -1, 0]> : tensor<3xsi8>) : !torch.vtensor<[3],si8>
  %b = torch.vtensor.literal(dense<[7, -5, 2]> : tensor<3xsi64>) : !torch.vtensor<[3],si64>
  %c = torch.vtensor.literal(dense<-3> : tensor<si64>) : !torch.vtensor<[],si64>
  %0 = torch.aten.add.Scalar %a, %int1, %int1 : !torch.vtensor<[3],si8>, !torch.int, !torch.int -> !torch.vtensor<[3],si8>
  // Python's remainder takes the divisor's sign: 7 % -3 = -2, -5 % -3 = -2, 2 % -3 = -1
  %1 = torch.aten.remainder.Tensor %b, %c : !torch.vtensor<[3],si64>, !torch.vtensor<[],si64> -> !torch.vtensor<[3],si64>
  // floor division: 7 // -3 = -3, -5 // -3 = 1, 2 // -3 = -1
  %2 = torch.aten.div.Tensor_mode %b, %c, %str : !torch.vtensor<[3],si64>, !torch.vtensor<[],si64>, !torch.str -> !torch.vtensor<[3],si64>
  // trunc division: -2, 1, 0
  %3 = torch.aten.div.Tensor_mode %b, %c, %str_t : !torch.vtensor<[3],si64>, !torch.vtensor<[],si64>, !torch.str -> !torch.vtensor<[3],si64>
  // by zero: left
  %4 = torch.aten.remainder.Scalar %b, %int0 : !torch.vtensor<[3],si64>, !torch.int -> !torch.vtensor<[3],si64>
  return %0, %1, %2, %3, %4 : !torch.vtensor<[3],si8>, !torch.vtensor<[3],si64>, !torch.vtensor<[3],si64>, !torch.vtensor<[3],si64>, !torch.vtensor<[3],si64>
}

// -----

// f32: one IEEE operation on exact operands folds (0.1 + 0.2 rounds once
// to f32); 0.1 as a double is not exact in f32 and alpha * b rounding
// first (or fused) is unknowable, so those stay; so does float division
// by zero.  Float floor division folds as PyTorch's kernel computes it.
// CHECK-LABEL: func.func @float_arith(
// CHECK:         %[[S:.*]] = torch.vtensor.literal(dense<3.000000e+00> : tensor<2xf32>)
// CHECK:         torch.aten.add.Scalar
// CHECK:         torch.aten.add.Tensor
// CHECK:         torch.aten.div.Scalar
// CHECK:         return %[[S]],
func.func @float_arith() -> (!torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>) {
  %int1 = torch.constant.int 1
  %int0 = torch.constant.int 0
  %f01 = torch.constant.float 0.1
  %f3 = torch.constant.float 3.0
  %floor = torch.constant.str "floor"
  %x = torch.vtensor.literal(dense<1.5> : tensor<2xf32>) : !torch.vtensor<[2],f32>
  %y = torch.vtensor.literal(dense<[1.0e-8, 3.0]> : tensor<2xf32>) : !torch.vtensor<[2],f32>
  %0 = torch.aten.mul.Scalar %x, %int1 : !torch.vtensor<[2],f32>, !torch.int -> !torch.vtensor<[2],f32>
  %00 = torch.aten.add.Tensor %0, %x, %int1 : !torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>, !torch.int -> !torch.vtensor<[2],f32>
  %1 = torch.aten.add.Scalar %x, %f01, %int1 : !torch.vtensor<[2],f32>, !torch.float, !torch.int -> !torch.vtensor<[2],f32>
  %2 = torch.aten.add.Tensor %x, %y, %f3 : !torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>, !torch.float -> !torch.vtensor<[2],f32>
  %3 = torch.aten.div.Scalar %x, %int0 : !torch.vtensor<[2],f32>, !torch.int -> !torch.vtensor<[2],f32>
  %4 = torch.aten.div.Tensor_mode %x, %y, %floor : !torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>, !torch.str -> !torch.vtensor<[2],f32>
  return %00, %1, %2, %3, %4 : !torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>
}

// -----

// x == x is all true for ints, but not for floats (NaN); an int scalar
// outside si8's range is not compared; NaN compares unequal.
// CHECK-LABEL: func.func @compare(
// CHECK-DAG:     %[[T:.*]] = torch.vtensor.literal(dense<true> : tensor<3xi1>)
// CHECK-DAG:     %[[N:.*]] = torch.vtensor.literal(dense<[false, true]> : tensor<2xi1>)
// CHECK:         %[[F:.*]] = torch.aten.eq.Tensor %arg1, %arg1
// CHECK:         %[[O:.*]] = torch.aten.lt.Scalar
// CHECK:         return %[[T]], %[[F]], %[[O]], %[[N]]
func.func @compare(%arg0: !torch.vtensor<[3],si64>, %arg1: !torch.vtensor<[3],f32>) -> (!torch.vtensor<[3],i1>, !torch.vtensor<[3],i1>, !torch.vtensor<[3],i1>, !torch.vtensor<[2],i1>) {
  %int200 = torch.constant.int 200
  %f1 = torch.constant.float 1.0
  %s8 = torch.vtensor.literal(dense<[1, 2, 3]> : tensor<3xsi8>) : !torch.vtensor<[3],si8>
  %nan = torch.vtensor.literal(dense<[0x7FC00000, 1.0]> : tensor<2xf32>) : !torch.vtensor<[2],f32>
  %0 = torch.aten.eq.Tensor %arg0, %arg0 : !torch.vtensor<[3],si64>, !torch.vtensor<[3],si64> -> !torch.vtensor<[3],i1>
  %1 = torch.aten.eq.Tensor %arg1, %arg1 : !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32> -> !torch.vtensor<[3],i1>
  %2 = torch.aten.lt.Scalar %s8, %int200 : !torch.vtensor<[3],si8>, !torch.int -> !torch.vtensor<[3],i1>
  %3 = torch.aten.eq.Scalar %nan, %f1 : !torch.vtensor<[2],f32>, !torch.float -> !torch.vtensor<[2],i1>
  return %0, %1, %2, %3 : !torch.vtensor<[3],i1>, !torch.vtensor<[3],i1>, !torch.vtensor<[3],i1>, !torch.vtensor<[2],i1>
}

// -----

// where picks per element; scalar reads of 0-d constants.
// CHECK-LABEL: func.func @where_and_reads(
// CHECK-DAG:     torch.vtensor.literal(dense<[7, 11]> : tensor<2xsi64>)
// CHECK-DAG:     %[[I:.*]] = torch.constant.int -4
// CHECK-DAG:     %[[F:.*]] = torch.constant.float 2.500000e+00
// CHECK-DAG:     %[[K:.*]] = torch.constant.int -2
// CHECK:         %[[N:.*]] = torch.aten.Int.Tensor
// CHECK:         return %{{.*}}, %[[I]], %[[F]], %[[K]], %arg0, %[[N]]
func.func @where_and_reads(%arg0: !torch.int) -> (!torch.vtensor<[2],si64>, !torch.int, !torch.float, !torch.int, !torch.int, !torch.int) {
  %int7 = torch.constant.int 7
  %int11 = torch.constant.int 11
  %cond = torch.vtensor.literal(dense<[true, false]> : tensor<2xi1>) : !torch.vtensor<[2],i1>
  %i = torch.vtensor.literal(dense<-4> : tensor<si64>) : !torch.vtensor<[],si64>
  %f = torch.vtensor.literal(dense<2.5> : tensor<f32>) : !torch.vtensor<[],f32>
  %g = torch.vtensor.literal(dense<-2.75> : tensor<f32>) : !torch.vtensor<[],f32>
  %nan = torch.vtensor.literal(dense<0x7FC00000> : tensor<f32>) : !torch.vtensor<[],f32>
  %0 = torch.aten.where.Scalar %cond, %int7, %int11 : !torch.vtensor<[2],i1>, !torch.int, !torch.int -> !torch.vtensor<[2],si64>
  %1 = torch.aten.Int.Tensor %i : !torch.vtensor<[],si64> -> !torch.int
  %2 = torch.aten.Float.Tensor %f : !torch.vtensor<[],f32> -> !torch.float
  // int(-2.75) truncates toward zero; int(NaN) raises and stays
  %3 = torch.aten.Int.Tensor %g : !torch.vtensor<[],f32> -> !torch.int
  %5 = torch.aten.Int.Tensor %nan : !torch.vtensor<[],f32> -> !torch.int
  %t = torch.prim.NumToTensor.Scalar %arg0 : !torch.int -> !torch.vtensor<[],si64>
  %4 = torch.aten.Int.Tensor %t : !torch.vtensor<[],si64> -> !torch.int
  return %0, %1, %2, %3, %4, %5 : !torch.vtensor<[2],si64>, !torch.int, !torch.float, !torch.int, !torch.int, !torch.int
}

// -----

// True division stays true division (7 / 2 = 3.5, of ints into f32).
// CHECK-LABEL: func.func @true_div(
// CHECK-DAG:     torch.vtensor.literal(dense<[3.500000e+00, -2.500000e-01]> : tensor<2xf32>)
// CHECK-DAG:     torch.vtensor.literal(dense<[3.500000e+00, -2.500000e-01]> : tensor<2xf64>)
func.func @true_div() -> (!torch.vtensor<[2],f32>, !torch.vtensor<[2],f64>) {
  %a = torch.vtensor.literal(dense<[7, -1]> : tensor<2xsi64>) : !torch.vtensor<[2],si64>
  %b = torch.vtensor.literal(dense<[2, 4]> : tensor<2xsi64>) : !torch.vtensor<[2],si64>
  %x = torch.vtensor.literal(dense<[7.0, -1.0]> : tensor<2xf64>) : !torch.vtensor<[2],f64>
  %y = torch.vtensor.literal(dense<[2.0, 4.0]> : tensor<2xf64>) : !torch.vtensor<[2],f64>
  %0 = torch.aten.div.Tensor %a, %b : !torch.vtensor<[2],si64>, !torch.vtensor<[2],si64> -> !torch.vtensor<[2],f32>
  %1 = torch.aten.div.Tensor %x, %y : !torch.vtensor<[2],f64>, !torch.vtensor<[2],f64> -> !torch.vtensor<[2],f64>
  return %0, %1 : !torch.vtensor<[2],f32>, !torch.vtensor<[2],f64>
}

// -----

// item of a one-element full is its value when the dtype holds it; 300
// does not fit si8 (the tensor holds 44) and stays.
// CHECK-LABEL: func.func @full_item(
// CHECK-DAG:     %[[V:.*]] = torch.constant.int 1337
// CHECK:         %[[N:.*]] = torch.aten.item
// CHECK:         return %[[V]], %[[N]]
func.func @full_item() -> (!torch.int, !torch.int) {
  %int1 = torch.constant.int 1
  %int1337 = torch.constant.int 1337
  %int300 = torch.constant.int 300
  %none = torch.constant.none
  %s = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %0 = torch.aten.full %s, %int1337, %none, %none, %none, %none : !torch.list<int>, !torch.int, !torch.none, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[1],si32>
  %1 = torch.aten.item %0 : !torch.vtensor<[1],si32> -> !torch.int
  %2 = torch.aten.full %s, %int300, %none, %none, %none, %none : !torch.list<int>, !torch.int, !torch.none, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[1],si8>
  %3 = torch.aten.item %2 : !torch.vtensor<[1],si8> -> !torch.int
  return %1, %3 : !torch.int, !torch.int
}
