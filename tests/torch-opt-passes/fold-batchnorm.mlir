// RUN: torch-opt -p torch-fold-batchnorm,canonicalize %s | FileCheck %s

// W' = W * g / sqrt(var + eps), b' = (b - mean) * g / sqrt(var + eps) + beta
// per output channel: here g = [4, 1] and var + eps = [4, 1] (eps 0) make
// the scale [2, 1]; with mean [1, 0], beta [0.5, 0] and no conv bias,
// b' = [-1.5, 0].
// CHECK-LABEL: func.func @conv(
// CHECK-DAG:     %[[W:.*]] = torch.vtensor.literal(dense<{{\[}}[{{\[}}[2.000000e+00]]], {{\[}}[{{\[}}3.000000e+00]]]]> : tensor<2x1x1x1xf32>)
// CHECK-DAG:     %[[B:.*]] = torch.vtensor.literal(dense<[-1.500000e+00, 0.000000e+00]> : tensor<2xf32>)
// CHECK:         %[[C:.*]] = torch.aten.convolution %arg0, %[[W]], %[[B]],
// CHECK-NOT:     batch_norm
// CHECK:         return %[[C]]
func.func @conv(%x: !torch.vtensor<[1,1,3,3],f32>) -> !torch.vtensor<[1,2,3,3],f32> {
  %w = torch.vtensor.literal(dense<[[[[1.0]]], [[[3.0]]]]> : tensor<2x1x1x1xf32>) : !torch.vtensor<[2,1,1,1],f32>
  %g = torch.vtensor.literal(dense<[4.0, 1.0]> : tensor<2xf32>) : !torch.vtensor<[2],f32>
  %beta = torch.vtensor.literal(dense<[0.5, 0.0]> : tensor<2xf32>) : !torch.vtensor<[2],f32>
  %mean = torch.vtensor.literal(dense<[1.0, 0.0]> : tensor<2xf32>) : !torch.vtensor<[2],f32>
  %var = torch.vtensor.literal(dense<[4.0, 1.0]> : tensor<2xf32>) : !torch.vtensor<[2],f32>
  %none = torch.constant.none
  %int1 = torch.constant.int 1
  %int0 = torch.constant.int 0
  %false = torch.constant.bool false
  %eps = torch.constant.float 0.000000e+00
  %mom = torch.constant.float 1.000000e-01
  %l1 = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %l0 = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.convolution %x, %w, %none, %l1, %l0, %l1, %false, %l0, %int1 : !torch.vtensor<[1,1,3,3],f32>, !torch.vtensor<[2,1,1,1],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int -> !torch.vtensor<[1,2,3,3],f32>
  %1:3 = torch.aten.native_batch_norm %0, %g, %beta, %mean, %var, %false, %mom, %eps : !torch.vtensor<[1,2,3,3],f32>, !torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>, !torch.bool, !torch.float, !torch.float -> !torch.vtensor<[1,2,3,3],f32>, !torch.vtensor<[0],f32>, !torch.vtensor<[0],f32>
  return %1#0 : !torch.vtensor<[1,2,3,3],f32>
}

// Training-mode norms and norms of non-literal statistics stay.
// CHECK-LABEL: func.func @stays(
// CHECK:         torch.aten.native_batch_norm
func.func @stays(%x: !torch.vtensor<[1,2],f32>, %w: !torch.vtensor<[2,2],f32>, %s: !torch.vtensor<[2],f32>) -> !torch.vtensor<[1,2],f32> {
  %none = torch.constant.none
  %false = torch.constant.bool false
  %eps = torch.constant.float 1.000000e-05
  %0 = torch.aten.linear %x, %w, %none : !torch.vtensor<[1,2],f32>, !torch.vtensor<[2,2],f32>, !torch.none -> !torch.vtensor<[1,2],f32>
  %1:3 = torch.aten.native_batch_norm %0, %s, %s, %s, %s, %false, %eps, %eps : !torch.vtensor<[1,2],f32>, !torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>, !torch.bool, !torch.float, !torch.float -> !torch.vtensor<[1,2],f32>, !torch.vtensor<[0],f32>, !torch.vtensor<[0],f32>
  return %1#0 : !torch.vtensor<[1,2],f32>
}

