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
