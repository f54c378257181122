"""Regression cases: the front end, fx-export, fx-import and torch-opt
(see regress.py)."""
import torch
import torch.nn.functional as F
from cases import case


def _slice_write(x, z):
    y = x.clone()
    y[:, 1:3] = z
    return y


@case
def slice_copy_into_clone():
    # copy_ into a slice of a clone: the write was dropped
    return _slice_write, [torch.randn(4, 5), torch.randn(4, 2)]


@case
def pad_circular():
    # circular padding writes into slices of a new_empty tensor
    return (lambda x: F.pad(x, (1, 2), mode="circular")), [torch.randn(1, 2, 5)]


def _select_write(x, z):
    y = x.clone()
    y[0] = z
    return y


@case
def select_copy_into_clone():
    return _select_write, [torch.randn(3, 4), torch.randn(4)]


def _strided_write(x, z):
    y = x.clone()
    y[..., ::2] = z
    return y


@case
def strided_slice_write():
    return _strided_write, [torch.randn(2, 3, 5), torch.randn(2, 3, 3)]


def _negative_write(x, z):
    y = x * 2
    y[1:, -3:-1] = z
    y[-1] = 7.0
    return y


@case
def negative_slice_and_fill_write():
    return _negative_write, [torch.randn(3, 5), torch.randn(2, 2)]


def _masked_write(x):
    y = x.clone()
    y[y > 0] = 0.5
    return y


@case
def masked_write():
    # y[mask] = scalar: index_put with a boolean mask, a where
    return _masked_write, [torch.randn(3, 4)]


def _inplace_input(x):
    x.add_(1)
    return x * 2


@case
def inplace_op_on_input():
    return _inplace_input, [torch.randn(3, 4)]


def _inplace_view(x):
    y = x.clone()
    y[1].mul_(3)
    y.t()[0].add_(1)
    return y


@case
def inplace_op_on_views():
    return _inplace_view, [torch.randn(3, 4)]


def _inplace_promotes(x, d, i, j):
    y = x.clone()
    y.add_(d)
    y.mul_(d)
    k = i.clone()
    k.add_(j)
    return y, k


@case
def inplace_op_computes_in_promoted_dtype():
    # f32 += f64 adds in f64 and rounds once to f32: 1 + (2^-24 + 2^-50) is
    # 1 + 2^-23, where adding f32(d) = 2^-24 would tie to 1; int32 += int64
    # wraps in int32 after adding in int64
    x = torch.ones(4)
    d = torch.full((4,), 2.0 ** -24 + 2.0 ** -50, dtype=torch.float64)
    i = torch.tensor([2 ** 31 - 1, -5, 7, 0], dtype=torch.int32)
    j = torch.tensor([1, 2 ** 33 + 3, -7, 2 ** 32], dtype=torch.int64)
    return _inplace_promotes, [x, d, i, j]


def _masked_add(x):
    y = x.clone()
    y[x[:, 0] > 0] += 2.0
    return y


@case(refuse="only static integer index tensors are supported")
def masked_accumulate_rows():
    # x[mask] has a data-dependent size: refused, never a wrong result
    return _masked_add, [torch.randn(5, 3)]


def _ints(*shape):
    return torch.randint(-5, 5, shape)


@case
def addmm_int_float_scales():
    # integer addmm with float beta/alpha: PyTorch truncates the scales to
    # int and keeps int64; the decomposition made the result float
    return (lambda a, b, c: torch.addmm(a, b, c, beta=2.5, alpha=-1.5)), \
        [_ints(2, 3), _ints(2, 4), _ints(4, 3)]


@case
def baddbmm_int32_float_scales():
    return (lambda a, b, c: torch.baddbmm(a, b, c, beta=2.0, alpha=3.0)), \
        [_ints(2, 2, 3).int(), _ints(2, 2, 4).int(), _ints(2, 4, 3).int()]


def _u8(*shape):
    return torch.randint(0, 256, shape, dtype=torch.uint8)


