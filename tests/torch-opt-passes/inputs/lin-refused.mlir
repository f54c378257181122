// Ops of decompose_lin.c whose operands do not allow the decomposition
// stay, and the contract check names them: det of a dynamic n, det whose
// LU result is used, linspace past one thread's share (32768 steps),
// diagonal of one dim twice, pixel_shuffle of channels the factor does not
// divide.  An integer addbmm with a fractional scale is not refused: eager
// truncates the scale, and so does the decomposition.
// CHECK: lin-refused.mlir:[[@LINE+14]]:10: error: 'aten._linalg_det' is not supported by the backend contract
// CHECK: lin-refused.mlir:[[@LINE+14]]:10: error: 'aten._linalg_det' is not supported by the backend contract
// CHECK: lin-refused.mlir:[[@LINE+14]]:8: error: 'aten.linspace' is not supported by the backend contract
// CHECK: lin-refused.mlir:[[@LINE+14]]:8: error: 'aten.diagonal' is not supported by the backend contract
// CHECK: lin-refused.mlir:[[@LINE+14]]:8: error: 'aten.pixel_shuffle' is not supported by the backend contract
// CHECK-NOT: addbmm
func.func @refused(%a: !torch.vtensor<[2,?,?],f32>, %b: !torch.vtensor<[3,3],f32>, %c: !torch.vtensor<[1,6,2,2],f32>, %i: !torch.vtensor<[2,2,2],si64>, %s: !torch.vtensor<[2,2],si64>) -> (!torch.vtensor<[2],f32>, !torch.vtensor<[3,3],f32>, !torch.vtensor<[40000],f32>, !torch.vtensor<[3],f32>, !torch.vtensor<[1,1,4,4],f32>, !torch.vtensor<[2,2],si64>) {
  %int0 = torch.constant.int 0
  %int2 = torch.constant.int 2
  %int40000 = torch.constant.int 40000
  %float0 = torch.constant.float 0.0
  %float1 = torch.constant.float 1.0
  %float0.5 = torch.constant.float 0.5
  %none = torch.constant.none
  %0:3 = torch.aten._linalg_det %a : !torch.vtensor<[2,?,?],f32> -> !torch.vtensor<[2],f32>, !torch.vtensor<[2,?,?],f32>, !torch.vtensor<[2,?],si32>
  %1:3 = torch.aten._linalg_det %b : !torch.vtensor<[3,3],f32> -> !torch.vtensor<[],f32>, !torch.vtensor<[3,3],f32>, !torch.vtensor<[3],si32>
  %2 = torch.aten.linspace %float0, %float1, %int40000, %none, %none, %none, %none : !torch.float, !torch.float, !torch.int, !torch.none, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[40000],f32>
  %3 = torch.aten.diagonal %b, %int0, %int0, %int0 : !torch.vtensor<[3,3],f32>, !torch.int, !torch.int, !torch.int -> !torch.vtensor<[3],f32>
  %4 = torch.aten.pixel_shuffle %c, %int2 : !torch.vtensor<[1,6,2,2],f32>, !torch.int -> !torch.vtensor<[1,1,4,4],f32>
  %5 = torch.aten.addbmm %s, %i, %i, %float0.5, %float1 : !torch.vtensor<[2,2],si64>, !torch.vtensor<[2,2,2],si64>, !torch.vtensor<[2,2,2],si64>, !torch.float, !torch.float -> !torch.vtensor<[2,2],si64>
  return %0#0, %1#1, %2, %3, %4, %5 : !torch.vtensor<[2],f32>, !torch.vtensor<[3,3],f32>, !torch.vtensor<[40000],f32>, !torch.vtensor<[3],f32>, !torch.vtensor<[1,1,4,4],f32>, !torch.vtensor<[2,2],si64>
}
