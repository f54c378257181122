#!/usr/bin/env bats
# The five test models for the GPU:
#   fx-export | fx-import | torch-opt | torch-lower | codegen --target=cuda
# then vmpack and ptxas (sm_80, sm_90).  Skipped without torch (and
# torchvision for the vision models).

load helpers

cuda_model() {
  "$PY" -c "import torch" 2>/dev/null || skip "$PY cannot import torch"
  [ "$2" != vision ] || "$PY" -c "import torchvision" 2>/dev/null ||
    skip "$PY cannot import torchvision"
  "$PY" tools/fx-export/fx-export "tests/fx-export/models.py:$1" -o "$T/m.json"
  bin/fx-import "$T/m.json" | bin/torch-opt | bin/torch-lower -o "$T/linalg.mlir"
  cuda_compile "$T/linalg.mlir"
}

@test "cuda model linear" { cuda_model linear; }
@test "cuda model mlp" { cuda_model mlp; }
@test "cuda model resnet18" { cuda_model resnet18 vision; }
@test "cuda model mobilenet_v2" { cuda_model mobilenet_v2 vision; }
@test "cuda model transformer_encoder_layer" { cuda_model transformer_encoder_layer; }
