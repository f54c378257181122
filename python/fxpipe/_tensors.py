"""numpy arrays and torch tensors to and from the runtime's RtTensor.

Inputs are passed without a copy when their element type is the runtime's
own, they are C-contiguous and their data is 64-byte aligned (what
rt_invoke requires); otherwise they are copied once into an aligned
buffer.  Element types are never converted: a float64 array given for an
f32 input goes to the runtime as f64, which refuses it with its message.

Results the runtime allocated are wrapped without a copy: the array's base
is an object owning the allocation, which rt_free releases when the last
array or tensor viewing it goes.  The allocation is independent of the
module, so a result outlives the module that made it.
"""
import ctypes
import sys

import numpy as np

from . import _rt

# (kind, itemsize) of a native numpy dtype -> RtDtype, and back.
NP_CODE = {("f", 2): _rt.F16, ("f", 4): _rt.F32, ("f", 8): _rt.F64, ("b", 1): _rt.BOOL,
           ("i", 1): _rt.I8, ("i", 2): _rt.I16, ("i", 4): _rt.I32, ("i", 8): _rt.I64,
           ("u", 1): _rt.U8, ("u", 2): _rt.U16, ("u", 4): _rt.U32, ("u", 8): _rt.U64,
           ("c", 8): _rt.C64, ("c", 16): _rt.C128}
NP_DTYPE = {code: np.dtype(kind + str(size)) for (kind, size), code in NP_CODE.items()}
NP_DTYPE[_rt.BOOL] = np.dtype(bool)
RT_NAME = {_rt.F16: "f16", _rt.BF16: "bf16", _rt.F32: "f32", _rt.F64: "f64", _rt.BOOL: "i1",
           _rt.I8: "i8", _rt.I16: "i16", _rt.I32: "i32", _rt.I64: "i64", _rt.U8: "ui8",
           _rt.U16: "ui16", _rt.U32: "ui32", _rt.U64: "ui64", _rt.C64: "c64", _rt.C128: "c128"}
SIZE = {code: (2 if code == _rt.BF16 else NP_DTYPE[code].itemsize) for code in RT_NAME}
_torch_codes = None


def torch_codes():
    """torch dtype -> RtDtype, built when the first tensor is seen."""
    global _torch_codes
    if _torch_codes is None:
        import torch
        _torch_codes = {torch.float16: _rt.F16, torch.bfloat16: _rt.BF16,
                        torch.float32: _rt.F32, torch.float64: _rt.F64, torch.bool: _rt.BOOL,
                        torch.int8: _rt.I8, torch.int16: _rt.I16, torch.int32: _rt.I32,
                        torch.int64: _rt.I64, torch.uint8: _rt.U8,
                        torch.complex64: _rt.C64, torch.complex128: _rt.C128}
    return _torch_codes


def is_torch(x):
    torch = sys.modules.get("torch")
    return torch is not None and isinstance(x, torch.Tensor)


NP_BY_DTYPE = {NP_DTYPE[code]: code for code in NP_DTYPE}
_ndarray, _from_buffer, _addressof = np.ndarray, ctypes.c_char.from_buffer, ctypes.addressof


def convert(args):
    """([(code, shape, address, nbytes, keep, copied)], any torch tensor).

    The common case, an aligned contiguous native numpy array, is handled
    inline: this runs on every call."""
    ins, as_torch = [], False
    for i, a in enumerate(args):
        if type(a) is _ndarray and a.flags.c_contiguous and a.flags.writeable and a.nbytes:
            code = NP_BY_DTYPE.get(a.dtype)
            if code is not None:
                ptr = _addressof(_from_buffer(a))
                if not ptr % 64:
                    ins.append((code, a.shape, ptr, a.nbytes, a, False))
                    continue
        if is_torch(a):
            as_torch = True
            ins.append(torch_input(i, a))
        elif isinstance(a, np.ndarray):
            ins.append(numpy_input(i, a))
        elif np.isscalar(a):
            raise TypeError("input %d: a %s; pass a numpy array or torch tensor (np.asarray(x, dtype))"
                            % (i, type(a).__name__))
        else:
            raise TypeError("input %d: a %s; pass numpy arrays or torch tensors" % (i, type(a).__name__))
    return ins, as_torch


