#!/usr/bin/env bats
# decompose_nnx.c: losses, convolution variants, _trilinear, training batch
# norm, var_mean, scans, norms and fake quantization (cases_nnx.py), against
# PyTorch.
load helpers

@test "nll_loss: none/mean/sum, weights, ignore_index past C, 1-d input, cross_entropy" { regress nll_loss_reductions_weights_ignore; }
@test "nll_loss: every target ignored (0/0), batch 1 of one class, f64" { regress nll_loss_all_ignored_batch_one_f64; }
@test "nll_loss_backward: reductions, weights, ignore_index, 1-d, [1] grads" { regress nll_loss_backward_reductions; }
@test "mse_loss: reductions, f32 with f64, a transposed view, empty" { regress mse_loss_reductions_mixed_dtypes; }
@test "_convolution (both forms, grouped) and conv_tbc" { regress convolution_flags_and_conv_tbc; }
@test "convolution_backward: grouped, strided, padded, dilated; 1-d batch 1" { regress convolution_backward_grouped_strided_dilated; }
@test "_trilinear and nn.Bilinear, eager's empty all-expanded dim" { regress trilinear_and_bilinear; }
@test "native_batch_norm in training, batch_norm without stats, instance_norm" { regress batch_norm_training_and_instance_norm; }
@test "native_batch_norm in inference with its empty saved stats, f64" { regress batch_norm_eval_with_empty_stats; }
@test "var_mean: corrections 0, 1, 2, keepdim, all dims, f64, extent 1" { regress var_mean_corrections; }
@test "cumprod and logcumsumexp: zeros, int32, dtype, extents 0 and 1" { regress cumprod_logcumsumexp; }
@test "norm: p = 0, 1, 2, inf, -inf, 3, 0.5; dims, keepdim; normalize" { regress norm_p_values_dims; }
@test "renorm and _weight_norm_interface" { regress renorm_and_weight_norm; }
@test "fake_quantize_per_tensor_affine_cachemask: clamping, ties" { regress fake_quantize_cachemask; }
@test "native_group_norm_backward with given mean and rstd, f64" { regress group_norm_backward_given_stats; }
