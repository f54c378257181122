"""The models of `make bench`, each a factory returning (model, example
inputs) that seeds itself, as tests/e2e/e2e_models.py's.

The sizes issue 24 names: mlp_784 (an MLP 784-512-256-10 at batch 64) and
transformer_128 (TransformerEncoderLayer(d_model=256, nhead=4) on 128
tokens, batch 1, batch_first=False: the input is [128, 1, 256]); the test
models resnet18 and mobilenet_v2 (tests/e2e/e2e_models.py); resnet50,
whose compile time and memory issue 7 sets targets for; and two tiny
models, linear (4 -> 3) and mlp (16-32-32-8 at batch 2), that time the
cost of a call rather than compute.  BatchNorms get random affine params
and running stats, LayerNorms random affine params (e2e_models.py), so
that the models compute something.

conv_linear_flops counts a model's FLOPs as 2 x the multiply-adds of its
convolutions and linear layers (what the table's GFLOP/s use).
"""
import importlib.util
import os

import torch
from torch import nn

_spec = importlib.util.spec_from_file_location(
    "bench_e2e_models",
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "e2e", "e2e_models.py"))
_e2e = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_e2e)

# name -> what it is, for the table's notes
DESCRIPTIONS = {
    "linear": "Linear(4, 3) on one vector: call overhead",
    "mlp": "MLP 16-32-32-8, batch 2 (tests/fx-export/models.py): call overhead",
    "mlp_784": "MLP 784-512-256-10 (ReLU), batch 64",
    "transformer_128": "TransformerEncoderLayer(d_model=256, nhead=4), 128 tokens, batch 1, "
                       "batch_first=False: input [128, 1, 256]",
    "resnet18": "torchvision resnet18, 1x3x224x224",
    "mobilenet_v2": "torchvision mobilenet_v2, 1x3x224x224",
    "resnet50": "torchvision resnet50, 1x3x224x224",
    "bert_base": "BERT-base encoder layer: TransformerEncoderLayer(768, 12, 3072, gelu), "
                 "128 tokens, batch 1, batch_first",
    "resnet18_int8": "resnet18 quantized by PT2E (torchao, XNNPACKQuantizer: int8 activations, "
                     "per-channel int8 weights; tests/e2e/qmodels.py)",
}

linear = _e2e.linear
mlp = _e2e.mlp
resnet18 = _e2e.resnet18
mobilenet_v2 = _e2e.mobilenet_v2


def mlp_784():
    torch.manual_seed(0)
    module = nn.Sequential(nn.Linear(784, 512), nn.ReLU(), nn.Linear(512, 256), nn.ReLU(),
                           nn.Linear(256, 10))
    return module.eval(), (torch.randn(64, 784),)


def transformer_128():
    torch.manual_seed(0)
    module = nn.TransformerEncoderLayer(d_model=256, nhead=4).eval()
    _e2e._randomize_layernorms(module)
    return module, (torch.randn(128, 1, 256),)


def resnet50():
    import torchvision

    torch.manual_seed(0)
    module = torchvision.models.resnet50(weights=None)
    _e2e.base._randomize_batchnorms(module)
    return module.eval(), (torch.randn(1, 3, 224, 224),)


def bert_base():
    torch.manual_seed(0)
    module = nn.TransformerEncoderLayer(768, 12, 3072, activation="gelu", batch_first=True,
                                        dropout=0.0).eval()
    _e2e._randomize_layernorms(module)
    return module, (torch.randn(1, 128, 768),)


def resnet18_int8():
    """PyTorch 2 with torchao only"""
    spec = importlib.util.spec_from_file_location(
        "bench_qmodels", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests",
                                      "e2e", "qmodels.py"))
    q = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(q)
    torch.manual_seed(0)
    return q.resnet18(), (torch.randn(1, 3, 224, 224),)


def conv_linear_flops(module, inputs):
    """2 x the multiply-adds of the model's convolutions and linear layers
    on these inputs (one forward run with hooks)."""
    macs = [0]

    def hook(m, args, out):
        if isinstance(m, nn.modules.conv._ConvNd):
            k = 1
            for s in m.kernel_size:
                k *= s
            macs[0] += out.numel() * (m.in_channels // m.groups) * k
        else:
            macs[0] += out.numel() * m.in_features

    handles = [m.register_forward_hook(hook) for m in module.modules()
               if isinstance(m, (nn.modules.conv._ConvNd, nn.Linear))]
    try:
        with torch.no_grad():
            module(*inputs)
    finally:
        for h in handles:
            h.remove()
    return 2 * macs[0]
