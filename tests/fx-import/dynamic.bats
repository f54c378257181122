#!/usr/bin/env bats
# Dynamic dimensions (formats/fx-json.md, "Symbolic shapes"): malformed
# symbol tables and shape expressions are refused naming their JSON path;
# the printed IR reads back through torch-opt.  Each bad input is a small
# edit of inputs/dynamic-aten.json (dynamic.mlir checks the good one).

bats_require_minimum_version 1.5.0

setup() {
	ROOT="$BATS_TEST_DIRNAME/../.."
	PATH="$ROOT/bin:$PATH"
	IN="$BATS_TEST_DIRNAME/inputs/dynamic-aten"
	cp "$IN.safetensors" "$BATS_TEST_TMPDIR/"
}

# edit PYTHON: bad.json = dynamic-aten.json after PYTHON runs on it as d
# (nodes by name: node("x")).
edit() {
	python3 - "$IN.json" "$BATS_TEST_TMPDIR/bad.json" "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
def node(name):
    return next(n for n in d["nodes"] if n["name"] == name)
exec(sys.argv[3])
json.dump(d, open(sys.argv[2], "w"))
PY
}

# expect_error MESSAGE: bad.json fails with exactly MESSAGE, no output.
expect_error() {
	cd "$BATS_TEST_TMPDIR"
	run --separate-stderr fx-import bad.json
	[ "$status" -eq 1 ] || { echo "status $status"; false; }
	[ -z "$output" ] || { echo "stdout: $output"; false; }
	[ "$stderr" = "$1" ] || { echo "stderr: $stderr"; echo "wanted: $1"; false; }
}

@test "dynamic: the import reads back through torch-opt -p ''" {
	fx-import "$IN.json" -o "$BATS_TEST_TMPDIR/m.mlir"
	torch-opt -p '' "$BATS_TEST_TMPDIR/m.mlir" -o "$BATS_TEST_TMPDIR/r.mlir"
	grep -q 'torch.symbolic_int "n" {min_val = 1, max_val = 64}' "$BATS_TEST_TMPDIR/r.mlir"
	[ "$(grep -c bind_symbolic_shape "$BATS_TEST_TMPDIR/m.mlir")" = \
	  "$(grep -c bind_symbolic_shape "$BATS_TEST_TMPDIR/r.mlir")" ]
}

@test "dynamic: the expression grammar: // % unary minus, parentheses" {
	edit 'node("relu")["value"]["shape"][0] = "(m + n) // 2 % 3 - -n * 2"'
	cd "$BATS_TEST_TMPDIR"
	fx-import --strip-debuginfo bad.json > m.mlir
	grep -qF 'torch.bind_symbolic_shape %11, [%1, %0], affine_map<()[s0, s1] -> (((s0 + s1) floordiv 2) mod 3 - (-s1) * 2, 3)> : !torch.vtensor<[?,3],f32>' m.mlir
	torch-opt -p '' m.mlir | grep -qF 'affine_map<()[s0, s1] -> (((s0 + s1) floordiv 2) mod 3 - (-s1) * 2, 3)>'
}

@test "dynamic: a size naming an undeclared symbol" {
	edit 'node("cat")["value"]["shape"][0] = "m + k"'
	expect_error "fx-import: bad.json: nodes[6].value.shape[0]: error: bad shape expression \"m + k\": a name that is not in the document's symbols at offset 4"
}

@test "dynamic: a malformed expression" {
	edit 'node("x")["value"]["shape"][0] = "n * (m"'
	expect_error "fx-import: bad.json: nodes[2].value.shape[0]: error: bad shape expression \"n * (m\": expected ')' at offset 6"
}

@test "dynamic: division by a constant that is not positive" {
	edit 'node("x")["value"]["shape"][0] = "n // 0"'
	expect_error "fx-import: bad.json: nodes[2].value.shape[0]: error: bad shape expression \"n // 0\": a divisor that is not positive at offset 6"
}

@test "dynamic: a symbolic size without a symbols table" {
	edit 'del d["symbols"]'
	expect_error "fx-import: bad.json: nodes[2].value.shape[0]: error: a symbolic size \"n\" in a document with no symbols table"
}

