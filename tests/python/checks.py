#!/usr/bin/env python3
"""checks.py - the fxpipe Python package's checks, one per name:

    checks.py NAME [VMFB]

VMFB: the linear module (examples/linear-linalg.mlir compiled), for the
checks that need no torch.  Each check raises (exit 1, traceback) on a
failure; tests/python/fxpipe.bats runs them.
"""
import gc
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, os.path.join(ROOT, "tests", "e2e"))
import fxpipe  # noqa: E402

RTOL, ATOL = 1e-3, 1e-7     # tests/e2e's, torch-mlir's e2e tolerance
CHECKS = {}


def check(fn):
    CHECKS[fn.__name__] = fn
    return fn


def linear_inputs(make=np.random.default_rng(0).standard_normal):
    return [make(s).astype(np.float32) for s in ((4, 3), (3,), (4,))]


def linear_reference(a, b, c):
    return c.astype(np.float64) @ a + b, c.reshape(1, 4)


def expect_error(exc, text, fn, *args, **kw):
    try:
        fn(*args, **kw)
    except exc as e:
        assert text in str(e), "%r does not say %r" % (str(e), text)
        return e
    raise AssertionError("no %s saying %r" % (exc.__name__, text))


def close(got, want):
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape, (got.shape, want.shape)
    assert np.allclose(got, want, rtol=RTOL, atol=ATOL), np.abs(got - want).max()


@check
def signature(path):
    m = fxpipe.load(path)
    assert list(m.functions) == ["main"], m.functions
    assert repr(m.main) == "@main(4x3xf32, 3xf32, 4xf32) -> (3xf32, 1x4xf32)", repr(m.main)
    assert m["@main"] is m.main and m.target == "cpu"
    assert [t.shape for t in m.main.inputs] == [(4, 3), (3,), (4,)]
    expect_error(KeyError, "has no function @nope (it has @main)", lambda: m["nope"])
    expect_error(AttributeError, "nope", lambda: m.nope)


@check
def numpy_values(path):
    m = fxpipe.load(path)
    ins = linear_inputs()
    r0, r1 = m.main(*ins)
    assert type(r0) is np.ndarray and r0.dtype == np.float32
    want0, want1 = linear_reference(*ins)
    close(r0, want0)
    assert np.array_equal(r1, want1)


@check
def bad_inputs(path):
    m = fxpipe.load(path)
    a, b, c = linear_inputs()
    expect_error(fxpipe.Error, "@main takes 3 inputs, got 2", m.main, a, b)
    expect_error(fxpipe.Error, "input 0: element type is f64, the function expects f32",
                 m.main, a.astype(np.float64), b, c)
    expect_error(fxpipe.Error, "input 2: dimension 0 is 5, the function expects 4",
                 m.main, a, b, np.zeros(5, np.float32))
    expect_error(fxpipe.Error, "input 1: rank is 2, the function expects 1",
                 m.main, a, b.reshape(1, 3), c)
    expect_error(TypeError, "input 1: a list", m.main, a, [1.0, 2.0, 3.0], c)
    expect_error(TypeError, "input 0: a float", m.main, 1.0, b, c)
    expect_error(TypeError, "input 0: numpy dtype float128 has no runtime element type",
                 m.main, a.astype(np.longdouble), b, c)
    # complex64 is a runtime element type now (c64): a mismatch, not a TypeError
    expect_error(fxpipe.Error, "input 0: element type is c64, the function expects f32",
                 m.main, a.astype(np.complex64), b, c)
    # A failed call leaves the function usable, with right answers.
    close(m.main(a, b, c)[0], linear_reference(a, b, c)[0])


@check
def batched(path):
    """A function with a dynamic batch (tests/codegen/batch.mlir: x + b as
    ?x2x2, batch 1..64): any batch in range, results of the call's shape;
    out of range raises with the runtime's message."""
    m = fxpipe.load(path)
    f = m.main
    assert repr(f) == "@main(?x4xf32, 4xf32) -> (?x2x2xf32)", repr(f)
    b = np.arange(4, dtype=np.float32)
    for n in (1, 3, 9, 17, 64):
        x = np.random.default_rng(n).standard_normal((n, 4)).astype(np.float32)
        y = f(x, b)
        assert y.shape == (n, 2, 2), y.shape
        close(y, (x + b).reshape(n, 2, 2))
    expect_error(fxpipe.Error, "input 0: dimension 0 is 65, must be in [1, 64]",
                 f, np.zeros((65, 4), np.float32), b)


