#!/usr/bin/env python3
"""Reference interpreter for fxpipe-fx-json: runs the graph with PyTorch.

    run_fx_json.py FILE.json --factory FILE.py:FACTORY [--rtol R] [--atol A]

Reads only the JSON and its safetensors file (not fx_export's code), runs
the graph on the factory's example inputs, and compares the result with
running the factory's module directly.  This checks that the exported file
says everything needed to compute the model: every argument, weight and
module config.  Prints the largest difference; exit 1 on a mismatch.
"""

import argparse
import importlib
import importlib.util
import inspect
import json
import math
import os
import struct
import sys

import numpy as np
import torch

NUMPY_DTYPES = {"F64": np.float64, "F32": np.float32, "F16": np.float16,
                "BF16": np.int16, "I64": np.int64, "I32": np.int32, "I16": np.int16,
                "I8": np.int8, "U8": np.uint8, "BOOL": np.bool_}


def load_safetensors(path):
    with open(path, "rb") as f:
        (length,) = struct.unpack("<Q", f.read(8))
        header = json.loads(f.read(length))
        data = f.read()
    header.pop("__metadata__", None)
    tensors = {}
    for name, entry in header.items():
        begin, end = entry["data_offsets"]
        array = np.frombuffer(data[begin:end], dtype=NUMPY_DTYPES[entry["dtype"]])
        tensor = torch.from_numpy(array.copy()).reshape(entry["shape"])
        if entry["dtype"] == "BF16":
            tensor = tensor.view(torch.bfloat16)
        tensors[name] = tensor
    return tensors


def decode(arg, env):
    """Python value of a tagged argument."""
    kind = arg["type"]
    if kind in ("tensor", "node"):
        return env[arg["node"]]
    if kind == "float":
        return float(arg["value"])  # float("inf"), float("nan") too
    if kind in ("int", "bool", "str"):
        return arg["value"]
    if kind == "none":
        return None
    if kind in ("list", "tuple"):
        items = [decode(a, env) for a in arg["items"]]
        return items if kind == "list" else tuple(items)
    if kind == "dict":
        return {decode(i["key"], env): decode(i["value"], env) for i in arg["items"]}
    if kind in ("dtype", "layout", "memory_format"):
        return getattr(torch, arg["value"])
    if kind == "device":
        return torch.device(arg["value"])
    if kind == "slice":
        return slice(decode(arg["start"], env), decode(arg["stop"], env), decode(arg["step"], env))
    if kind == "ellipsis":
        return Ellipsis
    if kind == "complex":
        return complex(float(arg["real"]), float(arg["imag"]))
    raise ValueError(f"unknown argument type {kind}")


def resolve_function(target):
    """The Python callable a call_function target names."""
    if target.startswith("aten."):
        _, name, overload = target.split(".")
        return getattr(getattr(torch.ops.aten, name), overload)
    module_name, _, attr = target.rpartition(".")
    return getattr(importlib.import_module(module_name), attr)


def build_module(info, weights):
    """Instantiate a call_module's layer from its class, config and weights."""
    module_name, _, class_name = info["class"].rpartition(".")
    cls = getattr(importlib.import_module(module_name), class_name)
    config = {k: decode(v, {}) for k, v in info["config"].items()}
    params = inspect.signature(cls.__init__).parameters
    kwargs = {k: v for k, v in config.items() if k in params}
    if "bias" in params:
        kwargs["bias"] = "bias" in info["weights"]
    module = cls(**kwargs)
    module.load_state_dict({local: weights[full] for local, full in info["weights"].items()})
    return module.train(config.get("training", False))


def run_graph(doc, weights, inputs):
    env = {}
    placeholders = iter(inputs)
    for node in doc["nodes"]:
        args = [decode(a, env) for a in node["args"]]
        kwargs = {k: decode(v, env) for k, v in node["kwargs"].items()}
        op = node["op"]
        if op == "placeholder":
            env[node["name"]] = next(placeholders)
        elif op == "get_attr":
            env[node["name"]] = weights[node["target"]]
        elif op == "call_function":
            env[node["name"]] = resolve_function(node["target"])(*args, **kwargs)
        elif op == "call_method":
            env[node["name"]] = getattr(args[0], node["target"])(*args[1:], **kwargs)
        elif op == "call_module":
            env[node["name"]] = build_module(node["module"], weights)(*args, **kwargs)
        elif op == "output":
            return args[0]
    raise ValueError("graph has no output node")


def load_factory(spec):
    path, _, name = spec.rpartition(":")
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    module_spec = importlib.util.spec_from_file_location("_models", path)
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)
    return getattr(module, name)


def max_difference(got, want):
    if isinstance(want, torch.Tensor):
        if got.shape != want.shape or got.dtype != want.dtype:
            return math.inf
        return (got.double() - want.double()).abs().max().item() if want.numel() else 0.0
    if isinstance(want, dict) and isinstance(got, dict) and got.keys() == want.keys():
        return max((max_difference(got[k], want[k]) for k in want), default=0.0)
    if isinstance(want, (tuple, list)) and isinstance(got, (tuple, list)) \
            and len(got) == len(want):
        return max((max_difference(g, w) for g, w in zip(got, want)), default=0.0)
    return 0.0 if type(got) == type(want) and got == want else math.inf


def magnitude(value):
    """Largest absolute value in a (nested) output."""
    if isinstance(value, torch.Tensor):
        return value.double().abs().max().item() if value.numel() else 0.0
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, (tuple, list)):
        return max((magnitude(v) for v in value), default=0.0)
    return 0.0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("json")
    parser.add_argument("--factory", required=True)
    parser.add_argument("--atol", type=float, default=1e-4)
    opts = parser.parse_args()

    with open(opts.json) as f:
        doc = json.load(f)
    weights = load_safetensors(os.path.join(os.path.dirname(opts.json), doc["weights"]["file"]))
    module, inputs = load_factory(opts.factory)()
    with torch.no_grad():
        want = module.eval()(*inputs)
        got = run_graph(doc, weights, [x.clone() for x in inputs])
    diff = max_difference(got, want)
    scale = magnitude(want)
    print(f"max abs difference {diff:.3g} (output magnitude {scale:.3g})")
    return 0 if diff <= opts.atol * max(1.0, scale) else 1


if __name__ == "__main__":
    sys.exit(main())
