#!/usr/bin/env bats
# fx-export --dynamic IN:DIM:NAME[=MIN..MAX]: bad specs are refused before
# any trace (any PyTorch); PyTorch 1.13 refuses the flag with the reason;
# PyTorch >= 2.1 (torch.export with Dims) writes symbolic sizes and the
# symbols table (formats/fx-json.md, "Symbolic shapes").
# PyTorch 2: $PYTHON2, else .venv/bin/python; those tests skip without it.

load helpers

need_torch2() {
    PY2="${PYTHON2:-.venv/bin/python}"
    "$PY2" -c "import torch, sys; sys.exit(tuple(map(int, torch.__version__.split('.')[:2])) < (2, 1))" \
        2>/dev/null || skip "$PY2 has no PyTorch >= 2.1"
}

# fields JSON PYTHON-EXPR: prints the expression of the document d.
fields() {
    python3 -c "import json, sys; d = json.load(open(sys.argv[1])); print(($2))" "$1"
}

@test "dynamic: bad --dynamic specs are refused" {
    need_torch
    for spec in 0:0 x:0:b 0:0:1b 0:0:b=5..2 0:0:b=.. 0:0:b=1-4 -1:0:b 0:0:b:c; do
        run fx_export "$MODELS:mlp" "--dynamic=$spec" -o "$OUT/m.json"
        assert_failed_cleanly
        [[ "$output" == *"bad --dynamic '$spec'"* ]]
    done
}

# checked before tracing, so any PyTorch
@test "dynamic: specs that do not fit the inputs are refused" {
    need_torch
    run fx_export "$MODELS:mlp" --dynamic 1:0:b -o "$OUT/m.json"
    assert_failed_cleanly
    [[ "$output" == *"--dynamic 1:0:b: the module has 1 input"* ]]
    run fx_export "$MODELS:mlp" --dynamic 0:2:b -o "$OUT/m.json"
    assert_failed_cleanly
    [[ "$output" == *"input 0 has 2 dimensions"* ]]
    run fx_export "$MODELS:mlp" --dynamic 0:b --dynamic 0:0:c -o "$OUT/m.json"
    assert_failed_cleanly
    [[ "$output" == *"dimension 0 of input 0 is given twice"* ]]
    run fx_export "$MODELS:mlp" --dynamic 0:b=3..8 -o "$OUT/m.json"
    assert_failed_cleanly
    [[ "$output" == *"size 2 is outside the range [3, 8]"* ]]
    run fx_export "$MODELS:mlp" --dynamic 0:b --graph torch -o "$OUT/m.json"
    assert_failed_cleanly
    [[ "$output" == *"--dynamic needs an aten graph"* ]]
}

@test "dynamic: a dimension the model fixes is refused with torch.export's reason" {
    need_torch2
    PY=$PY2
    # fc1 needs 16 features: dimension 1 cannot be a symbol
    run fx_export "$MODELS:mlp" --dynamic 0:1:f -o "$OUT/m.json"
    assert_failed_cleanly
    [[ "$output" == *"torch.export refused the dynamic dimensions"* ]]
}

@test "dynamic: PyTorch 1.13 refuses --dynamic, saying why" {
    need_torch
    "$PY" -c "import torch, sys; sys.exit(not torch.__version__.startswith('1.'))" \
        || skip "$PY is not PyTorch 1.x"
    run fx_export "$MODELS:mlp" --dynamic 0:batch -o "$OUT/m.json"
    assert_failed_cleanly
    [[ "$output" == *"--dynamic needs torch.export (PyTorch >= 2.1)"* ]]
    [[ "$output" == *"make_fx(tracing_mode='symbolic')"* ]]
}

@test "dynamic: PyTorch 2 writes the symbol, its range and symbolic sizes" {
    need_torch2
    PY=$PY2
    export_model mlp aten --dynamic 0:batch=1..64
    J="$OUT/mlp-aten.json"
    PY=/usr/bin/python3 check_json "$J"
    [ "$(fields "$J" 'd["symbols"]')" = "[{'name': 'batch', 'min': 1, 'max': 64}]" ]
    [ "$(fields "$J" 'd["inputs"][0]["shape"], d["inputs"][0]["strides"]')" = "(['batch', 16], [16, 1])" ]
    [ "$(fields "$J" '[n["value"]["shape"] for n in d["nodes"] if n["target"] == "aten.addmm.default"]')" = \
      "[['batch', 32], ['batch', 32], ['batch', 8]]" ]
    # weights stay static
    [ "$(fields "$J" 'all(isinstance(s, int) for t in d["weights"]["tensors"] for s in t["shape"])')" = True ]
}

@test "dynamic: inputs share a symbol; expressions; an unbounded range" {
    need_torch2
    PY=$PY2
    run fx_export tests/fx-import/models.py:dynamic_cat --dynamic 0:0:n=1..64 --dynamic 1:0:m \
        -o "$OUT/d.json"
    echo "$output"
    [ "$status" -eq 0 ]
    PY=/usr/bin/python3 check_json "$OUT/d.json"
    [ "$(fields "$OUT/d.json" '[s["name"] for s in d["symbols"]], d["symbols"][1]["max"]')" = "(['n', 'm'], None)" ]
    [ "$(fields "$OUT/d.json" '[n["value"]["shape"] for n in d["nodes"] if n["target"] == "aten.slice.Tensor"]')" = \
      "[['m + n - 1', 4]]" ]
    [ "$(fields "$OUT/d.json" '[n["value"] for n in d["nodes"] if n["target"] == "aten.sym_size.int"]')" = \
      "[{'type': 'int', 'expr': 'n'}, {'type': 'int', 'expr': 'm'}]" ]
    # one symbol for two inputs: x + y with a shared batch
    cat > "$OUT/shared.py" <<'PY'
import torch
class Add(torch.nn.Module):
    def forward(self, x, y):
        return x + y
def add():
    return Add(), (torch.randn(3, 2), torch.randn(3, 2))
PY
    run fx_export "$OUT/shared.py:add" --dynamic 0:0:b --dynamic 1:0:b -o "$OUT/s.json"
    echo "$output"
    [ "$status" -eq 0 ]
    [ "$(fields "$OUT/s.json" '[i["shape"] for i in d["inputs"]], [s["name"] for s in d["symbols"]]')" = \
      "([['b', 2], ['b', 2]], ['b'])" ]
}
