#!/usr/bin/env python3
"""f16_models.py - float16 models for tests/fx-export/f16.bats.

    f16_models.py export DIR     export each float16 model NAME (in one
                                 process: each torch import costs seconds) to
                                 DIR/NAME/m.json (aten) and DIR/NAME/t.json
                                 (torch level) and check them; write its input
                                 DIR/NAME/x.npy and reference DIR/NAME/ref.npy
    f16_models.py compare DIR    compare DIR/y.npy (what vmrun wrote) with
                                 DIR/ref.npy (needs numpy, not torch)

Each factory returns (module, example_inputs) in float16 (fx-export
FILE.py:NAME works too).  PyTorch 1.13 cannot run these models on the CPU
(no float16 convolution, addmm, batch norm or layer norm kernels there):
its make_fx traces them with fake tensors.

export checks each file as check_fx_json.py does (schema, graph, weights
file), and that each graph is the one the same model gives in float32
(the float16 weights made float32): the same nodes, targets, arguments,
shapes, strides and source locations, every float32 of it float16 here;
and that the weights file holds the model's float16 weights bit for bit.

The reference is the float16 model's own arithmetic done exactly: its
weights and input (float16 values) made float64, the model run in float64.
compare accepts |y - ref| <= RTOL * |ref| + ATOL * max|ref| elementwise,
RTOL = ATOL = 4e-3: eight units of float16 rounding (2^-11 = 4.9e-4) of the
output's scale, for a few layers computed in float16 (PyTorch 2's eager
float16 on the CPU lands within 1e-3 of the scale on these).  The reference
must not be near zero: max|ref| >= 0.05, and half of its elements at least
1% of that.
"""

import copy
import json
import os
import sys

import numpy as np

RTOL = ATOL = 4e-3
MIN_SCALE = 0.05

HERE = os.path.dirname(os.path.abspath(__file__))


# ------------------------------------------------------------------ models
# (torch is imported here, not at the top: compare runs without it)

def _nn():
    import torch
    return torch, torch.nn


def conv():
    """The model of issue 25: a convolution, ReLU, flatten, linear."""
    torch, nn = _nn()
    torch.manual_seed(0)
    m = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Flatten(),
                      nn.Linear(8 * 8 * 8, 10))
    return m.half().eval(), (torch.randn(2, 3, 8, 8).half(),)


def mlp():
    torch, nn = _nn()
    torch.manual_seed(0)
    m = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 128), nn.Tanh(),
                      nn.Linear(128, 10))
    return m.half().eval(), (torch.randn(4, 64).half(),)


def batch_norm():
    """Batch norm (running statistics not at their defaults), max and
    adaptive average pooling."""
    torch, nn = _nn()
    torch.manual_seed(0)
    m = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(),
                      nn.MaxPool2d(2), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 10))
    with torch.no_grad():
        bn = m[1]
        bn.running_mean.uniform_(-0.5, 0.5)
        bn.running_var.uniform_(0.5, 2.0)
        bn.weight.uniform_(0.5, 1.5)
        bn.bias.uniform_(-0.5, 0.5)
    return m.half().eval(), (torch.randn(2, 3, 8, 8).half(),)


def layer_norm():
    torch, nn = _nn()
    torch.manual_seed(0)
    m = nn.Sequential(nn.Linear(16, 32), nn.LayerNorm(32), nn.GELU(), nn.Linear(32, 8))
    with torch.no_grad():
        m[1].weight.uniform_(0.5, 1.5)
        m[1].bias.uniform_(-0.5, 0.5)
    return m.half().eval(), (torch.randn(3, 16).half(),)


