"""Regression cases of decompose_nnx.c: losses (nll_loss forward and
backward, mse_loss), convolution variants (_convolution,
convolution_backward, conv_tbc), _trilinear, training-mode batch norm,
var_mean, cumprod, logcumsumexp, norms, renorm, weight norm and fake
quantization, against PyTorch eager (see regress.py)."""
import torch
import torch.nn.functional as F
from cases import case

A = torch.ops.aten


def _nll(x, t, w, x1, t1):
    xs = x.transpose(0, 1)                       # a non-contiguous [5, 4]
    return (F.nll_loss(xs, t, reduction="none"),
            F.nll_loss(xs, t, weight=w, reduction="mean", ignore_index=2),
            F.nll_loss(xs, t, weight=w, reduction="sum", ignore_index=-100),
            *A.nll_loss_forward(xs, t, w, 0, 1),
            *A.nll_loss_forward(xs, t, None, 1, 17),   # an ignore_index past C
            *A.nll_loss_forward(x1, t1, w, 0, 3),
            *A.nll_loss_forward(x1, t1, None, 1, -1),
            F.cross_entropy(xs * 2, t, weight=w))     # a chain that fuses


def nll_loss_reductions_weights_ignore():
    # none/mean/sum, weights, ignored targets (one out of range), 1-d input
    return _nll, [torch.randn(4, 5), torch.tensor([0, 2, 3, 2, 1]), torch.rand(4),
                  torch.randn(4), torch.tensor(1)]


def _nll_edge(x, t, y, u):
    return (A.nll_loss_forward(x, t, None, 1, 0)      # every target ignored: 0 / 0
            + A.nll_loss_forward(x, t, None, 2, 0)
            + A.nll_loss_forward(y, u, None, 1, -100)  # batch 1, one class
            + A.nll_loss_forward(y, u, None, 0, -100))


def nll_loss_all_ignored_batch_one_f64():
    return _nll_edge, [torch.randn(3, 2, dtype=torch.float64), torch.zeros(3, dtype=torch.long),
                       torch.randn(1, 1), torch.zeros(1, dtype=torch.long)]


def _nll_bwd(g0, g1, x, t, w, tw, x1, t1):
    return (A.nll_loss_backward(g0, x, t, None, 0, 1, tw),
            A.nll_loss_backward(g0, x, t, w, 0, -100, tw),
            A.nll_loss_backward(g1, x, t, None, 1, 1, tw),
            A.nll_loss_backward(g1, x, t, w, 1, 3, tw),
            A.nll_loss_backward(g1, x, t, w, 2, 1, tw),
            A.nll_loss_backward(g1.reshape(1), x, t, None, 2, 1, tw),
            A.nll_loss_backward(g1, x1, t1, w, 0, 9, tw),
            A.nll_loss_backward(g1, x1, t1, None, 1, 9, tw),
            A.nll_loss_backward(g1, x1, t1, None, 1, 2, tw))   # its target ignored


def nll_loss_backward_reductions():
    # none/mean/sum, weights, ignore_index, 1-d, a [1] grad for mean and sum
    return _nll_bwd, [torch.randn(5), torch.randn(()), torch.randn(5, 4),
                      torch.tensor([3, 1, 0, 1, 2]), torch.rand(4), torch.tensor(2.5),
                      torch.randn(4), torch.tensor(2)]


def _mse(x, y, z):
    return (F.mse_loss(x, y, reduction="none"), F.mse_loss(x, y), F.mse_loss(x, y, reduction="sum"),
            A.mse_loss(x.t(), z.t(), 2), A.mse_loss(x[:0], y[:0], 0))


def mse_loss_reductions_mixed_dtypes():
    # f32 with f64 target (result f64), a transposed view, an empty input
    return _mse, [torch.randn(3, 5), torch.randn(3, 5), torch.randn(3, 5, dtype=torch.float64)]


