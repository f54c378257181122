#!/usr/bin/env bats
# CUDA modules without a GPU: tests/cuda/emu.py builds, for each module, a
# libcuda.so.1 (tests/cuda/fakecuda.c) that runs its kernels on the CPU in
# CUDA's execution model (a pthread per GPU thread, real barriers, warp
# shuffles and mma.sync, memory poisoned with NaNs), and runs the module
# with vmrun --device=cuda.  Op functions (tests/cuda/emu/*.mlir) are
# checked against the CPU pipeline, models against PyTorch's outputs
# (tests/e2e/expected, as the e2e tests).

load helpers

need_emu() {
  "$PY" -c "import numpy" 2>/dev/null || skip "$PY cannot import numpy"
  command -v llc-16 >/dev/null || skip "llc-16 (Debian's llvm-16) is not installed"
}

emu_op() {
  need_emu
  run "$PY" tests/cuda/emu.py op "$@" "$T/emu"
  echo "$output"
  [ "$status" -eq 0 ]
}

# emu_model NAME: as tests/e2e/models.bats, the CUDA module run emulated
emu_model() {
  ci_san_pass
  need_emu
  "$PY" -c "import torch" 2>/dev/null || skip "$PY cannot import torch"
  "$PY" tools/fx-export/fx-export "tests/e2e/e2e_models.py:$1" -o "$T/m.json"
  bin/fx-import "$T/m.json" | bin/torch-opt | bin/torch-lower -o "$T/l.mlir"
  "$PY" tests/cuda/emu.py run "$T/l.mlir" "$T" tests/e2e/expected/"$1".in*.npy
  run "$PY" tests/e2e/model.py check "$1" "$T"
  echo "$output"
  [ "$status" -eq 0 ]
}

@test "cuda emulated: mm + bias + relu, one tiled kernel" { emu_op --tiled tests/cuda/emu/mm_bias_relu.mlir; }
@test "cuda emulated: bmm, tiled with a batch dim" { emu_op --tiled tests/cuda/emu/bmm.mlir; }
@test "cuda emulated: conv2d, stride 2, padding 1, bias, tiled" { emu_op --tiled tests/cuda/emu/conv.mlir; }
@test "cuda emulated: linear, the weight read transposed, tiled" { emu_op --tiled tests/cuda/emu/linear.mlir; }
@test "cuda emulated: mm in f16 on tensor cores (mma.sync)" { emu_op --tiled tests/cuda/emu/mm_f16.mlir; }
@test "cuda emulated: bmm in f16 + residual on tensor cores" { emu_op --tiled tests/cuda/emu/bmm_f16.mlir; }
@test "cuda emulated: small mm, a thread per output" { emu_op tests/cuda/emu/small_mm.mlir; }
@test "cuda emulated: long row sums, a block per output (shuffles)" { emu_op tests/cuda/emu/sum_rows.mlir; }
@test "cuda emulated: mm with K = 0 and a residual add (an empty reduction)" { emu_op tests/cuda/emu/mm_k0.mlir; }
@test "cuda emulated: a sum over a dim of extent 1" { emu_op tests/cuda/emu/sum_size1.mlir; }
@test "cuda emulated: a wrong input makes the check fail" {
  emu_op --tiled --negate-input tests/cuda/emu/mm_bias_relu.mlir
  [[ "$output" == *"max |cuda - cpu|"* ]]
}
@test "cuda emulated: vmrun --device=cuda --benchmark and --profile (CUDA events)" {
  emu_op --tiled tests/cuda/emu/mm_bias_relu.mlir
  LD_LIBRARY_PATH="$T/emu/fake" run bin/vmrun "$T/emu/cuda.vmfb" --device=cuda \
    --input=@"$T/emu/in0.npy" --input=@"$T/emu/in1.npy" --input=@"$T/emu/in2.npy" --benchmark=2 --profile
  echo "$output"
  [ "$status" -eq 0 ]
  [[ "$output" == *"@main: 2 runs after 1 warm-up"* ]]
  [[ "$output" == *"@main: 1 kernels, "* ]]
  [[ "$output" =~ [0-9.]+\ +100\.0%\ +1\ +dispatch_0 ]]
}
@test "cuda emulated: model linear matches PyTorch" { emu_model linear; }
@test "cuda emulated: model mlp matches PyTorch" { emu_model mlp; }
@test "cuda emulated: model transformer_encoder_layer matches PyTorch" { emu_model transformer_encoder_layer; }
@test "cuda emulated: model conv_paths matches PyTorch" { emu_model conv_paths; }
@test "cuda emulated: model pack_lanes matches PyTorch" { emu_model pack_lanes; }
@test "cuda emulated: model window_loops matches PyTorch" { emu_model window_loops; }

# emu_matmul MLIR N X Y: MLIR run emulated on X and Y into $T/oN; its
# result must be X @ Y, as numpy computes it
emu_matmul() {
  mkdir -p "$T/o$2"
  "$PY" tests/cuda/emu.py run "$1" "$T/o$2" "$3" "$4" > /dev/null
  run "$PY" -c "
import numpy as np
x = np.load('$3'); y = np.load('$4'); r = np.load('$T/o$2/out0.npy')
assert r.shape == (x @ y).shape, r.shape
assert np.allclose(r, x @ y, rtol=1e-4, atol=1e-5), abs(r - x @ y).max()
print('$2 ok')"
  echo "$output"
  [ "$status" -eq 0 ]
}

