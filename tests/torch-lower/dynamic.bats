#!/usr/bin/env bats
# Dynamic shapes through the front end: a model exported once with
# symbolic dims (fx-export --dynamic under PyTorch 2) goes through
# fx-import | torch-opt | torch-lower, and its linalg is run by upstream
# MLIR (mlir-opt-16 lowers it to LLVM, mlir-cpu-runner-16 runs it) at
# several sizes against PyTorch eager (dynrun.py).  Nothing of codegen runs:
# this checks torch-lower's dynamic linalg and its shape checks on their own.
# The tests at the end take the pipe on (dynrun.py --vm): codegen compiles
# a dynamic batch once as chunks and a dynamic length once as functions
# padded to fixed lengths of its range, vmrun runs any batch and length
# in range.

setup() {
  T=$BATS_TEST_TMPDIR
  PY2=${TORCH2_PYTHON:-$PWD/.venv/bin/python}
  [ -x "$PY2" ] || skip "no PyTorch 2 venv ($PY2): run scripts/setup.sh"
  command -v mlir-cpu-runner-16 >/dev/null || skip "mlir-cpu-runner-16 is not installed"
}

dynrun() {
  run "$PY2" tests/torch-lower/dynrun.py "tests/torch-lower/dynmodels.py:$@"
  echo "$output"
  [ "$status" -eq 0 ]
}

@test "an MLP with a dynamic batch matches eager at batch 0, 1, 3 and 17" {
  dynrun mlp --input 2x8xf32 --dynamic 0:0:batch \
    --shape 0x8 --shape 1x8 --shape 3x8 --shape 17x8
  [ "$(grep -c ': ok$' <<< "$output")" -eq 4 ]
}

@test "a TransformerEncoderLayer with dynamic batch and length matches eager at (1,7), (2,128), (4,200)" {
  dynrun encoder --input 2x7x16xf32 --dynamic 0:0:batch --dynamic 0:1:seq \
    --shape 1x7x16 --shape 2x128x16 --shape 4x200x16
  [ "$(grep -c ': ok$' <<< "$output")" -eq 3 ]
}

@test "a GPT-2 block (causal attention) with dynamic batch and length matches eager at (1,7), (2,128), (4,200)" {
  dynrun gpt2 --input 2x7x16xf32 --dynamic 0:0:batch --dynamic 0:1:seq \
    --shape 1x7x16 --shape 2x128x16 --shape 4x200x16
  [ "$(grep -c ': ok$' <<< "$output")" -eq 3 ]
}

@test "a batch outside the declared range aborts at the module's range check" {
  dynrun mlp --input 2x8xf32 --dynamic 0:0:batch=2..8 --shape 2x8 --shape 8x8
  dynrun mlp --input 2x8xf32 --dynamic 0:0:batch=2..8 --shape 1x8 --shape 9x8 \
    --expect-fail "input 0: dimension 0 (batch) must be in [2, 8]"
  [ "$(grep -c ': aborts: ' <<< "$output")" -eq 2 ]
}

@test "inputs that disagree on a shared symbol abort at the relation check" {
  dynrun pair --input 3x8xf32 --input 3x8xf32 --dynamic 0:0:batch --dynamic 1:0:batch \
    --shape 2x8,2x8 --shape 5x8,5x8
  dynrun pair --input 3x8xf32 --input 3x8xf32 --dynamic 0:0:batch --dynamic 1:0:batch \
    --shape 2x8,3x8 --expect-fail "input 1: dimension 0 must equal batch"
}

@test "a CNN (conv, depthwise conv, batch norm, pooling, residual) with a dynamic batch matches eager at batch 1, 3 and 8" {
  dynrun cnn --input 2x3x16x16xf32 --dynamic 0:0:batch \
    --shape 1x3x16x16 --shape 3x3x16x16 --shape 8x3x16x16
  [ "$(grep -c ': ok$' <<< "$output")" -eq 3 ]
}

