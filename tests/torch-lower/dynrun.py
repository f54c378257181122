"""Runs torch-lower's linalg for a dynamic-shape model at several sizes
through upstream MLIR (mlir-opt-16 bufferizes and lowers it to LLVM,
mlir-cpu-runner-16 runs it) and compares each result with PyTorch eager.

    python dynrun.py MODEL.py:FACTORY --input 2x8xf32 --dynamic 0:batch \
        --shape 1x8 --shape 5x8 [--expect-fail MSG]

A --shape gives each input's shape, comma-separated (3x8,3x8).  An
input declared of an integer type (--input 2x8xi64: token ids) is drawn
from [0, --high); those run only with --vm.

With --vm the module goes on through fxpipe's back end instead (codegen,
vmpack) and vmrun runs it at every --shape; a shape out of range must
fail with that message from vmrun and write no result.

One module is compiled (fx-export --dynamic | fx-import | torch-opt |
torch-lower) and run at every --shape; a shape outside the declared range
must abort with the module's own check (a cf.assert of that message).  This checks torch-lower's dynamic
linalg independently of codegen: nothing of fxpipe runs past torch-lower.
Needs PyTorch >= 2.1 (torch.export) in this interpreter.
"""
import argparse
import importlib.util
import os
import re
import subprocess
import sys
import tempfile

import numpy as np
import torch

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.environ.get("FXPIPE_BIN", os.path.join(ROOT, "bin"))
LIBS = "/usr/lib/llvm-16/lib/libmlir_runner_utils.so.16," \
       "/usr/lib/llvm-16/lib/libmlir_c_runner_utils.so.16"
LOWER = ["--empty-tensor-to-alloc-tensor",
         "--one-shot-bufferize=bufferize-function-boundaries=1 allow-return-allocs=1 "
         "function-boundary-type-conversion=identity-layout-map "
         "unknown-type-conversion=identity-layout-map",
         "--convert-linalg-to-loops", "--convert-scf-to-cf", "--expand-strided-metadata",
         "--lower-affine", "--convert-memref-to-llvm", "--convert-math-to-llvm",
         "--convert-math-to-libm", "--convert-arith-to-llvm", "--convert-cf-to-llvm",
         "--convert-func-to-llvm", "--reconcile-unrealized-casts"]


def run(cmd, stdin=None, check=True):
    p = subprocess.run(cmd, input=stdin, capture_output=True)
    if check and p.returncode:
        sys.exit("dynrun: %s failed (%d):\n%s" % (" ".join(cmd[:2]), p.returncode,
                                                  p.stderr.decode(errors="replace")))
    return p


def inline_resources(text):
    """dense_resource<k> -> dense<"0xHEX">: LLVM translation takes no
    resource blobs (their first 4 bytes are the alignment)."""
    blobs = dict(re.findall(r'^\s*"?([\w.]+)"?: "0x([0-9A-Fa-f]*)"', text, re.M))
    head = text.split("{-#")[0]
    return re.sub(r'dense_resource<"?([\w.]+)"?>',
                  lambda m: 'dense<"0x%s">' % blobs[m.group(1)][8:], head)


def copy_reshape_sources(text):
    """MLIR 16 bufferizes tensor.reshape only of a buffer of identity
    layout, which a slice is not: reshape a copy (upstream's later
    bufferization makes the same copy itself)."""
    def sub(m):
        ind, res, src, rest, st = m.group(1), m.group(2), m.group(3), m.group(4), m.group(5)
        return ("%s%s_src = bufferization.alloc_tensor() copy(%s) : %s\n"
                "%s%s = tensor.reshape %s_src%s" % (ind, res, src, st, ind, res, res, rest))
    return re.sub(r"^(\s*)(%\w+) = tensor\.reshape (%\w+)(\(.*?\) : \((tensor<[^>]*>), .*)$",
                  sub, text, flags=re.M)


