#!/usr/bin/env python3
"""gen.py - writes torch-lower's op-level numeric tests.

For every aten op in the list below it writes tests/torch-lower/ops/OP.mlir,
a module with one function per variant (dtype, broadcasting, arguments),
each holding that op alone in backend-contract form, and OP.json with the
variants' inputs and PyTorch's outputs; then tests/torch-lower/ops.bats with
one test per op.  run.py checks them without torch.

Needs a Python with torch:  /usr/bin/python3 tests/torch-lower/gen.py
The generator is deterministic: rerunning it rewrites the same files.
"""
import json
import math
import os
import struct
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "ops")

DT = {torch.float32: "f32", torch.float64: "f64", torch.float16: "f16",
      torch.bfloat16: "bf16", torch.int64: "si64", torch.int32: "si32",
      torch.int16: "si16", torch.int8: "si8", torch.uint8: "ui8",
      torch.bool: "i1"}
CODE = {torch.uint8: 0, torch.int8: 1, torch.int16: 2, torch.int32: 3,
        torch.int64: 4, torch.float16: 5, torch.float32: 6, torch.float64: 7,
        torch.bool: 11, torch.bfloat16: 15}
f32, f64, f16, bf16 = torch.float32, torch.float64, torch.float16, torch.bfloat16
i64, i32, i8, u8, b1 = torch.int64, torch.int32, torch.int8, torch.uint8, torch.bool
ALL = [f32, f64, f16, bf16, i64, i32, i8, u8, b1]
FLOATS = [f32, f64, f16, bf16]
INTS = [i64, i32, i8, u8]


# ---- operands ----
class T:
    """Input tensor number i (a function argument)."""
    def __init__(self, i): self.i = i
class I:
    def __init__(self, v): self.v = v
class F:
    def __init__(self, v): self.v = v
class B:
    def __init__(self, v): self.v = v
class S:
    def __init__(self, v): self.v = v
class L:
    """A list of ints."""
    def __init__(self, v): self.v = v
class LT:
    """A list of (optional) tensors: T or None."""
    def __init__(self, v, optional=False): self.v, self.optional = v, optional
class DType:
    def __init__(self, v): self.v = v
N = None


def vt(t):
    return "!torch.vtensor<[%s],%s>" % (",".join(str(d) for d in t.shape), DT[t.dtype])


def flit(v):
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return "%.17e" % v


class Builder:
    def __init__(self, inputs):
        self.inputs = inputs
        self.lines = []
        self.n = 0

    def fresh(self, p="%v"):
        self.n += 1
        return "%s%d" % (p, self.n)

    def const(self, kind, text, ty):
        v = self.fresh()
        self.lines.append("    %s = torch.constant.%s%s" % (v, kind, text))
        return v, ty

    def operand(self, a):
        if isinstance(a, T):
            return "%%arg%d" % a.i, vt(self.inputs[a.i])
        if a is None:
            return self.const("none", "", "!torch.none")
        if isinstance(a, I):
            return self.const("int", " %d" % a.v, "!torch.int")
        if isinstance(a, DType):
            return self.const("int", " %d" % CODE[a.v], "!torch.int")
        if isinstance(a, F):
            if math.isinf(a.v) or math.isnan(a.v):
                bits = struct.unpack("<Q", struct.pack("<d", a.v))[0]
                return self.const("float", " 0x%016X" % bits, "!torch.float")
            return self.const("float", " %.17e" % a.v, "!torch.float")
        if isinstance(a, B):
            return self.const("bool", " true" if a.v else " false", "!torch.bool")
        if isinstance(a, S):
            return self.const("str", ' "%s"' % a.v, "!torch.str")
        if isinstance(a, L):
            els = [self.operand(I(x)) for x in a.v]
            return self.list(els, "!torch.list<int>")
        if isinstance(a, LT):
            els = [self.operand(x) for x in a.v]
            return self.list(els, "!torch.list<optional<vtensor>>" if a.optional
                             else "!torch.list<vtensor>")
        raise TypeError(a)

    def list(self, els, ty):
        v = self.fresh()
        self.lines.append("    %s = torch.prim.ListConstruct %s : (%s) -> %s" % (
            v, ", ".join(e[0] for e in els), ", ".join(e[1] for e in els), ty))
        return v, ty


def pyval(a, inputs):
    if isinstance(a, T):
        return inputs[a.i]
    if isinstance(a, (I, F, B, S, L)):
        return a.v
    if isinstance(a, DType):
        return a.v
    if isinstance(a, LT):
        return [pyval(x, inputs) if x is not None else None for x in a.v]
    return None


def aten(op):
    name, _, ov = op.partition(".")
    return getattr(getattr(torch.ops.aten, name), ov or "default")


