#!/usr/bin/env bats
# The five models through the whole pipe, against PyTorch eager: export
# (at test time: the weights are too big to commit; the factories seed
# themselves, so the export is deterministic), compile, run with vmrun on
# the committed inputs, compare with the committed outputs PyTorch gave
# (tests/e2e/model.py: allclose with rtol 1e-3, atol 1e-7, same shapes and
# element types).  Regenerate expected/ with `tests/e2e/model.py regen`.

load helpers

model() {
  need_torch "${2:-}"
  local ins=() f
  "$PY" tools/fx-export/fx-export "tests/e2e/e2e_models.py:$1" -o "$T/m.json"
  compile "$T/m.json" "$T/m.vmfb"
  for f in tests/e2e/expected/"$1".in*.npy; do ins+=("--input=@$f"); done
  bin/vmrun "$T/m.vmfb" "${ins[@]}" --output="@$T/out0.npy"
  run "$PY" tests/e2e/model.py check "$1" "$T"
  echo "$output"
  [ "$status" -eq 0 ]
}

@test "model linear (the seed LinearModule) matches PyTorch" { model linear; }
@test "model mlp matches PyTorch" { model mlp; }
@test "model resnet18 matches PyTorch" { model resnet18 vision; }
@test "model mobilenet_v2 matches PyTorch" { model mobilenet_v2 vision; }
@test "model transformer_encoder_layer matches PyTorch" { model transformer_encoder_layer; }
