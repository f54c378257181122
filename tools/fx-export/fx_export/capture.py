"""Capture an FX graph from a module, at aten level or at torch level.

Every capture path ends in the same normal form (a `Captured`):
  * weights are `get_attr` nodes whose target is the tensor's name in the
    weights file (its dotted attribute path where it has one), so the only
    placeholders are the user's inputs;
  * each get_attr target appears once, dead nodes are gone;
  * node.meta["fxpipe_val"] describes the node's result (see `spec_of`);
  * node.meta["fxpipe_frames"] holds the model-code stack frames, if known.
"""

import contextlib
import copy
import dataclasses
import traceback
import warnings
from typing import Dict

import torch
import torch.fx
import torch.utils._pytree as pytree

from . import dynamic, fake, quantized_fx, sourceloc
from .common import HAS_TORCH_EXPORT, ExportError, fetch_attr

# PyTorch's fused kernels for attention / transformer layers.  They replace
# a whole layer with one opaque op, which a compiler cannot lower.
FUSED_FAST_PATH_OPS = ("_native_multi_head_attention", "_transformer_encoder_layer_fwd",
                       "_scaled_dot_product_flash_attention",
                       "_scaled_dot_product_efficient_attention",
                       "_scaled_dot_product_cudnn_attention")


@dataclasses.dataclass
class TensorSpec:
    shape: list
    dtype: torch.dtype
    strides: list


@dataclasses.dataclass
class SymbolicScalar:
    """A scalar only known at run time (a SymInt, or x.size(0) at torch level)."""
    kind: str  # "int", "float" or "bool"
    expr: str = None  # an int's size expression over the symbols, if known


@dataclasses.dataclass
class Captured:
    graph: torch.fx.Graph
    level: str                      # "aten" or "torch"
    method: str                     # "make_fx", "torch.export", "symbolic_trace"
    weights: Dict[str, torch.Tensor]          # get_attr target -> tensor
    modules: Dict[str, torch.nn.Module]       # call_module target -> module
    symbols: list = None            # dynamic.symbol_table, for --dynamic exports


# ---------------------------------------------------------------- values

def _static_int(value):
    try:
        return int(value)
    except Exception:  # an unbacked or unhinted SymInt
        raise ExportError("dynamic shapes are not supported; export with static shapes")


def spec_of(value, names=None):
    """A description of a run-time value that keeps no tensor data alive.
    names (a dynamic.SymbolNames): symbolic sizes become expression
    strings over the symbols; without it they are refused."""
    size = _static_int if names is None else (lambda d: dynamic.size_of(d, names))
    if isinstance(value, torch.Tensor):
        return TensorSpec([size(d) for d in value.shape], value.dtype,
                          [size(s) for s in value.stride()])
    if isinstance(value, (bool, int, float, str)) or value is None:
        return value
    if isinstance(value, list):
        return [spec_of(v, names) for v in value]
    if isinstance(value, tuple):  # also torch.Size and named tuples
        return tuple(spec_of(v, names) for v in value)
    for sym_type, kind in ((getattr(torch, "SymBool", ()), "bool"),
                           (getattr(torch, "SymInt", ()), "int"),
                           (getattr(torch, "SymFloat", ()), "float")):
        if isinstance(value, sym_type):
            expr = None
            if kind == "int" and names is not None:
                expr = size(value)
                if isinstance(expr, int):  # torch.export knows it: a constant
                    return expr
            return SymbolicScalar(kind, expr)
    return value  # left for the encoder to reject or describe


class _ValueRecorder(torch.fx.Interpreter):
    """Runs a graph on real inputs and records each node's result spec."""

    def run_node(self, node):
        result = super().run_node(node)
        node.meta["fxpipe_val"] = spec_of(result)
        return result


def _record_values(graph_module, args, mode=None):
    """mode: a fake.fake_mode() to run the graph in (shapes, dtypes and
    strides from meta kernels; no kernel runs), or None to run it."""
    with torch.no_grad():
        if mode is None:
            _ValueRecorder(graph_module).run(*args)
        else:
            with mode:
                _ValueRecorder(graph_module).run(*fake.fake_inputs(mode, args))


# ---------------------------------------------------------- graph cleanup

