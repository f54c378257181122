"""The 1024x1024x1024 f32 matmul of `make bench`, as a torch-level model."""
import torch


class MatMul(torch.nn.Module):
    def forward(self, a, b):
        return torch.matmul(a, b)


def matmul_1024():
    torch.manual_seed(0)
    return MatMul(), (torch.randn(1024, 1024), torch.randn(1024, 1024))
