#!/usr/bin/env bats
# torch-lower --mlir-dialect-version=20 (current MLIR's syntax: tensor.pad,
# expand_shape's output_shape, the named convs MLIR 16 lacks) through
# codegen too: the convolution and pooling fixtures against PyTorch's
# outputs (tests/e2e/ops.py), and resnet18.

load helpers

@test "convolution and pooling fixtures, lowered for MLIR 20, through codegen and vmrun" {
  need_numpy
  run env TORCH_LOWER_FLAGS=--mlir-dialect-version=20 "$PY" tests/e2e/ops.py convolution max_pool2d avg_pool2d max_pool2d_with_indices
  echo "$output"
  [ "$status" -eq 0 ]
  bin/torch-lower --mlir-dialect-version=20 tests/torch-lower/ops/convolution.mlir | grep -q 'linalg.conv_2d_ngchw_gfchw'
  bin/torch-lower --mlir-dialect-version=20 tests/torch-lower/ops/max_pool2d.mlir | grep -q 'tensor.pad'
}

@test "codegen refuses a tensor.pad whose value is computed in its region" {
  cat > "$T/pad.mlir" <<'IR'
func.func @main(%arg0: tensor<2x3xf32>) -> tensor<4x5xf32> {
  %0 = tensor.pad %arg0 low[1, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    %c = arith.constant 1.0 : f32
    tensor.yield %c : f32
  } : tensor<2x3xf32> to tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}
IR
  run bin/codegen --target=cpu "$T/pad.mlir" -o "$T/pad.fxvm"
  [ "$status" -eq 1 ]
  [[ "$output" == *"codegen: tensor.pad needs static sizes and a padding value defined outside its region"* ]]
}

@test "model resnet18, lowered for MLIR 20, through codegen matches PyTorch" {
  need_torch vision
  local f
  "$PY" tools/fx-export/fx-export tests/e2e/e2e_models.py:resnet18 -o "$T/m.json"
  bin/fx-import "$T/m.json" | bin/torch-opt | bin/torch-lower --mlir-dialect-version=20 |
    bin/codegen --target=cpu | bin/vmpack -o "$T/m.vmfb"
  bin/vmrun "$T/m.vmfb" --input=@tests/e2e/expected/resnet18.in0.npy --output=@"$T/out0.npy"
  run "$PY" tests/e2e/model.py check resnet18 "$T"
  echo "$output"
  [ "$status" -eq 0 ]
}
