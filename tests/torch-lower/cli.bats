#!/usr/bin/env bats
bats_require_minimum_version 1.5.0
# torch-lower's command line: the seed, errors at the op's Python location,
# atomic -o, the lowering table against lib/contract.def, and mlir-opt-16
# on everything torch-lower writes for the tests.

setup() {
  IN="$BATS_TEST_DIRNAME/inputs"
  T="$BATS_TEST_TMPDIR"
}

@test "the seed's LinearModule lowers to IR equivalent to seed-linear-linalg.mlir" {
  command -v mlir-opt-16 >/dev/null || skip "mlir-opt-16 is not installed"
  bin/torch-lower examples/linear-torch.mlir | mlir-opt-16 --canonicalize > "$T/got.mlir"
  mlir-opt-16 --canonicalize examples/linear-linalg.mlir > "$T/want.mlir"
  diff "$T/want.mlir" "$T/got.mlir"
}

@test "an op without a lowering is an error at its Python location, exit 1, no output" {
  run --separate-stderr bin/torch-lower "$IN/unsupported.mlir"
  [ "$status" -eq 1 ]
  [ -z "$output" ]
  [ "$stderr" = "model.py:12:8: error: torch-lower: no lowering for 'torch.aten.sinh'" ]
}

@test "a uint8 index tensor (a mask to PyTorch) is refused, not taken as indices" {
  run --separate-stderr bin/torch-lower "$IN/u8-index.mlir"
  [ "$status" -eq 1 ]
  [ -z "$output" ]
  [ "$stderr" = "$IN/u8-index.mlir:5:8: error: torch-lower: a uint8 index tensor is a boolean mask, which is not supported" ]
}

@test "without a Python location the error points into the input" {
  TMPDIR="$T" run --separate-stderr bin/torch-lower < "$IN/no-loc.mlir"
  [ "$status" -eq 1 ]
  [ "${stderr_lines[0]}" = "<stdin>:3:10: error: torch-lower: no lowering for 'torch.aten.sinh'" ]
  [[ "${stderr_lines[1]}" == "torch-lower: note: reproduce with: bin/torch-lower $T/fxpipe-repro."*/torch-lower.mlir ]]
}

@test "-o writes the file only on success" {
  bin/torch-lower examples/linear-torch.mlir -o "$T/out.mlir"
  grep -q 'linalg.matmul' "$T/out.mlir"
  echo keep > "$T/keep.mlir"
  run bin/torch-lower "$IN/unsupported.mlir" -o "$T/keep.mlir"
  [ "$status" -eq 1 ]
  [ "$(cat "$T/keep.mlir")" = keep ]
  [ -z "$(ls "$T" | grep tmp)" ]
}

@test "bad input and bad options fail cleanly" {
  run bin/torch-lower "$T/missing.mlir"
  [ "$status" -eq 1 ]
  [[ "$output" == *"cannot open"* ]]
  run bin/torch-lower --frobnicate
  [ "$status" -eq 1 ]
  echo 'func.func @f( {' > "$T/bad.mlir"
  run bin/torch-lower "$T/bad.mlir"
  [ "$status" -eq 1 ]
  [[ "$output" == *"bad.mlir:1:"*"error:"* ]]
}

@test "the lowering table is the backend contract (lib/contract.def)" {
  bin/torch-lower --list-ops | sort > "$T/lowered"
  grep -o 'C("[^"]*")' lib/contract.def | sed 's/^C("//; s/")$//' | sort > "$T/contract"
  diff "$T/contract" "$T/lowered"
}

