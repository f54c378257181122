#!/usr/bin/env python3
"""bench.py OUTDIR - the table of `make bench` (run it through bench/run.sh).

The models are bench/models.py's: mlp_784 (MLP 784-512-256-10, batch
64), transformer_128 (TransformerEncoderLayer(d_model=256, nhead=4) on
128 tokens, batch 1, batch_first=False), resnet18, mobilenet_v2 and
resnet50, after two call-overhead rows (linear, a 2x16 mlp) whose time is
the cost of a call, not compute.  Per model: the compile time of the
whole pipe, fx-import through vmpack (fx-export, the Python side, not
counted), and per thread count (1, then all cores) one line of median
latencies, each baseline in a process of its own with that many threads:

  fx    fxpipe, `vmrun --benchmark`
  pt    PyTorch eager, this Python (Debian's 1.13 by default),
        inference mode (bench/eager.py)
  pt2   PyTorch 2 eager (.venv/), inference mode
  ORT   ONNX Runtime (.venv/): the model exported by torch.onnx.export,
        an InferenceSession with ORT_ENABLE_ALL, the thread count as
        intra-op threads, one inter-op thread, sequential (bench/ort.py)
  ind   torch.compile, Inductor with torch._inductor.config.freezing =
        True, under no_grad (bench/eager.py ... inductor-freezing)
  tcfx  torch.compile(backend="fxpipe") (fxpipe.dynamo), under no_grad

then the ratios fx/eager (PyTorch 2's eager where there is one, else
pt), fx/ORT and fx/ind, and vmrun's peak memory (--stats: the
function's arena, inputs and results, and the process's max RSS) next to
PyTorch eager's max RSS.  torch.compile's compile happens in the warm-up
runs and is not timed; ORT's export is a process of its own.  ORT's and
torch.compile's outputs must match eager's (allclose rtol 1e-3, atol
1e-4, or within 1e-3 of the output's magnitude) before they are timed:
a mismatch shows as "wrong" in the table and as a bench error, and the
bench exits 1 after writing the table.  Where .venv/ lacks PyTorch 2, or
onnxruntime and onnxscript (scripts/setup.sh installs them), those
columns print "n/a" and the table's head says why.

After the table: GFLOP/s at 1 thread and their share of one core's FMA
peak (bench/fma-peak.c) for mlp_784, resnet18 and resnet50, FLOPs
counted as 2 x the multiply-adds of convolutions and linear layers; each
column's speedup from 1 thread to all cores; how many cells meet issue
24's targets (fx/ORT <= 0.9, fx/ind <= 1.0, fx/eager <= 0.7); torch.compile's
cost per call on the call-overhead rows; resnet18 with a dynamic batch
against static modules at batches 1, 3 and 8 (in alternating rounds); a BERT-base layer with
a dynamic length against static modules at lengths 7, 100 and 512
(BENCH_DYNLEN=0 leaves it out); issue 25's low-precision rows (resnet50 and a
BERT-base layer in bf16 by fx-export --autocast, on AMX tiles where the CPU
has AMX-BF16, else by vdpbf16ps on AMD's Zen 4 and 5, resnet18 in int8
by PT2E, each beside its f32 module;
BENCH_LOW=0 leaves them out); f32 matmuls as torch-level models through the
same pipe (1024^3 with both operands inputs, and the 128x768x3072 linear
layer of a transformer FFN with a constant weight) in GFLOP/s.

Environment: BENCH_RUNS (timed runs, default 20, at least 20; the table's
fx column times as many as take a second, at least that: vmrun()),
BENCH_SETTLE (seconds of pause before each timed process, default 4),
BENCH_MODELS (a subset), BENCH_LOW, BENCH_DYNLEN, BENCH_TORCH2 (the PyTorch 2 Python, default
.venv/bin/python), FMA_PEAK (the fma-peak binary's output), LOW_PEAK (its
bf16 dot product, f16 FMA and AMX bf16 tile peaks, where the CPU has them).
"""
import importlib.util
import os
import re
import statistics
import subprocess
import sys
import time

