#!/usr/bin/env python3
"""emu.py - runs codegen --target=cuda's modules without a GPU, through
vmrun --device=cuda and tests/cuda/fakecuda.c, a libcuda.so.1 that runs
the module's kernels on the CPU in CUDA's execution model.

  emu.py op [--tiled] [--negate-input] FILE.mlir OUTDIR
      FILE.mlir, a torch-dialect function, is lowered (torch-opt,
      torch-lower) and compiled for the CPU, run by vmrun (the reference,
      checked against PyTorch elsewhere), and for CUDA, run emulated; the
      results must agree.  Inputs are random.  --tiled: every kernel must
      tile through shared memory (bar.sync and ld.shared in its PTX; f16
      contractions mma.sync on tensor cores).  --negate-input: the CUDA
      run gets its first input negated, and the results must then differ
      (the check can fail).

  emu.py run LINALG.mlir OUTDIR IN.npy...
      compiles LINALG.mlir with codegen --target=cuda and vmpack, runs it
      emulated on the inputs, and writes its result to OUTDIR/out0.npy.

  emu.py ops OP...
      tests/e2e/ops.py's check of the op fixtures (every variant against
      PyTorch's outputs), compiled for CUDA and run emulated.

Exit status 3 (and a message): the kernels do what the emulator cannot
(inline PTX other than libdevice's reciprocal, an NVVM intrinsic without
a stand-in).

The fake driver is built for each module: the kernels' NVPTX LLVM IR
(codegen --emit=llvm) is rewritten for x86-64, its special registers,
bar.sync, shfl.sync and mma.sync made calls of fakecuda.c's functions,
compiled by llc-16 and linked with fakecuda.c as OUTDIR/fake/libcuda.so.1;
vmrun loads it through LD_LIBRARY_PATH.  Everything else -- the module
load, device buffers, copies, fills and launches -- is vmrun's own.
"""
import os
import re
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
BIN = os.path.join(HERE, "..", "..", "bin")

HOST_LAYOUT = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
CALLS = {
    "llvm.nvvm.read.ptx.sreg.tid.x": "emu_tid_x",
    "llvm.nvvm.read.ptx.sreg.ntid.x": "emu_ntid_x",
    "llvm.nvvm.read.ptx.sreg.ctaid.x": "emu_ctaid_x",
    "llvm.nvvm.read.ptx.sreg.nctaid.x": "emu_nctaid_x",
    "llvm.nvvm.barrier0": "emu_barrier",
    "llvm.nvvm.shfl.sync.bfly.i32": "emu_shfl_bfly",
    "llvm.nvvm.d2i.hi": "emu_d2i_hi",
    "llvm.nvvm.d2i.lo": "emu_d2i_lo",
    "llvm.nvvm.lohi.i2d": "emu_lohi_i2d",
    "llvm.nvvm.d2i.rn": "emu_d2i_rn",
    "llvm.nvvm.f2i.rn": "emu_f2i_rn",
    "llvm.nvvm.ex2.approx.f": "emu_ex2_approx_f",
    "llvm.nvvm.ex2.approx.ftz.f": "emu_ex2_approx_ftz_f",
    "llvm.nvvm.rcp.approx.ftz.d": "emu_rcp_approx_ftz_d",
    "llvm.nvvm.add.rz.f": "emu_add_rz_f",
}
# mma.sync's stand-in: its registers as i32, the accumulators through
# memory, to fakecuda.c's emu_mma
MMA = """
declare void @emu_mma(i32, i32, i32, i32, i32, i32, i32, ptr)
define internal {float, float, float, float} @%(name)s(%(rt)s %%a0, %(rt)s %%a1, %(rt)s %%a2, %(rt)s %%a3,
    %(rt)s %%b0, %(rt)s %%b1, float %%c0, float %%c1, float %%c2, float %%c3) {
  %%p = alloca [4 x float], align 4
  %%p1 = getelementptr float, ptr %%p, i64 1
  %%p2 = getelementptr float, ptr %%p, i64 2
  %%p3 = getelementptr float, ptr %%p, i64 3
  store float %%c0, ptr %%p
  store float %%c1, ptr %%p1
  store float %%c2, ptr %%p2
  store float %%c3, ptr %%p3
  %%x0 = bitcast %(rt)s %%a0 to i32
  %%x1 = bitcast %(rt)s %%a1 to i32
  %%x2 = bitcast %(rt)s %%a2 to i32
  %%x3 = bitcast %(rt)s %%a3 to i32
  %%y0 = bitcast %(rt)s %%b0 to i32
  %%y1 = bitcast %(rt)s %%b1 to i32
  call void @emu_mma(i32 %(bf16)d, i32 %%x0, i32 %%x1, i32 %%x2, i32 %%x3, i32 %%y0, i32 %%y1, ptr %%p)
  %%d0 = load float, ptr %%p
  %%d1 = load float, ptr %%p1
  %%d2 = load float, ptr %%p2
  %%d3 = load float, ptr %%p3
  %%r0 = insertvalue {float, float, float, float} undef, float %%d0, 0
  %%r1 = insertvalue {float, float, float, float} %%r0, float %%d1, 1
  %%r2 = insertvalue {float, float, float, float} %%r1, float %%d2, 2
  %%r3 = insertvalue {float, float, float, float} %%r2, float %%d3, 3
  ret {float, float, float, float} %%r3
}
"""
DTYPES = {"f32": np.float32, "f64": np.float64, "f16": np.float16, "i1": np.uint8, "i8": np.int8,
          "i16": np.int16, "i32": np.int32, "i64": np.int64, "si8": np.int8, "si16": np.int16,
          "si32": np.int32, "si64": np.int64, "ui8": np.uint8, "ui16": np.uint16, "ui32": np.uint32,
          "ui64": np.uint64}


