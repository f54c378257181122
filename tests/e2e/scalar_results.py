"""Modules that return Python int/float/bool results, alone, several, and
beside tensors, constant or computed from shapes, for scalar-results.bats.

    python3 scalar_results.py check NAME aten|torch

exports NAME() with fx-export at that graph level, compiles it with the
whole pipe (bin/ of this checkout), runs it with vmrun and compares every
flattened result with eager PyTorch: a Python int must come back as a 0-d
int64 array, a float as 0-d float64, a bool as 0-d bool, all exactly; a
tensor with its shape and dtype, to rtol 1e-6."""

import math
import os
import subprocess
import sys
import tempfile

import numpy as np
import torch

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


class IntAlone(torch.nn.Module):
    def forward(self, x):
        return x.numel()


class FloatAlone(torch.nn.Module):
    def forward(self):
        return math.sqrt(5)


class BoolAlone(torch.nn.Module):
    def forward(self, x):
        return x.is_floating_point()


class DtypeTests(torch.nn.Module):
    def forward(self, x, y, z):
        return (x.is_floating_point(), y.is_floating_point(), z.is_floating_point(),
                y.is_complex())


class Several(torch.nn.Module):
    def forward(self, x):
        return x.size(0), 1.5, x.dim() == 2, -7


class Mixed(torch.nn.Module):
    def forward(self, x, y):
        return (x + y, {"n": x.numel(), "y": y * 2}, [x.size(1) - 4, True],
                x.shape, y.dim() > 2)


class Empty(torch.nn.Module):
    def forward(self, x):
        return x.numel(), x.size(0), x.sum(0)


class FloatFromSizes(torch.nn.Module):
    def forward(self, x):
        return x.size(1) * 0.5, x.size(0) / 2, x.numel() / x.size(1), x.size(0) - 9.75


def int_alone():
    return IntAlone(), (torch.randn(3, 4, 5),)


def float_alone():
    return FloatAlone(), ()


def bool_alone():
    return BoolAlone(), (torch.randn(3),)


def dtype_tests():
    return DtypeTests(), (torch.randn(2).double(), torch.arange(3), torch.ones(1, dtype=torch.bool))


def several():
    torch.manual_seed(0)
    return Several(), (torch.randn(2, 3),)


def mixed():
    torch.manual_seed(0)
    return Mixed(), (torch.randn(2, 5), torch.randn(2, 5))


def empty():
    return Empty(), (torch.randn(0, 3),)


def float_from_sizes():
    return FloatFromSizes(), (torch.randn(5, 3),)


def leaves(v, out):
    if isinstance(v, (tuple, list)):
        for x in v:
            leaves(x, out)
    elif isinstance(v, dict):
        for x in v.values():
            leaves(x, out)
    else:
        out.append(v)
    return out


def same(ref, got, i):
    want = {bool: np.bool_, int: np.int64, float: np.float64}
    if isinstance(ref, torch.Tensor):
        r = ref.detach().numpy()
        if got.shape != r.shape or got.dtype != r.dtype:
            return f"result {i}: {got.dtype}{list(got.shape)}, expected {r.dtype}{list(r.shape)}"
        if not np.allclose(got, r, rtol=1e-6, atol=0):
            return f"result {i}: values differ"
        return None
    t = type(ref)
    if got.ndim != 0 or got.dtype != want[t]:
        return f"result {i}: {got.dtype}{list(got.shape)}, expected a 0-d {np.dtype(want[t])} for a Python {t.__name__}"
    if t(got.item()) != ref or type(got.item()) is not t:
        return f"result {i}: {got.item()!r}, expected {ref!r}"
    return None


def check(name, graph):
    module, inputs = globals()[name]()
    ref = leaves(module(*inputs), [])
    with tempfile.TemporaryDirectory() as d:
        subprocess.run([sys.executable, os.path.join(ROOT, "tools/fx-export/fx-export"),
                        f"{__file__}:{name}", "--graph", graph, "-o", f"{d}/m.json"], check=True)
        b = os.path.join(ROOT, "bin")
        subprocess.run(f"set -o pipefail; {b}/fx-import {d}/m.json | {b}/torch-opt | {b}/torch-lower"
                       f" | {b}/codegen --target=cpu | {b}/vmpack -o {d}/m.vmfb",
                       shell=True, check=True, executable="/bin/bash")
        args = [f"{b}/vmrun", f"{d}/m.vmfb"]
        for i, x in enumerate(inputs):
            np.save(f"{d}/in{i}.npy", x.numpy())
            args.append(f"--input=@{d}/in{i}.npy")
        args += [f"--output=@{d}/out{i}.npy" for i in range(len(ref))]
        subprocess.run(args, check=True)
        errors = [e for i, r in enumerate(ref)
                  if (e := same(r, np.load(f"{d}/out{i}.npy"), i))]
    for e in errors:
        print(f"{name} ({graph}): {e}")
    if not errors:
        print(f"{name} ({graph}): {len(ref)} results match")
    return not errors


if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[1] != "check":
        sys.exit(__doc__)
    sys.exit(0 if check(sys.argv[2], sys.argv[3]) else 1)
