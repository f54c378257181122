#!/usr/bin/env bats
bats_require_minimum_version 1.5.0
# torch-opt's command line: round trips, errors, output files, dumps.

setup() {
  IN="$BATS_TEST_DIRNAME/inputs"
  T="$BATS_TEST_TMPDIR"
}

@test "printing is a fixed point for the seed's torch IR" {
  run bin/torch-opt -p '' "$IN/linear-torch.mlir"
  [ "$status" -eq 0 ]
  echo "$output" > "$T/a.mlir"
  run bin/torch-opt -p '' "$T/a.mlir"
  [ "$status" -eq 0 ]
  [ "$output" = "$(cat "$T/a.mlir")" ]
  grep -q 'torch.aten.mm %0, %arg0 : !torch.vtensor<\[1,4\],f32>, !torch.vtensor<\[4,3\],f32> -> !torch.vtensor<\[1,3\],f32>' "$T/a.mlir"
}

@test "printing is a fixed point for the seed's linalg IR" {
  run bin/torch-opt -p '' "$IN/linear-linalg.mlir"
  [ "$status" -eq 0 ]
  echo "$output" > "$T/a.mlir"
  run bin/torch-opt -p '' "$T/a.mlir"
  [ "$status" -eq 0 ]
  [ "$output" = "$(cat "$T/a.mlir")" ]
}

@test "the seed's IR prints as upstream MLIR prints it" {
  bin/torch-opt -p '' "$IN/linear-torch.mlir" > "$T/torch.mlir"
  grep -v '^//' "$IN/linear-torch.mlir" | diff - "$T/torch.mlir"
  bin/torch-opt -p '' "$IN/linear-linalg.mlir" > "$T/linalg.mlir"
  grep -v '^//' "$IN/linear-linalg.mlir" | diff - "$T/linalg.mlir"
}

@test "mlir-opt-16 accepts the printed linalg IR" {
  command -v mlir-opt-16 >/dev/null || skip "mlir-opt-16 is not installed"
  bin/torch-opt -p '' "$IN/linear-linalg.mlir" | mlir-opt-16 > /dev/null
}

@test "a type mismatch is reported at the use: FILE:5:10, exit 1, empty stdout" {
  run --separate-stderr bin/torch-opt -p '' "$IN/type-mismatch.mlir"
  [ "$status" -eq 1 ]
  [ -z "$output" ]
  [[ "$stderr" == *"type-mismatch.mlir:5:10: error: "* ]]
}

@test "truncated input is an error at every cut, never a crash" {
  f="$T/whole.mlir"
  grep -v '^//' "$IN/linear-torch.mlir" > "$f"
  size=$(wc -c < "$f")
  for n in $(seq 1 37 "$((size - 2))"); do
    head -c "$n" "$f" > "$T/cut.mlir"
    run --separate-stderr bin/torch-opt -p '' "$T/cut.mlir"
    [ "$status" -eq 1 ] || { echo "cut at $n: status $status: $stderr"; false; }
    [ -z "$output" ]
    [[ "$stderr" == *"cut.mlir:"*"error: "* ]] || { echo "cut at $n: $stderr"; false; }
  done
}

@test "-o writes the file only on success" {
  bin/torch-opt -p '' "$IN/linear-torch.mlir" -o "$T/out.mlir"
  grep -q torch.aten.mm "$T/out.mlir"
  echo keep > "$T/old.mlir"
  run bin/torch-opt -p '' "$IN/type-mismatch.mlir" -o "$T/old.mlir"
  [ "$status" -eq 1 ]
  [ "$(cat "$T/old.mlir")" = keep ]
  run bin/torch-opt -p '' "$IN/type-mismatch.mlir" -o "$T/new.mlir"
  [ "$status" -eq 1 ]
  [ ! -e "$T/new.mlir" ]
  [ -z "$(ls "$T" | grep tmp)" ]
}

