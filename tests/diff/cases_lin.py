"""Regression cases of decompose_lin.c: diagonals, eye, linspace, windows,
shuffles, rot90, aminmax, addbmm, det and slogdet, linalg_cross, against
PyTorch eager (see regress.py)."""
import torch
from cases import case


def _diagonals(x, y):
    # x [3, 4, 5], y [4, 6]; t: a non-contiguous view of x
    t = x.transpose(0, 2)
    return (torch.diagonal(x), torch.diagonal(x, 1, 2, 0), torch.diagonal(x, -2, -1, -3),
            torch.diagonal(x, 3, 1, 2), torch.diagonal(x, 7, 1, 2),     # one, none
            torch.diagonal(x, -1, 0, 1).exp() * 2,                      # a chain
            torch.diagonal(t, 0, 1, 2), torch.diagonal(y, 2),
            torch.diag(y), torch.diag(y, -3), torch.diag(y, 5), torch.diag(t[0]))


@case
def diagonal_offsets_dims_views():
    # offsets past either edge (one element, none), dims in either order,
    # negative dims, a transposed input, a chain after the view
    return _diagonals, [torch.randn(3, 4, 5), torch.randn(4, 6)]


def _embeds(v, w, i, b):
    return (torch.diag(v), torch.diag(v, 2), torch.diag(v, -1), torch.diag(v[::2]),
            torch.diag_embed(w), torch.diag_embed(w, 1, 0, 2), torch.diag_embed(w, -2, 2, 0),
            torch.diag_embed(w.transpose(0, 1), 0, -1, -3) + 1,
            torch.diag_embed(i, -1), torch.diag(i[0], 1), torch.diag_embed(b, 1),
            torch.diag(v[:1]), torch.diag(v[:0], 1))


@case
def diag_embed_and_1d_diag():
    # 1-D diag with offsets, a strided input; diag_embed with dims in any
    # order, negative dims, offsets; int64 and bool; sizes 1 and 0
    return _embeds, [torch.randn(5), torch.randn(2, 3), torch.randint(-9, 9, (2, 4)),
                     torch.rand(3, 2) > 0.5]


def _traces(x, i, j, e, f):
    return (torch.trace(x), torch.trace(x.t()), torch.trace(i), torch.trace(j),
            torch.trace(e), torch.trace(f), torch.trace(x[:1, :1]) * 3)


@case
def trace_float_int_empty():
    # non-square, transposed, int64 and int32 (sum in int64), empty f32 and
    # int64, 1x1
    return _traces, [torch.randn(3, 5), torch.randint(-99, 99, (4, 4)),
                     torch.randint(-99, 99, (3, 2), dtype=torch.int32),
                     torch.zeros(0, 0), torch.zeros(0, 0, dtype=torch.int64)]


def _eyes(x):
    return (torch.eye(3) + x, torch.eye(3, 5, dtype=torch.int64), torch.eye(4, 2, dtype=torch.float64),
            torch.eye(2, dtype=torch.bool), torch.eye(1), torch.eye(0), torch.eye(3, 0),
            torch.eye(3, dtype=torch.int32) * 7)


@case
def eye_and_eye_m_dtypes():
    # default f32, int64, f64, bool, int32; n or m 0 and 1
    return _eyes, [torch.randn(3, 3)]


def _linspaces(x):
    return (torch.linspace(-10.1, 10.1, 10) + x[0], torch.linspace(0.1, 0.7, 3000),
            torch.linspace(-3.7, 123.3, 333), torch.linspace(5, -2, 7),
            torch.linspace(2.5, -7.25, 64, dtype=torch.float64),
            torch.linspace(0, 100, 37, dtype=torch.float64),
            torch.linspace(1, 30, 40, dtype=torch.int64),
            torch.linspace(-10.1, 10.1, 10, dtype=torch.int64),
            torch.linspace(0, 10, 12, dtype=torch.int64),
            torch.linspace(3, -50, 17, dtype=torch.int32),
            torch.linspace(-7, 100, 333, dtype=torch.int16),
            torch.linspace(-1.5, 2.5, 1), torch.linspace(-1.5, 2.5, 1, dtype=torch.int64),
            torch.linspace(-1.5, 2.5, 0), torch.linspace(-1.5, 2.5, 2), torch.linspace(4, 4, 9))


@case
def linspace_dtypes_and_steps():
    # eager's kernel to the bit: f32, f64 and integer dtypes (truncated,
    # from both ends, in vector blocks), steps 0, 1, 2, end below start
    return _linspaces, [torch.randn(10)]


