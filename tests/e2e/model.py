#!/usr/bin/env python3
"""model.py - the end-to-end models' reference data and their comparison.

    model.py regen [NAME...]     write tests/e2e/expected/NAME.in<i>.npy and
                                 NAME.out<i>.npy: the factory's example inputs
                                 and PyTorch eager's outputs (needs torch)
    model.py check NAME DIR      compare DIR/out<i>.npy, what vmrun wrote,
                                 with NAME.out<i>.npy

check requires the same shapes and element types as PyTorch's and
np.allclose(got, want, rtol=1e-3, atol=1e-7, equal_nan=True), torch-mlir's
e2e tolerance.  Where torch imports it also recomputes the eager outputs
(so a stale expected file shows up as such) and the outputs of the model
and its inputs in PyTorch's channels-last memory format, a second
reference in another summation order (close's alt: an element where the
two disagree is decided by rounding, fxpipe's channels-last convolutions
match the second), checks that no norm layer is
left at PyTorch's default params, and that the reference is not near zero
(a model whose outputs vanish proves nothing).  Prints the max errors.
"""
import glob
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
EXPECTED = os.path.join(HERE, "expected")
RTOL, ATOL = 1e-3, 1e-7
# close's jitter: how many times the inputs' rounding's effect a result may be off
JITTER = 8


def files(name, kind):
    return sorted(glob.glob(os.path.join(EXPECTED, "%s.%s*.npy" % (name, kind))),
                  key=lambda p: int(p.rsplit(kind, 1)[1][:-4]))


def eager(name):
    import torch
    import e2e_models as models

    module, inputs = models.FACTORIES[name]()
    with torch.inference_mode():
        out = module(*inputs)
    out = (out,) if isinstance(out, torch.Tensor) else tuple(out)
    return module, [x.numpy() for x in inputs], [y.numpy() for y in out]


def eager_channels_last(module, ins):
    """eager's module's outputs on its inputs ins (numpy) in PyTorch's
    channels-last memory format (the module and its 4-d inputs, converted
    in place), or None where no input is 4-d or that fails"""
    import torch

    inputs = [torch.from_numpy(x) for x in ins]
    if not any(x.dim() == 4 for x in inputs):
        return None
    try:
        module = module.to(memory_format=torch.channels_last)
        inputs = [x.contiguous(memory_format=torch.channels_last) if x.dim() == 4 else x
                  for x in inputs]
        with torch.inference_mode():
            out = module(*inputs)
    except (RuntimeError, TypeError, ValueError):
        return None
    out = (out,) if isinstance(out, torch.Tensor) else tuple(out)
    return [y.contiguous().numpy() for y in out]


def regen(names):
    import e2e_models as models

    os.makedirs(EXPECTED, exist_ok=True)
    for name in names or list(models.FACTORIES):
        _, ins, outs = eager(name)
        for kind, arrs in (("in", ins), ("out", outs)):
            for old in files(name, kind):
                os.remove(old)
            for i, a in enumerate(arrs):
                np.save(os.path.join(EXPECTED, "%s.%s%d.npy" % (name, kind, i)), a)
        print("%s: %s -> %s" % (name, [a.shape for a in ins], [a.shape for a in outs]))


