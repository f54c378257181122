"""torch.compile(model, backend="fxpipe"): a TorchDynamo backend.

Dynamo hands the backend each FX graph it captures with example inputs.
The graph goes through fx-export's Python API (torch.export, core ATen)
and the C tools, and runs through libfxrt.  Modules are cached on disk
by a hash of the graph, its weights, the input shapes and dtypes and the
tools ($FXPIPE_CACHE, else ~/.cache/fxpipe), so a second process with
the same model loads instead of compiling.

What fxpipe refuses runs eagerly, with a warning (once per reason):
  * an op the tools reject: the graph is taken to core ATen, split
    around that op (torch.fx's capability partitioner), and the pieces
    without it compiled;
  * autograd: the compiled code is inference-only, so a graph called with
    grad enabled on tensors that require grad runs eagerly;
  * inputs other than tensors and ints.
Symbolic shapes (dynamo's automatic dynamic shapes, dynamic=True) are
never compiled as such: the graph is compiled per concrete shape at call
time, each a module of its own.

Weights (module parameters and buffers dynamo passes as graph inputs) are
baked into the module; a call after they changed in place (their version
counter moved, or they were replaced) compiles again for the new values.
"""
import hashlib
import json
import os
import shutil
import tempfile
import warnings

import torch
import torch.fx
import torch.utils._pytree as pytree

from . import _compile, _module

CACHE_VERSION = "fxpipe-dynamo-1"
_warned = set()
_tools_digest = None

# What the backend did, for tests and curious users: compiles that ran
# the pipe, modules loaded from the disk cache, graphs (or pieces) eager.
stats = {"compiled": 0, "cache_loads": 0, "eager_graphs": 0, "calls": 0, "slow_calls": 0}


