"""Tracing without running the model's kernels, for PyTorch 1.13.

make_fx (PyTorch < 2.1) runs every op of the model while it traces, and
1.13's CPU kernels lack float16 for many ops (convolution, addmm, ...):
the trace of a float16 model stops at the first of them with
RuntimeError: "slow_conv2d_cpu" not implemented for 'Half'.  The same
trace with fake tensors computes only shapes, dtypes and strides (meta
kernels), so it records the float16 graph the model describes, with the
same ops as a real trace (but for a Python number written into a slice,
x[i] = 0: C++ code sees the functionalized fake tensor on the meta device
and makes the number a scalar_tensor op rather than a constant).  PyTorch
>= 2.1 needs none of this: torch.export always traces with fake tensors.

1.13's FakeTensorMode refuses real tensors (the model's parameters and
buffers); the mode here turns them into fake tensors as they reach it.
The tracer above it still sees the real tensors, so the graph's weights are
the model's own, with their data.
"""

import re

import torch
import torch.utils._pytree as pytree

from .common import TORCH_VERSION, ExportError

# The error of a CPU kernel that lacks a dtype.  1.13 lacks float16 for
# many ops and bfloat16 for some.
_MISSING_KERNEL = re.compile(r"not implemented for '(Half|BFloat16|ComplexHalf)'")


def missing_kernel(error):
    """Whether `error` is a CPU kernel's refusal of a reduced-precision
    dtype, on a PyTorch that this module can trace with fake tensors (1.x:
    the mode here is written for 1.13's FakeTensorMode)."""
    return TORCH_VERSION < (2, 0) and isinstance(error, RuntimeError) and \
        _MISSING_KERNEL.search(str(error)) is not None


def _dtype_names(args, kwargs):
    seen = []
    for t in pytree.tree_flatten((args, kwargs))[0]:
        if isinstance(t, torch.Tensor):
            name = str(t.dtype).replace("torch.", "")
            if name not in seen:
                seen.append(name)
    return seen


# Ops whose meta kernel in 1.13 describes another result than the CPU
# kernel does (the meta kernels follow CUDA's conventions, or merely
# propagate the input's layout).  The CPU kernels (PyTorch 2's, which have
# float16; 1.13's for float32) give: the normalized output in the input's
# dtype; mean and rstd (batch norm: save_mean and save_invstd) in the
# input's dtype, or float32 where a parameter's dtype differs from the
# input's ("mixed type"); batch norm in eval mode saves nothing (two empty
# tensors [0]); layer norm's results are row-major whatever the input's
# layout.  1.13's meta kernels give float32 statistics whatever the input,
# [C] in eval mode too, a float32 output for mixed types, and layer norm's
# output in a permuted input's layout.
_NORM_OPS = {
    # op: (index of the input, indices of its parameters, of the training
    # flag, whether the results are row-major)
    "native_batch_norm": (0, (1, 2, 3, 4), 5, False),
    "native_layer_norm": (0, (2, 3), None, True),
    "native_group_norm": (0, (1, 2), None, False),
}


def _positional(func, args, kwargs):
    """args and kwargs as one positional list (defaults filled in)."""
    values = list(args)
    for arg in func._schema.arguments[len(args):]:
        values.append(kwargs[arg.name] if arg.name in kwargs else arg.default_value)
    return values


def _cpu_results(func, args, kwargs, out):
    """`out` (a meta kernel's result) as the CPU kernel describes it."""
    spec = _NORM_OPS.get(func.overloadpacket.__name__)
    if spec is None or func._overloadname != "default":
        return out
    from torch._subclasses.fake_tensor import FakeTensor
    from torch.utils._mode_utils import no_dispatch

    x_index, param_indices, training_index, row_major = spec
    values = _positional(func, args, kwargs)
    x = values[x_index]
    mixed = any(isinstance(values[i], torch.Tensor) and values[i].dtype != x.dtype
                for i in param_indices)
    stats_dtype = torch.float32 if mixed else x.dtype
    saves_nothing = training_index is not None and not values[training_index]

    def like(t, dtype, shape=None):
        shape = tuple(t.shape) if shape is None else shape
        if t.dtype == dtype and tuple(t.shape) == shape and (
                not row_major or t.is_contiguous() or t.numel() == 0):
            return t
        with no_dispatch():
            meta = (torch.empty(shape, dtype=dtype, device="meta")
                    if row_major or shape != tuple(t.shape) else
                    torch.empty_strided(shape, t.stride(), dtype=dtype, device="meta"))
        return FakeTensor(t.fake_mode, meta, t.fake_device)

    y, stat1, stat2 = out
    shape = (0,) if saves_nothing else None
    return (like(y, x.dtype), like(stat1, stats_dtype, shape), like(stat2, stats_dtype, shape))


