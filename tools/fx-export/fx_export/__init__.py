"""fx_export: capture a PyTorch module as an FX graph and write it as
fxpipe-fx-json (formats/fx-json.md) plus a safetensors weights file.

    import fx_export
    fx_export.export(module, (torch.randn(4),), "m.json")          # aten graph
    fx_export.export(module, (torch.randn(4),), "m.json", graph="torch")
"""

import os

from .capture import capture
from .common import ExportError
from .encode import FORMAT, VERSION, build_document, ordered_weights
from .output import weights_path, write_outputs

__all__ = ["export", "ExportError", "FORMAT", "VERSION", "weights_path"]


def export(module, args, path, graph="aten", dynamic=None):
    """Capture `module(*args)` and write `path` (JSON) and its weights.

    graph="aten": an aten-level graph (make_fx on PyTorch < 2.1,
    torch.export from 2.1 on).  graph="torch": a torch-level graph from
    torch.fx symbolic tracing, with standard nn layers as call_module nodes.
    The weights go to the same path with .json replaced by .safetensors.
    dynamic: a list of fx_export.dynamic.DynamicDim, dimensions of the
    inputs to export as symbols (aten graphs, torch.export only).
    Returns `path`.  Raises ExportError for problems with the model or its
    inputs; nothing is written then.
    """
    captured = capture(module, args, graph, dynamic)
    document = build_document(captured, os.path.basename(weights_path(path)))
    return write_outputs(path, document, ordered_weights(captured))
