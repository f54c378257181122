"""Regression cases: reductions (see regress.py)."""
import torch
from cases import case


@case
def sum_dim0_of_1x4():
    # a reduction over a size-1 dimension: the accumulator must be initialised
    return (lambda x: torch.sum(x, 0)), [torch.randn(1, 4)]