def _hann(x):
    return (torch.hann_window(20) * x, torch.hann_window(20, periodic=False),
            torch.hann_window(7, dtype=torch.float64), torch.hann_window(1),
            torch.hann_window(1, periodic=False), torch.hann_window(0), torch.hann_window(2),
            torch.hann_window(2, periodic=False))


@case
def hann_window_periodic_sizes():
    # periodic and symmetric, sizes 0, 1, 2, odd, f64
    return _hann, [torch.randn(20)]


def _crosses(a, b, c, d, i, j):
    return (torch.linalg.cross(a, b), torch.linalg.cross(c, d, dim=1),
            torch.linalg.cross(d, c, dim=-3), torch.linalg.cross(i, j),
            torch.linalg.cross(a.double(), b.double()),
            torch.linalg.cross(c.transpose(0, 2), d.transpose(0, 2), dim=1) * 2)


@case
def linalg_cross_broadcast_dims():
    # broadcast batch dims, dim positive and negative, int64, f64, a
    # transposed input in a chain
    return _crosses, [torch.randn(1, 4, 3), torch.randn(5, 4, 3), torch.randn(2, 3, 1, 2),
                      torch.randn(1, 3, 4, 1), torch.randint(-9, 9, (2, 3)),
                      torch.randint(-9, 9, (2, 3))]


def _shuffles(x, y, z, i):
    return (torch.nn.functional.channel_shuffle(x, 3), torch.nn.functional.channel_shuffle(y, 1),
            torch.nn.functional.channel_shuffle(x.transpose(2, 3), 2) + 1,
            torch.nn.functional.channel_shuffle(z, 2),
            torch.nn.functional.pixel_shuffle(y, 2), torch.nn.functional.pixel_shuffle(i, 2),
            torch.nn.functional.pixel_unshuffle(x, 1), torch.nn.functional.pixel_unshuffle(z, 2),
            torch.nn.functional.pixel_unshuffle(torch.nn.functional.pixel_shuffle(y, 2), 2),
            torch.nn.functional.pixel_shuffle(i[0], 2))


@case
def channel_pixel_shuffles():
    # groups 1 and 3, ranks 3 to 5, factor 1, int64, a transposed input,
    # shuffle then unshuffle
    return _shuffles, [torch.randn(2, 6, 4, 4), torch.randn(1, 8, 3, 5),
                       torch.randn(2, 2, 4, 6, 2), torch.randint(-9, 9, (2, 12, 3, 1))]


def _rots(x):
    return tuple(torch.rot90(x, k, d) for k, d in
                 [(1, [0, 1]), (2, [1, 2]), (3, [0, 2]), (-1, [2, 0]), (-5, [-1, -2]),
                  (6, [0, 1]), (0, [1, 0]), (4, [0, 2])]) + (torch.rot90(x.transpose(0, 1)) * 2,)


@case
def rot90_every_turn():
    # k from -5 to 6, dims in either order and negative, a transposed input
    return _rots, [torch.randn(2, 3, 5)]


def _aminmax(x, i, s):
    a = torch.aminmax(x)
    b = torch.aminmax(x, dim=1)
    c = torch.aminmax(x, dim=-1, keepdim=True)
    d = torch.aminmax(i, dim=0)
    e = torch.aminmax(s)
    f = torch.aminmax(x, keepdim=True)
    return a + b + c + d + e + f


@case
def aminmax_dims_nan_int():
    # all dims, one dim, keepdim, negative dim, NaN propagates, int64, 0-dim
    x = torch.randn(3, 4, 5)
    x[1, 2, 3] = float("nan")
    return _aminmax, [x, torch.randint(-99, 99, (4, 3)), torch.tensor(2.5)]


def _addbmm(s, b1, b2, v, i, j, k, e1, e2):
    return (torch.addbmm(s, b1, b2, beta=0.0, alpha=2.0), torch.addbmm(s, b1, b2, beta=0.5),
            torch.addbmm(v, b1, b2), torch.addbmm(v, b1[:1], b2[:1], beta=-1, alpha=0.25),
            torch.addbmm(k, i, j, beta=2, alpha=3), torch.addbmm(s, e1, e2, beta=2.0),
            # int64 with float scales: eager truncates them (1.5 -> 1, -2.7 -> -2)
            torch.addbmm(k, i, j, beta=1.5, alpha=-2.7), torch.addmm(k, i[0], j[0], beta=2.9, alpha=0.5),
            torch.baddbmm(k.expand(3, 2, 5), i, j, beta=-1.5, alpha=3.99))