def call(op, args, inputs):
    fn = aten(op)
    pos, kw = [], {}
    for a, s in zip(args, fn._schema.arguments):
        v = pyval(a, inputs)
        if s.kwarg_only:
            kw[s.name] = v
        else:
            pos.append(v)
    r = fn(*pos, **kw)
    return list(r) if isinstance(r, (tuple, list)) else [r]


def enc(t):
    t = t.detach()
    if t.dtype in (f16, bf16):
        vals = t.to(f64).flatten().tolist()
    else:
        vals = t.flatten().tolist()
    if t.is_floating_point():
        vals = [flit(v) if (math.isnan(v) or math.isinf(v)) else v for v in vals]
    elif t.dtype == b1:
        vals = [int(v) for v in vals]
    return {"dtype": DT[t.dtype], "shape": list(t.shape), "data": vals}


OPS = {}   # op -> list of variants


def variant(op, args, inputs, tol=None):
    """Adds one variant when PyTorch accepts it; returns whether it did."""
    try:
        outs = call(op, args, inputs)
    except (RuntimeError, TypeError, ValueError, IndexError):
        return False
    if any(not isinstance(o, torch.Tensor) for o in outs):
        return False
    b = Builder(inputs)
    res = b.fresh("%r")
    opnds = [b.operand(a) for a in args]
    rtys = [vt(o) for o in outs]
    name = res if len(outs) == 1 else "%s:%d" % (res, len(outs))
    b.lines.append("    %s = torch.aten.%s %s : %s -> %s" % (
        name, op, ", ".join(o[0] for o in opnds), ", ".join(o[1] for o in opnds),
        ", ".join(rtys)))
    rets = [res] if len(outs) == 1 else ["%s#%d" % (res, i) for i in range(len(outs))]
    b.lines.append("    return %s : %s" % (", ".join(rets), ", ".join(rtys)))
    v = {"inputs": [enc(t) for t in inputs], "outputs": [enc(o) for o in outs],
         "body": b.lines, "args": ["%%arg%d: %s" % (i, vt(t)) for i, t in enumerate(inputs)],
         "results": rtys}
    if tol:
        v["tol"] = tol
    OPS.setdefault(op, []).append(v)
    return True


# ---- inputs ----
torch.manual_seed(0)


def rnd(shape, dt=f32, kind="any"):
    if dt.is_floating_point:
        if kind == "pos":
            x = torch.rand(shape) * 3 + 0.1
        elif kind == "unit":
            x = torch.rand(shape) * 1.8 - 0.9
        elif kind == "nz":
            x = torch.randn(shape)
            x = x + torch.where(x >= 0, 0.5, -0.5)
        else:
            x = torch.randn(shape) * 2
        return x.to(dt)
    if dt == b1:
        return torch.rand(shape) > 0.5
    lo, hi = (0, 12) if dt == u8 else (-9, 10)
    if kind == "pos":
        lo = 1
    if kind == "exp":
        lo, hi = 0, 4
    if kind == "small":
        lo, hi = (0, 4) if dt == u8 else (-3, 4)
    x = torch.randint(lo, hi, shape)
    if kind == "nz":
        x = torch.where(x == 0, torch.ones_like(x), x)
    return x.to(dt)


def with_nan(x):
    x = x.clone()
    x.view(-1)[1] = float("nan")
    return x


SH = (3, 4)

# ---- elementwise unary ----
UNARY = {
    "neg": "any", "abs": "any", "exp": "any", "expm1": "any", "log": "pos",
    "log1p": "pos", "log2": "pos", "sqrt": "pos", "rsqrt": "pos",
    "reciprocal": "nz", "sin": "any", "cos": "any", "tan": "unit", "tanh": "any",
    "sigmoid": "any", "erf": "any", "floor": "any", "ceil": "any", "round": "any",
    "trunc": "any", "sign": "any", "relu": "any", "silu": "any",
    "logical_not": "any", "bitwise_not": "any", "hardsigmoid": "any",
    "hardswish": "any", "mish": "any", "relu6": "any", "isnan": "any",
    "isinf": "any",
}
for op, kind in UNARY.items():
    for dt in ALL:
        variant(op, [T(0)], [rnd(SH, dt, kind)])
    variant(op, [T(0)], [with_nan(rnd(SH))])
