#!/usr/bin/env python3
"""bench.py OUTDIR - the table of `make bench` (run it through bench/run.sh).

For each of the five test models (tests/e2e/e2e_models.py) and resnet50
(bench/models.py): the compile
time of the whole pipe, fx-import through vmpack (fx-export, the Python
side, not counted); fxpipe's latency, the median of `vmrun --benchmark`,
next to PyTorch eager's (bench/eager.py, in a process of its own, same
thread count), at 1 thread and at all cores; and vmrun's peak memory
(--stats: the function's arena, inputs and results, and the process's max
RSS) next to PyTorch's max RSS.  Then f32 matmuls as torch-level models
through the same pipe (1024^3 with both operands inputs, and the
128x768x3072 linear layer of a transformer FFN with a constant weight),
in GFLOP/s next to the FMA peak that bench/fma-peak measures.

Where .venv/ holds PyTorch 2 (scripts/setup.sh), two more latency
columns per thread count: the model through torch.compile with PyTorch's
default backend (Inductor) and with backend="fxpipe" (fxpipe.dynamo),
each in a process of that Python (bench/eager.py ... BACKEND); their
compile happens in the warm-up runs and is not timed.

Environment: BENCH_RUNS (timed runs, default 20, at least 20),
BENCH_SETTLE (seconds of pause before each timed process, default 4),
BENCH_MODELS (a subset), FMA_PEAK (the fma-peak binary's output).
"""
import importlib.util
import os
import re
import subprocess
import sys
import time

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BIN = os.path.join(ROOT, "bin")
E2E = os.path.join(ROOT, "tests", "e2e")
MODELS = ["linear", "mlp", "resnet18", "mobilenet_v2", "transformer_encoder_layer", "resnet50"]
SOURCES = {"resnet50": os.path.join(HERE, "models.py")}
SETTLE = float(os.environ.get("BENCH_SETTLE", "4"))
COMPILE_RUNS = 3


def sh(cmd, env=None):
    # bash forks the command rather than exec it: a process forked from
    # this one (which holds torch) would report this one's max RSS as its own
    p = subprocess.run(["bash", "-c", "set -o pipefail; %s; st=$?; exit $st" % cmd],
                       capture_output=True, text=True, env=env)
    if p.returncode:
        sys.exit("bench: %s\n%s" % (cmd, p.stderr.strip()))
    return p.stdout + p.stderr


