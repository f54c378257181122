"""fxpipe: run fxpipe-compiled modules (.vmfb) from Python, and compile
PyTorch modules with the fxpipe tools.

    import fxpipe
    m = fxpipe.load("m.vmfb")                 # or fxpipe.load(bytes), threads=N
    y = m.main(x)                              # numpy in, numpy out
    y = m["main"](torch.randn(4, 3))           # torch in, torch out
    f = fxpipe.compile(model, (torch.randn(1, 16),))
    y = f(torch.randn(1, 16))

The runtime is libfxrt (fxrt.h), found at $FXPIPE_LIB, else where make
install put it, else beside this package, else in the build tree
(build/opt/).  See fxpipe(3) for the copies and ownership rules.
"""
from ._compile import CompileError, Compiled, compile
from ._module import Error, Function, Module, TensorType, load
from ._tensors import empty

__all__ = ["load", "compile", "empty", "Module", "Function", "TensorType", "Compiled", "Error", "CompileError"]
__version__ = "0.1.0"
