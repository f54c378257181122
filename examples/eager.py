#!/usr/bin/env python3
"""eager.py FILE.py:FACTORY DIR - PyTorch's side of `make demo`.

Builds the model as fx-export does (the factory seeds itself), runs it
eagerly, writes its inputs as DIR/in<i>.npy and its results as
DIR/out<i>.npy for vmrun, and prints the inputs and results as vmrun
prints a tensor (3xf32=1.1 0.95 -0.81).
"""
import importlib.util
import os
import sys

import numpy as np
import torch


def fmt(a):
    dt = {"float32": "f32", "float64": "f64", "int64": "i64", "int32": "i32", "bool": "i1"}[str(a.dtype)]
    vals = " ".join("%g" % v for v in a.reshape(-1))
    return "%s%s=%s" % ("".join("%dx" % d for d in a.shape), dt, vals if a.ndim <= 1 else "[%s]" % vals)


def main():
    path, factory = sys.argv[1].rsplit(":", 1)
    out = sys.argv[2]
    spec = importlib.util.spec_from_file_location("model", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    module, inputs = getattr(mod, factory)()
    with torch.inference_mode():
        res = module(*inputs)
    res = (res,) if isinstance(res, torch.Tensor) else tuple(res)
    for i, x in enumerate(inputs):
        np.save(os.path.join(out, "in%d.npy" % i), x.numpy())
        print("input:   " + fmt(x.numpy()))
    for i, y in enumerate(res):
        np.save(os.path.join(out, "out%d.npy" % i), y.numpy())
        print("PyTorch: " + fmt(y.numpy()))


if __name__ == "__main__":
    main()
