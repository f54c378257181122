"""Pooling of every rank and its relatives (decompose_pool.c) against
PyTorch eager: max/avg pools 1-d and 3-d with indices, adaptive 3-d max
with indices, 3-d and 1-d pads, unfold and im2col, max_unpool, the
backward of max pools and nearest upsampling, grid_sampler (see
regress.py)."""
import torch
import torch.nn.functional as F
from cases import case

aten = torch.ops.aten


def _distinct(*shape, dtype=torch.float32):
    # distinct values: the index of each window's maximum is unique
    n = 1
    for s in shape:
        n *= s
    x = torch.randperm(n).reshape(shape)
    return (x.to(torch.float64) * 0.37 - n * 0.1).to(dtype) if dtype.is_floating_point \
        else (x - n // 3).to(dtype)


def _max3d(x, y, z):
    outs = []
    for k, s, p, d, c in [(2, None, 0, 1, False), (3, 2, 1, 1, True), ((3, 2, 1), (2, 1, 1), (1, 1, 0), 1, False),
                          (2, 2, 0, (2, 1, 2), True), ((1, 3, 2), (3, 2, 2), (0, 1, 1), (1, 1, 1), True), (5, 1, 2, 1, False)]:
        v, i = F.max_pool3d(x, k, s, p, d, ceil_mode=c, return_indices=True)
        outs += [v, i]
    # no batch dim, a transposed (non-contiguous) input, float64
    v, i = F.max_pool3d(y, 2, 1, 1, return_indices=True)
    w, j = F.max_pool3d(x.transpose(2, 4), (2, 3, 1), 1, return_indices=True)
    u, k = F.max_pool3d(z, 3, 2, 1, ceil_mode=True, return_indices=True)
    return tuple(outs) + (v, i, w, j, u, k, F.max_pool3d(x, 2) * 2 + 1)


@case
def max_pool3d_with_indices_forms():
    # kernel, stride (empty: the kernel), padding, dilation, ceil_mode,
    # odd extents, batch 2; unbatched, strided, f64 inputs; a fused chain
    return _max3d, [_distinct(2, 3, 7, 6, 5), _distinct(3, 4, 5, 6),
                    _distinct(1, 2, 5, 7, 4, dtype=torch.float64)]


def _max3d_nan(x, y, m):
    v, i = F.max_pool3d(x, 2, 1, return_indices=True)
    w, j = F.max_pool3d(x, (3, 2, 2), (2, 1, 2), 1, ceil_mode=True, return_indices=True)
    a, b = F.adaptive_max_pool3d(x, (2, 3, 2), return_indices=True)
    c, k = F.adaptive_max_pool3d(y, (3, 4, 5), return_indices=True)
    e, n = F.adaptive_max_pool3d(y, (1, 1, 1), return_indices=True)
    f, o = F.adaptive_max_pool3d(y[0], (5, 2, 3), return_indices=True)
    p, q = F.max_pool3d(m, 2, 2, 1, return_indices=True)
    r, t = F.max_pool2d(m[0], 2, 2, 1, return_indices=True)
    u, z = F.adaptive_max_pool2d(m[0], (3, 2), return_indices=True)
    return v, i, w, j, a, b, c, k, e, n, f, o, F.adaptive_max_pool3d(y, 2) - 1, p, q, r, t, u, z


@case
def max_pool3d_nan_inf_ties_adaptive():
    # NaN wins, the index is the last NaN's (in (d, h, w) order); ties keep
    # the first; windows of -inf give their first position inside the
    # input (not the padding), 2-d too; adaptive_max_pool3d with indices:
    # windows that overlap (7 to 3, 6 to 4), to 1, growing, unbatched
    x = torch.randint(0, 3, (2, 2, 5, 6, 4)).float()
    x[0, 0, 1, 2, 3] = float("nan")
    x[0, 0, 2, 1, 0] = float("nan")
    x[1, 1, 4, 5, 3] = float("nan")
    x[1, 0, 0, 0, 0] = float("inf")
    m = torch.full((2, 3, 5, 6, 4), float("-inf"))
    m[0, 1, 0, 0, 0] = 1.0
    m[1, 2, 4, 5, 3] = -1e30
    return _max3d_nan, [x, _distinct(2, 3, 7, 6, 5), m]


def _pool1d(x, n):
    outs = []
    for k, s, p, d, c in [(2, None, 0, 1, False), (3, 2, 1, 1, True), (3, 1, 1, 2, False), (4, 3, 2, 1, True)]:
        v, i = F.max_pool1d(x, k, s, p, d, ceil_mode=c, return_indices=True)
        outs += [v, i, F.max_pool1d(n, k, s, p, d, ceil_mode=c)]
    for k, s, p, c, cip in [(2, None, 0, False, True), (3, 2, 1, True, False), (3, 2, 1, True, True), (5, 3, 2, False, False)]:
        outs.append(F.avg_pool1d(x, k, s, p, c, cip))
    outs.append(aten.max_pool1d_with_indices(x[0], [3], [2], [1])[1])
    return tuple(outs)


def _avg3d(x, y, z, i, n, u):
    outs = []
    for k, s, p, c, cip, dv in [(2, None, 0, False, True, None), (3, 2, 1, True, False, None),
                                (3, 2, 1, True, True, None), ((3, 2, 1), (2, 1, 1), (1, 1, 0), False, False, None),
                                ((2, 3, 2), (3, 2, 2), (1, 1, 1), True, False, None), (2, 1, 1, False, True, 3),
                                (3, 2, 1, True, False, -2)]:
        outs.append(F.avg_pool3d(x, k, s, p, c, cip, dv))
    outs.append(F.avg_pool3d(y, (2, 3, 1), 1, (1, 1, 0), count_include_pad=False))
    outs.append(F.avg_pool3d(x.transpose(3, 4), 2, 1))
    outs.append(F.avg_pool3d(z, 3, 2, 1, True, False))
    outs += [F.avg_pool3d(i, 3, 2, 1, True, False), F.avg_pool3d(i, 2, 1, 1)]
    return tuple(outs) + _pool1d(n, u)


@case
def avg_pool3d_and_pool1d():
    # avg_pool3d: ceil_mode with and without padding, count_include_pad
    # both ways, divisor_override (negative too), unbatched, strided, f64,
    # int64 (truncating); 1-d max with indices (batched and not) and avg,
    # padding, dilation, ceil_mode, count_include_pad, NaN
    u = torch.randn(2, 3, 11)
    u[0, 1, 4] = float("nan")
    return _avg3d, [torch.randn(2, 3, 7, 6, 5), torch.randn(3, 4, 5, 6),
                    torch.randn(1, 2, 5, 7, 4, dtype=torch.float64),
                    torch.randint(-50, 50, (2, 2, 5, 6, 7)), _distinct(2, 3, 11), u]


def _pads(x, y, v, m):
    return (F.pad(x, (1, 2, 0, 3, 2, 1), mode="reflect"), F.pad(x, (0, 0, 0, 0, 3, 0), mode="reflect"),
            F.pad(y, (2, 1, 1, 0, 1, 2), mode="reflect"), F.pad(x, (1, 2, 0, 3, 2, 1), mode="replicate"),
            F.pad(y, (4, 0, 2, 5, 0, 3), mode="replicate"), F.pad(v, (3, 5), mode="replicate"),
            F.pad(m, (2, 0), mode="replicate"), F.pad(v, (2, 3), mode="reflect"),
            F.pad(y, (1, 1, 2, 2), mode="reflect"), F.pad(y, (0, 2, 3, 1), mode="replicate"),
            aten.reflection_pad3d(x, [-1, 1, 2, -1, 0, -2]),
            F.pad(x.transpose(2, 4), (1, 1, 1, 1, 1, 1), mode="replicate") * 3 - 1)


def _unfold(x, z, i):
    return (x.unfold(0, 2, 1), x.unfold(1, 3, 2), x.unfold(-1, 5, 5), x.unfold(2, 1, 3),
            x.transpose(0, 2).unfold(1, 2, 2) + 1, x.unfold(1, 0, 1), z.unfold(0, 1, 1),
            z.unfold(0, 0, 2), i.unfold(1, 2, 1), x[:, :0].unfold(0, 2, 1))


def _im2col(x, y):
    return (F.unfold(x, 2), F.unfold(x, (3, 2), dilation=(1, 2), padding=(1, 0), stride=(2, 1)),
            F.unfold(x, 3, padding=2, stride=3), aten.im2col(y, [2, 2], [2, 1], [1, 1], [1, 2]),
            F.unfold(x.transpose(2, 3), (1, 4)) * 2)


def _windows(x, y, v, m, u, z, i, c, d):
    return _pads(x, y, v, m) + _unfold(u, z, i) + _im2col(c, d)


@case
def pads_unfold_im2col():
    # pads: 3-d (batched and not), 1-d (2-d and 3-d inputs), 2-d of 3-d and
    # 4-d inputs, negative pads, a strided input in a chain; unfold: every
    # dim, step below, at and above size, size 1 and 0, a 0-d input, int64,
    # strided and empty inputs; im2col: kernel, dilation, padding, stride,
    # unbatched, strided
    return _windows, [torch.randn(2, 3, 4, 5, 6), torch.randn(3, 4, 6, 7), torch.randn(2, 3, 7),
                      torch.randn(5, 1), torch.randn(3, 7, 5), torch.tensor(2.5),
                      torch.arange(12).reshape(3, 4), torch.randn(2, 3, 6, 5), torch.randn(2, 5, 4)]


def _unpool(x, y, v, i):
    a, ia = F.max_pool2d(x, 2, 2, return_indices=True)
    b, ib = F.max_pool2d(x, 3, 2, 1, return_indices=True)
    c, ic = F.max_pool3d(y, 2, 2, return_indices=True)
    return (F.max_unpool2d(a, ia, 2, 2), F.max_unpool2d(b, ib, 3, 2, 1, output_size=(7, 6)),
            F.max_unpool3d(c, ic, 2, 2, output_size=(5, 7, 5)),
            aten.max_unpool2d(v, i, [3, 5]))


def _pool_backward(g, x, i, g3, x3, i3):
    return (aten.max_pool2d_with_indices_backward(g, x, [2, 2], [1, 1], [1, 1], [1, 1], False, i),
            aten.max_pool2d_with_indices_backward(g[0], x[0], [2, 2], [1, 1], [1, 1], [1, 1], False, i[0]),
            aten.max_pool3d_with_indices_backward(g3, x3, [2, 2, 2], [1, 1, 1], [0, 0, 0], [1, 1, 1], False, i3))


def _up_backward(g, h, t):
    return (aten.upsample_nearest2d_backward(g, [6, 12], [2, 3, 2, 4], 3.0, 3.0),
            aten.upsample_nearest2d_backward(g, [6, 12], [2, 3, 4, 5]),
            aten.upsample_nearest2d_backward(g, [6, 12], [2, 3, 6, 12]),
            aten.upsample_nearest2d_backward(g, [6, 12], [2, 3, 9, 5], None, 0.7),
            aten.upsample_nearest1d_backward(h, [10], [2, 2, 4]),
            aten.upsample_nearest1d_backward(h, [10], [2, 2, 5]),
            aten.upsample_nearest3d_backward(t, [4, 6, 3], [1, 2, 2, 3, 2]),
            # twice and the same size read o / 2 and o, whatever the scale
            aten.upsample_nearest2d_backward(g, [6, 12], [2, 3, 3, 12], 2.1, 1.05),
            aten.upsample_nearest1d_backward(h, [10], [2, 2, 5], 2.1))


def _scatters(x, y, v, i, g, p, pi, g3, x3, i3, ug, uh, ut):
    return _unpool(x, y, v, i) + _pool_backward(g, p, pi, g3, x3, i3) + _up_backward(ug, uh, ut)


@case
def unpool_and_backward():
    # max_unpool after max pools (overlapping windows too), output_size,
    # equal indices in one plane (the last value wins); the backward of
    # max pools: indices with repeats (the gradient sums), batched and
    # not, 3-d; of nearest upsampling: scales given and not, sizes up,
    # down, equal and twice, 1-d and 3-d
    return _scatters, [torch.randn(2, 3, 7, 6), torch.randn(2, 2, 5, 7, 5), torch.randn(1, 2, 4),
                       torch.tensor([[[0, 3, 3, 14], [2, 2, 7, 1]]]),
                       torch.randn(2, 4, 7, 6), torch.randn(2, 4, 6, 5),
                       torch.randint(0, 30, (2, 4, 7, 6)), torch.randn(2, 2, 3, 4, 2),
                       torch.randn(2, 2, 4, 5, 3), torch.randint(0, 60, (2, 2, 3, 4, 2)),
                       torch.randn(2, 3, 6, 12), torch.randn(2, 2, 10), torch.randn(1, 2, 4, 6, 3)]


def _grid(x, g, d, gd):
    outs = []
    for mode in ("bilinear", "nearest"):
        for pad in ("zeros", "border"):
            for ac in (False, True):
                outs.append(F.grid_sample(x, g, mode=mode, padding_mode=pad, align_corners=ac))
    outs.append(F.grid_sample(d, gd, align_corners=False))
    outs.append(F.grid_sample(x.transpose(2, 3), g, mode="bilinear", align_corners=True) * 2)
    return tuple(outs)


@case
def grid_sampler_modes():
    # bilinear and nearest, zeros and border, align_corners both ways; grid
    # points outside [-1, 1], on pixel centres; float64; a strided input
    g = torch.rand(2, 5, 7, 2) * 2.6 - 1.3
    g[0, 0, 0] = torch.tensor([-1.0, 1.0])
    g[1, 2, 3] = torch.tensor([0.0, 0.0])
    return _grid, [torch.randn(2, 3, 6, 5), g, torch.randn(1, 2, 4, 3, dtype=torch.float64),
                   (torch.rand(1, 3, 2, 2, dtype=torch.float64) * 2.4 - 1.2)]
