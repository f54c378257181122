"""fxpipe.compile: a torch module through the whole pipe, loaded.

fx_export's Python API captures the module (so it needs no file to
import it from); then the C tools run as the README writes the pipe:

    fx-import M.json | torch-opt | torch-lower | codegen --target=T | vmpack -o M.vmfb

The tools are looked up in $FXPIPE_BIN, else where make install put them
(_paths.py), else the build tree's bin/, else $PATH.
"""
import os
import shutil
import subprocess
import sys
import tempfile

from . import _module

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", ".."))
STAGES = ["fx-import", "torch-opt", "torch-lower", "codegen", "vmpack"]


class CompileError(Exception):
    """A stage of the pipe failed: tool is its name, str() its message."""

    def __init__(self, tool, message):
        # The tools' messages already name them ("codegen: error: ...").
        named = not tool or message.startswith(tool + ":")
        super().__init__(message if named else "%s: %s" % (tool, message))
        self.tool = tool


def _installed(name):
    try:
        from . import _paths
        return getattr(_paths, name)
    except ImportError:
        return None


def tool_path(name):
    """The tool's path; CompileError if it is nowhere."""
    for d in (os.environ.get("FXPIPE_BIN"), _installed("BIN"), os.path.join(REPO, "bin")):
        if d and os.access(os.path.join(d, name), os.X_OK):
            return os.path.join(d, name)
    found = shutil.which(name)
    if not found:
        raise CompileError(name, "not found in $FXPIPE_BIN, the install or build tree, or $PATH "
                           "(build it with make, or set FXPIPE_BIN)")
    return found


def _fx_export():
    """The fx_export package, from $FXPIPE_PYLIB, the install or the tree."""
    for d in (os.environ.get("FXPIPE_PYLIB"), _installed("PYLIB"),
              os.path.join(REPO, "tools", "fx-export")):
        if d and os.path.isdir(os.path.join(d, "fx_export")):
            if d not in sys.path:
                sys.path.insert(0, d)
            break
    try:
        import fx_export
    except ImportError as e:
        raise CompileError("fx-export", "cannot import fx_export (%s); set FXPIPE_PYLIB to the "
                           "directory holding it" % e) from None
    return fx_export


def export(module, example_inputs, path, graph="aten", dynamic=None):
    """fx_export.export; dynamic: its list of fx_export.dynamic.DynamicDim."""
    fx = _fx_export()
    try:
        fx.export(module, tuple(example_inputs), path, graph=graph, dynamic=dynamic)
    except fx.ExportError as e:
        raise CompileError("fx-export", str(e)) from None


def run_pipe(json_path, vmfb_path, target, workdir):
    """The C tools joined by pipes; the first stage that failed raises
    with its standard error (later ones only saw its broken output)."""
    argv = [[tool_path("fx-import"), json_path], [tool_path("torch-opt")],
            [tool_path("torch-lower")], [tool_path("codegen"), "--target=" + target],
            [tool_path("vmpack"), "-o", vmfb_path]]
    procs, errs, prev = [], [], None
    for i, args in enumerate(argv):
        err = open(os.path.join(workdir, STAGES[i] + ".err"), "w+b")
        last = i == len(argv) - 1
        p = subprocess.Popen(args, stdin=prev, stdout=subprocess.DEVNULL if last else subprocess.PIPE,
                             stderr=err)
        if prev is not None:
            prev.close()     # the child has it; the reader must see EOF when the writer exits
        prev = p.stdout
        procs.append(p)
        errs.append(err)
    for p, err, name in zip(procs, errs, STAGES):
        rc = p.wait()
        err.seek(0)
        msg = err.read().decode(errors="replace").strip()
        err.close()
        if rc:
            raise CompileError(name, msg or "exited with status %d" % rc)


class Compiled:
    """What fxpipe.compile returns: call it like the module (its @main);
    .module is the loaded Module, .path the .vmfb when kept."""

    def __init__(self, module, path):
        self.module, self.path = module, path
        self.function = module["main"]

    def __call__(self, *args, out=None):
        return self.function(*args, out=out)

    def __repr__(self):
        return "<fxpipe.Compiled %r>" % self.function


def compile(module, example_inputs, target="cpu", threads=0, graph="aten", workdir=None):
    """Compiles module for inputs shaped and typed like example_inputs.

    workdir: where the JSON, weights and .vmfb go and stay; by default a
    temporary directory, removed once the module is loaded.  Raises
    CompileError naming the stage that failed, with its message."""
    if workdir is not None:
        os.makedirs(workdir, exist_ok=True)
        return _compile_in(module, example_inputs, target, threads, graph, workdir, keep=True)
    with tempfile.TemporaryDirectory(prefix="fxpipe-") as d:
        return _compile_in(module, example_inputs, target, threads, graph, d, keep=False)


def _compile_in(module, example_inputs, target, threads, graph, d, keep):
    json_path, vmfb_path = os.path.join(d, "model.json"), os.path.join(d, "model.vmfb")
    export(module, example_inputs, json_path, graph)
    run_pipe(json_path, vmfb_path, target, d)
    # From memory: the temporary file may go once loaded.
    with open(vmfb_path, "rb") as f:
        m = _module.load(f.read(), threads=threads)
    m.source = vmfb_path if keep else "<compiled %s>" % type(module).__name__
    return Compiled(m, vmfb_path if keep else None)