def _mode_class():
    from torch._subclasses.fake_tensor import FakeTensor, FakeTensorMode

    class Mode(FakeTensorMode):
        """A FakeTensorMode that takes real tensors (the weights), and
        remembers the last op that it could not run (the innermost one
        that an error went through)."""

        def __init__(self):
            # No fallback to real kernels: they would run the very float16
            # kernels that are missing.  Ops whose result size depends on
            # the data are refused rather than sized from made-up data.
            super().__init__(allow_fallback_kernels=False, throw_on_data_dependent_ops=True)
            self.failed = None  # (op, dtype names of its operands, exception)

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            kwargs = kwargs or {}
            if func not in self.lift_fns:  # torch.tensor(...) data: 1.13 lifts it itself
                args, kwargs = pytree.tree_map_only(torch.Tensor, self._fake, (args, kwargs))
            if kwargs.get("device") == torch.device("meta"):
                # A constructor called by C++ code with a functionalized
                # fake tensor's options, which say meta: the tensor is on
                # the CPU (fake tensors are only made of CPU tensors here).
                kwargs = dict(kwargs, device=torch.device("cpu"))
            try:
                return _cpu_results(func, args, kwargs,
                                    super().__torch_dispatch__(func, types, args, kwargs))
            except Exception as e:
                if self.failed is None or self.failed[2] is not e:
                    self.failed = (func, _dtype_names(args, kwargs), e)
                raise

        def _fake(self, t):
            return t if isinstance(t, FakeTensor) else self.fake_tensor_converter(self, t)

    return Mode


def fake_mode():
    """A new fake-tensor mode for one trace (1.13's FakeTensorMode, taking
    real tensors).  Enter it around make_fx, called on fake_inputs(...)."""
    return _mode_class()()


def cpu_devices(graph):
    """Device arguments of the graph that say meta say cpu.  C++ code that
    makes a tensor with the options of a functionalized fake tensor asks
    for the meta device (the tensor is on the CPU: fake tensors are only
    made of CPU tensors here); the graph is the one the CPU would run."""
    meta, cpu = torch.device("meta"), torch.device("cpu")

    def fix(value):
        return cpu if isinstance(value, torch.device) and value == meta else value
    for node in graph.nodes:
        node.args = pytree.tree_map(fix, node.args)
        node.kwargs = pytree.tree_map(fix, node.kwargs)


def fake_inputs(mode, args):
    return [mode.from_tensor(a) if isinstance(a, torch.Tensor) else a for a in args]


def is_fake(tensor):
    from torch._subclasses.fake_tensor import FakeTensor
    return isinstance(tensor, FakeTensor)


def _first_line(error):
    text = str(error).strip().splitlines()
    return text[0].rstrip(" .") if text else ""


def retry(real_error, args, trace):
    """trace(mode) in a new fake mode, after `real_error` (missing_kernel)
    stopped the trace with real tensors; its result, or the ExportError
    that says why neither traces.  Fake tensors are made of CPU tensors
    only (see the mode's devices): other inputs are refused."""
    for i, a in enumerate(args):
        if isinstance(a, torch.Tensor) and a.device.type != "cpu":
            raise ExportError(f"example input {i} is on {a.device}; tracing a model whose "
                              f"CPU kernels lack its dtype ({_first_line(real_error)}) needs CPU "
                              "inputs")
    mode = fake_mode()
    try:
        return trace(mode)
    except Exception as e:  # noqa: BLE001 - reported with the op that failed
        raise untraceable(real_error, mode, e) from e


def untraceable(real_error, mode, error):
    """The ExportError for a model that neither real nor fake tensors
    trace: the kernel that is missing, and the op where the fake trace
    stopped (where `error` came from an op)."""
    head = (f"cannot trace the model on PyTorch {torch.__version__}: a CPU kernel lacks its "
            f"dtype ({_first_line(real_error)}), and tracing without running kernels (fake "
            "tensors) failed")
    failed = getattr(mode, "failed", None)
    where, cause = "", error
    if failed is not None and (failed[2] is error or str(failed[2]) in str(error)):
        op, dtypes, cause = failed
        where = f" at {op} on {', '.join(dtypes) or 'no'} tensors"
    if type(cause).__name__ == "DynamicOutputShapeException":
        reason = "the size of its result depends on the data"
    elif isinstance(cause, NotImplementedError) and "'Meta' backend" in str(cause):
        reason = f"PyTorch {torch.__version__} has no meta kernel for it"
    else:
        reason = f"{type(cause).__name__}: {_first_line(cause)}".rstrip(": ")
    return ExportError(f"{head}{where}: {reason}; export it with PyTorch >= 2.1, or in float32")
