"""Run a compiled module with bin/vmrun on one input, for the tests that
compare it with eager in Python (tests/e2e/quant.py, tests/pt2/autocast.py).

    run(vmfb, x, likes, tmp) -> [torch.Tensor]

LIKES are eager's results: their dtypes and shapes say how to read back
vmrun's.  npy has no bf16, so a bf16 result is written raw and read back
as the bits of LIKE's shape."""
import os
import subprocess

import numpy as np
import torch

VMRUN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bin", "vmrun")


def run(vmfb, x, likes, tmp):
    np.save(os.path.join(tmp, "x.npy"), x.numpy())
    outs = [os.path.join(tmp, f"y{i}." + ("bin" if r.dtype == torch.bfloat16 else "npy"))
            for i, r in enumerate(likes)]
    subprocess.run([VMRUN, vmfb, f"--input=@{tmp}/x.npy"] + [f"--output=@{o}" for o in outs],
                   check=True)
    got = []
    for o, r in zip(outs, likes):
        if r.dtype == torch.bfloat16:
            raw = torch.from_numpy(np.fromfile(o, dtype=np.int16))
            got.append(raw.view(torch.bfloat16).reshape(r.shape))
        else:
            got.append(torch.from_numpy(np.load(o)))
    return got
