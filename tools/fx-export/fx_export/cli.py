"""fx-export command line: FILE.py:FACTORY -> fxpipe-fx-json + safetensors.

Every failure prints "fx-export: error: ..." to stderr and exits 1
(-v adds the Python traceback); no output file is created then.
"""

import argparse
import functools
import importlib.util
import os
import re
import signal
import sys
import traceback

import torch

from . import export
from .dynamic import parse_dynamic_spec
from .output import check_destination, weights_path
from .common import ExportError

PROG = "fx-export"

# --input dtype suffixes -> torch dtype attribute names.
INPUT_DTYPES = {
    "f32": "float32", "f64": "float64", "f16": "float16", "bf16": "bfloat16",
    "i64": "int64", "i32": "int32", "i16": "int16", "i8": "int8",
    "u8": "uint8", "i1": "bool", "bool": "bool",
}
# Random integer inputs are drawn from [0, INT_INPUT_HIGH).
INT_INPUT_HIGH = 10


class UsageError(Exception):
    """Bad command-line input, reported like any other error."""


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        self.print_usage(sys.stderr)
        raise UsageError(message)


def make_parser():
    parser = _Parser(
        prog=PROG,
        description="Capture a PyTorch module as an FX graph and write it as "
                    "fxpipe-fx-json (for fx-import) plus a .safetensors weights file.")
    parser.add_argument("source", metavar="FILE.py:FACTORY",
                        help="Python file and the function in it that returns a module, "
                             "or a tuple (module, example_inputs)")
    parser.add_argument("--input", action="append", default=[], metavar="SPEC",
                        help="shape and dtype of one random example input, e.g. "
                             "1x3x224x224xf32 (repeat for several inputs; dtypes: "
                             + " ".join(INPUT_DTYPES) + ")")
    parser.add_argument("--graph", choices=("aten", "torch"), default="aten",
                        help="aten: aten-level graph (default); torch: torch-level "
                             "graph from symbolic tracing")
    parser.add_argument("--dynamic", action="append", default=[], metavar="SPEC",
                        help="export a dimension of an input as a symbol: IN:DIM:NAME "
                             "(or DIM:NAME for input 0), optionally with a range "
                             "=MIN..MAX, e.g. 0:0:batch=1..64 (repeat; inputs may share "
                             "a NAME; needs PyTorch >= 2.1)")
    parser.add_argument("--autocast", choices=("bf16", "f16"), metavar="DTYPE",
                        help="trace the module under torch.autocast('cpu', DTYPE) "
                             "(bf16 or f16): matrix products and convolutions in DTYPE "
                             "with the casts autocast inserts, the rest as autocast "
                             "leaves it")
    parser.add_argument("--seed", type=int, default=0,
                        help="seed for torch's RNG before calling FACTORY (default 0)")
    parser.add_argument("-o", "--output", required=True, metavar="FILE.json",
                        help="output JSON; weights go beside it as FILE.safetensors")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="print the Python traceback on errors")
    return parser


def parse_input_spec(spec):
    """'1x3x224x224xf32' -> ([1, 3, 224, 224], 'float32'); 'f32' -> ([], ...)."""
    parts = spec.strip().lower().split("x")
    dtype = INPUT_DTYPES.get(parts[-1])
    dims = parts[:-1]
    if dtype is None or not all(re.fullmatch(r"\d+", d) for d in dims):
        raise UsageError(
            f"bad --input {spec!r}: expected dimensions and a dtype joined by 'x', "
            f"e.g. 1x3x224x224xf32 (dtypes: {', '.join(INPUT_DTYPES)})")
    return [int(d) for d in dims], dtype


def random_input(shape, dtype_name):
    dtype = getattr(torch, dtype_name)
    if dtype.is_floating_point:
        return torch.randn(shape, dtype=torch.float32).to(dtype)
    if dtype == torch.bool:
        return torch.randint(0, 2, shape).bool()
    return torch.randint(0, INT_INPUT_HIGH, shape, dtype=dtype)


def split_source(source):
    path, sep, factory = source.rpartition(":")
    if not sep or not path or not factory.isidentifier():
        raise UsageError(f"bad source {source!r}: expected FILE.py:FACTORY")
    return path, factory


