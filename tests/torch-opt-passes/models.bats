#!/usr/bin/env bats
# torch-opt's default pipeline (torch-backend-pipeline) on the five test
# models: fx-export | fx-import | torch-opt reaches the backend contract,
# computes what the module computes (run_torch_ir.py evaluates the result
# with PyTorch's kernels), folds resnet18's batch norms, and every
# --print-ir-after-all dump parses again.

setup() {
    PY="${PYTHON:-/usr/bin/python3}"
    MODELS="tests/fx-export/models.py"
    OUT="$BATS_TEST_TMPDIR"
    PATH="$PWD/bin:$PATH"
}

need_torchvision() {
    "$PY" -c "import torch, torchvision" 2>/dev/null || skip "$PY cannot import torchvision"
}

# to_contract NAME: export, import and run the default pipeline.
to_contract() {
    "$PY" tools/fx-export/fx-export "$MODELS:$1" -o "$OUT/$1.json"
    fx-import "$OUT/$1.json" > "$OUT/$1.mlir"
    torch-opt --timing "$OUT/$1.mlir" -o "$OUT/$1.out.mlir" 2> "$OUT/$1.timing"
    torch-opt -p torch-verify-backend-contract "$OUT/$1.out.mlir" > /dev/null
    grep -q 'torch-verify-backend-contract' "$OUT/$1.timing"
    "$PY" tests/torch-opt-passes/run_torch_ir.py "$OUT/$1.out.mlir" "$MODELS:$1"
}

@test "LinearModule reaches the backend contract" {
    need_torchvision
    to_contract linear
    ! grep -q 'copy.to_\|squeeze_' "$OUT/linear.out.mlir"
}

@test "MLP reaches the backend contract with transposed literal weights" {
    need_torchvision
    to_contract mlp
    ! grep -q 'aten.t \|addmm\|transpose' "$OUT/mlp.out.mlir"
}

@test "resnet18 reaches the backend contract with its batch norms folded" {
    need_torchvision
    to_contract resnet18
    ! grep -q 'batch_norm' "$OUT/resnet18.out.mlir"
    ! grep -q 'relu_\|add_' "$OUT/resnet18.out.mlir"
}

@test "mobilenet_v2 reaches the backend contract" {
    need_torchvision
    to_contract mobilenet_v2
    ! grep -q 'batch_norm\|hardtanh_' "$OUT/mobilenet_v2.out.mlir"
}

@test "TransformerEncoderLayer reaches the backend contract" {
    need_torchvision
    to_contract transformer_encoder_layer
    ! grep -q 'layer_norm\|softmax\|ListUnpack\|clone' "$OUT/transformer_encoder_layer.out.mlir"
}

@test "every --print-ir-after-all dump parses again (with eliding off)" {
    need_torchvision
    "$PY" tools/fx-export/fx-export "$MODELS:mlp" -o "$OUT/m.json"
    fx-import "$OUT/m.json" | torch-opt --print-ir-after-all -mlir-elide-elementsattrs-if-larger=0 > /dev/null 2> "$OUT/dumps"
    n=$(grep -c '^// -----// IR Dump After' "$OUT/dumps")
    [ "$n" -ge 10 ]
    # one file per dump: split at the dump headers
    awk -v d="$OUT" '/^\/\/ -----\/\/ IR Dump/ { n++ } { print > (d "/dump" n ".mlir") }' "$OUT/dumps"
    for f in "$OUT"/dump*.mlir; do
        torch-opt -p '' "$f" > /dev/null
    done
}
