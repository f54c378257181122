#!/usr/bin/env bats
# libfxrt.so, fxrt.h and examples/run.c (built by make check) from the
# build tree: what the library exports, its soname, the header on its own,
# and the example's run of the linear module (examples/linear-linalg.mlir).

setup() {
  B="${BUILD:-build/opt}"
  T="$BATS_TEST_TMPDIR"
  [ -f "$B/libfxrt.so.0" ] && [ -x "$B/examples/run" ] ||
    { echo "no $B/libfxrt.so.0 or $B/examples/run: run make $B/examples/run"; false; }
  bin/codegen --target=cpu < examples/linear-linalg.mlir | bin/vmpack -o "$T/linear.vmfb"
}

# The example's inputs: element k of input i is ((k + 2i) mod 7) - 3, so
# c = 1 2 3 -3 and the rows of a are -3 -2 -1, 0 1 2, 3 -3 -2, -1 0 1, b
# = -1 0 1: c.a + b = 8 -9 -5.
LINEAR_OUT='result 0: 3xf32 = 8 -9 -5
result 1: 1x4xf32 = 1 2 3 -3'

@test "libfxrt.so exports fxrt.h's functions and nothing else, at version FXRT_0" {
  grep -o '\brt_[a-z_0-9]*(' lib/rt/fxrt.h | tr -d '(' | sort -u > "$T/declared"
  nm -D --defined-only "$B/libfxrt.so.0" | awk '$2 != "A" { print $3 }' > "$T/exported"
  grep -v '@@FXRT_0$' "$T/exported" && { echo "unversioned exports above"; false; }
  sed 's/@@FXRT_0$//' "$T/exported" | sort | diff "$T/declared" -
}

@test "libfxrt.so's soname is libfxrt.so.0 and it needs no symbol from elsewhere but libc's, libm's and libdl's" {
  readelf -d "$B/libfxrt.so.0" | grep -q 'SONAME.*\[libfxrt\.so\.0\]'
  [ "$(readlink "$B/libfxrt.so")" = libfxrt.so.0 ]
  # ASan's libc interceptors come unversioned: the check means nothing there.
  [ "${SANITIZE:-0}" != 1 ] || return 0
  run sh -c "nm -D --undefined-only '$B/libfxrt.so.0' | grep -v '@GLIBC_\|@GCC_\|^ *w \|__asan\|__ubsan\|__sanitizer\|__lsan'"
  [ -z "$output" ] || { echo "$output"; false; }
}

@test "fxrt.h compiles on its own, as C11 and C++, and keeps the module's struct private" {
  printf '#include "fxrt.h"\nint main(void) { return rt_abi_version() != FXRT_ABI_VERSION; }\n' > "$T/h.c"
  cc -std=c11 -Wall -Wextra -Werror -pedantic -Ilib/rt -c "$T/h.c" -o "$T/h.o"
  if command -v c++ >/dev/null; then c++ -Wall -Werror -Ilib/rt -x c++ -c "$T/h.c" -o "$T/hpp.o"; fi
  printf '#include "fxrt.h"\nint n = sizeof(RtModule) + sizeof(RtFunction);\n' > "$T/p.c"
  run cc -std=c11 -Ilib/rt -c "$T/p.c" -o "$T/p.o"
  [ "$status" -ne 0 ] && [[ "$output" == *"incomplete type"* ]]
}

@test "examples/run lists the module's functions and runs @main with runtime- and caller-owned results" {
  run "$B/examples/run" "$T/linear.vmfb"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  [[ "$output" == *'@main(4x3xf32, 3xf32, 4xf32) -> (3xf32, 1x4xf32)'* ]]
  [[ "$output" == *"running @main
$LINEAR_OUT" ]] || { echo "$output"; false; }
}

@test "examples/run: from memory and on one thread, the same results" {
  run "$B/examples/run" -m -t 1 "$T/linear.vmfb" main
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  [[ "$output" == *", 1 threads"* ]] && [[ "$output" == *"$LINEAR_OUT" ]]
  run "$B/examples/run" -t 3 "$T/linear.vmfb"
  [[ "$output" == *", 3 threads"* ]] && [[ "$output" == *"$LINEAR_OUT" ]]
}

@test "examples/run: the runtime's errors, and no such function" {
  head -c 100 "$T/linear.vmfb" > "$T/cut.vmfb"
  run "$B/examples/run" "$T/cut.vmfb"
  [ "$status" -eq 1 ] && [[ "$output" == "run: $T/cut.vmfb: "?* ]] || { echo "$output"; false; }
  run "$B/examples/run" -m "$T/cut.vmfb"
  [ "$status" -eq 1 ] && [[ "$output" == "run: <memory>: "?* ]] || { echo "$output"; false; }
  run "$B/examples/run" "$T/linear.vmfb" nope
  [ "$status" -eq 1 ] && [[ "$output" == *"run: $T/linear.vmfb: no such function" ]]
}
