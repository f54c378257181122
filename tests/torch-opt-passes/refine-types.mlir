// RUN: torch-opt -p torch-refine-types --split-input-file %s | FileCheck %s
// RUN: not torch-opt -p torch-refine-types %S/inputs/refine-conflict.mlir 2>&1 | FileCheck %S/inputs/refine-conflict.mlir --check-prefix=CONFLICT

// Broadcasting and PyTorch's type promotion: int tensor + float tensor is
// float, a 0-dim float beats a dimensioned int (category), a 0-dim f64
// loses to a dimensioned f32 (same category), a Python float turns an int
// tensor into the default dtype, an int scalar leaves f16 alone, bool +
// bool stays bool, comparisons are bool, true division is floating.
// CHECK-LABEL: func.func @promotion(
// CHECK:         torch.aten.add.Tensor {{.*}} -> !torch.vtensor<[4,3],f32>
// CHECK:         torch.aten.mul.Tensor {{.*}} -> !torch.vtensor<[3],f64>
// CHECK:         torch.aten.mul.Tensor {{.*}} -> !torch.vtensor<[4,3],f32>
// CHECK:         torch.aten.add.Scalar {{.*}} -> !torch.vtensor<[3],f32>
// CHECK:         torch.aten.add.Scalar {{.*}} -> !torch.vtensor<[2],f16>
// CHECK:         torch.aten.add.Tensor {{.*}} -> !torch.vtensor<[2],i1>
// CHECK:         torch.aten.lt.Tensor {{.*}} -> !torch.vtensor<[4,3],i1>
// CHECK:         torch.aten.div.Tensor {{.*}} -> !torch.vtensor<[3],f32>
// CHECK:         torch.aten.add.Tensor {{.*}} -> !torch.vtensor<[3],si64>
// CHECK:         torch.aten.add.Tensor {{.*}} -> !torch.vtensor<[2],si16>
// CHECK:         torch.aten.where.self {{.*}} -> !torch.vtensor<[4,3],f32>
func.func @promotion(%f: !torch.vtensor<[4,3],f32>, %i: !torch.vtensor<[3],si64>, %d0: !torch.vtensor<[],f64>, %h: !torch.vtensor<[2],f16>, %b: !torch.vtensor<[2],i1>, %i32: !torch.vtensor<[],si32>, %u8: !torch.vtensor<[2],ui8>, %i8: !torch.vtensor<[2],si8>) -> () {
  %int1 = torch.constant.int 1
  %float = torch.constant.float 2.500000e+00
  %0 = torch.aten.add.Tensor %f, %i, %int1 : !torch.vtensor<[4,3],f32>, !torch.vtensor<[3],si64>, !torch.int -> !torch.vtensor
  %1 = torch.aten.mul.Tensor %i, %d0 : !torch.vtensor<[3],si64>, !torch.vtensor<[],f64> -> !torch.vtensor
  %2 = torch.aten.mul.Tensor %f, %d0 : !torch.vtensor<[4,3],f32>, !torch.vtensor<[],f64> -> !torch.vtensor
  %3 = torch.aten.add.Scalar %i, %float, %int1 : !torch.vtensor<[3],si64>, !torch.float, !torch.int -> !torch.vtensor
  %4 = torch.aten.add.Scalar %h, %int1, %int1 : !torch.vtensor<[2],f16>, !torch.int, !torch.int -> !torch.vtensor
  %5 = torch.aten.add.Tensor %b, %b, %int1 : !torch.vtensor<[2],i1>, !torch.vtensor<[2],i1>, !torch.int -> !torch.vtensor
  %6 = torch.aten.lt.Tensor %f, %i : !torch.vtensor<[4,3],f32>, !torch.vtensor<[3],si64> -> !torch.vtensor
  %7 = torch.aten.div.Tensor %i, %i : !torch.vtensor<[3],si64>, !torch.vtensor<[3],si64> -> !torch.vtensor
  %8 = torch.aten.add.Tensor %i, %i32, %int1 : !torch.vtensor<[3],si64>, !torch.vtensor<[],si32>, !torch.int -> !torch.vtensor
  %9 = torch.aten.add.Tensor %u8, %i8, %int1 : !torch.vtensor<[2],ui8>, !torch.vtensor<[2],si8>, !torch.int -> !torch.vtensor
  %10 = torch.aten.where.self %6, %f, %i : !torch.vtensor, !torch.vtensor<[4,3],f32>, !torch.vtensor<[3],si64> -> !torch.vtensor
  return
}

