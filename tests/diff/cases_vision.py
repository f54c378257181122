"""Vision ops of issue 19 against PyTorch: upsampling (nearest, linear,
bilinear, trilinear; sizes or scale factors, align_corners), adaptive
pools of every rank with windows that overlap, group norm (see
regress.py)."""
import torch
import torch.nn.functional as F
from cases import case


def _bilinear(x, t):
    outs = []
    for ac in (False, True):
        for size in [(1, 1), (1, 5), (3, 2), (11, 4), (9, 13), (14, 10), (7, 6)]:
            outs.append(F.interpolate(x, size=size, mode="bilinear", align_corners=ac))
        for sf in [2, 0.5, 1.75, (2.5, 1.3), 0.37]:
            for rec in (False, True):
                outs.append(F.interpolate(x, scale_factor=sf, mode="bilinear", align_corners=ac,
                                          recompute_scale_factor=rec))
    # a transposed (non-contiguous) input, and an input of one pixel
    outs.append(F.interpolate(t.transpose(2, 3), size=(8, 5), mode="bilinear"))
    outs.append(F.interpolate(x[:, :, :1, :1], scale_factor=3, mode="bilinear") * 2 + 1)
    return tuple(outs)


@case
def upsample_bilinear2d_forms():
    # sizes up and down, not multiples, scale factors (used as given when
    # not recomputed), align_corners both ways, batch 2, odd extents
    return _bilinear, [torch.randn(2, 3, 7, 6), torch.randn(2, 3, 5, 4)]


def _nearest(x, u):
    outs = []
    for size in [(1, 1), (2, 3), (7, 6), (14, 12), (9, 13), (3, 11)]:
        outs.append(F.interpolate(x, size=size, mode="nearest"))
    for sf in [2, 3, 0.5, 1.2, 1.75, (2.5, 0.4)]:
        outs.append(F.interpolate(x, scale_factor=sf, mode="nearest"))
        outs.append(F.interpolate(x, scale_factor=sf, mode="nearest", recompute_scale_factor=True))
    outs.append(F.interpolate(u, size=(5, 9), mode="nearest"))
    return tuple(outs)


@case
def upsample_nearest2d_forms():
    # float and uint8 (nearest copies any dtype)
    return _nearest, [torch.randn(2, 3, 7, 6), torch.randint(0, 255, (1, 2, 3, 4), dtype=torch.uint8)]


def _resize_1d_3d(x, v):
    return (F.interpolate(x, size=13, mode="linear"),
            F.interpolate(x, size=4, mode="linear", align_corners=True),
            F.interpolate(x, scale_factor=1.7, mode="linear"),
            F.interpolate(x, size=11, mode="nearest"),
            F.interpolate(x, scale_factor=0.6, mode="nearest"),
            F.interpolate(v, size=(3, 5, 7), mode="trilinear"),
            F.interpolate(v, scale_factor=2, mode="trilinear", align_corners=True),
            F.interpolate(v, size=(5, 2, 6), mode="nearest"))


@case
def upsample_1d_and_3d():
    return _resize_1d_3d, [torch.randn(2, 3, 7), torch.randn(2, 2, 3, 4, 5)]


def _adaptive(x, y, v):
    outs = []
    for o in [(1, 1), (2, 3), (3, 3), (5, 4), (6, 6), (9, 11), (7, 5)]:
        outs.append(F.adaptive_avg_pool2d(x, o))
        outs.extend(F.adaptive_max_pool2d(x, o, return_indices=True))
    for o in [1, 3, 4, 7, 10]:
        outs.append(F.adaptive_avg_pool1d(y, o))
        outs.extend(F.adaptive_max_pool1d(y, o, return_indices=True))
    for o in [(1, 1, 1), (2, 3, 2), (4, 5, 7)]:
        outs.append(F.adaptive_avg_pool3d(v, o))
        outs.append(F.adaptive_max_pool3d(v, o))
    outs.append(F.adaptive_avg_pool2d(x.transpose(2, 3), (4, 3)))
    outs.append(F.adaptive_avg_pool2d(x[0], (3, 4)))
    return tuple(outs)


@case
def adaptive_pools_overlapping():
    # windows [floor(i In / Out), ceil((i + 1) In / Out)): not dividing,
    # overlapping, larger outputs than inputs; 1-d, 2-d (batched and not)
    # and 3-d; max with its indices
    return _adaptive, [torch.randn(2, 3, 7, 6), torch.randn(2, 3, 7), torch.randn(2, 2, 3, 5, 4)]


def _group_norm(x, w, b, y, z):
    return (F.group_norm(x, 1, w, b), F.group_norm(x, 3, w, b), F.group_norm(x, 6, w, b),
            F.group_norm(x, 2), F.group_norm(x, 3, w, None) * 2,
            F.group_norm(y, 2, w[:4], b[:4], eps=1e-3), F.group_norm(z, 3, w, b),
            F.group_norm(x.transpose(2, 3), 3, w, b), torch.relu(F.group_norm(x, 2, w, b)) + x)


@case
def group_norm_forms():
    # native_group_norm: 1, some and every channel per group, without
    # affine, rank 3 and rank 2 inputs, odd spatial sizes, batch 3, a
    # transposed input, chained into elementwise ops
    return _group_norm, [torch.randn(3, 6, 5, 7), torch.rand(6) + 0.5, torch.randn(6),
                         torch.randn(2, 4, 9), torch.randn(5, 6)]


def _dtypes_and_empty(d, h, e):
    return (F.interpolate(d, size=(5, 3), mode="bilinear"),
            F.interpolate(d, scale_factor=1.3, mode="bilinear", align_corners=True),
            F.interpolate(h, size=(5, 7), mode="bilinear"), F.interpolate(h, size=(2, 7)),
            F.interpolate(e, size=(5, 3), mode="bilinear"), F.interpolate(e, size=(2, 7)),
            F.adaptive_avg_pool2d(e, (3, 2)), F.group_norm(e, 3),
            F.group_norm(d, 2), F.adaptive_avg_pool2d(d, (3, 5)))


@case
def resize_f64_bf16_and_empty_batch():
    # f64 tables computed in double; bf16 computed in f32 and rounded;
    # a batch of 0
    return _dtypes_and_empty, [torch.randn(2, 4, 3, 4, dtype=torch.float64),
                               torch.randn(1, 2, 3, 4, dtype=torch.bfloat16),
                               torch.randn(0, 3, 4, 5)]


@case
def adaptive_max_pool3d_indices():
    # the indices of a 3-d adaptive max pool (decompose_pool.c; once refused)
    return (lambda v: F.adaptive_max_pool3d(v, (2, 3, 2), return_indices=True)), \
        [torch.randn(1, 2, 3, 5, 4)]


def _nan_max(x):
    return (F.adaptive_max_pool2d(x, (1, 2), return_indices=True)
            + F.max_pool2d(x, (1, 3), stride=(1, 2), return_indices=True)
            + F.adaptive_max_pool1d(x[0], 2, return_indices=True))


@case
def max_pool_indices_last_nan():
    # a window with two NaNs: PyTorch's index is the last one's (val > max
    # || isnan(val)); the lowering gave the first's
    nan = float("nan")
    return _nan_max, [torch.tensor([[[[nan, 1.0, nan, 2.0, 5.0], [3.0, nan, 0.5, nan, nan]]]])]
