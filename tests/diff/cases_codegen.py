"""Regression cases: codegen and the runtime (see regress.py)."""
import torch
import torch.nn.functional as F
from cases import case


class EmbeddingBag(torch.nn.Module):
    """Token embeddings averaged over the sequence, then a linear layer."""

    def __init__(self, vocab, width, classes):
        super().__init__()
        self.emb = torch.nn.Embedding(vocab, width)
        self.fc = torch.nn.Linear(width, classes)

    def forward(self, tokens):
        return self.fc(self.emb(tokens).mean(1))


# ---- reductions over dims of extent 1 ----

@case
def mean_over_size1_last_dim():
    return (lambda x: x.mean(-1)), [torch.randn(3, 1)]


@case
def softmax_over_size1_dim():
    return (lambda x: x.softmax(1)), [torch.randn(3, 1, 4)]


@case
def amax_over_size1_dim():
    return (lambda x: torch.amax(x, 1)), [torch.randn(5, 1, 3)]


@case
def argmax_over_size1_dim():
    # two accumulators (value, index), both from their initial values
    return (lambda x: torch.argmax(x, 1)), [torch.randn(5, 1, 3)]


@case
def global_avg_pool_of_1x1_map():
    return (lambda x: F.adaptive_avg_pool2d(x, 1).flatten(1)), [torch.randn(2, 8, 1, 1)]


@case
def chained_1x1_matmuls():
    return (lambda a, b, c: (a @ b) @ c), [torch.randn(1, 1), torch.randn(1, 1), torch.randn(1, 1)]


def vision_model(name):
    """tests/e2e's model (random norm parameters and running statistics,
    so that no BatchNorm is an identity), checked for default norms."""
    import os
    import sys
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e"))
    import e2e_models
    m = getattr(e2e_models, name)()[0].eval()
    assert not e2e_models.norm_problems(m), e2e_models.norm_problems(m)
    return m


@case
def resnet18_at_32x32():
    return vision_model("resnet18"), [torch.randn(1, 3, 32, 32)]


@case
def mobilenet_v2_at_32x32():
    # 1x1 feature maps before the global average pooling
    return vision_model("mobilenet_v2"), [torch.randn(2, 3, 32, 32)]


# ---- computed indices in vectors ----

@case
def embedding_mean_batch4_width32():
    # the gather's column differs per lane of the vectorized reduction
    return EmbeddingBag(100, 32, 5), [torch.randint(0, 100, (4, 7))]


# ---- empty tensors and empty reductions ----

@case
def slice_to_empty():
    # the kernel's domain is empty: it must not store at all (ASan saw
    # the store past the result's buffer)
    return (lambda x: x[:-8, -7:, :] * 2), [torch.randn(6, 4, 7)]


def empty_beside_live(x):
    z = x.sum(0)                # a buffer of the arena
    y = torch.exp(x[:-8])       # empty, read twice: a buffer of its own
    return z * 2 + y.sum(0), y.mean(0)


@case
def empty_buffer_beside_live_one():
    # the store into the empty buffer overwrote the arena's live bytes
    return empty_beside_live, [torch.randn(6, 4, 7)]


@case
def mm_with_k0():
    return (lambda a, b: a @ b), [torch.randn(3, 0), torch.randn(0, 4)]


@case
def mm_with_k0_int8():
    return (lambda a, b: a @ b), [torch.zeros(3, 0, dtype=torch.int8), torch.zeros(0, 4, dtype=torch.int8)]


@case
def bmm_with_k0_and_epilogue():
    return (lambda a, b: torch.relu(torch.bmm(a, b) + 1)), [torch.randn(2, 3, 0), torch.randn(2, 0, 5)]


@case
def multi_dot_with_inner_0():
    return (lambda a, b, c: torch.linalg.multi_dot([a, b, c])), \
        [torch.randn(2, 0), torch.randn(0, 3), torch.randn(3, 2)]


@case
def all_of_empty_bool():
    return (lambda x: torch.all(x)), [torch.zeros(0, 3, dtype=torch.bool)]


@case
def any_of_empty_bool():
    return (lambda x: torch.any(x)), [torch.ones(0, 3, dtype=torch.bool)]


@case
def prod_of_empty():
    return (lambda x: torch.prod(x, 0)), [torch.randn(0, 3)]


@case
def sum_and_mean_over_empty_dim():
    return (lambda x: (x.sum(1), x.mean(1))), [torch.randn(2, 0, 3)]


@case
def amax_over_empty_dim_int():
    # PyTorch refuses amax over an empty dim; over the non-empty one the
    # result is empty
    return (lambda x: torch.amax(x, 0)), [torch.randint(0, 9, (4, 0), dtype=torch.int32)]