// -----

// Reductions: keepdim, negative dims, dim=None, sums of ints are int64,
// explicit dtypes, max.dim's indices.
// CHECK-LABEL: func.func @reductions(
// CHECK:         torch.aten.sum.dim_IntList {{.*}} -> !torch.vtensor<[2,1,4],f32>
// CHECK:         torch.aten.mean.dim {{.*}} -> !torch.vtensor<[3],f32>
// CHECK:         torch.aten.sum.dim_IntList {{.*}} -> !torch.vtensor<[],f32>
// CHECK:         torch.aten.sum {{.*}} -> !torch.vtensor<[],si64>
// CHECK:         torch.aten.amax {{.*}} -> !torch.vtensor<[2,3,1],f32>
// CHECK:         torch.aten.max.dim {{.*}} -> !torch.vtensor<[2,4],f32>, !torch.vtensor<[2,4],si64>
// CHECK:         torch.aten.var.correction {{.*}} -> !torch.vtensor<[2,1,1],f32>
// CHECK:         torch.aten.argmax {{.*}} -> !torch.vtensor<[],si64>
// CHECK:         torch.aten.mean.dim {{.*}} -> !torch.vtensor<[2,3],f64>
func.func @reductions(%x: !torch.vtensor<[2,3,4],f32>, %i: !torch.vtensor<[5],i1>) -> () {
  %int1 = torch.constant.int 1
  %int-1 = torch.constant.int -1
  %int0 = torch.constant.int 0
  %int7 = torch.constant.int 7
  %true = torch.constant.bool true
  %false = torch.constant.bool false
  %none = torch.constant.none
  %l1 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %l02 = torch.prim.ListConstruct %int0, %int-1 : (!torch.int, !torch.int) -> !torch.list<int>
  %lm1 = torch.prim.ListConstruct %int-1 : (!torch.int) -> !torch.list<int>
  %l12 = torch.prim.ListConstruct %int1, %int-1 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.sum.dim_IntList %x, %l1, %true, %none : !torch.vtensor<[2,3,4],f32>, !torch.list<int>, !torch.bool, !torch.none -> !torch.vtensor
  %1 = torch.aten.mean.dim %x, %l02, %false, %none : !torch.vtensor<[2,3,4],f32>, !torch.list<int>, !torch.bool, !torch.none -> !torch.vtensor
  %2 = torch.aten.sum.dim_IntList %x, %none, %false, %none : !torch.vtensor<[2,3,4],f32>, !torch.none, !torch.bool, !torch.none -> !torch.vtensor
  %3 = torch.aten.sum %i, %none : !torch.vtensor<[5],i1>, !torch.none -> !torch.vtensor
  %4 = torch.aten.amax %x, %lm1, %true : !torch.vtensor<[2,3,4],f32>, !torch.list<int>, !torch.bool -> !torch.vtensor
  %5:2 = torch.aten.max.dim %x, %int1, %false : !torch.vtensor<[2,3,4],f32>, !torch.int, !torch.bool -> !torch.vtensor, !torch.vtensor
  %6 = torch.aten.var.correction %x, %l12, %int1, %true : !torch.vtensor<[2,3,4],f32>, !torch.list<int>, !torch.int, !torch.bool -> !torch.vtensor
  %7 = torch.aten.argmax %x, %none, %false : !torch.vtensor<[2,3,4],f32>, !torch.none, !torch.bool -> !torch.vtensor
  %8 = torch.aten.mean.dim %x, %lm1, %false, %int7 : !torch.vtensor<[2,3,4],f32>, !torch.list<int>, !torch.bool, !torch.int -> !torch.vtensor
  return
}

