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

Symbolic shapes (dynamo's automatic dynamic shapes after a second batch
size, mark_dynamic, dynamic=True): a graph whose tensor inputs have one
symbol at dimension 0 (the batch) and nowhere else, and whose int inputs
are that symbol or others, is compiled ONCE with a dynamic batch
(fx-export's DynamicDim on each such input; codegen's chunk functions,
man/codegen.1 "Dynamic batch"), and that module runs every later call
whatever its batch; the other symbols (dynamic=True makes every size one)
are compiled per concrete value as below.  Where that module is refused
(codegen cannot prove every batch item computed on its own, torch.export
fails, the batch is used as data, anything) the graph falls back, with a
warning once per reason, to what is done for every other graph: a module
per concrete shape, compiled at call time.  So does a call whose batch is
outside the module's range.  The refusal is cached on disk too.

Weights (module parameters and buffers dynamo passes as graph inputs) are
baked into the module; a call after they changed in place (their version
counter moved, or they were replaced) compiles again for the new values.
"""
import functools
import hashlib
import inspect
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
# the pipe (dynamic-batch ones counted in both compiled and
# batch_compiled), modules loaded from the disk cache, graphs (or pieces)
# eager, graphs with a symbolic batch whose dynamic-batch module was
# refused (they compile per shape), calls run by a dynamic-batch module.
stats = {"compiled": 0, "batch_compiled": 0, "cache_loads": 0, "eager_graphs": 0,
         "batch_refused": 0, "calls": 0, "batch_calls": 0, "slow_calls": 0}


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


def _graph_key(gm, baked, inputs, batched=()):
    """batched: the inputs whose dimension 0 is a dynamic batch (hashed as ?)."""
    h = hashlib.sha256(_tools().encode())
    if batched:
        h.update(b"dynamic batch")
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
    for j, x in enumerate(inputs):
        shape = ("?",) + tuple(x.shape[1:]) if j in batched else tuple(x.shape)
        h.update(("%s%s" % (x.dtype, shape)).encode())
    return h.hexdigest()


# --------------------------------------------------------- the baked module

class _Baked(torch.nn.Module):
    """The graph with its weights and int arguments bound, so that what
    fx-export sees takes the user's tensors alone."""

    def __init__(self, gm, layout, weights):
        super().__init__()
        self.gm = gm
        # per graph input: ("x", j), ("w", k), ("c", value) or ("b", j): the
        # batch, dimension 0 of input j (symbolic where exported so)
        self.layout = layout
        self.weights = weights
        for k, t in enumerate(weights):
            self.register_buffer("w%d" % k, t.detach())

    def forward(self, *xs):
        args = [xs[v] if kind == "x" else getattr(self, "w%d" % v) if kind == "w" else
                xs[v].shape[0] if kind == "b" else v for kind, v in self.layout]
        return self.gm(*args)


@functools.lru_cache(maxsize=None)
def _declaring(n):
    """_Baked with a forward declaring n tensor parameters: torch.export
    matches dynamic_shapes, one per input, to forward's parameters, and
    *xs would be one."""
    def forward(self, *xs):
        return _Baked.forward(self, *xs)
    kind = inspect.Parameter.POSITIONAL_ONLY
    forward.__signature__ = inspect.Signature(
        [inspect.Parameter("self", kind)] + [inspect.Parameter("x%d" % j, kind) for j in range(n)])
    return type("_Baked%d" % n, (_Baked,), {"forward": forward})


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


def _placeholders(gm):
    return [n for n in gm.graph.nodes if n.op == "placeholder"]


def _bind(gm, args, batch=frozenset()):
    """(baked module, the user's tensors) for one concrete call.  batch:
    the positions of the tensors whose dimension 0 is a dynamic batch and
    of the ints that are that batch (bound to the first such tensor's)."""
    layout, weights, xs = [], [], []
    for p, (node, a) in enumerate(zip(_placeholders(gm), args)):
        if isinstance(a, torch.Tensor) and (a.device.type != "cpu" or a.layout != torch.strided):
            return None, "a %s tensor on %s (fxpipe compiles for dense CPU tensors)" % (a.layout, a.device)
        if isinstance(a, torch.Tensor) and _is_weight(node, a):
            layout.append(("w", len(weights)))
            weights.append(a)
        elif isinstance(a, torch.Tensor):
            layout.append(("x", len(xs)))
            xs.append(a)
        elif isinstance(a, (int, torch.SymInt)) and not isinstance(a, bool):
            layout.append(("b", None) if p in batch else ("c", int(a)))
        else:
            return None, "a graph input of type %s" % type(a).__name__
    if batch:
        rows = [v for p, (kind, v) in enumerate(layout) if kind == "x" and p in batch]
        if not rows:
            return None, "a dynamic batch on no input"
        layout = [("b", rows[0]) if kind == "b" else (kind, v) for kind, v in layout]
        return _declaring(len(xs))(gm, layout, weights), xs
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


