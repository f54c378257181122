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
    """Norm layers with random affine parameters (and BatchNorms with
    random running statistics): the defaults make them identities, which
    a lowering that dropped them would pass."""
    g = torch.Generator().manual_seed(1)
    with torch.no_grad():
        for n in m.modules():
            if isinstance(n, (nn.LayerNorm, nn.BatchNorm2d)):
                n.weight.copy_(torch.rand(n.weight.shape, generator=g) + 0.5)
                n.bias.copy_(torch.randn(n.bias.shape, generator=g))
            if isinstance(n, nn.BatchNorm2d):
                n.running_mean.copy_(torch.randn(n.running_mean.shape, generator=g))
                n.running_var.copy_(torch.rand(n.running_var.shape, generator=g) + 0.5)
    return m.eval()


def mlp():
    return MLP()


def encoder():
    return norms_random(nn.TransformerEncoderLayer(16, 2, 32, dropout=0.0, batch_first=True))


def gpt2():
    return norms_random(GPT2Block())


def bert_base():
    """A BERT-base encoder layer (768 wide, 12 heads, GELU)."""
    torch.manual_seed(0)
    return norms_random(nn.TransformerEncoderLayer(768, 12, 3072, activation="gelu", dropout=0.0,
                                                   batch_first=True))


def gpt2_base():
    """A GPT-2-small-sized block (768 wide, 12 heads)."""
    torch.manual_seed(0)
    return norms_random(GPT2Block(768, 12))


class MaskedPool(nn.Module):
    """An encoder layer and a mean over the tokens weighted by a mask: two
    inputs of one length (x [B, n, 16], mask [B, n])."""

    def __init__(self):
        super().__init__()
        self.layer = nn.TransformerEncoderLayer(16, 2, 32, dropout=0.0, batch_first=True)

    def forward(self, x, mask):
        h = self.layer(x)
        return (h * mask[..., None]).sum(1) / (mask.abs().sum(1, keepdim=True) + 1)


def masked_pool():
    return norms_random(MaskedPool())


class PadConv(nn.Module):
    """F.pad of an image's height and width (not of the batch), then a
    convolution: a dynamic batch around a constant pad."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3)

    def forward(self, x):
        return self.conv(nn.functional.pad(x, (1, 2, 0, 1), value=0.5)).relu()


def pad_conv():
    torch.manual_seed(0)
    return PadConv()


class Flip(nn.Module):
    """A flip of the last dimension (static) and, with dims=(1,), of the
    second (the length)."""

    def __init__(self, dims=(2,)):
        super().__init__()
        self.dims = dims

    def forward(self, x):
        return torch.flip(x, self.dims) * 2 + x


def flip_last():
    return Flip()


def flip_length():
    return Flip((1,))


class Cumsum(nn.Module):
    """Running sums along the length (dimension 1) and along the static
    last dimension, and a running mean over the tokens so far."""

    def forward(self, x):
        n = torch.arange(1, x.shape[1] + 1, dtype=x.dtype).reshape(1, -1, 1)
        return torch.cumsum(x, 1) / n + torch.cumsum(x, -1)


def cumsum():
    return Cumsum()


class Tokens(nn.Module):
    """Token ids [B, n] (in [0, 100)) through an embedding, learned
    positions and an encoder layer: a text model's front."""

    def __init__(self):
        super().__init__()
        self.tok = nn.Embedding(100, 16)
        self.pos = nn.Embedding(64, 16)
        self.enc = nn.TransformerEncoderLayer(16, 2, 32, dropout=0.0, batch_first=True)

    def forward(self, ids):
        pos = torch.arange(ids.shape[1]).unsqueeze(0)
        return self.enc(self.tok(ids) + self.pos(pos))


def tokens():
    return norms_random(Tokens())


