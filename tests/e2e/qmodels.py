"""Int8 models for tests/e2e/quant.bats and tests/pt2/quant.bats.  Each
factory returns a quantized model in a form whose quantize / dequantize
ops are the reference the pipe must match:
- PyTorch 2's PT2E form (torch.export, then torchao's prepare_pt2e /
  convert_pt2e): quantized_decomposed ops (qdq, convnet, resnet18);
- PyTorch 1.13's FX graph mode in its reference form (prepare_fx,
  convert_to_reference_fx): quantize_per_tensor.tensor_qparams,
  quantize_per_channel for the weights and dequantize (fx_convnet,
  fx_resnet18), and as convert_fx leaves it: quantized modules with
  fbgemm's packed weights, matched against PyTorch's quantized kernels
  (fx_packed_convnet, fx_packed_resnet18)."""
import os
import sys

import torch
import torch.nn as nn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e_models  # noqa: E402


def _qd():
    import torch.ao.quantization.fx._decomposed  # noqa: F401 (defines the ops)
    return torch.ops.quantized_decomposed


def _convert(model, example, quantizer):
    from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e

    g = torch.Generator().manual_seed(7)
    prepared = prepare_pt2e(torch.export.export(model, (example,)).module(), quantizer)
    for _ in range(8):  # calibration
        prepared(torch.randn(example.shape, generator=g))
    return convert_pt2e(prepared)


def _x86():
    from torchao.quantization.pt2e.quantizer import x86_inductor_quantizer as x86

    q = x86.X86InductorQuantizer()
    q.set_global(x86.get_default_x86_inductor_quantization_config())
    return q


def _xnnpack():
    from torchao.testing.pt2e._xnnpack_quantizer import (
        XNNPACKQuantizer, get_symmetric_quantization_config)

    q = XNNPACKQuantizer()
    q.set_global(get_symmetric_quantization_config(is_per_channel=True))
    return q


class QDQ(nn.Module):
    """The four ops themselves: per-tensor uint8 and int8 round trips,
    per-channel (axis 1) quantize and dequantize with zero points."""

    def __init__(self):
        super().__init__()
        self.register_buffer("s", torch.tensor([0.05, 0.1, 0.0375]))
        self.register_buffer("z", torch.tensor([-3, 0, 7]))

    def forward(self, x):
        qd = _qd()
        u = qd.quantize_per_tensor(x, 0.02288597822189331, 135, 0, 255, torch.uint8)
        i = qd.quantize_per_tensor(x, 0.0625, -5, -128, 127, torch.int8)
        c = qd.quantize_per_channel(x, self.s, self.z, 1, -128, 127, torch.int8)
        return (u, qd.dequantize_per_tensor(u, 0.02288597822189331, 135, 0, 255, torch.uint8),
                i, qd.dequantize_per_tensor(i, 0.0625, -5, -128, 127, torch.int8),
                c, qd.dequantize_per_channel(c, self.s, self.z, 1, -128, 127, torch.int8))


def qdq():
    return QDQ().eval()


class ConvNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 16, 3, padding=1)
        self.conv2 = nn.Conv2d(16, 16, 3, padding=1, stride=2)
        self.fc = nn.Linear(16 * 8 * 8, 10)

    def forward(self, x):
        y = torch.relu(self.conv(x))
        y = torch.relu(self.conv2(y))
        return self.fc(y.flatten(1))


def convnet():
    """Convolutions, ReLU and a linear layer, X86InductorQuantizer's
    default config (uint8 activations, per-channel int8 weights)."""
    torch.manual_seed(0)
    return _convert(ConvNet().eval(), torch.randn(1, 3, 16, 16), _x86())


def _resnet18():
    """torchvision's resnet18, its BatchNorms given random statistics"""
    import torchvision

    torch.manual_seed(0)
    m = torchvision.models.resnet18().eval()
    e2e_models.base._randomize_batchnorms(m)
    return m


def resnet18():
    """resnet18 (the BatchNorms folded into the convolutions by
    convert_pt2e), XNNPACKQuantizer's symmetric per-channel config: int8
    activations, residual adds quantized.  X86InductorQuantizer in torchao
    0.18 fails on resnet18's in-place add-ReLU ('Input partition has more
    than one output node')."""
    return _convert(_resnet18(), torch.randn(1, 3, 224, 224), _xnnpack())


class Branches(nn.Module):
    """each layer of a list applied to the input, their results returned
    (in float: no quantize after them): each is one int8 contraction whose
    sums codegen's int8 kernels compute exactly and eager's in f32"""

    def __init__(self, *layers):
        super().__init__()
        self.layers = nn.ModuleList(layers)

    def forward(self, x):
        return tuple(m(x) for m in self.layers)


