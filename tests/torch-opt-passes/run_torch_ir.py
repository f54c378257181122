"""run_torch_ir.py IR FACTORY - evaluates torch-level IR at the backend
contract with PyTorch's own kernels (torch.ops.aten) and compares the
result with the model's: prints the largest difference, exits 1 when it
exceeds the tolerance.  A reference for the numerics of torch-opt's
passes, not a backend.  FACTORY is models.py:NAME as for fx-export."""

import importlib.util
import re
import struct
import sys

import torch

DTYPES = {"f32": torch.float32, "f64": torch.float64, "f16": torch.float16,
          "bf16": torch.bfloat16, "si64": torch.int64, "si32": torch.int32,
          "si16": torch.int16, "si8": torch.int8, "ui8": torch.uint8, "i1": torch.bool,
          "i64": torch.int64, "i32": torch.int32}
CODES = {0: torch.uint8, 1: torch.int8, 2: torch.int16, 3: torch.int32, 4: torch.int64,
         5: torch.float16, 6: torch.float32, 7: torch.float64, 11: torch.bool,
         15: torch.bfloat16}


def resources(text):
    out = {}
    m = re.search(r"\{-#(.*)#-\}", text, re.S)
    if m:
        for name, hexs in re.findall(r'\s*"?([\w.\-]+)"?: "0x([0-9A-Fa-f]*)"', m.group(1)):
            out[name] = bytes.fromhex(hexs)[4:]
    return out


def tensor_type(t):
    m = re.match(r"tensor<(.*)x(\w+)>|tensor<(\w+)>", t)
    if m.group(3):
        return [], DTYPES[m.group(3)]
    return [int(d) for d in m.group(1).split("x")], DTYPES[m.group(2)]


def literal(body, res):
    m = re.match(r"dense_resource<([\w.\-]+)> : (tensor<[^>]*>)", body)
    if m:
        shape, dt = tensor_type(m.group(2))
        t = torch.frombuffer(bytearray(res[m.group(1)]), dtype=dt)
        return t.reshape(shape).clone()
    m = re.match(r"dense<(.*)> : (tensor<[^>]*>)", body)
    shape, dt = tensor_type(m.group(2))
    v = m.group(1)
    if v.startswith('"0x'):
        t = torch.frombuffer(bytearray(bytes.fromhex(v[3:-1])), dtype=dt)
        return t.reshape(shape).clone()
    v = v.replace("true", "1").replace("false", "0")
    data = eval(v)
    if not isinstance(data, list):
        return torch.full(shape, data, dtype=dt)
    return torch.tensor(data, dtype=dt).reshape(shape)


def parse_float(s):
    if s.startswith("0x"):
        return struct.unpack("<d", struct.pack("<Q", int(s, 16)))[0]
    return float(s)


def call(name, args):
    if name == "view":   # value semantics: any layout may be viewed
        name = "reshape"
    parts = name.split(".")
    base, ov = parts[0], parts[1] if len(parts) > 1 else "default"
    op = getattr(getattr(torch.ops.aten, base), ov)
    pos, kw = [], {}
    for a, v in zip(op._schema.arguments, args):
        if a.name == "dtype" and isinstance(v, int):
            v = CODES[v]
        if a.kwarg_only:
            kw[a.name] = v
        else:
            pos.append(v)
    return op(*pos, **kw)


def evaluate(text, inputs):
    res = resources(text)
    env = {}
    func = re.search(r"func.func @\w+\((.*?)\)", text)
    args = re.findall(r"(%arg\d+):", func.group(1))
    for a, x in zip(args, inputs):
        env[a] = x

    def get(ref):
        m = re.match(r"(%[\w\-.]+)#(\d+)", ref)
        return env[m.group(1)][int(m.group(2))] if m else env[ref]

    for line in text.split("\n"):
        line = re.sub(r" loc\(.*\)$", "", line.strip())
        m = re.match(r"(%[\w\-.]+)(?::\d+)? = ([\w.]+)(.*)", line)
        if line.startswith("return"):
            refs = re.findall(r"%[\w\-.#]+", line.split(" : ")[0])
            return [get(r) for r in refs]
        if not m:
            continue
        r, op, rest = m.groups()
        rest = rest.strip()
        if op == "torch.constant.int":
            env[r] = int(rest)
        elif op == "torch.constant.float":
            env[r] = parse_float(rest)
        elif op == "torch.constant.bool":
            env[r] = rest == "true"
        elif op == "torch.constant.none":
            env[r] = None
        elif op == "torch.constant.str":
            env[r] = rest.strip('"')
        elif op == "torch.constant.device":
            env[r] = "cpu"
        elif op == "torch.vtensor.literal":
            env[r] = literal(rest[1:rest.rindex(") :")], res)
        elif op == "torch.prim.ListConstruct":
            refs = re.findall(r"%[\w\-.#]+", rest.split(" : ")[0])
            env[r] = [get(x) for x in refs]
        elif op.startswith("torch.aten."):
            refs = re.findall(r"%[\w\-.#]+", rest.split(" : ")[0])
            env[r] = call(op[len("torch.aten."):], [get(x) for x in refs])
        else:
            raise SystemExit("run_torch_ir: no evaluation for '%s'" % op)
    raise SystemExit("run_torch_ir: no return")


def main():
    ir, factory = sys.argv[1], sys.argv[2]
    tol = float(sys.argv[3]) if len(sys.argv) > 3 else 1e-4
    path, name = factory.rsplit(":", 1)
    spec = importlib.util.spec_from_file_location("models", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    module, inputs = getattr(mod, name)()
    with torch.no_grad():
        want = module(*inputs)
        got = evaluate(open(ir).read(), list(inputs))
    want = list(want) if isinstance(want, (tuple, list)) else [want]
    worst = 0.0
    for w, g in zip(want, got):
        if tuple(w.shape) != tuple(g.shape) or w.dtype != g.dtype:
            raise SystemExit("run_torch_ir: %s %s, want %s %s" % (
                tuple(g.shape), g.dtype, tuple(w.shape), w.dtype))
        d = (w.double() - g.double()).abs().max().item()
        worst = max(worst, d / max(1.0, w.double().abs().max().item()))
    print("max relative difference %.3g" % worst)
    sys.exit(0 if worst <= tol and len(want) == len(got) else 1)


if __name__ == "__main__":
    main()
