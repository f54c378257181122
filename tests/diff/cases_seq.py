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


def _distinct(*shape, dtype=torch.float32):
    # distinct values (a permutation, scaled): the indices of sort and topk
    # are then unique, whatever order PyTorch's unstable sort keeps ties in
    n = 1
    for s in shape:
        n *= s
    x = torch.randperm(n).reshape(shape)
    return (x.to(torch.float64) * 0.37 - n * 0.1).to(dtype) if dtype.is_floating_point \
        else (x - n // 3).to(dtype)


def _sorts(x):
    a = torch.sort(x, dim=1)
    b = torch.sort(x, dim=-1, descending=True)
    c = torch.sort(x, dim=0, descending=True)
    return a[0], a[1], b[0], b[1], c[0], c[1], torch.argsort(x, dim=2), torch.msort(x)


@case
def sort_dims_and_directions():
    # every dim, both directions, values and int64 indices, odd extents
    return _sorts, [_distinct(3, 5, 7)]


def _sort_noncontig(x):
    y = x.transpose(0, 2)[:, 1:, ::2]
    v, i = torch.sort(y, dim=1, descending=True)
    return v * 2, i, torch.cumsum(v, 1), torch.sort(x.exp(), 0)[0]


@case
def sort_of_a_strided_view_and_chains():
    # a transposed, sliced, strided input; sort fused between elementwise
    # ops and cumsum
    return _sort_noncontig, [_distinct(4, 6, 5)]


def _topks(x):
    outs = []
    for k in range(1, x.shape[1] + 1):
        v, i = torch.topk(x, k, dim=1)
        outs += [v, i]
    v, i = torch.topk(x, 2, dim=0, largest=False)
    w, j = torch.topk(x, 3, dim=-1, largest=True, sorted=True)
    return tuple(outs) + (v, i, w, j)


@case
def topk_every_k_largest_and_smallest():
    # k = 1 .. size along dim 1, smallest along dim 0, the last dim
    return _topks, [_distinct(3, 5, 4)]


def _kth(x):
    a = torch.kthvalue(x, 1, dim=1)
    b = torch.kthvalue(x, 5, dim=1, keepdim=True)
    c = torch.kthvalue(x, 2, dim=0)
    return a[0], a[1], b[0], b[1], c[0], c[1]


@case
def kthvalue_first_last_keepdim():
    return _kth, [_distinct(3, 5)]


def _ints(x, u):
    a = torch.sort(x, dim=1, descending=True)
    b = torch.topk(x, 2, dim=1, largest=False)
    c = torch.sort(u, dim=0)
    return a[0], a[1], b[0], b[1], c[0], c[1], torch.cumsum(a[0], 1)


@case
def sort_topk_int64_uint8():
    return _ints, [_distinct(4, 6, dtype=torch.int64), _distinct(6, 2, dtype=torch.uint8)]


def _f64(x):
    v, i = torch.sort(x, -1)
    return v, i, torch.topk(x, 3)[0]


@case
def sort_topk_float64_int32():
    return (lambda x, y: _f64(x) + _f64(y)), [_distinct(2, 9, dtype=torch.float64),
                                             _distinct(3, 4, dtype=torch.int32)]


def _stable(x, b):
    a = torch.sort(x, dim=1, stable=True)
    d = torch.sort(x, dim=1, descending=True, stable=True)
    e = torch.sort(b, dim=0, stable=True)
    f = torch.sort(b, dim=0, descending=True, stable=True)
    return (a[0], a[1], d[0], d[1], e[0], e[1], f[0], f[1],
            torch.argsort(x, dim=1, descending=True, stable=True))


@case
def sort_stable_ties_nan_signed_zero():
    # ties (repeated values, -0.0 and 0.0, NaNs) in input order, NaN last
    # ascending and first descending; bool
    x = torch.tensor([[1.0, float("nan"), -0.0, 2.0, 0.0, 1.0, float("nan"), -1.0],
                      [3.0, 3.0, 3.0, -float("inf"), float("inf"), 3.0, 0.0, -0.0]])
    return _stable, [x, torch.tensor([[True, False], [False, False], [True, True]])]


def _edges(x, y, z):
    a = torch.sort(x, 1)                  # extent 1
    b = torch.sort(y, 0)                  # extent 0
    c = torch.topk(z, 0, dim=1)           # k = 0
    d = torch.sort(z, 0)                  # a dim of extent 1, batch of 7
    return a[0], a[1], b[0], b[1], c[0], c[1], d[0], d[1]


@case
def sort_topk_extent_one_and_zero():
    return _edges, [_distinct(3, 1), torch.randn(0, 4), _distinct(1, 7)]


def _halves(x, y):
    a = torch.sort(x, dim=1, descending=True)
    b = torch.topk(y, 2, dim=0)
    return a[0], a[1], b[0], b[1]


@case
def sort_topk_float16_bfloat16():
    return _halves, [_distinct(3, 6, dtype=torch.float16), _distinct(5, 2, dtype=torch.bfloat16)]


class _Rnn(torch.nn.Module):
    def __init__(self, rnn):
        super().__init__()
        self.rnn = rnn

    def forward(self, x):
        out = self.rnn(x)
        h = out[1][0] if isinstance(out[1], tuple) else out[1]
        return out[0], h


@case
def lstm_bidirectional_seq_first():
    return _Rnn(torch.nn.LSTM(5, 6, bidirectional=True).eval()), [torch.randn(4, 3, 5)]


@case
def lstm_proj_size_batch_one():
    return _Rnn(torch.nn.LSTM(5, 6, proj_size=3, batch_first=True).eval()), [torch.randn(1, 1, 5)]


@case
def gru_no_bias_bidirectional_two_layers():
    return _Rnn(torch.nn.GRU(5, 4, num_layers=2, bias=False, bidirectional=True,
                             batch_first=True).eval()), [torch.randn(3, 5, 5)]


class _TwoRnns(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = _Rnn(torch.nn.RNN(5, 4, num_layers=2))
        self.b = _Rnn(torch.nn.RNN(5, 4, nonlinearity="relu"))

    def forward(self, x):
        return self.a(x) + self.b(x)


@case
def rnn_tanh_and_relu():
    return _TwoRnns().eval(), [torch.randn(3, 2, 5)]
