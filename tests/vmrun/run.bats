#!/usr/bin/env bats
bats_require_minimum_version 1.5.0
# vmrun: hand-written fxvm modules whose kernels are C compiled four ways
# (src/gen.sh), packed and run; threads, benchmark, stats, devices.
load helpers

@test "kernels run the same from every compiler's object (relocations, libm, .rodata, grids)" {
  for f in $FLAVORS; do
    pack kernels-$f
    m="$T/kernels-$f.vmfb"
    run bin/vmrun "$m" --function=exp --input=6xf32=0,1,2,-1,0.5,3
    [ "$status" -eq 0 ]
    [ "$output" = "6xf32=1 2.71828 7.38906 0.367879 1.64872 20.0855" ]
    run bin/vmrun "$m" --function=lookup --input=8xi32=0,1,2,3,4,5,6,7
    [ "$output" = "8xf32=1021 44.5 18 56.5 40.75 41.375 29.25 1067.5" ]
    run bin/vmrun "$m" --function=linear --input=1x4xf32=1,2,3,4
    [ "$output" = "3xf32=7.5 7 11" ]
    run bin/vmrun "$m" --function=chain --input=6xf32=0,1,2,-1,0.5,-3
    [ "${lines[0]}" = "6xf32=0.761594 0.991329 0.999999 0.352135 0.928682 0.049746" ]
    [ "${lines[1]}" = "2x3xf32=[1 2.71828 7.38906][0.367879 1.64872 0.0497871]" ]
    run bin/vmrun "$m" --function=add --input=1000xf32=1.5 --input=1000xf32=2 --expected_output=1000xf32=3.5
    [ "$status" -eq 0 ]
    [ "$output" = "[SUCCESS] all function outputs matched their expected values" ]
  done
}

@test "a 3-D grid of workgroups gets every id once" {
  pack kernels-gcc-nopic
  run bin/vmrun "$T/kernels-gcc-nopic.vmfb" --function=grid --input=2x4x8xf32=1
  [ "$status" -eq 0 ]
  [ "$output" = "2x4x8xf32=[[2 3 4 5 6 7 8 9][12 13 14 15 16 17 18 19][22 23 24 25 26 27 28 29][32 33 34 35 36 37 38 39]][[102 103 104 105 106 107 108 109][112 113 114 115 116 117 118 119][122 123 124 125 126 127 128 129][132 133 134 135 136 137 138 139]]" ]
}

@test "--threads=1 and --threads=2 (and the default) give identical results" {
  pack kernels-llc16
  m="$T/kernels-llc16.vmfb"
  for fn in grid owner add; do
    ins=""
    [ $fn = grid ] && ins="--input=2x4x8xf32=3"
    [ $fn = add ] && ins="--input=1000xf32=1 --input=1000xf32=0.25"
    bin/vmrun "$m" --function=$fn $ins --threads=1 --output=@"$T/t1.npy"
    bin/vmrun "$m" --function=$fn $ins --threads=2 --output=@"$T/t2.npy"
    bin/vmrun "$m" --function=$fn $ins --threads=7 --output=@"$T/t7.npy"
    bin/vmrun "$m" --function=$fn $ins --output=@"$T/tn.npy"
    cmp "$T/t1.npy" "$T/t2.npy"
    cmp "$T/t1.npy" "$T/t7.npy"
    cmp "$T/t1.npy" "$T/tn.npy"
  done
  run bin/vmrun "$m" --function=owner --threads=3 --print_max_element_count=1000
  [[ "$output" == "1000xi32=0 0 "*" 1001 1001 "*" 2002 "*" 3003 3003" ]]
}

