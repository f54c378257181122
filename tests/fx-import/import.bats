#!/usr/bin/env bats
# fx-import on the bundled inputs (always), and export + import of real
# models (when a Python with torch is there): every output must re-parse
# with torch-opt.

bats_require_minimum_version 1.5.0

setup() {
	cd "$BATS_TEST_DIRNAME/../.."
	PATH="$PWD/bin:$PATH"
	PY=${PYTHON:-/usr/bin/python3}
}

need_torch() {
	"$PY" -c 'import torch' 2>/dev/null || skip "no torch"
}

need_torchvision() {
	"$PY" -c 'import torchvision' 2>/dev/null || skip "no torchvision"
}

# export_import FILE.py:FACTORY LEVEL: exports, imports, re-parses.
export_import() {
	json="$BATS_TEST_TMPDIR/m.json"
	"$PY" tools/fx-export/fx-export "$1" --graph "$2" -o "$json"
	fx-import "$json" -o "$BATS_TEST_TMPDIR/m.mlir"
	torch-opt -p '' "$BATS_TEST_TMPDIR/m.mlir" > /dev/null
}

@test "bundled inputs import and re-parse" {
	for j in tests/fx-import/inputs/*.json; do
		fx-import "$j" | torch-opt -p '' > /dev/null || { echo "failed: $j"; false; }
	done
}

@test "stdin input, weights beside the working directory" {
	cd tests/fx-import/inputs
	fx-import - < linear-aten.json | grep -q 'torch.aten.mm'
}

@test "-o writes the file atomically, nothing on stdout" {
	run --separate-stderr fx-import -o "$BATS_TEST_TMPDIR/x.mlir" tests/fx-import/inputs/mlp-aten.json
	[ "$status" -eq 0 ] && [ -z "$output" ]
	grep -q 'func.func @main' "$BATS_TEST_TMPDIR/x.mlir"
}

@test "same output twice" {
	a=$(fx-import tests/fx-import/inputs/corners-torch.json)
	b=$(fx-import tests/fx-import/inputs/corners-torch.json)
	[ "$a" = "$b" ]
}

@test "locations: the model's source line, else the node name" {
	fx-import tests/fx-import/inputs/mlp-torch.json | grep -q 'torch.aten.linear .* loc("tests/fx-export/models.py":36:9)'
	fx-import tests/fx-import/inputs/mlp-aten.json | grep -q 'torch.vtensor.literal.* loc("_param_constant0")'
	! fx-import --strip-debuginfo tests/fx-import/inputs/mlp-torch.json | grep -q 'loc('
	! fx-import --no-debuginfo tests/fx-import/inputs/mlp-torch.json | grep -q 'loc('
}

@test "export+import: seed LinearModule, aten and torch level" {
	need_torch
	export_import tests/fx-export/models.py:linear aten
	export_import tests/fx-export/models.py:linear torch
}

@test "export+import: 3-layer MLP, aten and torch level" {
	need_torch
	export_import tests/fx-export/models.py:mlp aten
	export_import tests/fx-export/models.py:mlp torch
}

@test "export+import: resnet18, aten and torch level" {
	need_torch
	need_torchvision
	export_import tests/fx-export/models.py:resnet18 aten
	grep -q 'torch.aten.native_batch_norm' "$BATS_TEST_TMPDIR/m.mlir"
	export_import tests/fx-export/models.py:resnet18 torch
	grep -q 'torch.aten.batch_norm' "$BATS_TEST_TMPDIR/m.mlir"
}

@test "export+import: mobilenet_v2, aten and torch level" {
	need_torch
	need_torchvision
	export_import tests/fx-export/models.py:mobilenet_v2 aten
	# functionalized: ReLU6(inplace=True) is the value-semantic hardtanh
	grep -q 'torch.aten.hardtanh ' "$BATS_TEST_TMPDIR/m.mlir"
	! grep -q 'torch.aten.hardtanh_' "$BATS_TEST_TMPDIR/m.mlir"
	export_import tests/fx-export/models.py:mobilenet_v2 torch
}

@test "export+import: TransformerEncoderLayer(d_model=256, nhead=4)" {
	need_torch
	# symbolic_trace cannot trace its control flow: aten level only
	export_import tests/fx-export/models.py:transformer_encoder_layer aten
	grep -q 'torch.prim.ListUnpack' "$BATS_TEST_TMPDIR/m.mlir"
	grep -q 'torch.aten.native_layer_norm' "$BATS_TEST_TMPDIR/m.mlir"
}
