"""pipe.py - one program through fxpipe's whole pipe, compared with eager.

    from pipe import run_module
    problem = run_module(module, inputs, workdir)   # None when it matches

The module is exported in-process with fx_export (no torch import per
program), then fx-import | torch-opt | torch-lower | codegen | vmpack and
vmrun run as separate processes, as a user runs them.  The comparison is
tests/e2e's: same shapes and element types, allclose(rtol, atol,
equal_nan) for floats, exact for integers and booleans.
"""
import os
import random
import shutil
import subprocess
import sys
import tempfile

import numpy as np
import torch

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools", "fx-export"))
import fx_export  # noqa: E402
sys.path.insert(0, os.path.join(ROOT, "tests", "e2e"))
from model import close as compare  # noqa: E402  (tests/e2e's comparison)

BIN = os.environ.get("FXPIPE_BIN", os.path.join(ROOT, "bin"))

# numpy cannot hold bf16: vmrun reads and writes it as raw 16-bit words.
TOL = {torch.float32: (1e-3, 1e-5), torch.float64: (1e-6, 1e-9),
       torch.float16: (1e-2, 1e-2), torch.bfloat16: (3e-2, 3e-2),
       torch.complex64: (1e-3, 1e-5), torch.complex128: (1e-6, 1e-9)}
# each float type's unit roundoff (fuzz.py's jitter)
ROUNDOFF = {torch.float32: 2.0 ** -24, torch.float64: 2.0 ** -53, torch.float16: 2.0 ** -11,
            torch.bfloat16: 2.0 ** -8, torch.complex64: 2.0 ** -24, torch.complex128: 2.0 ** -53}


class Failure(Exception):
    """kind: 'export' (PyTorch side, not ours), 'refused' (a clear error
    from a stage), 'crash' (a signal, a sanitizer report, an internal error)
    or 'mismatch'."""

    def __init__(self, kind, message):
        super().__init__(message)
        self.kind = kind


def to_numpy(t):
    t = t.detach()
    if t.dtype == torch.bfloat16:
        return t.contiguous().view(torch.int16).numpy().view(np.uint16), "bf16"
    return t.contiguous().numpy(), None


def save_input(path, t):
    """Writes t for vmrun; returns the --input= value.  bf16 has no .npy
    dtype: raw bytes with the shape and type in the spec."""
    a, kind = to_numpy(t)
    if kind == "bf16":
        a.tofile(path[:-4] + ".bin")
        return "%sbf16=@%s" % ("".join("%dx" % d for d in t.shape), path[:-4] + ".bin")
    np.save(path, a)
    return "@" + path


def stage_error(name, proc):
    err = proc.stderr.decode("utf-8", "replace").strip()
    if proc.returncode < 0 or "Sanitizer" in err or "runtime error:" in err \
            or "internal error" in err:
        return Failure("crash", "%s: exit %d: %s" % (name, proc.returncode, err[-2000:]))
    return Failure("refused", "%s: %s" % (name, err.splitlines()[-1] if err else
                                          "exit %d with no message" % proc.returncode))


# The stages' own reproducers off (FXPIPE_REPRO_DIR set but empty): the
# tester keeps each case and prints its replay, and a refusal's message
# is the stage's last line.
STAGE_ENV = dict(os.environ, FXPIPE_REPRO_DIR="")


def sh(name, argv, stdin=None, timeout=300):
    try:
        p = subprocess.run(argv, input=stdin, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=timeout, env=STAGE_ENV)
    except subprocess.TimeoutExpired:
        raise Failure("crash", "%s: hung (no exit in %d s)" % (name, timeout))
    err = p.stderr.decode("utf-8", "replace")
    if p.returncode != 0:
        raise stage_error(name, p)
    if "Sanitizer" in err or "runtime error:" in err:
        raise Failure("crash", "%s: exit 0 but: %s" % (name, err[-2000:]))
    return p.stdout


