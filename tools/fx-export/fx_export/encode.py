"""Encode a captured FX graph as an fxpipe-fx-json document (a dict).

formats/fx-json.md is the specification of what is written here.  Every
argument, value and config entry is a tagged object {"type": ..., ...}, so
a C reader dispatches on one string and never guesses at JSON types.
"""

import builtins
import math
import operator
import re

import torch
import torch.fx

from . import safetensors, sourceloc
from .capture import SymbolicScalar, TensorSpec, module_tensors
from .common import ExportError

FORMAT = "fxpipe-fx-json"
VERSION = 1

_INT64_MIN, _INT64_MAX = -(2 ** 63), 2 ** 63 - 1


# ------------------------------------------------------------ arguments

def float_value(x):
    """A JSON number, or "inf" / "-inf" / "nan" (JSON has none of them)."""
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


def dtype_name(dtype):
    return str(dtype).replace("torch.", "")


def _int(value):
    if not _INT64_MIN <= value <= _INT64_MAX:
        raise ExportError(f"integer {value} does not fit in 64 bits")
    return {"type": "int", "value": value}


def _torch_enum(value):
    """dtype, device, layout and memory_format arguments, else None."""
    if isinstance(value, torch.dtype):
        return {"type": "dtype", "value": dtype_name(value)}
    if isinstance(value, torch.device):
        return {"type": "device", "value": str(value)}
    if isinstance(value, torch.layout):
        return {"type": "layout", "value": str(value).replace("torch.", "")}
    if isinstance(value, torch.memory_format):
        return {"type": "memory_format", "value": str(value).replace("torch.", "")}
    return None


def encode_arg(value, node_values=None):
    """Tagged JSON for an FX argument.  `node_values` maps node names to
    their result specs, to tell tensor references from other node references."""
    if isinstance(value, torch.fx.Node):
        spec = (node_values or {}).get(value.name)
        tag = "tensor" if isinstance(spec, TensorSpec) else "node"
        return {"type": tag, "node": value.name}
    if value is None:
        return {"type": "none"}
    if isinstance(value, bool):
        return {"type": "bool", "value": value}
    if isinstance(value, int):
        return _int(value)
    if isinstance(value, float):
        return {"type": "float", "value": float_value(value)}
    if isinstance(value, complex):
        return {"type": "complex", "real": float_value(value.real), "imag": float_value(value.imag)}
    if isinstance(value, str):
        return {"type": "str", "value": value}
    enum = _torch_enum(value)
    if enum is not None:
        return enum
    if isinstance(value, (tuple, list)):  # also torch.Size, FX immutable_list
        tag = "list" if isinstance(value, list) else "tuple"
        return {"type": tag, "items": [encode_arg(v, node_values) for v in value]}
    if isinstance(value, dict):
        return {"type": "dict", "items": [
            {"key": encode_arg(k, node_values), "value": encode_arg(v, node_values)}
            for k, v in value.items()]}
    if isinstance(value, slice):
        return {"type": "slice", "start": encode_arg(value.start, node_values),
                "stop": encode_arg(value.stop, node_values),
                "step": encode_arg(value.step, node_values)}
    if value is Ellipsis:
        return {"type": "ellipsis"}
    if isinstance(value, torch.Tensor):
        raise ExportError("a tensor literal appears as an argument; "
                          "it should have been lifted to a get_attr weight")
    raise ExportError(f"unsupported argument of type {type(value).__name__}: {value!r}")


# --------------------------------------------------------------- values

def encode_value(spec):
    """Tagged JSON describing a node's result (see capture.spec_of)."""
    if isinstance(spec, TensorSpec):
        return {"type": "tensor", "shape": spec.shape,
                "dtype": dtype_name(spec.dtype), "strides": spec.strides}
    if isinstance(spec, SymbolicScalar):
        return {"type": spec.kind} if spec.expr is None else {"type": spec.kind, "expr": spec.expr}
    if isinstance(spec, (tuple, list)):
        tag = "list" if isinstance(spec, list) else "tuple"
        return {"type": tag, "items": [encode_value(s) for s in spec]}
    try:
        return encode_arg(spec)
    except ExportError:
        return {"type": "unknown", "python_type": type(spec).__name__}


# -------------------------------------------------------------- targets

_NAMESPACES = (torch, torch.nn.functional, torch.linalg, torch.fft, torch.special,
               operator, builtins, math)