def _mutates_inputs(node):
    """Whether a node may write to one of its inputs (so is not dead code
    even without users: the write is seen through the written tensor)."""
    target = node.target
    if isinstance(target, torch._ops.OpOverload):
        return any(a.alias_info is not None and a.alias_info.is_write
                   for a in target._schema.arguments)
    if node.op == "call_module":
        return True  # a module may keep state; be conservative
    name = target if isinstance(target, str) else getattr(target, "__name__", "")
    return (name.endswith("_") and not name.endswith("__")) or node.kwargs.get("inplace") is True


def eliminate_dead_code(graph):
    """Drop nodes whose results are unused and that write nothing."""
    for node in reversed(list(graph.nodes)):
        if node.op in ("placeholder", "output") or node.users:
            continue
        if node.op in ("call_function", "call_method", "call_module") and _mutates_inputs(node):
            continue
        graph.erase_node(node)


def merge_duplicate_get_attrs(graph):
    """make_fx emits one get_attr per use of a weight; keep the first."""
    first = {}
    for node in list(graph.nodes):
        if node.op != "get_attr":
            continue
        if node.target in first:
            node.replace_all_uses_with(first[node.target])
            graph.erase_node(node)
        else:
            first[node.target] = node


def replace_lift_fresh_copy(graph):
    """Tensors made in forward (torch.tensor(...)) are traced as a weight
    copied by aten.lift_fresh_copy, an internal op; it is just a clone."""
    for node in graph.nodes:
        if node.op == "call_function" and node.target == torch.ops.aten.lift_fresh_copy.default:
            node.target = torch.ops.aten.clone.default


def check_no_fused_ops(graph):
    for node in graph.nodes:
        if node.op == "call_function" and any(op in str(node.target) for op in FUSED_FAST_PATH_OPS):
            raise ExportError(
                f"the graph contains the fused inference op {node.target}, which "
                "cannot be compiled; this happens when the module runs its fast "
                "path (e.g. nn.TransformerEncoderLayer under no_grad)")


def _attach_frames(graph, innermost_first):
    for node in graph.nodes:
        frames = sourceloc.model_frames(node.stack_trace, innermost_first)
        if frames:
            node.meta["fxpipe_frames"] = frames


# ------------------------------------------------------------ aten level

@contextlib.contextmanager
def _math_attention_only():
    """Make F.scaled_dot_product_attention (torch >= 2.0) take its math
    path, which traces to matmul/softmax ops, rather than a fused kernel
    (flash, memory-efficient, cuDNN) that appears as one op in the graph.
    The switches are global (CPU included) despite living in backends.cuda."""
    backends = getattr(torch.backends, "cuda", None)
    saved = {}
    for kind in ("flash", "mem_efficient", "cudnn", "math"):
        getter = getattr(backends, f"{kind}_sdp_enabled", None)
        setter = getattr(backends, f"enable_{kind}_sdp", None)
        if getter and setter:
            saved[setter] = getter()
            setter(kind == "math")
    try:
        yield
    finally:
        for setter, value in saved.items():
            setter(value)


@contextlib.contextmanager
def fused_fast_paths_disabled(module):
    """Run the block so that nn.MultiheadAttention / nn.TransformerEncoder*
    take their composite (decomposable) path rather than a fused kernel.

    Their fast path (aten._native_multi_head_attention,
    aten._transformer_encoder_layer_fwd) is taken only when autograd is not
    needed: grad mode off, or no parameter or input requiring grad.  Tracing
    with grad enabled and every floating-point parameter requiring grad rules
    it out on every version; the autograd bookkeeping this adds to the trace
    is dead code, dropped afterwards.

    That is not enough where tracing itself turns grad mode off (torch.export
    2.1 traces torch.nn layers under no_grad), so also: the explicit switch
    of torch >= 2.2, and each TransformerEncoderLayer's activation_relu_or_gelu
    flag set to 0 -- a flag read only to choose the fused path (the composite
    path calls self.activation).  Attention itself takes its math path.
    """
    frozen = [p for p in module.parameters()
              if p.is_floating_point() and not p.requires_grad]
    layers = [(m, m.activation_relu_or_gelu) for m in module.modules()
              if hasattr(m, "activation_relu_or_gelu")]
    mha = getattr(torch.backends, "mha", None)
    has_switch = hasattr(mha, "set_fastpath_enabled")
    saved_switch = mha.get_fastpath_enabled() if has_switch else None
    try:
        for p in frozen:
            p.requires_grad_(True)
        for layer, _ in layers:
            layer.activation_relu_or_gelu = 0
        if has_switch:
            mha.set_fastpath_enabled(False)
        with torch.enable_grad(), _math_attention_only():
            yield
    finally:
        if has_switch:
            mha.set_fastpath_enabled(saved_switch)
        for layer, flag in layers:
            layer.activation_relu_or_gelu = flag
        for p in frozen:
            p.requires_grad_(False)


