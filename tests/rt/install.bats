#!/usr/bin/env bats
# make install PREFIX=...: libfxrt, fxrt.h, fxrt.pc, the man pages and the
# Python package, used from the installed copy only: examples/run.c built
# with `pkg-config --cflags --libs fxrt`, and fxpipe imported from there.

setup_file() {
  export P="$BATS_FILE_TMPDIR/prefix"
  make -s install SANITIZE="${SANITIZE:-0}" PREFIX="$P" > /dev/null
  bin/codegen --target=cpu < examples/linear-linalg.mlir | bin/vmpack -o "$BATS_FILE_TMPDIR/linear.vmfb"
}

setup() {
  T="$BATS_TEST_TMPDIR"
  M="$BATS_FILE_TMPDIR/linear.vmfb"
}

@test "install: the library with its soname link, the header, fxrt.pc with the prefix, the man pages" {
  [ -f "$P/lib/libfxrt.so.0" ] && [ "$(readlink "$P/lib/libfxrt.so")" = libfxrt.so.0 ]
  [ -f "$P/include/fxrt.h" ] && [ ! -e "$P/include/rt.h" ]
  grep -qx "prefix=$P" "$P/lib/pkgconfig/fxrt.pc"
  [ -f "$P/share/man/man3/fxrt.3" ] && [ -f "$P/share/man/man3/fxpipe.3" ]
  [ -f "$P/lib/fxpipe/python/fxpipe/__init__.py" ]
}

@test "install: examples/run.c builds with pkg-config against the installed copy and runs" {
  command -v pkg-config > /dev/null || skip "no pkg-config"
  flags=$(PKG_CONFIG_PATH="$P/lib/pkgconfig" pkg-config --cflags --libs fxrt)
  [[ "$flags" == *"-I$P/include"* ]] && [[ "$flags" == *"-L$P/lib -lfxrt"* ]] || { echo "$flags"; false; }
  san=
  [ "${SANITIZE:-0}" != 1 ] || san="-fsanitize=address,undefined"
  # Nothing of the source tree on the include path: the installed header only.
  cc -std=c11 -Wall -Werror $san -o "$T/run" examples/run.c $flags
  run env LD_LIBRARY_PATH="$P/lib" ldd "$T/run"
  [[ "$output" == *"libfxrt.so.0 => $P/lib/libfxrt.so.0"* ]] || { echo "$output"; false; }
  run env LD_LIBRARY_PATH="$P/lib" "$T/run" "$M"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  [[ "$output" == *"result 0: 3xf32 = 8 -9 -5
result 1: 1x4xf32 = 1 2 3 -3" ]] || { echo "$output"; false; }
}

@test "install: the fxpipe package finds the installed library and tools" {
  PY=
  for p in ${PYTHON:-} /usr/bin/python3 python3; do
    "$p" -c 'import numpy' 2>/dev/null && { PY=$p; break; }
  done
  [ -n "$PY" ] || skip "no Python with numpy"
  if [ "${SANITIZE:-0}" = 1 ]; then   # the installed libfxrt is ASan-built
    export LD_PRELOAD="$(cc -print-file-name=libasan.so) $(cc -print-file-name=libubsan.so)"
    export ASAN_OPTIONS=detect_leaks=0
  fi
  cd "$T"
  run env -u FXPIPE_LIB -u FXPIPE_BIN PYTHONPATH="$P/lib/fxpipe/python" "$PY" -c "
import numpy as np, fxpipe, fxpipe._rt as rt, fxpipe._compile as c
assert fxpipe.__file__.startswith('$P/'), fxpipe.__file__
assert rt.open_library()[1] == '$P/lib/libfxrt.so.0', rt.open_library()[1]
assert c.tool_path('codegen') == '$P/bin/codegen', c.tool_path('codegen')
m = fxpipe.load('$M')
a = np.arange(12, dtype=np.float32).reshape(4, 3)
r0, r1 = m.main(a, np.ones(3, np.float32), np.arange(4, dtype=np.float32))
assert r0.tolist() == [43, 49, 55], r0
"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}
