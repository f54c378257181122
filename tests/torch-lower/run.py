#!/usr/bin/env python3
"""run.py OP... - checks torch-lower's lowering of OP against PyTorch.

For each OP it lowers tests/torch-lower/ops/OP.mlir with bin/torch-lower,
adds a main that calls every variant with its inputs (from OP.json, as
arith.constant tensors) and prints every result, runs that through
mlir-opt-16 and mlir-cpu-runner-16 (upstream MLIR as an independent
executor), and compares the printed values, shapes and dtypes with the
outputs PyTorch gave when gen.py wrote OP.json.  Needs no torch.

Tolerances: |got - want| <= atol + rtol |want|, NaN equal to NaN, integers
and booleans exact.  f32/f64: rtol 1e-3, atol 1e-7 (1e-5 where a variant
says so); f16: rtol 2e-3 and bf16: rtol 1.6e-2 (two units in the last
place), atol 1e-5 (f16) and 2e-3 (bf16, whose PyTorch kernels round
intermediate results); bf16 sums and products say their own, wider tolerance.
"""
import json
import math
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
OPS = os.path.join(HERE, "ops")
LIBDIR = "/usr/lib/llvm-16/lib"
PIPELINE = [
    "--linalg-generalize-named-ops", "--empty-tensor-to-alloc-tensor",
    "--one-shot-bufferize=bufferize-function-boundaries allow-return-allocs",
    "--convert-linalg-to-loops", "--convert-scf-to-cf", "--expand-strided-metadata",
    "--lower-affine", "--arith-expand", "--convert-math-to-funcs",
    "--convert-math-to-llvm", "--convert-math-to-libm", "--convert-arith-to-llvm",
    "--convert-memref-to-llvm", "--convert-func-to-llvm", "--convert-cf-to-llvm",
    "--reconcile-unrealized-casts",
]
BUILTIN = {"f32": "f32", "f64": "f64", "f16": "f16", "bf16": "bf16", "si64": "i64",
           "si32": "i32", "si16": "i16", "si8": "i8", "ui8": "i8", "i1": "i1"}
BITS = {"f32": 32, "f64": 64, "f16": 16, "bf16": 16}
NAN = {"f32": "0x7FC00000", "f64": "0x7FF8000000000000", "f16": "0x7E00", "bf16": "0x7FC0"}
INF = {"f32": ("0x7F800000", "0xFF800000"), "f64": ("0x7FF0000000000000", "0xFFF0000000000000"),
       "f16": ("0x7C00", "0xFC00"), "bf16": ("0x7F80", "0xFF80")}
TOL = {"f32": (1e-3, 1e-7), "f64": (1e-3, 1e-7), "f16": (2e-3, 1e-5), "bf16": (1.6e-2, 2e-3)}


def tool(name):
    for d in ("/usr/bin", "/usr/lib/llvm-16/bin"):
        for n in (name + "-16", name):
            p = os.path.join(d, n)
            if os.path.exists(p):
                return p
    return name + "-16"


def runner_libs():
    libs = []
    for base in ("libmlir_runner_utils", "libmlir_c_runner_utils"):
        for suffix in (".so", ".so.16"):
            p = os.path.join(LIBDIR, base + suffix)
            if os.path.exists(p):
                libs.append(p)
                break
    return ",".join(libs)


def ttype(t):
    shape = t["shape"]
    return "tensor<%s%s>" % ("".join("%dx" % d for d in shape), BUILTIN[t["dtype"]])


def lit(v, dt):
    if dt == "i1":
        return "true" if v else "false"
    if dt in BITS:
        if v == "nan":
            return NAN[dt]
        if v in ("inf", "-inf"):
            return INF[dt][v == "-inf"]
        return repr(float(v))
    if dt == "ui8" and v > 127:
        v -= 256
    return str(int(v))


def nested(data, shape, dt):
    if not shape:
        return lit(data[0], dt)
    n = len(data) // shape[0] if shape[0] else 0
    return "[" + ", ".join(nested(data[i * n:(i + 1) * n], shape[1:], dt)
                           for i in range(shape[0])) + "]"