@test "views, copies, fills, constants and the arena" {
  pack host
  m="$T/host.vmfb"
  run bin/vmrun "$m" --function=views --input=2x3xf32=1,2,3,4,5,6
  [ "$status" -eq 0 ]
  [ "${lines[0]}" = "6xf32=1 2 3 4 5 6" ]
  [ "${lines[1]}" = "3xf32=4 5 6" ]
  run bin/vmrun "$m" --function=fills
  [ "$output" = "$(printf '%s\n' '4xi32=-7 -7 -7 -7' '2xf16=1.5 1.5' '3xi1=1 1 1' '2xbf16=-2.5 -2.5' '2xf64=0.1 0.1' '2xi8=-1 -1')" ]
  for t in 1 2 3; do
    run bin/vmrun "$m" --function=bigfills --threads=$t --output=@"$T/f64.bin" --output=@"$T/i16.bin"
    [ "$status" -eq 0 ]
    python3 -c 'import struct, sys
assert open(sys.argv[1], "rb").read() == struct.pack("<d", 0.1) * 327683
assert open(sys.argv[2], "rb").read() == struct.pack("<h", -2) * 600001' "$T/f64.bin" "$T/i16.bin"
  done
  # fills with an interior: the outside only
  run bin/vmrun "$m" --function=fill_outside
  [ "$status" -eq 0 ]
  [ "${lines[0]}" = "2x3x4xf32=[[0 0 0 0][0 0 0 0][0 0 0 0]][[0 0 0 0][0 7 7 0][0 7 7 0]]" ]
  [ "${lines[1]}" = "5xi8=-3 1 1 1 -3" ]
  [ "${lines[2]}" = "2x2x3x4xf64=[[[0.5 0.5 0.5 0.5][0.5 0.5 0.5 0.5][0.5 0.5 0.5 0.5]][[0.5 0.5 0.5 0.5][0.5 0.5 0.5 0.5][0.5 0.5 0.5 0.5]]][[[0.5 0.5 0.5 0.5][0.5 2 2 2][0.5 0.5 0.5 0.5]][[0.5 0.5 0.5 0.5][0.5 2 2 2][0.5 0.5 0.5 0.5]]]" ]
  [ "${lines[3]}" = "3x4xi16=[9 9 9 9][9 9 9 9][9 9 9 9]" ]
  [ "${lines[4]}" = "2x2xf32=[1 1][1 1]" ]
  run bin/vmrun "$m" --function=consts
  [ "$output" = "$(printf '%s\n' '2x2xf32=[1 2][3 4]' '3xi64=1 1 1' '4xi16=1 -2 3 -4')" ]
  run bin/vmrun "$m" --function=arena --input=4xf32=1,2,3,4
  [ "${lines[0]}" = "4xf32=1 2 3 4" ]
  [ "${lines[1]}" = "4xf32=1 2 9 9" ]
  run bin/vmrun "$m" --function=scalar --input=f32=-2.5
  [ "$output" = "f32=-2.5" ]
}

@test "the arena is reused across invocations: the benchmark's runs all see fresh inputs" {
  pack kernels-gcc-relax
  run bin/vmrun "$T/kernels-gcc-relax.vmfb" --function=chain --input=6xf32=0,1,2,-1,0.5,-3 --benchmark=20 \
    --expected_output=6xf32=0.761594,0.991329,0.999999,0.352135,0.928682,0.049746 \
    --expected_output=2x3xf32=1,2.71828,7.38906,0.367879,1.64872,0.0497871
  [ "$status" -eq 0 ]
  [[ "${lines[0]}" == "@chain: 20 runs after 1 warm-up, latency min "*" us, median "*" us, mean "*" us, max "*" us" ]]
  [ "${lines[1]}" = "[SUCCESS] all function outputs matched their expected values" ]
}

