#!/usr/bin/env python3
"""fuzz.py - differential testing of the whole pipe against PyTorch eager.

    fuzz.py [--seed S] [--count N] [--batch K] [--keep DIR] [--quiet] [--max-failures F]
    fuzz.py --replay 'PROGRAM'        one program, as a failure prints it
    fuzz.py --dynamic-batch [...]     each exported once with a dynamic batch
    fuzz.py --dynamic-length [...]    each exported once with a dynamic length

Generates N random programs from the op descriptions in OPS: chains of
1-6 ops over inputs with extents 0, 1, primes and large ones, every
dtype the op takes, broadcasting, negative dims, non-contiguous operands
(transposes, permutes, strided slices and expands feed the next op),
as_strided windows of inputs and their views.
Each program is exported in-process (fx_export), compiled with
fx-import | torch-opt | torch-lower | codegen | vmpack, run with vmrun and
compared with eager (pipe.py).  K programs share one module (one compile)
and are run alone only when that module fails.

A wrong result, a crash, a sanitizer report, a hang or an internal error
is a failure: it is shrunk (fewer ops, smaller extents) and printed as a
command that replays it.  A clear refusal of a stage is not a failure
(counted by message).  Same seed, same programs.  The first programs
aim each op at a size-0, a size-1 and a non-contiguous operand; the
coverage table at the end says which each op got.  Exit 1 on a failure.

--dynamic-batch (PyTorch 2's torch.export; skipped under PyTorch 1):
the first input's dimension 0 is a batch N (6, 10 or 12), and every input
whose dimension 0 is N is exported with it the symbol batch (the others
static, as weights are).  Each program is exported and compiled once and
run by vmrun at batches 0, 1, 3, 8, 9, 15, 17 and N where the export's range
holds them (a batch just outside must be refused), each compared with
eager at that batch as above.  Counted, not failed: torch.export refusing
or specializing the batch, codegen's refusal of a batch not computed item
by item (a sum, cumsum or flip over it), and a stage before codegen
refusing it (no dynamic form of an op).  A wrong number at any batch,
a crash, another error of codegen or vmpack, vmrun refusing a batch in
range or running one outside it is a failure, shrunk and printed with
its replay (--dynamic-batch --replay).

--dynamic-length: the same with the first input's dimension 1 (rank >= 2)
a length N, the symbol seq in [1, 40] for every input whose dimension 1
is N, run at lengths 1, 2, 5, 15, 16, 17, 33, 40 and N (codegen pads
lengths up to 16 and up to 40 apart: both functions run), and just
outside the range.  Counted, not failed, as above: codegen's refusal of
what does not keep elements in place at every length (a flip, a cumsum,
a slice from the end along it).
"""
import argparse
import json
import os
import random
import re
import shutil
import sys
import tempfile
import time
import warnings
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402
from pipe import (ROUNDOFF, TOL, Failure, compile_json, export_module, run_compiled,  # noqa: E402
                  run_module, sh, vmrun_argv)

torch.set_num_threads(1)
# eager's beta notes (scatter_reduce), searchsorted's copy, mse_loss's broadcast
warnings.filterwarnings("ignore", category=UserWarning)

DT = {"f32": torch.float32, "f64": torch.float64, "f16": torch.float16,
      "bf16": torch.bfloat16, "i64": torch.int64, "i32": torch.int32,
      "i16": torch.int16, "i8": torch.int8, "u8": torch.uint8, "i1": torch.bool}
DTNAME = {v: k for k, v in DT.items()}
FLOAT = ("f32", "f64", "f16", "bf16")
INT = ("i64", "i32", "i16", "i8", "u8")
NUM = FLOAT + INT
ALL = NUM + ("i1",)
# how often each input dtype is drawn
DT_WEIGHT = {"f32": 8, "f64": 2, "f16": 1, "bf16": 1, "i64": 2, "i32": 2,
             "i16": 1, "i8": 1, "u8": 1, "i1": 1}
EXTENTS = [1, 1, 2, 3, 4, 5, 7, 8, 13, 16, 17, 31, 33, 64]


# ---- op descriptions --------------------------------------------------
# An op: name -> (dtypes of its first operand, arity, exact, params).
# params(r, x) draws the op's parameters for operand x (or None: not
# applicable); apply(p, *xs) is the op.  Arity 2 ops draw their second
# operand themselves (broadcast-compatible, maybe the first).  exact: the
# op is not continuous (rounding, comparisons, indices), so its float
# operands must be exact values (inputs or exact ops of them), lest a
# last-bit difference flip its result.

OPS = {}

# Ops whose float results are their operands' values or exact functions
# of them (moved, selected, compared, rounded to integers): no rounding
# of theirs for references()' jitter to model.
ROUNDLESS = set("""abs neg relu relu6 clamp clamp_tensor hardtanh threshold where where_scalar
    masked_fill maximum minimum fmax fmin amax amin aminmax max_dim adaptive_max max_pool_idx
    cat expand flip gather index index_select narrow pad pad_mode pad_nd permute pixel_shuffle
    repeat reshape roll rot90 select slice squeeze transpose tril unfold unsqueeze diag
    diag_embed diagonal as_strided embedding scatter index_put sign sgn signbit floor ceil
    round trunc copysign nan_to_num heaviside hardshrink frac""".split())


def op(name, dtypes, arity=1, exact=False, nonempty=False, minrank=0):
    def reg(fn):
        OPS[name] = dict(dtypes=dtypes, arity=arity, exact=exact, fn=fn,
                         nonempty=nonempty, minrank=minrank)
        return fn
    return reg


def rdim(r, x):
    return r.randrange(-x.dim(), x.dim()) if x.dim() else None


def unary(name, f, dtypes=FLOAT, exact=False):
    op(name, dtypes, exact=exact)(lambda r, x: ({}, lambda p, x: f(x)))


for _n, _f in [("exp", torch.exp), ("log", torch.log), ("sqrt", torch.sqrt),
               ("rsqrt", torch.rsqrt), ("sin", torch.sin), ("cos", torch.cos),
               ("tanh", torch.tanh), ("sigmoid", torch.sigmoid), ("erf", torch.erf),
               ("reciprocal", torch.reciprocal), ("expm1", torch.expm1),
               ("log1p", torch.log1p), ("log2", torch.log2), ("gelu", F.gelu),
               ("silu", F.silu), ("elu", F.elu), ("softplus", F.softplus),
               ("mish", F.mish), ("hardswish", F.hardswish),
               ("hardsigmoid", F.hardsigmoid), ("leaky_relu", F.leaky_relu)]:
    unary(_n, _f)
for _n, _f in [("floor", torch.floor), ("ceil", torch.ceil), ("round", torch.round),
               ("trunc", torch.trunc)]:
    unary(_n, _f, exact=True)
unary("abs", torch.abs, NUM)
unary("neg", torch.neg, FLOAT + ("i64", "i32", "i16", "i8"))
unary("relu", torch.relu, FLOAT + ("i64", "i32", "i16", "i8"))
unary("sign", torch.sign, NUM, exact=True)
unary("relu6", F.relu6, FLOAT)
unary("hardtanh", F.hardtanh, FLOAT)
unary("bitwise_not", torch.bitwise_not, INT + ("i1",))
unary("logical_not", torch.logical_not, ALL, exact=True)
unary("isnan", torch.isnan, FLOAT)


@op("to", ALL, exact=True)
def _to(r, x):
    return {"dt": r.choice(ALL)}, lambda p, x: x.to(DT[p["dt"]])


def scalar_for(r, x):
    if x.is_floating_point():
        return r.choice([0.5, -1.25, 2.0, 3.0])
    if x.dtype == torch.bool:
        return r.choice([0, 1])
    return r.choice([1, 2, 3])


@op("add_scalar", NUM)
def _adds(r, x):
    return {"s": scalar_for(r, x)}, lambda p, x: x + p["s"]


@op("mul_scalar", NUM)
def _muls(r, x):
    return {"s": scalar_for(r, x)}, lambda p, x: x * p["s"]


@op("div_scalar", FLOAT)
def _divs(r, x):
    return {"s": r.choice([2.0, -3.0, 0.5])}, lambda p, x: x / p["s"]


@op("pow_scalar", FLOAT)
def _pows(r, x):
    return {"s": r.choice([2, 3, 0.5])}, lambda p, x: x ** p["s"]


@op("clamp", NUM, exact=True)
def _clamp(r, x):
    lo = r.choice([None, 0, 1]) if not x.is_floating_point() else r.choice([None, -0.5, 0.0])
    hi = r.choice([None, 3, 5]) if not x.is_floating_point() else r.choice([None, 0.75, 1.5])
    if lo is None and hi is None:
        lo = 0
    return {"lo": lo, "hi": hi}, lambda p, x: torch.clamp(x, p["lo"], p["hi"])


@op("gt_scalar", NUM, exact=True)
def _gts(r, x):
    return {"s": scalar_for(r, x) if not x.is_floating_point() else 0.0}, \
        lambda p, x: x > p["s"]