// A weight in a resource held by two literals, and one whose literal has
// a second use, keep their data; new literals take the scaled weights
// (small: dense, and one after cse).
// CHECK-LABEL: func.func @shared(
// CHECK-DAG:     %[[W:.*]] = torch.vtensor.literal(dense_resource<w> : tensor<2x1x1x1xf32>)
// CHECK-DAG:     %[[V:.*]] = torch.vtensor.literal(dense_resource<v> : tensor<2x1x1x1xf32>)
// CHECK-DAG:     %[[S:.*]] = torch.vtensor.literal(dense<{{.*}}2.000000e+00{{.*}}3.000000e+00{{.*}}> : tensor<2x1x1x1xf32>)
// CHECK:         %[[C:.*]] = torch.aten.convolution %arg0, %[[S]],
// CHECK:         return %[[C]], {{.*}}, %[[W]], %[[V]] :
func.func @shared(%x: !torch.vtensor<[1,1,3,3],f32>) -> (!torch.vtensor<[1,2,3,3],f32>, !torch.vtensor<[1,2,3,3],f32>, !torch.vtensor<[1,2,3,3],f32>, !torch.vtensor<[2,1,1,1],f32>, !torch.vtensor<[2,1,1,1],f32>) {
  %w = torch.vtensor.literal(dense_resource<w> : tensor<2x1x1x1xf32>) : !torch.vtensor<[2,1,1,1],f32>
  %w2 = torch.vtensor.literal(dense_resource<w> : tensor<2x1x1x1xf32>) : !torch.vtensor<[2,1,1,1],f32>
  %v = torch.vtensor.literal(dense_resource<v> : tensor<2x1x1x1xf32>) : !torch.vtensor<[2,1,1,1],f32>
  %g = torch.vtensor.literal(dense<[4.0, 1.0]> : tensor<2xf32>) : !torch.vtensor<[2],f32>
  %beta = torch.vtensor.literal(dense<[0.5, 0.0]> : tensor<2xf32>) : !torch.vtensor<[2],f32>
  %mean = torch.vtensor.literal(dense<[1.0, 0.0]> : tensor<2xf32>) : !torch.vtensor<[2],f32>
  %var = torch.vtensor.literal(dense<[4.0, 1.0]> : tensor<2xf32>) : !torch.vtensor<[2],f32>
  %none = torch.constant.none
  %int1 = torch.constant.int 1
  %int0 = torch.constant.int 0
  %false = torch.constant.bool false
  %eps = torch.constant.float 0.000000e+00
  %mom = torch.constant.float 1.000000e-01
  %l1 = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %l0 = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.convolution %x, %w, %none, %l1, %l0, %l1, %false, %l0, %int1 : !torch.vtensor<[1,1,3,3],f32>, !torch.vtensor<[2,1,1,1],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int -> !torch.vtensor<[1,2,3,3],f32>
  %1:3 = torch.aten.native_batch_norm %0, %g, %beta, %mean, %var, %false, %mom, %eps : !torch.vtensor<[1,2,3,3],f32>, !torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>, !torch.bool, !torch.float, !torch.float -> !torch.vtensor<[1,2,3,3],f32>, !torch.vtensor<[0],f32>, !torch.vtensor<[0],f32>
  %2 = torch.aten.convolution %x, %w2, %none, %l1, %l0, %l1, %false, %l0, %int1 : !torch.vtensor<[1,1,3,3],f32>, !torch.vtensor<[2,1,1,1],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int -> !torch.vtensor<[1,2,3,3],f32>
  %3:3 = torch.aten.native_batch_norm %2, %g, %beta, %mean, %var, %false, %mom, %eps : !torch.vtensor<[1,2,3,3],f32>, !torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>, !torch.bool, !torch.float, !torch.float -> !torch.vtensor<[1,2,3,3],f32>, !torch.vtensor<[0],f32>, !torch.vtensor<[0],f32>
  %4 = torch.aten.convolution %x, %v, %none, %l1, %l0, %l1, %false, %l0, %int1 : !torch.vtensor<[1,1,3,3],f32>, !torch.vtensor<[2,1,1,1],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int -> !torch.vtensor<[1,2,3,3],f32>
  %5:3 = torch.aten.native_batch_norm %4, %g, %beta, %mean, %var, %false, %mom, %eps : !torch.vtensor<[1,2,3,3],f32>, !torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>, !torch.bool, !torch.float, !torch.float -> !torch.vtensor<[1,2,3,3],f32>, !torch.vtensor<[0],f32>, !torch.vtensor<[0],f32>
  return %1#0, %3#0, %5#0, %w, %v : !torch.vtensor<[1,2,3,3],f32>, !torch.vtensor<[1,2,3,3],f32>, !torch.vtensor<[1,2,3,3],f32>, !torch.vtensor<[2,1,1,1],f32>, !torch.vtensor<[2,1,1,1],f32>
}

