#!/usr/bin/env python3
"""rng_stats.py - the random ops (lib/torch/decompose_rng.c) have no eager
values to meet: each case here compiles a module through the whole pipe,
runs it and checks what PyTorch promises instead: dtypes, shapes, bounds,
means and variances within a few standard errors of large samples, two
draws in one graph that differ, and the same numbers from two compiles.

    rng_stats.py list | run NAME...
"""
import os
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402
from cases import Fn  # noqa: E402
from pipe import BIN, compile_module, save_input, sh  # noqa: E402

A = torch.ops.aten
CASES = {}


def case(f):
    CASES[f.__name__] = f
    return f


def run_pipe(fn, inputs, nout):
    """The outputs of fn compiled and run on inputs, as numpy arrays."""
    m = Fn(fn)
    m.fxpipe_graph = "aten"
    with tempfile.TemporaryDirectory() as d:
        vmfb = compile_module(m, [x.clone() for x in inputs], d)
        argv = [os.path.join(BIN, "vmrun"), vmfb]
        for i, x in enumerate(inputs):
            argv.append("--input=" + save_input(os.path.join(d, "in%d.npy" % i), x))
        for i in range(nout):
            argv.append("--output=@" + os.path.join(d, "out%d.npy" % i))
        sh("vmrun", argv)
        return [np.load(os.path.join(d, "out%d.npy" % i)) for i in range(nout)]


def near(what, got, want, tol):
    if not abs(got - want) <= tol:
        raise AssertionError("%s: %r, expected %r +- %r" % (what, got, want, tol))


def check(what, ok):
    if not ok:
        raise AssertionError(what)


def unit_stats(name, a, dt):
    n = a.size
    check("%s: dtype %s, expected %s" % (name, a.dtype, dt), a.dtype == dt)
    check("%s: outside [0, 1): %r %r" % (name, a.min(), a.max()), a.min() >= 0 and a.max() < 1)
    near(name + " mean", a.mean(), 0.5, 5 * (1 / 12 / n) ** 0.5)
    near(name + " var", a.var(), 1 / 12, 5 * (1 / 180 / n) ** 0.5)


@case
def rand_f32_f64_two_streams():
    # two rand calls in one graph draw from different streams; rand_like
    # takes its input's shape and the asked dtype
    def f(x):
        return (torch.rand(300, 501), torch.rand(300, 501), torch.rand_like(x, dtype=torch.float64),
                torch.rand(1, 1, 7))
    a, b, c, e = run_pipe(f, [torch.zeros(401, 333)], 4)
    unit_stats("rand f32", a, np.float32)
    unit_stats("rand f32 #2", b, np.float32)
    unit_stats("rand_like f64", c, np.float64)
    check("rand shapes", a.shape == (300, 501) and c.shape == (401, 333) and e.shape == (1, 1, 7))
    check("two rand calls agree in %d places" % (a == b).sum(), (a == b).mean() < 1e-3)
    r = np.corrcoef(a.ravel(), b.ravel())[0, 1]
    near("correlation of two rand calls", r, 0, 5 / a.size ** 0.5)
    # neighbours (the index is the counter) are not correlated either
    r = np.corrcoef(a.ravel()[1:], a.ravel()[:-1])[0, 1]
    near("correlation of neighbours", r, 0, 5 / a.size ** 0.5)
    # the same program compiled again gives the same numbers
    a2 = run_pipe(f, [torch.zeros(401, 333)], 4)[0]
    check("a second compile gives other numbers", (a == a2).all())


