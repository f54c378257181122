"""Regression cases of complex tensors (complex64, complex128), against
PyTorch eager (see regress.py): fx-import computes them as pairs of reals
(tools/fx-import/complex.c), vmrun reads and writes them as complex .npy.
Also torch.norm's aten.norm forms (lib/torch/decompose_cplx.c)."""
import torch
from cases import case


def _c(*shape, dtype=torch.complex64):
    return torch.randn(*shape, dtype=dtype)


def _views(x, y):
    r = torch.view_as_real(x)
    t = x.transpose(0, 1)[1:, ::2]           # a non-contiguous view, odd step
    return (r * 2, x.real + 1, x.imag, torch.view_as_complex(y), t,
            x.unsqueeze(-1), x.reshape(5, 3), x.permute(1, 0), torch.flip(x, [-1]),
            x[-1], x[:, -2], x.conj() * x, x.neg(), x.clone())


@case
def complex_views_parts_conj():
    # view_as_real / view_as_complex, real, imag, negative dims, slices with
    # a step, reshape, permute, flip, select, conj (as x * conj(x)), neg
    return _views, [_c(3, 5), torch.randn(4, 2)]


def _arith(a, b, r, i, s):
    return (a * b, a + r, a - b, r * a, b * b, i * a, a + a, (a * b).real, a * s, s.abs(),
            torch.view_as_real(s))


@case
def complex_mul_add_sub_promoted():
    # complex64 * complex128 (promoted), broadcasting [2, 3] with [3], real
    # and int64 operands, a chain that fuses into a real result, a 0-d one
    return _arith, [_c(2, 3), _c(3, dtype=torch.complex128), torch.randn(2, 3),
                    torch.randint(-3, 4, (2, 3)), torch.randn((), dtype=torch.complex64)]


def _mags(x, y):
    return (x.abs(), x.angle(), torch.linalg.vector_norm(x), torch.linalg.vector_norm(x, 1, (0, 2)),
            torch.linalg.vector_norm(x, float("inf"), -1, keepdim=True),
            torch.linalg.vector_norm(y, 3, 1), torch.norm(x), torch.norm(x, dim=1, keepdim=True),
            torch.norm(y.abs(), p=1, dim=[0]), y.abs().sum(0))


@case
def complex_abs_angle_norms():
    # abs, angle, vector norms (2, 1, inf, 3) over all / some / negative
    # dims with keepdim, torch.norm; complex128; an empty dim of size 0
    return _mags, [_c(2, 3, 5), _c(0, 4, dtype=torch.complex128)]


def _empty_inf_norms(e, f):
    inf = float("inf")
    return (torch.norm(e, inf), torch.norm(e, -inf), torch.norm(f, inf, 1),
            torch.norm(f, -inf, 1, keepdim=True), torch.norm(f, inf, 0), torch.norm(f, 3, 1))


@case
def norm_inf_of_nothing():
    # torch.norm's inf and -inf norms over no elements are 0 (the max or min
    # of no magnitudes; eager's linalg.vector_norm refuses them): found by
    # tests/diff/fuzz.py, the pipe gave the reduction's -inf
    return _empty_inf_norms, [torch.randn(0), torch.randn(3, 0)]


def _make(re, im, m, a, c, f, i):
    z = torch.complex(re, im)
    p = torch.polar(m.abs(), a)
    return (z, p, torch.cat([c, f, i], 1), torch.cat([c.to(torch.complex128), c], 0),
            torch.hstack([c, c]), z * p.to(torch.complex128))


@case
def complex_create_polar_cat():
    # torch.complex (f64), torch.polar (f32), cat promoting f32 and int64
    # operands to complex64, complex64 and complex128 operands
    return _make, [torch.randn(4, dtype=torch.float64), torch.randn(4, dtype=torch.float64),
                   torch.randn(4), torch.randn(4), _c(2, 1, 3), torch.randn(2, 2, 3),
                   torch.randint(-5, 5, (2, 3, 3))]


def _rffts(x, y, w):
    return (torch.fft.rfft(x), torch.fft.rfft(x, dim=0), torch.fft.rfft(x, norm="ortho"),
            torch.fft.rfft(y, norm="forward"), torch.fft.rfft(w), torch.fft.rfft2(x),
            torch.fft.rfft(x).abs() * 2)


@case
def rfft_dims_norms_sizes():
    # rfft along the last and the first dim, odd (7) and even (6) lengths,
    # a length of 1, every norm mode, f64, a batch, rfft2 (its other dim a
    # complex DFT), and a chain on the result
    return _rffts, [torch.randn(6, 7), torch.randn(3, 4, 8, dtype=torch.float64),
                    torch.randn(5, 1)]


