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
