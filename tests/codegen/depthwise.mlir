// RUN: codegen --cpu=x86-64-v3 --dump-dispatches %s | FileCheck %s
// RUN: codegen --cpu=sapphirerapids --dump-dispatches %s | FileCheck %s
// RUN: codegen --cpu=x86-64-v3 --emit=llvm %s | FileCheck %s --check-prefix=LL
// RUN: codegen --cpu=x86-64-v3 %s | FileCheck %s --check-prefix=HOST
// A depthwise 3x3 convolution with bias and relu (4 channels, 28x28, as
// torch-lower writes it): a batch of one-row GEMMs, one per channel, so a
// loop nest rather than the micro-kernel, whichever the registers.  Its
// rows of 28 are two vectors of 16 lanes, the second masked to 12.  Its padded input is a
// buffer of its own, which the host fills with the pad's zeros before a
// kernel over the unpadded shape copies the input inside: the
// convolution's loads then need no bounds test per element.
// CHECK: dispatch_0: loop nest
// CHECK-NEXT: insert_slice
// CHECK-NEXT: in  0: tensor<1x4x28x28xf32>
// CHECK-NEXT: out 1: tensor<1x4x30x30xf32>
// CHECK-NEXT: output filled with 0.000000e+00 : f32 by the host first
// CHECK: dispatch_1: loop nest
// CHECK: in  2: tensor<1x4x30x30xf32>
// CHECK-NOT: output filled
// CHECK: linalg.depthwise_conv_2d_nchw_chw
// CHECK-NOT: gemm
// CHECK-NOT: dispatch_2
// HOST: %[[PAD:.*]] = fxvm.alloc {{.*}} : tensor<1x4x30x30xf32>
// HOST-NEXT: fxvm.fill %[[PAD]], 0.000000e+00 : tensor<1x4x30x30xf32>
// HOST-NEXT: fxvm.dispatch @dispatch_0[{{.*}}](%arg0, %[[PAD]])
// HOST: fxvm.dispatch @dispatch_1[{{.*}}]({{.*}}%[[PAD]]
// The convolution's accumulators stay in registers: the nine taps of a
// vector of 16 outputs, each a multiply-add (llvm.fmuladd: one FMA where
// the CPU has them), then one store (not a load and store of the output
// per tap, as when S2 accumulated in the output itself); the second
// vector's loads and store masked to the row's last 12 lanes.
// LL-LABEL: @dispatch_1.body(
// LL: @llvm.masked.load.v16f32.p0(ptr %{{.*}}, i32 4, <16 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 false, i1 false, i1 false, i1 false>
// LL: call <16 x float> @llvm.fmuladd.v16f32(
// LL-NOT: store
// LL: call <16 x float> @llvm.fmuladd.v16f32(
// LL-NOT: store
// LL: call <16 x float> @llvm.fmuladd.v16f32(
// LL-NOT: store
// LL: call <16 x float> @llvm.fmuladd.v16f32(
// LL-NOT: store
// LL: call <16 x float> @llvm.fmuladd.v16f32(
// LL-NOT: store
// LL: call <16 x float> @llvm.fmuladd.v16f32(
// LL-NOT: store
// LL: call <16 x float> @llvm.fmuladd.v16f32(
// LL-NOT: store
// LL: call <16 x float> @llvm.fmuladd.v16f32(
// LL-NOT: store
// LL: call <16 x float> @llvm.fmuladd.v16f32(
// LL-NOT: store
// LL: store <16 x float>
// LL: call void @llvm.masked.store.v16f32.p0(<16 x float> %{{.*}}, ptr %{{.*}}, i32 4, <16 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 false, i1 false, i1 false, i1 false>)
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d1)>
module {
  func.func @main(%arg0: tensor<1x4x28x28xf32> loc("arg0_1")) -> tensor<1x4x28x28xf32> {
    %cst = arith.constant dense_resource<c.weight> : tensor<4x1x3x3xf32> loc("_param_constant0")
    %cst_0 = arith.constant dense_resource<c.bias> : tensor<4xf32> loc("_param_constant1")
    %cst_1 = arith.constant 0.000000e+00 : f32 loc("dw.py":5:5)
    %0 = tensor.empty() : tensor<1x4x30x30xf32> loc("dw.py":5:5)
    %1 = linalg.fill ins(%cst_1 : f32) outs(%0 : tensor<1x4x30x30xf32>) -> tensor<1x4x30x30xf32> loc("dw.py":5:5)
    %inserted_slice = tensor.insert_slice %arg0 into %1[0, 0, 1, 1] [1, 4, 28, 28] [1, 1, 1, 1] : tensor<1x4x28x28xf32> into tensor<1x4x30x30xf32> loc("dw.py":5:5)
    %collapsed = tensor.collapse_shape %cst [[0], [1, 2], [3]] : tensor<4x1x3x3xf32> into tensor<4x3x3xf32> loc("dw.py":5:5)
    %2 = tensor.empty() : tensor<1x4x28x28xf32> loc("dw.py":5:5)
    %cst_2 = arith.constant 0.000000e+00 : f32 loc("dw.py":5:5)
    %3 = linalg.fill ins(%cst_2 : f32) outs(%2 : tensor<1x4x28x28xf32>) -> tensor<1x4x28x28xf32> loc("dw.py":5:5)
    %4 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%inserted_slice, %collapsed : tensor<1x4x30x30xf32>, tensor<4x3x3xf32>) outs(%3 : tensor<1x4x28x28xf32>) -> tensor<1x4x28x28xf32> loc("dw.py":5:5)
    %5 = tensor.empty() : tensor<1x4x28x28xf32> loc("dw.py":5:5)
    %6 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%4, %cst_0 : tensor<1x4x28x28xf32>, tensor<4xf32>) outs(%5 : tensor<1x4x28x28xf32>) {
    ^bb0(%in: f32 loc("dw.py":5:5), %in_3: f32 loc("dw.py":5:5), %out: f32 loc("dw.py":5:5)):
      %9 = arith.addf %in, %in_3 : f32 loc("dw.py":5:5)
      linalg.yield %9 : f32 loc("dw.py":5:5)
    } -> tensor<1x4x28x28xf32> loc("dw.py":5:5)
    %7 = tensor.empty() : tensor<1x4x28x28xf32> loc("dw.py":5:5)
    %8 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%6 : tensor<1x4x28x28xf32>) outs(%7 : tensor<1x4x28x28xf32>) {
    ^bb0(%in: f32 loc("dw.py":5:5), %out: f32 loc("dw.py":5:5)):
      %cst_3 = arith.constant 0.000000e+00 : f32 loc("dw.py":5:5)
      %9 = arith.cmpf uno, %cst_3, %cst_3 : f32 loc("dw.py":5:5)
      %10 = arith.select %9, %cst_3, %in : f32 loc("dw.py":5:5)
      %11 = arith.cmpf olt, %in, %cst_3 : f32 loc("dw.py":5:5)
      %12 = arith.select %11, %cst_3, %10 : f32 loc("dw.py":5:5)
      linalg.yield %12 : f32 loc("dw.py":5:5)
    } -> tensor<1x4x28x28xf32> loc("dw.py":5:5)
    return %8 : tensor<1x4x28x28xf32> loc("output")
  }
}

{-#
  dialect_resources: {
    builtin: {
      c.weight: "0x04000000568D23BB281B373E64778CBE56337BBE4E7703BEE60FB73DAB69D8BBDF51873E9654F2BC66A4B43D904FCEBD4B3086BDD00BA3BE180F62BE9BB40CBEAB4E4A3CEBF0063ECBCE4C3E666767BE53A314BECBF4F73D34B88D3E307E8CBD7B6C7F3EAB115CBDB678103DDC889A3E8A529EBEDEE156BED6D3ACBD3E0D05BEC674933ECE3E5DBE80201DBE23786EBEFAD69FBE",
      c.bias: "0x04000000064047BE6AB4923E284F183E566F253E"
    }
  }
#-}
