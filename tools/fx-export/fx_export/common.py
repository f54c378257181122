"""Small shared pieces: the error type, the running torch version, and
fetch_attr."""

import re

import torch


class ExportError(Exception):
    """A problem with the user's model, inputs or options (not a bug here)."""


def _parse_version(text):
    """'2.1.0+cpu' -> (2, 1); '1.13.0a0' -> (1, 13)."""
    match = re.match(r"(\d+)\.(\d+)", text)
    return (int(match.group(1)), int(match.group(2))) if match else (0, 0)


TORCH_VERSION = _parse_version(torch.__version__)

# torch.export (a sound, dynamo-based aten capture) is public from 2.1 on;
# before that, make_fx is the way to get an aten graph.
HAS_TORCH_EXPORT = TORCH_VERSION >= (2, 1)


def fetch_attr(root, target):
    """root's attribute at the dotted path target (a get_attr node's)"""
    obj = root
    for part in target.split("."):
        obj = getattr(obj, part)
    return obj