def _convs(x, w, b, xt, wt, bt):
    return (A._convolution(x, w, b, [2, 1], [1, 0], [1, 2], False, [0, 0], 1,
                           False, False, True, True),
            A._convolution(x, w[:, :1], None, [1, 1], [0, 1], [1, 1], False, [0, 0], 3,
                           True, True, False),        # the deprecated form, grouped
            A.conv_tbc(xt, wt, bt, 1),
            A.conv_tbc(xt[:, :1], wt[:1], bt, 0) * 2)


def convolution_flags_and_conv_tbc():
    return _convs, [torch.randn(2, 3, 7, 6), torch.randn(6, 3, 3, 2), torch.randn(6),
                    torch.randn(9, 2, 5), torch.randn(3, 5, 4), torch.randn(4)]


def _conv_bwd(x, w, x1, w1):
    y = F.conv2d(x, w, None, 2, 1, (2, 1), 2)
    go = torch.ones_like(y) * 0.5 + y * 0.1
    a = A.convolution_backward(go, x, w, [4], [2, 2], [1, 1], [2, 1], False, [0], 2,
                               [True, True, True])
    y1 = F.conv1d(x1, w1)
    b = A.convolution_backward(y1, x1, w1, None, [1], [0], [1], False, [0], 1,
                               [True, True, True])
    return a[0], a[1], a[2], b[0], b[1], b[2]


def convolution_backward_grouped_strided_dilated():
    # grad_input, grad_weight, grad_bias; grouped, strided, padded, dilated
    # (the strided input leaves rows no output reads); 1-d, batch 1
    return _conv_bwd, [torch.randn(3, 4, 9, 8), torch.randn(4, 2, 3, 2),
                       torch.randn(1, 3, 5), torch.randn(2, 3, 5)]


def _bil(a, b, w, bias, c, d, e):
    return (F.bilinear(a, b, w, bias),
            A._trilinear(c, d, e, [], [], [], [], 0),
            A._trilinear(c, d, e, [], [], [], [0, 2], 0),
            A._trilinear(c[0], d, e[0, 0], [0], [], [0, 1], [1], 0),
            A._trilinear(c, d, e, [1], [1], [1], [3], 1))     # eager's empty dim


def trilinear_and_bilinear():
    return _bil, [torch.randn(2, 3), torch.randn(2, 4), torch.randn(5, 3, 4), torch.randn(5),
                   torch.randn(2, 3, 4), torch.randn(2, 3, 4), torch.randn(2, 3, 4)]


def _bn(x, w, b, x1):
    y, m, s = A.native_batch_norm(x, w, b, None, None, True, 0.1, 1e-5)
    z = F.batch_norm(x1, None, None, None, None, True, 0.0, 1e-3)
    i = F.instance_norm(x.permute(0, 1, 3, 2), weight=w, bias=b)
    return y.relu(), m, s, z, i


def batch_norm_training_and_instance_norm():
    # batch statistics, biased variance, save_mean and save_invstd; no
    # weight; a transposed input; a constant channel (variance 0)
    x1 = torch.randn(4, 3)
    x1[:, 1] = 2.0
    return _bn, [torch.randn(2, 3, 4, 5) * 3 + 1, torch.randn(3), torch.randn(3), x1]


def _bn_eval(x, w, b, m, v):
    return A.native_batch_norm(x, w, b, m, v, False, 0.1, 1e-5)


def batch_norm_eval_with_empty_stats():
    return _bn_eval, [torch.randn(2, 3, 5, dtype=torch.float64), torch.randn(3, dtype=torch.float64),
                      torch.randn(3, dtype=torch.float64), torch.randn(3, dtype=torch.float64),
                      torch.rand(3, dtype=torch.float64) + 0.5]


def _var_mean(x, y):
    return (torch.var_mean(x, dim=(0, 2), correction=0, keepdim=True)
            + torch.var_mean(x, unbiased=True)
            + torch.var_mean(x.transpose(0, 1), dim=-1, correction=2)
            + torch.var_mean(y, 0) + torch.var_mean(y, 1)
            + torch.std_mean(x, dim=1, correction=0) + torch.std_mean(y, unbiased=True))