// A dynamic export notes each value's shape (torch.bind_symbolic_shape):
// a note is no use of the layer's result, and the norm's note goes with
// the norm (the layer's says the same).
// CHECK-LABEL: func.func @dynamic(
// CHECK:         %[[C:.*]] = torch.aten.convolution %arg0,
// CHECK-NEXT:    torch.bind_symbolic_shape %[[C]], [%{{.*}}], affine_map<()[s0] -> (s0, 2, 3, 3)>
// CHECK-NOT:     bind_symbolic_shape
// CHECK-NOT:     batch_norm
// CHECK:         return %[[C]]
func.func @dynamic(%x: !torch.vtensor<[?,1,3,3],f32>) -> !torch.vtensor<[?,2,3,3],f32> {
  %s = torch.symbolic_int "batch" {min_val = 1, max_val = 64} : !torch.int
  torch.bind_symbolic_shape %x, [%s], affine_map<()[s0] -> (s0, 1, 3, 3)> : !torch.vtensor<[?,1,3,3],f32>
  %w = torch.vtensor.literal(dense<[[[[1.0]]], [[[3.0]]]]> : tensor<2x1x1x1xf32>) : !torch.vtensor<[2,1,1,1],f32>
  %g = torch.vtensor.literal(dense<[4.0, 1.0]> : tensor<2xf32>) : !torch.vtensor<[2],f32>
  %beta = torch.vtensor.literal(dense<[0.5, 0.0]> : tensor<2xf32>) : !torch.vtensor<[2],f32>
  %mean = torch.vtensor.literal(dense<[1.0, 0.0]> : tensor<2xf32>) : !torch.vtensor<[2],f32>
  %var = torch.vtensor.literal(dense<[4.0, 1.0]> : tensor<2xf32>) : !torch.vtensor<[2],f32>
  %none = torch.constant.none
  %int1 = torch.constant.int 1
  %int0 = torch.constant.int 0
  %false = torch.constant.bool false
  %eps = torch.constant.float 0.000000e+00
  %mom = torch.constant.float 1.000000e-01
  %l1 = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %l0 = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.convolution %x, %w, %none, %l1, %l0, %l1, %false, %l0, %int1 : !torch.vtensor<[?,1,3,3],f32>, !torch.vtensor<[2,1,1,1],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int -> !torch.vtensor<[?,2,3,3],f32>
  torch.bind_symbolic_shape %0, [%s], affine_map<()[s0] -> (s0, 2, 3, 3)> : !torch.vtensor<[?,2,3,3],f32>
  %1:3 = torch.operator "aten._native_batch_norm_legit_no_training"(%0, %g, %beta, %mean, %var, %mom, %eps) : (!torch.vtensor<[?,2,3,3],f32>, !torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>, !torch.float, !torch.float) -> (!torch.vtensor<[?,2,3,3],f32>, !torch.vtensor<[0],f32>, !torch.vtensor<[0],f32>)
  torch.bind_symbolic_shape %1#0, [%s], affine_map<()[s0] -> (s0, 2, 3, 3)> : !torch.vtensor<[?,2,3,3],f32>
  return %1#0 : !torch.vtensor<[?,2,3,3],f32>
}

