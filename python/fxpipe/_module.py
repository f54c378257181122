"""Module and Function: a loaded .vmfb and its functions over libfxrt."""
import ctypes
import os
import sys
import threading

import numpy as np

from . import _rt, _tensors

_lib = _invoke = None
_addressof, _from_buffer = ctypes.addressof, ctypes.c_char.from_buffer


class Error(Exception):
    """A failure the runtime reported; str() is its message."""


def lib():
    """libfxrt, loaded at the first use."""
    global _lib, _invoke
    if _lib is None:
        _lib, _ = _rt.open_library()
        _tensors._rt_lib[0] = _lib
        _invoke = _lib.rt_invoke
    return _lib


class TensorType:
    """An argument's or result's type: shape (a tuple), dtype (the
    runtime's name: "f32", "i1", "bf16"...)."""

    def __init__(self, t):
        self.shape = tuple(t.dims[:t.rank])
        self.code = t.dtype
        self.dtype = _tensors.RT_NAME[t.dtype]
        self.nbytes = t.nbytes

    def __repr__(self):
        return "x".join(["?" if d < 0 else str(d) for d in self.shape] + [self.dtype])


def _signature_array(f, n, get):
    arr = (_rt.Tensor * max(n, 1))()
    for i in range(n):
        get(f, i, ctypes.byref(arr[i]))
    return arr