def var_mean_corrections():
    # correction 0, 1, 2, keepdim, all dims, f64, an extent-1 dim (nan var);
    # std_mean
    return _var_mean, [torch.randn(3, 4, 5), torch.randn(7, 1, dtype=torch.float64)]


def _var_mean_inf(x, y):
    return (torch.var_mean(x, 0, correction=0) + torch.var_mean(x, 1, correction=0)
            + torch.var_mean(x, (0, 1), correction=0) + torch.var_mean(x.t(), 1, correction=0)
            + torch.var_mean(y, 0, correction=0) + torch.var_mean(y, 1, correction=0))


def var_mean_infinite():
    # eager's Welford mean: NaN where an infinity comes before the last
    # element reduced, the infinity itself where it is the last
    x = torch.randn(4, 5)
    x[3, 4], x[0, 2], x[2, 0] = -float("inf"), float("inf"), -float("inf")
    y = torch.randn(3, 6)
    y[2, 5] = float("inf")
    return _var_mean_inf, [x, y]


def _scans(x, i, z, e, s):
    return (torch.cumprod(x, 1), torch.cumprod(x.transpose(0, 2), -1),
            torch.cumprod(i, 0), torch.cumprod(i, 1, dtype=torch.float64),
            torch.cumprod(z, 0), torch.cumprod(e, 1),
            torch.logcumsumexp(x * 30, 2), torch.logcumsumexp(x.double(), 0),
            torch.logcumsumexp(e, 0), torch.logcumsumexp(x[:, :1], 1),
            torch.logcumsumexp(s, 1), torch.cumprod(s, 1))


def cumprod_logcumsumexp():
    # zeros, negatives, int32 (int64 result) and a dtype, large values
    # (logcumsumexp), extents 0 and 1, a transposed input; -inf first
    # (logcumsumexp stays -inf), inf, NaN
    x = torch.randn(3, 4, 5)
    x[1, 2, 3] = 0.0
    s = torch.randn(3, 5)
    s[0, :2] = float("-inf")
    s[1, 2] = float("inf")
    s[2, 3] = float("nan")
    return _scans, [x, torch.randint(-3, 4, (4, 3), dtype=torch.int32),
                    torch.randn(1), torch.randn(2, 0), s]


def _norms(x, y):
    return (torch.norm(x, 3), torch.norm(x, 0), A.norm.Scalar(x, 1),
            A.norm.ScalarOpt_dim(x, 2, [1], False), A.norm.ScalarOpt_dim(x, float("inf"), [0, 2], True),
            A.norm.ScalarOpt_dim(x, float("-inf"), [-1], False),
            A.norm.ScalarOpt_dim(x.transpose(1, 2), 0.5, [1], True),
            A.norm.ScalarOpt_dim(y, None, [0], False),
            F.normalize(x, dim=1))


def norm_p_values_dims():
    # p = 0, 1, 2, inf, -inf, 3, 0.5, None; dims, keepdim, f64
    x = torch.randn(3, 4, 5)
    x[0, 1, 2] = 0.0
    return _norms, [x, torch.randn(6, 2, dtype=torch.float64)]


def _renorm(x, y, v, g):
    return (torch.renorm(x, 2, 1, 2.0), torch.renorm(x, 1, 0, 5.0), torch.renorm(x, 3.5, -1, 0.5),
            torch.renorm(y, 2, 0, 1.0), *A._weight_norm_interface(v, g, 0),
            *A._weight_norm_interface(v, g.reshape(1, 1, 4)[..., :3], 2))


def renorm_and_weight_norm():
    # slices above and below maxnorm, p = 1, 2, 3.5, negative dim, f64
    return _renorm, [torch.randn(3, 4, 5), torch.randn(4, 2, dtype=torch.float64),
                     torch.randn(4, 4, 3), torch.rand(4, 1, 1) + 0.5]


def _fq(x):
    a, m = A.fake_quantize_per_tensor_affine_cachemask(x, 0.1, 3, 0, 255)
    b, n = A.fake_quantize_per_tensor_affine_cachemask(x.t(), 0.25, -2, -128, 127)
    return a, m, b, n


