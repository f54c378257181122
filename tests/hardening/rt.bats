#!/usr/bin/env bats
bats_require_minimum_version 1.5.0
# Issue 17, the runtime's part: bad input to codegen's CLI, vmpack, vmrun
# and the runtime is a clear one-line error (exit 1, nothing on stdout, no
# -o file), never a crash, a hang or a silent wrong value.  Damaged modules
# are crafted behind valid checksums by vmfb.py.  Run from the repository
# root with bin/ built.
load ../vmrun/helpers

VMFB="python3 tests/hardening/vmfb.py"

# fails CMD...: exit 1, one line of stderr with "TOOL: error: " or
# "FILE:LINE:COL: error: ", nothing on stdout; the line is in $stderr
fails() {
  run --separate-stderr "$@"
  [ "$status" -eq 1 ] || { echo "status $status: $stderr"; return 1; }
  [ -z "$output" ] || { echo "stdout: $output"; return 1; }
  [ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ] || { echo "stderr: $stderr"; return 1; }
  [[ "$stderr" =~ ^[a-z-]+:\ error:\  ]] || [[ "$stderr" =~ ^[^\ ]+:[0-9]+:[0-9]+:\ error:\  ]] ||
    { echo "no 'error:': $stderr"; return 1; }
}

@test "codegen: an unknown CPU, a CPU without 64-bit mode and an unknown feature are errors" {
  src=tests/codegen/inputs/empty-reshape.mlir
  fails bin/codegen --cpu=bogus "$src" -o "$T/m.mlir"
  [ "$stderr" = "codegen: error: unknown CPU 'bogus' (see llc -march=x86-64 -mcpu=help)" ]
  [ ! -e "$T/m.mlir" ]
  fails bin/codegen --cpu=i386 "$src"
  [ "$stderr" = "codegen: error: CPU 'i386' has no 64-bit mode (codegen compiles for x86-64)" ]
  fails bin/codegen --cpu=pentium4 "$src"
  [[ "$stderr" == "codegen: error: CPU 'pentium4' has no 64-bit mode"* ]]
  fails bin/codegen --cpu=x86-64 --features=+bogus "$src"
  [ "$stderr" = "codegen: error: unknown CPU feature '+bogus' (see llc -march=x86-64 -mattr=help)" ]
  fails bin/codegen --features=+avx2,avx "$src"
  [ "$stderr" = "codegen: error: malformed --features item 'avx' (expected +name or -name)" ]
  # known ones still work
  run bin/codegen --cpu=skylake --features=+avx2,-fma "$src"
  [ "$status" -eq 0 ]
  [[ "${lines[0]}" == *'fxvm.cpu = "skylake"'* ]]
}

@test "a constant beyond the size limits: codegen refuses it at the op, vmpack before allocating" {
  cat > "$T/big.mlir" <<'MLIR'
module {
  func.func @main() -> tensor<1099511627776xf32> {
    %0 = arith.constant dense<1.0> : tensor<1099511627776xf32>
    return %0 : tensor<1099511627776xf32>
  }
}
MLIR
  fails bin/codegen "$T/big.mlir" -o "$T/big.fxvm"
  [ "$stderr" = "$T/big.mlir:3:10: error: a constant tensor<1099511627776xf32> of 4398046511104 bytes is larger than codegen's limit of 68719476736 bytes" ]
  [ ! -e "$T/big.fxvm" ]
  # a tensor of 2^48 elements (the most a type may have) but 2^51 bytes
  sed 's/1099511627776xf32/281474976710656xf64/g; s/arith.constant dense<1.0>/tensor.empty()/' "$T/big.mlir" > "$T/huge.mlir"
  fails bin/codegen "$T/huge.mlir"
  [ "$stderr" = "$T/huge.mlir:3:10: error: a tensor tensor<281474976710656xf64> of 2251799813685248 bytes is larger than codegen's limit of 281474976710656 bytes" ]
  # one whose size overflows 64 bits is refused where its type is read
  sed 's/1099511627776xf32/1099511627776x1099511627776xf32/g; s/arith.constant dense<1.0>/tensor.empty()/' "$T/big.mlir" > "$T/huge.mlir"
  fails bin/codegen "$T/huge.mlir"
  [ "$stderr" = "$T/huge.mlir:2:24: error: 'tensor<1099511627776x1099511627776xf32>' has 1.21e+24 elements, more than the 2^48 supported" ]
  # the same splat written straight as fxvm for vmpack: 4 TiB
  sed 's/1099511627776/16/g' "$T/big.mlir" > "$T/small.mlir"
  bin/codegen "$T/small.mlir" -o "$T/small.fxvm"
  sed 's/tensor<16xf32>/tensor<1099511627776xf32>/g' "$T/small.fxvm" > "$T/big.fxvm"
  fails bin/vmpack "$T/big.fxvm" -o "$T/big.vmfb"
  [[ "$stderr" == "$T/big.fxvm:"*": error: the constant's 4398046511104 bytes (after 0 bytes of constants before it) exceed vmpack's limit of 2^36 bytes (64 GiB) of constants" ]]
  [ ! -e "$T/big.vmfb" ]
  ! ls "$T"/big.vmfb.tmp* 2>/dev/null
}

