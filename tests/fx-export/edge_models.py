"""Small models that exercise the corners of the format: slices, inf,
symbolic sizes, tensor constants, non-float weights, integer inputs and
nested outputs.  Factories return (module, example_inputs)."""

import torch
from torch import nn


class Corners(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(10, 4, padding_idx=0)
        self.register_buffer("mask", torch.tensor([True, False, True, False]))
        self.register_buffer("half_scale", torch.full((4,), 0.5, dtype=torch.bfloat16))

    def forward(self, x, idx):
        e = self.emb(idx)                                   # [2, 3, 4], int64 input
        y = x[:, 1:3]                                       # slice
        z = torch.clamp(x, min=-float("inf"), max=2.5)      # inf argument
        n = x.size(0)                                       # symbolic size at torch level
        w = x.reshape(n, -1) * self.half_scale.float()
        w = w.masked_fill(self.mask, 0.0) + torch.tensor([1.0, 2.0, 3.0, 4.0])
        return y, {"sum": e.sum(dim=1) + z, "w": w}


def corners():
    torch.manual_seed(0)
    return Corners().eval(), (torch.randn(2, 4), torch.randint(0, 10, (2, 3)))


class ChannelsLastStrided(nn.Module):
    """as_strided over a channels-last copy of its input: it reads that
    copy's storage, a layout that make_fx's functionalization loses (the
    trace would apply it to the row-major input and read other values)."""

    def forward(self, x):
        x = x.contiguous(memory_format=torch.channels_last)
        return torch.ops.aten.as_strided.default(x, (1, 4, 5, 3), (60, 15, 3, 1), 0)


def channels_last_strided():
    return ChannelsLastStrided(), (torch.arange(60, dtype=torch.float32).reshape(1, 3, 4, 5),)


class ShiftingStrided(nn.Module):
    """as_strided whose storage offset changes at each call: no trace
    gives eager's values on the next call, so the export is refused."""

    def __init__(self):
        super().__init__()
        self.calls = 0

    def forward(self, x):
        self.calls += 1
        return torch.ops.aten.as_strided.default(x * 2, (2, 2), (1, 2), self.calls % 3)


def shifting_strided():
    return ShiftingStrided(), (torch.arange(12, dtype=torch.float32),)
