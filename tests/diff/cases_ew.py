"""Regression cases of the elementwise decompositions (lib/torch/decompose_ew.c):
xlogy, the shifts, inverse and hyperbolic trig, logaddexp, the shrinks and
their relatives, against PyTorch eager (see regress.py).  Special values (NaN,
inf, -0.0, out of domain), integer inputs, size 0 and 1, non-contiguous views."""
import math

import torch
import torch.nn.functional as F
from cases import case

A = torch.ops.aten

NAN, INF = float("nan"), float("inf")


def _xlogy(x, y, yi, xi, big):
    return (torch.xlogy(x, y), torch.xlogy(x[:, :1], y.t()),       # broadcast, strided
            torch.xlogy(xi, yi), torch.xlogy(big, big.exp()),       # int -> f32; f64
            F.kl_div(x.log_softmax(-1), y.softmax(-1), reduction="batchmean"))


@case
def xlogy_zero_nan_inf_int_f64():
    # 0 where x == 0 unless y is NaN (then NaN), x log y otherwise, y = inf and 0
    x = torch.tensor([[0.0, 0.0, 0.0, 1.5], [2.0, -1.0, 0.0, 3.0], [0.5, NAN, 1.0, 0.0],
                      [4.0, 0.0, -2.0, 1.0]])
    y = torch.tensor([[NAN, 0.0, INF, 2.0], [0.0, 3.0, -1.0, INF], [1.5, 2.0, NAN, 7.0],
                      [0.25, 5.0, 0.0, 1.0]])
    return _xlogy, [x, y, torch.tensor([[0, 1, 2], [3, 0, 5]], dtype=torch.int32),
                    torch.tensor([[0], [2]]), torch.randn(3, 1, dtype=torch.float64)]


def _shifts(a8, s8, a32, s32, a64, s64, u8, su8):
    return (a8 << s8, a8 >> s8, a32 << s32, a32 >> s32, a64 << s64, a64 >> s64,
            u8 << su8, u8 >> su8, a8 >> 3, a8 >> 7, a8 >> 9, a8 << 9, a32 >> 31, a64 << 5,
            torch.bitwise_left_shift(a32[:, :12], s8 % 8), a8[:, ::2] >> s8[:1, ::2])


@case
def shifts_every_width_and_out_of_range():
    # shift counts from -2 to past the width for 8 bits: 0 (left) or the sign
    # (right) outside [0, width); every count in range for 32 and 64 bits (out
    # of range, eager 1.13 shifts by the count mod the width there, an x86
    # accident later PyTorch replaced by the 8-bit rule); mixed dtypes promote
    def counts(w, dt, n):
        if w > 8:
            return (torch.arange(n) % w).reshape(2, -1).to(dt)
        return (torch.arange(n) % (w + 4) - 2).reshape(2, -1).to(dt)
    a8 = torch.tensor([-128, 127, -1, 5, 0, -77, 100, 3, -5, 64, 1, -2] * 2,
                      dtype=torch.int8).reshape(2, -1)
    a32 = torch.randint(-2**31, 2**31 - 1, (2, 36), dtype=torch.int32)
    a64 = torch.randint(-2**62, 2**62, (2, 68))
    u8 = torch.randint(0, 256, (2, 12), dtype=torch.uint8)
    return _shifts, [a8, counts(8, torch.int8, 24), a32, counts(32, torch.int32, 72),
                     a64, counts(64, torch.int64, 136), u8, counts(8, torch.uint8, 24) % 12]


def _bitwise_scalar(a, b, c):
    return a & 0x5A, a & -1, b & 6, b.bitwise_and(1), c & 0x7F0F, c.t() & 255, a[:0] & 1


@case
def bitwise_and_scalar():
    # int8, bool (& an int promotes to int64), int64 transposed, size 0
    return _bitwise_scalar, [torch.randint(-128, 128, (3, 5), dtype=torch.int8),
                             torch.tensor([True, False, True]),
                             torch.randint(-2**40, 2**40, (4, 3))]


SPECIAL = [0.0, -0.0, 1e-30, -1e-30, 1e-9, -3e-5, 0.3, -0.5, 0.999, -0.9999, 1.0, -1.0,
           1.5, -2.0, 10.0, -19.9, 20.5, -30.0, 88.0, -89.0, 1e5, -3e8, 1e30, INF, -INF, NAN]


def _trig(x):
    return (torch.asin(x), torch.acos(x), torch.atan(x), torch.sinh(x), torch.cosh(x),
            torch.asinh(x), torch.acosh(x), torch.atanh(x))


@case
def inverse_and_hyperbolic_trig_special_values_f32():
    # +-0, tiny, near +-1, out of domain, overflow edges (sinh 89), inf, NaN
    return _trig, [torch.tensor(SPECIAL)]


@case
def inverse_and_hyperbolic_trig_f64_wide():
    # f64 to 709 (sinh, cosh near exp's overflow; past 709.1 eager's sinh is
    # inf where the value is finite) and 1e300 (asinh)
    x = torch.tensor(SPECIAL + [700.0, -709.0, 1e300, -1e300, 2.0**-29, 3.0e8],
                     dtype=torch.float64)
    return _trig, [torch.cat([x, torch.linspace(-3, 3, 61, dtype=torch.float64)])]


