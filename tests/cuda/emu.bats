#!/usr/bin/env bats
# codegen --target=cuda's kernels, run on the CPU in CUDA's execution model
# (tests/cuda/emu.c: a pthread per GPU thread, real barriers, shared
# memory poisoned with NaNs) and compared with the CPU pipeline's results.
# emu.py says how; tests/cuda/emu/*.mlir are the functions.

load helpers

emu() {
  "$PY" -c "import numpy" 2>/dev/null || skip "$PY cannot import numpy"
  command -v llc-16 >/dev/null || skip "llc-16 (Debian's llvm-16) is not installed"
  run "$PY" tests/cuda/emu.py "$@" "$T/emu"
  echo "$output"
  [ "$status" -eq 0 ]
}

@test "cuda emulated: mm + bias + relu, one tiled kernel" { emu --tiled tests/cuda/emu/mm_bias_relu.mlir; }
@test "cuda emulated: bmm, tiled with a batch dim" { emu --tiled tests/cuda/emu/bmm.mlir; }
@test "cuda emulated: conv2d, stride 2, padding 1, bias, tiled" { emu --tiled tests/cuda/emu/conv.mlir; }
@test "cuda emulated: linear, the weight read transposed, tiled" { emu --tiled tests/cuda/emu/linear.mlir; }
@test "cuda emulated: small mm, a thread per output" { emu tests/cuda/emu/small_mm.mlir; }
@test "cuda emulated: long row sums, a block per output (shuffles)" { emu tests/cuda/emu/sum_rows.mlir; }
@test "cuda emulated: a wrong input makes the check fail" {
  emu --tiled --negate-input tests/cuda/emu/mm_bias_relu.mlir
  [[ "$output" == *"max |cuda - cpu|"* ]]
}
