#!/usr/bin/env bats
# The second pass: the exporter's tests and the end-to-end model tests
# again, with PyTorch 2 (.venv/bin/python as $PYTHON; the first pass, in
# tests/fx-export and tests/e2e, uses Debian's 1.13).  One test per file,
# each running that file with bats; none of its tests may skip for want of
# torch.  tests/fx-export/errors.bats (the command line's refusals, the
# same code under either version) is left to the first pass: with
# PyTorch 2's slower start it took 6 minutes on the shared 2-core machine.
# FXPIPE_PT2_PASS=1 tells the files so: tests that check codegen and the
# runtime on a model (the same whichever PyTorch exported it) skip.

load helpers

pass() {
  need_torch2
  run env PYTHON="$PY2" FXPIPE_PT2_PASS=1 bats --tap "$1"
  echo "$output"
  [ "$status" -eq 0 ]
  [[ "$output" != *"cannot import torch"* ]]
}

@test "PyTorch 2: tests/fx-export/format.bats" { pass tests/fx-export/format.bats; }
@test "PyTorch 2: tests/fx-export/models.bats" { pass tests/fx-export/models.bats; }
@test "PyTorch 2: tests/e2e/models.bats" { pass tests/e2e/models.bats; }
