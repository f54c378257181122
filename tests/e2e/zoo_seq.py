"""Sequence models for the end-to-end zoo: recurrent nets (nn.LSTM, nn.GRU),
sorting ops (topk, sort, cumsum) and a GPT-2-style decoder block.

Each factory seeds torch and returns (module in eval mode, (inputs...)).
"""
import torch
from torch import nn
import torch.nn.functional as F

NAMES = ["lstm", "gru", "topk_sort_cumsum", "gpt2_block"]


class _RNN(nn.Module):
    def __init__(self, cls):
        super().__init__()
        self.r = cls(16, 32, num_layers=2, batch_first=True)

    def forward(self, x):
        return self.r(x)[0]


def lstm():
    torch.manual_seed(0)
    return _RNN(nn.LSTM).eval(), (torch.randn(2, 7, 16),)


def gru():
    torch.manual_seed(0)
    return _RNN(nn.GRU).eval(), (torch.randn(2, 7, 16),)


class _TopkSortCumsum(nn.Module):
    def forward(self, x):
        v, i = torch.topk(x, 3, dim=1)
        sv, si = torch.sort(x, dim=1, descending=True)
        lv, li = torch.topk(x, 2, dim=0, largest=False)
        av, ai = torch.sort(x, dim=0)
        return v, i, sv, si, torch.cumsum(sv, dim=1), lv, li, ai, torch.cumsum(av, dim=0)


def topk_sort_cumsum():
    torch.manual_seed(0)
    # randn: values distinct with probability 1, so the indices are unique
    return _TopkSortCumsum().eval(), (torch.randn(5, 11),)


class _GPT2Block(nn.Module):
    def __init__(self, d=64, h=4, T=16, V=100):
        super().__init__()
        self.h = h
        self.wte = nn.Embedding(V, d)
        self.wpe = nn.Embedding(T, d)
        self.ln1 = nn.LayerNorm(d)
        self.attn = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.ln2 = nn.LayerNorm(d)
        self.fc = nn.Linear(d, 4 * d)
        self.fc2 = nn.Linear(4 * d, d)
        self.register_buffer("mask", torch.tril(torch.ones(T, T)).view(1, 1, T, T))

    def forward(self, idx):
        B, T = idx.shape
        pos = torch.arange(0, T, dtype=torch.long).unsqueeze(0)
        x = self.wte(idx) + self.wpe(pos)
        q, k, v = self.attn(self.ln1(x)).split(x.size(-1), dim=2)
        q = q.view(B, T, self.h, -1).transpose(1, 2)
        k = k.view(B, T, self.h, -1).transpose(1, 2)
        v = v.view(B, T, self.h, -1).transpose(1, 2)
        a = (q @ k.transpose(-2, -1)) / (q.size(-1) ** 0.5)
        a = a.masked_fill(self.mask[:, :, :T, :T] == 0, float("-inf")).softmax(-1)
        y = (a @ v).transpose(1, 2).contiguous().view(B, T, -1)
        x = x + self.proj(y)
        return x + self.fc2(F.gelu(self.fc(self.ln2(x))))


def _randomize_norms(m):
    g = torch.Generator().manual_seed(1)
    for n in m.modules():
        if isinstance(n, nn.LayerNorm):
            with torch.no_grad():
                sign = torch.randint(0, 2, n.bias.shape, generator=g) * 2 - 1
                n.weight.copy_(torch.rand(n.weight.shape, generator=g) * 0.5 + 0.5)
                n.bias.copy_(sign * (torch.rand(n.bias.shape, generator=g) * 0.5 + 0.1))


def gpt2_block():
    torch.manual_seed(0)
    m = _GPT2Block()
    _randomize_norms(m)
    # 12 tokens of the 16 the mask buffer holds: mask[:, :, :T, :T] slices it
    return m.eval(), (torch.randint(0, 100, (2, 12)),)