def export_module(module, inputs, d, dynamic=None):
    """fx_export in-process; returns the JSON path.  dynamic: a list of
    fx_export's DynamicDim (torch.export, PyTorch 2)."""
    js = os.path.join(d, "m.json")
    try:
        fx_export.export(module, tuple(inputs), js,
                         graph=getattr(module, "fxpipe_graph", "aten"), dynamic=dynamic)
    except Exception as e:  # PyTorch could not trace it: not our bug
        raise Failure("export", "fx-export: %s: %s" % (type(e).__name__, e))
    return js


def compile_json(js, d):
    """fx-import | torch-opt | torch-lower | codegen | vmpack; returns the
    .vmfb path."""
    ir = sh("fx-import", [os.path.join(BIN, "fx-import"), js])
    for tool, args in (("torch-opt", []), ("torch-lower", []),
                       ("codegen", ["--target=cpu"])):
        ir = sh(tool, [os.path.join(BIN, tool)] + args, ir)
    vmfb = os.path.join(d, "m.vmfb")
    sh("vmpack", [os.path.join(BIN, "vmpack"), "-o", vmfb], ir)
    return vmfb


def compile_module(module, inputs, d):
    """Export and compile; returns the .vmfb path."""
    return compile_json(export_module(module, inputs, d), d)


def run_module(module, inputs, d, alt=None, tols=None, nudged=(), jitter=()):
    """Raises Failure, or returns None when every output matches eager.
    alt: optional second references (the same program computed in f64 and
    cast back): a float result close to either is right, so that a fused
    chain rounding less often than eager does is not a mismatch.
    tols: optional (rtol, atol) per result, in place of its dtype's (an f64
    result computed from f32 values is as precise as f32); nudged,
    jitter: lists like alt, for tests/e2e/model.py's close."""
    os.makedirs(d, exist_ok=True)
    with torch.no_grad():  # on copies: the module may write into its inputs
        want = module(*[x.clone() for x in inputs])
    want = (want,) if isinstance(want, torch.Tensor) else tuple(want)
    vmfb = compile_module(module, [x.clone() for x in inputs], d)
    return run_compiled(vmfb, inputs, want, d, alt, tols, nudged, jitter)


def vmrun_argv(vmfb, inputs, d):
    """vmrun's command line for inputs (written under d), no results."""
    argv = [os.path.join(BIN, "vmrun"), vmfb]
    for i, x in enumerate(inputs):
        argv.append("--input=" + save_input(os.path.join(d, "in%d.npy" % i), x))
    return argv


def run_compiled(vmfb, inputs, want, d, alt=None, tols=None, nudged=(), jitter=()):
    """vmrun on inputs, each result compared with want's (eager's); raises
    Failure (alt, tols: run_module's; nudged, jitter: lists like alt, the
    program on nudged inputs, for tests/e2e/model.py's close)."""
    argv = vmrun_argv(vmfb, inputs, d)
    for i, w in enumerate(want):
        ext = "bin" if w.dtype == torch.bfloat16 else "npy"
        argv.append("--output=@" + os.path.join(d, "out%d.%s" % (i, ext)))
    sh("vmrun", argv)
    for i, w in enumerate(want):
        wa, kind = to_numpy(w)
        if kind == "bf16":
            ga = np.fromfile(os.path.join(d, "out%d.bin" % i), dtype=np.uint16)
            if ga.size != w.numel():
                raise Failure("mismatch", "result %d: %d bf16 values, expected %d"
                              % (i, ga.size, w.numel()))
            ga = ga.reshape(tuple(w.shape))
        else:
            ga = np.load(os.path.join(d, "out%d.npy" % i))
        rtol, atol = TOL.get(w.dtype, (0, 0))
        if np.iscomplexobj(wa):   # complex: the (real, imaginary) pairs
            if ga.dtype != wa.dtype:
                raise Failure("mismatch", "result %d: element type %s, expected %s"
                              % (i, ga.dtype, wa.dtype))
            ga, wa = (np.stack([a.real, a.imag], -1) for a in (ga, wa))
        if tols and tols[i] and w.is_floating_point():
            rtol, atol = max(rtol, tols[i][0]), max(atol, tols[i][1])
        if kind == "bf16":
            ga = torch.from_numpy(ga.view(np.int16)).view(torch.bfloat16).float().numpy()
            wa = w.float().numpy()
        wb, wn, wj = None, [], []
        if alt is not None and w.is_floating_point():
            wb, *wn = (r[i].to(w.dtype) for r in [alt, *nudged])
            wb, *wn = (r.float().numpy() if kind == "bf16" else to_numpy(r)[0] for r in [wb, *wn])
            if not np.iscomplexobj(wa):
                # the spread in f64, before the cast to the result's type
                # (inf - inf: NaN, no spread)
                with np.errstate(invalid="ignore", over="ignore"):
                    wj = [np.abs(r[i].double().numpy() - alt[i].double().numpy()) for r in jitter]
        e = compare(ga, wa, rtol, atol, wb, wn, wj)
        if e:
            raise Failure("mismatch", "result %d: %s" % (i, e))
    return None