def _trig_int(i, h, e):
    return _trig(i) + _trig(h.t()) + (torch.sinh(e), torch.acosh(e + 1))


@case
def inverse_and_hyperbolic_trig_int_bf16_empty():
    # int32 -> f32; bf16 (computes in f32) transposed; an empty [0, 3]
    return _trig_int, [torch.tensor([[-3, -1, 0], [1, 2, 40]], dtype=torch.int32),
                       (torch.rand(3, 4) * 2 - 1).bfloat16(), torch.randn(0, 3)]


def _hyp_bf16(x, y):
    return (torch.sinh(x), torch.cosh(x),
            torch.sinh(torch.cumprod(F.elu(y.permute(2, 1, 0)), 2)))


@case
def sinh_cosh_bf16_inf_where_exp_overflows_f32():
    # bf16's +-89.0: eager's vectorized loop takes exp(|x|) in f32, inf past
    # 88.7228 where sinh and cosh are 2.25e38 (its scalar loop, a strided
    # operand's and a row's last n % 32, gives that: not tested); 88.5 finite.
    # y: the fuzzer's case (seed 1128003851), a cumprod reaching -89.0
    x = torch.linspace(-100, 100, 128)
    x[:12] = torch.tensor([89.0, -89.0, 88.5, -88.5, 89.5, -89.5, 88.0, 90.0, 1e-30, -0.0,
                           INF, NAN])
    y = torch.randint(-32, 33, [10, 3, 31], generator=torch.Generator().manual_seed(
        1128003851000)).double() / 8
    return _hyp_bf16, [x.bfloat16(), y.bfloat16()]


def _logs(x, y, i, d):
    return (torch.log10(x), torch.exp2(y), torch.logaddexp(x, y), torch.logaddexp2(y, x),
            torch.logaddexp(y[:1], d), torch.logit(x), torch.logit(y, eps=1e-3),
            F.logsigmoid(y), torch.log10(i), torch.exp2(i), torch.log10(d), torch.exp2(d))


@case
def log10_exp2_logaddexp_logit_logsigmoid():
    # equal infinities in logaddexp, NaN, 0 and 1 in logit, int inputs, f64
    x = torch.tensor([[1.0, 10.0, 100.0, 0.0, -1.0, INF], [-INF, NAN, 0.5, 1e-20, 3.0, 0.001]])
    y = torch.tensor([[1.0, INF, -INF, 0.0, 5.0, -INF], [-INF, 2.0, -30.0, 80.0, NAN, 0.999]])
    return _logs, [x, y, torch.tensor([[1, 10, 1000, 0, 7, 3]]),
                   torch.randn(2, 6, dtype=torch.float64) * 10]


def _piecewise(x, v, w, w1, i):
    return (torch.heaviside(x, v), torch.heaviside(x, v[:, :1]), torch.heaviside(i, i[:1]),
            F.hardshrink(x), F.hardshrink(x, 1.5), F.softshrink(x), F.softshrink(x, 0.0),
            F.celu(x), F.celu(x, 0.3), F.prelu(x, w), F.prelu(x.t(), w1),
            F.rrelu(x, 0.1, 0.3, training=False), F.rrelu(x),
            torch.fmax(x, v), torch.fmin(v, x), torch.fmax(i, i.flip(0)))


@case
def heaviside_shrinks_celu_prelu_rrelu_fmax():
    # NaN and -0.0 through the comparisons, thresholds at the boundaries, prelu
    # per channel (dim 1) and one weight on a transposed input, int heaviside/fmax
    x = torch.tensor([[0.0, -0.0, 0.5, -0.5, 1.5, -1.5, NAN, INF, 2.0, -3.0, 0.25],
                      [-INF, 0.7, -0.2, 1.0, 0.0, 5.0, -1e-3, 0.4999, -0.5001, 1e-8, 3.0]])
    v = torch.tensor([[0.5, 2.0, NAN, 1.0, 0.0, -1.0, 3.0, NAN, -INF, 0.0, 7.0],
                      [1.0, NAN, 0.3, INF, -2.0, 1.0, 0.0, 0.5, 0.6, -1.0, 1.0]])
    return _piecewise, [x, v, torch.linspace(-1, 1, 11), torch.tensor([0.1]),
                        torch.tensor([[-2, 0, 3], [0, 5, -1]])]


def _misc(x, h, d, i, n):
    return (torch.nan_to_num(x), torch.nan_to_num(x, 1.0, 2.0, -3.0),
            torch.nan_to_num(h), torch.nan_to_num(d, posinf=1e300), torch.nan_to_num(i),
            torch.frac(x), torch.sgn(x), torch.isposinf(x), torch.isneginf(x),
            torch.isposinf(i), torch.rad2deg(x), torch.deg2rad(d), torch.rad2deg(i),
            torch.round(x, decimals=2), torch.round(d, decimals=-1), torch.round(x, decimals=0),
            F.glu(n, 0), F.glu(n, -1), F.glu(n.transpose(0, 2), 0))