import numpy as np
import torch

from models import DESCRIPTIONS, conv_linear_flops

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BIN = os.path.join(ROOT, "bin")
E2E = os.path.join(ROOT, "tests", "e2e")
SRC = os.path.join(HERE, "models.py")
OVERHEAD = ["linear", "mlp"]
MODELS = OVERHEAD + ["mlp_784", "transformer_128", "resnet18", "mobilenet_v2", "resnet50"]
FLOP_ROWS = ["mlp_784", "resnet18", "resnet50"]
# the latency columns: key, heading
COLUMNS = [("fx", "fx"), ("pt", "pt"), ("pt2", "pt2"), ("ort", "ORT"), ("ind", "ind"), ("tcfx", "tcfx")]
TARGETS = [("ort", "fx/ORT", 0.9), ("ind", "fx/ind", 1.0), ("eager", "fx/eager", 0.7)]
SETTLE = float(os.environ.get("BENCH_SETTLE", "4"))
VMRUN_MIN_S = 1.0   # the table's fx column: runs enough to take this long (vmrun)
COMPILE_RUNS = 3


def run_sh(cmd, env=None):
    # bash forks the command rather than exec it: a process forked from
    # this one (which holds torch) would report this one's max RSS as its own
    return subprocess.run(["bash", "-c", "set -o pipefail; %s; st=$?; exit $st" % cmd],
                          capture_output=True, text=True, env=env)


def sh(cmd, env=None):
    p = run_sh(cmd, env)
    if p.returncode:
        sys.exit("bench: %s\n%s" % (cmd, p.stderr.strip()))
    return p.stdout + p.stderr


def pipe(json_, vmfb):
    """the README's pipe, fx-import .. vmpack, as a shell command"""
    return ("'{b}/fx-import' '{j}' | '{b}/torch-opt' | '{b}/torch-lower' | '{b}/codegen' --target=cpu | "
            "'{b}/vmpack' -o '{v}'".format(b=BIN, j=json_, v=vmfb))


