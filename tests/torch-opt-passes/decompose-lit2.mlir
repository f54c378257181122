// torch-decompose-complex-ops' own forms (decompose_lit2.c): its rules come
// first and stop where torch-mlir's pass stops; torch-decompose (DECOMP)
// never reads them.
// RUN: torch-opt -p 'func.func(torch-decompose-complex-ops)' %s | FileCheck %s
// RUN: torch-opt -p 'func.func(torch-decompose)' %s | FileCheck --check-prefix=DECOMP %s
// RUN: torch-opt -p 'func.func(torch-decompose-complex-ops)' %s | torch-opt -p '' > /dev/null

// CHECK-LABEL: func.func @diag_1d(
// CHECK:         %[[M2:.*]] = torch.constant.int -2
// CHECK:         %[[M1:.*]] = torch.constant.int -1
// CHECK:         %[[R:.*]] = torch.aten.diag_embed %arg0, %int1, %[[M2]], %[[M1]] : !torch.vtensor<[3],f32>, !torch.int, !torch.int, !torch.int -> !torch.vtensor<[4,4],f32>
// CHECK-NEXT:    return %[[R]]
// DECOMP-LABEL: func.func @diag_1d(
// DECOMP-NOT:     torch.aten.diag
// DECOMP:         return
func.func @diag_1d(%arg0: !torch.vtensor<[3],f32>) -> !torch.vtensor<[4,4],f32> {
  %int1 = torch.constant.int 1
  %0 = torch.aten.diag %arg0, %int1 : !torch.vtensor<[3],f32>, !torch.int -> !torch.vtensor<[4,4],f32>
  return %0 : !torch.vtensor<[4,4],f32>
}

// the input's 0 serves as offset and dim1
// CHECK-LABEL: func.func @diag_2d(
// CHECK:         %[[ONE:.*]] = torch.constant.int 1
// CHECK:         %[[R:.*]] = torch.aten.diagonal %arg0, %int0, %int0, %[[ONE]] : !torch.vtensor<[3,4],f32>, !torch.int, !torch.int, !torch.int -> !torch.vtensor<[3],f32>
// CHECK-NEXT:    return %[[R]]
func.func @diag_2d(%arg0: !torch.vtensor<[3,4],f32>) -> !torch.vtensor<[3],f32> {
  %int0 = torch.constant.int 0
  %0 = torch.aten.diag %arg0, %int0 : !torch.vtensor<[3,4],f32>, !torch.int -> !torch.vtensor<[3],f32>
  return %0 : !torch.vtensor<[3],f32>
}

// rank 3: no rule here, and ours is not tried
// CHECK-LABEL: func.func @diagonal_kept(
// CHECK:         torch.aten.diagonal %arg0
// DECOMP-LABEL: func.func @diagonal_kept(
// DECOMP-NOT:     torch.aten.diagonal
func.func @diagonal_kept(%arg0: !torch.vtensor<[2,3,3],f32>) -> !torch.vtensor<[2,3],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %0 = torch.aten.diagonal %arg0, %int0, %int1, %int2 : !torch.vtensor<[2,3,3],f32>, !torch.int, !torch.int, !torch.int -> !torch.vtensor<[2,3],f32>
  return %0 : !torch.vtensor<[2,3],f32>
}

// CHECK-LABEL: func.func @addbmm(
// CHECK:         %[[P:.*]] = torch.aten.permute %arg1, {{.*}} -> !torch.vtensor<[2,5,9],f32>
// CHECK:         %[[L:.*]] = torch.prims.collapse %[[P]], %int1, %int2 : !torch.vtensor<[2,5,9],f32>, !torch.int, !torch.int -> !torch.vtensor<[2,45],f32>
// CHECK:         %[[R:.*]] = torch.prims.collapse %arg2, %int0, %int1 : !torch.vtensor<[5,9,?],f32>, !torch.int, !torch.int -> !torch.vtensor<[45,?],f32>
// CHECK:         %[[MM:.*]] = torch.aten.mm %[[L]], %[[R]] : {{.*}} -> !torch.vtensor<[2,?],f32>
// CHECK:         %[[S:.*]] = torch.aten.mul.Scalar %arg0, %float5.000000e-01
// CHECK:         %[[A:.*]] = torch.aten.add.Tensor %[[S]], %[[MM]], %float2.000000e00
// CHECK-NEXT:    return %[[A]]
func.func @addbmm(%arg0: !torch.vtensor<[2,?],f32>, %arg1: !torch.vtensor<[5,2,9],f32>, %arg2: !torch.vtensor<[5,9,?],f32>) -> !torch.vtensor<[2,?],f32> {
  %float0_5 = torch.constant.float 5.000000e-01
  %float2 = torch.constant.float 2.000000e+00
  %0 = torch.aten.addbmm %arg0, %arg1, %arg2, %float0_5, %float2 : !torch.vtensor<[2,?],f32>, !torch.vtensor<[5,2,9],f32>, !torch.vtensor<[5,9,?],f32>, !torch.float, !torch.float -> !torch.vtensor<[2,?],f32>
  return %0 : !torch.vtensor<[2,?],f32>
}

