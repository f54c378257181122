"""The five end-to-end models: tests/fx-export/models.py's, with every norm
layer made non-trivial.

tests/fx-export/models.py already gives BatchNorms random affine params and
running stats; the LayerNorms of the transformer keep PyTorch's weight=1,
bias=0, which would let a compiler that drops the affine step pass.  Each
factory here seeds itself, so calling it twice (in fx-export, then in the
test comparing with eager) gives the same weights and inputs.

    fx-export tests/e2e/e2e_models.py:resnet18 -o m.json
"""
import glob
import importlib.util
import os

import torch
from torch import nn

_spec = importlib.util.spec_from_file_location(
    "fx_export_test_models", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fx-export", "models.py"))
base = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(base)

NAMES = ["linear", "mlp", "resnet18", "mobilenet_v2", "transformer_encoder_layer", "conv_paths", "pack_lanes", "window_loops",
         "window_tails", "pad_columns", "pad_rows", "conv_taps", "channels_last"]
VISION = {"resnet18", "mobilenet_v2"}
NORMS = (nn.modules.batchnorm._BatchNorm, nn.LayerNorm, nn.GroupNorm, nn.modules.instancenorm._InstanceNorm)


def _randomize_layernorms(module):
    """Random affine params, with the bias well away from zero.

    The transformer's output is its last LayerNorm: weight * z + bias with z
    about N(0, 1).  With a bias near zero some of the 4096 outputs land near
    zero, where f32 rounding alone (PyTorch's own, across BLAS libraries)
    exceeds rtol 1e-3 at atol 1e-7.  |bias| in [1, 2] and weight in
    [0.05, 0.2] keep every output above 0.2 in magnitude, while an error of
    0.06 in z (about 0.015 for a typical element) still exceeds the
    tolerance.
    """
    g = torch.Generator().manual_seed(1)
    for m in module.modules():
        if isinstance(m, (nn.LayerNorm, nn.GroupNorm)) and m.weight is not None:
            with torch.no_grad():
                sign = torch.randint(0, 2, m.bias.shape, generator=g) * 2 - 1
                m.weight.copy_(torch.rand(m.weight.shape, generator=g) * 0.15 + 0.05)
                m.bias.copy_(sign * (torch.rand(m.bias.shape, generator=g) + 1))


def norm_problems(module):
    """Norm layers left at PyTorch's defaults: their names, or []."""
    bad = []
    for name, m in module.named_modules():
        if not isinstance(m, NORMS):
            continue
        if getattr(m, "weight", None) is not None and (
                torch.all(m.weight == 1) or torch.all(m.bias == 0)):
            bad.append(name + " (affine params at their defaults)")
        if getattr(m, "running_mean", None) is not None and (
                torch.all(m.running_mean == 0) or torch.all(m.running_var == 1)):
            bad.append(name + " (running stats at their defaults)")
    return bad


def _make(name):
    module, inputs = base.FACTORIES[name]()
    _randomize_layernorms(module)
    return module, inputs


def linear():
    return _make("linear")


def mlp():
    return _make("mlp")


def resnet18():
    return _make("resnet18")


def mobilenet_v2():
    return _make("mobilenet_v2")


def transformer_encoder_layer():
    return _make("transformer_encoder_layer")


class ConvPaths(nn.Module):
    """One of each way codegen compiles a convolution: im2col packed inside
    the GEMM kernel (3x3 stride 1 padded, 7x7 stride 2, depthwise stride 1
    and 2, 1x1), packed by a kernel of its own (few panels), and with the
    operands traded (a 7x7 map against 64 channels), with batch norm,
    relu and a residual add in the epilogues."""

    def __init__(self):
        super().__init__()
        self.stem = nn.Conv2d(3, 16, 7, stride=2, padding=3, bias=False)
        self.bn0 = nn.BatchNorm2d(16)
        self.c3 = nn.Conv2d(16, 16, 3, padding=1)
        self.dw = nn.Conv2d(16, 16, 3, padding=1, groups=16)
        self.dw2 = nn.Conv2d(16, 16, 3, stride=2, padding=1, groups=16)
        self.pw = nn.Conv2d(16, 32, 1)
        self.bn1 = nn.BatchNorm2d(32)
        self.small = nn.Conv2d(32, 64, 3, stride=2, padding=1)
        self.tiny = nn.Conv2d(64, 64, 3, padding=1)

    def forward(self, x):
        x = torch.relu(self.bn0(self.stem(x)))          # 16 x 28 x 28
        x = torch.relu(self.c3(x)) + x
        x = torch.relu(self.dw(x))
        x = self.dw2(x)                                  # 16 x 14 x 14
        x = torch.relu(self.bn1(self.pw(x)))             # 32 x 14 x 14
        x = torch.relu(self.small(x))                    # 64 x 7 x 7
        return self.tiny(x) + x


def conv_paths():
    torch.manual_seed(0)
    module = ConvPaths()
    base._randomize_batchnorms(module)
    return module.eval(), (torch.randn(1, 3, 56, 56),)


class PackLanes(nn.Module):
    """Convolutions whose im2col operand a pack kernel of its own lays out,
    one tile-wide vector per row: tiles of 10, 11 and 12 lanes, odd and
    even, read as contiguous runs (1x1), as every second element (stride
    2 along the row) and by a gather (across rows, padding)."""

    def __init__(self):
        super().__init__()
        self.a = nn.Conv2d(8, 64, 3, stride=2)                 # 1 x 11: 11 lanes, stride 2
        self.b = nn.Conv2d(8, 64, 1)                           # 3 x 23: 10 lanes, runs
        self.c = nn.Conv2d(8, 64, 3, stride=2, padding=1)      # 2 x 12: 12 lanes, padding
        self.d = nn.Conv2d(8, 64, (3, 1), stride=(1, 2))       # 1 x 12: 12 lanes, stride 2
        self.e = nn.Conv2d(8, 64, (1, 3), stride=(3, 2))       # 1 x 11

    def forward(self, x):
        ys = [self.a(x), self.b(x), self.c(x), self.d(x), torch.relu(self.e(x))]
        return torch.cat([y.flatten(1) for y in ys], 1)


def pack_lanes():
    torch.manual_seed(0)
    return PackLanes().eval(), (torch.randn(1, 8, 3, 23),)


class WindowLoops(nn.Module):
    """Reductions whose accumulators live in a contiguous output row, which
    codegen writes as vectors of 16 lanes, the last masked to the row: max
    pooling with padding at stride 2 (35 columns: 3 vectors), average
    pooling at stride 1, a sum over a middle dim."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)

    def forward(self, x):
        y = torch.relu(self.conv(x))                                  # 8 x 40 x 70
        p = nn.functional.max_pool2d(y, 3, stride=2, padding=1)      # 8 x 20 x 35
        a = nn.functional.avg_pool2d(p, 3, stride=1, padding=1)      # 8 x 20 x 35
        return torch.cat([p.flatten(1), a.flatten(1), (p * a).sum(2).flatten(1)], 1)


def window_loops():
    torch.manual_seed(0)
    return WindowLoops().eval(), (torch.randn(1, 3, 40, 70),)


class WindowTails(nn.Module):
    """Rows that end inside a vector: codegen's vectors of 16 lanes end in
    one masked to the row (loads and stores), or a row shorter than 16 is
    one vector of 16, 8 or 4 lanes masked to it.  Depthwise convolutions
    and poolings at rows of 100 (6 vectors and 4 lanes, in two groups), 50
    (stride 2: 3 and 2 lanes), 14 and 19 (one masked vector), 10 and 6 (8
    lanes masked), with padding at the row's ends; batch 2."""

    def __init__(self):
        super().__init__()
        self.a = nn.Conv2d(3, 12, 1)
        self.d1 = nn.Conv2d(12, 12, 3, padding=1, groups=12)
        self.d2 = nn.Conv2d(12, 12, 3, stride=2, padding=1, groups=12)
        self.d3 = nn.Conv2d(12, 12, 3, padding=1, groups=12)
        self.d4 = nn.Conv2d(12, 12, (3, 5), padding=(1, 2), groups=12)

    def forward(self, x):
        a = torch.relu(self.a(x))                                     # 12 x 28 x 100
        d1 = torch.clamp(self.d1(a), 0, 6)                            # 28 x 100
        d2 = self.d2(a)                                               # 14 x 50
        m = nn.functional.max_pool2d(a, 3, stride=2, padding=1)      # 14 x 50
        s = a[:, :, :14, 3:17]
        d3 = self.d3(s)                                               # 14 x 14
        m2 = nn.functional.max_pool2d(a[:, :, :, :37], 3, stride=2, padding=1)  # 14 x 19
        v = nn.functional.avg_pool2d(d3, 3, stride=1, padding=1)     # 14 x 14
        d4 = self.d4(a[:, :, :9, 40:50])                              # 9 x 10
        p6 = nn.functional.max_pool2d(a[:, :, :8, :12], 3, stride=2, padding=1)  # 4 x 6
        return torch.cat([t.flatten(1) for t in (d1, d2, m, d3, m2, v, d4, p6, (d2 * m).sum(2))], 1)


def window_tails():
    torch.manual_seed(0)
    return WindowTails().eval(), (torch.randn(2, 3, 28, 100),)


class PadColumns(nn.Module):
    """GEMMs that store into the pad of the convolution after them write
    the pad's columns beside their rows themselves (codegen's padw); in a
    batch of 2, whose images are one GEMM dim, the host fills the pad's
    top and bottom rows, in a batch of 1 (pad_rows) the GEMMs write those
    too (codegen's padh: the tile that starts a plane its top rows, the
    one that ends it its bottom rows).  Rows of 33 (past a tile of 32), 9
    and 5 (several rows a tile), pads of 1 and 2 columns a side and of 2
    rows, GEMMs along the spatial dim and traded ones (few pixels, many
    channels), a max pool's pad of -inf; a deep enough chain that the
    arena's bytes under each pad held another tensor before."""

    def __init__(self):
        super().__init__()
        self.a = nn.Conv2d(8, 24, 1)
        self.b = nn.Conv2d(24, 24, 3, padding=1)
        self.c = nn.Conv2d(24, 16, (3, 5), padding=(2, 2))
        self.d = nn.Conv2d(16, 16, 3, padding=1, groups=16)
        self.e = nn.Conv2d(16, 96, 1)
        self.f = nn.Conv2d(96, 96, 3, padding=1, groups=96)
        self.g = nn.Conv2d(96, 128, 1)
        self.h = nn.Conv2d(128, 40, 3, padding=(1, 2))

    def forward(self, x):
        a = torch.relu(self.a(x))                          # 24 x 20 x 33
        b = self.b(a)                                      # 24 x 20 x 33
        c = torch.relu(self.c(b))                          # 16 x 22 x 33
        d = self.d(c)                                      # 16 x 22 x 33
        m = nn.functional.max_pool2d(d, 3, stride=2, padding=1)   # 16 x 11 x 17
        p = nn.functional.avg_pool2d(m, 2)                 # 16 x 5 x 8
        e = torch.clamp(self.e(p[:, :, :, :5]), 0, 6)     # 96 x 5 x 5
        f = self.f(e)
        g = self.g(f) - 0.5                                # 128 x 5 x 5
        h = self.h(g)                                      # 40 x 5 x 7
        return torch.cat([t.flatten(1) for t in (b, d, m, f, h)], 1)


def pad_columns():
    torch.manual_seed(0)
    return PadColumns().eval(), (torch.randn(2, 8, 20, 33),)


def pad_rows():
    torch.manual_seed(1)
    return PadColumns().eval(), (torch.randn(1, 8, 20, 33),)



class ConvTaps(nn.Module):
    """Convolutions whose pixels are the GEMM's rows (few pixels, many
    channels), read through their taps from a channels-last copy of the
    input (codegen's tap_plan): output rows 13 and 24 wide (24: two tiles
    a row), 7 (a row a tile in a batch of 2; two rows a tile and a last
    tile of one row for a single image), 6 and 3 (whole rows a tile);
    strides 1 and 2; kernels 3x3, 5x5, 3x1 and 2x2; dilation 2 at stride
    2 (a whole stride: taps) and a padding of 4; groups; a transposed
    input; and beside them on the im2col, convolutions the taps refuse:
    dilation 2 at stride 1, a 17-wide row (no tile divides it)."""

    def __init__(self):
        super().__init__()
        self.a = nn.Conv2d(16, 96, 3, padding=1)
        self.b = nn.Conv2d(96, 128, 3, stride=2, padding=1)
        self.c = nn.Conv2d(128, 160, 5, padding=2)
        self.d = nn.Conv2d(160, 160, (3, 1), padding=(1, 0))
        self.e = nn.Conv2d(160, 96, 3, padding=2, dilation=2)
        self.f = nn.Conv2d(96, 160, 3, stride=2, padding=4, dilation=2)
        self.g = nn.Conv2d(160, 128, 2, stride=2)
        self.h = nn.Conv2d(128, 128, 3, padding=1, groups=4, bias=False)
        self.t = nn.Conv2d(16, 128, (3, 2))
        self.u = nn.Conv2d(128, 64, 3, padding=1)
        self.v = nn.Conv2d(16, 256, 3, padding=(0, 6))
        self.w = nn.Conv2d(16, 256, (3, 2), padding=(0, 2))

    def forward(self, x):
        a = torch.relu(self.a(x))                          # 96 x 14 x 14
        b = self.b(a)                                      # 128 x 7 x 7
        c = torch.relu(self.c(b))                          # 160 x 7 x 7
        d = self.d(c) - 0.25                               # 160 x 7 x 7
        e = self.e(d)                                      # 96 x 7 x 7
        f = self.f(e)                                      # 160 x 6 x 6
        g = self.g(f)                                      # 128 x 3 x 3
        h = self.h(g)                                      # 128 x 3 x 3
        t = self.t(x.transpose(2, 3)[:, :, 4:9, :])       # 128 x 3 x 13
        u = self.u(b[:1]) + 1.0                            # 64 x 7 x 7, one image
        v = self.v(x[:, :, :5, :])                         # 256 x 3 x 24
        w = self.w(x[:, :, 5:9, :])                        # 256 x 2 x 17
        return torch.cat([z.flatten(1) for z in (a, b, c, d, e, f, h, t, v, w)], 1), u


def conv_taps():
    torch.manual_seed(0)
    return ConvTaps().eval(), (torch.randn(2, 16, 14, 14),)

class ChannelsLast(nn.Module):
    """Activations that convolutions alone write and read, kept channels
    last between them (codegen's layout.c): 1x1 and 3x3 convolutions,
    stride 2, a residual sum read in the next GEMM's epilogue, a batch of
    2 at an odd 11x10 map, 64 and 96 channels, one a max pool reads too
    (into NCHW: the pool's result is returned); beside them values that
    keep NCHW: one returned, one sliced, 48 channels (not whole panels),
    and convolutions reading channels-last input into NCHW output and
    NCHW input into channels-last output."""

    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(32, 64, 1)
        self.c2 = nn.Conv2d(64, 64, 3, padding=1)
        self.c3 = nn.Conv2d(64, 64, 1)
        self.c4 = nn.Conv2d(64, 96, 3, stride=2, padding=1)
        self.c5 = nn.Conv2d(96, 96, 1)
        self.c6 = nn.Conv2d(64, 96, 1, stride=2)
        self.c7 = nn.Conv2d(96, 64, 3, padding=1)
        self.c8 = nn.Conv2d(64, 48, 3, padding=1)
        self.c9 = nn.Conv2d(48, 64, 1)
        self.c10 = nn.Conv2d(64, 64, 3, padding=1)

    def forward(self, x):
        a = torch.relu(self.c1(x))                         # 64 x 11 x 10
        b = torch.relu(self.c2(a))
        c = torch.relu(self.c3(b) + a)                     # a in c3's epilogue
        d = torch.relu(self.c4(c))                         # 96 x 6 x 5
        e = torch.relu(self.c5(d) + self.c6(c))            # downsample
        m = nn.functional.max_pool2d(e, 2, ceil_mode=True)
        f = self.c7(e) - 0.5                               # 64 x 6 x 5
        g = torch.relu(self.c8(c))                         # 48 channels
        h = self.c10(torch.relu(self.c9(g)))
        return torch.cat([t.flatten(1) for t in (f, m, h[:, :, 2:7, 1:9], d)], 1), c


def channels_last():
    torch.manual_seed(0)
    return ChannelsLast().eval(), (torch.randn(2, 32, 11, 10),)


FACTORIES = {n: globals()[n] for n in NAMES}


def _zoo():
    """The model zoo: tests/e2e/zoo_*.py, each a file of factories with a
    NAMES list of its own (the models issue 19 names, by family).  Their
    factories join FACTORIES and this module's namespace, so
    `fx-export tests/e2e/e2e_models.py:NAME` and model.py find them."""
    here = os.path.dirname(os.path.abspath(__file__))
    for path in sorted(glob.glob(os.path.join(here, "zoo_*.py"))):
        spec = importlib.util.spec_from_file_location("e2e_" + os.path.basename(path)[:-3], path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        for n in mod.NAMES:
            if n in FACTORIES:
                raise SystemExit("e2e_models.py: %s: model '%s' is defined twice" % (path, n))
            globals()[n] = FACTORIES[n] = getattr(mod, n)


_zoo()
