"""Quantized modules (convert_fx's, and eager-mode quantization's) as
float ops between quantize and dequantize (the form
convert_to_reference_fx writes), so that the capture sees no
packed-weight ScriptObjects and no quantized tensors flowing between ops.

PyTorch's FX graph mode (torch.ao.quantization.quantize_fx.convert_fx)
leaves a GraphModule whose values between torch.quantize_per_tensor and
.dequantize() are quantized tensors, computed by quantized modules
(quantized.Conv2d with its weights packed for fbgemm) and ops
(quantized.add_relu); eager-mode quantization (torch.quantization.convert)
leaves a module of such submodules between Quantize and DeQuantize ones,
traced by torch.fx here first.  Each such value q becomes its dequantized float
value here, on the same grid of steps: a quantized module or op is its
float computation on the dequantized inputs, with the weights dequantized
(float tensors of the weights file), then quantize_per_tensor at the
module's output scale and zero point, then dequantize.  An op that keeps
its input's scale on a quantized tensor (max pooling, ReLU, flatten) is
the float op, quantized again at its input's scale and zero point (exact
where the op only selects or moves values; average pooling rounds like
PyTorch's up to ties); tanh, sigmoid and hardsigmoid are quantized at the
fixed scale and zero point PyTorch's quantized kernels give (over the
full 8-bit range: a quantized convolution or linear layer reading that is
refused under the x86 engines, whose kernels saturate there).  Any other op of a quantized tensor is refused by
name: a wrong guess would give a wrong number.
"""

import torch
import torch.fx
import torch.nn.functional as F

from .common import ExportError, fetch_attr

# modules and functions that keep their input's scale and zero point
_KEEP_MODULES = (torch.nn.MaxPool1d, torch.nn.MaxPool2d, torch.nn.MaxPool3d,
                 torch.nn.AdaptiveAvgPool1d, torch.nn.AdaptiveAvgPool2d,
                 torch.nn.AdaptiveAvgPool3d, torch.nn.AvgPool1d, torch.nn.AvgPool2d,
                 torch.nn.AvgPool3d, torch.nn.ReLU, torch.nn.Flatten, torch.nn.Identity,
                 torch.nn.Dropout)
_KEEP_FUNCTIONS = (torch.flatten, torch.reshape, torch.relu, F.relu, F.max_pool1d,
                   F.max_pool2d, F.max_pool3d, F.adaptive_avg_pool1d, F.adaptive_avg_pool2d,
                   F.avg_pool1d, F.avg_pool2d, F.dropout, torch.transpose, torch.permute,
                   torch.squeeze, torch.unsqueeze)
_KEEP_METHODS = ("flatten", "reshape", "view", "relu", "permute", "transpose", "contiguous",
                 "squeeze", "unsqueeze")


# ops whose quantized kernels give a fixed scale and zero point (by the
# input's dtype): the float op, quantized there (checked equal to
# PyTorch's quantized tanh, sigmoid and hardsigmoid)
_FIXED = {"tanh": (2 / 256, {torch.quint8: 128, torch.qint8: 0}),
          "sigmoid": (1 / 256, {torch.quint8: 0, torch.qint8: -128}),
          "hardsigmoid": (1 / 256, {torch.quint8: 0, torch.qint8: -128})}
_FIXED_MODULES = {torch.nn.Tanh: "tanh", torch.nn.Sigmoid: "sigmoid",
                  torch.nn.Hardsigmoid: "hardsigmoid"}
_FIXED_FUNCTIONS = {torch.tanh: "tanh", torch.sigmoid: "sigmoid", F.tanh: "tanh",
                    F.sigmoid: "sigmoid", F.hardsigmoid: "hardsigmoid"}


def _is_quantized_module(m):
    """a module of quantized tensors (not the reference form's float
    modules, torch.ao.nn.quantized.reference)"""
    path = type(m).__module__
    return path.startswith(("torch.ao.nn.quantized", "torch.nn.quantized",
                            "torch.ao.nn.intrinsic.quantized",
                            "torch.nn.intrinsic.quantized")) and ".reference" not in path


def _is_quantized_op(target):
    return isinstance(target, (torch._ops.OpOverloadPacket, torch._ops.OpOverload)) and \
        str(target).startswith("quantized.")


