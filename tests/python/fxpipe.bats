#!/usr/bin/env bats
# The Python package python/fxpipe over the build tree's libfxrt: each test
# runs one check of tests/python/checks.py (which says what it holds).  The
# linear module is examples/linear-linalg.mlir compiled; the checks marked
# torch also run fxpipe.compile, the whole pipe.
#
# Under SANITIZE=1 libfxrt is built with ASan, which must be the first
# library of the process; the Python runs with it preloaded and leak
# detection off (the interpreter's own allocations are not ours to judge).

setup_file() {
  bin/codegen --target=cpu < examples/linear-linalg.mlir | bin/vmpack -o "$BATS_FILE_TMPDIR/linear.vmfb"
}

setup() {
  PY=
  for p in ${PYTHON:-} /usr/bin/python3 python3; do
    "$p" -c 'import numpy' 2>/dev/null && { PY=$p; break; }
  done
  [ -n "$PY" ] || skip "no Python with numpy (set PYTHON=)"
  export FXPIPE_LIB="$PWD/${BUILD:-build/opt}/libfxrt.so.0"
  [ -f "$FXPIPE_LIB" ] || { echo "no $FXPIPE_LIB: run make first"; false; }
  if [ "${SANITIZE:-0}" = 1 ]; then
    export LD_PRELOAD="$(cc -print-file-name=libasan.so) $(cc -print-file-name=libubsan.so)"
    export ASAN_OPTIONS=detect_leaks=0
  fi
}

need_torch() {
  "$PY" -c 'import torch' 2>/dev/null || skip "$PY cannot import torch"
}

check() {
  run "$PY" tests/python/checks.py "$1" "$BATS_FILE_TMPDIR/linear.vmfb"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "fxpipe: functions and their signatures" { check signature; }
@test "fxpipe: numpy in, numpy out, the right numbers" { check numpy_values; }
@test "fxpipe: bad inputs raise with the runtime's message" { check bad_inputs; }
@test "fxpipe: a function with a dynamic batch takes any batch in range" {
  bin/codegen tests/codegen/batch.mlir | bin/vmpack -o "$BATS_TEST_TMPDIR/batch.vmfb"
  run "$PY" tests/python/checks.py batched "$BATS_TEST_TMPDIR/batch.vmfb"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}
@test "fxpipe: aligned inputs and results are not copied, others are, out= is written in place" { check zero_copy; }
@test "fxpipe: results outlive their module" { check lifetime; }
@test "fxpipe: the threads option" { check threads; }
@test "fxpipe: threads calling one function at once" { check concurrent; }
@test "fxpipe: load from bytes; bad modules raise" { check memory; }
@test "fxpipe.load(..., parameters=): a module packed with vmpack --params" {
  T="$BATS_TEST_TMPDIR"
  bin/fx-import tests/fx-import/inputs/mlp-torch.json | bin/torch-opt | bin/torch-lower |
    bin/codegen --target=cpu > "$T/m.fxvm"
  bin/vmpack "$T/m.fxvm" -o "$T/m.vmfb"
  bin/vmpack --params="$T/p.safetensors" "$T/m.fxvm" -o "$T/ext.vmfb"
  run "$PY" tests/python/checks.py parameters "$T"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}
@test "fxpipe: FXPIPE_LIB, and the places tried when the library is missing" { check library_path; }
@test "fxpipe: torch in, torch out; non-contiguous and grad-requiring tensors" { need_torch; check torch_values; }
@test "fxpipe.compile: tests/e2e's MLP and convolution net against eager" { need_torch; check compile_models; }
@test "fxpipe.compile: f64, i64 and bool inputs, size-0 and size-1 dims" { need_torch; check compile_dtypes; }
@test "fxpipe.compile: a stage's error raises with its message" { need_torch; check compile_errors; }
@test "fxpipe.compile: complex arguments and results" { need_torch; check complex_values; }
@test "fxpipe: runtime-owned results are freed" { need_torch; check no_leak; }