@test "several functions in one module; --function chooses, @main or the only one is the default" {
  pack host
  run bin/vmrun "$T/host.vmfb" --function=@two --input=4xf32=1,2,3,4 --input=2x3xi32=1,2,3,4,5,6
  [ "${lines[0]}" = "2x3xi32=[1 2 3][4 5 6]" ]
  [ "${lines[1]}" = "4xf32=1 2 3 4" ]
  run bin/vmrun "$T/host.vmfb"
  [ "$status" -eq 1 ]
  [[ "$output" == "vmrun: error: $T/host.vmfb has no @main; choose one with --function (it has @views, @fills, @bigfills, @consts, @arena, @scalar, @two, @id_f32, "* ]]
  run bin/vmrun "$T/host.vmfb" --function=nope
  [ "$status" -eq 1 ]
  [[ "$output" == "vmrun: error: $T/host.vmfb has no function @nope (it has @views, "* ]]
  pack cuda
  sed 's/fxvm.target = "cuda"/fxvm.target = "cpu"/; /fxvm.executable\|fxvm.kernel\|fxvm.dispatch/d' "$IN/cuda.mlir" > "$T/one.mlir"
  bin/vmpack "$T/one.mlir" -o "$T/one.vmfb"
  run bin/vmrun "$T/one.vmfb" --input=4xf32=1
  [ "$status" -eq 0 ]
}

@test "the module can come from stdin" {
  pack kernels-gcc-pic
  run bash -c "bin/vmrun - --function=linear --input=1x4xf32=1,2,3,4 < '$T/kernels-gcc-pic.vmfb'"
  [ "$status" -eq 0 ]
  [ "$output" = "3xf32=7.5 7 11" ]
  run bash -c "bin/vmpack $IN/kernels-gcc-pic.mlir | bin/vmrun - --function=linear --input=1x4xf32=1,2,3,4"
  [ "$output" = "3xf32=7.5 7 11" ]
}

@test "--expected_output: a mismatch names the result and the element, exit 1" {
  pack kernels-llc16
  m="$T/kernels-llc16.vmfb"
  run bin/vmrun "$m" --function=linear --input=1x4xf32=1,2,3,4 --expected_output=3xf32=7.5,7.001,11
  [ "$status" -eq 0 ]
  run bin/vmrun "$m" --function=linear --input=1x4xf32=1,2,3,4 --expected_output=3xf32=7.5,7.1,11
  [ "$status" -eq 1 ]
  [ "$output" = "vmrun: error: result 0: element 1 is 7, expected 7.1 (rtol 1e-3, atol 1e-7)" ]
  run bin/vmrun "$m" --function=linear --input=1x4xf32=1,2,3,4 --expected_output=1x3xf32=7.5,7,11
  [ "$status" -eq 1 ]
  [ "$output" = "vmrun: error: result 0: is 3xf32, expected 1x3xf32" ]
  run bin/vmrun "$m" --function=owner --expected_output=1000xi32=0
  [ "$status" -eq 1 ]
  [ "$output" = "vmrun: error: result 0: element 250 is 1001, expected 0" ]
  run bin/vmrun "$m" --function=linear --input=1x4xf32=1,2,3,4 --expected_output='(ignored)'
  [ "$status" -eq 0 ]
  run bin/vmrun "$m" --function=linear --input=1x4xf32=1,2,3,4 --expected_output=3xf32=1 --expected_output=3xf32=1
  [ "$status" -eq 1 ]
  [ "$output" = "vmrun: error: 2 --expected_output flags, but @linear returns 1 result" ]
}