def qconv_u8():
    """convolutions of odd shapes, uint8 activations (X86InductorQuantizer):
    fewer output channels than a tile's rows, K = 27 and 150 (not multiples
    of four), stride 2, dilation 2, a 1x1 of batch 2, two groups (a batch
    of two GEMMs)"""
    torch.manual_seed(0)
    m = Branches(nn.Conv2d(6, 5, 3, padding=1), nn.Conv2d(6, 10, 3, stride=2, padding=1),
                 nn.Conv2d(6, 32, 5, padding=4, dilation=2), nn.Conv2d(6, 48, 1),
                 nn.Conv2d(6, 20, 3, padding=1, groups=2)).eval()
    return _convert(m, torch.randn(2, 6, 13, 17), _x86())


def qconv_s8():
    """int8 activations (XNNPACKQuantizer): a 7x7 map against 64 channels
    (the operands trade places: the activations are A, packed by a kernel
    of their own) and a 28x28 one (B packed in the GEMM kernel)"""
    torch.manual_seed(0)
    small = Branches(nn.Conv2d(48, 64, 3, padding=1), nn.Conv2d(48, 40, 1)).eval()
    return _convert(small, torch.randn(1, 48, 7, 7), _xnnpack())


def qconv_s8_wide():
    torch.manual_seed(0)
    m = Branches(nn.Conv2d(16, 32, 3, padding=1), nn.Conv2d(16, 24, 3, stride=2, padding=1)).eval()
    return _convert(m, torch.randn(1, 16, 28, 28), _xnnpack())


def qlinear_u8():
    """linear layers, 5 rows of 33 (K not a multiple of four)"""
    torch.manual_seed(0)
    return _convert(Branches(nn.Linear(33, 17), nn.Linear(33, 64)).eval(), torch.randn(5, 33), _x86())


def _fx(model, example, packed=False):
    """model quantized by FX graph mode (fbgemm's default qconfig), in the
    reference form (convert_to_reference_fx), or packed: as convert_fx
    leaves it, quantized modules with fbgemm's packed weights and
    quantized tensors between them"""
    from torch.ao.quantization import get_default_qconfig_mapping
    from torch.ao.quantization.quantize_fx import (convert_fx, convert_to_reference_fx,
                                                   prepare_fx)

    g = torch.Generator().manual_seed(7)
    prepared = prepare_fx(model, get_default_qconfig_mapping("fbgemm"), (example,))
    for _ in range(8):  # calibration
        prepared(torch.randn(example.shape, generator=g))
    return (convert_fx if packed else convert_to_reference_fx)(prepared)


def fx_convnet():
    """ConvNet in 1.13's FX reference form, fbgemm's default qconfig
    (quint8 activations, per-channel qint8 weights)"""
    torch.manual_seed(0)
    return _fx(ConvNet().eval(), torch.randn(1, 3, 16, 16))


def fx_resnet18():
    """resnet18 in the FX reference form (BatchNorms fused into the
    convolutions by prepare_fx)"""
    return _fx(_resnet18(), torch.randn(1, 3, 224, 224))


def fx_packed_convnet():
    """ConvNet as convert_fx leaves it (fbgemm's default qconfig)"""
    torch.manual_seed(0)
    return _fx(ConvNet().eval(), torch.randn(1, 3, 16, 16), packed=True)


def fx_packed_resnet18():
    """resnet18 as convert_fx leaves it: quantized.ConvReLU2d and Conv2d,
    quantized.add_relu, max and average pooling of quantized tensors"""
    return _fx(_resnet18(), torch.randn(1, 3, 224, 224), packed=True)


class _EagerQuant(nn.Module):
    def __init__(self):
        super().__init__()
        self.quant = torch.quantization.QuantStub()
        self.fc = nn.Linear(16, 8)
        self.tanh = nn.Tanh()
        self.fc2 = nn.Linear(8, 4)
        self.dequant = torch.quantization.DeQuantStub()

    def forward(self, x):
        return self.dequant(self.fc2(self.tanh(self.fc(self.quant(x)))))


def eager_mlp(engine="qnnpack"):
    """an MLP quantized in eager mode (torch.quantization.prepare and
    convert, default_qconfig: quantized.Linear modules between Quantize
    and DeQuantize, a Tanh of a quantized tensor), as torch-mlir's e2e
    suite quantizes its models.  Its second layer reads tanh's output,
    quantized over the full 8-bit range, which the x86 engines (onednn,
    fbgemm) saturate: PyTorch's quantized engine is set to qnnpack, whose
    results are the exact ones."""
    torch.backends.quantized.engine = engine
    torch.manual_seed(0)
    m = _EagerQuant().eval()
    m.qconfig = torch.quantization.default_qconfig
    torch.quantization.prepare(m, inplace=True)
    g = torch.Generator().manual_seed(7)
    for _ in range(32):  # calibration
        m(torch.randn(2, 16, generator=g))
    return torch.quantization.convert(m, inplace=True)


def eager_mlp_x86():
    """eager_mlp under PyTorch's x86 engine (onednn in Debian's 1.13)"""
    return eager_mlp("onednn")