def callable_name(fn):
    """Canonical dotted name of a call_function target."""
    if isinstance(fn, (torch._ops.OpOverload, torch._ops.OpOverloadPacket)):
        return str(fn)  # aten.add.Tensor
    name = getattr(fn, "__name__", None)
    for namespace in _NAMESPACES:
        if name and getattr(namespace, name, None) is fn:
            return f"{namespace.__name__}.{name}"
    module = getattr(fn, "__module__", None) or "unknown"
    module = {"_operator": "operator"}.get(module, module)
    return f"{module}.{getattr(fn, '__qualname__', name or repr(fn))}"


def class_name(cls):
    """torch.nn.Linear rather than torch.nn.modules.linear.Linear."""
    if getattr(torch.nn, cls.__name__, None) is cls:
        return f"torch.nn.{cls.__name__}"
    return f"{cls.__module__}.{cls.__qualname__}"


def node_target(node, modules):
    if node.op == "call_function":
        return callable_name(node.target)
    if node.op == "call_module":
        return class_name(type(modules[node.target]))
    return str(node.target)  # placeholder / get_attr / call_method / output


# ------------------------------------------------------- module configs

# Attributes that configure standard layers (beyond each class's
# __constants__), recorded so that a call_module can be expanded without
# the Python class at hand.
_CONFIG_ATTRS = (
    "in_features", "out_features", "in_channels", "out_channels", "kernel_size",
    "stride", "padding", "dilation", "groups", "padding_mode", "output_padding",
    "transposed", "num_features", "eps", "momentum", "affine",
    "track_running_stats", "normalized_shape", "elementwise_affine",
    "num_groups", "negative_slope", "approximate", "dim", "start_dim",
    "end_dim", "p", "inplace", "output_size", "num_embeddings",
    "embedding_dim", "padding_idx", "max_norm", "norm_type",
    "scale_grad_by_freq", "sparse", "ceil_mode", "return_indices",
    "count_include_pad", "divisor_override", "min_val", "max_val", "alpha",
    "beta", "threshold", "value", "lambd", "upscale_factor", "scale_factor",
    "mode", "align_corners", "embed_dim", "num_heads", "kdim", "vdim",
    "head_dim", "batch_first", "norm_first", "dropout", "unflattened_size",
    "training",
)


def _config_names(module):
    names = []
    for cls in type(module).__mro__:
        names.extend(getattr(cls, "__constants__", ()))
    names.extend(_CONFIG_ATTRS)
    return list(dict.fromkeys(names))  # unique, in order


def module_config(module):
    """Tagged values of a module's scalar configuration attributes."""
    tensors = dict(module_tensors(module))
    config = {}
    for name in _config_names(module):
        if name in tensors or name in module._modules or not hasattr(module, name):
            continue
        try:
            config[name] = encode_arg(getattr(module, name))
        except ExportError:
            pass  # not plain data (a function, a tensor...): nothing to record
    return config


def module_info(path, module):
    return {
        "path": path,
        "class": class_name(type(module)),
        "config": module_config(module),
        "weights": {local: f"{path}.{local}" for local, _ in module_tensors(module)},
    }


# -------------------------------------------------------------- schemas

def _split_top_level(text):
    """Split on commas outside brackets and parentheses."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    tail = text[start:].strip()
    return parts + [tail] if tail else parts


def _strip_alias(type_text):
    """'Tensor(a!)' -> 'Tensor', 'Tensor(a)[]' -> 'Tensor[]'."""
    return re.sub(r"\([^()]*\)", "", type_text).strip()


def _schema_types(schema_text):
    """(argument type strings, return type strings) of an operator schema."""
    # The argument list is the first parenthesised group; aliases such as
    # Tensor(a -> *) may contain "->" too, so find its end by nesting depth.
    start, depth = schema_text.index("("), 0
    for end in range(start, len(schema_text)):
        depth += {"(": 1, ")": -1}.get(schema_text[end], 0)
        if depth == 0:
            break
    args = schema_text[start + 1:end]
    returns = schema_text[end + 1:].strip()
    returns = returns[2:] if returns.startswith("->") else returns
    arg_types = [_strip_alias(a.split("=")[0].rsplit(" ", 1)[0])
                 for a in _split_top_level(args) if a != "*"]
    returns = returns.strip()
    if returns.startswith("(") and returns.endswith(")"):
        returns = returns[1:-1]
    ret_types = [_strip_alias(r).split(" ")[0] for r in _split_top_level(returns)]
    return arg_types, ret_types


def operator_schema(op):
    """Description of an aten operator, so a reader can fill in defaults
    and map kwargs to positions without PyTorch's registry."""
    schema = op._schema
    text = str(schema)
    arg_types, ret_types = _schema_types(text)
    if len(arg_types) != len(schema.arguments):  # unexpected syntax: use torch's names
        arg_types = [str(a.type) for a in schema.arguments]
    arguments = []
    for arg, type_text in zip(schema.arguments, arg_types):
        entry = {"name": arg.name, "type": type_text, "kwarg_only": bool(arg.kwarg_only),
                 "mutable": bool(arg.alias_info is not None and arg.alias_info.is_write)}
        if arg.has_default_value():
            try:
                entry["default"] = encode_arg(arg.default_value)
            except ExportError:
                pass
        arguments.append(entry)
    return {"schema": text, "arguments": arguments,
            "returns": [{"type": t} for t in ret_types]}


