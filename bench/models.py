"""Models `make bench` measures beyond the five test models: resnet50,
whose compile time and memory issue 7 sets targets for.  BatchNorms get
random affine params and running stats (tests/fx-export/models.py), so
that the model computes something."""
import importlib.util
import os

import torch

_spec = importlib.util.spec_from_file_location(
    "fx_export_test_models",
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fx-export", "models.py"))
_base = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_base)


def resnet50():
    import torchvision

    torch.manual_seed(0)
    module = torchvision.models.resnet50(weights=None)
    _base._randomize_batchnorms(module)
    return module.eval(), (torch.randn(1, 3, 224, 224),)