def fake_quantize_cachemask():
    # values past both ends, ties of the rounding (half to even)
    x = torch.randn(6, 5) * 20
    x[0, :4] = torch.tensor([0.25, 0.35, -0.05, 25.55])
    return _fq, [x]


def _gn_bwd(dy, x, w, m, r, dy3, x3, w3):
    a = A.native_group_norm_backward(dy, x, m, r, w, 2, 6, 6, 3, [True, True, True])
    _, m3, r3 = A.native_group_norm(x3, None, None, 3, 4, 5, 2, 1e-5)
    c = A.native_group_norm_backward(dy3, x3, m3, r3, w3, 3, 4, 5, 2, [True, True, True])
    return a + c


def group_norm_backward_given_stats():
    # eager's formula with the mean and rstd it is given (random ones too),
    # (eager refuses a grad_weight without weight), 3-d f64 input
    return _gn_bwd, [torch.randn(2, 6, 2, 3), torch.randn(2, 6, 2, 3), torch.randn(6),
                     torch.randn(2, 3), torch.rand(2, 3) + 0.5,
                     torch.randn(3, 4, 5, dtype=torch.float64), torch.randn(3, 4, 5, dtype=torch.float64),
                     torch.randn(4, dtype=torch.float64)]


# The parts above run as four cases (one compile each, to keep the bats
# file short): each takes the inputs of its parts in turn.
def _join(*parts):
    made = [p() for p in parts]

    def fn(*args):
        out, i = [], 0
        for f, ins in made:
            r = f(*args[i:i + len(ins)])
            i += len(ins)
            out += [r] if isinstance(r, torch.Tensor) else list(r)
        return tuple(out)
    return fn, [x for _, ins in made for x in ins]


@case
def nnx_losses():
    return _join(nll_loss_reductions_weights_ignore, nll_loss_all_ignored_batch_one_f64,
                 nll_loss_backward_reductions, mse_loss_reductions_mixed_dtypes)


def _cumprod_f32(x):
    return torch.cumprod(x, 0), torch.cumprod(x.t(), 1)


def cumprod_f32_past_range():
    # a running f32 product past f32's range (inf in f32) comes back into
    # it: eager's CPU scan accumulates in double (found by tests/diff/fuzz.py)
    x = torch.full((8, 2), 1e19)
    x[5:] = 1e-19
    x[6, 1] = -1e-19
    return _cumprod_f32, [x]


@case
def nnx_convolutions_trilinear():
    return _join(convolution_flags_and_conv_tbc, convolution_backward_grouped_strided_dilated,
                 trilinear_and_bilinear)


@case
def nnx_normalizations():
    return _join(batch_norm_training_and_instance_norm, batch_norm_eval_with_empty_stats,
                 var_mean_corrections, var_mean_infinite, group_norm_backward_given_stats)


@case
def nnx_scans_norms_quantize():
    return _join(cumprod_logcumsumexp, cumprod_f32_past_range, norm_p_values_dims, renorm_and_weight_norm,
                 fake_quantize_cachemask)


class _InstanceNorm(torch.nn.Module):
    # traced (graph="torch"): aten.instance_norm stays itself
    def forward(self, x, w, b, rm, rv, x3, x64):
        I = torch.ops.aten.instance_norm
        return (I(x, w, b, None, None, True, 0.1, 1e-5, False),
                I(x, None, None, rm, rv, True, 0.1, 1e-3, False),
                I(x3, w, None, None, None, True, 0.0, 1e-5, False),
                I(x64, None, b.double(), None, None, True, 0.1, 1e-5, False))


@case(graph="torch")
def instance_norm_input_stats():
    # 2-D and 1-D planes, weight and bias or none, running stats given but
    # not read, f64; a constant plane (variance 0)
    x = torch.randn(2, 3, 4, 5)
    x[1, 2] = 0.75
    return _InstanceNorm(), [x, torch.randn(3), torch.randn(3), torch.randn(3), torch.rand(3),
                             torch.randn(2, 3, 7), torch.randn(1, 3, 2, 2, 3, dtype=torch.float64)]
