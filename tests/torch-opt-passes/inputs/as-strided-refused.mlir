// as_strided that reads past its operand's last element is refused with
// the reason, once, and torch-opt stops there.
// CHECK: as-strided-refused.mlir:[[@LINE+8]]:{{.*}}: error: 'aten.as_strided' addresses past the last element of its operand
// CHECK-NOT: error
func.func @past_the_end(%arg0: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[3,3],f32> {
  %int1 = torch.constant.int 1
  %int3 = torch.constant.int 3
  %none = torch.constant.none
  %s = torch.prim.ListConstruct %int3, %int3 : (!torch.int, !torch.int) -> !torch.list<int>
  %t = torch.prim.ListConstruct %int3, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.as_strided %arg0, %s, %t, %none : !torch.vtensor<[2,3],f32>, !torch.list<int>, !torch.list<int>, !torch.none -> !torch.vtensor<[3,3],f32>
  return %0 : !torch.vtensor<[3,3],f32>
}
