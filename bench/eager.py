#!/usr/bin/env python3
"""eager.py FILE.py:FACTORY THREADS RUNS [BACKEND] - PyTorch's side of `make bench`.

Runs the model eagerly at its best: THREADS intra-op threads (the caller
sets OMP_NUM_THREADS too), inference mode, 3 warm-up runs, then RUNS timed
runs.  Prints "median_us maxrss_kb".  Run it in a process of its own, so
that the peak RSS is this model's alone.  BACKEND (PyTorch 2): the model
through torch.compile with that backend ("inductor", "fxpipe") instead,
under no_grad; the warm-up runs compile it (not timed).
"inductor-freezing" is Inductor with torch._inductor.config.freezing =
True (weights folded in as constants, conv/linear weights prepacked).  A
compiled model's output must match eager's first (check_close), else it
exits 3 with the difference on stderr: a wrong baseline is not timed.
"noop" is torch.compile with a backend that runs dynamo's graphs as they
are: what dynamo itself costs per call; "none" runs eagerly under
no_grad, to compare with it.  "autocast-bf16" runs eagerly under
torch.autocast("cpu", bfloat16), the MHA fast path off (as fx-export
--autocast traces it).

bench/ort.py uses load, check_close and report for ONNX Runtime.
"""
import importlib.util
import os
import resource
import statistics
import sys
import time

import torch


def load(spec_arg):
    """FILE.py:FACTORY -> (module, inputs)"""
    path, factory = spec_arg.rsplit(":", 1)
    spec = importlib.util.spec_from_file_location("bench_model", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return getattr(mod, factory)()


def _flat(out):
    if isinstance(out, (tuple, list)):
        return [t for o in out for t in _flat(o)]
    return [out]


def check_close(got, want, what):
    """Exits 3 unless every output in got matches want's: allclose with
    rtol 1e-3, atol 1e-4, or a largest difference within 1e-3 of the
    output's largest magnitude (accumulation order across 2000-term dot
    products)."""
    got, want = _flat(got), _flat(want)
    if len(got) != len(want):
        _wrong("%s: %d outputs, eager has %d" % (what, len(got), len(want)))
    for i, (g, w) in enumerate(zip(got, want)):
        g = torch.as_tensor(g).float()
        w = w.float()
        if g.shape != w.shape:
            _wrong("%s: output %d has shape %s, eager's %s" % (what, i, list(g.shape), list(w.shape)))
        err = (g - w).abs().max().item() if w.numel() else 0.0
        scale = w.abs().max().item() if w.numel() else 0.0
        if not (torch.allclose(g, w, rtol=1e-3, atol=1e-4) or err <= 1e-3 * scale):
            _wrong("%s: output %d differs from eager's: max abs difference %.3g, largest |eager| %.3g"
                   % (what, i, err, scale))


def _wrong(msg):
    print(msg, file=sys.stderr)
    sys.exit(3)


def report(run, runs):
    """3 warm-up calls of run(), then runs timed ones; prints the median
    in us and this process's max RSS in KiB."""
    for _ in range(3):
        run()
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        run()
        times.append(time.perf_counter() - t)
    print("%.1f %d" % (statistics.median(times) * 1e6, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss))


def main():
    threads, runs = int(sys.argv[2]), int(sys.argv[3])
    torch.set_num_threads(threads)
    module, inputs = load(sys.argv[1])
    backend = sys.argv[4] if len(sys.argv) > 4 else None
    grad_off = torch.inference_mode
    want = None
    if backend == "none":     # eager, under no_grad like the others
        grad_off = torch.no_grad
    elif backend == "autocast-bf16":  # eager under torch.autocast, as fx-export --autocast bf16
        torch.backends.mha.set_fastpath_enabled(False)
        with torch.inference_mode(), torch.autocast("cpu", dtype=torch.bfloat16):
            report(lambda: module(*inputs), runs)
        return
    elif backend:
        with torch.no_grad():
            want = module(*inputs)
        if backend == "fxpipe":
            sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
            import fxpipe  # noqa: F401  registers the backend where it is not installed
        elif backend == "inductor-freezing":
            importlib.import_module("torch._inductor.config").freezing = True
            backend = "inductor"
        elif backend == "noop":     # dynamo alone: the graphs it hands over run as they are
            backend = lambda gm, example_inputs: gm.forward  # noqa: E731
        module = torch.compile(module.eval(), backend=backend)
        grad_off = torch.no_grad     # dynamo guards on inference mode too: one mode throughout
    with grad_off():
        if want is not None:
            check_close(module(*inputs), want, "torch.compile(backend=%s)" % sys.argv[4])
        report(lambda: module(*inputs), runs)


if __name__ == "__main__":
    main()
