#!/usr/bin/env bats
# Upstream MLIR as a second opinion: every test file at the linalg level
# (func, arith, math, tensor, linalg; no torch ops, no expected errors)
# that torch-opt prints must be accepted by mlir-opt-16.

@test "mlir-opt-16 accepts what torch-opt prints for every linalg-level test file" {
  command -v mlir-opt-16 >/dev/null || skip "mlir-opt-16 is not installed (scripts/setup.sh installs mlir-16-tools)"
  n=0
  for f in $(find tests -name '*.mlir' -not -path 'tests/out/*' | xargs grep -l 'RUN:' | sort) examples/*.mlir; do
    grep -q 'torch\.\|torch_c\.\|RUN: not\|allow-unregistered\|scf\.' "$f" && continue
    bin/torch-opt -p '' --split-input-file "$f" > "$BATS_TEST_TMPDIR/out.mlir" \
      || { echo "torch-opt failed on $f"; false; }
    mlir-opt-16 --split-input-file "$BATS_TEST_TMPDIR/out.mlir" > /dev/null \
      || { echo "mlir-opt-16 rejects the printing of $f"; false; }
    n=$((n + 1))
  done
  echo "checked $n files"
  [ "$n" -gt 0 ]
}
