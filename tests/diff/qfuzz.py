#!/usr/bin/env python3
"""qfuzz.py - random int8 convolutions and linear layers (PT2E) through the
whole pipe against PyTorch eager, on codegen's int8 kernels and its f32 ones.

    qfuzz.py [--seed S] [--count N] [--keep DIR]

Each of N models is a few layers applied to one input (qmodels' Branches),
quantized by torchao's PT2E flow with X86InductorQuantizer (unsigned
activations) or XNNPACKQuantizer (signed, per-channel weights): random
batch, channels, extents (1 up to a few dozen), kernel sizes, strides,
padding, dilation, groups; linear layers of random rows and widths.  Each
is compiled for the host (codegen's int8 GEMMs where the CPU has AVX-512
VNNI or AMX-INT8: on AMX tiles where it has both), with
--features=-amx-int8 where the host has AMX-INT8 (the VNNI kernels), and
with --features=-avx512vnni,-amx-int8 (its f32 GEMMs), run on two inputs
and compared with eager as tests/e2e/quant.py's "layer" mode does:
a float result within 1e-4 of eager's largest, a quantized one at most one
step off, in at most 2% of its elements (and 2 elements).  A mismatch, a
crash or a stage's error is a failure, printed with the model's
description; exit 1 then.  Same seed, same models.  Needs PyTorch 2 with
torchao (scripts/setup.sh).
"""
import os
import sys
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "tests", "e2e"))

import numpy as np  # noqa: E402
import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
from pipe import Failure, compile_gemms, export_module, fuzz_main, fx_run  # noqa: E402

warnings.filterwarnings("ignore")

# the host has AMX-INT8 (and its tiles): its int8 GEMMs run on them, and
# the VNNI kernels are checked too
with open("/proc/cpuinfo") as f:
    _flags = f.read()
HOST_AMX8 = " amx_int8" in _flags and " amx_tile" in _flags


def conv_layers(r):
    """an input shape and 1-3 convolutions that read it"""
    n, cin = r.choice([1, 1, 2, 3]), r.randint(1, 40)
    h, w = r.randint(1, 24), r.randint(1, 24)
    layers, descs = [], []
    for _ in range(r.randint(1, 3)):
        for _ in range(20):
            k = r.choice([1, 1, 2, 3, 3, 5, 7])
            s = r.choice([1, 1, 2, 3])
            d = r.choice([1, 2]) if k > 1 else 1
            p = r.randint(0, k // 2 + 1)
            gs = [g for g in (1, 2, 3, 4) if cin % g == 0]
            g = r.choice(gs) if r.random() < 0.3 else 1
            cout = g * r.randint(1, 80 // g)
            if (h + 2 * p - d * (k - 1) - 1) // s >= 0 and (w + 2 * p - d * (k - 1) - 1) // s >= 0:
                break
        else:
            continue
        layers.append(nn.Conv2d(cin, cout, k, stride=s, padding=p, dilation=d, groups=g))
        descs.append(f"Conv2d({cin}, {cout}, {k}, stride={s}, padding={p}, dilation={d}, groups={g})")
    return (n, cin, h, w), layers, descs


def linear_layers(r):
    rows, fin = r.randint(1, 80), r.randint(1, 300)
    shape = (rows, fin) if r.random() < 0.7 else (r.randint(2, 3), rows, fin)
    layers, descs = [], []
    for _ in range(r.randint(1, 2)):
        fout = r.randint(1, 140)
        layers.append(nn.Linear(fin, fout))
        descs.append(f"Linear({fin}, {fout})")
    return shape, layers, descs


def make(r, i):
    import qmodels

    torch.manual_seed(i)
    shape, layers, descs = (conv_layers if r.random() < 0.7 else linear_layers)(r)
    if not layers:
        shape, layers, descs = linear_layers(r)
    quant = r.choice(["x86", "xnnpack"])
    model = qmodels.Branches(*layers).eval()
    example = torch.randn(shape) * r.choice([0.5, 1, 3])
    q = qmodels._convert(model, example, qmodels._x86() if quant == "x86" else qmodels._xnnpack())
    return q, example, f"{quant} input {list(shape)}: " + ", ".join(descs)


def compare(got, want, scales):
    for j, (y, r, s) in enumerate(zip(got, want, scales)):
        if y.shape != r.shape:
            return f"result {j}: shape {list(y.shape)}, eager {list(r.shape)}"
        if s is None:
            e, m = float(np.abs(y - r).max(initial=0)), float(np.abs(r).max(initial=0))
            if not e <= 1e-4 * m + 1e-6:
                return f"result {j}: max |diff| {e}, max |eager| {m}"
        else:
            st = np.rint(np.abs(y - r) / s)
            ones = int(np.count_nonzero(st == 1))
            if st.max(initial=0) > 1 or ones > max(2, 0.02 * r.size):
                return (f"result {j}: {ones} off by one step, {int(np.count_nonzero(st > 1))} "
                        f"by more, of {r.size} (largest {float(st.max())})")
    return None


def check(model, example, d, i, counts):
    """fuzz_main's: the model on the int8 kernels and the f32 ones, against
    eager on two inputs"""
    import quant

    js = export_module(model, [example], d)
    variants = [("host", []), ("f32", ["--features=-avx512vnni,-amx-int8"])]
    if HOST_AMX8:
        variants.insert(1, ("vnni", ["--features=-amx-int8"]))
    vmfbs, n8, ng = compile_gemms(js, d, variants, "int8")
    counts[0] += n8
    counts[1] += ng
    scales = quant.out_scales(model)
    g = torch.Generator().manual_seed(i)
    for _ in range(2):
        x = torch.randn(example.shape, generator=g) * float(example.abs().max() / 3 + 0.1)
        with torch.no_grad():
            want = model(x)
        want = list(want) if isinstance(want, tuple) else [want]
        tags = ("int8 kernels", "int8 kernels (VNNI)", "f32 kernels") if HOST_AMX8 else (
            "int8 kernels", "f32 kernels")
        for tag, vmfb in zip(tags, vmfbs):
            why = compare(fx_run(vmfb, x, want, d), [t.numpy() for t in want], scales)
            if why:
                raise Failure("mismatch", f"{tag}: {why}")


if __name__ == "__main__":
    sys.exit(fuzz_main("qfuzz", make, check, "on int8 kernels"))