@test "every contract op has a numeric test" {
  bin/torch-lower --list-ops | sed 's/^torch\.aten\.//' | sort > "$T/lowered"
  ls tests/torch-lower/ops/*.json | xargs -n1 basename | sed 's/\.json$//' | sort > "$T/tested"
  comm -23 "$T/lowered" "$T/tested" > "$T/untested"
  [ ! -s "$T/untested" ] || { cat "$T/untested"; false; }
  [ "$(wc -l < "$T/tested")" -ge 150 ]
}

@test "no torch op or type is left in any output" {
  for f in tests/torch-lower/ops/*.mlir; do
    bin/torch-lower "$f" > "$T/out.mlir" || { echo "torch-lower failed on $f"; false; }
    ! grep -q 'torch' "$T/out.mlir" || { echo "torch left in the lowering of $f"; false; }
  done
}

@test "mlir-opt-16 parses and verifies every lowering test's output" {
  command -v mlir-opt-16 >/dev/null || skip "mlir-opt-16 is not installed"
  n=0
  for f in tests/torch-lower/*.mlir tests/torch-lower/ops/*.mlir examples/linear-torch.mlir; do
    bin/torch-lower "$f" > "$T/out.mlir" || { echo "torch-lower failed on $f"; false; }
    mlir-opt-16 "$T/out.mlir" > /dev/null || { echo "mlir-opt-16 rejects the lowering of $f"; false; }
    n=$((n + 1))
  done
  echo "checked $n files"
  [ "$n" -gt 150 ]
}

@test "the man page renders" {
  command -v man >/dev/null || skip "man is not installed"
  run man -l man/torch-lower.1
  [ "$status" -eq 0 ]
  [[ "$output" == *"linalg"* ]]
}

@test "--mlir-dialect-version: 16 is the default, 19+ and upstream print output_shape and tensor.pad, others are refused" {
  bin/torch-lower tests/torch-lower/conv-reduce.mlir > "$T/default.mlir"
  bin/torch-lower --mlir-dialect-version=16 tests/torch-lower/conv-reduce.mlir | cmp - "$T/default.mlir"
  ! grep -q 'output_shape\|tensor.pad' "$T/default.mlir"
  for v in 19 20 upstream; do
    bin/torch-lower --mlir-dialect-version=$v tests/torch-lower/conv-reduce.mlir > "$T/$v.mlir"
    grep -q 'tensor.expand_shape .* output_shape \[2, 1, 5\] : tensor<2x5xf32> into tensor<2x1x5xf32>' "$T/$v.mlir"
    grep -q 'tensor.pad %arg0 low\[0, 0, 1, 1\] high\[0, 0, 1, 1\]' "$T/$v.mlir"
    # our own reader takes it back
    bin/torch-lower "$T/$v.mlir" > /dev/null
  done
  for v in 17 18 15 x 1000 ''; do
    run --separate-stderr bin/torch-lower --mlir-dialect-version=$v tests/torch-lower/conv-reduce.mlir
    [ "$status" -eq 1 ]
    [ -z "$output" ]
    [[ "$stderr" == *"--mlir-dialect-version: '$v' is not 16, 19 or later, or upstream"* ]]
  done
  bin/torch-lower --help | grep -q -- --mlir-dialect-version=
}

@test "-split-input-file lowers each chunk; a failing chunk's place is empty, the others print, exit 1" {
  f="$T/split.mlir"
  { cat examples/linear-torch.mlir; echo '// -----'
    printf 'func.func @g() {\n  %%0 = torch.aten.bogus\n}\n'; echo '// -----'
    cat examples/linear-torch.mlir; } > "$f"
  bad=$(( $(wc -l < examples/linear-torch.mlir) + 3 ))
  run --separate-stderr bin/torch-lower -split-input-file "$f"
  [ "$status" -eq 1 ]
  [[ "$stderr" == "$f:$bad:8: error: custom op 'torch.aten.bogus' is unknown" ]]
  [ "$(grep -c '^// -----$' <<< "$output")" -eq 2 ]
  [ "$(grep -c 'linalg.matmul\|linalg.generic' <<< "$output")" -ge 2 ]
  [ "$(grep -c '^module' <<< "$output")" -eq 2 ]
  # -o: nothing unless every chunk lowered
  run bin/torch-lower --split-input-file "$f" -o "$T/o.mlir"
  [ "$status" -eq 1 ]
  [ ! -e "$T/o.mlir" ]
  # chunks that all lower: each reads back in mlir-opt-16
  { cat examples/linear-torch.mlir; echo '// -----'; cat examples/linear-torch.mlir; } > "$T/ok.mlir"
  bin/torch-lower --split-input-file "$T/ok.mlir" -o "$T/o.mlir"
  [ "$(grep -c '^module' "$T/o.mlir")" -eq 2 ]
  if command -v mlir-opt-16 >/dev/null; then mlir-opt-16 --split-input-file "$T/o.mlir" > /dev/null; fi
}

@test "-print-ir-before-all/-after-all/-after-failure dump the module on stderr, elided on request" {
  run --separate-stderr bin/torch-lower -mlir-print-ir-before-all --print-ir-after-all examples/linear-torch.mlir
  [ "$status" -eq 0 ]
  [[ "$stderr" == "// -----// IR Dump Before torch-lower (builtin.module) //----- //"*torch.aten* ]]
  [[ "$stderr" == *"// -----// IR Dump After torch-lower (builtin.module) //----- //"*linalg.* ]]
  [[ "$output" != *"IR Dump"* ]]
  run --separate-stderr bin/torch-lower --print-ir-after-failure "$BATS_TEST_DIRNAME/inputs/unsupported.mlir"
  [ "$status" -eq 1 ]
  [ -z "$output" ]
  [[ "$stderr" == *"IR Dump After Failed torch-lower"* ]]
  # literals of more than N elements elided in the dumps, not in the output
  cat > "$T/lit.mlir" <<'IR'
func.func @f(%arg0: !torch.vtensor<[3],f32>) -> !torch.vtensor<[3],f32> {
  %0 = torch.vtensor.literal(dense<[1.0, 2.0, 3.0]> : tensor<3xf32>) : !torch.vtensor<[3],f32>
  %1 = torch.aten.mul.Tensor %arg0, %0 : !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32> -> !torch.vtensor<[3],f32>
  return %1 : !torch.vtensor<[3],f32>
}
IR
  run --separate-stderr bin/torch-lower --print-ir-before-all -mlir-elide-elementsattrs-if-larger=2 "$T/lit.mlir"
  [ "$status" -eq 0 ]
  [[ "$stderr" == *"dense_resource<__elided__>"* ]]
  [[ "$output" != *"__elided__"* ]]
  # by default, literals of more than 16 elements; =0 prints all whole
  printf 'func.func @f() -> !torch.vtensor<[17],f32> {\n  %%0 = torch.vtensor.literal(dense<%s> : tensor<17xf32>) : !torch.vtensor<[17],f32>\n  return %%0 : !torch.vtensor<[17],f32>\n}\n' \
    "[$(seq -f '%g.0' -s ', ' 1 17)]" > "$T/big.mlir"
  run --separate-stderr bin/torch-lower --print-ir-before-all "$T/big.mlir"
  [[ "$stderr" == *"dense_resource<__elided__> : tensor<17xf32>"* ]]
  [[ "$output" != *"__elided__"* ]]
  run --separate-stderr bin/torch-lower --print-ir-before-all -mlir-elide-elementsattrs-if-larger=0 "$T/big.mlir"
  [[ "$stderr" != *"__elided__"* ]]
  run bin/torch-lower -mlir-elide-elementsattrs-if-larger=x examples/linear-torch.mlir
  [ "$status" -eq 1 ]
  [[ "$output" == *"is not a count"* ]]
}

@test "-mlir-timing reports each phase; -mlir-print-local-scope writes maps in place" {
  run --separate-stderr bin/torch-lower -mlir-timing examples/linear-torch.mlir
  [ "$status" -eq 0 ]
  for p in "Total Execution Time" Parser Verifier torch-lower Output Total; do
    [[ "$stderr" == *"$p"* ]]
  done
  [[ "$output" == *"#map"* ]]
  run bin/torch-lower -mlir-print-local-scope examples/linear-torch.mlir
  [ "$status" -eq 0 ]
  [[ "$output" != *"#map"* ]]
  [[ "$output" == *"affine_map<"* ]]
}