class Unsupported(Exception):
    """What the kernels do that the emulator cannot."""


def fail(msg):
    sys.exit("emu.py: " + msg)


def sh(*cmd, env=None):
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if p.returncode:
        fail("%s: %s" % (" ".join(cmd), p.stderr.strip()))
    return p.stdout


def tensor_type(t):
    m = re.fullmatch(r"tensor<((?:\d+x)*)(\w+)>", t.strip())
    if not m or m.group(2) not in DTYPES:
        fail("unsupported type %s" % t)
    return tuple(int(d) for d in m.group(1).split("x") if d), np.dtype(DTYPES[m.group(2)])


def to_host(ll):
    """NVPTX LLVM IR -> x86-64 LLVM IR calling fakecuda.c."""
    ll = re.sub(r'(?m)^target datalayout = .*$', 'target datalayout = "%s"' % HOST_LAYOUT, ll)
    ll = re.sub(r'(?m)^target triple = .*$', 'target triple = "x86_64-pc-linux-gnu"', ll)
    ll = re.sub(r" addrspace\(\d\)", "", ll).replace("addrspacecast", "bitcast")
    ll = re.sub(r'"target-(cpu|features)"="[^"]*"', "", ll)
    for nv, host in CALLS.items():
        ll = ll.replace("@" + nv + "(", "@" + host + "(")
    for nv, host, rt in (("llvm.nvvm.mma.m16n8k16.row.col.f32.f32", "emu_mma_f16", "<2 x half>"),
                         ("llvm.nvvm.mma.m16n8k16.row.col.bf16", "emu_mma_bf16", "i32")):
        if "@" + nv + "(" in ll:
            ll = re.sub(r"(?m)^declare .*@%s\(.*$" % re.escape(nv), "", ll)
            ll = ll.replace("@" + nv + "(", "@" + host + "(") + MMA % {
                "name": host, "rt": rt, "bf16": int(rt == "i32")}
    # libdevice's one-instruction inline PTX the emulator knows; any other
    # inline PTX (the f64 sin/cos argument reduction's carry chains) it
    # cannot run
    for asm, host, t in (("rcp.approx.ftz.f32 $0,$1;", "emu_rcp_approx_ftz_f", "float"),):
        pat = 'asm "%s", "=f,f"(' % asm
        if pat in ll:
            ll = ll.replace(pat, "@%s(" % host) + "\ndeclare %s @%s(%s)\n" % (t, host, t)
    if re.search(r'\basm (sideeffect )?"', ll):
        raise Unsupported("inline PTX asm: %s" % re.search(r'asm (?:sideeffect )?"([^"]{0,60})', ll).group(1))
    left = sorted(set(re.findall(r"@llvm\.nvvm\.[\w.]+", ll)))
    if left:
        raise Unsupported("no stand-in for %s" % ", ".join(left))
    return ll


def build(lin, out):
    """LINALG compiled for CUDA: OUTDIR/cuda.vmfb, and OUTDIR/fake/libcuda.so.1
    running its kernels.  Returns the fxvm module's text."""
    p = lambda n: os.path.join(out, n)
    os.makedirs(p("fake"), exist_ok=True)
    sh(os.path.join(BIN, "codegen"), "--target=cuda", lin, "-o", p("cuda.fxvm"))
    sh(os.path.join(BIN, "vmpack"), p("cuda.fxvm"), "-o", p("cuda.vmfb"))
    with open(p("k.ll"), "w") as f:
        f.write(to_host(sh(os.path.join(BIN, "codegen"), "--target=cuda", "--emit=llvm", lin)))
    sh("llc-16", "-O2", "-filetype=obj", "-relocation-model=pic", p("k.ll"), "-o", p("k.o"))
    sh("cc", "-shared", "-fPIC", "-O1", os.path.join(HERE, "fakecuda.c"), p("k.o"), "-lpthread", "-lm",
       "-o", p("fake/libcuda.so.1"))
    return open(p("cuda.fxvm")).read()


def vmrun_cuda(out, inputs, output):
    """vmrun --device=cuda on OUTDIR/cuda.vmfb with the fake driver."""
    env = dict(os.environ)
    env["LD_LIBRARY_PATH"] = os.path.join(out, "fake") + (":" + env["LD_LIBRARY_PATH"]
                                                           if env.get("LD_LIBRARY_PATH") else "")
    sh(os.path.join(BIN, "vmrun"), os.path.join(out, "cuda.vmfb"), "--device=cuda",
       *["--input=@" + a for a in inputs], "--output=@" + output, env=env)


