#!/usr/bin/env bats
# make install puts every tool and man page under PREFIX inside DESTDIR.

@test "make install PREFIX=... DESTDIR=... installs the tools and man pages" {
  d="$BATS_TEST_TMPDIR/root"
  make -s install SANITIZE="${SANITIZE:-0}" PREFIX=/opt/fx DESTDIR="$d" > /dev/null
  for t in fx-export fx-import torch-opt torch-lower codegen vmpack vmrun; do
    [ -x "$d/opt/fx/bin/$t" ] || { echo "missing bin/$t"; false; }
    [ -f "$d/opt/fx/share/man/man1/$t.1" ] || { echo "missing man page $t.1"; false; }
  done
  "$d/opt/fx/bin/torch-opt" -p '' examples/linear-torch.mlir | grep -q torch.aten.mm
}
