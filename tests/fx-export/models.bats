#!/usr/bin/env bats
# fx-export on the five test models (tests/fx-export/models.py): each export
# must validate, contain the expected ops, have a consistent weights file,
# and compute what the module computes.

load helpers

@test "LinearModule exports at aten level" {
    need_torch
    export_model linear aten
    check_json "$OUT/linear-aten.json" --graph aten --target aten.mm.default \
        --target aten.add.Tensor
    same_as_module "$OUT/linear-aten.json" "$MODELS:linear"
}

@test "LinearModule exports at torch level" {
    need_torch
    export_model linear torch
    check_json "$OUT/linear-torch.json" --graph torch --target operator.matmul \
        --target operator.add
    same_as_module "$OUT/linear-torch.json" "$MODELS:linear"
}

@test "MLP exports at aten level" {
    need_torch
    export_model mlp aten
    check_json "$OUT/mlp-aten.json" --graph aten --target aten.addmm.default \
        --target aten.relu.default
    same_as_module "$OUT/mlp-aten.json" "$MODELS:mlp"
}

@test "MLP exports at torch level with call_module torch.nn.Linear" {
    need_torch
    export_model mlp torch
    check_json "$OUT/mlp-torch.json" --graph torch --target torch.nn.Linear \
        --target torch.relu
    same_as_module "$OUT/mlp-torch.json" "$MODELS:mlp"
    # The Linear layers carry their config and weight names.
    run "$PY" - "$OUT/mlp-torch.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
fc1 = next(n for n in doc["nodes"] if n["name"] == "fc1")
assert fc1["op"] == "call_module", fc1
assert fc1["module"]["config"]["in_features"] == {"type": "int", "value": 16}, fc1
assert fc1["module"]["config"]["out_features"] == {"type": "int", "value": 32}, fc1
assert fc1["module"]["weights"] == {"weight": "fc1.weight", "bias": "fc1.bias"}, fc1
PY
    echo "$output"
    [ "$status" -eq 0 ]
}

@test "resnet18 exports at aten level" {
    need_torchvision
    export_model resnet18 aten
    check_json "$OUT/resnet18-aten.json" --graph aten \
        --target aten.convolution.default --target aten.addmm.default
    grep -q 'batch_norm' "$OUT/resnet18-aten.json"
    same_as_module "$OUT/resnet18-aten.json" "$MODELS:resnet18"
}

@test "mobilenet_v2 exports at aten level" {
    need_torchvision
    export_model mobilenet_v2 aten
    check_json "$OUT/mobilenet_v2-aten.json" --graph aten \
        --target aten.convolution.default
    grep -q '"aten.hardtanh' "$OUT/mobilenet_v2-aten.json"
    same_as_module "$OUT/mobilenet_v2-aten.json" "$MODELS:mobilenet_v2"
}

@test "TransformerEncoderLayer exports without the fused fast-path ops" {
    need_torch
    export_model transformer_encoder_layer aten
    check_json "$OUT/transformer_encoder_layer-aten.json" --graph aten \
        --no-target-containing _native_multi_head_attention \
        --no-target-containing _transformer_encoder_layer_fwd \
        --no-target-containing scaled_dot_product \
        --target aten.bmm.default --target aten._softmax.default
    same_as_module "$OUT/transformer_encoder_layer-aten.json" \
        "$MODELS:transformer_encoder_layer"
}

@test "TransformerEncoderLayer with batch_first under no_grad still avoids the fast path" {
    need_torch
    # batch_first=True + eval + no_grad is exactly when PyTorch takes the
    # fused path at run time; the exporter must not capture it.
    run "$PY" - "$OUT/t.json" <<'PY'
import sys
sys.path.insert(0, "tools/fx-export")
import torch, fx_export
torch.manual_seed(0)
layer = torch.nn.TransformerEncoderLayer(d_model=64, nhead=4, batch_first=True).eval()
with torch.no_grad():
    fx_export.export(layer, (torch.randn(2, 8, 64),), sys.argv[1])
    assert torch.is_grad_enabled() is False  # the caller's mode is restored
assert all(p.requires_grad for p in layer.parameters())
PY
    echo "$output"
    [ "$status" -eq 0 ]
    check_json "$OUT/t.json" --no-target-containing _native_multi_head_attention \
        --no-target-containing _transformer_encoder_layer_fwd \
        --no-target-containing scaled_dot_product
}

@test "edge cases: slices, inf, int64 and bool inputs/weights, bf16 buffer, dict outputs" {
    need_torch
    for level in aten torch; do
        run fx_export "$EDGE_MODELS:corners" --graph $level -o "$OUT/corners-$level.json"
        echo "$output"
        [ "$status" -eq 0 ]
        check_json "$OUT/corners-$level.json" --graph $level
        same_as_module "$OUT/corners-$level.json" "$EDGE_MODELS:corners"
        grep -q '"value": "-inf"' "$OUT/corners-$level.json"
        grep -q '"dtype": "bool"' "$OUT/corners-$level.json"
        grep -q '"type": "dict"' "$OUT/corners-$level.json"
    done
    grep -q '"type": "slice"' "$OUT/corners-torch.json"
    grep -q '"dtype": "bfloat16"' "$OUT/corners-aten.json"
}
