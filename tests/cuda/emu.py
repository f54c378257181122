#!/usr/bin/env python3
"""emu.py - runs codegen --target=cuda's modules on the CPU, for tests on
machines without a GPU.

  emu.py op [--tiled] [--negate-input] FILE.mlir OUTDIR
      FILE.mlir, a torch-dialect function, is lowered (torch-opt,
      torch-lower) and compiled for the CPU, run by vmrun (the reference,
      checked against PyTorch elsewhere), and for CUDA, run here; the
      results must agree.  Inputs are random f32.  --tiled: every kernel
      must tile through shared memory (bar.sync and ld.shared in its PTX;
      f16 contractions mma.sync on tensor cores).
      --negate-input: the CUDA run gets its first input negated, and the
      results must then differ (the check can fail).

  emu.py run LINALG.mlir OUTDIR IN.npy...
      compiles LINALG.mlir with codegen --target=cuda, runs the module's
      first function on the inputs and writes its results to
      OUTDIR/out0.npy, out1.npy, ...

The host program (formats/fxvm.md) is interpreted here, its buffers numpy
byte arrays; arena and results start as NaNs.  Each fxvm.dispatch runs
its kernel by emu.c: the module's NVPTX LLVM IR (codegen --emit=llvm) is
rewritten for x86-64, its special registers, bar.sync, shfl.sync and
mma.sync made calls of emu.c's functions, compiled by llc-16, and linked with emu.c
once per kernel.  emu.c runs every block of the grid with a pthread per
GPU thread (real barriers), shared memory poisoned with NaNs.
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
# mma.sync's stand-in: its registers as i32, the accumulators through
# memory, to emu.c's emu_mma
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
MAXBIND = 12   # emu.c's


def fail(msg):
    sys.exit("emu.py: " + msg)


def sh(*cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode:
        fail("%s: %s" % (" ".join(cmd), p.stderr.strip()))
    return p.stdout


def tensor_type(t):
    m = re.fullmatch(r"tensor<((?:\d+x)*)(\w+)>", t.strip())
    if not m or m.group(2) not in DTYPES:
        fail("unsupported type %s" % t)
    return tuple(int(d) for d in m.group(1).split("x") if d), np.dtype(DTYPES[m.group(2)])


def to_host(ll):
    """NVPTX LLVM IR -> x86-64 LLVM IR calling emu.c."""
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
    left = sorted(set(re.findall(r"@llvm\.nvvm\.[\w.]+", ll)))
    if left:
        fail("the emulator has no stand-in for %s" % ", ".join(left))
    return ll


class Buf:
    """A buffer: nbytes of base (a uint8 array) from off."""

    def __init__(self, base, off, t):
        self.base, self.off = base, off
        self.shape, self.dtype = tensor_type(t)
        self.nbytes = int(np.prod(self.shape, dtype=np.int64)) * self.dtype.itemsize
        if off + self.nbytes > len(base):
            fail("a buffer of %s at %d lies past its base's %d bytes" % (t, off, len(base)))

    def bytes(self):
        return self.base[self.off:self.off + self.nbytes]

    def array(self):
        return self.bytes().view(self.dtype).reshape(self.shape).copy()


def dense_bytes(attr, t):
    """The bytes of dense<...> : t (a splat, a list or a hex string)."""
    shape, dt = tensor_type(t)
    n = int(np.prod(shape, dtype=np.int64))
    body = re.fullmatch(r"dense<(.*)>", attr.strip()).group(1).strip()
    if body.startswith('"0x'):
        return np.frombuffer(bytes.fromhex(body[3:-1]), np.uint8).copy()
    vals = [v for v in re.split(r"[\[\],\s]+", body) if v]
    conv = {"true": 1, "false": 0}
    a = np.array([conv.get(v, v) for v in vals]).astype(np.float64).astype(dt)
    if a.size == 1:
        a = np.full(n, a[0], dt)
    return a.view(np.uint8).copy()


class Module:
    def __init__(self, text, workdir):
        self.dir = workdir
        self.kernels = {}
        for name, attrs in re.findall(r"fxvm\.kernel @(\w+) attributes \{(.*)\}", text):
            self.kernels[name] = (int(re.search(r"bindings = (\d+)", attrs).group(1)),
                                  int(re.search(r"block = array<i64: (\d+), 1, 1>", attrs).group(1)),
                                  int(re.search(r"shared = (\d+)", attrs).group(1)))
        self.blobs = {}
        for q, bare, hexs in re.findall(r'(?m)^\s+(?:"([^"]+)"|([\w.$-]+)): "0x([0-9A-Fa-f]*)"', text):
            self.blobs[q or bare] = np.frombuffer(bytes.fromhex(hexs[8:]), np.uint8).copy()
        self.globals = {}
        for name, t, attr in re.findall(r"fxvm\.global @(\w+) : (tensor<[^>]*>) = (.*) : tensor<[^>]*>", text):
            r = re.fullmatch(r'dense_resource<(?:"([^"]+)"|([\w.$-]+))>', attr.strip())
            self.globals[name] = self.blobs[r.group(1) or r.group(2)] if r else dense_bytes(attr, t)
        m = re.search(r"(?m)^  func\.func @\w+\((.*?)\) -> .*\{$", text)
        if not m:
            fail("no function in the module")
        self.args = re.findall(r"%arg\d+: (tensor<[^>]*>)", m.group(1))
        a = re.search(r"fxvm\.arena = (\d+)", m.group(0))
        self.arena = int(a.group(1)) if a else 0
        end = text.index("\n  }\n", m.end())
        self.body = [ln.strip() for ln in text[m.end():end].strip().split("\n")]
        self.exes = {}

    def build(self, ll):
        """An emu binary per kernel, from the module's NVPTX LLVM IR."""
        k_ll, k_o = os.path.join(self.dir, "k.ll"), os.path.join(self.dir, "k.o")
        with open(k_ll, "w") as f:
            f.write(to_host(ll))
        sh("llc-16", "-O2", "-filetype=obj", "-relocation-model=pic", k_ll, "-o", k_o)
        for name, (nbind, _, _) in self.kernels.items():
            if not 1 <= nbind <= MAXBIND:
                fail("%s binds %d buffers (the emulator takes 1 to %d)" % (name, nbind, MAXBIND))
            self.exes[name] = os.path.join(self.dir, "emu_" + name)
            sh("cc", "-O1", "-DKERNEL=" + name, "-DNBIND=%d" % nbind, os.path.join(HERE, "emu.c"), k_o,
               "-lpthread", "-lm", "-o", self.exes[name])

    def run(self, inputs):
        """The function's results for the inputs (numpy arrays)."""
        if len(inputs) != len(self.args):
            fail("the function takes %d inputs, not %d" % (len(self.args), len(inputs)))
        env, results = {}, {}
        for i, (t, x) in enumerate(zip(self.args, inputs)):
            shape, dt = tensor_type(t)
            x = np.ascontiguousarray(x, dt)
            if x.shape != shape:
                fail("input %d is %s, not %s" % (i, x.shape, shape))
            env["%%arg%d" % i] = Buf(x.reshape(-1).view(np.uint8).copy(), 0, t)
        arena = np.full(self.arena, 0xFF, np.uint8)   # NaN as f32 and f64
        for ln in self.body:
            m = re.fullmatch(r"(%\w+) = fxvm\.(\w+) (.*)", ln)
            if m:
                v, op, rest = m.groups()
                if op == "result":
                    n, t = re.fullmatch(r"(\d+) : (.*)", rest).groups()
                    b = Buf(np.full(tensor_type(t)[1].itemsize * int(np.prod(tensor_type(t)[0], dtype=np.int64)),
                                    0xFF, np.uint8), 0, t)
                    results[int(n)] = env[v] = b
                elif op == "alloc":
                    off, t = re.fullmatch(r"(\d+) : (.*)", rest).groups()
                    env[v] = Buf(arena, int(off), t)
                elif op == "constant":
                    g, t = re.fullmatch(r"@(\w+) : (.*)", rest).groups()
                    env[v] = Buf(self.globals[g].copy(), 0, t)
                elif op == "view":
                    src, off, t = re.fullmatch(r"(%\w+)\[(\d+)\] : .* -> (.*)", rest).groups()
                    env[v] = Buf(env[src].base, env[src].off + int(off), t)
                else:
                    fail("unknown op in the host program: " + ln)
                continue
            m = re.fullmatch(r"fxvm\.dispatch @(\w+)\[(\d+), (\d+), (\d+)\]\((.*)\) : .*", ln)
            if m:
                self.dispatch(m.group(1), int(m.group(2)) * int(m.group(3)) * int(m.group(4)),
                              [env[o.strip()] for o in m.group(5).split(",")])
                continue
            m = re.fullmatch(r"fxvm\.copy (%\w+), (%\w+) : .*", ln)
            if m:
                src, dst = env[m.group(1)], env[m.group(2)]
                dst.bytes()[:] = src.bytes()
                continue
            m = re.fullmatch(r"fxvm\.fill (%\w+), (\S+) : (.*)", ln)
            if m:
                dst = env[m.group(1)]
                dst.bytes()[:] = np.full(dst.shape, float(m.group(2)), dst.dtype).reshape(-1).view(np.uint8)
                continue
            if ln.startswith("return"):
                return [results[i].array() for i in range(len(results))]
            fail("unknown op in the host program: " + ln)
        fail("the function does not return")

    def dispatch(self, name, blocks, bufs):
        nbind, block, shared = self.kernels[name]
        files = []
        for i, b in enumerate(bufs):
            files.append(os.path.join(self.dir, "b%d.bin" % i))
            b.bytes().tofile(files[-1])
        sh(self.exes[name], str(blocks), str(block), str(shared), *files)
        for f, b in zip(files, bufs):
            new = np.fromfile(f, np.uint8)
            if not np.array_equal(new, b.bytes()):
                b.bytes()[:] = new


