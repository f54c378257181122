#!/usr/bin/env bats
# torch.compile(model, backend="fxpipe") under PyTorch 2 (.venv/): each
# test runs one check of tests/pt2/compile.py, which says what it holds.
# The model checks share one module cache ($BATS_FILE_TMPDIR), so that
# "cached" finds what "model resnet18" compiled.

load helpers

setup() {
  need_torch2
  export FXPIPE_LIB="$PWD/${BUILD:-build/opt}/libfxrt.so.0"
  [ -f "$FXPIPE_LIB" ] || { echo "no $FXPIPE_LIB: run make first"; false; }
  export FXPIPE_CACHE="$BATS_FILE_TMPDIR/cache"
  if [ "${SANITIZE:-0}" = 1 ]; then
    export LD_PRELOAD="$(cc -print-file-name=libasan.so) $(cc -print-file-name=libubsan.so)"
    export ASAN_OPTIONS=detect_leaks=0
  fi
}

check() {
  run "$PY2" tests/pt2/compile.py "$@"
  echo "$output"
  [ "$status" -eq 0 ]
}

@test "torch.compile fxpipe: linear matches eager, the second call compiles nothing" { check model linear; }
@test "torch.compile fxpipe: mlp matches eager" { check model mlp; }
@test "torch.compile fxpipe: resnet18 matches eager" { check model resnet18; }
@test "torch.compile fxpipe: a new process loads resnet18 from the cache" { check cached resnet18; }
@test "torch.compile fxpipe: mobilenet_v2 matches eager" { check model mobilenet_v2; }
@test "torch.compile fxpipe: transformer_encoder_layer matches eager" { check model transformer_encoder_layer; }
@test "torch.compile fxpipe: conv_paths matches eager" { check model conv_paths; }
@test "torch.compile fxpipe: pack_lanes matches eager" { check model pack_lanes; }
@test "torch.compile fxpipe: window_loops matches eager" { check model window_loops; }
@test "torch.compile fxpipe: resnet50 matches eager" { check model resnet50; }
@test "torch.compile fxpipe: an unsupported op runs eagerly, the rest compiled, one warning" { check fallback; }
@test "torch.compile fxpipe: each input shape compiles once (a symbolic size that is no batch)" { check shapes; }
@test "torch.compile fxpipe: weights changed in place are compiled again" { check weights; }
@test "torch.compile fxpipe: mlp at batch 2, 3, 5, 17: one module with a dynamic batch from batch 3" { check batch mlp; }
@test "torch.compile fxpipe: a new process loads the mlp's dynamic-batch module" { check batch mlp cached; }
@test "torch.compile fxpipe: cnn at batch 2, 3, 5, 17: one module with a dynamic batch from batch 3" { check batch cnn; }
@test "torch.compile fxpipe: dynamic=True: mlp's one module with a dynamic batch from the first call" { check batch mlp dynamic; }
@test "torch.compile fxpipe: x - x.mean(0) under a symbolic batch: refused once, per batch, == eager" { check nobatch; }
@test "torch.compile fxpipe: a batch outside the dynamic module's range compiles its shape" { check outside; }
@test "torch.compile fxpipe: dynamic=True on batch norm: torch.export's refusal runs the graph eagerly, one warning, no exception" { check export_refused; }
@test "torch.compile fxpipe: a graph writing its buffers (batch norm, training) runs eagerly" { check mutation; }

@test "torch.compile fxpipe: the installed entry point finds the backend without import fxpipe" {
  "$PY2" -m pip show -q fxpipe >/dev/null 2>&1 || skip "fxpipe is not installed in the venv (scripts/setup.sh does)"
  run "$PY2" -c '
import sys, torch
m = torch.nn.Linear(4, 2).eval()
x = torch.randn(3, 4)
with torch.no_grad():
    y = torch.compile(m, backend="fxpipe")(x)
    assert "fxpipe.dynamo" in sys.modules
    assert torch.allclose(y, m(x), rtol=1e-3, atol=1e-6), (y, m(x))
print("ok")'
  echo "$output"
  [ "$status" -eq 0 ]
}