// beta 0 (an int): the input is not read, NaN or not
// CHECK-LABEL: func.func @addbmm_beta_zero(
// CHECK-NOT:     %arg0,
// CHECK:         %[[MM:.*]] = torch.aten.mm
// CHECK:         %[[R:.*]] = torch.aten.mul.Scalar %[[MM]], %float2.000000e00
// CHECK-NEXT:    return %[[R]]
func.func @addbmm_beta_zero(%arg0: !torch.vtensor<[2,7],f32>, %arg1: !torch.vtensor<[5,2,9],f32>, %arg2: !torch.vtensor<[5,9,7],f32>) -> !torch.vtensor<[2,7],f32> {
  %int0 = torch.constant.int 0
  %float2 = torch.constant.float 2.000000e+00
  %0 = torch.aten.addbmm %arg0, %arg1, %arg2, %int0, %float2 : !torch.vtensor<[2,7],f32>, !torch.vtensor<[5,2,9],f32>, !torch.vtensor<[5,9,7],f32>, !torch.int, !torch.float -> !torch.vtensor<[2,7],f32>
  return %0 : !torch.vtensor<[2,7],f32>
}

// f16 stays (torch-decompose's rule decomposes it)
// CHECK-LABEL: func.func @addbmm_f16(
// CHECK:         torch.aten.addbmm
// DECOMP-LABEL: func.func @addbmm_f16(
// DECOMP-NOT:     torch.aten.addbmm
// DECOMP:         torch.aten.mm
func.func @addbmm_f16(%arg0: !torch.vtensor<[2,7],f16>, %arg1: !torch.vtensor<[5,2,9],f16>, %arg2: !torch.vtensor<[5,9,7],f16>) -> !torch.vtensor<[2,7],f16> {
  %float0_5 = torch.constant.float 5.000000e-01
  %float2 = torch.constant.float 2.000000e+00
  %0 = torch.aten.addbmm %arg0, %arg1, %arg2, %float0_5, %float2 : !torch.vtensor<[2,7],f16>, !torch.vtensor<[5,2,9],f16>, !torch.vtensor<[5,9,7],f16>, !torch.float, !torch.float -> !torch.vtensor<[2,7],f16>
  return %0 : !torch.vtensor<[2,7],f16>
}

// repeats of si8: left as torch-mlir leaves it (ours decomposes it)
// CHECK-LABEL: func.func @repeat_interleave_si8(
// CHECK:         torch.aten.repeat_interleave.Tensor %arg0
// DECOMP-LABEL: func.func @repeat_interleave_si8(
// DECOMP-NOT:     torch.aten.repeat_interleave.Tensor
func.func @repeat_interleave_si8(%arg0: !torch.vtensor<[2],si8>) -> !torch.vtensor<[6],si8> {
  %int6 = torch.constant.int 6
  %0 = torch.aten.repeat_interleave.Tensor %arg0, %int6 : !torch.vtensor<[2],si8>, !torch.int -> !torch.vtensor<[6],si8>
  return %0 : !torch.vtensor<[6],si8>
}

// si64 repeats: ours (the -1 of decompose_lit2.c's rule)
// CHECK-LABEL: func.func @repeat_interleave_si64(
// CHECK-NOT:     torch.aten.repeat_interleave.Tensor
// CHECK:         return
func.func @repeat_interleave_si64(%arg0: !torch.vtensor<[2],si64>) -> !torch.vtensor<[6],si64> {
  %int6 = torch.constant.int 6
  %0 = torch.aten.repeat_interleave.Tensor %arg0, %int6 : !torch.vtensor<[2],si64>, !torch.int -> !torch.vtensor<[6],si64>
  return %0 : !torch.vtensor<[6],si64>
}

