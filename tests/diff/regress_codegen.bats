#!/usr/bin/env bats
# Codegen and runtime bugs that once gave wrong results (cases_codegen.py),
# against PyTorch.
load helpers

@test "mean over a size-1 dim starts from its accumulator's initial value" { regress mean_over_size1_last_dim; }
@test "softmax over a size-1 dim" { regress softmax_over_size1_dim; }
@test "amax over a size-1 dim" { regress amax_over_size1_dim; }
@test "argmax over a size-1 dim: both accumulators initialised" { regress argmax_over_size1_dim; }
@test "global average pooling of a 1x1 feature map" { regress global_avg_pool_of_1x1_map; }
@test "two chained 1x1 matmuls" { regress chained_1x1_matmuls; }
@test "resnet18 at 32x32 (1x1 maps before the pooling)" { regress resnet18_at_32x32; }
@test "mobilenet_v2 at 2x3x32x32 (1x1 maps before the pooling), random norms" { regress mobilenet_v2_at_32x32; }
@test "an embedding in a vectorized reduction reads each lane's column" { regress embedding_mean_batch4_width32; }
@test "a slice to an empty tensor stores nothing" { regress slice_to_empty; }
@test "a kernel over an empty buffer leaves the arena alone" { regress empty_buffer_beside_live_one; }
@test "mm with K = 0 gives zeros" { regress mm_with_k0; }
@test "int8 mm with K = 0 gives zeros" { regress mm_with_k0_int8; }
@test "bmm with K = 0 and an epilogue" { regress bmm_with_k0_and_epilogue; }
@test "multi_dot through an empty inner dim" { regress multi_dot_with_inner_0; }
@test "all() of an empty bool tensor is true" { regress all_of_empty_bool; }
@test "any() of an empty bool tensor is false" { regress any_of_empty_bool; }
@test "prod over an empty dim is 1" { regress prod_of_empty; }
@test "sum and mean over an empty dim" { regress sum_and_mean_over_empty_dim; }
@test "amax of an int tensor with an empty dim" { regress amax_over_empty_dim_int; }
@test "argmax of a 0-d tensor" { regress argmax_of_0d; }
@test "argmin of a 0-d int tensor" { regress argmin_of_0d_int; }
@test "argmax over dim 0 of a 0-d tensor, keepdim" { regress argmax_dim0_of_0d_keepdim; }
@test "sum, amax and mean of a 0-d tensor" { regress sum_and_amax_of_0d; }
@test "argmax of a 0-d -inf is 0" { regress argmax_of_0d_minus_inf; }
@test "max with its index of a 0-d tensor" { regress max_with_index_of_0d; }
@test "argmax of a 0-d tensor used as an index" { regress argmax_of_0d_as_an_index; }

# PyTorch raises IndexError for these; the module must not read past the
# table and print a number
@test "an embedding's token out of range stops vmrun with a message" {
  need_torch
  run "$PY" - "$BATS_TEST_TMPDIR" <<'PY'
import subprocess, sys
import numpy as np, torch
import torch.nn.functional as F
sys.path.insert(0, "tests/diff")
from pipe import BIN, compile_module
from cases import Fn
d = sys.argv[1]
torch.manual_seed(0)
table = torch.randn(10, 32)
vmfb = compile_module(Fn(lambda t: F.embedding(t, table).mean(1)),
                      [torch.tensor([[1, 2, 3], [0, 0, 0]])], d)
for tokens, ok in (([[1, 2, 9], [0, 0, 0]], True), ([[1, 2, 10], [0, 0, 0]], False),
                   ([[1, 2, 3], [0, -1, 0]], False)):
    np.save(d + "/t.npy", np.array(tokens, dtype=np.int64))
    p = subprocess.run([BIN + "/vmrun", vmfb, "--input=@" + d + "/t.npy"],
                       capture_output=True, text=True)
    print(tokens, p.returncode, p.stderr.strip())
    assert (p.returncode == 0) == ok
    assert ok or "out of range" in p.stderr
PY
  echo "$output"
  [ "$status" -eq 0 ]
}
@test "sum, prod and mean over an empty dim into a wide output (vectorized)" { regress reductions_over_empty_dim_vectorized; }
@test "max and average pooling with a 1x1 window" { regress pooling_with_1x1_window; }
@test "a rank-1 to rank-0 collapse feeding a 0-d reduction (fuzz-diff)" { regress sum_of_squeezed_rank1_to_0d; }
@test "a rank-0 to rank-2 expand read by an elementwise op" { regress unsqueezed_0d_into_elementwise; }
@test "a GEMM with boolean, f16 and int8 epilogues (fuzz-diff)" { regress matmul_with_bool_and_narrow_epilogues; }
@test "a GEMM whose rows are a collapsed 3-D batch, with an epilogue (fuzz-diff hang)" { regress matmul_of_collapsed_rows_with_epilogue; }
@test "an f16 to uint8 conversion in a loop LLVM vectorizes (fuzz-diff: codegen abort)" { regress f16_to_uint8_in_a_vectorized_loop; }
@test "a gather of no columns padded (fuzz-diff: a bounds check stopped the kernel)" { regress gather_of_no_columns_padded; }
@test "pads filled by the host around a copy of their source (depthwise inputs, results)" { regress pads_filled_by_the_host; }
@test "kernels storing inside a depthwise convolution's pad (GEMM and loop-nest producers)" { regress roots_storing_inside_a_pad; }
@test "GEMMs reading A in place with a partial last tile of rows" { regress gemm_reading_a_in_place_with_a_partial_last_panel; }
@test "GEMMs storing heads side by side (attention: transposed, reshaped store)" { regress gemm_storing_heads_side_by_side; }
@test "a channels-last tap copy of 100 channels from NCHW: rows in vectors of 16 and 4, gathered" { regress tap_copy_rows_of_100_channels_nchw; }
@test "a channels-last tap copy of 100 channels from channels last: rows in vectors of 16 and 4" { regress tap_copy_rows_of_100_channels_last; }
@test "a channels-last tap copy of 128 channels: rows in vectors of 16" { regress tap_copy_rows_of_128_channels_last; }
@test "depthwise convolutions and pooling in blocks of rows (odd maps, tails, stride, dilation)" { regress window_rows_in_blocks; }
@test "Winograd 3x3 convolutions: infinities and NaNs where the direct sum has them" { regress winograd_non_finite_inputs; }
@test "Winograd 3x3 convolutions: a transform that overflows is summed directly" { regress winograd_transform_overflow; }
