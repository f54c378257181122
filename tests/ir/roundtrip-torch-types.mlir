// RUN: torch-opt -p '' %s | torch-opt -p '' | FileCheck %s
// torch types that no stage computes with still parse and print back:
// f8/f4 and complex dtypes, quantized dtypes, packed linear parameters,
// modules and dicts; inside containers they lose their `!torch.`.

// CHECK: func.func private @f8() -> !torch.vtensor<[2],f8E4M3FN>
func.func private @f8() -> !torch.vtensor<[2],f8E4M3FN>
// CHECK: func.func private @f4(!torch.vtensor<[4,8],f4E2M1FN>) -> !torch.vtensor<[?],f8E8M0FNU>
func.func private @f4(!torch.vtensor<[4,8],f4E2M1FN>) -> !torch.vtensor<[?],f8E8M0FNU>
// CHECK: func.func private @complex() -> !torch.tensor<*,complex<f64>>
func.func private @complex() -> !torch.tensor<*,complex<f64>>
// CHECK: func.func private @quantized() -> !torch.tensor<[3],!torch.quint8>
func.func private @quantized() -> !torch.tensor<[3], !torch.quint8>
// CHECK: func.func private @module(!torch.nn.Module<"my.Class">) -> !torch.list<nn.Module<"other">>
func.func private @module(!torch.nn.Module<"my.Class">) -> !torch.list<!torch.nn.Module<"other">>
// CHECK: func.func private @dict() -> !torch.dict<str, optional<vtensor<[2],si64>>>
func.func private @dict() -> !torch.dict<str, !torch.optional<vtensor<[2],si64>>>
// CHECK: func.func private @params() -> !torch.tuple<LinearParams, dict<int, float>>
func.func private @params() -> !torch.tuple<!torch.LinearParams, dict<int, float>>

// An op of no results has no `-> ...`, in and out.
// CHECK-LABEL: func.func @no_results(
// CHECK: torch.aten._assert_scalar %arg0, %str : !torch.int, !torch.str{{$}}
func.func @no_results(%arg0: !torch.int) {
  %str = torch.constant.str "positive"
  torch.aten._assert_scalar %arg0, %str : !torch.int, !torch.str
  return
}

