#!/usr/bin/env python3
"""Check an fxpipe-fx-json file and its safetensors weights.

    check_fx_json.py FILE.json [--target T]... [--no-target-containing S]...
                     [--graph aten|torch] [--no-schema]

Checks the JSON Schema (formats/fx-json.schema.json; needs the `jsonschema`
module, skipped with a note if it is missing or with --no-schema), the
rules the schema cannot express (unique names, references to earlier nodes,
inputs/outputs agree with the nodes, every weight present), and the weights
file (header matches the JSON, offsets contiguous, file size exact).
--target T requires a node with target T; --no-target-containing S forbids
targets containing S.  Prints one "ok: ..." line, or the problems, exit 1.
Needs no torch: runs on any Python 3.
"""

import argparse
import json
import os
import re
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMA = os.path.join(HERE, "..", "..", "formats", "fx-json.schema.json")

ITEMSIZE = {"F64": 8, "F32": 4, "F16": 2, "BF16": 2, "I64": 8, "I32": 4,
            "I16": 2, "I8": 1, "U8": 1, "BOOL": 1}
ST_DTYPE = {"float64": "F64", "float32": "F32", "float16": "F16", "bfloat16": "BF16",
            "int64": "I64", "int32": "I32", "int16": "I16", "int8": "I8",
            "uint8": "U8", "bool": "BOOL"}


def check_schema(doc):
    try:
        import jsonschema
    except ImportError:
        print("note: python module jsonschema not available; schema not checked",
              file=sys.stderr)
        return []
    with open(SCHEMA) as f:
        schema = json.load(f)
    validator = jsonschema.Draft202012Validator(schema)
    return [f"schema: {'/'.join(map(str, e.absolute_path))}: {e.message[:300]}"
            for e in validator.iter_errors(doc)]


def node_refs(arg):
    """Names of the nodes an encoded argument refers to."""
    if not isinstance(arg, dict):
        return
    if "node" in arg:
        yield arg["type"], arg["node"]
    for key in ("items", "start", "stop", "step", "key", "value"):
        sub = arg.get(key)
        for item in sub if isinstance(sub, list) else [sub]:
            yield from node_refs(item)


def check_graph(doc):
    problems = []
    seen = {}
    nodes = doc["nodes"]
    for node in nodes:
        if node["name"] in seen:
            problems.append(f"duplicate node name {node['name']}")
        args = node["args"] + list(node["kwargs"].values())
        for kind, ref in (r for a in args for r in node_refs(a)):
            if ref not in seen:
                problems.append(f"{node['name']}: refers to {ref}, not an earlier node")
            elif kind == "tensor" and seen[ref].get("value", {}).get("type") != "tensor":
                problems.append(f"{node['name']}: tensor reference to non-tensor {ref}")
        seen[node["name"]] = node
    outputs = [n for n in nodes if n["op"] == "output"]
    if len(outputs) != 1 or nodes[-1]["op"] != "output":
        problems.append("there must be exactly one output node, the last")
    elif outputs[0]["args"][0] != doc["outputs"]:
        problems.append("top-level outputs differ from the output node's")
    placeholders = [n["name"] for n in nodes if n["op"] == "placeholder"]
    if placeholders != [i["name"] for i in doc["inputs"]]:
        problems.append("inputs do not list the placeholders in order")
    for node in nodes:
        if node["op"] == "call_function" and node["target"].startswith("aten.") \
                and node["target"] not in doc["operators"]:
            problems.append(f"no operators entry for {node['target']}")
    return problems


def check_symbols(doc):
    """Symbolic sizes (fx-export --dynamic) name only declared symbols."""
    declared = {s["name"] for s in doc.get("symbols", [])}
    problems = []

    def sizes(value):
        if isinstance(value, dict):
            if value.get("type") == "tensor" and "shape" in value:
                yield from value["shape"] + value.get("strides", [])
            if "expr" in value:
                yield value["expr"]
            for item in value.get("items", []):
                yield from sizes(item)

    for node in doc["nodes"]:
        for size in sizes(node.get("value")):
            if isinstance(size, str):
                unknown = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", size)) - declared
                if unknown:
                    problems.append(f"{node['name']}: size {size!r} uses undeclared {sorted(unknown)}")
    return problems


def check_weights(doc, json_path):
    problems = []
    weights = {t["name"]: t for t in doc["weights"]["tensors"]}
    used = {n["target"] for n in doc["nodes"] if n["op"] == "get_attr"}
    for node in doc["nodes"]:
        used.update(node.get("module", {}).get("weights", {}).values())
    if used != set(weights):
        problems.append(f"weights used {sorted(used ^ set(weights))[:5]} vs listed differ")

    path = os.path.join(os.path.dirname(json_path), doc["weights"]["file"])
    if not os.path.isfile(path):
        return problems + [f"weights file {path} missing"]
    with open(path, "rb") as f:
        (length,) = struct.unpack("<Q", f.read(8))
        header = json.loads(f.read(length))
    header.pop("__metadata__", None)
    if (8 + length) % 8:
        problems.append("data section not 8-byte aligned")
    if set(header) != set(weights):
        problems.append("safetensors header names differ from the JSON's")
    end = 0
    for name, entry in sorted(header.items(), key=lambda kv: kv[1]["data_offsets"]):
        begin, stop = entry["data_offsets"]
        count = 1
        for d in entry["shape"]:
            count *= d
        if begin != end or stop - begin != count * ITEMSIZE[entry["dtype"]]:
            problems.append(f"{name}: bad data_offsets {entry['data_offsets']}")
        end = stop
        listed = weights.get(name)
        if listed and (listed["shape"] != entry["shape"]
                       or ST_DTYPE.get(listed["dtype"]) != entry["dtype"]):
            problems.append(f"{name}: JSON and safetensors disagree on shape/dtype")
    size = os.path.getsize(path)
    if size != 8 + length + end:
        problems.append(f"weights file is {size} bytes, header says {8 + length + end}")
    return problems


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("json")
    parser.add_argument("--target", action="append", default=[])
    parser.add_argument("--no-target-containing", action="append", default=[])
    parser.add_argument("--graph", choices=("aten", "torch"))
    parser.add_argument("--no-schema", action="store_true")
    opts = parser.parse_args()

    with open(opts.json) as f:
        doc = json.load(f)
    problems = [] if opts.no_schema else check_schema(doc)
    if not problems:
        problems += check_graph(doc) + check_symbols(doc) + check_weights(doc, opts.json)
    targets = {n["target"] for n in doc["nodes"]}
    problems += [f"no node with target {t}" for t in opts.target if t not in targets]
    problems += [f"forbidden target {t}" for s in opts.no_target_containing
                 for t in targets if s in t]
    if opts.graph and doc["graph"] != opts.graph:
        problems.append(f"graph is {doc['graph']}, expected {opts.graph}")
    if problems:
        print("\n".join(problems), file=sys.stderr)
        return 1
    print(f"ok: {len(doc['nodes'])} nodes, {len(doc['weights']['tensors'])} weights")
    return 0


if __name__ == "__main__":
    sys.exit(main())
