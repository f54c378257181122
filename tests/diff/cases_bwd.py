"""Regression cases of the backward family: the elementwise backward ops of
activations and softmax, and the prims ops (decompose_bwd.c), against
PyTorch eager (see regress.py).  The RNG ops (decompose_rng.c) have no
eager values to meet: their cases check statistics (cases_rng.py)."""
import torch
from cases import case

A = torch.ops.aten
P = torch.ops.prims


def _acts(g, x):
    y = torch.tanh(x)
    s = torch.sigmoid(x)
    return (A.threshold_backward(g, x, 0.25), A.hardtanh_backward(g, x, -0.5, 0.75),
            A.leaky_relu_backward(g, x, 0.2, False), A.leaky_relu_backward(g, x, -0.1, False),
            A.elu_backward(g, 1.3, 1.1, 0.7, False, x),
            A.elu_backward(g, 0.9, 1.2, 1.5, True, torch.nn.functional.elu(x, 0.9) * 1.2),
            A.softplus_backward(g, x, 2.0, 1.5), A.softplus_backward(g, x, 1.0, 20.0),
            A.gelu_backward(g, x, approximate="none"), A.gelu_backward(g, x, approximate="tanh"),
            A.tanh_backward(g, y), A.sigmoid_backward(g, s))


@case
def activation_backwards_f32_odd_shape():
    # every elementwise backward op on a [3, 5, 7] batch, both elu forms,
    # both gelu approximations, a negative leaky slope
    return _acts, [torch.randn(3, 5, 7), torch.randn(3, 5, 7) * 3]


@case
def activation_backwards_f64_sizes_0_and_1():
    # float64, extents 1 and 0 (an empty tensor), a broadcast grad
    def f(g1, x1, g0, x0):
        return _acts(g1, x1) + _acts(g0, x0)
    return f, [torch.randn(1, 1, dtype=torch.float64), torch.randn(1, 1, dtype=torch.float64),
               torch.randn(0, 4, dtype=torch.float64), torch.randn(0, 4, dtype=torch.float64)]


def _noncontig(g, x):
    # transposed and strided inputs, a chain that fuses around the ops
    gt, xt = g.t()[::2], x.t()[::2]
    a = A.gelu_backward(gt * 2, xt.exp(), approximate="tanh") + 1
    b = A.threshold_backward(gt, xt, 0.0).sum(0)
    c = A.sigmoid_backward(gt, torch.sigmoid(xt)) * A.tanh_backward(gt, torch.tanh(xt))
    return a, b, c.relu()


@case
def activation_backwards_noncontiguous_chain():
    return _noncontig, [torch.randn(6, 9), torch.randn(6, 9)]


def _thr_ints(gi, xi, gf, xf):
    # integer grads and inputs, mixed int/float (the result promotes),
    # thresholds between integers, negative ones (the kernel truncates)
    return (A.threshold_backward(gi, xi, 2), A.threshold_backward(gi, xi, -1), A.threshold_backward(gi, xi, -0.5),
            A.threshold_backward(gf, xi, 1), A.threshold_backward(gi.to(torch.int32), xi.to(torch.int32), 0),
            A.threshold_backward(gi, xf, 0.5), A.threshold_backward(gf, xf, -0.25))


@case
def threshold_backward_int_and_mixed():
    return _thr_ints, [torch.randint(-5, 5, (4, 3)), torch.randint(-3, 4, (4, 3)),
                       torch.randn(4, 3), torch.randn(4, 3)]


def _rrelu(g, x, noise):
    return (A.rrelu_with_noise_backward(g, x, noise, 0.1, 0.9, True, False),
            A.rrelu_with_noise_backward(g, x, noise, 0.1, 0.9, False, False),
            A.rrelu_with_noise_backward(g, x, noise, 0.2, 0.4, False, True))


@case
def rrelu_with_noise_backward_train_eval():
    # training multiplies by the noise; eval is leaky_relu_backward at the
    # mean slope
    return _rrelu, [torch.randn(2, 3, 5), torch.randn(2, 3, 5), torch.rand(2, 3, 5)]


def _softmax_bwds(g, x, g1, x1):
    y = torch.softmax(x, 1)
    ly = torch.log_softmax(x, -1)
    y1 = torch.softmax(x1, 0)
    return (A._softmax_backward_data(g, y, 1, x.dtype), A._log_softmax_backward_data(g, ly, -1, x.dtype),
            # eager's kernel gives a transposed operand's values in the wrong
            # places (1.13): the transposes are made contiguous for it
            A._softmax_backward_data(g.transpose(0, 2).contiguous(), y.transpose(0, 2).contiguous(), 0, x.dtype),
            A._softmax_backward_data(g1, y1, 0, x1.dtype), A._log_softmax_backward_data(g1, y1, 0, x1.dtype))


@case
def softmax_backward_data_dims():
    # dims 1 and -1, a transposed (non-contiguous) operand, extent 1
    return _softmax_bwds, [torch.randn(3, 4, 5), torch.randn(3, 4, 5), torch.randn(1, 3), torch.randn(1, 3)]


@case
def softmax_backward_data_f64():
    return _softmax_bwds, [torch.randn(2, 7, 3, dtype=torch.float64),
                           torch.randn(2, 7, 3, dtype=torch.float64),
                           torch.randn(1, 1, dtype=torch.float64), torch.randn(1, 1, dtype=torch.float64)]


def _prims(x, i, e, d):
    return (P.view_of(x) + 1, P.squeeze(x.unsqueeze(0).unsqueeze(3), [0, 3]) * 2,
            P.squeeze(x, []), P.split_dim(x, 1, 2), P.split_dim(x.transpose(0, 1), 0, 3),
            P.sum(x, [0, 2]), P.sum(i, [1]), P.sum(d, [0, 1]), P.sum(x.transpose(1, 2), [1]),
            P.prod(x, [0, 1]), P.prod(i, [0, 2]), P.prod(x, []), P.prod(d, [1]),
            P.convert_element_type(x * 3, torch.int64), P.convert_element_type(i, torch.float32),
            P.convert_element_type(x, torch.bool), P.sum(e, [0]), P.prod(e, [0]))


@case
def prims_views_reductions_conversions():
    # float32, int64, float64; a non-contiguous reduction; an empty dim
    # list (prod: nothing reduced); an empty input sums to 0, multiplies to 1
    return _prims, [torch.randn(3, 6, 5), torch.randint(-3, 4, (3, 4, 2)),
                    torch.randn(0, 3), torch.randn(2, 3, 4, dtype=torch.float64)]


@case(refuse="'prims.sum' is not supported by the backend contract")
def prims_sum_int32_refused():
    # eager's prims.sum is aten.sum, which gives int64; the prim's type is
    # int32: no result both agree on
    return (lambda i: P.sum(i, [0]) + 1), [torch.randint(-3, 4, (3, 4), dtype=torch.int32)]


@case(refuse="'aten.rrelu_with_noise_backward' is not supported by the backend contract")
def rrelu_backward_training_equal_bounds_refused():
    # training with lower == upper: 1.13 multiplies by the noise, later
    # PyTorch takes leaky_relu_backward
    return (lambda g, x, n: A.rrelu_with_noise_backward(g, x, n, 0.3, 0.3, True, False)), \
        [torch.randn(2, 3), torch.randn(2, 3), torch.rand(2, 3)]