@test "cuda emulated: a softmax over a dynamic length (padded functions, the length bound as a buffer) matches numpy at lengths 1, 7, 17 and 64" {
  need_emu
  for n in 1 7 17 64; do
    "$PY" -c "import numpy as np; np.save('$T/x$n.npy', np.random.default_rng($n).standard_normal((1, $n)).astype(np.float32))"
    mkdir -p "$T/o$n"
    "$PY" tests/cuda/emu.py run tests/cuda/emu/length_softmax.mlir "$T/o$n" "$T/x$n.npy" > /dev/null
    run "$PY" -c "
import numpy as np
x = np.load('$T/x$n.npy'); y = np.load('$T/o$n/out0.npy')
e = np.exp(x - x.max()); r = e / e.sum()
assert y.shape == r.shape, (y.shape, r.shape)
assert np.allclose(y, r, rtol=1e-5, atol=1e-7), abs(y - r).max()
print('$n ok')"
    echo "$output"
    [ "$status" -eq 0 ]
  done
}

@test "cuda emulated: a square over a dynamic length: each launch's blocks sized by the call's length, its points stopping there" {
  need_emu
  bin/codegen --target=cuda --dump-dispatches tests/cuda/emu/length_square.mlir > "$T/d.txt"
  grep -q "its workgroups along x: ceil((1 \* n + 0) / 256), at most 256" "$T/d.txt"
  # n: the blocks launched (256 threads each), n / 256 rounded up
  for nb in 5:1 256:1 257:2 16385:65 65535:256; do
    n=${nb%:*}
    "$PY" -c "import numpy as np; np.save('$T/x$n.npy', np.random.default_rng($n).standard_normal((1, $n)).astype(np.float32))"
    mkdir -p "$T/o$n"
    rm -f "$T/launches"
    FAKECUDA_LAUNCHES="$T/launches" "$PY" tests/cuda/emu.py run tests/cuda/emu/length_square.mlir "$T/o$n" "$T/x$n.npy" > /dev/null
    cat "$T/launches"
    [ "$(cut -d' ' -f2 "$T/launches")" = "${nb#*:}" ]
    run "$PY" -c "
import numpy as np
x = np.load('$T/x$n.npy'); y = np.load('$T/o$n/out0.npy')
assert y.shape == x.shape and np.array_equal(y, x * x), abs(y - x * x).max()
print('$n ok')"
    echo "$output"
    [ "$status" -eq 0 ]
  done
}

@test "cuda emulated: a tiled matmul over a dynamic length of rows matches numpy at 5 to 256 rows; tiles past the call's rows are skipped" {
  need_emu
  "$PY" -c "import numpy as np; np.save('$T/w.npy', np.random.default_rng(1).standard_normal((32, 80)).astype(np.float32))"
  for n in 5 16 17 70 256; do
    "$PY" -c "import numpy as np; np.save('$T/x$n.npy', np.random.default_rng($n).standard_normal((1, $n, 32)).astype(np.float32))"
    emu_matmul tests/cuda/emu/length_matmul.mlir $n "$T/x$n.npy" "$T/w.npy"
  done
  # the padded function for 256 rows called at 70 itself: rows of the two
  # 64-row tiles from 128 on stay as the fake device's memory starts (NaN)
  "$PY" -c "
import numpy as np
p = np.zeros((1, 256, 32), np.float32); p[:, :70] = np.load('$T/x70.npy'); np.save('$T/p70.npy', p)"
  LD_LIBRARY_PATH="$T/o70/fake" bin/vmrun "$T/o70/cuda.vmfb" --device=cuda --function=main.seq \
    --input=@"$T/p70.npy" --input=@"$T/w.npy" --input=1xi64=70 --output=@"$T/y.npy"
  run "$PY" -c "
import numpy as np
y = np.load('$T/y.npy')[0]; x = np.load('$T/x70.npy')[0]; w = np.load('$T/w.npy')
assert np.isnan(y[128:]).all() and not np.isnan(y[:128]).any()
assert np.allclose(y[:70], x @ w, rtol=1e-4, atol=1e-5)
print('skipped')"
  echo "$output"
  [ "$output" = skipped ]
}

@test "cuda emulated: a tiled matmul over a dynamic batch (the chunk of 8 bounded at the call's items) matches numpy at batches 1, 3, 8 and 15" {
  need_emu
  "$PY" -c "import numpy as np; np.save('$T/w.npy', np.random.default_rng(1).standard_normal((32, 80)).astype(np.float32))"
  for n in 1 3 8 15; do
    "$PY" -c "import numpy as np; np.save('$T/x$n.npy', np.random.default_rng($n).standard_normal(($n, 16, 32)).astype(np.float32))"
    emu_matmul tests/cuda/emu/batch_matmul.mlir $n "$T/x$n.npy" "$T/w.npy"
  done
}

@test "cuda emulated: a tiled batch matmul over a dynamic batch launches the tiles of the call's items only, and matches numpy" {
  need_emu
  # 2 tiles an item (16 x 80 outputs): batch 3 one bounded call of 6
  # blocks, 8 one of 16, 15 one of 16 and a bounded one of 14
  for nb in 3:6 8:16 15:16,14; do
    n=${nb%:*}
    "$PY" -c "
import numpy as np
r = np.random.default_rng($n)
np.save('$T/x$n.npy', r.standard_normal(($n, 16, 32)).astype(np.float32))
np.save('$T/y$n.npy', r.standard_normal(($n, 32, 80)).astype(np.float32))"
    rm -f "$T/launches"
    FAKECUDA_LAUNCHES="$T/launches" emu_matmul tests/cuda/emu/batch_bmm.mlir $n "$T/x$n.npy" "$T/y$n.npy"
    cat "$T/launches"
    [ "$(cut -d' ' -f2 "$T/launches" | paste -sd,)" = "${nb#*:}" ]
  done
}
