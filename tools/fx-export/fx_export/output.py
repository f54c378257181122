"""Write the JSON document and its weights so that no reader ever sees a
half-written file: each goes to a temporary file in the destination
directory and is renamed into place only once both are complete."""

import json
import os
import stat
import tempfile

from . import safetensors
from .common import ExportError


def _compact(value):
    return json.dumps(value, separators=(", ", ": "), allow_nan=False)


def _dumps(value, depth=0):
    """JSON text with one node (or weight, input, operator) per line: easy
    to read, grep and diff.  Containers are broken over lines at the top two
    levels, and lists of objects at any level, when they are long."""
    text = _compact(value)
    objects_list = isinstance(value, list) and all(isinstance(v, dict) for v in value)
    if len(text) <= 100 or not isinstance(value, (dict, list)) or \
            (depth >= 2 and not objects_list):
        return text
    pad, inner = "  " * depth, "  " * (depth + 1)
    if isinstance(value, dict):
        items = [f"{inner}{json.dumps(k)}: {_dumps(v, depth + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    items = [inner + _dumps(v, depth + 1) for v in value]
    return "[\n" + ",\n".join(items) + "\n" + pad + "]"


def weights_path(json_path):
    """m.json -> m.safetensors (other names get .safetensors appended)."""
    root, ext = os.path.splitext(json_path)
    return (root if ext == ".json" else json_path) + ".safetensors"


def check_destination(path):
    """Refuse to write `path` unless it is absent or a regular file.  The
    files are renamed into place, which would replace a symbolic link (say
    /dev/stdout) or a special file with a regular file; and "-" would be a
    file named "-": fx-export writes two files, so it has no stdout mode."""
    if path == "-":
        raise ExportError("cannot write to standard output (-o -): fx-export writes "
                          "two files, OUT.json and OUT.safetensors beside it; "
                          "give -o a file name")
    if os.path.islink(path):
        raise ExportError(f"{path}: is a symbolic link; fx-export writes only "
                          f"regular files (give -o the file itself)")
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return
    except OSError as e:
        raise ExportError(f"{path}: {e.strerror}") from e
    if not stat.S_ISREG(mode):
        raise ExportError(f"{path}: not a regular file; fx-export writes only "
                          f"regular files")


def _write_temp(path, write, mode):
    """Write a temporary file beside `path` with write(fileobj); return its
    name.  On failure the temporary file is removed."""
    directory = os.path.dirname(os.path.abspath(path))
    fd, temp = tempfile.mkstemp(dir=directory, prefix=f".{os.path.basename(path)}.",
                                suffix=".tmp")
    try:
        # mkstemp makes the file 0600; give it the mode open() would.
        umask = os.umask(0)
        os.umask(umask)
        os.fchmod(fd, 0o666 & ~umask)
        with os.fdopen(fd, mode) as f:
            write(f)
    except BaseException:
        os.unlink(temp)
        raise
    return temp


def write_outputs(json_path, document, tensors):
    """Atomically write `document` to json_path and `tensors` beside it."""
    # Serialise first: an encoding problem must not leave any file behind.
    text = _dumps(document) + "\n"
    st_path = weights_path(json_path)
    check_destination(json_path)
    check_destination(st_path)
    temps = []
    try:
        temps.append(_write_temp(st_path, lambda f: safetensors.write(f, tensors), "wb"))
        temps.append(_write_temp(json_path, lambda f: f.write(text), "w"))
        os.replace(temps[0], st_path)
        os.replace(temps[1], json_path)
    except BaseException:
        for temp in temps:
            if os.path.lexists(temp):
                os.unlink(temp)
        raise
    return json_path