@contextlib.contextmanager
def _make_fx_stack_traces():
    """make_fx (torch < 2.1) builds its own tracer; switch stack-trace
    recording on for the class while we trace."""
    from torch.fx.experimental.proxy_tensor import PythonKeyTracer

    had_own = "record_stack_traces" in PythonKeyTracer.__dict__
    saved = PythonKeyTracer.__dict__.get("record_stack_traces")
    PythonKeyTracer.record_stack_traces = True
    try:
        yield
    finally:
        if had_own:
            PythonKeyTracer.record_stack_traces = saved
        else:
            del PythonKeyTracer.record_stack_traces


def _weight_names(module):
    """id(tensor) -> dotted name, for every parameter and buffer."""
    names = {}
    for name, tensor in list(module.named_parameters()) + list(module.named_buffers()):
        names.setdefault(id(tensor), name)
    return names


_STRIDED = {"as_strided", "as_strided_", "as_strided_copy", "as_strided_scatter"}


def _has_strided(gm):
    return any(n.op == "call_function" and str(getattr(n.target, "__name__", "")).split(".")[0] in _STRIDED
               for n in gm.graph.nodes)


def _differs_from_eager(gm, module, args):
    """Whether the graph's results on the example inputs are not eager's."""
    def run(f):
        with torch.no_grad():
            out = f(*[a.clone() if isinstance(a, torch.Tensor) else a for a in args])
        return [t for t in pytree.tree_flatten(out)[0] if isinstance(t, torch.Tensor)]
    want, got = run(module), run(gm)
    return not (len(want) == len(got) and all(
        w.shape == g.shape and w.dtype == g.dtype and (
            torch.allclose(g, w, rtol=1e-5, atol=1e-6, equal_nan=True) if w.is_floating_point()
            else torch.equal(g, w))
        for w, g in zip(want, got)))


def _check_strided(gm, module, args):
    """as_strided reads its operand's storage, and functionalization
    replays it on the base tensor without the layout an intervening op gave
    that storage (x.contiguous(memory_format=torch.channels_last), then
    as_strided: the trace reads x's own row-major storage).  Where the
    graph has one, the graph must give eager's values on the example
    inputs, or the export is refused rather than written wrong."""
    if _has_strided(gm) and _differs_from_eager(gm, module, args):
        raise ExportError("the traced graph's as_strided gives other values than eager on the example "
                          "inputs (tracing lost the layout of the storage it reads, e.g. a "
                          "contiguous(memory_format=...) before it); refused")


def _make_fx(module, args, decompositions):
    """make_fx of the functionalized module, else (where this torch cannot
    functionalize it) of the module itself.  Returns the graph module and
    whether it was functionalized."""
    from torch.fx.experimental.proxy_tensor import make_fx
    try:
        from torch.func import functionalize
    except ImportError:
        from functorch import functionalize

    # Functionalized: a write into a view (y[:, 1:3] = z, copy_ into a
    # slice, index_put_) becomes slice_scatter/select_scatter/index_put on
    # values.  Without it the graph holds copy_ into a view whose effect
    # on the base no value-semantics consumer can see, and was lost.
    try:
        return make_fx(functionalize(module), decomposition_table=decompositions)(
            *_clones(args)), True
    except Exception:  # noqa: BLE001 - a functionalization gap of this torch
        # Unfunctionalized, writes into views stay copy_ into views;
        # fx-import refuses a graph that reads what they changed.
        return make_fx(module, decomposition_table=decompositions)(*args), False


def _clones(args):
    return [a.clone() if isinstance(a, torch.Tensor) else a for a in args]