@check
def zero_copy(path):
    """What the package claims: aligned contiguous inputs are not copied,
    others are (once, with the same values); results are the runtime's
    allocations, not copies; out= arrays are written in place."""
    m = fxpipe.load(path)
    ins = linear_inputs()
    aligned = [fxpipe.empty(x.shape) for x in ins]
    for dst, src in zip(aligned, ins):
        dst[...] = src
        assert dst.ctypes.data % 64 == 0
    r0, _ = m.main(*aligned)
    assert m.main.copied_inputs == (), m.main.copied_inputs
    assert not r0.flags.owndata and type(r0.base).__name__.startswith("RtOwned")
    assert r0.ctypes.data == __import__("ctypes").addressof(r0.base) and r0.ctypes.data % 64 == 0
    # Unaligned and non-contiguous: copied, same values.
    raw = np.zeros(4 * 3 + 1, np.float32)
    odd = raw[1:].reshape(4, 3)
    odd[...] = ins[0]
    strided = np.zeros((4, 6), np.float32)[:, ::2]
    strided[...] = ins[0]
    big_endian = ins[0].astype(">f4")
    for a in (odd, strided, big_endian):
        got = m.main(a, aligned[1], aligned[2])[0]
        assert m.main.copied_inputs == (0,), m.main.copied_inputs
        assert np.array_equal(got, r0)
    out = [fxpipe.empty((3,)), fxpipe.empty((1, 4))]
    got = m.main(*aligned, out=out)
    assert got[0] is out[0] and got[1] is out[1] and np.array_equal(out[0], r0)
    expect_error(ValueError, "out 0: must be a C-contiguous 64-byte aligned 3xf32, got 3xf64",
                 m.main, *aligned, out=[fxpipe.empty(3, np.float64), out[1]])
    expect_error(ValueError, "returns 2 results, out= has 1", m.main, *aligned, out=[out[0]])


@check
def lifetime(path):
    """Results outlive their module, and are freed with their last view."""
    m = fxpipe.load(path)
    ins = linear_inputs()
    r0, r1 = m.main(*ins)
    want = r0.copy()
    m.close()
    expect_error(fxpipe.Error, "@main: its module was closed", m.main, *ins)
    del m
    gc.collect()
    junk = [np.ones(1000) for _ in range(100)]   # reuse freed memory, if any were
    assert np.array_equal(r0, want) and junk
    view = r0[1:]
    del r0
    gc.collect()
    assert np.array_equal(view, want[1:])


@check
def threads(path):
    ins = linear_inputs()
    results = []
    for n in (1, 2, 0):
        m = fxpipe.load(path, threads=n)
        assert m.threads == (n or m.threads) and m.threads >= 1, (n, m.threads)
        results.append(m.main(*ins)[0])
    assert all(np.array_equal(r, results[0]) for r in results)
    expect_error(ValueError, "threads must be 0", fxpipe.load, path, threads=-1)
    assert fxpipe.load(path, device="cpu").target == "cpu"
    expect_error(ValueError, "device must be None, 'cpu' or 'cuda', got 'tpu'", fxpipe.load, path, device="tpu")


@check
def concurrent(path):
    """Python threads calling one function at once each get their own
    results (the calls run with the GIL released)."""
    import threading
    m = fxpipe.load(path, threads=2)
    rng = np.random.default_rng(1)
    cases = [[fxpipe.empty(s) for s in ((4, 3), (3,), (4,))] for _ in range(8)]
    for ins in cases:
        for x in ins:
            x[...] = rng.standard_normal(x.shape)
    wrong = []

    def work(ins):
        want = linear_reference(*ins)[0]
        for _ in range(300):
            if not np.allclose(m.main(*ins)[0], want, rtol=RTOL, atol=1e-6):
                wrong.append(1)
    ts = [threading.Thread(target=work, args=(ins,)) for ins in cases]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert not wrong, "%d wrong results" % len(wrong)


