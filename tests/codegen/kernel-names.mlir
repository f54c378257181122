// RUN: codegen --cpu=sapphirerapids --dump-dispatches %s | FileCheck %s
// RUN: codegen --cpu=sapphirerapids %s | FileCheck %s --check-prefix=VM
// Kernel names: dispatch_N, then the root op's word (an FX node's name
// when its location is a NameLoc, as fx-import writes them, else the op's:
// a generic's first body op, its type suffix dropped; contract or copy),
// then the other ops that compute, then @FILE:LINE of the root's file
// location (the base name) when the input wrote one: an op without
// loc(...) (the transpose below) has only its place in the input's text,
// which names no source (a pipe's, an intermediate file's).  FLOPs: 2 per multiply-accumulate, 1 per
// iteration of any other op that computes, 0 for copies; bytes: the
// bindings'.
// CHECK: dispatch_0: gemm micro-kernel
// CHECK-NEXT: name dispatch_0_linear_relu@model.py:12, 12288 bytes, 66560 flops, at /home/u/model.py:12:9
// CHECK: dispatch_1: loop nest
// CHECK-NEXT: name dispatch_1_pack@model.py:12, 8192 bytes, 0 flops, at /home/u/model.py:12:9
// CHECK: dispatch_2: loop nest
// CHECK-NEXT: name dispatch_2_sum, 4224 bytes, 1024 flops
// CHECK: dispatch_3: loop nest
// CHECK-NEXT: name dispatch_3_copy, 8192 bytes, 0 flops{{$}}
// VM: fxvm.kernel @dispatch_0 attributes {bindings = 3 : i64, bytes = 12288 : i64, display_name = "dispatch_0_linear_relu@model.py:12", executable = @{{kernels[_0-9]*}}, flops = 66560 : i64, source = "/home/u/model.py:12:9", symbol = "dispatch_0"}
// VM: fxvm.kernel @dispatch_2 attributes {bindings = 2 : i64, bytes = 4224 : i64, display_name = "dispatch_2_sum", executable = @{{kernels[_0-9]*}}, flops = 1024 : i64, symbol = "dispatch_2"}
#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
#red = affine_map<(d0, d1) -> (d0)>
func.func @main(%x: tensor<32x32xf32>, %w: tensor<32x32xf32>) -> (tensor<32x32xf32>, tensor<32xf32>, tensor<32x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<32x32xf32>, tensor<32x32xf32>) outs(%f : tensor<32x32xf32>) -> tensor<32x32xf32> loc("linear"("/home/u/model.py":12:9))
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<32x32xf32>) outs(%e : tensor<32x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    %z = arith.maxf %in, %zero : f32
    linalg.yield %z : f32
  } -> tensor<32x32xf32> loc("relu")
  %e1 = tensor.empty() : tensor<32xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<32xf32>) -> tensor<32xf32>
  %s = linalg.generic {indexing_maps = [#id, #red], iterator_types = ["parallel", "reduction"]} ins(%r : tensor<32x32xf32>) outs(%f1 : tensor<32xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %out : f32
    linalg.yield %a : f32
  } -> tensor<32xf32> loc("sum"(unknown))
  %c = linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<32x32xf32>) outs(%e : tensor<32x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<32x32xf32>
  return %r, %s, %c : tensor<32x32xf32>, tensor<32xf32>, tensor<32x32xf32>
}
