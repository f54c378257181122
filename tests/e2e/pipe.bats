#!/usr/bin/env bats
# Pipes fail safely.  In
#   fx-import m.json | torch-opt | torch-lower | codegen --target=cpu | vmpack -o m.vmfb
# a stage that fails makes the pipe fail and leaves no m.vmfb (or the old
# one untouched), and a stage whose input was cut short says so: exit 1, an
# error at <stdin>, nothing on stdout.  The inputs are committed
# (tests/fx-import/inputs), so these need neither torch nor numpy.

bats_require_minimum_version 1.5.0
load helpers

J=tests/fx-import/inputs/mlp-torch.json
STAGES=(fx-import torch-opt torch-lower "codegen --target=cpu" vmpack)

setup_file() {
  local d="$BATS_FILE_TMPDIR"
  bin/fx-import "$J" > "$d/0.mlir"
  bin/torch-opt "$d/0.mlir" > "$d/1.mlir"
  bin/torch-lower "$d/1.mlir" > "$d/2.mlir"
  bin/codegen --target=cpu "$d/2.mlir" > "$d/3.mlir"
}

# after_stage K CMD...: runs CMD, then the stages after stage K (0-based)
# down to vmpack -o $T/m.vmfb, with pipefail
after_stage() {
  local k=$1 i cmd
  shift
  cmd="$(printf '%q ' "$@")"
  for ((i = k + 1; i < ${#STAGES[@]}; i++)); do cmd+="| bin/${STAGES[i]} "; done
  run bash -c "set -o pipefail; $cmd -o '$T/m.vmfb'"
}

no_module() {
  [ "$status" -ne 0 ]
  [[ "$output" == *"error"* ]]
  [ ! -e "$T/m.vmfb" ]
}

@test "the whole pipe writes m.vmfb, and vmrun runs it" {
  after_stage 0 bin/fx-import "$J"
  [ "$status" -eq 0 ]
  bin/vmrun "$T/m.vmfb" --input=2x16xf32=0.5 | grep -q '^2x8xf32='
}

@test "fx-import fails: no m.vmfb" {
  after_stage 0 bin/fx-import tests/fx-import/inputs/unknown-op.json
  no_module
}

@test "fx-import fails: an existing m.vmfb is left as it was" {
  echo old > "$T/m.vmfb"
  after_stage 0 bin/fx-import "$T/missing.json"
  [ "$status" -ne 0 ]
  [ "$(cat "$T/m.vmfb")" = old ]
}

@test "torch-opt fails: no m.vmfb" {
  after_stage 1 bin/torch-opt -p 'builtin.module(no-such-pass)' "$BATS_FILE_TMPDIR/0.mlir"
  no_module
}

@test "torch-lower fails: no m.vmfb" {
  # torch IR before torch-opt is not at the backend contract
  after_stage 2 bin/torch-lower "$BATS_FILE_TMPDIR/0.mlir"
  no_module
}

@test "codegen fails: no m.vmfb" {
  sed 's/linalg\.matmul /linalg.no_such_op /' "$BATS_FILE_TMPDIR/2.mlir" > "$T/bad.mlir"
  after_stage 3 bin/codegen --target=cpu "$T/bad.mlir"
  no_module
}

# cut_short K: the output of stage K cut at several points (a quarter, a half,
# three quarters, 3 bytes short, and at the line that closes the module,
# before the weights) goes into stage K+1, which must report it
cut_short() {
  local f="$BATS_FILE_TMPDIR/$1.mlir" n at end
  n=$(wc -c < "$f")
  end=$(grep -n '^}' "$f" | head -1 | cut -d: -f1)
  for at in $((n / 4)) $((n / 2)) $((n * 3 / 4)) $((n - 3)) $(head -n "$end" "$f" | wc -c); do
    run --separate-stderr bash -c "head -c $at '$f' | bin/${STAGES[$1 + 1]} -o '$T/out'"
    [ "$status" -eq 1 ] || { echo "cut at byte $at of $n: status $status"; false; }
    [[ "$stderr" == *"<stdin>"*"error"* ]] || { echo "cut at byte $at: $stderr"; false; }
    [ ! -e "$T/out" ]
  done
}

@test "fx-import's output cut short: torch-opt reports it" { cut_short 0; }
@test "torch-opt's output cut short: torch-lower reports it" { cut_short 1; }
@test "torch-lower's output cut short: codegen reports it" { cut_short 2; }
@test "codegen's output cut short: vmpack reports it, and writes nothing" { cut_short 3; }

@test "fx-export's JSON cut short: fx-import reports it" {
  local n
  n=$(wc -c < "$J")
  head -c $((n / 2)) "$J" > "$T/cut.json"
  cp tests/fx-import/inputs/mlp-torch.safetensors "$T/cut.safetensors"
  after_stage 0 bin/fx-import "$T/cut.json"
  no_module
}

@test "the IR cut short between stages inside the whole pipe: no m.vmfb" {
  local k n
  for k in 0 1 2 3; do
    n=$(($(wc -c < "$BATS_FILE_TMPDIR/$k.mlir") / 2))
    run bash -c "set -o pipefail; cat '$BATS_FILE_TMPDIR/$k.mlir' | head -c $n $(
      for ((i = k + 1; i < ${#STAGES[@]}; i++)); do printf '| bin/%s ' "${STAGES[i]}"; done) -o '$T/m.vmfb'"
    [ "$status" -ne 0 ]
    [ ! -e "$T/m.vmfb" ]
  done
}