@check
def memory(path):
    data = open(path, "rb").read()
    ins = linear_inputs()
    for src in (data, bytearray(data), memoryview(data)):
        m = fxpipe.load(src)
        assert m.source == "<memory>"
        close(m.main(*ins)[0], linear_reference(*ins)[0])
    e = expect_error(fxpipe.Error, "", fxpipe.load, data[:100])
    assert str(e), "an empty message"
    expect_error(fxpipe.Error, "nope.vmfb", fxpipe.load, "/nonexistent/nope.vmfb")


@check
def parameters(path):
    """path: a directory with m.vmfb (self-contained), ext.vmfb and
    p.safetensors (vmpack --params), the mlp model of tests/vmrun/params.bats."""
    x = np.full((2, 16), 0.25, np.float32)
    want = fxpipe.load(os.path.join(path, "m.vmfb")).main(x)[0]
    ext, params = os.path.join(path, "ext.vmfb"), os.path.join(path, "p.safetensors")
    got = fxpipe.load(ext, parameters=params).main(x)[0]
    assert np.array_equal(want, got) and want.tobytes() == got.tobytes()
    expect_error(fxpipe.Error, "parameter 'fc1.bias' (@cst0) is outside the module", fxpipe.load, ext)
    expect_error(fxpipe.Error, "parameters /nonexistent.safetensors: cannot open", fxpipe.load, ext,
                 parameters="/nonexistent.safetensors")
    expect_error(ValueError, "parameters need the module as a path", fxpipe.load,
                 open(ext, "rb").read(), parameters=params)


@check
def library_path(path):
    """$FXPIPE_LIB decides, and a wrong one is refused with its name."""
    import subprocess
    env = dict(os.environ, FXPIPE_LIB="/nonexistent/libfxrt.so.0")
    r = subprocess.run([sys.executable, "-c", "import fxpipe; fxpipe.load(%r)" % path], env=env,
                       cwd=os.path.join(ROOT, "python"), capture_output=True, text=True)
    assert r.returncode == 1 and "cannot find libfxrt" in r.stderr and \
        "/nonexistent/libfxrt.so.0 (absent)" in r.stderr, r.stderr


# ---- with torch ----

def torch_linear(path):
    import torch
    m = fxpipe.load(path)
    ins = [torch.from_numpy(x) for x in linear_inputs()]
    return torch, m, ins


@check
def torch_values(path):
    torch, m, ins = torch_linear(path)
    r0, r1 = m.main(*ins)
    assert isinstance(r0, torch.Tensor) and r0.dtype == torch.float32
    want0, want1 = linear_reference(*[x.numpy() for x in ins])
    close(r0.numpy(), want0)
    assert np.array_equal(r1.numpy(), want1)
    # torch's allocator aligns to 64 bytes: contiguous tensors go as they are.
    fresh = [x.clone() for x in ins]
    assert all(x.data_ptr() % 64 == 0 for x in fresh)
    m.main(*fresh)
    assert m.main.copied_inputs == ()
    # Non-contiguous, and requiring grad: copied, same values.
    a_t = ins[0].t().contiguous().t()
    assert not a_t.is_contiguous()
    w = fresh[1].clone().requires_grad_()
    got = m.main(a_t, w, fresh[2])[0]
    assert m.main.copied_inputs == (0,) and torch.equal(got, r0)
    expect_error(fxpipe.Error, "input 0: element type is f64", m.main, ins[0].double(), *ins[1:])
    # Mixed: torch out if any input is torch.
    assert isinstance(m.main(ins[0].numpy(), *ins[1:])[0], torch.Tensor)


def compile_and_compare(mod, ins, exact=False):
    import torch
    f = fxpipe.compile(mod, ins)
    with torch.inference_mode():
        want = mod(*ins)
    got = f(*ins)
    want = want if isinstance(want, tuple) else (want,)
    got = got if isinstance(got, tuple) else (got,)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert isinstance(g, torch.Tensor) and g.dtype == w.dtype and g.shape == w.shape, (g, w)
        if exact or not w.dtype.is_floating_point:
            assert torch.equal(g, w), (g, w)
        else:
            close(g.numpy(), w.numpy())
    return f


@check
def compile_models(path):
    """tests/e2e's MLP and convolution net through the whole pipe."""
    import e2e_models
    for name in ("mlp", "conv_paths"):
        mod, ins = e2e_models.FACTORIES[name]()
        f = compile_and_compare(mod, ins)
        # numpy in, numpy out, same numbers.
        got = f(*[x.numpy() for x in ins])
        assert isinstance(got, np.ndarray)
        close(got, f(*ins).numpy())


