#!/usr/bin/env bats
# The libFuzzer targets (tests/fuzz/README.md): each built and run for a
# short seeded smoke on its seed corpus, and every crash input found
# earlier (tests/fuzz/crashes/TARGET/) replayed once: none may crash.
# Inputs of bugs not fixed yet are listed in tests/fuzz/crashes/open.txt;
# they are replayed too, and one that no longer crashes fails the test
# until its line is removed.  Skipped under SANITIZE=1 (the targets are
# sanitizer builds already) and where clang has no libFuzzer.

FUZZ_TARGETS="ir fxjson vmfb npy textin"

setup() {
  [ "${SANITIZE:-0}" != 1 ] || skip "SANITIZE=1: the fuzz targets run in the plain run only"
  cc=$(command -v clang-16 || command -v clang) \
    || skip "no clang: install clang-16 and libclang-rt-16-dev (scripts/setup.sh)"
  T=$(mktemp -d "${BATS_TMPDIR:-/tmp}/fuzz.XXXXXX")
  printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { return 0; }\n' > "$T/probe.c"
  "$cc" -fsanitize=fuzzer,address,undefined -o "$T/probe" "$T/probe.c" >/dev/null 2>&1 \
    || skip "$cc has no libFuzzer runtime: install libclang-rt-16-dev (scripts/setup.sh)"
  make -s fuzz-build >"$T/build.log" 2>&1 || { cat "$T/build.log"; false; }
}

teardown() {
  [ -z "${T:-}" ] || rm -rf "$T"
}

# smoke TARGET: 20000 runs from seed 1 (30 s at most) on a copy of the
# seed corpus, with the target's dictionary; no crash, leak or timeout.
smoke() {
  mkdir -p "$T/corpus"
  run build/fuzz/fuzz-$1 -seed=1 -runs=20000 -max_total_time=30 -timeout=10 \
    -close_fd_mask=3 -artifact_prefix="$T/" -dict=tests/fuzz/$1.dict \
    "$T/corpus" tests/fuzz/corpus/$1
  [ "$status" -eq 0 ] || { echo "$output" | tail -n 60; ls "$T"; false; }
}

@test "fuzz smoke: ir" { smoke ir; }
@test "fuzz smoke: fxjson" { smoke fxjson; }
@test "fuzz smoke: vmfb" { smoke vmfb; }
@test "fuzz smoke: npy" { smoke npy; }
@test "fuzz smoke: textin" { smoke textin; }

@test "fuzz regressions: earlier crash inputs do not crash" {
  open=tests/fuzz/crashes/open.txt
  bad=
  for t in $FUZZ_TARGETS; do
    for f in tests/fuzz/crashes/$t/*; do
      [ -f "$f" ] || continue
      build/fuzz/fuzz-$t -close_fd_mask=1 "$f" >"$T/out" 2>&1
      rc=$?
      if grep -q "^$t/${f##*/} " "$open"; then
        [ "$rc" -ne 0 ] || bad="$bad
$f: listed in $open but no longer crashes: remove its line"
      elif [ "$rc" -ne 0 ]; then
        bad="$bad
$f crashes:
$(grep -E 'ERROR|SUMMARY|runtime error|^    #[0-9] ' "$T/out" | head -n 12)"
      fi
    done
  done
  [ -z "$bad" ] || { echo "$bad"; false; }
}
