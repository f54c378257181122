#!/usr/bin/env bats
# decompose_nnx.c: losses, convolution variants, _trilinear, training batch
# norm, var_mean, group norm backward, scans, norms and fake quantization
# (cases_nnx.py), against PyTorch.  Four cases of several parts each, one
# compile apiece.
load helpers

@test "nll_loss forward (none/mean/sum, weights, ignore_index past C, all ignored, 1-d) and backward, mse_loss" { regress nnx_losses; }
@test "_convolution, conv_tbc, convolution_backward (grouped, strided, padded, dilated), _trilinear, F.bilinear" { regress nnx_convolutions_trilinear; }
@test "native_batch_norm training and inference, instance_norm, var_mean (infinities too), native_group_norm_backward" { regress nnx_normalizations; }
@test "aten.instance_norm with the input's stats: planes of 1 and 2 dims, f64, a constant plane" { regress instance_norm_input_stats; }
@test "cumprod, logcumsumexp (inf, NaN, extents 0 and 1), norm p values, renorm, weight norm, fake_quantize" { regress nnx_scans_norms_quantize; }