# ---- 0-d tensors ----

@case
def argmax_of_0d():
    return (lambda x: torch.argmax(x)), [torch.tensor(3.0)]


@case
def argmin_of_0d_int():
    return (lambda x: torch.argmin(x)), [torch.tensor(-7, dtype=torch.int32)]


@case
def argmax_dim0_of_0d_keepdim():
    return (lambda x: torch.argmax(x, 0, keepdim=True)), [torch.tensor(1.5)]


@case
def sum_and_amax_of_0d():
    return (lambda x: (x.sum(), torch.amax(x), x.mean())), [torch.tensor(2.5)]


@case
def argmax_of_0d_minus_inf():
    # nothing beats -inf: the index is the accumulator's initial 0
    return (lambda x: torch.argmax(x)), [torch.tensor(float("-inf"))]


@case
def max_with_index_of_0d():
    return (lambda x: torch.max(x, 0)), [torch.tensor(-2.5)]


def argmax_0d_selects(x, v):
    i = torch.argmax(x)
    return v.sum(1) * 3, torch.index_select(v, 1, i.reshape(1)).exp()


@case
def argmax_of_0d_as_an_index():
    # the index was never stored: index_select read wherever it pointed
    return argmax_0d_selects, [torch.tensor(-2.5), torch.randn(5, 4)]


@case
def reductions_over_empty_dim_vectorized():
    # the output is contiguous and 40 wide: the reduction keeps its
    # accumulators in the output, written in vectors (codegen's S2)
    return (lambda x: (x.sum(0) + 1, x.prod(0), x.mean(0))), [torch.randn(0, 40)]


@case
def pooling_with_1x1_window():
    return (lambda x: (F.max_pool2d(x, 1), F.avg_pool2d(x, 1))), [torch.randn(1, 3, 5, 40)]


# ---- found by tests/diff/fuzz.py ----

@case
def sum_of_squeezed_rank1_to_0d():
    # collapse_shape [] (rank 1 -> 0) feeding a 0-d reduction: the source
    # index of the ungrouped dim was left unset (codegen SIGSEGV)
    return (lambda x: torch.sum(x.squeeze(0), dim=None, keepdim=True)), \
        [torch.tensor([True])]


@case
def unsqueezed_0d_into_elementwise():
    # expand_shape [] (rank 0 -> 1) read by a fused elementwise op
    return (lambda x, y: x.unsqueeze(0).unsqueeze(1) * y), \
        [torch.tensor(1.5), torch.randn(3, 4)]


@case
def matmul_with_bool_and_narrow_epilogues():
    # a GEMM's fused epilogue that makes booleans stored a vector of i1,
    # packing 16 results into 2 bytes (found by fuzz-diff); also narrower
    # results than the f32 accumulator (f16, int8)
    # (each product has one user, so that the epilogue fuses)
    return (lambda a, b, c, d: (torch.isinf(a @ b), (a @ (b * 2)) > 0,
                                torch.relu(c @ d) < 1, (a @ (b + 1)).half(),
                                ((c * 3) @ d).to(torch.int8))), \
        [torch.randn(13, 31), torch.randn(31, 16), torch.randn(2, 40), torch.randn(40, 37)]


@case
def matmul_of_collapsed_rows_with_epilogue():
    # a [32,5,31,7] @ [7,1] matmul collapses its rows into one dim of 4960
    # that three output indices use; the GEMM plan counted it once per
    # index (N = 4960^3) and the kernel ran for hours (found by fuzz-diff)
    return (lambda x, y, z: (torch.sqrt(x @ y), torch.relu(z @ y) + 1)), \
        [torch.rand(32, 5, 31, 7), torch.rand(7, 1), torch.randn(3, 9, 7)]


@case
def f16_to_uint8_in_a_vectorized_loop():
    # fptosi f16 -> i32, trunci -> i8, uitofp: LLVM 16's loop vectorizer
    # made an invalid "trunc <N x half>" and codegen aborted on AVX-512
    # (found by fuzz-diff)
    def f(x, y):
        u = x.to(torch.uint8)
        return torch.where(u > 0, u, y) >= 1, x.to(torch.int8) * 3
    return f, [(torch.randn(5, 70) * 20).clamp(-120, 120).half(), torch.randn(1, 1).bfloat16()]


