// RUN: torch-opt -p torch-fold-constants,canonicalize %s | FileCheck %s

// t(W) of a literal is the transposed literal; arithmetic on literals is
// evaluated and rounded to the result dtype; an expand that would grow a
// literal is left alone.
// CHECK-LABEL: func.func @fold(
// CHECK-DAG:     %[[WT:.*]] = torch.vtensor.literal(dense<{{\[}}[1.000000e+00, 4.000000e+00], [2.000000e+00, 5.000000e+00], [3.000000e+00, 6.000000e+00]]> : tensor<3x2xf32>) : !torch.vtensor<[3,2],f32>
// CHECK-DAG:     %[[S:.*]] = torch.vtensor.literal(dense<[5.000000e-01, 0.333333343]> : tensor<2xf32>) : !torch.vtensor<[2],f32>
// CHECK:         %[[MM:.*]] = torch.aten.mm %arg0, %[[WT]]
// CHECK:         %[[E:.*]] = torch.aten.expand
// CHECK:         return %[[MM]], %[[S]], %[[E]]
func.func @fold(%x: !torch.vtensor<[4,3],f32>) -> (!torch.vtensor<[4,2],f32>, !torch.vtensor<[2],f32>, !torch.vtensor<[4096,2],f32>) {
  %w = torch.vtensor.literal(dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>) : !torch.vtensor<[2,3],f32>
  %v = torch.vtensor.literal(dense<[3.0, 8.0]> : tensor<2xf32>) : !torch.vtensor<[2],f32>
  %int1 = torch.constant.int 1
  %int-1 = torch.constant.int -1
  %int4096 = torch.constant.int 4096
  %false = torch.constant.bool false
  %float = torch.constant.float 1.000000e+00
  %0 = torch.aten.t %w : !torch.vtensor<[2,3],f32> -> !torch.vtensor<[3,2],f32>
  %1 = torch.aten.mm %x, %0 : !torch.vtensor<[4,3],f32>, !torch.vtensor<[3,2],f32> -> !torch.vtensor<[4,2],f32>
  %2 = torch.aten.add.Scalar %v, %float, %int1 : !torch.vtensor<[2],f32>, !torch.float, !torch.int -> !torch.vtensor<[2],f32>
  %3 = torch.aten.sqrt %2 : !torch.vtensor<[2],f32> -> !torch.vtensor<[2],f32>
  %4 = torch.aten.reciprocal %3 : !torch.vtensor<[2],f32> -> !torch.vtensor<[2],f32>
  %l = torch.prim.ListConstruct %int4096, %int-1 : (!torch.int, !torch.int) -> !torch.list<int>
  %5 = torch.aten.expand %4, %l, %false : !torch.vtensor<[2],f32>, !torch.list<int>, !torch.bool -> !torch.vtensor<[4096,2],f32>
  return %1, %4, %5 : !torch.vtensor<[4,2],f32>, !torch.vtensor<[2],f32>, !torch.vtensor<[4096,2],f32>
}

// A permute moves elements as bytes, whatever their size: here f16 from a
// resource, out[a][b][c] = x[b][c][a].
// CHECK-LABEL: func.func @permute_f16(
// CHECK:         %[[P:.*]] = torch.vtensor.literal(dense<{{\[}}[{{\[}}1.000000e+00, 4.000000e+00], [7.000000e+00, 1.000000e+01]], {{\[}}[2.000000e+00, 5.000000e+00], [8.000000e+00, 1.100000e+01]], {{\[}}[3.000000e+00, 6.000000e+00], [9.000000e+00, 1.200000e+01]]]> : tensor<3x2x2xf16>)
// CHECK:         return %[[P]]
func.func @permute_f16() -> !torch.vtensor<[3,2,2],f16> {
  %x = torch.vtensor.literal(dense_resource<x16> : tensor<2x2x3xf16>) : !torch.vtensor<[2,2,3],f16>
  %int2 = torch.constant.int 2
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %l = torch.prim.ListConstruct %int2, %int0, %int1 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.permute %x, %l : !torch.vtensor<[2,2,3],f16>, !torch.list<int> -> !torch.vtensor<[3,2,2],f16>
  return %0 : !torch.vtensor<[3,2,2],f16>
}

{-#
  dialect_resources: {
    builtin: {
      x16: "0x02000000003C0040004200440045004600470048804800498049004A"
    }
  }
#-}
