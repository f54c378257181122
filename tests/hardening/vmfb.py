#!/usr/bin/env python3
"""Crafts damaged .vmfb modules behind valid checksums (formats/vmfb.md),
for tests/hardening/rt.bats.

  vmfb.py fix FILE             recompute every checksum in place
  vmfb.py grid0 IN OUT         the first dispatch's grid x becomes 0
  vmfb.py gap IN OUT           a nonzero byte in the first gap between sections
  vmfb.py bindwrap IN OUT      one function of 65537 dispatches that each bind
                               the same 65536 entries: 2^32 + 65536 in all
"""
import struct
import sys

_T = []
for i in range(256):
    c = i
    for _ in range(8):
        c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
    _T.append(c)


def crc32c(b):
    c = 0xFFFFFFFF
    t = _T
    for x in b:
        c = t[(c ^ x) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF


SEC = struct.Struct("<IIQQII")
FUNC = struct.Struct("<10IQ")
INST = struct.Struct("<8IQ")
KERN = struct.Struct("<8I")


def parse(data):
    toff, nsec = struct.unpack_from("<QI", data, 24)
    secs = []
    for i in range(nsec):
        kind, flags, off, size, crc, res = SEC.unpack_from(data, toff + 32 * i)
        secs.append([kind, bytearray(data[off:off + size]), off])
    return secs


def fix(data):
    """Checksums of a module laid out as it is."""
    data = bytearray(data)
    toff, nsec = struct.unpack_from("<QI", data, 24)
    for i in range(nsec):
        e = toff + 32 * i
        kind, flags, off, size, crc, res = SEC.unpack_from(data, e)
        SEC.pack_into(data, e, kind, flags, off, size, crc32c(data[off:off + size]), res)
    struct.pack_into("<I", data, 40, crc32c(data[toff:toff + 32 * nsec]))
    struct.pack_into("<I", data, 60, crc32c(data[:60]))
    return data


def layout(secs):
    """A module of these sections, each at the next multiple of 64."""
    n = len(secs)
    off = (64 + 32 * n + 63) // 64 * 64
    table = bytearray()
    body = bytearray(off)
    for kind, b, _ in secs:
        table += SEC.pack(kind, 0, off, len(b), 0, 0)
        body[off:] = b
        off = (off + len(b) + 63) // 64 * 64
        body += bytes(off - len(body))
    data = body
    data[64:64 + len(table)] = table
    hdr = struct.pack("<8sIIQQIIII12sI", b"\x89FXVMFB\n", 1, 64, len(data), 64, n, 32, 0, 0,
                      bytes(12), 0)
    data[0:64] = hdr
    return fix(data)


def sec(secs, kind):
    return next(s for s in secs if s[0] == kind)


def first_dispatch(secs):
    funcs, insts = sec(secs, 5)[1], sec(secs, 7)[1]
    for fi in range(len(funcs) // FUNC.size):
        f = FUNC.unpack_from(funcs, fi * FUNC.size)
        for j in range(f[7], f[7] + f[8]):
            if INST.unpack_from(insts, j * INST.size)[0] == 1:
                return fi, j
    raise SystemExit("no dispatch in the module")


def main():
    op = sys.argv[1]
    data = bytearray(open(sys.argv[2], "rb").read())
    if op == "fix":
        open(sys.argv[2], "wb").write(fix(data))
        return
    secs = parse(data)
    if op == "grid0":
        fi, j = first_dispatch(secs)
        insts = sec(secs, 7)[1]
        struct.pack_into("<I", insts, j * INST.size + 16, 0)
        out = layout(secs)
    elif op == "gap":
        out = bytearray(data)
        ends = sorted((off + len(b), off) for _, b, off in secs)
        starts = sorted(off for _, b, off in secs if b)
        for end, _ in ends:
            nxt = min([s for s in starts if s >= end] + [len(out)])
            if nxt > end:
                out[end] = 0x5A
                break
        else:
            raise SystemExit("no gap")
        out = fix(out)
    elif op == "bindwrap":
        fi, j = first_dispatch(secs)
        funcs, insts = sec(secs, 5)[1], sec(secs, 7)[1]
        f = list(FUNC.unpack_from(funcs, fi * FUNC.size))
        d = INST.unpack_from(insts, j * INST.size)
        kerns = sec(secs, 10)[1]
        k = list(KERN.unpack_from(kerns, d[1] * KERN.size))
        k[3] = 65536
        KERN.pack_into(kerns, d[1] * KERN.size, *k)
        sec(secs, 8)[1] = bytearray(4 * 65536)   # buffer 0 of the function
        ninst = len(insts) // INST.size
        one = INST.pack(1, d[1], 0, 65536, 1, 1, 1, 0, 0)
        sec(secs, 7)[1] = insts + one * 65537
        f[7], f[8] = ninst, 65537
        sec(secs, 5)[1] = bytearray(FUNC.pack(*f))   # the only function
        out = layout(secs)
    else:
        raise SystemExit("unknown operation " + op)
    open(sys.argv[3], "wb").write(out)


main()
