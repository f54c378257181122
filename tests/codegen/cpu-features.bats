#!/usr/bin/env bats
# What a module records of the CPU it was built for, and what vmrun does
# with it: codegen --cpu=NAME records NAME's instruction sets (with
# --features' changes) in the module, vmrun refuses a module that needs
# one this machine lacks, and a kernel that runs an instruction the CPU
# lacks anyway (its features edited out of the module by hand) stops with
# that said, not as a bounds check.

setup() {
  T=$BATS_TEST_TMPDIR
  IN=tests/codegen/inputs
}

@test "codegen --cpu=NAME records NAME's instruction sets as clang-16's -march=NAME has them, for every x86-64 CPU model of LLVM 16" {
  command -v clang-16 >/dev/null && command -v llc-16 >/dev/null || skip "clang-16 or llc-16 is not installed"
  run /usr/bin/python3 tests/codegen/cpu_features.py bin/codegen "$IN/seed-linear-linalg.mlir"
  echo "$output"
  [ "$status" -eq 0 ]
}

@test "--features adds to and takes from the CPU's instruction sets; a CPU whose sets codegen does not know is refused" {
  bin/codegen --cpu=x86-64-v2 --features=+avx,-popcnt,+fma,-fma "$IN/seed-linear-linalg.mlir" > "$T/m.mlir"
  grep -q 'fxvm.cpu = "x86-64-v2", fxvm.features = "+cx16,+sahf,+sse3,+ssse3,+sse4.1,+sse4.2,+avx"' "$T/m.mlir"
  run bin/codegen --cpu=knl "$IN/seed-linear-linalg.mlir" -o "$T/k.mlir"
  echo "$output"
  [ "$status" -eq 1 ]
  [[ "$output" == *"CPU 'knl': codegen does not know its instruction sets"* ]]
  [ ! -e "$T/k.mlir" ]
}

@test "--features on the host adds to the host's instruction sets (LLVM 16 names a Zen 5 \"generic\", which implies none of them), each recorded once as the last says" {
  bin/codegen "$IN/seed-linear-linalg.mlir" | grep -o 'fxvm.features = "[^"]*"' | tr -d '"' | sed 's/.*= //' | tr , '\n' > "$T/host"
  grep -qx '+sse2' "$T/host"
  bin/codegen --features=-sse4.2,+sse4.2,-popcnt "$IN/seed-linear-linalg.mlir" |
    grep -o 'fxvm.features = "[^"]*"' | tr -d '"' | sed 's/.*= //' | tr , '\n' > "$T/edited"
  # every host feature but popcnt and sse4.2 as it was; those as --features says, once
  diff <(grep -v -e '^.popcnt$' -e '^.sse4.2$' "$T/host") <(grep -v -e '^.popcnt$' -e '^.sse4.2$' "$T/edited")
  [ "$(grep -c -e '^.popcnt$' "$T/edited")" = 1 ]
  grep -qx -- '-popcnt' "$T/edited"
  [ "$(grep -c -e '^.sse4.2$' "$T/edited")" = 1 ]
  grep -qx -- '+sse4.2' "$T/edited"
}

@test "vmrun refuses a module built for a CPU with instruction sets this machine lacks, before running it" {
  # bdver1's FMA4: no Intel CPU and no Zen has it
  grep -qw fma4 /proc/cpuinfo && skip "this CPU has FMA4"
  bin/codegen --cpu=bdver1 tests/codegen/heads-store.mlir | bin/vmpack -o "$T/m.vmfb"
  run bin/vmrun "$T/m.vmfb" --function=heads --input=4x13x40xf32=1 --input=4x40x16xf32=2
  echo "$output"
  [ "$status" -eq 1 ]
  # the first of bdver1's this machine lacks: SSE4a on Intel, FMA4 on Zen
  grep -Eq "the module's kernels need the CPU feature '(sse4a|fma4|xop)', which this machine lacks" <<< "$output"
}

@test "a kernel that runs an instruction the CPU lacks stops with that said, not as a bounds check" {
  grep -qw fma4 /proc/cpuinfo && skip "this CPU has FMA4"
  # the features edited out: vmrun's check at load passes, the kernel's
  # first FMA4 instruction (a GEMM micro-kernel's) is illegal here
  bin/codegen --cpu=bdver1 tests/codegen/heads-store.mlir |
    sed 's/fxvm.features = "[^"]*"/fxvm.features = ""/' | bin/vmpack -o "$T/m.vmfb"
  run bin/vmrun "$T/m.vmfb" --function=heads --input=4x13x40xf32=1 --input=4x40x16xf32=2
  echo "$output"
  [ "$status" -eq 1 ]
  [[ "$output" == *"a kernel ran an instruction this CPU does not have"* ]]
  [[ "$output" != *"bounds check"* ]]
}
