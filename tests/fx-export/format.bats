#!/usr/bin/env bats
# The fx-json format: committed fixtures, the schema and checker, the CLI's
# options and installation, determinism, source locations, the man page.

load helpers

@test "committed fixtures are valid (needs no torch)" {
    for name in linear-aten linear-torch mlp-aten; do
        [ -f "$FIXTURES/$name.json" ]
        [ -f "$FIXTURES/$name.safetensors" ]
        check_json "$FIXTURES/$name.json"
    done
}

@test "committed fixtures match what the exporter writes now" {
    need_torch
    fixture_torch=$(sed -n 's/.*"torch_version": "\([^"]*\)".*/\1/p' "$FIXTURES/linear-aten.json")
    [ "$("$PY" -c 'import torch; print(torch.__version__)')" = "$fixture_torch" ] ||
        skip "fixtures were written with torch $fixture_torch"
    PYTHON="$PY" run tests/fx-export/regen-fixtures.sh "$OUT"
    echo "$output"
    [ "$status" -eq 0 ]
    for f in linear-aten.json linear-aten.safetensors linear-torch.json \
             linear-torch.safetensors mlp-aten.json mlp-aten.safetensors; do
        cmp "$FIXTURES/$f" "$OUT/$f"
    done
}

@test "the checker rejects a truncated weights file" {
    cp "$FIXTURES/mlp-aten.json" "$OUT/"
    head -c 1000 "$FIXTURES/mlp-aten.safetensors" > "$OUT/mlp-aten.safetensors"
    run "$PY" "$CHECK" "$OUT/mlp-aten.json"
    echo "$output"
    [ "$status" -eq 1 ]
    [[ "$output" == *"bytes"* ]]
}

@test "the schema rejects untagged arguments and bad floats" {
    "$PY" -c "import jsonschema" 2>/dev/null || skip "$PY has no jsonschema module"
    cp "$FIXTURES/linear-aten.safetensors" "$OUT/"
    sed 's/{"type": "int", "value": 0}/0/' "$FIXTURES/linear-aten.json" > "$OUT/linear-aten.json"
    run "$PY" "$CHECK" "$OUT/linear-aten.json"
    echo "$output"
    [ "$status" -eq 1 ]
    [[ "$output" == *"schema"* ]]
    sed 's/"value": 0}/"value": "Infinity"}/; s/"type": "int", "value": "Infinity"/"type": "float", "value": "Infinity"/' \
        "$FIXTURES/linear-aten.json" > "$OUT/linear-aten.json"
    run "$PY" "$CHECK" "$OUT/linear-aten.json"
    echo "$output"
    [ "$status" -eq 1 ]
}

@test "the JSON Schema is itself valid" {
    "$PY" -c "import jsonschema" 2>/dev/null || skip "$PY has no jsonschema module"
    "$PY" -c "
import json, jsonschema
jsonschema.Draft202012Validator.check_schema(json.load(open('formats/fx-json.schema.json')))"
}

@test "top-level fields and weights file name" {
    need_torch
    export_model linear aten
    run "$PY" - "$OUT/linear-aten.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["format"] == "fxpipe-fx-json" and doc["version"] == 1
assert doc["graph"] == "aten" and doc["torch_version"]
assert doc["weights"]["file"] == "linear-aten.safetensors"
assert [t["name"] for t in doc["weights"]["tensors"]] == ["weight", "bias"]
assert doc["inputs"] == [{"name": doc["inputs"][0]["name"], "shape": [4],
                          "dtype": "float32", "strides": [1]}]
assert doc["outputs"]["type"] == "tensor"
attrs = {n["target"] for n in doc["nodes"] if n["op"] == "get_attr"}
assert attrs == {"weight", "bias"}, attrs
PY
    echo "$output"
    [ "$status" -eq 0 ]
}

