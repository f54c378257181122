# Shared setup for tests/diff: the regression cases through the real pipe.
load ../e2e/helpers

# Every case the file names, run once before them in one Python
# (PyTorch takes seconds to start; a file has up to 36 cases).  Each
# case's result lands in $BATS_FILE_TMPDIR/regress/NAME; a test whose
# cases all have one reads them, any other runs its cases itself.
setup_file() {
  PY=$(py)
  [ -n "$PY" ] && "$PY" -c 'import torch' 2>/dev/null || return 0
  mkdir -p "$BATS_FILE_TMPDIR/regress"
  "$PY" tests/diff/regress.py run --results "$BATS_FILE_TMPDIR/regress" "$BATS_TEST_FILENAME" \
    > "$BATS_FILE_TMPDIR/regress.log" 2>&1 || true
}

# regress NAME...: cases of cases_*.py against PyTorch eager (setup_file's
# results where it has them all)
regress() {
  local n r=0 have=1 d="$BATS_FILE_TMPDIR/regress"
  for n in "$@"; do [ -f "$d/$n" ] || have=0; done
  if [ "$have" = 1 ]; then
    for n in "$@"; do
      sed -n 2p "$d/$n"
      [ "$(head -n 1 "$d/$n")" = ok ] || r=1
    done
    return "$r"
  fi
  need_torch
  run "$PY" tests/diff/regress.py run "$@"
  echo "$output"
  [ "$status" -eq 0 ]
}
