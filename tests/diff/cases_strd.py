"""Regression cases, as_strided of views (torch-mlir's AtenAsStridedAfter*
tests): as_strided reads its operand's STORAGE, which for a view is its
base's, from the view's own storage offset when none is given.  fx-import
(tools/fx-import/strided.c) follows each view back to the tensor that owns
the storage with PyTorch's stride and offset rules; each case reads
through views of every kind with non-trivial strides and offsets, with and
without an explicit storage_offset, against PyTorch eager."""
import torch
from cases import case

S = torch.as_strided


@case
def as_strided_of_permuted_views():
    # permute, transpose, t, movedim, numpy-style .T of a 3-d and a 2-d
    # input: the strides asked for read the base in another order
    return (lambda x, y: (S(x.permute(2, 0, 1), (3, 4), (4, 1), 5),
                          S(x.transpose(0, 2), (2, 2, 3), (1, 12, 4)),
                          S(y.t(), (3, 2), (1, 3)),
                          S(torch.movedim(x, 0, 2), (4, 3), (1, 4)),
                          S(x.permute(2, 1, 0), (4, 3, 2), (1, 4, 12), 0),
                          S(x.transpose(1, 2).transpose(0, 1), (5,), (5,), 1))), \
        [torch.randn(2, 3, 4), torch.randn(2, 3)]


@case
def as_strided_of_slices_inherits_their_offset():
    # no storage_offset: the slice's own (start * stride), steps, negative
    # starts, narrow; with one: absolute in the base's storage
    return (lambda x: (S(x[1:3], (2, 3), (6, 1)),
                       S(x[:, 1:5:2], (2, 2), (30, 2)),
                       S(x[..., 2::3], (3, 2), (6, 3)),
                       S(x[-2:, 3:], (2, 2), (7, 1)),
                       S(torch.narrow(x, 2, 1, 3), (4, 3), (30, 2)),
                       S(x[1:, 2:4, ::2], (3, 4), (1, 3), 0),
                       S(x[2:][1:], (5,), (1,)),
                       S(x[:, :, 5:], (2, 3), (30, 6)))), [torch.randn(4, 5, 6)]


@case
def as_strided_of_select_diagonal_unfold():
    # select adds index * stride; diagonal offset*stride of dim2 (dim1 for
    # a negative offset), a joint stride; unfold's window dim
    return (lambda x, v: (S(x.select(1, 2), (2, 3), (20, 1)),
                          S(x[:, -1], (3,), (7,)),
                          S(torch.diagonal(x, 1, 1, 2), (3, 2), (5, 6)),
                          S(torch.diagonal(x, -2, 2, 1), (2, 2), (21, 1)),
                          S(torch.diagonal(x[0], 0), (4,), (6,)),
                          S(v.unfold(0, 3, 2), (3, 2), (2, 1)),
                          S(v[1:].unfold(0, 4, 3), (2, 3), (3, 2)),
                          S(v.unfold(0, 2, 2).select(0, 3), (2,), (1,)))), \
        [torch.randn(2, 4, 5), torch.randn(11)]


@case
def as_strided_of_expand_squeeze_and_views():
    # expand (stride 0, a new leading dim of size 1), broadcast_to,
    # expand_as, unsqueeze/squeeze, view/reshape/flatten/unflatten of a
    # slice (keeping its offset); a reshape that copies owns its storage
    return (lambda x, r: (S(r.expand(3, 4), (3, 3), (0, 1), 1),
                          S(torch.broadcast_to(r[:, 1:], (2, 3)), (2, 2), (1, 1)),
                          S(r.expand_as(x[:2, 0, :4]).unsqueeze(0)[:, :, 1:], (2,), (2,)),
                          S(x[1:].squeeze(1).unsqueeze(2), (2, 5), (5, 1)),
                          S(x[1:].view(2, 5), (3, 3), (3, 1)),
                          S(x[2].reshape(5), (2, 2), (1, 2)),
                          S(x[1:].flatten(), (4,), (2,)),
                          S(torch.unflatten(x[1:].flatten(), 0, (5, 2)), (3, 2), (2, 1), 4),
                          S(x[:, :, 1:].reshape(-1), (2, 3), (3, 1)),
                          S(x.flatten()[:4].view(1, 4).expand(1, 1, 4)[:, 1:1], (2,), (1,)))), \
        [torch.randn(3, 1, 5), torch.randn(1, 4)]