def cache_dir():
    return os.environ.get("FXPIPE_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "fxpipe")


def _warn_once(key, message):
    if key not in _warned:
        _warned.add(key)
        warnings.warn("fxpipe: " + message, stacklevel=3)


# ------------------------------------------------------------------ hashing

def _tools():
    """A digest of what turns a graph into a module: the C tools, the
    exporter's sources and torch's version.  Once per process."""
    global _tools_digest
    if _tools_digest is None:
        h = hashlib.sha256(CACHE_VERSION.encode())
        h.update(torch.__version__.encode())
        for name in _compile.STAGES:
            with open(_compile.tool_path(name), "rb") as f:
                h.update(f.read())
        fx = os.path.dirname(_compile._fx_export().__file__)
        for name in sorted(os.listdir(fx)):
            if name.endswith(".py"):
                with open(os.path.join(fx, name), "rb") as f:
                    h.update(name.encode() + f.read())
        _tools_digest = h.hexdigest()
    return _tools_digest


def _hash_tensor(h, t):
    t = t.detach()
    h.update(("%s%s%s" % (t.dtype, tuple(t.shape), t.stride())).encode())
    if t.numel():
        h.update(t.contiguous().view(-1).view(torch.uint8).numpy().data)


def _graph_key(gm, baked, inputs):
    h = hashlib.sha256(_tools().encode())
    h.update(gm.code.encode())
    # Tensors the code reads by get_attr: registered ones and plain attributes.
    plain = [(k, v) for k, v in vars(gm).items() if isinstance(v, torch.Tensor)]
    for name, t in sorted(list(gm.named_parameters()) + list(gm.named_buffers()) + plain,
                          key=lambda item: item[0]):
        h.update(name.encode())
        _hash_tensor(h, t)
    for kind, v in baked.layout:
        h.update(kind.encode())
        if kind == "w":
            _hash_tensor(h, baked.weights[v])
        elif kind == "c":
            h.update(repr(v).encode())
    for x in inputs:
        h.update(("%s%s" % (x.dtype, tuple(x.shape))).encode())
    return h.hexdigest()


# --------------------------------------------------------- the baked module

class _Baked(torch.nn.Module):
    """The graph with its weights and int arguments bound, so that what
    fx-export sees takes the user's tensors alone."""

    def __init__(self, gm, layout, weights):
        super().__init__()
        self.gm = gm
        self.layout = layout          # per graph input: ("x", j), ("w", k) or ("c", value)
        self.weights = weights
        for k, t in enumerate(weights):
            self.register_buffer("w%d" % k, t.detach())

    def forward(self, *xs):
        args = [xs[v] if kind == "x" else getattr(self, "w%d" % v) if kind == "w" else v
                for kind, v in self.layout]
        return self.gm(*args)


def _source_name(node):
    arg = node.meta.get("grapharg")
    source = getattr(arg, "source", None)
    if source is None:
        return ""
    name = source.name
    return name() if callable(name) else str(name)


def _is_weight(node, value):
    if isinstance(value, torch.nn.Parameter):
        return True
    name = _source_name(node)
    return "_parameters" in name or "_buffers" in name


def _bind(gm, args):
    """(baked module, the user's tensors) for one concrete call."""
    placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
    layout, weights, xs = [], [], []
    for node, a in zip(placeholders, args):
        if isinstance(a, torch.Tensor) and (a.device.type != "cpu" or a.layout != torch.strided):
            return None, "a %s tensor on %s (fxpipe compiles for dense CPU tensors)" % (a.layout, a.device)
        if isinstance(a, torch.Tensor) and _is_weight(node, a):
            layout.append(("w", len(weights)))
            weights.append(a)
        elif isinstance(a, torch.Tensor):
            layout.append(("x", len(xs)))
            xs.append(a)
        elif isinstance(a, (int, torch.SymInt)) and not isinstance(a, bool):
            layout.append(("c", int(a)))
        else:
            return None, "a graph input of type %s" % type(a).__name__
    return _Baked(gm, layout, weights), xs


# ------------------------------------------------------------- the disk cache

def _paths(key):
    d = os.path.join(cache_dir(), key[:2])
    return os.path.join(d, key + ".vmfb"), os.path.join(d, key + ".json")


def _load_cached(key, count=True):
    vmfb, meta = _paths(key)
    if not os.path.exists(vmfb):
        return None
    with open(meta) as f:
        info = json.load(f)
    stats["cache_loads"] += count
    # as many threads as torch would use for the same ops
    return _module.load(vmfb, threads=torch.get_num_threads()), info


def _store(key, tmpdir, info):
    """Meta first, the module last and by rename: a module present has
    its meta, and readers never see half a file."""
    vmfb, meta = _paths(key)
    os.makedirs(os.path.dirname(vmfb), exist_ok=True)
    with open(os.path.join(tmpdir, "meta.json"), "w") as f:
        json.dump(info, f)
    os.replace(os.path.join(tmpdir, "meta.json"), meta)
    os.replace(os.path.join(tmpdir, "model.vmfb"), vmfb)


class Refused(_compile.CompileError):
    """What no split can help: the graph runs eagerly as a whole."""


def _export_checked(module, xs, json_path):
    """fx-export, refusing a graph that writes into its inputs or buffers
    (batch norm in training mode): fx-export drops those writes, which
    would leave the model's state behind eager's."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        _compile.export(module, xs, json_path)
    for w in caught:
        if "mutation" in str(w.message):
            raise Refused("fxpipe", "the graph writes into its inputs or buffers (%s)" % w.message)
        warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)


def _compile_cached(module, xs, key, out_spec):
    """The module compiled for xs, from the cache or through the pipe;
    CompileError as the pipe raised it.  out_spec() gives the outputs'
    structure; it runs the graph, so only once export found no writes."""
    hit = _load_cached(key)
    if hit is not None:
        return hit
    os.makedirs(cache_dir(), exist_ok=True)
    tmpdir = tempfile.mkdtemp(prefix="tmp-", dir=cache_dir())
    try:
        json_path = os.path.join(tmpdir, "model.json")
        _export_checked(module, xs, json_path)
        info = {"out": out_spec()}
        _compile.run_pipe(json_path, os.path.join(tmpdir, "model.vmfb"), "cpu", tmpdir)
        stats["compiled"] += 1
        _store(key, tmpdir, info)
    finally:
        shutil.rmtree(tmpdir, ignore_errors=True)
    return _load_cached(key, count=False)


def _flat(result):
    return list(result) if isinstance(result, tuple) else [result]


class _Compiled:
    """A compiled module called like the piece it replaces: tensors in,
    the piece's output structure out."""

    def __init__(self, module, info):
        self.module = module
        self.function = module["main"]
        self.spec = pytree.treespec_loads(info["out"])
        self.fast = self.function.torch_runner()
        # dynamo's graphs return a tuple or a list of tensors: no pytree
        # walk for those
        n = self.spec.num_leaves
        self.shape = None
        for kind in (tuple, list):
            if pytree.tree_structure(kind([0] * n)) == self.spec:
                self.shape = kind

    def __call__(self, xs):
        res = self.fast(xs) if self.fast else None
        if res is None:     # inputs the fast path does not take, or results it cannot make
            stats["slow_calls"] += 1
            res = _flat(self.function(*xs))
        if self.shape is not None:
            return self.shape(res)
        return pytree.tree_unflatten(res, self.spec)


def _compile_piece(gm, baked, xs):
    """gm (run as baked on xs) compiled, from the cache or the pipe."""
    def out_spec():
        with torch.no_grad():
            flat, spec = pytree.tree_flatten(baked(*xs))
        if not flat or not all(isinstance(t, torch.Tensor) for t in flat):
            raise Refused("fxpipe", "the graph returns something other than tensors")
        return pytree.treespec_dumps(spec)
    return _Compiled(*_compile_cached(baked, xs, _graph_key(gm, baked, xs), out_spec))


# ------------------------------------------------------------ splitting

def _op_names(message):
    """The op names a tool's message mentions (aten.x.y, torch.aten.x, aten::x)."""
    import re
    return set(re.findall(r"aten(?:\.|::)([A-Za-z0-9_]+)", message))


def _culprits(agm, message):
    names = _op_names(message)
    return {str(n.target) for n in agm.graph.nodes
            if n.op == "call_function" and str(n.target).split(".")[1:2] and
            str(n.target).split(".")[1] in names}


class _PieceModule(torch.nn.Module):
    def __init__(self, compiled):
        super().__init__()
        self.compiled = compiled

    def forward(self, *xs):
        return self.compiled(list(xs))


def _partition(agm, xs, unsupported):
    """agm with the runs of supported ops fused into compiled pieces; the
    unsupported ops stay in it and run eagerly."""
    from torch.fx.passes.infra.partitioner import CapabilityBasedPartitioner
    from torch.fx.passes.operator_support import OperatorSupportBase

    class Support(OperatorSupportBase):
        def is_node_supported(self, submodules, node):
            return node.op == "call_function" and str(node.target) not in unsupported

    fused = CapabilityBasedPartitioner(agm, Support(), allows_single_node_partition=True) \
        .partition_and_fuse()
    seen = {}

    class Record(torch.fx.Interpreter):
        def call_module(self, target, args, kwargs):
            seen[target] = args
            return super().call_module(target, args, kwargs)

    with torch.no_grad():
        Record(fused).run(*xs)
    for name, args in seen.items():
        sub = getattr(fused, name)
        piece_xs = list(args)
        if not all(isinstance(a, torch.Tensor) for a in piece_xs):
            continue    # stays eager
        trivial = _Baked(sub, [("x", j) for j in range(len(piece_xs))], [])
        setattr(fused, name, _PieceModule(_compile_piece(sub, trivial, piece_xs)))
    return fused


def _split(baked, xs, known, error):
    """A runner for baked over xs with the ops fxpipe refuses eager, or
    None (and a warning) where splitting does not make the rest compile."""
    from torch._decomp import core_aten_decompositions
    from torch.fx.experimental.proxy_tensor import make_fx

    if isinstance(error, Refused) or (error is not None and not _op_names(str(error))):
        _warn_once(("graph", str(error)), "a graph runs eagerly: %s" % error)
        return None, set()
    with torch.no_grad():
        agm = make_fx(baked, decomposition_table=core_aten_decompositions())(*xs)
    unsupported = set(known)
    for _ in range(16):
        if error is not None:
            ops = _culprits(agm, str(error))
            if not ops or ops <= unsupported:
                _warn_once(("graph", str(error)), "a graph runs eagerly: %s" % error)
                return None, unsupported
            unsupported |= ops
        try:
            fused = _partition(agm, xs, unsupported)
            break
        except _compile.CompileError as e:
            error = e
    else:
        return None, unsupported
    for op in sorted(unsupported):
        _warn_once(("op", op), "%s is not supported; it runs eagerly, the rest compiled" % op)
    return (lambda ys: fused(*ys)), unsupported


def _split_marker(key):
    return os.path.join(cache_dir(), key[:2], key + ".split.json")


# ------------------------------------------------------------ the backend

def _signature(args):
    """What picks a graph's entry: each tensor's shape and dtype, other
    arguments (ints, floats) by value."""
    return tuple((a.shape, a.dtype) if isinstance(a, torch.Tensor) else a for a in args)


class _Entry:
    """What runs one graph for one call signature, and the weights it
    baked in (with their version counters, to notice a change)."""

    def __init__(self, run, baked, args):
        self.run = run
        self.weights = [(p, args[p], args[p]._version)
                        for p, (kind, _) in enumerate(baked.layout if baked else []) if kind == "w"]
        self.inputs = [p for p, (kind, _) in enumerate(baked.layout if baked else []) if kind == "x"]
        self.sig = _signature(args)

    def same(self, args):
        """Whether args are this entry's call signature with its weights
        unchanged: the common call, checked without building a key."""
        sig = self.sig
        if len(args) != len(sig) or not self.current(args):
            return False
        for a, s in zip(args, sig):
            if isinstance(s, tuple) and len(s) == 2 and isinstance(s[1], torch.dtype):
                if not isinstance(a, torch.Tensor) or a.dtype is not s[1] or a.shape != s[0]:
                    return False
            elif isinstance(a, torch.Tensor) or a != s:
                return False
        return True

    def current(self, args):
        for p, t, v in self.weights:
            if args[p] is not t or t._version != v:
                return False
        return True


def _entry(gm, args):
    baked, xs = _bind(gm, args)
    if baked is None:
        _warn_once(("input", xs), "a graph runs eagerly: it takes %s" % xs)
        return _eager_entry(gm)
    key = _graph_key(gm, baked, xs)
    marker, error, known = _split_marker(key), None, []
    if os.path.exists(marker):
        with open(marker) as f:
            known = json.load(f)
    else:
        try:
            return _Entry(_compile_piece(gm, baked, xs), baked, args)
        except _compile.CompileError as e:
            error = e
    run, unsupported = _split(baked, xs, known, error)
    if run is None:
        return _eager_entry(gm)
    os.makedirs(os.path.dirname(marker), exist_ok=True)
    with open(marker + ".tmp", "w") as f:
        json.dump(sorted(unsupported), f)
    os.replace(marker + ".tmp", marker)
    return _Entry(run, baked, args)


def _eager_entry(gm):
    stats["eager_graphs"] += 1
    e = _Entry(lambda args: gm(*args), None, [])
    e.inputs = None     # eager: every argument
    return e


class _Graph:
    """What the backend returns for one dynamo graph: a module per call
    signature (shapes, dtypes, int arguments), compiled on first use."""

    def __init__(self, gm):
        self.gm = gm
        self.entries = {}
        self.last = None    # the entry of the last call

    def __call__(self, *args):
        stats["calls"] += 1
        if torch.is_grad_enabled() and any(
                isinstance(a, torch.Tensor) and a.requires_grad for a in args):
            _warn_once("grad", "compiled code is inference-only; with grad enabled on "
                       "tensors that require it the graph runs eagerly (use torch.no_grad())")
            return self.gm(*args)
        e = self.last
        if e is None or not e.same(args):
            sig = _signature(args)
            e = self.entries.get(sig)
            if e is None or not e.current(args):
                e = self.entries[sig] = _entry(self.gm, args)
            self.last = e
        if e.inputs is None:
            return e.run(args)
        return e.run([args[p] for p in e.inputs])


def fxpipe_backend(gm, example_inputs, **kwargs):
    """The dynamo backend: gm is compiled per call signature on its first
    call with it (example_inputs may hold symbolic sizes; calls do not)."""
    return _Graph(gm)


def register():
    """Registers "fxpipe" with dynamo (the installed package's entry point
    does it too); returns True if this call did."""
    from torch._dynamo.backends import registry
    # Registered already, or found by its entry point (which dynamo is
    # loading now: this import is that load, and dynamo registers next).
    if "fxpipe" in registry._COMPILER_FNS or registry._BACKENDS.get("fxpipe") is not None:
        return False
    registry.register_backend(fxpipe_backend, name="fxpipe")
    return True