@test "weights file size is header plus the tensors' bytes" {
    need_torch
    export_model mlp aten
    # 16*32 + 32 + 32*32 + 32 + 32*8 + 8 floats
    data=$(( (16*32 + 32 + 32*32 + 32 + 32*8 + 8) * 4 ))
    header=$("$PY" -c "
import struct, sys
print(struct.unpack('<Q', open(sys.argv[1], 'rb').read(8))[0])" "$OUT/mlp-aten.safetensors")
    [ $(( (8 + header) % 8 )) -eq 0 ]
    [ "$(stat -c %s "$OUT/mlp-aten.safetensors")" -eq $(( 8 + header + data )) ]
}

@test "source locations point into the model file" {
    need_torch
    export_model linear torch
    line=$(grep -n 'return (input @ self.weight) + self.bias' "$MODELS" | cut -d: -f1)
    run "$PY" - "$OUT/linear-torch.json" "$line" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
add = next(n for n in doc["nodes"] if n["target"] == "operator.add")
assert add["loc"]["file"] == "tests/fx-export/models.py", add["loc"]
assert add["loc"]["line"] == int(sys.argv[2]), add["loc"]
assert add["loc"]["col"] == 9 and add["loc"]["function"] == "forward", add["loc"]
assert "self.weight" in add["stack_trace"], add["stack_trace"]
PY
    echo "$output"
    [ "$status" -eq 0 ]
}

@test "exports are deterministic" {
    need_torch
    export_model mlp aten
    mv "$OUT/mlp-aten.json" "$OUT/first.json"
    mv "$OUT/mlp-aten.safetensors" "$OUT/first.safetensors"
    export_model mlp aten
    cmp "$OUT/first.json" "$OUT/mlp-aten.json"
    cmp "$OUT/first.safetensors" "$OUT/mlp-aten.safetensors"
}

@test "--input replaces the factory's example inputs" {
    need_torch
    export_model mlp torch --input 5x16xf32
    grep -q '"inputs": \[{"name": "x", "shape": \[5, 16\], "dtype": "float32"' \
        "$OUT/mlp-torch.json"
}

@test "--input dtypes, several inputs" {
    need_torch
    mkdir "$OUT/src"
    cat > "$OUT/src/m.py" <<'PY'
import torch
class Pass(torch.nn.Module):
    def forward(self, a, b, c, d, e, f, g, h, i, j, k):
        return tuple(x.clone() for x in (a, b, c, d, e, f, g, h, i, j, k))
def f():
    return Pass()
PY
    run fx_export "$OUT/src/m.py:f" -o "$OUT/src/m.json" --input 2x3xf64 --input 2xf16 \
        --input 2xbf16 --input 4xi64 --input 4xi32 --input 4xi16 --input 4xi8 \
        --input 4xu8 --input 4xi1 --input 1x2xbool --input f32
    echo "$output"
    [ "$status" -eq 0 ]
    run "$PY" -c "
import json, sys
doc = json.load(open(sys.argv[1]))
print([(i['shape'], i['dtype']) for i in doc['inputs']])" "$OUT/src/m.json"
    echo "$output"
    [ "$output" = "[([2, 3], 'float64'), ([2], 'float16'), ([2], 'bfloat16'), ([4], 'int64'), ([4], 'int32'), ([4], 'int16'), ([4], 'int8'), ([4], 'uint8'), ([4], 'bool'), ([1, 2], 'bool'), ([], 'float32')]" ]
}

@test "the CLI works when installed elsewhere, via FXPIPE_PYLIB or a symlink" {
    need_torch
    mkdir "$OUT/bin"
    cp "$FX_EXPORT" "$OUT/bin/fx-export"
    mkdir "$OUT/a" "$OUT/b"
    FXPIPE_PYLIB="$PWD/tools/fx-export" run "$PY" "$OUT/bin/fx-export" \
        "$MODELS:linear" -o "$OUT/a/m.json"
    echo "$output"
    [ "$status" -eq 0 ]
    ln -s "$PWD/$FX_EXPORT" "$OUT/bin/fx-export-link"
    run "$PY" "$OUT/bin/fx-export-link" "$MODELS:linear" -o "$OUT/b/m.json"
    echo "$output"
    [ "$status" -eq 0 ]
    cmp "$OUT/a/m.json" "$OUT/b/m.json"
}

@test "--help" {
    need_torch
    run fx_export --help
    [ "$status" -eq 0 ]
    [[ "$output" == *"--graph"* ]]
}

@test "man page renders and names the consumer" {
    command -v man >/dev/null || skip "man is not installed"
    run env MANWIDTH=80 man -l man/fx-export.1
    [ "$status" -eq 0 ]
    [[ "$output" == *"fx-import"* ]]
    [[ "$output" == *"safetensors"* ]]
}
