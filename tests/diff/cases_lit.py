"""Regression cases of the decompositions changed to torch-mlir's forms
(decompose_idx.c repeat_interleave, decompose_linalg.c matmul's bmm) and
of decompose_lit.c, against PyTorch eager (see regress.py).  argmax,
argmin, mean.dim and mish decompose only in a standalone torch-decompose
(the pipeline keeps those contract ops); the cases here hold the pipeline
to eager with them in it."""
import torch
from cases import case


def _interleave(x, r32, r64, one, empty):
    a = torch.repeat_interleave(r32, output_size=12)        # int32, zeros
    b = torch.repeat_interleave(r64, output_size=9)         # int64
    c = torch.repeat_interleave(one, output_size=5)         # extent 1
    d = torch.repeat_interleave(empty, output_size=0)       # extent 0
    e = x.transpose(0, 1).repeat_interleave(r64, dim=0, output_size=9)
    f = x.repeat_interleave(2, dim=0)
    return a, b, c * 2, d, e.exp(), f


@case
def repeat_interleave_forms():
    # repeats of int32 and int64, with zeros; extents 1 and 0; repeats of
    # a dim of a non-contiguous (transposed) input, batch 3
    return _interleave, [torch.randn(3, 4),
                         torch.tensor([2, 0, 7, 3], dtype=torch.int32),
                         torch.tensor([1, 0, 3, 5]),
                         torch.tensor([5]),
                         torch.zeros(0, dtype=torch.int64)]


def _bmms(a, b, c, d, e, f, g, h, i, j):
    return (torch.matmul(a, b), torch.matmul(a[:, 1:], b), torch.matmul(c, d),
            torch.matmul(e, f), torch.matmul(g, h), torch.matmul(i, j))


@case
def matmul_3d_equal_batches():
    # bmm of batch 3 with odd extents, of a non-contiguous operand; batch 1
    # and an empty inner extent; float64 and int64
    return _bmms, [torch.randn(3, 5, 7), torch.randn(3, 4, 7).transpose(1, 2),
                   torch.randn(1, 1, 1), torch.randn(1, 1, 3),
                   torch.randn(2, 3, 0), torch.randn(2, 0, 4),
                   torch.randn(2, 3, 5, dtype=torch.float64),
                   torch.randn(2, 5, 3, dtype=torch.float64),
                   torch.randint(-9, 9, (3, 2, 5)), torch.randint(-9, 9, (3, 5, 1))]


def _reductions(x, y, h):
    return (torch.argmax(x), torch.argmin(x, 1, keepdim=True), torch.argmax(y, -1),
            x.mean((0, -1)), x.transpose(0, 2).mean(1, keepdim=True), y.mean(),
            torch.nn.functional.mish(x * 12), h.mean(1), h.mean((0, 1)))


@case
def argmax_mean_mish_through_the_pipeline():
    # contract ops the standalone pass decomposes: with ties and NaN
    # (argmax takes the first), mish past its threshold 20, f16 means,
    # odd extents
    x = torch.randn(3, 5, 7)
    x[1, 2, 3] = float("nan")
    y = torch.tensor([[1.0, 3.0, 3.0], [2.0, 2.0, 0.0]])
    return _reductions, [x, y, torch.randn(4, 3).half()]


def _bn_bf16(x, y, z, m, v, w, b):
    # as float: an f32 result is compared to f32's tolerance, which sees
    # one bf16 rounding step (bf16's own tolerance would not)
    f = torch.nn.functional.batch_norm
    return (f(x, m, v, w, b, False, 0.1, 1e-5).float(),
            # strided, no affine: eager rounds each step for a strided input
            # (its contiguous kernel alone computes in f32), so bf16's tolerance
            f(y.transpose(2, 3), m, v, None, None, False, 0.1, 1e-3),
            f(y, m, v, None, None, False, 0.1, 1e-3).float(),
            f(z, m, v, w, b, False, 0.1, 1e-5).float(),
            f(x[:0], m, v, w, b, False, 0.1, 1e-5))


@case
def batch_norm_bfloat16_computes_in_float():
    # eager computes a bf16 batch norm in f32 and rounds once: ranks 3 and
    # 4 (batch 4, batch 1, odd extents), a transposed input, no affine,
    # an empty batch
    bf = torch.bfloat16
    return _bn_bf16, [(torch.randn(4, 3, 97) * 4).to(bf), torch.randn(1, 3, 5, 3).to(bf),
                      torch.randn(2, 3).to(bf), torch.randn(3).to(bf),
                      (torch.rand(3) + 0.1).to(bf), torch.randn(3).to(bf), torch.randn(3).to(bf)]
