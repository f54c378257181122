"""The 1024x1024x1024 f32 matmul of `make bench`, as a torch-level model."""
import torch


class MatMul(torch.nn.Module):
    def forward(self, a, b):
        return torch.matmul(a, b)


def matmul_1024():
    torch.manual_seed(0)
    return MatMul(), (torch.randn(1024, 1024), torch.randn(1024, 1024))


class Linear(torch.nn.Module):
    def __init__(self, k, n):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.randn(n, k) / k ** 0.5)

    def forward(self, x):
        return torch.nn.functional.linear(x, self.weight)


def ffn_128x768x3072():
    """The first linear layer of a BERT-base FFN on 128 tokens: x[128, 768]
    times a constant weight[3072, 768] transposed."""
    torch.manual_seed(0)
    return Linear(768, 3072), (torch.randn(128, 768),)
