#!/usr/bin/env bats
bats_require_minimum_version 1.5.0
# vmpack: packing fxvm modules, --dump, atomic -o, and the errors it
# reports at the op's location.
load helpers

@test "vmpack packs every test module and --dump lists its contents" {
  for m in host cuda $(for f in $FLAVORS; do echo kernels-$f; done); do
    pack $m
  done
  run bin/vmpack --dump "$T/kernels-llc16.vmfb"
  [ "$status" -eq 0 ]
  [[ "${lines[0]}" == "$T/kernels-llc16.vmfb: fxvm module, version 1, "*" bytes" ]]
  [ "${lines[1]}" = "target: cpu, cpu x86-64, features +sse2" ]
  [[ "$output" == *"  @linear(tensor<1x4xf32>) -> (tensor<3xf32>)"* ]]
  [[ "$output" == *"    dispatch @linear_4x3[1, 1, 1](b0, b1, b2, b3)"* ]]
  [[ "$output" == *"  @chain(tensor<6xf32>) -> (tensor<6xf32>, tensor<2x3xf32>)"* ]]
  [[ "$output" == *"    arena 64 bytes, 5 buffers, 3 instructions"* ]]
  [[ "$output" == *"    b4 = arena[0, 24)"* ]]
  [[ "$output" == *"    copy b4 -> b3, 24 bytes"* ]]
  [[ "$output" == *"  @kernels: elf-x86_64, "*" bytes"* ]]
  [[ "$output" == *"  @linear_4x3: @kernels::linear, 4 bindings"* ]]
  [[ "$output" == *"  @w: tensor<4x3xf32>, 48 bytes at constants+0"* ]]
  [[ "$output" == *"  @bias: tensor<3xf32>, 12 bytes at constants+64"* ]]
  [[ "$output" == *"constants: 76 bytes"* ]]
  for kind in strings target types dims functions buffers instructions bindings executables kernels globals object constants; do
    [[ "$output" == *" $kind "*"crc32c "* ]]
  done
}

@test "vmpack --dump shows host programs, fills and constants" {
  pack host
  run bin/vmpack --dump "$T/host.vmfb"
  [ "$status" -eq 0 ]
  [[ "$output" == *"  @views(tensor<2x3xf32>) -> (tensor<6xf32>, tensor<3xf32>)"* ]]
  [[ "$output" == *"    b2 = arg 0[12, 24)"* ]]
  [[ "$output" == *"    fill b0 with 0xfffffff9"* ]]
  [[ "$output" == *"    fill b1 with 0x3e00"* ]]
  # a fill's interior: what it leaves, in its shape
  [[ "$output" == *"    fill b0 with 0x00000000 outside offsets [1, 1, 1] sizes [1, 2, 2] of [2, 3, 4]"* ]]
  [[ "$output" == *"  @scalar(tensor<f32>) -> (tensor<f32>)"* ]]
  [[ "$output" == *"  @blob: tensor<4xi16>, 8 bytes at constants+128"* ]]
  [[ "$output" == *"    b0 = constant @w[0, 16)"* ]]
}

@test "vmpack reads stdin and writes stdout, and the two outputs are identical" {
  bin/vmpack "$IN/host.mlir" -o "$T/a.vmfb"
  bin/vmpack < "$IN/host.mlir" > "$T/b.vmfb"
  cat "$IN/host.mlir" | bin/vmpack - -o "$T/c.vmfb"
  cmp "$T/a.vmfb" "$T/b.vmfb"
  cmp "$T/a.vmfb" "$T/c.vmfb"
}

