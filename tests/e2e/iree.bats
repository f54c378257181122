#!/usr/bin/env bats
# Interop with current MLIR tools: torch-lower's output for the five test
# models (the first five of models.bats), written with
# --mlir-dialect-version=upstream, compiled unchanged by IREE's
# iree-compile for llvm-cpu and run by iree-run-module on the committed
# inputs; each result against PyTorch eager's (tests/e2e/model.py check).
# The tools come from $IREE_BIN, else PATH (PyPI's iree-base-compiler and
# iree-base-runtime; `make iree-check` installs them into .iree-venv/ and
# runs this file).  Skipped with a message where iree-compile is absent.

load helpers

need_iree() {
  local d
  for d in ${IREE_BIN:-}; do
    [ -x "$d/iree-compile" ] && { IC="$d/iree-compile"; IR="$d/iree-run-module"; }
  done
  if [ -z "${IC:-}" ]; then
    IC=$(command -v iree-compile) || skip "iree-compile is not installed (set IREE_BIN= or run make iree-check)"
    IR=$(command -v iree-run-module) || skip "iree-run-module is not installed"
  fi
  [ -x "${IR:-}" ] || skip "iree-run-module is not beside $IC"
}

# iree NAME [vision]
iree() {
  need_iree
  need_torch "${2:-}"
  local ins=() outs=() f i=0
  "$PY" tools/fx-export/fx-export "tests/e2e/e2e_models.py:$1" -o "$T/m.json"
  bin/fx-import "$T/m.json" | bin/torch-opt | bin/torch-lower --mlir-dialect-version=upstream > "$T/m.mlir"
  "$IC" --iree-hal-target-backends=llvm-cpu --iree-llvmcpu-target-cpu=host "$T/m.mlir" -o "$T/m.vmfb"
  for f in tests/e2e/expected/"$1".in*.npy; do ins+=("--input=@$f"); done
  for f in tests/e2e/expected/"$1".out*.npy; do outs+=("--output=@$T/out$i.npy"); i=$((i + 1)); done
  "$IR" --device=local-task --module="$T/m.vmfb" --function=main "${ins[@]}" "${outs[@]}"
  run "$PY" tests/e2e/model.py check "$1" "$T"
  echo "$output"
  [ "$status" -eq 0 ]
}

@test "IREE: model linear, lowered for upstream MLIR, matches PyTorch" { iree linear; }
@test "IREE: model mlp, lowered for upstream MLIR, matches PyTorch" { iree mlp; }
@test "IREE: model resnet18, lowered for upstream MLIR, matches PyTorch" { iree resnet18 vision; }
@test "IREE: model mobilenet_v2, lowered for upstream MLIR, matches PyTorch" { iree mobilenet_v2 vision; }
@test "IREE: model transformer_encoder_layer, lowered for upstream MLIR, matches PyTorch" { iree transformer_encoder_layer; }
