"""Regression cases: torch-lower (see regress.py)."""
import torch
import torch.nn.functional as F
from cases import case


@case
def var_long_offset():
    # two-pass variance: an f32 mean of a long reduction is off by enough
    # to swamp the variance; the sums accumulate in f64
    return (lambda x: x.var()), [torch.rand(3000000) + 1000]


@case
def std_dim_long_offset():
    return (lambda x: x.std(0)), [torch.rand(3000000, 1) + 1000]


@case
def var_dim_keepdim_biased_long():
    return (lambda x: torch.var(x, 1, unbiased=False, keepdim=True)), \
        [torch.rand(2, 1000003) + 500]


@case
def var_f16():
    return (lambda x: x.var(1)), [torch.rand(3, 5000).half() + 100]


@case
def var_correction_past_n():
    # PyTorch divides by max(0, N - correction)
    return (lambda x: torch.var(x, None, correction=3)), [torch.tensor([1.0, 2.0])]


@case
def avg_pool_int64():
    # int64 averages truncate toward zero (arith.divf on integers before)
    return (lambda x: F.avg_pool2d(x, 2)), [torch.randint(-9, 10, (2, 2, 5, 5))]


@case
def avg_pool_int64_padded():
    return (lambda x: F.avg_pool2d(x, 3, stride=2, padding=1, count_include_pad=False,
                                   ceil_mode=True)), [torch.randint(-9, 10, (2, 2, 5, 5))]


@case
def avg_pool_int64_divisor():
    return (lambda x: F.avg_pool2d(x, 2, divisor_override=3)), \
        [torch.randint(-9, 10, (1, 2, 4, 4))]


@case
def roll_empty_dim():
    # the shift was taken modulo the size 0 (SIGFPE)
    return (lambda x: torch.roll(x, 1, 1)), [torch.randn(3, 0)]


@case
def roll_empty_flattened():
    # the flattening reshape of an empty tensor had no reassociation
    return (lambda x: torch.roll(x, 2)), [torch.randn(0, 3)]


@case
def gather_from_0d():
    # a 0-d self has no dims to index (SIGSEGV)
    return (lambda x, i: torch.gather(x, 0, i)), [torch.tensor(2.0), torch.tensor([0, 0])]


@case
def view_of_empty():
    return (lambda x: x.reshape(3, 0, 2)), [torch.randn(0, 6)]



@case
def flip_0d():
    # flip of a 0-d tensor read the dims of a rank-0 type (SIGSEGV)
    return (lambda x: x.flip(0)), [torch.tensor(2.0)]


@case
def index_select_0d():
    # PyTorch gives the 0-d self back; it was refused
    return (lambda x: torch.index_select(x, 0, torch.tensor([0]))), [torch.tensor(2.0)]


@case
def repeat_empty():
    # repeat of an empty dim indexed with `mod 0`
    return (lambda x: x.repeat(2, 1, 1)), [torch.randn(3, 0)]


@case
def full_with_device():
    # full's device operand (torch.constant.device) was "not a constant"
    return (lambda x: x + torch.full((2, 3), 7, dtype=torch.int64)), \
        [torch.randint(0, 4, (2, 3))]


@case
def arange_float_step():
    return (lambda x: x + torch.arange(-3, 9, 2.5)[:4]), [torch.randn(4)]


@case
def arange_negative_step():
    return (lambda x: x + torch.arange(10, 2, -3)), [torch.randint(0, 4, (3,))]


@case
def reflection_pad_negative():
    # negative reflection pads crop, as PyTorch allows
    return (lambda x: F.pad(x, (-1, 2), mode="reflect")), [torch.randn(2, 3, 5)]


@case
def replication_pad_negative():
    return (lambda x: F.pad(x, (-2, 1, 0, 3), mode="replicate")), [torch.randn(1, 2, 5, 6)]


@case
def float_to_int16_wraps():
    # PyTorch converts through int32 and wraps; a direct fptosi to i16
    # was poison out of range (70000.0 came out 70000 after a widening)
    return (lambda x: x.to(torch.int16).to(torch.int32)), \
        [torch.tensor([-1.0, 300.0, 70000.0, -129.5, 255.9, 3.7, -3.7, 0.0])]


@case
def float_to_uint8_wraps():
    return (lambda x: x.to(torch.uint8).to(torch.int32)), \
        [torch.tensor([-1.0, 300.0, -129.5, 255.9, 3.7, 0.0])]


@case
def scatter_0d():
    # a 0-d self has no dims to size the index by (SIGSEGV)
    return (lambda x, i, s: x.scatter(0, i, s)), \
        [torch.tensor(1.0), torch.tensor(0), torch.tensor(5.0)]


@case
def scatter_add_0d():
    return (lambda x, i, s: x.scatter_add(0, i, s)), \
        [torch.tensor(1.0), torch.tensor(0), torch.tensor(5.0)]