@test "--rtol and --atol set the float tolerances; bad values are errors" {
  pack kernels-gcc-nopic
  m="$T/kernels-gcc-nopic.vmfb"
  # |7 - 7.001| = 0.001: within the default rtol 1e-3 (7.001e-3), not 1e-4
  run bin/vmrun "$m" --function=linear --input=1x4xf32=1,2,3,4 --expected_output=3xf32=7.5,7.001,11 --rtol=1e-4
  [ "$status" -eq 1 ]
  [ "$output" = "vmrun: error: result 0: element 1 is 7, expected 7.001 (rtol 1e-4, atol 1e-7)" ]
  run bin/vmrun "$m" --function=linear --input=1x4xf32=1,2,3,4 --expected_output=3xf32=7.5,7.1,11 --rtol=0 --atol=0.11
  [ "$status" -eq 0 ]
  run bin/vmrun "$m" --function=linear --input=1x4xf32=1,2,3,4 --expected_output=3xf32=7.5,7.1,11 --rtol=0 --atol=0.09
  [ "$status" -eq 1 ]
  [ "$output" = "vmrun: error: result 0: element 1 is 7, expected 7.1 (rtol 0, atol 0.09)" ]
  run bin/vmrun "$m" --function=linear --input=1x4xf32=1,2,3,4 --expected_output=3xf32=7.5,7.5,11 --rtol=0.1
  [ "$status" -eq 0 ]
  # exact for integers, whatever the tolerances
  run bin/vmrun "$m" --function=owner --expected_output=1000xi32=0 --atol=1e9
  [ "$status" -eq 1 ]
  for bad in -1 x "" inf nan 1e-3x; do
    run bin/vmrun "$m" --function=linear --rtol="$bad"
    [ "$status" -eq 1 ]
    [ "$output" = "vmrun: error: --rtol: '$bad' is not a number >= 0" ]
  done
  run bin/vmrun "$m" --function=linear --atol=-0.5
  [ "$output" = "vmrun: error: --atol: '-0.5' is not a number >= 0" ]
}

@test "--expected_output=@file.npy" {
  pack host
  run bin/vmrun "$T/host.vmfb" --function=id_i16 --input=@$IN/npy/x_i16.npy --expected_output=@$IN/npy/x_i16.npy
  [ "$status" -eq 0 ]
  run bin/vmrun "$T/host.vmfb" --function=id_i16 --input=2x3xi16=0 --expected_output=@$IN/npy/x_i16.npy
  [ "$status" -eq 1 ]
  [ "$output" = "vmrun: error: result 0: element 0 is 0, expected 1" ]
}

@test "--benchmark prints min, median and max latency" {
  pack kernels-gcc-nopic
  run bin/vmrun "$T/kernels-gcc-nopic.vmfb" --function=add --input=1000xf32=1 --input=1000xf32=2 --benchmark=50 --threads=2
  [ "$status" -eq 0 ]
  [ "${#lines[@]}" -eq 1 ]
  [[ "$output" =~ ^@add:\ 50\ runs\ after\ 1\ warm-up,\ latency\ min\ [0-9.]+\ us,\ median\ [0-9.]+\ us,\ mean\ [0-9.]+\ us,\ max\ [0-9.]+\ us$ ]]
}

@test "--stats reports the peak of arena, inputs and results, and the RSS high-water mark" {
  pack host
  run --separate-stderr bin/vmrun "$T/host.vmfb" --function=arena --input=4xf32=1,2,3,4 --stats
  [ "$status" -eq 0 ]
  [[ "$stderr" == "vmrun: @arena: peak 112 bytes (arena 64 + inputs 16 + results 32); max RSS "*" KiB (getrusage)" ]]
}

@test "--device=cuda without a driver fails clearly; targets must match the device" {
  if ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1 '; then skip "an NVIDIA driver is installed"; fi
  pack host
  pack cuda
  run bin/vmrun "$T/host.vmfb" --function=scalar --input=f32=1 --device=cuda
  [ "$status" -eq 1 ]
  [ "$output" = "vmrun: error: --device=cuda: cannot load libcuda.so.1 (no NVIDIA driver)" ]
  run bin/vmrun "$T/cuda.vmfb" --input=4xf32=1
  [ "$status" -eq 1 ]
  [ "$output" = "vmrun: error: --device=cuda: cannot load libcuda.so.1 (no NVIDIA driver)" ]
  run bin/vmrun "$T/cuda.vmfb" --input=4xf32=1 --device=cpu
  [ "$status" -eq 1 ]
  [ "$output" = "vmrun: error: $T/cuda.vmfb: the module targets cuda, not cpu (use --device=cuda)" ]
  run bin/vmrun "$T/host.vmfb" --device=tpu
  [ "$status" -eq 1 ]
  [ "$output" = "vmrun: error: --device: unknown device 'tpu' (cpu or cuda)" ]
}

