#!/usr/bin/env bats
bats_require_minimum_version 1.5.0
# Damaged modules: truncated, flipped bytes in each section (checksums),
# wrong magic or version, and mutations behind valid checksums (fuzz.c).
# Each is a clear error and exit 1, never a crash; the whole file also
# runs under `make SANITIZE=1`.
load helpers

# build_fuzz: $T/fuzz, tests/vmrun/src/fuzz.c linked with the library
# (with the sanitizers when it was built with them), or skips
build_fuzz() {
  local build=${BUILD:-build/opt} flags=""
  command -v cc >/dev/null || skip "no C compiler"
  [ -f "$build/libfx.a" ] || skip "$build/libfx.a is not built"
  [ "$build" = build/asan ] && flags="-fsanitize=address,undefined -fno-sanitize-recover=undefined"
  cc -std=c11 -D_GNU_SOURCE -O1 -g $flags -Ilib tests/vmrun/src/fuzz.c "$build/libfx.a" -lm -lpthread -ldl -o "$T/fuzz"
}

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
  build_fuzz
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

@test "kernel_info: names, sources, bytes and FLOPs packed, shown and checked" {
  sed 's/symbol = "exp_6", bindings = 2 : i64/&, display_name = "exp of \\"six\\"", source = "k.c:3:1", bytes = 48 : i64, flops = 6 : i64/' \
    "$IN/kernels-llc16.mlir" > "$T/info.mlir"
  bin/vmpack "$T/info.mlir" -o "$T/info.vmfb"
  run bin/vmpack --dump "$T/info.vmfb"
  [[ "$output" == *'    name exp of "six", 48 bytes, 6 flops, at k.c:3:1'* ]]
  [[ "$output" == *'    name tanh_6, 0 bytes, 0 flops'* ]]
  [[ "$output" =~ \ kernel_info\ +offset ]]
  run --separate-stderr bin/vmrun "$T/info.vmfb" --function=exp --input=6xf32=1 --profile --trace="$T/t.json"
  [ "$status" -eq 0 ]
  [[ "$stderr" == *'exp of "six"'* ]]
  python3 -m json.tool "$T/t.json" > /dev/null
  grep -q '"name":"exp of \\"six\\"","cat":"dispatch"' "$T/t.json"
  grep -q '"bytes":48,"flops":6,"grid":\[1,1,1\],"source":"k.c:3:1"' "$T/t.json"
  # without the attributes, no section: the same bytes as before it existed
  bin/vmpack --dump "$M" | { ! grep -q kernel_info; }
  # vmpack's checks of the attributes
  pack_refuses 's/flops = 6/flops = -6/' "$T/info.mlir" "error: 'flops' must be an integer >= 0"
  pack_refuses 's/source = "k.c:3:1"/source = 3 : i64/' "$T/info.mlir" "error: 'source' must be a string"
  # the runtime's checks, behind valid checksums
  n=$(bin/vmpack --dump "$T/info.vmfb" | grep -c '^  @.*bindings')
  cp "$T/info.vmfb" "$T/t.vmfb"
  python3 tests/vmrun/src/vmfb-patch.py "$T/t.vmfb" 14 1 24 1
  run bin/vmrun "$T/t.vmfb" --function=exp
  [ "$output" = "vmrun: error: $T/t.vmfb: corrupt module: kernel_info 1: reserved field is not 0" ]
  cp "$T/info.vmfb" "$T/t.vmfb"
  python3 tests/vmrun/src/vmfb-patch.py "$T/t.vmfb" 14 2 4 999999
  run bin/vmrun "$T/t.vmfb" --function=exp
  [[ "$output" == "vmrun: error: $T/t.vmfb: corrupt module: kernel_info 2: string offset 999999 is past the strings"* ]]
  cp "$T/info.vmfb" "$T/t.vmfb"
  python3 tests/vmrun/src/vmfb-patch.py "$T/t.vmfb" 14 0 28 0 -32
  run bin/vmrun "$T/t.vmfb" --function=exp
  [ "$output" = "vmrun: error: $T/t.vmfb: corrupt module: $((n - 1)) kernel_info records for $n kernels" ]
  # every byte of it mutated: loaded or rejected, never a crash
  build_fuzz
  run "$T/fuzz" "$T/info.vmfb"
  [ "$status" -eq 0 ]
  [[ "$output" =~ ^[0-9]+\ mutations: ]]
}
