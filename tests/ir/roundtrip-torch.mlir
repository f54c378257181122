// RUN: torch-opt -p '' %s | FileCheck %s
// Every torch type and the custom forms of the structural torch ops.
// RUN: torch-opt -p '' %s | torch-opt -p '' | FileCheck %s
// RUN: torch-opt -p '' --mlir-print-op-generic %s | torch-opt -p '' | FileCheck %s
// CHECK: module {
// CHECK-NEXT: func.func @types(%arg0: !torch.vtensor<[4,3],f32>, %arg1: !torch.vtensor<[],f32>, %arg2: !torch.vtensor<[?,3],si64>, %arg3: !torch.vtensor, %arg4: !torch.vtensor, %arg5: !torch.tensor<[2],f32>, %arg6: !torch.tensor, %arg7: !torch.int, %arg8: !torch.float, %arg9: !torch.bool, %arg10: !torch.none, %arg11: !torch.str, %arg12: !torch.Device, %arg13: !torch.number, %arg14: !torch.Generator, %arg15: !torch.any, %arg16: !torch.list<int>, %arg17: !torch.list<vtensor<[2],f32>>, %arg18: !torch.optional<list<int>>, %arg19: !torch.tuple<int, float>, %arg20: !torch.union<float, int>, %arg21: !torch.vtensor<[2],unk>, %arg22: !torch.vtensor<*,f32>, %arg23: !torch.list<optional<vtensor>>) {
// CHECK-NEXT: return
// CHECK-NEXT: }
// CHECK-NEXT: func.func @ops(%arg0: !torch.vtensor<[4,3],f32>, %arg1: !torch.tensor<[4,3],f32>, %arg2: !torch.bool) -> !torch.vtensor<[4,3],f32> {
// CHECK-NEXT: %int0 = torch.constant.int 0
// CHECK-NEXT: %int-1 = torch.constant.int -1
// CHECK-NEXT: %float1.000000e00 = torch.constant.float 1.000000e+00
// CHECK-NEXT: %float-2.500000e-01 = torch.constant.float -2.500000e-01
// CHECK-NEXT: %true = torch.constant.bool true
// CHECK-NEXT: %false = torch.constant.bool false
// CHECK-NEXT: %str = torch.constant.str "abc\0A"
// CHECK-NEXT: %cpu = torch.constant.device "cpu"
// CHECK-NEXT: %none = torch.constant.none
// CHECK-NEXT: %number = torch.constant.number 1 : i64
// CHECK-NEXT: %0 = torch.vtensor.literal(dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>) : !torch.vtensor<[2],f32>
// CHECK-NEXT: %1 = torch.tensor.literal(dense<0.000000e+00> : tensor<3xf32>) : !torch.tensor<[3],f32>
// CHECK-NEXT: %2 = torch.prim.ListConstruct %int0, %int-1 : (!torch.int, !torch.int) -> !torch.list<int>
// CHECK-NEXT: %3 = torch.prim.ListConstruct  : () -> !torch.list<int>
// CHECK-NEXT: %4 = torch.prim.TupleConstruct %int0, %float1.000000e00 : !torch.int, !torch.float -> !torch.tuple<int, float>
// CHECK-NEXT: %5:2 = torch.prim.TupleUnpack %4 : !torch.tuple<int, float> -> !torch.int, !torch.float
// CHECK-NEXT: %6:2 = torch.prim.ListUnpack %2 : !torch.list<int> -> !torch.int, !torch.int
// CHECK-NEXT: %7 = torch.aten.view %arg0, %2 : !torch.vtensor<[4,3],f32>, !torch.list<int> -> !torch.vtensor<[3,4],f32>
// CHECK-NEXT: %8 = torch.copy.to_vtensor %arg1 : !torch.vtensor<[4,3],f32>
// CHECK-NEXT: %9 = torch.copy.to_tensor %8 : !torch.tensor<[4,3],f32>
// CHECK-NEXT: torch.overwrite.tensor.contents %8 overwrites %arg1 : !torch.vtensor<[4,3],f32>, !torch.tensor<[4,3],f32>
// CHECK-NEXT: %10 = torch.tensor_static_info_cast %arg0 : !torch.vtensor<[4,3],f32> to !torch.vtensor<*,f32>
// CHECK-NEXT: %11 = torch.derefine %int0 : !torch.int to !torch.optional<int>
// CHECK-NEXT: %12 = torch.operator "aten.foo.bar"(%arg0, %int0) : (!torch.vtensor<[4,3],f32>, !torch.int) -> !torch.vtensor<[4,3],f32>
// CHECK-NEXT: torch.runtime.assert %arg2, "must hold"
// CHECK-NEXT: %13 = torch_c.to_builtin_tensor %arg0 : !torch.vtensor<[4,3],f32> -> tensor<4x3xf32>
// CHECK-NEXT: %14 = torch_c.from_builtin_tensor %13 : tensor<4x3xf32> -> !torch.vtensor<[4,3],f32>
// CHECK-NEXT: %15 = torch_c.to_i64 %int0{{$}}
// CHECK-NEXT: %16 = torch_c.from_i64 %15{{$}}
// CHECK-NEXT: %17 = torch.aten.add.Tensor %arg0, %14, %int0 {foo} : !torch.vtensor<[4,3],f32>, !torch.vtensor<[4,3],f32>, !torch.int -> !torch.vtensor<[4,3],f32>
// CHECK-NEXT: return %17 : !torch.vtensor<[4,3],f32>
// CHECK-NEXT: }
// CHECK-NEXT: }