def printer(t, val, k):
    """Lines that print tensor value val (its torch dtype t) with printMemref."""
    dt, shape = t["dtype"], t["shape"]
    r = len(shape)
    dims = "".join("%dx" % d for d in shape)
    src = BUILTIN[dt]
    if dt in ("f32", "f64"):
        to, conv = src, None
    elif dt in ("f16", "bf16"):
        to, conv = "f32", "arith.extf"
    else:
        to, conv = "i64", ("arith.extui" if dt in ("ui8", "i1") else "arith.extsi")
    lines = []
    if conv and src != to:
        idx = ", ".join("d%d" % i for i in range(r))
        m = "affine_map<(%s) -> (%s)>" % (idx, idx)
        its = ", ".join(['"parallel"'] * r)
        lines += [
            "    %%pe%d = tensor.empty() : tensor<%s%s>" % (k, dims, to),
            "    %%pc%d = linalg.generic {indexing_maps = [%s, %s], iterator_types = [%s]} "
            "ins(%s : tensor<%s%s>) outs(%%pe%d : tensor<%s%s>) {" % (
                k, m, m, its, val, dims, src, k, dims, to),
            "    ^bb0(%%a: %s, %%b: %s):" % (src, to),
            "      %%c = %s %%a : %s to %s" % (conv, src, to),
            "      linalg.yield %c : " + to,
            "    } -> tensor<%s%s>" % (dims, to),
        ]
        val = "%%pc%d" % k
    lines.append("    %%pu%d = tensor.cast %s : tensor<%s%s> to tensor<*x%s>" % (k, val, dims, to, to))
    fn = {"f32": "printMemrefF32", "f64": "printMemrefF64", "i64": "printMemrefI64"}[to]
    lines.append("    call @%s(%%pu%d) : (tensor<*x%s>) -> ()" % (fn, k, to))
    return lines


def main_func(variants):
    lines = ["  func.func @main() {"]
    k = 0
    for i, v in enumerate(variants):
        args = []
        for j, t in enumerate(v["inputs"]):
            name = "%%in%d_%d" % (i, j)
            lines.append("    %s = arith.constant dense<%s> : %s" % (
                name, nested(t["data"], t["shape"], t["dtype"]), ttype(t)))
            args.append(name)
        outs = v["outputs"]
        res = "%%out%d" % i
        lines.append("    %s%s = call @v%d(%s) : (%s) -> (%s)" % (
            res, ":%d" % len(outs) if len(outs) > 1 else "", i, ", ".join(args),
            ", ".join(ttype(t) for t in v["inputs"]), ", ".join(ttype(t) for t in outs)))
        for j, t in enumerate(outs):
            val = res if len(outs) == 1 else "%s#%d" % (res, j)
            lines += printer(t, val, k)
            k += 1
    lines.append("    return")
    lines.append("  }")
    for f, t in (("printMemrefF32", "f32"), ("printMemrefF64", "f64"), ("printMemrefI64", "i64")):
        lines.append("  func.func private @%s(tensor<*x%s>) attributes {llvm.emit_c_interface}" % (f, t))
    return lines


NUM = re.compile(r"-?nan|-?inf|[-+]?\d+(?:\.\d*)?(?:[eE][-+]?\d+)?")


def parse_prints(out):
    """[(sizes, values)] for each printMemref in out."""
    res = []
    for chunk in out.split("Unranked Memref")[1:]:
        m = re.search(r"sizes = \[([^\]]*)\]", chunk)
        sizes = [int(x) for x in m.group(1).split(",") if x.strip()] if m else []
        data = chunk.split("data =", 1)[1] if "data =" in chunk else ""
        vals = []
        for tok in NUM.findall(data):
            if "nan" in tok:
                vals.append(float("nan"))
            elif "inf" in tok:
                vals.append(float("-inf") if tok.startswith("-") else float("inf"))
            else:
                vals.append(float(tok) if any(c in tok for c in ".eE") else int(tok))
        res.append((sizes, vals))
    return res


def close(got, want, rtol, atol):
    if want == "nan" or (isinstance(want, float) and math.isnan(want)):
        return isinstance(got, float) and math.isnan(got)
    if want in ("inf", "-inf"):
        return got == float(want)
    if isinstance(got, float) and (math.isnan(got) or math.isinf(got)):
        return False
    return abs(got - want) <= atol + rtol * abs(want)


def compare(t, printed, tol):
    sizes, vals = printed
    if sizes != t["shape"]:
        return "shape %s, expected %s" % (sizes, t["shape"])
    want = t["data"]
    if len(vals) != len(want):
        return "%d values, expected %d" % (len(vals), len(want))
    dt = t["dtype"]
    rtol, atol = TOL.get(dt, (0, 0))
    if tol:
        rtol, atol = tol.get("rtol", rtol), tol.get("atol", atol)
    bad = []
    for i, (g, w) in enumerate(zip(vals, want)):
        if dt in BITS:
            ok = close(g, w, rtol, atol)
        elif dt == "ui8":
            ok = g % 256 == w
        else:
            ok = g == w
        if not ok:
            bad.append("[%d] got %s, expected %s" % (i, g, w))
    if bad:
        return "%d of %d differ: %s" % (len(bad), len(want), "; ".join(bad[:4]))
    return None