def compile_model(src, name, out):
    """Exports and compiles; returns (vmfb, seconds of fx-import .. vmpack,
    the median of COMPILE_RUNS runs of the pipe)."""
    json_, vmfb = os.path.join(out, name + ".json"), os.path.join(out, name + ".vmfb")
    sh("'%s/fx-export' '%s:%s' -o '%s'" % (BIN, src, name, json_))
    settle()
    times = []
    for _ in range(COMPILE_RUNS):
        t = time.perf_counter()
        sh(pipe(json_, vmfb))
        times.append(time.perf_counter() - t)
    return vmfb, sorted(times)[len(times) // 2]


def settle():
    """A pause before each timed process: after a big process exits, this
    kind of VM (firecracker, free page reporting) runs the next few seconds
    of work slowly -- a 2-thread transformer run right after PyTorch
    exited took 5x as long as one 5 s later."""
    time.sleep(SETTLE)


def vmrun(vmfb, inputs, threads, runs, min_s=0.0):
    """(median latency in us, peak bytes, max RSS in KiB); with min_s, of
    as many runs as take min_s seconds, at least runs: vmrun starts in
    milliseconds and the baselines after a second or more of importing
    Python, and a small model's 20 runs (6 ms of mlp_784's at 2 threads)
    were timed while the cores were still coming up from the pause
    before it (0.35-0.76 ms a run, 0.23 ms in a run a second long).  The
    short run then tells how many that is, and a second process times
    them."""
    settle()
    args = " ".join("--input=@'%s'" % p for p in inputs)
    cmd = "'%s/vmrun' '%s' %s --threads=%d --benchmark=%%d --stats" % (BIN, vmfb, args, threads)
    n = runs
    while True:
        out = sh(cmd % n)
        med = float(re.search(r"median ([0-9.]+) us", out).group(1))
        if n > runs or med * runs >= min_s * 1e6:
            break
        n = int(min_s * 1e6 / med + 1)
    peak = int(re.search(r"peak (\d+) bytes", out).group(1))
    rss = int(re.search(r"max RSS (\d+) KiB", out).group(1))
    return med, peak, rss


def thread_env(threads):
    return dict(os.environ, OMP_NUM_THREADS=str(threads), MKL_NUM_THREADS=str(threads),
                OPENBLAS_NUM_THREADS=str(threads))


def baseline(what, cmd, threads, errors):
    """(median latency in us, max RSS in KiB) that eager.py or ort.py
    prints, in a process of its own with THREADS threads; or "wrong" (its
    output differs from eager's) or "err" (it failed), with the reason
    added to errors."""
    settle()
    p = run_sh(cmd, thread_env(threads))
    if p.returncode == 0:
        med, rss = p.stdout.split()[-2:]
        return float(med), int(rss)
    last = (p.stderr.strip().splitlines() or ["exit status %d" % p.returncode])[-1]
    errors.append("%s, %d thread%s: %s%s" % (what, threads, "s" if threads > 1 else "",
                                             "output differs from eager's: " if p.returncode == 3 else "",
                                             last))
    return ("wrong" if p.returncode == 3 else "err"), 0


def eager(py, name, threads, runs, errors, backend="", src=SRC):
    """PyTorch eager, or torch.compile with BACKEND, in PY (bench/eager.py)"""
    return baseline("%s %s" % (name, backend or "eager (%s)" % py),
                    "'%s' '%s' '%s:%s' %d %d %s" % (py, os.path.join(HERE, "eager.py"), src, name, threads,
                                                    runs, backend),
                    threads, errors)


def ort(py, name, onnx, threads, runs, errors, mode=""):
    """ONNX Runtime on ONNX (bench/ort.py); mode "int8": its own int8
    model, not compared with eager"""
    return baseline("%s ONNX Runtime%s" % (name, " " + mode if mode else ""), "'%s' '%s' '%s:%s' '%s' %d %d %s" % (
        py, os.path.join(HERE, "ort.py"), SRC, name, onnx, threads, runs, mode), threads, errors)


def ort_int8(py, name, onnx, out, errors):
    """ONNX Runtime's static int8 quantization of onnx (bench/ort.py
    quantize), or "err" """
    q8 = os.path.join(out, name + "_ort_int8.onnx")
    p = run_sh("'%s' '%s' quantize '%s:%s' '%s' '%s'" % (py, os.path.join(HERE, "ort.py"), SRC, name,
                                                            onnx, q8))
    if p.returncode == 0:
        return q8
    errors.append("%s: ONNX Runtime's int8 quantization failed: %s" % (
        name, (p.stderr.strip().splitlines() or ["?"])[-1]))
    return "err"


def export_onnx(py, name, out, errors):
    """torch.onnx.export's file for the model, or "err" """
    onnx = os.path.join(out, name + ".onnx")
    p = run_sh("'%s' '%s' export '%s:%s' '%s'" % (py, os.path.join(HERE, "ort.py"), SRC, name, onnx))
    if p.returncode == 0:
        return onnx
    errors.append("%s: torch.onnx.export failed: %s" % (name, (p.stderr.strip().splitlines() or ["?"])[-1]))
    return "err"


def torch2():
    """(the PyTorch 2 Python, its torch version, ONNX Runtime's version or
    None), or None: .venv/'s Python, or $BENCH_TORCH2."""
    py = os.environ.get("BENCH_TORCH2") or os.path.join(ROOT, ".venv", "bin", "python")
    if not os.access(py, os.X_OK):
        return None
    p = subprocess.run([py, "-c", "import torch; print(torch.__version__)"], capture_output=True, text=True)
    if p.returncode or not p.stdout.startswith("2."):
        return None
    o = subprocess.run([py, "-c", "import onnxruntime, onnxscript; print(onnxruntime.__version__)"],
                       capture_output=True, text=True)
    return py, p.stdout.strip(), (o.stdout.strip() if o.returncode == 0 else None)


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


def compile_with(py, src, name, extra, out, tag):
    """fx-export with PY and EXTRA flags, then the pipe; the .vmfb"""
    json_, vmfb = os.path.join(out, "%s_%s.json" % (name, tag)), os.path.join(out, "%s_%s.vmfb" % (name, tag))
    fx_export = os.path.join(ROOT, "tools", "fx-export", "fx-export")
    sh("'%s' '%s' '%s:%s' %s -o '%s' 2>/dev/null" % (py, fx_export, src, name, extra, json_))
    sh(pipe(json_, vmfb))
    return vmfb


ROUNDS = 5   # alternating()'s rounds


def alternating(label, dyn, static, path, ncpu, runs):
    """A row of dyn against static on input path at 1 and ncpu threads,
    in alternating rounds, so that the machine's drift (a neighbour's
    load, the clock) falls on both alike: the rounds' medians' median."""
    row = "  %s:" % label
    for t in (1, ncpu):
        d, s = [], []
        for _ in range(ROUNDS):
            d.append(vmrun(dyn, [path], t, max(runs // ROUNDS, 4))[0])
            s.append(vmrun(static, [path], t, max(runs // ROUNDS, 4))[0])
        d_us, s_us = statistics.median(d), statistics.median(s)
        row += "  %d thread%s: dynamic %s, static %s, %5.3fx" % (
            t, "s" if t > 1 else "", ms(d_us), ms(s_us), d_us / s_us)
    return row


def dynamic_batch(py, out, ncpu, runs, lines):
    """resnet18 exported once with a dynamic batch (fx-export --dynamic,
    PyTorch 2) against static modules of batch 1, 3 and 8: codegen
    compiles the dynamic one as chunks of 8 and 1, so 1 and 8 should run
    as fast; 3 runs as one call of the chunk of 8 bounded at 3 items."""
    src = os.path.join(E2E, "e2e_models.py")
    x = np.random.default_rng(0).standard_normal((8, 3, 224, 224)).astype(np.float32)
    mods = {}
    for what, extra in (("dynamic", "--input 2x3x224x224xf32 --dynamic 0:0:batch=1..64"),
                        ("static1", "--input 1x3x224x224xf32"), ("static3", "--input 3x3x224x224xf32"),
                        ("static8", "--input 8x3x224x224xf32")):
        mods[what] = compile_with(py, src, "resnet18", extra, out, "dyn_" + what)
    lines.append("")
    lines.append("dynamic batch: resnet18 compiled once for batch 1..64 against static modules, "
                 "median of %d alternating rounds' medians, ms (ratio = dynamic / static)" % ROUNDS)
    print(lines[-1], flush=True)
    for b in (1, 3, 8):
        path = os.path.join(out, "dyn_x%d.npy" % b)
        np.save(path, x[:b])
        lines.append(alternating("batch %d" % b, mods["dynamic"], mods["static%d" % b], path,
                                 ncpu, runs))
        print(lines[-1], flush=True)


def dynamic_length(py, out, ncpu, runs, lines):
    """A BERT-base encoder layer exported once with a dynamic batch and
    length (1..512) against static modules of batch 1 at lengths 7, 100
    and 512: codegen pads a length to the shortest of its functions (32,
    128 and 512) that holds it, so 7 and 100 pay for 32 and 128."""
    src = os.path.join(ROOT, "tests", "torch-lower", "dynmodels.py")
    rng = np.random.default_rng(0)
    mods = {"dynamic": compile_with(py, src, "bert_base", "--input 2x7x768xf32 --dynamic 0:0:batch "
                                    "--dynamic 0:1:seq=1..512", out, "len_dynamic")}
    lines.append("")
    lines.append("dynamic length: a BERT-base layer compiled once for batch 1..64 and length 1..512 "
                 "against static modules (batch 1), median of %d alternating rounds' medians, ms "
                 "(ratio = dynamic / static)" % ROUNDS)
    print(lines[-1], flush=True)
    for n in (7, 100, 512):
        mods[n] = compile_with(py, src, "bert_base", "--input 1x%dx768xf32" % n, out, "len%d" % n)
        path = os.path.join(out, "len_x%d.npy" % n)
        np.save(path, rng.standard_normal((1, n, 768)).astype(np.float32))
        lines.append(alternating("length %d" % n, mods["dynamic"], mods[n], path, ncpu, runs))
        print(lines[-1], flush=True)


def low_precision(py, out, threads, runs, lines, errors):
    """Issue 25's rows: resnet50 and the BERT-base layer in f32 and in
    bf16 (fx-export --autocast bf16; eager under autocast), resnet18 in
    f32 and int8 (PT2E).  bf16 runs on AMX tiles (tdpbf16ps) where the
    CPU has AMX-BF16, else by vdpbf16ps on AMD's Zen 4 and 5 (AVX-512 BF16),
    else on the f32 kernels widened; int8 on AMX tiles
    (tdpbsud) where the CPU has AMX-INT8, else on vpdpbusd kernels where
    it has AVX-512 VNNI, else as f32 between its quantize and dequantize
    ops."""
    lines.append("")
    lines.append("low precision: median ms, fx = fxpipe, pt2 = PyTorch %s eager (bf16: under "
                 "torch.autocast), ORT = ONNX Runtime's best on the CPU (f32: its CPU provider "
                 "has no bf16 kernels; int8: its own static quantization); ratio = low precision "
                 "/ f32" % torch2()[1])
    print(lines[-1], flush=True)
    lines.append("  one core's peaks, GFLOP/s (bench/fma-peak.c): f32 FMA %s%s" % (
        os.environ.get("FMA_PEAK", "?"), "; " + os.environ["LOW_PEAK"] if os.environ.get("LOW_PEAK")
        else "; no AVX-512 BF16, FP16 or AMX-BF16 on this CPU"))
    print(lines[-1], flush=True)
    for name, tag, extra, eager_mode in (("resnet50", "bf16", "--autocast bf16", "autocast-bf16"),
                                         ("bert_base", "bf16", "--autocast bf16", "autocast-bf16"),
                                         ("resnet18_int8", "int8", "", None)):
        f32_name = "resnet18" if name == "resnet18_int8" else name
        try:
            low = compile_with(py, SRC, name, extra, out, tag)
            f32 = compile_with(py, SRC, f32_name, "", out, "f32")
        except SystemExit as e:
            errors.append("%s %s: %s" % (name, tag, str(e).splitlines()[-1]))
            continue
        ins = factory_inputs(SRC, f32_name, out)
        onnx = os.path.join(out, f32_name + ".onnx")
        if not os.path.exists(onnx):
            onnx = export_onnx(py, f32_name, out, errors)
        q8 = ort_int8(py, f32_name, onnx, out, errors) if tag == "int8" and onnx != "err" else None
        for t in threads:
            f_lo, f_32 = vmrun(low, ins, t, runs)[0], vmrun(f32, ins, t, runs)[0]
            row = "  %-14s %-4s %d thread%s: fx %s, fx f32 %s (%.2fx)" % (
                f32_name, tag, t, "s" if t > 1 else " ", ms(f_lo), ms(f_32), f_lo / f_32)
            if eager_mode:
                e_lo = eager(py, name, t, runs, errors, eager_mode)[0]
                e_32 = eager(py, name, t, runs, errors)[0]
                row += "; pt2 %s, pt2 f32 %s" % (cell(e_lo), cell(e_32))
                if isinstance(e_lo, float) and isinstance(e_32, float):
                    row += " (%.2fx)" % (e_lo / e_32)
            o32 = "err" if onnx == "err" else ort(py, f32_name, onnx, t, runs, errors)[0]
            if q8:
                o8 = "err" if q8 == "err" else ort(py, f32_name, q8, t, runs, errors, "int8")[0]
                row += "; ORT int8 %s, ORT f32 %s" % (cell(o8), cell(o32))
                if isinstance(o8, float):
                    row += "; fx/ORT %.2fx" % (f_lo / o8)
            else:
                row += "; ORT f32 %s" % cell(o32)
                if isinstance(o32, float):
                    row += "; fx/ORT %.2fx" % (f_lo / o32)
            lines.append(row)
            print(row, flush=True)


def ms(us):
    return "%.4g" % (us / 1e3)


def flops(name):
    """2 x the multiply-adds of the model's convolutions and linear layers"""
    spec = importlib.util.spec_from_file_location("bench_flops_" + name, SRC)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return conv_linear_flops(*getattr(mod, name)())


def cell(v):
    return ms(v) if isinstance(v, float) else v


def ratio(a, b):
    return "%.2fx" % (a / b) if isinstance(a, float) and isinstance(b, float) else "-"


def main():
    # this process builds the models' example inputs with torch: one
    # intra-op thread, so that no idle OpenMP worker of its own spins on a
    # core while vmrun and the baselines are timed
    torch.set_num_threads(1)
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    os.environ["FXPIPE_CACHE"] = os.path.join(out, "fxpipe-cache")     # torch.compile(backend="fxpipe")'s
    runs = max(20, int(os.environ.get("BENCH_RUNS", "20")))
    ncpu = len(os.sched_getaffinity(0))
    threads = sorted({1, ncpu})
    names = os.environ.get("BENCH_MODELS", " ".join(MODELS)).split()
    blas = os.environ.get("BENCH_BLAS", "?")
    cpu = "?"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    peak_s = os.environ.get("FMA_PEAK", "").split()
    peak1 = float(peak_s[0]) if peak_s else float("nan")
    lines = ["fxpipe bench: %s, %d cores (load average %.2f at the start); median of %d runs after warm-up "
             "(fx: of as many as take %g s, at least that)" % (cpu, ncpu, os.getloadavg()[0], runs, VMRUN_MIN_S),
             "pt: PyTorch %s eager (%s, BLAS: %s)" % (torch.__version__, sys.executable, blas)]
    pt2 = torch2()
    if pt2:
        lines.append("pt2, ind, tcfx: PyTorch %s (%s)" % (pt2[1], pt2[0]))
        if pt2[2]:
            lines.append("ORT: ONNX Runtime %s, CPU execution provider, ORT_ENABLE_ALL" % pt2[2])
        else:
            lines.append("ORT: n/a: %s cannot import onnxruntime and onnxscript (scripts/setup.sh installs them)"
                         % pt2[0])
    else:
        lines.append("pt2, ORT, ind, tcfx: n/a: no PyTorch 2 in .venv/ (scripts/setup.sh installs it, "
                     "with onnxruntime)")
    lines += ["latency: median ms; eager = pt2 where there is one, else pt; "
              "compile = fx-import .. vmpack, s; memory: MB", ""]
    hdr = "%-16s %3s | %s | %7s %7s %7s | %7s %7s %7s %7s" % (
        "model", "thr", " ".join("%8s" % h for _, h in COLUMNS), "fx/eagr", "fx/ORT", "fx/ind",
        "compile", "fx peak", "fx RSS", "pt RSS")
    lines += [hdr, "-" * len(hdr)]
    print("\n".join(lines), flush=True)
    errors = []
    res = {}
    built = {}   # name: (its .vmfb, its inputs' .npy files), from the table's loop
    for name in names:
        vmfb, ct = compile_model(SRC, name, out)
        ins = factory_inputs(SRC, name, out)
        built[name] = vmfb, ins
        onnx = export_onnx(pt2[0], name, out, errors) if pt2 and pt2[2] else None
        res[name] = {}
        for t in threads:
            r = res[name][t] = dict.fromkeys(k for k, _ in COLUMNS)
            r["fx"], peak, rss = vmrun(vmfb, ins, t, runs, VMRUN_MIN_S)
            r["pt"], prss = eager(sys.executable, name, t, runs, errors)
            for k in ("pt2", "ort", "ind", "tcfx"):
                r[k] = "n/a"
            if pt2:
                r["pt2"] = eager(pt2[0], name, t, runs, errors)[0]
                if onnx:
                    r["ort"] = "err" if onnx == "err" else ort(pt2[0], name, onnx, t, runs, errors)[0]
                r["ind"] = eager(pt2[0], name, t, runs, errors, "inductor-freezing")[0]
                r["tcfx"] = eager(pt2[0], name, t, runs, errors, "fxpipe")[0]
            r["eager"] = r["pt2"] if pt2 else r["pt"]
            row = "%-16s %3d | %s | %7s %7s %7s |" % (
                name, t, " ".join("%8s" % cell(r[k]) for k, _ in COLUMNS),
                ratio(r["fx"], r["eager"]), ratio(r["fx"], r["ort"]), ratio(r["fx"], r["ind"]))
            if t == 1:
                row += " %6.2fs %7.1f %7.1f %7.1f" % (ct, peak / 1e6, rss / 1024, prss / 1024)
            lines.append(row)
            print(row, flush=True)
    lines.append("")
    for name in names:
        lines.append("  %-16s %s" % (name, DESCRIPTIONS.get(name, "")))
    print("\n".join(lines[-len(names) - 1:]), flush=True)

    # GFLOP/s at 1 thread
    rows = [n for n in FLOP_ROWS if n in res]
    if rows:
        lines.append("")
        lines.append("1 thread, GFLOP/s (2 x multiply-adds of convolutions and linears) and %% of one core's "
                     "FMA peak, %.1f GFLOP/s (%s, bench/fma-peak.c)" % (peak1, peak_s[1] if len(peak_s) > 1 else "?"))
        for name in rows:
            fl = flops(name)
            r = res[name][1]
            lines.append("  %-16s %6.2f GFLOP: %s" % (name, fl / 1e9, ", ".join(
                "%s %.1f (%.0f%%)" % (h, fl / r[k] / 1e3, 100 * fl / r[k] / 1e3 / peak1)
                for k, h in COLUMNS if isinstance(r[k], float))))
        print("\n".join(lines[-len(rows) - 2:]), flush=True)
    if len(threads) > 1:
        lines.append("")
        lines.append("speedup, %d threads over 1 (1-thread time / %d-thread time)" % (ncpu, ncpu))
        lines.append("  %-16s %s" % ("model", " ".join("%6s" % h for _, h in COLUMNS)))
        for name in names:
            a, b = res[name][1], res[name][ncpu]
            lines.append("  %-16s %s" % (name, " ".join(
                "%6s" % ("%.2f" % (a[k] / b[k]) if isinstance(a[k], float) and isinstance(b[k], float) else "-")
                for k, _ in COLUMNS)))
        print("\n".join(lines[-len(names) - 3:]), flush=True)
    # issue 24's targets over the compute rows
    compute = [n for n in names if n not in OVERHEAD]
    if compute:
        lines.append("")
        lines.append("issue 24's targets, over the rows above the call-overhead ones at each thread count:")
        for k, what, goal in TARGETS:
            cells = [(n, t, res[n][t]["fx"] / res[n][t][k]) for n in compute for t in threads
                     if isinstance(res[n][t][k], float)]
            miss = ["%s@%dt %.2f" % c for c in cells if c[2] > goal]
            lines.append("  %-8s <= %.1f: %d of %d%s" % (what, goal, len(cells) - len(miss), len(cells),
                                                        "; misses: " + ", ".join(miss) if miss else ""))
        print("\n".join(lines[-len(TARGETS) - 2:]), flush=True)

    # torch.compile's cost per call on the call-overhead rows: 2000 runs each
    small = [n for n in names if n in OVERHEAD]
    if pt2 and small:
        lines.append("")
        lines.append("torch.compile per call, 1 thread, median of 2000 runs (us): fx = vmrun's own run; "
                     "tcfx = torch.compile(backend=\"fxpipe\"); over = tcfx - fx; "
                     "dynamo = torch.compile(no-op backend) - eager, dynamo's own part")
        lines.append("%-26s %9s %9s %9s %9s" % ("model", "fx", "tcfx", "over", "dynamo"))
        print("\n".join(lines[-3:]), flush=True)
        for name in small:
            f_us, _, _ = vmrun(*built[name], 1, 2000)
            c_us, n_us, e_us = (eager(pt2[0], name, 1, 2000, errors, b)[0] for b in ("fxpipe", "noop", "none"))
            if all(isinstance(v, float) for v in (c_us, n_us, e_us)):
                lines.append("%-26s %9.1f %9.1f %9.1f %9.1f" % (name, f_us, c_us, c_us - f_us, n_us - e_us))
                print(lines[-1], flush=True)
    if pt2 and "resnet18" in names:
        dynamic_batch(pt2[0], out, ncpu, runs, lines)
    if pt2 and os.environ.get("BENCH_DYNLEN", "1") != "0":
        dynamic_length(pt2[0], out, ncpu, runs, lines)
    if pt2 and os.environ.get("BENCH_LOW", "1") != "0":
        low_precision(pt2[0], out, threads, runs, lines, errors)
    # the matmuls
    mm = os.path.join(HERE, "matmul.py")
    lines.append("")
    lines.append("f32 matmul GFLOP/s: FMA peak %.1f per core (%s, bench/fma-peak.c)"
                 % (peak1, peak_s[1] if len(peak_s) > 1 else "?"))
    print(lines[-1])
    for name, what, flop in (("matmul_1024", "1024x1024x1024", 2.0 * 1024 ** 3),
                             ("ffn_128x768x3072", "128x768x3072 FFN linear", 2.0 * 128 * 768 * 3072)):
        vmfb, _ = compile_model(mm, name, out)
        ins = factory_inputs(mm, name, out)
        for t in threads:
            f_us, _, _ = vmrun(vmfb, ins, t, runs)
            p_us = eager(sys.executable, name, t, runs, errors, src=mm)[0]
            lines.append("  %-24s %d thread%s: fxpipe %6.1f (%3.0f%% of %.1f peak), PyTorch %s" % (
                what, t, "s" if t > 1 else " ", flop / f_us / 1e3, 100 * flop / f_us / 1e3 / (peak1 * t),
                peak1 * t, "%6.1f" % (flop / p_us / 1e3) if isinstance(p_us, float) else p_us))
            print(lines[-1], flush=True)
    lines.append("")
    lines.append("compile: fx-import | torch-opt | torch-lower | codegen | vmpack, wall time, median of 3; "
                 "fx = fxpipe (vmrun --benchmark); pt, pt2 = PyTorch eager (inference mode); ORT = ONNX Runtime "
                 "(ORT_ENABLE_ALL, intra-op threads = thr, inter-op 1, sequential); ind = torch.compile (Inductor, "
                 "freezing=True), tcfx = torch.compile(backend=\"fxpipe\"), no_grad, compile not timed; "
                 "fx peak = arena + inputs + results (vmrun --stats); RSS = max resident set size")
    lines.append("load average at the end: %.2f (above 1 on %d cores, other work shared them: the all-core "
                 "columns are then not to be trusted)" % (os.getloadavg()[0], ncpu))
    if errors:
        lines.append("")
        lines.append("bench errors (a baseline that failed or computed something else is not timed):")
        lines += ["  " + e for e in errors]
    with open(os.path.join(ROOT, "build", "bench.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines[-(len(errors) + 4 if errors else 2):]))
    print("written to build/bench.txt")
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