class _NoDetach(torch.fx.Interpreter):
    """Runs a graph but its aten.detach nodes (autograd's bookkeeping in a
    trace with grad enabled; the value is the same)."""

    def call_function(self, target, args, kwargs):
        if target is torch.ops.aten.detach.default:
            return args[0]
        return super().call_function(target, args, kwargs)


class _graph_runner(torch.nn.Module):
    """A module that runs a graph module's graph node by node, so that a
    trace of it (under fx.traceback.override_stack_trace) gives each new node
    the stack trace of the node it comes from."""

    def __init__(self, gm):
        super().__init__()
        self.gm = gm

    def forward(self, *args):
        from torch.fx import traceback as fx_traceback
        with fx_traceback.override_stack_trace():
            return _NoDetach(self.gm).run(*args)


def _make_fx_fake(module, args, decompositions, mode):
    """_make_fx with fake tensors of `mode`, for a model that a CPU kernel's
    missing dtype stops (float16 on 1.13): no kernel runs.  Returns the
    graph module, whether functionalized, and the mode."""
    with mode:
        gm, functionalized = _make_fx(module, fake.fake_inputs(mode, args), decompositions)
        if not functionalized:
            # 1.13 functionalizes fake tensors as meta tensors, which C++
            # composite ops (nn.LSTM, nn.GRU) refuse beside the weights on
            # the CPU.  The plain trace has decomposed them: functionalize
            # its graph, each node keeping its stack trace.
            gm, functionalized = _make_fx(_graph_runner(gm), fake.fake_inputs(mode, args),
                                          decompositions)
    fake.cpu_devices(gm.graph)
    return gm, functionalized, mode


_NARROW_FLOATS = (torch.float16, torch.bfloat16)


def _float32_twin(module, args):
    """A copy of the module, and the inputs, with float16 and bfloat16
    tensors made float32 (kernels that 1.13 has)."""
    twin = copy.deepcopy(module)
    for t in list(twin.parameters()) + list(twin.buffers()):
        if t.dtype in _NARROW_FLOATS:
            t.data = t.data.float()
    return twin, [a.float() if isinstance(a, torch.Tensor) and a.dtype in _NARROW_FLOATS
                  else a for a in args]


def _graph_in_float32(gm):
    """A copy of a graph module computing in float32 where it computes in
    float16 or bfloat16: those weights and dtype arguments made float32."""
    def widen(value):
        return torch.float32 if value in _NARROW_FLOATS else value
    graph = torch.fx.Graph()
    graph.output(graph.graph_copy(gm.graph, {}))
    gm32 = torch.fx.GraphModule(gm, graph)
    for node in gm32.graph.nodes:
        node.args, node.kwargs = pytree.tree_map(widen, (node.args, node.kwargs))
        if node.op == "get_attr":
            tensor = fetch_attr(gm32, node.target)
            if tensor.dtype in _NARROW_FLOATS:
                for table in (gm32._parameters, gm32._buffers, gm32.__dict__):
                    table.pop(node.target, None)
                gm32.register_buffer(node.target, tensor.detach().float())
    gm32.recompile()
    return gm32


def _layouts(graph):
    """Each node's recorded (shape, strides), dtypes left out."""
    def layout(spec):
        if isinstance(spec, TensorSpec):
            return spec.shape, spec.strides
        if isinstance(spec, (list, tuple)):
            return [layout(s) for s in spec]
        return None
    return [(n.name, layout(n.meta.get("fxpipe_val"))) for n in graph.nodes]


def _check_strided_in_float32(gm, module, args):
    """_check_strided for a graph traced with fake tensors (its values
    recorded), of a model that PyTorch cannot run (a CPU kernel lacks its
    dtype): run in float32 instead, the model and the graph.  What
    as_strided reads does not depend on the dtype, but on the layouts,
    which fx-import takes from the recorded strides: those the graph has
    when it runs must be the recorded ones, and its values eager's."""
    try:
        twin, args32 = _float32_twin(module, args)
        gm32 = _graph_in_float32(gm)
        _record_values(gm32, args32)
    except Exception as e:  # noqa: BLE001 - any reason is a reason to refuse
        why = f"it does not run in float32 ({type(e).__name__}: {str(e).strip()[:200]})"
    else:
        if _layouts(gm32.graph) != _layouts(gm.graph):
            why = "its strides in float32 are not those traced"
        elif _differs_from_eager(gm32, twin, args32):
            why = "in float32 it gives other values than eager on the example inputs"
        else:
            return
    raise ExportError(
        "the traced graph has as_strided, whose values fx-export checks against eager on the "
        f"example inputs, and PyTorch {torch.__version__} cannot run this model on the CPU "
        f"(a kernel lacks its dtype); checked in float32 instead, but {why}; refused "
        "(export it with PyTorch >= 2.1)")


