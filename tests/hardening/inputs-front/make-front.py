#!/usr/bin/env python3
"""Writes the bad-input fixtures of tests/hardening/front.bats.  Run from
this directory: python3 make-front.py

st-*: ../../fx-import/inputs/linear-aten.json (weight [4, 3] and bias [3],
float32) with a safetensors file whose header or layout is edited.
index-*: index-base.json (a torch-level graph, x[0, 0] of a [3, 4] input,
from fx-export --graph torch) with its getitem index replaced; PyTorch
itself refuses most of these at trace time, so they are made by hand.
index-aten-*: index-aten-base.json (an aten-level graph, x[i, i] of a
[3, 4] input: aten.index.Tensor) with more indices in its list.
shape-*: index-base.json with a bad shape for its input."""
import copy
import json
import struct

SRC = "../../fx-import/inputs/linear-aten"
doc = json.load(open(SRC + ".json"))
blob = open(SRC + ".safetensors", "rb").read()
(hlen,) = struct.unpack("<Q", blob[:8])
header = json.loads(blob[8:8 + hlen])
data = blob[8 + hlen:]
W = header["weight"]["data_offsets"]
B = header["bias"]["data_offsets"]
assert W == [0, 48] and B == [48, 60] and len(data) == 60


def st_blob(header_text, data):
    h = header_text.encode()
    h += b" " * (-len(h) % 8)
    return struct.pack("<Q", len(h)) + h + data


def write_st(name, header_text, data, d=doc):
    d = copy.deepcopy(d)
    d["weights"]["file"] = name + ".safetensors"
    with open(name + ".json", "w") as f:
        json.dump(d, f, indent=1)
    with open(name + ".safetensors", "wb") as f:
        f.write(st_blob(header_text, data))


def edited(**tensors):
    h = copy.deepcopy(header)
    for name, fields in tensors.items():
        h.setdefault(name, {}).update(fields)
    return json.dumps(h)


# The bias read from the last 12 bytes of the weight: same size, so only
# the layout tells.
write_st("st-overlap", edited(bias={"data_offsets": [36, 48]}), data[:48])
# The weight stored as [3, 4]: the byte count matches the JSON's [4, 3].
write_st("st-shape", edited(weight={"shape": [3, 4]}), data)
# 8 bytes between the weight and the bias that no tensor owns.
write_st("st-gap", edited(bias={"data_offsets": [56, 68]}),
         data[:48] + b"\0" * 8 + data[48:])
# 8 bytes after the last tensor.
write_st("st-trailing", json.dumps(header), data + b"\0" * 8)
# A tensor the JSON does not declare.
write_st("st-undeclared", edited(extra={"dtype": "F32", "shape": [2],
                                        "data_offsets": [60, 68]}),
         data + b"\0" * 8)
# The bias twice in the header (JSON objects with duplicate keys read
# differently by different parsers).
text = json.dumps(header)
write_st("st-duplicate", text[:-1] + ', "bias": ' + json.dumps(header["bias"]) + "}", data)
# A declared weight whose size in bytes overflows 64 bits.
d = copy.deepcopy(doc)
d["weights"]["tensors"][0]["shape"] = [2 ** 32, 2 ** 32, 2]
write_st("st-huge", json.dumps(header), data, d)

base = json.load(open("index-base.json"))
I = lambda v: {"type": "int", "value": v}  # noqa: E731
NONE = {"type": "none"}
ELL = {"type": "ellipsis"}
ALL = {"type": "slice", "start": NONE, "stop": NONE, "step": NONE}


def write_index(name, items, value=None):
    d = copy.deepcopy(base)
    d["nodes"][1]["args"][1] = {"type": "tuple", "items": items}
    if value is not None:
        d["nodes"][1]["value"] = value
    with open(name + ".json", "w") as f:
        json.dump(d, f, indent=1)


def tensor(shape):
    strides, s = [], 1
    for n in reversed(shape):
        strides.insert(0, s)
        s *= n
    return {"type": "tensor", "shape": shape, "dtype": "float32", "strides": strides}


write_index("index-three-ints", [I(0), I(0), I(0)])            # x[0, 0, 0]
write_index("index-none", [ALL, ALL, ALL, NONE])                # x[:, :, :, None]
write_index("index-ellipsis", [ELL, I(0), I(0), I(0)])         # x[..., 0, 0, 0]
write_index("index-17-ints", [I(0)] * 17)
write_index("index-17-none", [NONE] * 17)                       # rank 19
write_index("index-two-ellipses", [ELL, I(0), ELL])
# x[None, 0] is [1, 4], recorded as [4]
write_index("index-value", [NONE, I(0)], tensor([4]))

aten = json.load(open("index-aten-base.json"))
node = next(n for n in aten["nodes"] if n["target"] == "aten.index.Tensor")
node["args"][1]["items"] *= 2                                    # x[i, i, i, i]
with open("index-aten-four.json", "w") as f:
    json.dump(aten, f, indent=1)


def write_shape(name, shape):
    d = copy.deepcopy(base)
    d["inputs"][0].update(tensor(shape))
    d["inputs"][0].pop("type")
    d["nodes"][0]["value"] = tensor(shape)
    with open(name + ".json", "w") as f:
        json.dump(d, f, indent=1)


write_shape("shape-rank17", [1] * 17)
write_shape("shape-negative", [3, -4])
write_shape("shape-overflow", [2 ** 31, 2 ** 31, 2 ** 31])     # 2^93 bytes