def compile_gemms(js, d, variants, mark):
    """The model fuzzers' compile: the JSON through the pipe once per
    (name, codegen flags) of variants into d/NAME.vmfb; returns those
    paths, how many GEMMs of the first (--dump-dispatches) have mark in
    their line, and of how many."""
    ir = sh("fx-import", [os.path.join(BIN, "fx-import"), js])
    for tool in ("torch-opt", "torch-lower"):
        ir = sh(tool, [os.path.join(BIN, tool)], ir)
    out = []
    for tag, args in variants:
        mod = sh("codegen", [os.path.join(BIN, "codegen")] + args, ir)
        vmfb = os.path.join(d, tag + ".vmfb")
        sh("vmpack", [os.path.join(BIN, "vmpack"), "-o", vmfb], mod)
        out.append(vmfb)
    dump = sh("codegen", [os.path.join(BIN, "codegen"), "--dump-dispatches"] + variants[0][1], ir)
    gemms = [ln for ln in dump.decode().splitlines() if "gemm:" in ln]
    return out, sum(mark in ln for ln in gemms), len(gemms)


def fx_run(vmfb, x, want, d):
    """tests/e2e/fxrun's run of the module (on BIN) as numpy arrays, a
    failure as Failure"""
    import fxrun

    fxrun.VMRUN = os.path.join(BIN, "vmrun")
    try:
        return [y.numpy() for y in fxrun.run(vmfb, x, want, d)]
    except subprocess.CalledProcessError as e:
        raise Failure("vmrun", f"vmrun: exit {e.returncode}")


def fuzz_main(name, make, check, counted):
    """A model fuzzer's command line (qfuzz.py, convfuzz.py): [--seed S]
    [--count N] [--keep DIR].  For each of N models make(r, i) gives
    (model, example input, description), and check(model, example, d, i,
    counts) compiles and runs it in directory d (under DIR, else a
    temporary one), adding what it counts to counts[0] (GEMMs that are
    what the fuzzer is after, printed as "counted") and counts[1] (GEMMs)
    and raising Failure on a mismatch, printed with the description.
    Same seed, same models.  Returns the exit status: 1 if any failed."""
    import argparse

    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--keep", help="keep each model's files under this directory")
    a = ap.parse_args()
    r = random.Random(a.seed)
    fails, counts = 0, [0, 0]
    base = a.keep or tempfile.mkdtemp(prefix=name + ".")
    for i in range(a.count):
        d = os.path.join(base, str(i))
        os.makedirs(d, exist_ok=True)
        model, example, desc = make(r, a.seed * 100003 + i)
        try:
            check(model, example, d, i, counts)
        except Failure as f:
            fails += 1
            print(f"model {i} (seed {a.seed}): {desc}\n  {f}", flush=True)
    if not a.keep:
        shutil.rmtree(base, ignore_errors=True)
    print(f"{name}: seed {a.seed}: {a.count} models, {counts[0]} of {counts[1]} GEMMs {counted}")
    print(f"{a.count - fails} passed, {fails} failed")
    return 1 if fails else 0