def _export_checked(module, xs, json_path, dynamic=None):
    """fx-export, refusing a graph that writes into its inputs or buffers
    (batch norm in training mode): fx-export drops those writes, which
    would leave the model's state behind eager's."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        _compile.export(module, xs, json_path, dynamic=dynamic)
    for w in caught:
        if "mutation" in str(w.message):
            raise Refused("fxpipe", "the graph writes into its inputs or buffers (%s)" % w.message)
        warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)


def _compile_cached(module, xs, key, out_spec, dynamic=None):
    """The module compiled for xs (with fx_export's dynamic dims), from
    the cache or through the pipe; CompileError as the pipe raised it.
    out_spec() gives the outputs' structure; it runs the graph, so only
    once export found no writes."""
    hit = _load_cached(key)
    if hit is not None:
        return hit
    os.makedirs(cache_dir(), exist_ok=True)
    tmpdir = tempfile.mkdtemp(prefix="tmp-", dir=cache_dir())
    try:
        json_path = os.path.join(tmpdir, "model.json")
        _export_checked(module, xs, json_path, dynamic)
        info = {"out": out_spec()}
        _compile.run_pipe(json_path, os.path.join(tmpdir, "model.vmfb"), "cpu", tmpdir)
        stats["compiled"] += 1
        stats["batch_compiled"] += bool(dynamic)
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
        # a dynamic batch: no fast path (results are sized per call)
        self.batched = any(-1 in t.shape for t in self.function.inputs)
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
            stats["batch_calls" if self.batched else "slow_calls"] += 1
            res = _flat(self.function(*xs))
        if self.shape is not None:
            return self.shape(res)
        return pytree.tree_unflatten(res, self.spec)


def _compile_piece(gm, baked, xs, key=None, dynamic=None):
    """gm (run as baked on xs, with fx_export's dynamic dims) compiled,
    from the cache (under key, by default the graph's) or the pipe."""
    def out_spec():
        with torch.no_grad():
            flat, spec = pytree.tree_flatten(baked(*xs))
        if not flat or not all(isinstance(t, torch.Tensor) for t in flat):
            raise Refused("fxpipe", "the graph returns something other than tensors")
        return pytree.treespec_dumps(spec)
    key = key or _graph_key(gm, baked, xs)
    return _Compiled(*_compile_cached(baked, xs, key, out_spec, dynamic))


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


def _marker(key, what):
    """The cache's note on key: ops split out ("split.json"), a dynamic
    batch refused ("nobatch")."""
    return os.path.join(cache_dir(), key[:2], key + "." + what)


def _read_marker(path, parse=lambda text: text):
    """parse(the marker's text), None where there is none."""
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return parse(f.read())


def _write_marker(path, text):
    """By rename: readers never see half a note."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path + ".tmp", "w") as f:
        f.write(text)
    os.replace(path + ".tmp", path)


# ------------------------------------------------------------ the backend

def _signature(args, batch=frozenset()):
    """What picks a graph's entry: each tensor's shape and dtype, other
    arguments (ints, floats) by value; at the positions in batch (a
    dynamic batch) a tensor's shape without dimension 0, None for an int."""
    return tuple(((a.shape[1:] if p in batch else a.shape), a.dtype) if isinstance(a, torch.Tensor)
                 else None if p in batch else a for p, a in enumerate(args))


def _symbol(size):
    """The sympy expression of a SymInt; None for an int."""
    return size.node.expr if isinstance(size, torch.SymInt) else None


def _batch_positions(gm, example_inputs):
    """Where dynamo's graph takes a dynamic batch: the positions of the
    tensor inputs whose dimension 0 is one symbol, and of the int inputs
    that are it; empty where there is none, or where it is anywhere else
    (another dimension, a weight, an expression of it, another symbol at
    dimension 0 of another input)."""
    placeholders = _placeholders(gm)
    if len(placeholders) != len(example_inputs):
        return frozenset()
    # example_inputs' tensors are real ones; the nodes' fake ones have the symbols
    example_inputs = [n.meta.get("example_value", a) for n, a in zip(placeholders, example_inputs)]
    batch, pos = None, set()
    for p, (node, a) in enumerate(zip(placeholders, example_inputs)):
        if isinstance(a, torch.Tensor) and a.dim() and not _is_weight(node, a):
            e = _symbol(a.shape[0])
            if e is None:
                continue
            if not e.is_Symbol or batch not in (None, e):
                return frozenset()
            batch = e
            pos.add(p)
    for p, a in enumerate(example_inputs):
        if isinstance(a, torch.Tensor):
            sizes = a.shape[1:] if p in pos else a.shape
        elif isinstance(a, torch.SymInt) and _symbol(a) == batch:
            pos.add(p)
            continue
        else:
            sizes = [a] if isinstance(a, torch.SymInt) else []
        if any(batch in getattr(_symbol(d), "free_symbols", ()) for d in sizes):
            return frozenset()
    return frozenset(pos) if batch is not None else frozenset()


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


class _BatchEntry(_Entry):
    """The entry of a module with a dynamic batch: calls that differ from
    its first call in the batch alone (batch: _bind's positions)."""

    def __init__(self, run, baked, args, batch):
        super().__init__(run, baked, args)
        self.batch = batch
        self.sig = _signature(args, batch)

    def same(self, args):
        return len(args) == len(self.sig) and self.current(args) and \
            _signature(args, self.batch) == self.sig


def _batch_entry(gm, args, batch):
    """A _BatchEntry for gm at any batch, or None (a warning once per
    reason) where fxpipe refuses it: the caller compiles per shape."""
    baked, xs = _bind(gm, args, batch)
    if baked is None:
        return None     # the per-shape entry says why
    rows = [v for p, (kind, v) in enumerate(baked.layout) if kind == "x" and p in batch]
    key = _graph_key(gm, baked, xs, rows)
    marker = _marker(key, "nobatch")
    reason = _read_marker(marker)
    if reason is None:
        dims = _compile._fx_export().dynamic.DynamicDim
        try:
            return _BatchEntry(_compile_piece(gm, baked, xs, key, [dims(j, 0, "batch") for j in rows]),
                               baked, args, batch)
        except _compile.CompileError as e:     # the same again: remember
            reason = str(e)
            _write_marker(marker, reason)
        except Exception as e:     # anything else: per shape, this time
            reason = "%s: %s" % (type(e).__name__, e)
    stats["batch_refused"] += 1
    _warn_once(("batch", reason), "a graph with a dynamic batch is compiled per batch size: "
               "%s" % reason)
    return None


def _entry(gm, args):
    baked, xs = _bind(gm, args)
    if baked is None:
        _warn_once(("input", xs), "a graph runs eagerly: it takes %s" % xs)
        return _eager_entry(gm)
    key = _graph_key(gm, baked, xs)
    marker, error = _marker(key, "split.json"), None
    known = _read_marker(marker, json.loads)
    if known is None:
        known = []
        try:
            return _Entry(_compile_piece(gm, baked, xs), baked, args)
        except _compile.CompileError as e:
            error = e
    run, unsupported = _split(baked, xs, known, error)
    if run is None:
        return _eager_entry(gm)
    _write_marker(marker, json.dumps(sorted(unsupported)))
    return _Entry(run, baked, args)


def _eager_entry(gm):
    stats["eager_graphs"] += 1
    e = _Entry(lambda args: gm(*args), None, [])
    e.inputs = None     # eager: every argument
    return e


class _Graph:
    """What the backend returns for one dynamo graph: a module per call
    signature (shapes, dtypes, int arguments), compiled on first use; for
    a graph with a dynamic batch (batch: _batch_positions) one module for
    every batch where fxpipe takes it."""

    def __init__(self, gm, batch=frozenset()):
        self.gm = gm
        self.batch = batch
        self.entries = {}
        self.batch_entries = {}   # batch signature: its _BatchEntry, None where refused
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
            e = self.last = self._pick(args)
        try:
            return self._run(e, args)
        except _module.Error as err:
            # a batch outside the dynamic module's range: per shape
            if not isinstance(e, _BatchEntry) or "dimension 0 is" not in str(err):
                raise
        e = self.last = self.entries[_signature(args)] = _entry(self.gm, args)
        return self._run(e, args)

    @staticmethod
    def _run(e, args):
        if e.inputs is None:
            return e.run(args)
        return e.run([args[p] for p in e.inputs])

    def _pick(self, args):
        """The entry for args: the dynamic batch's where there is one (and
        this signature did not fall out of its range), else the shape's."""
        sig = _signature(args)
        e = self.entries.get(sig)
        if e is None and self.batch:
            bsig = _signature(args, self.batch)
            b = self.batch_entries.get(bsig, False)
            if b is False or b is not None and not b.current(args):
                b = self.batch_entries[bsig] = _batch_entry(self.gm, args, self.batch)
            if b is not None:
                return b
        if e is None or not e.current(args):
            e = self.entries[sig] = _entry(self.gm, args)
        return e


def fxpipe_backend(gm, example_inputs, **kwargs):
    """The dynamo backend: gm is compiled per call signature on its first
    call with it, or once for every batch where example_inputs (which may
    hold symbolic sizes; calls do not) have a dynamic batch."""
    return _Graph(gm, _batch_positions(gm, example_inputs))


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