@case
def randn_normal_uniform_exponential():
    def f(x, y):
        return (torch.randn(200, 1001), torch.randn_like(y), A.normal_functional(x, -5.0, 2.0),
                A.uniform(x, -3.0, 5.0), A.exponential(y, 3.0), A.uniform(y, 0.25, 0.5))
    z, z64, nf, u, e, u2 = run_pipe(f, [torch.zeros(400, 500), torch.zeros(300, 700, dtype=torch.float64)], 6)
    for name, a, dt in (("randn", z, np.float32), ("randn_like f64", z64, np.float64)):
        check(name + " dtype", a.dtype == dt)
        near(name + " mean", a.mean(), 0, 5 / a.size ** 0.5)
        near(name + " var", a.var(), 1, 5 * (2 / a.size) ** 0.5)
        # the tails of a normal: 4.55% beyond 2 sigma
        near(name + " beyond 2", (np.abs(a) > 2).mean(), 0.0455, 0.003)
    near("normal mean", nf.mean(), -5, 5 * 2 / nf.size ** 0.5)
    near("normal std", nf.std(), 2, 0.02)
    check("uniform bounds", u.min() >= -3 and u.max() < 5 and u2.min() >= 0.25 and u2.max() < 0.5)
    near("uniform mean", u.mean(), 1, 5 * 8 / (12 * u.size) ** 0.5)
    near("uniform var", u.var(), 64 / 12, 0.05)
    check("exponential dtype and bounds", e.dtype == np.float64 and e.min() >= 0 and np.isfinite(e).all())
    near("exponential mean", e.mean(), 1 / 3, 5 / 3 / e.size ** 0.5)
    near("exponential var", e.var(), 1 / 9, 0.003)


@case
def bernoulli_randint_dropout():
    def f(x, p):
        return (A.bernoulli(x, 0.3), torch.bernoulli(p), torch.randint(3, 10, (500, 401)),
                torch.randint(7, (3, 5), dtype=torch.float64)) + tuple(A.native_dropout(x, 0.25, True)) \
            + tuple(A.native_dropout(x[:3, :4], 0.5, False))
    x = torch.randn(400, 500)
    p = torch.tensor([0.0, 1.0, 0.5, 0.9]).repeat(50000, 1)
    b, bt, ri, rf, out, mask, eo, em = run_pipe(f, [x, p], 8)
    check("bernoulli values", set(np.unique(b)) <= {0.0, 1.0} and b.dtype == np.float32)
    near("bernoulli(0.3) mean", b.mean(), 0.3, 5 * (0.21 / b.size) ** 0.5)
    check("bernoulli of p 0 and 1", (bt[:, 0] == 0).all() and (bt[:, 1] == 1).all())
    near("bernoulli p 0.5", bt[:, 2].mean(), 0.5, 0.01)
    near("bernoulli p 0.9", bt[:, 3].mean(), 0.9, 0.01)
    check("randint dtype and bounds", ri.dtype == np.int64 and ri.min() == 3 and ri.max() == 9)
    counts = np.bincount(ri.ravel() - 3) / ri.size
    check("randint frequencies %r" % counts, np.abs(counts - 1 / 7).max() < 0.005)
    check("randint float64", rf.dtype == np.float64 and (rf == np.floor(rf)).all()
          and rf.min() >= 0 and rf.max() <= 6)
    check("dropout mask", mask.dtype == np.bool_)
    near("dropout keeps", mask.mean(), 0.75, 0.005)
    xs = x.numpy()
    check("dropout values", np.allclose(out, np.where(mask, xs / 0.75, 0), rtol=1e-6, atol=0))
    check("dropout eval", (eo == xs[:3, :4]).all() and em.all())


@case
def multinomial_with_and_without_replacement():
    def f(p, q):
        return (torch.multinomial(p, 20000, replacement=True), torch.multinomial(q, 6),
                torch.multinomial(q, 2))
    p = torch.tensor([[0.1, 0.0, 0.6, 0.3], [1.0, 1.0, 2.0, 0.0]], dtype=torch.float64)
    q = torch.tensor([[1.0, 2.0, 3.0, 0.5, 0.25, 4.0], [0.0, 1.0, 0.0, 1.0, 1.0, 1.0]]).repeat(500, 1)
    with_r, perm, two = run_pipe(f, [p, q], 3)
    check("multinomial dtype", with_r.dtype == np.int64 and with_r.shape == (2, 20000))
    f0 = np.bincount(with_r[0], minlength=4) / 20000
    f1 = np.bincount(with_r[1], minlength=4) / 20000
    check("multinomial frequencies %r %r" % (f0, f1),
          np.abs(f0 - [0.1, 0, 0.6, 0.3]).max() < 0.015 and np.abs(f1 - [0.25, 0.25, 0.5, 0]).max() < 0.015)
    check("zero-probability categories drawn", f0[1] == 0 and f1[3] == 0)
    check("without replacement: a permutation",
          all(sorted(r) == list(range(6)) for r in perm[::2]))
    # the first draw of q's first row follows it: category 5 (4 / 10.75)
    near("first draw", (perm[::2, 0] == 5).mean(), 4 / 10.75, 0.07)
    # all 6 of row 2, with 2 zero-probability categories: the 4 others
    # first (PyTorch refuses this; the decomposition draws them last)
    check("zero probabilities last", all(set(r[:4]) == {1, 3, 4, 5} for r in perm[1::2]))
    check("without replacement: distinct, no zero-probability ones in row 2",
          all(r[0] != r[1] for r in two) and all(set(r) <= {1, 3, 4, 5} for r in two[1::2]))


