#!/usr/bin/env bats
# fx-export --autocast bf16: an f32 model traced under torch.autocast on
# the CPU, its matrix products and convolutions in bf16 with the casts
# autocast makes, through the whole pipe against eager under autocast
# (tests/pt2/autocast.py says how they compare).

load helpers

setup() {
  need_torch2
  T=$BATS_TEST_TMPDIR
}

check() {
  "$PY2" tools/fx-export/fx-export "tests/pt2/autocast.py:$1" --autocast bf16 --input "$2" \
    -o "$T/m.json"
  bin/fx-import "$T/m.json" | bin/torch-opt | bin/torch-lower | bin/codegen | bin/vmpack -o "$T/m.vmfb"
  run "$PY2" tests/pt2/autocast.py "$1" "$T/m.vmfb"
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