def needs_unpacking(module):
    """Whether module is a convert_fx graph with quantized modules or ops,
    or a module of eager-mode quantization (torch.quantization.convert:
    quantized submodules)."""
    if not isinstance(module, torch.fx.GraphModule):
        return any(_is_quantized_module(m) for m in module.modules())
    for n in module.graph.nodes:
        if n.op == "call_module" and _is_quantized_module(module.get_submodule(n.target)):
            return True
        if n.op == "call_function" and _is_quantized_op(n.target):
            return True
    return False


# the quantized modules by class name: kind, and whether a ReLU follows
_KINDS = {"Conv1d": ("conv", False), "Conv2d": ("conv", False), "Conv3d": ("conv", False),
          "ConvReLU1d": ("conv", True), "ConvReLU2d": ("conv", True),
          "ConvReLU3d": ("conv", True), "Linear": ("linear", False),
          "LinearReLU": ("linear", True), "Quantize": ("quantize", False),
          "DeQuantize": ("dequantize", False)}


ADVICE = ("export the model in FX graph mode's reference form "
          "(convert_to_reference_fx), whose float ops are traced as they are")

_CONV = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}
_BINARY = {"quantized.add": (torch.add, False), "quantized.add_relu": (torch.add, True),
           "quantized.mul": (torch.mul, False), "quantized.mul_relu": (torch.mul, True)}


