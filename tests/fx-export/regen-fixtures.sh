#!/bin/sh
# Regenerate the committed fx-export fixtures (small JSON + safetensors
# pairs that let C-only tests run without PyTorch):
#   linear-aten  the seed LinearModule, aten level
#   linear-torch the seed LinearModule, torch level
#   mlp-aten     the 3-layer MLP, aten level
#
# usage: tests/fx-export/regen-fixtures.sh [OUTDIR]
# OUTDIR defaults to tests/fx-export/fixtures.  Runs from the repository
# root, so source locations in the fixtures are repository-relative.
# Python: $PYTHON, else /usr/bin/python3 (it must import torch).
set -eu
cd "$(dirname "$0")/../.."
PY=${PYTHON:-/usr/bin/python3}
OUT=${1:-tests/fx-export/fixtures}
MODELS=tests/fx-export/models.py
mkdir -p "$OUT"
"$PY" tools/fx-export/fx-export "$MODELS:linear" --graph aten -o "$OUT/linear-aten.json"
"$PY" tools/fx-export/fx-export "$MODELS:linear" --graph torch -o "$OUT/linear-torch.json"
"$PY" tools/fx-export/fx-export "$MODELS:mlp" --graph aten -o "$OUT/mlp-aten.json"