@case
def gather_of_no_columns_padded():
    # x[i] of a [31, 0] x is [4, 0]; padding it to [4, 1] fused the gather
    # into the pad's select, whose source index clamped into an extent of 0
    # is out of range: the kernel stopped at the gather's bounds check
    # (found by fuzz-diff through diag_embed's pad)
    def f(x, i, y):
        return F.pad(x[i], [0, 1]), torch.diag_embed(y[i], -2), F.pad(x[i], [1, 2], value=3.0)
    return f, [torch.randn(31, 0), torch.tensor([1, 30, 0, 4]), torch.randn(31, 0, dtype=torch.float64)]


@case
def pads_filled_by_the_host():
    # a materialized pad (a depthwise conv's input, or a result) is the
    # host's fill of the pad value and a kernel over the source's shape
    # storing inside it: values other than 0, integer, f16 and boolean
    # pads, an empty source, a transposed and a fused (relu) source, a
    # depthwise conv with stride 2 and padding 2 at batch 3 and odd sizes
    def f(x, w, i, h, b, e):
        xr = torch.relu(x)
        dw = F.conv2d(xr, w, padding=2, stride=2, groups=5)
        return (dw, F.pad(i, [1, 2, 0, 3], value=7), F.pad(h.t(), [2, 1], value=-2.5),
                F.pad(b, [1, 1], value=True), F.pad(e, [3, 0, 1, 1], value=1.5),
                F.conv2d(F.pad(x, [1, 1, 1, 1], value=0.25), w, groups=5))
    return f, [torch.randn(3, 5, 13, 9), torch.randn(5, 1, 3, 3),
               torch.randint(-50, 50, (4, 6)), torch.randn(7, 3).half(),
               torch.rand(2, 5) > 0.5, torch.randn(2, 0, 4)]


@case
def roots_storing_inside_a_pad():
    # the kernel of a root whose epilogue chain ends in a depthwise
    # convolution's pad stores inside the pad's buffer: a 1x1 conv (a GEMM
    # whose tile rows cross the rows of 13 and 5 at run time) with bias
    # and relu6, a depthwise conv (a loop nest) with relu, a GEMM whose
    # result the pad reads directly; batch 3, odd sizes, stride 2
    def f(x, w1, w2, w3, w4):
        a = F.relu6(F.conv2d(x, w1, torch.arange(24.0) / 24))
        b = torch.relu(F.conv2d(a, w2, padding=1, groups=24))
        c = F.conv2d(b, w3, padding=2, stride=2, groups=24)
        d = F.conv2d(x, w4)
        return c, F.conv2d(d, w2[:6], padding=1, groups=6)
    return f, [torch.randn(3, 8, 13, 5), torch.randn(24, 8, 1, 1), torch.randn(24, 1, 3, 3),
               torch.randn(24, 1, 5, 5), torch.randn(6, 8, 1, 1)]


@case
def gemm_reading_a_in_place_with_a_partial_last_panel():
    # A read where it lies (row-major activations) with M not a whole
    # number of tile rows: the last panel's rows by a micro-kernel of
    # that many rows (the full tile's rows past M would be read from
    # beyond the argument), the others by the full tile's
    w1, w2 = torch.randn(33, 40), torch.randn(40, 17)
    def f(x, y, b):
        return torch.relu(x @ w1) @ w2, torch.bmm(b, y), x[:7] @ w1
    return f, [torch.randn(13, 33), torch.randn(3, 17, 20), torch.randn(3, 11, 17)]


@case
def gemm_storing_heads_side_by_side():
    # attention's P @ V stored as [tokens, heads * width] (a transpose
    # and a reshape fused into the GEMM's store, an elementwise op after
    # the reshape reading the [tokens, heads * width] view): the innermost output
    # index reads the head and the column, the column with step 1, so
    # the column is N; widths 9 and 17 (partial panels: stores lane by
    # lane where a panel crosses into the next head), an epilogue, bf16
    # operands widened and a bf16 result (autocast's), and a store whose
    # innermost step is the head (a batch dim: no GEMM)
    def f(p, v, w, pb, vb):
        a = torch.bmm(p, v).permute(1, 0, 2).reshape(13, 12 * 9)
        b = torch.relu(torch.bmm(p, w) * 2).permute(1, 0, 2).reshape(13, 12 * 17) + 1
        c = torch.bmm(pb.float(), vb.float()).bfloat16().permute(1, 0, 2).reshape(13, 12 * 16)
        d = torch.bmm(p * 3, v).permute(1, 2, 0).reshape(13, 9 * 12)
        return a - 1, b, c.float(), d * 2
    return f, [torch.rand(12, 13, 40), torch.randn(12, 40, 9), torch.randn(12, 40, 17),
               torch.rand(12, 13, 40).bfloat16(), torch.randn(12, 40, 16).bfloat16()]