def load_factory(path, name):
    if not os.path.isfile(path):
        raise UsageError(f"{path}: no such file")
    # Let the model file import its neighbours, as `python FILE.py` would.
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    spec = importlib.util.spec_from_file_location("_fx_export_model", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses, pickle etc. look it up
    try:
        spec.loader.exec_module(module)
    except Exception as e:
        raise UsageError(f"{path}: failed to load: {type(e).__name__}: {e}") from e
    factory = getattr(module, name, None)
    if not callable(factory):
        raise UsageError(f"{path}: no function {name!r}")
    return factory


def call_factory(factory, name):
    """(module, example_inputs or None) from the user's factory."""
    try:
        result = factory()
    except Exception as e:
        raise UsageError(f"factory {name}() raised {type(e).__name__}: {e}") from e
    if not (isinstance(result, tuple) and len(result) == 2):
        return result, None
    module, inputs = result
    if isinstance(inputs, torch.Tensor):
        return module, (inputs,)
    if not isinstance(inputs, (tuple, list)):
        raise UsageError(f"{name}() returned example inputs of type "
                         f"{type(inputs).__name__}; expected a tensor or a tuple of tensors")
    return module, tuple(inputs)


def run(argv):
    args = make_parser().parse_args(argv)
    specs = [parse_input_spec(s) for s in args.input]
    dyns = []
    for spec in args.dynamic:
        try:
            dyns.append(parse_dynamic_spec(spec))
        except ValueError as e:
            raise UsageError(f"bad --dynamic {spec!r}: {e}") from e
    path, name = split_source(args.source)
    # before the (slow) trace: -o names a regular file or a new one
    check_destination(args.output)
    check_destination(weights_path(args.output))
    out_dir = os.path.dirname(os.path.abspath(args.output))
    if not os.path.isdir(out_dir):
        raise UsageError(f"{args.output}: directory {out_dir} does not exist")

    torch.manual_seed(args.seed)
    module, inputs = call_factory(load_factory(path, name), name)
    if specs:
        inputs = tuple(random_input(shape, dtype) for shape, dtype in specs)
    if inputs is None:
        raise UsageError(f"no example inputs: pass --input, or return "
                         f"(module, inputs) from {name}()")
    if not isinstance(module, torch.nn.Module):
        raise UsageError(f"{name}() returned a {type(module).__name__}, not a torch.nn.Module")
    to_eval(module)
    if args.autocast:
        with_autocast(module, getattr(torch, {"bf16": "bfloat16", "f16": "float16"}[args.autocast]))
    export(module, inputs, args.output, graph=args.graph, dynamic=dyns)


def to_eval(module):
    """Switches the module to inference before it is traced.  A module
    that torch.export made (PT2E-quantized models are) refuses eval();
    torchao's move_exported_model_to_eval switches its dropout and batch
    norm nodes instead."""
    try:
        module.eval()
    except NotImplementedError:
        try:
            from torchao.quantization.pt2e import move_exported_model_to_eval
        except ImportError:
            raise ExportError("the module refuses eval() (a torch.export "
                              "graph module?) and torchao, whose "
                              "move_exported_model_to_eval switches such a "
                              "module, is not installed") from None
        move_exported_model_to_eval(module)


def with_autocast(module, dtype):
    """Makes the module's forward run under torch.autocast on the CPU, so
    that the trace records the casts autocast makes.  The instance's
    forward is replaced, not wrapped in another module: the weights keep
    their names."""
    forward = module.forward

    @functools.wraps(forward)
    def autocast_forward(*args, **kwargs):
        with torch.autocast("cpu", dtype=dtype):
            return forward(*args, **kwargs)
    module.forward = autocast_forward


class Terminated(BaseException):
    """SIGTERM or SIGHUP: unwinds like Ctrl-C, so that no temporary file
    is left behind, then the process dies of the signal."""

    def __init__(self, signum):
        super().__init__(signum)
        self.signum = signum


def _terminate(signum, frame):
    raise Terminated(signum)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    verbose = "-v" in argv or "--verbose" in argv
    for sig in (signal.SIGTERM, signal.SIGHUP):
        if signal.getsignal(sig) == signal.SIG_DFL:  # nohup's SIG_IGN stays
            signal.signal(sig, _terminate)
    try:
        run(argv)
    except SystemExit:
        raise  # --help
    except KeyboardInterrupt:
        print(f"{PROG}: error: interrupted", file=sys.stderr)
        return 1
    except Terminated as t:
        signal.signal(t.signum, signal.SIG_DFL)
        os.kill(os.getpid(), t.signum)
        return 128 + t.signum
    except Exception as e:
        if verbose:
            traceback.print_exc()
        print(f"{PROG}: error: {_message(e)}", file=sys.stderr)
        return 1
    return 0


def _message(error):
    """Our own errors speak for themselves; others get their type name."""
    if isinstance(error, (UsageError, ExportError)):
        return str(error)
    return f"{type(error).__name__}: {error}".rstrip(": ")
