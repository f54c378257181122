"""Regression cases of the index and scatter family (decompose_idx.c):
scatter_reduce, _index_put_impl, index_put with bool masks, masked_scatter,
count_nonzero, bucketize, tril/triu_indices, repeat_interleave,
embedding_bag, against PyTorch eager (see regress.py)."""
import torch
from cases import case

MODES = ("sum", "prod", "mean", "amax", "amin")


def _scatter_reduces(x, i, s):
    outs = []
    for m in MODES:
        for incl in (True, False):
            outs.append(x.scatter_reduce(1, i, s, m, include_self=incl))
    return tuple(outs)


@case
def scatter_reduce_every_mode_f32():
    # duplicate targets, an index narrower than self off dim and shorter
    # than src; every reduction with and without self
    x = torch.randn(4, 5, 3)
    i = torch.tensor([[[0, 4, 4], [4, 0, 1]], [[2, 2, 2], [3, 0, 3]],
                      [[1, 1, 0], [1, 1, 1]]])
    return _scatter_reduces, [x, i, torch.randn(3, 4, 5)]


def _scatter_reduce_ints(x, i, s, y, j, t):
    outs = list(_scatter_reduces(x, i, s))
    # dim 0 and -1 of int64; src non-contiguous
    for m in MODES:
        outs.append(y.scatter_reduce(0, j, t.t(), m, include_self=False))
        outs.append(y.scatter_reduce(-1, j, t.t(), m))
    return tuple(outs)


@case
def scatter_reduce_int32_int64_floor_mean():
    # mean of ints is floored (negative sums too); prod and amax/amin of ints
    x = torch.randint(-9, 9, (2, 4, 1), dtype=torch.int32)
    i = torch.tensor([[[3], [3], [0]], [[1], [3], [3]]])
    s = torch.randint(-9, 9, (2, 3, 1), dtype=torch.int32)
    y = torch.randint(-50, 50, (3, 3))
    j = torch.tensor([[0, 2, 2], [0, 0, 1]])
    return _scatter_reduce_ints, [x, i, s, y, j, torch.randint(-50, 50, (3, 2))]


def _scatter_reduce_f64(x, i, s):
    outs = []
    for m in MODES:
        outs.append(x.scatter_reduce(0, i, s, m))
        outs.append(x.scatter_reduce(0, i, s, m, include_self=False).exp() * 2)
    return tuple(outs)


@case
def scatter_reduce_f64_nan_inf_extent_one():
    # NaN and inf in src and self propagate as PyTorch's; an index of extent 1
    x = torch.tensor([[1.0, float("nan"), -2.0], [0.5, 3.0, float("inf")]], dtype=torch.float64)
    i = torch.tensor([[1, 0, 1]])
    s = torch.tensor([[float("-inf"), 2.0, float("nan")]], dtype=torch.float64)
    return _scatter_reduce_f64, [x, i, s]


def _puts(x, i, v, y, j, k, w, z, u):
    a = torch.ops.aten._index_put_impl(x, (i,), v, True)
    b = torch.ops.aten._index_put_impl(x, (i[:3],), v[:3], False)
    c = torch.ops.aten._index_put_impl(y, (None, j, k), w, True)
    d = torch.ops.aten._index_put_impl(y, (None, j[0]), torch.tensor(7.0), False)
    e = torch.index_put(z, (u,), torch.tensor(5, dtype=z.dtype), accumulate=True)
    return a, b, c * 2 + 1, d, e


@case
def index_put_impl_accumulate_and_none():
    # _index_put_impl_ accumulating duplicates, unique indices without
    # accumulate, a None entry, negative indices, int64 accumulation
    x = torch.randn(6)
    i = torch.tensor([5, -1, 0, 5, 2])
    y = torch.randn(2, 3, 4)
    j = torch.tensor([[0, 2], [1, 2]])
    k = torch.tensor([3, -4])
    z = torch.randint(-5, 5, (4, 2))
    u = torch.tensor([1, 1, 3])
    return _puts, [x, i, torch.randn(5), y, j, k, torch.randn(2, 2, 2), z, u]


def _masks(x, m, v, y, n, w, p, q, r, s):
    a = x.clone()
    a[m] = v                            # [K, 4] rows in order
    b = torch.index_put(x, (m,), v, accumulate=True)
    c = y.clone()
    c[n] = w                            # a 2-d mask, [K] values
    d = x.clone()
    d[p, q] = r                         # int index with a bool mask
    e = x.clone()
    e[p, s] = r                         # a mask with one true, broadcast
    f = torch.index_put(y, (n,), w[0], accumulate=True)   # one row for all
    return a, b, c, d + 1, e, f


