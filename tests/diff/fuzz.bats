#!/usr/bin/env bats
# The differential tester (fuzz.py): a fixed seed and budget of random
# programs through the whole pipe against PyTorch eager.  `make fuzz-diff
# N=... SEED=...` runs as many as asked.  Under SANITIZE=1 a sanitizer
# report fails a program like a wrong number.
load helpers
load fake-vmrun

@test "fuzz-diff: seeded random programs and chains match eager" {
  need_torch
  n=400
  [ "${SANITIZE:-0}" != 1 ] || n=150
  run "$PY" tests/diff/fuzz.py --seed 1 --count "$n" --quiet --shrink-seconds 60
  echo "$output"
  [ "$status" -eq 0 ]
  [[ "$output" == *"$n passed, 0 failed"* ]]
}

# The tester must be able to fail: a vmrun whose results have a bit of
# their first element's top byte flipped is caught, shrunk and printed
# with a replay command that fails the same way, and passes on the real
# tools.
# corrupted PY ARGS...: fuzz.py ARGS under PY with $T/bin/vmrun flipping a
# bit of the first element's top byte of each result; it must fail, shrink
# the program and print a replay command that fails the same way with
# that vmrun and passes on the real tools.
corrupted() {
  local py=$1
  shift
  fake_vmrun "$py" 'a = np.load(p)
if a.size and a.dtype != bool: a.reshape(-1)[:1].view(np.uint8)[-1] ^= 0x40; np.save(p, a)'
  FXPIPE_BIN="$T/bin" run "$py" tests/diff/fuzz.py "$@" --quiet --shrink-seconds 20
  echo "$output"
  [ "$status" -eq 1 ]
  [[ "$output" == *"FAIL mismatch"* ]]
  replay=$(echo "$output" | sed -n 's/^  replay: //p' | head -n 1)
  [ -n "$replay" ]
  FXPIPE_BIN="$T/bin" run sh -c "$replay"
  [ "$status" -eq 1 ]
  [[ "$output" == *"mismatch"* ]]
  run sh -c "$replay"
  echo "$output"
  [ "$status" -eq 0 ]
}

@test "fuzz-diff: a corrupted result is reported, shrunk and replayable" {
  need_torch
  corrupted "$PY" --seed 1 --count 12 --max-failures 1
}

# A non-finite result that the reference's own rounding decides is no
# mismatch: at x = -1, logaddexp2(x, x) is exactly 0 (fxpipe's square root
# of it: 0), but PyTorch rounds it below 0 in f32 and in f64, so eager's
# square root is NaN; the mean of -3.875, -0.75, 0.375, 0.375, 3.875 is
# exactly 0 (fxpipe's log2 of it: -inf), eager's rounds to 2^-53 (log2:
# -53).  With the inputs' elements nudged by a relative 1e-12 the
# reference moves away from eager's (tests/e2e/model.py close, nudged).
# A NaN the result misses still fails: sqrt of negative inputs, with a
# vmrun that turns NaN into 0.
@test "fuzz-diff: a non-finite result the reference's rounding decides is not a mismatch, a NaN the result misses is" {
  need_torch
  for prog in '{"seed":6161018565,"in":[[[6],"f32",null]],"ops":[["logaddexp2",{},[0,0]],["pow_scalar",{"s":0.5},[1]]]}' \
      '{"seed":2812010928,"in":[[[1,3,5,16],"f64",null]],"ops":[["var_mean",{"d":-2,"u":false,"k":false,"std":false,"i":1},[0]],["log2",{},[1]]]}'; do
    run "$PY" tests/diff/fuzz.py --replay "$prog"
    echo "$output"
    [ "$status" -eq 0 ]
  done
  fake_vmrun "$PY" 'np.save(p, np.nan_to_num(np.load(p), nan=0.0))'
  prog='{"seed":7,"in":[[[16],"f32",null]],"ops":[["sqrt",{},[0]]]}'
  run "$PY" tests/diff/fuzz.py --replay "$prog"
  [ "$status" -eq 0 ]
  FXPIPE_BIN="$T/bin" run "$PY" tests/diff/fuzz.py --replay "$prog"
  echo "$output"
  [ "$status" -eq 1 ]
  [[ "$output" == *"mismatch"* ]]
}

