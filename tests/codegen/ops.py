#!/usr/bin/env python3
"""ops.py OP... - checks codegen's kernels against PyTorch, op by op.

For each OP it lowers tests/torch-lower/ops/OP.mlir with bin/torch-lower,
compiles the result with bin/codegen (the fxvm module and, with
--emit=obj, its kernels as an ELF object that cc links into a shared
object), runs every variant with fxvm-interp on the inputs recorded in
OP.json and compares with the outputs PyTorch gave.  Tolerances as in
tests/torch-lower/run.py.  Needs numpy, not torch.

Environment: FXVM_INTERP (the built tests/codegen/fxvm-interp), CODEGEN_FLAGS.
"""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
OPS = os.path.join(ROOT, "tests", "torch-lower", "ops")
NP = {"f32": np.float32, "f64": np.float64, "f16": np.float16, "si64": np.int64,
      "si32": np.int32, "si16": np.int16, "si8": np.int8, "ui8": np.uint8, "i1": np.uint8}
TOL = {"f32": (1e-3, 1e-6), "f64": (1e-3, 1e-7), "f16": (2e-3, 1e-5), "bf16": (1.6e-2, 2e-3)}


def to_array(t):
    dt = t["dtype"]
    data = [float(v) if isinstance(v, str) else v for v in t["data"]]
    if dt == "bf16":
        a = np.array(data, dtype=np.float32)
        bits = a.view(np.uint32)
        return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)
    return np.array(data, dtype=NP[dt]).reshape(t["shape"])


def from_bytes(raw, t):
    dt = t["dtype"]
    if dt == "bf16":
        bits = np.frombuffer(raw, np.uint16).astype(np.uint32) << 16
        return bits.view(np.float32)
    return np.frombuffer(raw, NP[dt])


def compare(got, t, tol):
    want = to_array(t).reshape(-1) if t["dtype"] != "bf16" else \
        np.array([float(v) for v in t["data"]], np.float32)
    if got.size != want.size:
        return "%d values, expected %d" % (got.size, want.size)
    dt = t["dtype"]
    if dt in TOL:
        rtol, atol = TOL[dt]
        if tol:
            rtol, atol = tol.get("rtol", rtol), tol.get("atol", atol)
        g, w = got.astype(np.float64), want.astype(np.float64)
        ok = (np.abs(g - w) <= atol + rtol * np.abs(w)) | (np.isnan(g) & np.isnan(w)) | \
            ((g == w) & np.isinf(w))
    else:
        ok = got == want
    if not ok.all():
        bad = np.nonzero(~ok)[0]
        return "%d of %d differ: %s" % (len(bad), got.size, "; ".join(
            "[%d] got %s, expected %s" % (i, got[i], want[i]) for i in bad[:4]))
    return None


def check(op, interp, flags):
    with open(os.path.join(OPS, op + ".json")) as f:
        spec = json.load(f)
    p = subprocess.run([os.path.join(ROOT, "bin", "torch-lower"), os.path.join(OPS, op + ".mlir")],
                       capture_output=True)
    if p.returncode:
        return ["torch-lower failed"]
    with tempfile.TemporaryDirectory() as tmp:
        lin = os.path.join(tmp, "in.mlir")
        with open(lin, "wb") as f:
            f.write(p.stdout)
        cg = [os.path.join(ROOT, "bin", "codegen")] + flags
        p = subprocess.run(cg + [lin, "-o", os.path.join(tmp, "m.fxvm")], capture_output=True, text=True)
        if p.returncode:
            return ["codegen failed: " + p.stderr.strip()[:600]]
        p = subprocess.run(cg + ["--emit=obj", lin, "-o", os.path.join(tmp, "k.o")], capture_output=True, text=True)
        if p.returncode:
            return ["codegen --emit=obj failed: " + p.stderr.strip()[:600]]
        so = os.path.join(tmp, "k.so")
        subprocess.run(["cc", "-shared", "-o", so, os.path.join(tmp, "k.o"), "-Wl,-z,notext"], check=True)
        errs = []
        for vi, v in enumerate(spec["variants"]):
            ins = []
            for ii, t in enumerate(v["inputs"]):
                path = os.path.join(tmp, "in%d.bin" % ii)
                to_array(t).tofile(path)
                ins.append(path)
            outs = [os.path.join(tmp, "out%d.bin" % oi) for oi in range(len(v["outputs"]))]
            r = subprocess.run([interp, os.path.join(tmp, "m.fxvm"), so, "v%d" % vi] + ins + ["--"] + outs,
                               capture_output=True, text=True)
            if r.returncode:
                errs.append("v%d: fxvm-interp failed: %s" % (vi, r.stderr.strip()[:300]))
                continue
            for oi, t in enumerate(v["outputs"]):
                with open(outs[oi], "rb") as f:
                    got = from_bytes(f.read(), t)
                e = compare(got, t, v.get("tol"))
                if e:
                    errs.append("v%d result %d (%s): %s" % (vi, oi, t["dtype"], e))
        return errs


def main():
    interp = os.environ.get("FXVM_INTERP", "/tmp/fxvm-interp")
    flags = os.environ.get("CODEGEN_FLAGS", "").split()
    ops = sys.argv[1:] or sorted(f[:-5] for f in os.listdir(OPS) if f.endswith(".json"))
    failed = 0
    for op in ops:
        errs = check(op, interp, flags)
        if errs:
            failed += 1
            print("FAIL %s" % op)
            for e in errs[:6]:
                print("  " + e)
        else:
            print("ok   %s" % op)
    if len(ops) > 1:
        print("%d passed, %d failed" % (len(ops) - failed, failed))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
