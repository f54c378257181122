# Shared setup for the fx-export bats tests.  Run from the repository root:
#   bats tests/fx-export
# Python: $PYTHON if set, else /usr/bin/python3.  Tests that need torch
# (or torchvision) skip with a message when that Python cannot import it.

setup() {
    # These tests exercise Python only; the sanitizer pass of CI (which
    # rebuilds the C tools) has nothing to add to them.
    [ "${SANITIZE:-0}" = 1 ] && skip "python-only test: it runs in the plain pass"
    PY="${PYTHON:-/usr/bin/python3}"
    FX_EXPORT="tools/fx-export/fx-export"
    MODELS="tests/fx-export/models.py"
    EDGE_MODELS="tests/fx-export/edge_models.py"
    CHECK="tests/fx-export/check_fx_json.py"
    RUN_GRAPH="tests/fx-export/run_fx_json.py"
    FIXTURES="tests/fx-export/fixtures"
    OUT="$BATS_TEST_TMPDIR"
}

need_torch() {
    "$PY" -c "import torch" 2>/dev/null || skip "$PY cannot import torch"
}

need_torchvision() {
    need_torch
    "$PY" -c "import torchvision" 2>/dev/null || skip "$PY cannot import torchvision"
}

fx_export() {
    "$PY" "$FX_EXPORT" "$@"
}

# check_json FILE [check_fx_json.py options]: schema, graph and weights checks.
check_json() {
    run "$PY" "$CHECK" "$@"
    echo "$output"
    [ "$status" -eq 0 ]
}

# same_as_module FILE.json FILE.py:FACTORY: running the exported graph gives
# the module's own outputs.
same_as_module() {
    run "$PY" "$RUN_GRAPH" "$1" --factory "$2"
    echo "$output"
    [ "$status" -eq 0 ]
}

# export_model NAME LEVEL [more fx-export options]: export a models.py
# factory to $OUT/NAME-LEVEL.json and check it.
export_model() {
    local name=$1 level=$2
    shift 2
    run fx_export "$MODELS:$name" --graph "$level" "$@" -o "$OUT/$name-$level.json"
    echo "$output"
    [ "$status" -eq 0 ]
    [ -f "$OUT/$name-$level.json" ]
    [ -f "$OUT/$name-$level.safetensors" ]
}

# assert_failed_cleanly: the last `run` exited 1 with an fx-export error
# message, and left nothing in $OUT (no output, no temporary files).
assert_failed_cleanly() {
    echo "$output"
    [ "$status" -eq 1 ]
    [[ "$output" == *"fx-export: error:"* ]]
    [ -z "$(ls -A "$OUT")" ]
}