variant("round", [T(0)], [torch.tensor([0.5, 1.5, 2.5, -0.5, -1.5, 2.4])])
variant("isinf", [T(0)], [torch.tensor([1.0, float("inf"), -float("inf"), float("nan")])])
for dt in ALL:
    variant("gelu", [T(0), S("none")], [rnd(SH, dt)])
    variant("gelu", [T(0), S("tanh")], [rnd(SH, dt)])
    variant("clamp", [T(0), F(-0.5), F(0.5)], [rnd(SH, dt)])
    variant("clamp", [T(0), I(-2), I(3)], [rnd(SH, dt)])
    variant("clamp", [T(0), N, I(1)], [rnd(SH, dt)])
    variant("clamp.Tensor", [T(0), T(1), T(2)], [rnd(SH, dt), rnd((4,), dt), rnd((3, 1), dt)])
    variant("clamp_min", [T(0), F(0.25)], [rnd(SH, dt)])
    variant("clamp_max", [T(0), I(1)], [rnd(SH, dt)])
    variant("threshold", [T(0), F(0.1), F(-7.0)], [rnd(SH, dt)])
    variant("threshold", [T(0), I(1), I(5)], [rnd(SH, dt)])
    variant("leaky_relu", [T(0), F(0.1)], [rnd(SH, dt)])
    variant("elu", [T(0), F(1.5), I(1), I(1)], [rnd(SH, dt)])
    variant("softplus", [T(0), I(2), I(3)], [rnd(SH, dt)])
    variant("hardtanh", [T(0), F(-1.0), F(0.5)], [rnd(SH, dt)])
    variant("pow.Tensor_Scalar", [T(0), I(3)], [rnd(SH, dt, "small")])
    variant("pow.Tensor_Scalar", [T(0), F(2.5)], [rnd(SH, dt, "pos")])
    variant("pow.Tensor_Tensor", [T(0), T(1)], [rnd(SH, dt, "small"), rnd(SH, dt, "exp")])
    variant("pow.Scalar", [F(2.5), T(0)], [rnd(SH, dt, "small")])
    variant("pow.Scalar", [I(3), T(0)], [rnd(SH, dt, "exp")])
variant("clamp", [T(0), F(-0.5), F(0.5)], [with_nan(rnd(SH))])
variant("pow.Tensor_Tensor", [T(0), T(1)], [rnd(SH, f32, "pos"), rnd((4,), f32)])

# ---- elementwise binary ----
PAIRS = [(dt, dt) for dt in ALL] + [(i32, f32), (u8, i8), (b1, i64), (f16, f32),
                                    (i64, f64), (i8, i32), (u8, b1), (bf16, f16)]
BCAST = [((3, 4), (4,)), ((3, 1), (1, 4)), ((2, 3, 4), ())]
BINARY = {
    "add.Tensor": [I(2)], "sub.Tensor": [I(1)], "mul.Tensor": [], "div.Tensor": [],
    "remainder.Tensor": [], "fmod.Tensor": [], "atan2": [], "maximum": [],
    "minimum": [], "eq.Tensor": [], "ne.Tensor": [], "lt.Tensor": [],
    "le.Tensor": [], "gt.Tensor": [], "ge.Tensor": [], "logical_and": [],
    "logical_or": [], "logical_xor": [], "bitwise_and.Tensor": [],
    "bitwise_or.Tensor": [], "bitwise_xor.Tensor": [],
}
NONZERO = ("div.Tensor", "remainder.Tensor", "fmod.Tensor", "div.Tensor_mode")
for op, extra in BINARY.items():
    k = "nz" if op in NONZERO else "any"
    for a, b in PAIRS:
        variant(op, [T(0), T(1)] + extra, [rnd(SH, a), rnd(SH, b, k)])
    for sa, sb in BCAST:
        variant(op, [T(0), T(1)] + extra, [rnd(sa, f32), rnd(sb, f32, k)])
        variant(op, [T(0), T(1)] + extra, [rnd(sa, i32), rnd(sb, i32, k)])
for op in ("maximum", "minimum", "eq.Tensor", "ne.Tensor", "lt.Tensor", "ge.Tensor"):
    variant(op, [T(0), T(1)], [with_nan(rnd(SH)), rnd(SH)])
    variant(op, [T(0), T(1)], [rnd(SH), with_nan(rnd(SH))])
for mode in (N, S("trunc"), S("floor")):
    for a, b in PAIRS:
        variant("div.Tensor_mode", [T(0), T(1), mode], [rnd(SH, a), rnd(SH, b, "nz")])
    variant("div.Scalar_mode", [T(0), I(3), mode], [rnd(SH, i64)])
    variant("div.Scalar_mode", [T(0), I(-3), mode], [rnd(SH, i32)])
    variant("div.Scalar_mode", [T(0), F(-1.5), mode], [rnd(SH, f32)])