def compile_cuda(lin, out):
    """The CUDA module of a linalg file, ready to run."""
    fx = os.path.join(out, "cuda.fxvm")
    sh(os.path.join(BIN, "codegen"), "--target=cuda", lin, "-o", fx)
    m = Module(open(fx).read(), out)
    m.build(sh(os.path.join(BIN, "codegen"), "--target=cuda", "--emit=llvm", lin))
    return m


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
    m = compile_cuda(p("l.mlir"), out)
    rng = np.random.default_rng(0)
    inputs = [rng.standard_normal(tensor_type(t)[0]).astype(tensor_type(t)[1]) for t in m.args]
    for i, x in enumerate(inputs):
        np.save(p("in%d.npy" % i), x)
    sh(os.path.join(BIN, "codegen"), "--target=cpu", p("l.mlir"), "-o", p("cpu.fxvm"))
    sh(os.path.join(BIN, "vmpack"), p("cpu.fxvm"), "-o", p("cpu.vmfb"))
    sh(os.path.join(BIN, "vmrun"), p("cpu.vmfb"), *["--input=@" + p("in%d.npy" % i) for i in range(len(inputs))],
       "--output=@" + p("ref.npy"))
    ref = np.load(p("ref.npy"))
    if tiled:
        ptx = sh(os.path.join(BIN, "codegen"), "--target=cuda", "--emit=ptx", p("l.mlir"))
        untiled = [k for k, (_, _, shared) in m.kernels.items() if shared not in (8448, 6144)]
        half = any(tensor_type(t)[1] == np.float16 for t in m.args)
        if untiled or "bar.sync" not in ptx or ("mma.sync" if half else "ld.shared.f32") not in ptx:
            fail("not tiled through shared memory: %s" % ", ".join(untiled or ["the PTX"]))
    if negate:
        inputs[0] = -inputs[0]
    got = m.run(inputs)[0].reshape(ref.shape)
    scale = float(np.abs(ref).max())
    if not scale > 1e-3:
        fail("the reference is near zero (max |x| %g): the check could not fail" % scale)
    err = float(np.abs(got - ref).max()) if np.isfinite(got).all() else float("inf")
    print("%s: %d kernel(s) (%s); max |cuda - cpu| %.3g of max |cpu| %.3g"
          % (src, len(m.kernels), ", ".join("%s: %d threads, %d bytes shared" % (k, b, s)
                                            for k, (_, b, s) in m.kernels.items()), err, scale))
    # f16 results: one rounding of the f32 sum may land a unit apart
    ok = err <= max(1e-4, 2 * float(np.finfo(ref.dtype).eps)) * scale + 1e-5
    if negate and ok:
        fail("with its first input negated, the CUDA result still matches")
    if not negate and not ok:
        fail("the CUDA kernels' result differs from the CPU's")


def run(args):
    if len(args) < 2:
        fail("usage: emu.py run LINALG.mlir OUTDIR IN.npy...")
    lin, out = args[:2]
    os.makedirs(out, exist_ok=True)
    m = compile_cuda(lin, out)
    for i, r in enumerate(m.run([np.load(a) for a in args[2:]])):
        np.save(os.path.join(out, "out%d.npy" % i), r)


if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in ("op", "run"):
        fail("usage: emu.py op|run ... (see its docstring)")
    (op if sys.argv[1] == "op" else run)(sys.argv[2:])
