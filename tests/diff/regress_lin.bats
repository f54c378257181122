#!/usr/bin/env bats
# decompose_lin.c: diagonals, eye, linspace, hann_window, linalg_cross,
# shuffles, rot90, aminmax, addbmm, det and slogdet, expand_copy
# (cases_lin.py), against PyTorch.  Several cases a test: one PyTorch
# start for each group.
load helpers

@test "diagonal, diag, diag_embed, trace: offsets past the edges, dims in any order, views, int64, bool, empty" {
  regress diagonal_offsets_dims_views diag_embed_and_1d_diag trace_float_int_empty
}
@test "eye, linspace (eager's values to the bit, integer dtypes, steps 0 to 2), hann_window" {
  regress eye_and_eye_m_dtypes linspace_dtypes_and_steps hann_window_periodic_sizes
}
@test "linalg_cross, channel_shuffle, pixel_(un)shuffle, rot90, expand_copy: broadcasting, ranks 3 to 5, every k" {
  regress linalg_cross_broadcast_dims channel_pixel_shuffles rot90_every_turn expand_copy_sizes
}
@test "aminmax with NaN, addbmm with beta 0 over NaN and an empty batch, det and slogdet with pivoting and singular matrices" {
  regress aminmax_dims_nan_int addbmm_beta_zero_nan_int_empty det_slogdet_pivoting_singular
}
@test "bilinear: batches of rank 1 and 2, bias or none, one output, an empty batch" {
  regress bilinear_batches_bias_and_empty
}
@test "einsum: dot, matmul, batched, permutation, sums, outer product, capital labels" {
  regress einsum_contractions_batches_sums
}