SCALAR = {
    "add.Scalar": [I(1)], "sub.Scalar": [I(2)], "rsub.Scalar": [I(1)],
    "mul.Scalar": [], "div.Scalar": [], "remainder.Scalar": [], "fmod.Scalar": [],
    "eq.Scalar": [], "ne.Scalar": [], "lt.Scalar": [], "le.Scalar": [],
    "gt.Scalar": [], "ge.Scalar": [],
}
for op, extra in SCALAR.items():
    for dt in ALL:
        variant(op, [T(0), I(3)] + extra, [rnd(SH, dt)])
        variant(op, [T(0), F(-1.5)] + extra, [rnd(SH, dt)])
    variant(op, [T(0), I(-2)] + extra, [rnd(SH, i64)])
    variant(op, [T(0), B(True)] + extra, [rnd(SH, b1)])
    variant(op, [T(0), F(0.5)] + extra, [rnd((), f32)])
variant("eq.Scalar", [T(0), I(1)], [torch.tensor([1.0, float("nan"), 2.0])])
for dt in ALL:
    variant("where.self", [T(0), T(1), T(2)], [rnd(SH, b1), rnd(SH, dt), rnd((4,), dt)])
    variant("where.Scalar", [T(0), F(1.5), I(2)], [rnd(SH, b1)])
    variant("where.ScalarSelf", [T(0), I(7), T(1)], [rnd(SH, b1), rnd(SH, dt)])
    variant("where.ScalarOther", [T(0), T(1), F(-0.5)], [rnd(SH, b1), rnd(SH, dt)])
    variant("masked_fill.Scalar", [T(0), T(1), I(5)], [rnd(SH, dt), rnd((4,), b1)])
    variant("masked_fill.Tensor", [T(0), T(1), T(2)], [rnd(SH, dt), rnd(SH, b1), rnd((), dt)])
    if dt.is_floating_point:
        variant("lerp.Tensor", [T(0), T(1), T(2)], [rnd(SH, dt), rnd(SH, dt), rnd(SH, dt, "unit").abs()])
    variant("lerp.Scalar", [T(0), T(1), F(0.75)], [rnd(SH, dt), rnd((4,), dt)])
    variant("lerp.Scalar", [T(0), T(1), F(0.25)], [rnd(SH, dt), rnd((4,), dt)])
    variant("addcmul", [T(0), T(1), T(2), F(0.5)], [rnd(SH, dt), rnd(SH, dt), rnd((4,), dt)])
    variant("addcmul", [T(0), T(1), T(2), I(2)], [rnd(SH, dt), rnd(SH, dt), rnd((4,), dt)])
    variant("addcdiv", [T(0), T(1), T(2), F(0.5)], [rnd(SH, dt), rnd(SH, dt), rnd((4,), dt, "nz")])
variant("where.self", [T(0), T(1), T(2)], [rnd(SH, b1), rnd(SH, i32), rnd((4,), f32)])
variant("where.self", [T(0), T(1), T(2)], [rnd((3, 1), b1), rnd((4,), u8), rnd((), i8)])

# ---- reductions ----
R = (3, 4, 5)
ACC = {"rtol": 3e-2, "atol": 3e-2}   # bf16 sums: PyTorch rounds partial sums
for dt in ALL:
    x = rnd(R, dt)
    acc = ACC if dt == bf16 else None
    variant("sum", [T(0), N], [x], tol=acc)
    variant("sum.dim_IntList", [T(0), L([1]), B(False), N], [x], tol=acc)
    variant("sum.dim_IntList", [T(0), L([0, -1]), B(True), N], [x], tol=acc)
    variant("mean", [T(0), N], [x], tol=acc)
    variant("mean.dim", [T(0), L([2]), B(False), N], [x], tol=acc)
    variant("mean.dim", [T(0), L([0, 2]), B(True), N], [x], tol=acc)
    variant("prod", [T(0), N], [rnd((2, 3), dt, "small")])
    variant("prod.dim_int", [T(0), I(1), B(False), N], [rnd(R, dt, "small")])
    variant("prod.dim_int", [T(0), I(0), B(True), N], [rnd(R, dt, "small")])
    variant("amax", [T(0), L([1]), B(False)], [x])
    variant("amax", [T(0), L([0, 2]), B(True)], [x])
    variant("amin", [T(0), L([-1]), B(False)], [x])
    variant("max", [T(0)], [x])
    variant("min", [T(0)], [x])
    variant("max.dim", [T(0), I(1), B(False)], [x])
    variant("max.dim", [T(0), I(-1), B(True)], [x])
    variant("min.dim", [T(0), I(0), B(False)], [x])
    variant("argmax", [T(0), I(1), B(False)], [x])
    variant("argmax", [T(0), N, B(False)], [x])
    variant("argmin", [T(0), I(2), B(True)], [x])
    variant("argmin", [T(0), N, B(False)], [x])
    variant("any", [T(0)], [x])
    variant("any.dim", [T(0), I(1), B(False)], [x])
    variant("all", [T(0)], [x])
    variant("all.dim", [T(0), I(2), B(True)], [x])
    variant("cumsum", [T(0), I(1), N], [x], tol=acc)
    variant("cumsum", [T(0), I(-1), DType(f64)], [x])
    variant("var.correction", [T(0), L([1]), I(1), B(False)], [x], tol=acc)
    variant("var.correction", [T(0), N, I(0), B(True)], [x], tol=acc)
    variant("std.correction", [T(0), L([0, 2]), N, B(False)], [x], tol=acc)
    variant("linalg_vector_norm", [T(0), I(2), L([1]), B(False), N], [x], tol=acc)
    variant("linalg_vector_norm", [T(0), I(1), N, B(False), N], [x], tol=acc)
    variant("linalg_vector_norm", [T(0), F(float("inf")), L([2]), B(True), N], [x])
    variant("linalg_vector_norm", [T(0), F(3.0), L([0]), B(False), N], [x], tol=acc)
    variant("logsumexp", [T(0), L([1]), B(False)], [x], tol=acc)
    variant("logsumexp", [T(0), L([0, 2]), B(True)], [x], tol=acc)
