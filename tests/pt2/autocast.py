"""Models for tests/pt2/autocast.bats (fx-export --autocast bf16), and
their check:  autocast.py NAME VMFB  runs the compiled module (bin/vmrun)
and the model in eager under torch.autocast("cpu", bfloat16) on two
inputs, and requires
  - the result's dtype to be eager's under autocast;
  - every element within 2^-6 * max |eager| of eager's: two units in the
    last place of bf16 at the result's largest magnitude (f32 sums in
    another order round some bf16 products the other way; the error
    grows through the layers but stays below that);
  - the result closer, on average, to eager's under autocast than to
    eager's in f32: the module computes in bf16 where autocast does, it
    does not only come near by computing everything in f32.
The MHA fast path of TransformerEncoderLayer is turned off in eager, as
fx-export turns it off to trace (it computes in other dtypes)."""
import os
import sys
import tempfile

import torch
import torch.nn as nn

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e"))
import e2e_models  # noqa: E402
import fxrun  # noqa: E402

SHAPES = {"bert": (1, 128, 768), "resnet18": (1, 3, 224, 224)}


def bert():
    """a BERT-base encoder layer: TransformerEncoderLayer(768, 12, 3072,
    gelu), its LayerNorms given random affine parameters"""
    torch.manual_seed(0)
    m = nn.TransformerEncoderLayer(768, 12, 3072, activation="gelu", batch_first=True,
                                   dropout=0.0).eval()
    e2e_models._randomize_layernorms(m)
    return m


def resnet18():
    """torchvision's resnet18, its BatchNorms given random statistics"""
    import torchvision

    torch.manual_seed(0)
    m = torchvision.models.resnet18().eval()
    e2e_models.base._randomize_batchnorms(m)
    return m


def main():
    name, vmfb = sys.argv[1], sys.argv[2]
    if hasattr(torch.backends, "mha"):  # PyTorch 2: the fast path is not what autocast traced
        torch.backends.mha.set_fastpath_enabled(False)
    model = globals()[name]()
    g = torch.Generator().manual_seed(5)
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(2):
            x = torch.randn(SHAPES[name], generator=g)
            with torch.no_grad():
                f32 = model(x).float()
                with torch.autocast("cpu", dtype=torch.bfloat16):
                    ref = model(x)
            got = fxrun.run(vmfb, x, [ref], tmp)[0]
            if got.dtype != ref.dtype or got.shape != ref.shape:
                print(f"input {i}: {got.dtype}{list(got.shape)}, eager {ref.dtype}{list(ref.shape)}")
                bad += 1
                continue
            got, ref = got.float(), ref.float()
            err, tol = (got - ref).abs().max().item(), 2 ** -6 * ref.abs().max().item()
            to_ref, to_f32 = (got - ref).abs().mean().item(), (got - f32).abs().mean().item()
            print(f"input {i}: max |fx - autocast| {err:.4g} (tolerance {tol:.4g}); mean "
                  f"|fx - autocast| {to_ref:.4g}, |fx - f32| {to_f32:.4g}, |autocast - f32| "
                  f"{(ref - f32).abs().mean().item():.4g}")
            bad += (err > tol) + (to_ref >= to_f32)
    print("ok" if not bad else f"{bad} mismatches")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