def _capture_aten_make_fx(module, args):
    from torch._decomp import get_decompositions
    from torch.fx.experimental.proxy_tensor import make_fx

    # Internal aliasing ops that 1.13 emits for reshape/flatten; as views
    # they are what every consumer of aten graphs understands.
    aten = torch.ops.aten
    decompositions = get_decompositions([aten._reshape_alias, aten._unsafe_view])
    mode = None
    with fused_fast_paths_disabled(module), _make_fx_stack_traces():
        try:
            gm, functionalized = _make_fx(module, args, decompositions)
        except RuntimeError as real_error:
            if not fake.missing_kernel(real_error):
                raise
            # A CPU kernel lacks the dtype (float16 on 1.13): trace with
            # fake tensors, which run no kernel.
            gm, functionalized, mode = fake.retry(
                real_error, args, lambda m: _make_fx_fake(module, args, decompositions, m))
        if mode is None and functionalized and _has_strided(gm) and \
                _differs_from_eager(gm, module, args):
            # Functionalization replayed as_strided over a storage
            # whose layout it dropped (clone to channels_last; an out=
            # op that restrides its out).  The unfunctionalized trace
            # keeps the op that made that layout: take it when it
            # gives eager's values (fx-import refuses what it cannot
            # read in it); else the check below refuses.
            plain = make_fx(module, decomposition_table=decompositions)(*_clones(args))
            if not _differs_from_eager(plain, module, args):
                gm = plain
    if mode is None:
        _check_strided(gm, module, args)
        _record_values(gm, args)
    else:
        _record_values(gm, args, mode)
        if _has_strided(gm):
            _check_strided_in_float32(gm, module, args)
    _attach_frames(gm.graph, innermost_first=True)

    # make_fx names weights _param_constantN/_tensor_constantN; give the
    # module's own parameters and buffers back their dotted names.
    names = _weight_names(module)
    weights = {}
    for node in gm.graph.nodes:
        if node.op == "get_attr":
            tensor = fetch_attr(gm, node.target)
            if mode is not None and fake.is_fake(tensor):  # never seen; a wrong weight else
                raise ExportError(f"the fake-tensor trace made the weight {node.target!r} "
                                  "without its data; refused")
            node.target = names.get(id(tensor), node.target)
            weights[node.target] = tensor
    return Captured(gm.graph, "aten", "make_fx", weights, {})


def _placeholder_to_get_attr(graph, node, target):
    with graph.inserting_before(node):
        new = graph.create_node("get_attr", target)
    new.meta = dict(node.meta)
    node.replace_all_uses_with(new)
    graph.erase_node(node)


def _lifted_inputs(signature):
    """Placeholder name -> weight name for parameters, buffers, constants."""
    lifted = {}
    for field in ("inputs_to_parameters", "inputs_to_buffers",
                  "inputs_to_lifted_tensor_constants"):
        lifted.update(getattr(signature, field, None) or {})
    return lifted


def _exported_tensor(program, module, name):
    for table in (program.state_dict, getattr(program, "constants", None),
                  getattr(program, "tensor_constants", None)):
        if table and name in table:
            return table[name]
    return fetch_attr(module, name)


def _user_outputs(program, flat):
    """The user's outputs among the graph's outputs (which also carry
    buffer / input mutations), nested back as the module returned them."""
    specs = getattr(program.graph_signature, "output_specs", None)
    if specs is not None:
        from torch.export.graph_signature import OutputKind
        user = [v for s, v in zip(specs, flat) if s.kind == OutputKind.USER_OUTPUT]
    else:
        n_user = len(program.graph_signature.user_outputs)
        user = flat[len(flat) - n_user:]
    if len(user) != len(flat):
        warnings.warn(f"fx-export: dropping {len(flat) - len(user)} buffer/input "
                      "mutation output(s); the exported graph is inference-only")
    out_spec = _out_spec(program)
    return pytree.tree_unflatten(user, out_spec) if out_spec is not None else tuple(user)


