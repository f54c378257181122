"""A small, dependency-free writer (and header reader) for safetensors files.

Layout: an 8-byte little-endian header length N, then N bytes of JSON header
(padded with spaces so the data starts 8-byte aligned), then the raw
little-endian tensor data, each tensor contiguous and row-major.  The header
maps each tensor name to {"dtype", "shape", "data_offsets": [begin, end]},
offsets relative to the start of the data; the data has no holes.
"""

import json
import struct
import sys

import torch

# torch dtype -> (safetensors dtype name, dtype of the same width whose raw
# bytes numpy can export; torch 1.13 cannot call .numpy() on bfloat16).
DTYPES = {
    torch.float64: ("F64", torch.float64),
    torch.float32: ("F32", torch.float32),
    torch.float16: ("F16", torch.float16),
    torch.bfloat16: ("BF16", torch.int16),
    torch.int64: ("I64", torch.int64),
    torch.int32: ("I32", torch.int32),
    torch.int16: ("I16", torch.int16),
    torch.int8: ("I8", torch.int8),
    torch.uint8: ("U8", torch.uint8),
    torch.bool: ("BOOL", torch.uint8),
}


def dtype_name(dtype):
    """The safetensors name of a torch dtype, or raise ValueError."""
    try:
        return DTYPES[dtype][0]
    except KeyError:
        raise ValueError(f"dtype {dtype} cannot be stored in safetensors "
                         f"(supported: {', '.join(n for n, _ in DTYPES.values())})")


def tensor_bytes(tensor):
    """Raw little-endian bytes of a tensor, contiguous, row-major."""
    tensor = tensor.detach().to("cpu").contiguous()
    raw_dtype = DTYPES[tensor.dtype][1]
    if raw_dtype != tensor.dtype:
        tensor = tensor.view(raw_dtype)
    array = tensor.numpy()
    if sys.byteorder == "big":
        array = array.byteswap()
    return array.tobytes()


def _layout(tensors):
    """Order the tensors for writing: widest element type first.

    With the data section 8-byte aligned, writing 8-byte types before 4-byte
    ones (and so on) starts every tensor at a multiple of its element size,
    so a reader can map the file and use the data in place.
    """
    items = list(tensors.items())
    items.sort(key=lambda kv: -kv[1].element_size())  # stable: keeps order
    return items


def build_header(items):
    """The padded JSON header bytes for (name, tensor) pairs, in order."""
    header = {}
    offset = 0
    for name, tensor in items:
        nbytes = tensor.numel() * tensor.element_size()
        header[name] = {
            "dtype": dtype_name(tensor.dtype),
            "shape": list(tensor.shape),
            "data_offsets": [offset, offset + nbytes],
        }
        offset += nbytes
    header["__metadata__"] = {"format": "pt", "producer": "fx-export"}
    text = json.dumps(header, separators=(",", ":")).encode("utf-8")
    text += b" " * (-len(text) % 8)
    return text


def write(fileobj, tensors):
    """Write {name: tensor} to a binary file object in safetensors format."""
    items = _layout(tensors)
    header = build_header(items)
    fileobj.write(struct.pack("<Q", len(header)))
    fileobj.write(header)
    for _, tensor in items:
        fileobj.write(tensor_bytes(tensor))


def read_header(path):
    """Return (header dict, data section start) of a safetensors file."""
    with open(path, "rb") as f:
        (length,) = struct.unpack("<Q", f.read(8))
        header = json.loads(f.read(length).decode("utf-8"))
    return header, 8 + length