def driver(cases, argtypes, restype):
    """@dynrun_entry: for each case, its inputs as constants cast to the
    argument types, @main called, the result printed."""
    lines = []
    for c, xs in enumerate(cases):
        args = []
        for k, (x, at) in enumerate(zip(xs, argtypes)):
            flat = ", ".join(repr(float(v)) for v in x.reshape(-1))
            static = "tensor<%sxf32>" % "x".join(map(str, x.shape))
            reassoc = "[[%s]]" % ", ".join(str(i) for i in range(x.ndim))
            n = f"{c}_{k}"
            lines.append(f"    %flat{n} = arith.constant dense<[{flat}]> : tensor<{x.size}xf32>")
            lines.append(f"    %x{n} = tensor.expand_shape %flat{n} {reassoc} : "
                         f"tensor<{x.size}xf32> into {static}")
            lines.append(f"    %a{n} = tensor.cast %x{n} : {static} to {at}")
            args.append(f"%a{n}")
        lines.append(f"    %y{c} = call @main({', '.join(args)}) : "
                     f"({', '.join(argtypes)}) -> {restype}")
        lines.append(f"    %u{c} = tensor.cast %y{c} : {restype} to tensor<*xf32>")
        lines.append(f"    call @printMemrefF32(%u{c}) : (tensor<*xf32>) -> ()")
    body = "\n".join(lines)
    return f"""
  func.func private @printMemrefF32(tensor<*xf32>)
  func.func @dynrun_entry() {{
{body}
    return
  }}
"""


def parse_printed(out):
    """Each printed memref, in order."""
    res = []
    for part in out.split("Unranked Memref")[1:]:
        res.append(parse_one(part))
    return res


def parse_one(out):
    m = re.search(r"sizes = \[([^\]]*)\].*?data =\s*(.*)", out, re.S)
    if not m:
        sys.exit("dynrun: no memref printed:\n" + out)
    sizes = [int(s) for s in m.group(1).split(",") if s.strip()]
    if 0 in sizes:
        return np.zeros(sizes, dtype=np.float32)
    nums = re.findall(r"-?(?:nan|inf|\d+(?:\.\d*)?(?:e[-+]?\d+)?)", m.group(2))
    return np.array([float(v) for v in nums], dtype=np.float32).reshape(sizes)