nanx = with_nan(rnd(R))
for op, args in (("amax", [L([1]), B(False)]), ("amin", [L([2]), B(False)]),
                 ("max", []), ("min", []), ("max.dim", [I(1), B(False)]),
                 ("min.dim", [I(1), B(False)]), ("argmax", [I(1), B(False)]),
                 ("argmin", [N, B(False)])):
    variant(op, [T(0)] + args, [nanx])
variant("any", [T(0)], [torch.zeros(3, 4)])
variant("all", [T(0)], [torch.ones(3, 4)])

# ---- contraction ----
for dt in ALL:
    acc = ACC if dt == bf16 else None
    variant("mm", [T(0), T(1)], [rnd((3, 5), dt, "small"), rnd((5, 4), dt, "small")], tol=acc)
    variant("bmm", [T(0), T(1)], [rnd((2, 3, 5), dt, "small"), rnd((2, 5, 4), dt, "small")], tol=acc)
for dt in FLOATS:
    variant("convolution", [T(0), T(1), T(2), L([1, 1]), L([0, 0]), L([1, 1]), B(False), L([0, 0]), I(1)],
            [rnd((1, 3, 6, 6), dt), rnd((4, 3, 3, 3), dt), rnd((4,), dt)],
            tol={"rtol": 3e-2, "atol": 3e-2} if dt == bf16 else None)
for args, shapes in [
    ([N, L([2, 1]), L([1, 2]), L([1, 1]), B(False), L([0, 0]), I(1)], [(2, 3, 7, 6), (4, 3, 3, 2)]),
    ([T(2), L([1, 1]), L([2, 2]), L([2, 1]), B(False), L([0, 0]), I(2)], [(1, 4, 6, 6), (6, 2, 3, 3), (6,)]),
    ([T(2), L([2, 2]), L([1, 1]), L([1, 1]), B(False), L([0, 0]), I(4)], [(1, 4, 7, 7), (4, 1, 3, 3), (4,)]),
    ([T(2), L([1]), L([1]), L([1]), B(False), L([0]), I(1)], [(2, 3, 8), (5, 3, 3), (5,)]),
    ([N, L([2]), L([0]), L([2]), B(False), L([0]), I(3)], [(1, 3, 9), (6, 1, 2)]),
    ([T(2), L([2, 2]), L([1, 1]), L([1, 1]), B(True), L([1, 1]), I(1)], [(1, 3, 4, 4), (3, 2, 3, 3), (2,)]),
    ([N, L([1, 2]), L([0, 1]), L([2, 1]), B(True), L([0, 1]), I(2)], [(1, 4, 3, 3), (4, 3, 2, 3)]),
    ([T(2), L([3]), L([2]), L([1]), B(True), L([1]), I(1)], [(2, 2, 5), (2, 3, 4), (3,)]),
]:
    ins = [rnd(s) for s in shapes]
    variant("convolution", [T(0), T(1)] + args, ins, tol={"rtol": 1e-3, "atol": 1e-5})
for dt in FLOATS:
    variant("embedding", [T(0), T(1), I(-1), B(False), B(False)],
            [rnd((6, 3), dt), torch.tensor([[0, 5, 2], [2, 2, 1]])])
variant("embedding", [T(0), T(1), I(-1), B(False), B(False)],
        [rnd((6, 3), i64), torch.tensor([4, 0, 3], dtype=i32)])

