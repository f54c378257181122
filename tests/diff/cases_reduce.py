"""Regression cases: reductions (see regress.py)."""
import torch
import torch.nn.functional as F
from cases import case


@case
def sum_dim0_of_1x4():
    # a reduction over a size-1 dimension: the accumulator must be initialised
    return (lambda x: torch.sum(x, 0)), [torch.randn(1, 4)]


@case
def cumsum_that_cancels_to_zero():
    # eager accumulates an f32 cumsum in f64: 2/3 + 2/3 - 4 * 1/3 is 0
    # there and sqrt of it 0; an f32 running sum ended an ulp below 0 and
    # sqrt gave NaN (found by fuzz-diff)
    x = torch.tensor([1., 1., -2., -1., -1., 0., -1., 0.]).reshape(8, 1).repeat(1, 3)
    return (lambda x: torch.sqrt(torch.cumsum(F.hardswish(x), 0))), [x]


@case
def prod_that_reaches_zero_before_it_overflows():
    # prod over rows: eager multiplies row by row and reaches the 0 of row
    # 15 long before 30^26 overflows f32; a product split across vector
    # lanes multiplied the other rows first, to inf, and inf * 0 gave NaN
    # (found by fuzz-diff)
    x = torch.full((64, 13), 30.0)
    x[15] = 0.0
    x[3] = -2.0
    return (lambda x: torch.prod(x, 0)), [x]


@case
def bf16_log_softmax_rounds_once():
    # eager computes an f16/bf16 (log_)softmax in f32 and rounds once; the
    # decomposition rounded x - amax, exp, the sum and its log to bf16 on
    # the way: log_softmax 8 bf16 ulps off, 0.875 for 0.9375 after
    # squaring and a cancelling add (found by fuzz-diff)
    x = torch.tensor([-3.625, -2.625, 2.625, 1.375, -0.5, -1.875, 2.625, 2.375, -3.625,
                      3.625, 0.375, -3.0, 2.125, -2.0, 2.0, 3.125, -1.75, -1.375, 1.25,
                      -0.75, 3.625, -1.875, -2.125, 1.125, 3.375, -2.625, 0.375, -0.125,
                      3.375, -1.875, 1.75]).reshape(31, 1)
    return (lambda x, y: (torch.log_softmax(x, 0) ** 2 + y, torch.softmax(x * 3, 0))), \
        [x.bfloat16(), torch.tensor(-3.375).bfloat16()]