class Function:
    """One function of a Module: call it with numpy arrays or torch
    tensors, one per argument; it returns its result, or a tuple of them
    when it has several (or none), as torch tensors if any argument was
    one, else numpy arrays.  out=: arrays or tensors to write the results
    into (C-contiguous, 64-byte aligned, of the results' types), returned.
    A call runs with the GIL released; calls of one module are serialized.
    """

    def __init__(self, module, handle):
        L = lib()
        self.module, self._h = module, handle
        self.name = L.rt_function_name(handle).decode()
        nargs, nres = L.rt_function_nargs(handle), L.rt_function_nresults(handle)
        self._in = _signature_array(handle, nargs, L.rt_function_arg)
        self._out = _signature_array(handle, nres, L.rt_function_result)
        self.inputs = [TensorType(self._in[i]) for i in range(nargs)]
        self.results = [TensorType(self._out[i]) for i in range(nres)]
        self._want = [(t.code, t.shape) for t in self.inputs]
        self._np_want = [(_tensors.NP_DTYPE.get(t.code), t.shape) for t in self.inputs]
        self._torch_want = None     # made at the first call with tensors
        # Views of the arrays' elements, made once: indexing makes a new one.
        self._in_t = [self._in[i] for i in range(nargs)]
        self._out_t = [self._out[i] for i in range(nres)]
        # a dynamic batch (-1 at dimension 0): results sized at each call
        self._batched = any(-1 in t.shape for t in self.inputs + self.results)
        self._owners = [_tensors.owner_class(t.nbytes) for t in self.results]
        self._err = _rt.Error()
        self._err_ref = ctypes.byref(self._err)
        self._nres = nres
        codes = [t.code for t in self.results]
        self._kind_problem = {k: _tensors.result_kind_problem(codes, k) for k in (False, True)}
        self._lock = threading.Lock()
        self.copied_inputs = ()   # which inputs the last call copied (see _tensors)

    def __repr__(self):
        return "@%s(%s) -> (%s)" % (self.name, ", ".join(map(repr, self.inputs)),
                                    ", ".join(map(repr, self.results)))

    def __call__(self, *args, out=None):
        if out is None and args and len(args) == len(self._in_t):
            with self._lock:
                res = self._call_fast(args)
            if res is not None:
                return res[0] if len(res) == 1 else tuple(res)
        return self._call(args, out)

    def _call_fast(self, args):
        """The common call, with fewer steps: aligned contiguous numpy
        arrays, or contiguous CPU torch tensors, of exactly the signature's
        types (the dtype objects themselves: `is`).  None if args are not
        that, and _call then does the general work."""
        as_torch = type(args[0]) is not np.ndarray
        if as_torch:
            torch = sys.modules.get("torch")
            if torch is None or type(args[0]) is not torch.Tensor:
                return None
            if self._torch_want is None:
                codes = _tensors.torch_codes()
                by_code = {c: d for d, c in codes.items()}
                self._torch_want = [(by_code.get(t.code), t.shape) for t in self.inputs]
            for t, a, (dtype, shape) in zip(self._in_t, args, self._torch_want):
                if type(a) is not torch.Tensor or a.dtype is not dtype or a.shape != shape \
                        or not a.is_cpu or a.layout is not torch.strided or not a.is_contiguous():
                    return None
                ptr = a.data_ptr()
                if ptr % 64 or not ptr:
                    return None
                t.data = ptr
        else:
            for t, a, (dtype, shape) in zip(self._in_t, args, self._np_want):
                if type(a) is not np.ndarray or a.dtype is not dtype or a.shape != shape:
                    return None
                try:    # refuses what is read-only, not C-contiguous or empty
                    ptr = _addressof(_from_buffer(a))
                except (TypeError, ValueError, BufferError):
                    return None
                if ptr % 64:
                    return None
                t.data = ptr
        if self.module._h is None or self._kind_problem[as_torch]:
            return None
        for t in self._out_t:
            t.data = None
        if _invoke(self._h, self._in, len(args), self._out, self._nres, self._err_ref):
            return None     # _call says why
        self.copied_inputs = ()
        return self._wrap(as_torch)

    def torch_runner(self):
        """A call for the torch.compile backend, whose guards have already
        checked the inputs' dtypes and shapes against the signature:
        run(xs) checks only what the fast path needs (CPU, contiguous,
        64-byte aligned, not empty), runs into fresh torch tensors (torch's
        CPU allocator aligns to 64 bytes) and returns them as a list; None
        when an input is not so (the caller then goes through __call__).
        A failure the runtime reports raises Error."""
        import torch
        codes = _tensors.torch_codes()
        by_code = {c: d for d, c in codes.items()}
        outs = [(tuple(r.shape), by_code.get(r.code)) for r in self.results]
        if any(d is None for _, d in outs) or any(0 in s for s, _ in outs) or self._batched:
            return None
        empty, lock, inv, h = torch.empty, self._lock, _invoke, self._h
        in_arr, out_arr, in_t, out_t = self._in, self._out, self._in_t, self._out_t
        nin, nres, err, err_ref = len(in_t), self._nres, self._err, self._err_ref
        for t, r in zip(out_t, self.results):
            t.nbytes = r.nbytes
        module = self.module

        def run(xs):
            ptrs = []
            for a in xs:
                p = a.data_ptr()
                if not p or p & 63 or not a.is_cpu or not a.is_contiguous():
                    return None
                ptrs.append(p)
            res = [empty(shape, dtype=dtype) for shape, dtype in outs]
            with lock:
                if module._h is None:
                    raise Error("@%s: its module was closed" % self.name)
                for t, p in zip(in_t, ptrs):
                    t.data = p
                for t, r in zip(out_t, res):
                    t.data = r.data_ptr()
                if inv(h, in_arr, nin, out_arr, nres, err_ref):
                    raise Error(err.msg.decode(errors="replace"))
            return res
        return run

    def _call(self, args, out):
        ins, as_torch = _tensors.convert(args)
        problem = self._kind_problem[as_torch]
        if problem:
            raise TypeError("@%s: %s" % (self.name, problem))
        with self._lock:
            if self.module._h is None:
                raise Error("@%s: its module was closed" % self.name)
            if self._as_expected(ins):
                tensors = self._in
                for t, x in zip(self._in_t, ins):
                    t.data = x[2]
            else:
                tensors = _fresh(ins)
            keep = self._set_out(out)
            if _invoke(self._h, tensors, len(ins), self._out, self._nres, self._err_ref):
                raise Error(self._err.msg.decode(errors="replace"))
            self.copied_inputs = tuple([i for i, x in enumerate(ins) if x[5]])
            res = keep if out is not None else self._wrap(as_torch)
        return res[0] if len(res) == 1 else tuple(res)

    def _as_expected(self, ins):
        """Whether the inputs have the types the signature arrays hold."""
        if len(ins) != len(self._want):
            return False
        for x, w in zip(ins, self._want):
            if x[0] != w[0] or x[1] != w[1]:
                return False
        return True

    def _set_out(self, out):
        """The caller's result buffers, checked, or NULL for the runtime's."""
        if out is None:
            for t in self._out_t:
                t.data = None
            return None
        out = list(out) if isinstance(out, (list, tuple)) else [out]
        if len(out) != len(self.results):
            raise ValueError("@%s returns %d results, out= has %d" % (self.name, len(self.results), len(out)))
        for i, (o, want) in enumerate(zip(out, self.results)):
            (code, shape, ptr, nbytes, _, copied), = _tensors.convert([o])[0]
            if isinstance(o, np.ndarray) and not o.flags.writeable:
                raise ValueError("out %d: the array is read-only" % i)
            if (code, shape) != (want.code, want.shape) or copied:
                raise ValueError("out %d: must be a C-contiguous 64-byte aligned %r, got %s%s"
                                 % (i, want, "x".join(map(str, shape + (_tensors.RT_NAME[code],))),
                                    " needing a copy" if copied else ""))
            self._out_t[i].data, self._out_t[i].nbytes = ptr, nbytes
        return out

    def _wrap(self, as_torch):
        # Owners first, so that every allocation is freed if a wrap fails.
        if self._batched:   # the shapes and sizes the runtime gave this call
            owners = [_tensors.owner_class(t.nbytes) for t in self._out_t]
            shapes = [tuple(t.dims[:t.rank]) for t in self._out_t]
        else:
            owners, shapes = self._owners, [r.shape for r in self.results]
        bufs = [o.from_address(t.data) for o, t in zip(owners, self._out_t)]
        return [_tensors.wrap_result(b, shape, r.code, as_torch)
                for b, shape, r in zip(bufs, shapes, self.results)]