# ---- pooling ----
X4 = (1, 2, 7, 6)
for dt in FLOATS + [i64, i32, i8, u8]:
    x = rnd(X4, dt)
    variant("max_pool2d", [T(0), L([2, 2]), L([2, 2]), L([0, 0]), L([1, 1]), B(False)], [x])
    variant("max_pool2d_with_indices", [T(0), L([3, 2]), L([2, 1]), L([1, 1]), L([1, 1]), B(False)], [x])
variant("max_pool2d", [T(0), L([3, 3]), L([2, 2]), L([1, 1]), L([2, 1]), B(True)], [rnd((2, 3, 9, 8))])
variant("max_pool2d", [T(0), L([3]), L([]), L([1]), L([1]), B(True)], [rnd((3, 8, 8))])
variant("max_pool2d_with_indices", [T(0), L([2, 2]), L([2, 2]), L([0, 0]), L([1, 1]), B(True)], [rnd(X4)])
for dt in FLOATS:
    variant("avg_pool2d", [T(0), L([2, 2]), L([2, 2]), L([0, 0]), B(False), B(True), N], [rnd(X4, dt)])
for ceil in (False, True):
    for inc in (False, True):
        variant("avg_pool2d", [T(0), L([3, 3]), L([2, 2]), L([1, 1]), B(ceil), B(inc), N], [rnd(X4)])
variant("avg_pool2d", [T(0), L([3, 2]), L([1, 2]), L([1, 0]), B(False), B(True), I(4)], [rnd(X4)])
for dt in FLOATS:
    variant("adaptive_avg_pool2d", [T(0), L([1, 1])], [rnd(X4, dt)])
    variant("adaptive_max_pool2d", [T(0), L([3, 4])], [rnd(X4, dt)])
variant("adaptive_avg_pool2d", [T(0), L([3, 4])], [rnd(X4)])
variant("adaptive_avg_pool2d", [T(0), L([5, 2])], [rnd((3, 7, 6))])
variant("adaptive_max_pool2d", [T(0), L([2, 5])], [rnd(X4)])

# ---- data movement ----
for dt in ALL:
    x = rnd((2, 3, 4), dt)
    variant("view", [T(0), L([6, 4])], [x])
    variant("view", [T(0), L([4, 3, 2])], [x])
    variant("view", [T(0), L([-1])], [x])
    variant("squeeze.dim", [T(0), I(1)], [rnd((2, 1, 4), dt)])
    variant("squeeze", [T(0)], [rnd((1, 3, 1, 2), dt)])
    variant("unsqueeze", [T(0), I(-1)], [x])
    variant("unsqueeze", [T(0), I(0)], [x])
    variant("permute", [T(0), L([2, 0, 1])], [x])
    variant("transpose.int", [T(0), I(0), I(-1)], [x])
    variant("expand", [T(0), L([2, 3, 4]), B(False)], [rnd((3, 1), dt)])
    variant("expand", [T(0), L([-1, 5]), B(False)], [rnd((3, 1), dt)])
    variant("broadcast_to", [T(0), L([2, 3, 4])], [rnd((4,), dt)])
    variant("slice.Tensor", [T(0), I(2), I(1), I(4), I(2)], [x])
    variant("slice.Tensor", [T(0), I(1), I(-2), I(100), I(1)], [x])
    variant("slice.Tensor", [T(0), I(0), N, I(-1), I(1)], [x])
    variant("select.int", [T(0), I(1), I(-1)], [x])
    variant("narrow", [T(0), I(2), I(1), I(2)], [x])
    variant("cat", [LT([T(0), T(1)]), I(1)], [x, rnd((2, 2, 4), dt)])
    variant("flip", [T(0), L([0, 2])], [x])
    variant("roll", [T(0), L([1, -3]), L([1, 2])], [x])
    variant("roll", [T(0), L([5]), L([])], [x])
    variant("repeat", [T(0), L([2, 1, 3])], [rnd((3, 2), dt)])
    variant("constant_pad_nd", [T(0), L([1, 2, 0, 1]), I(3)], [x])
    variant("tril", [T(0), I(0)], [x])
    variant("triu", [T(0), I(1)], [x])
    variant("index_select", [T(0), I(1), T(1)], [x, torch.tensor([2, 0, 2])])
    variant("gather", [T(0), I(2), T(1), B(False)], [x, torch.randint(0, 4, (2, 3, 3))])
    variant("index.Tensor", [T(0), LT([None, T(1)], True)], [x, torch.tensor([[0, 2], [1, -1]])])
    variant("scatter.src", [T(0), I(1), T(1), T(2)], [x, torch.tensor([[[0, 1, 2, 0]], [[2, 2, 1, 0]]]), rnd((2, 2, 4), dt)])
    variant("scatter.value", [T(0), I(2), T(1), F(1.5)], [x, torch.tensor([[[3], [0], [1]], [[1], [2], [0]]])])
    variant("scatter_add", [T(0), I(0), T(1), T(2)], [x, torch.randint(0, 2, (2, 2, 4)), rnd((2, 3, 4), dt)])
    variant("index_put", [T(0), LT([T(1)], True), T(2), B(False)], [x, torch.tensor([1]), rnd((3, 4), dt)])
    variant("index_put", [T(0), LT([T(1), None, T(2)], True), T(3), B(True)],
            [x, torch.tensor([0, 1, 0]), torch.tensor([3, 2, 3]), rnd((3,), dt)])
    variant("to.dtype", [T(0), DType(f32), B(False), B(False), N], [rnd((3, 4), dt)])
    variant("to.dtype", [T(0), DType(i32), B(False), B(False), N], [rnd((3, 4), dt)])
    variant("to.dtype", [T(0), DType(b1), B(False), B(False), N], [rnd((3, 4), dt)])
    variant("to.dtype", [T(0), DType(u8), B(False), B(False), N], [rnd((3, 4), dt).abs() if dt != b1 else rnd((3, 4), dt)])
    variant("to.dtype", [T(0), DType(f16), B(False), B(False), N], [rnd((3, 4), dt)])
    variant("to.dtype", [T(0), DType(bf16), B(False), B(False), N], [rnd((3, 4), dt)])
    variant("full", [L([2, 3]), F(1.5) if dt.is_floating_point else I(3), DType(dt), N, N, N], [])
    variant("arange.start_step", [I(-2), I(7), I(3), DType(dt), N, N, N], [])
