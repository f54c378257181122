#!/usr/bin/env bats
# The five test models through the whole front end:
#   fx-export | fx-import | torch-opt | torch-lower | mlir-opt-16
# A model whose torch-opt output still has ops outside the backend contract
# (torch-opt's default pipeline is not finished) is skipped with the ops
# named; once it is at the contract, torch-lower must lower it and mlir-opt-16
# must accept the result.

setup() {
  PY="${PYTHON:-/usr/bin/python3}"
  T="$BATS_TEST_TMPDIR"
}

lower_model() {
  "$PY" -c "import torch" 2>/dev/null || skip "$PY cannot import torch"
  command -v mlir-opt-16 >/dev/null || skip "mlir-opt-16 is not installed"
  [ "$2" != vision ] || "$PY" -c "import torchvision" 2>/dev/null ||
    skip "$PY cannot import torchvision"
  "$PY" tools/fx-export/fx-export "tests/fx-export/models.py:$1" -o "$T/m.json"
  bin/fx-import "$T/m.json" > "$T/torch.mlir"
  bin/torch-opt "$T/torch.mlir" > "$T/contract.mlir"
  { bin/torch-lower --list-ops
    printf '%s\n' torch.constant.int torch.constant.float torch.constant.bool \
      torch.constant.none torch.constant.str torch.constant.device \
      torch.prim.ListConstruct torch.vtensor.literal; } | sort -u > "$T/allowed"
  grep -o 'torch\.[a-z_]*\.[A-Za-z_0-9.]*' "$T/contract.mlir" |
    grep -v '^torch\.vtensor<\|^torch\.list<' | sort -u > "$T/used"
  left=$(comm -23 "$T/used" "$T/allowed" | tr '\n' ' ')
  [ -z "$left" ] || skip "torch-opt does not bring $1 to the backend contract yet: $left"
  bin/torch-lower "$T/contract.mlir" -o "$T/linalg.mlir"
  ! grep -q 'torch\.\|!torch' "$T/linalg.mlir"
  mlir-opt-16 "$T/linalg.mlir" > /dev/null
}

@test "linear lowers and mlir-opt-16 accepts it" { lower_model linear; }
@test "mlp lowers and mlir-opt-16 accepts it" { lower_model mlp; }
@test "resnet18 lowers and mlir-opt-16 accepts it" { lower_model resnet18 vision; }
@test "mobilenet_v2 lowers and mlir-opt-16 accepts it" { lower_model mobilenet_v2 vision; }
@test "transformer_encoder_layer lowers and mlir-opt-16 accepts it" { lower_model transformer_encoder_layer; }