// CHECK-LABEL: func.func @broadcast_tensors(
// CHECK-DAG:     %[[I2:.*]] = torch.constant.int 2
// CHECK-DAG:     %[[I4:.*]] = torch.constant.int 4
// CHECK-DAG:     %[[I3:.*]] = torch.constant.int 3
// CHECK-DAG:     %[[T:.*]] = torch.constant.bool true
// CHECK-COUNT-3: torch.runtime.assert %[[T]], "tensors are not broadcast compatible"
// CHECK:         %[[S:.*]] = torch.prim.ListConstruct %[[I2]], %[[I4]], %[[I3]]
// CHECK:         %[[B0:.*]] = torch.aten.broadcast_to %arg0, %[[S]] : !torch.vtensor<[4,1],f32>, !torch.list<int> -> !torch.vtensor<[2,4,3],f32>
// CHECK:         %[[B1:.*]] = torch.aten.broadcast_to %arg1, %[[S]] : !torch.vtensor<[2,1,3],si32>, !torch.list<int> -> !torch.vtensor<[2,4,3],si32>
// CHECK:         %[[L:.*]] = torch.prim.ListConstruct %[[B0]], %[[B1]]
// CHECK:         return %[[L]]
func.func @broadcast_tensors(%arg0: !torch.vtensor<[4,1],f32>, %arg1: !torch.vtensor<[2,1,3],si32>) -> !torch.list<vtensor> {
  %0 = torch.prim.ListConstruct %arg0, %arg1 : (!torch.vtensor<[4,1],f32>, !torch.vtensor<[2,1,3],si32>) -> !torch.list<vtensor>
  %1 = torch.aten.broadcast_tensors %0 : !torch.list<vtensor> -> !torch.list<vtensor>
  return %1 : !torch.list<vtensor>
}

// a dynamic num_classes: -1 (inferred by eager) fails the assert
// CHECK-LABEL: func.func @one_hot_dynamic(
// CHECK:         %[[GE:.*]] = torch.aten.ge.int %arg1, %int0
// CHECK:         torch.runtime.assert %[[GE]]
// CHECK:         %[[AR:.*]] = torch.aten.arange.start_step {{.*}}, %arg1, {{.*}} -> !torch.vtensor<[?],si64>
// CHECK:         %[[U:.*]] = torch.aten.unsqueeze %arg0, %int2 : !torch.vtensor<[2,3],si64>, !torch.int -> !torch.vtensor<[2,3,1],si64>
// CHECK:         %[[EQ:.*]] = torch.aten.eq.Tensor %[[U]], %[[AR]] : {{.*}} -> !torch.vtensor<[2,3,?],i1>
// CHECK:         %[[R:.*]] = torch.aten.to.dtype %[[EQ]], %int4, {{.*}} -> !torch.vtensor<[2,3,?],si64>
// CHECK:         return %[[R]]
// DECOMP-LABEL: func.func @one_hot_dynamic(
// DECOMP:         torch.aten.one_hot
func.func @one_hot_dynamic(%arg0: !torch.vtensor<[2,3],si64>, %arg1: !torch.int) -> !torch.vtensor<[2,3,?],si64> {
  %0 = torch.aten.one_hot %arg0, %arg1 : !torch.vtensor<[2,3],si64>, !torch.int -> !torch.vtensor<[2,3,?],si64>
  return %0 : !torch.vtensor<[2,3,?],si64>
}

// dim 0: transposed there and back; the DFT matrix of length 3 is [3,4]
// CHECK-LABEL: func.func @fft_rfft_dim0(
// CHECK:         %[[M:.*]] = torch.vtensor.literal(dense<{{.*}}> : tensor<3x4xf32>) : !torch.vtensor<[3,4],f32>
// CHECK:         %[[T:.*]] = torch.aten.transpose.int %arg0, %int0, %int1 : !torch.vtensor<[3,5],f32>, !torch.int, !torch.int -> !torch.vtensor<[5,3],f32>
// CHECK:         %[[MM:.*]] = torch.aten.mm %[[T]], %[[M]] : {{.*}} -> !torch.vtensor<[5,4],f32>
// CHECK:         %[[V:.*]] = torch.aten.view %[[MM]], {{.*}} -> !torch.vtensor<[5,2,2],f32>
// CHECK:         %[[C:.*]] = torch.aten.view_as_complex %[[V]] : !torch.vtensor<[5,2,2],f32> -> !torch.vtensor<[5,2],complex<f32>>
// CHECK:         %[[R:.*]] = torch.aten.transpose.int %[[C]], %int0, %int1 : {{.*}} -> !torch.vtensor<[2,5],complex<f32>>
// CHECK:         return %[[R]]
func.func @fft_rfft_dim0(%arg0: !torch.vtensor<[3,5],f32>) -> !torch.vtensor<[2,5],complex<f32>> {
  %int0 = torch.constant.int 0
  %none = torch.constant.none
  %0 = torch.aten.fft_rfft %arg0, %none, %int0, %none : !torch.vtensor<[3,5],f32>, !torch.none, !torch.int, !torch.none -> !torch.vtensor<[2,5],complex<f32>>
  return %0 : !torch.vtensor<[2,5],complex<f32>>
}

