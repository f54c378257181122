#!/usr/bin/env bats
# Issue 17, the front end: bad input to fx-import (safetensors layout,
# tensor indexing, shapes) and bad outputs for fx-export.  fx-import fails
# with one line "fx-import: FILE: PATH: error: ...", exit 1, nothing on
# stdout.  The fixtures in inputs-front/ come from inputs-front/make-front.py.

bats_require_minimum_version 1.5.0

setup() {
	ROOT="$BATS_TEST_DIRNAME/../.."
	cd "$BATS_TEST_DIRNAME/inputs-front"
	PATH="$ROOT/bin:$PATH"
	PY="${PYTHON:-/usr/bin/python3}"
}

# expect_error FILE MESSAGE: fails with exactly MESSAGE and no output, and
# with -o leaves no file.
expect_error() {
	run --separate-stderr fx-import "$1"
	[ "$status" -eq 1 ] || { echo "status $status"; false; }
	[ -z "$output" ] || { echo "stdout: $output"; false; }
	[ "$stderr" = "$2" ] || { echo "stderr: $stderr"; echo "wanted: $2"; false; }
	mkdir -p "$BATS_TEST_TMPDIR/o"
	run fx-import -o "$BATS_TEST_TMPDIR/o/out.mlir" "$1"
	[ "$status" -eq 1 ]
	[ -z "$(ls -A "$BATS_TEST_TMPDIR/o")" ]
}

need_torch() {
	[ "${SANITIZE:-0}" = 1 ] && skip "python-only test: it runs in the plain pass"
	"$PY" -c "import torch" 2>/dev/null || skip "$PY cannot import torch"
}

fx_export() {
	"$PY" "$ROOT/tools/fx-export/fx-export" "$@"
}

# ---- 6: the safetensors header, checked fully ----

@test "safetensors: a bias read from the weight's bytes" {
	expect_error st-overlap.json "fx-import: st-overlap.json: weights.tensors[1]: error: 'st-overlap.safetensors' is corrupt: weight 'bias' has data_offsets [36, 48], which overlap weight 'weight' at [0, 48]"
}

@test "safetensors: a shape that disagrees with the JSON, same byte count" {
	expect_error st-shape.json "fx-import: st-shape.json: weights.tensors[0]: error: weight 'weight' has shape [3, 4] in 'st-shape.safetensors', not [4, 3]"
}

@test "safetensors: bytes between tensors that belong to none" {
	expect_error st-gap.json "fx-import: st-gap.json: weights.file: error: 'st-gap.safetensors' is corrupt: bytes [48, 56] of its data section belong to no tensor"
}

@test "safetensors: bytes after the last tensor" {
	expect_error st-trailing.json "fx-import: st-trailing.json: weights.file: error: 'st-trailing.safetensors' is corrupt: bytes [60, 68] of its data section belong to no tensor"
}

@test "safetensors: a tensor the JSON does not declare" {
	expect_error st-undeclared.json "fx-import: st-undeclared.json: weights.file: error: 'st-undeclared.safetensors' has tensor 'extra', which weights.tensors does not declare"
}

@test "safetensors: a tensor named twice in the header" {
	expect_error st-duplicate.json "fx-import: st-duplicate.json: weights.file: error: 'st-duplicate.safetensors': bad header at byte 210: duplicate object key near '\"bias\"'"
}

@test "safetensors: a declared weight whose byte count overflows 64 bits" {
	expect_error st-huge.json "fx-import: st-huge.json: weights.tensors[0].shape: error: shape too large: its size in bytes does not fit in 64 bits"
}

# ---- 14: tensor indexing against the tensor's rank ----

@test "index: x[0, 0, 0] of a 2-d tensor" {
	expect_error index-three-ints.json "fx-import: index-three-ints.json: nodes[1].args[1]: error: too many indices for tensor of dimension 2"
}

@test "index: x[:, :, :, None] of a 2-d tensor" {
	expect_error index-none.json "fx-import: index-none.json: nodes[1].args[1]: error: too many indices for tensor of dimension 2"
}

@test "index: x[..., 0, 0, 0] of a 2-d tensor" {
	expect_error index-ellipsis.json "fx-import: index-ellipsis.json: nodes[1].args[1]: error: too many indices for tensor of dimension 2"
}