# A step's own rounding, not only the inputs', moves an ill-conditioned
# result: the mean of 31 hardsigmoid values is 0.5000000009 exactly,
# eager's f32 mean 0.5, fxpipe's running sum one ulp higher (0.50000006),
# and logit then rad2deg turn that ulp into 1.4e-5 against eager's 0.
# The reference's jitter moves each op's result by the unit roundoff too
# (fuzz.py references): no mismatch.  A result 1e-3 off still is one.
@test "fuzz-diff: a result an intermediate's last bit decides (a mean at 0.5 through logit) is not a mismatch, 1e-3 off is" {
  need_torch
  prog='{"seed":10306031421,"in":[[[1,1,31,31],"f32",null]],"ops":[["hardsigmoid",{},[0]],["mean",{"d":2,"k":true},[1]],["logit",{"e":0.001},[2]],["rad2deg",{},[3]]]}'
  run "$PY" tests/diff/fuzz.py --replay "$prog"
  echo "$output"
  [ "$status" -eq 0 ]
  fake_vmrun "$PY" 'a = np.load(p); a.flat[11] += 1e-3; np.save(p, a)'
  FXPIPE_BIN="$T/bin" run "$PY" tests/diff/fuzz.py --replay "$prog"
  echo "$output"
  [ "$status" -eq 1 ]
  [[ "$output" == *"mismatch"* ]]
}

# The dynamic batch mode (fuzz.py --dynamic-batch, `make fuzz-diff-dynamic`):
# each program exported once (PyTorch 2's torch.export) with dimension 0
# of its inputs the symbol batch, compiled once and run at several
# batches, or refused by codegen as not computed item by item.
need_torch2() {
  PY2=${TORCH2_PYTHON:-$PWD/.venv/bin/python}
  [ -x "$PY2" ] || skip "no PyTorch 2 venv ($PY2): run scripts/setup.sh"
}

# dynamic_slice MODE N N_SAN SIZES: fuzz.py MODE on a seeded slice of N
# programs (N_SAN under SANITIZE=1): none fails, some run at several
# SIZES (batches, lengths), some are refused by codegen.
dynamic_slice() {
  need_torch2
  local n=$2
  [ "${SANITIZE:-0}" != 1 ] || n=$3
  run "$PY2" tests/diff/fuzz.py "$1" --seed 1 --count "$n" --quiet --shrink-seconds 30
  echo "$output"
  [ "$status" -eq 0 ]
  [[ "$output" == *"$n passed, 0 failed"* ]]
  grep -Eq " [1-9][0-9]* ok \([1-9][0-9]* $4 run\)" <<< "$output"
  grep -Eq ' [1-9][0-9]* refused by codegen' <<< "$output"
}

@test "fuzz-diff --dynamic-batch: seeded programs match eager at every batch or are refused" {
  dynamic_slice --dynamic-batch 40 15 batches
}

@test "fuzz-diff --dynamic-batch: a corrupted result is reported, shrunk and replayable" {
  need_torch2
  corrupted "$PY2" --dynamic-batch --seed 1 --count 12 --max-failures 1
}

# The dynamic length mode (fuzz.py --dynamic-length, `make
# fuzz-diff-length`): dimension 1 the symbol seq in [1, 40], run at
# lengths on both sides of codegen's padded functions (16 and 40).
@test "fuzz-diff --dynamic-length: seeded programs match eager at every length or are refused" {
  dynamic_slice --dynamic-length 30 10 lengths
}

@test "fuzz-diff --dynamic-length: a corrupted result is reported, shrunk and replayable" {
  need_torch2
  corrupted "$PY2" --dynamic-length --seed 1 --count 12 --max-failures 1
}