@case
def grouped_conv2d():
    # grouped convolution (issue 16 saw 'tensor.expand_shape %x  :' printed)
    return torch.nn.Conv2d(4, 6, 3, groups=2, padding=1), [torch.randn(2, 4, 7, 5)]


@case
def depthwise_conv1d_empty_batch():
    return torch.nn.Conv1d(4, 4, 3, groups=4), [torch.randn(0, 4, 9)]


@case
def index_put_broadcast_scalar_value():
    # a 0-d value left the update loops over self's other dims with no
    # operand giving their extent: invalid linalg (found by fuzz-diff)
    return (lambda x, i: torch.index_put(x, (i,), torch.ones(()))), \
        [torch.randn(5, 3), torch.randint(0, 5, (4,))]


@case
def index_put_into_empty_and_broadcast_rows():
    return (lambda x, i, y, j, v: (torch.index_put(x, (i,), torch.ones(())),
                                   torch.index_put(y, (j,), v, accumulate=True))), \
        [torch.randn(5, 0), torch.randint(0, 5, (16,)), torch.randn(5, 3),
         torch.randint(0, 5, (4, 2)), torch.randn(4, 1, 3)]


@case
def relu_clamp_keep_negative_zero():
    # relu, clamp, relu6 and hardtanh keep -0.0 as PyTorch does (max(-0, 0)
    # gave +0.0: rsqrt of it was +inf, eager's -inf; found by fuzz-diff)
    z = torch.tensor([-0.0, -1.5, 0.0, 2.5, float("nan"), 7.0])
    return (lambda x: (torch.rsqrt(torch.relu(x)), torch.rsqrt(torch.clamp(x, min=0.0)),
                       torch.rsqrt(F.relu6(x)), torch.rsqrt(F.hardtanh(x)),
                       torch.clamp(x, max=-0.0))), [z]


@case
def index_put_shares_the_dims_taken_whole():
    # index_put's fold looped over the update's slice dims as well as the
    # output's: O(|out| |updates|), 1.9e11 steps for a [34,102,51] bool
    # x[idx16x13] = True (fuzz-diff: a kernel that ran for hours).  The
    # dims taken whole are now the output's own loops
    def f(x, i, y, a, b, z, j):
        return (torch.index_put(x, (i,), torch.ones((), dtype=torch.bool)),
                # non-adjacent indices: the batch dims go first
                torch.ops.aten.index_put(y, [a, None, b], torch.arange(50.).reshape(5, 10)),
                torch.index_put(y, (a, b), torch.ones(5, 7), accumulate=True),
                # only the second dim indexed
                torch.ops.aten.index_put(z, [None, j], torch.tensor(-1.0)))
    return f, [torch.rand(34, 102, 51) > 0.5, torch.randint(-34, 34, (16, 13)),
               torch.randn(6, 10, 7), torch.tensor([0, 5, 1, 0, -1]),
               torch.tensor([6, 0, 2, 6, 3]), torch.randn(3, 8, 2), torch.tensor([7, 0, -3])]


def _floor_div(a, b, h, bh, d, bd):
    return (torch.div(a, b, rounding_mode="floor"), a // b, torch.floor_divide(a, 0.1),
            a[:, ::2] // b.t().contiguous().t()[:, 1::2], torch.div(h, bh, rounding_mode="floor"),
            torch.div(d, bd, rounding_mode="floor"), torch.remainder(a, b))


@case
def floor_divide_float_as_pytorch():
    # PyTorch rounds the exact quotient down (from fmod): 1 // 0.1 is 9 where
    # floor(1 / 0.1) is 10, inf // 2 is NaN, x // 0 is x / 0, a zero result
    # keeps the quotient's sign; f32, f64, f16 (computed in f32), strided (not
    # quotients past the float range: PyTorch 1.13's vectorized fmod gives NaN)
    inf, nan = float("inf"), float("nan")
    a = torch.tensor([[1.0, -1.0, inf, -inf, nan, 0.0, -0.0, 5.5],
                      [7.0, -7.0, 0.3, 1e30, -1e-30, 3.0, 2.0, 1e-45],
                      [0.5, -0.5, 6.0, -6.0, 1.0, 9.0, inf, 0.0]])
    b = torch.tensor([[0.1, 0.1, 2.0, 2.0, 1.0, -3.0, 3.0, -2.0],
                      [0.0, 0.0, 0.1, 1e-3, 3.0, -0.0, inf, 1.0],
                      [-inf, inf, 0.3, 0.3, -0.1, 0.3, -inf, -0.0]])
    r = torch.randn(257, 31) * 100
    return _floor_div, [torch.cat([a, r[:3, :8]]), torch.cat([b, r[3:6, :8] + 0.5]),
                        (r[:4, :8] * 3).half(), (r[4:8, :8] + 0.25).half(),
                        r.double() * 1e3, torch.randn(257, 31, dtype=torch.float64) * 7]
