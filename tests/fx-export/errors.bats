#!/usr/bin/env bats
# fx-export failures: exit status 1, an "fx-export: error:" message on
# stderr, and no output file (nor temporary file) left behind.

load helpers

@test "source without :FACTORY" {
    need_torch
    run fx_export "$MODELS" -o "$OUT/m.json"
    assert_failed_cleanly
    [[ "$output" == *"FILE.py:FACTORY"* ]]
}

@test "missing model file" {
    need_torch
    run fx_export "$OUT/../no-such-file.py:f" -o "$OUT/m.json"
    assert_failed_cleanly
    [[ "$output" == *"no such file"* ]]
}

@test "missing factory function" {
    need_torch
    run fx_export "$MODELS:no_such_factory" -o "$OUT/m.json"
    assert_failed_cleanly
    [[ "$output" == *"no_such_factory"* ]]
}

@test "bad --input specs" {
    need_torch
    for spec in 2x16 2x16xq32 2xAx16xf32 x; do
        run fx_export "$MODELS:mlp" --input "$spec" -o "$OUT/m.json"
        assert_failed_cleanly
        [[ "$output" == *"bad --input"* ]]
    done
}

@test "--autocast takes bf16 or f16 only" {
    need_torch
    for dt in f32 bfloat16; do
        run fx_export "$MODELS:mlp" --autocast "$dt" -o "$OUT/m.json"
        assert_failed_cleanly
        [[ "$output" == *"--autocast: invalid choice"* ]]
    done
}

@test "--input of the wrong shape for the model" {
    need_torch
    run fx_export "$MODELS:mlp" --input 2x5xf32 -o "$OUT/m.json"
    assert_failed_cleanly
}

@test "factory that raises" {
    need_torch
    mkdir "$OUT/src"
    printf 'def broken():\n    raise ValueError("no model today")\n' > "$OUT/src/bad.py"
    run fx_export "$OUT/src/bad.py:broken" -o "$OUT/src/m.json"
    echo "$output"
    [ "$status" -eq 1 ]
    [[ "$output" == *"fx-export: error:"*"no model today"* ]]
    [ "$(ls "$OUT/src")" = "bad.py" ]
}

@test "model file that fails to import" {
    need_torch
    mkdir "$OUT/src"
    printf 'import no_such_module_here\n' > "$OUT/src/bad.py"
    run fx_export "$OUT/src/bad.py:f" -o "$OUT/src/m.json"
    echo "$output"
    [ "$status" -eq 1 ]
    [[ "$output" == *"fx-export: error:"*"no_such_module_here"* ]]
    [ "$(ls "$OUT/src")" = "bad.py" ]
}

@test "factory returning something that is not a module" {
    need_torch
    mkdir "$OUT/src"
    printf 'def f():\n    return 42\n' > "$OUT/src/bad.py"
    run fx_export "$OUT/src/bad.py:f" --input 2xf32 -o "$OUT/src/m.json"
    echo "$output"
    [ "$status" -eq 1 ]
    [[ "$output" == *"not a torch.nn.Module"* ]]
    [ "$(ls "$OUT/src")" = "bad.py" ]
}

@test "no example inputs" {
    need_torch
    mkdir "$OUT/src"
    printf 'import torch\ndef f():\n    return torch.nn.ReLU()\n' > "$OUT/src/m.py"
    run fx_export "$OUT/src/m.py:f" -o "$OUT/src/m.json"
    echo "$output"
    [ "$status" -eq 1 ]
    [[ "$output" == *"no example inputs"* ]]
    [ "$(ls "$OUT/src")" = "m.py" ]
}

@test "untraceable control flow at torch level" {
    need_torch
    mkdir "$OUT/src"
    cat > "$OUT/src/m.py" <<'PY'
import torch
class Branchy(torch.nn.Module):
    def forward(self, x):
        if x.sum() > 0:
            return x * 2
        return x
def f():
    return Branchy(), (torch.randn(3),)
PY
    run fx_export "$OUT/src/m.py:f" --graph torch -o "$OUT/src/m.json"
    echo "$output"
    [ "$status" -eq 1 ]
    [[ "$output" == *"fx-export: error:"* ]]
    [ "$(ls "$OUT/src")" = "m.py" ]
}

@test "output directory that does not exist" {
    need_torch
    run fx_export "$MODELS:linear" -o "$OUT/missing/m.json"
    assert_failed_cleanly
}

@test "a failed export leaves existing outputs untouched" {
    need_torch
    run fx_export "$MODELS:linear" -o "$OUT/m.json"
    [ "$status" -eq 0 ]
    cp "$OUT/m.json" "$OUT/m.json.orig"
    cp "$OUT/m.safetensors" "$OUT/m.safetensors.orig"
    run fx_export "$MODELS:mlp" --input 2x5xf32 -o "$OUT/m.json"
    [ "$status" -eq 1 ]
    cmp "$OUT/m.json" "$OUT/m.json.orig"
    cmp "$OUT/m.safetensors" "$OUT/m.safetensors.orig"
    [ "$(ls -A "$OUT" | wc -l)" -eq 4 ]  # no temporary files
}

@test "Python API: unknown graph level raises ExportError, writes nothing" {
    need_torch
    run "$PY" - "$OUT/m.json" <<'PY'
import sys
sys.path[:0] = ["tools/fx-export", "tests/fx-export"]
import fx_export, models
module, inputs = models.linear()
try:
    fx_export.export(module, inputs, sys.argv[1], graph="bogus")
except fx_export.ExportError as e:
    print("ExportError:", e)
else:
    raise SystemExit("no error")
PY
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == *"unknown graph level"* ]]
    [ -z "$(ls -A "$OUT")" ]
}

# The trace must give eager's values where it reads storage: a lost
# layout is refused, not exported wrong (found by torch-mlir's
# AtenAsStridedChannelsLastInputModule).  Functionalization loses the
# channels-last copy; the unfunctionalized trace keeps it and is taken.
@test "as_strided over a channels-last copy: the aten export keeps the copy, the torch-level one fails in fx-import" {
    need_torch
    fx_export "$EDGE_MODELS:channels_last_strided" -o "$OUT/m.json"
    grep -q '"channels_last"' "$OUT/m.json"
    fx_export "$EDGE_MODELS:channels_last_strided" --graph=torch -o "$OUT/t.json"
    run bin/fx-import "$OUT/t.json"
    [ "$status" -eq 1 ]
    [[ "$output" == *"not laid out row-major"* ]]
}

@test "as_strided that no trace makes give eager's values is refused" {
    need_torch
    run fx_export "$EDGE_MODELS:shifting_strided" -o "$OUT/m.json"
    assert_failed_cleanly
    [[ "$output" == *"as_strided gives other values than eager"* ]]
}