// -----

// Views: -1 in a view size, flatten, unsqueeze at the end, squeeze,
// transpose with negative dims, permute, expand with -1, slices that
// clamp, select, cat, and the pieces of a split.
// CHECK-LABEL: func.func @views(
// CHECK:         torch.aten.view {{.*}} -> !torch.vtensor<[6,4],f32>
// CHECK:         torch.aten.flatten.using_ints {{.*}} -> !torch.vtensor<[2,12],f32>
// CHECK:         torch.aten.unsqueeze {{.*}} -> !torch.vtensor<[2,3,4,1],f32>
// CHECK:         torch.aten.squeeze {{.*}} -> !torch.vtensor<[3],f32>
// CHECK:         torch.aten.transpose.int {{.*}} -> !torch.vtensor<[2,4,3],f32>
// CHECK:         torch.aten.permute {{.*}} -> !torch.vtensor<[4,2,3],f32>
// CHECK:         torch.aten.expand {{.*}} -> !torch.vtensor<[5,3,1],f32>
// CHECK:         torch.aten.slice.Tensor {{.*}} -> !torch.vtensor<[2,3,3],f32>
// CHECK:         torch.aten.slice.Tensor {{.*}} -> !torch.vtensor<[2,3,2],f32>
// CHECK:         torch.aten.select.int {{.*}} -> !torch.vtensor<[2,4],f32>
// CHECK:         torch.aten.cat {{.*}} -> !torch.vtensor<[2,6,4],f32>
// CHECK:         torch.prim.ListUnpack {{.*}} -> !torch.vtensor<[2,3,3],f32>, !torch.vtensor<[2,3,1],f32>
func.func @views(%x: !torch.vtensor<[2,3,4],f32>, %s: !torch.vtensor<[1,3,1],f32>) -> () {
  %int-1 = torch.constant.int -1
  %int-2 = torch.constant.int -2
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int3 = torch.constant.int 3
  %int4 = torch.constant.int 4
  %int5 = torch.constant.int 5
  %int100 = torch.constant.int 100
  %false = torch.constant.bool false
  %none = torch.constant.none
  %vs = torch.prim.ListConstruct %int-1, %int4 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.view %x, %vs : !torch.vtensor<[2,3,4],f32>, !torch.list<int> -> !torch.vtensor
  %1 = torch.aten.flatten.using_ints %x, %int1, %int-1 : !torch.vtensor<[2,3,4],f32>, !torch.int, !torch.int -> !torch.vtensor
  %2 = torch.aten.unsqueeze %x, %int-1 : !torch.vtensor<[2,3,4],f32>, !torch.int -> !torch.vtensor
  %3 = torch.aten.squeeze %s : !torch.vtensor<[1,3,1],f32> -> !torch.vtensor
  %4 = torch.aten.transpose.int %x, %int-1, %int-2 : !torch.vtensor<[2,3,4],f32>, !torch.int, !torch.int -> !torch.vtensor
  %pl = torch.prim.ListConstruct %int2, %int0, %int1 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %5 = torch.aten.permute %x, %pl : !torch.vtensor<[2,3,4],f32>, !torch.list<int> -> !torch.vtensor
  %el = torch.prim.ListConstruct %int5, %int-1, %int-1 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %6 = torch.aten.expand %s, %el, %false : !torch.vtensor<[1,3,1],f32>, !torch.list<int>, !torch.bool -> !torch.vtensor
  %7 = torch.aten.slice.Tensor %x, %int2, %int1, %int100, %int1 : !torch.vtensor<[2,3,4],f32>, !torch.int, !torch.int, !torch.int, !torch.int -> !torch.vtensor
  %8 = torch.aten.slice.Tensor %x, %int-1, %none, %none, %int2 : !torch.vtensor<[2,3,4],f32>, !torch.int, !torch.none, !torch.none, !torch.int -> !torch.vtensor
  %9 = torch.aten.select.int %x, %int1, %int0 : !torch.vtensor<[2,3,4],f32>, !torch.int, !torch.int -> !torch.vtensor
  %cl = torch.prim.ListConstruct %x, %x : (!torch.vtensor<[2,3,4],f32>, !torch.vtensor<[2,3,4],f32>) -> !torch.list<vtensor>
  %10 = torch.aten.cat %cl, %int1 : !torch.list<vtensor>, !torch.int -> !torch.vtensor
  %11 = torch.aten.split.Tensor %x, %int3, %int-1 : !torch.vtensor<[2,3,4],f32>, !torch.int, !torch.int -> !torch.list<vtensor>
  %12:2 = torch.prim.ListUnpack %11 : !torch.list<vtensor> -> !torch.vtensor, !torch.vtensor
  return
}

