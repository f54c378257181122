#!/usr/bin/env bats
# The differential tester (fuzz.py): a fixed seed and budget of random
# programs through the whole pipe against PyTorch eager.  `make fuzz-diff
# N=... SEED=...` runs as many as asked.  Under SANITIZE=1 a sanitizer
# report fails a program like a wrong number.
load helpers

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
@test "fuzz-diff: a corrupted result is reported, shrunk and replayable" {
  need_torch
  mkdir -p "$T/bin"
  for t in fx-import torch-opt torch-lower codegen vmpack; do ln -s "$PWD/bin/$t" "$T/bin/$t"; done
  cat > "$T/bin/vmrun" <<SH
#!/bin/sh
"$PWD/bin/vmrun" "\$@" || exit
for a; do
  case \$a in --output=@*.npy) "$PY" -c 'import sys, numpy as np
p = sys.argv[1]; a = np.load(p)
if a.size and a.dtype != bool: a.reshape(-1)[:1].view(np.uint8)[-1] ^= 0x40; np.save(p, a)' "\${a#--output=@}";; esac
done
SH
  chmod +x "$T/bin/vmrun"
  FXPIPE_BIN="$T/bin" run "$PY" tests/diff/fuzz.py --seed 1 --count 12 --quiet --shrink-seconds 20
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