@test "vmpack -o leaves no file when a stage of the pipe fails or the input is empty" {
  run bash -c "false | bin/vmpack -o '$T/m.vmfb'"
  [ "$status" -eq 1 ]
  [ "$output" = "vmpack: error: <stdin>: empty input (expected an fxvm module from codegen)" ]
  [ ! -e "$T/m.vmfb" ]
  head -c 300 "$IN/host.mlir" > "$T/trunc.mlir"
  run bin/vmpack "$T/trunc.mlir" -o "$T/m.vmfb"
  [ "$status" -eq 1 ]
  [[ "$output" == "$T/trunc.mlir:"*"error: "* ]]
  [ ! -e "$T/m.vmfb" ]
  [ -z "$(ls "$T" | grep tmp)" ]
  # an existing file is left as it was
  echo keep > "$T/m.vmfb"
  run bin/vmpack "$T/trunc.mlir" -o "$T/m.vmfb"
  [ "$status" -eq 1 ]
  [ "$(cat "$T/m.vmfb")" = keep ]
}

@test "vmpack --dump rejects what is not a .vmfb" {
  run bin/vmpack --dump "$IN/host.mlir"
  [ "$status" -eq 1 ]
  [ "$output" = "vmpack: error: $IN/host.mlir: not a .vmfb module (bad magic)" ]
  run bin/vmpack --dump /dev/null
  [ "$status" -eq 1 ]
  [ "$output" = "vmpack: error: /dev/null: empty module (0 bytes)" ]
}

# bad_module SNIPPET...: a module of host.mlir's header plus the snippets
bad() {
  { echo 'module attributes {fxvm.target = "cpu"} {'
    echo '  "fxvm.global"() {sym_name = "g", type = tensor<2xf32>, value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> ()'
    printf '%s\n' "$@"
    echo '}'; } > "$T/bad.mlir"
  run bin/vmpack "$T/bad.mlir" -o "$T/bad.vmfb"
  [ "$status" -eq 1 ]
  [ ! -e "$T/bad.vmfb" ]
}

