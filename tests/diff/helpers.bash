# Shared setup for tests/diff: the regression cases through the real pipe.
load ../e2e/helpers

# regress NAME...: run cases of cases_*.py against PyTorch eager (one
# PyTorch start for them all)
regress() {
  need_torch
  run "$PY" tests/diff/regress.py run "$@"
  echo "$output"
  [ "$status" -eq 0 ]
}
