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
