#!/usr/bin/env python3
"""vmfb-patch.py FILE KIND RECORD FIELD_OFFSET VALUE [SIZE_DELTA]: writes the
u32 VALUE at byte FIELD_OFFSET of record RECORD (32-byte records) of the
first section of KIND, adds SIZE_DELTA to that section's size, and
recomputes every checksum (formats/vmfb.md), so that the change reaches
the checks behind them."""
import struct
import sys

POLY = 0x82F63B78
TABLE = []
for i in range(256):
    c = i
    for _ in range(8):
        c = (c >> 1) ^ POLY if c & 1 else c >> 1
    TABLE.append(c)


def crc32c(b):
    c = 0xFFFFFFFF
    for x in b:
        c = TABLE[(c ^ x) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF


path, kind, rec, field, value = sys.argv[1], *map(int, sys.argv[2:6])
delta = int(sys.argv[6]) if len(sys.argv) > 6 else 0
p = bytearray(open(path, "rb").read())
tab, nsec = struct.unpack_from("<QI", p, 24)
for i in range(nsec):
    e = tab + 32 * i
    k, _, off, size = struct.unpack_from("<IIQQ", p, e)
    if k == kind:
        struct.pack_into("<I", p, off + 32 * rec + field, value)
        struct.pack_into("<Q", p, e + 16, size + delta)
        break
else:
    sys.exit(f"no section of kind {kind}")
for i in range(nsec):
    e = tab + 32 * i
    _, _, off, size = struct.unpack_from("<IIQQ", p, e)
    struct.pack_into("<I", p, e + 24, crc32c(p[off:off + size]))
struct.pack_into("<I", p, 40, crc32c(p[tab:tab + 32 * nsec]))
struct.pack_into("<I", p, 60, crc32c(p[:60]))
open(path, "wb").write(p)