// The layer is the weight's only user: its literal goes, and a new one at
// the layer, at its location, holds the scaled bytes, computed from u's as
// they are printed (u itself is not printed).  Scaled, the 8 bytes of t
// are a dense literal like any new one of 64 bytes or less.  Read from a
// pipe or a file, the same text comes out (tests/torch-opt/cli.bats).
// CHECK-LABEL: func.func @alone(
// CHECK:         %[[U:.*]] = torch.vtensor.literal(dense_resource<u.bn> : tensor<2x1x3x3xf32>) : !torch.vtensor<[2,1,3,3],f32> loc("layer")
// CHECK:         torch.aten.convolution %arg0, %[[U]], {{.*}} loc("layer")
// CHECK-LABEL: func.func @alone_small(
// CHECK:         %[[T:.*]] = torch.vtensor.literal(dense<{{\[}}[{{\[}}[2.000000e+00]]], {{\[}}[{{\[}}3.000000e+00]]]]> : tensor<2x1x1x1xf32>)
// CHECK:         torch.aten.convolution %arg0, %[[T]],
// CHECK:       dialect_resources
// CHECK-NEXT:    builtin
// CHECK-NEXT:      w: "0x040000000000803F00004040",
// CHECK-NEXT:      v: "0x040000000000803F00004040",
// CHECK-NEXT:      u.bn: "0x40000000000000400000004000000040000000400000004000000040000000400000004000000040000040400000404000004040000040400000404000004040000040400000404000004040"
// CHECK-NEXT:    }
func.func @alone(%x: !torch.vtensor<[1,1,3,3],f32>) -> !torch.vtensor<[1,2,1,1],f32> {
  %u = torch.vtensor.literal(dense_resource<u> : tensor<2x1x3x3xf32>) : !torch.vtensor<[2,1,3,3],f32>
  %g = torch.vtensor.literal(dense<[4.0, 1.0]> : tensor<2xf32>) : !torch.vtensor<[2],f32>
  %beta = torch.vtensor.literal(dense<[0.5, 0.0]> : tensor<2xf32>) : !torch.vtensor<[2],f32>
  %mean = torch.vtensor.literal(dense<[1.0, 0.0]> : tensor<2xf32>) : !torch.vtensor<[2],f32>
  %var = torch.vtensor.literal(dense<[4.0, 1.0]> : tensor<2xf32>) : !torch.vtensor<[2],f32>
  %none = torch.constant.none
  %int1 = torch.constant.int 1
  %int0 = torch.constant.int 0
  %false = torch.constant.bool false
  %eps = torch.constant.float 0.000000e+00
  %mom = torch.constant.float 1.000000e-01
  %l1 = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %l0 = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.convolution %x, %u, %none, %l1, %l0, %l1, %false, %l0, %int1 : !torch.vtensor<[1,1,3,3],f32>, !torch.vtensor<[2,1,3,3],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int -> !torch.vtensor<[1,2,1,1],f32> loc("layer")
  %1:3 = torch.aten.native_batch_norm %0, %g, %beta, %mean, %var, %false, %mom, %eps : !torch.vtensor<[1,2,1,1],f32>, !torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>, !torch.bool, !torch.float, !torch.float -> !torch.vtensor<[1,2,1,1],f32>, !torch.vtensor<[0],f32>, !torch.vtensor<[0],f32>
  return %1#0 : !torch.vtensor<[1,2,1,1],f32>
}

func.func @alone_small(%x: !torch.vtensor<[1,1,3,3],f32>) -> !torch.vtensor<[1,2,3,3],f32> {
  %u = torch.vtensor.literal(dense_resource<t> : tensor<2x1x1x1xf32>) : !torch.vtensor<[2,1,1,1],f32>
  %g = torch.vtensor.literal(dense<[4.0, 1.0]> : tensor<2xf32>) : !torch.vtensor<[2],f32>
  %beta = torch.vtensor.literal(dense<[0.5, 0.0]> : tensor<2xf32>) : !torch.vtensor<[2],f32>
  %mean = torch.vtensor.literal(dense<[1.0, 0.0]> : tensor<2xf32>) : !torch.vtensor<[2],f32>
  %var = torch.vtensor.literal(dense<[4.0, 1.0]> : tensor<2xf32>) : !torch.vtensor<[2],f32>
  %none = torch.constant.none
  %int1 = torch.constant.int 1
  %int0 = torch.constant.int 0
  %false = torch.constant.bool false
  %eps = torch.constant.float 0.000000e+00
  %mom = torch.constant.float 1.000000e-01
  %l1 = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %l0 = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.convolution %x, %u, %none, %l1, %l0, %l1, %false, %l0, %int1 : !torch.vtensor<[1,1,3,3],f32>, !torch.vtensor<[2,1,1,1],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int -> !torch.vtensor<[1,2,3,3],f32>
  %1:3 = torch.aten.native_batch_norm %0, %g, %beta, %mean, %var, %false, %mom, %eps : !torch.vtensor<[1,2,3,3],f32>, !torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>, !torch.bool, !torch.float, !torch.float -> !torch.vtensor<[1,2,3,3],f32>, !torch.vtensor<[0],f32>, !torch.vtensor<[0],f32>
  return %1#0 : !torch.vtensor<[1,2,3,3],f32>
}

{-#
  dialect_resources: {
    builtin: {
      w: "0x040000000000803F00004040",
      v: "0x040000000000803F00004040",
      u: "0x040000000000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F000040400000404000004040000040400000404000004040000040400000404000004040",
      t: "0x040000000000803F00004040"
    }
  }
#-}
