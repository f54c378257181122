"""Turn the stack traces PyTorch records on FX nodes into source locations.

The traces differ between capture paths: torch <= 1.13 tracers write the
innermost frame first and include the tracer's own frames and those of
whoever called it; torch.export writes the innermost frame last and only
model frames.  `model_frames` reduces every variant to the same thing: the
frames of the model's own code, outermost first, as in a Python traceback.
"""

import collections
import linecache
import os
import re

import torch

Frame = collections.namedtuple("Frame", "file line function code")

_FRAME_RE = re.compile(r'^\s*File "(?P<file>[^"]*)", line (?P<line>\d+), in (?P<function>.*)$')
_CARETS_RE = re.compile(r"^\s*[\^~]+\s*$")

_TORCH_DIR = os.path.dirname(os.path.abspath(torch.__file__)) + os.sep
_THIS_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep

# Frames of tracing and dispatch machinery: never the model's code.
_MACHINERY_FILES = (
    "torch/fx/", "torch/_ops.py", "torch/_tensor.py", "torch/overrides.py",
    "torch/utils/_python_dispatch.py", "torch/utils/_pytree.py",
    "torch/_decomp/", "torch/_refs/", "torch/_prims", "torch/_subclasses/",
    "torch/_dynamo/", "torch/_export/", "torch/export/", "torch/_functorch/",
    "functorch/_src/",
)
# Module.__call__ and friends: present around every layer, never useful.
_MODULE_CALL_FUNCTIONS = ("_call_impl", "_wrapped_call_impl", "__call__")


def parse(trace):
    """Frames of a formatted Python stack trace, in the order written."""
    frames = []
    for line in (trace or "").splitlines():
        match = _FRAME_RE.match(line)
        if match:
            frames.append(Frame(match["file"], int(match["line"]), match["function"], ""))
        elif frames and not frames[-1].code and line.strip() and not _CARETS_RE.match(line):
            frames[-1] = frames[-1]._replace(code=line.strip())
    return frames


def _is_machinery(frame):
    path = frame.file.replace(os.sep, "/")
    if frame.file.startswith("<") or path.startswith(_THIS_DIR.replace(os.sep, "/")):
        return True
    if path.endswith("torch/nn/modules/module.py") and frame.function in _MODULE_CALL_FUNCTIONS:
        return True
    return any(part in path for part in _MACHINERY_FILES)


def _is_trace_entry(frame):
    """The FX Tracer.trace call: every frame outside it is the caller's."""
    return frame.file.replace(os.sep, "/").endswith("torch/fx/_symbolic_trace.py") \
        and frame.function == "trace"


def model_frames(trace, innermost_first):
    """The model-code frames of a stack trace string, outermost first."""
    frames = parse(trace)
    if innermost_first:
        frames.reverse()
    entries = [i for i, f in enumerate(frames) if _is_trace_entry(f)]
    if entries:
        frames = frames[entries[-1] + 1:]
    return [f for f in frames if not _is_machinery(f)]


def display_path(path):
    """Paths below the working directory are written relative to it."""
    try:
        rel = os.path.relpath(path)
    except ValueError:  # another drive on Windows
        return path
    return path if rel.startswith("..") or os.path.isabs(rel) else rel


def format_frames(frames):
    """A traceback-style string, outermost frame first."""
    lines = []
    for f in frames:
        lines.append(f'  File "{display_path(f.file)}", line {f.line}, in {f.function}\n')
        if f.code:
            lines.append(f"    {f.code}\n")
    return "".join(lines)


def _column(frame):
    """1-based column where the frame's statement starts, if readable."""
    source = linecache.getline(frame.file, frame.line)
    if not source.strip():
        return None
    return len(source) - len(source.lstrip()) + 1


def location(frames):
    """{"file", "line", "col"?, "function"} for the innermost frame of the
    model's own code (outside torch itself), else the innermost frame."""
    if not frames:
        return None
    outside_torch = [f for f in frames if not os.path.abspath(f.file).startswith(_TORCH_DIR)]
    frame = (outside_torch or frames)[-1]
    loc = {"file": display_path(frame.file), "line": frame.line}
    col = _column(frame)
    if col is not None:
        loc["col"] = col
    loc["function"] = frame.function
    return loc
