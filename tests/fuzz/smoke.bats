#!/usr/bin/env bats
# The libFuzzer targets (tests/fuzz/README.md): each built and run for a
# short seeded smoke on its seed corpus, and every crash input found
# earlier (tests/fuzz/crashes/TARGET/) replayed once: none may crash.
# Inputs of bugs not fixed yet are listed in tests/fuzz/crashes/open.txt;
# they are replayed too, and one that no longer crashes fails the test
# until its line is removed.  Skipped under SANITIZE=1 (the targets are
# sanitizer builds already) but in CI, which runs them in its sanitizer
# pass (tests/ci-split.bash), and where clang has no libFuzzer.

FUZZ_TARGETS="ir fxjson vmfb npy textin safetensors"

load ../ci-split

setup() {
  plain_pass_unless_split "SANITIZE=1: the fuzz targets run in the plain run only"
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

# sig TARGET FILE: what running FILE reports, in one line: the kind of
# error (with the place of a UBSan report) and the first three frames in lib/ or tools/ (or "no crash").
sig() {
  build/fuzz/fuzz-$1 -close_fd_mask=1 "$2" >"$T/sig.out" 2>&1 && { echo "no crash"; return; }
  { grep -oE 'ERROR: [A-Za-z]+: [a-z-]+|[^ ]*: runtime error|does not (read back|verify)|read differently|internal error: [^0-9]*' "$T/sig.out" | head -n 1
    grep -E '^ *#[0-9]+ .* in .*/(lib|tools)/' "$T/sig.out" | grep -v '/lib/util.c' |
      sed -E 's/.* in ([A-Za-z_0-9]+) .*\/((lib|tools)\/.*)$/\1 \2/' | head -n 3
  } | tr '\n' ' '
}

# smoke TARGET: 20000 runs from seed 1 (30 s at most) on a copy of the
# seed corpus, with the target's dictionary; no crash, leak or timeout
# but the bugs listed in crashes/open.txt (the crash input found has the
# same signature as one of those: noted, and the smoke ends there).
smoke() {
  mkdir -p "$T/corpus"
  run build/fuzz/fuzz-$1 -seed=1 -runs=20000 -max_total_time=30 -timeout=10 \
    -close_fd_mask=3 -artifact_prefix="$T/art-" -dict=tests/fuzz/$1.dict \
    "$T/corpus" tests/fuzz/corpus/$1
  [ "$status" -ne 0 ] || return 0
  for a in "$T"/art-*; do
    [ -f "$a" ] || continue
    s=$(sig "$1" "$a")
    for f in $(sed -n "s|^$1/\([^ ]*\) .*|\1|p" tests/fuzz/crashes/open.txt); do
      if [ "$(sig "$1" "tests/fuzz/crashes/$1/$f")" = "$s" ]; then
        echo "# $1: the smoke met an open bug ($f): $s" >&3
        return 0
      fi
    done
  done
  # a new crash: its input kept in tests/out/fuzz/, and what it reports
  mkdir -p tests/out/fuzz
  for a in "$T"/art-*; do
    [ -f "$a" ] || continue
    cp "$a" "tests/out/fuzz/$1-${a##*/art-}"
    echo "new crash, kept as tests/out/fuzz/$1-${a##*/art-}: $(sig "$1" "$a")"
    tail -n 40 "$T/sig.out"
  done
  echo "$output" | tail -n 20
  false
}

@test "fuzz smoke: ir" { smoke ir; }
@test "fuzz smoke: fxjson" { smoke fxjson; }
@test "fuzz smoke: vmfb" { smoke vmfb; }
@test "fuzz smoke: npy" { smoke npy; }
@test "fuzz smoke: textin" { smoke textin; }
@test "fuzz smoke: safetensors" { smoke safetensors; }

@test "fuzz regressions: earlier crash inputs do not crash" {
  open=tests/fuzz/crashes/open.txt
  bad=
  for t in $FUZZ_TARGETS; do
    for f in tests/fuzz/crashes/$t/*; do
      [ -f "$f" ] || continue
      rc=0
      build/fuzz/fuzz-$t -close_fd_mask=1 "$f" >"$T/out" 2>&1 || rc=$?
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
