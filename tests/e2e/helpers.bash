# Shared setup for the end-to-end tests: the real tools, joined by pipes.
# Run from the repository root with bin/ built: bats tests/e2e

setup() {
  T="$BATS_TEST_TMPDIR"
}

# A Python with numpy: $PYTHON (the one with torch, from make), else the
# system's.
py() {
  local p
  for p in ${PYTHON:-} /usr/bin/python3 python3; do
    "$p" -c 'import numpy' 2>/dev/null && { echo "$p"; return; }
  done
}

need_numpy() {
  PY=$(py)
  [ -n "$PY" ] || skip "no Python with numpy (set PYTHON=)"
}

need_torch() {
  need_numpy
  "$PY" -c 'import torch' 2>/dev/null || skip "$PY cannot import torch: the model tests need it to export the models"
  [ "${1:-}" != vision ] || "$PY" -c 'import torchvision' 2>/dev/null ||
    skip "$PY cannot import torchvision"
}

# compile JSON VMFB: fx-export's output through every stage, as the README
# writes the pipe
compile() {
  bin/fx-import "$1" | bin/torch-opt | bin/torch-lower | bin/codegen --target=cpu | bin/vmpack -o "$2"
}

# the --dump-dispatches of the model model() exported last
dispatches() {
  bin/fx-import "$T/m.json" | bin/torch-opt | bin/torch-lower | bin/codegen --dump-dispatches
}

# model NAME [vision]: tests/e2e/e2e_models.py's factory NAME (the zoo's
# too) through the whole pipe, run on its committed inputs, every result
# compared with PyTorch's by model.py check
model() {
  need_torch "${2:-}"
  local ins=() outs=() f i=0
  "$PY" tools/fx-export/fx-export "tests/e2e/e2e_models.py:$1" -o "$T/m.json"
  compile "$T/m.json" "$T/m.vmfb"
  for f in tests/e2e/expected/"$1".in*.npy; do ins+=("--input=@$f"); done
  for f in tests/e2e/expected/"$1".out*.npy; do outs+=("--output=@$T/out$i.npy"); i=$((i + 1)); done
  bin/vmrun "$T/m.vmfb" "${ins[@]}" "${outs[@]}"
  run "$PY" tests/e2e/model.py check "$1" "$T"
  echo "$output"
  [ "$status" -eq 0 ]
}