// -----

// Contractions of every rank pair, convolution and pooling output sizes
// (stride, padding, dilation, ceil_mode), creation ops' default dtypes.
// CHECK-LABEL: func.func @nn(
// CHECK:         torch.aten.matmul {{.*}} -> !torch.vtensor<[],f32>
// CHECK:         torch.aten.matmul {{.*}} -> !torch.vtensor<[5],f32>
// CHECK:         torch.aten.matmul {{.*}} -> !torch.vtensor<[7,2,3,5],f32>
// CHECK:         torch.aten.matmul {{.*}} -> !torch.vtensor<[2,3],f32>
// CHECK:         torch.aten.linear {{.*}} -> !torch.vtensor<[7,2,3,6],f32>
// CHECK:         torch.aten.convolution {{.*}} -> !torch.vtensor<[1,8,5,3],f32>
// CHECK:         torch.aten.max_pool2d {{.*}} -> !torch.vtensor<[1,3,5,3],f32>
// CHECK:         torch.aten.avg_pool2d {{.*}} -> !torch.vtensor<[1,3,5,4],f32>
// CHECK:         torch.aten.adaptive_avg_pool2d {{.*}} -> !torch.vtensor<[1,3,1,1],f32>
// CHECK:         torch.aten.zeros {{.*}} -> !torch.vtensor<[2,3],f32>
// CHECK:         torch.aten.full {{.*}} -> !torch.vtensor<[2,3],si64>
// CHECK:         torch.aten.arange.start_step {{.*}} -> !torch.vtensor<[4],si64>
// CHECK:         torch.aten.native_layer_norm {{.*}} -> !torch.vtensor<[7,2,3,4],f32>, !torch.vtensor<[7,2,1,1],f32>, !torch.vtensor<[7,2,1,1],f32>
func.func @nn(%v: !torch.vtensor<[4],f32>, %m: !torch.vtensor<[4,5],f32>, %b: !torch.vtensor<[7,1,3,4],f32>, %bb: !torch.vtensor<[2,4,5],f32>, %w: !torch.vtensor<[6,4],f32>, %img: !torch.vtensor<[1,3,10,7],f32>, %k: !torch.vtensor<[8,3,3,3],f32>, %x: !torch.vtensor<[2,3,4],f32>, %x4: !torch.vtensor<[7,2,3,4],f32>) -> () {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int3 = torch.constant.int 3
  %int4 = torch.constant.int 4
  %int9 = torch.constant.int 9
  %true = torch.constant.bool true
  %false = torch.constant.bool false
  %none = torch.constant.none
  %0 = torch.aten.matmul %v, %v : !torch.vtensor<[4],f32>, !torch.vtensor<[4],f32> -> !torch.vtensor
  %1 = torch.aten.matmul %v, %m : !torch.vtensor<[4],f32>, !torch.vtensor<[4,5],f32> -> !torch.vtensor
  %2 = torch.aten.matmul %b, %bb : !torch.vtensor<[7,1,3,4],f32>, !torch.vtensor<[2,4,5],f32> -> !torch.vtensor
  %3 = torch.aten.matmul %x, %v : !torch.vtensor<[2,3,4],f32>, !torch.vtensor<[4],f32> -> !torch.vtensor
  %4 = torch.aten.linear %x4, %w, %none : !torch.vtensor<[7,2,3,4],f32>, !torch.vtensor<[6,4],f32>, !torch.none -> !torch.vtensor
  %s = torch.prim.ListConstruct %int2, %int3 : (!torch.int, !torch.int) -> !torch.list<int>
  %p = torch.prim.ListConstruct %int1, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %d = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %op = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %5 = torch.aten.convolution %img, %k, %none, %s, %p, %d, %false, %op, %int1 : !torch.vtensor<[1,3,10,7],f32>, !torch.vtensor<[8,3,3,3],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int -> !torch.vtensor
  %k3 = torch.prim.ListConstruct %int3, %int3 : (!torch.int, !torch.int) -> !torch.list<int>
  %s2 = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %p1 = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %p0 = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %6 = torch.aten.max_pool2d %img, %k3, %s2, %p0, %d, %true : !torch.vtensor<[1,3,10,7],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool -> !torch.vtensor
  %7 = torch.aten.avg_pool2d %img, %k3, %s2, %p1, %false, %true, %none : !torch.vtensor<[1,3,10,7],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor
  %one = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %8 = torch.aten.adaptive_avg_pool2d %img, %one : !torch.vtensor<[1,3,10,7],f32>, !torch.list<int> -> !torch.vtensor
  %sz = torch.prim.ListConstruct %int2, %int3 : (!torch.int, !torch.int) -> !torch.list<int>
  %9 = torch.aten.zeros %sz, %none, %none, %none, %none : !torch.list<int>, !torch.none, !torch.none, !torch.none, !torch.none -> !torch.vtensor
  %10 = torch.aten.full %sz, %int1, %none, %none, %none, %none : !torch.list<int>, !torch.int, !torch.none, !torch.none, !torch.none, !torch.none -> !torch.vtensor
  %11 = torch.aten.arange.start_step %int1, %int9, %int2, %none, %none, %none, %none : !torch.int, !torch.int, !torch.int, !torch.none, !torch.none, !torch.none, !torch.none -> !torch.vtensor
  %ns = torch.prim.ListConstruct %int3, %int4 : (!torch.int, !torch.int) -> !torch.list<int>
  %float = torch.constant.float 1.000000e-05
  %12:3 = torch.aten.native_layer_norm %x4, %ns, %none, %none, %float : !torch.vtensor<[7,2,3,4],f32>, !torch.list<int>, !torch.none, !torch.none, !torch.float -> !torch.vtensor, !torch.vtensor, !torch.vtensor
  return
}