@case
def rrelu_training_slopes():
    # F.rrelu in training reaches the pipe as rrelu_with_noise of an
    # empty_like noise nothing else reads: x <= 0 takes x * s, s uniform
    # in [lower, upper); others (NaN too) stay x; lower == upper: x * lower
    def f(x, y):
        return (F.rrelu(x, 0.1, 0.3, training=True), F.rrelu(x, 0.1, 0.3, training=True),
                A.rrelu_with_noise(y, torch.empty_like(y), 0.25, 0.75, True),
                F.rrelu(x, 0.2, 0.2, training=True))
    x = torch.randn(400, 500)
    x[0, :4] = torch.tensor([0.0, -0.0, float("nan"), -float("inf")])
    y = torch.randn(300, 301, dtype=torch.float64)
    a, b, c, e = run_pipe(f, [x, y], 4)
    xs, ys = x.numpy(), y.numpy()
    for name, out, inp, lo, hi, dt in (("rrelu f32", a, xs, 0.1, 0.3, np.float32),
                                       ("rrelu f32 #2", b, xs, 0.1, 0.3, np.float32),
                                       ("rrelu_with_noise f64", c, ys, 0.25, 0.75, np.float64)):
        check(name + " dtype and shape", out.dtype == dt and out.shape == inp.shape)
        pos = inp > 0
        check(name + ": positives changed", (out[pos] == inp[pos]).all())
        neg = inp < 0
        check(name + ": negatives not negative", (out[neg] < 0).all())
        fin = neg & np.isfinite(inp)
        s = out[fin] / inp[fin]
        # x * s rounds once: the slope back by a division is within an ulp or two
        eps = 4 * np.finfo(dt).eps
        check("%s: slopes outside [%g, %g): %r %r" % (name, lo, hi, s.min(), s.max()),
              s.min() >= lo * (1 - eps) and s.max() <= hi * (1 + eps))
        near(name + " slope mean", s.mean(), (lo + hi) / 2, 5 * (hi - lo) / (12 * s.size) ** 0.5)
        near(name + " slope var", s.var(), (hi - lo) ** 2 / 12, 0.05 * (hi - lo) ** 2 / 12)
    check("rrelu of 0, -0, NaN, -inf: %r" % a[0, :4],
          a[0, 0] == 0 and not np.signbit(a[0, 0]) and a[0, 1] == 0 and np.signbit(a[0, 1])
          and np.isnan(a[0, 2]) and a[0, 3] == -np.inf)
    neg = xs < 0
    check("two rrelu calls agree in %d places" % (a[neg] == b[neg]).sum(), (a[neg] == b[neg]).mean() < 1e-3)
    check("rrelu lower == upper", np.array_equal(e, np.where(xs <= 0, xs * np.float32(0.2), xs),
                                                 equal_nan=True))


@case
def philox_known_answer():
    # Random123's known answer for Philox4x32-10, counter 0 and key 0:
    # 6627e8d5 e169c58d ...; element 0 of the first stream under the
    # default seed 0 is that counter, and a float64 uniform keeps the top
    # 27 and 26 bits of its first two words
    w0, w1 = 0x6627e8d5, 0xe169c58d
    want = ((w0 >> 5) * 2 ** 26 + (w1 >> 6)) * 2.0 ** -53
    got = run_pipe(lambda: (torch.rand(3, dtype=torch.float64),), [], 1)[0]
    check("Philox4x32-10 of 0 under key 0: %r, expected %r" % (got[0], want), got[0] == want)


def main(argv):
    if argv[:1] == ["list"]:
        print("\n".join(sorted(CASES)))
        return 0
    bad = 0
    for name in argv[1:] or sorted(CASES):
        torch.manual_seed(0)
        try:
            CASES[name]()
            print("%s: ok" % name)
        except Exception as e:  # noqa: BLE001
            print("%s: FAIL: %s: %s" % (name, type(e).__name__, e))
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
