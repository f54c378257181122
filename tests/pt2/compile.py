"""torch.compile(backend="fxpipe") checks, run by tests/pt2/compile.bats
with PyTorch 2 (.venv/bin/python).  Each subcommand is one check; exit 0
when it holds, else the reasons.  $FXPIPE_CACHE is the test's own.

    compile.py model NAME      compiled == eager (tests/e2e's tolerance);
                               a second call compiles nothing
    compile.py cached NAME     a new process: loads from the cache, compiles
                               nothing; prints the backend's time
    compile.py fallback        one unsupported op runs eagerly, the rest is
                               compiled, one warning names the op
    compile.py shapes          a second shape compiles again where dimension
                               1 varies (a symbolic size, but not a batch)
    compile.py weights         changed weights are noticed and compiled again
    compile.py mutation        batch norm in training mode (it writes its
                               running stats) runs eagerly, state and all
    compile.py batch NAME [dynamic|cached]
                               tests/torch-lower/dynmodels.py's NAME at
                               batches 2, 3, 5, 17 == eager; once dynamo
                               makes the batch symbolic (dynamic: from the
                               first call, torch.compile(dynamic=True)) one
                               module with a dynamic batch (? in its
                               signature) runs every call; cached: a new
                               process loads it, compiling nothing
    compile.py nobatch         a graph reducing over its batch (x - x.mean(0))
                               under a symbolic batch: refused as a dynamic
                               batch (one warning), compiled per batch, == eager
    compile.py outside         a batch outside the dynamic module's range
                               (made so) compiles a module for its shape
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
    module = torch.nn.Sequential(torch.nn.ReLU(), torch.nn.Tanh()).eval()
    problems = []
    with torch.no_grad():
        compiled = torch.compile(module, backend="fxpipe")
        for n in (2, 3, 5, 3):
            x = torch.randn(4, n)
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


BATCHES = (2, 3, 5, 17)


def run_batches(module, item_shape, dynamic=None, batches=BATCHES):
    """module compiled at each batch: (problems against eager, the
    signature of the fxpipe function each call ran, fxpipe's warnings)."""
    used, run = [], fd._Compiled.__call__

    def recorded(self, xs):
        res = run(self, xs)
        used.append(repr(self.function))
        return res
    fd._Compiled.__call__ = recorded
    problems = []
    try:
        with torch.no_grad(), warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            compiled = torch.compile(module, backend="fxpipe", dynamic=dynamic)
            for n in batches:
                x = torch.randn(n, *item_shape)
                e = e2e.close(compiled(x).numpy(), module(x).numpy())
                if e:
                    problems.append("batch %d: %s" % (n, e))
    finally:
        fd._Compiled.__call__ = run
    ours = [str(w.message) for w in caught if str(w.message).startswith("fxpipe:")]
    print("ran:", used, "\nwarnings:", ours, "\n", fd.stats)
    if len(used) != len(batches):
        problems.append("%d calls ran fxpipe code, expected %d" % (len(used), len(batches)))
    return problems, used, ours


def check_batch(name, how=""):
    sys.path.insert(0, os.path.join(ROOT, "tests", "torch-lower"))
    import dynmodels
    torch.manual_seed(0)    # the same weights in every process: "cached" finds them
    module = getattr(dynmodels, name)().eval()
    item = {"mlp": (8,), "cnn": (3, 16, 16)}[name]
    problems, used, ours = run_batches(module, item, dynamic=True if how == "dynamic" else None)
    # automatic dynamic shapes: batch 2 static, then symbolic from batch 3
    static = 0 if how == "dynamic" else 1
    if any("?" in f for f in used[:static]) or not all("?x" in f for f in used[static:]):
        problems.append("expected batch %s static, then one function with a dynamic batch "
                        "(?): %s" % (BATCHES[:static], used))
    # Dynamo may trace the graph again at a later batch (cnn at 17): that
    # copy loads the same module from the disk cache, compiling nothing.
    if how == "" and (fd.stats["compiled"], fd.stats["batch_compiled"]) != (1 + static, 1):
        problems.append("expected %d compile(s), one dynamic: %s" % (1 + static, fd.stats))
    if how == "cached" and fd.stats["compiled"]:
        problems.append("expected every module loaded from the cache: %s" % fd.stats)
    # (dynamic=True's graph is test "batch mlp"'s: its module may be cached)
    if how == "dynamic" and fd.stats["compiled"] != fd.stats["batch_compiled"] or \
            fd.stats["batch_compiled"] > 1:
        problems.append("expected one dynamic compile at most, no other: %s" % fd.stats)
    if ours or fd.stats["batch_refused"] or fd.stats["eager_graphs"]:
        problems.append("expected no refusal: %s %s" % (ours, fd.stats))
    if fd.stats["batch_calls"] != len(BATCHES) - static:
        problems.append("expected %d calls by the dynamic module: %s" % (len(BATCHES) - static, fd.stats))
    return problems


class Center(torch.nn.Module):
    """Each item less the batch's mean: no item is computed on its own."""

    def forward(self, x):
        return torch.relu(x - x.mean(0))


def check_nobatch():
    problems, used, ours = run_batches(Center(), (6,), batches=BATCHES + (3, 5))
    if any("?" in f for f in used):
        problems.append("a function with a dynamic batch ran: %s" % used)
    refusals = [m for m in ours if "compiled per batch size" in m]
    if len(refusals) != 1 or "computed on its own" not in refusals[0] or len(ours) != 1:
        problems.append("expected one warning, codegen's refusal of the batch: %s" % ours)
    if fd.stats["compiled"] + fd.stats["cache_loads"] != len(BATCHES) or \
            fd.stats["batch_refused"] != 1 or fd.stats["batch_compiled"]:
        problems.append("expected one compile per batch, the dynamic one refused once: %s"
                        % fd.stats)
    return problems


def check_export_refused():
    """dynamic=True on a model with batch norm: dynamo hands its eps as a
    tensor read with .item(), which torch.export refuses; the graph runs
    eagerly with a warning, never an exception out of the call."""
    sys.path.insert(0, os.path.join(ROOT, "tests", "torch-lower"))
    import dynmodels
    torch.manual_seed(0)
    module = dynmodels.cnn().eval()
    problems = []
    with torch.no_grad(), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        compiled = torch.compile(module, backend="fxpipe", dynamic=True)
        for n in (2, 3):
            x = torch.randn(n, 3, 16, 16)
            e = e2e.close(compiled(x).numpy(), module(x).numpy())
            if e:
                problems.append("batch %d: %s" % (n, e))
    ours = [str(w.message) for w in caught if str(w.message).startswith("fxpipe:")]
    print("warnings:", ours, "\n", fd.stats)
    if not fd.stats["eager_graphs"] or not any("torch.export refused" in m for m in ours):
        problems.append("expected the graph eager, with torch.export's refusal: %s %s"
                        % (ours, fd.stats))
    return problems


def check_outside():
    """The runtime's refusal of a batch outside the range, raised for
    batch 5 as if the module's range were [0, 4]: that call compiles a
    module of its shape, later ones in range still take the dynamic one."""
    run = fd._Compiled.__call__

    def ranged(self, xs):
        if self.batched and xs[0].shape[0] == 5:
            raise fxpipe.Error("input 0: dimension 0 is 5, must be in [0, 4]")
        return run(self, xs)
    fd._Compiled.__call__ = ranged
    try:
        problems, used, ours = run_batches(torch.nn.Linear(8, 4).eval(), (8,), dynamic=True,
                                           batches=(2, 5, 3, 5, 17))
    finally:
        fd._Compiled.__call__ = run
    if [("?" in f) for f in used] != [True, False, True, False, True]:
        problems.append("expected batch 5 per shape, the others dynamic: %s" % used)
    if (fd.stats["compiled"], fd.stats["batch_compiled"]) != (2, 1):
        problems.append("expected the dynamic module and batch 5's: %s" % fd.stats)
    return problems


def main():
    what, args = sys.argv[1], sys.argv[2:]
    problems = {"model": check_model, "cached": check_cached, "fallback": check_fallback,
                "shapes": check_shapes, "weights": check_weights,
                "mutation": check_mutation, "batch": check_batch, "nobatch": check_nobatch,
                "outside": check_outside, "export_refused": check_export_refused}[what](*args)
    for p in problems:
        print("problem:", p)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