@test "a module from a stream is read no further than its header allows" {
  pack kernels-llc16
  M="$T/kernels-llc16.vmfb"
  SIZE=$(wc -c < "$M" | tr -d ' ')
  fails timeout 10 bin/vmrun /dev/zero --function=exp
  [ "$stderr" = "vmrun: error: /dev/zero: not a .vmfb module (bad magic)" ]
  fails timeout 10 bin/vmpack --dump /dev/zero
  [ "$stderr" = "vmpack: error: /dev/zero: not a .vmfb module (bad magic)" ]
  # a valid module followed by endless zeros
  fails timeout 10 bash -c "cat '$M' /dev/zero | bin/vmrun - --function=exp --input=6xf32=1"
  [ "$stderr" = "vmrun: error: <stdin>: corrupt module: more than the $SIZE bytes the header says" ]
  fails timeout 10 bash -c "cat '$M' /dev/zero | bin/vmpack --dump -"
  [ "$stderr" = "vmpack: error: <stdin>: corrupt module: more than the $SIZE bytes the header says" ]
  # a FIFO holding a whole module works
  mkfifo "$T/fifo"
  cat "$M" > "$T/fifo" &
  run timeout 10 bin/vmrun "$T/fifo" --function=exp --input=6xf32=0
  [ "$status" -eq 0 ]
  [ "$output" = "6xf32=1 1 1 1 1 1" ]
  cat "$M" > "$T/fifo" &
  run timeout 10 bin/vmpack --dump "$T/fifo"
  [ "$status" -eq 0 ]
  [[ "${lines[0]}" == "$T/fifo: fxvm module, version 1, $SIZE bytes" ]]
}

