"""quant.py FACTORY VMFB MODE N: runs an int8 model of qmodels.py
in PyTorch and its compiled module (bin/vmrun) on N inputs of the model's
shape and compares every result.  MODE:
  exact  every result equal, bit for bit (the quantize / dequantize ops)
  close  max |fx - eager| <= 1e-5 * max |eager| per result
  steps  the result is a dequantized int8 tensor of scale q: counted in
         steps of q. Eager's own result computed without oneDNN differs
         from eager's by one step in about 25% of resnet18's logits and
         by two in about 0.03% (f32 sums in another order flip a rounding
         somewhere in the network), so: top-1 equal on every input, no
         result off by more than two steps, at most 0.1% by two and 35%
         by one.  That eager-vs-eager count is printed beside fx's.
  layer  one int8 contraction per result (qmodels' Branches): a float
         result within 1e-5 of eager's largest (codegen's int8 kernels
         sum exactly, eager in f32); a quantized one (a dequantize of
         scale q) off by at most one step of q, in at most 1% of its
         elements (an exact sum and eager's rounded one straddling a
         half step)."""
import os
import sys
import tempfile

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fxrun  # noqa: E402
import qmodels  # noqa: E402

SHAPES = {"qdq": (4, 3, 5, 6), "convnet": (1, 3, 16, 16), "resnet18": (1, 3, 224, 224),
          "fx_convnet": (1, 3, 16, 16), "fx_resnet18": (1, 3, 224, 224),
          "fx_packed_convnet": (1, 3, 16, 16), "fx_packed_resnet18": (1, 3, 224, 224),
          "eager_mlp": (2, 16), "qconv_u8": (2, 6, 13, 17), "qconv_s8": (1, 48, 7, 7),
          "qconv_s8_wide": (1, 16, 28, 28), "qlinear_u8": (5, 33)}


def inputs(name, n):
    g = torch.Generator().manual_seed(11)
    shape = SHAPES[name]
    for i in range(n):
        x = torch.randn(shape, generator=g) * (3 if name == "qdq" else 1)
        if name == "qdq" and i % 2:
            # halfway between two steps of 0.0625 (exact in f32): ties to even
            k = torch.randint(-140, 140, shape, generator=g).float()
            x = (k + 0.5) * 0.0625
        yield x


def out_scales(gm):
    """per result, PT2E's dequantize_per_tensor(q, scale, ..) that gives it:
    the scale, or None (a float result)"""
    outs = next(n for n in gm.graph.nodes if n.op == "output").args[0]
    outs = outs if isinstance(outs, (tuple, list)) else [outs]
    return [float(o.args[1]) if "dequantize_per_tensor" in str(o.target) else None for o in outs]


def out_scale(gm):
    """the scale of the dequantize that gives the model's output: PT2E's
    dequantize_per_tensor(q, scale, ..), the FX reference model's
    dequantize of torch.quantize_per_tensor(x, scale buffer, ..), or
    convert_fx's dequantize of a quantized module's output"""
    out = next(n for n in gm.graph.nodes if n.op == "output").args[0]
    out = out[0] if isinstance(out, (tuple, list)) else out
    name = str(out.target)
    if "dequantize_per_tensor" in name:
        return float(out.args[1])
    q = out.args[0] if "dequantize" in name else None
    if q is not None and "quantize_per_tensor" in str(q.target):
        s = q.args[1]
        return float(getattr(gm, s.target) if isinstance(s, torch.fx.Node) else s)
    if q is not None and q.op == "call_module":  # convert_fx's quantized module
        return float(gm.get_submodule(q.target).scale)
    sys.exit(f"the output of the model is {name}, not a per-tensor dequantize")


def main():
    name, vmfb, mode, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    torch.manual_seed(0)
    model = getattr(qmodels, name)()
    q = out_scale(model) if mode == "steps" else None
    qs = out_scales(model) if mode == "layer" else None
    ones = {}
    bad = 0
    hist = {"fx": np.zeros(8, np.int64), "eager without oneDNN": np.zeros(8, np.int64)}
    top1 = 0
    with tempfile.TemporaryDirectory() as tmp:
        for i, x in enumerate(inputs(name, n)):
            with torch.no_grad():
                ref = model(x)
            refs = list(ref) if isinstance(ref, (tuple, list)) else [ref]
            got = [y.numpy() for y in fxrun.run(vmfb, x, refs, tmp)]
            refs = [r.numpy() for r in refs]
            for j, (r, y) in enumerate(zip(refs, got)):
                if y.shape != r.shape or y.dtype != r.dtype:
                    print(f"input {i} result {j}: {y.dtype}{list(y.shape)}, eager "
                          f"{r.dtype}{list(r.shape)}")
                    bad += 1
                elif mode == "exact" and not np.array_equal(y, r):
                    k = np.flatnonzero(y != r)[0]
                    print(f"input {i} result {j}: {np.count_nonzero(y != r)} differ, first "
                          f"at {k}: {y.flat[k]} (eager {r.flat[k]}, x {x.numpy().flat[k]})")
                    bad += 1
                elif mode == "layer" and qs[j] is not None:
                    st = np.rint(np.abs(y - r) / qs[j])
                    ones[j] = ones.get(j, 0) + int(np.count_nonzero(st == 1))
                    if st.max() > 1 or ones[j] > 0.01 * r.size * (i + 1):
                        print(f"input {i} result {j}: {int(np.count_nonzero(st == 1))} off by "
                              f"one step, {int(np.count_nonzero(st > 1))} by more, of {r.size}")
                        bad += 1
                elif mode in ("close", "layer"):
                    d = np.abs(y - r).max()
                    if not d <= 1e-5 * np.abs(r).max() or np.abs(r).max() < 1e-3:
                        print(f"input {i} result {j}: max |diff| {d}, max |eager| {np.abs(r).max()}")
                        bad += 1
                elif mode == "steps":
                    with torch.no_grad(), torch.backends.mkldnn.flags(enabled=False):
                        alt = model(x).numpy()
                    for key, o in (("fx", y), ("eager without oneDNN", alt)):
                        s = np.rint(np.abs(o - r) / q).astype(np.int64)
                        hist[key] += np.bincount(np.minimum(s, 7).ravel(), minlength=8)
                    top1 += int(y.argmax() == r.argmax())
    if mode == "steps":
        total = hist["fx"].sum()
        for key, h in hist.items():
            print(f"{key}: results off by 0, 1, 2, more steps: {h[0]}, {h[1]}, {h[2]}, "
                  f"{h[3:].sum()} of {total}")
        print(f"top-1 equal on {top1} of {n} inputs")
        h = hist["fx"]
        bad += (top1 != n) + (h[3:].sum() > 0) + (h[2] > 0.001 * total) + (h[1] > 0.35 * total)
    print("ok" if not bad else f"{bad} mismatches")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
