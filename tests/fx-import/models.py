"""Model factories for the fx-import tests (see tests/fx-export/models.py
for the shared ones).  Each returns (module, example_inputs)."""

import torch
from torch import nn


class InPlace(nn.Module):
    """In-place ops whose mutated tensor is read again afterwards."""

    def forward(self, x):
        y = x * 2
        y.relu_()
        z = y + 1
        y.add_(z)
        return y, z


class SmallCNN(nn.Module):
    """conv, batch norm, in-place ReLU, max pool with indices, split."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, padding=1, bias=False)
        self.bn = nn.BatchNorm2d(4)
        self.relu = nn.ReLU(inplace=True)
        self.pool = nn.MaxPool2d(2)
        self.flatten = nn.Flatten()

    def forward(self, x):
        y = self.pool(self.relu(self.bn(self.conv(x))))
        s = torch.split(y, 2, dim=1)
        return self.flatten(s[0] + s[1])


def inplace():
    torch.manual_seed(0)
    return InPlace().eval(), (torch.randn(2, 3),)


def small_cnn():
    torch.manual_seed(0)
    return SmallCNN().eval(), (torch.randn(1, 3, 8, 8),)


def resnet50():
    import torchvision

    torch.manual_seed(0)
    return torchvision.models.resnet50(weights=None).eval(), (torch.randn(1, 3, 224, 224),)


class SqueezeDims(nn.Module):
    """torch.squeeze with a tuple of dims: aten.squeeze.dims from PyTorch
    2.0 on (exported with the venv's Python; 1.13 has no such overload)."""

    def forward(self, x):
        return torch.squeeze(x, (0, 1, -2)) * 2   # dim 1 (size 3) stays


def squeeze_dims():
    return SqueezeDims(), (torch.randn(1, 3, 1, 4),)


class ScalarResults(nn.Module):
    """Python int/float/bool results beside tensors, nested: at aten level
    make_fx folds them to literals, at torch level numel, size, dim and
    shape are run-time nodes; split returns a list of tensors."""

    def forward(self, x):
        return (x.numel(), x * 2, x.size(0), x.dim() > 1, 2.5,
                [x.size(1) - 4, True], x.shape, torch.split(x, 2))


def scalar_results():
    torch.manual_seed(0)
    return ScalarResults().eval(), (torch.randn(5, 3),)


class ComplexOps(nn.Module):
    """complex64 and complex128 tensors: fx-import gives them as [..., 2]
    reals (complex.c): a promoting complex mul, rfft as DFT matmuls, the
    real part, a transpose with negative dims."""

    def forward(self, z, w, x):
        return z * w, torch.fft.rfft(x), z.real, z.transpose(-1, -2)


def complex_ops():
    return ComplexOps(), (torch.randn(2, 3, dtype=torch.complex64),
                          torch.randn(3, dtype=torch.complex128), torch.randn(4))


class DynamicCat(nn.Module):
    """For --dynamic: sizes that are expressions of symbols (a cat's sum,
    a slice's difference, a flatten's product) and a size as a value."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 3)

    def forward(self, x, y):
        z = torch.cat([x, y], 0)
        return self.fc(z).relu(), z[1:].flatten() * 2, z.shape[0]


def dynamic_cat():
    torch.manual_seed(0)
    return DynamicCat().eval(), (torch.randn(2, 4), torch.randn(3, 4))