def _fresh(ins):
    """RtTensors describing the inputs as given (not as the function
    expects): the runtime then says what is wrong with them."""
    arr = (_rt.Tensor * max(len(ins), 1))()
    for t, (code, shape, ptr, nbytes, _, _) in zip(arr, ins):
        if len(shape) > _rt.MAX_RANK:
            raise ValueError("rank %d is above the runtime's %d" % (len(shape), _rt.MAX_RANK))
        t.dtype, t.rank, t.nbytes, t.data = code, len(shape), nbytes, ptr
        t.dims[:len(shape)] = shape
    return arr


class Module:
    """A loaded .vmfb module.  Its functions: m.main, m["main"],
    m.functions (a dict by name).  close() unloads it (also when it is
    garbage); results already returned stay valid."""

    def __init__(self, handle, source):
        L = lib()
        self._h, self.source = handle, source
        self.target = L.rt_module_target(handle).decode()
        self.features = L.rt_module_features(handle).decode()
        self.threads = L.rt_module_threads(handle)
        self.functions = {}
        for i in range(L.rt_function_count(handle)):
            f = Function(self, L.rt_function_at(handle, i))
            self.functions[f.name] = f

    def __getitem__(self, name):
        try:
            return self.functions[name.lstrip("@")]
        except KeyError:
            raise KeyError("%s has no function @%s (it has %s)" % (
                self.source, name, ", ".join("@" + n for n in self.functions))) from None

    def __getattr__(self, name):
        if name.startswith("_") or name not in self.__dict__.get("functions", {}):
            raise AttributeError(name)
        return self.functions[name]

    def __repr__(self):
        return "<fxpipe.Module %s: %s>" % (self.source, ", ".join(map(repr, self.functions.values())))

    def close(self):
        # Holding every function's lock: no call is running or can start.
        locks = [f._lock for f in self.functions.values()]
        for k in locks:
            k.acquire()
        try:
            if self._h is not None:
                lib().rt_unload(self._h)
                self._h = None
        finally:
            for k in locks:
                k.release()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        if getattr(self, "_h", None) is not None and _lib is not None:
            _lib.rt_unload(self._h)
            self._h = None


DEVICES = {None: 0, "cpu": 1, "cuda": 2}     # RtDevice


def load(source, threads=0, device=None, parameters=None):
    """A Module from a .vmfb file's path or from its bytes (bytes,
    bytearray, memoryview: copied by the runtime).  threads: worker
    threads, 0 one per core, 1 runs on the calling thread.  device: None
    (the module's target), "cpu" or "cuda"; inputs and results are host
    memory either way.  parameters: the safetensors file of a module packed
    with vmpack --params (a path; the module then from a path too)."""
    L = lib()
    if threads < 0:
        raise ValueError("threads must be 0 (one per core) or more, got %d" % threads)
    if device not in DEVICES:
        raise ValueError("device must be None, 'cpu' or 'cuda', got %r" % (device,))
    opts, err = _rt.Options(threads=int(threads), device=DEVICES[device]), _rt.Error()
    if isinstance(source, (bytes, bytearray, memoryview)):
        if parameters is not None:
            raise ValueError("parameters need the module as a path, not bytes")
        data = bytes(source)
        h = L.rt_load_memory(data, len(data), ctypes.byref(opts), ctypes.byref(err))
        name = "<memory>"
    else:
        name = os.fspath(source)
        params = None if parameters is None else os.fsencode(os.fspath(parameters))
        h = L.rt_load_file_params(os.fsencode(name), params, ctypes.byref(opts), ctypes.byref(err))
    if not h:
        raise Error(err.msg.decode(errors="replace"))
    return Module(h, name)