@test "a module whose kernels need CPU features this machine lacks is refused" {
  grep -qw xop /proc/cpuinfo && skip "this CPU has XOP"
  sed 's/fxvm.features = "+sse2"/fxvm.features = "+sse2,+xop"/' "$IN/kernels-llc16.mlir" > "$T/xop.mlir"
  bin/vmpack "$T/xop.mlir" -o "$T/xop.vmfb"
  run bin/vmrun "$T/xop.vmfb" --function=exp --input=6xf32=1
  [ "$status" -eq 1 ]
  [ "$output" = "vmrun: error: $T/xop.vmfb: the module's kernels need the CPU feature 'xop', which this machine lacks" ]
}

# inputs/bf16-linear.mlir: Linear(48, 40) on 3 rows under autocast bf16
# (fx-export --autocast bf16, fx-import, torch-opt, torch-lower).
# bf16_module "CODEGEN FLAGS" OFF MARK FLAGS...: the module codegen's
# flags make, with its bf16 kernels (--dump-dispatches says MARK), runs
# where /proc/cpuinfo has every one of FLAGS as the f32 kernels
# (--features=OFF) compute, and is refused by a feature's name where it
# has not
bf16_module() {
  local cg=$1 off=$2 mark=$3 f
  shift 3
  grep "gemm:.*$mark" <(bin/codegen $cg --dump-dispatches "$IN/bf16-linear.mlir")
  ! grep -q 'bf16 (' <(bin/codegen $cg --features="$off" --dump-dispatches "$IN/bf16-linear.mlir" | grep 'gemm:')
  bin/codegen $cg "$IN/bf16-linear.mlir" | bin/vmpack -o "$T/bf16.vmfb"
  bin/codegen $cg --features="$off" "$IN/bf16-linear.mlir" | bin/vmpack -o "$T/f32.vmfb"
  x=$(seq -24 23 | awk '{ printf "%s%.3f", (NR > 1 ? "," : ""), $1 / 7 }')
  x="$x,$x,$x"
  for f in "$@"; do
    if ! grep -qw "$f" /proc/cpuinfo; then
      run bin/vmrun "$T/bf16.vmfb" --input=3x48xf32="$x"
      echo "$output"
      [ "$status" -eq 1 ]
      [[ "$output" == *"the module's kernels need the CPU feature '"*"', which this machine lacks" ]]
      return
    fi
  done
  bin/vmrun "$T/f32.vmfb" --input=3x48xf32="$x" --output=@"$T/want.bin"
  run bin/vmrun "$T/bf16.vmfb" --input=3x48xf32="$x" --expected_output=3x40xbf16=@"$T/want.bin"
  echo "$output"
  [ "$status" -eq 0 ]
}

@test "a module with bf16 kernels on AMX tiles runs where the CPU has AMX-BF16, as the f32 kernels compute, and is refused where it has not" {
  bf16_module --cpu=sapphirerapids -amx-bf16,-avx512bf16 'bf16 (AMX)' amx_bf16 amx_tile avx512_bf16
}