@case
def addbmm_beta_zero_nan_int_empty():
    # beta 0 ignores NaN and inf in self; a broadcast self; batch 1 and 0;
    # int64 with integer scales, and with float ones (truncated as eager does)
    s = torch.randn(2, 7)
    s[0, 0], s[1, 3] = float("nan"), float("inf")
    return _addbmm, [s, torch.randn(5, 2, 9), torch.randn(5, 9, 7), torch.randn(7),
                     torch.randint(-9, 9, (3, 2, 4)), torch.randint(-9, 9, (3, 4, 5)),
                     torch.randint(-9, 9, (2, 5)), torch.randn(0, 2, 3), torch.randn(0, 3, 7)]


def _dets(a, b, c, d, e):
    s1, l1 = torch.linalg.slogdet(b)
    s2, l2 = torch.linalg.slogdet(c)
    s3, l3 = torch.linalg.slogdet(e)
    return (torch.linalg.det(a), torch.linalg.det(b), torch.linalg.det(c), torch.linalg.det(d),
            torch.linalg.det(e), torch.linalg.det(b.transpose(-1, -2)) * 2,
            s1, l1, s2, l2, s3, l3)


@case
def det_slogdet_pivoting_singular():
    # 1x1 to 5x5, two batch dims, f64; a zero leading entry (needs a row
    # swap), a singular matrix (det 0, sign 0, logabsdet -inf), negative
    # determinants, empty matrices (det 1)
    c = torch.randn(4, 3, 3, dtype=torch.float64)
    c[0, 0, 0] = 0
    c[1, :, 1] = 0
    c[2, 2] = c[2, 0] * 2
    return _dets, [torch.randn(2, 1, 1), torch.randn(2, 3, 5, 5), c,
                   torch.randn(2, 0, 0), torch.tensor([[0.0, 1.0], [1.0, 0.0]])]


def _expand_copy(x, y):
    return (torch.ops.aten.expand_copy(x, [3, 2, 4]), torch.ops.aten.expand_copy(y, [2, -1, 3]) + 1)


@case
def expand_copy_sizes():
    # expanded dims of 1, a new leading dim, -1 keeps a size
    return _expand_copy, [torch.randn(3, 2, 1), torch.randn(4, 1)]


class _Bilinear(torch.nn.Module):
    # traced (graph="torch"): aten.bilinear stays itself (make_fx would
    # decompose it in PyTorch)
    def forward(self, a, b, w, bias, a3, b3, w1, a0, b0):
        B = torch.ops.aten.bilinear
        return (B(a, b, w, bias), B(a, b, w, None), B(a3, b3, w, bias),
                B(a.t().contiguous().t(), b, w, None), B(a, b, w1, None), B(a0, b0, w, bias))


@case(graph="torch")
def bilinear_batches_bias_and_empty():
    # one and two batch dims, with and without a bias, one output, an
    # empty batch, a transposed input
    return _Bilinear(), [torch.randn(6, 3), torch.randn(6, 4), torch.randn(5, 3, 4), torch.randn(5),
                         torch.randn(2, 3, 3), torch.randn(2, 3, 4), torch.randn(1, 3, 4),
                         torch.randn(0, 3), torch.randn(0, 4)]


class _Einsum(torch.nn.Module):
    # traced (graph="torch"): aten.einsum stays itself
    def forward(self, a, b, c, v, w, m3, n3, x):
        E = torch.ops.aten.einsum
        return (E("i,i", [v, w]), E("ij,jk->ik", [a, b]), E("ij,jk", [a, b]),
                E("bij,bjk->bik", [m3, n3]), E("bij,bkj->bki", [m3, m3]),
                E("ij->ji", [a]), E("ij->", [a]), E("i,j->ij", [v, w]),
                E("ij,jkl->ik", [a, c]), E("Ab,bc->cA", [a, b]), E("abc,ac->b", [m3, x]),
                E("ij,ij->i", [a, a.t().contiguous().t()]))


@case(graph="torch")
def einsum_contractions_batches_sums():
    # dot, matmul (explicit and implicit output), batched, transposed,
    # a permutation, a full sum, an outer product, a label summed out of
    # one operand, capital labels, a contraction with a summed label
    return _Einsum(), [torch.randn(3, 4), torch.randn(4, 5), torch.randn(4, 2, 3),
                       torch.randn(6), torch.randn(6), torch.randn(2, 3, 4),
                       torch.randn(2, 4, 5), torch.randn(2, 4)]