class Select(nn.Module):
    """index_select of features (a static dimension) from [B, n, 8]."""

    def __init__(self):
        super().__init__()
        self.register_buffer("idx", torch.tensor([3, 0, 5, 5, -1 + 8]))

    def forward(self, x):
        return torch.index_select(x, 2, self.idx) * 2 + 1


def select():
    return Select()


class Repeat(nn.Module):
    """repeat of static dimensions of [B, n, 4], and a new leading one,
    the dynamic sizes taken once."""

    def forward(self, x):
        y = x.repeat(1, 1, 3)
        z = x.repeat(2, 1, 1, 1)
        return y[..., 2:6] * 2 + z[1] - z[0].tanh()


def repeat():
    return Repeat()


class IndexFeatures(nn.Module):
    """x[:, :, idx] and x[..., idx2] with static index tensors (one with
    a negative index) on [B, n, 16]: advanced indexing of static
    dimensions under a dynamic batch and length."""

    def __init__(self):
        super().__init__()
        self.register_buffer("idx", torch.tensor([3, 0, 15, 7]))
        self.register_buffer("idx2", torch.tensor([[1, -2], [5, 5], [0, 9], [2, 3]]))

    def forward(self, x):
        y = x[:, :, self.idx] * 2
        z = x[..., self.idx2]
        return y + z.sum(-1)


def index_features():
    return IndexFeatures()


class IndexLength(nn.Module):
    def forward(self, x):
        return x[:, torch.tensor([0, 2])] * 2


def index_length():
    return IndexLength()


class RepeatEmpty(nn.Module):
    """repeat of [B, 0, 3]: an empty result, whatever the batch"""

    def forward(self, x):
        return x.repeat(1, 3, 2) * 2


def repeat_empty():
    return RepeatEmpty()


class RepeatLength(nn.Module):
    def forward(self, x):
        return x.repeat(1, 2, 1)


def repeat_length():
    return RepeatLength()


class Argmax(nn.Module):
    """argmax along the length and along the features, and max.dim's
    values, of [B, n, 8]."""

    def forward(self, x):
        a = x.argmax(2, keepdim=True).float() + x.argmin(1, keepdim=True).float()
        return a + x.max(2, keepdim=True).values


def argmax():
    return Argmax()


class FirstItem(nn.Module):
    """Every item plus the batch's first: a gather across the items,
    which chunks of the batch cannot compute apart."""

    def forward(self, x):
        zero = torch.zeros(x.shape[0], dtype=torch.long)
        return x + torch.index_select(x, 0, zero)


def first_item():
    return FirstItem()


class PadBatch(nn.Module):
    def forward(self, x):
        return nn.functional.pad(x, (0, 0, 0, 0, 0, 0, 1, 1))


def pad_batch():
    return PadBatch()


class Pair(nn.Module):
    def forward(self, x, y):
        return x * 2 + y.tanh()


def pair():
    return Pair()


class SmallCNN(nn.Module):
    """conv, depthwise conv, batch norm, relu, max and adaptive pooling, a residual add
    and a linear head: the ops of resnet and mobilenet, small."""

    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(3, 8, 3, stride=2, padding=1)
        self.b1 = nn.BatchNorm2d(8)
        self.c2 = nn.Conv2d(8, 8, 3, padding=1, groups=8)   # depthwise
        self.b2 = nn.BatchNorm2d(8)
        self.fc = nn.Linear(8, 5)

    def forward(self, x):
        y = F.max_pool2d(torch.relu(self.b1(self.c1(x))), 2)
        y = torch.relu(y + self.b2(self.c2(y)))
        return self.fc(torch.flatten(F.adaptive_avg_pool2d(y, 1), 1))


def cnn():
    return norms_random(SmallCNN())


class Pool(nn.Module):
    """means over dynamic dims: a global average pool of any image size,
    and a mean over tokens"""

    def forward(self, x):
        return x.mean((2, 3)) * 2 + x.mean(-1, keepdim=True).mean(-2)[..., 0]


def pool():
    return Pool()
