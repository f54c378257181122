"""Regression cases of the sequence family (issue 19): the list producers
nn.LSTM and nn.GRU make (unsafe_split, unsafe_chunk, ...), sort, topk and
their relatives, against PyTorch eager (see regress.py)."""
import torch
from cases import case


def _splits(x):
    a = torch.unsafe_split(x, 3, 1)                 # 3, 3, 1
    b = torch.unsafe_split_with_sizes(x, [2, 0, 5], 1)
    c = torch.unsafe_chunk(x, 4, 1)                 # 2, 2, 2, 1
    d = x.split([1, 2], 0)
    e = x.chunk(3, -1)                              # 2, 2, 1
    f = x.transpose(0, 2).split(2, dim=1)           # a non-contiguous input
    g = x.unbind(2)
    return (a[0] * a[2], a[1] + 1, b[0].exp(), b[1], b[2] - 1, c[3] * c[0][:, :1],
            d[0], d[1].sum(0), e[2], e[0] - e[1], f[3], f[0] * 2, g[4])


@case
def unsafe_split_and_friends():
    # unsafe_split.Tensor + ListUnpack stopped at the backend contract
    # (nn.LSTM's gates); the other list producers through the same path
    return _splits, [torch.randn(3, 7, 5)]


def _split_edges(x, y):
    return torch.unsafe_split(x, 1, 0) + torch.unsafe_split(y, 4, 1) + y.split(2, 0)


@case
def unsafe_split_size_one_and_zero():
    # pieces of extent 1, a piece of extent 0 (one empty piece), an empty input
    return _split_edges, [torch.randn(2, 1, 3), torch.randn(0, 3)]