def op(args):
    tiled, negate = "--tiled" in args, "--negate-input" in args
    args = [a for a in args if a not in ("--tiled", "--negate-input")]
    if len(args) != 2:
        fail("usage: emu.py op [--tiled] [--negate-input] FILE.mlir OUTDIR")
    src, out = args
    os.makedirs(out, exist_ok=True)
    p = lambda n: os.path.join(out, n)
    sh(os.path.join(BIN, "torch-opt"), src, "-o", p("o.mlir"))
    sh(os.path.join(BIN, "torch-lower"), p("o.mlir"), "-o", p("l.mlir"))
    fx = build(p("l.mlir"), out)
    lin = open(p("l.mlir")).read()
    sig = re.search(r"func\.func @\w+\((.*?)\) ->", lin)
    argtypes = re.findall(r"%arg\d+: (tensor<[^>]*>)", sig.group(1)) if sig else []
    rng = np.random.default_rng(0)
    inputs = [rng.standard_normal(tensor_type(t)[0]).astype(tensor_type(t)[1]) for t in argtypes]
    for i, x in enumerate(inputs):
        np.save(p("in%d.npy" % i), x)
    sh(os.path.join(BIN, "codegen"), "--target=cpu", p("l.mlir"), "-o", p("cpu.fxvm"))
    sh(os.path.join(BIN, "vmpack"), p("cpu.fxvm"), "-o", p("cpu.vmfb"))
    sh(os.path.join(BIN, "vmrun"), p("cpu.vmfb"), *["--input=@" + p("in%d.npy" % i) for i in range(len(inputs))],
       "--output=@" + p("ref.npy"))
    ref = np.load(p("ref.npy"))
    kernels = dict(re.findall(r"fxvm\.kernel @(\w+) attributes \{.*shared = (\d+)", fx))
    if tiled:
        ptx = sh(os.path.join(BIN, "codegen"), "--target=cuda", "--emit=ptx", p("l.mlir"))
        untiled = [k for k, shared in kernels.items() if shared not in ("8448", "6144")]
        half = any(tensor_type(t)[1] == np.float16 for t in argtypes)
        if untiled or "bar.sync" not in ptx or ("mma.sync" if half else "ld.shared.f32") not in ptx:
            fail("not tiled through shared memory: %s" % ", ".join(untiled or ["the PTX"]))
    if negate:
        np.save(p("in0.npy"), -inputs[0])
    vmrun_cuda(out, [p("in%d.npy" % i) for i in range(len(inputs))], p("cuda.npy"))
    got = np.load(p("cuda.npy")).reshape(ref.shape)
    scale = float(np.abs(ref).max())
    if not scale > 1e-3:
        fail("the reference is near zero (max |x| %g): the check could not fail" % scale)
    err = float(np.abs(got - ref).max()) if np.isfinite(got).all() else float("inf")
    print("%s: %d kernel(s) (%s); max |cuda - cpu| %.3g of max |cpu| %.3g"
          % (src, len(kernels), ", ".join("%s: %s bytes shared" % kv for kv in kernels.items()), err, scale))
    # f16 results: one rounding of the f32 sum may land a unit apart
    eps = float(np.finfo(ref.dtype).eps) if ref.dtype.kind == "f" else 0.0
    ok = err <= max(1e-4, 2 * eps) * scale + 1e-5
    if negate and ok:
        fail("with its first input negated, the CUDA result still matches")
    if not negate and not ok:
        fail("the CUDA kernels' result differs from the CPU's")


def run(args):
    if len(args) < 2:
        fail("usage: emu.py run LINALG.mlir OUTDIR IN.npy...")
    lin, out = args[:2]
    build(lin, out)
    vmrun_cuda(out, args[2:], os.path.join(out, "out0.npy"))


def ops(args):
    """tests/e2e/ops.py's check of each op fixture, on the emulated GPU."""
    sys.path.insert(0, os.path.join(HERE, "..", "e2e"))
    import ops as e2e

    def compile_op(name, tmp):
        lin = os.path.join(tmp, "l.mlir")
        sh(os.path.join(BIN, "torch-lower"), os.path.join(e2e.OPS, name + ".mlir"), "-o", lin)
        build(lin, tmp)
        os.environ["LD_LIBRARY_PATH"] = os.path.join(tmp, "fake")
        return os.path.join(tmp, "cuda.vmfb"), None

    e2e.compile_op = compile_op
    os.environ["VMRUN_FLAGS"] = "--device=cuda"
    sys.argv = ["ops.py"] + args
    e2e.main()


if __name__ == "__main__":
    modes = {"op": op, "run": run, "ops": ops}
    if len(sys.argv) < 2 or sys.argv[1] not in modes:
        fail("usage: emu.py op|run|ops ... (see its docstring)")
    try:
        modes[sys.argv[1]](sys.argv[2:])
    except Unsupported as e:
        print("emu.py: the emulator cannot run these kernels: %s" % e)
        sys.exit(3)