@test "a module with bf16 kernels by vdpbf16ps runs where the CPU has AVX-512 BF16, as the f32 kernels compute, and is refused where it has not" {
  # Cooper Lake's instruction sets: AVX-512 BF16 without AMX, which AMD's
  # Zen 4 has too; vdpbf16ps by default only for AMD's CPUs (twice the
  # FMA's rate there, half of it on Intel's Sapphire Rapids)
  bf16_module "--cpu=cooperlake --vdpbf16ps=on" -avx512bf16 'bf16 (AVX-512 BF16), A read in place' avx512_bf16 avx512_vnni
  bin/codegen --cpu=cooperlake --vdpbf16ps=on --emit=llvm "$IN/bf16-linear.mlir" | grep -q 'llvm.x86.avx512bf16.dpbf16ps.512'
  ! grep -q 'bf16 (' <(bin/codegen --cpu=cooperlake --dump-dispatches "$IN/bf16-linear.mlir")
  grep -q 'bf16 (AVX-512 BF16)' <(bin/codegen --cpu=znver4 --dump-dispatches "$IN/bf16-linear.mlir")
}

@test "the whole pipeline: the seed LinearModule through codegen, vmpack and vmrun" {
  [ -x bin/codegen ] && [ -x bin/torch-lower ] || skip "codegen is not built"
  bin/torch-opt examples/linear-torch.mlir | bin/torch-lower | bin/codegen --target=cpu | bin/vmpack -o "$T/m.vmfb"
  run bin/vmrun "$T/m.vmfb" --input=4x3xf32=1,2,3,4,5,6,7,8,9,10,11,12 --input=3xf32=0.5,-1,2 --input=4xf32=1,2,3,4
  [ "$status" -eq 0 ]
  [ "${lines[0]}" = "3xf32=70.5 79 92" ]
  [ "${lines[1]}" = "1x4xf32=[1 2 3 4]" ]
}

@test "--expected_output: half-precision results get their dtype's tolerance (two units in the last place), f32 its own; flags override" {
  cat > "$T/id.mlir" <<'MLIR'
func.func @h(%a: tensor<4xbf16>) -> tensor<4xbf16> {
  return %a : tensor<4xbf16>
}
func.func @g(%a: tensor<4xf16>) -> tensor<4xf16> {
  return %a : tensor<4xf16>
}
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
MLIR
  bin/codegen "$T/id.mlir" | bin/vmpack -o "$T/id.vmfb"
  # bf16's unit at 4 is 2^-5: two units pass, three do not
  run bin/vmrun "$T/id.vmfb" --function=h --input=4xbf16=1,2,3,4 --expected_output=4xbf16=1,2,3,4.0625
  [ "$status" -eq 0 ]
  run bin/vmrun "$T/id.vmfb" --function=h --input=4xbf16=1,2,3,4 --expected_output=4xbf16=1,2,3,4.09375
  [ "$status" -eq 1 ]
  [ "$output" = "vmrun: error: result 0: element 3 is 4, expected 4.09375 (rtol 1.6e-2, atol 1e-5)" ]
  # f16's unit at 4 is 2^-8
  run bin/vmrun "$T/id.vmfb" --function=g --input=4xf16=1,2,3,4 --expected_output=4xf16=1,2,3,4.0078125
  [ "$status" -eq 0 ]
  run bin/vmrun "$T/id.vmfb" --function=g --input=4xf16=1,2,3,4 --expected_output=4xf16=1,2,3,4.01171875
  [ "$status" -eq 1 ]
  [ "$output" = "vmrun: error: result 0: element 3 is 4, expected 4.01172 (rtol 2e-3, atol 1e-5)" ]
  # the same difference in f32 is an error at f32's 1e-3
  run bin/vmrun "$T/id.vmfb" --function=f --input=4xf32=1,2,3,4 --expected_output=4xf32=1,2,3,4.0078125
  [ "$status" -eq 1 ]
  [ "$output" = "vmrun: error: result 0: element 3 is 4, expected 4.00781 (rtol 1e-3, atol 1e-7)" ]
  run bin/vmrun "$T/id.vmfb" --function=h --input=4xbf16=1,2,3,4 --expected_output=4xbf16=1,2,3,4.0625 --rtol=1e-3
  [ "$status" -eq 1 ]
  [ "$output" = "vmrun: error: result 0: element 3 is 4, expected 4.0625 (rtol 1e-3, atol 1e-5)" ]
}
