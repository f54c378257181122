"""torch.compile(backend="fxpipe") checks, run by tests/pt2/compile.bats
with PyTorch 2 (.venv/bin/python).  Each subcommand is one check; exit 0
when it holds, else the reasons.  $FXPIPE_CACHE is the test's own.

    compile.py model NAME      compiled == eager (tests/e2e's tolerance);
                               a second call compiles nothing
    compile.py cached NAME     a new process: loads from the cache, compiles
                               nothing; prints the backend's time
    compile.py fallback        one unsupported op runs eagerly, the rest is
                               compiled, one warning names the op
    compile.py shapes          a second shape compiles again (automatic
                               dynamic shapes hand us no symbolic sizes)
    compile.py weights         changed weights are noticed and compiled again
    compile.py mutation        batch norm in training mode (it writes its
                               running stats) runs eagerly, state and all
"""
import copy
import os
import sys
import time
import warnings

import numpy as np
import torch

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path[:0] = [os.path.join(ROOT, "python"), os.path.join(ROOT, "tests", "e2e"),
                os.path.join(ROOT, "bench")]
import fxpipe  # noqa: E402  registers the backend (torch is imported)
import fxpipe.dynamo as fd  # noqa: E402
import model as e2e  # noqa: E402  tests/e2e/model.py: close(), the tolerance


def factory(name):
    if name == "resnet50":
        import models
        return models.resnet50()
    import e2e_models
    return getattr(e2e_models, name)()


def reference_problems(module, want):
    import e2e_models
    bad = ["norm layer %s" % b for b in e2e_models.norm_problems(module)]
    for i, w in enumerate(want):
        if np.abs(w).max() < 1e-2 or w.std() < 1e-3:
            bad.append("result %d: the reference is near zero" % i)
    return bad


def flat(out):
    return [t.numpy() for t in ((out,) if isinstance(out, torch.Tensor) else out)]


def as_eager(got, want, wide):
    """None, or what is wrong with got: its error against the f64 result
    more than 8 times eager's largest (and more than eager's tolerance)."""
    own = np.abs(want.astype(np.float64) - wide).max()
    err = np.abs(got.astype(np.float64) - wide)
    bad = (err > 8 * own) & ~np.isclose(got, want, rtol=e2e.RTOL, atol=e2e.ATOL)
    if not bad.any():
        return None
    i = np.unravel_index(np.argmax(bad), bad.shape)
    return "%d of %d differ beyond 8x eager's own error (%.3g) against f64, first at %s: " \
        "got %r, expected %r (f64 %r)" % (bad.sum(), bad.size, own, list(i), got[i], want[i], wide[i])


def check_model(name):
    module, inputs = factory(name)
    module.eval()
    with torch.no_grad():
        want = flat(module(*inputs))
        compiled = torch.compile(module, backend="fxpipe")
        got = flat(compiled(*inputs))
        work = dict(fd.stats)
        again = flat(compiled(*inputs))
        # The same program in f64 judges an element eager's tolerance
        # refuses: right if its error against f64 is within 8 times
        # eager's own largest (resnet50's logits are sums of terms up to
        # ~800 that cancel to ~0.1: 2e-4 off there is f32 rounding).
        wide = flat(copy.deepcopy(module).double()(
            *[t.double() if t.is_floating_point() else t for t in inputs]))
    problems = reference_problems(module, want)
    for i, (g, a, w) in enumerate(zip(got, again, want)):
        for label, x in (("first call", g), ("second call", a)):
            e = e2e.close(x, w)
            if e and i < len(wide) and w.dtype.kind == "f":
                e = as_eager(x, w, wide[i])
            if e:
                problems.append("%s result %d: %s" % (label, i, e))
        print("%s result %d: %s" % (name, i, e2e.stats(g, w)))
    if len(got) != len(want):
        problems.append("%d results, eager gave %d" % (len(got), len(want)))
    if work["compiled"] + work["cache_loads"] < 1 or work["eager_graphs"]:
        problems.append("not compiled: %s" % work)
    if fd.stats["slow_calls"] != work["slow_calls"]:
        problems.append("the second call did not take the fast path: %s then %s" % (work, fd.stats))
    if (fd.stats["compiled"], fd.stats["cache_loads"]) != (work["compiled"], work["cache_loads"]):
        problems.append("the second call compiled or loaded again: %s then %s" % (work, fd.stats))
    print("%s: %s" % (name, fd.stats))
    return problems