@test "vmpack checks the host program's rules, with the op's location" {
  bad '  func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {' \
      '    "fxvm.copy"(%x, %x) : (tensor<2xf32>, tensor<2xf32>) -> ()' \
      '    return %x : tensor<2xf32>' '  }'
  [ "${lines[0]}" = "$T/bad.mlir:4:5: error: writes a read-only buffer (an argument or a constant)" ]
  bad '  func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {' \
      '    %0 = "fxvm.result"() {index = 0 : i64} : () -> tensor<2xf32>' \
      '    %v = "fxvm.view"(%x) {offset = 4 : i64} : (tensor<2xf32>) -> tensor<2xf32>' \
      '    return %0 : tensor<2xf32>' '  }'
  [ "${lines[0]}" = "$T/bad.mlir:5:10: error: the view is not inside its buffer" ]
  bad '  func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> attributes {fxvm.arena = 64 : i64} {' \
      '    %a = "fxvm.alloc"() {offset = 64 : i64} : () -> tensor<2xf32>' \
      '    return %x : tensor<2xf32>' '  }'
  [ "${lines[0]}" = "$T/bad.mlir:4:10: error: the buffer does not fit in the function's fxvm.arena" ]
  bad '  func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {' \
      '    return %x : tensor<2xf32>' '  }'
  [ "${lines[0]}" = "$T/bad.mlir:4:5: error: each returned value must be the fxvm.result of its index" ]
  # a fill's interior: offsets and sizes, one each per dim, inside it
  bad '  func.func @f() -> tensor<2x3xf32> {' \
      '    %0 = "fxvm.result"() {index = 0 : i64} : () -> tensor<2x3xf32>' \
      '    "fxvm.fill"(%0) {value = 0.0 : f32, interior = array<i64: 0, 1, 2, 3>} : (tensor<2x3xf32>) -> ()' \
      '    return %0 : tensor<2x3xf32>' '  }'
  [ "${lines[0]}" = "$T/bad.mlir:5:5: error: 'fxvm.fill' op: 'interior' dimension 1 (offset 1, size 3) is not inside the extent 3" ]
  bad '  func.func @f() -> tensor<2x3xf32> {' \
      '    %0 = "fxvm.result"() {index = 0 : i64} : () -> tensor<2x3xf32>' \
      '    "fxvm.fill"(%0) {value = 0.0 : f32, interior = array<i64: 0, 1, 2>} : (tensor<2x3xf32>) -> ()' \
      '    return %0 : tensor<2x3xf32>' '  }'
  [[ "${lines[0]}" == "$T/bad.mlir:5:5: error: 'fxvm.fill' op: 'interior' must be array<i64: offsets, sizes>"* ]]
  bad '  func.func @f() -> tensor<2xf32> {' \
      '    %0 = "fxvm.result"() {index = 0 : i64} : () -> tensor<2xf32>' \
      '    "fxvm.fill"(%0) {value = 0.0 : f32, interior = array<i64: -1, 1>} : (tensor<2xf32>) -> ()' \
      '    return %0 : tensor<2xf32>' '  }'
  [ "${lines[0]}" = "$T/bad.mlir:5:5: error: 'fxvm.fill' op: 'interior' dimension 0 (offset -1, size 1) is not inside the extent 2" ]
  bad '  func.func @f() -> tensor<2xf32> {' \
      '    %c = "fxvm.constant"() {global = @g} : () -> tensor<2xf32>' \
      '    %0 = "fxvm.result"() {index = 0 : i64} : () -> tensor<2xf32>' \
      '    "fxvm.fill"(%c) {value = 1.0 : f32} : (tensor<2xf32>) -> ()' \
      '    return %0 : tensor<2xf32>' '  }'
  [ "${lines[0]}" = "$T/bad.mlir:6:5: error: writes a read-only buffer (an argument or a constant)" ]
  bad '  func.func @f() -> tensor<2xf32> {' \
      '    %0 = "fxvm.result"() {index = 0 : i64} : () -> tensor<2xf32>' \
      '    "fxvm.dispatch"(%0) {kernel = @nope, grid = array<i64: 1, 1, 1>} : (tensor<2xf32>) -> ()' \
      '    return %0 : tensor<2xf32>' '  }'
  [ "${lines[0]}" = "$T/bad.mlir:5:5: error: '@nope' is not an fxvm.kernel in this module" ]
  bad '  func.func @f(%x: tensor<?xf32>) -> tensor<2xf32> {' \
      '    %0 = "fxvm.result"() {index = 0 : i64} : () -> tensor<2xf32>' \
      '    return %0 : tensor<2xf32>' '  }'
  [[ "${lines[0]}" == "$T/bad.mlir:3:3: error: 'tensor<?xf32>' is not a buffer type"* ]]
  bad '  func.func @f() -> tensor<2xf32> {' \
      '    %0 = "fxvm.result"() {index = 0 : i64} : () -> tensor<2xf32>' \
      '    %1 = arith.constant 1.0 : f32' \
      '    return %0 : tensor<2xf32>' '  }'
  [ "${lines[0]}" = "$T/bad.mlir:5:10: error: 'arith.constant' is not an fxvm host program op" ]
}

@test "vmpack checks the target, the features and the kernel objects" {
  sed 's/{fxvm.target = "cpu"}/{fxvm.target = "tpu"}/' "$IN/host.mlir" > "$T/t.mlir"
  run bin/vmpack "$T/t.mlir" -o "$T/t.vmfb"
  [ "$status" -eq 1 ]
  [ "${lines[0]}" = "$T/t.mlir:3:1: error: the module needs fxvm.target = \"cpu\" or \"cuda\"" ]
  pack_refuses 's/fxvm.features = "+sse2"/fxvm.features = "+sse2,+warp-drive"/' "$IN/kernels-llc16.mlir" \
    "error: fxvm.features: unknown CPU feature '+warp-drive' (formats/fxvm.md)"
  pack_refuses 's/symbol = "exp_6"/symbol = "exp_7"/' "$IN/kernels-llc16.mlir" \
    "error: the object of '@kernels' has no global function 'exp_7'"
  # an object that is not ELF
  sed 's/kernels: "0x10000000\(..\)/kernels: "0x1000000000/' "$IN/kernels-llc16.mlir" > "$T/t.mlir"
  run bin/vmpack "$T/t.mlir" -o "$T/t.vmfb"
  [ "$status" -eq 1 ]
  [[ "${lines[0]}" == *"error: kernel object: not an ELF object (bad magic)" ]]
  [ ! -e "$T/t.vmfb" ]
}