def _aligned_empty(shape, dtype):
    """An uninitialized C-contiguous array whose data is 64-byte aligned."""
    n = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    raw = np.empty(n + 64, np.uint8)
    off = -raw.ctypes.data % 64
    return raw[off:off + n].view(dtype).reshape(shape)


def _address(a):
    """The data address of a C-contiguous array with data."""
    try:
        return ctypes.addressof(ctypes.c_char.from_buffer(a))
    except TypeError:       # read-only: numpy's slower way
        return a.ctypes.data


def numpy_input(i, a):
    """(code, shape, address, nbytes, keep, copied) for a numpy array."""
    dt, swapped = a.dtype, False
    if not dt.isnative and dt.kind in "fiub":
        dt, swapped = dt.newbyteorder("="), True
    code = NP_CODE.get((dt.kind, dt.itemsize))
    if code is None:
        raise TypeError("input %d: numpy dtype %s has no runtime element type" % (i, a.dtype))
    if a.nbytes == 0:
        return code, a.shape, None, 0, a, False
    copied = swapped or not a.flags.c_contiguous
    ptr = 0 if copied else _address(a)
    if copied or ptr % 64:
        b = _aligned_empty(a.shape, dt)
        np.copyto(b, a)
        a, ptr, copied = b, _address(b), True
    return code, a.shape, ptr, a.nbytes, a, copied


def torch_input(i, t):
    """(code, shape, address, nbytes, keep, copied) for a torch tensor."""
    import torch
    if not t.is_cpu:
        raise TypeError("input %d: a tensor on %s; the runtime reads host memory (move it to the CPU)"
                        % (i, t.device))
    if t.layout != torch.strided:
        raise TypeError("input %d: a %s tensor; the runtime takes dense (strided) tensors" % (i, t.layout))
    code = torch_codes().get(t.dtype)
    if code is None:
        raise TypeError("input %d: torch dtype %s has no runtime element type" % (i, t.dtype))
    n = t.numel() * t.element_size()
    if n == 0:
        return code, tuple(t.shape), None, 0, t, False
    ptr = t.data_ptr()
    copied = not t.is_contiguous() or ptr % 64
    if copied:
        t = _torch_aligned_copy(t.detach())
        ptr = t.data_ptr()
    return code, tuple(t.shape), ptr, n, t, copied


def _torch_aligned_copy(t):
    import torch
    size = t.element_size()
    raw = torch.empty(t.numel() + 64 // size, dtype=t.dtype)
    off = -raw.data_ptr() % 64
    if off % size:
        raise MemoryError("torch allocated memory not aligned to its element size")
    b = raw[off // size:off // size + t.numel()].view(t.shape)
    b.copy_(t)
    return b


def owner_class(nbytes):
    """A ctypes byte array that rt_frees its address when it goes: the
    base of a result the runtime allocated."""
    lib = _rt_lib[0]

    def __del__(self):
        lib.rt_free(ctypes.addressof(self))
    return type("RtOwned%d" % nbytes, (ctypes.c_char * nbytes,), {"__del__": __del__})


_rt_lib = [None]     # set by the package once the library is loaded


def wrap_result(buf, shape, code, as_torch):
    """A result the runtime allocated, buf (an owner_class instance), as an
    array or a tensor viewing it.  The caller has checked that the kind
    asked for has the element type (result_kind_problem)."""
    if code == _rt.BF16:
        import torch
        return torch.from_numpy(np.ndarray(shape, np.int16, buf)).view(torch.bfloat16)
    a = np.ndarray(shape, NP_DTYPE[code], buf)
    if as_torch:
        import torch
        return torch.from_numpy(a)
    return a


def result_kind_problem(codes, as_torch):
    """Why results of these element types cannot be given as torch tensors
    (as_torch) or numpy arrays, or None."""
    for i, code in enumerate(codes):
        if not as_torch and code == _rt.BF16:
            return "result %d is bf16, which numpy has no type for; pass torch tensors" % i
        if as_torch and code in (_rt.U16, _rt.U32, _rt.U64):
            return "result %d is %s, which torch has no type for; pass numpy arrays" % (i, RT_NAME[code])
    return None


def empty(shape, dtype=np.float32):
    """An uninitialized numpy array the runtime takes without a copy
    (C-contiguous, 64-byte aligned; numpy's own allocations are 16-byte
    aligned only)."""
    shape = (shape,) if isinstance(shape, (int, np.integer)) else tuple(shape)
    return _aligned_empty(shape, np.dtype(dtype))
