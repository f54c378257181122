"""The vision family of the model zoo (issue 19): torchvision classifiers
whose heads pool adaptively, segmentation nets that upsample bilinearly,
and a small U-Net with GroupNorm.  Reduced resolutions keep each test
short; each is chosen so that the adaptive pools and upsamplings see
windows that do not divide evenly.

Every norm layer gets random affine params (and BatchNorm random running
statistics), so that a compiler dropping a norm cannot pass.

The last layer's bias is moved away from zero (_offset_head): per output
channel, +-(1.5 + u) * max |y| where y is the output without it.  The
check is rtol 1e-3 at atol 1e-7, and outputs that come out near zero by
cancellation (a few of a thousand logits, of 86016 segmentation scores)
differ from eager by f32 rounding alone; with the offset every output is
at least 0.5 max |y| in magnitude, and an error of 0.35% of max |y|
still fails.
"""
import torch
import torch.nn.functional as F
from torch import nn

NAMES = ["alexnet", "vgg11", "regnet_y_400mf", "deeplabv3_mobilenet_v3_large",
         "fcn_resnet50", "unet_groupnorm"]


def _randomize_norms(module):
    g = torch.Generator().manual_seed(1)
    for m in module.modules():
        with torch.no_grad():
            if isinstance(m, nn.modules.batchnorm._BatchNorm):
                m.weight.copy_(torch.rand(m.weight.shape, generator=g) + 0.5)
                m.bias.copy_(torch.rand(m.bias.shape, generator=g) * 0.2 - 0.1)
                m.running_mean.copy_(torch.rand(m.running_mean.shape, generator=g) * 0.2 - 0.1)
                m.running_var.copy_(torch.rand(m.running_var.shape, generator=g) + 0.5)
            elif isinstance(m, nn.GroupNorm) and m.affine:
                m.weight.copy_(torch.rand(m.weight.shape, generator=g) + 0.5)
                m.bias.copy_(torch.rand(m.bias.shape, generator=g) * 0.4 - 0.2)
    return module


def _offset_head(model, head, x):
    """head's bias (the last layer's, one per output channel) set to
    +-(1.5 + u) * max |y| of the output y without it."""
    g = torch.Generator().manual_seed(2)
    with torch.no_grad():
        head.bias.zero_()
        y = model(x)
        sign = torch.randint(0, 2, head.bias.shape, generator=g) * 2 - 1
        u = torch.rand(head.bias.shape, generator=g)
        head.bias.copy_(sign * (1.5 + u) * y.abs().max())
    return model


def _tv(name, shape, head, segmentation=False, **kw):
    import torchvision
    torch.manual_seed(0)
    ns = torchvision.models.segmentation if segmentation else torchvision.models
    m = _randomize_norms(getattr(ns, name)(weights=None, **kw)).eval()
    x = torch.randn(*shape)
    if segmentation:
        m = _Out(m).eval()
    return _offset_head(m, head(m), x), (x,)


def alexnet():
    # 96x96: the features end at 2x2, pooled adaptively to 6x6 (windows
    # that overlap)
    return _tv("alexnet", (1, 3, 96, 96), lambda m: m.classifier[6])


def vgg11():
    # 64x64: the features end at 2x2, pooled adaptively to 7x7
    return _tv("vgg11", (1, 3, 64, 64), lambda m: m.classifier[6])


def regnet_y_400mf():
    return _tv("regnet_y_400mf", (1, 3, 64, 64), lambda m: m.fc)


class _Out(nn.Module):
    """A segmentation net's 'out' tensor."""

    def __init__(self, m):
        super().__init__()
        self.m = m

    def forward(self, x):
        return self.m(x)["out"]


def deeplabv3_mobilenet_v3_large():
    # 72x72: the ASPP sees 5x5, upsampled from its 1x1 pooling, the head
    # 5x5 upsampled to 72x72 (not a multiple)
    return _tv("deeplabv3_mobilenet_v3_large", (1, 3, 72, 72), lambda m: m.m.classifier[4],
               segmentation=True, weights_backbone=None, aux_loss=False)


def fcn_resnet50():
    return _tv("fcn_resnet50", (1, 3, 64, 64), lambda m: m.m.classifier[4],
               segmentation=True, weights_backbone=None, aux_loss=False)


class UNet(nn.Module):
    """conv3x3 + GroupNorm + ReLU blocks, down twice by max pooling, up
    twice by bilinear interpolation (scale factor 2), skips by cat."""

    def __init__(self):
        super().__init__()

        def blk(i, o, g):
            return nn.Sequential(nn.Conv2d(i, o, 3, padding=1), nn.GroupNorm(g, o), nn.ReLU())
        self.d1, self.d2, self.m = blk(3, 16, 4), blk(16, 32, 8), blk(32, 32, 2)
        self.u2, self.u1 = blk(64, 16, 4), blk(32, 16, 16)
        self.o = nn.Conv2d(16, 2, 1)

    def forward(self, x):
        a = self.d1(x)
        b = self.d2(F.max_pool2d(a, 2))
        c = self.m(F.max_pool2d(b, 2))
        c = F.interpolate(c, scale_factor=2, mode="bilinear", align_corners=False)
        u = self.u2(torch.cat([c, b], 1))
        u = F.interpolate(u, scale_factor=2, mode="bilinear", align_corners=False)
        return self.o(self.u1(torch.cat([u, a], 1)))


def unet_groupnorm():
    torch.manual_seed(0)
    m = _randomize_norms(UNet()).eval()
    x = torch.randn(2, 3, 36, 44)
    return _offset_head(m, m.o, x), (x,)