@test "index: 17 int indices" {
	expect_error index-17-ints.json "fx-import: index-17-ints.json: nodes[1].args[1]: error: too many indices for tensor of dimension 2"
}

@test "index: 17 Nones make more than 16 dimensions" {
	expect_error index-17-none.json "fx-import: index-17-none.json: nodes[1].args[1].items[14]: error: indexing gives more than 16 dimensions (fxpipe's limit)"
}

@test "index: two ellipses" {
	expect_error index-two-ellipses.json "fx-import: index-two-ellipses.json: nodes[1].args[1].items[2]: error: an index can only have a single ellipsis ('...')"
}

@test "index: a recorded value of another shape than the indexing gives" {
	expect_error index-value.json "fx-import: index-value.json: nodes[1].value: error: the recorded value has shape [4], but indexing gives [1, 4]"
}

@test "index: aten.index.Tensor with 4 indices into a 2-d tensor" {
	expect_error index-aten-four.json "fx-import: index-aten-four.json: nodes[2].args[1]: error: too many indices for tensor of dimension 2"
}

@test "index: the unedited graph imports" {
	run --separate-stderr fx-import index-base.json
	[ "$status" -eq 0 ]
	[[ "$output" == *"torch.aten.select.int"* ]]
	run --separate-stderr fx-import index-aten-base.json
	[ "$status" -eq 0 ]
	[[ "$output" == *"torch.aten.index.Tensor"* ]]
}

# ---- shapes in the JSON ----

@test "shape: 17 dimensions" {
	expect_error shape-rank17.json "fx-import: shape-rank17.json: nodes[0].value.shape: error: 17 dimensions; fxpipe supports at most 16"
}

@test "shape: a negative dimension" {
	expect_error shape-negative.json "fx-import: shape-negative.json: nodes[0].value.shape[1]: error: expected a dimension size"
}

@test "shape: dimensions whose product overflows" {
	expect_error shape-overflow.json "fx-import: shape-overflow.json: nodes[0].value.shape: error: shape too large: its size in bytes does not fit in 64 bits"
}

# ---- 11: fx-export writes regular files only, atomically ----

# A link to /proc/self/fd/1 like /dev/stdout, but in the test's own
# directory: without the fix, the test must not replace the real one.
@test "fx-export -o /dev/stdout (a link to a special file): refused, the link kept" {
	need_torch
	mkdir "$BATS_TEST_TMPDIR/o" && cd "$BATS_TEST_TMPDIR/o"
	ln -s /proc/self/fd/1 stdout
	run --separate-stderr fx_export "$ROOT/tests/fx-export/models.py:linear" -o stdout
	echo "status $status, stdout: $output, stderr: $stderr"
	[ "$status" -eq 1 ]
	[ -z "$output" ]
	[ "$stderr" = "fx-export: error: stdout: is a symbolic link; fx-export writes only regular files (give -o the file itself)" ]
	[ -L stdout ]
	[ "$(readlink stdout)" = /proc/self/fd/1 ]
	[ "$(ls -A)" = stdout ]
}

@test "fx-export -o -: refused, no file named -" {
	need_torch
	mkdir "$BATS_TEST_TMPDIR/o" && cd "$BATS_TEST_TMPDIR/o"
	run --separate-stderr fx_export "$ROOT/tests/fx-export/models.py:linear" -o -
	[ "$status" -eq 1 ]
	[ -z "$output" ]
	[ "$stderr" = "fx-export: error: cannot write to standard output (-o -): fx-export writes two files, OUT.json and OUT.safetensors beside it; give -o a file name" ]
	[ -z "$(ls -A)" ]
}