func.func @types(%arg0: !torch.vtensor<[4,3],f32>, %arg1: !torch.vtensor<[],f32>, %arg2: !torch.vtensor<[?,3],si64>, %arg3: !torch.vtensor<*,unk>, %arg4: !torch.vtensor, %arg5: !torch.tensor<[2],f32>, %arg6: !torch.tensor, %arg7: !torch.int, %arg8: !torch.float, %arg9: !torch.bool, %arg10: !torch.none, %arg11: !torch.str, %arg12: !torch.Device, %arg13: !torch.number, %arg14: !torch.Generator, %arg15: !torch.any, %arg16: !torch.list<int>, %arg17: !torch.list<!torch.vtensor<[2],f32>>, %arg18: !torch.optional<list<int>>, %arg19: !torch.tuple<int, float>, %arg20: !torch.union<float, int>, %arg21: !torch.vtensor<[2],unk>, %arg22: !torch.vtensor<*,f32>, %arg23: !torch.list<optional<vtensor>>) {
  return
}
func.func @ops(%arg0: !torch.vtensor<[4,3],f32>, %arg1: !torch.tensor<[4,3],f32>, %arg2: !torch.bool) -> !torch.vtensor<[4,3],f32> {
  %int0 = torch.constant.int 0
  %int-1 = torch.constant.int -1
  %float1.000000e00 = torch.constant.float 1.000000e+00
  %float-2.500000e-01 = torch.constant.float -2.500000e-01
  %true = torch.constant.bool true
  %false = torch.constant.bool false
  %str = torch.constant.str "abc\0A"
  %cpu = torch.constant.device "cpu"
  %none = torch.constant.none
  %number = torch.constant.number 1 : i64
  %0 = torch.vtensor.literal(dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>) : !torch.vtensor<[2],f32>
  %1 = torch.tensor.literal(dense<0.000000e+00> : tensor<3xf32>) : !torch.tensor<[3],f32>
  %2 = torch.prim.ListConstruct %int0, %int-1 : (!torch.int, !torch.int) -> !torch.list<int>
  %3 = torch.prim.ListConstruct  : () -> !torch.list<int>
  %4 = torch.prim.TupleConstruct %int0, %float1.000000e00 : !torch.int, !torch.float -> !torch.tuple<int, float>
  %5:2 = torch.prim.TupleUnpack %4 : !torch.tuple<int, float> -> !torch.int, !torch.float
  %6:2 = torch.prim.ListUnpack %2 : !torch.list<int> -> !torch.int, !torch.int
  %7 = torch.aten.view %arg0, %2 : !torch.vtensor<[4,3],f32>, !torch.list<int> -> !torch.vtensor<[3,4],f32>
  %8 = torch.copy.to_vtensor %arg1 : !torch.vtensor<[4,3],f32>
  %9 = torch.copy.to_tensor %8 : !torch.tensor<[4,3],f32>
  torch.overwrite.tensor.contents %8 overwrites %arg1 : !torch.vtensor<[4,3],f32>, !torch.tensor<[4,3],f32>
  %10 = torch.tensor_static_info_cast %arg0 : !torch.vtensor<[4,3],f32> to !torch.vtensor<*,f32>
  %11 = torch.derefine %int0 : !torch.int to !torch.optional<int>
  %12 = torch.operator "aten.foo.bar"(%arg0, %int0) : (!torch.vtensor<[4,3],f32>, !torch.int) -> !torch.vtensor<[4,3],f32>
  torch.runtime.assert %arg2, "must hold"
  %13 = torch_c.to_builtin_tensor %arg0 : !torch.vtensor<[4,3],f32> -> tensor<4x3xf32>
  %14 = torch_c.from_builtin_tensor %13 : tensor<4x3xf32> -> !torch.vtensor<[4,3],f32>
  %15 = torch_c.to_i64 %int0
  %16 = torch_c.from_i64 %15
  %17 = torch.aten.add.Tensor %arg0, %14, %int0 {foo} : !torch.vtensor<[4,3],f32>, !torch.vtensor<[4,3],f32>, !torch.int -> !torch.vtensor<[4,3],f32>
  return %17 : !torch.vtensor<[4,3],f32>
}