// -----

// Results that are returned refine the function's signature too; dynamic
// sizes stay dynamic, known ones become known.
// CHECK-LABEL: func.func @signature(
// CHECK-SAME:      -> !torch.vtensor<[?,3],f32>
// CHECK:         torch.aten.relu {{.*}} -> !torch.vtensor<[?,3],f32>
func.func @signature(%x: !torch.vtensor<[?,3],f32>) -> !torch.vtensor {
  %0 = torch.aten.relu %x : !torch.vtensor<[?,3],f32> -> !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// A normalization of a bf16 or f16 input with f32 parameters (autocast's
// batch norm after a bf16 convolution) keeps its saved statistics in f32,
// as PyTorch's mixed-type kernels do (1.13 and 2); with parameters of the
// input's type, or none, they are of the input's type.  PyTorch 2's meta
// functions (torch.export's types) say bf16 for the mixed form: a result
// that states its dtype keeps it.
// CHECK-LABEL: func.func @mixed_norm_stats(
// CHECK:         torch.aten.native_batch_norm {{.*}} -> !torch.vtensor<[2,3,4,4],bf16>, !torch.vtensor<[0],f32>, !torch.vtensor<[0],f32>
// CHECK:         torch.aten.native_batch_norm {{.*}} -> !torch.vtensor<[2,3,4,4],bf16>, !torch.vtensor<[0],f32>, !torch.vtensor<[0],f32>
// CHECK:         torch.aten.native_batch_norm {{.*}} -> !torch.vtensor<[2,3,4,4],bf16>, !torch.vtensor<[3],bf16>, !torch.vtensor<[3],bf16>
// CHECK:         torch.aten.native_layer_norm {{.*}} -> !torch.vtensor<[2,5],f16>, !torch.vtensor<[2,1],f32>, !torch.vtensor<[2,1],f32>
// CHECK:         torch.aten.native_layer_norm {{.*}} -> !torch.vtensor<[2,5],f16>, !torch.vtensor<[2,1],f16>, !torch.vtensor<[2,1],f16>
// CHECK:         torch.aten.native_group_norm {{.*}} -> !torch.vtensor<[2,3,4,4],bf16>, !torch.vtensor<[2,1],f32>, !torch.vtensor<[2,1],f32>
// CHECK:         torch.aten.native_batch_norm {{.*}} -> !torch.vtensor<[2,3,4,4],bf16>, !torch.vtensor<[0],bf16>, !torch.vtensor<[0],bf16>
func.func @mixed_norm_stats(%x: !torch.vtensor<[2,3,4,4],bf16>, %w: !torch.vtensor<[3],f32>, %wb: !torch.vtensor<[3],bf16>, %h: !torch.vtensor<[2,5],f16>, %w5: !torch.vtensor<[5],f32>) -> () {
  %none = torch.constant.none
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  %mom = torch.constant.float 1.000000e-01
  %eps = torch.constant.float 1.000000e-05
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int3 = torch.constant.int 3
  %int16 = torch.constant.int 16
  %int5 = torch.constant.int 5
  %0:3 = torch.aten.native_batch_norm %x, %w, %w, %w, %w, %false, %mom, %eps : !torch.vtensor<[2,3,4,4],bf16>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>, !torch.bool, !torch.float, !torch.float -> !torch.vtensor, !torch.vtensor, !torch.vtensor
  %1:3 = torch.aten.native_batch_norm %x, %none, %none, %w, %w, %false, %mom, %eps : !torch.vtensor<[2,3,4,4],bf16>, !torch.none, !torch.none, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>, !torch.bool, !torch.float, !torch.float -> !torch.vtensor, !torch.vtensor, !torch.vtensor
  %2:3 = torch.aten.native_batch_norm %x, %wb, %wb, %none, %none, %true, %mom, %eps : !torch.vtensor<[2,3,4,4],bf16>, !torch.vtensor<[3],bf16>, !torch.vtensor<[3],bf16>, !torch.none, !torch.none, !torch.bool, !torch.float, !torch.float -> !torch.vtensor, !torch.vtensor, !torch.vtensor
  %sh = torch.prim.ListConstruct %int5 : (!torch.int) -> !torch.list<int>
  %3:3 = torch.aten.native_layer_norm %h, %sh, %w5, %none, %eps : !torch.vtensor<[2,5],f16>, !torch.list<int>, !torch.vtensor<[5],f32>, !torch.none, !torch.float -> !torch.vtensor, !torch.vtensor, !torch.vtensor
  %4:3 = torch.aten.native_layer_norm %h, %sh, %none, %none, %eps : !torch.vtensor<[2,5],f16>, !torch.list<int>, !torch.none, !torch.none, !torch.float -> !torch.vtensor, !torch.vtensor, !torch.vtensor
  %5:3 = torch.aten.native_group_norm %x, %w, %w, %int2, %int3, %int16, %int1, %eps : !torch.vtensor<[2,3,4,4],bf16>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>, !torch.int, !torch.int, !torch.int, !torch.int, !torch.float -> !torch.vtensor, !torch.vtensor, !torch.vtensor
  %6:3 = torch.aten.native_batch_norm %x, %w, %w, %w, %w, %false, %mom, %eps : !torch.vtensor<[2,3,4,4],bf16>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>, !torch.bool, !torch.float, !torch.float -> !torch.vtensor, !torch.vtensor<[0],bf16>, !torch.vtensor<[0],bf16>
  return
}
