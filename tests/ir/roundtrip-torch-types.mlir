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