def _stft(x, w):
    return torch.stft(x, 8, hop_length=3, window=w, center=True, return_complex=True)


@case
def stft_batch_window():
    # torch.stft: framing (as_strided), a window, rfft of each frame
    return _stft, [torch.randn(2, 40), torch.hann_window(8)]


def _unsupported(x):
    return torch.exp(x)


@case(refuse="on complex tensors is not supported")
def complex_exp_refused():
    # an op on complex values that has no rule: a clear refusal
    return _unsupported, [_c(3)]


def _quant(x, i8, u8, i32, zp):
    a = torch.quantize_per_tensor(x, 0.04, -110, torch.qint8)
    b = torch.quantize_per_tensor(x * 3, 0.1, 7, torch.quint8)        # saturates both ends
    c = torch.quantize_per_tensor(x, 1e-3, 100000, torch.qint32)
    d = torch._make_per_tensor_quantized_tensor(i8, 0.0215, -25)
    e = torch._make_per_tensor_quantized_tensor(u8, 0.5, 200)
    f = torch._make_per_tensor_quantized_tensor(i32, 1.25, -3)
    g = torch._make_per_channel_quantized_tensor(i8, torch.tensor([0.5, 0.25, 2.0]), zp, 0)
    h = torch._make_per_channel_quantized_tensor(i8.t(), torch.tensor([0.3, 0.7, 1.1]), torch.zeros(3, dtype=torch.int64), 1)
    return (a.int_repr(), b.int_repr(), c.int_repr(), a.dequantize(), b.dequantize() * 2,
            d.dequantize().relu(), e.dequantize(), f.dequantize(), g.dequantize(), h.dequantize())


@case
def quantize_dequantize_int_repr():
    # qint8, quint8 (saturating both ends), qint32; per-tensor and per-channel
    # (axis 0, and 1 of a transposed input) dequantize; chains after it
    return _quant, [torch.randn(3, 5) * 4, torch.randint(-128, 128, (3, 4), dtype=torch.int8),
                    torch.randint(0, 256, (2, 5), dtype=torch.uint8),
                    torch.randint(-1000, 1000, (7,), dtype=torch.int32),
                    torch.tensor([0, -3, 5])]


def _quant_out(x):
    return torch.quantize_per_tensor(x, 0.1, 0, torch.qint8)


@case(refuse="the graph returns a quantized tensor")
def quantized_result_refused():
    # a quantized result: npy cannot carry its scale and zero point
    return _quant_out, [torch.randn(4)]


def _ffts(z, x):
    return (torch.fft.fft(z), torch.fft.ifft(z, dim=0), torch.fft.fft2(z, norm="ortho"),
            torch.fft.ifft(x).resolve_conj(), torch.fft.fft(x, norm="forward"),
            torch.fft.ifft(torch.fft.fft(z)))


@case
def fft_ifft_complex_and_real():
    # _fft_c2c forward and inverse (every norm), over one and two dims, of a
    # complex64 input; fft and ifft of a float64 input; a round trip
    return _ffts, [_c(3, 5), torch.randn(2, 6, dtype=torch.float64)]


def _special(a, b, r):
    return (a + b, a - b, a * b, a + r, r + a, a - r, r - a, a * r, r * a, a + a,
            a * 2.5, a + 2.5, a - 2.5, a.abs(), torch.view_as_real(a.conj() * a), a.angle())


@case
def complex_inf_nan_parts_as_eager():
    # inf and NaN in either part: eager's kernels compute a + b as a + (1,0) b
    # and a real operand as (r, 0), so (NaN, 1) + (NaN, 1) is (NaN, NaN) and
    # (1, inf) * 2 is (NaN, inf); a fuzz-diff program found (NaN, y) + (NaN, y)
    # computed as (NaN, 2y)
    v = [0.0, -0.0, 1.5, -2.0, float("inf"), float("-inf"), float("nan")]
    re = torch.tensor([p for p in v for q in v])
    im = torch.tensor([q for p in v for q in v])
    a = torch.complex(re, im)
    b = torch.complex(im.flip(0), re)
    r = torch.tensor([p for p in v for q in v]).roll(3)
    return _special, [a, b, r]


@case
def complex_inf_nan_parts_as_eager_c128():
    v = [0.0, 1.5, float("inf"), float("-inf"), float("nan")]
    re = torch.tensor([p for p in v for q in v], dtype=torch.float64)
    im = torch.tensor([q for p in v for q in v], dtype=torch.float64)
    a = torch.complex(re, im)
    return _special, [a, a.flip(0) * 1j, re.roll(2)]