def close(got, want, rtol=RTOL, atol=ATOL, alt=None, nudged=(), jitter=()):
    """None, or what is wrong with got.  alt: a second reference (the
    program in f64, tests/diff): an element close to it is right too, and
    an element where want and alt disagree is ill-conditioned (a last-bit
    difference upstream decides it) and not compared.  nudged: references
    on inputs whose elements are moved by a relative 1e-12: an element
    where want or got is not finite and a nudged reference differs from
    want is ill-conditioned too (the reference's own rounding decides it:
    pow(logaddexp2(x, x), 0.5) at x = -1 is exactly 0, but logaddexp2
    rounds below 0 and eager gives NaN; log2 of a mean that cancels
    exactly is -inf, eager's rounding leaves 2^-53), not compared.
    jitter: per element, how far alt moves on inputs moved by the unit
    roundoff of the program's precision (tests/diff/fuzz.py): an element
    within JITTER times that (and rtol, atol) of alt is right, the result
    being no better conditioned than that (64 logits of up to log 3 summed
    to 1e-7: any order of the sum in f32 is 4e-6 off; eager's own order
    gives 0.0, another -9.5e-7)."""
    if got.shape != want.shape:
        return "shape %s, expected %s" % (got.shape, want.shape)
    if got.dtype != want.dtype:
        return "element type %s, expected %s" % (got.dtype, want.dtype)
    if np.issubdtype(want.dtype, np.floating):
        ok = np.isclose(got, want, rtol=rtol, atol=atol, equal_nan=True)
        if alt is not None:
            ok |= np.isclose(got, alt, rtol=rtol, atol=atol, equal_nan=True)
            ok |= ~np.isclose(want, alt, rtol=rtol, atol=atol, equal_nan=True)
        for n in nudged:
            ok |= (~np.isfinite(want) | ~np.isfinite(got)) & \
                ~np.isclose(n, want, rtol=rtol, atol=atol, equal_nan=True)
        if alt is not None and jitter:
            spread = np.max(np.stack(jitter), axis=0)
            with np.errstate(invalid="ignore", over="ignore"):
                ok |= np.isfinite(spread) & (np.abs(got.astype(np.float64) - alt.astype(np.float64))
                                             <= atol + rtol * np.abs(alt.astype(np.float64)) + JITTER * spread)
    else:
        ok = got == want
    if ok.size and not ok.all():
        i = np.unravel_index(np.argmax(~ok), ok.shape)
        return "%d of %d differ, first at %s: got %r, expected %r" % (
            (~ok).sum(), ok.size, list(i), got[i], want[i])
    return None


def stats(got, want):
    err = np.abs(got.astype(np.float64) - want.astype(np.float64))
    rel = err / np.maximum(np.abs(want.astype(np.float64)), 1e-30)
    return "max |error| %.3g, max relative error %.3g, max |want| %.3g" % (
        err.max(), rel.max(), np.abs(want).max())


def check(name, outdir):
    want = [np.load(p) for p in files(name, "out")]
    if not want:
        sys.exit("model.py: no expected outputs for '%s' (run model.py regen %s)" % (name, name))
    problems = []
    alts = [None] * len(want)
    try:
        import torch  # noqa: F401
    except ImportError:
        torch = None
    if torch is not None:
        module, ins, fresh = eager(name)
        problems += ["norm layer %s" % b for b in __import__("e2e_models").norm_problems(module)]
        alts = eager_channels_last(module, ins) or alts
        for i, (x, p) in enumerate(zip(ins, files(name, "in"))):
            if not np.array_equal(x, np.load(p)):
                problems.append("input %d: the factory's differs from %s (run model.py regen)" % (i, p))
        for i, (w, f) in enumerate(zip(want, fresh)):
            e = close(f, w)
            if e:
                problems.append("result %d: PyTorch now gives other values than the expected "
                                "file (run model.py regen): %s" % (i, e))
    for i, w in enumerate(want):
        if np.issubdtype(w.dtype, np.floating) and (np.abs(w).max() < 1e-2 or w.std() < 1e-3):
            problems.append("result %d: the reference is near zero (max |want| %.3g, std %.3g)"
                            % (i, np.abs(w).max(), w.std()))
        got = np.load(os.path.join(outdir, "out%d.npy" % i))
        alt = alts[i] if i < len(alts) and alts[i] is not None and alts[i].shape == w.shape else None
        e = close(got, w, alt=alt)
        if got.shape == w.shape:
            print("%s result %d %s: %s" % (name, i, "x".join(map(str, w.shape)), stats(got, w)))
        if e:
            problems.append("result %d: %s" % (i, e))
    for p in problems:
        print("%s: %s" % (name, p))
    sys.exit(1 if problems else 0)


def main():
    sys.path.insert(0, HERE)
    if len(sys.argv) >= 2 and sys.argv[1] == "regen":
        regen(sys.argv[2:])
    elif len(sys.argv) == 4 and sys.argv[1] == "check":
        check(sys.argv[2], sys.argv[3])
    else:
        sys.exit("usage: model.py regen [NAME...] | model.py check NAME DIR")


if __name__ == "__main__":
    main()