@test "fx-export: a FIFO, a directory or a link as output: refused, left as they were" {
	need_torch
	mkdir "$BATS_TEST_TMPDIR/o" && cd "$BATS_TEST_TMPDIR/o"
	mkfifo fifo.json
	mkdir dir.json
	echo keep > target.json
	ln -s target.json link.json
	for o in fifo.json dir.json link.json; do
		run --separate-stderr fx_export "$ROOT/tests/fx-export/models.py:linear" -o "$o"
		echo "$o: $stderr"
		[ "$status" -eq 1 ]
		[ -z "$output" ]
		[[ "$stderr" == "fx-export: error: $o: "* ]]
	done
	# the weights file beside a good JSON name is checked too
	mkfifo m.safetensors
	run --separate-stderr fx_export "$ROOT/tests/fx-export/models.py:linear" -o m.json
	[ "$status" -eq 1 ]
	[ "$stderr" = "fx-export: error: m.safetensors: not a regular file; fx-export writes only regular files" ]
	[ -p fifo.json ]
	[ -d dir.json ]
	[ -L link.json ]
	[ -p m.safetensors ]
	[ "$(cat target.json)" = keep ]
	[ "$(ls -A | sort | tr '\n' ' ')" = "dir.json fifo.json link.json m.safetensors target.json " ]
}

@test "fx-export: a failure while writing leaves no temporary file" {
	need_torch
	mkdir "$BATS_TEST_TMPDIR/out"
	for fail in weights json; do
		run --separate-stderr "$PY" - "$ROOT/tools/fx-export" "$ROOT/tests/fx-export/models.py:linear" \
		    "$BATS_TEST_TMPDIR/out/m.json" "$fail" <<'PYEOF'
import sys
sys.path.insert(0, sys.argv[1])
from fx_export import cli, output
def broken(f, *a):
    f.write(b"partial" if "b" in f.mode else "partial")
    raise OSError(28, "No space left on device")
if sys.argv[4] == "weights":
    output.safetensors.write = broken
else:
    real = output._write_temp
    output._write_temp = lambda path, write, mode: real(
        path, broken if path.endswith(".json") else write, mode)
sys.exit(cli.main([sys.argv[2], "-o", sys.argv[3]]))
PYEOF
		echo "$fail: $stderr"
		[ "$status" -eq 1 ]
		[[ "$stderr" == *"fx-export: error: OSError: [Errno 28] No space left on device"* ]]
		[ -z "$(ls -A "$BATS_TEST_TMPDIR/out")" ]
	done
}

@test "fx-export: SIGTERM or SIGHUP while writing removes the temporary; the exit is by the signal" {
	need_torch
	mkdir "$BATS_TEST_TMPDIR/out"
	for sig in TERM HUP; do
		run --separate-stderr "$PY" - "$ROOT/tools/fx-export" "$ROOT/tests/fx-export/models.py:linear" \
		    "$BATS_TEST_TMPDIR/out/m.json" "$sig" <<'PYEOF'
import os, signal, sys, time
sys.path.insert(0, sys.argv[1])
from fx_export import cli, output
def killed(f, *a):
    f.write(b"partial")
    f.flush()
    os.kill(os.getpid(), getattr(signal, "SIG" + sys.argv[4]))
    time.sleep(10)
output.safetensors.write = killed
signal.signal(signal.SIGHUP, signal.SIG_DFL)  # not ignored, as under nohup
sys.exit(cli.main([sys.argv[2], "-o", sys.argv[3]]))
PYEOF
		echo "$sig: $status $stderr"
		[ "$status" -eq $((128 + $(kill -l $sig))) ]
		[ -z "$(ls -A "$BATS_TEST_TMPDIR/out")" ]
	done
}

@test "a node whose argument does not fit its op's schema (None for an int) is refused as bad input" {
	cp "$ROOT/tests/fx-import/inputs/linear-aten.safetensors" "$BATS_TEST_TMPDIR/"
	"$PY" -c '
import json, sys
d = json.load(open(sys.argv[1]))
d["nodes"][1]["args"][1] = {"type": "none"}
json.dump(d, open(sys.argv[2], "w"))' "$ROOT/tests/fx-import/inputs/linear-aten.json" "$BATS_TEST_TMPDIR/bad.json"
	run --separate-stderr fx-import "$BATS_TEST_TMPDIR/bad.json"
	[ "$status" -eq 1 ]
	[ -z "$output" ]
	[[ "$stderr" == *"error: 'torch.aten.unsqueeze' op operand #1 must be 'int', but got '!torch.none'"* ]]
	[[ "$stderr" == *"bad.json: error: the graph's nodes do not fit their ops' schemas"* ]]
}
