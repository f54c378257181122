"""Models for dynamic.bats: each is exported with dynamic dims and run
at several sizes (dynrun.py)."""
import torch
import torch.nn.functional as F
from torch import nn


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(8, 32)
        self.b = nn.Linear(32, 4)

    def forward(self, x):
        return self.b(torch.relu(self.a(x))).softmax(-1) + x[:, :4].sum(-1, keepdim=True)


class GPT2Block(nn.Module):
    """A GPT-2 block: pre-norm causal self-attention (PyTorch's fused
    scaled_dot_product_attention) and a tanh-GELU MLP."""

    def __init__(self, d=16, h=2):
        super().__init__()
        self.h = h
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.attn, self.proj = nn.Linear(d, 3 * d), nn.Linear(d, d)
        self.fc, self.fc2 = nn.Linear(d, 4 * d), nn.Linear(4 * d, d)

    def forward(self, x):
        b, t, c = x.shape
        qkv = self.attn(self.ln1(x)).view(b, t, 3, self.h, c // self.h).permute(2, 0, 3, 1, 4)
        y = F.scaled_dot_product_attention(qkv[0], qkv[1], qkv[2], is_causal=True)
        x = x + self.proj(y.transpose(1, 2).reshape(b, t, c))
        return x + self.fc2(F.gelu(self.fc(self.ln2(x)), approximate="tanh"))


def norms_random(m):
    """LayerNorms with random affine parameters: the default (1, 0) would
    let a lowering that drops them pass."""
    g = torch.Generator().manual_seed(1)
    with torch.no_grad():
        for n in m.modules():
            if isinstance(n, nn.LayerNorm):
                n.weight.copy_(torch.rand(n.weight.shape, generator=g) + 0.5)
                n.bias.copy_(torch.randn(n.bias.shape, generator=g))
    return m


def mlp():
    return MLP()


def encoder():
    return norms_random(nn.TransformerEncoderLayer(16, 2, 32, dropout=0.0, batch_first=True))


def gpt2():
    return norms_random(GPT2Block())


class Pair(nn.Module):
    def forward(self, x, y):
        return x * 2 + y.tanh()


def pair():
    return Pair()
