#!/usr/bin/env python3
"""bf16fuzz.py - random convolutions and linear layers under bf16 autocast
through the whole pipe against PyTorch eager under autocast, on codegen's
bf16 kernels and its f32 ones.

    bf16fuzz.py [--seed S] [--count N] [--keep DIR]

Each of N models is one to three layers in a chain, traced as
fx-export --autocast bf16 traces (torch.autocast("cpu", bfloat16): the
matrix products' operands rounded to bf16, their sums in f32, results in
bf16): convolutions of random batch (1-3), channels (1-70), extents (1 up
to 30), kernels 1-7, strides 1-3, padding, dilation and groups, with or
without bias, a ReLU or a residual sum between them; or linear layers of
random rows (1-150, some a batch of them), widths odd and even (1-400),
whose inputs are rows codegen reads where they lie.  The result is
converted to f32 (one npy for vmrun).  Each is compiled on AMX tiles
where the CPU has AMX-BF16, by vdpbf16ps where it has AVX-512 BF16
(--features=-amx-bf16 --vdpbf16ps=on: on Intel's CPUs too, where codegen
leaves it off by default), and on the f32 kernels
(--features=-amx-bf16,-avx512bf16, on the same widened values), each
run on two inputs and compared with eager under autocast: every element
within 2^-6 of eager's largest magnitude (two units in bf16's last place
there: sums in another order round some results the other way).  A
mismatch, a crash or a stage's error is a failure, printed with the
model's description; exit 1 then.  It prints how many GEMMs of the first
of those builds took bf16 operands, of how many.  Same seed, same
models.
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

with open("/proc/cpuinfo") as f:
    _flags = f.read()
HOST_AMX = " amx_bf16" in _flags and " amx_tile" in _flags
HOST_DP = " avx512_bf16" in _flags


class Chain(nn.Module):
    """the layers one after another, under autocast; a ReLU after those
    in relu, a residual sum where a layer keeps its input's shape and res
    says so; the result as f32"""

    def __init__(self, layers, relu, res):
        super().__init__()
        self.layers = nn.ModuleList(layers)
        self.relu, self.res = relu, res

    def forward(self, x):
        with torch.autocast("cpu", dtype=torch.bfloat16):
            for i, m in enumerate(self.layers):
                y = m(x)
                if i in self.relu:
                    y = torch.relu(y)
                if i in self.res and y.shape == x.shape:
                    y = y + x
                x = y
        return x.float()


def conv_layers(r):
    """an input shape and 1-3 convolutions that read it"""
    n, cin = r.choice([1, 1, 2, 3]), r.randint(1, 70)
    h, w = r.randint(1, 30), r.randint(1, 30)
    shape, layers, descs = (n, cin, h, w), [], []
    for _ in range(r.randint(1, 3)):
        for _ in range(20):
            k = r.choice([1, 1, 2, 3, 3, 5, 7])
            s = r.choice([1, 1, 2, 3])
            d = r.choice([1, 2]) if k > 1 else 1
            p = r.randint(0, k // 2 + 1)
            gs = [g for g in (1, 2, 3, 4) if cin % g == 0]
            g = r.choice(gs) if r.random() < 0.3 else 1
            cout = g * r.randint(1, 70 // g)
            ho = (h + 2 * p - d * (k - 1) - 1) // s + 1
            wo = (w + 2 * p - d * (k - 1) - 1) // s + 1
            if ho >= 1 and wo >= 1:
                break
        else:
            continue
        bias = r.random() < 0.7
        layers.append(nn.Conv2d(cin, cout, k, stride=s, padding=p, dilation=d, groups=g, bias=bias))
        descs.append(f"Conv2d({cin}, {cout}, {k}, stride={s}, padding={p}, dilation={d}, "
                     f"groups={g}, bias={bias})")
        cin, h, w = cout, ho, wo
    return shape, layers, descs


def linear_layers(r):
    """an input shape (rows, or a batch of them) and 1-2 linear layers"""
    rows, fin = r.choice([1, r.randint(1, 20), r.randint(1, 150)]), r.randint(1, 400)
    shape = (rows, fin) if r.random() < 0.7 else (r.randint(2, 3), rows, fin)
    layers, descs = [], []
    for _ in range(r.randint(1, 2)):
        fout = r.choice([r.randint(1, 40), r.randint(1, 400)])
        bias = r.random() < 0.8
        layers.append(nn.Linear(fin, fout, bias=bias))
        descs.append(f"Linear({fin}, {fout}, bias={bias})")
        fin = fout
    return shape, layers, descs


def make(r, i):
    torch.manual_seed(i)
    shape, layers, descs = (conv_layers if r.random() < 0.6 else linear_layers)(r)
    if not layers:
        shape, layers, descs = linear_layers(r)
    relu = {j for j in range(len(layers)) if r.random() < 0.4}
    res = {j for j in range(len(layers)) if r.random() < 0.4}
    model = Chain(layers, relu, res).eval()
    example = torch.randn(shape) * r.choice([0.5, 1, 3])
    desc = f"input {list(shape)}: " + ", ".join(
        d + (" relu" if j in relu else "") + (" +x" if j in res else "") for j, d in enumerate(descs))
    return model, example, desc


def check(model, example, d, i, counts):
    """fuzz_main's: the model on the bf16 kernels and the f32 ones, against
    eager under autocast on two inputs"""
    js = export_module(model, [example], d)
    variants, tags = [], []
    if HOST_AMX:
        variants.append(("amx", []))
        tags.append("bf16 kernels (AMX)")
    if HOST_DP:
        variants.append(("dp", ["--features=-amx-bf16", "--vdpbf16ps=on"]))
        tags.append("bf16 kernels (vdpbf16ps)")
    variants.append(("f32", ["--features=-amx-bf16,-avx512bf16"]))
    tags.append("f32 kernels")
    vmfbs, nb, ng = compile_gemms(js, d, variants, "bf16 (")
    counts[0] += nb
    counts[1] += ng
    g = torch.Generator().manual_seed(i)
    for _ in range(2):
        x = torch.randn(example.shape, generator=g) * float(example.abs().max() / 3 + 0.1)
        with torch.no_grad():
            want = model(x)
        r = want.numpy()
        m = float(np.abs(r).max(initial=0))
        for tag, vmfb in zip(tags, vmfbs):
            y = fx_run(vmfb, x, [want], d)[0]
            if y.shape != r.shape:
                raise Failure("mismatch", f"{tag}: shape {list(y.shape)}, eager {list(r.shape)}")
            e = float(np.abs(y - r).max(initial=0))
            if not e <= 2 ** -6 * m + 1e-6:
                raise Failure("mismatch", f"{tag}: max |diff| {e}, max |eager| {m}")


if __name__ == "__main__":
    sys.exit(fuzz_main("bf16fuzz", make, check, "take bf16 operands"))