for dt in FLOATS:
    variant("reflection_pad1d", [T(0), L([2, 1])], [rnd((2, 5), dt)])
    variant("reflection_pad2d", [T(0), L([1, 2, 2, 0])], [rnd((1, 2, 4, 5), dt)])
    variant("replication_pad2d", [T(0), L([2, 1, 0, 3])], [rnd((1, 2, 3, 4), dt)])
variant("constant_pad_nd", [T(0), L([-1, 2, 1, -1]), F(-0.5)], [rnd((3, 4))])
variant("cat", [LT([T(0), T(1), T(2)]), I(-1)], [rnd((2, 2)), rnd((2, 3)), rnd((2, 1))])
variant("cat", [LT([T(0), T(1)]), I(0)], [rnd((2, 2), i32), rnd((1, 2), i64)])
variant("index.Tensor", [T(0), LT([T(1), T(2)], True)], [rnd((4, 5)), torch.tensor([[0], [3]]), torch.tensor([1, 4, -1])])
variant("index.Tensor", [T(0), LT([T(1), None, T(2)], True)], [rnd((4, 2, 5)), torch.tensor([0, 3]), torch.tensor([1, 4])])
variant("arange.start_step", [F(0.5), F(3.0), F(0.75), N, N, N, N], [])
variant("arange.start_step", [I(0), I(5), I(1), N, N, N, N], [])
variant("full", [L([3]), B(True), N, N, N, N], [])
# signbit: the sign bit of floats (-0.0, -inf, a denormal f32), x < 0 of
# integers (the JSON's NaN has no sign: tests/diff/cases_ew.py tests -NaN);
# added last, so that the random draws of the variants above stay
for dt in ALL:
    variant("signbit", [T(0)], [rnd(SH, dt)])
variant("signbit", [T(0)], [torch.tensor([0.0, -0.0, float("inf"), -float("inf"), -1e-40, 2.5])])
variant("signbit", [T(0)], [torch.tensor([0.0, -0.0, -2.5, float("-inf")], dtype=f64)])
# view.dtype: the same width (a bitcast) and narrower (pieces, little-endian)
variant("view.dtype", [T(0), DType(i32)], [rnd(SH, f32)])
variant("view.dtype", [T(0), DType(i8)], [rnd(SH, f32)])
variant("view.dtype", [T(0), DType(u8)], [rnd((2, 3), f64)])
variant("view.dtype", [T(0), DType(torch.int16)], [rnd((2, 3), f64)])
variant("view.dtype", [T(0), DType(i8)], [rnd(SH, bf16)])
variant("view.dtype", [T(0), DType(u8)], [rnd(SH, b1)])
variant("view.dtype", [T(0), DType(f32)], [torch.tensor([[0.5, -1.0, 3.0, 7.0]]).view(i64)])