def compile_model(src, name, out):
    """Exports and compiles; returns (vmfb, seconds of fx-import .. vmpack,
    the median of COMPILE_RUNS runs of the pipe)."""
    json_, vmfb = os.path.join(out, name + ".json"), os.path.join(out, name + ".vmfb")
    sh("'%s/fx-export' '%s:%s' -o '%s'" % (BIN, src, name, json_))
    settle()
    times = []
    for _ in range(COMPILE_RUNS):
        t = time.perf_counter()
        sh("'{b}/fx-import' '{j}' | '{b}/torch-opt' | '{b}/torch-lower' | '{b}/codegen' --target=cpu | "
           "'{b}/vmpack' -o '{v}'".format(b=BIN, j=json_, v=vmfb))
        times.append(time.perf_counter() - t)
    return vmfb, sorted(times)[len(times) // 2]


def settle():
    """A pause before each timed process: after a big process exits, this
    kind of VM (firecracker, free page reporting) runs the next few seconds
    of work slowly -- a 2-thread transformer run right after PyTorch
    exited took 5x as long as one 5 s later."""
    time.sleep(SETTLE)


def vmrun(vmfb, inputs, threads, runs):
    """(median latency in us, peak bytes, max RSS in KiB)"""
    settle()
    args = " ".join("--input=@'%s'" % p for p in inputs)
    out = sh("'%s/vmrun' '%s' %s --threads=%d --benchmark=%d --stats" % (BIN, vmfb, args, threads, runs))
    med = float(re.search(r"median ([0-9.]+) us", out).group(1))
    peak = int(re.search(r"peak (\d+) bytes", out).group(1))
    rss = int(re.search(r"max RSS (\d+) KiB", out).group(1))
    return med, peak, rss


def eager(src, name, threads, runs):
    """(median latency in us, max RSS in KiB) of PyTorch in its own process"""
    settle()
    env = dict(os.environ, OMP_NUM_THREADS=str(threads), MKL_NUM_THREADS=str(threads),
               OPENBLAS_NUM_THREADS=str(threads))
    out = sh("'%s' '%s' '%s:%s' %d %d" % (sys.executable, os.path.join(HERE, "eager.py"), src, name,
                                          threads, runs), env)
    med, rss = out.split()
    return float(med), int(rss)


def torch2():
    """The PyTorch 2 Python (.venv/, or $BENCH_TORCH2), or None."""
    py = os.environ.get("BENCH_TORCH2") or os.path.join(ROOT, ".venv", "bin", "python")
    if not os.access(py, os.X_OK):
        return None
    p = subprocess.run([py, "-c", "import torch; print(torch.__version__)"], capture_output=True, text=True)
    return (py, p.stdout.strip()) if p.returncode == 0 and p.stdout.startswith("2.") else None


def compiled(py, src, name, threads, runs, backend, cache):
    """(median latency in us) of torch.compile(backend=...) in its own process"""
    settle()
    env = dict(os.environ, OMP_NUM_THREADS=str(threads), MKL_NUM_THREADS=str(threads),
               OPENBLAS_NUM_THREADS=str(threads), FXPIPE_CACHE=cache)
    out = sh("'%s' '%s' '%s:%s' %d %d %s 2>/dev/null" % (py, os.path.join(HERE, "eager.py"), src, name,
                                                        threads, runs, backend), env)
    return float(out.split()[0])


def factory_inputs(src, name, out):
    """The factory's example inputs as .npy files (the same inputs eager.py
    runs on: the factories seed themselves)."""
    spec = importlib.util.spec_from_file_location("bench_src_" + name, src)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    _, inputs = getattr(mod, name)()
    paths = []
    for i, x in enumerate(inputs):
        paths.append(os.path.join(out, "%s.in%d.npy" % (name, i)))
        np.save(paths[-1], x.detach().numpy())
    return paths


def dynamic_batch(py, out, ncpu, runs, lines):
    """resnet18 exported once with a dynamic batch (fx-export --dynamic,
    PyTorch 2) against static modules of batch 1 and 8: codegen compiles
    the dynamic one as chunks of 8 and 1, so each should run as fast."""
    src = os.path.join(E2E, "e2e_models.py")
    x = np.random.default_rng(0).standard_normal((8, 3, 224, 224)).astype(np.float32)
    mods = {}
    for what, extra in (("dynamic", "--input 2x3x224x224xf32 --dynamic 0:0:batch=1..64"),
                        ("static1", "--input 1x3x224x224xf32"), ("static8", "--input 8x3x224x224xf32")):
        json_, mods[what] = os.path.join(out, "dyn_%s.json" % what), os.path.join(out, "dyn_%s.vmfb" % what)
        fx_export = os.path.join(ROOT, "tools", "fx-export", "fx-export")
        sh("'%s' '%s' '%s:resnet18' %s -o '%s' 2>/dev/null" % (py, fx_export, src, extra, json_))
        sh("'{b}/fx-import' '{j}' | '{b}/torch-opt' | '{b}/torch-lower' | '{b}/codegen' --target=cpu | "
           "'{b}/vmpack' -o '{v}'".format(b=BIN, j=json_, v=mods[what]))
    lines.append("")
    lines.append("dynamic batch: resnet18 compiled once for batch 1..64 against static modules, "
                 "median ms (ratio = dynamic / static)")
    print(lines[-1], flush=True)
    for b in (1, 8):
        path = os.path.join(out, "dyn_x%d.npy" % b)
        np.save(path, x[:b])
        row = "  batch %d:" % b
        for t in (1, ncpu):
            d_us = vmrun(mods["dynamic"], [path], t, runs)[0]
            s_us = vmrun(mods["static%d" % b], [path], t, runs)[0]
            row += "  %d thread%s: dynamic %s, static %s, %5.3fx" % (
                t, "s" if t > 1 else "", ms(d_us), ms(s_us), d_us / s_us)
        lines.append(row)
        print(row, flush=True)


def ms(us):
    return "%.4g" % (us / 1e3)


def main():
    # this process builds the models' example inputs with torch: one
    # intra-op thread, so that no idle OpenMP worker of its own spins on a
    # core while vmrun and eager.py are timed
    torch.set_num_threads(1)
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    runs = max(20, int(os.environ.get("BENCH_RUNS", "20")))
    ncpu = len(os.sched_getaffinity(0))
    names = os.environ.get("BENCH_MODELS", " ".join(MODELS)).split()
    blas = os.environ.get("BENCH_BLAS", "?")
    cpu = "?"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    lines = ["fxpipe bench: %s, %d cores (load average %.2f at the start); PyTorch %s eager "
             "(BLAS: %s); median of %d runs after warm-up" % (cpu, ncpu, os.getloadavg()[0],
                                                             torch.__version__, blas, runs), ""]
    hdr = "%-26s %8s | %9s %9s %6s | %9s %9s %6s | %10s %10s %10s" % (
        "model", "compile", "fx 1t ms", "pt 1t ms", "ratio", "fx %dt ms" % ncpu, "pt %dt ms" % ncpu,
        "ratio", "fx peak MB", "fx RSS MB", "pt RSS MB")
    pt2 = torch2()
    if pt2:
        hdr += " | " + " | ".join("%9s %9s" % ("ind %dt ms" % t, "tcfx %dt" % t) for t in (1, ncpu))
        lines[0] += "; torch.compile: PyTorch %s (%s)" % (pt2[1], pt2[0])
    else:
        lines[0] += "; no .venv/ with PyTorch 2: no torch.compile columns (scripts/setup.sh)"
    lines += [hdr, "-" * len(hdr)]
    print("\n".join(lines), flush=True)
    small_rows = []
    for name in names:
        src = SOURCES.get(name, os.path.join(E2E, "e2e_models.py"))
        vmfb, ct = compile_model(src, name, out)
        ins = factory_inputs(src, name, out)
        row = ["%-26s %7.2fs" % (name, ct)]
        peak = rss = prss = 0
        for t in (1, ncpu):
            f_us, peak, rss = vmrun(vmfb, ins, t, runs)
            p_us, prss = eager(src, name, t, runs)
            row.append("%9s %9s %5.2fx" % (ms(f_us), ms(p_us), f_us / p_us))
            if t == 1:
                small_rows.append(f_us)
        row.append("%10.1f %10.1f %10.1f" % (peak / 1e6, rss / 1024, prss / 1024))
        if pt2:
            cache = os.path.join(out, "fxpipe-cache")
            for t in (1, ncpu):
                row.append("%9s %9s" % tuple(ms(compiled(pt2[0], src, name, t, runs, b, cache))
                                            for b in ("inductor", "fxpipe")))
        lines.append(" | ".join(row))
        print(lines[-1], flush=True)
    # torch.compile's cost per call on the small models: 2000 runs each
    if pt2:
        small = [(n, r) for n, r in zip(names, small_rows) if r < 1000]
        if small:
            lines.append("")
            lines.append("torch.compile per call, 1 thread, median of 2000 runs (us): fx = vmrun's own run; "
                         "tcfx = torch.compile(backend=\"fxpipe\"); over = tcfx - fx; "
                         "dynamo = torch.compile(no-op backend) - eager, dynamo's own part")
            lines.append("%-26s %9s %9s %9s %9s" % ("model", "fx", "tcfx", "over", "dynamo"))
            print("\n".join(lines[-3:]), flush=True)
            cache = os.path.join(out, "fxpipe-cache")
            for name, _ in small:
                src = SOURCES.get(name, os.path.join(E2E, "e2e_models.py"))
                vmfb, _ = compile_model(src, name, out)
                f_us, _, _ = vmrun(vmfb, factory_inputs(src, name, out), 1, 2000)
                c_us = compiled(pt2[0], src, name, 1, 2000, "fxpipe", cache)
                n_us = compiled(pt2[0], src, name, 1, 2000, "noop", cache)
                e_us = compiled(pt2[0], src, name, 1, 2000, "none", cache)
                lines.append("%-26s %9.1f %9.1f %9.1f %9.1f" % (name, f_us, c_us, c_us - f_us, n_us - e_us))
                print(lines[-1], flush=True)
    if pt2 and "resnet18" in names:
        dynamic_batch(pt2[0], out, ncpu, runs, lines)
    # the matmuls
    mm = os.path.join(HERE, "matmul.py")
    peak_s = os.environ.get("FMA_PEAK", "").split()
    peak1 = float(peak_s[0]) if peak_s else float("nan")
    lines.append("")
    lines.append("f32 matmul GFLOP/s: FMA peak %.1f per core (%s, bench/fma-peak.c)"
                 % (peak1, peak_s[1] if len(peak_s) > 1 else "?"))
    print(lines[-1])
    for name, what, flop in (("matmul_1024", "1024x1024x1024", 2.0 * 1024 ** 3),
                             ("ffn_128x768x3072", "128x768x3072 FFN linear", 2.0 * 128 * 768 * 3072)):
        vmfb, _ = compile_model(mm, name, out)
        ins = factory_inputs(mm, name, out)
        for t in (1, ncpu):
            f_us, _, _ = vmrun(vmfb, ins, t, runs)
            p_us, _ = eager(mm, name, t, runs)
            lines.append("  %-24s %d thread%s: fxpipe %6.1f (%3.0f%% of %.1f peak), PyTorch %6.1f" % (
                what, t, "s" if t > 1 else " ", flop / f_us / 1e3, 100 * flop / f_us / 1e3 / (peak1 * t),
                peak1 * t, flop / p_us / 1e3))
            print(lines[-1], flush=True)
    lines.append("")
    lines.append("compile: fx-import | torch-opt | torch-lower | codegen | vmpack, wall time, median of 3; "
                 "fx = fxpipe (vmrun --benchmark), pt = PyTorch eager; ratio = fx / pt; "
                 "fx peak = arena + inputs + results (vmrun --stats); RSS = max resident set size; "
                 "ind = torch.compile (Inductor), tcfx = torch.compile(backend=\"fxpipe\"), PyTorch 2, "
                 "no_grad, compile not timed")
    with open(os.path.join(ROOT, "build", "bench.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print(lines[-1])
    print("written to build/bench.txt")


if __name__ == "__main__":
    main()
