"""The ctypes binding of libfxrt (lib/rt/fxrt.h), and where the library is.

The structs mirror fxrt.h at FXRT_ABI_VERSION 0; the library's
rt_abi_version() is checked at load so a different layout is refused
rather than misread.
"""
import ctypes
import os

ABI_VERSION = 0
MAX_RANK = 16
SONAME = "libfxrt.so.%d" % ABI_VERSION
HERE = os.path.dirname(os.path.abspath(__file__))

# RtDtype: the runtime's element types, numbered as in fxrt.h.
F16, BF16, F32, F64, BOOL, I8, I16, I32, I64, U8, U16, U32, U64 = range(1, 14)
C64, C128 = 14, 15   # complex64, complex128: (real, imaginary) pairs


class Tensor(ctypes.Structure):
    _fields_ = [("dtype", ctypes.c_int), ("rank", ctypes.c_int),
                ("dims", ctypes.c_int64 * MAX_RANK), ("data", ctypes.c_void_p),
                ("nbytes", ctypes.c_size_t)]


class Error(ctypes.Structure):
    _fields_ = [("msg", ctypes.c_char * 512)]


class Options(ctypes.Structure):
    _fields_ = [("threads", ctypes.c_int), ("device", ctypes.c_int)]


def _candidates():
    """Where the library may be, in the order looked at."""
    env = os.environ.get("FXPIPE_LIB")
    if env:
        return [env]
    found = []
    try:
        from . import _paths    # written by make install
        found.append(_paths.LIB)
    except ImportError:
        pass
    found.append(os.path.join(HERE, SONAME))
    # The build tree: python/fxpipe/ beside build/opt/.
    found.append(os.path.join(HERE, "..", "..", "build", "opt", SONAME))
    return found


def _declare(lib):
    P, I, S = ctypes.c_void_p, ctypes.c_int, ctypes.c_char_p
    T, E = ctypes.POINTER(Tensor), ctypes.POINTER(Error)
    sigs = {
        "rt_load_file": (P, [S, ctypes.POINTER(Options), E]),
        "rt_load_file_params": (P, [S, S, ctypes.POINTER(Options), E]),
        "rt_load_memory": (P, [ctypes.c_char_p, ctypes.c_size_t, ctypes.POINTER(Options), E]),
        "rt_unload": (None, [P]),
        "rt_module_target": (S, [P]),
        "rt_module_features": (S, [P]),
        "rt_module_threads": (I, [P]),
        "rt_function_count": (I, [P]),
        "rt_function_at": (P, [P, I]),
        "rt_lookup": (P, [P, S]),
        "rt_function_name": (S, [P]),
        "rt_function_nargs": (I, [P]),
        "rt_function_nresults": (I, [P]),
        "rt_function_arg": (None, [P, I, T]),
        "rt_function_result": (None, [P, I, T]),
        "rt_invoke": (I, [P, T, I, T, I, E]),
        "rt_alloc": (P, [ctypes.c_size_t]),
        "rt_free": (None, [P]),
        "rt_type_str": (None, [T, ctypes.c_char_p, ctypes.c_size_t]),
        "rt_abi_version": (I, []),
    }
    for name, (res, args) in sigs.items():
        fn = getattr(lib, name)
        fn.restype, fn.argtypes = res, args


def open_library():
    """The loaded libfxrt, its path; OSError naming every place tried."""
    tried = []
    for path in _candidates():
        path = os.path.normpath(path)
        if not os.path.exists(path):
            tried.append(path + " (absent)")
            continue
        lib = ctypes.CDLL(path)
        _declare(lib)
        if lib.rt_abi_version() != ABI_VERSION:
            raise OSError("%s: ABI version %d, this package needs %d"
                          % (path, lib.rt_abi_version(), ABI_VERSION))
        return lib, path
    raise OSError("cannot find libfxrt (set FXPIPE_LIB to its path); tried: " + ", ".join(tried))
