#!/usr/bin/env bats
# The convolution tester (convfuzz.py): a fixed seed and budget of random
# f32 convolution chains, most of them read through their taps by codegen,
# against PyTorch eager.  `make fuzz-conv N=... SEED=...` runs as many as
# asked.
load helpers
load fake-vmrun

@test "convfuzz: seeded random convolutions match eager, some read through their taps" {
  need_torch
  run "$PY" tests/diff/convfuzz.py --seed 1 --count 40
  echo "$output"
  [ "$status" -eq 0 ]
  [[ "$output" == *"40 passed, 0 failed"* ]]
  n=$(echo "$output" | sed -n 's/.* models, \([0-9]*\) of [0-9]* GEMMs read A through their taps/\1/p')
  [ "$n" -ge 10 ]
}

@test "convfuzz can fail: a vmrun that moves its result's first element is caught" {
  need_torch
  moving_vmrun "$PY"
  FXPIPE_BIN="$T/bin" run "$PY" tests/diff/convfuzz.py --seed 1 --count 2
  echo "$output"
  [ "$status" -eq 1 ]
  [[ "$output" == *"0 passed, 2 failed"* ]]
  [[ "$output" == *"max |diff|"* ]]
}
