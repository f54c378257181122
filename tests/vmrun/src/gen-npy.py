#!/usr/bin/python3
"""gen-npy.py - writes tests/vmrun/inputs/npy/x_DTYPE.npy, one 2x3 array per
dtype vmrun reads, and x_bf16.bin (raw bf16 bits).  Run once; the outputs
are committed, so the tests need no numpy."""
import os
import numpy as np

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "inputs", "npy")
os.makedirs(out, exist_ok=True)
vals = [[1.5, -2.25, 3.0], [0.0, 65504.0, -0.125]]
arrays = {
    "f32": np.array(vals, np.float32),
    "f64": np.array([[0.1, -1e300, 3.0], [2.0**-1070, 5.0, -6.0]], np.float64),
    "f16": np.array(vals, np.float16),
    "i64": np.array([[1, -2, 2**62], [-2**63, 0, 7]], np.int64),
    "i32": np.array([[1, -2, 2**31 - 1], [-2**31, 0, 7]], np.int32),
    "i16": np.array([[1, -2, 32767], [-32768, 0, 7]], np.int16),
    "i8": np.array([[1, -2, 127], [-128, 0, 7]], np.int8),
    "ui8": np.array([[1, 2, 255], [128, 0, 7]], np.uint8),
    "i1": np.array([[True, False, True], [False, False, True]], np.bool_),
}
for name, a in arrays.items():
    np.save(os.path.join(out, "x_%s.npy" % name), a)
# bf16: the top half of each f32 (truncated: 65504 becomes 65280)
f = np.array(vals, np.float32).view(np.uint32) >> 16
f.astype("<u2").tofile(os.path.join(out, "x_bf16.bin"))