@test "vmpack rejects kernels that call outside the C math library" {
  command -v cc >/dev/null || skip "no C compiler"
  printf '#include <stdlib.h>\n#include <stdint.h>\nvoid k(void *const *b, int64_t x, int64_t y, int64_t z, int64_t a, int64_t c, int64_t d) { *(void **)b[0] = malloc(4); }\n' > "$T/k.c"
  cc -c -O2 "$T/k.c" -o "$T/k.o"
  { echo 'module attributes {fxvm.target = "cpu"} {'
    printf '  "fxvm.executable"() {sym_name = "e", format = "elf-x86_64", object = dense_resource<e> : tensor<%dxui8>} : () -> ()\n' "$(wc -c < "$T/k.o")"
    echo '}'
    printf '{-#\n dialect_resources: { builtin: { e: "0x10000000%s" } }\n#-}\n' "$(od -An -v -tx1 "$T/k.o" | tr -d ' \n')"
  } > "$T/m.mlir"
  run bin/vmpack "$T/m.mlir" -o "$T/m.vmfb"
  [ "$status" -eq 1 ]
  [[ "${lines[0]}" == *"error: kernel object: undefined symbol 'malloc' (kernels may call only the C math library, memcpy, memmove and memset)" ]]
}

@test "the custom form (as torch-opt prints it) packs to the same bytes as the generic form" {
  bin/torch-opt -p '' "$IN/host.mlir" > "$T/custom.mlir"
  grep -q 'fxvm.view %arg0\[12\]' "$T/custom.mlir"
  bin/vmpack "$T/custom.mlir" -o "$T/a.vmfb"
  bin/vmpack "$IN/host.mlir" -o "$T/b.vmfb"
  cmp "$T/a.vmfb" "$T/b.vmfb"
  bin/torch-opt -p '' "$IN/kernels-llc16.mlir" | bin/vmpack -o "$T/c.vmfb"
  bin/vmpack "$IN/kernels-llc16.mlir" -o "$T/d.vmfb"
  cmp "$T/c.vmfb" "$T/d.vmfb"
}

@test "vmpack --dump reads a module whose size is a multiple of the page size" {
  # a constant of n f32 grows the module by 4 bytes an element: from its
  # size at n = 1, the n that makes it a whole number of 4096-byte pages,
  # which --dump read as text and refused at the first NUL byte
  module() {
    printf 'module attributes {fxvm.target = "cpu"} {\n  "fxvm.global"() {sym_name = "w", type = tensor<%dxf32>, value = dense<1.0> : tensor<%dxf32>} : () -> ()\n  func.func @f() -> tensor<%dxf32> {\n    %%w = "fxvm.constant"() {global = @w} : () -> tensor<%dxf32>\n    %%0 = "fxvm.result"() {index = 0 : i64} : () -> tensor<%dxf32>\n    "fxvm.copy"(%%w, %%0) : (tensor<%dxf32>, tensor<%dxf32>) -> ()\n    return %%0 : tensor<%dxf32>\n  }\n}\n' $1 $1 $1 $1 $1 $1 $1 $1 > "$T/c.mlir"
    bin/vmpack "$T/c.mlir" -o "$T/c.vmfb"
  }
  module 1
  n=$(( 1 + (4096 - $(wc -c < "$T/c.vmfb") % 4096) / 4 ))
  module $n
  [ $(( $(wc -c < "$T/c.vmfb") % 4096 )) -eq 0 ]
  run bin/vmpack --dump "$T/c.vmfb"
  echo "$output"
  [ "$status" -eq 0 ]
  [[ "$output" == *"@f() -> (tensor<${n}xf32>)"* ]]
}
