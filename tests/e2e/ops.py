#!/usr/bin/env python3
"""ops.py OP... - the op fixtures of tests/torch-lower through the real tools.

For each OP it compiles tests/torch-lower/ops/OP.mlir with the pipe

    torch-lower OP.mlir | codegen --target=cpu | vmpack -o OP.vmfb

(one module for all of the op's variants: the functions @v0, @v1, ...),
runs every variant with vmrun on the inputs recorded in OP.json and compares
its results with the outputs PyTorch gave: same shape, same element type,
floats as tests/torch-lower/run.py compares them (|got - want| <= atol +
rtol |want|, rtol 1e-3 and atol 1e-7 for f32 and f64, the documented f16
and bf16 exceptions, a variant's own "tol" where it has one; NaN equal to
NaN), integers and booleans exactly.  Needs numpy, not torch.

Environment: VMRUN_FLAGS (e.g. --threads=1), KEEP=DIR (keep the work files).
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
OPS = os.path.join(ROOT, "tests", "torch-lower", "ops")
BIN = os.path.join(ROOT, "bin")
# torch dtype in OP.json -> (vmrun's element type, numpy dtype of the .npy)
DTYPE = {"f32": ("f32", np.float32), "f64": ("f64", np.float64), "f16": ("f16", np.float16),
         "bf16": ("bf16", np.uint16), "si64": ("i64", np.int64), "si32": ("i32", np.int32),
         "si16": ("i16", np.int16), "si8": ("i8", np.int8), "ui8": ("ui8", np.uint8),
         "i1": ("i1", np.bool_)}
TOL = {"f32": (1e-3, 1e-7), "f64": (1e-3, 1e-7), "f16": (2e-3, 1e-5), "bf16": (1.6e-2, 2e-3)}


def bf16_bits(data):
    """Round-to-nearest-even f32 -> bf16, as PyTorch rounds."""
    bits = np.array(data, dtype=np.float32).view(np.uint32).astype(np.uint64)
    return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)


def values(t):
    data = [float(v) if isinstance(v, str) else v for v in t["data"]]
    if t["dtype"] == "bf16":
        return bf16_bits(data).reshape(t["shape"])
    return np.array(data, dtype=DTYPE[t["dtype"]][1]).reshape(t["shape"])


def spec(t, path):
    """vmrun's --input/--output form for tensor T in raw bytes at PATH."""
    shape = "x".join(str(d) for d in t["shape"])
    return "%s%s=@%s" % (shape + "x" if shape else "", DTYPE[t["dtype"]][0], path)


def read_result(t, path):
    """The result vmrun wrote, as float64 or integers, or an error string."""
    dt = t["dtype"]
    if dt == "bf16":
        raw = np.fromfile(path, np.uint16)
        n = int(np.prod(t["shape"], dtype=np.int64))
        if raw.size != n:
            return "%d values, expected %d" % (raw.size, n)
        return (raw.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    got = np.load(path)
    if list(got.shape) != list(t["shape"]):
        return "shape %s, expected %s" % (list(got.shape), t["shape"])
    if got.dtype != DTYPE[dt][1]:
        return "element type %s, expected %s" % (got.dtype, DTYPE[dt][0])
    return got.reshape(-1)


def compare(got, t, tol):
    dt = t["dtype"]
    if dt in TOL:
        want = np.array([float(v) for v in t["data"]], np.float64)
        if dt != "bf16":  # what PyTorch printed, at the result's own precision
            want = want.astype(DTYPE[dt][1]).astype(np.float64)
        rtol, atol = TOL[dt]
        if tol:
            rtol, atol = tol.get("rtol", rtol), tol.get("atol", atol)
        g = got.astype(np.float64)
        with np.errstate(invalid="ignore"):
            ok = (np.abs(g - want) <= atol + rtol * np.abs(want)) | \
                (np.isnan(g) & np.isnan(want)) | ((g == want) & np.isinf(want))
    else:
        want = values(t).reshape(-1)
        ok = got == want
    if not ok.all():
        bad = np.nonzero(~ok)[0]
        return "%d of %d differ: %s" % (len(bad), got.size, "; ".join(
            "[%d] got %s, expected %s" % (i, got[i], want[i]) for i in bad[:4]))
    return None


def compile_op(op, tmp):
    vmfb = os.path.join(tmp, op + ".vmfb")
    # $TORCH_LOWER_FLAGS: e.g. --mlir-dialect-version=20 (upstream-syntax.bats)
    flags = " ".join("'%s'" % f for f in os.environ.get("TORCH_LOWER_FLAGS", "").split())
    pipe = "set -o pipefail; '%s/torch-lower' %s '%s' | '%s/codegen' --target=cpu | '%s/vmpack' -o '%s'" % (
        BIN, flags, os.path.join(OPS, op + ".mlir"), BIN, BIN, vmfb)
    p = subprocess.run(["bash", "-c", pipe], capture_output=True, text=True)
    if p.returncode:
        return None, "the pipe failed: " + p.stderr.strip()[:800]
    return vmfb, None


def run_variant(vmfb, vi, v, tmp, flags):
    args = [os.path.join(BIN, "vmrun"), vmfb, "--function=v%d" % vi] + flags
    for ii, t in enumerate(v["inputs"]):
        path = os.path.join(tmp, "v%d.in%d.bin" % (vi, ii))
        values(t).tofile(path)
        args.append("--input=" + spec(t, path))
    outs = []
    for oi, t in enumerate(v["outputs"]):
        outs.append(os.path.join(tmp, "v%d.out%d.%s" % (vi, oi, "bin" if t["dtype"] == "bf16" else "npy")))
        args.append("--output=@" + outs[-1])
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode:
        return ["v%d: vmrun failed: %s" % (vi, r.stderr.strip()[:300])]
    errs = []
    for oi, t in enumerate(v["outputs"]):
        got = read_result(t, outs[oi])
        e = got if isinstance(got, str) else compare(got, t, v.get("tol"))
        if e:
            errs.append("v%d result %d (%s): %s" % (vi, oi, t["dtype"], e))
    return errs


def check(op, tmp, flags):
    with open(os.path.join(OPS, op + ".json")) as f:
        variants = json.load(f)["variants"]
    vmfb, err = compile_op(op, tmp)
    if err:
        return [err], len(variants)
    errs = []
    for vi, v in enumerate(variants):
        errs += run_variant(vmfb, vi, v, tmp, flags)
    return errs, len(variants)


def main():
    flags = os.environ.get("VMRUN_FLAGS", "").split()
    ops = sys.argv[1:] or sorted(f[:-5] for f in os.listdir(OPS) if f.endswith(".json"))
    failed = 0
    for op in ops:
        tmp = tempfile.mkdtemp(prefix="e2e-ops.")
        try:
            errs, n = check(op, tmp, flags)
        finally:
            keep = os.environ.get("KEEP")
            if keep:
                shutil.copytree(tmp, os.path.join(keep, op), dirs_exist_ok=True)
            shutil.rmtree(tmp)
        if errs:
            failed += 1
            print("FAIL %s" % op)
            for e in errs[:6]:
                print("  " + e)
        else:
            print("ok   %s (%d variants)" % (op, n))
    if len(ops) > 1:
        print("%d passed, %d failed" % (len(ops) - failed, failed))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
