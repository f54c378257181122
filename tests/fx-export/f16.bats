#!/usr/bin/env bats
# float16 models (tests/fx-export/f16_models.py: a convolution net, an MLP,
# batch norm, layer norm) under the default PyTorch, 1.13, whose CPU
# kernels lack float16 for most of their ops: fx-export traces them with
# fake tensors.  The exports must be the float16 graphs (each the float32
# graph of the same model with float16 for float32, weights bit for bit),
# and the whole pipe must compute what the model computes, against the
# model run in float64 at the float16 tolerance f16_models.py states.
# Needs bin/ built (the pipe); the exports are made once, in setup_file.

load helpers

F16_MODELS=tests/fx-export/f16_models.py
NAMES="conv mlp batch_norm layer_norm"

setup_file() {
    local py="${PYTHON:-/usr/bin/python3}" status=0
    mkdir -p "$BATS_FILE_TMPDIR/models"
    if [ "${SANITIZE:-0}" != 1 ] && "$py" -c "import torch" 2>/dev/null; then
        "$py" "$F16_MODELS" export "$BATS_FILE_TMPDIR/models" \
            > "$BATS_FILE_TMPDIR/export.log" 2>&1 || status=$?
        echo "$status" > "$BATS_FILE_TMPDIR/export.status"
    fi
}

# need_exports: setup_file's exports (made where $PY imports torch; each
# `import torch` costs seconds, so the tests do not try it again)
need_exports() {
    [ -f "$BATS_FILE_TMPDIR/export.status" ] || skip "$PY cannot import torch"
}

# pipe_matches NAME JSON: the export through every stage, run on the
# model's input, compared with the float64 reference
pipe_matches() {
    local dir="$BATS_FILE_TMPDIR/models/$1"
    bin/fx-import "$dir/$2" | bin/torch-opt | bin/torch-lower | bin/codegen --target=cpu |
        bin/vmpack -o "$OUT/m.vmfb"
    bin/vmrun "$OUT/m.vmfb" --input=@"$dir/x.npy" --output=@"$OUT/y.npy"
    cp "$dir/ref.npy" "$OUT/"
    run "$PY" "$F16_MODELS" compare "$OUT"
    echo "$output"
    [ "$status" -eq 0 ]
}

@test "float16 models export as their float32 graphs in float16, at both levels" {
    need_exports
    cat "$BATS_FILE_TMPDIR/export.log"
    [ "$(cat "$BATS_FILE_TMPDIR/export.status")" -eq 0 ]
    for name in $NAMES; do
        [ -f "$BATS_FILE_TMPDIR/models/$name/m.safetensors" ]
        [ -f "$BATS_FILE_TMPDIR/models/$name/t.safetensors" ]
    done
}

@test "float16 conv net through the pipe matches the model in float64" {
    need_exports
    pipe_matches conv m.json
    pipe_matches conv t.json
}

@test "float16 MLP through the pipe matches the model in float64" {
    need_exports
    pipe_matches mlp m.json
    pipe_matches mlp t.json
}

@test "float16 batch norm net through the pipe matches the model in float64" {
    need_exports
    pipe_matches batch_norm m.json
    pipe_matches batch_norm t.json
    # eval-mode batch norm saves no statistics: two empty float16 results,
    # as the CPU kernel gives them (1.13's meta kernel says [8] float32)
    run "$PY" - "$BATS_FILE_TMPDIR/models/batch_norm/m.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
bn = [n for n in doc["nodes"] if "batch_norm" in n["target"]]
assert len(bn) == 1, [n["target"] for n in doc["nodes"]]
items = bn[0]["value"]["items"]
assert [(i["shape"], i["dtype"]) for i in items] == \
    [([2, 8, 8, 8], "float16"), ([0], "float16"), ([0], "float16")], items
PY
    echo "$output"
    [ "$status" -eq 0 ]
}

@test "float16 layer norm net through the pipe matches the model in float64" {
    need_exports
    pipe_matches layer_norm m.json
    pipe_matches layer_norm t.json
}

@test "the command line exports the float16 conv net of issue 25" {
    need_exports
    run fx_export "$F16_MODELS:conv" -o "$OUT/conv.json"
    echo "$output"
    [ "$status" -eq 0 ]
    check_json "$OUT/conv.json" --graph aten --target aten.convolution.default \
        --target aten.addmm.default
    run "$PY" - "$OUT/conv.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
dtypes = [t["dtype"] for t in doc["inputs"] + doc["weights"]["tensors"]]
dtypes += [n["value"]["dtype"] for n in doc["nodes"] if n["op"] != "output"]
assert set(dtypes) == {"float16"}, dtypes
assert len(dtypes) == 1 + 4 + len(doc["nodes"]) - 1
PY
    echo "$output"
    [ "$status" -eq 0 ]
}

@test "a float16 model that neither kernels nor fake tensors trace is refused, naming the op" {
    need_exports
    grep -q '"capture": "make_fx"' "$BATS_FILE_TMPDIR/models/conv/m.json" ||
        skip "PyTorch >= 2.1 (torch.export) traces median in float16"
    run fx_export "$F16_MODELS:conv_median" -o "$OUT/m.json"
    assert_failed_cleanly
    [[ "$output" == *"at aten.median.dim on float16 tensors"* ]]
    [[ "$output" == *"no meta kernel"* ]]
}

@test "the float16 comparison fails a wrong result and a near-zero reference" {
    "$PY" -c 'import numpy' 2>/dev/null || skip "$PY has no numpy"
    run "$PY" - "$OUT" <<'PY'
import sys
import numpy as np
sys.path.insert(0, "tests/fx-export")
import f16_models
out = sys.argv[1]
def compare(ref, y):
    np.save(out + "/ref.npy", ref)
    np.save(out + "/y.npy", y)
    return f16_models.compare(out)
ref = np.random.default_rng(0).standard_normal((4, 10))
y = ref.astype(np.float16)
assert compare(ref, y) == 0                     # float16 rounding passes
bad = y.copy(); bad[2, 3] += np.float16(0.02 * abs(ref).max())
assert compare(ref, bad) == 1                   # one element 2% of the scale off
bad = y.copy(); bad[0, 0] = np.nan
assert compare(ref, bad) == 1                   # NaN
assert compare(ref, y.astype(np.float32)) == 1  # not float16
assert compare(ref * 1e-3, (ref * 1e-3).astype(np.float16)) == 1  # reference near zero
PY
    echo "$output"
    [ "$status" -eq 0 ]
}