@case
def as_strided_nested_detach_and_a_fused_chain():
    # as_strided of as_strided (no offset: the inner one's), of alias and
    # detach, its result through elementwise ops and a reduction
    def f(x):
        a = S(x, (4, 3), (2, 1), 3)
        b = S(a, (3, 3), (1, 2))
        c = S(x[1:].detach(), (2, 5), (1, 2))
        d = S(torch.ops.aten.alias(x.t()), (3, 4), (4, 1), 2)
        return b, c, ((torch.relu(S(x.t()[1:], (3, 3), (1, 4))) + 1) * 2).sum(-1), d
    return f, [torch.randn(4, 5)]


class _ChannelsLast(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.w = torch.nn.Parameter(torch.randn(2, 3, 2, 4).contiguous(memory_format=torch.channels_last),
                                    requires_grad=False)

    def forward(self, x):
        a = x.contiguous(memory_format=torch.channels_last)
        b = x.to(memory_format=torch.channels_last)
        return (S(a, (2, 5, 3), (15, 3, 1), 2), S(b[1], (4, 3), (1, 4)),
                S(self.w, (2, 8, 3), (24, 3, 1)), S(self.w[:, 1:], (3, 4), (1, 3)))


@case
def as_strided_of_channels_last_copies_and_weights():
    # a channels-last copy of the input (contiguous and .to), a sliced
    # copy, a channels-last weight: their storage is NHWC
    return _ChannelsLast(), [torch.randn(2, 3, 4, 5)]


@case
def as_strided_of_a_non_contiguous_input():
    # an input laid out transposed in eager: its storage is in that order
    return (lambda x: (S(x, (4, 3), (3, 1)), S(x[1:], (2, 2), (1, 3)))), \
        [torch.randn(3, 4).t()]


@case
def as_strided_of_views_int_f64_bool_empty():
    return (lambda a, d, m: (S(a.t()[1:], (2, 2), (3, 1)),
                             S(d[:, 1], (3,), (2,)),
                             S(m.permute(1, 0), (2, 3), (1, 2)),
                             S(a[1:], (0, 2), (1, 1)),
                             S(d.select(0, 2), (1, 1), (1, 1)))), \
        [torch.randint(-50, 50, (3, 3), dtype=torch.int32), torch.randn(4, 3, dtype=torch.float64),
         torch.rand(3, 2) > 0.5]


class _TransposeTorchLevel(torch.nn.Module):
    def forward(self, x):
        return S(x.transpose(0, 1).narrow(0, 1, 2), (2, 3), (1, 3))


class _ChunkAsStrided(torch.nn.Module):
    def forward(self, x):
        return S(x.chunk(2)[1], (2,), (1,), 0)


@case(graph="torch")
def as_strided_of_a_view_torch_graph():
    return _TransposeTorchLevel(), [torch.randn(3, 4)]


@case(refuse="addresses past the last element")
def as_strided_of_a_split_piece_past_it():
    # a split piece is a view this importer does not follow: read over
    # its own elements, past them is refused (PyTorch reads on in x)
    return (lambda x: S(torch.split(x * 1, 2)[0], (3, 3), (3, 1))), [torch.randn(4, 3)]


@case(refuse="storage offset is unknown")
def as_strided_of_a_split_piece_with_an_offset():
    # split's pieces are views this importer does not follow (the offset
    # is x's: read over the piece it would be a wrong result)
    return (lambda x: (S(torch.split(x, 3)[1], (2,), (1,), 0),)), [torch.randn(6)]


@case(graph="torch", refuse="storage offset is unknown")
def as_strided_of_a_chunk_with_an_offset_torch_graph():
    return _ChunkAsStrided(), [torch.randn(6)]


@case(refuse="not laid out row-major")
def as_strided_of_a_view_of_a_transposed_product():
    # x.t() * 1 keeps the transposed layout in eager; not proven here
    return (lambda x: S((x.t() * 1)[1:], (2, 2), (2, 1))), [torch.randn(2, 3)]


def _random_chain(rng, x):
    """A chain of 1 to 4 views of x drawn by rng, then an as_strided that
    stays inside x's storage: a list of functions, checked on x."""
    steps = []
    t = x
    for _ in range(rng.randint(1, 4)):
        r = t.dim()
        kind = rng.choice(["slice", "select", "permute", "transpose", "unsqueeze", "expand",
                           "squeeze", "diagonal", "unfold", "narrow", "view", "detach", "as_strided"])
        d = rng.randrange(r) if r else 0
        n = t.shape[d] if r else 0
        if kind == "slice" and r and n:
            a, e, s = rng.randint(-n, n - 1), rng.randint(0, n + 1), rng.randint(1, 3)
            f = lambda t, d=d, a=a, e=e, s=s: t[(slice(None),) * d + (slice(a, e, s),)]
        elif kind == "select" and r and n:
            i = rng.randint(-n, n - 1)
            f = lambda t, d=d, i=i: t.select(d, i)
        elif kind == "permute" and r:
            p = list(range(r))
            rng.shuffle(p)
            f = lambda t, p=p: t.permute(*p)
        elif kind == "transpose" and r:
            e = rng.randrange(r)
            f = lambda t, d=d, e=e: t.transpose(d, e)
        elif kind == "unsqueeze":
            u = rng.randint(-r - 1, r)
            f = lambda t, u=u: t.unsqueeze(u)
        elif kind == "expand" and 1 in t.shape:
            shape = [3 if s == 1 and rng.random() < 0.7 else -1 for s in t.shape]
            f = lambda t, shape=shape: t.expand(*shape)
        elif kind == "squeeze":
            f = (lambda t: t.squeeze()) if rng.random() < 0.5 or not r else (lambda t, d=d: t.squeeze(d))
        elif kind == "diagonal" and r >= 2:
            e = rng.choice([k for k in range(r) if k != d])
            o = rng.randint(-2, 2)
            f = lambda t, d=d, e=e, o=o: torch.diagonal(t, o, d, e)
        elif kind == "unfold" and r and n:
            size, step = rng.randint(1, n), rng.randint(1, 2)
            f = lambda t, d=d, size=size, step=step: t.unfold(d, size, step)
        elif kind == "narrow" and r and n:
            a = rng.randint(0, n - 1)
            ln = rng.randint(0, n - a)
            f = lambda t, d=d, a=a, ln=ln: torch.narrow(t, d, a, ln)
        elif kind == "view" and t.is_contiguous() and t.numel():
            f = lambda t: t.view(-1)
        elif kind == "detach":
            f = lambda t: t.detach()
        elif kind == "as_strided" and t.numel():
            f = lambda t: torch.as_strided(t, (2, 2), (1, 2))
        else:
            continue
        try:
            t2 = f(t)
        except (RuntimeError, IndexError):
            continue
        if t2.dim() > 6 or t2.numel() == 0 and rng.random() < 0.7:
            continue
        t = t2
        steps.append(f)
    room = x.numel() - t.storage_offset()
    size = (rng.randint(1, 3), rng.randint(1, 3))
    stride = (rng.randint(0, 7), rng.randint(0, 4))
    ext = (size[0] - 1) * stride[0] + (size[1] - 1) * stride[1]
    if ext >= x.numel():
        size, ext = (1, 1), 0
    off = None if ext < room and rng.random() < 0.7 else rng.randint(0, x.numel() - 1 - ext)
    return steps, size, stride, off


def _apply_chains(chains):
    def f(x):
        out = []
        for steps, size, stride, off in chains:
            t = x * 1
            for s in steps:
                t = s(t)
            out.append(S(t, size, stride) if off is None else S(t, size, stride, off))
        return tuple(out)
    return f


@case
def as_strided_of_random_view_chains():
    # 32 chains of views drawn with a fixed seed, none refused: each
    # as_strided's result against eager (offsets and strides of every kind)
    import random
    rng = random.Random(19)
    x = torch.randn(4, 5, 6)
    chains = [_random_chain(rng, x) for _ in range(32)]
    return _apply_chains(chains), [x]


@case
def arange_out_keeps_the_shape_of_out():
    # arange(out=x) with x of as many elements keeps x's shape (PyTorch
    # writes it row-major); functionalization's trace restrides x with
    # as_strided_ and returns the 1-d arange, so the plain trace is taken
    return (lambda x, y: (torch.arange(1, 13, out=x) * 2, torch.arange(10, -2, -2, out=y) + 0.5)), \
        [torch.zeros(3, 4, dtype=torch.int64), torch.zeros(2, 1, 3, dtype=torch.float64)]


@case
def as_strided_of_empty_inputs():
    # an input with an extent of 0 has PyTorch's contiguous strides, an
    # extent of 0 stepping as 1 ([4, 0, 33]: (33, 33, 1)); fx-import took
    # them for another layout and refused (found by tests/diff/fuzz.py)
    return (lambda x, y: (torch.as_strided(x, [3, 0], [1, 1]), torch.as_strided(y, [0], [1]),
                          torch.as_strided(x.transpose(0, 2), [2, 0, 1], [1, 1, 1]))), \
        [torch.zeros(4, 0, 33, dtype=torch.int64), torch.zeros(0, 5)]
