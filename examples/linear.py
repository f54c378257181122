"""The seed's LinearModule: (input @ weight) + bias, as in the walkthrough."""
import torch


class LinearModule(torch.nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.randn(in_features, out_features))
        self.bias = torch.nn.Parameter(torch.randn(out_features))

    def forward(self, input):
        return (input @ self.weight) + self.bias


def make_model():
    torch.manual_seed(0)
    return LinearModule(4, 3), (torch.randn(4),)
