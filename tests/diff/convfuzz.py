#!/usr/bin/env python3
"""convfuzz.py - random f32 convolutions through the whole pipe against
PyTorch eager, most of them of few pixels and many channels, the shapes
codegen reads through their taps (gemm_plan.c's tap_plan).

    convfuzz.py [--seed S] [--count N] [--keep DIR]

Each of N models is one to three convolutions in a chain on one input:
random batch (1-3), channels, extents (1 up to 20), square and oblong
kernels (1 to 7), strides 1-3, padding 0 to past the kernel's half,
dilation 1-2, groups, with or without bias, a ReLU, a constant or the
convolution's own input (a residual sum) between them, and sometimes an
input transposed or sliced first (a view, not a copy); a quarter of the
convolutions have 64, 96 or 128 channels, whole panels, which codegen
keeps channels last between them (layout.c) -- after one of those, 60%
of them, and half of those a 3x3 of stride 1 (Winograd's F(2x2, 3x3),
wino.c, where its output is of even height and width; a model in seven
starts with 64 channels of an even map) -- and about one in ten of the
rest is depthwise (groups = channels; a channel multiplier of 1 or
2): nest.c's window loop nests.  Each is compiled for the host, run on two random inputs and
compared with eager: every element within 1e-4 of eager's largest
magnitude (plus 1e-6), so that a moved or missing tap shows and f32
rounding in another order does not.  A mismatch, a crash or a stage's
error is a failure, printed with the model's description; exit 1 then.
It prints how many GEMMs read A through their taps, of how many.  Same
seed, same models.
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


class Chain(nn.Module):
    def __init__(self, convs, mids, view):
        super().__init__()
        self.convs = nn.ModuleList(convs)
        self.mids = mids
        self.view = view

    def forward(self, x):
        if self.view == "t":
            x = x.transpose(2, 3)
        elif self.view == "s":
            x = x[:, :, 1:, :-1]
        for c, m in zip(self.convs, self.mids):
            x = c(x) + x if m == "res" else c(x)
            x = torch.relu(x) if m == "relu" else x - 0.5 if m == "sub" else x
        return x


def out_len(n, k, s, p, d):
    return (n + 2 * p - d * (k - 1) - 1) // s + 1


def make(r, i):
    """a Chain, its input shape and its description"""
    torch.manual_seed(i)
    small = r.random() < 0.75      # few pixels, many channels: traded
    n, cin = r.choice([1, 1, 2, 3]), r.randint(1, 64)
    h, w = (r.randint(1, 16), r.randint(1, 16)) if small else (r.randint(1, 20), r.randint(1, 20))
    if r.random() < 0.15:          # 64 channels of an even map: Winograd's 3x3s below
        cin, h, w = 64, 2 * r.randint(1, 8), 2 * r.randint(1, 8)
    view = r.choice(["", "", "", "t", "s"])
    if view == "s" and (h < 2 or w < 2):
        view = ""
    ch, cw = (w, h) if view == "t" else (h - 1, w - 1) if view == "s" else (h, w)
    convs, mids, descs = [], [], []
    for _ in range(r.randint(1, 3)):
        for _ in range(30):
            kh = r.choice([1, 2, 3, 3, 3, 5, 7])
            kw = kh if r.random() < 0.7 else r.choice([1, 2, 3, 5])
            s = r.choice([1, 1, 1, 2, 2, 3])
            d = r.choice([1, 1, 2]) if max(kh, kw) > 1 else 1
            p = (r.randint(0, kh // 2 + 1), r.randint(0, kw // 2 + 1))
            gs = [g for g in (1, 2, 3, 4) if cin % g == 0]
            g = r.choice(gs) if r.random() < 0.25 else 1
            cout = g * r.randint(1, (256 if small else 48) // g)
            panels = cin in (64, 96, 128)
            if r.random() < (0.6 if panels else 0.25):   # whole panels: kept channels last between convolutions
                g, cout = 1, r.choice([64, 96, 128])
                if panels and r.random() < 0.5:   # Winograd's where the output is even
                    kh = kw = 3
                    s = d = 1
                    p = (r.randint(0, 2), r.randint(0, 2))
            elif r.random() < 0.15:    # depthwise (loop nests in blocks of rows), a multiplier
                g, cout = cin, cin * r.choice([1, 1, 2])
            oh, ow = out_len(ch, kh, s, p[0], d), out_len(cw, kw, s, p[1], d)
            if oh >= 1 and ow >= 1:
                break
        else:
            continue
        bias = r.random() < 0.7
        convs.append(nn.Conv2d(cin, cout, (kh, kw), stride=s, padding=p, dilation=d, groups=g, bias=bias))
        mids.append(r.choice(["", "relu", "sub"] + ["res"] * (cout == cin and (oh, ow) == (ch, cw))))
        descs.append(f"Conv2d({cin}, {cout}, ({kh}, {kw}), stride={s}, padding={p}, dilation={d}, "
                     f"groups={g}, bias={bias}){' ' + mids[-1] if mids[-1] else ''}")
        cin, ch, cw = cout, oh, ow
    if not convs:
        return make(r, i + 1)
    shape = (n, convs[0].in_channels, h, w)
    vdesc = {"t": "transposed, ", "s": "sliced, "}.get(view, "")
    return Chain(convs, mids, view).eval(), torch.randn(shape), f"input {list(shape)} {vdesc}" + ", ".join(descs)


def compare(y, r):
    if y.shape != r.shape:
        return f"shape {list(y.shape)}, eager {list(r.shape)}"
    e, m = float(np.abs(y - r).max(initial=0)), float(np.abs(r).max(initial=0))
    if not e <= 1e-4 * m + 1e-6:
        return f"max |diff| {e}, max |eager| {m}"
    return None


def check(model, example, d, i, counts):
    """fuzz_main's: the model against eager on two inputs"""
    js = export_module(model, [example], d)
    (vmfb,), nt, ng = compile_gemms(js, d, [("m", [])], "through its taps")
    counts[0] += nt
    counts[1] += ng
    g = torch.Generator().manual_seed(i)
    for _ in range(2):
        x = torch.randn(example.shape, generator=g)
        with torch.no_grad():
            want = model(x)
        why = compare(fx_run(vmfb, x, [want], d)[0], want.numpy())
        if why:
            raise Failure("mismatch", why)


if __name__ == "__main__":
    sys.exit(fuzz_main("convfuzz", make, check, "read A through their taps"))