# killed_while_writing SIG TOOL ARGS... -o OUT: sends SIG once OUT's
# temporary exists; $status is the tool's exit status
killed_while_writing() {
  local sig=$1 out=${!#}
  shift
  # with SIGHUP restored: a test run under nohup would inherit it
  # ignored, and the tools rightly leave an ignored signal ignored
  perl -e '$SIG{HUP} = "DEFAULT"; exec @ARGV or die "$ARGV[0]: $!"' "$@" & local pid=$!
  for _ in $(seq 1 4000); do
    compgen -G "$out.tmp*" >/dev/null && break
    sleep 0.002
  done
  compgen -G "$out.tmp*" >/dev/null || { echo "no temporary seen"; return 1; }
  kill -"$sig" $pid
  status=0
  wait $pid || status=$?
}

@test "SIGTERM or SIGHUP while -o FILE is written removes the temporary; the exit is by the signal" {
  # a 256 MiB splat constant: vmpack writes it out for a second or more
  printf '%s\n' 'module {' '  func.func @main() -> tensor<67108864xf32> {' \
    '    %0 = arith.constant dense<1.0> : tensor<67108864xf32>' \
    '    return %0 : tensor<67108864xf32>' '  }' '}' > "$T/mid.mlir"
  bin/codegen "$T/mid.mlir" -o "$T/mid.fxvm"
  for sig in TERM HUP; do
    killed_while_writing $sig bin/vmpack "$T/mid.fxvm" -o "$T/out.vmfb"
    [ "$status" -eq $((128 + $(kill -l $sig))) ]
    run ls -A "$T"
    [[ "$output" != *out.vmfb* ]] || { echo "left: $output"; false; }
  done
}

@test "a dispatch grid with a zero dimension is refused" {
  pack kernels-gcc-nopic
  $VMFB grid0 "$T/kernels-gcc-nopic.vmfb" "$T/g.vmfb"
  fails bin/vmrun "$T/g.vmfb" --function=add --input=1000xf32=1 --input=1000xf32=2
  [ "$stderr" = "vmrun: error: $T/g.vmfb: corrupt module: @add: instruction 0: grid 0x1x1 has a zero dimension" ]
  fails bin/vmpack --dump "$T/g.vmfb"
  [ "$stderr" = "vmpack: error: $T/g.vmfb: corrupt module: @add: instruction 0: grid 0x1x1 has a zero dimension" ]
  # vmpack refuses to write one
  sed 's/grid = array<i64: 16, 1, 1>/grid = array<i64: 16, 0, 1>/' "$IN/kernels-gcc-nopic.mlir" > "$T/g.mlir"
  fails bin/vmpack "$T/g.mlir" -o "$T/g2.vmfb"
  [[ "$stderr" == *"error: workgroup counts must be 1 to 2^32-1" ]]
  [ ! -e "$T/g2.vmfb" ]
}

@test "nonzero bytes where formats/vmfb.md requires zeros are refused" {
  pack kernels-gcc-nopic
  M="$T/kernels-gcc-nopic.vmfb"
  $VMFB gap "$M" "$T/gap.vmfb"
  fails bin/vmrun "$T/gap.vmfb" --function=add
  [[ "$stderr" =~ ^vmrun:\ error:\ $T/gap.vmfb:\ corrupt\ module:\ nonzero\ bytes\ in\ the\ gap\ at\ [0-9]+\ to\ [0-9]+$ ]]
  fails bin/vmpack --dump "$T/gap.vmfb"
  # the header's reserved bytes
  cp "$M" "$T/h.vmfb"
  put_u32 "$T/h.vmfb" 52 7
  $VMFB fix "$T/h.vmfb"
  fails bin/vmrun "$T/h.vmfb" --function=add
  [ "$stderr" = "vmrun: error: $T/h.vmfb: corrupt module: header bytes 48 to 59 are not zero" ]
  # a section entry's reserved field
  cp "$M" "$T/s.vmfb"
  put_u32 "$T/s.vmfb" $((64 + 28)) 1
  $VMFB fix "$T/s.vmfb"
  fails bin/vmrun "$T/s.vmfb" --function=add
  [ "$stderr" = "vmrun: error: $T/s.vmfb: corrupt module: section 0: reserved field is 1, not 0" ]
  # the module as vmpack wrote it passes
  run bin/vmrun "$M" --function=add --input=1000xf32=1.5 --input=1000xf32=2 --expected_output=1000xf32=3.5
  [ "$status" -eq 0 ]
}

@test "a function whose dispatch bindings add up past 2^32 is refused, not a heap overflow" {
  pack kernels-gcc-nopic
  $VMFB bindwrap "$T/kernels-gcc-nopic.vmfb" "$T/w.vmfb"
  fails bin/vmrun "$T/w.vmfb" --input=1000xf32=1 --input=1000xf32=2
  [ "$stderr" = "vmrun: error: $T/w.vmfb: corrupt module: @add: its dispatches bind more than the 65536 entries of the bindings section" ]
  fails bin/vmpack --dump "$T/w.vmfb"
  [ "$stderr" = "vmpack: error: $T/w.vmfb: corrupt module: @add: its dispatches bind more than the 65536 entries of the bindings section" ]
}

@test "vmrun and vmpack errors say 'error', as every tool's do" {
  pack host
  fails bin/vmrun "$T/nope.vmfb"
  [ "$stderr" = "vmrun: error: cannot open '$T/nope.vmfb': No such file or directory" ]
  head -c 100 "$T/host.vmfb" > "$T/t.vmfb"
  fails bin/vmrun "$T/t.vmfb"
  [[ "$stderr" == "vmrun: error: $T/t.vmfb: truncated module: "* ]]
  fails bin/vmrun "$T/host.vmfb" --function=nope
  fails bin/vmrun "$T/host.vmfb" --bogus
  [ "$stderr" = "vmrun: error: unknown option '--bogus' (see --help)" ]
  fails bin/vmpack --dump "$T/t.vmfb"
  [[ "$stderr" == "vmpack: error: $T/t.vmfb: truncated module: "* ]]
  fails bin/vmpack --bogus
  [ "$stderr" = "vmpack: error: unknown option '--bogus' (see --help)" ]
  : > "$T/empty.mlir"
  fails bin/vmpack "$T/empty.mlir" -o "$T/e.vmfb"
  [ "$stderr" = "vmpack: error: $T/empty.mlir: empty input (expected an fxvm module from codegen)" ]
  # the other tools' option errors take the same form
  for t in codegen torch-opt torch-lower; do
    fails bin/$t --bogus
    [ "$stderr" = "$t: error: unknown option '--bogus' (see --help)" ]
  done
}

@test "text inputs out of range for their type are errors naming the input and element" {
  pack kernels-gcc-nopic
  m="$T/kernels-gcc-nopic.vmfb"
  fails bin/vmrun "$m" --function=exp --input=6xf32=1,2,1e999,3,4,5
  [ "$stderr" = "vmrun: error: input 0: element 2: '1e999' is out of range for f32" ]
  fails bin/vmrun "$m" --function=exp --input=6xf32=0,1e39,0,0,0,0
  [ "$stderr" = "vmrun: error: input 0: element 1: '1e39' is out of range for f32" ]
  fails bin/vmrun "$m" --function=exp --input=6xf64=-1e309
  [ "$stderr" = "vmrun: error: input 0: element 0: '-1e309' is out of range for f64" ]
  fails bin/vmrun "$m" --function=exp --input=6xf16=1,65504,70000,0,0,0
  [ "$stderr" = "vmrun: error: input 0: element 2: '70000' is out of range for f16" ]
  fails bin/vmrun "$m" --function=exp --input=6xbf16=1e38,3.5e38,0,0,0,0
  [ "$stderr" = "vmrun: error: input 0: element 1: '3.5e38' is out of range for bf16" ]
  fails bin/vmrun "$m" --function=exp --input=6xi8=1,2,3,300,0,0
  [ "$stderr" = "vmrun: error: input 0: element 3: '300' is out of range for i8" ]
  fails bin/vmrun "$m" --function=exp --input=6xui8=0,256
  [ "$stderr" = "vmrun: error: input 0: element 1: '256' is out of range for ui8" ]
  fails bin/vmrun "$m" --function=exp --input=6xi64=9223372036854775808
  [ "$stderr" = "vmrun: error: input 0: element 0: '9223372036854775808' is out of range for i64" ]
  # infinities, NaN, tiny numbers and the extremes are values
  run bin/vmrun "$m" --function=exp --input=6xf32=inf,-inf,nan,1e-50,3.4028234e38,-88
  [ "$status" -eq 0 ]
  [[ "$output" == "6xf32=inf 0 nan 1 inf "* ]]
}

@test "a text reader refuses a NUL byte from a stream at once (/dev/zero is not read until memory runs out)" {
  for t in fx-import torch-opt torch-lower codegen vmpack; do
    run --separate-stderr timeout 10 bin/$t /dev/zero
    [ "$status" -eq 1 ] || { echo "$t: status $status"; false; }
    [ "$stderr" = "$t: error: /dev/zero: a NUL byte at offset 0: not a text file" ] || { echo "$stderr"; false; }
    [ -z "$output" ]
  done
  run --separate-stderr bash -c 'printf "module {\n}\n\0" | bin/torch-opt'
  [ "$status" -eq 1 ]
  [ "$stderr" = "torch-opt: error: -: a NUL byte at offset 11: not a text file" ]
}