def binary(name, f, dtypes=NUM, exact=False):
    op(name, dtypes, arity=2, exact=exact)(lambda r, x: ({}, lambda p, x, y: f(x, y)))


for _n, _f in [("add", torch.add), ("sub", torch.sub), ("mul", torch.mul),
               ("maximum", torch.maximum), ("minimum", torch.minimum)]:
    binary(_n, _f)
binary("div", torch.div, FLOAT)
binary("atan2", torch.atan2, FLOAT)
binary("pow", torch.pow, ("f32", "f64"))
for _n, _f in [("eq", torch.eq), ("lt", torch.lt), ("ge", torch.ge), ("ne", torch.ne)]:
    binary(_n, _f, ALL, exact=True)
for _n, _f in [("logical_and", torch.logical_and), ("logical_or", torch.logical_or)]:
    binary(_n, _f, ALL, exact=True)
for _n, _f in [("bitwise_and", torch.bitwise_and), ("bitwise_xor", torch.bitwise_xor)]:
    binary(_n, _f, INT + ("i1",))
binary("remainder", torch.remainder, FLOAT + ("i64", "i32"), exact=True)
binary("where", lambda x, y: torch.where(x > 0, x, y), NUM, exact=True)


def _keepdim(r):
    return r.random() < 0.3


@op("sum", NUM + ("i1",))
def _sum(r, x):
    d = rdim(r, x)
    return {"d": d, "k": _keepdim(r)}, lambda p, x: (
        x.sum() if p["d"] is None else x.sum(p["d"], keepdim=p["k"]))


@op("mean", FLOAT)
def _mean(r, x):
    d = rdim(r, x)
    return {"d": d, "k": _keepdim(r)}, lambda p, x: (
        x.mean() if p["d"] is None else x.mean(p["d"], keepdim=p["k"]))


def dim_reduction(name, f):
    """f(x, dim, keepdim=) over one dim of a tensor of rank >= 1."""
    def draw(r, x):
        d = rdim(r, x)
        if d is None:
            return None
        return {"d": d, "k": _keepdim(r)}, lambda p, x: f(x, p["d"], keepdim=p["k"])
    op(name, NUM, nonempty=True)(draw)


dim_reduction("amax", torch.amax)
dim_reduction("amin", torch.amin)


@op("prod", NUM)
def _prod(r, x):
    d = rdim(r, x)
    return {"d": d}, lambda p, x: x.prod() if p["d"] is None else x.prod(p["d"])


@op("argmax", NUM, exact=True, nonempty=True)
def _argmax(r, x):
    return {"d": rdim(r, x)}, lambda p, x: torch.argmax(x, p["d"])


@op("max_dim", NUM, exact=True, nonempty=True)
def _maxdim(r, x):
    d = rdim(r, x)
    if d is None:
        return None
    return {"d": d, "i": r.random() < 0.5}, lambda p, x: torch.max(x, p["d"])[int(p["i"])]


@op("all", ALL, exact=True)
def _all(r, x):
    return {"d": rdim(r, x), "any": r.random() < 0.5}, lambda p, x: (
        (torch.any if p["any"] else torch.all)(*([x] if p["d"] is None else [x, p["d"]])))


@op("var", ("f32", "f64"))
def _var(r, x):
    return {"d": rdim(r, x), "u": r.random() < 0.5, "std": r.random() < 0.5}, \
        lambda p, x: (torch.std if p["std"] else torch.var)(
            *([x] if p["d"] is None else [x, p["d"]]), unbiased=p["u"])


@op("softmax", FLOAT, minrank=1)
def _softmax(r, x):
    return {"d": rdim(r, x), "log": r.random() < 0.3}, lambda p, x: (
        torch.log_softmax if p["log"] else torch.softmax)(x, p["d"])


@op("logsumexp", ("f32", "f64"), minrank=1)
def _lse(r, x):
    return {"d": rdim(r, x)}, lambda p, x: torch.logsumexp(x, p["d"])


@op("cumsum", NUM, minrank=1)
def _cumsum(r, x):
    return {"d": rdim(r, x)}, lambda p, x: torch.cumsum(x, p["d"])


@op("norm", ("f32", "f64"))
def _norm(r, x):
    return {"o": r.choice([1, 2])}, lambda p, x: torch.linalg.vector_norm(x, p["o"])


# shape ops: their results are the non-contiguous operands of the next op

@op("transpose", ALL, minrank=2)
def _transpose(r, x):
    a, b = r.sample(range(x.dim()), 2)
    return {"a": a, "b": b}, lambda p, x: x.transpose(p["a"], p["b"])


@op("permute", ALL, minrank=2)
def _permute(r, x):
    perm = list(range(x.dim()))
    r.shuffle(perm)
    return {"p": perm}, lambda p, x: x.permute(p["p"])


@op("slice", ALL, minrank=1)
def _slice(r, x):
    d = r.randrange(x.dim())
    n = x.shape[d]
    lo = r.randrange(-n - 1, n + 1) if n else 0
    return {"d": d, "lo": lo, "hi": r.choice([None, lo + r.randrange(0, 9), -1]),
            "st": r.choice([1, 1, 2, 3])}, \
        lambda p, x: x[(slice(None),) * p["d"] + (slice(p["lo"], p["hi"], p["st"]),)]


@op("select", ALL, minrank=1, nonempty=True)
def _select(r, x):
    d = r.randrange(x.dim())
    if x.shape[d] == 0:
        return None
    return {"d": d, "i": r.randrange(-x.shape[d], x.shape[d])}, \
        lambda p, x: x.select(p["d"], p["i"])


@op("unsqueeze", ALL)
def _unsqueeze(r, x):
    return {"d": r.randrange(-x.dim() - 1, x.dim() + 1)}, lambda p, x: x.unsqueeze(p["d"])


@op("squeeze", ALL)
def _squeeze(r, x):
    ones = [d for d in range(x.dim()) if x.shape[d] == 1]
    return {"d": r.choice(ones) if ones else None}, \
        lambda p, x: x.squeeze() if p["d"] is None else x.squeeze(p["d"])


@op("reshape", ALL)
def _reshape(r, x):
    n = x.numel()
    if r.random() < 0.5 or n == 0:
        return {"s": [-1]}, lambda p, x: x.reshape(p["s"])
    a = r.choice([d for d in range(1, n + 1) if n % d == 0])
    return {"s": [a, -1]}, lambda p, x: x.reshape(p["s"])


@op("expand", ALL)
def _expand(r, x):
    s = [r.choice([n, 3]) if n == 1 else n for n in x.shape]
    return {"s": [r.choice([1, 2])] + s}, lambda p, x: x.expand(p["s"])


@op("flip", ALL, minrank=1)
def _flip(r, x):
    return {"d": [rdim(r, x)]}, lambda p, x: torch.flip(x, p["d"])


@op("roll", ALL, minrank=1)
def _roll(r, x):
    return {"s": r.randrange(-5, 6), "d": rdim(r, x)}, lambda p, x: torch.roll(x, p["s"], p["d"])


@op("repeat", ALL)
def _repeat(r, x):
    return {"s": [r.choice([1, 2, 3]) for _ in range(x.dim())]}, lambda p, x: x.repeat(p["s"])


@op("cat", ALL, minrank=1)
def _cat(r, x):
    return {"d": rdim(r, x)}, lambda p, x: torch.cat([x, x.flip(p["d"])], p["d"])


@op("pad", NUM, minrank=1)
def _pad(r, x):
    k = min(x.dim(), r.choice([1, 2]))
    return {"p": [r.randrange(0, 3) for _ in range(2 * k)], "v": r.choice([0, 1])}, \
        lambda p, x: F.pad(x, p["p"], value=p["v"])


@op("tril", ALL, minrank=2)
def _tril(r, x):
    return {"k": r.randrange(-2, 3), "u": r.random() < 0.5}, \
        lambda p, x: (torch.triu if p["u"] else torch.tril)(x, p["k"])


# contractions, indexing and windows: their second operand is a fresh input

@op("mm", ("f32", "f64", "i64", "i32"), arity=2, minrank=1)
def _mm(r, x):
    return {}, lambda p, x, y: torch.matmul(x, y)


@op("linear", ("f32", "f64"), arity=2, minrank=1)
def _linear(r, x):
    return {}, lambda p, x, w: F.linear(x, w)


@op("conv2d", ("f32", "f64"), arity=2, minrank=4)
def _conv(r, x):
    if x.dim() != 4 or x.shape[1] == 0:
        return None
    g = r.choice([g for g in (1, 2, 3) if x.shape[1] % g == 0])
    return {"st": r.choice([1, 2]), "pd": r.choice([0, 1]), "g": g}, \
        lambda p, x, w: F.conv2d(x, w, stride=p["st"], padding=p["pd"], groups=p["g"])