@case
def index_put_bool_masks():
    # a mask over leading dims taking a value per selected element, with
    # and without accumulate; 2-d mask; a mask among int indices
    x = torch.randn(5, 4)
    m = torch.tensor([True, False, True, True, False])
    y = torch.randn(2, 3, 2)
    n = torch.tensor([[True, False, True], [False, False, True]])
    p = torch.tensor([4, 0, 2])
    q = torch.tensor([False, True, True, True])
    s = torch.tensor([False, False, True, False])
    return _masks, [x, m, torch.randn(3, 4), y, n, torch.randn(3, 2), p, q,
                    torch.randn(3), s]


def _masked_scatters(x, m, s, y, n, t):
    return x.masked_scatter(m, s), y.masked_scatter(n, t) * 3, x.masked_scatter(m, s.t())


@case
def masked_scatter_broadcast_and_ints():
    # the mask broadcast over rows; source larger than needed and read
    # flat, also non-contiguous; int64 self
    x = torch.randn(3, 4)
    m = torch.tensor([True, False, True, True])
    y = torch.randint(-9, 9, (2, 3))
    n = torch.tensor([[False, True, True], [True, False, False]])
    return _masked_scatters, [x, m, torch.randn(4, 3), y, n, torch.randint(-9, 9, (5,))]


def _counts(x, y, b, z, c):
    return (torch.count_nonzero(x), torch.count_nonzero(x, dim=1), torch.count_nonzero(x, (0, 2)),
            torch.count_nonzero(y, -1), torch.count_nonzero(y > 0),
            torch.bucketize(z, b), torch.bucketize(z, b, right=True),
            torch.bucketize(c, b.to(torch.int64), out_int32=True),
            torch.bucketize(c[0, 0], b, right=True))


@case
def count_nonzero_and_bucketize():
    # NaN counts as nonzero; bucketize on ties both sides, NaN past the
    # end, int32 output, int input against float boundaries, a 0-d input
    x = torch.tensor([[[0.0, 1.0], [float("nan"), 0.0]], [[-0.0, 2.0], [3.0, 0.0]]])
    y = torch.randint(-2, 2, (3, 5))
    b = torch.tensor([-1.0, 0.0, 0.0, 2.5])
    z = torch.tensor([[-2.0, -1.0, 0.0, 1.0], [2.5, 3.0, float("nan"), -0.0]])
    return _counts, [x, y, b, z, torch.randint(-3, 4, (2, 3))]


def _tri(x):
    return (torch.tril_indices(4, 3) + x, torch.triu_indices(5, 7, -2), torch.tril_indices(3, 6, 2),
            torch.triu_indices(4, 4, 5), torch.tril_indices(1, 1, dtype=torch.int32),
            torch.triu_indices(3, 3, 1, dtype=torch.int32) * 2)


@case
def tril_triu_indices_offsets():
    # offsets positive, negative and past the end (an empty result), int32
    return _tri, [torch.tensor(1)]


def _repeats(x, r, w, i, o):
    a = x.repeat_interleave(3, dim=1)
    b = torch.repeat_interleave(r, output_size=9)
    c = x.repeat_interleave(2)
    bag = torch.ops.aten._embedding_bag(w, i, o)[0]
    e = torch.nn.functional.embedding_bag(i, w, o, mode="sum") + 1
    return a, b, c.exp(), bag, e


@case
def repeat_interleave_and_embedding_bag():
    # constant repeats along a dim and flat; a repeats tensor with zeros
    # and output_size; sum bags, one empty
    return _repeats, [torch.randn(2, 3), torch.tensor([2, 0, 4, 3], dtype=torch.int32),
                      torch.randn(10, 3), torch.tensor([1, 9, 9, 0, 4, 2]),
                      torch.tensor([0, 2, 2, 5])]


@case(refuse="'aten.bincount' is not supported by the backend contract")
def bincount_refused():
    # the result size depends on the data
    return (lambda x: torch.bincount(x, minlength=8)), [torch.tensor([1, 3, 3, 0])]


class _OneHot(torch.nn.Module):
    # traced (graph="torch"): make_fx cannot capture one_hot, which reads
    # the data's max; traced, it imports as aten.one_hot
    def forward(self, x, y, z, e):
        F = torch.nn.functional
        return (F.one_hot(x, 6), F.one_hot(y, 4), F.one_hot(z, 3), F.one_hot(e, 2),
                F.one_hot(x.t(), 5)[1:])


@case(graph="torch")
def one_hot_constant_classes():
    # classes 0 and n - 1 at the edges, 2-D, 0-D and empty inputs, a
    # transposed view; the result is int64
    return _OneHot(), [torch.tensor([[0, 4, 1], [3, 4, 2]]), torch.tensor([3, 0, 0, 1, 2]),
                       torch.tensor(2), torch.zeros(0, 3, dtype=torch.int64)]
