# Shared setup for tests/diff: the regression cases through the real pipe.
load ../e2e/helpers

# regress NAME: run one case of cases_*.py against PyTorch eager
regress() {
  need_torch
  run "$PY" tests/diff/regress.py run "$1"
  echo "$output"
  [ "$status" -eq 0 ]
}
