#!/usr/bin/env python3
"""eager.py FILE.py:FACTORY THREADS RUNS [BACKEND] - PyTorch's side of `make bench`.

Runs the model eagerly at its best: THREADS intra-op threads (the caller
sets OMP_NUM_THREADS too), inference mode, 3 warm-up runs, then RUNS timed
runs.  Prints "median_us maxrss_kb".  Run it in a process of its own, so
that the peak RSS is this model's alone.  BACKEND (PyTorch 2): the model
through torch.compile with that backend ("inductor", "fxpipe") instead,
under no_grad; the warm-up runs compile it (not timed).  "noop" is
torch.compile with a backend that runs dynamo's graphs as they are: what
dynamo itself costs per call; "none" runs eagerly under no_grad, to
compare with it.
"""
import importlib.util
import os
import resource
import statistics
import sys
import time

import torch


def main():
    path, factory = sys.argv[1].rsplit(":", 1)
    threads, runs = int(sys.argv[2]), int(sys.argv[3])
    torch.set_num_threads(threads)
    spec = importlib.util.spec_from_file_location("bench_model", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    module, inputs = getattr(mod, factory)()
    grad_off = torch.inference_mode
    if len(sys.argv) > 4 and sys.argv[4] == "none":     # eager, under no_grad like the others
        grad_off = torch.no_grad
    elif len(sys.argv) > 4:
        backend = sys.argv[4]
        if backend == "fxpipe":
            sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
            import fxpipe  # noqa: F401  registers the backend where it is not installed
        elif backend == "noop":     # dynamo alone: the graphs it hands over run as they are
            backend = lambda gm, example_inputs: gm.forward  # noqa: E731
        module = torch.compile(module.eval(), backend=backend)
        grad_off = torch.no_grad     # dynamo guards on inference mode too: one mode throughout
    times = []
    with grad_off():
        for _ in range(3):
            module(*inputs)
        for _ in range(runs):
            t = time.perf_counter()
            module(*inputs)
            times.append(time.perf_counter() - t)
    print("%.1f %d" % (statistics.median(times) * 1e6, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss))


if __name__ == "__main__":
    main()
