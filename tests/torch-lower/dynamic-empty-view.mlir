// RUN: torch-lower %s | FileCheck %s
// RUN: torch-lower %s | mlir-opt-16 > /dev/null
// view(-1) of a [?, 0] tensor (the fuzz-diff --dynamic-batch case that
// crashed torch-lower's own check): the collapse of a group with a `?` is
// `?`, as upstream MLIR has it, then cast to the static [0].
// CHECK: %[[C:.*]] = tensor.collapse_shape %arg0 {{\[\[}}0, 1]] : tensor<?x0xi32> into tensor<?xi32>
// CHECK: tensor.cast %[[C]] : tensor<?xi32> to tensor<0xi32>
func.func @main(%arg0: !torch.vtensor<[?,0],si32>) -> !torch.vtensor<[0],si32> attributes {torch.assume_strict_symbolic_shapes} {
  %int-1 = torch.constant.int -1
  %0 = torch.symbolic_int "batch" {min_val = 0, max_val = 9223372036854775807} : !torch.int
  torch.bind_symbolic_shape %arg0, [%0], affine_map<()[s0] -> (s0, 0)> : !torch.vtensor<[?,0],si32>
  %1 = torch.prim.ListConstruct %int-1 : (!torch.int) -> !torch.list<int>
  %2 = torch.aten.view %arg0, %1 : !torch.vtensor<[?,0],si32>, !torch.list<int> -> !torch.vtensor<[0],si32>
  return %2 : !torch.vtensor<[0],si32>
}
