# The PyTorch 2 pass: scripts/setup.sh installs PyTorch 2 into .venv/
# (Debian's 1.13 stays the default $PYTHON).  Without it these tests skip.
# $TORCH2_PYTHON overrides the venv's interpreter.

need_torch2() {
  # Python over the plain build: the sanitizer pass of CI has nothing to
  # add, and would run these long tests twice.
  [ "${SANITIZE:-0}" = 1 ] && skip "PyTorch 2 tests run in the plain pass"
  PY2=${TORCH2_PYTHON:-$PWD/.venv/bin/python}
  [ -x "$PY2" ] || skip "no PyTorch 2 venv ($PY2): run scripts/setup.sh"
  # importing torch 2 takes seconds: once per file
  [ -f "$BATS_FILE_TMPDIR/has-torch2" ] && return
  "$PY2" -c 'import sys, torch; sys.exit(int(torch.__version__.split(".")[0]) < 2)' 2>/dev/null ||
    skip "$PY2 has no PyTorch 2"
  touch "$BATS_FILE_TMPDIR/has-torch2"
}