def _out_spec(program):
    """The pytree spec of the module's outputs; where it lives varies."""
    try:
        return program.module_call_graph[0].signature.out_spec
    except (AttributeError, IndexError, TypeError):
        pass
    try:
        return program.call_spec.out_spec
    except Exception:  # removed or deprecated in some versions
        return None


def _user_symbols(program, dyns):
    """Names for torch's symbols: the user's --dynamic names for the
    symbols torch.export gave those dimensions."""
    names = dynamic.SymbolNames()
    placeholders = {n.name: n for n in program.graph_module.graph.nodes if n.op == "placeholder"}
    user = [placeholders[name] for name in program.graph_signature.user_inputs]
    for d in dyns:
        size = user[d.input].meta["val"].shape[d.dim]
        expr = getattr(getattr(size, "node", None), "expr", None)
        if expr is None or getattr(expr, "is_Integer", False):
            raise ExportError(f"--dynamic {d.input}:{d.dim}:{d.name}: torch.export made this "
                              f"dimension the constant {int(size)}")
        if getattr(expr, "is_Symbol", False):
            names.names.setdefault(str(expr), d.name)
    return names


def _export_dynamic(module, args, dyns):
    import torch.export

    try:
        return torch.export.export(module, tuple(args),
                                   dynamic_shapes=dynamic.torch_dynamic_shapes(dyns, args))
    except Exception as e:  # noqa: BLE001 - torch's constraint errors are long
        text = str(e).strip().splitlines()
        raise ExportError(f"torch.export refused the dynamic dimensions: "
                          f"{type(e).__name__}: {text[0] if text else ''}"
                          + ("".join("\n  " + line for line in text[1:12]))) from e


def _capture_aten_export(module, args, dyns=None):
    import torch.export

    with fused_fast_paths_disabled(module):
        if dyns:
            program = _export_dynamic(module, args, dyns)
        else:
            try:
                program = torch.export.export(module, tuple(args))
            except Exception as e:  # noqa: BLE001 - the model's, as torch says it
                text = str(e).strip().splitlines()
                raise ExportError(f"torch.export refused the model: {type(e).__name__}: "
                                  f"{text[0] if text else ''}") from e
        # Lower to the Core ATen opset (torch >= 2.2).  Newer versions export
        # composite ops (aten.linear, aten.conv2d, and the fused
        # aten.scaled_dot_product_attention); the default table turns them
        # into aten.addmm, aten.convolution, aten.bmm/_softmax..., the same
        # level as make_fx graphs, and a bounded set for a compiler.
        if hasattr(program, "run_decompositions"):
            program = program.run_decompositions()
    graph = program.graph_module.graph

    # Weights become get_attr nodes.  Name them by identity with the
    # module's own tensors: torch 2.1 mangles the names (L__self___fc1.weight).
    names = _weight_names(module)
    weights = {}
    lifted = _lifted_inputs(program.graph_signature)
    user_inputs = set(program.graph_signature.user_inputs)
    for node in list(graph.nodes):
        if node.op == "placeholder" and node.name in lifted:
            tensor = _exported_tensor(program, module, lifted[node.name])
            name = names.get(id(tensor), lifted[node.name])
            weights[name] = tensor
            _placeholder_to_get_attr(graph, node, name)
        elif node.op == "placeholder" and node.name not in user_inputs:
            raise ExportError(f"unsupported graph input {node.name!r} (not a tensor input)")
        elif node.op == "get_attr":
            weights[node.target] = fetch_attr(program.graph_module, node.target)

    output = next(n for n in graph.nodes if n.op == "output")
    output.args = (_user_outputs(program, list(pytree.tree_flatten(output.args[0])[0])),)

    names = _user_symbols(program, dyns) if dyns else None
    for node in graph.nodes:
        if "val" in node.meta:
            node.meta["fxpipe_val"] = spec_of(node.meta["val"], names)
    _attach_frames(graph, innermost_first=False)
    symbols = dynamic.symbol_table(program.range_constraints, names) if dyns else None
    return Captured(graph, "aten", "torch.export", weights, {}, symbols)


