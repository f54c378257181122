"""Regression cases, strided views (issue 19): aten.as_strided and
as_strided_scatter over value tensors, against PyTorch eager.  torch-opt
makes a view chain where the strides allow it, else a gather of flat
indices; fx-import refuses what a value tensor cannot say (an operand
laid out otherwise in eager, an offset into a view's storage)."""
import torch
from cases import case


@case
def as_strided_view_chain():
    # row-major strides: a view; with an offset, a slice of the flat
    # operand; size-1 dims with any stride; a stride-0 dim is an expand;
    # strides row-major in another order, a permute
    return (lambda x: (torch.as_strided(x, (6, 4), (4, 1)),
                       torch.as_strided(x, (2, 5), (5, 1), 3),
                       torch.as_strided(x, (1, 4, 1), (99, 1, 7), 20),
                       torch.as_strided(x, (3, 2, 5), (0, 5, 1), 1),
                       torch.as_strided(x, (), (), 23),
                       # row-major in another order: a permute
                       torch.as_strided(x, (3, 2, 2), (1, 3, 6), 5),
                       torch.as_strided(x, (2, 3, 4), (1, 8, 2)),
                       torch.as_strided(x, (4, 1, 3, 2), (1, 5, 4, 0), 2))), [torch.randn(2, 3, 4)]


@case
def as_strided_gather():
    # transposed (a permute), every other element, overlapping windows
    # (unfold's pattern), batch > 1 with odd extents (gathers)
    return (lambda x: (torch.as_strided(x, (4, 3), (1, 4)),
                       torch.as_strided(x, (3, 4), (8, 2), 1),
                       torch.as_strided(x, (22, 3), (1, 1)),
                       torch.as_strided(x, (2, 3, 3, 2), (12, 3, 1, 2), 0))), \
        [torch.randn(2, 3, 4)]


@case
def as_strided_empty_and_one():
    return (lambda x: (torch.as_strided(x, (0, 3), (3, 1)), torch.as_strided(x, (1,), (1,), 4),
                       torch.as_strided(x, (5, 0), (7, 1), 2))), [torch.randn(5)]


@case
def as_strided_int_and_bool():
    return (lambda a, m: (torch.as_strided(a, (3, 3), (1, 3)), torch.as_strided(m, (2, 2), (2, 1), 1))), \
        [torch.randint(-50, 50, (3, 3), dtype=torch.int32), torch.rand(6) > 0.5]


@case
def as_strided_in_a_chain():
    # on a computed operand, its result consumed elementwise and reduced:
    # the gather fuses with what surrounds it
    return (lambda x: (torch.as_strided(torch.relu(x) + 1, (3, 4, 2), (1, 3, 9), 2) * 2).sum(-1)), \
        [torch.randn(4, 6)]


@case
def as_strided_of_channels_last_pool():
    # adaptive_avg_pool2d to 1x1 of a channels-last tensor restrides its
    # mean with as_strided (convnext_tiny, swin_t)
    return (lambda x: torch.nn.functional.adaptive_avg_pool2d(x.permute(0, 3, 1, 2), 1).flatten(1) * 3), \
        [torch.randn(2, 3, 5, 6)]


@case
def as_strided_scatter_forms():
    return (lambda x, s, t: (torch.as_strided_scatter(x, s, (3, 2), (1, 4), 1),
                             torch.as_strided_scatter(x, t, (2, 2, 2), (6, 2, 1), 0))), \
        [torch.randn(3, 4), torch.randn(3, 2), torch.randn(2, 2, 2)]


@case
def as_strided_past_its_operand():
    # a view of the first rows read past them: PyTorch reads on into the
    # rest of the storage, which fx-import reads as the base's
    return (lambda y: torch.as_strided((y * 1)[:2], (3, 3), (3, 1))), [torch.randn(4, 3)]


@case
def as_strided_of_a_transpose():
    return (lambda x: torch.as_strided(x.t(), (2, 3), (3, 1))), [torch.randn(2, 3)]


@case
def as_strided_offset_into_a_view():
    return (lambda x: torch.as_strided(x[1:], (2,), (1,), 1)), [torch.randn(4)]


@case(refuse="overlapping elements")
def as_strided_scatter_overlap():
    return (lambda x, s: torch.as_strided_scatter(x, s, (2, 2), (1, 1))), \
        [torch.randn(5), torch.randn(2, 2)]


def _restride_in_place(x):
    y = x * 1
    y.as_strided_((3, 2), (1, 3))
    return y + 1


@case
def as_strided_in_place():
    return _restride_in_place, [torch.randn(2, 3)]


class _RestrideInPlace(torch.nn.Module):
    def forward(self, x):
        return _restride_in_place(x)


@case(graph="torch")
def as_strided_in_place_torch_graph():
    # a method call at torch level: as_strided_ gets the same layout check
    return _RestrideInPlace(), [torch.randn(2, 3)]


class _AsStridedOfProduct(torch.nn.Module):
    def forward(self, x):
        return torch.as_strided(x.t() * 1, (2, 3), (3, 1))


@case(refuse="not laid out row-major")
def as_strided_of_a_transposed_product():
    # x.t() * 1 keeps the transposed layout in eager: its storage is x's
    # order, not its own row-major one
    return _AsStridedOfProduct(), [torch.randn(2, 3)]


@case(graph="torch", refuse="not laid out row-major")
def as_strided_of_a_transposed_product_torch_graph():
    return _AsStridedOfProduct(), [torch.randn(2, 3)]


class _RestrideTransposedInPlace(torch.nn.Module):
    def forward(self, x):
        y = x.t() * 1
        y.as_strided_((3, 2), (2, 1))
        return y + 1


@case(graph="torch", refuse="not laid out row-major")
def as_strided_in_place_of_a_transposed_product():
    return _RestrideTransposedInPlace(), [torch.randn(2, 3)]


@case
def as_strided_copy_forms():
    return (lambda x: (torch.as_strided_copy(x, (3, 2), (1, 3)), torch.as_strided_copy(x, (2, 2), (1, 1), 1),
                       torch.as_strided_copy(x, (2, 3), (0, 1)))), [torch.randn(2, 3)]


class _StridedWeight(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.w = torch.nn.Parameter(torch.randn(3, 4))

    def forward(self, x):
        return torch.as_strided(self.w, (4, 3), (1, 4)) + torch.as_strided(self.w, (4, 3), (2, 1), 1) @ x


@case
def as_strided_of_a_weight():
    return _StridedWeight(), [torch.randn(3, 3)]
