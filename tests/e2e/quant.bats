#!/usr/bin/env bats
# Int8 models quantized by PyTorch 1.13's FX graph mode in its reference
# form (prepare_fx, convert_to_reference_fx: quantize_per_tensor with the
# scale and zero point in 0-d buffers, per-channel weights quantized and
# dequantized in the graph) through the whole pipe, against the reference
# model in eager (tests/e2e/quant.py says how each compares;
# tests/pt2/quant.bats has PyTorch 2's PT2E form), and the same models as
# convert_fx leaves them (quantized modules with fbgemm's packed weights,
# which fx-export rewrites into the reference form: fx_export/quantized_fx.py)
# against PyTorch's quantized kernels.

load helpers

check() {
  "$PY" tools/fx-export/fx-export "tests/e2e/qmodels.py:$1" --input "$2" -o "$T/m.json"
  compile "$T/m.json" "$T/m.vmfb"
  run "$PY" tests/e2e/quant.py "$1" "$T/m.vmfb" "$3" "$4"
  echo "$output"
  [ "$status" -eq 0 ]
  [ "${lines[${#lines[@]}-1]}" = ok ]
}

@test "FX reference int8: a conv-conv-linear model matches PyTorch's quantized output" {
  need_torch
  check fx_convnet 1x3x16x16xf32 close 10
  # its convolutions on codegen's int8 kernels where the CPU has VNNI:
  # the weights' quantize (roundeven, clamp, in f64) evaluated at compile
  # time, the activations' dequantize (through f64) recognized
  if grep -qw avx512_vnni /proc/cpuinfo && grep -qw avx512bw /proc/cpuinfo; then
    bin/fx-import "$T/m.json" | bin/torch-opt | bin/torch-lower | bin/codegen --dump-dispatches > "$T/d.txt"
    grep 'gemm:' "$T/d.txt"
    [ "$(grep 'gemm:' "$T/d.txt" | grep -c 'int8 (vpdpbusd)\|int8 (AMX)')" -ge 2 ]
  fi
}

# resnet18's steps are counted over 32 inputs: a rounding flip upstream
# moves many logits at once, so 8 inputs' counts scatter past the 0.1%
# bound (the f32 convolutions' sums in two orders, (c, kh, kw) and (kh,
# kw, c): 6 and 11 of 8000 off by two steps, 18 and 19 of 32000)
@test "FX reference int8: resnet18 matches PyTorch's quantized output: top-1 and steps of the output's scale" {
  # the same tools' code as the conv net's test, which the sanitizer pass runs
  [ "${SANITIZE:-0}" = 1 ] && skip "the plain pass runs it"
  need_torch vision
  check fx_resnet18 1x3x224x224xf32 steps 32
}

@test "FX int8 as convert_fx leaves it (fbgemm's packed modules): a conv-conv-linear model matches PyTorch's quantized output" {
  need_torch
  check fx_packed_convnet 1x3x16x16xf32 close 10
}

@test "FX int8 as convert_fx leaves it: resnet18 matches PyTorch's quantized output: top-1 and steps of the output's scale" {
  [ "${SANITIZE:-0}" = 1 ] && skip "the plain pass runs it"
  need_torch vision
  check fx_packed_resnet18 1x3x224x224xf32 steps 32
}

@test "eager-mode int8 (torch.quantization.convert: quantized.Linear, Tanh between Quantize and DeQuantize) matches PyTorch's quantized output (qnnpack)" {
  need_torch
  check eager_mlp 2x16xf32 close 10
}

@test "eager-mode int8: a quantized layer reading tanh's full 8-bit range is refused under the x86 engine, which saturates there" {
  need_torch
  run "$PY" tools/fx-export/fx-export tests/e2e/qmodels.py:eager_mlp_x86 --input 2x16xf32 -o "$T/m.json"
  echo "$output"
  [ "$status" -ne 0 ]
  [[ "$output" == *"error: quantized module fc2 reads tanh's output, quantized over the full 8-bit range, and PyTorch's onednn kernels saturate"* ]]
  [ ! -e "$T/m.json" ]
}

@test "FX int8 as convert_fx leaves it: an op of a quantized tensor fx-export does not know is refused by name, no output" {
  need_torch
  cat > "$T/q.py" <<'PY'
import torch, torch.nn as nn
from torch.ao.quantization import get_default_qconfig_mapping
from torch.ao.quantization.quantize_fx import convert_fx, prepare_fx
class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3)
    def forward(self, x):
        y = self.conv(x)
        return torch.cat([y, y], 1)
def make():
    p = prepare_fx(M().eval(), get_default_qconfig_mapping("fbgemm"), (torch.randn(1, 3, 8, 8),))
    p(torch.randn(1, 3, 8, 8))
    return convert_fx(p)
PY
  run "$PY" tools/fx-export/fx-export "$T/q.py:make" --input 1x3x8x8xf32 -o "$T/m.json"
  echo "$output"
  [ "$status" -ne 0 ]
  [[ "$output" == *"error: cat of a quantized tensor is not supported; export the model in FX graph mode"* ]]
  [ ! -e "$T/m.json" ]
}