def check_cached(name):
    module, inputs = factory(name)
    module.eval()
    t0 = time.perf_counter()
    with torch.no_grad():
        compiled = torch.compile(module, backend="fxpipe")
        entry = fd._entry
        spent = []

        def timed(gm, args):
            t = time.perf_counter()
            try:
                return entry(gm, args)
            finally:
                spent.append(time.perf_counter() - t)
        fd._entry = timed
        got = flat(compiled(*inputs))
        first = time.perf_counter() - t0
        t = time.perf_counter()
        n = 20
        for _ in range(n):
            compiled(*inputs)
        per_call = (time.perf_counter() - t) / n
        want = flat(module(*inputs))
    print("%s: first call %.3f s (the backend's part: %.3f s; the rest is dynamo); "
          "then %.2f ms a call; %s" % (name, first, sum(spent), per_call * 1e3, fd.stats))
    problems = [e for e in (e2e.close(g, w) for g, w in zip(got, want)) if e]
    if fd.stats["compiled"] or not fd.stats["cache_loads"]:
        problems.append("expected loads from the cache alone: %s" % fd.stats)
    return problems


class WithRefused(torch.nn.Module):
    """A linear layer, an op fxpipe refuses (aten.i0, the modified
    Bessel function; aten.sort was one until it was decomposed), another
    layer."""

    def __init__(self):
        super().__init__()
        torch.manual_seed(0)
        self.a, self.b = torch.nn.Linear(16, 32), torch.nn.Linear(32, 8)

    def forward(self, x):
        return self.b(torch.special.i0(torch.relu(self.a(x))))


def check_fallback():
    module, x = WithRefused().eval(), torch.randn(4, 16)
    with torch.no_grad(), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        want = module(x).numpy()
        compiled = torch.compile(module, backend="fxpipe")
        got = [compiled(x).numpy() for _ in range(3)]
    ours = [str(w.message) for w in caught if str(w.message).startswith("fxpipe:")]
    print("warnings:", ours, fd.stats)
    problems = [e for e in (e2e.close(g, want) for g in got) if e]
    if len([m for m in ours if "aten.i0" in m]) != 1:
        problems.append("expected one warning naming aten.i0, got %s" % ours)
    if fd.stats["compiled"] + fd.stats["cache_loads"] < 2:
        problems.append("expected the layers before and after i0 compiled: %s" % fd.stats)
    if fd.stats["eager_graphs"]:
        problems.append("a whole graph ran eagerly: %s" % fd.stats)
    return problems


def check_shapes():
    module = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.ReLU()).eval()
    problems = []
    with torch.no_grad():
        compiled = torch.compile(module, backend="fxpipe")
        for n in (2, 3, 5, 3):
            x = torch.randn(n, 8)
            e = e2e.close(compiled(x).numpy(), module(x).numpy())
            if e:
                problems.append("batch %d: %s" % (n, e))
    print(fd.stats)
    if fd.stats["compiled"] + fd.stats["cache_loads"] != 3 or fd.stats["eager_graphs"]:
        problems.append("expected 3 compiles (one per shape), no eager graph: %s" % fd.stats)
    return problems


def check_weights():
    module = torch.nn.Linear(8, 4).eval()
    x = torch.randn(2, 8)
    problems = []
    with torch.no_grad():
        compiled = torch.compile(module, backend="fxpipe")
        compiled(x)
        module.weight.mul_(2)
        e = e2e.close(compiled(x).numpy(), module(x).numpy())
        if e:
            problems.append("after weight.mul_(2): %s" % e)
    if fd.stats["compiled"] != 2:
        problems.append("expected a second compile for the new weights: %s" % fd.stats)
    return problems


def check_mutation():
    torch.manual_seed(0)
    eager_m = torch.nn.Sequential(torch.nn.Conv2d(3, 4, 3), torch.nn.BatchNorm2d(4)).train()
    ours = torch.nn.Sequential(torch.nn.Conv2d(3, 4, 3), torch.nn.BatchNorm2d(4)).train()
    ours.load_state_dict(eager_m.state_dict())
    problems = []
    with torch.no_grad(), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        compiled = torch.compile(ours, backend="fxpipe")
        for _ in range(2):
            x = torch.randn(2, 3, 8, 8)
            e = e2e.close(compiled(x).numpy(), eager_m(x).numpy())
            if e:
                problems.append("output: %s" % e)
    for name in ("running_mean", "running_var", "num_batches_tracked"):
        a, b = getattr(ours[1], name), getattr(eager_m[1], name)
        if not torch.equal(a, b):
            problems.append("%s: %s, eager %s" % (name, a, b))
    msgs = [str(w.message) for w in caught if "fxpipe:" in str(w.message)]
    print(msgs, fd.stats)
    if not any("writes into its inputs or buffers" in m for m in msgs):
        problems.append("expected a warning that the graph runs eagerly: %s" % msgs)
    return problems


def main():
    what, args = sys.argv[1], sys.argv[2:]
    problems = {"model": check_model, "cached": check_cached, "fallback": check_fallback,
                "shapes": check_shapes, "weights": check_weights,
                "mutation": check_mutation}[what](*args)
    for p in problems:
        print("problem:", p)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
