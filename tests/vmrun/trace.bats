#!/usr/bin/env bats
bats_require_minimum_version 1.5.0
# vmrun --trace: the Chrome trace-event file (its schema checked by
# python3 -m json.tool and src/check-trace.py), kernel names with source
# lines, and its errors.
load helpers

check_trace() {
  python3 -m json.tool "$1" > /dev/null
  python3 tests/vmrun/src/check-trace.py "$@"
}

@test "--trace: one host event per dispatch per run, a track per thread, with --benchmark" {
  pack kernels-gcc-nopic
  m="$T/kernels-gcc-nopic.vmfb"
  run bin/vmrun "$m" --function=chain --input=6xf32=1 --benchmark=3 --threads=3 --trace="$T/t.json"
  [ "$status" -eq 0 ]
  run check_trace "$T/t.json" 4 3
  [ "$status" -eq 0 ]
  [ "$output" = "exp_6
tanh_6" ]
  # a grid of 64 workgroups on 2 threads: the caller's track and the worker's
  run bin/vmrun "$m" --function=grid --input=2x4x8xf32=1 --threads=2 --trace="$T/g.json"
  [ "$status" -eq 0 ]
  check_trace "$T/g.json" 1 2
  # copies and fills are host events too; --threads=1 is one pool track
  pack host
  bin/vmrun "$T/host.vmfb" --function=views --input=2x3xf32=1 --threads=1 --trace="$T/h.json" > /dev/null
  python3 -m json.tool "$T/h.json" > /dev/null
  grep -q '"cat":"copy"' "$T/h.json"
  [ "$(grep -c '"name":"thread_name"' "$T/h.json")" -eq 2 ]
  ls "$T" | { ! grep -q tmp; }
}

@test "kernel names carry the op and the source line through codegen, vmpack --dump, --profile and --trace" {
  [ -x bin/codegen ] && [ -x bin/torch-lower ] || skip "codegen is not built"
  bin/torch-opt --print-debuginfo examples/linear-torch.mlir | bin/torch-lower --print-debuginfo |
    bin/codegen --target=cpu | bin/vmpack -o "$T/m.vmfb"
  run bin/vmpack --dump "$T/m.vmfb"
  [[ "$output" == *"    name dispatch_0_matmul_add@linear-torch.mlir:6, 88 bytes, 27 flops, at examples/linear-torch.mlir:6:10"* ]]
  run --separate-stderr bin/vmrun "$T/m.vmfb" --input=4x3xf32=1 --input=3xf32=1 --input=4xf32=1 \
    --benchmark=2 --threads=2 --profile --trace="$T/t.json"
  [ "$status" -eq 0 ]
  [[ "$stderr" == *"dispatch_0_matmul_add@linear-torch.mlir:6"* ]]
  run check_trace "$T/t.json" 3 2 '^dispatch_[0-9]+_\w+@linear-torch\.mlir:[0-9]+$'
  [ "$status" -eq 0 ]
  [ "$output" = "dispatch_0_matmul_add@linear-torch.mlir:6" ]
  grep -q '"bytes":88,"flops":27,"grid":\[1,1,1\],"source":"examples/linear-torch.mlir:6:10"' "$T/t.json"
  # without locations (torch-lower's text has none), the op alone, not <stdin>'s line
  bin/torch-opt examples/linear-torch.mlir | bin/torch-lower | bin/codegen --target=cpu | bin/vmpack -o "$T/n.vmfb"
  bin/vmrun "$T/n.vmfb" --input=4x3xf32=1 --input=3xf32=1 --input=4xf32=1 --trace="$T/n.json" > /dev/null
  run check_trace "$T/n.json" 1 "$(nproc)"
  [ "$output" = "dispatch_0_matmul_add" ]
}

@test "--trace: a path it cannot write is an error before running; a failed run leaves nothing" {
  pack kernels-gcc-nopic
  m="$T/kernels-gcc-nopic.vmfb"
  run bin/vmrun "$m" --function=exp --input=6xf32=1 --trace="$T/no/such/dir/t.json"
  [ "$status" -eq 1 ]
  [ "$output" = "vmrun: error: cannot write '$T/no/such/dir/t.json': No such file or directory" ]
  run bin/vmrun "$m" --function=exp --input=6xf32=1 --trace="$T"
  [ "$status" -eq 1 ]
  [ "$output" = "vmrun: error: --trace: cannot write '$T': Is a directory" ]
  run bin/vmrun "$m" --function=exp --input=6xf32=1 --trace=
  [ "$status" -eq 1 ]
  [ "$output" = "vmrun: error: --trace: needs a file name" ]
  # an input of the wrong shape: no trace, no temporary
  mkdir "$T/d"
  run bin/vmrun "$m" --function=exp --input=5xf32=1 --trace="$T/d/t.json"
  [ "$status" -eq 1 ]
  [ -z "$(ls "$T/d")" ]
  # an old trace stays whole until the new one replaces it
  echo '{"traceEvents":[]}' > "$T/d/t.json"
  run bin/vmrun "$m" --function=exp --input=5xf32=1 --trace="$T/d/t.json"
  [ "$(cat "$T/d/t.json")" = '{"traceEvents":[]}' ]
  # a kernel stopped at a bounds check (SIGILL): no temporary left either
  [ -x bin/codegen ] || skip "codegen is not built"
  cat > "$T/gather.mlir" <<'MLIR'
func.func @main(%t: tensor<4xf32>, %i: tensor<3xi64>) -> tensor<3xf32> {
  %e = tensor.empty() : tensor<3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%i : tensor<3xi64>) outs(%e : tensor<3xf32>) {
  ^bb0(%in: i64, %out: f32):
    %x = arith.index_cast %in : i64 to index
    %v = tensor.extract %t[%x] : tensor<4xf32>
    linalg.yield %v : f32
  } -> tensor<3xf32>
  return %r : tensor<3xf32>
}
MLIR
  bin/codegen "$T/gather.mlir" 2>/dev/null | bin/vmpack -o "$T/g.vmfb"
  run bin/vmrun "$T/g.vmfb" --input=4xf32=1,2,3,4 --input=3xi64=0,9,1 --trace="$T/d/t.json"
  [ "$status" -eq 1 ]
  [[ "$output" == *"a kernel stopped at a bounds check"* ]]
  [ "$(ls "$T/d")" = t.json ]
  [ "$(cat "$T/d/t.json")" = '{"traceEvents":[]}' ]
}

