"""Model factories shared by the fx-export tests and later pipeline stages.

Each factory returns ``(module, example_inputs)``, where ``example_inputs`` is
a tuple of tensors.  Every factory seeds the global RNG itself, so calling it
twice gives bit-identical weights and inputs, whatever the caller did before.

Use with the CLI as ``fx-export tests/fx-export/models.py:resnet18 -o r.json``.
"""

import torch
from torch import nn


class LinearModule(nn.Module):
    """The seed walkthrough's model: ``(input @ weight) + bias``."""

    def __init__(self, in_features, out_features):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(in_features, out_features))
        self.bias = nn.Parameter(torch.randn(out_features))

    def forward(self, input):
        return (input @ self.weight) + self.bias


class MLP(nn.Module):
    """Three linear layers with ReLU between them."""

    def __init__(self, sizes=(16, 32, 32, 8)):
        super().__init__()
        self.fc1 = nn.Linear(sizes[0], sizes[1])
        self.fc2 = nn.Linear(sizes[1], sizes[2])
        self.fc3 = nn.Linear(sizes[2], sizes[3])

    def forward(self, x):
        x = torch.relu(self.fc1(x))
        x = torch.relu(self.fc2(x))
        return self.fc3(x)


def _randomize_batchnorms(module):
    """Give every BatchNorm non-trivial affine params and running stats.

    torchvision initialises BN to weight=1, bias=0, mean=0, var=1; with random
    conv weights the activations then shrink layer after layer and the outputs
    end up near zero, which makes numeric comparisons meaningless.
    """
    for m in module.modules():
        if isinstance(m, nn.modules.batchnorm._BatchNorm):
            with torch.no_grad():
                m.weight.uniform_(0.5, 1.5)
                m.bias.uniform_(-0.1, 0.1)
                m.running_mean.uniform_(-0.1, 0.1)
                m.running_var.uniform_(0.5, 1.5)


def linear():
    torch.manual_seed(0)
    module = LinearModule(4, 3)
    return module, (torch.randn(4),)


def mlp():
    torch.manual_seed(0)
    module = MLP().eval()
    return module, (torch.randn(2, 16),)


def resnet18():
    import torchvision

    torch.manual_seed(0)
    module = torchvision.models.resnet18(weights=None)
    _randomize_batchnorms(module)
    return module.eval(), (torch.randn(1, 3, 224, 224),)


def mobilenet_v2():
    import torchvision

    torch.manual_seed(0)
    module = torchvision.models.mobilenet_v2(weights=None)
    _randomize_batchnorms(module)
    return module.eval(), (torch.randn(1, 3, 224, 224),)


def transformer_encoder_layer():
    torch.manual_seed(0)
    module = nn.TransformerEncoderLayer(d_model=256, nhead=4).eval()
    # batch_first=False: the input is [seq, batch, d_model].
    return module, (torch.randn(16, 1, 256),)


# Name -> factory, for tests and scripts that loop over all models.
FACTORIES = {
    "linear": linear,
    "mlp": mlp,
    "resnet18": resnet18,
    "mobilenet_v2": mobilenet_v2,
    "transformer_encoder_layer": transformer_encoder_layer,
}