@op("pool2d", ("f32", "f64"), minrank=4)
def _pool(r, x):
    if x.dim() != 4:
        return None
    k = r.choice([1, 2, 3])
    return {"k": k, "st": r.choice([1, 2, k]), "pd": r.choice([0, k // 2]),
            "max": r.random() < 0.5, "ceil": r.random() < 0.3}, \
        lambda p, x: (F.max_pool2d if p["max"] else F.avg_pool2d)(
            x, p["k"], p["st"], p["pd"], ceil_mode=p["ceil"])


@op("adaptive_avg", ("f32", "f64"), minrank=4)
def _adaptive(r, x):
    if x.dim() != 4:
        return None
    return {"s": r.choice([1, 2])}, lambda p, x: F.adaptive_avg_pool2d(x, p["s"])


@op("embedding", ("f32", "f64"), arity=2, minrank=2)
def _embedding(r, x):
    if x.dim() != 2 or x.shape[0] == 0:
        return None
    return {}, lambda p, w, i: F.embedding(i, w)


@op("index_select", ALL, arity=2, minrank=1)
def _index_select(r, x):
    d = r.randrange(x.dim())
    if x.shape[d] == 0:
        return None
    return {"d": d}, lambda p, x, i: torch.index_select(x, p["d"], i)


@op("gather", ALL, arity=2, minrank=1)
def _gather(r, x):
    d = r.randrange(x.dim())
    if x.shape[d] == 0:
        return None
    return {"d": d}, lambda p, x, i: torch.gather(x, p["d"], i)


@op("masked_fill", ALL, arity=2, exact=True)
def _masked_fill(r, x):
    v = 1 if not x.is_floating_point() else -2.5
    return {"v": v}, lambda p, x, m: x.masked_fill(m, p["v"])


def _appliers():
    """Each op's apply function: its draw on a probe operand (the lambdas
    depend on nothing but their parameters)."""
    out = {}
    for name, o in OPS.items():
        for k in range(100):
            x = torch.ones(([2, 3, 4, 5] if k < 50 else [2, 3, 4, 6])[k % 3:],
                           dtype=DT[o["dtypes"][0]])
            got = o["fn"](random.Random(k), x)
            if got:
                out[name] = got[1]
                break
        else:
            raise AssertionError("no probe for op %s" % name)
    return out


APPLY = {}


# more of the backend contract: torch-opt decomposes some of these

binary("fmod", torch.fmod, FLOAT + ("i64", "i32"), exact=True)
binary("bitwise_or", torch.bitwise_or, INT + ("i1",))
binary("logical_xor", torch.logical_xor, ALL, exact=True)
binary("lerp", lambda x, y: torch.lerp(x, y, 0.25), ("f32", "f64"))
binary("addcmul", lambda x, y: torch.addcmul(x, y, y, value=0.5), ("f32", "f64"))
binary("addcdiv", lambda x, y: torch.addcdiv(x, y, y * y + 1, value=2.0), ("f32", "f64"))
binary("clamp_tensor", lambda x, y: torch.clamp(x, min=y), ("f32", "f64", "i64", "i32"),
       exact=True)
binary("where_scalar", lambda x, y: torch.where(y > 0, x, 2), NUM, exact=True)
unary("isinf", torch.isinf, FLOAT)
unary("threshold", lambda x: F.threshold(x, 0.5, -1.0), ("f32", "f64"), exact=True)
unary("rsub", lambda x: 1 - x, NUM)
unary("arange_add", lambda x: x + torch.arange(x.shape[-1]) if x.dim() else x,
      ("f32", "f64", "i64", "i32"))


@op("div_mode", ("f32", "f64", "i64", "i32"), arity=2, exact=True)
def _div_mode(r, x):
    return {"m": r.choice(["trunc", "floor"])}, \
        lambda p, x, y: torch.div(x, y, rounding_mode=p["m"])


@op("narrow", ALL, minrank=1)
def _narrow(r, x):
    d = r.randrange(x.dim())
    n = x.shape[d]
    st = r.randrange(0, n + 1)
    return {"d": d, "s": st, "n": r.randrange(0, n - st + 1)}, \
        lambda p, x: x.narrow(p["d"], p["s"], p["n"])


@op("pad_mode", ("f32", "f64"), minrank=3)
def _pad_mode(r, x):
    if x.dim() not in (3, 4):
        return None
    k = 1 if x.dim() == 3 else r.choice([1, 2])
    return {"p": [r.randrange(0, 3) for _ in range(2 * k)],
            "m": r.choice(["reflect", "replicate"])}, \
        lambda p, x: F.pad(x, p["p"], mode=p["m"])


@op("max_pool_idx", ("f32", "f64"), minrank=4, exact=True)
def _max_pool_idx(r, x):
    if x.dim() != 4:
        return None
    return {"k": r.choice([2, 3]), "i": r.random() < 0.5}, \
        lambda p, x: F.max_pool2d(x, p["k"], return_indices=True)[int(p["i"])]


@op("adaptive_max", ("f32", "f64"), minrank=4, exact=True)
def _adaptive_max(r, x):
    if x.dim() != 4:
        return None
    return {"s": r.choice([1, 2])}, lambda p, x: F.adaptive_max_pool2d(x, p["s"])


@op("scatter", ALL, arity=2, minrank=1)
def _scatter(r, x):
    d = r.randrange(x.dim())
    if x.shape[d] == 0:
        return None
    return {"d": d, "add": r.random() < 0.5 and x.dtype != torch.bool}, \
        lambda p, x, i: (torch.scatter_add if p["add"] else torch.scatter)(
            x, p["d"], i, torch.ones_like(i, dtype=x.dtype))  # duplicates agree


@op("index_put", ALL, arity=2, minrank=1)
def _index_put(r, x):
    if x.shape[0] == 0:
        return None
    return {"acc": r.random() < 0.3 and x.dtype != torch.bool}, \
        lambda p, x, i: torch.index_put(x, (i,), torch.ones((), dtype=x.dtype),
                                        accumulate=p["acc"])


@op("index", ALL, arity=2, minrank=1)
def _index(r, x):
    if x.shape[0] == 0:
        return None
    return {}, lambda p, x, i: x[i]


# ---- the decompositions of torch-opt's decompose_{ew,bwd,pool,idx,lin,
# nnx,cplx}.c and fx-import's complex.c ----------------------------------
# Domains are not narrowed: the inputs span [-4, 4], so acosh, atanh,
# asin, acos, log10 and logit see arguments outside theirs, and their NaN
# must be eager's (the comparison takes NaN as equal to NaN).

for _n, _f in [("sinh", torch.sinh), ("cosh", torch.cosh), ("asinh", torch.asinh),
               ("acosh", torch.acosh), ("atanh", torch.atanh), ("atan", torch.atan),
               ("asin", torch.asin), ("acos", torch.acos), ("log10", torch.log10),
               ("exp2", torch.exp2), ("rad2deg", torch.rad2deg),
               ("deg2rad", torch.deg2rad), ("celu", F.celu),
               ("softshrink", lambda x: F.softshrink(x, 0.5))]:
    unary(_n, _f)
# discontinuous: a last-bit difference of an inexact operand flips them
unary("frac", torch.frac, exact=True)
unary("hardshrink", lambda x: F.hardshrink(x, 0.5), exact=True)
unary("signbit", torch.signbit, NUM, exact=True)
unary("sgn", torch.sgn, NUM, exact=True)
for _n, _f in [("logaddexp", torch.logaddexp), ("logaddexp2", torch.logaddexp2),
               ("xlogy", torch.xlogy)]:
    binary(_n, _f, ("f32", "f64"))
binary("copysign", torch.copysign, FLOAT, exact=True)
binary("heaviside", torch.heaviside, NUM, exact=True)
binary("fmax", torch.fmax, NUM, exact=True)
binary("fmin", torch.fmin, NUM, exact=True)


@op("logit", ("f32", "f64"))
def _logit(r, x):
    return {"e": r.choice([None, 1e-3, 0.25])}, lambda p, x: torch.logit(x, p["e"])


@op("nan_to_num", FLOAT, exact=True)
def _nan_to_num(r, x):
    return {"n": r.choice([None, 0.0, 2.5]), "pi": r.choice([None, 100.0]),
            "ni": r.choice([None, -7.0])}, \
        lambda p, x: torch.nan_to_num(x, p["n"], p["pi"], p["ni"])


@op("shift", INT)
def _shift(r, x):
    return {"s": r.choice([0, 1, 3]), "k": r.choice(["<<", ">>", "&", "|", "^"]),
            "rev": r.random() < 0.2}, \
        lambda p, x: {"<<": lambda a, b: a << b, ">>": lambda a, b: a >> b,
                      "&": torch.bitwise_and, "|": torch.bitwise_or,
                      "^": torch.bitwise_xor}[p["k"]](x, p["s"])


@op("shift_tensor", ("i64", "i32", "i16", "i8", "u8"), arity=2)
def _shift_tensor(r, x):
    return {"l": r.random() < 0.5}, lambda p, x, y: (
        torch.bitwise_left_shift if p["l"] else torch.bitwise_right_shift)(x, y.abs() % 4)


@op("diagonal", ALL, minrank=2)
def _diagonal(r, x):
    a, b = r.sample(range(-x.dim(), x.dim()), 2)
    if a % x.dim() == b % x.dim():
        return None
    return {"o": r.randrange(-3, 4), "a": a, "b": b}, \
        lambda p, x: torch.diagonal(x, p["o"], p["a"], p["b"])


@op("diag", ALL, minrank=1)
def _diag(r, x):
    if x.dim() > 2:
        return None
    return {"o": r.randrange(-2, 3)}, lambda p, x: torch.diag(x, p["o"])


@op("trace", NUM, minrank=2)
def _trace(r, x):
    if x.dim() != 2:
        return None
    return {}, lambda p, x: torch.trace(x)


@op("diag_embed", ALL, minrank=1)
def _diag_embed(r, x):
    return {"o": r.randrange(-2, 3), "d": r.choice([(0, 1), (-2, -1), (-1, 0)])}, \
        lambda p, x: torch.diag_embed(x, p["o"], *p["d"])


@op("rot90", ALL, minrank=2)
def _rot90(r, x):
    return {"k": r.randrange(-2, 5), "d": r.sample(range(x.dim()), 2)}, \
        lambda p, x: torch.rot90(x, p["k"], p["d"])


@op("pixel_shuffle", ALL, minrank=3)
def _pixel_shuffle(r, x):
    c, h, w = x.shape[-3:]
    rs = [f for f in (1, 2, 3) if c % (f * f) == 0]
    us = [f for f in (1, 2, 3) if h % f == 0 and w % f == 0]
    k = r.choice(["shuffle", "unshuffle", "channel"])
    # eager's pixel_(un)shuffle of no elements returns its input's shape
    # ([1, 8, 0] unshuffled by 2 stays [1, 8, 0], not [4, 4, 0])
    if x.numel() == 0:
        k = "channel"
    if k == "shuffle" and rs:
        return {"k": k, "f": r.choice(rs)}, lambda p, x: _pixel(p, x)
    if k == "unshuffle" and us:
        return {"k": k, "f": r.choice(us)}, lambda p, x: _pixel(p, x)
    gs = [g for g in (1, 2, 3, 4) if x.shape[1] % g == 0]
    if k == "channel" and gs and x.dtype != torch.bool:
        return {"k": k, "f": r.choice(gs)}, lambda p, x: _pixel(p, x)
    return None


def _pixel(p, x):
    if p["k"] == "shuffle":
        return F.pixel_shuffle(x, p["f"])
    if p["k"] == "unshuffle":
        return F.pixel_unshuffle(x, p["f"])
    return F.channel_shuffle(x, p["f"])


@op("cumprod", NUM, minrank=1)
def _cumprod(r, x):
    return {"d": rdim(r, x)}, lambda p, x: torch.cumprod(x, p["d"])


@op("logcumsumexp", ("f32", "f64"), minrank=1)
def _logcumsumexp(r, x):
    return {"d": rdim(r, x)}, lambda p, x: torch.logcumsumexp(x, p["d"])


@op("var_mean", ("f32", "f64"))
def _var_mean(r, x):
    return {"d": rdim(r, x), "u": r.random() < 0.5, "k": _keepdim(r),
            "std": r.random() < 0.3, "i": r.randrange(2)}, \
        lambda p, x: (torch.std_mean if p["std"] else torch.var_mean)(
            x, *([] if p["d"] is None else [p["d"]]), unbiased=p["u"],
            **({} if p["d"] is None else {"keepdim": p["k"]}))[p["i"]]


@op("aminmax", NUM, exact=True)
def _aminmax(r, x):
    return {"d": rdim(r, x) if r.random() < 0.7 else None, "k": _keepdim(r),
            "i": r.randrange(2)}, \
        lambda p, x: torch.aminmax(x, **({} if p["d"] is None else
                                         {"dim": p["d"], "keepdim": p["k"]}))[p["i"]]


@op("renorm", ("f32", "f64"), minrank=1)
def _renorm(r, x):
    return {"p": r.choice([1, 2, 3]), "d": rdim(r, x), "m": r.choice([1.0, 5.0])}, \
        lambda p, x: torch.renorm(x, p["p"], p["d"], p["m"])


@op("norm_p", ("f32", "f64"))
def _norm_p(r, x):
    return {"o": r.choice([1, 2, 3, float("inf"), float("-inf")]),
            "d": rdim(r, x) if r.random() < 0.6 else None, "k": _keepdim(r),
            "t": r.random() < 0.5}, \
        lambda p, x: (torch.norm(x, p["o"], p["d"], p["k"]) if p["t"] and p["d"] is not None
                      else torch.norm(x, p["o"]) if p["t"]
                      else torch.linalg.vector_norm(x, p["o"], p["d"], p["k"]))


# the 0-norm counts the nonzero elements: discontinuous
@op("norm0", ("f32", "f64"), exact=True)
def _norm0(r, x):
    return {"d": rdim(r, x) if r.random() < 0.6 else None}, \
        lambda p, x: torch.linalg.vector_norm(x, 0, p["d"])


@op("mse_loss", ("f32", "f64"), arity=2)
def _mse_loss(r, x):
    return {"r": r.choice(["mean", "sum", "none"])}, \
        lambda p, x, y: F.mse_loss(x, y, reduction=p["r"])


def _pool_nd(nd, r, x):
    if x.dim() not in (nd + 1, nd + 2):
        return None
    k = r.choice([1, 2, 3])
    return {"k": k, "st": r.choice([1, 2, k]), "pd": r.choice([0, k // 2]),
            "max": r.random() < 0.5, "ceil": r.random() < 0.3,
            "cip": r.random() < 0.5, "i": r.random() < 0.4}


def _pool_apply(nd):
    def apply(p, x):
        if p["max"]:
            f = (F.max_pool1d, F.max_pool2d, F.max_pool3d)[nd - 1]
            y = f(x, p["k"], p["st"], p["pd"], ceil_mode=p["ceil"], return_indices=True)
            return y[int(p["i"])]
        f = (F.avg_pool1d, F.avg_pool2d, F.avg_pool3d)[nd - 1]
        return f(x, p["k"], p["st"], p["pd"], ceil_mode=p["ceil"],
                 count_include_pad=p["cip"])
    return apply


@op("pool1d", ("f32", "f64"), minrank=2, exact=True)
def _pool1d(r, x):
    p = _pool_nd(1, r, x)
    return p and (p, _pool_apply(1))


@op("pool3d", ("f32", "f64"), minrank=4, exact=True)
def _pool3d(r, x):
    p = _pool_nd(3, r, x)
    return p and (p, _pool_apply(3))


@op("pad_nd", ("f32", "f64", "i64", "i32"), minrank=2)
def _pad_nd(r, x):
    ks = [k for k in (1, 2, 3) if x.dim() in (k + 1, k + 2)]
    if not ks:
        return None
    k = r.choice(ks)
    return {"p": [r.randrange(0, 3) for _ in range(2 * k)],
            "m": r.choice(["reflect", "replicate"])}, \
        lambda p, x: F.pad(x, p["p"], mode=p["m"])


@op("unfold", ALL, minrank=1)
def _unfold(r, x):
    d = rdim(r, x)
    n = x.shape[d]
    return {"d": d, "s": r.randrange(0, n + 1), "st": r.choice([1, 2, 3])}, \
        lambda p, x: x.unfold(p["d"], p["s"], p["st"])


@op("scatter_reduce", NUM, arity=2, minrank=1)
def _scatter_reduce(r, x):
    d = r.randrange(x.dim())
    if x.shape[d] == 0:
        return None
    return {"d": d, "r": r.choice(["sum", "prod", "mean", "amax", "amin"]),
            "s": r.random() < 0.5}, \
        lambda p, x, i: x.scatter_reduce(p["d"], i, (i.remainder(5) - 2).to(x.dtype),
                                         p["r"], include_self=p["s"])


@op("bucketize", ("f32", "f64", "i64", "i32"), exact=True)
def _bucketize(r, x):
    return {"r": r.random() < 0.5, "i32": r.random() < 0.3}, \
        lambda p, x: torch.bucketize(x, torch.tensor([-1.0, 0.0, 0.5, 2.0], dtype=x.dtype),
                                     out_int32=p["i32"], right=p["r"])


@op("count_nonzero", ALL, exact=True)
def _count_nonzero(r, x):
    return {"d": rdim(r, x)}, lambda p, x: torch.count_nonzero(x, p["d"])


@op("complex", ("f32", "f64"), minrank=1)
def _complex(r, x):
    if x.shape[-1] % 2:
        return None
    return {"k": r.choice(["mul", "add", "conj", "abs", "real"])}, _cplx


def _cplx(p, x):
    c = torch.view_as_complex(x.reshape(x.shape[:-1] + (x.shape[-1] // 2, 2)).contiguous())
    if p["k"] == "mul":
        c = c * c
    elif p["k"] == "add":
        c = c + c
    elif p["k"] == "conj":
        c = c * c.conj()
    if p["k"] == "abs":
        return c.abs()
    return torch.view_as_real(c).reshape(x.shape)



# as_strided reads its operand's storage: drawn only where that storage is
# an input's (the operand an input or a view of one), with a window inside
# it from the operand's storage offset or an explicit one; the reference's
# inputs are copies of the same layout (f64 for floats).
@op("as_strided", ALL)
def _as_strided(r, x):
    n = x.storage().size()
    if n == 0:   # no storage: a window of no elements
        return {"s": r.choice([[0], [3, 0]]), "st": [1, 1], "o": None}, _as_strided_apply
    rank = r.choice([0, 1, 1, 2, 2, 3])
    size = [r.choice([0, 1, 2, 3, 4, 5, 7]) for _ in range(rank)]
    stride = [r.choice([0, 1, 1, 2, 3, 5, 7, 13]) for _ in range(rank)]
    off = None if r.random() < 0.5 else r.randrange(n)
    base = x.storage_offset() if off is None else off
    while size and base + sum((a - 1) * b for a, b in zip(size, stride) if a) >= n:
        k = size.index(max(size))
        if size[k] == 0:
            break
        size[k] -= 1
    if base + sum((a - 1) * b for a, b in zip(size, stride) if a) >= n or base >= n:
        return None
    return {"s": size, "st": stride, "o": off}, _as_strided_apply


def _as_strided_apply(p, x):
    return torch.as_strided(x, p["s"], p["st"][:len(p["s"])], p["o"])


# ---- programs ---------------------------------------------------------
# A program is plain data, JSON in a replay command:
#   {"in": [[shape, dtype], ...], "ops": [[name, params, [value ids]], ...]}
# value ids count the inputs first, then each op's result; the result is
# the last value.  Input data comes from the program's seed.


def make_input(shape, dt, seed, kind=None):
    g = torch.Generator().manual_seed(seed)
    dtype = DT[dt]
    if kind and kind[0] == "index":  # indices into an extent kind[1]
        return torch.randint(0, max(kind[1], 1), shape, generator=g)
    if kind == "mask" or dt == "i1":
        return torch.randint(0, 2, shape, generator=g).bool()
    if dtype.is_floating_point:
        # multiples of 1/8 in [-4, 4]: exact in every float type
        return (torch.randint(-32, 33, shape, generator=g).double() / 8).to(dtype)
    lo = 0 if dt == "u8" else -9
    return torch.randint(lo, 10, shape, generator=g).to(dtype)


class Program:
    def __init__(self, spec):
        self.spec = spec
        self._dtypes = None   # dtypes()

    def inputs(self, ref=False, batch=None):
        """batch: the dynamic modes' inputs at that batch or length (batched())."""
        xs = []
        for i, inp in enumerate(self.spec["in"]):
            shape, dt, kind = inp[:3]
            if batch is not None:
                _, dim, n = self.dynamic()
                if i in self.batched():
                    shape = shape[:dim] + [batch] + shape[dim + 1:]
                if kind and kind[0] == "index" and kind[1] == n:  # maybe into the batch
                    kind = ["index", min(n, batch)]
            x = make_input(shape, dt, self.spec["seed"] * 1000 + (inp[3] if len(inp) > 3 else i),
                           kind)
            if ref and x.is_floating_point():
                x = x.double()
            xs.append(x)
        return xs

    def references(self, batch=None):
        """The program in f64 (None where it raises); on f64 inputs whose
        every element is moved by a relative 1e-12, in random directions
        and in the opposite ones (for model.close's ill-conditioned
        non-finite results); and with the inputs and each op's result
        that rounds (not ROUNDLESS) moved so by the unit roundoff of the
        least precise float type the program computes in (model.close's
        jitter: how far that precision's rounding, once per step, moves
        each result -- a sum that cancels to near zero far more than its
        size, a mean one ulp off through a logit near 0.5); [] where one
        of a pair raises."""
        out = []
        g = torch.Generator().manual_seed(self.spec["seed"])
        signs = [torch.randint(0, 2, x.shape, generator=g, dtype=torch.float64) * 2 - 1
                 if x.is_floating_point() else None for x in self.inputs(ref=True, batch=batch)]
        u = self.roundoff()
        with torch.no_grad():
            for s in (0, -1e-12, 1e-12, -u, u):
                # fresh inputs each time: the program may write into them
                xs = self.inputs(ref=True, batch=batch)
                # the same signs for -u and +u: a symmetric pair
                jit = (s, torch.Generator().manual_seed(self.spec["seed"] + 1)) if s and abs(s) == u else None
                try:
                    out.append(self.run([x if d is None else x * (1 + s * d)
                                         for x, d in zip(xs, signs)], ref=True, jit=jit))
                except Exception:
                    out.append(None)
        pairs = [out[1:3], out[3:5] if u else []]
        return (out[0],) + tuple([] if None in q else q for q in pairs)

    def dtypes(self):
        """The element types of the program's values (its inputs and each
        op's result, run once in eager)"""
        if self._dtypes is None:
            with torch.no_grad():
                vals = list(self.inputs())
                for name, params, ids in self.spec["ops"]:
                    if not APPLY:
                        APPLY.update(_appliers())
                    vals.append(APPLY[name](params, *[vals[i] for i in ids]))
            self._dtypes = [v.dtype for v in vals]
        return self._dtypes

    def roundoff(self):
        """The unit roundoff of the least precise float type among the
        program's values (0 where it computes in none)"""
        return max([ROUNDOFF.get(d, 0) for d in self.dtypes()] + [0])

    def run(self, xs, ref=False, jit=None):
        """jit: (s, generator): each float result of an op that rounds
        moved by a relative s, in random directions (references())"""
        vals = list(xs)
        for name, params, ids in self.spec["ops"]:
            if not APPLY:
                APPLY.update(_appliers())
            apply = APPLY[name]
            if name == "to" and ref and DT[params["dt"]].is_floating_point:
                vals.append(vals[ids[0]].double())
                continue
            if name in ("maximum", "minimum") and ref:
                # which of two equal operands comes out (-0.0 or 0.0) is
                # unspecified: eager's vector and scalar loops differ.
                # The reference takes the other one, so that an element
                # whose value hangs on it (rsqrt(-0.0)) is not compared
                ids = ids[::-1]
            v = apply(params, *[vals[i] for i in ids])
            if jit and name not in ROUNDLESS and isinstance(v, torch.Tensor) and v.is_floating_point():
                d = torch.randint(0, 2, v.shape, generator=jit[1], dtype=torch.float64) * 2 - 1
                v = v * (1 + jit[0] * d.to(v.dtype))
            vals.append(v)
        return vals[-1]

    def dynamic(self):
        """The dynamic mode's symbol, dimension and extent: ("batch", 0,
        spec's batch) or ("seq", 1, spec's seq)."""
        if "seq" in self.spec:
            return "seq", 1, self.spec["seq"]
        return "batch", 0, self.spec.get("batch")

    def batched(self):
        """The dynamic mode's dynamic inputs: those whose dimension 0 (1 for
        a length) is the spec's extent (the others static, as a weight is)."""
        _, dim, n = self.dynamic()
        return [i for i, inp in enumerate(self.spec["in"])
                if len(inp[0]) > dim and inp[0][dim] == n]

    def tolerance(self):
        """The loosest tolerance of the float types the program computes
        in: a result is no more precise than its least precise step."""
        tol = None
        for d in self.dtypes():
            t = TOL.get(d)
            if t and (tol is None or t[0] > tol[0]):
                tol = t
        return tol

    def text(self):
        return json.dumps(self.spec, separators=(",", ":"))


def rand_shape(r, want=None, rank=None, lead=None, dim=0):
    """lead: dimension dim's extent (the dynamic modes' batch or length),
    rank > dim."""
    rank = r.choice([0, 1, 1, 2, 2, 2, 3, 3, 4]) if rank is None else rank
    if lead is not None:
        rank = max(rank, dim + 1)
    s = [r.choice(EXTENTS) for _ in range(rank)]
    if r.random() < 0.05 and rank:
        s[r.randrange(rank)] = r.choice([127, 257, 1031])
    if want == "size0" and rank:
        s[r.randrange(rank)] = 0
    elif want == "size1" and rank:
        s[r.randrange(rank)] = 1
    elif r.random() < 0.04 and rank:
        s[r.randrange(rank)] = 0
    while rank and _numel(s) > 40000:
        s[s.index(max(s))] //= 2
    if lead is not None:
        s[dim] = lead
        while _numel(s) > 40000:
            rest = [k for k in range(rank) if k != dim]
            k = max(rest, key=lambda k: s[k])
            s[k] //= 2
    return s


def _numel(s):
    n = 1
    for d in s:
        n *= d
    return n


def second_operand(r, name, x):
    """(shape, dtype, kind) of a fresh input for op name on operand x, or
    None when the op takes x itself."""
    dt = DTNAME[x.dtype]
    if name in ("mm",):
        k = x.shape[-1]
        if x.dim() >= 3 and r.random() < 0.5:
            return [x.shape[0], k, r.choice(EXTENTS)], dt, None
        return [k, r.choice(EXTENTS + [0])], dt, None
    if name == "linear":
        return [r.choice(EXTENTS + [0]), x.shape[-1]], dt, None
    if name == "conv2d":
        return None  # weight drawn in pick()
    if name == "embedding":
        return rand_shape(r, rank=r.choice([1, 2])), "i64", ["index", x.shape[0]]
    if name == "masked_fill":
        return _bcast_shape(r, list(x.shape)), "i1", "mask"
    if name in ("index_select",):
        return [r.choice([0, 1, 3, 5, 17])], "i64", None
    if name in ("gather", "scatter", "scatter_reduce"):
        return None
    if name in ("index_put", "index"):
        return rand_shape(r, rank=r.choice([1, 1, 2])), "i64", ["index", x.shape[0]]
    s = _bcast_shape(r, list(x.shape))
    if name in ("add", "sub", "mul", "maximum", "minimum", "where") and r.random() < 0.3:
        dt = r.choice(NUM)
    return s, dt, None


def _bcast_shape(r, s):
    c = r.random()
    if c < 0.5:
        return s
    if c < 0.8:
        return [1 if r.random() < 0.5 else n for n in s]
    return s[r.randrange(len(s) + 1):] if s else s


def pick(r, prog, vals, exact, name, x_id, fresh):
    """Append op name on value x_id to the program; True when eager took it."""
    x = vals[x_id]
    o = OPS[name]
    if x.dim() < o["minrank"] or DTNAME[x.dtype] not in o["dtypes"]:
        return False
    if o["exact"] and x.is_floating_point() and not exact[x_id]:
        return False
    # sin and cos of a large inexact value turn its last-bit differences
    # (a fused chain's, libm's) into visible ones: keep their arguments small
    if name in ("sin", "cos") and not exact[x_id] and x.numel() and \
            x.is_floating_point() and x.abs().nan_to_num(0, 0, 0).max() > 64:
        return False
    # (every empty storage's address is 0: an empty operand must be an input)
    if name == "as_strided" and not any(
            x is vals[i] or x.storage().size() and
            x.storage().data_ptr() == vals[i].storage().data_ptr()
            for i in range(len(prog["in"]))):
        return False
    got = o["fn"](r, x)
    if got is None:
        return False
    params, apply = got
    ids = [x_id]
    nin = len(prog["in"])
    if o["arity"] == 2:
        sec = second_operand(r, name, x)
        if name == "conv2d":
            c = x.shape[1] // params["g"]
            sec = ([r.choice([1, 2, 4, 6]) * params["g"], c, r.choice([1, 2, 3]),
                    r.choice([1, 3])], DTNAME[x.dtype], None)
        if name == "index_select":
            sec = (sec[0], "i64", ["index", x.shape[params["d"]]])
        if name in ("gather", "scatter", "scatter_reduce"):
            s = [r.choice([0, 1, n, n + 1]) if i != params["d"] else r.choice([0, 1, 3])
                 for i, n in enumerate(x.shape)]
            s = [min(a, n) if i != params["d"] else a for i, (a, n) in enumerate(zip(s, x.shape))]
            sec = (s, "i64", ["index", x.shape[params["d"]]])
        if sec is None or r.random() < 0.2 and name not in (
                "mm", "linear", "conv2d", "embedding", "index_select", "gather", "masked_fill",
                "scatter", "scatter_reduce", "index_put", "index"):
            same = [i for i, v in enumerate(vals) if v.shape == x.shape and v.dtype == x.dtype]
            ids.append(r.choice(same))
        else:
            prog["in"].insert(nin, list(sec))
            ids = [i + 1 if i >= nin else i for i in ids]
            vals.insert(nin, make_input(sec[0], sec[1], prog["seed"] * 1000 + nin, sec[2]))
            exact.insert(nin, True)
            prog["ops"] = [[n, p, [i + 1 if i >= nin else i for i in a]]
                           for n, p, a in prog["ops"]]
            ids.append(nin)
    try:
        with torch.no_grad():
            y = apply(params, *[vals[i] for i in ids])
    except Exception:
        return _undo(prog, vals, exact, nin)
    if isinstance(y, torch.Tensor) and y.numel() > 200000:
        return _undo(prog, vals, exact, nin)
    prog["ops"].append([name, params, ids])
    vals.append(y)
    exact.append(all(exact[i] for i in ids) and (o["exact"] or name in SHAPE_OPS
                 or not y.is_floating_point()))
    fresh.append((name, ids, [vals[i] for i in ids]))
    return True


def _undo(prog, vals, exact, nin):
    if len(prog["in"]) > nin:
        del prog["in"][nin]
        del vals[nin]
        del exact[nin]
        prog["ops"] = [[n, p, [i - 1 if i > nin else i for i in a]] for n, p, a in prog["ops"]]
    return False


SHAPE_OPS = {"transpose", "permute", "slice", "select", "unsqueeze", "squeeze",
             "reshape", "expand", "flip", "roll", "repeat", "cat", "pad", "tril",
             "neg", "abs", "relu", "maximum", "minimum", "clamp", "index_select",
             "gather", "embedding", "masked_fill", "amax", "amin",
             "diagonal", "diag", "diag_embed", "rot90", "pixel_shuffle", "unfold",
             "pad_nd", "fmax", "fmin", "copysign", "frac", "sgn", "nan_to_num",
             "as_strided"}
NONCONTIG = ["transpose", "permute", "slice", "expand"]


def generate(seed, target=None, lead=None, dim=0):
    """A random program; target (op, 'size0'|'size1'|'noncontig') aims
    the chain's first real op at such an operand.  lead: the first
    input's dimension dim (the dynamic modes' batch at 0, in the spec as
    "batch", or length at 1, as "seq")."""
    r = random.Random(seed)
    for _attempt in range(200):
        prog = {"seed": seed, "in": [], "ops": []}
        if lead is not None:
            prog["seq" if dim else "batch"] = lead
        want = target[1] if target else None
        tname = target[0] if target else None
        if tname:
            dts = OPS[tname]["dtypes"]
            dt = r.choice(dts)
            rank = max(OPS[tname]["minrank"], r.choice([1, 2, 3]))
            if tname in ("conv2d", "pool2d", "adaptive_avg"):
                rank = 4
            if tname == "embedding":
                rank = 2
            if lead is not None and rank <= dim:
                rank = dim + 1
        else:
            dt = r.choices(list(DT_WEIGHT), weights=list(DT_WEIGHT.values()))[0]
            rank = None
        shape = rand_shape(r, want if want != "noncontig" else None, rank, lead, dim)
        prog["in"].append([shape, dt, None])
        vals = [make_input(shape, dt, seed * 1000)]
        exact = [True]
        fresh = []
        ok = True
        if want == "noncontig":
            if not any(pick(r, prog, vals, exact, n, 0, fresh)
                       for n in r.sample(NONCONTIG, len(NONCONTIG))):
                continue
            if vals[-1].is_contiguous():
                continue
        if tname:
            ok = pick(r, prog, vals, exact, tname, len(vals) - 1, fresh)
            if not ok:
                continue
        n = r.choice([1, 2, 2, 3, 4, 5, 6]) - len(prog["ops"])
        names = sorted(OPS)
        tries = 0
        while n > 0 and tries < 60:
            tries += 1
            if pick(r, prog, vals, exact, r.choice(names), len(vals) - 1, fresh):
                n -= 1
        if not prog["ops"]:
            continue
        y = vals[-1]
        if not isinstance(y, torch.Tensor) or y.dtype not in DTNAME:
            continue
        return Program(prog), fresh
    return None, []


# ---- running ----------------------------------------------------------

class Batch(torch.nn.Module):
    """K programs in one module: every program's inputs, every result."""

    def __init__(self, progs):
        super().__init__()
        self.progs = progs

    def forward(self, *xs):
        outs, k = [], 0
        for p in self.progs:
            n = len(p.spec["in"])
            outs.append(p.run(list(xs[k:k + n])))
            k += n
        return tuple(outs)


def single(p):
    """p as a module whose forward names each input: torch.export takes
    dynamic shapes per parameter, not in Batch's *xs."""
    names = ", ".join("x%d" % i for i in range(len(p.spec["in"])))
    ns = {}
    exec("def forward(self, %s):\n    return (self.prog.run([%s]),)\n" % (names, names), ns)
    m = type("Single", (torch.nn.Module,), {"forward": ns["forward"]})()
    m.prog = p
    return m


def check(progs, d):
    """Runs programs as one module; raises Failure."""
    xs = []
    for p in progs:
        xs += p.inputs()
    refs = [p.references() for p in progs]
    alt = [a for a, _, _ in refs] if all(a is not None for a, _, _ in refs) else None
    nudged = [[n[j] for _, n, _ in refs] for j in range(2)] if all(n for _, n, _ in refs) else []
    jitter = [[n[j] for _, _, n in refs] for j in range(2)] if all(n for _, _, n in refs) else []
    tols = [p.tolerance() for p in progs]
    # vmrun returns each result as its own buffer: give views their own
    return run_module(Batch(progs), xs, d, alt=alt, tols=tols, nudged=nudged, jitter=jitter)


def attempt(p, d):
    try:
        check([p], d)
        return None
    except Failure as e:
        return e


# ---- the dynamic batch mode -------------------------------------------
# --dynamic-batch: a program whose first input has dimension 0 the spec's
# "batch" N (and every input whose dimension 0 is N: Program.batched) is
# exported once with those dimensions the one symbol batch (torch.export,
# PyTorch 2), compiled once, and run by vmrun at each of DYN_SIZES and N
# in the exported range, each compared with eager at that batch as the
# static mode compares; a batch just outside the range must be refused by
# vmrun.  A batch that is not computed item by item (a sum over it, a
# flip of it) must be refused by codegen with one of DYN_REFUSALS.

DYN_SIZES = (0, 1, 3, 8, 9, 15, 17)   # 3 and 15: a bounded remainder of the chunk of 8
DYN_LEADS = (6, 10, 12)    # not in EXTENTS: a static extent rarely equals the batch
# --dynamic-length: the range exported, and the lengths run (codegen's
# padded functions at 16 and 40 both)
LEN_RANGE = (1, 40)
LEN_SIZES = (1, 2, 5, 15, 16, 17, 33, 40)
DYN_REFUSALS = ("codegen: a dynamic batch is compiled only where every batch item is "
                "computed on its own",
                "codegen: a dynamic length is compiled only where every tensor keeps its "
                "elements in place",
                "codegen: a dynamic length needs a range",
                "one dynamic length per function is supported yet")
# the stages before codegen, whose clear errors on a dynamic batch (no
# dynamic form of an op yet) are counted, not failures; codegen's other
# errors are
DYN_FRONT = ("fx-import:", "torch-opt:", "torch-lower:")
# kinds of Failure that are outcomes, not bugs
DYN_BENIGN = ("export", "specialized", "refused", "refused-static", "refused-front")
# torch.export's advice where its guards narrowed the batch's range
DYN_SUGGESTED = re.compile(r"(?:batch|seq) = Dim\('(?:batch|seq)'((?:, (?:min|max)=\d+)*)\)")


def export_dynamic(p, xs, d):
    """The JSON of p exported with a dynamic batch, and the batch's range
    (max None: unbounded).  Where torch.export narrows the range (a select
    of item 5 needs 6 items) it is exported again with the range it
    suggests.  Raises Failure 'specialized' (the batch became a constant)
    or 'export'."""
    from fx_export.dynamic import DynamicDim
    name, dim, _ = p.dynamic()
    rng = {} if name == "batch" else dict(zip(("min", "max"), LEN_RANGE))
    for again in (True, False):
        dyn = [DynamicDim(i, dim, name, rng.get("min"), rng.get("max")) for i in p.batched()]
        try:
            js = export_module(single(p), [x.clone() for x in xs], d, dynamic=dyn)
            break
        except Failure as e:
            m = DYN_SUGGESTED.search(str(e))
            if again and m:
                rng = {k: int(v) for k, v in re.findall(r"(min|max)=(\d+)", m.group(1))}
                continue
            if "specialized" in str(e) or "the constant" in str(e):
                raise Failure("specialized", str(e))
            raise
    with open(js) as f:
        doc = json.load(f)
    sym = [t for t in doc.get("symbols") or () if t["name"] == name]
    if not sym or any(doc["inputs"][i]["shape"][dim] != name for i in p.batched()):
        raise Failure("specialized", "fx-export: the export's %s is static" % name)
    return js, sym[0]["min"], sym[0]["max"]


def check_dynamic(p, d):
    """p exported and compiled once with a dynamic batch, run at several
    batches; returns how many ran, raises Failure (kinds: DYN_BENIGN,
    'compile': an error of codegen or vmpack other than DYN_REFUSALS where
    the static mode passes, 'vmrun': vmrun refused a batch in range,
    'range': it ran one outside, 'mismatch', 'crash')."""
    os.makedirs(d, exist_ok=True)
    name, _, n = p.dynamic()
    what = "batch" if name == "batch" else "length"
    js, lo, hi = export_dynamic(p, p.inputs(), d)
    try:
        vmfb = compile_json(js, d)
    except Failure as e:
        if e.kind != "refused" or any(m in str(e) for m in DYN_REFUSALS):
            raise
        st = attempt(p, os.path.join(d, "static"))
        if st and st.kind in ("export", "refused"):
            kind = "refused-static"
        elif str(e).startswith(DYN_FRONT):
            kind = "refused-front"
        else:
            kind = "compile"
        raise Failure(kind, "%s (static: %s)" % (e, st.kind if st else "ok"))
    ran = 0
    tol = p.tolerance()
    for b in sorted(set(DYN_SIZES if name == "batch" else LEN_SIZES) | {n}):
        if b < lo or hi is not None and b > hi:
            continue
        xs = p.inputs(batch=b)
        # eager's pixel_(un)shuffle of no elements returns its input's
        # shape, not the one the export computes ([0, 2, 2] unshuffled by
        # 2 stays [0, 2, 2], not [0, 1, 1]): no reference at such a batch
        if any(x.numel() == 0 for x in xs) and any(
                o[0] == "pixel_shuffle" and o[1]["k"] != "channel" for o in p.spec["ops"]):
            continue
        try:
            with torch.no_grad():
                want = (p.run([x.clone() for x in xs]),)
        except Exception:   # eager takes no such batch (an index past it)
            continue
        alt, nudged, jitter = p.references(batch=b)
        try:
            run_compiled(vmfb, xs, want, d, alt=None if alt is None else [alt], tols=[tol],
                         nudged=[[n] for n in nudged], jitter=[[n] for n in jitter])
        except Failure as e:
            raise Failure(e.kind if e.kind in ("mismatch", "crash") else "vmrun",
                          "%s %d (exported at %d, range [%d, %s]): %s"
                          % (what, b, n, lo, hi, e))
        ran += 1
    for b in [lo - 1] + ([hi + 1] if hi is not None and hi < 100 else []):
        if b < 0:
            continue
        try:
            sh("vmrun", vmrun_argv(vmfb, p.inputs(batch=b), d))
        except Failure as e:
            if e.kind == "crash":
                raise
        else:
            raise Failure("range", "vmrun ran %s %d outside the range [%d, %s]"
                          % (what, b, lo, hi))
    return ran


def attempt_dynamic(p, d):
    try:
        check_dynamic(p, d)
        return None
    except Failure as e:
        return e


def shrink(p, kind, d, deadline, attempt=attempt):
    """A smaller program failing the same way (kind)."""
    def fails(q):
        if time.time() > deadline:
            return False
        try:
            with torch.no_grad():
                q.run(q.inputs())
        except Exception:
            return False
        e = attempt(q, d)
        return e is not None and e.kind == kind
    best = drop_unused(p)
    changed = True
    while changed:
        changed = False
        spec = best.spec
        # a shorter chain: the result is an earlier op's
        for k in range(1, len(spec["ops"])):
            q = Program(dict(spec, ops=spec["ops"][:k]))
            if fails(q):
                best, changed = q, True
                break
        if changed:
            continue
        # an op's operand straight from its operand's operand (skip it)
        ops = spec["ops"]
        nin = len(spec["in"])
        for j in range(len(ops) - 1):
            src = ops[j][2][0]
            rest = [[n, pp, [src if i == nin + j else (i - 1 if i > nin + j else i) for i in a]]
                    for n, pp, a in ops[j + 1:]]
            q = Program(dict(spec, ops=ops[:j] + rest))
            if fails(q):
                best, changed = q, True
                break
        if changed:
            continue
        # smaller extents
        for i, inp in enumerate(spec["in"]):
            shape = inp[0]
            for k, n in enumerate(shape):
                for m in sorted({1, n // 2, n - 1}):
                    if 0 <= m < n:
                        ins = [list(x) for x in spec["in"]]
                        ins[i] = [shape[:k] + [m] + shape[k + 1:]] + list(inp[1:])
                        q = Program(dict(spec, **{"in": ins}))
                        if fails(q):
                            best, changed = q, True
                            break
                if changed:
                    break
            if changed:
                break
    return best


def drop_unused(p):
    """p without the inputs no op reads (the seed keeps each input's data)."""
    spec = p.spec
    used = {i for _, _, ids in spec["ops"] for i in ids}
    nin = len(spec["in"])
    keep = [i for i in range(nin) if i in used]
    if len(keep) == nin or not keep:
        return p
    # data comes from seed * 1000 + position: keep the positions' data by
    # giving each kept input its own seed entry
    new = {i: k for k, i in enumerate(keep)}
    ren = lambda i: new[i] if i < nin else i - nin + len(keep)
    ins = [list(spec["in"][i]) for i in keep]
    for k, i in enumerate(keep):
        ins[k] = ins[k][:3] + [i]  # the input's data index
    return Program(dict(spec, **{"in": ins, "ops": [[n, pp, [ren(i) for i in ids]]
                                                    for n, pp, ids in spec["ops"]]}))


def replay_command(p):
    mode = " --dynamic-batch" if "batch" in p.spec else " --dynamic-length" if "seq" in p.spec else ""
    return "%s tests/diff/fuzz.py%s --replay '%s'" % (sys.executable, mode, p.text())


def report_failure(a, p, e, d, failures, attempt=attempt):
    """Shrinks failing program p, prints it with its replay command."""
    s = shrink(p, e.kind, d, time.time() + a.shrink_seconds, attempt)
    e2 = attempt(s, d) or e
    failures.append((s, e2))
    print("FAIL %s: %s\n  replay: %s" % (e2.kind, str(e2)[:600], replay_command(s)), flush=True)
    if a.keep:
        os.makedirs(a.keep, exist_ok=True)
        shutil.copytree(d, os.path.join(a.keep, "fail%d" % len(failures)), dirs_exist_ok=True)


def coverage_add(cov, fresh):
    for name, _, xs in fresh:
        c = cov.setdefault(name, set())
        x = xs[0]
        if any(n == 0 for n in x.shape):
            c.add("size0")
        if any(n == 1 for n in x.shape) or x.dim() == 0:
            c.add("size1")
        if any(not t.is_contiguous() for t in xs):
            c.add("noncontig")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--batch", type=int, default=8)
    ap.add_argument("--replay")
    ap.add_argument("--keep", help="keep the work files of failures here")
    ap.add_argument("--shrink-seconds", type=float, default=120)
    ap.add_argument("--max-failures", type=int, default=0,
                    help="stop after this many failures, each shrunk (0: no limit)")
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--show-refused", action="store_true",
                    help="print each refused program's replay command too")
    ap.add_argument("--dynamic-batch", action="store_true",
                    help="export each program once with a dynamic batch, run it at "
                    "several (PyTorch 2)")
    ap.add_argument("--dynamic-length", action="store_true",
                    help="export each program once with a dynamic length (dimension 1), "
                    "run it at several (PyTorch 2)")
    a = ap.parse_args()
    a.mode = "--dynamic-length" if a.dynamic_length else "--dynamic-batch" if a.dynamic_batch else None
    if a.dynamic_batch and a.dynamic_length:
        ap.error("--dynamic-batch and --dynamic-length: one at a time")
    if a.mode and not hasattr(torch, "export"):
        print("fuzz-diff %s: skipped: PyTorch %s has no torch.export; run it "
              "with PyTorch 2 (.venv/bin/python, scripts/setup.sh)" % (a.mode, torch.__version__))
        return 0
    work = tempfile.mkdtemp(prefix="fuzz-diff.")
    try:
        if a.replay:
            p = Program(json.loads(a.replay))
            if a.mode:
                e = attempt_dynamic(p, os.path.join(work, "r"))
                bad = e is not None and e.kind not in DYN_BENIGN
            else:
                e = attempt(p, os.path.join(work, "r"))
                bad = e is not None and e.kind in ("mismatch", "crash")
            print("replay: %s" % ("ok" if e is None else "%s: %s" % (e.kind, e)))
            return 1 if bad else 0
        return (fuzz_dynamic if a.mode else fuzz)(a, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def programs(a, stats, cov, combos, dynamic=False):
    """dynamic: each with a lead extent (a.mode's batch or length)."""
    """The run's programs, (count so far, program or None), counted in
    stats, cov and combos.  Same seed, same programs."""
    # every op's size-0 operand first, then size-1, then non-contiguous:
    # a run shorter than 3 * len(OPS) (CI's) still aims at each op
    targets = [(n, w) for w in ("size0", "size1", "noncontig") for n in sorted(OPS)]
    seed = a.seed * 1000003
    for i in range(a.count):
        target = targets[i] if i < len(targets) else None
        lead = random.Random(-(seed + i)).choice(DYN_LEADS) if dynamic else None
        dim = 1 if dynamic and a.dynamic_length else 0
        p, fresh = generate(seed + i, target, lead, dim)
        if p is None and target:   # no such operand for this op (pixel_shuffle of size 0)
            p, fresh = generate(seed + i, None, lead, dim)
        if p is None:
            stats["not generated"] += 1
        else:
            stats["programs"] += 1
            coverage_add(cov, fresh)
            combos.add(tuple(o[0] for o in p.spec["ops"]))
        yield i + 1, p


def progress(a, i, failures, t0):
    if not a.quiet and i % 100 == 0:
        print("%d programs, %d failures, %.0f s" % (i, len(failures), time.time() - t0),
              flush=True)


def print_table(title, counts):
    if counts:
        print(title)
        for m, n in counts.most_common(15):
            print("  %5d  %s" % (n, m))


def enough(a, failures):
    """--max-failures reached: no more programs, no more shrinking."""
    return a.max_failures > 0 and len(failures) >= a.max_failures


def fuzz(a, work):
    cov, combos, stats, refusals = {}, set(), Counter(), Counter()
    failures = []
    t0 = time.time()
    progs = []

    def flush():
        if not progs:
            return
        d = os.path.join(work, "b")
        shutil.rmtree(d, ignore_errors=True)
        try:
            check(progs, d)
            stats["ok"] += len(progs)
            progs.clear()
            return
        except Failure as e:
            if len(progs) == 1:
                results = [(progs[0], e)]
            else:
                results = [(p, attempt(p, d)) for p in progs]
        for p, e in results:
            if e is None:
                stats["ok"] += 1
            elif e.kind == "export":
                stats["export"] += 1
            elif e.kind == "refused":
                stats["refused"] += 1
                refusals[str(e).split(": ", 2)[-1][:100]] += 1
                if a.show_refused:
                    print("refused: %s\n  replay: %s" % (str(e)[:300], replay_command(p)))
            else:
                stats[e.kind] += 1
                if not enough(a, failures):
                    report_failure(a, p, e, d, failures)
        progs.clear()

    for i, p in programs(a, stats, cov, combos):
        if p is None:
            continue
        progs.append(p)
        if len(progs) >= a.batch:
            flush()
        progress(a, i, failures, t0)
        if enough(a, failures):
            break
    flush()
    print("\nfuzz-diff: seed %d: %d programs (%d op combinations) in %.0f s: %d ok, %d refused, "
          "%d not exportable, %d mismatches, %d crashes" % (
              a.seed, stats["programs"], len(combos), time.time() - t0, stats["ok"],
              stats["refused"], stats["export"], stats["mismatch"], stats["crash"]))
    print_table("refusals, most common first:", refusals)
    missing = ["%s: %s" % (n, ",".join(w for w in ("size0", "size1", "noncontig")
                                       if w not in cov.get(n, ())))
               for n in sorted(OPS) if len(cov.get(n, ())) < 3]
    print("coverage: %d ops, %d with size-0, size-1 and non-contiguous operands%s" % (
        len(OPS), len(OPS) - len(missing),
        ("; missing: " + "; ".join(missing)) if missing else ""))
    print("%d passed, %d failed" % (stats["programs"] - len(failures), len(failures)))
    return 1 if failures else 0


def fuzz_dynamic(a, work):
    """--dynamic-batch, --dynamic-length: each program alone, check_dynamic's
    outcomes counted."""
    cov, combos, stats, reasons = {}, set(), Counter(), Counter()
    failures = []
    t0 = time.time()
    sizes = 0
    for i, p in programs(a, stats, cov, combos, dynamic=True):
        if p is None:
            continue
        d = os.path.join(work, "b")
        shutil.rmtree(d, ignore_errors=True)
        try:
            sizes += check_dynamic(p, d)
            stats["ok"] += 1
        except Failure as e:
            stats[e.kind] += 1
            if e.kind not in DYN_BENIGN:
                report_failure(a, p, e, d, failures, attempt_dynamic)
                if enough(a, failures):
                    break
            else:
                why = str(e).split("\n")[0].split("error: ", 1)[-1]
                for m in DYN_REFUSALS:
                    why = why.replace(m, m[:m.index(" ", 30)] + "...")
                reasons["%s: %s" % (e.kind, why[:110])] += 1
                if e.kind == "refused" and attempt(p, os.path.join(d, "static")) is None:
                    stats["refused, static ok"] += 1
                if a.show_refused and e.kind.startswith("refused"):
                    print("%s: %s\n  replay: %s" % (e.kind, str(e)[:300], replay_command(p)))
        progress(a, i, failures, t0)
    print("\nfuzz-diff %s: seed %d: %d programs (%d op combinations) in %.0f s: "
          "%d ok (%d %s run), %d specialized, %d not exportable, %d refused by codegen "
          "(%d of them pass static), %d refused before codegen (static passes), "
          "%d refused by a stage as static too, "
          "%d unexpected compile errors, %d refused by vmrun, %d ranges not checked, "
          "%d mismatches, %d crashes" % (
              a.mode, a.seed, stats["programs"], len(combos), time.time() - t0, stats["ok"], sizes,
              "batches" if a.dynamic_batch else "lengths",
              stats["specialized"], stats["export"], stats["refused"],
              stats["refused, static ok"], stats["refused-front"], stats["refused-static"],
              stats["compile"],
              stats["vmrun"], stats["range"], stats["mismatch"], stats["crash"]))
    print_table("outcomes other than ok, most common first:", reasons)
    print("%d passed, %d failed" % (stats["programs"] - len(failures), len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
