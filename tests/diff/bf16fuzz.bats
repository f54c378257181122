#!/usr/bin/env bats
# The bf16 tester (bf16fuzz.py): a fixed seed and budget of random
# convolutions and linear layers under bf16 autocast, on codegen's bf16
# kernels (AMX tiles, vdpbf16ps) and its f32 ones, against PyTorch eager
# under autocast.  `make fuzz-bf16 N=... SEED=...` runs as many as asked.
load helpers
load fake-vmrun

@test "bf16fuzz: seeded random layers under autocast match eager, on the bf16 kernels where the CPU has them" {
  need_torch
  run "$PY" tests/diff/bf16fuzz.py --seed 1 --count 30
  echo "$output"
  [ "$status" -eq 0 ]
  [[ "$output" == *"30 passed, 0 failed"* ]]
  n=$(echo "$output" | sed -n 's/.* models, \([0-9]*\) of [0-9]* GEMMs take bf16 operands/\1/p')
  if grep -qw avx512_bf16 /proc/cpuinfo || grep -qw amx_bf16 /proc/cpuinfo; then
    [ "$n" -ge 20 ]
  fi
}

@test "bf16fuzz can fail: a vmrun that moves its result's first element is caught" {
  need_torch
  moving_vmrun "$PY"
  FXPIPE_BIN="$T/bin" run "$PY" tests/diff/bf16fuzz.py --seed 1 --count 2
  echo "$output"
  [ "$status" -eq 1 ]
  [[ "$output" == *"0 passed, 2 failed"* ]]
  [[ "$output" == *"max |diff|"* ]]
}