@case
def nan_to_num_frac_sgn_isinf_degrees_round_glu():
    # nan_to_num's defaults are the dtype's extremes (f32, f16, f64); frac of
    # inf is NaN; round(decimals) at halves; glu along every dim, non-contiguous
    x = torch.tensor([[NAN, INF, -INF, -0.0, 2.5, -2.5, 0.125, 1.005],
                      [3.14159, -7.75, 1e30, -1e-30, 0.0, 45.0, -180.0, 15.0]])
    return _misc, [x, torch.tensor([NAN, INF, -INF, 1.5]).half(),
                   torch.tensor([NAN, INF, -INF, 25.0, -35.0, 0.3], dtype=torch.float64),
                   torch.tensor([[1, -2, 3]]), torch.randn(4, 3, 6)]


def _chain(x, y):
    # one fused chain of several decompositions, size-1 dims broadcasting
    z = torch.xlogy(x.abs(), y) + torch.sinh(x) * torch.atan(y)
    return F.hardshrink(torch.logaddexp(z, x) - torch.asinh(y), 0.1).exp2()


@case
def chain_of_decompositions_fuses():
    return _chain, [torch.randn(2, 1, 5), torch.rand(3, 1) + 0.1]


def _rrelu_noise_read(x, n):
    # training writes the slopes into n; the value form returns only the
    # result, so a later read of n could not be answered
    return A.rrelu_with_noise(x, n, 0.1, 0.9, True), n * 2


@case(refuse="'aten.rrelu_with_noise' is not supported by the backend contract")
def rrelu_training_noise_read_refused():
    # random slopes where nothing reads the noise: rng_stats.py
    return _rrelu_noise_read, [torch.randn(3, 4), torch.zeros(3, 4)]


def _signs(x, y, i, h, d):
    return (torch.signbit(x), torch.signbit(i), torch.signbit(h), torch.signbit(d.t()),
            torch.copysign(y, x), torch.copysign(x[:1], y.reshape(9, 1)), torch.copysign(i, x),
            torch.copysign(h, h.flip(0)), torch.copysign(d, -d))


@case
def signbit_copysign_negative_zero_and_nan():
    # the sign bit of -0.0 and -NaN counts (a contract op: the bits); int and
    # f16 inputs, broadcast, a transposed f64
    x = torch.tensor([0.0, -0.0, NAN, -NAN, INF, -INF, -1e-40, 2.5, -3.0])
    y = torch.tensor([1.5, -2.0, -0.0, NAN, -NAN, 7.0, INF, -INF, 0.0])
    return _signs, [x, y, torch.tensor([-3, 0, 5, -1, 2, 7, -8, 0, 1], dtype=torch.int32),
                    torch.tensor([-0.0, 0.0, -NAN, 1.0]).half(),
                    torch.tensor([[-0.0, NAN], [-NAN, -5.0], [3.0, 0.0]], dtype=torch.float64)]


def _views(x, d, h, b, u, q, w):
    return (x.view(torch.int8), x.view(torch.int32), x.t().view(torch.int32), d.view(torch.int16),
            d.view(torch.uint8), h.view(torch.uint8), h.view(torch.int16), b.view(torch.uint8),
            u.view(torch.int8), q.view(torch.float32), w.view(torch.int16),
            x[:0].view(torch.int8), (x.view(torch.int16) + 1) * 2)


@case
def view_dtype_same_and_narrower():
    # the same width (a bitcast, also of a transposed input), narrower (the
    # pieces little-endian first), -0.0, NaN, inf bits, bool, size 0, a chain
    x = torch.tensor([[1.0, -0.0, NAN], [INF, -2.5e-40, 3.25]])
    q = torch.tensor([[0.5, -1.0, NAN, 7.0]]).view(torch.int64)
    return _views, [x, torch.randn(2, 3, dtype=torch.float64), torch.randn(3).half(),
                    torch.tensor([True, False, True]),
                    torch.tensor([0, 127, 128, 255], dtype=torch.uint8), q,
                    torch.randn(2, 5).bfloat16()]


def _view_wider(x):
    return x.view(torch.float64)


@case(refuse="to a wider dtype")
def view_dtype_wider_refused():
    return _view_wider, [torch.randn(3, 4)]


def _degrees_reduced(x, h):
    # as integers, so that one ulp is not lost in bf16's tolerance
    return ((torch.rad2deg(x).float() * 4).to(torch.int64), torch.rad2deg(x),
            (torch.deg2rad(h * 100).float() * 1024).to(torch.int64), torch.rad2deg(h))


@case
def degrees_of_f16_bf16_by_a_rounded_constant():
    # eager multiplies a bf16 (f16) tensor by 180/pi (pi/180) rounded to
    # bf16 (f16): rad2deg(-2.125) is -121.5 in bf16, not -122 (the
    # product by the double constant); found by tests/diff/fuzz.py
    x = torch.arange(-32, 33, dtype=torch.float64) / 8
    return _degrees_reduced, [x.bfloat16(), x.half()]
