// complex64 and complex128 tensors (tests/fx-import/models.py:complex_ops):
// fx-import gives each as its real and imaginary parts on a trailing
// dimension of 2 (f32 for complex64, f64 for complex128) and lists them in
// fxpipe.complex_args / fxpipe.complex_results; the ops on them become
// real ops.  z * w (complex64 * complex128) in f64, rfft of 4 reals as two
// [4, 3] DFT matmuls (cos and -sin, exact at the quarter turns), z.real a
// select of the pairs, z.transpose(-1, -2) with its dims made non-negative
// against the complex rank.
// RUN: fx-import --strip-debuginfo %S/inputs/complex-aten.json | FileCheck %s
// RUN: fx-import %S/inputs/complex-aten.json | torch-opt | torch-lower | codegen --target=cpu | vmpack -o %t.vmfb && vmpack --dump %t.vmfb | FileCheck %s --check-prefix=VMFB

// CHECK:      func.func @main(%arg0: !torch.vtensor<[2,3,2],f32>, %arg1: !torch.vtensor<[3,2],f64>, %arg2: !torch.vtensor<[4],f32>)
// CHECK-SAME: -> (!torch.vtensor<[2,3,2],f64>, !torch.vtensor<[3,2],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[3,2,2],f32>)
// CHECK-SAME: attributes {fxpipe.complex_args = array<i64: 0, 1>, fxpipe.complex_results = array<i64: 0, 1, 3>}
// CHECK:      %[[Z:.*]] = torch.aten.to.dtype %arg0, %int7
// CHECK:      %[[ZR:.*]] = torch.aten.select.int %[[Z]], %int2, %int0
// CHECK:      %[[ZI:.*]] = torch.aten.select.int %[[Z]], %{{.*}}, %int1
// CHECK:      %[[WR:.*]] = torch.aten.select.int %arg1, %{{.*}}, %{{.*}} : !torch.vtensor<[3,2],f64>, !torch.int, !torch.int -> !torch.vtensor<[3],f64>
// CHECK:      %[[WI:.*]] = torch.aten.select.int %arg1
// CHECK:      %[[A:.*]] = torch.aten.mul.Tensor %[[ZR]], %[[WR]]
// CHECK:      %[[B:.*]] = torch.aten.mul.Tensor %[[ZI]], %[[WI]]
// CHECK:      %[[RE:.*]] = torch.aten.sub.Tensor %[[A]], %[[B]]
// CHECK:      %[[C:.*]] = torch.aten.mul.Tensor %[[ZR]], %[[WI]]
// CHECK:      %[[D:.*]] = torch.aten.mul.Tensor %[[ZI]], %[[WR]]
// CHECK:      %[[IM:.*]] = torch.aten.add.Tensor %[[C]], %[[D]]
// CHECK:      %[[L:.*]] = torch.prim.ListConstruct %[[RE]], %[[IM]]
// CHECK:      %[[P:.*]] = torch.aten.stack %[[L]], %int2{{.*}} -> !torch.vtensor<[2,3,2],f64>
// CHECK:      %[[COS:.*]] = torch.vtensor.literal(dense<{{\[}}[1.000000e+00, 1.000000e+00, 1.000000e+00], [1.000000e+00, 0.000000e+00, -1.000000e+00], [1.000000e+00, -1.000000e+00, 1.000000e+00], [1.000000e+00, 0.000000e+00, -1.000000e+00]]> : tensor<4x3xf32>)
// CHECK:      %[[SIN:.*]] = torch.vtensor.literal(dense<{{\[}}[0.000000e+00, 0.000000e+00, 0.000000e+00], [0.000000e+00, -1.000000e+00, 0.000000e+00], [0.000000e+00, 0.000000e+00, 0.000000e+00], [0.000000e+00, 1.000000e+00, 0.000000e+00]]> : tensor<4x3xf32>)
// CHECK:      %[[FR:.*]] = torch.aten.matmul %arg2, %[[COS]]
// CHECK:      %[[FI:.*]] = torch.aten.matmul %arg2, %[[SIN]]
// CHECK:      %[[FL:.*]] = torch.prim.ListConstruct %[[FR]], %[[FI]]
// CHECK:      %[[F:.*]] = torch.aten.stack %[[FL]], %{{.*}} -> !torch.vtensor<[3,2],f32>
// CHECK:      %[[REAL:.*]] = torch.aten.select.int %arg0, %{{.*}}, %{{.*}} -> !torch.vtensor<[2,3],f32>
// CHECK:      %[[T:.*]] = torch.aten.transpose.int %arg0, %int1{{.*}}, %int0{{.*}} -> !torch.vtensor<[3,2,2],f32>
// CHECK:      return %[[P]], %[[F]], %[[REAL]], %[[T]]

// The module's signature: complex arguments and results as c64 / c128 of
// the complex shape; the real result as it is.
// VMFB: @main(tensor<2x3xc64>, tensor<3xc128>, tensor<4xf32>) -> (tensor<2x3xc128>, tensor<3xc64>, tensor<2x3xf32>, tensor<3x2xc64>)
