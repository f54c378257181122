// RUN: codegen --cpu=sapphirerapids --emit=llvm %s | FileCheck %s
// RUN: codegen --cpu=x86-64-v3 --emit=llvm %s | FileCheck %s --check-prefix=AVX2
// A 3x3 max pooling of stride 2 with padding 1 (torchvision's stem, 4
// channels of 32x32): the padding is a range test around each load, one
// masked load per run of lanes.  Where scalar tests at the lanes' ends
// find every lane inside (a window away from the edges: all vectors but
// the first of a row), the branch "inside" loads the run without the
// lanes' mask: its stride-2 halves by masks that are constants, and the
// select of the padding's -inf a mask of all ones.
// CHECK: select i1 [[IN:%[0-9]+]], <16 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <16 x i1>
// CHECK-NEXT: br i1 [[IN]], label %inside{{.*}}, label %lanes
// CHECK: {{^}}inside{{[0-9.]*}}:
// CHECK-NOT: {{^}}lanes
// CHECK: @llvm.masked.load.v16f32.p0(ptr %{{.*}}, i32 4, <16 x i1> <i1 false, i1 true,
// CHECK: {{^}}joined{{[0-9.]*}}:
// CHECK-NEXT: phi <16 x float>
// AVX2: {{^}}inside{{[0-9.]*}}:
module {
  func.func @main(%arg0: tensor<1x4x32x32xf32> loc("arg0_1")) -> tensor<1x4x16x16xf32> {
    %cst = arith.constant 0xFF800000 : f32 loc("pool.py":3:5)
    %0 = tensor.empty() : tensor<1x4x34x34xf32> loc("pool.py":3:5)
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<1x4x34x34xf32>) -> tensor<1x4x34x34xf32> loc("pool.py":3:5)
    %inserted_slice = tensor.insert_slice %arg0 into %1[0, 0, 1, 1] [1, 4, 32, 32] [1, 1, 1, 1] : tensor<1x4x32x32xf32> into tensor<1x4x34x34xf32> loc("pool.py":3:5)
    %2 = tensor.empty() : tensor<3x3xf32> loc("pool.py":3:5)
    %cst_0 = arith.constant 0xFF800000 : f32 loc("pool.py":3:5)
    %3 = tensor.empty() : tensor<1x4x16x16xf32> loc("pool.py":3:5)
    %4 = linalg.fill ins(%cst_0 : f32) outs(%3 : tensor<1x4x16x16xf32>) -> tensor<1x4x16x16xf32> loc("pool.py":3:5)
    %5 = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%inserted_slice, %2 : tensor<1x4x34x34xf32>, tensor<3x3xf32>) outs(%4 : tensor<1x4x16x16xf32>) -> tensor<1x4x16x16xf32> loc("pool.py":3:5)
    return %5 : tensor<1x4x16x16xf32> loc("output")
  }
}