def capture_aten(module, args, dyns=None):
    if HAS_TORCH_EXPORT:
        captured = _capture_aten_export(module, args, dyns)
    elif dyns:
        raise ExportError(
            f"--dynamic needs torch.export (PyTorch >= 2.1); this is PyTorch {torch.__version__}, "
            "whose make_fx(tracing_mode='symbolic') cannot trace a module with parameters "
            "(its FakeTensorMode refuses the real parameter tensors), makes every dimension "
            "symbolic rather than the chosen ones, merges dimensions whose example sizes are "
            "equal, and records no ranges")
    else:
        captured = _capture_aten_make_fx(module, args)
    merge_duplicate_get_attrs(captured.graph)
    replace_lift_fresh_copy(captured.graph)
    eliminate_dead_code(captured.graph)
    check_no_fused_ops(captured.graph)
    _drop_unused_weights(captured)
    return captured


# ----------------------------------------------------------- torch level

class _SourceTracer(torch.fx.Tracer):
    """symbolic_trace's tracer, recording model-code frames on each node.

    We build the trace ourselves (outermost frame first) rather than rely
    on record_stack_traces, whose frame order changed between versions.
    """

    def create_proxy(self, *args, **kwargs):
        proxy = super().create_proxy(*args, **kwargs)
        stack = traceback.format_stack()
        proxy.node.meta["fxpipe_frames"] = sourceloc.model_frames("".join(stack), False)
        return proxy


def capture_torch(module, args):
    tracer = _SourceTracer()
    graph = tracer.trace(module)
    gm = torch.fx.GraphModule(tracer.root, graph)
    try:
        _record_values(gm, args)
    except RuntimeError as real_error:
        if not fake.missing_kernel(real_error):
            raise
        # A CPU kernel lacks the dtype (float16 on 1.13): the values'
        # shapes, dtypes and strides from fake tensors, running no kernel.
        fake.retry(real_error, args, lambda mode: _record_values(gm, args, mode))
    merge_duplicate_get_attrs(graph)
    eliminate_dead_code(graph)

    # Weights: those read by get_attr, and the parameters and buffers of the
    # leaf modules called (named by their dotted path in the model).
    weights, modules = {}, {}
    for node in graph.nodes:
        if node.op == "get_attr":
            weights[node.target] = fetch_attr(gm, node.target)
        elif node.op == "call_module":
            submodule = gm.get_submodule(node.target)
            modules[node.target] = submodule
            for local, tensor in module_tensors(submodule):
                weights[f"{node.target}.{local}"] = tensor
    return Captured(graph, "torch", "symbolic_trace", weights, modules)


def module_tensors(module):
    """(local dotted name, tensor) for a module's parameters and buffers."""
    return list(module.named_parameters()) + list(module.named_buffers())


def _drop_unused_weights(captured):
    live = {n.target for n in captured.graph.nodes if n.op == "get_attr"}
    captured.weights = {k: v for k, v in captured.weights.items() if k in live}


def capture(module, args, level, dyns=None):
    """Capture `module` called on the tensors `args` at `level`; dyns: the
    dynamic.DynamicDim list of symbolic dimensions (aten level only)."""
    if level not in ("aten", "torch"):
        raise ExportError(f"unknown graph level {level!r} (expected 'aten' or 'torch')")
    if not isinstance(module, torch.nn.Module):
        raise ExportError(f"expected a torch.nn.Module, got {type(module).__name__}")
    if quantized_fx.needs_unpacking(module):
        module = quantized_fx.unpack(module)
    args = (args,) if isinstance(args, torch.Tensor) else tuple(args)
    for i, arg in enumerate(args):
        if not isinstance(arg, torch.Tensor):
            raise ExportError(f"example input {i} is a {type(arg).__name__}; "
                              "only tensor inputs are supported")
    # Trace on copies: the capture runs the model, and an in-place op on an
    # input must not change the caller's tensors.
    args = tuple(a.detach().clone() for a in args)
    if dyns:
        if level != "aten":
            raise ExportError("--dynamic needs an aten graph (--graph aten): symbolic tracing "
                              "records no shapes")
        dynamic.check_dynamic(dyns, args)
    if level == "aten":
        return capture_aten(module, args, dyns)
    return capture_torch(module, args)
