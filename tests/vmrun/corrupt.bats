#!/usr/bin/env bats
bats_require_minimum_version 1.5.0
# Damaged modules: truncated, flipped bytes in each section (checksums),
# wrong magic or version, and mutations behind valid checksums (fuzz.c).
# Each is a clear error and exit 1, never a crash; the whole file also
# runs under `make SANITIZE=1`.
load helpers

setup() {
  T="$BATS_TEST_TMPDIR"
  pack kernels-llc16
  M="$T/kernels-llc16.vmfb"
  SIZE=$(wc -c < "$M" | tr -d ' ')
}

@test "a truncated module is an error at every length" {
  for n in 0 1 7 8 11 12 40 63 64 100 500 1000 $((SIZE / 2)) $((SIZE - 64)) $((SIZE - 1)); do
    head -c $n "$M" > "$T/t.vmfb"
    run bin/vmrun "$T/t.vmfb" --function=exp --input=6xf32=1
    [ "$status" -eq 1 ]
    case $n in
    0) [ "$output" = "vmrun: error: $T/t.vmfb: empty module (0 bytes)" ] ;;
    1|7|8|11) [ "$output" = "vmrun: error: $T/t.vmfb: truncated module: $n bytes" ] ;;
    12|40|63) [ "$output" = "vmrun: error: $T/t.vmfb: truncated module: $n bytes, shorter than its header" ] ;;
    *) [ "$output" = "vmrun: error: $T/t.vmfb: truncated module: the header says $SIZE bytes, there are $n" ] ;;
    esac
  done
  run bash -c "head -c 100 '$M' | bin/vmrun - --function=exp"
  [ "$status" -eq 1 ]
  [ "$output" = "vmrun: error: <stdin>: truncated module: the header says $SIZE bytes, there are 100" ]
}

@test "a flipped byte in any section is a checksum mismatch naming the section" {
  bin/vmpack --dump "$M" | awk '/ offset / {print $1, $2, $4, $6}' > "$T/sections"
  [ "$(wc -l < "$T/sections")" -eq 13 ]
  while read -r i kind off size; do
    [ "$size" -gt 0 ] || continue
    cp "$M" "$T/t.vmfb"
    flip "$T/t.vmfb" $((off + size / 2))
    run bin/vmrun "$T/t.vmfb" --function=exp --input=6xf32=1
    [ "$status" -eq 1 ]
    [ "$output" = "vmrun: error: $T/t.vmfb: corrupt module: section $i ($kind) checksum mismatch" ]
    run bin/vmpack --dump "$T/t.vmfb"
    [ "$status" -eq 1 ]
  done < "$T/sections"
  cp "$M" "$T/t.vmfb"
  flip "$T/t.vmfb" 20
  run bin/vmrun "$T/t.vmfb"
  [ "$output" = "vmrun: error: $T/t.vmfb: corrupt module: header checksum mismatch" ]
  cp "$M" "$T/t.vmfb"
  flip "$T/t.vmfb" 100
  run bin/vmrun "$T/t.vmfb"
  [ "$output" = "vmrun: error: $T/t.vmfb: corrupt module: section table checksum mismatch" ]
}

@test "wrong magic, wrong version, and data that is not a module" {
  cp "$M" "$T/t.vmfb"
  flip "$T/t.vmfb" 1
  run bin/vmrun "$T/t.vmfb"
  [ "$status" -eq 1 ]
  [ "$output" = "vmrun: error: $T/t.vmfb: not a .vmfb module (bad magic)" ]
  cp "$M" "$T/t.vmfb"
  put_u32 "$T/t.vmfb" 8 2
  run bin/vmrun "$T/t.vmfb"
  [ "$status" -eq 1 ]
  [ "$output" = "vmrun: error: $T/t.vmfb: unsupported .vmfb version 2 (this build reads version 1)" ]
  run bin/vmpack --dump "$T/t.vmfb"
  [ "$output" = "vmpack: error: $T/t.vmfb: unsupported .vmfb version 2 (this build reads version 1)" ]
  run bin/vmrun "$IN/host.mlir"
  [ "$status" -eq 1 ]
  [ "$output" = "vmrun: error: $IN/host.mlir: not a .vmfb module (bad magic)" ]
  run bin/vmrun /dev/null
  [ "$output" = "vmrun: error: /dev/null: empty module (0 bytes)" ]
  run bin/vmrun "$T"
  [ "$output" = "vmrun: error: cannot read '$T': Is a directory" ]
}

@test "mutations behind valid checksums are loaded or rejected, never a crash" {
  command -v cc >/dev/null || skip "no C compiler"
  build=${BUILD:-build/opt}
  [ -f "$build/libfx.a" ] || skip "$build/libfx.a is not built"
  flags=""
  [ "$build" = build/asan ] && flags="-fsanitize=address,undefined -fno-sanitize-recover=undefined"
  cc -std=c11 -D_GNU_SOURCE -O1 -g $flags -Ilib tests/vmrun/src/fuzz.c "$build/libfx.a" -lm -lpthread -ldl -o "$T/fuzz"
  pack host
  # a mutated arena size may ask for terabytes: that is an error, not a crash
  export ASAN_OPTIONS=allocator_may_return_null=1
  run --separate-stderr "$T/fuzz" "$T/host.vmfb" invoke
  [ "$status" -eq 0 ]
  [[ "$output" =~ ^[0-9]+\ mutations:\ [0-9]+\ loaded,\ [0-9]+\ rejected$ ]]
  run "$T/fuzz" "$M"
  [ "$status" -eq 0 ]
  [[ "$output" =~ ^[0-9]+\ mutations: ]]
}