# ---- channels-last tap copies wider than a vector ----

class TapRows(torch.nn.Module):
    """A 1x1 convolution to c channels (kept channels last), then a padded
    3x3 stride-2 one reading it through its taps: the copy's rows of c
    channels go in vectors of 16 and what is left (c = 100: six and 4)."""

    def __init__(self, c):
        super().__init__()
        self.a = torch.nn.Conv2d(8, c, 1)
        self.b = torch.nn.Conv2d(c, 160, 3, stride=2, padding=1)

    def forward(self, x):
        return self.b(torch.relu(self.a(x)))


@case
def tap_copy_rows_of_100_channels_nchw():
    # the 1x1's output has channels as rows (NCHW): the copy gathers
    return TapRows(100), [torch.randn(2, 8, 14, 14)]


@case
def tap_copy_rows_of_100_channels_last():
    # pixels as rows: the 1x1's output is channels last, loaded in vectors
    return TapRows(100), [torch.randn(1, 8, 13, 13)]


@case
def tap_copy_rows_of_128_channels_last():
    return TapRows(128), [torch.randn(1, 8, 13, 13)]


# ---- window loop nests in blocks of rows ----

@case
def window_rows_in_blocks():
    # depthwise convolutions and pooling (loop nests in vectors of 16
    # along the row, the window unrolled) take blocks of up to four rows
    # of the map, each input row's vectors loaded once for the block:
    # maps of 23 and 7 rows (blocks, then 3 rows one at a time), rows of
    # 37 (two vectors and a tail of 5) and 70 (a loop over groups of four
    # vectors, then one), stride 2, dilation 2, a multiplier of two,
    # batch 2, bias and relu6
    def f(x, y, w, w2, b):
        a = F.relu6(F.conv2d(x, w, b, padding=1, groups=48))
        c = F.conv2d(y, w2, padding=2, dilation=2, groups=16)
        d = F.conv2d(x, w, stride=2, padding=1, groups=48)
        return a, c, d, F.avg_pool2d(x, 3, 1, 1), F.max_pool2d(y, 3, 1)
    return f, [torch.randn(2, 48, 23, 37), torch.randn(1, 16, 7, 70), torch.randn(48, 1, 3, 3),
               torch.randn(32, 1, 3, 3), torch.randn(48)]


# ---- 3x3 convolutions by Winograd's F(2x2, 3x3) ----

class WinogradPair(torch.nn.Module):
    """Two 3x3 convolutions of stride 1 (Winograd's, codegen's wino.c),
    the second reading the first's relu through its pad, its output the
    function's result (NCHW: the output transform's vectors scattered);
    the relu a result too where `both` (NCHW then, else kept channels
    last); weights scaled by `scale` (their magnitudes, where `scale` is
    given)."""

    def __init__(self, cin, cmid, cout, scale=None, both=True):
        super().__init__()
        self.both = both
        self.a = torch.nn.Conv2d(cin, cmid, 3, padding=1)
        self.b = torch.nn.Conv2d(cmid, cout, 3, padding=1, bias=False)
        if scale is not None:
            with torch.no_grad():
                self.a.weight.abs_().mul_(scale)
                self.b.weight.abs_().mul_(scale)

    def forward(self, x):
        y = F.relu(self.a(x))
        return (y, self.b(y)) if self.both else self.b(y)


@case
def winograd_non_finite_inputs():
    # an infinite or NaN input gives the direct sum's infinities and NaNs
    # in the outputs whose windows hold it and nowhere else (the output
    # transform sums the non-finite ones again directly): batch 2, 64, 96
    # and 64 channels (kept channels last), maps of 7x10 (blocks of 2x2,
    # the last row's past the map)
    x = torch.randn(2, 64, 7, 10)
    x[0, 3, 2, 4] = float("inf")
    x[1, 63, 6, 9] = float("-inf")
    x[1, 0, 0, 0] = float("nan")
    x[0, 8, 0, 9] = float("inf")
    return WinogradPair(64, 96, 64), [x]


@case
def winograd_transform_overflow():
    # inputs of 1.5e38: the transforms' sums of four overflow where the
    # direct sums (positive weights up to 4e-3: no cancellation) stay
    # finite; those outputs are summed again directly, in the first
    # convolution's output transform channels last.  An 8x16 map, 32
    # blocks.
    x = torch.randn(1, 64, 8, 16)
    x[0, :, :2, :] = 1.5e38
    return WinogradPair(64, 64, 64, scale=1e-3, both=False), [x]