def unpack(gm):
    """A float GraphModule computing what convert_fx's gm computes (see
    the module's doc), or an eager-mode quantized module, traced by
    torch.fx first.  Raises ExportError for a quantized module or op it
    does not know."""
    if not isinstance(gm, torch.fx.GraphModule):
        try:
            gm = torch.fx.symbolic_trace(gm)
        except Exception as e:
            raise ExportError(f"a module with quantized submodules is rewritten into float "
                              f"ops on a torch.fx trace, and torch.fx cannot trace this one: "
                              f"{type(e).__name__}: {e}") from None
    g = torch.fx.Graph()
    attrs = {}     # target -> tensor or module of the new graph
    env = {}       # old node -> new node
    qp = {}        # old node of a quantized value -> (scale, zero point, dtype) args
    full = {}      # old node quantized over the full 8-bit range -> the op's name

    def fl(a):
        """a's value in the new graph, quantized values as their floats"""
        return torch.fx.node.map_arg(a, lambda n: env[n])

    def get_attr(name, value):
        attrs[name] = value
        return g.get_attr(name)

    def requantize(value, scale, zp, dtype):
        q = g.call_function(torch.quantize_per_tensor, (value, scale, zp, dtype))
        return g.call_method("dequantize", (q,))

    def quantized_in(n):
        return [a for a in n.all_input_nodes if a in qp]

    for n in gm.graph.nodes:
        if n.op == "placeholder":
            env[n] = g.placeholder(n.target, type_expr=n.type)
            env[n].meta = dict(n.meta)
        elif n.op == "get_attr":
            env[n] = get_attr(n.target, fetch_attr(gm, n.target))
        elif n.op == "output":
            if any(a in qp for a in n.all_input_nodes):
                raise ExportError("the quantized model returns a quantized tensor; "
                                  "dequantize it in the model")
            g.output(fl(n.args[0]))
        elif n.op == "call_function" and n.target is torch.quantize_per_tensor:
            if len(n.args) != 4 or n.kwargs or n.args[0] in qp:
                raise ExportError(f"the quantized model quantizes in an unexpected form: "
                                  f"{n.format_node()}")
            x, scale, zp, dtype = n.args
            env[n] = requantize(fl(x), fl(scale), fl(zp), dtype)
            qp[n] = (fl(scale), fl(zp), dtype)
        elif n.op == "call_method" and n.target == "dequantize":
            if n.args[0] not in qp:
                raise ExportError(f"dequantize of a float tensor: {n.format_node()}")
            env[n] = env[n.args[0]]
        elif n.op == "call_module" and _is_quantized_module(gm.get_submodule(n.target)):
            m = gm.get_submodule(n.target)
            kind = _KINDS.get(type(m).__name__)
            (x,) = n.args
            if kind == ("quantize", False) and x not in qp:
                scale, zp = float(m.scale), int(m.zero_point)
                env[n] = requantize(env[x], scale, zp, m.dtype)
                qp[n] = (scale, zp, m.dtype)
                continue
            if kind == ("dequantize", False) and x in qp:
                env[n] = env[x]
                continue
            if kind is None or kind[0] not in ("conv", "linear") or x not in qp or n.kwargs:
                raise ExportError(f"quantized module {type(m).__name__} ({n.target}) is not "
                                  f"supported; {ADVICE}")
            if x in full and torch.backends.quantized.engine != "qnnpack":
                raise ExportError(
                    f"quantized module {n.target} reads {full[x]}'s output, quantized over the "
                    f"full 8-bit range, and PyTorch's {torch.backends.quantized.engine} "
                    f"kernels saturate 16-bit sums of such products (reduce_range is there "
                    f"to prevent it): its numbers would differ from the exact ones compiled "
                    f"here; run the model with torch.backends.quantized.engine = 'qnnpack'")
            w = get_attr(n.target + ".weight", m.weight().dequantize())
            b = m.bias()
            b = get_attr(n.target + ".bias", b.detach()) if b is not None else None
            if kind[0] == "conv":
                if m.padding_mode != "zeros":
                    raise ExportError(f"quantized convolution {n.target}: padding_mode "
                                      f"{m.padding_mode!r} is not supported")
                y = g.call_function(_CONV[len(m.kernel_size)],
                                    (env[x], w, b, m.stride, m.padding, m.dilation, m.groups))
            else:
                y = g.call_function(F.linear, (env[x], w, b))
            if kind[1]:
                y = g.call_function(torch.relu, (y,))
            dtype = qp[x][2]
            env[n] = requantize(y, float(m.scale), int(m.zero_point), dtype)
            qp[n] = (float(m.scale), int(m.zero_point), dtype)
        elif n.op == "call_function" and _is_quantized_op(n.target):
            name = str(n.target).replace(".default", "")
            if name not in _BINARY or n.kwargs or len(n.args) != 4 or \
                    not all(a in qp for a in n.args[:2]):
                raise ExportError(f"quantized op {name} is not supported; {ADVICE}")
            f, relu = _BINARY[name]
            y = g.call_function(f, (env[n.args[0]], env[n.args[1]]))
            if relu:
                y = g.call_function(torch.relu, (y,))
            scale, zp, dtype = fl(n.args[2]), fl(n.args[3]), qp[n.args[0]][2]
            env[n] = requantize(y, scale, zp, dtype)
            qp[n] = (scale, zp, dtype)
        else:
            q = quantized_in(n)
            if n.op == "call_module":
                m = gm.get_submodule(n.target)
                attrs[n.target] = m
                keeps = isinstance(m, _KEEP_MODULES)
                fixed = _FIXED_MODULES.get(type(m))
                what = type(m).__name__
            elif n.op == "call_function":
                keeps = n.target in _KEEP_FUNCTIONS
                fixed = _FIXED_FUNCTIONS.get(n.target)
                what = getattr(n.target, "__name__", str(n.target))
            else:
                keeps = n.target in _KEEP_METHODS
                fixed = n.target if n.target in _FIXED else None
                what = "." + str(n.target)
            new = g.create_node(n.op, n.target, fl(n.args), fl(n.kwargs), n.name)
            if not q:
                env[n] = new
                continue
            if not (keeps or fixed) or len(q) != 1:
                raise ExportError(f"{what} of a quantized tensor is not supported; {ADVICE}")
            scale, zp, dtype = qp[q[0]]
            if fixed:
                scale, zp = _FIXED[fixed][0], _FIXED[fixed][1].get(dtype)
                if zp is None:
                    raise ExportError(f"{what} of a {dtype} tensor is not supported; {ADVICE}")
                full[n] = fixed
            elif q[0] in full:
                full[n] = full[q[0]]
            env[n] = requantize(new, scale, zp, dtype)
            qp[n] = (scale, zp, dtype)
    gm2 = torch.fx.GraphModule(attrs, g)
    gm2.eval()
    return gm2