def conv_median():
    """A convolution, then median: 1.13 has neither a float16 CPU kernel
    nor a meta kernel for median, so this float16 model cannot be traced."""
    torch, nn = _nn()

    class ConvMedian(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(3, 4, 3)

        def forward(self, x):
            return self.conv(x).median(dim=1).values

    torch.manual_seed(0)
    return ConvMedian().half().eval(), (torch.randn(1, 3, 6, 6).half(),)


FACTORIES = {f.__name__: f for f in (conv, mlp, batch_norm, layer_norm)}


# ------------------------------------------------------------------ export

def _float16_of(value):
    """A float32 export's JSON as the float16 export should read."""
    if isinstance(value, dict):
        return {k: _float16_of(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_float16_of(v) for v in value]
    return "float16" if value == "float32" else value


def _comparable(doc):
    doc = copy.deepcopy(doc)
    doc["weights"].pop("file")
    return doc


def _differences(want, got, path=""):
    if type(want) is not type(got):
        return [f"{path}: {got!r}, want {want!r}"]
    if isinstance(want, dict):
        return [d for k in sorted(set(want) | set(got))
                for d in _differences(want.get(k), got.get(k), f"{path}.{k}")]
    if isinstance(want, list):
        if len(want) != len(got):
            return [f"{path}: {len(got)} items, want {len(want)}"]
        return [d for i, (w, g) in enumerate(zip(want, got))
                for d in _differences(w, g, f"{path}[{i}]")]
    return [] if want == got else [f"{path}: {got!r}, want {want!r}"]


def export(name, out):
    import torch
    sys.path.insert(0, os.path.join(HERE, "..", "..", "tools", "fx-export"))
    sys.path.insert(0, HERE)
    import fx_export
    from run_fx_json import load_safetensors

    module, inputs = FACTORIES[name]()
    wide = copy.deepcopy(module).float()
    problems = []
    for level, stem in (("aten", "m"), ("torch", "t")):
        docs = []
        for m, x, suffix in ((module, inputs, ""), (wide, tuple(a.float() for a in inputs), "32")):
            path = os.path.join(out, f"{stem}{suffix}.json")
            fx_export.export(m, x, path, graph=level)
            with open(path) as f:
                docs.append(json.load(f))
        doc16, doc32 = docs
        problems += [f"{level}: {p}" for p in _check_fx_json(doc16, os.path.join(out, stem + ".json"))]
        diff = _differences(_float16_of(_comparable(doc32)), _comparable(doc16))
        problems += [f"{level} graph differs from the float32 one: {d}" for d in diff[:10]]
        stored = load_safetensors(os.path.join(out, f"{stem}.safetensors"))
        state = dict(module.named_parameters(), **dict(module.named_buffers()))
        for entry in doc16["weights"]["tensors"]:
            tensor = state[entry["name"]].detach()
            if tensor.dtype == torch.float16 and not (
                    stored[entry["name"]].dtype == torch.float16 and
                    torch.equal(stored[entry["name"]].view(torch.int16), tensor.view(torch.int16))):
                problems.append(f"{level}: weight {entry['name']} is not the model's float16 one")
        floats = {v["dtype"] for v in _tensor_values(doc16)} - {"int64"}
        if floats != {"float16"}:
            problems.append(f"{level}: tensors of dtypes {sorted(floats)}, want float16 only")
        print(f"{name} {level}: {len(doc16['nodes'])} nodes, dtypes "
              f"{sorted({v['dtype'] for v in _tensor_values(doc16)})}, "
              f"{len(doc16['weights']['tensors'])} weights")
    with torch.no_grad():
        ref = copy.deepcopy(module).double()(*(a.double() for a in inputs))
    np.save(os.path.join(out, "x.npy"), inputs[0].numpy())
    np.save(os.path.join(out, "ref.npy"), ref.numpy())
    for p in problems:
        print(f"error: {name}: {p}")
    return 1 if problems else 0


def _check_fx_json(doc, path):
    """check_fx_json.py's checks, in this process."""
    import check_fx_json as check
    problems = check.check_schema(doc)
    return problems or check.check_graph(doc) + check.check_symbols(doc) + \
        check.check_weights(doc, path)


def _tensor_values(doc):
    """The tensor descriptions of the document: inputs, weights, node values."""
    def walk(value):
        if isinstance(value, dict):
            if value.get("type") == "tensor" and "dtype" in value:
                yield value
            for v in value.get("items", []):
                yield from walk(v)
    for entry in doc["inputs"] + doc["weights"]["tensors"]:
        yield entry
    for node in doc["nodes"]:
        yield from walk(node.get("value", {}))


# ----------------------------------------------------------------- compare

def compare(out):
    got = np.load(os.path.join(out, "y.npy"))
    ref = np.load(os.path.join(out, "ref.npy"))
    if got.dtype != np.float16 or got.shape != ref.shape:
        print(f"error: result {got.dtype} {got.shape}, want float16 {ref.shape}")
        return 1
    scale = float(np.abs(ref).max())
    if scale < MIN_SCALE or np.mean(np.abs(ref) >= 0.01 * scale) < 0.5:
        print(f"error: the reference is near zero (max |ref| {scale:.3g}); it proves nothing")
        return 1
    err = np.abs(got.astype(np.float64) - ref)
    bad = ~(err <= RTOL * np.abs(ref) + ATOL * scale)  # NaN is bad too
    print(f"max |ref| {scale:.4g}, max error {np.nanmax(err):.3g} "
          f"({np.nanmax(err) / scale:.2e} of max |ref|; tolerance {RTOL} |ref| + {ATOL} max |ref|)")
    if bad.any():
        i = np.unravel_index(np.argmax(bad), bad.shape)
        print(f"error: {int(bad.sum())} of {bad.size} elements off, e.g. at {tuple(map(int, i))}: "
              f"{float(got[i])} for {float(ref[i])}")
        return 1
    return 0


def export_all(out):
    status = 0
    for name in FACTORIES:
        os.makedirs(os.path.join(out, name), exist_ok=True)
        status |= export(name, os.path.join(out, name))
    return status


def main(argv):
    if len(argv) == 2 and argv[0] == "export":
        return export_all(argv[1])
    if len(argv) == 2 and argv[0] == "compare":
        return compare(argv[1])
    print(__doc__.strip().split("\n\n")[0], file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
