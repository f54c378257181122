#!/usr/bin/env python3
"""model.py NAME LINALG - runs a test model's codegen output against PyTorch.

NAME is a factory in tests/fx-export/models.py (it seeds itself, so the
weights match the ones fx-export wrote); LINALG is torch-lower's output for
it.  Compiles LINALG with bin/codegen, runs it with fxvm-interp on the
factory's example inputs and compares with the eager module's outputs
(max |got - want| <= 1e-3 + 1e-3 max |want|).  Prints the comparison and,
with REPS=N, the interpreter's time per run.

Environment: FXVM_INTERP, CODEGEN_FLAGS, THREADS.
"""
import os
import subprocess
import sys
import tempfile
import time

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "fx-export"))
import models  # noqa: E402


def main():
    name, linalg = sys.argv[1], sys.argv[2]
    interp = os.environ.get("FXVM_INTERP", "/tmp/fxvm-interp")
    flags = os.environ.get("CODEGEN_FLAGS", "").split()
    module, inputs = getattr(models, name)()
    with torch.no_grad():
        want = module(*inputs)
    if isinstance(want, torch.Tensor):
        want = (want,)
    with tempfile.TemporaryDirectory() as tmp:
        cg = [os.path.join(ROOT, "bin", "codegen")] + flags
        subprocess.run(cg + [linalg, "-o", os.path.join(tmp, "m.fxvm")], check=True)
        subprocess.run(cg + ["--emit=obj", linalg, "-o", os.path.join(tmp, "k.o")], check=True)
        so = os.path.join(tmp, "k.so")
        subprocess.run(["cc", "-shared", "-o", so, os.path.join(tmp, "k.o"), "-Wl,-z,notext"], check=True)
        ins = []
        for i, x in enumerate(inputs):
            p = os.path.join(tmp, "in%d.bin" % i)
            x.numpy().tofile(p)
            ins.append(p)
        outs = [os.path.join(tmp, "out%d.bin" % i) for i in range(len(want))]
        reps = int(os.environ.get("REPS", "1"))
        t0 = time.time()
        subprocess.run([interp, os.path.join(tmp, "m.fxvm"), so, "main"] + ins + ["--"] + outs, check=True)
        dt = time.time() - t0
        bad = 0
        for o, w in zip(outs, want):
            w = w.numpy()
            got = np.fromfile(o, w.dtype).reshape(w.shape)
            err = np.abs(got - w).max()
            tol = 1e-3 + 1e-3 * np.abs(w).max()
            print("%s: max error %.3g (tolerance %.3g)" % (name, err, tol))
            bad += not err <= tol
        if reps > 1:
            print("%s: %.2f ms per run (%d runs, with start-up)" % (name, dt * 1e3 / reps, reps))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