@check
def compile_dtypes(path):
    """f64, i64 and bool inputs; size-0 and size-1 dims."""
    import torch

    class Affine(torch.nn.Module):
        def forward(self, x):
            return x * 2.5 + 1

    class IntMix(torch.nn.Module):
        def forward(self, x, y):
            return x * 3 + y

    class Select(torch.nn.Module):
        def forward(self, m, x):
            return torch.where(m, x, -x), torch.logical_not(m)

    g = torch.Generator().manual_seed(0)
    compile_and_compare(Affine(), (torch.randn(3, 4, dtype=torch.float64, generator=g),))
    compile_and_compare(IntMix(), (torch.arange(12).view(3, 4) - 5, torch.arange(12).view(3, 4) * (1 << 40)))
    compile_and_compare(Select(), (torch.rand(3, 4, generator=g) > 0.5, torch.randn(3, 4, generator=g)))
    compile_and_compare(Affine(), (torch.randn(1, 1, 5, dtype=torch.float64, generator=g),))
    f = compile_and_compare(Affine(), (torch.zeros(0, 4, dtype=torch.float64),))
    assert f(np.zeros((0, 4))).shape == (0, 4)
    # Half types: exact (x * 2.5 + 1 of halves rounds the same in both).
    x16 = torch.randn(3, 4, generator=g).half()
    f = compile_and_compare(Affine(), (x16,), exact=True)
    assert np.array_equal(f(x16.numpy()), Affine()(x16).numpy())
    xb = torch.randn(3, 4, generator=g).bfloat16()
    f = compile_and_compare(Affine(), (xb,), exact=True)
    expect_error(TypeError, "result 0 is bf16, which numpy has no type for", f, np.ones((3, 4)))
    expect_error(fxpipe.Error, "input 0: element type is f32, the function expects bf16", f, xb.float())


@check
def complex_values(path):
    """complex64/complex128 arguments and results, as torch tensors and
    numpy arrays (RtDtype c64, c128)."""
    import torch

    class Cx(torch.nn.Module):
        def forward(self, z, w, x):
            return z * w, torch.fft.rfft(x), z.abs()

    ins = (torch.randn(2, 3, dtype=torch.complex64), torch.randn(3, dtype=torch.complex128),
           torch.randn(6))
    f = fxpipe.compile(Cx(), ins)
    want = Cx()(*ins)
    for got in (f(*ins), f(*[t.numpy() for t in ins])):
        for g, w in zip(got, want):
            g = torch.as_tensor(g)
            assert g.dtype == w.dtype and g.shape == w.shape, (g, w)
            assert torch.allclose(g, w, rtol=1e-5, atol=1e-6), (g, w)


@check
def compile_errors(path):
    import torch

    class Fft(torch.nn.Module):
        def forward(self, x):
            return torch.fft.fft(x).exp()   # exp of complex values has no rule

    e = expect_error(fxpipe.CompileError, "'aten.exp' on complex tensors is not supported",
                     fxpipe.compile, Fft(), (torch.randn(4),))
    assert e.tool == "fx-import" and not str(e).startswith("fx-import: fx-import:"), str(e)
    # The compiled function refuses other shapes with the runtime's message.
    f = fxpipe.compile(torch.nn.ReLU(), (torch.randn(2, 3),))
    expect_error(fxpipe.Error, "input 0: dimension 1 is 4, the function expects 3", f, torch.randn(2, 4))


@check
def no_leak(path):
    """Runtime-owned results are freed: 400 calls making 4 MiB each."""
    import torch

    class Twice(torch.nn.Module):
        def forward(self, x):
            return x * 2

    x = torch.randn(1024, 1024)
    f = fxpipe.compile(Twice(), (x,))

    def rss():
        with open("/proc/self/statm") as s:
            return int(s.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    for _ in range(20):
        f(x)
    before = rss()
    for _ in range(400):
        y = f(x)
    grown = rss() - before
    assert torch.equal(y, x * 2)
    assert grown < 200 << 20, "RSS grew by %d MiB over 400 calls" % (grown >> 20)


if __name__ == "__main__":
    CHECKS[sys.argv[1]](sys.argv[2] if len(sys.argv) > 2 else None)