@case
def to_uint8_result():
    # the result was int8: values over 127 read back negative
    return (lambda x: x.to(torch.uint8)), [torch.rand(3, 4) * 250]


@case
def uint8_arith():
    # ui8 in and out; division, comparison, max, conversions unsigned
    return (lambda x, y: ((x // 3) + (x > 100).to(torch.uint8),
                          x.float() / 2, torch.maximum(x, y), torch.minimum(x, y),
                          x.to(torch.int32) - 200, x < y, x.to(torch.int16) * 300,
                          y % 7, x.sum(1), x.amax(0))), [_u8(3, 4), _u8(3, 4)]


@case
def uint8_with_int_and_float():
    # promotion: ui8 with int64 is int64, with a float scalar float
    return (lambda x, i: (x + i, x * 1.5, x - 1, x.max(), x.argmax())), \
        [_u8(2, 5), torch.randint(-9, 9, (2, 5))]


@case
def floor_divide_signed():
    # floor_divide had no decomposition; floor (not trunc) on negatives
    return (lambda x, y, f: (torch.floor_divide(x, y), x // 3, f // 0.7)), \
        [torch.randint(-20, 20, (3, 4)), torch.randint(1, 5, (3, 4)), torch.randn(3, 4)]


@case
def clamp_int_with_float_bounds():
    # clamp promotes self with its bounds: int64 clamped to 0.5..3.5 is
    # float; torch-opt inferred int64 and refused the graph
    return (lambda x: (x.clamp(0.5, 3.5), x.clamp_min(1.5), x.clamp_max(2.5),
                       x.clamp(min=2))), [torch.randint(0, 9, (3, 4))]


@case
def where_int_with_float_scalar():
    # where(c, int, 2.5) makes a scalar_tensor, which had no decomposition
    return (lambda c, x: torch.where(c > 0, x, 2.5)), \
        [torch.randn(3, 4), torch.randint(0, 9, (3, 4))]


@case
def index_with_int64_tensor():
    # x[i]: index.Tensor's list holds a derefine, which the contract refused
    return (lambda x, i: (x[i], x[:, i[2:]])), [torch.randn(5, 3), torch.tensor([1, 4, 0])]


def _put_cols(x, i, v):
    y = x.clone()
    y[:, i] = v
    return y


@case(refuse="needs functionalization")
def index_put_cols_unfunctionalizable():
    # torch 1.13 cannot functionalize y[:, i] = 0-dim tensor; unfunctionalized
    # the write into the view was lost; now fx-import refuses the graph
    return _put_cols, [torch.randn(3, 5), torch.tensor([0, 4]), torch.tensor(2.0)]


@case
def arange_forms():
    # arange(end) and arange(start, end) had no decomposition
    return (lambda x: (torch.arange(4) * 1.5 + x, torch.arange(2, 6) + x,
                       torch.arange(0.5, 4.0) + x)), [torch.randn(3, 4)]


@case
def bf16_inputs_and_results():
    # bf16 in and out (pipe.py passes them raw: .npy has no bf16)
    return (lambda x, y: (x * 2 + y, (x.float() * y.float()).sum(1).bfloat16())), \
        [torch.randn(3, 4).bfloat16(), torch.randn(3, 4).bfloat16()]


@case
def uint8_any_all():
    # any/all of uint8 are uint8 in PyTorch; torch-opt inferred bool and
    # refused the graph
    return (lambda x: (x.any(), x.all(1), x.any(0, keepdim=True))), \
        [torch.randint(0, 3, (3, 4), dtype=torch.uint8)]


def _u8_mask_put(x, m):
    y = x.clone()
    y[m] = 0.0
    return y


@case
def uint8_mask_write():
    # a uint8 index is a mask in PyTorch; it was taken as integer indices
    return _u8_mask_put, [torch.randn(4), torch.tensor([1, 0, 1, 1], dtype=torch.uint8)]


@case(refuse="only static integer index tensors are supported")
def uint8_mask_read():
    # x[uint8 mask]: a data-dependent size, refused (it read rows 0 and 1)
    return (lambda x, m: x[m]), [torch.randn(4, 3), torch.tensor([1, 0, 1, 1], dtype=torch.uint8)]


@case
def index_put_with_empty_index():
    # torch-decompose's mask rule leaked the index list it read (LeakSanitizer
    # under SANITIZE=1; found by fuzz-diff)
    return (lambda x, i: torch.index_put(x, (i,), torch.ones((), dtype=x.dtype))), \
        [torch.randn(0, 3), torch.zeros(0, dtype=torch.int64)]


@case
def uint8_zero_dim_arguments():
    # codegen compared a rank-0 ui8 argument's dims with memcmp(NULL, ..)
    # (UBSan under SANITIZE=1; found by fuzz-diff)
    return (lambda x, y: (x.round(), y * y, y.to(torch.float32) * x)), \
        [torch.tensor(2.5), torch.tensor(200, dtype=torch.uint8)]


class _Conv(torch.nn.Module):
    """F.convNd as a call (symbolic tracing needs a forward without *args)."""

    def __init__(self, fn, w, b, *args):
        super().__init__()
        self.fn, self.w, self.b, self.args = fn, w, b, args

    def forward(self, x):
        return self.fn(x, self.w, self.b, *self.args)


@case(graph="torch")
def conv2d_function():
    # traced, F.conv2d imports as aten.conv2d, which had an inference rule
    # but no decomposition: refused at the backend contract (issue 18)
    return _Conv(F.conv2d, torch.randn(4, 3, 3, 3), torch.randn(4), 2, 1), \
        [torch.randn(1, 3, 8, 8)]


@case(graph="torch")
def conv1d_function():
    return _Conv(F.conv1d, torch.randn(4, 2, 3), None, 1, 0, 1, 2), [torch.randn(2, 4, 8)]


@case
def argmax_all_dims_keepdim():
    # argmax(x, dim=None, keepdim=True) is [1, 1]: inference said rank 0
    return (lambda x: (torch.argmax(x, keepdim=True), torch.argmin(x, keepdim=True),
                       torch.argmax(x))), [torch.randn(3, 4)]


@case
def zero_dim_tensor_with_python_number():
    # a Python number beside a 0-dim tensor is a wrapped number: it ranks
    # below the tensor in promotion (si32 0-dim + 3 is si32, ui8 * 2 is
    # ui8, f16 - 1.5 is f16); decomposed to a 0-dim si64/f32 literal it
    # promoted as an equal and torch-opt refused the graph's types
    return (lambda a, b, h: (torch.add(a, 3), a * 2, torch.sub(a, 7, alpha=2), a / 2,
                             torch.remainder(a, 3), a == 5, b * 2, b + 300, h - 1.5, h * 3,
                             a + 2.5)), \
        [torch.tensor(7, dtype=torch.int32), torch.tensor(200, dtype=torch.uint8),
         torch.tensor(0.75, dtype=torch.float16)]


class _BroadcastTensors(torch.nn.Module):
    # traced (graph="torch"), aten.broadcast_tensors stays the list op
    def forward(self, a, b, c, e):
        r = torch.ops.aten.broadcast_tensors([a, b, c])
        s = torch.ops.aten.broadcast_tensors([e, a[:1, :1]])
        return r[0] * 2, r[1] + 1, r[2].to(torch.float32) - r[0], s[0], s[1]


@case(graph="torch")
def broadcast_tensors_three_and_empty():
    # ranks 1, 2 and 3 into [2, 4, 3]; an int tensor keeps its dtype; a
    # size-0 dim met by a size-1 one
    return _BroadcastTensors(), [torch.randn(4, 3), torch.randn(2, 1, 1),
                                 torch.arange(3, dtype=torch.int32), torch.randn(0, 1)]