// Casts and lists that the verifier accepts: a derefine widens, an
// unchecked_cast narrows, a static-info cast trades known for unknown
// sizes, a list holds tensors more refined than its element type, a
// permutation may count from the end.
// CHECK-LABEL: func.func @accepted(
func.func @accepted(%arg0: !torch.int, %arg1: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[3,2],f32> {
  // CHECK: torch.derefine %arg0 : !torch.int to !torch.optional<int>
  %0 = torch.derefine %arg0 : !torch.int to !torch.optional<int>
  // CHECK: torch.prim.unchecked_cast %0 : !torch.optional<int> -> !torch.int
  %1 = torch.prim.unchecked_cast %0 : !torch.optional<int> -> !torch.int
  // CHECK: torch.tensor_static_info_cast %arg1 : !torch.vtensor<[2,3],f32> to !torch.vtensor<[?,3],unk>
  %2 = torch.tensor_static_info_cast %arg1 : !torch.vtensor<[2,3],f32> to !torch.vtensor<[?,3],unk>
  // CHECK: torch.prim.ListConstruct %arg1 : (!torch.vtensor<[2,3],f32>) -> !torch.list<vtensor>
  %3 = torch.prim.ListConstruct %arg1 : (!torch.vtensor<[2,3],f32>) -> !torch.list<vtensor>
  %intm1 = torch.constant.int -1
  %int0 = torch.constant.int 0
  %perm = torch.prim.ListConstruct %intm1, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  // CHECK: torch.aten.permute %arg1, %{{.*}} : !torch.vtensor<[2,3],f32>, !torch.list<int> -> !torch.vtensor<[3,2],f32>
  %4 = torch.aten.permute %arg1, %perm : !torch.vtensor<[2,3],f32>, !torch.list<int> -> !torch.vtensor<[3,2],f32>
  return %4 : !torch.vtensor<[3,2],f32>
}

// A declaration may name its arguments; the names are not kept.
// CHECK: func.func private @named_decl(!torch.vtensor {torch.type_bound = !torch.vtensor<[2],f32>}, !torch.int)
func.func private @named_decl(%arg0: !torch.vtensor {torch.type_bound = !torch.vtensor<[2],f32>}, %n: !torch.int)

// Ops newer than the PyTorch release torch_ops.def comes from, and the
// prims, in torch-mlir's spelling, checked against their schemas.
// CHECK-LABEL: func.func @newer_ops(
func.func @newer_ops(%a: !torch.vtensor<[4,8],si8>, %b: !torch.vtensor<[8,2],si8>, %s: !torch.vtensor<[3],f32>) -> !torch.vtensor<[4,2],si32> {
  // CHECK: torch.aten._int_mm %arg0, %arg1 : !torch.vtensor<[4,8],si8>, !torch.vtensor<[8,2],si8> -> !torch.vtensor<[4,2],si32>
  %0 = torch.aten._int_mm %a, %b : !torch.vtensor<[4,8],si8>, !torch.vtensor<[8,2],si8> -> !torch.vtensor<[4,2],si32>
  %int6 = torch.constant.int 6
  // CHECK: torch.prims.convert_element_type %arg2, %{{.*}} : !torch.vtensor<[3],f32>, !torch.int -> !torch.vtensor<[3],f32>
  %1 = torch.prims.convert_element_type %s, %int6 : !torch.vtensor<[3],f32>, !torch.int -> !torch.vtensor<[3],f32>
  // CHECK: torch.prims.view_of %{{.*}} : !torch.vtensor<[3],f32> -> !torch.vtensor<[3],f32>
  %2 = torch.prims.view_of %1 : !torch.vtensor<[3],f32> -> !torch.vtensor<[3],f32>
  return %0 : !torch.vtensor<[4,2],si32>
}

// A rowwise-scaled fp8 matmul the verifier accepts.
// CHECK-LABEL: func.func @scaled_mm_rowwise(
// CHECK: torch.aten._scaled_mm
func.func @scaled_mm_rowwise(%a: !torch.vtensor<[32,64],f8E4M3FN>, %b: !torch.vtensor<[64,16],f8E5M2>, %sa: !torch.vtensor<[32,1],f32>, %sb: !torch.vtensor<[1,16],f32>, %bias: !torch.vtensor<[16],bf16>) -> !torch.vtensor<[32,16],bf16> {
  %none = torch.constant.none
  %int15 = torch.constant.int 15
  %false = torch.constant.bool false
  %0 = torch.aten._scaled_mm %a, %b, %sa, %sb, %bias, %none, %int15, %false : !torch.vtensor<[32,64],f8E4M3FN>, !torch.vtensor<[64,16],f8E5M2>, !torch.vtensor<[32,1],f32>, !torch.vtensor<[1,16],f32>, !torch.vtensor<[16],bf16>, !torch.none, !torch.int, !torch.bool -> !torch.vtensor<[32,16],bf16>
  return %0 : !torch.vtensor<[32,16],bf16>
}

// A tensorwise-scaled _scaled_mm_v2 the verifier accepts.
// CHECK-LABEL: func.func @v2_tensorwise_ok(
// CHECK: torch.aten._scaled_mm_v2
func.func @v2_tensorwise_ok(%a: !torch.vtensor<[128,64],f8E4M3FN>, %b: !torch.vtensor<[64,128],f8E4M3FN>, %sa0: !torch.vtensor<[],f32>, %sb0: !torch.vtensor<[],f32>) {
  %i0 = torch.constant.int 0
  %i15 = torch.constant.int 15
  %none = torch.constant.none
  %false = torch.constant.bool false
  %sa = torch.prim.ListConstruct %sa0 : (!torch.vtensor<[],f32>) -> !torch.list<vtensor>
  %ra = torch.prim.ListConstruct %i0 : (!torch.int) -> !torch.list<int>
  %wa = torch.prim.ListConstruct %i0 : (!torch.int) -> !torch.list<int>
  %sb = torch.prim.ListConstruct %sb0 : (!torch.vtensor<[],f32>) -> !torch.list<vtensor>
  %rb = torch.prim.ListConstruct %i0 : (!torch.int) -> !torch.list<int>
  %wb = torch.prim.ListConstruct %i0 : (!torch.int) -> !torch.list<int>
  %cd = torch.prim.ListConstruct : () -> !torch.list<int>
  %0 = torch.aten._scaled_mm_v2 %a, %b, %sa, %ra, %wa, %sb, %rb, %wb, %none, %i15, %cd, %false : !torch.vtensor<[128,64],f8E4M3FN>, !torch.vtensor<[64,128],f8E4M3FN>, !torch.list<vtensor>, !torch.list<int>, !torch.list<int>, !torch.list<vtensor>, !torch.list<int>, !torch.list<int>, !torch.none, !torch.int, !torch.list<int>, !torch.bool -> !torch.vtensor<[128,128],bf16>
  return
}
