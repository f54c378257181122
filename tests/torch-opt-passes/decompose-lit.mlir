// torch-mlir's decompositions in decompose_lit.c, matmul's mm and bmm forms
// (decompose_linalg.c); contract ops (argmax, argmin, mean.dim, mish) are
// decomposed only without keep-contract, which the default pipeline sets.
// RUN: torch-opt -p 'func.func(torch-decompose)' %s | FileCheck %s
// RUN: torch-opt -p 'func.func(torch-decompose{keep-contract=1})' %s | FileCheck --check-prefix=KEEP %s
// RUN: torch-opt -p 'func.func(torch-decompose{keep-contract=true})' %s | FileCheck --check-prefix=KEEP %s
// RUN: not torch-opt -p 'func.func(torch-decompose)' %S/inputs/lit-refused.mlir 2>&1 | FileCheck %S/inputs/lit-refused.mlir
// RUN: not torch-opt -p 'func.func(torch-decompose{keep-contract=yes})' %s 2>&1 | FileCheck --check-prefix=BADOPT %s
// BADOPT: error: torch-decompose: bad value 'yes' for option 'keep-contract' (0, 1, false or true)

// CHECK-LABEL: func.func @argmax_flat(
// CHECK:         %[[V:.*]] = torch.aten.view %arg0, {{.*}} -> !torch.vtensor<[30],f32>
// CHECK:         %[[M_0:[^ ,]+]], %[[M_1:[^ ,]+]] = torch.aten.max.dim %[[V]], %int0, %false_0 : {{.*}} -> !torch.vtensor<[],f32>, !torch.vtensor<[],si64>
// CHECK-NEXT:    return %[[M_1]]
// KEEP-LABEL:  func.func @argmax_flat(
// KEEP:          torch.aten.argmax
func.func @argmax_flat(%arg0: !torch.vtensor<[2,3,5],f32>) -> !torch.vtensor<[],si64> {
  %none = torch.constant.none
  %false = torch.constant.bool false
  %0 = torch.aten.argmax %arg0, %none, %false : !torch.vtensor<[2,3,5],f32>, !torch.none, !torch.bool -> !torch.vtensor<[],si64>
  return %0 : !torch.vtensor<[],si64>
}

// CHECK-LABEL: func.func @argmin_dim(
// CHECK:         %[[M_0:[^ ,]+]], %[[M_1:[^ ,]+]] = torch.aten.min.dim %arg0, %int-2, %true : {{.*}} -> !torch.vtensor<[2,1,5],si32>, !torch.vtensor<[2,1,5],si64>
// CHECK-NEXT:    return %[[M_1]]
// KEEP-LABEL:  func.func @argmin_dim(
// KEEP:          torch.aten.argmin
func.func @argmin_dim(%arg0: !torch.vtensor<[2,3,5],si32>) -> !torch.vtensor<[2,1,5],si64> {
  %int-2 = torch.constant.int -2
  %true = torch.constant.bool true
  %0 = torch.aten.argmin %arg0, %int-2, %true : !torch.vtensor<[2,3,5],si32>, !torch.int, !torch.bool -> !torch.vtensor<[2,1,5],si64>
  return %0 : !torch.vtensor<[2,1,5],si64>
}