@test "a model through fx-import: every kernel is named after its line of the model's .py" {
  [ -x bin/codegen ] && [ -x bin/fx-import ] || skip "codegen is not built"
  bin/fx-import tests/fx-import/inputs/small_cnn-torch.json | bin/torch-opt --print-debuginfo |
    bin/torch-lower --print-debuginfo | bin/codegen --target=cpu | bin/vmpack -o "$T/cnn.vmfb"
  run bin/vmrun "$T/cnn.vmfb" --input=1x3x8x8xf32=0.5 --benchmark=2 --threads=2 --trace="$T/t.json"
  [ "$status" -eq 0 ]
  run check_trace "$T/t.json" 3 2 '^dispatch_[0-9]+_\w+@models\.py:[0-9]+$'
  [ "$status" -eq 0 ]
  [ "${lines[0]}" = "dispatch_1_pack@models.py:31" ]
  [ "${lines[1]}" = "dispatch_0_conv2d_add_clamp@models.py:31" ]
  [ "${lines[2]}" = "dispatch_2_maxpool2d@models.py:31" ]
  [ "${lines[3]}" = "dispatch_3_add@models.py:33" ]
  grep -q '"source":"tests/fx-import/models.py:31:9"' "$T/t.json"
}

@test "FXRT_PERF_MAP=1 appends the kernels' addresses to perf's /tmp/perf-PID.map; unset, nothing is written" {
  pack kernels-gcc-nopic
  m="$T/kernels-gcc-nopic.vmfb"
  pid=$(FXRT_PERF_MAP=1 bash -c 'echo $$; exec bin/vmrun "$1" --function=chain --input=6xf32=1 > /dev/null' _ "$m")
  map=/tmp/perf-$pid.map
  cp "$map" "$T/map"
  rm -f "$map"
  cat "$T/map"
  # START SIZE NAME, hex, one line per function, the chain's kernels among them
  ! grep -qvE '^[0-9a-f]+ [0-9a-f]+ [A-Za-z_.$][A-Za-z0-9_.$]*$' "$T/map"
  grep -qE ' exp_6$' "$T/map"
  grep -qE ' tanh_6$' "$T/map"
  [ "$(cut -d' ' -f1 "$T/map" | sort -u | wc -l)" -eq "$(wc -l < "$T/map")" ]
  ! grep -qE ' 0 ' "$T/map"
  pid=$(bash -c 'echo $$; exec bin/vmrun "$1" --function=chain --input=6xf32=1 > /dev/null' _ "$m")
  [ ! -e "/tmp/perf-$pid.map" ]
}