@test "-o to a FIFO or a device writes into it, not over it" {
  mkfifo "$T/fifo"
  timeout 20 cat "$T/fifo" > "$T/got" &
  bin/torch-opt -p '' "$IN/linear-torch.mlir" -o "$T/fifo"
  wait
  [ -p "$T/fifo" ]
  grep -q torch.aten.mm "$T/got"
  [ -w /dev/full ] || skip "no /dev/full"
  run bin/torch-opt -p '' "$IN/linear-torch.mlir" -o /dev/full
  [ "$status" -eq 1 ]
  [[ "$output" == *"error writing '/dev/full'"* ]]
  [ -c /dev/full ]
}

@test "reads stdin by default and with -" {
  run bin/torch-opt -p '' < "$IN/linear-torch.mlir"
  [ "$status" -eq 0 ]
  [[ "$output" == *"torch.aten.mm"* ]]
  run bin/torch-opt -p '' - < "$IN/linear-torch.mlir"
  [ "$status" -eq 0 ]
  [[ "$output" == *"torch.aten.mm"* ]]
}

@test "bad command lines are errors" {
  run bin/torch-opt --no-such-flag "$IN/linear-torch.mlir"
  [ "$status" -eq 1 ]
  [[ "$output" == *"unknown option '--no-such-flag'"* ]]
  run bin/torch-opt -p '' "$T/missing.mlir"
  [ "$status" -eq 1 ]
  [[ "$output" == *"cannot open"*"missing.mlir"* ]]
  run bin/torch-opt -p 'no-such-pass' "$IN/linear-torch.mlir"
  [ "$status" -eq 1 ]
  [[ "$output" == *"unknown pass 'no-such-pass'"* ]]
  run bin/torch-opt -p 'builtin.module(func.func(cse)' "$IN/linear-torch.mlir"
  [ "$status" -eq 1 ]
}

@test "a failed write is an error" {
  [ -w /dev/full ] || skip "no /dev/full"
  run bin/torch-opt -p '' "$IN/linear-torch.mlir" -o /dev/full/x
  [ "$status" -eq 1 ]
  run sh -c "bin/torch-opt -p '' '$IN/linear-torch.mlir' > /dev/full"
  [ "$status" -eq 1 ]
  [[ "$output" == *"error writing"* ]]
}

@test "--list-passes lists the generic passes" {
  run bin/torch-opt --list-passes
  [ "$status" -eq 0 ]
  for p in canonicalize cse dce symbol-dce inline; do
    [[ "$output" == *"  $p "* ]] || { echo "missing $p"; false; }
  done
}

@test "pipelines in MLIR's syntax, the short form and pass flags agree" {
  a=$(bin/torch-opt -p 'builtin.module(func.func(canonicalize,cse))' "$IN/linear-torch.mlir")
  b=$(bin/torch-opt -p canonicalize,cse "$IN/linear-torch.mlir")
  c=$(bin/torch-opt --canonicalize --cse "$IN/linear-torch.mlir")
  [ "$a" = "$b" ]
  [ "$b" = "$c" ]
}

@test "--timing reports each pass on stderr" {
  run --separate-stderr bin/torch-opt -p canonicalize,cse --timing "$IN/linear-torch.mlir"
  [ "$status" -eq 0 ]
  [[ "$stderr" == *"Execution time report"* ]]
  [[ "$stderr" == *"canonicalize"* ]]
  [[ "$stderr" == *"cse"* ]]
}

@test "--print-ir-after-all dumps modules that parse again" {
  bin/torch-opt -p canonicalize,cse --print-ir-after-all "$IN/linear-torch.mlir" \
    2> "$T/dumps.mlir" > /dev/null
  [ "$(grep -c '// -----// IR Dump After' "$T/dumps.mlir")" -ge 2 ]
  sed 's|^// -----// IR Dump.*|// -----|' "$T/dumps.mlir" | sed '1d' > "$T/chunks.mlir"
  bin/torch-opt -p '' --split-input-file "$T/chunks.mlir" > /dev/null
}

