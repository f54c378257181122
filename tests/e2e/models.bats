#!/usr/bin/env bats
# The test models through the whole pipe, against PyTorch eager: export
# (at test time: the weights are too big to commit; the factories seed
# themselves, so the export is deterministic), compile, run with vmrun on
# the committed inputs, compare with the committed outputs PyTorch gave
# (tests/e2e/model.py: allclose with rtol 1e-3, atol 1e-7, same shapes and
# element types).  Regenerate expected/ with `tests/e2e/model.py regen`.

load helpers

@test "model linear (the seed LinearModule) matches PyTorch" { model linear; }
@test "model mlp matches PyTorch" { model mlp; }
@test "model resnet18 matches PyTorch" { model resnet18 vision; }
@test "model mobilenet_v2 matches PyTorch" { model mobilenet_v2 vision; }
@test "model transformer_encoder_layer matches PyTorch" { model transformer_encoder_layer; }
@test "model conv_paths (each way codegen compiles a convolution) matches PyTorch" { model conv_paths; }
@test "model pack_lanes (pack kernels of odd and even tile widths) matches PyTorch" { model pack_lanes; }
@test "model window_loops (pooling and reductions in vectors of codegen's own) matches PyTorch" { model window_loops; }

# codegen splits a big model's kernels into several objects, compiled on
# threads; the split depends on the input alone
@test "resnet18: codegen's output is the same for --jobs=1 and --jobs=2; vmrun --profile times its kernels; vmpack --params; vmrun --trace" {
  [ -z "${FXPIPE_PT2_PASS:-}" ] || skip "checks codegen and vmrun, not the export: the first pass runs it"
  need_torch vision
  "$PY" tools/fx-export/fx-export tests/e2e/e2e_models.py:resnet18 -o "$T/m.json"
  bin/fx-import "$T/m.json" | bin/torch-opt | bin/torch-lower > "$T/m.mlir"
  bin/codegen --jobs=1 "$T/m.mlir" -o "$T/j1.fxvm"
  bin/codegen --jobs=2 --timing "$T/m.mlir" -o "$T/j2.fxvm" 2> "$T/timing"
  cmp "$T/j1.fxvm" "$T/j2.fxvm"
  grep -q 'LLVM optimization and code generation' "$T/timing"
  [ "$(grep -c '^  fxvm.executable @kernels_[0-9]' "$T/j1.fxvm")" -gt 1 ]
  bin/vmpack "$T/j1.fxvm" -o "$T/m.vmfb"
  run bin/vmrun "$T/m.vmfb" --input=@tests/e2e/expected/resnet18.in0.npy --benchmark=2 --profile --threads=1
  [ "$status" -eq 0 ]
  echo "$output"
  [[ "$output" == *"ms of dispatches per run"* ]]
  [[ "$output" =~ [0-9]+\.[0-9]+\ +[0-9.]+%\ +1\ +dispatch_0 ]]
  # external parameters (vmpack --params): the module under 1 MB, the
  # results bit-identical to the self-contained module's
  bin/vmpack --params="$T/w.safetensors" "$T/j1.fxvm" -o "$T/ext.vmfb"
  [ "$(stat -c %s "$T/ext.vmfb")" -lt 1000000 ]
  bin/vmrun "$T/m.vmfb" --input=@tests/e2e/expected/resnet18.in0.npy --output=@"$T/a.npy"
  bin/vmrun "$T/ext.vmfb" --parameters="$T/w.safetensors" --input=@tests/e2e/expected/resnet18.in0.npy --output=@"$T/b.npy"
  cmp "$T/a.npy" "$T/b.npy"
  # a trace at 2 threads (issue 23): JSON, one event per dispatch per run
  # (a warm-up and 2 runs), each kernel named after its source line
  # (torchvision's resnet.py), which the pipe above carried without flags
  bin/vmrun "$T/m.vmfb" --input=@tests/e2e/expected/resnet18.in0.npy --benchmark=2 --threads=2 --trace="$T/t.json"
  python3 -m json.tool "$T/t.json" > /dev/null
  python3 tests/vmrun/src/check-trace.py "$T/t.json" 3 2 '^dispatch_[0-9]+_[a-z0-9_]+@[A-Za-z0-9_]+\.py:[0-9]+$'
}
@test "model window_tails (rows ending inside a vector: masked to the row) matches PyTorch" { model window_tails; }
@test "model conv_taps (convolutions read through their taps from a channels-last copy) matches PyTorch" {
  model conv_taps
  # nine of them take the taps (rows of 14, 13, 24 in two tiles; one, two
  # and several rows a tile, a last tile of one row; the first, 16 -> 96
  # channels at 14x14, traded for its taps), two the im2col
  local d
  d=$(dispatches)
  [ "$(grep -c 'A read through its taps' <<< "$d")" -eq 9 ]
  [ "$(grep -c 'channels last' <<< "$d")" -eq 9 ]
  grep -q 'M 392, N 96, K 144, tile 14x32, A read through its taps' <<< "$d"
  grep -q 'M 49, N 64, K 1152, tile 14x32, A read through its taps' <<< "$d"
  grep -q 'M 144, N 256, K 144, tile 12x32, A read through its taps' <<< "$d"
  grep -q 'M 68, N 256, K 96, tile 14x32$' <<< "$d"
}
@test "model pad_columns (GEMMs writing their pad's columns, the host its other rows: a batch of 2) matches PyTorch" {
  model pad_columns
  # both GEMMs that store into a pad take it: along N (rows of 33, across
  # the batch, in a pad aligned to lines: rows of 48, one more of them,
  # the last inside row's end the next row's left pad) and traded (rows
  # of 5 along M)
  [ "$(grep -c 'fxvm.fill .*interior = array<i64: 0, 0, 2, 0, 2, 16, 21, 48>} : tensor<2x16x25x48xf32>\|fxvm.fill .*interior = array<i64: 0, 0, 1, 0, 2, 96, 5, 7>' \
      <(bin/fx-import "$T/m.json" | bin/torch-opt | bin/torch-lower | bin/codegen))" -eq 2 ]
}
@test "model pad_rows (GEMMs writing their pad's columns and rows, the host none: a batch of 1) matches PyTorch" {
  model pad_rows
  bin/fx-import "$T/m.json" | bin/torch-opt | bin/torch-lower > "$T/m.mlir"
  [ "$(bin/codegen "$T/m.mlir" | grep -c 'fxvm.fill')" -eq 0 ]
  d=$(bin/codegen --dump-dispatches "$T/m.mlir")
  grep -q 'by the kernel: the 1 columns before and 1 after each row of 33 (along N), the 1 rows above and 1 below each plane of 22' <<< "$d"
  grep -q 'by the kernel: the 1 columns before and 1 after each row of 5 (along M), the 1 rows above and 1 below each plane of 5' <<< "$d"
}
@test "model channels_last (activations convolutions alone write and read kept NHWC) matches PyTorch" {
  model channels_last
  # a, b and c9's output (64 channels at 11x10), the downsample's and e
  # (96 at 6x5) live channels last; the returned, sliced and 48-channel
  # values keep NCHW; c3 reads b in place, a step of k one channel
  local d
  d=$(dispatches)
  [ "$(grep -c 'out [0-9]: tensor<2x11x10x64xf32>' <<< "$d")" -eq 3 ]
  [ "$(grep -c 'out [0-9]: tensor<2x6x5x96xf32>' <<< "$d")" -eq 2 ]
  [ "$(grep -c 'out [0-9]: tensor<2x[0-9]*x[0-9]*x[0-9]*xf32>' <<< "$d")" -eq 11 ]
  grep -q 'M 220, N 64, K 64, tile 11x32, A read in place' <<< "$d"
}
