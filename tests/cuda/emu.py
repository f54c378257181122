#!/usr/bin/env python3
"""emu.py [--tiled] [--negate-input] FILE.mlir OUTDIR - checks codegen --target=cuda's
kernel for a torch-dialect function of one dispatch, on the CPU.

The function is lowered (torch-opt, torch-lower) and compiled twice: for the CPU,
run by vmrun (the reference, checked against PyTorch elsewhere), and for
CUDA, whose kernel's LLVM IR is rewritten for x86-64 (the NVPTX special
registers, bar.sync and shfl.sync become calls of emu.c's functions) and
run by emu.c, a block at a time, each thread a pthread.  The two results
must agree.  --tiled: the kernel must also be a tiled contraction
(shared memory and bar.sync in its PTX).  Inputs are random f32.
--negate-input: the emulated kernel gets the first input negated, and
the results must then differ (the check can fail).
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
}
DTYPES = {"f32": np.float32}


def fail(msg):
    sys.exit("emu.py: " + msg)


def sh(*cmd, **kw):
    p = subprocess.run(cmd, capture_output=True, text=kw.pop("text", True), **kw)
    if p.returncode:
        fail("%s: %s" % (" ".join(cmd), p.stderr.strip() if isinstance(p.stderr, str) else p.stderr))
    return p.stdout


def tensor_type(t):
    m = re.fullmatch(r"tensor<((?:\d+x)*)(\w+)>", t.strip())
    if not m or m.group(2) not in DTYPES:
        fail("unsupported type %s (f32 tensors only)" % t)
    return tuple(int(d) for d in m.group(1).split("x") if d), DTYPES[m.group(2)]


def to_host(ll):
    """NVPTX LLVM IR -> x86-64 LLVM IR calling emu.c."""
    ll = re.sub(r'(?m)^target datalayout = .*$', 'target datalayout = "%s"' % HOST_LAYOUT, ll)
    ll = re.sub(r'(?m)^target triple = .*$', 'target triple = "x86_64-pc-linux-gnu"', ll)
    ll = re.sub(r" addrspace\(\d\)", "", ll).replace("addrspacecast", "bitcast")
    ll = re.sub(r'"target-(cpu|features)"="[^"]*"', "", ll)
    for nv, host in CALLS.items():
        ll = ll.replace("@" + nv + "(", "@" + host + "(")
    left = sorted(set(re.findall(r"@llvm\.nvvm\.[\w.]+", ll)))
    if left:
        fail("the emulator has no stand-in for %s" % ", ".join(left))
    return ll


def main():
    args = sys.argv[1:]
    tiled, negate = "--tiled" in args, "--negate-input" in args
    args = [a for a in args if a not in ("--tiled", "--negate-input")]
    if len(args) != 2:
        fail("usage: emu.py [--tiled] [--negate-input] FILE.mlir OUTDIR")
    src, out = args
    os.makedirs(out, exist_ok=True)
    p = lambda n: os.path.join(out, n)
    sh(os.path.join(BIN, "torch-opt"), src, "-o", p("o.mlir"))
    sh(os.path.join(BIN, "torch-lower"), p("o.mlir"), "-o", p("l.mlir"))
    lin = open(p("l.mlir")).read()
    m = re.search(r"func\.func @(\w+)\((.*?)\) ->", lin)
    if not m:
        fail("no function in %s" % src)
    argtypes = re.findall(r"%arg\d+: (tensor<[^>]*>)", m.group(2))
    rng = np.random.default_rng(0)
    inputs = []
    for i, t in enumerate(argtypes):
        shape, dt = tensor_type(t)
        inputs.append(rng.standard_normal(shape).astype(dt))
        np.save(p("in%d.npy" % i), inputs[-1])
    # the reference: the CPU pipeline
    sh(os.path.join(BIN, "codegen"), "--target=cpu", p("l.mlir"), "-o", p("cpu.fxvm"))
    sh(os.path.join(BIN, "vmpack"), p("cpu.fxvm"), "-o", p("cpu.vmfb"))
    sh(os.path.join(BIN, "vmrun"), p("cpu.vmfb"), *["--input=@" + p("in%d.npy" % i) for i in range(len(inputs))],
       "--output=@" + p("ref.npy"))
    ref = np.load(p("ref.npy"))
    # the CUDA module: one dispatch, its bindings the function's arguments
    # and buffers of its own
    sh(os.path.join(BIN, "codegen"), "--target=cuda", p("l.mlir"), "-o", p("cuda.fxvm"))
    fx = open(p("cuda.fxvm")).read()
    ds = re.findall(r"fxvm\.dispatch @(\w+)\[(\d+), 1, 1\]\(([^)]*)\) : (.*)", fx)
    if len(ds) != 1:
        fail("%d dispatches (the emulator runs one)" % len(ds))
    name, grid, operands, types = ds[0]
    operands = [o.strip() for o in operands.split(",")]
    types = re.findall(r"tensor<[^>]*>", types)
    k = re.search(r"fxvm\.kernel @%s attributes \{(.*)\}" % name, fx).group(1)
    block = int(re.search(r"block = array<i64: (\d+), 1, 1>", k).group(1))
    shared = int(re.search(r"shared = (\d+)", k).group(1))
    ptx = sh(os.path.join(BIN, "codegen"), "--target=cuda", "--emit=ptx", p("l.mlir"))
    if tiled and not (shared and "bar.sync" in ptx and "ld.shared.f32" in ptx):
        fail("%s is not a tiled contraction (shared %d bytes)" % (name, shared))
    ll = sh(os.path.join(BIN, "codegen"), "--target=cuda", "--emit=llvm", p("l.mlir"))
    with open(p("k.ll"), "w") as f:
        f.write(to_host(ll))
    sh("llc-16", "-O2", "-filetype=obj", "-relocation-model=pic", p("k.ll"), "-o", p("k.o"))
    sh("cc", "-O1", "-DKERNEL=" + name, "-DNBIND=%d" % len(operands), os.path.join(HERE, "emu.c"), p("k.o"),
       "-lpthread", "-lm", "-o", p("emu"))
    files, result = [], None
    for i, (o, t) in enumerate(zip(operands, types)):
        shape, dt = tensor_type(t)
        a = re.fullmatch(r"%arg(\d+)", o)
        data = inputs[int(a.group(1))] if a else np.full(shape, np.nan, dt)
        if a and negate and a.group(1) == "0":
            data = -data
        files.append(p("b%d.bin" % i))
        data.tofile(files[-1])
        if not a:
            if result is not None:
                fail("more than one buffer of the kernel's own")
            result = (files[-1], shape, dt)
    if result is None:
        fail("the kernel writes no buffer of its own")
    sh(p("emu"), grid, str(block), str(shared), *files)
    got = np.fromfile(result[0], result[2]).reshape(result[1]).reshape(ref.shape)
    scale = float(np.abs(ref).max())
    if not scale > 1e-3:
        fail("the reference is near zero (max |x| %g): the check could not fail" % scale)
    err = float(np.abs(got - ref).max()) if np.isfinite(got).all() else float("inf")
    print("%s: %s, grid %s x %d threads, %d bytes shared; max |cuda - cpu| %.3g of max |cpu| %.3g"
          % (src, name, grid, block, shared, err, scale))
    if negate and err <= 1e-4 * scale + 1e-5:
        fail("with its first input negated, the kernel's result still matches")
    if not negate and not err <= 1e-4 * scale + 1e-5:
        fail("the CUDA kernel's result differs from the CPU's")


if __name__ == "__main__":
    main()
