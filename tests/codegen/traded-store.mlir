// RUN: codegen --cpu=sapphirerapids --dump-dispatches %s | FileCheck %s
// RUN: codegen --cpu=sapphirerapids --emit=llvm %s | FileCheck %s --check-prefix=LL
// RUN: codegen --cpu=sapphirerapids --emit=llvm %s | FileCheck %s --check-prefix=MK
// RUN: codegen --cpu=haswell --emit=llvm %s | FileCheck %s --check-prefix=AVX2
// GEMMs whose operands traded places (few pixels, many channels: the
// tile's rows are output pixels, its columns channels) store their tile a
// column at a time: the tile transposed in vectors (rounds of two-vector
// shuffles, the rows past the tile's zeros), each column one vector along
// the pixels, masked to the tile's rows, through the epilogue, one
// (masked) vector store -- not an extract and a scalar store per element,
// nor a gather per column.  A 14x14 map in tiles of 14 rows; a 7x7 map in
// tiles of 10 and a last tile of 9 (its own copy of the loop).  On AVX2
// (tiles of 6 rows) the 14x14 one keeps its channels as rows; the 7x7 one
// trades and stores 8 lanes.  A, the input, is read where it lies: a
// step's tile rows are one run of its channel's pixels (the micro-kernel
// named for its k stride, the map's 196 and 49 pixels), no pack kernel;
// each step prefetches the lines of its first and last row 32 steps
// ahead (32 x 196 = 6272 elements on; the 14th row 13 past that).
// CHECK: gemm: batch 1, M 196, N 96, K 576, tile 14x32, A read in place
// CHECK-NOT: pack A
// CHECK: gemm: batch 1, M 49, N 512, K 256, tile 10x32, A read in place
// MK-LABEL: define internal void @gemm.mk14x32.k576.lda1.ks196(
// MK: [[A:%[0-9]+]] = getelementptr inbounds float, ptr %0,
// MK: [[P0:%[0-9]+]] = getelementptr float, ptr [[A]], i64 6272
// MK-NEXT: call void @llvm.prefetch.p0(ptr [[P0]], i32 0, i32 2, i32 1)
// MK-NEXT: [[P1:%[0-9]+]] = getelementptr float, ptr [[A]], i64 6285
// MK-NEXT: call void @llvm.prefetch.p0(ptr [[P1]], i32 0, i32 2, i32 1)
// MK-DAG: define internal void @gemm.mk10x32.k256.lda1.ks49(
// MK-DAG: define internal void @gemm.mk9x32.k256.lda1.ks49(
// LL-LABEL: define internal void @dispatch_0.body(
// LL-NOT: llvm.masked.gather
// LL: shufflevector <16 x float> %{{.*}}, <16 x float> <float 0.000000e+00, {{.*}}>, <16 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7, i32 16,
// LL: %column = load <16 x float>
// LL: call void @llvm.masked.store.v16f32.p0(<16 x float> %column, {{.*}}<16 x i1> <{{(i1 true, ){14}i1 false}}, i1 false>
// LL-LABEL: define internal void @dispatch_2.body(
// LL: shufflevector <16 x float> %{{.*}}, <16 x float> <float 0.000000e+00, {{.*}}>, <16 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7, i32 16,
// LL: @llvm.masked.store.v16f32.p0({{.*}}<16 x i1> <{{(i1 true, ){10}i1 false}}
// LL: @llvm.masked.store.v16f32.p0({{.*}}<16 x i1> <{{(i1 true, ){9}i1 false}}
// AVX2: %column = load <8 x float>
// AVX2: call void @llvm.masked.store.v8f32.p0(<8 x float> %column, {{.*}}<8 x i1> <{{(i1 true, ){6}i1 false}}, i1 false>
module {
  func.func @main(%y: tensor<1x576x14x14xf32>, %w: tensor<96x576x1x1xf32>, %z: tensor<1x256x7x7xf32>, %v: tensor<512x256x1x1xf32>) -> (tensor<1x96x14x14xf32>, tensor<1x512x7x7xf32>) {
    %zero = arith.constant 0.000000e+00 : f32
    %6 = tensor.empty() : tensor<1x96x14x14xf32>
    %7 = linalg.fill ins(%zero : f32) outs(%6 : tensor<1x96x14x14xf32>) -> tensor<1x96x14x14xf32>
    %8 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%y, %w : tensor<1x576x14x14xf32>, tensor<96x576x1x1xf32>) outs(%7 : tensor<1x96x14x14xf32>) -> tensor<1x96x14x14xf32>
    %9 = tensor.empty() : tensor<1x512x7x7xf32>
    %10 = linalg.fill ins(%zero : f32) outs(%9 : tensor<1x512x7x7xf32>) -> tensor<1x512x7x7xf32>
    %11 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%z, %v : tensor<1x256x7x7xf32>, tensor<512x256x1x1xf32>) outs(%10 : tensor<1x512x7x7xf32>) -> tensor<1x512x7x7xf32>
    return %8, %11 : tensor<1x96x14x14xf32>, tensor<1x512x7x7xf32>
  }
}
