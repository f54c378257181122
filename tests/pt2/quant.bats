#!/usr/bin/env bats
# Int8 models quantized by PyTorch 2's PT2E flow (torch.export, torchao's
# prepare_pt2e / convert_pt2e): their quantized_decomposed quantize and
# dequantize ops through the whole pipe, against the converted model in
# eager (tests/e2e/quant.py says how each compares; tests/e2e/quant.bats
# has the 1.13 FX forms).

load helpers
load ../diff/fake-vmrun

setup() {
  need_torch2
  "$PY2" -c 'import torchao' 2>/dev/null || skip "$PY2 has no torchao: run scripts/setup.sh"
  T=$BATS_TEST_TMPDIR
}

compile() {
  "$PY2" tools/fx-export/fx-export "tests/e2e/qmodels.py:$1" --input "$2" -o "$T/m.json"
  bin/fx-import "$T/m.json" | bin/torch-opt | bin/torch-lower | bin/codegen | bin/vmpack -o "$T/m.vmfb"
}

check() {
  run "$PY2" tests/e2e/quant.py "$1" "$T/m.vmfb" "$2" "$3"
  echo "$output"
  [ "$status" -eq 0 ]
  [ "${lines[${#lines[@]}-1]}" = ok ]
}

@test "PT2E: quantize and dequantize, per tensor and per channel, equal eager's bit for bit (ties to even, clamping)" {
  compile qdq 4x3x5x6xf32
  check qdq exact 6
}

@test "PT2E: an int8 conv-conv-linear model (X86InductorQuantizer) matches PyTorch's quantized output" {
  compile convnet 1x3x16x16xf32
  check convnet close 10
}

# 32 inputs, as tests/e2e/quant.bats says why
@test "PT2E: an int8 resnet18 (XNNPACKQuantizer) matches PyTorch's quantized output: top-1 and steps of the output's scale" {
  compile resnet18 1x3x224x224xf32
  check resnet18 steps 32
}

@test "PT2E: int8 convolutions and linear layers of odd shapes, on codegen's int8 kernels (AMX tiles, vpdpbusd) and on its f32 ones, match eager" {
  vnni=0 amx=0
  grep -qw avx512_vnni /proc/cpuinfo && grep -qw avx512bw /proc/cpuinfo && vnni=1
  grep -qw amx_int8 /proc/cpuinfo && grep -qw amx_tile /proc/cpuinfo && amx=1
  for m in qconv_u8:2x6x13x17 qconv_s8:1x48x7x7 qconv_s8_wide:1x16x28x28 qlinear_u8:5x33; do
    n=${m%%:*}
    "$PY2" tools/fx-export/fx-export "tests/e2e/qmodels.py:$n" --input "${m#*:}xf32" -o "$T/m.json"
    bin/fx-import "$T/m.json" | bin/torch-opt | bin/torch-lower > "$T/m.mlir"
    # every contraction an int8 GEMM where the CPU has AMX-INT8 (on
    # tiles) or VNNI
    if [ $amx = 1 ] || [ $vnni = 1 ]; then
      bin/codegen --dump-dispatches "$T/m.mlir" > "$T/d.txt"
      grep 'gemm:' "$T/d.txt"
      grep -q 'gemm:' "$T/d.txt"
      ! grep 'gemm:' "$T/d.txt" | grep -v "int8 ($([ $amx = 1 ] && echo AMX || echo vpdpbusd))"
    fi
    bin/codegen "$T/m.mlir" | bin/vmpack -o "$T/m.vmfb"
    check $n layer 3
    if [ $amx = 1 ] && [ $vnni = 1 ]; then
      bin/codegen --dump-dispatches --features=-amx-int8 "$T/m.mlir" > "$T/d.txt"
      ! grep 'gemm:' "$T/d.txt" | grep -v 'int8 (vpdpbusd)'
      bin/codegen --features=-amx-int8 "$T/m.mlir" | bin/vmpack -o "$T/m.vmfb"
      check $n layer 3
    fi
    bin/codegen --features=-avx512vnni,-amx-int8 "$T/m.mlir" | bin/vmpack -o "$T/m.vmfb"
    check $n layer 3
  done
}

@test "qfuzz: seeded random int8 convolutions and linear layers match eager on the int8 and f32 kernels" {
  run "$PY2" tests/diff/qfuzz.py --seed 1 --count 10
  echo "$output"
  [ "$status" -eq 0 ]
  [[ "$output" == *"10 passed, 0 failed"* ]]
}

@test "qfuzz can fail: a vmrun that moves its first result's first element is caught" {
  moving_vmrun "$PY2"
  FXPIPE_BIN="$T/bin" run "$PY2" tests/diff/qfuzz.py --seed 1 --count 2
  echo "$output"
  [ "$status" -eq 1 ]
  [[ "$output" == *"0 passed, 2 failed"* ]]
  [[ "$output" == *mismatch* || "$output" == *"int8 kernels: result 0"* ]]
}