// an n: left
// CHECK-LABEL: func.func @fft_rfft_n(
// CHECK:         torch.aten.fft_rfft
func.func @fft_rfft_n(%arg0: !torch.vtensor<[3,5],f32>) -> !torch.vtensor<[3,3],complex<f32>> {
  %int5 = torch.constant.int 5
  %int-1 = torch.constant.int -1
  %none = torch.constant.none
  %0 = torch.aten.fft_rfft %arg0, %int5, %int-1, %none : !torch.vtensor<[3,5],f32>, !torch.int, !torch.int, !torch.none -> !torch.vtensor<[3,3],complex<f32>>
  return %0 : !torch.vtensor<[3,3],complex<f32>>
}

// a mask: left (torch-decompose decomposes it)
// CHECK-LABEL: func.func @sdpa_mask(
// CHECK:         torch.aten.scaled_dot_product_attention
// DECOMP-LABEL: func.func @sdpa_mask(
// DECOMP-NOT:     torch.aten.scaled_dot_product_attention
// DECOMP:         return
func.func @sdpa_mask(%q: !torch.vtensor<[1,4,8],f32>, %k: !torch.vtensor<[1,4,8],f32>, %v: !torch.vtensor<[1,4,8],f32>, %m: !torch.vtensor<[1,4,4],f32>) -> !torch.vtensor<[1,4,8],f32> {
  %none = torch.constant.none
  %zero = torch.constant.float 0.000000e+00
  %false = torch.constant.bool false
  %0 = torch.aten.scaled_dot_product_attention %q, %k, %v, %m, %zero, %false, %none, %false : !torch.vtensor<[1,4,8],f32>, !torch.vtensor<[1,4,8],f32>, !torch.vtensor<[1,4,8],f32>, !torch.vtensor<[1,4,4],f32>, !torch.float, !torch.bool, !torch.none, !torch.bool -> !torch.vtensor<[1,4,8],f32>
  return %0 : !torch.vtensor<[1,4,8],f32>
}

// batch_norm in inference: the invstd by rsqrt of the [1,C,1] variance,
// then the weight; f16 in f32, rounded once.  torch-decompose divides the
// weight by sqrt.
// CHECK-LABEL: func.func @batch_norm_eval_f16(
// CHECK-COUNT-5: torch.aten.to.dtype {{.*}} -> !torch.vtensor<[{{.*}}],f32>
// CHECK:         %[[V:.*]] = torch.aten.view %{{.*}} -> !torch.vtensor<[1,2,1],f32>
// CHECK:         %[[E:.*]] = torch.aten.add.Scalar %[[V]], %{{.*}} -> !torch.vtensor<[1,2,1],f32>
// CHECK:         %[[I:.*]] = torch.aten.rsqrt %[[E]] : !torch.vtensor<[1,2,1],f32> -> !torch.vtensor<[1,2,1],f32>
// CHECK:         %[[S:.*]] = torch.aten.sub.Tensor
// CHECK:         %[[N:.*]] = torch.aten.mul.Tensor %[[S]], %[[I]]
// CHECK:         %[[W:.*]] = torch.aten.mul.Tensor %[[N]],
// CHECK:         %[[B:.*]] = torch.aten.add.Tensor %[[W]],
// CHECK:         %[[R:.*]] = torch.aten.to.dtype %[[B]], {{.*}} -> !torch.vtensor<[2,2,3],f16>
// CHECK:         return %[[R]]
// DECOMP-LABEL: func.func @batch_norm_eval_f16(
// DECOMP-NOT:    torch.aten.rsqrt
// DECOMP:        torch.aten.sqrt
// DECOMP-NOT:    torch.aten.rsqrt
// DECOMP:        return
func.func @batch_norm_eval_f16(%x: !torch.vtensor<[2,2,3],f16>, %w: !torch.vtensor<[2],f16>, %b: !torch.vtensor<[2],f16>, %m: !torch.vtensor<[2],f16>, %v: !torch.vtensor<[2],f16>) -> !torch.vtensor<[2,2,3],f16> {
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  %momentum = torch.constant.float 1.000000e-01
  %eps = torch.constant.float 5.000000e-01
  %0 = torch.aten.batch_norm %x, %w, %b, %m, %v, %false, %momentum, %eps, %true : !torch.vtensor<[2,2,3],f16>, !torch.vtensor<[2],f16>, !torch.vtensor<[2],f16>, !torch.vtensor<[2],f16>, !torch.vtensor<[2],f16>, !torch.bool, !torch.float, !torch.float, !torch.bool -> !torch.vtensor<[2,2,3],f16>
  return %0 : !torch.vtensor<[2,2,3],f16>
}
