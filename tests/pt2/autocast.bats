#!/usr/bin/env bats
# fx-export --autocast bf16: an f32 model traced under torch.autocast on
# the CPU, its matrix products and convolutions in bf16 with the casts
# autocast makes, through the whole pipe against eager under autocast
# (tests/pt2/autocast.py says how they compare).

load helpers

setup() {
  T=$BATS_TEST_TMPDIR
}

# check MODEL INPUT [PYTHON]: under PyTorch 2 unless PYTHON is given
check() {
  local py=${3:-}
  [ -n "$py" ] || { need_torch2; py=$PY2; }
  "$py" tools/fx-export/fx-export "tests/pt2/autocast.py:$1" --autocast bf16 --input "$2" \
    -o "$T/m.json"
  bin/fx-import "$T/m.json" | bin/torch-opt | bin/torch-lower | bin/codegen | bin/vmpack -o "$T/m.vmfb"
  run "$py" tests/pt2/autocast.py "$1" "$T/m.vmfb"
  echo "$output"
  [ "$status" -eq 0 ]
  [ "${lines[${#lines[@]}-1]}" = ok ]
}

@test "--autocast bf16: a BERT-base encoder layer matches eager under autocast" {
  check bert 1x128x768xf32
  # the matrix products take bf16 operands
  grep -q 'torch.aten.mm.*bf16\|torch.aten.addmm.*bf16\|torch.aten.bmm.*bf16' <(bin/fx-import "$T/m.json")
}

@test "--autocast bf16: resnet18 matches eager under autocast (a bf16 result)" {
  check resnet18 1x3x224x224xf32
  grep -q 'torch.aten.convolution .*bf16' <(bin/fx-import "$T/m.json")
}

@test "--autocast bf16 under PyTorch 1.13: resnet18 (batch norms' saved statistics in f32)" {
  # 1.13's trace keeps native_batch_norm, whose mean and inverse deviation
  # are f32 for a bf16 input with f32 parameters; torch-opt had inferred
  # bf16 and refused the model as a conflict
  py=${PYTHON:-/usr/bin/python3}
  "$py" -c 'import sys, torch; sys.exit(torch.__version__.startswith("1.") is False)' 2>/dev/null ||
    skip "$py has no PyTorch 1.x"
  check resnet18 1x3x224x224xf32 "$py"
  grep -q 'torch.aten.native_batch_norm .*bf16.*\[0\],f32>' <(bin/fx-import "$T/m.json")
}
