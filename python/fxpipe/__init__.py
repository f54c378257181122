"""fxpipe: run fxpipe-compiled modules (.vmfb) from Python, and compile
PyTorch modules with the fxpipe tools.

    import fxpipe
    m = fxpipe.load("m.vmfb")                 # or fxpipe.load(bytes), threads=N
    m = fxpipe.load("e.vmfb", parameters="w.safetensors")   # vmpack --params
    y = m.main(x)                              # numpy in, numpy out
    y = m["main"](torch.randn(4, 3))           # torch in, torch out
    f = fxpipe.compile(model, (torch.randn(1, 16),))
    y = f(torch.randn(1, 16))

    compiled = torch.compile(model, backend="fxpipe")   # PyTorch 2, fxpipe.dynamo

The runtime is libfxrt (fxrt.h), found at $FXPIPE_LIB, else where make
install put it, else beside this package, else in the build tree
(build/opt/).  See fxpipe(3) for the copies and ownership rules.
"""
from ._compile import CompileError, Compiled, compile
from ._module import Error, Function, Module, TensorType, load
from ._tensors import empty

__all__ = ["load", "compile", "empty", "Module", "Function", "TensorType", "Compiled", "Error", "CompileError"]
__version__ = "0.1.0"


def _register_dynamo():
    """torch.compile(backend="fxpipe") without the installed entry point:
    registered when torch 2 is imported already (importing it here would
    cost numpy-only users a second)."""
    import sys
    torch = sys.modules.get("torch")
    if torch is None or not hasattr(torch, "compile"):
        return
    from . import dynamo
    dynamo.register()


_register_dynamo()