@test "means over dynamic dims (a global average pool of any image size) match eager" {
  dynrun pool --input 2x3x5x6xf32 --dynamic 0:0:batch --dynamic 0:2:h --dynamic 0:3:w \
    --shape 1x3x5x6 --shape 2x3x7x9 --shape 3x3x1x4
  [ "$(grep -c ': ok$' <<< "$output")" -eq 3 ]
}

dynrun_vm() {
  run "$PY2" tests/torch-lower/dynrun.py --vm "$@"
  echo "$output"
  [ "$status" -eq 0 ]
}

# lower_refuses MODEL INPUT DYNAMIC MSG: MODEL exported with one
# --dynamic is refused by torch-lower with MSG
lower_refuses() {
  "$PY2" tools/fx-export/fx-export "tests/torch-lower/dynmodels.py:$1" --input "$2" \
    --dynamic "$3" -o "$T/m.json"
  run sh -c "bin/fx-import '$T/m.json' | bin/torch-opt | bin/torch-lower"
  echo "$output"
  [ "$status" -ne 0 ]
  [[ "$output" == *"$4"* ]]
}

# batch_length MODEL INPUT UP VM: MODEL with a dynamic batch and length
# (1..64) matches eager at the shapes UP by upstream MLIR and at the
# shapes VM by the pipe (space-separated)
batch_length() {
  local up=() vm=() s
  for s in $3; do up+=(--shape "$s"); done
  for s in $4; do vm+=(--shape "$s"); done
  dynrun "$1" --input "$2" --dynamic 0:0:batch --dynamic 0:1:seq=1..64 "${up[@]}"
  [ "$(grep -c ': ok$' <<< "$output")" -eq $(( ${#up[@]} / 2 )) ]
  dynrun_vm "tests/torch-lower/dynmodels.py:$1" --input "$2" --dynamic 0:0:batch \
    --dynamic 0:1:seq=1..64 "${vm[@]}"
  [ "$(grep -c ': ok$' <<< "$output")" -eq $(( ${#vm[@]} / 2 )) ]
}

@test "a constant pad of an image's height and width under a dynamic batch (tensor.pad) matches eager, by upstream MLIR and by the pipe" {
  dynrun pad_conv --input 2x3x8x8xf32 --dynamic 0:0:batch=1..64 --shape 1x3x8x8 --shape 5x3x8x8
  [ "$(grep -c ': ok$' <<< "$output")" -eq 2 ]
  dynrun_vm tests/torch-lower/dynmodels.py:pad_conv --input 2x3x8x8xf32 --dynamic 0:0:batch=1..64 \
    --shape 1x3x8x8 --shape 5x3x8x8 --shape 17x3x8x8
  [ "$(grep -c ': ok$' <<< "$output")" -eq 3 ]
  # a pad of the dynamic batch itself: refused, naming the dimension
  lower_refuses pad_batch 2x3x8x8xf32 0:0:batch=1..64 \
    "cannot lower 'torch.aten.constant_pad_nd' with dynamic shapes: it pads dimension 0 by (1, 1), which is dynamic or cut"
}

@test "a flip of a static dimension under a dynamic batch and length matches eager, by upstream MLIR and by the pipe; a flip of the length is refused" {
  batch_length flip_last 2x7x5xf32 "1x7x5 3x40x5" "1x7x5 3x40x5 2x64x5"
  lower_refuses flip_length 2x7x5xf32 0:1:seq=1..64 \
    "cannot lower 'torch.aten.flip' with dynamic shapes: it flips dimension 1, which is dynamic"
}

@test "advanced indexing of static dimensions (index.Tensor, a negative index too) under a dynamic batch and length matches eager, by upstream MLIR and by the pipe; indexing the length is refused by codegen" {
  batch_length index_features 2x7x16xf32 "1x7x16 3x40x16" "1x7x16 3x40x16 9x1x16 2x64x16"
  run "$PY2" tests/torch-lower/dynrun.py --vm tests/torch-lower/dynmodels.py:index_length \
    --input 2x7x16xf32 --dynamic 0:0:batch --dynamic 0:1:seq=3..64 --shape 1x7x16
  echo "$output"
  [ "$status" -ne 0 ]
  [[ "$output" == *"error: codegen: a dynamic length is compiled only where every tensor keeps its elements in place at every length: a body reads a tensor of the length's size from outside"* ]]
}

@test "a cumsum along the length and along a static dimension under a dynamic batch matches eager, by upstream MLIR and by the pipe" {
  batch_length cumsum 2x7x5xf32 "1x7x5 3x40x5" "1x7x5 3x40x5 2x1x5 1x64x5 2x17x5"
}

@test "a repeat of static dimensions and a new leading one under a dynamic batch and length matches eager, by upstream MLIR and by the pipe; a repeat of the length is refused" {
  batch_length repeat 2x7x4xf32 "1x7x4 3x40x4" "1x7x4 3x40x4 9x1x4 2x64x4"
  # a static size 0 beside the batch: an empty result (no `mod 0` map)
  dynrun_vm tests/torch-lower/dynmodels.py:repeat_empty --input 2x0x3xf32 --dynamic 0:0:batch \
    --shape 1x0x3 --shape 5x0x3
  [ "$(grep -c ': ok$' <<< "$output")" -eq 2 ]
  lower_refuses repeat_length 2x7x4xf32 0:1:seq=1..64 \
    "cannot lower 'torch.aten.repeat' with dynamic shapes: it repeats dimension 1, which is dynamic"
}

@test "argmax, argmin and max.dim along the length and along a static dimension under a dynamic batch match eager, by upstream MLIR and by the pipe" {
  batch_length argmax 2x7x8xf32 "1x7x8 3x40x8" "1x7x8 3x40x8 9x1x8 2x64x8 1x17x8"
}

@test "token ids of a dynamic length through an embedding, learned positions and an encoder layer match eager" {
  dynrun_vm tests/torch-lower/dynmodels.py:tokens --high 100 --input 2x7xi64 --dynamic 0:0:batch \
    --dynamic 0:1:seq=1..64 --shape 1x7 --shape 3x40 --shape 2x1 --shape 1x64 --shape 4x17
  [ "$(grep -c ': ok$' <<< "$output")" -eq 5 ]
}

@test "an index_select of static features from a tensor of dynamic batch and length matches eager, by upstream MLIR and by the pipe" {
  batch_length select 2x7x8xf32 "1x7x8 3x40x8" "1x7x8 3x40x8 2x1x8"
  # the batch alone dynamic: chunks of 8 and 1
  dynrun_vm tests/torch-lower/dynmodels.py:select --input 2x7x8xf32 --dynamic 0:0:batch \
    --shape 1x7x8 --shape 9x7x8 --shape 17x7x8
  [ "$(grep -c ': ok$' <<< "$output")" -eq 3 ]
}

@test "a gather across the batch's items (each item plus the first) is refused by codegen, not chunked" {
  "$PY2" tools/fx-export/fx-export tests/torch-lower/dynmodels.py:first_item --input 2x8xf32 \
    --dynamic 0:0:batch -o "$T/m.json"
  bin/fx-import "$T/m.json" | bin/torch-opt | bin/torch-lower > "$T/l.mlir"
  run bin/codegen "$T/l.mlir" -o "$T/c.out"
  echo "$output"
  [ "$status" -eq 1 ]
  [ ! -e "$T/c.out" ]
  [[ "$output" == *"error: codegen: a dynamic batch is compiled only where every batch item is computed on its own: a region reads the batch"* ]]
}

@test "a small CNN with a dynamic batch through codegen and vmrun matches eager at batch 0, 1, 3, 8, 9 and 17" {
  dynrun_vm tests/torch-lower/dynmodels.py:cnn --input 2x3x16x16xf32 --dynamic 0:0:batch=0..64 \
    --shape 0x3x16x16 --shape 1x3x16x16 --shape 3x3x16x16 --shape 8x3x16x16 \
    --shape 9x3x16x16 --shape 17x3x16x16
  [ "$(grep -c ': ok$' <<< "$output")" -eq 6 ]
  dynrun_vm tests/torch-lower/dynmodels.py:cnn --input 2x3x16x16xf32 --dynamic 0:0:batch=2..8 \
    --shape 1x3x16x16 --shape 9x3x16x16 --expect-fail "input 0: dimension 0 is"
  [ "$(grep -c ': fails: ' <<< "$output")" -eq 2 ]
}

@test "resnet18 with a dynamic batch, compiled once, matches eager at batch 1, 3, 8 and 17" {
  "$PY2" -c 'import torchvision' 2>/dev/null || skip "no torchvision in $PY2"
  dynrun_vm tests/e2e/e2e_models.py:resnet18 --input 2x3x224x224xf32 --dynamic 0:0:batch=1..64 \
    --shape 1x3x224x224 --shape 3x3x224x224 --shape 8x3x224x224 --shape 17x3x224x224
  [ "$(grep -c ': ok$' <<< "$output")" -eq 4 ]
}

@test "mobilenet_v2 with a dynamic batch, compiled once, matches eager at batch 1, 3, 8 and 17" {
  "$PY2" -c 'import torchvision' 2>/dev/null || skip "no torchvision in $PY2"
  dynrun_vm tests/e2e/e2e_models.py:mobilenet_v2 --input 2x3x224x224xf32 --dynamic 0:0:batch=1..64 \
    --shape 1x3x224x224 --shape 3x3x224x224 --shape 8x3x224x224 --shape 17x3x224x224
  [ "$(grep -c ': ok$' <<< "$output")" -eq 4 ]
}

@test "an MLP (with a slice of its input), a GPT-2 block and a TransformerEncoderLayer with a dynamic batch through codegen and vmrun match eager" {
  dynrun_vm tests/torch-lower/dynmodels.py:mlp --input 2x8xf32 --dynamic 0:0:batch \
    --shape 0x8 --shape 1x8 --shape 3x8 --shape 17x8
  [ "$(grep -c ': ok$' <<< "$output")" -eq 4 ]
  dynrun_vm tests/torch-lower/dynmodels.py:gpt2 --input 2x7x16xf32 --dynamic 0:0:batch \
    --shape 1x7x16 --shape 3x7x16 --shape 9x7x16
  [ "$(grep -c ': ok$' <<< "$output")" -eq 3 ]
  dynrun_vm tests/torch-lower/dynmodels.py:encoder --input 2x7x16xf32 --dynamic 0:0:batch \
    --shape 1x7x16 --shape 3x7x16 --shape 17x7x16
  [ "$(grep -c ': ok$' <<< "$output")" -eq 3 ]
}

# codegen pads lengths up to 16, 17 to 64 and 65 to 256 apart: each runs
@test "a GPT-2 block and a TransformerEncoderLayer with dynamic batch and length, compiled once, match eager at (1,7), (2,128), (4,200), (3,1), (1,256), (2,17) and (1,64)" {
  for m in gpt2 encoder; do
    dynrun_vm tests/torch-lower/dynmodels.py:$m --input 2x7x16xf32 --dynamic 0:0:batch \
      --dynamic 0:1:seq=1..256 --shape 1x7x16 --shape 2x128x16 --shape 4x200x16 --shape 3x1x16 \
      --shape 1x256x16 --shape 2x17x16 --shape 1x64x16
    [ "$(grep -c ': ok$' <<< "$output")" -eq 7 ]
  done
}

@test "a BERT-base encoder layer and a GPT-2-sized block with dynamic batch and length, compiled once, match eager at (1,7), (2,128) and (4,200)" {
  for m in bert_base gpt2_base; do
    dynrun_vm tests/torch-lower/dynmodels.py:$m --input 2x7x768xf32 --dynamic 0:0:batch \
      --dynamic 0:1:seq=1..256 --shape 1x7x768 --shape 2x128x768 --shape 4x200x768
    [ "$(grep -c ': ok$' <<< "$output")" -eq 3 ]
  done
}

# two inputs of one length (x [B, n, 16] and a mask [B, n]; the range
# given at one of them): one length, the runtime requiring them equal
@test "an encoder and a masked mean over the tokens, with a mask input of the same length, match eager; inputs that disagree on the length are an error" {
  dynrun_vm tests/torch-lower/dynmodels.py:masked_pool --input 2x7x16xf32 --input 2x7xf32 \
    --dynamic 0:0:batch --dynamic 0:1:seq --dynamic 1:0:batch --dynamic 1:1:seq=1..64 \
    --shape 1x7x16,1x7 --shape 3x17x16,3x17 --shape 2x64x16,2x64 --shape 1x1x16,1x1
  [ "$(grep -c ': ok$' <<< "$output")" -eq 4 ]
  dynrun_vm tests/torch-lower/dynmodels.py:masked_pool --input 2x7x16xf32 --input 2x7xf32 \
    --dynamic 0:0:batch --dynamic 0:1:seq --dynamic 1:0:batch --dynamic 1:1:seq=1..64 \
    --shape 1x7x16,1x8 --shape 3x65x16,3x65 --expect-fail "vmrun: error: input "
  [[ "$output" == *"input 1: dimension 1 is 8, must be 7 (the length 7 of input 0, dimension 1)"* ]]
  [[ "$output" == *"input 0: dimension 1 is 65, must be in [1, 64]"* ]]
}

# PyTorch 2 exports a linear over [n, batch, 768] with a symbolic n as a
# batch matmul against the weight expanded to n copies (and reshaped by
# size lists): codegen must still see one GEMM of n rows against the
# weight, not n matrix-vector products in a loop nest (30x slower)
@test "a dynamic-length BERT-base layer's matmuls and batch matmuls are GEMM micro-kernels whose rows stop at the call's length" {
  "$PY2" tools/fx-export/fx-export tests/torch-lower/dynmodels.py:bert_base --input 2x7x768xf32 \
    --dynamic 0:0:batch --dynamic 0:1:seq=1..64 -o "$T/m.json"
  bin/fx-import "$T/m.json" | bin/torch-opt | bin/torch-lower | bin/codegen --dump-dispatches > "$T/d.txt"
  cat "$T/d.txt" | grep -E "^dispatch|name "
  # both padded functions' (16 and 64): 6 contractions each
  [ "$(grep -A1 'gemm micro-kernel' "$T/d.txt" | grep -Ec 'name dispatch_[0-9]+_(bmm|matmul)')" -ge 12 ]
  ! grep -A1 'loop nest' "$T/d.txt" | grep -E 'name dispatch_[0-9]+_(bmm|matmul)'
  # each GEMM's rows (loop 1) stop at the call's length, not the padded
  # function's: a kernel block without that line is printed
  awk '/^dispatch_/ { if (g && !b) print blk; g = /gemm micro-kernel/; b = 0; blk = $0 }
       /loop 1 of (16|64) stops at ceil\(\(1 \* n \+ 0\) \/ 1\)/ { b = 1 }
       END { if (g && !b) print blk }' "$T/d.txt" > "$T/unbounded.txt"
  cat "$T/unbounded.txt"
  [ ! -s "$T/unbounded.txt" ]
  [ "$(grep -c 'gemm micro-kernel' "$T/d.txt")" -ge 12 ]
}

@test "a length outside the declared range fails in vmrun with a clear error and no result" {
  dynrun_vm tests/torch-lower/dynmodels.py:gpt2 --input 2x7x16xf32 --dynamic 0:0:batch \
    --dynamic 0:1:seq=2..64 --shape 1x1x16 --shape 1x65x16 \
    --expect-fail "input 0: dimension 1 is"
  [ "$(grep -c ': fails: ' <<< "$output")" -eq 2 ]
  [[ "$output" == *"dimension 1 is 65, must be in [2, 64]"* ]]
}

@test "a dynamic length without a declared maximum is refused by codegen with a clear error and no output" {
  "$PY2" tools/fx-export/fx-export tests/torch-lower/dynmodels.py:gpt2 --input 2x7x16xf32 \
    --dynamic 0:0:batch --dynamic 0:1:seq -o "$BATS_TEST_TMPDIR/m.json"
  bin/fx-import "$BATS_TEST_TMPDIR/m.json" | bin/torch-opt | bin/torch-lower > "$BATS_TEST_TMPDIR/l.mlir"
  run bin/codegen "$BATS_TEST_TMPDIR/l.mlir" -o "$BATS_TEST_TMPDIR/c.out"
  echo "$output"
  [ "$status" -ne 0 ]
  [[ "$output" == *"error: codegen: a dynamic length needs a range of at most 65535 (fx-export --dynamic 0:1:NAME=MIN..MAX): argument 0, dimension 1"* ]]
  [ ! -e "$BATS_TEST_TMPDIR/c.out" ]
}

@test "inputs that disagree on the batch fail in vmrun with a clear error and no result" {
  dynrun_vm tests/torch-lower/dynmodels.py:pair --input 3x8xf32 --input 3x8xf32 \
    --dynamic 0:0:batch --dynamic 1:0:batch --shape 2x8,2x8 --shape 5x8,5x8
  dynrun_vm tests/torch-lower/dynmodels.py:pair --input 3x8xf32 --input 3x8xf32 \
    --dynamic 0:0:batch --dynamic 1:0:batch --shape 2x8,3x8 \
    --expect-fail "input 1: dimension 0 is 3, must equal 2 (the batch of input 0)"
}

@test "squeeze() of a dynamic batch is refused by fx-import (at batch 1 it would drop the batch), not compiled into a wrong shape" {
  printf '%s\n' 'import torch' 'class M(torch.nn.Module):' '    def forward(self, x):' \
    '        return (x > 0).squeeze()' 'def m():' '    return M()' > "$BATS_TEST_TMPDIR/sq.py"
  "$PY2" tools/fx-export/fx-export "$BATS_TEST_TMPDIR/sq.py:m" --input 10x1xf32 \
    --dynamic 0:0:batch -o "$BATS_TEST_TMPDIR/m.json"
  run bin/fx-import "$BATS_TEST_TMPDIR/m.json" -o "$BATS_TEST_TMPDIR/m.mlir"
  echo "$output"
  [ "$status" -eq 1 ]
  [[ "$output" == *"args[1]: error: squeeze of dimension 0, of a symbolic size: it goes where the size is 1 at run time"* ]]
  [ ! -e "$BATS_TEST_TMPDIR/m.mlir" ]
}

@test "a roll along a dynamic batch lowers (an index_select of the batch's rows) and is refused by codegen with a clear error, not an internal one" {
  printf '%s\n' 'import torch' 'class M(torch.nn.Module):' '    def forward(self, x):' \
    '        return torch.roll(x, 0, 0)' 'def m():' '    return M()' > "$BATS_TEST_TMPDIR/roll.py"
  "$PY2" tools/fx-export/fx-export "$BATS_TEST_TMPDIR/roll.py:m" --input 10x1xi16 \
    --dynamic 0:0:batch -o "$BATS_TEST_TMPDIR/m.json"
  bin/fx-import "$BATS_TEST_TMPDIR/m.json" | bin/torch-opt | bin/torch-lower > "$BATS_TEST_TMPDIR/l.mlir"
  mlir-opt-16 "$BATS_TEST_TMPDIR/l.mlir" > /dev/null
  # each item reads the row its index names, across the batch: not chunked
  run bin/codegen "$BATS_TEST_TMPDIR/l.mlir" -o "$BATS_TEST_TMPDIR/c.out"
  echo "$output"
  [ "$status" -eq 1 ]
  [[ "$output" != *"internal error"* ]]
  [[ "$output" == *"error: codegen: a dynamic batch is compiled only where every batch item is computed on its own: a region reads the batch"* ]]
  [ ! -e "$BATS_TEST_TMPDIR/c.out" ]
}