def load(spec):
    path, factory = spec.rsplit(":", 1)
    s = importlib.util.spec_from_file_location("dynrun_model", path)
    mod = importlib.util.module_from_spec(s)
    s.loader.exec_module(mod)
    m = getattr(mod, factory)()
    return m[0] if isinstance(m, tuple) else m   # tests/e2e's: (module, inputs)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("model")
    ap.add_argument("--input", action="append", required=True)
    ap.add_argument("--dynamic", action="append", default=[])
    ap.add_argument("--shape", action="append", required=True)
    ap.add_argument("--expect-fail", help="the message a --shape must abort with")
    ap.add_argument("--rtol", type=float, default=1e-4)
    ap.add_argument("--atol", type=float, default=1e-5)
    ap.add_argument("--vm", action="store_true", help="codegen, vmpack, vmrun")
    ap.add_argument("--high", type=int, default=10, help="integer inputs lie in [0, HIGH)")
    a = ap.parse_args()
    ints = [re.search(r"x(i\d+)$", i) for i in a.input]
    if any(ints) and not a.vm:
        sys.exit("dynrun: integer inputs run only with --vm")

    with tempfile.TemporaryDirectory() as tmp:
        js = os.path.join(tmp, "m.json")
        cmd = [sys.executable, os.path.join(ROOT, "tools/fx-export/fx-export"), a.model,
               "-o", js, "--seed", "0"]
        for i in a.input:
            cmd += ["--input", i]
        for d in a.dynamic:
            cmd += ["--dynamic", d]
        run(cmd)
        ir = run([os.path.join(BIN, "fx-import"), js]).stdout
        ir = run([os.path.join(BIN, "torch-opt")], ir).stdout
        lin = run([os.path.join(BIN, "torch-lower"), "--no-debuginfo"], ir).stdout.decode()
        run(["mlir-opt-16"], lin.encode())   # reads back as it is
        sig = re.search(r"func\.func @main\(([^)]*)\) -> (tensor<[^>]*>)", lin)
        if not sig:
            sys.exit("dynrun: @main has not one tensor result")
        argtypes = re.findall(r"%\w+: (tensor<[^>]*>)", sig.group(1))
        restype = sig.group(2)
        body = copy_reshape_sources(inline_resources(lin))
        torch.manual_seed(0)   # fx-export --seed 0: the same weights
        model = load(a.model).eval()
        cases = []
        for shp in a.shape:
            xs = []
            for k, one in enumerate(shp.split(",")):
                dims = [int(v) for v in one.split("x")]
                g = torch.Generator().manual_seed(len(dims) + sum(dims) + 7 * k)
                if k < len(ints) and ints[k]:
                    xs.append(torch.randint(0, a.high, dims, generator=g,
                                            dtype=getattr(torch, "int%s" % ints[k].group(1)[1:])))
                else:
                    xs.append(torch.randn(dims, generator=g))
            if len(xs) != len(argtypes):
                sys.exit("dynrun: %s: %d inputs, @main takes %d" % (shp, len(xs), len(argtypes)))
            cases.append(xs)

        if a.vm:
            vmfb = os.path.join(tmp, "m.vmfb")
            fx = run([os.path.join(BIN, "codegen")], lin.encode()).stdout
            run([os.path.join(BIN, "vmpack"), "-o", vmfb], fx)

        def vmrun(xs, n):
            """vmrun on inputs xs: its process, and the result file."""
            cmd = [os.path.join(BIN, "vmrun"), vmfb]
            for k, x in enumerate(xs):
                f = os.path.join(tmp, "x%d_%d.npy" % (n, k))
                np.save(f, x.numpy())
                cmd.append("--input=@" + f)
            out = os.path.join(tmp, "y%d.npy" % n)
            return run(cmd + ["--output=@" + out], check=False), out

        def execute(cs):
            src = body.replace("module {", "module {" + driver(
                [[x.numpy() for x in xs] for xs in cs], argtypes, restype), 1)
            ll = run(["mlir-opt-16"] + LOWER, src.encode()).stdout
            return run(["mlir-cpu-runner-16", "-e", "dynrun_entry", "-entry-point-result=void",
                        "-shared-libs=" + LIBS], ll, check=False)

        if a.expect_fail:
            # one run a shape: each must abort.  mlir-cpu-runner-16's
            # cf.assert aborts without its message: the message must be
            # that of a cf.assert in the module
            for n, (shp, xs) in enumerate(zip(a.shape, cases)):
                if a.vm:
                    p, out = vmrun(xs, n)
                    err = p.stderr.decode(errors="replace")
                    if p.returncode == 0 or a.expect_fail not in err or os.path.exists(out):
                        sys.exit("dynrun: %s: expected vmrun to fail with '%s', got rc %d:\n%s"
                                 % (shp, a.expect_fail, p.returncode, err[-2000:]))
                    print("%s: fails: %s" % (shp, err.strip()))
                    continue
                p = execute([xs])
                if p.returncode != -6 or 'cf.assert' not in lin or \
                        '"%s"' % a.expect_fail not in lin:
                    sys.exit("dynrun: %s: expected an abort with '%s', got rc %d:\n%s"
                             % (shp, a.expect_fail, p.returncode,
                                (p.stdout + p.stderr).decode(errors="replace")[-2000:]))
                print("%s: aborts: %s" % (shp, a.expect_fail))
            return
        if a.vm:
            outs = []
            for n, xs in enumerate(cases):
                p, out = vmrun(xs, n)
                if p.returncode:
                    sys.exit("dynrun: vmrun failed:\n%s" % p.stderr.decode(errors="replace"))
                outs.append(np.load(out))
        else:
            p = execute(cases)   # one module, every shape
            if p.returncode:
                sys.exit("dynrun: mlir-cpu-runner-16 failed:\n%s"
                         % (p.stdout + p.stderr).decode(errors="replace")[-2000:])
            outs = parse_printed(p.stdout.decode())
        if len(outs) != len(cases):
            sys.exit("dynrun: %d results printed for %d shapes" % (len(outs), len(cases)))
        worst = 0.0
        for shp, xs, got in zip(a.shape, cases, outs):
            with torch.no_grad():
                ref = model(*xs).numpy()
            if got.shape != ref.shape:
                sys.exit("dynrun: %s: result shape %s, eager %s" % (shp, got.shape, ref.shape))
            if ref.size and not np.abs(ref).max() > 1e-3:
                sys.exit("dynrun: %s: the reference is near zero" % shp)
            if not np.allclose(got, ref, rtol=a.rtol, atol=a.atol):
                sys.exit("dynrun: %s: max |diff| %g" % (shp, np.abs(got - ref).max()))
            if ref.size:
                worst = max(worst, float(np.abs(got - ref).max()))
            print("%s -> %s: ok" % (shp, "x".join(map(str, ref.shape))))
        print("max |diff| %g" % worst)


if __name__ == "__main__":
    main()
