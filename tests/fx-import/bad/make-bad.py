#!/usr/bin/env python3
"""Writes the bad-input fixtures of tests/fx-import/errors.bats, each a
small edit of inputs/linear-aten.json (and its weights).  Run from this
directory: python3 make-bad.py"""
import json
import struct

SRC = "../inputs/linear-aten"
doc = json.load(open(SRC + ".json"))
blob = open(SRC + ".safetensors", "rb").read()


def write(name, d, weights=None, st=None):
    d = json.loads(json.dumps(d))
    if weights is not None:
        d["weights"]["file"] = weights
    with open(name + ".json", "w") as f:
        json.dump(d, f, indent=1)
    if st is not None:
        with open(weights, "wb") as f:
            f.write(st)


def node(d, name):
    return next(n for n in d["nodes"] if n["name"] == name)


def header_blob(header, data):
    h = json.dumps(header).encode()
    h += b" " * (-len(h) % 8)
    return struct.pack("<Q", len(h)) + h + data


(hlen,) = struct.unpack("<Q", blob[:8])
header = json.loads(blob[8:8 + hlen])
data = blob[8 + hlen:]

# Malformed JSON: cut in the middle of line 3.
text = json.dumps(doc, indent=1)
open("malformed.json", "w").write(text[:text.index('"graph"') + 5])
# Not an fxpipe document, and a format version from the future.
write("not-fx", dict(doc, format="something-else"))
write("version", dict(doc, version=2))
# nodes[3] (mm) uses a node that does not exist.
d = json.loads(json.dumps(doc))
node(d, "mm")["args"][1]["node"] = "foo"
write("undefined-node", d, "linear.safetensors", blob)
# A required argument missing: unsqueeze without dim.
d = json.loads(json.dumps(doc))
node(d, "unsqueeze")["args"].pop()
write("missing-arg", d, "linear.safetensors", blob)
# The weight's declared shape needs 48 bytes; make it need 64.
d = json.loads(json.dumps(doc))
d["weights"]["tensors"][0]["shape"] = [4, 4]
node(d, "_param_constant0")["value"]["shape"] = [4, 4]
write("weight-size", d, "linear.safetensors", blob)
# The safetensors file is missing, truncated, has a bad header, or
# data_offsets outside the file.
write("missing-weights", doc, "no-such-file.safetensors")
write("truncated", doc, "truncated.safetensors", blob[:-20])
write("short-header", doc, "short-header.safetensors", blob[:4])
write("header-length", doc, "header-length.safetensors",
      struct.pack("<Q", 1 << 40) + blob[8:])
write("bad-header", doc, "bad-header.safetensors",
      struct.pack("<Q", 8) + b'{"a": [ ' + data)
h = json.loads(json.dumps(header))
h["bias"]["data_offsets"] = [48, 4800]
write("offsets", doc, "offsets.safetensors", header_blob(h, data))
# An unsupported dtype in a node's value.
d = json.loads(json.dumps(doc))
node(d, "mm")["value"]["dtype"] = "complex64"
write("dtype", d, "linear.safetensors", blob)
# A node field of the wrong JSON type.
d = json.loads(json.dumps(doc))
node(d, "mm")["args"] = {"x": 1}
write("args-type", d, "linear.safetensors", blob)

# Not bad: an op PyTorch has and fxpipe's op table lacks imports as a
# generic torch.operator (written to ../inputs).
d = json.loads(json.dumps(doc))
node(d, "mm")["target"] = "aten.my_mm.default"
op = d["operators"].pop("aten.mm.default")
op["schema"] = op["schema"].replace("aten::mm", "aten::my_mm")
d["operators"]["aten.my_mm.default"] = op
write("../inputs/unknown-op", d, "linear-aten.safetensors")
# Results a module cannot carry: a None beside the tensor (dropping it
# would shift the results after it), and a str.
d = json.loads(json.dumps(doc))
d["outputs"] = {"type": "tuple", "items": [{"type": "none"}, {"type": "tensor", "node": "add"}]}
node(d, "output")["args"] = [d["outputs"]]
write("output-none", d, "linear.safetensors", blob)
d = json.loads(json.dumps(doc))
d["outputs"] = {"type": "list", "items": [{"type": "tensor", "node": "add"}, {"type": "str", "value": "mean"}]}
node(d, "output")["args"] = [d["outputs"]]
write("output-str", d, "linear.safetensors", blob)