@test "--print-ir-before and --print-ir-after name their pass" {
  run --separate-stderr bin/torch-opt -p canonicalize,cse --print-ir-before=cse --print-ir-after=canonicalize "$IN/linear-torch.mlir"
  [ "$status" -eq 0 ]
  [[ "$stderr" == *"IR Dump Before cse"* ]]
  [[ "$stderr" == *"IR Dump After canonicalize"* ]]
  [[ "$stderr" != *"IR Dump After cse"* ]]
}

@test "--split-input-file keeps line numbers and reports every chunk" {
  run --separate-stderr bin/torch-opt -p '' --split-input-file "$IN/split.mlir"
  [ "$status" -eq 1 ]
  # as mlir-opt: the chunks that pass are printed, the failing one is not
  [[ "$output" == *"func.func @ok"* ]]
  [[ "$output" == *"// -----"* ]]
  [[ "$output" != *"@bad"* ]]
  [[ "$stderr" == *"split.mlir:6:10: error: "*"undefined"* ]] || [[ "$stderr" == *"split.mlir:6:10: error: "*"undeclared"* ]]
}

@test "unregistered ops need --allow-unregistered-dialect" {
  run --separate-stderr bin/torch-opt -p '' "$IN/unregistered.mlir"
  [ "$status" -eq 1 ]
  [[ "$stderr" == *"unregistered.mlir:2:"*"error: "*"foo.bar"* ]]
  run bin/torch-opt -p '' --allow-unregistered-dialect "$IN/unregistered.mlir"
  [ "$status" -eq 0 ]
  [[ "$output" == *'"foo.bar"(%arg0) : (f32) -> f32'* ]]
}

@test "--print-debuginfo prints locations that read back" {
  bin/torch-opt -p '' --print-debuginfo "$IN/linear-torch.mlir" > "$T/a.mlir"
  grep -q 'loc("' "$T/a.mlir"
  bin/torch-opt -p '' --print-debuginfo "$T/a.mlir" > "$T/b.mlir"
  diff "$T/a.mlir" "$T/b.mlir"
}

@test "the generic form reads back to the same module" {
  bin/torch-opt -p '' "$IN/linear-linalg.mlir" > "$T/custom.mlir"
  bin/torch-opt -p '' --mlir-print-op-generic "$IN/linear-linalg.mlir" > "$T/generic.mlir"
  grep -q '"linalg.generic"' "$T/generic.mlir"
  bin/torch-opt -p '' "$T/generic.mlir" | diff "$T/custom.mlir" -
}

@test "the man page renders" {
  command -v man >/dev/null || skip "man is not installed"
  run man -l man/torch-opt.1
  [ "$status" -eq 0 ]
  [[ "$output" == *"torch-opt"* ]]
}

@test "the same text out whether the input is a file or a pipe (folded batch norms)" {
  # a file's blobs are the process's to write, a pipe's are kept for a
  # reproducer (FXPIPE_REPRO_DIR= lets them be written): all three ways
  # give the same names, literals and locations
  in="$BATS_TEST_DIRNAME/../torch-opt-passes/fold-batchnorm.mlir"
  for p in torch-fold-batchnorm torch-fold-batchnorm,canonicalize; do
    bin/torch-opt -p "$p" "$in" > "$T/file.mlir"
    cat "$in" | bin/torch-opt -p "$p" > "$T/pipe.mlir"
    cat "$in" | FXPIPE_REPRO_DIR= bin/torch-opt -p "$p" > "$T/pipe-mut.mlir"
    grep -q 'dense_resource<u.bn>.*loc("layer")' "$T/file.mlir"
    cmp "$T/file.mlir" "$T/pipe.mlir"
    cmp "$T/file.mlir" "$T/pipe-mut.mlir"
  done
}