# ---------------------------------------------------------------- nodes

def encode_node(node, modules, node_values):
    entry = {
        "name": node.name,
        "op": node.op,
        "target": node_target(node, modules),
        "args": [encode_arg(a, node_values) for a in node.args],
        "kwargs": {k: encode_arg(v, node_values) for k, v in node.kwargs.items()},
    }
    if node.op != "output":
        spec = node.meta.get("fxpipe_val", _UNKNOWN)
        entry["value"] = {"type": "unknown"} if spec is _UNKNOWN else encode_value(spec)
    if node.op == "call_module":
        entry["module"] = module_info(node.target, modules[node.target])
    frames = node.meta.get("fxpipe_frames")
    if frames:
        entry["loc"] = sourceloc.location(frames)
        entry["stack_trace"] = sourceloc.format_frames(frames)
    return entry


_UNKNOWN = object()  # no value was recorded for the node


def _inputs(graph, node_values):
    inputs = []
    for node in graph.nodes:
        if node.op != "placeholder":
            continue
        spec = node_values.get(node.name)
        if not isinstance(spec, TensorSpec):
            raise ExportError(f"graph input {node.name!r} is not a tensor")
        inputs.append({"name": node.name, "shape": spec.shape,
                       "dtype": dtype_name(spec.dtype), "strides": spec.strides})
    return inputs


def weight_order(graph, modules):
    """Weight names in the order of the nodes that use them."""
    names = []
    for node in graph.nodes:
        if node.op == "get_attr":
            names.append(node.target)
        elif node.op == "call_module":
            names.extend(f"{node.target}.{local}" for local, _ in module_tensors(modules[node.target]))
    return list(dict.fromkeys(names))


def _weights_section(weights, weights_file):
    tensors = []
    for name, tensor in weights.items():
        if not isinstance(tensor, torch.Tensor):
            raise ExportError(f"get_attr {name!r} is a {type(tensor).__name__}, not a tensor")
        safetensors.dtype_name(tensor.dtype)  # raises on unsupported dtypes
        tensors.append({"name": name, "shape": list(tensor.shape),
                        "dtype": dtype_name(tensor.dtype)})
    return {"file": weights_file, "tensors": tensors}


def ordered_weights(captured):
    """captured.weights, in the order of the nodes that use them."""
    return {name: captured.weights[name]
            for name in weight_order(captured.graph, captured.modules)}


def build_document(captured, weights_file):
    """The JSON document (a dict) for a Captured graph."""
    graph = captured.graph
    node_values = {n.name: n.meta.get("fxpipe_val") for n in graph.nodes}
    nodes = [encode_node(n, captured.modules, node_values) for n in graph.nodes]
    output = next(n for n in graph.nodes if n.op == "output")
    operators = {}
    for node in graph.nodes:
        if node.op == "call_function" and isinstance(node.target, torch._ops.OpOverload):
            operators.setdefault(str(node.target), operator_schema(node.target))
    document = {
        "format": FORMAT,
        "version": VERSION,
        "graph": captured.level,
        "capture": captured.method,
        "torch_version": str(torch.__version__),
        "weights": _weights_section(ordered_weights(captured), weights_file),
        "inputs": _inputs(graph, node_values),
        "outputs": encode_arg(output.args[0], node_values),
        "nodes": nodes,
        "operators": operators,
    }
    if captured.symbols is not None:
        document["symbols"] = captured.symbols
    return document