SIG = re.compile(r"func\.func @v(\d+)\(.*?\) -> \(?(.*?)\)? \{$", re.M)
RES_ATTRS = re.compile(r" \{[^{}]*\}")  # {fxpipe.unsigned} on a ui8 result


def check_types(lowered, variants):
    errs = []
    sigs = {int(m.group(1)): RES_ATTRS.sub("", m.group(2)) for m in SIG.finditer(lowered)}
    for i, v in enumerate(variants):
        want = ", ".join(ttype(t) for t in v["outputs"])
        if sigs.get(i, "").strip() != want:
            errs.append("v%d: result types %s, expected %s" % (i, sigs.get(i), want))
    return errs


def execute(text, tmp):
    src = os.path.join(tmp, "in.mlir")
    ll = os.path.join(tmp, "ll.mlir")
    with open(src, "w") as f:
        f.write(text)
    p = subprocess.run([tool("mlir-opt")] + PIPELINE + [src, "-o", ll],
                       capture_output=True, text=True)
    if p.returncode:
        return None, "mlir-opt-16 failed: " + p.stderr[:1500]
    p = subprocess.run([tool("mlir-cpu-runner"), ll, "-e", "main", "-entry-point-result=void",
                        "-shared-libs=" + runner_libs()], capture_output=True, text=True)
    if p.returncode:
        return None, "mlir-cpu-runner-16 failed: " + p.stderr[:1500]
    return p.stdout, None


def run_variants(lowered, variants, idx, tmp):
    """Runs the variants idx; returns error strings."""
    sub = [variants[i] for i in idx]
    out, err = execute(with_main_subset(lowered, sub, idx), tmp)
    if err:
        return [err]
    prints = parse_prints(out)
    errs = []
    k = 0
    for i, v in zip(idx, sub):
        for j, t in enumerate(v["outputs"]):
            if k >= len(prints):
                errs.append("v%d: result %d was not printed" % (i, j))
                continue
            e = compare(t, prints[k], v.get("tol"))
            if e:
                errs.append("v%d result %d (%s %s): %s" % (i, j, t["dtype"], t["shape"], e))
            k += 1
    return errs


def with_main_subset(lowered, sub, idx):
    lines = main_func(sub)
    text = "\n".join(lines)
    # main_func numbers calls by position; point them at the real variants
    for pos in range(len(idx) - 1, -1, -1):
        text = text.replace("call @v%d(" % pos, "call @__v%d(" % idx[pos])
    text = text.replace("call @__v", "call @v")
    return only_funcs(lowered, idx)[:-1] + text + "\n}\n"


def only_funcs(lowered, idx):
    """The lowered module with just the functions @vI, I in idx."""
    keep = set(idx)
    out, cur = [], True
    for line in lowered.rstrip().split("\n"):
        m = re.match(r"  func\.func @v(\d+)\(", line)
        if m:
            cur = int(m.group(1)) in keep
        if cur or line.startswith("#") or line == "}":
            out.append(line)
        if line == "  }":
            cur = True
    return "\n".join(out)


def check(op):
    with open(os.path.join(OPS, op + ".json")) as f:
        spec = json.load(f)
    variants = spec["variants"]
    p = subprocess.run([os.path.join(ROOT, "bin", "torch-lower"), os.path.join(OPS, op + ".mlir")],
                       capture_output=True, text=True)
    if p.returncode:
        return ["torch-lower failed: " + p.stderr[:2000]]
    lowered = p.stdout
    if "torch." in lowered:
        return ["torch ops or types remain in the output"]
    errs = check_types(lowered, variants)
    with tempfile.TemporaryDirectory() as tmp:
        all_idx = list(range(len(variants)))
        e = run_variants(lowered, variants, all_idx, tmp)
        if len(e) == 1 and "failed" in e[0] and len(variants) > 1:
            # find the variants that break the pipeline
            e = []
            for i in all_idx:
                ei = run_variants(lowered, variants, [i], tmp)
                e += ["v%d: %s" % (i, x) if not x.startswith("v") else x for x in ei]
        errs += e
    return errs


def main():
    ops = sys.argv[1:]
    if not ops:
        ops = sorted(f[:-5] for f in os.listdir(OPS) if f.endswith(".json"))
    failed = 0
    for op in ops:
        errs = check(op)
        if errs:
            failed += 1
            print("FAIL torch.aten.%s" % op)
            for e in errs[:12]:
                print("  " + e)
            if len(errs) > 12:
                print("  ... %d more" % (len(errs) - 12))
        else:
            print("ok   torch.aten.%s" % op)
    if len(ops) > 1:
        print("%d passed, %d failed" % (len(ops) - failed, failed))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
