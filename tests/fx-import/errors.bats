#!/usr/bin/env bats
# Bad input: one line "fx-import: FILE: PATH: error: ...", exit 1, nothing
# on stdout.  The fixtures in bad/ come from bad/make-bad.py.

bats_require_minimum_version 1.5.0

setup() {
	cd "$BATS_TEST_DIRNAME/bad"
	PATH="$BATS_TEST_DIRNAME/../../bin:$PATH"
}

# expect_error FILE MESSAGE: fails with exactly MESSAGE and no output.
expect_error() {
	run --separate-stderr fx-import "$1"
	[ "$status" -eq 1 ] || { echo "status $status"; false; }
	[ -z "$output" ] || { echo "stdout: $output"; false; }
	[ "$stderr" = "$2" ] || { echo "stderr: $stderr"; echo "wanted: $2"; false; }
}

@test "malformed JSON: line and column" {
	expect_error malformed.json "fx-import: malformed.json:4:6: error: premature end of input near '\"grap'"
}

@test "not an fxpipe document" {
	expect_error not-fx.json "fx-import: not-fx.json: format: error: not an fxpipe-fx-json document"
}

@test "unknown format version" {
	expect_error version.json "fx-import: version.json: version: error: unsupported format version 2 (fx-import reads version 1)"
}

@test "a node that refers to a missing node" {
	expect_error undefined-node.json "fx-import: undefined-node.json: nodes[3].args[1]: error: node 'foo' is not defined"
}

@test "a missing required argument" {
	expect_error missing-arg.json "fx-import: missing-arg.json: nodes[1]: error: missing argument 'dim' of 'aten.unsqueeze'"
}

@test "a field of the wrong JSON type" {
	expect_error args-type.json "fx-import: args-type.json: nodes[3].args: error: expected an array, not an object"
}

@test "a weight whose size does not match its shape and dtype" {
	expect_error weight-size.json "fx-import: weight-size.json: weights.tensors[0]: error: weight 'weight' has 48 bytes, but its shape and dtype float32 need 64"
}

@test "missing safetensors file" {
	expect_error missing-weights.json "fx-import: missing-weights.json: weights.file: error: cannot open 'no-such-file.safetensors': No such file or directory"
}

@test "truncated safetensors file" {
	expect_error truncated.json "fx-import: truncated.json: weights.tensors[0]: error: 'truncated.safetensors' is truncated or corrupt: weight 'weight' has data_offsets [0, 48], the data section has 40 bytes"
}

@test "safetensors file shorter than its header length" {
	expect_error short-header.json "fx-import: short-header.json: weights.file: error: 'short-header.safetensors' is truncated: 4 bytes, no header"
}

@test "safetensors header length past the end of the file" {
	expect_error header-length.json "fx-import: header-length.json: weights.file: error: 'header-length.safetensors' is truncated: its header needs 1099511627776 bytes, 236 are left"
}

@test "safetensors header that is not JSON" {
	expect_error bad-header.json "fx-import: bad-header.json: weights.file: error: 'bad-header.safetensors': bad header at byte 16: ']' expected near end of file"
}

@test "safetensors data_offsets outside the file" {
	expect_error offsets.json "fx-import: offsets.json: weights.tensors[1]: error: 'offsets.safetensors' is truncated or corrupt: weight 'bias' has data_offsets [48, 4800], the data section has 60 bytes"
}

@test "unsupported dtype" {
	expect_error dtype.json "fx-import: dtype.json: nodes[3].value.dtype: error: unsupported dtype 'complex32'"
}

@test "an op on complex tensors without a rule" {
	expect_error complex-op.json "fx-import: complex-op.json: nodes[3]: error: 'aten.mm' on complex tensors is not supported (fxpipe computes complex values as pairs of reals; see man fx-import)"
}

@test "no input, unknown option, missing file" {
	run fx-import
	[ "$status" -eq 1 ]
	run fx-import --frobnicate x.json
	[ "$status" -eq 1 ]
	run --separate-stderr fx-import no-such.json
	[ "$status" -eq 1 ] && [ -z "$output" ]
}

@test "-o leaves no file behind on error" {
	out="$BATS_TEST_TMPDIR/out.mlir"
	run fx-import -o "$out" undefined-node.json
	[ "$status" -eq 1 ]
	[ ! -e "$out" ]
	[ -z "$(ls "$BATS_TEST_TMPDIR")" ]
}

# view-write*.json: aten graphs exported without functionalization (by an
# older fx-export), where copy_ writes into a slice.  The write reached only
# the slice: the base was read unmodified, a silent wrong result.
@test "a tensor read after an in-place op wrote into its slice" {
	expect_error view-write.json "fx-import: view-write.json: error: node 'clone' is read after an in-place op wrote into a view of it; the graph needs functionalization (fx-export functionalizes aten graphs)"
}

@test "circular padding's writes into slices of new_empty" {
	expect_error view-write-base.json "fx-import: view-write-base.json: error: node 'new_empty' is read after an in-place op wrote into a view of it; the graph needs functionalization (fx-export functionalizes aten graphs)"
}

# view-write-torch.json: a torch-level graph, y = x[1:3]; y.mul_(2); x + 1.
@test "a torch-level graph reading x after a write into x[1:3]" {
	expect_error view-write-torch.json "fx-import: view-write-torch.json: error: node 'x' is read after an in-place op wrote into a view of it; the graph needs functionalization (fx-export functionalizes aten graphs)"
}

# A returned None or str is refused, not dropped (which would shift the
# results after it); ints, floats and bools become 0-dim tensors instead
# (scalar-results.mlir).
@test "a returned None" {
	expect_error output-none.json "fx-import: output-none.json: outputs.items[0]: error: the graph returns a 'none'; a module result can only be a tensor or an int, float or bool"
}

@test "a returned str" {
	expect_error output-str.json "fx-import: output-str.json: outputs.items[1]: error: the graph returns a 'str'; a module result can only be a tensor or an int, float or bool"
}