// every dim kept as 1: left
// CHECK-LABEL: func.func @argmax_keep_all(
// CHECK:         torch.aten.argmax %arg0, %none, %true
func.func @argmax_keep_all(%arg0: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[1,1],si64> {
  %none = torch.constant.none
  %true = torch.constant.bool true
  %0 = torch.aten.argmax %arg0, %none, %true : !torch.vtensor<[2,3],f32>, !torch.none, !torch.bool -> !torch.vtensor<[1,1],si64>
  return %0 : !torch.vtensor<[1,1],si64>
}

// the count of dims 0 and -1 is 10; the sum takes the dtype
// CHECK-LABEL: func.func @mean_static(
// CHECK:         %[[TEN:.*]] = torch.constant.int 10
// CHECK:         %[[S:.*]] = torch.aten.sum.dim_IntList %arg0, %{{.*}}, %false, %int7 : {{.*}} -> !torch.vtensor<[3],f64>
// CHECK-NEXT:    %[[D:.*]] = torch.aten.div.Scalar %[[S]], %[[TEN]]
// CHECK-NEXT:    return %[[D]]
// KEEP-LABEL:  func.func @mean_static(
// KEEP:          torch.aten.mean.dim
func.func @mean_static(%arg0: !torch.vtensor<[2,3,5],f32>) -> !torch.vtensor<[3],f64> {
  %int0 = torch.constant.int 0
  %int-1 = torch.constant.int -1
  %false = torch.constant.bool false
  %int7 = torch.constant.int 7
  %dims = torch.prim.ListConstruct %int0, %int-1 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.mean.dim %arg0, %dims, %false, %int7 : !torch.vtensor<[2,3,5],f32>, !torch.list<int>, !torch.bool, !torch.int -> !torch.vtensor<[3],f64>
  return %0 : !torch.vtensor<[3],f64>
}

// dim None: every extent, dynamic ones by size.int
// CHECK-LABEL: func.func @mean_dynamic(
// CHECK:         %[[S:.*]] = torch.aten.sum.dim_IntList %arg0, %none, %true, %none
// CHECK:         %[[D0:.*]] = torch.aten.size.int %arg0, %int0
// CHECK:         %[[P:.*]] = torch.aten.mul.int %[[D0]], %int3
// CHECK:         %[[D2:.*]] = torch.aten.size.int %arg0, %int2
// CHECK:         %[[N:.*]] = torch.aten.mul.int %[[P]], %[[D2]]
// CHECK-NEXT:    torch.aten.div.Scalar %[[S]], %[[N]] : !torch.vtensor<[1,1,1],f32>, !torch.int
func.func @mean_dynamic(%arg0: !torch.vtensor<[?,3,?],f32>) -> !torch.vtensor<[1,1,1],f32> {
  %none = torch.constant.none
  %true = torch.constant.bool true
  %0 = torch.aten.mean.dim %arg0, %none, %true, %none : !torch.vtensor<[?,3,?],f32>, !torch.none, !torch.bool, !torch.none -> !torch.vtensor<[1,1,1],f32>
  return %0 : !torch.vtensor<[1,1,1],f32>
}

// an empty list reduces every dim; integer means (eager refuses them) stay
// CHECK-LABEL: func.func @mean_empty_list(
// CHECK:         %[[S:.*]] = torch.aten.sum.dim_IntList %arg0
// CHECK-NEXT:    torch.aten.div.Scalar %[[S]], %int0
// CHECK:         torch.aten.mean.dim %arg1
func.func @mean_empty_list(%arg0: !torch.vtensor<[0,4],f32>, %arg1: !torch.vtensor<[4],si64>) -> (!torch.vtensor<[],f32>, !torch.vtensor<[],si64>) {
  %none = torch.constant.none
  %false = torch.constant.bool false
  %dims = torch.prim.ListConstruct : () -> !torch.list<int>
  %0 = torch.aten.mean.dim %arg0, %dims, %false, %none : !torch.vtensor<[0,4],f32>, !torch.list<int>, !torch.bool, !torch.none -> !torch.vtensor<[],f32>
  %1 = torch.aten.mean.dim %arg1, %dims, %false, %none : !torch.vtensor<[4],si64>, !torch.list<int>, !torch.bool, !torch.none -> !torch.vtensor<[],si64>
  return %0, %1 : !torch.vtensor<[],f32>, !torch.vtensor<[],si64>
}

// f32 as softplus (beta 1, threshold 20) and tanh; f16 (eager computes in
// f32) stays
// CHECK-LABEL: func.func @mish(
// CHECK:         %[[ONE:.*]] = torch.constant.float 1.000000e+00
// CHECK-NEXT:    %[[TH:.*]] = torch.constant.float 2.000000e+01
// CHECK-NEXT:    %[[SC:.*]] = torch.aten.mul.Scalar %arg0, %[[ONE]]
// CHECK-NEXT:    %[[E:.*]] = torch.aten.exp %[[SC]]
// CHECK-NEXT:    %[[L:.*]] = torch.aten.log1p %[[E]]
// CHECK-NEXT:    %[[SP:.*]] = torch.aten.div.Scalar %[[L]], %[[ONE]]
// CHECK-NEXT:    %[[GT:.*]] = torch.aten.gt.Scalar %[[SC]], %[[TH]]
// CHECK-NEXT:    %[[W:.*]] = torch.aten.where.self %[[GT]], %arg0, %[[SP]]
// CHECK-NEXT:    %[[T:.*]] = torch.aten.tanh %[[W]]
// CHECK-NEXT:    %[[R:.*]] = torch.aten.mul.Tensor %arg0, %[[T]]
// CHECK-NEXT:    %[[H:.*]] = torch.aten.mish %arg1
// CHECK-NEXT:    return %[[R]], %[[H]]
func.func @mish(%arg0: !torch.vtensor<[4],f32>, %arg1: !torch.vtensor<[4],f16>) -> (!torch.vtensor<[4],f32>, !torch.vtensor<[4],f16>) {
  %0 = torch.aten.mish %arg0 : !torch.vtensor<[4],f32> -> !torch.vtensor<[4],f32>
  %1 = torch.aten.mish %arg1 : !torch.vtensor<[4],f16> -> !torch.vtensor<[4],f16>
  return %0, %1 : !torch.vtensor<[4],f32>, !torch.vtensor<[4],f16>
}

// CHECK-LABEL: func.func @assert_scalar(
// CHECK:         %[[B:.*]] = torch.aten.Bool.int %arg0 : !torch.int -> !torch.bool
// CHECK-NEXT:    torch.runtime.assert %[[B]], "u0 >= 3"
// CHECK-NEXT:    %[[F:.*]] = torch.aten.Bool.float %arg1 : !torch.float -> !torch.bool
// CHECK-NEXT:    torch.runtime.assert %[[F]], "f"
// CHECK-NEXT:    torch.runtime.assert %arg2, "b"
// CHECK-NOT:     _assert_scalar
// KEEP-LABEL:  func.func @assert_scalar(
// KEEP:          torch.runtime.assert
func.func @assert_scalar(%arg0: !torch.int, %arg1: !torch.float, %arg2: !torch.bool) {
  %str = torch.constant.str "u0 >= 3"
  %f = torch.constant.str "f"
  %b = torch.constant.str "b"
  torch.aten._assert_scalar %arg0, %str : !torch.int, !torch.str
  torch.aten._assert_scalar %arg1, %f : !torch.float, !torch.str
  torch.aten._assert_scalar %arg2, %b : !torch.bool, !torch.str
  return
}

// min None is 0: the 0 the function has
// CHECK-LABEL: func.func @constrain_for_size(
// CHECK:         %[[Z:.*]] = torch.constant.int 0
// CHECK-NEXT:    %[[N:.*]] = torch.constant.none
// CHECK-NEXT:    %[[M:.*]] = torch.constant.int 9
// CHECK-NEXT:    torch.aten.sym_constrain_range %arg0, %[[Z]], %[[N]] : !torch.int, !torch.int, !torch.none
// CHECK-NEXT:    torch.aten.sym_constrain_range %arg0, %[[Z]], %[[M]] : !torch.int, !torch.int, !torch.int
func.func @constrain_for_size(%arg0: !torch.int) {
  %int0 = torch.constant.int 0
  %none = torch.constant.none
  %int9 = torch.constant.int 9
  torch.aten.sym_constrain_range_for_size %arg0, %none, %none : !torch.int, !torch.none, !torch.none
  torch.aten.sym_constrain_range_for_size %arg0, %none, %int9 : !torch.int, !torch.none, !torch.int
  return
}

// 2-D by 2-D is mm, 3-D by 3-D of one static batch bmm, each keeping an
// unrefined result type; batches that may broadcast are left unranked
// CHECK-LABEL: func.func @matmul_forms(
// CHECK:         torch.aten.mm %arg0, %arg1 : !torch.vtensor<[?,?],f32>, !torch.vtensor<[?,?],f32> -> !torch.tensor
// CHECK-NEXT:    torch.aten.bmm %arg2, %arg2 : !torch.vtensor<[4,?,?],f32>, !torch.vtensor<[4,?,?],f32> -> !torch.tensor
// CHECK-NEXT:    torch.aten.matmul %arg2, %arg3 : !torch.vtensor<[4,?,?],f32>, !torch.vtensor<[?,?,?],f32> -> !torch.tensor
func.func @matmul_forms(%arg0: !torch.vtensor<[?,?],f32>, %arg1: !torch.vtensor<[?,?],f32>, %arg2: !torch.vtensor<[4,?,?],f32>, %arg3: !torch.vtensor<[?,?,?],f32>) -> (!torch.tensor, !torch.tensor, !torch.tensor) {
  %0 = torch.aten.matmul %arg0, %arg1 : !torch.vtensor<[?,?],f32>, !torch.vtensor<[?,?],f32> -> !torch.tensor
  %1 = torch.aten.matmul %arg2, %arg2 : !torch.vtensor<[4,?,?],f32>, !torch.vtensor<[4,?,?],f32> -> !torch.tensor
  %2 = torch.aten.matmul %arg2, %arg3 : !torch.vtensor<[4,?,?],f32>, !torch.vtensor<[?,?,?],f32> -> !torch.tensor
  return %0, %1, %2 : !torch.tensor, !torch.tensor, !torch.tensor
}

// batch norm of f16 (bf16 alike) computes in f32 and rounds once, as
// eager's kernel does; a missing weight or bias has no cast
// CHECK-LABEL: func.func @batch_norm_f16(
// CHECK:         %[[X:.*]] = torch.aten.to.dtype %arg0, %int6, {{.*}} -> !torch.vtensor<[2,2,3],f32>
// CHECK:         %[[M:.*]] = torch.aten.to.dtype %arg1, %int6{{.*}} -> !torch.vtensor<[2],f32>
// CHECK:         %[[V:.*]] = torch.aten.to.dtype %arg2, %int6{{.*}} -> !torch.vtensor<[2],f32>
// CHECK:         %[[W:.*]] = torch.aten.to.dtype %arg3, %int6{{.*}} -> !torch.vtensor<[2],f32>
// CHECK-NOT:     torch.aten.to.dtype
// CHECK:         torch.aten.add.Scalar %[[V]], {{.*}} -> !torch.vtensor<[2],f32>
// CHECK:         torch.aten.sub.Tensor %[[X]], {{.*}} -> !torch.vtensor<[2,2,3],f32>
// CHECK:         %[[Y:.*]] = torch.aten.mul.Tensor {{.*}} -> !torch.vtensor<[2,2,3],f32>
// CHECK:         %[[R:.*]] = torch.aten.to.dtype %[[Y]], %int5, {{.*}} -> !torch.vtensor<[2,2,3],f16>
// CHECK-NEXT:    return %[[R]]
func.func @batch_norm_f16(%x: !torch.vtensor<[2,2,3],f16>, %m: !torch.vtensor<[2],f16>, %v: !torch.vtensor<[2],f16>, %w: !torch.vtensor<[2],f16>) -> !torch.vtensor<[2,2,3],f16> {
  %none = torch.constant.none
  %false = torch.constant.bool false
  %momentum = torch.constant.float 1.000000e-01
  %eps = torch.constant.float 1.000000e-05
  %0 = torch.aten.batch_norm %x, %w, %none, %m, %v, %false, %momentum, %eps, %false : !torch.vtensor<[2,2,3],f16>, !torch.vtensor<[2],f16>, !torch.none, !torch.vtensor<[2],f16>, !torch.vtensor<[2],f16>, !torch.bool, !torch.float, !torch.float, !torch.bool -> !torch.vtensor<[2,2,3],f16>
  return %0 : !torch.vtensor<[2,2,3],f16>
}
