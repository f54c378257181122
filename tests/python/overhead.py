#!/usr/bin/env python3
"""overhead.py - the Python path's cost per call over the runtime's own.

    bin/codegen --target=cpu < examples/linear-linalg.mlir | bin/vmpack -o m.vmfb
    /usr/bin/python3 tests/python/overhead.py m.vmfb
    bin/vmrun m.vmfb --input=4x3xf32=1 --input=3xf32=1 --input=4xf32=1 --benchmark=100000 --threads=1

Times calls of the linear module's @main (three inputs, two results) on
one thread, whole and in parts; compare with vmrun's median.  Not a test:
the numbers depend on the machine and its load.
"""
import sys, timeit, ctypes, numpy as np, torch
sys.path.insert(0, __import__("os").path.join(__import__("os").path.dirname(__file__), "..", "..", "python"))
import fxpipe
from fxpipe import _tensors as T
from fxpipe._module import lib
m = fxpipe.load(sys.argv[1], threads=1)
f = m.main
def mk(shape): a = fxpipe.empty(shape); a[...] = 1; return a
a, b, c = mk((4,3)), mk(3), mk(4)
ta, tb, tc = torch.ones(4,3), torch.ones(3), torch.ones(4)
outs = [mk(3), mk((1,4))]
un = [np.ones((4,3),np.float32), np.ones(3,np.float32), np.ones(4,np.float32)]
L = lib(); ef = ctypes.byref(f._err)
def setbare():
    for i,x in enumerate((a,b,c)): f._in[i].data = x.ctypes.data
    for i,x in enumerate(outs): f._out[i].data = x.ctypes.data
buf = [f._owners[0].from_address(L.rt_alloc(12)) for _ in range(200000)]
it = iter(buf)
def stat(stmt, n=20000, r=15, setup="pass"):
    ts = sorted(timeit.repeat(stmt, setup, globals=globals(), number=n, repeat=r))
    return ts[0] / n * 1e6, ts[r//2] / n * 1e6
rows = [("numpy, aligned inputs (no copy), runtime-owned results", "f(a,b,c)"),
        ("numpy, aligned inputs, out= (caller-owned results)", "f(a,b,c,out=outs)"),
        ("numpy, unaligned inputs (3 copies)", "f(*un)"),
        ("torch tensors (no copy)", "f(ta,tb,tc)"),
        ("  part: bare ctypes rt_invoke, caller-owned", "L.rt_invoke(f._h, f._in, 3, f._out, 2, ef)"),
        ("  part: convert 3 aligned numpy inputs", "T.convert((a,b,c))"),
        ("  part: convert 3 torch inputs", "T.convert((ta,tb,tc))"),
        ("  part: wrap one result as numpy", "T.wrap_result(next(it), (3,), 3, False)"),
        ("  part: wrap one result as torch", "T.wrap_result(next(it), (3,), 3, True)")]
for name, stmt in rows:
    if "bare" in name: setbare()
    n = 10000 if "wrap" in name else 20000
    r = 5 if "wrap" in name else 15
    print("%-58s min %6.2f us  median %6.2f us" % ((name,) + stat(stmt, n, r)))