@test "dynamic: a symbol declared twice" {
	edit 'd["symbols"].append(dict(d["symbols"][0]))'
	expect_error "fx-import: bad.json: symbols[2].name: error: symbol 'n' is declared twice"
}

@test "dynamic: a symbol name that is not an identifier" {
	edit 'd["symbols"][0]["name"] = "n+1"'
	expect_error "fx-import: bad.json: symbols[0].name: error: 'n+1' is not a symbol name ([A-Za-z_][A-Za-z0-9_]*)"
}

@test "dynamic: an empty range" {
	edit 'd["symbols"][0]["min"] = 65'
	expect_error "fx-import: bad.json: symbols[0]: error: empty range [65, 64]"
}

@test "dynamic: a missing or mistyped bound" {
	edit 'del d["symbols"][1]["max"]'
	expect_error "fx-import: bad.json: symbols[1].max: error: missing (null when unbounded)"
	edit 'd["symbols"][1]["max"] = "64"'
	expect_error "fx-import: bad.json: symbols[1].max: error: expected an integer or null"
}

@test "dynamic: weights stay static" {
	edit 'd["weights"]["tensors"][0]["shape"][0] = "n"'
	expect_error "fx-import: bad.json: weights.tensors[0].shape[0]: error: expected a dimension size"
}

# Issue 22's first stage stops at torch-opt's parsing: until the later
# stages carry `?` dimensions, each must refuse them (an error naming the
# op, no output), never drop them into a static module.
@test "dynamic: torch-opt's pipeline keeps the symbolic ops to the backend contract, and reads its output back" {
	run --separate-stderr bash -c "fx-import '$IN.json' | torch-opt"
	[ "$status" -eq 0 ]
	[[ "$output" == *'torch.symbolic_int "n" {min_val = 1, max_val = 64}'* ]]
	[[ "$output" == *"torch.bind_symbolic_shape %arg0"* ]]
	printf '%s\n' "$output" | torch-opt -p '' > /dev/null
}

@test "dynamic: torch-lower lowers a ? dimension with tensor.dim, and refuses what it cannot take, writing nothing" {
	cat > "$BATS_TEST_TMPDIR/mm.mlir" <<'MLIR'
func.func @main(%arg0: !torch.vtensor<[?,8],f32>, %arg1: !torch.vtensor<[8,4],f32>) -> !torch.vtensor<[?,4],f32> {
  %0 = torch.aten.mm %arg0, %arg1 : !torch.vtensor<[?,8],f32>, !torch.vtensor<[8,4],f32> -> !torch.vtensor<[?,4],f32>
  return %0 : !torch.vtensor<[?,4],f32>
}
MLIR
	cat > "$BATS_TEST_TMPDIR/var.mlir" <<'MLIR'
func.func @main(%arg0: !torch.vtensor<[?,8],f32>) -> !torch.vtensor<[8],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %false = torch.constant.bool false
  %0 = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %1 = torch.aten.var.correction %arg0, %0, %int1, %false : !torch.vtensor<[?,8],f32>, !torch.list<int>, !torch.int, !torch.bool -> !torch.vtensor<[8],f32>
  return %1 : !torch.vtensor<[8],f32>
}
MLIR
	cd "$BATS_TEST_TMPDIR"
	run --separate-stderr bash -c "torch-opt mm.mlir | torch-lower"
	[ "$status" -eq 0 ]
	[[ "$output" == *"tensor.dim %arg0"* ]]
	[[ "$output" == *"linalg.matmul ins(%arg0, %arg1 : tensor<?x8xf32>, tensor<8x4xf32>)"* ]]
	printf '%s\n' "$output" | mlir-opt-16 > /dev/null
	run --separate-stderr bash -c "torch-opt var.mlir | torch-lower"
	[ "$status" -ne 0 ]
	[ -z "$output" ]
	[[ "$stderr" == *"error: torch-lower: 'torch.aten.var.correction' over a dynamic dimension is not supported yet"* ]]
}
