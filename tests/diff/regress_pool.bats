#!/usr/bin/env bats
# Pooling of every rank and its relatives (decompose_pool.c, cases_pool.py),
# against PyTorch.
load helpers

@test "max_pool3d with indices: kernel, stride, padding, dilation, ceil_mode" { regress max_pool3d_with_indices_forms; }
@test "max pools with indices: NaN, ties, -inf windows; adaptive_max_pool3d with indices" { regress max_pool3d_nan_inf_ties_adaptive; }
@test "avg_pool3d (count_include_pad, divisor_override, int64), max_pool1d and avg_pool1d" { regress avg_pool3d_and_pool1d; }
@test "reflection and replication pads of every rank, unfold, im2col" { regress pads_unfold_im2col; }
@test "max_unpool2d/3d, max pool backward, upsample_nearest backward" { regress unpool_and_backward; }
@test "grid_sampler: bilinear and nearest, zeros and border, align_corners" { regress grid_sampler_modes; }