# ---- linalg's named convolutions and pools (torch-lower's choice of op);
# last, so that the inputs drawn above stay as they were ----
for args, shapes in [
    ([T(2), L([2, 1]), L([2, 1]), L([2, 2]), B(False), L([0, 0]), I(3)], [(1, 3, 9, 7), (3, 1, 3, 3), (3,)]),
    ([T(2), L([1, 1]), L([0, 0]), L([1, 1]), B(False), L([0, 0]), I(1)], [(1, 1, 1, 1), (2, 1, 1, 1), (2,)]),
    ([N, L([2, 3]), L([0, 0]), L([1, 1]), B(False), L([0, 0]), I(1)], [(2, 3, 5, 7), (4, 3, 1, 1)]),
    ([T(2), L([1, 2, 1]), L([1, 0, 1]), L([1, 1, 2]), B(False), L([0, 0, 0]), I(1)],
     [(1, 2, 4, 5, 3), (3, 2, 2, 3, 1), (3,)]),
    ([N, L([2]), L([1]), L([2]), B(False), L([0]), I(4)], [(1, 4, 9), (4, 1, 3)]),
    ([T(2), L([1, 1]), L([1, 1]), L([1, 1]), B(False), L([0, 0]), I(2)], [(1, 4, 5, 5), (2, 2, 3, 3), (2,)]),
]:
    variant("convolution", [T(0), T(1)] + args, [rnd(s) for s in shapes], tol={"rtol": 1e-3, "atol": 1e-5})
xn = rnd((1, 2, 7, 6))
xn[0, 0, 1, 1] = float("nan")
xn[0, 1, 6, 5] = float("nan")
variant("max_pool2d", [T(0), L([3, 3]), L([2, 2]), L([1, 1]), L([1, 1]), B(True)], [xn])
variant("max_pool2d", [T(0), L([3, 2]), L([1, 2]), L([1, 1]), L([1, 2]), B(False)], [rnd((2, 3, 5, 7), f64)])
variant("max_pool2d", [T(0), L([1, 1]), L([1, 1]), L([0, 0]), L([1, 1]), B(False)], [rnd((1, 1, 1, 1))])
variant("avg_pool2d", [T(0), L([3, 2]), L([2, 3]), L([1, 1]), B(True), B(False), N], [rnd((1, 3, 9, 7))])
variant("avg_pool2d", [T(0), L([2, 2]), L([1, 1]), L([1, 1]), B(False), B(True), N], [rnd((1, 2, 4, 5), i64)])


def main():
    os.makedirs(OUT, exist_ok=True)
    for f in os.listdir(OUT):
        if f.endswith((".mlir", ".json")):
            os.remove(os.path.join(OUT, f))
    names = sorted(OPS)
    for op in names:
        vs = OPS[op]
        mlir = ["// Generated by tests/torch-lower/gen.py: torch.aten.%s, %d variants." % (op, len(vs)),
                "module {"]
        for i, v in enumerate(vs):
            mlir.append("  func.func @v%d(%s) -> (%s) {" % (i, ", ".join(v["args"]), ", ".join(v["results"])))
            mlir.extend(v.pop("body"))
            mlir.append("  }")
            del v["args"], v["results"]
        mlir.append("}")
        with open(os.path.join(OUT, op + ".mlir"), "w") as f:
            f.write("\n".join(mlir) + "\n")
        with open(os.path.join(OUT, op + ".json"), "w") as f:
            json.dump({"op": "torch.aten." + op, "variants": vs}, f, separators=(",", ":"))
            f.write("\n")
    with open(os.path.join(HERE, "ops.bats"), "w") as f:
        f.write("#!/usr/bin/env bats\n# Generated by tests/torch-lower/gen.py: one test per aten op.\n"
                "# Each lowers tests/torch-lower/ops/OP.mlir, runs it through mlir-opt-16 and\n"
                "# mlir-cpu-runner-16 and compares with PyTorch's outputs in OP.json.\n\n"
                "setup() {\n"
                "  command -v mlir-cpu-runner-16 >/dev/null || skip \"mlir-cpu-runner-16 is not installed\"\n"
                "  ls /usr/lib/llvm-16/lib/libmlir_runner_utils.so* >/dev/null 2>&1 ||\n"
                "    skip \"MLIR's runner utilities are not installed (Debian: libmlir-16)\"\n"
                "}\n")
        for op in names:
            f.write('\n@test "numeric torch.aten.%s (%d variants)" {\n'
                    '  run python3 tests/torch-lower/run.py %s\n'
                    '  [ "$status" -eq 0 ] || { echo "$output"; false; }\n}\n' % (op, len(OPS[op]), op))
    print("%d ops, %d variants" % (len(names), sum(len(v) for v in OPS.values())))


if __name__ == "__main__":
    main()
