"""Model zoo, strided-view family (issue 19): torchvision's convnext_tiny and
swin_t, whose traces hold aten.as_strided (their stochastic depth, the
permutes around the channels-last LayerNorm, swin's window partition and
shifted windows).  weights=None; every LayerNorm gets random affine params.
"""
import torch
import torchvision
from torch import nn

NAMES = ["convnext_tiny", "swin_t"]


def _randomize_norms(module):
    g = torch.Generator().manual_seed(7)
    for m in module.modules():
        if isinstance(m, (nn.LayerNorm, nn.GroupNorm)) and m.weight is not None:
            with torch.no_grad():
                sign = torch.randint(0, 2, m.bias.shape, generator=g) * 2 - 1
                m.weight.copy_(torch.rand(m.weight.shape, generator=g) * 0.5 + 0.75)
                m.bias.copy_(sign * (torch.rand(m.bias.shape, generator=g) * 0.5 + 0.5))
        if isinstance(m, nn.modules.batchnorm._BatchNorm):
            with torch.no_grad():
                m.weight.copy_(torch.rand(m.weight.shape, generator=g) * 0.5 + 0.75)
                m.bias.copy_(torch.rand(m.bias.shape, generator=g) - 0.5)
                m.running_mean.copy_(torch.rand(m.running_mean.shape, generator=g) - 0.5)
                m.running_var.copy_(torch.rand(m.running_var.shape, generator=g) + 0.5)


def convnext_tiny():
    torch.manual_seed(0)
    m = torchvision.models.convnext_tiny(weights=None).eval()
    _randomize_norms(m)
    return m, (torch.randn(1, 3, 64, 64),)


def swin_t():
    torch.manual_seed(0)
    m = torchvision.models.swin_t(weights=None).eval()
    _randomize_norms(m)
    return m, (torch.randn(1, 3, 64, 64),)
